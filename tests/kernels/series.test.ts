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

describe("whole-series kernels", () => {
  const b = randomBars(1000, 3);
  const x = withNa(b.close, 0.05, 5);
  for (const len of [1, 3, 20, 200]) {
    it(`match the state machines bit for bit (length ${len})`, async () => {
      const k = await createKernels();
      bitEqual(S.seriesSma(k, x, len), await perBar(b, (s, i) => s.f("a", "sma", x[i], len)));
      bitEqual(S.seriesEma(k, x, len), await perBar(b, (s, i) => s.f("a", "ema", x[i], len)));
      bitEqual(S.seriesRma(k, x, len), await perBar(b, (s, i) => s.f("a", "rma", x[i], len)));
      bitEqual(S.seriesWma(k, x, len), await perBar(b, (s, i) => s.f("a", "wma", x[i], len)));
      bitEqual(S.seriesStdev(k, x, len), await perBar(b, (s, i) => s.f("a", "stdev", x[i], len)));
      if (len > 1) bitEqual(S.seriesStdev(k, x, len, false), await perBar(b, (s, i) => s.f("a", "stdev", x[i], len, false)));
      bitEqual(S.seriesHighest(k, x, len), await perBar(b, (s, i) => s.f("a", "highest", x[i], len)));
      bitEqual(S.seriesLowest(k, x, len), await perBar(b, (s, i) => s.f("a", "lowest", x[i], len)));
      bitEqual(S.seriesRsi(k, x, len), await perBar(b, (s, i) => s.f("a", "rsi", x[i], len)));
      bitEqual(S.seriesChange(k, x, len), await perBar(b, (s, i) => s.f("a", "change", x[i], len)));
      bitEqual(S.seriesAtr(k, b.high, b.low, b.close, len), await perBar(b, (s) => s.f("a", "atr", len)));
    });
  }
  it("tr (SIMD) matches the state machine and the reference, na closes included", async () => {
    const k = await createKernels();
    const c = withNa(b.close, 0.1, 9);
    for (const handleNa of [false, true]) {
      const want = ref.tr(b.high, b.low, c, handleNa);
      bitEqual(S.seriesTr(k, b.high, b.low, c, handleNa), want);
      for (const n of [0, 1, 2, 3]) bitEqual(S.seriesTr(k, b.high.subarray(0, n), b.low.subarray(0, n), c.subarray(0, n), handleNa), want.subarray(0, n));
    }
    bitEqual(S.seriesChange(k, x, 0), x.map((v) => v - v));
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
