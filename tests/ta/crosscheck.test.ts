// The WASM state machines (through the ta.* builtins) against the plain-JS references in
// ./reference on seeded random data, with and without na gaps. Same algorithm, same operation order
// => bit-identical (Object.is); alma/rci (exp, rank arithmetic) within 1e-12 relative.
import { describe, expect, it } from "vitest";
import * as ref from "./reference/series.js";
import * as refBars from "./reference/bars.js";
import { newRun, setBar, type Sites } from "./harness.js";
import { randomBars, withNa } from "./random.js";

const N = 400;

function sameSeries(got: ArrayLike<number>, want: ArrayLike<number>, tol = 0): void {
  for (let i = 0; i < want.length; i++) {
    const g = got[i];
    const w = want[i];
    if (tol === 0) {
      if (!Object.is(g, w) && !(g !== g && w !== w)) expect.fail(`bar ${i}: got ${g}, want ${w}`);
    } else if (w !== w ? g === g : !(Math.abs(g - w) <= tol * Math.max(1, Math.abs(w)))) {
      expect.fail(`bar ${i}: got ${g}, want ${w}`);
    }
  }
}

/** Runs `expr` at one call site over every bar and returns its numbers (bools as 1/0). */
async function collect(
  bars: ReturnType<typeof randomBars>,
  expr: (s: Sites, i: number) => unknown,
): Promise<Float64Array> {
  const s = await newRun(bars);
  const out = new Float64Array(bars.close.length);
  for (let i = 0; i < out.length; i++) {
    setBar(s.ctx, i);
    const v = expr(s, i);
    out[i] = typeof v === "boolean" ? (v ? 1 : 0) : (v as number);
  }
  return out;
}

for (const [label, naRate] of [
  ["dense", 0],
  ["with na gaps", 0.15],
] as const) {
  describe(`state machines vs references (${label})`, () => {
    const b = randomBars(N, 7);
    const x = naRate ? withNa(b.close, naRate, 11) : b.close;
    for (const len of [1, 2, 5, 14, 50]) {
      it(`averages and statistics, length ${len}`, async () => {
        sameSeries(await collect(b, (s, i) => s.f("a", "sma", x[i], len)), ref.sma(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "ema", x[i], len)), ref.ema(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "rma", x[i], len)), ref.ema(x, len, true));
        sameSeries(await collect(b, (s, i) => s.f("a", "wma", x[i], len)), ref.wma(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "variance", x[i], len)), ref.variance(x, len));
        if (len > 1)
          sameSeries(await collect(b, (s, i) => s.f("a", "variance", x[i], len, false)), ref.variance(x, len, false));
        sameSeries(await collect(b, (s, i) => s.f("a", "stdev", x[i], len)), ref.variance(x, len).map(Math.sqrt));
        sameSeries(await collect(b, (s, i) => s.f("a", "dev", x[i], len)), ref.dev(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "cog", x[i], len)), ref.cog(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "linreg", x[i], len, 0)), ref.linreg(x, len, 0));
        sameSeries(await collect(b, (s, i) => s.f("a", "linreg", x[i], len, 2)), ref.linreg(x, len, 2));
        sameSeries(await collect(b, (s, i) => s.f("a", "alma", x[i], len, 0.85, 6)), ref.alma(x, len, 0.85, 6), 1e-12);
        sameSeries(
          await collect(b, (s, i) => s.f("a", "alma", x[i], len, 0.85, 6, true)),
          ref.alma(x, len, 0.85, 6, true),
          1e-12,
        );
        const bb = await collect(b, (s, i) => s.f("a", "bb", x[i], len, 2)[1]);
        const m = ref.sma(x, len);
        const sd = ref.stdev2(x, len);
        sameSeries(
          bb,
          m.map((v, i) => v + 2 * sd[i]),
        );
      });
      it(`windows and order statistics, length ${len}`, async () => {
        for (const kind of [0, 1, 2, 3]) {
          const name = ["highest", "lowest", "highestbars", "lowestbars"][kind];
          sameSeries(await collect(b, (s, i) => s.f("a", name, x[i], len)), ref.hilo(x, len, kind));
        }
        sameSeries(await collect(b, (s, i) => s.f("a", "median", x[i], len)), ref.median(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "mode", x[i], len)), ref.mode(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "range", x[i], len)), ref.range(x, len));
        for (const p of [0, 20, 50, 99, 100]) {
          sameSeries(
            await collect(b, (s, i) => s.f("a", "percentile_nearest_rank", x[i], len, p)),
            ref.percentileNearestRank(x, len, p),
          );
          sameSeries(
            await collect(b, (s, i) => s.f("a", "percentile_linear_interpolation", x[i], len, p)),
            ref.percentileLinear(x, len, p),
          );
        }
        sameSeries(await collect(b, (s, i) => s.f("a", "percentrank", x[i], len)), ref.percentrank(x, len));
        if (len > 1) sameSeries(await collect(b, (s, i) => s.f("a", "rci", x[i], len)), ref.rci(x, len), 1e-12);
        sameSeries(await collect(b, (s, i) => s.f("a", "rising", x[i], len)), ref.rising(x, len, 1));
        sameSeries(await collect(b, (s, i) => s.f("a", "falling", x[i], len)), ref.rising(x, len, -1));
        sameSeries(await collect(b, (s, i) => s.f("a", "change", x[i], len)), ref.change(x, len));
        sameSeries(await collect(b, (s, i) => s.f("a", "pivothigh", len, 2, x[i])), ref.pivot(x, len, 2, true));
        sameSeries(await collect(b, (s, i) => s.f("a", "pivotlow", 2, len, x[i])), ref.pivot(x, 2, len, false));
      });
    }
    it("bar-path functions", async () => {
      sameSeries(await collect(b, (s) => s.f("a", "tr", true)), ref.tr(b.high, b.low, b.close, true));
      sameSeries(await collect(b, (s) => s.v("a", "tr")), ref.tr(b.high, b.low, b.close, false));
      sameSeries(await collect(b, (s) => s.f("a", "atr", 14)), ref.atr(b.high, b.low, b.close, 14));
      sameSeries(await collect(b, (s, i) => s.f("a", "rsi", x[i], 14)), ref.rsi(x, 14));
      sameSeries(await collect(b, (s, i) => s.f("a", "swma", x[i])), ref.swma(x));
      sameSeries(await collect(b, (s, i) => s.f("a", "cum", x[i])), ref.cum(x));
      const y = b.open;
      for (const kind of [0, 1, 2] as const) {
        const name = ["cross", "crossover", "crossunder"][kind];
        sameSeries(await collect(b, (s, i) => s.f("a", name, b.close[i], y[i])), ref.cross(b.close, y, kind));
      }
    });
  });
}

