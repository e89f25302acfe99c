// ta.* functions of the bar path and events, script-level (both modes): sar, supertrend, cross,
// crossover, crossunder, rising, falling, barssince, valuewhen; and the volume variables and vwap.
// Six bars rising then falling (open, high, low, close, volume):
//   8.5 10 8 9 100 | 9 11 9 10.5 200 | 10.5 12 10 11.5 100 | 11.5 13 11 12.5 300 | 12.5 12.5 7 7.5 400 | 7.5 8 6 6.5 100
import { describe, expect, it } from "vitest";
import { close, fromRows, NA, plots, same } from "./script.js";

const data = fromRows([
  [8.5, 10, 8, 9, 100],
  [9, 11, 9, 10.5, 200],
  [10.5, 12, 10, 11.5, 100],
  [11.5, 13, 11, 12.5, 300],
  [12.5, 12.5, 7, 7.5, 400],
  [7.5, 8, 6, 6.5, 100],
]);

describe("sar and supertrend follow the reference manual's Pine versions", () => {
  it("sar: first trend from bar 1, acceleration steps, reversal", async () => {
    const p = await plots(`plot(ta.sar(0.02, 0.02, 0.2), "sar")`, data);
    // bar 1: close rose: below, extreme = high 11, sar = low[1] 8 -> 8 + 0.02 * 3, capped by low[1] = 8
    // bar 2: 8 + 0.02 * (11 - 8), new high 12 -> acc 0.04; capped by lows 9, 8 -> 8
    // bar 3: 8 + 0.04 * (12 - 8) = 8.16 (new high 13 -> acc 0.06), lows 10, 9 do not cap it
    const s3 = 8 + 0.04 * (12 - 8);
    // bar 4: s3 + 0.06 * (13 - s3) is above the low 7: reversal to max(high, extreme) = 13, extreme = low 7
    // bar 5: 13 + 0.02 * (7 - 13), capped by highs 12.5, 13 -> 13
    same(p.sar, [NA, 8, 8, s3, 13, 13]);
  });

  it("supertrend(1, 2): bands around hl2 -+ atr, direction 1 down / -1 up", async () => {
    const p = await plots(`[st, dir] = ta.supertrend(1, 2)\nplot(st, "st")\nplot(dir, "dir")`, data);
    // atr(2) from tr(true) 2, 2, 2, 2, 5.5, 2: na, 2, 2, 2, 3.75, 2.875; hl2 9, 10, 11, 12, 9.75, 7
    // bar 0: no atr, bands take nz(previous) = 0 -> supertrend 0, direction 1
    // bar 1: upper 12, lower 8; direction 1 (no atr[1]) -> 12
    // bar 2: upper stays 12 (13 is not lower, close[1] 10.5 not above 12), lower 9; close 11.5 <= 12 -> 1
    // bar 3: upper 12, lower 10; close 12.5 > 12 -> -1, supertrend = lower 10
    // bar 4: lower stays 10, upper 13.5 (close[1] 12.5 > 12); close 7.5 < 10 -> 1, upper 13.5
    // bar 5: upper 7 + 2.875 = 9.875 (< 13.5), close 6.5 <= 9.875 -> 1
    same(p.st, [0, 12, 12, 10, 13.5, 9.875]);
    same(p.dir, [1, 1, 1, -1, 1, 1]);
  });
});

describe("supertrend's factor", () => {
  it("a series factor is read on the first bar only (TradingView, see oscillators.ts)", async () => {
    const p = await plots(
      `f = bar_index == 0 ? 1.0 : 3.0
[st, dir] = ta.supertrend(f, 2)
[s1, d1] = ta.supertrend(1.0, 2)
plot(st, "st")
plot(s1, "s1")
plot(dir, "dir")
plot(d1, "d1")`,
      data,
    );
    same(p.st, p.s1);
    same(p.dir, p.d1);
  });
});

