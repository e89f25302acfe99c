// Whole-series passes that step a per-bar kernel over columns: the same `_next` calls, in the same
// order, that the per-bar builtin (src/builtins/ta/*.ts) makes on each bar, with the builtin's own
// arithmetic between them. Bit-identical to the per-bar calls by construction; what they save is the
// crossing between JavaScript and WebAssembly (and the builtin's argument checks) on every bar, which
// costs more than these kernels' own work. The state is freed with the pass.
import { heap_top, heap_set } from "./mem";
import { sum_new, sum_next, sma_next, dev_next, stdev2_next, var_new, var_next, wma_new, wma_next, ema_new, ema_next, lag_new, lag_next, cum_new, cum_next } from "./avg";
import { win_new, pivot_next, prank_next, hilo_new, hilo_next, cross_new, rise_next } from "./window";
import { tr_new, tr_next, vw_next, linreg_next, alma_next, swma_next, cog_next, sar_new, sar_next, bs_new, bs_next, vwap_new, vwap_next, volind_new, volind_next } from "./misc";
import { order_new, median_next } from "./order";
import { ld, st } from "./series-util";

/** src/builtins/ta/common.ts EPS: a change within it counts as none (cmo, mfi). */
const EPS: f64 = 1e-10;

/** ta.pivothigh (kind 0) / ta.pivotlow (kind 1) of column x. */
export function series_pivot(x: usize, out: usize, n: i32, left: i32, right: i32, kind: i32): void {
  const mark = heap_top();
  const h = win_new(left + right + 2);
  for (let i = 0; i < n; i++) st(out, i, pivot_next(h, i, ld(x, i), left, right, kind));
  heap_set(mark);
}

/** ta.mom (kind 0): x - x[len]; ta.roc (kind 1): 100 (x - x[len]) / x[len]. */
export function series_mom(x: usize, out: usize, n: i32, len: i32, kind: i32): void {
  const mark = heap_top();
  const h = lag_new(len);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    const p = lag_next(h, i, v, len);
    st(out, i, kind == 0 ? v - p : (100 * (v - p)) / p);
  }
  heap_set(mark);
}

/** ta.cci(x, len): (x - sma) / (0.015 dev). */
export function series_cci(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const m = sum_new(len);
  const d = sum_new(len);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    const ma = sma_next(m, i, v, len);
    st(out, i, (v - ma) / (0.015 * dev_next(d, i, v, len)));
  }
  heap_set(mark);
}

/** ta.cmo(x, len). */
export function series_cmo(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const p = lag_new(1);
  const a = sum_new(len);
  const b = sum_new(len);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    let m = v - lag_next(p, i, v, 1);
    if (Math.abs(m) <= EPS) m = 0;
    const sm1 = sum_next(a, i, m >= 0 ? m : 0, len);
    const sm2 = sum_next(b, i, m >= 0 ? 0 : -m, len);
    st(out, i, (100 * (sm1 - sm2)) / (sm1 + sm2));
  }
  heap_set(mark);
}

/** ta.mfi(x, len) with the bars' volume. */
export function series_mfi(x: usize, vol: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const p = lag_new(1);
  const u = sum_new(len);
  const d = sum_new(len);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    let c = v - lag_next(p, i, v, 1);
    if (Math.abs(c) <= EPS) c = 0;
    const w = ld(vol, i);
    const upper = sum_next(u, i, w * (c <= 0 ? 0 : v), len);
    const lower = sum_next(d, i, w * (c >= 0 ? 0 : v), len);
    st(out, i, upper != upper || lower != lower ? NaN : lower == 0 ? 100 : 100 - 100 / (1 + upper / lower));
  }
  heap_set(mark);
}

/** ta.vwma(x, len) with the bars' volume. */
export function series_vwma(x: usize, vol: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const a = sum_new(len);
  const b = sum_new(len);
  for (let i = 0; i < n; i++) {
    const w = ld(vol, i);
    st(out, i, sma_next(a, i, ld(x, i) * w, len) / sma_next(b, i, w, len));
  }
  heap_set(mark);
}

/** ta.hma(x, len) for len >= 2: wma(2 wma(x, len / 2) - wma(x, len), floor(sqrt(len))). */
export function series_hma(x: usize, out: usize, n: i32, len: i32): void {
  const half = len / 2;
  const sq = <i32>Math.floor(Math.sqrt(<f64>len));
  const mark = heap_top();
  const a = wma_new(half);
  const b = wma_new(len);
  const c = wma_new(sq);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    const wa = wma_next(a, i, v, half);
    const wb = wma_next(b, i, v, len);
    st(out, i, wma_next(c, i, 2 * wa - wb, sq));
  }
  heap_set(mark);
}

/** ta.linreg(x, len, offset). */
export function series_linreg(x: usize, out: usize, n: i32, len: i32, offset: i32): void {
  const mark = heap_top();
  const h = win_new(len);
  for (let i = 0; i < n; i++) st(out, i, linreg_next(h, i, ld(x, i), len, offset));
  heap_set(mark);
}

