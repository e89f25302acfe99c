// Whole-series kernels for the compile backend's precompute: (input ptr, output ptr, count, params).
// Each is one tight loop over the columns that gives exactly the per-bar state machine's numbers:
// the same operations on the same values in the same order (see the conventions in avg.ts), only
// without the state block, ring buffer and shadow copy a per-bar call needs. Windows over "the last
// `len` non-na values" read a compacted copy of the non-na inputs (or the input itself when it has
// no na). tests/kernels/series.test.ts compares every kernel with its state machine bit for bit.
import { alloc, heap_top, heap_set } from "./mem";

/** Sums within this of zero are zero (avg.ts ZERO_SUM: the running sum's residue). */
const ZERO_SUM: f64 = 1e-10;

/** Scratch buffer for series inputs/outputs; release with heap_set(mark). */
export function series_alloc(bytes: usize): usize {
  return alloc(bytes);
}

@inline function ld(p: usize, i: i32): f64 {
  return load<f64>(p + (<usize>i << 3));
}

@inline function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + (<usize>i << 3), v);
}

function fillNaN(out: usize, n: i32): void {
  for (let i = 0; i < n; i++) st(out, i, NaN);
}

function hasNaN(inp: usize, n: i32): bool {
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x != x) return true;
  }
  return false;
}

/** The non-na values of inp in order, in `buf` (inp itself when it has none); caller releases. */
function compact(inp: usize, n: i32): usize {
  if (!hasNaN(inp, n)) return inp;
  const buf = alloc(<usize>n << 3);
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) st(buf, j++, x);
  }
  return buf;
}

// ---------------------------------------------------------------- sma (sum_new + sma_next)

/** Running window sum: the value leaving the window out first, then the new one in (avg.ts). */
export function series_sma(inp: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const buf = compact(inp, n);
  const fl = <f64>len;
  let s = 0.0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) {
      j++;
      if (j > len) s = s - ld(buf, j - 1 - len);
      s = s + x;
    }
    st(out, i, j >= len ? (Math.abs(s) <= ZERO_SUM ? 0.0 : s) / fl : NaN);
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- ema / rma (ema_new + ema_next)

/** kind 0 ema, 1 rma; seeded with the mean of the first len non-na values, na inputs skipped. */
export function series_ema(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  if (len < 1) {
    // ema_next: an na input returns the (na) value before the length check; the rest is na too
    return fillNaN(out, n);
  }
  const fl = <f64>len;
  const alpha = 2.0 / <f64>(len + 1);
  const fl1 = <f64>(len - 1);
  let e: f64 = NaN;
  let seed = 0.0;
  let cnt = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) {
      if (cnt < len) {
        seed = seed + x;
        cnt++;
        if (cnt == len) e = seed / fl;
      } else if (kind == 0) {
        e = e + alpha * (x - e);
      } else {
        e = (fl1 * e + x) / fl;
      }
    }
    st(out, i, e);
  }
}

// ---------------------------------------------------------------- wma (wma_new + wma_next)

