// Whole-series kernels (src/kernels/series.ts) give exactly the per-bar state machines' numbers.
import { describe, expect, it } from "vitest";
import { createKernels } from "../../src/kernels/index.js";
import * as S from "../../src/kernels/series.js";
import { newRun, setBar, type Sites } from "../ta/harness.js";
import { randomBars, withNa } from "../ta/random.js";
import * as ref from "../ta/reference/series.js";

function bitEqual(a: ArrayLike<number>, b: ArrayLike<number>): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i]) && !(a[i] !== a[i] && b[i] !== b[i])) expect.fail(`index ${i}: ${a[i]} vs ${b[i]}`);
  }
}

async function perBar(bars: ReturnType<typeof randomBars>, f: (s: Sites, i: number) => number): Promise<Float64Array> {
  const s = await newRun(bars);
  return Float64Array.from({ length: bars.close.length }, (_, i) => {
    setBar(s.ctx, i);
    return f(s, i);
  });
}

/** Every single-column kernel against its state machine over `x` (the bars give high/low/close). */
async function checkAll(b: ReturnType<typeof randomBars>, x: Float64Array, len: number): Promise<void> {
  const k = await createKernels();
  bitEqual(S.seriesSma(k, x, len), await perBar(b, (s, i) => s.f("a", "sma", x[i], len)));
  bitEqual(S.seriesEma(k, x, len), await perBar(b, (s, i) => s.f("a", "ema", x[i], len)));
  bitEqual(S.seriesRma(k, x, len), await perBar(b, (s, i) => s.f("a", "rma", x[i], len)));
  bitEqual(S.seriesWma(k, x, len), await perBar(b, (s, i) => s.f("a", "wma", x[i], len)));
  bitEqual(S.seriesStdev(k, x, len), await perBar(b, (s, i) => s.f("a", "stdev", x[i], len)));
  if (len > 1)
    bitEqual(S.seriesStdev(k, x, len, false), await perBar(b, (s, i) => s.f("a", "stdev", x[i], len, false)));
  bitEqual(S.seriesHighest(k, x, len), await perBar(b, (s, i) => s.f("a", "highest", x[i], len)));
  bitEqual(S.seriesLowest(k, x, len), await perBar(b, (s, i) => s.f("a", "lowest", x[i], len)));
  bitEqual(S.seriesHighestBars(k, x, len), await perBar(b, (s, i) => s.f("a", "highestbars", x[i], len)));
  bitEqual(S.seriesLowestBars(k, x, len), await perBar(b, (s, i) => s.f("a", "lowestbars", x[i], len)));
  bitEqual(S.seriesRsi(k, x, len), await perBar(b, (s, i) => s.f("a", "rsi", x[i], len)));
  bitEqual(S.seriesChange(k, x, len), await perBar(b, (s, i) => s.f("a", "change", x[i], len)));
  bitEqual(S.seriesAtr(k, b.high, b.low, b.close, len), await perBar(b, (s) => s.f("a", "atr", len)));
  for (const [f, sl, sg] of [
    [len, len + 5, Math.max(1, len >> 1)],
    [12, 26, 9],
  ]) {
    const want = await perBar3(b, (s, i) => s.f("a", "macd", x[i], f, sl, sg));
    const got = S.seriesMacd(k, x, f!, sl!, sg!);
    for (let j = 0; j < 3; j++) bitEqual(got[j]!, want[j]!);
  }
  const h = Float64Array.from(x, (v, i) => v + Math.abs(b.high[i]! - b.close[i]!)),
    l = Float64Array.from(x, (v, i) => v - Math.abs(b.close[i]! - b.low[i]!));
  bitEqual(S.seriesStoch(k, x, h, l, len), await perBar(b, (s, i) => s.f("a", "stoch", x[i], h[i], l[i], len)));
  for (const mult of [2, 0.5, -1]) {
    const want = await perBar3(b, (s, i) => s.f("a", "bb", x[i], len, mult));
    const got = S.seriesBb(k, x, len, mult);
    for (let j = 0; j < 3; j++) bitEqual(got[j]!, want[j]!);
  }
}