/** ta.dev(x, len). */
export function series_dev(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const h = sum_new(len);
  for (let i = 0; i < n; i++) st(out, i, dev_next(h, i, ld(x, i), len));
  heap_set(mark);
}

/** ta.variance(x, len, biased). */
export function series_variance(x: usize, out: usize, n: i32, len: i32, biased: i32): void {
  const mark = heap_top();
  const h = var_new(len);
  for (let i = 0; i < n; i++) st(out, i, var_next(h, i, ld(x, i), len, biased));
  heap_set(mark);
}

/** ta.percentrank(x, len). */
export function series_percentrank(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const h = win_new(len + 1);
  for (let i = 0; i < n; i++) st(out, i, prank_next(h, i, ld(x, i), len));
  heap_set(mark);
}

/** ta.wpr(len) over high, low and close. */
export function series_wpr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const hh = hilo_new(len, 0);
  const ll = hilo_new(len, 1);
  for (let i = 0; i < n; i++) {
    const a = hilo_next(hh, i, ld(hi, i), len);
    const b = hilo_next(ll, i, ld(lo, i), len);
    st(out, i, (100 * (ld(cl, i) - a)) / (a - b));
  }
  heap_set(mark);
}

/** [+DI, -DI, ADX] of ta.dmi(diLength, adxSmoothing) over high, low and close. */
export function series_dmi(hi: usize, lo: usize, cl: usize, plus: usize, minus: usize, adx: usize, n: i32, diLen: i32, adxLen: i32): void {
  const mark = heap_top();
  const ph = lag_new(1);
  const pl = lag_new(1);
  const t = tr_new();
  const rt = ema_new(diLen, 1);
  const rp = ema_new(diLen, 1);
  const rm = ema_new(diLen, 1);
  const fp = lag_new(1);
  const fm = lag_new(1);
  const ra = ema_new(adxLen, 1);
  for (let i = 0; i < n; i++) {
    const h = ld(hi, i);
    const l = ld(lo, i);
    const up = h - lag_next(ph, i, h, 1);
    const down = -(l - lag_next(pl, i, l, 1));
    const plusDM = up != up ? NaN : up > down && up > 0 ? up : 0;
    const minusDM = down != down ? NaN : down > up && down > 0 ? down : 0;
    const trur = ema_next(rt, i, tr_next(t, i, h, l, ld(cl, i), 0));
    const pr = (100 * ema_next(rp, i, plusDM)) / trur;
    const mr = (100 * ema_next(rm, i, minusDM)) / trur;
    const p = vw_next(fp, i, pr == pr ? 1 : 0, pr, 0);
    const m = vw_next(fm, i, mr == mr ? 1 : 0, mr, 0);
    const sum = p + m;
    st(plus, i, p);
    st(minus, i, m);
    st(adx, i, 100 * ema_next(ra, i, Math.abs(p - m) / (sum == 0 ? 1 : sum)));
  }
  heap_set(mark);
}

/** ta.alma(x, len, offset, sigma, floor). */
export function series_alma(x: usize, out: usize, n: i32, len: i32, offset: f64, sigma: f64, floor: i32): void {
  const mark = heap_top();
  const h = win_new(len);
  for (let i = 0; i < n; i++) st(out, i, alma_next(h, i, ld(x, i), len, offset, sigma, floor));
  heap_set(mark);
}

/** ta.swma(x). */
export function series_swma(x: usize, out: usize, n: i32): void {
  const mark = heap_top();
  const h = win_new(4);
  for (let i = 0; i < n; i++) st(out, i, swma_next(h, i, ld(x, i)));
  heap_set(mark);
}

/** ta.cog(x, len). */
export function series_cog(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const h = win_new(len);
  for (let i = 0; i < n; i++) st(out, i, cog_next(h, i, ld(x, i), len));
  heap_set(mark);
}

/** ta.cum(x). */
export function series_cum(x: usize, out: usize, n: i32): void {
  const mark = heap_top();
  const h = cum_new();
  for (let i = 0; i < n; i++) st(out, i, cum_next(h, i, ld(x, i)));
  heap_set(mark);
}

/** ta.median(x, len). */
export function series_median(x: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const h = order_new(len, 1);
  for (let i = 0; i < n; i++) st(out, i, median_next(h, i, ld(x, i), len));
  heap_set(mark);
}

/** ta.tsi(x, shortLen, longLen). */
export function series_tsi(x: usize, out: usize, n: i32, shortLen: i32, longLen: i32): void {
  const mark = heap_top();
  const p = lag_new(1);
  const a1 = ema_new(longLen, 0);
  const a2 = ema_new(shortLen, 0);
  const b1 = ema_new(longLen, 0);
  const b2 = ema_new(shortLen, 0);
  for (let i = 0; i < n; i++) {
    const v = ld(x, i);
    const pc = v - lag_next(p, i, v, 1);
    const a = ema_next(a2, i, ema_next(a1, i, pc));
    const b = ema_next(b2, i, ema_next(b1, i, Math.abs(pc)));
    st(out, i, a / b);
  }
  heap_set(mark);
}

