// The intrabar price path the broker emulator assumes, and the lower-timeframe bars the bar
// magnifier walks instead of it.
//
// TradingView: "If the opening price of a bar is closer to the high than to the low, the broker
// emulator assumes that intrabar price moved open -> high -> low -> close; otherwise open -> low ->
// high -> close." The distances are compared as TradingView computes them, in raw floats: a bar whose
// open is midway in ticks can still be nearer the high by float noise (PineForge
// udt-method-extra-primitive-args trade 554: 2426.43 - 2425.21 < 2425.21 - 2423.99 goes high first),
// and a bar whose two distances are the same float goes low first (channel-breakout trade 2565).

import type { Bar, ColumnarBars } from "../core/result.js";

/** True when the path visits the high before the low. */
export function highFirst(open: number, high: number, low: number, _mintick: number): boolean {
  return high - open < open - low;
}

/**
 * Lower-timeframe bars for the bar magnifier, columnar and sorted by time. The Runtime puts them at
 * `ctx.ext.magnifierBars` (see index.ts); the broker reads the ones whose time falls inside the chart
 * bar [time, timeClose).
 */
export interface MagnifierFeed {
  time: ArrayLike<number>;
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  length: number;
}

export function toMagnifierFeed(input: unknown): MagnifierFeed | null {
  if (input == null || typeof input !== "object") return null;
  if (Array.isArray(input)) {
    const bars = input as Bar[];
    const n = bars.length;
    const time = new Float64Array(n);
    const open = new Float64Array(n);
    const high = new Float64Array(n);
    const low = new Float64Array(n);
    const close = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const b = bars[i];
      time[i] = b.time;
      open[i] = b.open;
      high[i] = b.high;
      low[i] = b.low;
      close[i] = b.close;
    }
    return { time, open, high, low, close, length: n };
  }
  const c = input as ColumnarBars;
  if (!c.time || !c.open || !c.high || !c.low || !c.close) return null;
  return { time: c.time, open: c.open, high: c.high, low: c.low, close: c.close, length: c.time.length };
}

/** Finds the first index with time >= t starting from `from` (bars sorted ascending). */
export function seekTime(feed: MagnifierFeed, t: number, from: number): number {
  let i = Math.max(0, from);
  while (i < feed.length && feed.time[i] < t) i++;
  return i;
}
