// Whole-series kernels for the compile backend's precompute: (input ptr, output ptr, count, params).
// Each gives exactly the per-bar state machine's numbers. The windowed ones (sma, stdev, bb,
// highest/lowest, stoch) are one tight loop over the columns: the same operations on the same
// values in the same order (see the conventions in avg.ts), without the state block, ring buffer
// and shadow copy a per-bar call needs; windows over "the last `len` non-na values" read a compacted
// copy of the non-na inputs (or the input itself when it has none). The recursive ones (ema, rma,
// wma, rsi, atr, macd, cross) drive the per-bar state machine itself in the loop (shadow copy off):
// a few loads and stores a bar, and whatever those state machines settle on (seeds, na rules) holds
// here by construction. tests/kernels/series.test.ts compares every kernel with its state machine
// bit for bit.
import { alloc, heap_top, heap_set, setShadowOff } from "./mem";
import { ema_new, ema_next, wma_new, wma_next } from "./avg";
import { rsi_new, rsi_next } from "./osc";
import { tr_new, tr_next } from "./misc";
import { cross_new, cross_next } from "./window";

/** Sums within this of zero are zero (avg.ts ZERO_SUM: the running sum's residue). */
const ZERO_SUM: f64 = 1e-10;

/** A column for series inputs/outputs, NOT zeroed (every pass writes all n values); release with
 * heap_set(mark). */
export function series_alloc(bytes: usize): usize {
  const p = heap_top();
  const end = (p + bytes + 15) & ~(<usize>15);
  const pages = memory.size();
  const need = <i32>((end + 0xffff) >>> 16);
  if (need > pages && memory.grow(need - pages) < 0) unreachable();
  heap_set(end);
  return p;
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

/** The window sum afresh, oldest first, as sumUpdate re-sums once an infinity has left the window
 * (inf - inf would leave na behind): the last min(j, len) of the j compacted values. */
function resum(buf: usize, j: i32, len: i32): f64 {
  let s = 0.0;
  for (let q = j > len ? j - len : 0; q < j; q++) s += ld(buf, q);
  return s;
}

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
      if (s - s != 0) s = resum(buf, j, len);
    }
    st(out, i, j >= len ? (Math.abs(s) <= ZERO_SUM ? 0.0 : s) / fl : NaN);
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- state machines driven over a column

/** ema (kind 0) / rma (kind 1): ema_next on every bar. */
export function series_ema(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = ema_new(len, kind);
  for (let i = 0; i < n; i++) st(out, i, ema_next(h, i, ld(inp, i)));
  setShadowOff(false);
  heap_set(mark);
}

export function series_wma(inp: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = wma_new(len);
  for (let i = 0; i < n; i++) st(out, i, wma_next(h, i, ld(inp, i), len));
  setShadowOff(false);
  heap_set(mark);
}

export function series_rsi(inp: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = rsi_new(len);
  for (let i = 0; i < n; i++) st(out, i, rsi_next(h, i, ld(inp, i)));
  setShadowOff(false);
  heap_set(mark);
}

/** ATR = rma of tr(true), through the same state machines as ta.atr. */
export function series_atr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const t = tr_new();
  const r = ema_new(len, 1);
  for (let i = 0; i < n; i++) st(out, i, ema_next(r, i, tr_next(t, i, ld(hi, i), ld(lo, i), ld(cl, i), 1)));
  setShadowOff(false);
  heap_set(mark);
}

/** ta.macd: m = ema(x, fast) - ema(x, slow), signal = ema(m, sig), histogram = m - signal, as the impl. */
export function series_macd(inp: usize, m: usize, sg: usize, hs: usize, n: i32, fast: i32, slow: i32, sig: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const f = ema_new(fast, 0);
  const l = ema_new(slow, 0);
  const g = ema_new(sig, 0);
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    const mv = ema_next(f, i, x) - ema_next(l, i, x);
    const sv = ema_next(g, i, mv);
    st(m, i, mv);
    st(sg, i, sv);
    st(hs, i, mv - sv);
  }
  setShadowOff(false);
  heap_set(mark);
}

