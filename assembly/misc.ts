// Kernels over a window read directly (alma, swma, cog, linreg), true range, barssince/valuewhen,
// and the bar-path indicators (sar, supertrend, vwap, volume indicators).
import { S0, stateNew, begin, ringEnsure, ringPush, ringGet, ringCount, setOut, out_ptr, heap_top, heap_set } from "./mem";
import { seedAdd, seedSum, beginBars } from "./avg";

// ---------------------------------------------------------------- window formulas (na -> na)
// These use the plain ring of win_new (window.ts): one value per call.

/** Weights normalised first, then applied oldest first: this order reproduces TradingView's exports
 * bit for bit (ta/ma alma columns 146/146 and 141/141; sum/norm at the end gives 75/146). */
export function alma_next(h: usize, bar: i32, x: f64, len: i32, offset: f64, sigma: f64, floor: i32): f64 {
  if (len < 1) {
    begin(h, bar);
    return NaN;
  }
  // a window of bars: a bar without a call repeats the last call's value (avg.ts beginBars)
  beginBars(h, bar, len + 1, len);
  ringPush(h, x);
  if (ringCount(h) < len) return NaN;
  let m = offset * <f64>(len - 1);
  if (floor) m = Math.floor(m);
  const s = <f64>len / sigma;
  let norm = 0.0;
  for (let i = 0; i < len; i++) norm += almaWeight(i, m, s);
  let sum = 0.0;
  for (let i = 0; i < len; i++) sum += ringGet(h, len - i - 1) * (almaWeight(i, m, s) / norm);
  return sum;
}

@inline function almaWeight(i: i32, m: f64, s: f64): f64 {
  const d = <f64>i - m;
  return Math.exp((-1.0 * (d * d)) / (2.0 * (s * s)));
}

/** x[3]/6 + ... as the weighted sum newest first over the weight total (1, 2, 2, 1) / 6: the order that
 * reproduces TradingView's ta/ma swma column bit for bit (147/147; the reference's four quotients give 95). */
export function swma_next(h: usize, bar: i32, x: f64): f64 {
  beginBars(h, bar, 5, 4);
  ringPush(h, x);
  if (ringCount(h) < 4) return NaN;
  let s = x * 1.0;
  s += ringGet(h, 1) * 2.0;
  s += ringGet(h, 2) * 2.0;
  s += ringGet(h, 3) * 1.0;
  return s / 6.0;
}

export function cog_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  begin(h, bar);
  if (len < 1) return NaN;
  ringEnsure(h, len + 1);
  ringPush(h, x);
  if (ringCount(h) < len) return NaN;
  let sum = 0.0;
  let num = 0.0;
  for (let i = len - 1; i >= 0; i--) sum += ringGet(h, i);
  for (let i = 0; i < len; i++) num += ringGet(h, i) * <f64>(i + 1);
  return -num / sum;
}

/** Least-squares line over the window (x = 0 oldest .. len-1 newest), read at len-1-offset. */
export function linreg_next(h: usize, bar: i32, x: f64, len: i32, offset: i32): f64 {
  begin(h, bar);
  if (len < 1) return NaN;
  ringEnsure(h, len + 1);
  ringPush(h, x);
  if (ringCount(h) < len) return NaN;
  let sx = 0.0;
  let sy = 0.0;
  let sxx = 0.0;
  let sxy = 0.0;
  for (let j = 0; j < len; j++) {
    const y = ringGet(h, len - 1 - j);
    const fx = <f64>j;
    sx += fx;
    sy += y;
    sxx += fx * fx;
    sxy += fx * y;
  }
  const n = <f64>len;
  const den = n * sxx - sx * sx;
  const slope = den == 0 ? 0.0 : (n * sxy - sx * sy) / den;
  const intercept = (sy - slope * sx) / n;
  return intercept + slope * <f64>(len - 1 - offset);
}

// ---------------------------------------------------------------- true range
// scalars: S0 f64 previous close

export function tr_new(): usize {
  const h = stateNew(S0 + 8, 0);
  store<f64>(h, NaN, S0);
  return h;
}

export function tr_next(h: usize, bar: i32, hi: f64, lo: f64, cl: f64, handleNa: i32): f64 {
  begin(h, bar);
  const pc = load<f64>(h, S0);
  store<f64>(h, cl, S0);
  if (pc != pc) return handleNa ? hi - lo : NaN;
  return Math.max(Math.max(hi - lo, Math.abs(hi - pc)), Math.abs(lo - pc));
}

