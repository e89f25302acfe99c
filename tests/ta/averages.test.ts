// ta.* moving averages and window statistics, script-level (both modes): hand-computed values on six
// bars, na inputs, length 1, a window longer than the data, a series length changing every bar, and
// call sites inside functions and loops. Bars: close 1, 2, 4, 3, 5, 6 (high = close + 1,
// low = close - 1), volume 1, 2, 1, 2, 1, 2.
import { describe, expect, it } from "vitest";
import { close, fromCloses, NA, plots, runError, same } from "./script.js";

const C = [1, 2, 4, 3, 5, 6];
const V = [1, 2, 1, 2, 1, 2];
const data = fromCloses(C, V);

describe("sma, ema, rma, wma, hma, vwma, swma, alma", () => {
  it("hand-computed values", async () => {
    const p = await plots(
      `plot(ta.sma(close, 3), "sma")
plot(ta.ema(close, 3), "ema")
plot(ta.rma(close, 3), "rma")
plot(ta.wma(close, 3), "wma")
plot(ta.hma(close, 4), "hma")
plot(ta.vwma(close, 3), "vwma")
plot(ta.swma(close), "swma")`,
      data,
    );
    // running sum, leaving value out first: 1+2+4 = 7, 7-1+3 = 9, 9-2+5 = 12, 12-4+6 = 14
    same(p.sma, [NA, NA, 7 / 3, 9 / 3, 12 / 3, 14 / 3]);
    // seed = mean of the first 3 = 7/3, then e + 2/(3+1) * (x - e)
    const e2 = 7 / 3;
    const e3 = e2 + 0.5 * (3 - e2);
    const e4 = e3 + 0.5 * (5 - e3);
    same(p.ema, [NA, NA, e2, e3, e4, e4 + 0.5 * (6 - e4)]);
    // rma: ((n-1) * r + x) / n from the same seed
    const r3 = (2 * e2 + 3) / 3;
    const r4 = (2 * r3 + 5) / 3;
    same(p.rma, [NA, NA, e2, r3, r4, (2 * r4 + 6) / 3]);
    // weights 1, 2, 3 oldest to newest over 6: (1 + 4 + 12)/6, (2 + 8 + 9)/6, (4 + 6 + 15)/6, (3 + 10 + 18)/6
    same(p.wma, [NA, NA, 17 / 6, 19 / 6, 25 / 6, 31 / 6]);
    // hma(4) = wma(2 * wma(x, 2) - wma(x, 4), floor(sqrt(4)) = 2); wma(x, 4) starts on bar 3
    const w2 = (i: number) => (C[i - 1] + 2 * C[i]) / 3;
    const w4 = (i: number) => (C[i - 3] + 2 * C[i - 2] + 3 * C[i - 1] + 4 * C[i]) / 10;
    const d = (i: number) => 2 * w2(i) - w4(i);
    same(p.hma, [NA, NA, NA, NA, (d(3) + 2 * d(4)) / 3, (d(4) + 2 * d(5)) / 3]);
    // sma(close * volume, 3) / sma(volume, 3): (1 + 4 + 4)/3 / (4/3), (4 + 4 + 6)/3 / (5/3), (4 + 6 + 5)/3 / (4/3), ...
    same(p.vwma, [NA, NA, 9 / 3 / (4 / 3), 14 / 3 / (5 / 3), 15 / 3 / (4 / 3), 23 / 3 / (5 / 3)]);
    // (x + 2 x[1] + 2 x[2] + x[3]) / 6
    same(p.swma, [NA, NA, NA, (3 + 2 * 4 + 2 * 2 + 1) / 6, (5 + 2 * 3 + 2 * 4 + 2) / 6, (6 + 2 * 5 + 2 * 3 + 4) / 6]);
  });

  it("alma: gaussian weights around offset * (length - 1), floor option", async () => {
    const p = await plots(`plot(ta.alma(close, 3, 0.85, 6), "a")\nplot(ta.alma(close, 3, 0.85, 6, true), "f")`, data);
    // s = 3/6; weight(i) = exp(-(i - m)^2 / (2 s^2)), i = 0 oldest; m = 1.7, floored m = 1
    const alma = (m: number, i: number): number => {
      const w = [0, 1, 2].map((k) => Math.exp((-1 * ((k - m) * (k - m))) / (2 * (0.5 * 0.5))));
      const norm = w[0] + w[1] + w[2];
      return C[i - 2] * (w[0] / norm) + C[i - 1] * (w[1] / norm) + C[i] * (w[2] / norm);
    };
    close(p.a, [NA, NA, alma(1.7, 2), alma(1.7, 3), alma(1.7, 4), alma(1.7, 5)]);
    close(p.f, [NA, NA, alma(1, 2), alma(1, 3), alma(1, 4), alma(1, 5)]);
    // floor = true centres the weights on the middle bar: a symmetric kernel
    expect(p.f[2]).not.toBeCloseTo(p.a[2], 6);
  });

  it("na inputs: sma skips them, ema/rma are na on the na bar, wma carries the last value, swma/alma propagate", async () => {
    const p = await plots(
      `src = bar_index == 2 ? na : close
plot(ta.sma(src, 3), "sma")
plot(ta.ema(src, 3), "ema")
plot(ta.wma(src, 2), "wma")
plot(ta.swma(src), "swma")
plot(ta.alma(src, 2, 0.85, 6), "alma")`,
      data,
    );
    // non-na values 1, 2, 3, 5, 6: the window is the last 3 of them; the na bar returns the current value
    // (TradingView's ta.sma with na holes, tests/ta/tv-na-window.test.ts)
    same(p.sma, [NA, NA, NA, (1 + 2 + 3) / 3, (2 + 3 + 5) / 3, (3 + 5 + 6) / 3]);
    const e3 = 6 / 3;
    const e4 = e3 + 0.5 * (5 - e3);
    same(p.ema, [NA, NA, NA, e3, e4, e4 + 0.5 * (6 - e4)]);
    // the na bar is na, and its slot in later windows reads the last value 2: (2 + 2*3)/3
    same(p.wma, [NA, (1 + 2 * 2) / 3, NA, (2 + 2 * 3) / 3, (3 + 2 * 5) / 3, (5 + 2 * 6) / 3]);
    same(p.swma.slice(0, 6), [NA, NA, NA, NA, NA, NA]);
    expect(Number.isNaN(p.alma[2]) && Number.isNaN(p.alma[3]) && !Number.isNaN(p.alma[4])).toBe(true);
  });
});

