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

/** `err` with `line` as its position when it is a runtime error without one yet (for rethrowing). */
export function atLine(err: unknown, line: number): unknown {
  if (err instanceof PineRuntimeError && err.line === undefined) err.line = line;
  return err;
}

/** A per-bar loop may run at most this long (TradingView's limit). */
export const LOOP_LIMIT_MS = 500;