async function perBar3(
  bars: ReturnType<typeof randomBars>,
  f: (s: Sites, i: number) => number[],
): Promise<Float64Array[]> {
  const s = await newRun(bars);
  const out = [0, 1, 2].map(() => new Float64Array(bars.close.length));
  for (let i = 0; i < bars.close.length; i++) {
    setBar(s.ctx, i);
    const t = f(s, i);
    for (let j = 0; j < 3; j++) out[j]![i] = t[j]!;
  }
  return out;
}

describe("whole-series kernels", () => {
  const b = randomBars(1000, 3);
  const x = withNa(b.close, 0.05, 5);
  for (const len of [1, 2, 3, 20, 200, 1500]) {
    it(`match the state machines bit for bit (length ${len}${len > 1000 ? ", longer than the bars" : ""})`, async () => {
      await checkAll(b, x, len);
    });
  }
  it("match on inputs without na, mostly na, all na, and runs that cancel out to zero", async () => {
    await checkAll(b, b.close, 14);
    await checkAll(b, withNa(b.close, 0.6, 11), 5);
    await checkAll(b, new Float64Array(1000).fill(NaN), 3);
    // a flat run of zeros after non-zero values: the running sum's residue reads as exactly 0
    const z = Float64Array.from(b.close, (v, i) => (i % 300 < 150 ? v * 1e-3 : 0));
    await checkAll(b, z, 10);
    const short = randomBars(5, 8);
    await checkAll(short, short.close, 9);
  });
  it("supertrend and its direction match the state machine (na closes and highs, any factor and period)", async () => {
    const k = await createKernels();
    for (const [hi, c] of [
      [b.high, b.close],
      [withNa(b.high, 0.05, 4), withNa(b.close, 0.1, 6)],
    ] as const) {
      const bars = { ...b, high: hi, close: c };
      for (const [factor, period] of [
        [3, 10],
        [0.5, 1],
        [-1, 2],
        [2, 1500],
      ] as const) {
        const s = await newRun(bars);
        const want = [new Float64Array(1000), new Float64Array(1000)];
        for (let i = 0; i < 1000; i++) {
          setBar(s.ctx, i);
          const t = s.f("a", "supertrend", factor, period) as number[];
          want[0]![i] = t[0]!;
          want[1]![i] = t[1]!;
        }
        const got = S.seriesSupertrend(k, hi, b.low, c, factor, period);
        bitEqual(got[0]!, want[0]!);
        bitEqual(got[1]!, want[1]!);
      }
    }
  });
  it("cross, crossover and crossunder of two columns match ta.cross*, ties and na included", async () => {
    const k = await createKernels();
    const y = withNa(
      Float64Array.from(b.close, (v, i) => (i % 7 === 0 ? x[i]! : v + Math.sin(i / 5))),
      0.05,
      21,
    );
    for (const [kind, name] of [
      [0, "cross"],
      [1, "crossover"],
      [2, "crossunder"],
    ] as const) {
      bitEqual(S.seriesCross(k, x, y, kind), await perBar(b, (s, i) => (s.f("a", name, x[i], y[i]) ? 1 : 0)));
    }
  });
  it("tr (SIMD) matches the state machine and the reference, na closes included", async () => {
    const k = await createKernels();
    const c = withNa(b.close, 0.1, 9);
    for (const handleNa of [false, true]) {
      const want = ref.tr(b.high, b.low, c, handleNa);
      bitEqual(S.seriesTr(k, b.high, b.low, c, handleNa), want);
      for (const n of [0, 1, 2, 3])
        bitEqual(
          S.seriesTr(k, b.high.subarray(0, n), b.low.subarray(0, n), c.subarray(0, n), handleNa),
          want.subarray(0, n),
        );
    }
    bitEqual(
      S.seriesChange(k, x, 0),
      x.map((v) => v - v),
    );
  });
  it("release their scratch memory", async () => {
    const k = await createKernels();
    const top = k.x.heap_top();
    S.seriesSma(k, x, 20);
    S.seriesTr(k, b.high, b.low, b.close);
    expect(k.x.heap_top()).toBe(top);
  });
  it("reject bad lengths with a clear error", async () => {
    const k = await createKernels();
    expect(() => S.seriesSma(k, x, 0)).toThrow(/invalid length 0/);
    expect(() => S.seriesEma(k, x, 2.5)).toThrow(/invalid length/);
    expect(() => S.seriesChange(k, x, -1)).toThrow(/invalid length/);
  });
});