/** Weighted mean of the last len calls, oldest first; an na input repeats the last non-na value. */
export function series_wma(inp: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  let buf = inp;
  if (hasNaN(inp, n)) {
    buf = alloc(<usize>n << 3);
    let last: f64 = NaN;
    for (let i = 0; i < n; i++) {
      const x = ld(inp, i);
      if (x == x) last = x;
      st(buf, i, last);
    }
  }
  const den = (<f64>len * <f64>(len + 1)) / 2.0;
  for (let i = 0; i < n; i++) {
    if (i + 1 < len) {
      st(out, i, NaN);
      continue;
    }
    let s = 0.0;
    // ringGet(k) is the value k calls ago: buf[i - k]
    for (let k = len - 1; k >= 0; k--) s += <f64>(len - k) * ld(buf, i - k);
    st(out, i, s / den);
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- stdev (var_new + var_next)

/** sqrt of E[x^2] - mean^2 over the last len non-na values, each window summed oldest first. */
export function series_stdev(inp: usize, out: usize, n: i32, len: i32, biased: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const buf = compact(inp, n);
  const fl = <f64>len;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) j++;
    if (j < len) {
      st(out, i, NaN);
      continue;
    }
    let s = 0.0;
    let s2 = 0.0;
    for (let k = j - len; k < j; k++) {
      const v = ld(buf, k);
      s += v;
      s2 += v * v;
    }
    const mean = s / fl;
    let v: f64;
    if (biased) v = s2 / fl - mean * mean;
    else v = s2 / (fl - 1) - (mean * mean * fl) / (fl - 1);
    st(out, i, Math.sqrt(v < 0 ? 0 : v));
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- bb (sma_next + stdev2_next)

/** ta.bb: basis = sma, width = mult * two-pass population stdev (deviations within 1e-10 are 0,
 * summed newest first); outputs basis, basis + width, basis - width. */
export function series_bb(inp: usize, mid: usize, up: usize, lo: usize, n: i32, len: i32, mult: f64): void {
  if (len < 1) {
    fillNaN(mid, n);
    fillNaN(up, n);
    fillNaN(lo, n);
    return;
  }
  const mark = heap_top();
  const buf = compact(inp, n);
  const fl = <f64>len;
  let s = 0.0;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) {
      j++;
      if (j > len) s = s - ld(buf, j - 1 - len);
      s = s + x;
    }
    let basis: f64 = NaN;
    let sd: f64 = NaN;
    if (j >= len) {
      basis = (Math.abs(s) <= ZERO_SUM ? 0.0 : s) / fl;
      let q = 0.0;
      for (let k = j - 1; k >= j - len; k--) {
        let d = ld(buf, k) + -basis;
        if (Math.abs(d) <= 1e-10) d = 0;
        q += d * d;
      }
      sd = Math.sqrt(q / fl);
    }
    const w = mult * sd;
    st(mid, i, basis);
    st(up, i, basis + w);
    st(lo, i, basis - w);
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- highest / lowest (+bars)

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars over the last len calls (na values stay
 * in the window but are ignored), with a monotonic deque of bar indices; ties keep the oldest. */
export function series_hilo(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const cells: i32 = n > 0 ? n : 1;
  const dq = alloc(<usize>cells << 2);
  const low = (kind & 1) == 1;
  let head = 0;
  let tail = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) {
      while (tail > head) {
        const v = ld(inp, load<i32>(dq + (<usize>(tail - 1) << 2)));
        if (low ? v > x : v < x) tail--;
        else break;
      }
      store<i32>(dq + (<usize>tail << 2), i);
      tail++;
    }
    while (head < tail && load<i32>(dq + (<usize>head << 2)) <= i - len) head++;
    if (i + 1 < len || head == tail) {
      st(out, i, NaN);
      continue;
    }
    const at = load<i32>(dq + (<usize>head << 2));
    st(out, i, kind < 2 ? ld(inp, at) : <f64>(at - i));
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- rsi (rsi_new + rsi_next)

export function series_rsi(inp: usize, out: usize, n: i32, len: i32): void {
  const fl = <f64>len;
  const fl1 = <f64>(len - 1);
  let p: f64 = NaN;
  let su = 0.0;
  let sd = 0.0;
  let ru: f64 = NaN;
  let rd: f64 = NaN;
  let cnt = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    const u = Math.max(x - p, 0);
    const d = Math.max(p - x, 0);
    p = x;
    if (u == u && d == d && len > 0) {
      if (cnt < len) {
        su = su + u;
        sd = sd + d;
        cnt++;
        if (cnt == len) {
          ru = su / fl;
          rd = sd / fl;
        }
      } else {
        ru = (fl1 * ru + u) / fl;
        rd = (fl1 * rd + d) / fl;
      }
    }
    let r: f64;
    if (ru != ru || rd != rd) r = NaN;
    else if (rd == 0) r = 100.0;
    else if (ru == 0) r = 0.0;
    else r = 100.0 - 100.0 / (1.0 + ru / rd);
    st(out, i, r);
  }
}

// ---------------------------------------------------------------- true range, atr

/** True range from high/low/close columns; bar 0 gives high-low when handleNa, else na. */
export function series_tr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, handleNa: i32): void {
  if (n <= 0) return;
  store<f64>(out, handleNa ? load<f64>(hi) - load<f64>(lo) : NaN);
  let i = 1;
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    const h = v128.load(hi + o);
    const l = v128.load(lo + o);
    const pc = v128.load(cl + o - 8);
    const r = f64x2.max(f64x2.max(f64x2.sub(h, l), f64x2.abs(f64x2.sub(h, pc))), f64x2.abs(f64x2.sub(l, pc)));
    // f64x2.max propagates NaN like Math.max; a NaN previous close falls back per lane below
    v128.store(out + o, r);
    if (handleNa) {
      if (load<f64>(cl + o - 8) != load<f64>(cl + o - 8)) store<f64>(out + o, load<f64>(hi + o) - load<f64>(lo + o));
      if (load<f64>(cl + o) != load<f64>(cl + o)) store<f64>(out + o + 8, load<f64>(hi + o + 8) - load<f64>(lo + o + 8));
    }
  }
  for (; i < n; i++) {
    const o = <usize>i << 3;
    const pc = load<f64>(cl + o - 8);
    const h = load<f64>(hi + o);
    const l = load<f64>(lo + o);
    store<f64>(out + o, pc != pc ? (handleNa ? h - l : NaN) : Math.max(Math.max(h - l, Math.abs(h - pc)), Math.abs(l - pc)));
  }
}

/** ATR = rma of tr(true) (tr_next with handleNa, then ema_next kind 1), as ta.atr. */
export function series_atr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, len: i32): void {
  series_tr(hi, lo, cl, out, n, 1);
  series_ema(out, out, n, len, 1);
}

// ---------------------------------------------------------------- change, cross

/** x - x[len] (na for the first len values). */
export function series_change(inp: usize, out: usize, n: i32, len: i32): void {
  let i = 0;
  const head = len < n ? len : n;
  for (; i < head; i++) store<f64>(out + (<usize>i << 3), NaN);
  if (len < 0) {
    for (; i < n; i++) store<f64>(out + (<usize>i << 3), NaN);
    return;
  }
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    v128.store(out + o, f64x2.sub(v128.load(inp + o), v128.load(inp + o - (<usize>len << 3))));
  }
  for (; i < n; i++) {
    const o = <usize>i << 3;
    store<f64>(out + o, load<f64>(inp + o) - load<f64>(inp + o - (<usize>len << 3)));
  }
}

/** ta.cross (kind 0), crossover (1), crossunder (2) of two columns, as 1/0 (cross_next). */
export function series_cross(a: usize, b: usize, out: usize, n: i32, kind: i32): void {
  let pa: f64 = NaN;
  let pb: f64 = NaN;
  for (let i = 0; i < n; i++) {
    const x = ld(a, i);
    const y = ld(b, i);
    const over = x > y && pa <= pb;
    const under = x < y && pa >= pb;
    pa = x;
    pb = y;
    st(out, i, (kind == 1 ? over : kind == 2 ? under : over || under) ? 1.0 : 0.0);
  }
}
