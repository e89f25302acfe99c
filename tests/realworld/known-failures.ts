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

/** Failures of the realtime pass only (last 3 bars replayed as 4-tick realtime bars). */
export const REALTIME_KNOWN_FAILURES: Record<string, KnownFailure> = {
  // TradingView's own VWAP guard `if barstate.islast and ta.cum(volume) == 0` (v6 lazy `and`: the
  // ta.cum call only runs on islast bars) fires because the first tick of a realtime bar has
  // volume 0 here, and barstate.islast is false on realtime bars other than the data's last one
  // (the reference: "true for all real-time bars in barset")
  "v6_vwap_bands.pine": {
    error: "realtime: runtime: No volume is provided by the data vendor.",
    area: "runtime/realtime (barstate.islast on realtime bars, first-tick volume)",
  },
};

