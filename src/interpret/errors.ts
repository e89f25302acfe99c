// Errors raised while a script runs (error_kind "runtime"): runtime.error(), array bounds, loop limit.
export class PineRuntimeError extends Error {
  constructor(
    message: string,
    /**
     * 1-based line of the innermost statement that was running: each block a statement sits in (and
     * the top level) gives an error leaving it that statement's line, unless an inner one already did.
     */
    public line?: number,
  ) {
    super(message);
    this.name = "PineRuntimeError";
  }
}

/** Raises a runtime error (what every run's ExecContext.runtimeError does: context.ts). */
export function runtimeError(message: string): never {
  throw new PineRuntimeError(message);
}

/** `err` with `line` as its position when it is a runtime error without one yet (for rethrowing). */
export function atLine(err: unknown, line: number): unknown {
  const e = scriptError(err);
  if (e instanceof PineRuntimeError && e.line === undefined) e.line = line;
  return e;
}

/**
 * What the engine's own faults mean for the script, so that they reach the user as runtime errors
 * with the statement's line rather than as raw internals: a WebAssembly trap in a ta.* kernel (an
 * out-of-bounds access or an allocation past the kernel memory's maximum, which huge lengths cause)
 * and a failed allocation are the memory limit; a stack overflow is nesting too deep for the engine.
 * Anything else (internal faults, the run's timeout) passes through unchanged.
 */
export function scriptError(err: unknown): unknown {
  if (err instanceof PineRuntimeError) return err;
  if (typeof WebAssembly !== "undefined" && err instanceof WebAssembly.RuntimeError) {
    const what = /unreachable/.test(err.message)
      ? "a ta.* kernel failed"
      : `a ta.* kernel ran out of memory (${err.message})`;
    return new PineRuntimeError(
      `Memory limits exceeded: ${what}; lengths this large need more memory than a run may use`,
    );
  }
  if (err instanceof RangeError) {
    if (/call stack/i.test(err.message)) return new PineRuntimeError(`${TOO_DEEP}: the engine's stack overflowed`);
    if (/allocation|array length|buffer|memory/i.test(err.message))
      return new PineRuntimeError(`Memory limits exceeded: ${err.message}`);
  }
  return err;
}

/** The message of a script the engine cannot nest deeply enough for (parser, checker and both backends). */
export const TOO_DEEP = "The script is nested too deeply";
