// Scripts of the real-world corpus that fail today: exact error and owning area. Never delete a
// script to make the suite green; fix the owner's code, then remove the entry here.
export interface KnownFailure {
  /** The first error the test reports (mode: message). */
  error: string;
  /** lang, check, interpret, compile, ta, strategy, drawing, request, str, array, map, matrix, ... */
  area: string;
}

export const KNOWN_FAILURES: Record<string, KnownFailure> = {};
