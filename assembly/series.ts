// Whole-series kernels for the compile backend's precompute: (input ptrs, output ptrs, count,
// params). Each gives exactly the per-bar state machine's numbers (tests/kernels/series.test.ts
// compares them bit for bit). This file: the windows over the last `len` non-na values (sma, stdev,
// bb), wma, true range, change, arithmetic. series-rec.ts: the recursive ones (ema, rma, macd, atr,
// rsi, cross); series-hilo.ts: highest/lowest(+bars) and stoch.
//
// A window over "the last len non-na values" ends at the same values on an na bar as on the bar
// before. So each of those passes is a core over na-free values; an input with na runs the core
// over its compacted values and spreads the results back over the bars (expandInPlace).
// The O(len) windows (stdev, bb, wma) must sum each window in the state machine's order, a
// sequential chain per bar; they compute four bars at once instead (f64x2 lanes over neighbouring
// bars, whose windows are the same values shifted by one), each lane doing that bar's operations in
// its order, so the bits are the same.
import { alloc, heap_top, heap_set } from "./mem";
import { ld, st, ldv, stv, fillNaN, hasNaN, compact } from "./series-util";

/** Sums within this of zero are zero (avg.ts ZERO_SUM: the running sum's residue). */
const ZERO_SUM: f64 = 1e-10;

/** bb's deviations within this of the basis count as 0 (avg.ts stdev2_next). */
const BB_EPS: f64 = 1e-10;

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

/** out[0..m) holds a core's results over the m non-na values of inp; spreads them over the n bars
 * in place (bar i reads the result of the non-na values up to it; backwards, so every read is at or
 * before the bar being written and not yet overwritten). */
function expandInPlace(inp: usize, out: usize, n: i32, m: i32): void {
  let j = m;
  for (let i = n - 1; i >= 0; i--) {
    st(out, i, j > 0 ? ld(out, j - 1) : NaN);
    const x = ld(inp, i);
    if (x == x) j--;
  }
}

// ---------------------------------------------------------------- sma (sum_new + sma_next)

/** The window sum afresh, oldest first, as sumUpdate re-sums once an infinity has left the window
 * (inf - inf would leave na behind): the last min(j, len) of the first j values. */
function resum(buf: usize, j: i32, len: i32): f64 {
  let s = 0.0;
  for (let q = j > len ? j - len : 0; q < j; q++) s += ld(buf, q);
  return s;
}

/** Running window sum: the value leaving the window out first, then the new one in (avg.ts), its
 * drift carried from the first value. Stops at the first na and returns false (the caller then runs
 * it over the compacted values): the input is read once, with no separate scan for na. */
function smaCore(p: usize, out: usize, n: i32, len: i32): bool {
  const fl = <f64>len;
  let s = 0.0;
  const head = len - 1 < n ? len - 1 : n;
  let i = 0;
  for (; i < head; i++) {
    const x = ld(p, i);
    if (x != x) return false;
    s = s + x;
    if (s - s != 0) s = resum(p, i + 1, len);
    st(out, i, NaN);
  }
  if (i < n) {
    // the first whole window: nothing leaves it
    const x = ld(p, i);
    if (x != x) return false;
    s = s + x;
    if (s - s != 0) s = resum(p, i + 1, len);
    st(out, i, (Math.abs(s) <= ZERO_SUM ? 0.0 : s) / fl);
    i++;
  }
  for (; i < n; i++) {
    const x = ld(p, i);
    if (x != x) return false;
    s = s - ld(p, i - len);
    s = s + x;
    if (s - s != 0) s = resum(p, i + 1, len);
    st(out, i, (Math.abs(s) <= ZERO_SUM ? 0.0 : s) / fl);
  }
  return true;
}

export function series_sma(inp: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  if (smaCore(inp, out, n, len)) return;
  const mark = heap_top();
  const buf = alloc(<usize>n << 3);
  const m = compact(inp, n, buf);
  smaCore(buf, out, m, len);
  expandInPlace(inp, out, n, m);
  heap_set(mark);
}

// ---------------------------------------------------------------- stdev (var_new + var_next)

