// Scripts of the real-world corpus that fail today: the first error the test reports and the
// owning area. Never delete a script to make the suite green; fix the owner's code, then remove
// the entry here (vitest reports a fixed entry as an unexpected pass). docs/realworld.md has the
// diagnosis of each group.
export interface KnownFailure {
  /** The first error the test reports ("<mode>: <kind>: <message>" or the failed check). */
  error: string;
  /** lang, check, interpret, compile, ta, strategy, drawing, request, alert, ... */
  area: string;
}

// Empty at 23:37 UTC: every fault this corpus found has been fixed by its owner (history in
// docs/realworld.md). Add an entry here when a new script fails.
export const KNOWN_FAILURES: Record<string, KnownFailure> = {};

/**
 * Failures of the realtime pass only (last 3 bars replayed as 4-tick realtime bars). Empty since the
 * rollback of var arrays, maps, matrices and UDT objects between ticks (src/interpret/rollback.ts).
 */
export const REALTIME_KNOWN_FAILURES: Record<string, KnownFailure> = {};