/** ta.cross (kind 0), crossover (1), crossunder (2) of two columns, as 1/0 (cross_next). */
export function series_cross(a: usize, b: usize, out: usize, n: i32, kind: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = cross_new();
  for (let i = 0; i < n; i++) st(out, i, <f64>cross_next(h, i, ld(a, i), ld(b, i), kind));
  setShadowOff(false);
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
  // the basis is the sma pass itself (the same running sum, so the same bits)
  series_sma(inp, mid, n, len);
  if (len < 1) {
    fillNaN(up, n);
    fillNaN(lo, n);
    return;
  }
  const mark = heap_top();
  const buf = compact(inp, n);
  const fl = <f64>len;
  let j = 0;
  for (let i = 0; i < n; i++) {
    const x = ld(inp, i);
    if (x == x) j++;
    const basis = ld(mid, i);
    let sd: f64 = NaN;
    if (j >= len) {
      let q = 0.0;
      for (let k = j - 1; k >= j - len; k--) {
        let d = ld(buf, k) + -basis;
        if (Math.abs(d) <= 1e-10) d = 0;
        q += d * d;
      }
      sd = Math.sqrt(q / fl);
    }
    const w = mult * sd;
    st(up, i, basis + w);
    st(lo, i, basis - w);
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- highest / lowest (+bars)

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars over the last len calls, as hilo_next: an
 * na bar reads na (0 bars) and restarts the window; a monotonic deque of bar indices, ties keep the
 * oldest. */
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
    } else {
      // an na bar restarts the window (hilo_next's dqAdd)
      head = tail;
    }
    while (head < tail && load<i32>(dq + (<usize>head << 2)) <= i - len) head++;
    if (i + 1 < len) {
      st(out, i, NaN);
      continue;
    }
    if (x != x) {
      // an na bar reads na (its bar offset 0)
      st(out, i, kind < 2 ? NaN : 0.0);
      continue;
    }
    const at = load<i32>(dq + (<usize>head << 2));
    st(out, i, kind < 2 ? ld(inp, at) : <f64>(at - i));
  }
  heap_set(mark);
}

// ---------------------------------------------------------------- true range

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

// ---------------------------------------------------------------- change

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

// ---------------------------------------------------------------- stoch, arithmetic

/** ta.stoch: 100 * (x - lowest(l, len)) / (highest(h, len) - lowest(l, len)), held over na sources. */
export function series_stoch(x: usize, hi: usize, lo: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const cells: i32 = n > 0 ? n : 1;
  const hh = alloc(<usize>cells << 3);
  series_hilo(hi, hh, n, len, 0);
  series_hilo(lo, out, n, len, 1);
  // an na source holds the value of the last bar with a source (the impl's valuewhen)
  let last: f64 = NaN;
  for (let i = 0; i < n; i++) {
    const ll = ld(out, i);
    const v = ld(x, i);
    if (v == v) last = (100 * (v - ll)) / (ld(hh, i) - ll);
    st(out, i, last);
  }
  heap_set(mark);
}

/** Element-wise a op b: op 0 +, 1 -, 2 *, 3 / (na when the divisor is 0, as the bar loop), 4 -a. */
export function series_arith(a: usize, b: usize, out: usize, n: i32, op: i32): void {
  if (op == 0) for (let i = 0; i < n; i++) st(out, i, ld(a, i) + ld(b, i));
  else if (op == 1) for (let i = 0; i < n; i++) st(out, i, ld(a, i) - ld(b, i));
  else if (op == 2) for (let i = 0; i < n; i++) st(out, i, ld(a, i) * ld(b, i));
  else if (op == 3) {
    for (let i = 0; i < n; i++) {
      const d = ld(b, i);
      st(out, i, d == 0 ? NaN : ld(a, i) / d);
    }
  } else for (let i = 0; i < n; i++) st(out, i, -ld(a, i));
}
