// Which summation TradingView's window sums use (ta.sma, math.sum): the data points that decide it,
// checked on the kernel, and the alternatives each contradicted by one of them.
//  - strategy/futures_pnl: SMA10 and SMA30 of the closes are mathematically equal at bars 5423 and
//    7528. TradingView's trades show a crossover at 5424 (not 5423) and one at 7528, i.e. its float
//    noise leaves fast <= slow at 5423 and fast > slow at 7528.
//  - ta/valuewhen: the crossings of sma(close, 7) and sma(close, 14) (all 150 bars).
//  - logs/math_test_004: after a noisy warm-up and a flat run, the sma of the sma of a run of zeros is
//    exactly 0 (a running sum keeps a 7e-15 residue there unless a near-zero sum reads as 0).
import { describe, expect, it } from "vitest";
import { createKernels } from "../../src/kernels/index.js";
import type { KernelExports } from "../../src/kernels/exports.js";
import { createSumState, sumStep } from "../../src/builtins/math/sum.js";
import { readData } from "../helpers/data.js";
import { CONFORMANCE, loadOhlcv, readCsv } from "./harness.js";
import { randomBars, withNa } from "./random.js";

/** A moving-average definition: whole series in, averages out (NaN = na, inputs here have no na). */
type Sma = (x: ArrayLike<number>, len: number) => Float64Array;

const fill = (n: number, f: (i: number) => number): Float64Array => Float64Array.from({ length: n }, (_, i) => f(i));

/** The runtime's kernel (sum_new/sma_next), one state per call. */
function kernelSma(k: KernelExports): Sma {
  return (x, len) => {
    const h = k.sum_new(len);
    return fill(x.length, (i) => k.sma_next(h, i, x[i], len));
  };
}

/** Running sums in the given update order. */
function running(update: (s: number, add: number, out: number | undefined) => number): Sma {
  return (x, len) => {
    let s = 0;
    return fill(x.length, (i) => {
      s = update(s, x[i], i >= len ? x[i - len] : undefined);
      return i >= len - 1 ? s / len : NaN;
    });
  };
}

const subtractThenAdd = running((s, a, o) => (o === undefined ? s : s - o) + a);
const addThenSubtract = running((s, a, o) => (o === undefined ? s + a : s + a - o));

function fresh(newestFirst: boolean): Sma {
  return (x, len) =>
    fill(x.length, (i) => {
      if (i < len - 1) return NaN;
      let s = 0;
      if (newestFirst) for (let j = i; j > i - len; j--) s += x[j];
      else for (let j = i - len + 1; j <= i; j++) s += x[j];
      return s / len;
    });
}

/** Neumaier-compensated running sum (new value added first, then the leaving one taken out). */
const compensated: Sma = (x, len) => {
  let s = 0;
  let c = 0;
  const add = (v: number): void => {
    const t = s + v;
    c += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    s = t;
  };
  return fill(x.length, (i) => {
    add(x[i]);
    if (i >= len) add(-x[i - len]);
    return i >= len - 1 ? (s + c) / len : NaN;
  });
};

const crossover = (a: Float64Array, b: Float64Array, i: number): boolean => a[i] > b[i] && a[i - 1] <= b[i - 1];
const cross = (a: Float64Array, b: Float64Array, i: number): boolean =>
  (a[i] > b[i] && a[i - 1] <= b[i - 1]) || (a[i] < b[i] && a[i - 1] >= b[i - 1]);

const futures = loadOhlcv(`${CONFORMANCE}strategy/futures_pnl/ohlcv.csv`).close;

/** TradingView: crossover at 5424 but not at 5423 (tie), and at 7528 (tie). */
function futuresTiesAgree(sma: Sma): boolean {
  const fast = sma(futures, 10);
  const slow = sma(futures, 30);
  return !crossover(fast, slow, 5423) && crossover(fast, slow, 5424) && crossover(fast, slow, 7528);
}

const vw = loadOhlcv(`${CONFORMANCE}ta/valuewhen/ohlcv.csv`).close;
const vwExpected = readCsv(`${CONFORMANCE}ta/valuewhen/expected.csv`).rows.map((r) => r[1]);

/** Bars of ta/valuewhen where valuewhen(cross(sma7, sma14), close, 1) agrees with TradingView. */
function valuewhenMatched(sma: Sma): number {
  const slow = sma(vw, 7);
  const fast = sma(vw, 14);
  const hits: number[] = [];
  let matched = 0;
  for (let i = 0; i < vw.length; i++) {
    if (i > 0 && cross(slow, fast, i)) hits.unshift(vw[i]);
    const got = hits.length > 1 ? hits[1] : NaN;
    const want = vwExpected[i];
    if (got === want || (got !== got && want !== want) || Math.abs(got - want) <= 1e-9 * Math.abs(want)) matched++;
  }
  return matched;
}

const m4Expected = readData(`${CONFORMANCE}logs/math_test_004_math_sum_flat_exact/expected_log.txt`)
  .trim()
  .split("\n")
  .map((l) => l.replace(/^\[[^\]]*\]: /, "").trim());

