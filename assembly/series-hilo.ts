// Whole-series highest/lowest(+bars) and stoch: van Herk/Gil-Werman block extremes, O(1) a bar and
// branch-light, instead of a monotonic deque.
//
// What they must reproduce (window.ts hilo_next): the window is the last `len` bars, cut at the most
// recent na (an na bar reads na, 0 for the bars kinds, and restarts the window); of values that
// compare equal (0 and -0 included) the OLDEST is the result. Here each run of non-na bars is cut
// into blocks of `len` bars from its first bar. A bar's window is then either a prefix of its block
// (first block of a run: the window starts at the run) or the previous block's suffix from the same
// offset + 1 followed by its own block's prefix (a whole block at the last offset). Every comparison
// takes the newer value only when it is strictly better, so ties keep the older one in prefixes,
// suffixes and their combination alike: the result is the oldest of the tied extremes, the deque's.
import { alloc, heap_top, heap_set } from "./mem";
import { ld, st, fillNaN } from "./series-util";

/** Whether b beats a (strictly): a higher value for highest, a lower one for lowest. */
@inline function better(b: f64, a: f64, low: bool): bool {
  return low ? b < a : b > a;
}

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars over the last len bars (hilo_next). */
export function series_hilo(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  // a window longer than the data never fills
  if (len < 1 || len > n) return fillNaN(out, n);
  const mark = heap_top();
  const sv = alloc(<usize>len << 3);
  if (kind == 0) hiloValues(inp, out, n, len, sv, false);
  else if (kind == 1) hiloValues(inp, out, n, len, sv, true);
  else {
    const si = alloc(<usize>len << 3);
    if (kind == 2) hiloBars(inp, out, n, len, sv, si, false);
    else hiloBars(inp, out, n, len, sv, si, true);
  }
  heap_set(mark);
}

// The value passes keep their running extremes in v128 lanes and pick with pmax/pmin: exactly
// "the newer value if strictly better, else the older" (f64x2.pmax(a, b) = a < b ? b : a a lane), one
// instruction with no data-dependent branch (a scalar float select or max can compile to one).

/** The lanes of b (newer) where they are strictly better than a's (older), else a's. */
@inline function pickv(b: v128, a: v128, low: bool): v128 {
  return low ? f64x2.pmin(a, b) : f64x2.pmax(a, b);
}

@inline function ldsplat(p: usize, i: i32): v128 {
  return v128.load64_splat(p + (<usize>i << 3));
}

/** Suffix extremes of the len values from bs into sv (sv[r]: bars bs + r .. bs + len - 1). */
@inline function suffix(inp: usize, bs: i32, len: i32, sv: usize, low: bool): void {
  let s = ldsplat(inp, bs + len - 1);
  v128.store64_lane(sv + (<usize>(len - 1) << 3), s, 0);
  for (let r = len - 2; r >= 0; r--) {
    // the older value unless the suffix after it is strictly better
    s = pickv(s, ldsplat(inp, bs + r), low);
    v128.store64_lane(sv + (<usize>r << 3), s, 0);
  }
}

/** The extreme values. A prefix starts from -inf (+inf for lowest): a value equal to it has its
 * bits, so which of them is kept does not show. */
@inline function hiloValues(inp: usize, out: usize, n: i32, len: i32, sv: usize, low: bool): void {
  const none = f64x2.splat(low ? Infinity : -Infinity);
  let i = 0;
  while (i < n) {
    let x = ld(inp, i);
    if (x != x) {
      st(out, i, NaN);
      i++;
      continue;
    }
    // a run of non-na bars starts at i; its first block: the window starts at the run
    let bs = i;
    let end = bs + len < n ? bs + len : n;
    let p = none;
    for (; i < end; i++) {
      x = ld(inp, i);
      if (x != x) break;
      p = pickv(f64x2.splat(x), p, low);
      st(out, i, i + 1 < len ? NaN : f64x2.extract_lane(p, 0));
    }
    // later blocks while the run goes on (i == bs + len: the block before is whole)
    while (i < n && i == bs + len) {
      suffix(inp, bs, len, sv, low);
      bs = i;
      end = bs + len < n ? bs + len : n;
      const lim = end < bs + len - 1 ? end : bs + len - 1;
      p = none;
      for (; i < lim; i++) {
        x = ld(inp, i);
        if (x != x) break;
        p = pickv(f64x2.splat(x), p, low);
        // the previous block's suffix is older: it wins ties
        v128.store64_lane(out + (<usize>i << 3), pickv(p, ldsplat(sv, i - bs + 1), low), 0);
      }
      if (i == lim && i < end) {
        // the last offset: the window is this whole block
        x = ld(inp, i);
        if (x != x) break;
        p = pickv(f64x2.splat(x), p, low);
        v128.store64_lane(out + (<usize>i << 3), p, 0);
        i++;
      }
    }
  }
}

