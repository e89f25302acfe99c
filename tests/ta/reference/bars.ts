// Plain-JS references of the bar-path indicators, transcribed from the TradingView reference
// manual's Pine versions (pine_sar, pine_supertrend, the DMI indicator, tsi, vwap, volume indicators).
import { ema, tr, type Series } from "./series.js";

export interface Ohlcv {
  open: Series;
  high: Series;
  low: Series;
  close: Series;
  volume: Series;
}

export function sar(b: Ohlcv, start: number, inc: number, max: number): Float64Array {
  const n = b.close.length;
  const out = new Float64Array(n);
  let result = NaN;
  let maxMin = NaN;
  let acc = NaN;
  let below = false;
  for (let i = 0; i < n; i++) {
    const { high: H, low: L, close: C } = b;
    let first = false;
    if (i === 1) {
      if (C[1] > C[0]) {
        below = true;
        maxMin = H[1];
        result = L[0];
      } else {
        below = false;
        maxMin = L[1];
        result = H[0];
      }
      first = true;
      acc = start;
    }
    result = result + acc * (maxMin - result);
    if (below) {
      if (result > L[i]) {
        first = true;
        below = false;
        result = Math.max(H[i], maxMin);
        maxMin = L[i];
        acc = start;
      }
    } else if (result < H[i]) {
      first = true;
      below = true;
      result = Math.min(L[i], maxMin);
      maxMin = H[i];
      acc = start;
    }
    if (!first) {
      if (below) {
        if (H[i] > maxMin) {
          maxMin = H[i];
          acc = Math.min(acc + inc, max);
        }
      } else if (L[i] < maxMin) {
        maxMin = L[i];
        acc = Math.min(acc + inc, max);
      }
    }
    const l1 = i > 0 ? L[i - 1] : NaN;
    const h1 = i > 0 ? H[i - 1] : NaN;
    if (below) {
      result = Math.min(result, l1);
      if (i > 1) result = Math.min(result, L[i - 2]);
    } else {
      result = Math.max(result, h1);
      if (i > 1) result = Math.max(result, H[i - 2]);
    }
    out[i] = result;
  }
  return out;
}

export function supertrend(b: Ohlcv, factor: number, period: number): [Float64Array, Float64Array] {
  const n = b.close.length;
  const atr = ema(tr(b.high, b.low, b.close, true), period, true);
  const st = new Float64Array(n);
  const dir = new Float64Array(n);
  let pu = NaN;
  let pl = NaN;
  let pst = NaN;
  for (let i = 0; i < n; i++) {
    const src = (b.high[i] + b.low[i]) / 2;
    let upper = src + factor * atr[i];
    let lower = src - factor * atr[i];
    const prevLower = pl === pl ? pl : 0;
    const prevUpper = pu === pu ? pu : 0;
    const c1 = i > 0 ? b.close[i - 1] : NaN;
    lower = lower > prevLower || c1 < prevLower ? lower : prevLower;
    upper = upper < prevUpper || c1 > prevUpper ? upper : prevUpper;
    let d: number;
    if (i === 0 || atr[i - 1] !== atr[i - 1]) d = 1;
    else if (pst === prevUpper) d = b.close[i] > upper ? -1 : 1;
    else d = b.close[i] < lower ? 1 : -1;
    st[i] = d === -1 ? lower : upper;
    dir[i] = d;
    pu = upper;
    pl = lower;
    pst = st[i];
  }
  return [st, dir];
}

export function dmi(b: Ohlcv, len: number, lensig: number): [Float64Array, Float64Array, Float64Array] {
  const n = b.close.length;
  const plusDM = new Float64Array(n);
  const minusDM = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const up = i > 0 ? b.high[i] - b.high[i - 1] : NaN;
    const down = i > 0 ? -(b.low[i] - b.low[i - 1]) : NaN;
    plusDM[i] = up !== up ? NaN : up > down && up > 0 ? up : 0;
    minusDM[i] = down !== down ? NaN : down > up && down > 0 ? down : 0;
  }
  const trur = ema(tr(b.high, b.low, b.close, false), len, true);
  const rp = ema(plusDM, len, true);
  const rm = ema(minusDM, len, true);
  const plus = new Float64Array(n);
  const minus = new Float64Array(n);
  let lp = NaN;
  let lm = NaN;
  for (let i = 0; i < n; i++) {
    const p = (100 * rp[i]) / trur[i];
    const m = (100 * rm[i]) / trur[i];
    plus[i] = lp = p === p ? p : lp;
    minus[i] = lm = m === m ? m : lm;
  }
  const ratio = plus.map((p, i) => {
    const s = p + minus[i];
    return Math.abs(p - minus[i]) / (s === 0 ? 1 : s);
  });
  const adx = ema(ratio, lensig, true).map((v) => 100 * v);
  return [plus, minus, adx];
}

export function tsi(x: Series, short: number, long: number): Float64Array {
  const pc = Float64Array.from({ length: x.length }, (_, i) => (i > 0 ? x[i] - x[i - 1] : NaN));
  const a = ema(ema(pc, long), short);
  const b = ema(ema(pc.map(Math.abs), long), short);
  return a.map((v, i) => v / b[i]);
}

/** Anchored vwap with bands (the reference's computeVWAP); na until the first anchor. */
export function vwap(
  src: Series,
  vol: Series,
  anchor: ArrayLike<boolean>,
  mult: number,
): [Float64Array, Float64Array, Float64Array] {
  const n = src.length;
  const v = new Float64Array(n).fill(NaN);
  const up = new Float64Array(n).fill(NaN);
  const lo = new Float64Array(n).fill(NaN);
  let a = NaN;
  let s = NaN;
  let q = NaN;
  let started = false;
  for (let i = 0; i < n; i++) {
    if (anchor[i]) {
      a = src[i] * vol[i];
      s = vol[i];
      q = vol[i] * (src[i] * src[i]);
      started = true;
    } else if (started) {
      a = src[i] * vol[i] + a;
      s = vol[i] + s;
      q = vol[i] * (src[i] * src[i]) + q;
    } else continue;
    v[i] = a / s;
    const variance = Math.max(q / s - v[i] * v[i], 0);
    up[i] = v[i] + Math.sqrt(variance) * mult;
    lo[i] = v[i] - Math.sqrt(variance) * mult;
  }
  return [v, up, lo];
}

/** ta.obv, ta.accdist, ta.pvt, ta.wad (cumulative, na until the first defined term). */
export function cumulative(b: Ohlcv, kind: "obv" | "accdist" | "pvt" | "wad"): Float64Array {
  let s = NaN;
  return Float64Array.from({ length: b.close.length }, (_, i) => {
    const c = b.close[i];
    const h = b.high[i];
    const l = b.low[i];
    const c1 = i > 0 ? b.close[i - 1] : NaN;
    const chg = c - c1;
    let t: number;
    if (kind === "obv") t = Math.sign(chg) * b.volume[i];
    else if (kind === "accdist") t = (c === h && c === l) || h === l ? 0 : ((2 * c - l - h) / (h - l)) * b.volume[i];
    else if (kind === "pvt") t = (chg / c1) * b.volume[i];
    else t = chg > 0 ? c - Math.min(l, c1) : chg < 0 ? c - Math.max(h, c1) : chg === 0 ? 0 : 0;
    if (t === t) s = s !== s ? t : s + t;
    return s;
  });
}
