// Moving sums and averages: sma/math.sum, variance/stdev, dev, wma, ema/rma, cum, lag.
// Conventions (checked against TradingView's Pine Logs probes, see tests/ta):
// - sma/sum/variance skip na inputs: the window is the last `length` non-na values, and an na bar
//   returns the current value (math_test_002_math_sum_na, tests/ta/tv-na-window). dev takes its mean
//   that way but is na while an na is among its last `length` bars (the manual's loop over source[i]).
// - sma/sum/dev and bb's stdev keep a running sum that takes the value leaving the window out BEFORE
//   adding the new one (s = s - x[len]; s = s + x), its float drift carried from the first bar; a
//   window sum within 1e-10 of zero reads as 0. Only this reproduces TradingView's exact-tie crossings
//   (strategy/futures_pnl bars 5423 and 7528, ta/valuewhen) together with the flat-zero run of
//   logs/math_test_004 (sma of sma exactly 0); add-then-subtract, a fresh sum per bar (either order)
//   and compensated sums each contradict one of them (tests/ta/sum-order.test.ts).
// - variance = E[x^2] - mean^2 from the window sums, unbiased = s2/(n-1) - mean^2*n/(n-1)
//   (ta_test_243 pins the last ulp), clamped at 0.
// - wma carries the last non-na value over na bars into its window (ta_test_246) and sums oldest
//   first; on the na bar itself it is na (TradingView's outputs with na holes, tests/ta/tv-na-window).
// - ema/rma/rsi and cum on an na bar: na out, state untouched (same source).
// - ema = e + alpha*(x - e), rma = ((n-1)*e + x)/n, both seeded with the mean of the first n non-na
//   values (ta_test_245), that sum taken without rounding drift (compensated, seedAdd): the plain
//   running sum misses TradingView's seeds by an ulp (ta/ma ema 123/131, rma(high) 67/136 cells), the
//   compensated one matches every ema/rma/atr/macd/kc/rsi cell of the exports.
import { S0, stateNew, begin, ringEnsure, ringPush, ringGet, ringCount } from "./mem";

/** Values every windowed state keeps from the start (more when the window is longer). A series
 * length may grow long after the site started; TradingView then reads the full window, so the ring
 * must still hold those values (mem.ts only keeps everything once a length has changed). */
const HISTORY: i32 = 512;

@inline function ringFor(len: i32): i32 {
  return len < HISTORY ? HISTORY : len + 1;
}

// ---------------------------------------------------------------- bar-window kernels called on some bars only
// A call inside a local block does not run on every bar. Most windows then hold the last `length`
// calls, but wma/hma/alma/swma, change/mom/roc, percentrank and the pivots read the last `length` BARS,
// a bar on which the call did not run repeating the last call's value (the history of `source[i]`
// inside that block): TradingView's outputs for calls under `hour % 3 != 0`, `close > open` and a
// 12-bar gap (published with LuxAlgo/PineTS, tests/namespaces/ta/local-block-semantics.test.ts).

/** begin() for those kernels, then ringEnsure(need), then the bars skipped since the site's previous
 * call pushed again as the last value (at most `cap` of them: older ones leave the window anyway).
 * Returns begin()'s result. */
export function beginBars(h: usize, bar: i32, need: i32, cap: i32): bool {
  // the previous call's bar: the header's, or on a repeated call the shadow copy's (mem.ts layout)
  let prev = load<i32>(h, 0);
  if (prev == bar) prev = load<i32>(<usize>load<u32>(h, 8), 0);
  const rolled = begin(h, bar);
  ringEnsure(h, need);
  if (prev >= 0 && bar - prev > 1 && ringCount(h) > 0) {
    const last = ringGet(h, 0);
    const gap = bar - prev - 1;
    const n = gap < cap ? gap : cap;
    for (let i = 0; i < n; i++) ringPush(h, last);
  }
  return rolled;
}

// ---------------------------------------------------------------- sum / sma / dev
// scalars: S0 f64 running sum, S0+8 i32 length of the previous call, S0+12 i32 calls so far,
//          S0+16 i32 calls up to and including the most recent na (0: none yet)

