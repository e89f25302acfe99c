// fixnan keeps its last non-na value in one record per call site, updated in place (no record per
// bar). A realtime bar's ticks roll that record back with the rest of the state (interpret/rollback.ts
// saves a site's record of primitives), so fixnan must give what the same rule written out with a
// `var` gives, in both backends, on history and on realtime ticks, with na runs of random lengths.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { comparable, firstDifference } from "../compile/parity.js";

const script = (every: number, phase: number) => `//@version=6
indicator("fixnan state")
float x = (bar_index + ${phase}) % ${every} == 0 ? close : na
string s = (bar_index + ${phase}) % ${every + 1} == 0 ? str.tostring(bar_index) : na
var float last = na
if not na(x)
    last := x
var string lastS = na
if not na(s)
    lastS := s
plot(fixnan(x), "fixnan")
plot(last, "written")
plot(str.length(fixnan(s)), "fixnanS")
plot(str.length(lastS), "writtenS")
`;

describe("fixnan's record per site", () => {
  it("equals the rule written out with var, on history and realtime ticks, in both modes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 8 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        async (every, phase, realtimeBars, realtimeTicks) => {
          const src = script(every, phase);
          const data = generateBars(120, every * 10 + phase);
          const opts = realtimeBars > 0 ? { realtimeBars, realtimeTicks } : {};
          const got = await new Runtime().run(src, data, { ...opts, mode: "interpret" });
          const want = await new Runtime().run(src, data, { ...opts, mode: "compile" });
          expect(got.error ?? null).toBeNull();
          expect(firstDifference(comparable(got), comparable(want))).toBeNull();
          const p = got.series as Record<string, unknown[]>;
          expect(p.fixnan).toHaveLength(120);
          expect(firstDifference(p.fixnan, p.written)).toBeNull();
          expect(firstDifference(p.fixnanS, p.writtenS)).toBeNull();
        },
      ),
      { numRuns: 30, seed: 20261129 },
    );
  }, 120_000);
});
