// Numeric reductions over arrays (array.sum/avg/min/max/median/mode/variance/stdev/covariance/
// standardize/percentile_*/percentrank). TradingView ignores na elements in these reductions; an
// array without any real value gives na. The percentile functions count na elements in the size
// and sort them last (checked against TradingView's logs, conformance logs/array_test_005/006).

import type { Raise } from "./core.js";
import { doubleArray } from "../../core/shapes.js";

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
  // Two passes over the kept pairs in order, no copies (the same sums as over copied pairs).
  let n = 0;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === x && y === y && x != null && y != null) {
      sx += x;
      sy += y;
      n++;
    }
  }
  if (n === 0) return NaN;
  const mx = sx / n;
  const my = sy / n;
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === x && y === y && x != null && y != null) s += (x - mx) * (y - my);
  }
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
  // (a packed double array, as array.new_float makes: a holey one beside them makes the reductions polymorphic)
  const out = doubleArray();
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    out.push(v === v && v != null ? (v - mean) / sd : NaN);
  }
  return out;
}

// The order statistics (median, mode, nth, percentiles) and array.sort read the real values sorted
// ascending in a scratch buffer kept between calls: Float64Array's numeric sort (no comparator
// calls, no fresh copy per call). It orders -0 before +0 where the comparator sort `(x, y) => x - y`
// it replaces keeps them in input order (stable, they compare equal); sortReal puts the zeros back
// in input order, so every position holds exactly the value (and sign) it held before.
// Scripts often take several statistics of one array on a bar (median and percentiles of a
// window), and of a few arrays in turn (a window and its buckets; highs and lows): the last few
// sorts are kept, each with its input, and the same input again reuses its order (sameInput), an
// input slid along by one updates it (slide).

/** One kept sort: its input and the order of its real values. */
class SortMemo {
  /** The sorted real values (the first `view.length` of `buf`). */
  buf = new Float64Array(64);
  view = this.buf.subarray(0, 0);
  /** The input, na as NaN (its first `len` elements); len -1: none (or a sort cut short by a throw). */
  input = new Float64Array(64);
  len = -1;
  /** Whether the view holds a -0, and then where its zeros are: [zeroFrom, zeroTo). */
  negZero = false;
  zeroFrom = 0;
  zeroTo = 0;
  /** When it was last used (sortReal's clock), for the choice of the memo a new sort replaces. */
  used = 0;
}

/** How many sorts are kept (each a pair of buffers of its array's size). */
const SORT_MEMOS = 4;
const memos: SortMemo[] = Array.from({ length: SORT_MEMOS }, () => new SortMemo());
let clock = 0;

// What the readers below read after sortReal: the memo's order and zeros.
let view = memos[0]!.view;
let hasNegZero = false;
let zeroFrom = 0;
let zeroTo = 0;

/** Whether `values` is memo `s`'s input again, bit for bit up to the sign of zero (na = na). */
function sameInput(s: SortMemo, values: readonly number[]): boolean {
  const n = values.length;
  if (n !== s.len) return false;
  const last = s.input;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const c = last[i]!;
    if (v === c) {
      if (v === 0 && 1 / v !== 1 / c) return false;
    } else if (!((v !== v || v == null) && c !== c)) return false;
  }
  return true;
}

/**
 * `values` is memo `s`'s input slid along by one: its first value gone and a new one pushed (a
 * rolling window kept with push and shift), or a new one pushed and none gone (the window filling).
 * Then the memo's order is updated in place, the gone value taken out and the new one put in by
 * binary search, instead of sorted again: a sort of 50 prices is branch mispredictions, ~1 us; the
 * compare and the two moves take a tenth of that. Only without -0: the zeros' input order then
 * cannot matter (all +0, alike), so the view is exactly what the sort gives. False, nothing changed,
 * otherwise.
 */