/** sqrt of E[x^2] - mean^2 over each window of len na-free values, summed oldest first. */
function stdevCore(p: usize, out: usize, n: i32, len: i32, biased: i32): void {
  const fl = <f64>len;
  const head = len - 1 < n ? len - 1 : n;
  let i = 0;
  for (; i < head; i++) st(out, i, NaN);
  const flv = f64x2.splat(fl);
  const f1v = f64x2.splat(fl - 1);
  for (; i + 4 <= n; i += 4) {
    let s0 = f64x2.splat(0), s1 = f64x2.splat(0), q0 = f64x2.splat(0), q1 = f64x2.splat(0);
    for (let k = i - len + 1; k <= i; k++) {
      const v0 = ldv(p, k);
      const v1 = ldv(p, k + 2);
      s0 = f64x2.add(s0, v0);
      s1 = f64x2.add(s1, v1);
      q0 = f64x2.add(q0, f64x2.mul(v0, v0));
      q1 = f64x2.add(q1, f64x2.mul(v1, v1));
    }
    stv(out, i, sqrtClamped(variance2(s0, q0, flv, f1v, biased)));
    stv(out, i + 2, sqrtClamped(variance2(s1, q1, flv, f1v, biased)));
  }
  for (; i < n; i++) {
    let s = 0.0;
    let s2 = 0.0;
    for (let k = i - len + 1; k <= i; k++) {
      const v = ld(p, k);
      s += v;
      s2 += v * v;
    }
    const mean = s / fl;
    let v: f64;
    if (biased) v = s2 / fl - mean * mean;
    else v = s2 / (fl - 1) - (mean * mean * fl) / (fl - 1);
    st(out, i, Math.sqrt(v < 0 ? 0 : v));
  }
}

/** Two bars' variances from their window sums s and sums of squares q, as the scalar loop below computes them. */
@inline function variance2(s: v128, q: v128, flv: v128, f1v: v128, biased: i32): v128 {
  const m = f64x2.div(s, flv);
  if (biased) return f64x2.sub(f64x2.div(q, flv), f64x2.mul(m, m));
  return f64x2.sub(f64x2.div(q, f1v), f64x2.div(f64x2.mul(f64x2.mul(m, m), flv), f1v));
}

/** sqrt(v < 0 ? 0 : v) a lane (an na stays na). */
@inline function sqrtClamped(v: v128): v128 {
  return f64x2.sqrt(v128.andnot(v, f64x2.lt(v, f64x2.splat(0))));
}

export function series_stdev(inp: usize, out: usize, n: i32, len: i32, biased: i32): void {
  if (len < 1) return fillNaN(out, n);
  if (!hasNaN(inp, n)) return stdevCore(inp, out, n, len, biased);
  const mark = heap_top();
  const buf = alloc(<usize>n << 3);
  const m = compact(inp, n, buf);
  stdevCore(buf, out, m, len, biased);
  expandInPlace(inp, out, n, m);
  heap_set(mark);
}

// ---------------------------------------------------------------- bb (sma_next + stdev2_next)

/** basis = the sma core (the same running sum, so the same bits); width = mult * the two-pass
 * population stdev around it, deviations within 1e-10 counted as 0, summed newest first. False (and
 * outputs partly written) when the input holds an na. */
