// Numeric reductions over arrays (array.sum/avg/min/max/median/mode/variance/stdev/covariance/
// standardize/percentile_*/percentrank). TradingView ignores na elements in these reductions; an
// array without any real value gives na. The percentile functions count na elements in the size
// and sort them last (checked against TradingView's logs, conformance logs/array_test_005/006).

import type { Raise } from "./core.js";

/** Real (non-na) numbers of the array, in order. */
export function realValues(values: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && v != null) out.push(v);
  }
  return out;
}

export function sum(values: readonly number[]): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && v != null) {
      s += v;
      n++;
    }
  }
  return n === 0 ? NaN : s;
}

export function avg(values: readonly number[]): number {
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && v != null) {
      s += v;
      n++;
    }
  }
  return n === 0 ? NaN : s / n;
}

export function variance(values: readonly number[], biased = true): number {
  // Two passes over the real values, no allocation (this runs per bar in many scripts).
  let s = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x === x && x != null) {
      s += x;
      n++;
    }
  }
  if (n === 0) return NaN;
  const mean = s / n;
  let ss = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x === x && x != null) {
      const d = x - mean;
      ss += d * d;
    }
  }
  return biased ? ss / n : ss / (n - 1);
}

export function stdev(values: readonly number[], biased = true): number {
  return Math.sqrt(variance(values, biased));
}

/** Pairs where either side is na are dropped. Arrays of different sizes give na. */
export function covariance(a: readonly number[], b: readonly number[], biased = true): number {
  if (a.length !== b.length) return NaN;
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === x && y === y && x != null && y != null) {
      xs.push(x);
      ys.push(y);
    }
  }
  const n = xs.length;
  if (n === 0) return NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i]!;
    sy += ys[i]!;
  }
  const mx = sx / n;
  const my = sy / n;
  let s = 0;
  for (let i = 0; i < n; i++) s += (xs[i]! - mx) * (ys[i]! - my);
  return biased ? s / n : s / (n - 1);
}

/**
 * (x - mean) / stdev with the population stdev taken as sqrt(E[x^2] - mean^2): TradingView's
 * standardize prints full 17-digit values that match this formula to the last bit, not the
 * two-pass one (logs/array_test_002/003).
 */
export function standardize(values: readonly number[]): number[] {
  let s = 0;
  let sq = 0;
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v === v && v != null) {
      s += v;
      sq += v * v;
      n++;
    }
  }
  const mean = s / n;
  const sd = Math.sqrt(Math.max(0, sq / n - mean * mean));
  const out = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out[i] = v === v && v != null ? (v - mean) / sd : NaN;
  }
  return out;
}

export function median(values: readonly number[]): number {
  const xs = realValues(values).sort((x, y) => x - y);
  const n = xs.length;
  if (n === 0) return NaN;
  const h = n >> 1;
  return n % 2 === 1 ? xs[h]! : (xs[h - 1]! + xs[h]!) / 2;
}

/** Most frequent real value; ties go to the smallest value. */
export function mode(values: readonly number[]): number {
  const xs = realValues(values).sort((x, y) => x - y);
  if (xs.length === 0) return NaN;
  let best = xs[0]!;
  let bestCount = 0;
  let i = 0;
  while (i < xs.length) {
    let j = i;
    while (j < xs.length && xs[j] === xs[i]) j++;
    if (j - i > bestCount) {
      bestCount = j - i;
      best = xs[i]!;
    }
    i = j;
  }
  return best;
}

/** nth largest (max) or nth smallest (min) real value; na when there are not that many. */
export function nth(values: readonly number[], n: number, largest: boolean): number {
  if (n === 0) {
    // The common case (array.max(a), array.min(a)): one pass, no copy.
    let best = NaN;
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      if (x !== x || x == null) continue;
      if (best !== best || (largest ? x > best : x < best)) best = x;
    }
    return best;
  }
  const xs = realValues(values).sort((x, y) => (largest ? y - x : x - y));
  return n < xs.length ? xs[n]! : NaN;
}

export function range(values: readonly number[]): number {
  const xs = realValues(values);
  if (xs.length === 0) return NaN;
  let lo = xs[0]!;
  let hi = xs[0]!;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  return hi - lo;
}

/** Sorted ascending with na elements last (the percentile functions' view of the array). */
function sortedNaLast(values: readonly number[]): { sorted: number[]; hasNa: boolean } {
  const real = realValues(values).sort((x, y) => x - y);
  const hasNa = real.length < values.length;
  while (real.length < values.length) real.push(NaN);
  return { sorted: real, hasNa };
}

export function checkPercentage(raise: Raise, p: number, fn: string): void {
  if (!(p >= 0 && p <= 100)) {
    raise(
      `Invalid value of the 'percentage' argument (${p}) in the '${fn}' function. It must be in the range [0..100].`,
    );
  }
}

export function percentileNearestRank(values: readonly number[], p: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  const { sorted } = sortedNaLast(values);
  // p * n / 100 (not p / 100 * n): 70 / 100 * 10 is 7.000000000000001 and would pick rank 8.
  const rank = Math.ceil((p * n) / 100);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))]!;
}

export function percentileLinear(values: readonly number[], p: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  const { sorted, hasNa } = sortedNaLast(values);
  let pos = (p * n) / 100 - 0.5;
  if (pos < 0) pos = 0;
  if (pos > n - 1) pos = n - 1;
  const lo = Math.floor(pos);
  const f = pos - lo;
  if (f === 0) return sorted[lo]!;
  // With na elements TradingView returns na for every position that needs interpolation
  // (logs/array_test_006: p=10 and p=50 are na, p=0 and p=25 are real values).
  if (hasNa) return NaN;
  const a = sorted[lo]!;
  const b = sorted[lo + 1]!;
  return a + f * (b - a);
}

/** Percent of the OTHER elements that are <= the element at `index` (size - 1 in the denominator). */
export function percentRank(values: readonly number[], index: number): number {
  const v = values[index]!;
  if (v !== v || v == null) return NaN;
  let count = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x === x && x != null && x <= v) count++;
  }
  return ((count - 1) / (values.length - 1)) * 100;
}