// ---------------------------------------------------------------- barssince / valuewhen
// barssince scalars: S0 f64 bars since the last true (na before the first)

export function bs_new(): usize {
  const h = stateNew(S0 + 8, 0);
  store<f64>(h, NaN, S0);
  return h;
}

export function bs_next(h: usize, bar: i32, cond: i32): f64 {
  begin(h, bar);
  const v = cond ? 0.0 : load<f64>(h, S0) + 1.0;
  store<f64>(h, v, S0);
  return v;
}

/** ta.valuewhen for numbers: the ring holds the source value of each true condition. */
export function vw_next(h: usize, bar: i32, cond: i32, x: f64, occ: i32): f64 {
  begin(h, bar);
  if (occ < 0) return NaN;
  ringEnsure(h, occ + 2);
  if (cond) ringPush(h, x);
  return ringCount(h) > occ ? ringGet(h, occ) : NaN;
}

// ---------------------------------------------------------------- parabolic SAR (the reference's steps)
// scalars: S0 result, +8 maxMin, +16 acceleration, +24 prev high, +32 prev high 2, +40 prev low,
//          +48 prev low 2, +56 prev close, +64 i32 isBelow, +68 i32 calls

export function sar_new(): usize {
  const h = stateNew(S0 + 72, 0);
  for (let o: usize = 0; o < 64; o += 8) store<f64>(h + o, NaN, S0);
  return h;
}

export function sar_next(h: usize, bar: i32, hi: f64, lo: f64, cl: f64, start: f64, inc: f64, mx: f64): f64 {
  begin(h, bar);
  let result = load<f64>(h, S0);
  let maxMin = load<f64>(h, S0 + 8);
  let acc = load<f64>(h, S0 + 16);
  const h1 = load<f64>(h, S0 + 24);
  const h2 = load<f64>(h, S0 + 32);
  const l1 = load<f64>(h, S0 + 40);
  const l2 = load<f64>(h, S0 + 48);
  const c1 = load<f64>(h, S0 + 56);
  let below = load<i32>(h, S0 + 64) != 0;
  const idx = load<i32>(h, S0 + 68);
  let first = false;
  if (idx == 1) {
    if (cl > c1) {
      below = true;
      maxMin = hi;
      result = l1;
    } else {
      below = false;
      maxMin = lo;
      result = h1;
    }
    first = true;
    acc = start;
  }
  result = result + acc * (maxMin - result);
  if (below) {
    if (result > lo) {
      first = true;
      below = false;
      result = Math.max(hi, maxMin);
      maxMin = lo;
      acc = start;
    }
  } else if (result < hi) {
    first = true;
    below = true;
    result = Math.min(lo, maxMin);
    maxMin = hi;
    acc = start;
  }
  if (!first) {
    if (below) {
      if (hi > maxMin) {
        maxMin = hi;
        acc = Math.min(acc + inc, mx);
      }
    } else if (lo < maxMin) {
      maxMin = lo;
      acc = Math.min(acc + inc, mx);
    }
  }
  if (below) {
    result = Math.min(result, l1);
    if (idx > 1) result = Math.min(result, l2);
  } else {
    result = Math.max(result, h1);
    if (idx > 1) result = Math.max(result, h2);
  }
  store<f64>(h, result, S0);
  store<f64>(h, maxMin, S0 + 8);
  store<f64>(h, acc, S0 + 16);
  store<f64>(h, hi, S0 + 24);
  store<f64>(h, h1, S0 + 32);
  store<f64>(h, lo, S0 + 40);
  store<f64>(h, l1, S0 + 48);
  store<f64>(h, cl, S0 + 56);
  store<i32>(h, below ? 1 : 0, S0 + 64);
  store<i32>(h, idx + 1, S0 + 68);
  return result;
}

// ---------------------------------------------------------------- supertrend (the reference's steps)
// scalars: S0 prev close, +8 unused, +16 atr, +24 prev atr, +32 prev lower, +40 prev upper,
//          +48 prev supertrend, +56 i32 atr count, +60 i32 atr period, +64 atr seed sum, +72 its
//          compensation (seeded as ta.atr, avg.ts)

