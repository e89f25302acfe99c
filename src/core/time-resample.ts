// Higher-timeframe bars built from a symbol's own lower-timeframe bars, the way a chart of that
// timeframe would show them: one bar per period (see time-frames.ts for how periods are cut),
// open of the first bar, highest high, lowest low, close of the last bar, summed volume. What
// request.security needs for the chart symbol at a higher timeframe when no data feed supplies it.

import type { BarColumns } from "./bars.js";
import { PeriodCalc, type Timeframe } from "./time-frames.js";
import type { Session } from "./time-sessions.js";
import type { Zone } from "./tz.js";

export interface Resampled {
  /** The higher-timeframe bars; time = period start, plus timeClose = period end. */
  bars: BarColumns;
  timeClose: Float64Array;
  /** For each source bar, the index of the higher-timeframe bar holding it. */
  index: Int32Array;
  /** For each higher-timeframe bar, the index of its last source bar. */
  lastSource: Int32Array;
}

/**
 * Groups `src` bars into `tf` periods (exchange `zone`, symbol `session`; `barMs` = length of one
 * source bar). Source bars must be in time order (as normalizeBars guarantees). Volume is the sum of
 * the non-na volumes, na when every one is na.
 */
export function resampleBars(src: BarColumns, tf: Timeframe, zone: Zone, session: Session, barMs: number): Resampled {
  const n = src.time.length;
  const calc = new PeriodCalc(zone, session, barMs);
  const index = new Int32Array(n);
  // Pass 1: period of every source bar, and how many periods there are.
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    calc.start(src.time[i]!, tf, true);
    starts[i] = calc.periodStart;
    ends[i] = calc.periodEnd;
    if (i === 0 || starts[i] !== starts[i - 1]) count++;
    index[i] = count - 1;
  }
  const out: BarColumns = {
    length: count,
    time: new Float64Array(count),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
  };
  const timeClose = new Float64Array(count);
  const lastSource = new Int32Array(count);
  let k = -1;
  for (let i = 0; i < n; i++) {
    const v = src.volume[i]!;
    if (index[i] !== k) {
      k = index[i]!;
      out.time[k] = starts[i]!;
      timeClose[k] = ends[i]!;
      out.open[k] = src.open[i]!;
      out.high[k] = src.high[i]!;
      out.low[k] = src.low[i]!;
      out.volume[k] = v;
    } else {
      if (src.high[i]! > out.high[k]!) out.high[k] = src.high[i]!;
      if (src.low[i]! < out.low[k]!) out.low[k] = src.low[i]!;
      if (v === v) out.volume[k] = out.volume[k] === out.volume[k] ? out.volume[k]! + v : v;
    }
    out.close[k] = src.close[i]!;
    lastSource[k] = i;
  }
  return { bars: out, timeClose, index, lastSource };
}