describe("cross, crossover, crossunder, rising, falling", () => {
  it("hand-computed events", async () => {
    const p = await plots(
      `plot(ta.cross(close, 10.5) ? 1 : 0, "x")
plot(ta.crossover(close, 10.5) ? 1 : 0, "o")
plot(ta.crossunder(close, 10.5) ? 1 : 0, "u")
plot(ta.rising(close, 2) ? 1 : 0, "r2")
plot(ta.rising(close, 1) ? 1 : 0, "r1")
plot(ta.falling(close, 2) ? 1 : 0, "f2")
plot(ta.rising(close, 9) ? 1 : 0, "r9")`,
      data,
    );
    // closes 9, 10.5, 11.5, 12.5, 7.5, 6.5 against 10.5: touching (bar 1) is not a cross; over on bar 2
    // (10.5 <= 10.5 before), under on bar 4
    same(p.x, [0, 0, 1, 0, 1, 0]);
    same(p.o, [0, 0, 1, 0, 0, 0]);
    same(p.u, [0, 0, 0, 0, 1, 0]);
    same(p.r2, [0, 0, 1, 1, 0, 0]);
    same(p.r1, [0, 1, 1, 1, 0, 0]);
    same(p.f2, [0, 0, 0, 0, 0, 1]);
    same(p.r9, [0, 0, 0, 0, 0, 0]);
  });

  it("an na bar is skipped by crosses and rising runs; series lengths", async () => {
    const p = await plots(
      `src = bar_index == 1 ? na : close
plot(ta.crossover(src, 10) ? 1 : 0, "o")
plot(ta.rising(src, 1) ? 1 : 0, "r")
plot(ta.rising(close, bar_index % 2 + 1) ? 1 : 0, "rl")`,
      data,
    );
    // bar 2 (11.5) against the last defined pair, bar 0 (9 <= 10): a crossover
    same(p.o, [0, 0, 1, 0, 0, 0]);
    // the steps touching bar 1 neither count nor break: bar 3 is the first counted rise
    same(p.r, [0, 0, 0, 1, 0, 0]);
    // lengths 1, 2, 1, 2, 1, 2: bar 1 has only one step for a length of 2
    same(p.rl, [0, 0, 1, 1, 0, 0]);
  });
});

describe("barssince, valuewhen", () => {
  it("hand-computed values, na before the first occurrence", async () => {
    const p = await plots(
      `plot(ta.barssince(close > open), "up")
plot(ta.barssince(close < 8), "low")
plot(ta.valuewhen(close > open, close, 0), "v0")
plot(ta.valuewhen(close > open, close, 1), "v1")
plot(ta.valuewhen(close < 8, high, 0), "vl")`,
      data,
    );
    // close > open on bars 0-3
    same(p.up, [0, 0, 0, 0, 1, 2]);
    same(p.low, [NA, NA, NA, NA, 0, 0]);
    same(p.v0, [9, 10.5, 11.5, 12.5, 12.5, 12.5]);
    same(p.v1, [NA, 9, 10.5, 11.5, 11.5, 11.5]);
    same(p.vl, [NA, NA, NA, NA, 12.5, 8]);
  });

  it("inside a function each call keeps its own occurrences", async () => {
    const p = await plots(
      `f(c, x) => ta.valuewhen(c, x, 0)
plot(f(close > open, close), "a")
plot(f(close < open, open), "b")`,
      data,
    );
    same(p.a, [9, 10.5, 11.5, 12.5, 12.5, 12.5]);
    same(p.b, [NA, NA, NA, NA, 12.5, 7.5]);
  });
});