export function st_new(period: i32): usize {
  const h = stateNew(S0 + 80, 0);
  for (let o: usize = 0; o < 56; o += 8) store<f64>(h + o, NaN, S0);
  store<i32>(h, period, S0 + 60);
  return h;
}

/** Returns the supertrend; the direction goes to out slot 0. */
export function st_next(h: usize, bar: i32, hi: f64, lo: f64, cl: f64, factor: f64): f64 {
  begin(h, bar);
  return stStep(h, hi, lo, cl, factor, out_ptr());
}

/**
 * ta.supertrend over whole columns (the compile backend's precompute): the per-bar step on every
 * bar, each called once (no shadow copy), the direction written to its own column. The state is
 * freed with the pass.
 */
export function series_supertrend(hi: usize, lo: usize, cl: usize, st: usize, dir: usize, n: i32, period: i32, factor: f64): void {
  const mark = heap_top();
  const h = st_new(period);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 3;
    store<i32>(h, i, 0);
    store<f64>(st + o, stStep(h, load<f64>(hi + o), load<f64>(lo + o), load<f64>(cl + o), factor, dir + o));
  }
  heap_set(mark);
}

/** One bar of the supertrend (st_next after begin); the direction is stored at `dirAt`. */
@inline function stStep(h: usize, hi: f64, lo: f64, cl: f64, factor: f64, dirAt: usize): f64 {
  const pc = load<f64>(h, S0);
  const n = load<i32>(h, S0 + 60);
  const tr = pc != pc ? hi - lo : Math.max(Math.max(hi - lo, Math.abs(hi - pc)), Math.abs(lo - pc));
  let atr = load<f64>(h, S0 + 16);
  if (tr == tr && n > 0) {
    const cnt = load<i32>(h, S0 + 56);
    if (cnt < n) {
      seedAdd(h + S0 + 64, tr);
      store<i32>(h, cnt + 1, S0 + 56);
      if (cnt + 1 == n) atr = seedSum(h + S0 + 64) / <f64>n;
    } else {
      atr = (<f64>(n - 1) * atr + tr) / <f64>n;
    }
  }
  const prevAtr = load<f64>(h, S0 + 24);
  const src = (hi + lo) / 2.0;
  let upper = src + factor * atr;
  let lower = src - factor * atr;
  let pl = load<f64>(h, S0 + 32);
  let pu = load<f64>(h, S0 + 40);
  if (pl != pl) pl = 0;
  if (pu != pu) pu = 0;
  lower = lower > pl || pc < pl ? lower : pl;
  upper = upper < pu || pc > pu ? upper : pu;
  const pst = load<f64>(h, S0 + 48);
  let dir: f64;
  if (prevAtr != prevAtr) dir = 1;
  else if (pst == pu) dir = cl > upper ? -1 : 1;
  else dir = cl < lower ? 1 : -1;
  const st = dir == -1 ? lower : upper;
  store<f64>(h, cl, S0);
  store<f64>(h, atr, S0 + 16);
  store<f64>(h, atr, S0 + 24);
  store<f64>(h, lower, S0 + 32);
  store<f64>(h, upper, S0 + 40);
  store<f64>(h, st, S0 + 48);
  store<f64>(dirAt, dir);
  return st;
}

// ---------------------------------------------------------------- vwap
// scalars: S0 sum src*vol, +8 sum vol, +16 sum src^2*vol, +24 i32 started

export function vwap_new(): usize {
  return stateNew(S0 + 32, 0);
}

/** Anchored VWAP; the upper and lower bands (stdev_mult) go to out slots 0 and 1. */
export function vwap_next(h: usize, bar: i32, src: f64, vol: f64, anchor: i32, mult: f64): f64 {
  begin(h, bar);
  let a = load<f64>(h, S0);
  let b = load<f64>(h, S0 + 8);
  let c = load<f64>(h, S0 + 16);
  if (anchor) {
    a = src * vol;
    b = vol;
    c = vol * (src * src);
    store<i32>(h, 1, S0 + 24);
  } else if (load<i32>(h, S0 + 24) != 0) {
    a = src * vol + a;
    b = vol + b;
    c = vol * (src * src) + c;
  } else {
    setOut(0, NaN);
    setOut(1, NaN);
    return NaN;
  }
  store<f64>(h, a, S0);
  store<f64>(h, b, S0 + 8);
  store<f64>(h, c, S0 + 16);
  const v = a / b;
  let variance = c / b - v * v;
  if (variance < 0) variance = 0;
  const sd = Math.sqrt(variance);
  setOut(0, v + sd * mult);
  setOut(1, v - sd * mult);
  return v;
}

