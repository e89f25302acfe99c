// Type feedback for code that runs once per run (issue 18, warm-up). V8 gives a function its feedback
// vector only after it has run some multiple of its bytecode size (lazily, to save memory), so a pass
// over every bar that a run calls once (or a branch of the per-bar code taken once in many bars) runs
// its first calls without one: the straight-line code around its loop records nothing, the code V8
// optimises from the loop (on-stack) has no feedback there, and a later run deoptimises at the
// function's entry or exit ("Insufficient type feedback") and compiles it again. Such code is called
// at module load on a small input of the types a run passes, often enough to get its feedback then.

/**
 * Calls a full pass of the function (loop body, entry and exit) per call: V8 allocates the feedback
 * vector after about 8 times the bytecode size has run, which 32 such calls cover with room to spare.
 */
const PRIME_CALLS = 32;

/** Runs `call` PRIME_CALLS times; `call` must take the function's ordinary path on realistic values. */
export function primeFeedback(call: () => void): void {
  for (let i = 0; i < PRIME_CALLS; i++) call();
}