describe("linreg, cog, variance, stdev, dev, cum", () => {
  it("hand-computed values", async () => {
    const p = await plots(
      `plot(ta.linreg(close, 3, 0), "lr")
plot(ta.linreg(close, 3, 1), "lr1")
plot(ta.cog(close, 3), "cog")
plot(ta.variance(close, 3), "var")
plot(ta.variance(close, 3, false), "varu")
plot(ta.stdev(close, 3), "sd")
plot(ta.dev(close, 3), "dev")
plot(ta.cum(close), "cum")`,
      data,
    );
    // bar 2, points (0, 1), (1, 2), (2, 4): slope = (3*10 - 3*7) / (3*5 - 9) = 1.5,
    // intercept = (7 - 1.5*3) / 3 = 5/6; at x = 2: 5/6 + 3 = 23/6; offset 1 reads x = 1: 5/6 + 1.5 = 7/3
    expect(p.lr[2]).toBeCloseTo(23 / 6, 14);
    expect(p.lr1[2]).toBeCloseTo(7 / 3, 14);
    // bar 3, points 2, 4, 3: slope = (3*(0 + 4 + 6) - 3*9) / 6 = 0.5, intercept = (9 - 1.5)/3 = 2.5
    expect(p.lr[3]).toBeCloseTo(3.5, 14);
    expect(p.lr.slice(0, 2).every(Number.isNaN)).toBe(true);
    // cog = -(x*1 + x[1]*2 + x[2]*3) / sum: bar 2 -(4 + 4 + 3)/7
    same(p.cog, [NA, NA, -11 / 7, -(3 + 8 + 6) / 9, -(5 + 6 + 12) / 12, -(6 + 10 + 9) / 14]);
    // bar 2: E[x^2] - mean^2 = 21/3 - (7/3)^2 = 14/9; unbiased 14/9 * 3/2 = 7/3
    expect(p.var[2]).toBeCloseTo(14 / 9, 14);
    expect(p.varu[2]).toBeCloseTo(7 / 3, 14);
    expect(p.sd[2]).toBeCloseTo(Math.sqrt(14 / 9), 14);
    // mean absolute deviation from 7/3: (4/3 + 1/3 + 5/3) / 3 = 10/9
    expect(p.dev[2]).toBeCloseTo(10 / 9, 14);
    same(p.cum, [1, 3, 7, 10, 15, 21]);
  });

  it("na: linreg propagates, variance skips it, dev is na while it is in the window, cum is na on it", async () => {
    const p = await plots(
      `src = bar_index == 2 ? na : close
plot(ta.linreg(src, 2, 0), "lr")
plot(ta.variance(src, 2), "var")
plot(ta.dev(src, 2), "dev")
plot(ta.cum(src), "cum")
plot(ta.cum(bar_index < 2 ? na : close), "cumlate")`,
      data,
    );
    expect([p.lr[2], p.lr[3]].every(Number.isNaN)).toBe(true);
    // the window of 2 at bar 3 is the last two non-na values 2, 3: variance 0.25
    expect(p.var[3]).toBe(0.25);
    // dev loops over the last 2 bars: na while bar 2 is one of them, then |3 - 4| + |5 - 4| over 2
    same(p.dev, [NA, 0.5, NA, NA, 1, 0.5]);
    same(p.cum, [1, 3, NA, 6, 11, 17]);
    // na until the first value
    same(p.cumlate, [NA, NA, 4, 7, 12, 18]);
  });
});