function slide(s: SortMemo, values: readonly number[]): boolean {
  const len = s.len;
  const n = values.length;
  const last = s.input;
  if (len < 1 || s.negZero || n > last.length) return false;
  const off = n === len ? 1 : n === len + 1 ? 0 : -1;
  if (off < 0) return false;
  for (let i = 0; i < n - 1; i++) {
    const v = values[i]!;
    const c = last[i + off]!;
    if (v === c) {
      if (v === 0 && 1 / v !== 1 / c) return false;
    } else if (!((v !== v || v == null) && c !== c)) return false;
  }
  const x = values[n - 1]!;
  const add = x === x && x != null;
  if (add && x === 0 && 1 / x < 0) return false;
  let m = s.view.length;
  const xs = s.buf;
  if (off === 1) {
    const gone = last[0]!;
    if (gone === gone) {
      // (its lowest place: any place of an equal value holds the same double, no -0 being there)
      let lo = 0;
      let hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (xs[mid]! < gone) lo = mid + 1;
        else hi = mid;
      }
      xs.copyWithin(lo, lo + 1, m);
      m--;
    }
    last.copyWithin(0, 1, len);
  }
  if (add) {
    // after the equal values (a stable sort puts a later equal value after them)
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (xs[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    xs.copyWithin(lo + 1, lo, m);
    xs[lo] = x;
    m++;
  }
  last[n - 1] = add ? x : NaN;
  s.len = n;
  if (s.view.length !== m) s.view = xs.subarray(0, m);
  sortSlides.count++;
  return true;
}

/** How many sorts a memo's slide answered (tests check that it is taken). */
export const sortSlides = { count: 0 };

/** Sorts the real (non-na) values into `view` (ascending, zeros in input order); returns their count. */
function sortReal(values: readonly number[]): number {
  let s: SortMemo | null = null;
  for (let k = 0; k < SORT_MEMOS && s === null; k++) if (sameInput(memos[k]!, values)) s = memos[k]!;
  for (let k = 0; k < SORT_MEMOS && s === null; k++) if (slide(memos[k]!, values)) s = memos[k]!;
  if (s === null) {
    // the least recently used memo sorts it
    s = memos[0]!;
    for (let k = 1; k < SORT_MEMOS; k++) if (memos[k]!.used < s.used) s = memos[k]!;
    sortInto(s, values);
  }
  s.used = ++clock;
  view = s.view;
  hasNegZero = s.negZero;
  zeroFrom = s.zeroFrom;
  zeroTo = s.zeroTo;
  return view.length;
}

/** Sorts the real values of `values` into memo `s`, which keeps them as its input. */
function sortInto(s: SortMemo, values: readonly number[]): void {
  const n = values.length;
  if (s.buf.length < n) {
    s.buf = new Float64Array(Math.max(n, s.buf.length * 2));
    s.input = new Float64Array(s.buf.length);
  }
  s.len = -1; // (a throw below must not leave a half-written input looking valid)
  const buf = s.buf;
  const last = s.input;
  let m = 0;
  let negZero = false;
  let ordered = true;
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (v === v && v != null) {
      if (v === 0 && 1 / v < 0) negZero = true;
      if (v < prev) ordered = false;
      prev = v;
      buf[m++] = v;
      last[i] = v;
    } else last[i] = NaN;
  }
  if (s.view.length !== m || s.view.buffer !== buf.buffer) s.view = buf.subarray(0, m);
  const xs = s.view;
  s.negZero = negZero;
  // an input already in order (a sorted array kept sorted) is its own stable sort, zeros included
  if (!ordered) sortAscending(xs, m);
  if (negZero) {
    let lo = 0;
    while (xs[lo]! < 0) lo++;
    let k = lo;
    if (ordered) while (k < m && xs[k] === 0) k++;
    else
      for (let i = 0; i < n; i++) {
        const v = values[i]!;
        if (v === 0) xs[k++] = v;
      }
    s.zeroFrom = lo;
    s.zeroTo = k;
  }
  s.len = n;
}

const sortStack = new Int32Array(128);

/** Partition steps allowed per element and level (n log2 n of them) before the native sort takes over. */
export const SORT_BUDGET_FACTOR = 8;
/** How many sorts fell back to the native sort (tests check the fallback is taken). */
export const sortFallbacks = { count: 0 };

/**
 * Sorts a[0..n) ascending (no NaN in it; the order among -0 and +0 is left open, sortReal fixes
 * it): quicksort with median-of-three, insertion sort below 16 elements. About twice as fast as
 * Float64Array.prototype.sort on the 50 to 3000 elements of script windows. Past an operation
 * budget (an input built against the pivot rule) it finishes with the native sort instead.
 */