/** logs/math_test_004's lines from bar 16 on ("k_eq_d: .., sum_exact: .."), sum = 3 * the sma. */
function mathTest004Lines(sma: Sma): string[] {
  const v = fill(30, (i) => (i < 10 ? i * 7.3 + 0.1 : i < 20 ? 100 : 0));
  const k = sma(v, 3);
  // the inner sma is na on bars 0-1: the outer window starts on bar 2 (na values are skipped)
  const d = new Float64Array(30).fill(NaN);
  sma(k.subarray(2), 3).forEach((x, i) => {
    d[i + 2] = x;
  });
  const out: string[] = [];
  for (let i = 16; i < 30; i++) out.push(`k_eq_d: ${k[i] === d[i]}, sum_exact: ${k[i] * 3 === v[i] * 3}`);
  return out;
}

describe("summation order of the window sums (ta.sma, math.sum)", () => {
  it("the kernel's running sum (take out, then add; near-zero sums read 0) meets every data point", async () => {
    const sma = kernelSma((await createKernels()).x);
    expect(futuresTiesAgree(sma)).toBe(true);
    expect(valuewhenMatched(sma)).toBe(vw.length);
    expect(mathTest004Lines(sma)).toEqual(m4Expected);
  });

  it("each alternative contradicts one of them", () => {
    // add-then-subtract: 12 valuewhen bars wrong and a crossover at the 5423 tie
    expect(valuewhenMatched(addThenSubtract)).toBe(138);
    expect(futuresTiesAgree(addThenSubtract)).toBe(false);
    // a fresh sum per bar, either order: crosses at the 5423 tie
    expect(valuewhenMatched(fresh(false))).toBe(vw.length);
    expect(futuresTiesAgree(fresh(false))).toBe(false);
    expect(futuresTiesAgree(fresh(true))).toBe(false);
    // a compensated sum is exact at both ties, so no crossover at 7528
    expect(futuresTiesAgree(compensated)).toBe(false);
    // the plain running sum without the zero read keeps a residue in the sma of the sma of zeros
    expect(futuresTiesAgree(subtractThenAdd)).toBe(true);
    expect(mathTest004Lines(subtractThenAdd)).not.toEqual(m4Expected);
    expect(mathTest004Lines(subtractThenAdd).slice(8)).toEqual(Array(6).fill("k_eq_d: false, sum_exact: true"));
  });

  it("math.sum (JS) gives the kernel's sums bit for bit: na gaps, length changes, flat zero runs", async () => {
    const k = (await createKernels()).x;
    const b = randomBars(600, 21);
    const x = withNa(b.close, 0.1, 4);
    // a noisy stretch followed by zeros (the residue case), then prices again
    for (let i = 300; i < 340; i++) x[i] = i < 320 ? (i % 7) * 0.1 + 0.3 : 0;
    const lens = [1, 3, 14, 50];
    for (const len of lens) {
      const h = k.sum_new(len);
      const st = createSumState(len);
      for (let i = 0; i < x.length; i++) {
        const want = k.sum_next(h, i, x[i], len);
        const got = sumStep(st, x[i], len);
        if (!Object.is(got, want) && !(got !== got && want !== want))
          expect.fail(`length ${len}, bar ${i}: ${got} vs ${want}`);
      }
    }
    // a series length: re-summed whenever it changes
    const h = k.sum_new(2);
    const st = createSumState(2);
    for (let i = 0; i < x.length; i++) {
      const len = i < 100 ? 2 : i < 200 ? 1 + (i % 5) : 9;
      const want = k.sum_next(h, i, x[i], len);
      const got = sumStep(st, x[i], len);
      if (!Object.is(got, want) && !(got !== got && want !== want))
        expect.fail(`series length, bar ${i}: ${got} vs ${want}`);
    }
  });

  it("math.sum called again on the same bar (realtime ticks) replaces that bar's value", async () => {
    const k = (await createKernels()).x;
    const b = randomBars(120, 5);
    const x = withNa(b.close, 0.1, 9);
    for (const lenAt of [(_: number) => 10, (i: number) => (i < 60 ? 3 : 40)]) {
      const h = k.sum_new(lenAt(0));
      const st = createSumState(lenAt(0));
      for (let i = 0; i < x.length; i++) {
        const len = lenAt(i);
        // three ticks (one na), then the bar's value; the kernel rolls back through its shadow copy
        for (const t of [x[i] + 1, NaN, x[i] - 3]) {
          k.sum_next(h, i, t, len);
          sumStep(st, t, len, i);
        }
        const want = k.sum_next(h, i, x[i], len);
        const got = sumStep(st, x[i], len, i);
        if (!Object.is(got, want) && !(got !== got && want !== want)) expect.fail(`bar ${i}: ${got} vs ${want}`);
      }
    }
  });

  it("a window of zeros after noise sums to exactly 0 (both implementations)", async () => {
    const k = (await createKernels()).x;
    const x = [0.1, 0.2, 0.3, 0.4, 0, 0, 0, 0];
    const h = k.sum_new(3);
    const st = createSumState(3);
    const kern = x.map((v, i) => k.sum_next(h, i, v, 3));
    const js = x.map((v) => sumStep(st, v, 3));
    // the plain running sum is 1.6653345369377348e-16 on bars 6-7; read as 0
    expect(kern.slice(6)).toEqual([0, 0]);
    expect(js.slice(6)).toEqual([0, 0]);
    // the rounding is still there before that (0.4000000000000002 on bar 5): only near-zero sums read 0
    expect(kern[5]).toBe(0.4000000000000002);
    expect(js[5]).toBe(kern[5]);
  });
});