describe("bb, bbw, kc, kcw, macd, tsi, correlation", () => {
  it("bands and widths", async () => {
    const p = await plots(
      `[m, u, l] = ta.bb(close, 3, 2)
plot(m, "m")
plot(u, "u")
plot(l, "l")
plot(ta.bbw(close, 3, 2), "w")
[km, ku, kl] = ta.kc(close, 3, 2)
plot(km, "km")
plot(ku, "ku")
plot(kl, "kl")
plot(ta.kcw(close, 3, 2, false), "kw")`,
      data,
    );
    // bar 2: basis 7/3, population stdev sqrt(14/9), bands basis -+ 2 * stdev
    const sd = Math.sqrt(14 / 9);
    expect(p.m[2]).toBe(7 / 3);
    expect(p.u[2]).toBeCloseTo(7 / 3 + 2 * sd, 14);
    expect(p.l[2]).toBeCloseTo(7 / 3 - 2 * sd, 14);
    // width in percent of the basis
    expect(p.w[2]).toBeCloseTo(((4 * sd) / (7 / 3)) * 100, 12);
    // true range (na on bar 0): max(2, |close - close[1]| + 1) = 2, 3, 2, 3, 2 from bar 1;
    // its ema(3) seeds on bar 3 with (2 + 3 + 2)/3; basis ema(close, 3) = 8/3 on bar 3
    const e3 = 7 / 3 + 0.5 * (3 - 7 / 3);
    expect(p.km[3]).toBe(e3);
    expect(p.ku[3]).toBeCloseTo(e3 + 2 * (7 / 3), 14);
    expect(p.kl[3]).toBeCloseTo(e3 - 2 * (7 / 3), 14);
    expect(Number.isNaN(p.ku[2])).toBe(true);
    // useTrueRange = false: high - low = 2 on every bar; width = 2*2*2 / basis (not in percent)
    expect(p.kw[2]).toBeCloseTo(8 / (7 / 3), 14);
  });

  it("macd and tsi are their documented ema compositions", async () => {
    const p = await plots(
      `[mc, sg, hs] = ta.macd(close, 2, 3, 2)
fast = ta.ema(close, 2)
slow = ta.ema(close, 3)
plot(mc, "mc")
plot(fast - slow, "mc_ref")
plot(sg, "sg")
plot(ta.ema(fast - slow, 2), "sg_ref")
plot(hs, "hs")
plot(ta.tsi(close, 2, 3), "tsi")
pc = ta.change(close)
plot(ta.ema(ta.ema(pc, 3), 2) / ta.ema(ta.ema(math.abs(pc), 3), 2), "tsi_ref")`,
      data,
    );
    same(p.mc, p.mc_ref);
    same(p.sg, p.sg_ref);
    same(
      p.hs,
      p.mc.map((v, i) => v - p.sg[i]),
    );
    same(p.tsi, p.tsi_ref);
    // tsi is a ratio in [-1, 1]: every change but one is up here
    expect(p.tsi[5]).toBeGreaterThan(0);
    expect(p.tsi[5]).toBeLessThanOrEqual(1);
  });

  it("correlation: +-1 for linear relations, 0 for a flat source, na gaps skipped per source", async () => {
    const p = await plots(
      `plot(ta.correlation(close, 2 * close + 1, 3), "pos")
plot(ta.correlation(close, -close, 3), "neg")
plot(ta.correlation(close, 5.0, 3), "flat")
plot(ta.correlation(close, close, 1), "one")`,
      data,
    );
    close(p.pos, [NA, NA, 1, 1, 1, 1], 1e-12);
    close(p.neg, [NA, NA, -1, -1, -1, -1], 1e-12);
    // zero variance: 0 (TradingView's tolerance, logs/ta_test_244)
    same(p.flat, [NA, NA, 0, 0, 0, 0]);
    same(p.one, [0, 0, 0, 0, 0, 0]);
  });
});

