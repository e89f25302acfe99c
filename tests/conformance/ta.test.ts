// TradingView conformance of ta.*: every ta case of ../shared/conformance except base_*,
// series_if_for, session*, timeframe_* (owned elsewhere), through the public Runtime in both modes.
// Every cell within 1e-9 relative (1e-12 absolute near zero), na must be na. A case that does not
// match yet is listed in KNOWN_FAILURES with its reason and runs as an expected failure.
import { afterAll, describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { runBoth } from "../helpers/run-both.js";
import { CONFORMANCE, loadTaCase, score, type Score } from "../helpers/conformance.js";
import { registry } from "../../src/builtins/index.js";
import * as ta from "../../src/builtins/ta/index.js";

// src/builtins/index.ts (not owned by the ta engineer) does not list the ta module yet: register it
// here until it does, so that these cases run through the real Runtime.
if (!registry.functions["ta.sma"]) {
  Object.assign(registry.functions, ta.functions);
  Object.assign(registry.variables, ta.variables);
}

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

const scores: Record<string, Score> = {};

describe("conformance: ta", () => {
  for (const name of CASES) {
    const known = KNOWN_FAILURES[name];
    const test = known ? it.fails : it;
    test(`${name}${known ? ` (known failure: ${known})` : ""}`, async () => {
      const c = loadTaCase(name);
      const code = NA_CODE[name];
      if (code !== undefined) c.expected = c.expected.map((col) => col.map((v) => (v === code ? NaN : v)));
      const r = await runBoth(c.script, c.bars, { runtime: { syminfo: c.syminfo } });
      expect(r.error, `${r.error_kind}: ${r.error}`).toBeUndefined();
      const s = score(c, r);
      scores[name] = s;
      expect(s.firstMismatch).toBeUndefined();
      expect(s.matched).toBe(s.cells);
    });
  }
  afterAll(() => {
    let m = 0;
    let n = 0;
    for (const [name, s] of Object.entries(scores)) {
      m += s.matched;
      n += s.cells;
      console.log(`conformance ta ${name}: ${s.matched}/${s.cells} cells${s.firstMismatch ? ` (first mismatch: ${s.firstMismatch})` : ""}`);
    }
    console.log(`conformance ta total: ${m}/${n} cells`);
  });
});
