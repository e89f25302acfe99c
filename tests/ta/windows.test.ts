// ta.* window extremes and order statistics, script-level (both modes): highest/lowest(+bars) with
// ties, range, max/min, median, mode, percentiles, percentrank, rci, pivots, pivot_point_levels.
// Bars: close 3, 1, 3, 2, 5, 5, 1, 4 (high = close + 1, low = close - 1): ties on purpose.
import { describe, expect, it } from "vitest";
import { fromCloses, NA, plots, same } from "./script.js";

const C = [3, 1, 3, 2, 5, 5, 1, 4];
const data = fromCloses(C);

describe("highest, lowest, highestbars, lowestbars, range, max, min", () => {
  // na rules and more ties: tests/ta/na-ties.test.ts (TradingView's own tables)
  it("hand-computed values; of equal extremes the oldest bar is reported", async () => {
    const p = await plots(
      `plot(ta.highest(close, 3), "hi")
plot(ta.highestbars(close, 3), "hib")
plot(ta.lowest(close, 3), "lo")
plot(ta.lowestbars(close, 3), "lob")
plot(ta.highest(3), "hi1")
plot(ta.lowestbars(3), "lob1")
plot(ta.range(close, 3), "rng")
plot(ta.max(close), "max")
plot(ta.min(close), "min")`,
      data,
    );
    same(p.hi, [NA, NA, 3, 3, 5, 5, 5, 5]);
    // bar 2: 3 on bars 0 and 2 -> bar 0 (-2); bar 5: 5 on bars 4 and 5 -> -1; bar 6: -2
    same(p.hib, [NA, NA, -2, -1, 0, -1, -2, -2]);
    same(p.lo, [NA, NA, 1, 1, 2, 2, 1, 1]);
    same(p.lob, [NA, NA, -1, -2, -1, -2, 0, -1]);
    // the one-argument forms read high (close + 1) and low (close - 1)
    same(p.hi1, [NA, NA, 4, 4, 6, 6, 6, 6]);
    same(p.lob1, p.lob);
    same(p.rng, [NA, NA, 2, 2, 3, 3, 4, 4]);
    same(p.max, [3, 3, 3, 3, 5, 5, 5, 5]);
    same(p.min, [3, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("an na restarts the window; series lengths; windows longer than the data", async () => {
    const p = await plots(
      `src = bar_index == 4 ? na : close
len = bar_index % 3 + 1
plot(ta.highest(src, 3), "hi")
plot(ta.highestbars(src, 3), "hib")
plot(ta.range(src, 3), "rng")
plot(ta.max(src), "max")
plot(ta.highest(close, len), "hil")
plot(ta.lowestbars(close, len), "lobl")
plot(ta.highest(close, 9), "hi9")
plot(ta.range(close, 9), "rng9")`,
      data,
    );
    // an na bar gives na (0 for highestbars); after it only the bars since the na count:
    // bar 5: 2, na, 5 -> 5; bar 6: na, 5, 1 -> 5 on bar 5
    same(p.hi, [NA, NA, 3, 3, NA, 5, 5, 5]);
    same(p.hib, [NA, NA, -2, -1, 0, 0, -1, -2]);
    // range: the last 3 non-na values (bar 4: 1, 3, 2 -> 2; bar 5: 3, 2, 5 -> 3)
    same(p.rng, [NA, NA, 2, 2, 2, 3, 4, 4]);
    same(p.max, [3, 3, 3, 3, 3, 5, 5, 5]);
    // lengths 1, 2, 3, 1, 2, 3, 1, 2
    same(p.hil, [3, 3, 3, 2, 5, 5, 1, 4]);
    same(p.lobl, [0, 0, -1, 0, -1, -2, 0, -1]);
    expect(p.hi9.every(Number.isNaN) && p.rng9.every(Number.isNaN)).toBe(true);
  });
});

describe("median, mode, percentiles, percentrank, rci", () => {
  it("hand-computed values", async () => {
    const p = await plots(
      `plot(ta.median(close, 3), "med")
plot(ta.median(close, 4), "med4")
plot(ta.mode(close, 3), "mode")
plot(ta.percentile_nearest_rank(close, 4, 50), "pnr")
plot(ta.percentile_linear_interpolation(close, 4, 50), "pli")
plot(ta.percentile_nearest_rank(close, 4, 100), "pnr100")
plot(ta.percentile_linear_interpolation(close, 4, 0), "pli0")
plot(ta.percentrank(close, 3), "prank")
plot(ta.rci(close, 3), "rci")`,
      data,
    );
    // sorted windows: [1 3 3], [1 2 3], [2 3 5], [2 5 5], [1 5 5], [1 4 5]
    same(p.med, [NA, NA, 3, 2, 3, 5, 5, 4]);
    // even count: mean of the middle two: [1 2 3 3] -> 2.5, [1 2 3 5] -> 2.5, [2 3 5 5] -> 4, [1 2 5 5] -> 3.5
    same(p.med4, [NA, NA, NA, 2.5, 2.5, 4, 3.5, 4.5]);
    // most frequent, smallest of equally frequent: [3 1 3] -> 3, [1 3 2] -> 1, [3 2 5] -> 2, ...
    same(p.mode, [NA, NA, 3, 1, 2, 5, 5, 1]);
    // nearest rank ceil(50% * 4) = 2nd smallest; linear at position 4 * 0.5 - 0.5 = 1.5
    same(p.pnr, [NA, NA, NA, 2, 2, 3, 2, 4]);
    same(p.pli, [NA, NA, NA, 2.5, 2.5, 4, 3.5, 4.5]);
    same(p.pnr100, [NA, NA, NA, 3, 5, 5, 5, 5]);
    same(p.pli0, [NA, NA, NA, 1, 1, 2, 1, 1]);
    // share of the 3 previous values <= the current one: bar 3: 2 vs 3, 1, 3 -> 1 of 3
    same(p.prank, [NA, NA, NA, 100 / 3, 100, 100, 0, 100 / 3]);
    // Spearman of price rank (highest = 1, ties averaged) against time rank (newest = 1), x100.
    // bar 2: prices 3, 1, 3 oldest first hold a tie, so the ranks are correlated (Pearson): ranks 1.5, 3,
    // 1.5 vs time 3, 2, 1, both centred on 2: -0.5 * 1 + 1 * 0 + -0.5 * -1 = 0 -> 0 (the d^2 shortcut
    // would say 12.5); bar 4: 3, 2, 5 has no tie -> ranks 2, 3, 1 vs 3, 2, 1: d^2 = 2 -> 50
    expect(p.rci[2]).toBe(0);
    expect(p.rci[4]).toBeCloseTo(50, 12);
  });

  it("na: median/mode skip them, percentrank does not count it, linear percentile/rci become na", async () => {
    const p = await plots(
      `src = bar_index == 4 ? na : close
plot(ta.median(src, 3), "med")
plot(ta.mode(src, 3), "mode")
plot(ta.percentrank(src, 2), "prank")
plot(ta.percentile_linear_interpolation(src, 3, 50), "pli")
plot(ta.percentile_nearest_rank(src, 3, 50), "pnr")
plot(ta.rci(src, 3), "rci")`,
      data,
    );
    // bar 4: the last 3 non-na values 1, 3, 2 -> median 2, mode 1; bar 5: 3, 2, 5 -> 3, 2
    same(p.med, [NA, NA, 3, 2, 2, 3, 2, 4]);
    same(p.mode, [NA, NA, 3, 1, 1, 2, 1, 1]);
    // an na compares false: bar 4 (na) counts nothing, bar 5: 5 vs na, 2 -> 1 of 2, bar 6: 1 vs 5, na -> 0
    same(p.prank, [NA, NA, 100, 50, 0, 50, 0, 50]);
    expect([p.pli[4], p.pli[5], p.pli[6]].every(Number.isNaN)).toBe(true);
    // nearest rank over the 2 non-na values of bar 4's window [3, 2, na]: ceil(0.5 * 2) = 1st -> 2
    expect(p.pnr[4]).toBe(2);
    expect([p.rci[4], p.rci[5], p.rci[6]].every(Number.isNaN)).toBe(true);
  });

  it("series lengths and call sites", async () => {
    const p = await plots(
      `len = bar_index % 3 + 1
plot(ta.median(close, len), "med")
plot(ta.percentrank(close, len), "prank")
f(x) => ta.median(x, 2)
plot(f(close), "a")
plot(f(-close), "b")`,
      data,
    );
    // lengths 1, 2, 3, 1, 2, 3, 1, 2
    same(p.med, [3, 2, 3, 2, 3.5, 5, 1, 2.5]);
    // percentrank needs `len` previous values: none on bars 0-2 for lengths 1, 2, 3 until bar 3
    same(p.prank, [NA, NA, NA, 0, 100, 100, 0, 50]);
    same(
      p.b,
      p.a.map((v) => -v),
    );
  });
});

describe("pivothigh, pivotlow, pivot_point_levels", () => {
  it("a pivot beats its left bars strictly and is not beaten on its right, reported right bars later", async () => {
    const p = await plots(
      `plot(ta.pivothigh(close, 1, 1), "ph")
plot(ta.pivotlow(close, 1, 1), "pl")
plot(ta.pivothigh(1, 1), "phh")
plot(ta.pivothigh(close, 4, 4), "ph4")`,
      data,
    );
    // bar 2 (3) over 1 and 2 -> on bar 3; bar 4 (5) ties 5 on its right: not a pivot;
    // bar 5 (5) ties 5 on its left (allowed) and beats 1 -> on bar 6
    same(p.ph, [NA, NA, NA, 3, NA, NA, 5, NA]);
    same(p.pl, [NA, NA, 1, NA, 2, NA, NA, 1]);
    // the two-argument form reads high
    same(p.phh, [NA, NA, NA, 4, NA, NA, 6, NA]);
    expect(p.ph4.every(Number.isNaN)).toBe(true);
  });

  it("a scan stops at an na, an na candidate is none; series left/right counts", async () => {
    const p = await plots(
      `src = bar_index == 3 ? na : close
plot(ta.pivothigh(src, 1, 1), "ph")
plot(ta.pivotlow(close, bar_index % 2 + 1, 1), "pl")`,
      data,
    );
    // bar 2 (3): its right side is the na, not examined -> pivot on bar 3; bar 5 (5) as above
    same(p.ph, [NA, NA, NA, 3, NA, NA, 5, NA]);
    // left 2 on odd bars, 1 on even bars: bar 2 (left 1): 1 is a low; bar 7 (left 2): 1 below 5, 5 and 4
    same(p.pl, [NA, NA, 1, NA, 2, NA, NA, 1]);
  });

  it("Traditional levels from the previous anchor period", async () => {
    const p = await plots(
      `lv = ta.pivot_point_levels("Traditional", bar_index % 4 == 0)
plot(lv.get(0), "P")
plot(lv.get(1), "R1")
plot(lv.get(2), "S1")`,
      data,
    );
    // period bars 0..3: high max(4, 2, 4, 3) = 4, low min(2, 0, 2, 1) = 0, close 2: P = 2, R1 = 2P - L, S1 = 2P - H
    expect(p.P.slice(0, 4).every(Number.isNaN)).toBe(true);
    same(p.P.slice(4), [2, 2, 2, 2]);
    same(p.R1.slice(4), [4, 4, 4, 4]);
    same(p.S1.slice(4), [0, 0, 0, 0]);
  });
});