describe("volume variables and vwap", () => {
  it("obv, accdist, pvt, wad, nvi, pvi, iii, wvad", async () => {
    const p = await plots(
      `plot(ta.obv, "obv")
plot(ta.accdist, "ad")
plot(ta.pvt, "pvt")
plot(ta.wad, "wad")
plot(ta.nvi, "nvi")
plot(ta.pvi, "pvi")
plot(ta.iii, "iii")
plot(ta.wvad, "wvad")
plot(ta.tr, "tr")
plot(ta.tr(false), "tr_ref")`,
      data,
    );
    // cum(sign(change) * volume), na on bar 0 (no change yet)
    same(p.obv, [NA, 200, 300, 600, 200, 100]);
    // cum(((2c - l - h) / (h - l)) * v): 0, 0.5*200, 0.5*100, 0.5*300, (15 - 7 - 12.5)/5.5*400, (13 - 6 - 8)/2*100
    const ad4 = 300 + ((15 - 7 - 12.5) / 5.5) * 400;
    same(p.ad, [0, 100, 150, 300, ad4, ad4 + ((13 - 6 - 8) / 2) * 100]);
    // cum(change / close[1] * volume)
    const pv = [(1.5 / 9) * 200, (1 / 10.5) * 100, (1 / 11.5) * 300, (-5 / 12.5) * 400, (-1 / 7.5) * 100];
    let acc = pv[0];
    const pvt = [NA, acc];
    for (const v of pv.slice(1)) pvt.push((acc = acc + v));
    same(p.pvt, pvt);
    // gains: close - min(low, close[1]) when up, close - max(high, close[1]) when down: 0, 1.5, 1.5, 1.5, -5, -1.5
    same(p.wad, [0, 1.5, 3, 4.5, -0.5, -2]);
    // nvi moves only when volume falls (bars 2 and 5), pvi when it rises (bars 1, 3, 4)
    const n2 = 1 + (1 / 10.5) * 1;
    same(p.nvi, [1, 1, n2, n2, n2, n2 + (-1 / 7.5) * n2]);
    const q1 = 1 + (1.5 / 9) * 1;
    const q3 = q1 + (1 / 11.5) * q1;
    same(p.pvi, [1, q1, q1, q3, q3 + (-5 / 12.5) * q3, q3 + (-5 / 12.5) * q3]);
    same(p.iii, [0, 1 / (2 * 200), 1 / (2 * 100), 1 / (2 * 300), -4.5 / (5.5 * 400), -1 / (2 * 100)]);
    same(p.wvad, [(0.5 / 2) * 100, (1.5 / 2) * 200, (1 / 2) * 100, (1 / 2) * 300, (-5 / 5.5) * 400, (-1 / 2) * 100]);
    same(p.tr, p.tr_ref);
  });

  it("vwap: anchored sums, bands from the volume-weighted variance, na before the first anchor", async () => {
    const p = await plots(
      `[v, up, lo] = ta.vwap(close, bar_index % 3 == 0, 2)
plot(v, "v")
plot(up, "up")
plot(lo, "lo")
plot(ta.vwap(close, bar_index == 2), "late")
plot(ta.vwap, "var")
plot(ta.vwap(hlc3), "var_ref")`,
      data,
    );
    // bars 0-2 from bar 0, bars 3-5 from bar 3: 9; (900 + 2100)/300; (3000 + 1150)/400; 12.5; (3750 + 3000)/700; (6750 + 650)/800
    same(p.v, [9, 10, 4150 / 400, 12.5, 6750 / 700, 7400 / 800]);
    // bar 1: E_v[x^2] - vwap^2 = (8100 + 22050)/300 - 100 = 0.5
    close([p.up[1], p.lo[1]], [10 + 2 * Math.sqrt(0.5), 10 - 2 * Math.sqrt(0.5)]);
    same([p.up[0], p.lo[0]], [9, 9]);
    same(p.late, [NA, NA, 11.5, (1150 + 3750) / 400, (1150 + 3750 + 3000) / 800, (1150 + 3750 + 3000 + 650) / 900]);
    same(p.var, p.var_ref);
    expect(p.var.every((x) => !Number.isNaN(x))).toBe(true);
  });
});
