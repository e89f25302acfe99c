// ta.* momentum and oscillators, script-level (both modes): change, mom, roc, rsi, cmo, mfi, cci,
// stoch, wpr, tr, atr, dmi. Hand-computed values on six bars (close 1, 2, 4, 3, 5, 6; high = close + 1,
// low = close - 1; volume 1, 2, 1, 2, 1, 2), na inputs, lengths, call sites.
import { describe, expect, it } from "vitest";
import { fromCloses, NA, plots, runError, same } from "./script.js";

const C = [1, 2, 4, 3, 5, 6];
const data = fromCloses(C, [1, 2, 1, 2, 1, 2]);

describe("change, mom, roc", () => {
  it("differences to length bars ago; na in, na out", async () => {
    const p = await plots(
      `src = bar_index == 2 ? na : close
plot(ta.change(close), "c1")
plot(ta.change(close, 2), "c2")
plot(ta.mom(close, 1), "m1")
plot(ta.roc(close, 1), "r1")
plot(ta.change(src), "cna")
plot(ta.roc(src, 1), "rna")
plot(ta.change(close, 0), "c0")`,
      data,
    );
    same(p.c1, [NA, 1, 2, -1, 2, 1]);
    same(p.c2, [NA, NA, 3, 1, 1, 3]);
    same(p.m1, p.c1);
    // 100 * (x - x[1]) / x[1]: 100*1/1, 100*2/2, 100*(-1)/4, 100*2/3, 100*1/5
    same(p.r1, [NA, 100, 100, -25, (100 * 2) / 3, 20]);
    same(p.cna, [NA, 1, NA, NA, 2, 1]);
    same(p.rna, [NA, 100, NA, NA, (100 * 2) / 3, 20]);
    same(p.c0, [0, 0, 0, 0, 0, 0]);
  });

  it("a bool source: true where it differs from length bars ago", async () => {
    const p = await plots(`b = close > 2.5\nplot(ta.change(b) ? 1 : 0, "c")`, data);
    // b: false, false, true, true, true, true
    same(p.c, [0, 0, 1, 0, 0, 0]);
  });
});

describe("rsi, cmo, mfi, cci", () => {
  it("hand-computed values", async () => {
    const p = await plots(
      `plot(ta.rsi(close, 2), "rsi")
plot(ta.cmo(close, 2), "cmo")
plot(ta.mfi(close, 2), "mfi")
plot(ta.cci(close, 3), "cci")`,
      data,
    );
    // up moves 1, 2, 0, 2, 1 and down moves 0, 0, 1, 0, 0 from bar 1; rma(2) seeded on bar 2:
    // up 1.5 / down 0 -> 100; then up (1.5 + 0)/2 = 0.75, down (0 + 1)/2 = 0.5 -> 100 - 100/(1 + 1.5) = 60
    const u4 = (0.75 + 2) / 2;
    const d4 = (0.5 + 0) / 2;
    const u5 = (u4 + 1) / 2;
    const d5 = (d4 + 0) / 2;
    same(p.rsi, [NA, NA, 100, 100 - 100 / (1 + 0.75 / 0.5), 100 - 100 / (1 + u4 / d4), 100 - 100 / (1 + u5 / d5)]);
    // sums of gains / losses over 2 changes: (3, 0), (2, 1), (2, 1), (3, 0) -> 100 (g - l)/(g + l)
    same(p.cmo, [NA, NA, 100, 100 / 3, 100 / 3, 100]);
    // money flows (bar 0 has no change: counted on both sides): up 1, 4, 4, 0, 5, 12; down 1, 0, 0, 6, 0, 0
    // 2-bar sums: (5, 1), (8, 0), (4, 6), (5, 6), (17, 0); no down flow gives 100
    same(p.mfi, [NA, 100 - 100 / (1 + 5 / 1), 100, 100 - 100 / (1 + 4 / 6), 100 - 100 / (1 + 5 / 6), 100]);
    // bar 2: (4 - 7/3) / (0.015 * mean deviation 10/9) = 100
    expect(p.cci[2]).toBeCloseTo(100, 10);
    // bar 3: mean 3, deviation 2/3: 0 / ... = 0
    expect(p.cci[3]).toBeCloseTo(0, 12);
    expect(p.cci.slice(0, 2).every(Number.isNaN)).toBe(true);
  });

  it("na inputs are skipped by rsi and cmo (their change is na), cci is na while the na is in its window", async () => {
    const p = await plots(
      `src = bar_index == 2 ? na : close
plot(ta.rsi(src, 2), "rsi")
plot(ta.cmo(src, 2), "cmo")
plot(ta.cci(src, 2), "cci")`,
      data,
    );
    // moves exist on bars 1, 4, 5 only (bars 2 and 3 touch the na): seeded on bar 4 with (1 + 2)/2, 0
    same(p.rsi, [NA, NA, NA, NA, 100, 100]);
    same(p.cmo, [NA, NA, NA, NA, 100, 100]);
    expect(Number.isNaN(p.cci[2]) && Number.isNaN(p.cci[3])).toBe(true);
    // bar 4: bars 3, 4 = 3, 5: (5 - 4) / (0.015 * 1)
    expect(p.cci[4]).toBeCloseTo(1 / 0.015, 10);
  });
});

