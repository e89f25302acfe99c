// One conformance suite over indicator cases of tests/conformance/data/tradingview/ta: each case runs
// through the public Runtime in both modes and every cell must agree (tests/helpers/conformance.ts
// `score`). Known failures run as it.fails with their reason; a score per case and a total are printed.
import { afterAll, describe, expect, it } from "vitest";
import { runBoth } from "./run-both.js";
import { loadTaCase, score, type Score, type TaCase } from "./conformance.js";
import type { RunResult } from "../../src/core/result.js";

export interface TaSuiteOptions {
  /** Cases that do not match yet, with the reason (never deleted or loosened). */
  knownFailures?: Record<string, string>;
  /** Adjusts a loaded case before the run (e.g. an export's own na encoding). */
  prepare?: (c: TaCase) => void;
  /** Further checks on the run, before scoring. */
  check?: (c: TaCase, r: RunResult) => void;
}

export function taConformanceSuite(suite: string, cases: string[], opts: TaSuiteOptions = {}): void {
  const known = opts.knownFailures ?? {};
  const scores: Record<string, Score> = {};
  describe(`conformance: ${suite}`, () => {
    for (const name of cases) {
      const reason = known[name];
      const test = reason ? it.fails : it;
      test(`${name}${reason ? ` (known failure: ${reason})` : ""}`, async () => {
        const c = loadTaCase(name);
        opts.prepare?.(c);
        const r = await runBoth(c.script, c.bars, { runtime: { syminfo: c.syminfo } });
        expect(r.error, `${r.error_kind}: ${r.error}`).toBeUndefined();
        expect(r.count).toBe(c.bars.length);
        opts.check?.(c, r);
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
        console.log(
          `conformance ${suite} ${name}: ${s.matched}/${s.cells} cells${s.firstMismatch ? ` (first mismatch: ${s.firstMismatch})` : ""}`,
        );
      }
      console.log(`conformance ${suite} total: ${m}/${n} cells`);
    });
  });
}
