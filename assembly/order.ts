// Order statistics over the last `length` calls: the window's non-na values are kept sorted in kernel
// memory (binary search + memory.copy per bar, O(length)); median, mode, percentiles and rci read it.
import { S0, alloc, stateNew, begin, ringEnsure, ringPush, ringGet, ringCount, ringCap } from "./mem";

/** Values every windowed state keeps from the start: a series length may grow later (see avg.ts). */
const HISTORY: i32 = 512;

@inline function ringFor(len: i32): i32 {
  return len < HISTORY ? HISTORY : len + 1;
}

// scalars: S0 u32 sorted ptr, S0+4 i32 sorted capacity, S0+8 i32 sorted count, S0+12 i32 length,
//          S0+16 i32 na values in the window, S0+20 i32 skip na (window = last `length` non-na values)
// With skip set (median, mode, range: "calculates on the length quantity of non-na values" in the
// reference) an na input is not pushed; otherwise the window is the last `length` calls.

export function order_new(len: i32, skip: i32): usize {
  const h = stateNew(S0 + 24, ringFor(len));
  store<i32>(h, len, S0 + 12);
  store<i32>(h, skip, S0 + 20);
  sortedAlloc(h);
  return h;
}

function sortedAlloc(h: usize): void {
  const cap = ringCap(h);
  store<u32>(h, <u32>alloc(<usize>cap << 3), S0);
  store<i32>(h, cap, S0 + 4);
}

@inline function sp(h: usize): usize {
  return <usize>load<u32>(h, S0);
}

@inline function sGet(h: usize, i: i32): f64 {
  return load<f64>(sp(h) + (<usize>i << 3));
}

/** First index whose value is >= x (lower bound) or > x (upper bound). */
function bound(h: usize, x: f64, upper: bool): i32 {
  let lo = 0;
  let hi = load<i32>(h, S0 + 8);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const v = sGet(h, mid);
    if (upper ? v <= x : v < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sInsert(h: usize, x: f64): void {
  if (x != x) {
    store<i32>(h, load<i32>(h, S0 + 16) + 1, S0 + 16);
    return;
  }
  const m = load<i32>(h, S0 + 8);
  const i = bound(h, x, true);
  const p = sp(h) + (<usize>i << 3);
  memory.copy(p + 8, p, <usize>(m - i) << 3);
  store<f64>(p, x);
  store<i32>(h, m + 1, S0 + 8);
}

function sRemove(h: usize, x: f64): void {
  if (x != x) {
    store<i32>(h, load<i32>(h, S0 + 16) - 1, S0 + 16);
    return;
  }
  const m = load<i32>(h, S0 + 8);
  const i = bound(h, x, false);
  if (i >= m) return;
  const p = sp(h) + (<usize>i << 3);
  memory.copy(p, p + 8, <usize>(m - i - 1) << 3);
  store<i32>(h, m - 1, S0 + 8);
}

/** In-place heapsort of m f64 at p (O(m log m), no allocation): used when the window is rebuilt. */
function heapsort(p: usize, m: i32): void {
  for (let i = (m >> 1) - 1; i >= 0; i--) siftDown(p, i, m);
  for (let end = m - 1; end > 0; end--) {
    const t = load<f64>(p);
    store<f64>(p, load<f64>(p + (<usize>end << 3)));
    store<f64>(p + (<usize>end << 3), t);
    siftDown(p, 0, end);
  }
}

function siftDown(p: usize, i: i32, m: i32): void {
  for (;;) {
    let c = 2 * i + 1;
    if (c >= m) return;
    if (c + 1 < m && load<f64>(p + (<usize>(c + 1) << 3)) > load<f64>(p + (<usize>c << 3))) c++;
    const a = load<f64>(p + (<usize>i << 3));
    const b = load<f64>(p + (<usize>c << 3));
    if (a >= b) return;
    store<f64>(p + (<usize>i << 3), b);
    store<f64>(p + (<usize>c << 3), a);
    i = c;
  }
}

/** Pushes x; returns the number of calls in the window (min(count, len)). */
function orderUpdate(h: usize, bar: i32, x: f64, len: i32): i32 {
  const rolled = begin(h, bar);
  const grew = ringEnsure(h, len + 1);
  const skip = x != x && load<i32>(h, S0 + 20) != 0;
  if (!skip) ringPush(h, x);
  const n = ringCount(h);
  if (rolled || grew || len != load<i32>(h, S0 + 12)) {
    if (load<i32>(h, S0 + 4) < ringCap(h)) sortedAlloc(h);
    store<i32>(h, len, S0 + 12);
    // rebuild (repeated call on a bar, length change): copy the window's non-na values and sort
    const m = n < len ? n : len;
    let c = 0;
    let nas = 0;
    for (let i = 0; i < m; i++) {
      const v = ringGet(h, i);
      if (v != v) nas++;
      else {
        store<f64>(sp(h) + (<usize>c << 3), v);
        c++;
      }
    }
    heapsort(sp(h), c);
    store<i32>(h, c, S0 + 8);
    store<i32>(h, nas, S0 + 16);
  } else if (!skip) {
    sInsert(h, x);
    if (n > len) sRemove(h, ringGet(h, len));
  }
  return n < len ? n : len;
}

export function median_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m == 0) return NaN;
  const k = m >> 1;
  return (m & 1) == 1 ? sGet(h, k) : (sGet(h, k - 1) + sGet(h, k)) / 2.0;
}