/** Sums within this of zero are zero: the running sum's residue after a window of values cancelling
 * out (logs/math_test_004: the sma of a flat run of zeros is exactly 0); the 1e-10 of ta_test_241. */
const ZERO_SUM: f64 = 1e-10;

export function sum_new(len: i32): usize {
  const h = stateNew(S0 + 24, ringFor(len));
  store<i32>(h, len, S0 + 8);
  return h;
}

/** Pushes x (when not na), rolls the running sum and returns the number of values in the window
 * (0 when len < 1). A length that changed since the previous call re-sums the window oldest first. */
function sumUpdate(h: usize, bar: i32, x: f64, len: i32): i32 {
  begin(h, bar);
  if (len < 1) return 0;
  ringEnsure(h, len + 1);
  let s = load<f64>(h, S0);
  const pushed = x == x;
  const calls = load<i32>(h, S0 + 12) + 1;
  store<i32>(h, calls, S0 + 12);
  if (pushed) ringPush(h, x);
  else store<i32>(h, calls, S0 + 16);
  const n = ringCount(h);
  const m = n < len ? n : len;
  if (load<i32>(h, S0 + 8) != len) {
    s = 0.0;
    for (let i = m - 1; i >= 0; i--) s += ringGet(h, i);
    store<i32>(h, len, S0 + 8);
  } else if (pushed) {
    if (n > len) s = s - ringGet(h, len);
    s = s + x;
    // an infinity that left the window leaves inf - inf = na behind: re-sum what is there now
    if (s - s != 0) {
      s = 0.0;
      for (let i = m - 1; i >= 0; i--) s += ringGet(h, i);
    }
  }
  store<f64>(h, s, S0);
  return m;
}

/** The window sum of the last sumUpdate. */
@inline function windowSum(h: usize): f64 {
  const s = load<f64>(h, S0);
  return Math.abs(s) <= ZERO_SUM ? 0.0 : s;
}

export function sum_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  const m = sumUpdate(h, bar, x, len);
  return m >= len && len > 0 ? windowSum(h) : NaN;
}

export function sma_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  const m = sumUpdate(h, bar, x, len);
  return m >= len && len > 0 ? windowSum(h) / <f64>len : NaN;
}

/** Mean absolute deviation from the sma (the reference's loop, newest first). As in that loop, an na
 * among the last `len` bars makes it na (TradingView: ta.dev and ta.cci with na holes). */
export function dev_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  const m = sumUpdate(h, bar, x, len);
  if (m < len || len < 1) return NaN;
  const lastNa = load<i32>(h, S0 + 16);
  if (lastNa > 0 && load<i32>(h, S0 + 12) - lastNa < len) return NaN;
  const mean = windowSum(h) / <f64>len;
  let acc = 0.0;
  for (let i = 0; i < len; i++) acc += Math.abs(ringGet(h, i) - mean);
  return acc / <f64>len;
}

// ---------------------------------------------------------------- variance
// scalars: S0 f64 sum, S0+8 f64 sum of squares, S0+16 i32 length

export function var_new(len: i32): usize {
  const h = stateNew(S0 + 24, ringFor(len));
  store<i32>(h, len, S0 + 16);
  return h;
}

export function var_next(h: usize, bar: i32, x: f64, len: i32, biased: i32): f64 {
  begin(h, bar);
  if (len < 1) return NaN;
  ringEnsure(h, len + 1);
  if (x == x) ringPush(h, x);
  const n = ringCount(h);
  if (n < len) return NaN;
  let s = 0.0;
  let s2 = 0.0;
  for (let i = len - 1; i >= 0; i--) {
    const v = ringGet(h, i);
    s += v;
    s2 += v * v;
  }
  const fl = <f64>len;
  const mean = s / fl;
  let v: f64;
  if (biased) v = s2 / fl - mean * mean;
  else v = s2 / (fl - 1) - (mean * mean * fl) / (fl - 1);
  return v < 0 ? 0 : v;
}

// ---------------------------------------------------------------- wma
// scalars: S0 f64 last non-na value

export function wma_new(len: i32): usize {
  const h = stateNew(S0 + 8, ringFor(len));
  store<f64>(h, NaN, S0);
  return h;
}