/** ta.correlation(x, y, len). */
export function series_correlation(x: usize, y: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  const sx = sum_new(len);
  const sy = sum_new(len);
  const sxy = sum_new(len);
  const vxh = var_new(len);
  const vyh = var_new(len);
  for (let i = 0; i < n; i++) {
    const a = ld(x, i);
    const b = ld(y, i);
    const mx = sma_next(sx, i, a, len);
    const my = sma_next(sy, i, b, len);
    const mxy = sma_next(sxy, i, a * b, len);
    const vx = var_next(vxh, i, a, len, 1);
    const vy = var_next(vyh, i, b, len, 1);
    const den = Math.sqrt(vx * vy);
    st(out, i, den != den || mxy != mxy || mx != mx || my != my ? NaN : den <= EPS ? 0 : (mxy - mx * my) / den);
  }
  heap_set(mark);
}

/** ta.sar(start, inc, max) over high, low and close. */
export function series_sar(hi: usize, lo: usize, cl: usize, out: usize, n: i32, start: f64, inc: f64, mx: f64): void {
  const mark = heap_top();
  const h = sar_new();
  for (let i = 0; i < n; i++) st(out, i, sar_next(h, i, ld(hi, i), ld(lo, i), ld(cl, i), start, inc, mx));
  heap_set(mark);
}

/** ta.valuewhen(cond, x, occ) for a number x; cond a column of 1 (true) and 0. */
export function series_valuewhen(cond: usize, x: usize, out: usize, n: i32, occ: i32): void {
  const mark = heap_top();
  const h = win_new(occ + 2);
  for (let i = 0; i < n; i++) st(out, i, vw_next(h, i, ld(cond, i) == 1 ? 1 : 0, ld(x, i), occ));
  heap_set(mark);
}

/** ta.barssince(cond); cond a column of 1 (true) and 0. */
export function series_barssince(cond: usize, out: usize, n: i32): void {
  const mark = heap_top();
  const h = bs_new();
  for (let i = 0; i < n; i++) st(out, i, bs_next(h, i, ld(cond, i) == 1 ? 1 : 0));
  heap_set(mark);
}

/** ta.vwap of column x without bands; `anchor` a column of 1 (a new period starts) and 0. */
export function series_vwap(x: usize, vol: usize, anchor: usize, out: usize, n: i32): void {
  const mark = heap_top();
  const h = vwap_new();
  for (let i = 0; i < n; i++) st(out, i, vwap_next(h, i, ld(x, i), ld(vol, i), ld(anchor, i) == 1 ? 1 : 0, 0));
  heap_set(mark);
}

/** The volume variables (kind: 0 ta.obv, 1 accdist, 2 pvt, 3 wad, 4 nvi, 5 pvi) over the bars. */
export function series_volind(hi: usize, lo: usize, cl: usize, vol: usize, out: usize, n: i32, kind: i32): void {
  const mark = heap_top();
  const h = volind_new(kind);
  for (let i = 0; i < n; i++) st(out, i, volind_next(h, i, ld(hi, i), ld(lo, i), ld(cl, i), ld(vol, i)));
  heap_set(mark);
}

/** ta.rising (dir 1) / ta.falling (dir -1) of column x: 1 where true, 0 where false. */
export function series_rise(x: usize, out: usize, n: i32, len: i32, dir: i32): void {
  const mark = heap_top();
  const h = cross_new();
  for (let i = 0; i < n; i++) st(out, i, rise_next(h, i, ld(x, i), len, dir) == 1 ? 1 : 0);
  heap_set(mark);
}

/** ta.bbw(x, len, mult): the Bollinger width in percent, ((basis + w) - (basis - w)) / basis * 100. */
export function series_bbw(x: usize, out: usize, n: i32, len: i32, mult: f64): void {
  const mark = heap_top();
  const m = sum_new(len);
  const v = sum_new(len);
  for (let i = 0; i < n; i++) {
    const xi = ld(x, i);
    const basis = sma_next(m, i, xi, len);
    const w = mult * stdev2_next(v, i, xi, len);
    st(out, i, ((basis + w - (basis - w)) / basis) * 100);
  }
  heap_set(mark);
}

/**
 * ta.kc(x, len, mult, useTrueRange) into basis, upper and lower (kind 0), or ta.kcw's width
 * ((basis + w) - (basis - w)) / basis into `basis` (kind 1).
 */
export function series_keltner(x: usize, hi: usize, lo: usize, cl: usize, basisOut: usize, upOut: usize, loOut: usize, n: i32, len: i32, mult: f64, useTr: i32, kind: i32): void {
  const mark = heap_top();
  const b = ema_new(len, 0);
  const r = ema_new(len, 0);
  const t = tr_new();
  for (let i = 0; i < n; i++) {
    const h = ld(hi, i);
    const l = ld(lo, i);
    const tr = tr_next(t, i, h, l, ld(cl, i), 0);
    const span = useTr ? tr : h - l;
    const basis = ema_next(b, i, ld(x, i));
    const w = ema_next(r, i, span) * mult;
    if (kind == 0) {
      st(basisOut, i, basis);
      st(upOut, i, basis + w);
      st(loOut, i, basis - w);
    } else st(basisOut, i, (basis + w - (basis - w)) / basis);
  }
  heap_set(mark);
}