describe("lengths and call sites", () => {
  it("length 1 is the value itself; a window longer than the data is na throughout", async () => {
    const p = await plots(
      `plot(ta.sma(close, 1), "sma")
plot(ta.ema(close, 1), "ema")
plot(ta.rma(close, 1), "rma")
plot(ta.wma(close, 1), "wma")
plot(ta.vwma(close, 1), "vwma")
plot(ta.alma(close, 1, 0.85, 6), "alma")
plot(ta.linreg(close, 1, 0), "lr")
plot(ta.stdev(close, 1), "sd")
plot(ta.sma(close, 7), "sma7")
plot(ta.ema(close, 7), "ema7")
plot(ta.wma(close, 7), "wma7")
plot(ta.hma(close, 7), "hma7")
plot(ta.linreg(close, 7, 0), "lr7")
plot(ta.bbw(close, 7, 2), "bbw7")
plot(ta.cog(close, 7), "cog7")`,
      data,
    );
    for (const k of ["sma", "ema", "rma", "wma", "vwma", "alma", "lr"]) same(p[k], C);
    same(p.sd, [0, 0, 0, 0, 0, 0]);
    for (const k of ["sma7", "ema7", "wma7", "hma7", "lr7", "bbw7", "cog7"])
      expect(p[k].every(Number.isNaN), k).toBe(true);
  });

  it("a series length changing every bar reads the window of the current length", async () => {
    const p = await plots(
      `len = bar_index % 3 + 1
plot(ta.sma(close, len), "sma")
plot(ta.wma(close, len), "wma")
plot(ta.stdev(close, len), "sd")
plot(ta.linreg(close, len, 0), "lr")`,
      data,
    );
    // lengths 1, 2, 3, 1, 2, 3
    same(p.sma, [1, 3 / 2, 7 / 3, 3, 8 / 2, 14 / 3]);
    same(p.wma, [1, (1 + 2 * 2) / 3, 17 / 6, 3, (3 + 2 * 5) / 3, 31 / 6]);
    expect(p.sd[1]).toBe(0.5);
    expect(p.sd[3]).toBe(0);
    expect(p.lr[1]).toBeCloseTo(2, 14);
  });

  it("a length of 0 or na is TradingView's runtime error", async () => {
    expect(await runError(`plot(ta.sma(close, bar_index == 3 ? 0 : 2))`, data)).toMatch(
      /'length' argument \(0\) in the 'sma' function. It must be > 0/,
    );
    expect(await runError(`plot(ta.wma(close, bar_index == 1 ? int(na) : 2))`, data)).toMatch(/'length'.*'wma'/);
  });

  it("each call of a function is its own call site; a loop's repeated call keeps the last one", async () => {
    const p = await plots(
      `f(x) => ta.sma(x, 2)
plot(f(close), "a")
plot(f(close * 10), "b")
plot(ta.sma(close, 2), "ref")
v = 0.0
for i = 1 to 3
    v := ta.ema(close * i, 2)
plot(v, "loop")
plot(ta.ema(close * 3, 2), "loop_ref")`,
      data,
    );
    same(p.a, p.ref);
    // its own running sum: (10 + 20)/2, (20 + 40)/2, (40 + 30)/2, (30 + 50)/2, (50 + 60)/2
    same(p.b, [NA, 15, 30, 35, 40, 55]);
    same(p.loop, p.loop_ref);
  });
});

describe("non-finite values", () => {
  it("a window sum recovers once an infinity has left the window", async () => {
    // 1 / (close - 4) is +infinity on bar 2 (close 4), finite elsewhere
    const p = await plots(
      `x = ta.roc(close, 1) * 0 + (close == 4 ? 1e308 * 10 : close)\nplot(ta.sma(x, 2), "sma")`,
      data,
    );
    // bars 2 and 3 hold the infinity; from bar 4 on the window is finite again: (3 + 5)/2, (5 + 6)/2
    expect(p.sma[4]).toBe(4);
    expect(p.sma[5]).toBe(5.5);
  });
});
