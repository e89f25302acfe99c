// The stepped whole-series passes (assembly/series-step.ts: the per-bar kernel run over the columns):
// ta.pivothigh/pivotlow, mom, roc, cci, cmo, mfi, vwma, hma, linreg, dev, variance, percentrank, wpr,
// dmi, alma, swma, cog, cum, median, tsi, correlation, sar, and valuewhen and barssince of a
// pre-known condition (a cross, a comparison), ta.vwap (the variable, and the call with a source alone)
// the volume variables (ta.obv, accdist, pvt, wad, nvi, pvi), ta.rising, ta.falling, ta.kc, ta.kcw
// and ta.bbw are hoisted when their sources are pre-known and their lengths constants or inputs, and both
// backends then equal the per-bar interpreter (a profiler run never precomputes) to the last field,
// with inputs overridden, with flat stretches of prices (cmo's and mfi's "no change" branch), and with
// lengths the per-bar call refuses or longer than LARGE_LENGTH (those run per bar, in compile mode too).
import { describe, expect, it } from "vitest";
import { LARGE_LENGTH } from "../../src/core/budget.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { equalsPerBar, hoistedNames } from "./parity.js";

const SCRIPT = `//@version=6
strategy("stepped", overlay = true)
len = input.int(14, "Length")
left = input.int(4, "Left")
off = input.int(0, "Offset")
ph = ta.pivothigh(left, 3)
pl = ta.pivotlow(low, 2, left)
ph0 = ta.pivothigh(close, 0, 0)
m = ta.mom(close, len)
r = ta.roc(hl2, 9)
c = ta.cci(hlc3, 20)
cm = ta.cmo(close, len)
mf = ta.mfi(hlc3, len)
vw = ta.vwma(close, 20)
h = ta.hma(close, len)
lr = ta.linreg(close, 20, off)
lr2 = ta.linreg(close, 10, -2)
d = ta.dev(close, len)
v = ta.variance(close, 20, false)
v2 = ta.variance(close, len)
pr = ta.percentrank(close, 50)
w = ta.wpr(len)
[dp, dm, adx] = ta.dmi(len, 10)
al = ta.alma(close, 9, 0.85, 6)
al2 = ta.alma(close, len, 0.5, 3, true)
sw = ta.swma(close)
cg = ta.cog(close, 10)
cu = ta.cum(volume)
md = ta.median(close, len)
ts = ta.tsi(close, 13, len)
co = ta.correlation(close, open, len)
sr = ta.sar(0.02, 0.02, 0.2)
vwn = ta.valuewhen(ta.crossover(close, ta.sma(close, 10)), low, 1)
vw0 = ta.valuewhen(close > open, close - open, 0)
bs = ta.barssince(ta.crossunder(close, ta.sma(close, len)))
vwp = ta.vwap
vw2 = ta.vwap(close)
vols = ta.obv + ta.accdist + ta.pvt + ta.wad + ta.nvi + ta.pvi
up3 = ta.rising(close, 3)
[kb, ku, kl] = ta.kc(close, 20, 1.5)
kw = ta.kcw(hlc3, len, 2, false)
bw = ta.bbw(close, 20, 2)
if ta.falling(hl2, len) and not up3
    strategy.close("L", comment = "falling")
if ta.crossover(dp, dm) and adx > 20
    strategy.entry("L", strategy.long)
if ta.crossunder(c, 0) or ta.crossunder(cm, -20)
    strategy.close("L")
plot(ph, "ph")
plot(pl, "pl")
plot(ph0, "ph0")
plot(m, "m")
plot(r, "r")
plot(cm, "cm")
plot(mf, "mf")
plot(vw - h, "vw-h")
plot(lr - lr2, "lr")
plot(d * v / v2, "dv")
plot(pr, "pr")
plot(w, "w")
plot(dp - dm, "di")
plot(adx, "adx")
plot(ta.sma(c, 5), "sma of cci")
plot(al - al2, "alma")
plot(sw, "swma")
plot(cg, "cog")
plot(cu, "cum")
plot(md, "median")
plot(ts, "tsi")
plot(co, "correlation")
plot(sr, "sar")
plot(vwn, "valuewhen")
plot(vw0, "valuewhen 0")
plot(bs, "barssince")
plot(vwp - vw2, "vwap")
plot(vols, "volume variables")
plotshape(up3, "rising")
plot(ku - kl + kb, "kc")
plot(kw, "kcw")
plot(bw, "bbw")
`;