describe("stoch, wpr, tr, atr, dmi", () => {
  it("hand-computed values", async () => {
    const p = await plots(
      `plot(ta.stoch(close, high, low, 3), "stoch")
plot(ta.wpr(3), "wpr")
plot(ta.tr, "tr")
plot(ta.tr(true), "trt")
plot(ta.atr(2), "atr")
[dp, dm, adx] = ta.dmi(2, 2)
plot(dp, "dp")
plot(dm, "dm")
plot(adx, "adx")`,
      data,
    );
    // bar 2: highest high 5, lowest low 0: 100 (4 - 0)/5; bar 3: 5 and 1: 100 (3 - 1)/4
    same(p.stoch, [NA, NA, 80, 50, (100 * (5 - 2)) / (6 - 2), (100 * (6 - 2)) / (7 - 2)]);
    // 100 (close - highest) / (highest - lowest)
    same(p.wpr, [NA, NA, -20, -50, (100 * (5 - 6)) / (6 - 2), (100 * (6 - 7)) / (7 - 2)]);
    // max(high - low = 2, |high - close[1]|, |low - close[1]|) = max(2, |change| + 1)
    same(p.tr, [NA, 2, 3, 2, 3, 2]);
    same(p.trt, [2, 2, 3, 2, 3, 2]);
    // rma(tr(true), 2): seed (2 + 2)/2, then (r + tr)/2
    same(p.atr, [NA, 2, 2.5, 2.25, 2.625, 2.3125]);
    // +DM = change of high when it beats the fall of low: 1, 2, 0, 2, 1; -DM: 0, 0, 1, 0, 0
    // rma(2) of tr (na on bar 0): 2.5, 2.25, 2.625, 2.3125 from bar 2; of +DM 1.5, 0.75, 1.375, 1.1875; of -DM 0, 0.5, 0.25, 0.125
    const tr = [2.5, 2.25, 2.625, 2.3125];
    const pl = [1.5, 0.75, 1.375, 1.1875].map((v, i) => (100 * v) / tr[i]);
    const mi = [0, 0.5, 0.25, 0.125].map((v, i) => (100 * v) / tr[i]);
    same(p.dp, [NA, NA, ...pl]);
    same(p.dm, [NA, NA, ...mi]);
    // adx = 100 * rma(|+DI - -DI| / (+DI + -DI), 2), seeded on bar 3
    const q = pl.map((v, i) => Math.abs(v - mi[i]) / (v + mi[i]));
    const a3 = (q[0] + q[1]) / 2;
    const a4 = (a3 + q[2]) / 2;
    same(p.adx, [NA, NA, NA, 100 * a3, 100 * a4, 100 * ((a4 + q[3]) / 2)]);
  });

  it("windows longer than the data are na; series lengths read the current window", async () => {
    const p = await plots(
      `len = bar_index % 3 + 1
plot(ta.rsi(close, 9), "rsi9")
plot(ta.atr(9), "atr9")
plot(ta.cci(close, 9), "cci9")
plot(ta.stoch(close, high, low, 9), "st9")
[a, b, c] = ta.dmi(9, 9)
plot(c, "adx9")
plot(ta.wpr(len), "wpr")
plot(ta.change(close, len - 1), "chg")
plot(ta.cmo(close, len), "cmo")`,
      data,
    );
    for (const k of ["rsi9", "atr9", "cci9", "st9", "adx9"]) expect(p[k].every(Number.isNaN), k).toBe(true);
    // lengths 1, 2, 3, 1, 2, 3: highest high / lowest low over them
    same(p.wpr, [(100 * (1 - 2)) / 2, (100 * (2 - 3)) / 3, -20, (100 * (3 - 4)) / 2, (100 * (5 - 6)) / 4, -20]);
    // change over 0, 1, 2, 0, 1, 2 bars
    same(p.chg, [0, 1, 3, 0, 2, 3]);
    // bar 2: gains 1 + 2 over 3 changes but only 2 exist yet: na; bar 5: changes -1, 2, 1 -> 100 * 2 / 4
    expect(p.cmo[5]).toBe(50);
  });

  it("call sites in functions and loops keep their own state; bad lengths are errors", async () => {
    const p = await plots(
      `f(x) => ta.rsi(x, 2)
plot(f(close), "a")
plot(f(close * 2), "b")
s = 0.0
for i = 1 to 2
    s += ta.change(close)
plot(s, "loop")`,
      data,
    );
    same(p.a, p.b);
    same(p.loop, [NA, 2, 4, -2, 4, 2]);
    expect(await runError(`plot(ta.rsi(close, 0))`, data)).toMatch(/'length' argument \(0\) in the 'rsi' function/);
    expect(await runError(`plot(ta.stoch(close, high, low, -1))`, data)).toMatch(/'stoch'/);
  });
});
