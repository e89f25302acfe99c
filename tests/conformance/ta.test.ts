// TradingView conformance of ta.*: every ta case of tests/conformance/data except base_*,
// series_if_for, session*, timeframe_* (base.test.ts and time.test.ts run those), through the public
// Runtime in both modes. Every cell within 1e-9 relative (1e-12 absolute near zero), na must be na.
// A case that does not match yet is listed in KNOWN_FAILURES with its reason and runs as an expected
// failure.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CONFORMANCE } from "../helpers/conformance.js";
import { taConformanceSuite } from "../helpers/ta-suite.js";

const OWNED_ELSEWHERE = /^(base_|series_if_for$|session|timeframe_)/;
const CASES = readdirSync(join(CONFORMANCE, "ta"))
  .filter((n) => !OWNED_ELSEWHERE.test(n))
  .sort();

const KNOWN_FAILURES: Record<string, string> = {
  // Not reachable from the exported inputs: the moment form (E[xy]-E[x]E[y], which TradingView's own
  // numbers show: they sit up to 2.4e-7 relative from the exact correlation of the same inputs)
  // cancels about 7 digits on this data, so a 1-2 ulp change in an input moves the result by up to
  // 4e-7. TradingView's ta.sma itself is not bit-reproducible from the exported OHLCV (ta/ma: 29 of 141
  // sma(close, 10) cells bit-equal under any running or fresh summation tried, up to 4 ulps apart),
  // so no formula can reproduce its correlation to 1e-9 (gap here: 1e-8..1e-6 relative).
  correlation: "moment-form correlation amplifies TradingView's unreproducible ulp-level sma/ema inputs to ~1e-7",
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
