// ta.pivothigh/pivotlow through the Runtime, in both modes: the 3-argument form (source first in
// the script) must reach the kernel with the source, not the bar counts. Expectations computed by
// hand from the definition: a pivot low is a value strictly below `left` values before it and
// `right` values after it, reported `right` bars later.
import { describe, expect, it } from "vitest";
import { runBoth } from "../helpers/run-both.js";
import type { Bar } from "../../src/core/result.js";

const closes = [10, 9, 8, 9, 10, 11, 10, 9, 10, 12, 13, 12];
const bars: Bar[] = closes.map((c, i) => ({
  time: 1_700_000_000_000 + i * 3_600_000,
  open: c,
  high: c + 1,
  low: c - 1,
  close: c,
  volume: 1,
}));

describe("ta.pivothigh / ta.pivotlow with a source", () => {
  it("finds the pivots of the given series, confirmed right bars later", async () => {
    const r = await runBoth(
      `//@version=6
indicator("pivots")
plot(ta.pivotlow(close, 2, 2), "pl")
plot(ta.pivothigh(close, 2, 2), "ph")
plot(ta.pivotlow(2, 2), "pl_low")`,
      bars,
    );
    expect(r.error).toBeUndefined();
    // close lows: bar 2 (8) confirmed on bar 4; bar 7 (9) confirmed on bar 9
    const pl = r.series.pl.map((v, i) => (v === null ? null : [i, v]));
    expect(pl.filter(Boolean)).toEqual([
      [4, 8],
      [9, 9],
    ]);
    // close high: bar 5 (11) confirmed on bar 7
    expect(r.series.ph.map((v, i) => (v === null ? null : [i, v])).filter(Boolean)).toEqual([[7, 11]]);
    // the two-argument form reads low (= close - 1)
    expect(r.series.pl_low.map((v, i) => (v === null ? null : [i, v])).filter(Boolean)).toEqual([
      [4, 7],
      [9, 8],
    ]);
  });
});
