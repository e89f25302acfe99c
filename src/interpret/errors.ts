// Errors raised while a script runs (error_kind "runtime"): runtime.error(), array bounds, loop limit.
export class PineRuntimeError extends Error {
  constructor(
    message: string,
    /** 1-based line of the top-level statement that was running (set by the backend that catches it). */
    public line?: number,
  ) {
    super(message);
    this.name = "PineRuntimeError";
  }
}

/** A per-bar loop may run at most this long (TradingView's limit). */
export const LOOP_LIMIT_MS = 500;