// ---------------------------------------------------------------- volume indicators (ta.obv & co.)
// scalars: S0 value, +8 prev close, +16 prev volume, +24 i32 kind
// kinds: 0 obv, 1 accdist, 2 pvt, 3 wad, 4 nvi, 5 pvi

export function volind_new(kind: i32): usize {
  const h = stateNew(S0 + 32, 0);
  store<f64>(h, kind >= 4 ? 1.0 : NaN, S0);
  store<f64>(h, NaN, S0 + 8);
  store<f64>(h, NaN, S0 + 16);
  store<i32>(h, kind, S0 + 24);
  return h;
}

export function volind_next(h: usize, bar: i32, hi: f64, lo: f64, cl: f64, vol: f64): f64 {
  begin(h, bar);
  let v = load<f64>(h, S0);
  const c1 = load<f64>(h, S0 + 8);
  const v1 = load<f64>(h, S0 + 16);
  const kind = load<i32>(h, S0 + 24);
  const chg = cl - c1;
  let add: f64 = NaN;
  if (kind == 0) {
    add = (chg > 0 ? 1.0 : chg < 0 ? -1.0 : chg == 0 ? 0.0 : NaN) * vol;
  } else if (kind == 1) {
    add = (cl == hi && cl == lo) || hi == lo ? 0.0 : ((2 * cl - lo - hi) / (hi - lo)) * vol;
  } else if (kind == 2) {
    add = (chg / c1) * vol;
  } else if (kind == 3) {
    const th = Math.max(hi, c1);
    const tl = Math.min(lo, c1);
    add = chg > 0 ? cl - tl : chg < 0 ? cl - th : 0.0;
  } else {
    const prev = v == 0 || v != v ? 1.0 : v;
    const cz = cl != cl ? 0.0 : cl;
    const c1z = c1 != c1 ? 0.0 : c1;
    const v1z = v1 != v1 ? 0.0 : v1;
    if (cz == 0 || c1z == 0) v = prev;
    else if (kind == 4 ? vol < v1z : vol > v1z) v = prev + (chg / c1) * prev;
    else v = prev;
  }
  // cumulative kinds are ta.cum of their term: na until the first defined term (ta.obv, ta.pvt are
  // na on bar 0), and na on a bar whose term is na, which adds nothing
  if (kind < 4 && add == add) v = v != v ? add : v + add;
  store<f64>(h, v, S0);
  store<f64>(h, cl, S0 + 8);
  store<f64>(h, vol, S0 + 16);
  return kind < 4 && add != add ? NaN : v;
}

// ---------------------------------------------------------------- pivot point periods
// scalars: S0..S0+24 current period open/high/low/close, S0+32..S0+56 previous period o/h/l/c,
//          S0+64 i32 periods seen
// Returns the number of periods seen (0, 1 = only the current one, 2 = a previous one exists);
// out slots 0..7 = current o,h,l,c then previous o,h,l,c.

export function ppl_new(): usize {
  const h = stateNew(S0 + 72, 0);
  for (let o: usize = 0; o < 64; o += 8) store<f64>(h + o, NaN, S0);
  return h;
}

export function ppl_next(h: usize, bar: i32, o: f64, hi: f64, lo: f64, cl: f64, anchor: i32): i32 {
  begin(h, bar);
  let seen = load<i32>(h, S0 + 64);
  if (seen == 0 || anchor) {
    if (seen > 0) memory.copy(h + S0 + 32, h + S0, 32);
    store<f64>(h, o, S0);
    store<f64>(h, hi, S0 + 8);
    store<f64>(h, lo, S0 + 16);
    seen = seen < 2 ? seen + 1 : 2;
    store<i32>(h, seen, S0 + 64);
  } else {
    store<f64>(h, Math.max(load<f64>(h, S0 + 8), hi), S0 + 8);
    store<f64>(h, Math.min(load<f64>(h, S0 + 16), lo), S0 + 16);
  }
  store<f64>(h, cl, S0 + 24);
  for (let i = 0; i < 8; i++) setOut(i, load<f64>(h + (<usize>i << 3), S0));
  return seen;
}
