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
import { ld, st, fillNaN, hasNaN } from "./series-util";

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
    const si = alloc(<usize>len << 2);
    if (kind == 2) hiloBars(inp, out, n, len, sv, si, false);
    else hiloBars(inp, out, n, len, sv, si, true);
  }
  heap_set(mark);
}

/** Suffix extremes of the len values from bs into sv (sv[r]: bars bs + r .. bs + len - 1). */
@inline function suffix(inp: usize, bs: i32, len: i32, sv: usize, low: bool): void {
  let s = ld(inp, bs + len - 1);
  st(sv, len - 1, s);
  for (let r = len - 2; r >= 0; r--) {
    const y = ld(inp, bs + r);
    s = better(s, y, low) ? s : y;
    st(sv, r, s);
  }
}

/** The extreme values. A prefix starts from -inf (+inf for lowest): a value equal to it has its
 * bits, so which of them is kept does not show. */
@inline function hiloValues(inp: usize, out: usize, n: i32, len: i32, sv: usize, low: bool): void {
  const none: f64 = low ? Infinity : -Infinity;
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
      p = better(x, p, low) ? x : p;
      st(out, i, i + 1 < len ? NaN : p);
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
        p = better(x, p, low) ? x : p;
        const q = ld(sv, i - bs + 1);
        st(out, i, better(p, q, low) ? p : q);
      }
      if (i == lim && i < end) {
        // the last offset: the window is this whole block
        x = ld(inp, i);
        if (x != x) break;
        p = better(x, p, low) ? x : p;
        st(out, i, p);
        i++;
      }
    }
  }
}

/** The bar offsets (0 or negative) of the extremes: prefixes, suffixes and their combination carry
 * the bar index alongside the value (si: the suffix's bar). */
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
    let p = x;
    let pi = i;
    st(out, i, i + 1 < len ? NaN : 0.0);
    for (i++; i < end; i++) {
      x = ld(inp, i);
      if (x != x) break;
      if (better(x, p, low)) {
        p = x;
        pi = i;
      }
      st(out, i, i + 1 < len ? NaN : <f64>(pi - i));
    }
    while (i < n && i == bs + len) {
      // suffix extremes and their bars of the whole block before
      let s = ld(inp, bs + len - 1);
      let sb = bs + len - 1;
      st(sv, len - 1, s);
      store<i32>(si + (<usize>(len - 1) << 2), sb);
      for (let r = len - 2; r >= 0; r--) {
        const y = ld(inp, bs + r);
        if (!better(s, y, low)) {
          s = y;
          sb = bs + r;
        }
        st(sv, r, s);
        store<i32>(si + (<usize>r << 2), sb);
      }
      bs = i;
      end = bs + len < n ? bs + len : n;
      const lim = end < bs + len - 1 ? end : bs + len - 1;
      x = ld(inp, i);
      if (x != x) break;
      p = x;
      pi = i;
      for (; i < lim; i++) {
        x = ld(inp, i);
        if (x != x) break;
        if (better(x, p, low)) {
          p = x;
          pi = i;
        }
        const r = i - bs + 1;
        const at = better(p, ld(sv, r), low) ? pi : load<i32>(si + (<usize>r << 2));
        st(out, i, <f64>(at - i));
      }
      if (i == lim && i < end) {
        x = ld(inp, i);
        if (x != x) break;
        if (better(x, p, low)) pi = i;
        st(out, i, <f64>(pi - i));
        i++;
      }
    }
  }
}

// ---------------------------------------------------------------- stoch

/** ta.stoch: 100 * (x - lowest(l, len)) / (highest(h, len) - lowest(l, len)), held over na sources
 * (the impl's valuewhen). Without na highs and lows, one loop computes both extremes and the
 * result; otherwise the two series_hilo passes. */
export function series_stoch(x: usize, hi: usize, lo: usize, out: usize, n: i32, len: i32): void {
  if (len < 1 || len > n) return fillNaN(out, n);
  const mark = heap_top();
  if (hasNaN(hi, n) || hasNaN(lo, n)) {
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
  } else {
    stochFused(x, hi, lo, out, n, len, alloc(<usize>len << 3), alloc(<usize>len << 3));
  }
  heap_set(mark);
}

/** series_hilo's blocks over na-free highs and lows, both at once (blocks from bar 0). */
@inline function stochFused(x: usize, hi: usize, lo: usize, out: usize, n: i32, len: i32, svh: usize, svl: usize): void {
  let last: f64 = NaN;
  let ph = -Infinity;
  let pl = Infinity;
  let i = 0;
  for (; i < len; i++) {
    const h = ld(hi, i);
    const l = ld(lo, i);
    ph = h > ph ? h : ph;
    pl = l < pl ? l : pl;
    const hh = i + 1 < len ? NaN : ph;
    const ll = i + 1 < len ? NaN : pl;
    const v = ld(x, i);
    if (v == v) last = (100 * (v - ll)) / (hh - ll);
    st(out, i, last);
  }
  let bs = 0;
  while (i < n) {
    suffix(hi, bs, len, svh, false);
    suffix(lo, bs, len, svl, true);
    bs = i;
    const end = bs + len < n ? bs + len : n;
    const lim = end < bs + len - 1 ? end : bs + len - 1;
    ph = -Infinity;
    pl = Infinity;
    for (; i < lim; i++) {
      const h = ld(hi, i);
      const l = ld(lo, i);
      ph = h > ph ? h : ph;
      pl = l < pl ? l : pl;
      const qh = ld(svh, i - bs + 1);
      const ql = ld(svl, i - bs + 1);
      const hh = ph > qh ? ph : qh;
      const ll = pl < ql ? pl : ql;
      const v = ld(x, i);
      if (v == v) last = (100 * (v - ll)) / (hh - ll);
      st(out, i, last);
    }
    if (i < end) {
      const h = ld(hi, i);
      const l = ld(lo, i);
      ph = h > ph ? h : ph;
      pl = l < pl ? l : pl;
      const v = ld(x, i);
      if (v == v) last = (100 * (v - pl)) / (ph - pl);
      st(out, i, last);
      i++;
    }
  }
}