function bbCore(p: usize, mid: usize, up: usize, lo: usize, n: i32, len: i32, mult: f64): bool {
  // the sma core reads every value: past it the input is known to hold no na
  if (!smaCore(p, mid, n, len)) return false;
  const fl = <f64>len;
  const head = len - 1 < n ? len - 1 : n;
  let i = 0;
  for (; i < head; i++) {
    // no window yet: the width is na
    st(up, i, NaN);
    st(lo, i, NaN);
  }
  // |d| <= 1e-10 exactly when d * d <= 1e-10 * 1e-10 (both rounded): squaring rounds monotonically,
  // and the double after 1e-10 squares to more than 1e-10 squared (tests/kernels/series-props).
  // So the square is masked instead of d (one operation fewer; a masked term is +0 either way).
  const eps2 = f64x2.splat(BB_EPS * BB_EPS);
  const flv = f64x2.splat(fl);
  const mv = f64x2.splat(mult);
  for (; i + 4 <= n; i += 4) {
    const b0 = ldv(mid, i);
    const b1 = ldv(mid, i + 2);
    const nb0 = f64x2.neg(b0);
    const nb1 = f64x2.neg(b1);
    let q0 = f64x2.splat(0), q1 = f64x2.splat(0);
    for (let k = i; k > i - len; k--) {
      const d0 = f64x2.add(ldv(p, k), nb0);
      const d1 = f64x2.add(ldv(p, k + 2), nb1);
      const t0 = f64x2.mul(d0, d0);
      const t1 = f64x2.mul(d1, d1);
      q0 = f64x2.add(q0, v128.andnot(t0, f64x2.le(t0, eps2)));
      q1 = f64x2.add(q1, v128.andnot(t1, f64x2.le(t1, eps2)));
    }
    const w0 = f64x2.mul(mv, f64x2.sqrt(f64x2.div(q0, flv)));
    const w1 = f64x2.mul(mv, f64x2.sqrt(f64x2.div(q1, flv)));
    stv(up, i, f64x2.add(b0, w0));
    stv(up, i + 2, f64x2.add(b1, w1));
    stv(lo, i, f64x2.sub(b0, w0));
    stv(lo, i + 2, f64x2.sub(b1, w1));
  }
  for (; i < n; i++) {
    const basis = ld(mid, i);
    let q = 0.0;
    for (let k = i; k > i - len; k--) {
      let d = ld(p, k) + -basis;
      if (Math.abs(d) <= BB_EPS) d = 0;
      q += d * d;
    }
    const w = mult * Math.sqrt(q / fl);
    st(up, i, basis + w);
    st(lo, i, basis - w);
  }
  return true;
}

/** ta.bb: outputs basis, basis + width, basis - width. */
export function series_bb(inp: usize, mid: usize, up: usize, lo: usize, n: i32, len: i32, mult: f64): void {
  if (len < 1) {
    fillNaN(mid, n);
    fillNaN(up, n);
    fillNaN(lo, n);
    return;
  }
  if (bbCore(inp, mid, up, lo, n, len, mult)) return;
  const mark = heap_top();
  const buf = alloc(<usize>n << 3);
  const m = compact(inp, n, buf);
  bbCore(buf, mid, up, lo, m, len, mult);
  expandInPlace(inp, mid, n, m);
  expandInPlace(inp, up, n, m);
  expandInPlace(inp, lo, n, m);
  heap_set(mark);
}

// ---------------------------------------------------------------- wma (wma_next)

/** The weighted mean over the last len bars, weights 1 (oldest) .. len (newest), summed oldest first;
 * an na bar carries the last non-na value into the window and is itself na. */
export function series_wma(inp: usize, out: usize, n: i32, len: i32): void {
  if (len < 1) return fillNaN(out, n);
  const mark = heap_top();
  const na = hasNaN(inp, n);
  let y = inp;
  if (na) {
    // the values the state machine's ring holds: na bars repeat the last non-na value
    y = alloc(<usize>n << 3);
    let last: f64 = NaN;
    for (let i = 0; i < n; i++) {
      const x = ld(inp, i);
      if (x == x) last = x;
      st(y, i, last);
    }
  }
  const den = (<f64>len * <f64>(len + 1)) / 2.0;
  const head = len - 1 < n ? len - 1 : n;
  let i = 0;
  for (; i < head; i++) st(out, i, NaN);
  const dv = f64x2.splat(den);
  for (; i + 4 <= n; i += 4) {
    let s0 = f64x2.splat(0), s1 = f64x2.splat(0);
    for (let k = i - len + 1; k <= i; k++) {
      const wv = f64x2.splat(<f64>(k - i + len));
      s0 = f64x2.add(s0, f64x2.mul(wv, ldv(y, k)));
      s1 = f64x2.add(s1, f64x2.mul(wv, ldv(y, k + 2)));
    }
    stv(out, i, f64x2.div(s0, dv));
    stv(out, i + 2, f64x2.div(s1, dv));
  }
  for (; i < n; i++) {
    let s = 0.0;
    for (let k = i - len + 1; k <= i; k++) s += <f64>(k - i + len) * ld(y, k);
    st(out, i, s / den);
  }
  if (na) for (let i = 0; i < n; i++) if (ld(inp, i) != ld(inp, i)) st(out, i, NaN);
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

// ---------------------------------------------------------------- arithmetic

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