const STEPPED = [
  "ta.pivothigh",
  "ta.pivotlow",
  "ta.mom",
  "ta.roc",
  "ta.cci",
  "ta.cmo",
  "ta.mfi",
  "ta.vwma",
  "ta.hma",
  "ta.linreg",
  "ta.dev",
  "ta.variance",
  "ta.percentrank",
  "ta.wpr",
  "ta.dmi",
  "ta.alma",
  "ta.swma",
  "ta.cog",
  "ta.cum",
  "ta.median",
  "ta.tsi",
  "ta.correlation",
  "ta.sar",
  "ta.valuewhen",
  "ta.barssince",
  "ta.vwap",
  "ta.rising",
  "ta.falling",
  "ta.kc",
  "ta.kcw",
  "ta.bbw",
];

/** Random-walk bars where every fourth bar repeats the previous close (a change of zero). */
function barsWithFlatCloses(n: number) {
  const bars = randomWalkBars(n, 7);
  for (let i = 4; i < bars.length; i += 4) {
    const prev = bars[i - 1]!.close;
    const b = bars[i]!;
    b.close = prev;
    b.high = Math.max(b.high, prev);
    b.low = Math.min(b.low, prev);
  }
  return bars;
}

/** `rulesOut`: the run's inputs rule a pass out (those calls run per bar, in compile mode too). */
async function agrees(inputs: Record<string, unknown>, rulesOut = false, rt: Runtime = new Runtime()): Promise<void> {
  // (the runs per bar include one the per-bar call stops with an error on its first bar)
  await equalsPerBar(rt, SCRIPT, [randomWalkBars(900), barsWithFlatCloses(600)], inputs, !rulesOut);
}

describe("stepped whole-series passes", () => {
  it("hoists every stepped call of the script", () => {
    const found = new Set(hoistedNames(SCRIPT));
    expect(STEPPED.filter((n) => !found.has(n))).toEqual([]);
    expect(["ta.obv", "ta.accdist", "ta.pvt", "ta.wad", "ta.nvi", "ta.pvi"].filter((n) => !found.has(n))).toEqual([]);
  });

  it("leaves a constant length above LARGE_LENGTH, or below the builtin's least, to the per-bar call", () => {
    const calls = (src: string) => hoistedNames(`//@version=6\nindicator("x")\n${src}`);
    expect(calls(`plot(ta.cci(close, ${LARGE_LENGTH + 1}))`)).toEqual([]);
    expect(calls(`plot(ta.hma(close, 1))`)).toEqual([]);
    expect(calls(`plot(ta.hma(close, 2))`)).toEqual(["ta.hma"]);
    expect(calls(`plot(ta.mom(close, 0))`)).toEqual(["ta.mom"]);
    // (a negative constant is a unary minus the plan reads as the number)
    expect(calls(`plot(ta.linreg(close, 10, -2))`)).toEqual(["ta.linreg"]);
    expect(calls(`plot(ta.sma(close, ${LARGE_LENGTH + 1}))`)).toEqual([]);
    expect(calls(`plot(ta.sma(close, ${LARGE_LENGTH}))`)).toEqual(["ta.sma"]);
  });

  it("equals the per-bar interpreter with the defaults and overridden inputs", async () => {
    await agrees({});
    await agrees({ Length: 3, Left: 0, Offset: 2 });
    await agrees({ Length: 2, Left: 9, Offset: -3 });
  });

  it("ta.vwap's session anchor: a New York stock session on hourly bars", async () => {
    await agrees(
      {},
      false,
      new Runtime("NYSE:X", { timeframe: "60", syminfo: { session: "0930-1600", timezone: "America/New_York" } }),
    );
  });

  it("an input length the per-bar call refuses, or past LARGE_LENGTH, runs per bar in both modes", async () => {
    await agrees({ Length: 1 }, true); // ta.hma(close, 1): the per-bar call's error, in every mode
    const r = await new Runtime().run(SCRIPT, randomWalkBars(100), { mode: "compile", inputs: { Length: 1 } });
    expect(r.error).toMatch(/'length' argument \(1\) in the 'hma' function/);
    await agrees({ Left: LARGE_LENGTH + 1 }, true);
  });
});
