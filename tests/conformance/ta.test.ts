// TradingView conformance of ta.*: every ta case of ../shared/conformance except base_*,
// series_if_for, session*, timeframe_* (base.test.ts and time.test.ts run those), through the public
// Runtime in both modes. Every cell within 1e-9 relative (1e-12 absolute near zero), na must be na.
// A case that does not match yet is listed in KNOWN_FAILURES with its reason and runs as an expected
// failure.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE } from "../helpers/conformance.js";
import { taConformanceSuite } from "../helpers/ta-suite.js";

const OWNED_ELSEWHERE = /^(base_|series_if_for$|session|timeframe_)/;
const CASES = readdirSync(join(CONFORMANCE, "ta")).filter((n) => !OWNED_ELSEWHERE.test(n)).sort();

const KNOWN_FAILURES: Record<string, string> = {
  // E[xy]-E[x]E[y] over sqrt(var*var) (the form logs/ta_test_244 pins, na gaps included) is off by
  // 1e-8..1e-6 relative on about half the bars; TradingView's exact summation is not identified yet.
  correlation: "correlation formula differs from TradingView's at ~1e-8 relative (cancellation)",
  // Needs request.security data for USI:ADVN.NY / USI:DECL.NY, which the case does not ship.
  security_advance_decline_ratio: "needs request.security bars of USI:ADVN.NY / USI:DECL.NY (not in the case)",
};

/** This export writes na as 1e100 (see INDEX.md). */
const NA_CODE: Record<string, number> = { pivot_point_levels: 1e100 };

taConformanceSuite("ta", CASES, {
  knownFailures: KNOWN_FAILURES,
  prepare: (c) => {
    const code = NA_CODE[c.name];
    if (code !== undefined) c.expected = c.expected.map((col) => col.map((v) => (v === code ? NaN : v)));
  },
});
