// How many worker threads `resin optimize` keeps busy. A thread's first trials cost far more than
// its later ones: it loads the engine and V8 runs the parser, checker, generated code and broker
// unoptimised until they tier up, about half a second of CPU (docs/benchmarks.md "issue 18, session
// 8, optimize"). A short study on two cold threads pays that twice and finishes no sooner on a busy
// machine, so the study starts on one thread and lets the others in only once the work still ahead
// (the runs left times the median of the last three runs, read once the first thread is past its own
// warm-up) is worth GROW_AFTER_MS: then a second thread's start-up is a small part of what it takes over. `--workers N` fixes the number instead. Which trials run
// where never changes the result (src/optimize/driver.ts).

/** Work still ahead (ms on one thread) from which more threads are let in. */
export const GROW_AFTER_MS = 2000;
/** Runs finished before their times are read (the first ones are start-up and code not yet optimised). */
const RUNS_BEFORE_GROWING = 10;

export class ThreadGate {
  private allowed: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private finished = 0;
  /** The last three runs' wall times. */
  private readonly recentMs: number[] = [];

  /**
   * `max`: threads at most; `fixed`: use them all from the start; `totalRuns`: the study's engine
   * runs (trials x folds), to tell how much is left.
   */
  constructor(
    readonly max: number,
    private readonly totalRuns: number,
    fixed = false,
    private readonly growAfterMs = GROW_AFTER_MS,
  ) {
    this.allowed = fixed ? max : 1;
  }

  /** Runs allowed at once now. */
  get width(): number {
    return this.allowed;
  }

  /** Runs `work` when a thread is free for it. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= this.allowed) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      this.running--;
      this.finished++;
      this.recentMs.push(performance.now() - t0);
      if (this.recentMs.length > 3) this.recentMs.shift();
      this.maybeGrow();
      for (let free = this.allowed - this.running; free > 0 && this.waiting.length; free--) this.waiting.shift()!();
    }
  }

  private maybeGrow(): void {
    if (this.allowed >= this.max || this.finished < RUNS_BEFORE_GROWING) return;
    const left = Math.max(0, this.totalRuns - this.finished);
    const runMs = [...this.recentMs].sort((a, b) => a - b)[1] ?? 0;
    if (left * runMs >= this.growAfterMs) this.allowed = this.max;
  }
}