export function wma_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 1) {
    begin(h, bar);
    return NaN;
  }
  beginBars(h, bar, len + 1, len);
  const na = x != x;
  if (na) x = load<f64>(h, S0);
  else store<f64>(h, x, S0);
  ringPush(h, x);
  if (na || ringCount(h) < len) return NaN;
  let s = 0.0;
  for (let i = len - 1; i >= 0; i--) s += <f64>(len - i) * ringGet(h, i);
  return s / ((<f64>len * <f64>(len + 1)) / 2.0);
}

// ---------------------------------------------------------------- ema / rma
// scalars: S0 f64 seed sum, S0+8 f64 its compensation, S0+16 f64 value, S0+24 i32 count,
//          S0+28 i32 length, S0+32 i32 kind (0 ema, 1 rma)

/** Adds x to the compensated sum at p (f64 sum, then f64 lost low-order part), Neumaier's way. */
export function seedAdd(p: usize, x: f64): void {
  const s = load<f64>(p);
  const t = s + x;
  const c = Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
  store<f64>(p, t);
  store<f64>(p, load<f64>(p, 8) + c, 8);
}

/** The value of a compensated sum. */
@inline export function seedSum(p: usize): f64 {
  return load<f64>(p) + load<f64>(p, 8);
}

export function ema_new(len: i32, kind: i32): usize {
  const h = stateNew(S0 + 40, 0);
  store<f64>(h, NaN, S0 + 16);
  store<i32>(h, len, S0 + 28);
  store<i32>(h, kind, S0 + 32);
  return h;
}

export function ema_next(h: usize, bar: i32, x: f64): f64 {
  begin(h, bar);
  if (x != x) return NaN;
  let e = load<f64>(h, S0 + 16);
  const len = load<i32>(h, S0 + 28);
  if (len < 1) return NaN;
  const cnt = load<i32>(h, S0 + 24);
  if (cnt < len) {
    seedAdd(h + S0, x);
    store<i32>(h, cnt + 1, S0 + 24);
    if (cnt + 1 == len) e = seedSum(h + S0) / <f64>len;
  } else if (load<i32>(h, S0 + 32) == 0) {
    e = e + (2.0 / <f64>(len + 1)) * (x - e);
  } else {
    e = (<f64>(len - 1) * e + x) / <f64>len;
  }
  store<f64>(h, e, S0 + 16);
  return e;
}

// ---------------------------------------------------------------- cum
// scalars: S0 f64 total

export function cum_new(): usize {
  const h = stateNew(S0 + 8, 0);
  store<f64>(h, NaN, S0);
  return h;
}

export function cum_next(h: usize, bar: i32, x: f64): f64 {
  begin(h, bar);
  // na until the first non-na value (ta.obv is na on bar 0); an na bar is na and adds nothing
  if (x != x) return NaN;
  let s = load<f64>(h, S0);
  s = s != s ? x : s + x;
  store<f64>(h, s, S0);
  return s;
}

// ---------------------------------------------------------------- lag: x[len] over every call (na kept)

export function lag_new(len: i32): usize {
  return stateNew(S0, ringFor(len));
}

/** Pushes x and returns the value `len` bars ago (na when there is none); bars without a call repeat
 * the last call's value (beginBars). */
export function lag_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  if (len < 0) {
    begin(h, bar);
    return NaN;
  }
  beginBars(h, bar, len + 1, len);
  ringPush(h, x);
  return ringCount(h) > len ? ringGet(h, len) : NaN;
}

/** Two-pass population stdev (the reference's pine_stdev, deviations within 1e-10 count as 0):
 * what ta.bb / ta.bbw use (ta/bb's width matches only this); ta.stdev itself is sqrt(var_next). */
export function stdev2_next(h: usize, bar: i32, x: f64, len: i32): f64 {
  const m = sumUpdate(h, bar, x, len);
  if (m < len || len < 1) return NaN;
  const mean = windowSum(h) / <f64>len;
  let q = 0.0;
  for (let i = 0; i < len; i++) {
    let d = ringGet(h, i) + -mean;
    if (Math.abs(d) <= 1e-10) d = 0;
    q += d * d;
  }
  return Math.sqrt(q / <f64>len);
}