/** Most frequent value; the smallest of equally frequent ones. */
export function mode_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m == 0) return NaN;
  let best = sGet(h, 0);
  let bestRun = 0;
  let i = 0;
  while (i < m) {
    const v = sGet(h, i);
    let j = i + 1;
    while (j < m && sGet(h, j) == v) j++;
    if (j - i > bestRun) {
      bestRun = j - i;
      best = v;
    }
    i = j;
  }
  return best;
}

/** Nearest rank: the ceil(p% * n)-th smallest non-na value (na values ignored). */
export function pnr_next(h: usize, bar: i32, x: f64, len: i32, p: f64): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m == 0) return NaN;
  let r = <i32>Math.ceil((p / 100.0) * <f64>m) - 1;
  if (r < 0) r = 0;
  if (r > m - 1) r = m - 1;
  return sGet(h, r);
}

/** Linear interpolation at position n*p/100 - 0.5 (na when the window holds an na). */
export function pli_next(h: usize, bar: i32, x: f64, len: i32, p: f64): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  if (load<i32>(h, S0 + 16) > 0) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m == 0) return NaN;
  let pos = (<f64>m * p) / 100.0 - 0.5;
  if (pos <= 0) return sGet(h, 0);
  if (pos >= <f64>(m - 1)) return sGet(h, m - 1);
  const lo = <i32>Math.floor(pos);
  const f = pos - <f64>lo;
  const a = sGet(h, lo);
  return a + f * (sGet(h, lo + 1) - a);
}

/** max - min of the window, the max starting from the smallest positive double (Java's
 * Double.MIN_VALUE) rather than -infinity: TradingView measures an all-negative window from 0
 * (range of -5, -3 is 5) and a lone 0 as 5e-324 (its outputs, published with LuxAlgo/PineTS's
 * tests/namespaces/ta/range-na.test.ts). */
export function range_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m == 0) return NaN;
  const hi = sGet(h, m - 1);
  return (hi > MIN_POSITIVE ? hi : MIN_POSITIVE) - sGet(h, 0);
}

const MIN_POSITIVE: f64 = 5e-324;

/**
 * Rank correlation index: Spearman correlation of price ranks against time ranks, x100. Tied prices
 * share their average rank, and a window with ties is scored as the Pearson correlation of the ranks
 * (the tie-correct Spearman form): TradingView's RCI(14) trade list on ETHUSDT 15m crosses zero where
 * this form does and the 1 - 6*sum(d^2)/(n(n^2-1)) shortcut does not (PineForge probe
 * ta-rci-14-zero-cross-01). Without ties the two forms are equal; the shortcut is kept there because it
 * is exact in floating point. A window of one repeated price has no rank variance: na.
 */
export function rci_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) return NaN;
  if (orderUpdate(h, bar, x, len) < len) return NaN;
  if (load<i32>(h, S0 + 16) > 0) return NaN;
  const m = load<i32>(h, S0 + 8);
  if (m < 2) return NaN;
  const n = <f64>m;
  const mean = (n + 1.0) / 2.0;
  let d2 = 0.0;
  let sxy = 0.0;
  let sxx = 0.0;
  let syy = 0.0;
  let ties = false;
  for (let i = 0; i < len; i++) {
    const v = ringGet(h, i);
    const lo = bound(h, v, false);
    const hi = bound(h, v, true);
    if (hi > lo) ties = true;
    // descending price rank (highest = 1), ties share their average rank
    const pr = <f64>(m - hi) + <f64>(hi - lo + 1) / 2.0;
    const tr = <f64>(i + 1);
    const d = pr - tr;
    d2 += d * d;
    sxy += (pr - mean) * (tr - mean);
    sxx += (pr - mean) * (pr - mean);
    syy += (tr - mean) * (tr - mean);
  }
  if (!ties) return (1.0 - (6.0 * d2) / (n * (n * n - 1.0))) * 100.0;
  if (sxx == 0) return NaN;
  return (sxy / Math.sqrt(sxx * syy)) * 100.0;
}