export function sortAscending(a: Float64Array, n: number, budgetFactor = SORT_BUDGET_FACTOR): void {
  let budget = budgetFactor * n * (32 - Math.clz32(n)) + 64;
  let sp = 0;
  sortStack[sp++] = 0;
  sortStack[sp++] = n - 1;
  while (sp > 0) {
    let hi = sortStack[--sp]!;
    let lo = sortStack[--sp]!;
    while (hi - lo > 16) {
      budget -= hi - lo;
      if (budget < 0 || sp > 120) {
        sortFallbacks.count++;
        a.subarray(0, n).sort();
        return;
      }
      const mid = (lo + hi) >>> 1;
      // the median of a[lo], a[mid], a[hi] to a[mid], the others at the ends (they bound the scans)
      let x = a[lo]!;
      let y = a[mid]!;
      let z = a[hi]!;
      if (y < x) {
        const t = x;
        x = y;
        y = t;
      }
      if (z < y) {
        const t = y;
        y = z;
        z = t;
        if (y < x) {
          const t2 = x;
          x = y;
          y = t2;
        }
      }
      a[lo] = x;
      a[mid] = y;
      a[hi] = z;
      const p = y;
      let i = lo + 1;
      let j = hi - 1;
      for (;;) {
        while (a[i]! < p) i++;
        while (p < a[j]!) j--;
        if (i >= j) break;
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
      // the smaller side waits on the stack, the larger one goes on here
      if (j - lo < hi - j) {
        sortStack[sp++] = j + 1;
        sortStack[sp++] = hi;
        hi = j;
      } else {
        sortStack[sp++] = lo;
        sortStack[sp++] = j;
        lo = j + 1;
      }
    }
    for (let i = lo + 1; i <= hi; i++) {
      const v = a[i]!;
      let j = i - 1;
      while (j >= lo && a[j]! > v) {
        a[j + 1] = a[j]!;
        j--;
      }
      a[j + 1] = v;
    }
  }
}

/**
 * The real values of a numeric array in the order a stable ascending sort gives them (the caller
 * reads it before the next call and does not write it).
 */
export function sortedReals(values: readonly number[]): Float64Array {
  sortReal(values);
  return view;
}

export function median(values: readonly number[]): number {
  const n = sortReal(values);
  if (n === 0) return NaN;
  const xs = view;
  const h = n >> 1;
  return n % 2 === 1 ? xs[h]! : (xs[h - 1]! + xs[h]!) / 2;
}

/** Most frequent real value; ties go to the smallest value. */
export function mode(values: readonly number[]): number {
  const n = sortReal(values);
  if (n === 0) return NaN;
  const xs = view;
  let best = xs[0]!;
  let bestCount = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j < n && xs[j] === xs[i]) j++;
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
  const m = sortReal(values);
  if (n >= m) return NaN;
  if (!largest) return view[n]!;
  // the n-th of the stable descending order: the zeros (equal) keep their input order there too
  const v = view[m - 1 - n]!;
  return v === 0 && hasNegZero ? view[zeroFrom + n - (m - zeroTo)]! : v;
}

export function range(values: readonly number[]): number {
  let lo = NaN;
  let hi = NaN;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (x !== x || x == null) continue;
    if (lo !== lo) {
      lo = x;
      hi = x;
    } else {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  return hi - lo;
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
  // sorted with the na elements last
  const m = sortReal(values);
  // p * n / 100 (not p / 100 * n): 70 / 100 * 10 is 7.000000000000001 and would pick rank 8.
  const rank = Math.ceil((p * n) / 100);
  const k = Math.min(n - 1, Math.max(0, rank - 1));
  return k < m ? view[k]! : NaN;
}

export function percentileLinear(values: readonly number[], p: number): number {
  const n = values.length;
  if (n === 0) return NaN;
  // sorted with the na elements last
  const m = sortReal(values);
  const hasNa = m < n;
  let pos = (p * n) / 100 - 0.5;
  if (pos < 0) pos = 0;
  if (pos > n - 1) pos = n - 1;
  const lo = Math.floor(pos);
  const f = pos - lo;
  if (f === 0) return lo < m ? view[lo]! : NaN;
  // With na elements TradingView returns na for every position that needs interpolation
  // (logs/array_test_006: p=10 and p=50 are na, p=0 and p=25 are real values).
  if (hasNa) return NaN;
  const a = view[lo]!;
  const b = view[lo + 1]!;
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
