// Realtime (forming-bar) evaluation of service.md 1.4: which bars are realtime, and the tick prices
// of a forming bar walking open -> nearer extreme -> other extreme -> close.
import type { RunOptions } from "../core/result.js";

/** Index of the first realtime bar (n when the whole run is historical). */
export function realtimeStart(opts: RunOptions, n: number): number {
  if (typeof opts.realtimeFromBar === "number" && Number.isFinite(opts.realtimeFromBar))
    return Math.min(n, Math.max(0, Math.trunc(opts.realtimeFromBar)));
  if (typeof opts.realtimeBars === "number" && opts.realtimeBars > 0)
    return Math.max(0, n - Math.trunc(opts.realtimeBars));
  if (opts.realtimeLastBar || (typeof opts.realtimeTicks === "number" && opts.realtimeTicks > 1))
    return Math.max(0, n - 1);
  return n;
}

export function tickCount(opts: RunOptions): number {
  const t = opts.realtimeTicks;
  return typeof t === "number" && t >= 1 ? Math.min(1000, Math.trunc(t)) : 1;
}

export interface Tick {
  high: number;
  low: number;
  close: number;
  /** Fraction of the bar's path walked. */
  frac: number;
  /** Share of the bar's volume traded by this tick: every tick, the first included, carries an equal part. */
  volumeFrac: number;
}

/** Tick k of `ticks` on the bar's path; the last tick is the whole bar. */
export function tickAt(
  k: number,
  ticks: number,
  open: number,
  high: number,
  low: number,
  close: number,
  out: Tick,
): Tick {
  if (k >= ticks - 1) {
    out.high = high;
    out.low = low;
    out.close = close;
    out.frac = 1;
    out.volumeFrac = 1;
    return out;
  }
  const first = Math.abs(high - open) <= Math.abs(open - low) ? high : low;
  const second = first === high ? low : high;
  // the path open -> first -> second -> close, walked `frac` of its length (no arrays per tick)
  const leg0 = Math.abs(first - open);
  const leg1 = Math.abs(second - first);
  const leg2 = Math.abs(close - second);
  const frac = ticks > 1 ? k / (ticks - 1) : 1;
  let dist = (leg0 + leg1 + leg2) * frac;
  let price = open;
  let hi = open;
  let lo = open;
  for (let i = 0; i < 3; i++) {
    const a = i === 0 ? open : i === 1 ? first : second;
    const b = i === 0 ? first : i === 1 ? second : close;
    const len = i === 0 ? leg0 : i === 1 ? leg1 : leg2;
    if (dist <= len) {
      price = len === 0 ? b : a + ((b - a) * dist) / len;
      hi = Math.max(hi, price);
      lo = Math.min(lo, price);
      break;
    }
    dist -= len;
    hi = Math.max(hi, b);
    lo = Math.min(lo, b);
    price = b;
  }
  out.high = hi;
  out.low = lo;
  out.close = price;
  out.frac = frac;
  out.volumeFrac = (k + 1) / ticks;
  return out;
}