/** The bar offsets (0 or negative) of the extremes: the bar index rides along with each value
 * (as f64 lanes, exact) and is picked with the same mask; si holds the suffix's bars. A prefix
 * starts from its block's first value (an index must not come from a placeholder). */
@inline function hiloBars(inp: usize, out: usize, n: i32, len: i32, sv: usize, si: usize, low: bool): void {
  let i = 0;
  while (i < n) {
    let x = ld(inp, i);
    if (x != x) {
      st(out, i, i + 1 < len ? NaN : 0.0);
      i++;
      continue;
    }
    let bs = i;
    let end = bs + len < n ? bs + len : n;
    let p = f64x2.splat(x);
    let pi = f64x2.splat(<f64>i);
    st(out, i, i + 1 < len ? NaN : 0.0);
    for (i++; i < end; i++) {
      x = ld(inp, i);
      if (x != x) break;
      const xv = f64x2.splat(x);
      const m = low ? f64x2.lt(xv, p) : f64x2.gt(xv, p);
      p = v128.bitselect(xv, p, m);
      pi = v128.bitselect(f64x2.splat(<f64>i), pi, m);
      st(out, i, i + 1 < len ? NaN : f64x2.extract_lane(pi, 0) - <f64>i);
    }
    while (i < n && i == bs + len) {
      // suffix extremes and their bars of the whole block before (the older value wins ties)
      let s = ldsplat(inp, bs + len - 1);
      let sb = f64x2.splat(<f64>(bs + len - 1));
      v128.store64_lane(sv + (<usize>(len - 1) << 3), s, 0);
      v128.store64_lane(si + (<usize>(len - 1) << 3), sb, 0);
      for (let r = len - 2; r >= 0; r--) {
        const yv = ldsplat(inp, bs + r);
        const m = low ? f64x2.lt(s, yv) : f64x2.gt(s, yv);
        s = v128.bitselect(s, yv, m);
        sb = v128.bitselect(sb, f64x2.splat(<f64>(bs + r)), m);
        v128.store64_lane(sv + (<usize>r << 3), s, 0);
        v128.store64_lane(si + (<usize>r << 3), sb, 0);
      }
      bs = i;
      end = bs + len < n ? bs + len : n;
      const lim = end < bs + len - 1 ? end : bs + len - 1;
      x = ld(inp, i);
      if (x != x) break;
      p = f64x2.splat(x);
      pi = f64x2.splat(<f64>i);
      for (; i < lim; i++) {
        x = ld(inp, i);
        if (x != x) break;
        const xv = f64x2.splat(x);
        const m = low ? f64x2.lt(xv, p) : f64x2.gt(xv, p);
        p = v128.bitselect(xv, p, m);
        pi = v128.bitselect(f64x2.splat(<f64>i), pi, m);
        const r = i - bs + 1;
        const q = ldsplat(sv, r);
        const at = v128.bitselect(pi, ldsplat(si, r), low ? f64x2.lt(p, q) : f64x2.gt(p, q));
        st(out, i, f64x2.extract_lane(at, 0) - <f64>i);
      }
      if (i == lim && i < end) {
        x = ld(inp, i);
        if (x != x) break;
        const xv = f64x2.splat(x);
        pi = v128.bitselect(f64x2.splat(<f64>i), pi, low ? f64x2.lt(xv, p) : f64x2.gt(xv, p));
        st(out, i, f64x2.extract_lane(pi, 0) - <f64>i);
        i++;
      }
    }
  }
}

