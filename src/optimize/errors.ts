// Optimize request errors. The codes are the /optimize error codes of service.md 2.3, so the HTTP
// host, `resin optimize` and the chart app report the same thing for the same mistake.

export type OptimizeErrorCode =
  | "NO_SCRIPT"
  | "NO_DATA"
  | "NOT_A_STRATEGY"
  | "INVALID_SPACE"
  | "INVALID_VALIDATION"
  | "INVALID_OBJECTIVE"
  | "INVALID_SAMPLER"
  | "GRID_TOO_LARGE"
  | "TOO_MANY_RUNS"
  | "INVALID_PARALLELISM"
  | "INVALID_DATASETS";

export class OptimizeError extends Error {
  readonly code: OptimizeErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: OptimizeErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = "OptimizeError";
    this.code = code;
    this.details = details;
  }
}

/** Thrown (as the rejection of a study) when its AbortSignal fires. */
export class OptimizeAbortedError extends Error {
  constructor() {
    super("optimize cancelled");
    this.name = "AbortError";
  }
}
