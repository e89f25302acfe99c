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

export const KNOWN_FAILURES: Record<string, KnownFailure> = {
  // compile: `ta.roc(close, 10) / ta.percentrank(ta.atr(14), 100)` written inline gives other
  // numbers than interpret (from bar 192); the same division through two variables agrees
  "v5_ta_misc_builtins.pine": {
    error: "interpret != compile: Vol-adj[192]: interpret -0.11615674585780375 vs compile -0.270081895800661",
    area: "compile (ta.* call nested in a divisor)",
  },
  "v6_inline_expression_styles.pine": {
    error: "interpret != compile: Mom z[64]: interpret 2.1213203435520436 vs compile 0.4465937565372514",
    area: "compile (ta.* call nested in a divisor)",
  },
};