// ---------------------------------------------------------------- stoch

/** ta.stoch: 100 * (x - lowest(l, len)) / (highest(h, len) - lowest(l, len)), held over na sources
 * (the impl's valuewhen). One loop computes both extremes and the result; when the highs or lows
 * hold an na, the two series_hilo passes instead. */
export function series_stoch(x: usize, hi: usize, lo: usize, out: usize, n: i32, len: i32): void {
  if (len < 1 || len > n) return fillNaN(out, n);
  const mark = heap_top();
  if (!stochFused(x, hi, lo, out, n, len, alloc(<usize>len << 4))) {
    const hh = alloc(<usize>n << 3);
    series_hilo(hi, hh, n, len, 0);
    series_hilo(lo, out, n, len, 1);
    let last: f64 = NaN;
    for (let i = 0; i < n; i++) {
      const ll = ld(out, i);
      const v = ld(x, i);
      if (v == v) last = (100 * (v - ll)) / (ld(hh, i) - ll);
      st(out, i, last);
    }
  }
  heap_set(mark);
}

/** Lane 1's sign bit. */
const NEG1: v128 = i64x2(0, 0x8000000000000000);

/** (high, -low) of bar i: the highest of the pairs is (highest high, -lowest low). Negation is exact
 * and keeps which values tie, so the lowest low comes back with its bits (and the oldest of ties). */
@inline function pair(hi: usize, lo: usize, i: i32): v128 {
  return v128.xor(f64x2.replace_lane(ldsplat(hi, i), 1, ld(lo, i)), NEG1);
}

/** series_hilo's blocks over highs and lows, both at once in the lanes of (high, -low) (blocks from
 * bar 0; sv holds len suffix pairs). Every pair passes through a prefix once: an na among them makes
 * it return false (its outputs are then to be recomputed), without a separate scan. */
@inline function stochFused(x: usize, hi: usize, lo: usize, out: usize, n: i32, len: i32, sv: usize): bool {
  const none = f64x2.splat(-Infinity);
  let na = f64x2.splat(0);
  let last: f64 = NaN;
  let p = none;
  let i = 0;
  for (; i < len; i++) {
    const q = pair(hi, lo, i);
    na = v128.or(na, f64x2.ne(q, q));
    p = pickv(q, p, false);
    const hh = i + 1 < len ? NaN : f64x2.extract_lane(p, 0);
    const ll = i + 1 < len ? NaN : -f64x2.extract_lane(p, 1);
    const v = ld(x, i);
    if (v == v) last = (100 * (v - ll)) / (hh - ll);
    st(out, i, last);
  }
  let bs = 0;
  while (i < n) {
    let s = pair(hi, lo, bs + len - 1);
    v128.store(sv + (<usize>(len - 1) << 4), s);
    for (let r = len - 2; r >= 0; r--) {
      s = pickv(s, pair(hi, lo, bs + r), false);
      v128.store(sv + (<usize>r << 4), s);
    }
    bs = i;
    const end = bs + len < n ? bs + len : n;
    const lim = end < bs + len - 1 ? end : bs + len - 1;
    p = none;
    for (; i < lim; i++) {
      const q = pair(hi, lo, i);
      na = v128.or(na, f64x2.ne(q, q));
      p = pickv(q, p, false);
      const c = pickv(p, v128.load(sv + (<usize>(i - bs + 1) << 4)), false);
      const hh = f64x2.extract_lane(c, 0);
      const ll = -f64x2.extract_lane(c, 1);
      const v = ld(x, i);
      if (v == v) last = (100 * (v - ll)) / (hh - ll);
      st(out, i, last);
    }
    if (i < end) {
      const q = pair(hi, lo, i);
      na = v128.or(na, f64x2.ne(q, q));
      p = pickv(q, p, false);
      const hh = f64x2.extract_lane(p, 0);
      const ll = -f64x2.extract_lane(p, 1);
      const v = ld(x, i);
      if (v == v) last = (100 * (v - ll)) / (hh - ll);
      st(out, i, last);
      i++;
    }
  }
  return !v128.any_true(na);
}