describe("bar-path indicators vs the reference manual's Pine versions", () => {
  const b = randomBars(N, 21);
  it("sar, supertrend, dmi, tsi", async () => {
    sameSeries(await collect(b, (s) => s.f("a", "sar", 0.02, 0.02, 0.2)), refBars.sar(b, 0.02, 0.02, 0.2));
    const [st, dir] = refBars.supertrend(b, 3, 10);
    sameSeries(await collect(b, (s) => s.f("a", "supertrend", 3, 10)[0]), st);
    sameSeries(await collect(b, (s) => s.f("a", "supertrend", 3, 10)[1]), dir);
    const d = refBars.dmi(b, 14, 10);
    for (const k of [0, 1, 2]) sameSeries(await collect(b, (s) => s.f("a", "dmi", 14, 10)[k]), d[k]);
    sameSeries(await collect(b, (s, i) => s.f("a", "tsi", b.close[i], 5, 13)), refBars.tsi(b.close, 5, 13));
  });
  it("vwap with bands and the cumulative volume indicators", async () => {
    const anchor = Array.from({ length: N }, (_, i) => i % 24 === 5);
    const [v, u, l] = refBars.vwap(b.close, b.volume, anchor, 2);
    sameSeries(await collect(b, (s, i) => s.f("a", "vwap", b.close[i], anchor[i], 2)[0]), v);
    sameSeries(await collect(b, (s, i) => s.f("a", "vwap", b.close[i], anchor[i], 2)[1]), u);
    sameSeries(await collect(b, (s, i) => s.f("a", "vwap", b.close[i], anchor[i], 2)[2]), l);
    sameSeries(await collect(b, (s, i) => s.f("a", "vwap", b.close[i], anchor[i])), v);
    for (const kind of ["obv", "accdist", "pvt", "wad"] as const)
      sameSeries(await collect(b, (s) => s.v("a", kind)), refBars.cumulative(b, kind));
  });
});
