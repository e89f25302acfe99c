// Higher-timeframe bars built from a symbol's own lower-timeframe bars, the way a chart of that
// timeframe would show them: one bar per period (see time-frames.ts for how periods are cut),
// open of the first bar, highest high, lowest low, close of the last bar, summed volume. What
// request.security needs for the chart symbol at a higher timeframe when no data feed supplies it.

import type { BarColumns } from "./bars.js";
import { PeriodCalc, type Timeframe } from "./time-frames.js";
import type { Session } from "./time-sessions.js";
import type { Zone } from "./tz.js";
import { sameValues } from "./same-values.js";

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
 * Where each source bar's period falls (resampleBars' first pass, the costly one: a zone offset and
 * a session lookup a bar): for each source bar its period's index; per period its start (the bar's
 * time), end (time_close) and last source bar. Read only: a cached one serves many runs.
 */
interface Periods {
  index: Int32Array;
  starts: Float64Array;
  ends: Float64Array;
  lastSource: Int32Array;
}

/**
 * Groups `src` bars into `tf` periods (exchange `zone`, symbol `session`; `barMs` = length of one
 * source bar). Source bars must be in time order (as normalizeBars guarantees). Volume is the sum of
 * the non-na volumes, na when every one is na. The periods of a caller's own time column are kept
 * for the next run over it (periodsOf); the prices are grouped anew on every call.
 */
export function resampleBars(src: BarColumns, tf: Timeframe, zone: Zone, session: Session, barMs: number): Resampled {
  const n = src.time.length;
  const p =
    src.copied === true ? periods(src.time, tf, zone, session, barMs) : periodsOf(src.time, tf, zone, session, barMs);
  const count = p.starts.length;
  const index = p.index;
  const out: BarColumns = {
    length: count,
    time: p.starts.slice(),
    open: new Float64Array(count),
    high: new Float64Array(count),
    low: new Float64Array(count),
    close: new Float64Array(count),
    volume: new Float64Array(count),
  };
  let k = -1;
  for (let i = 0; i < n; i++) {
    const v = src.volume[i]!;
    if (index[i] !== k) {
      k = index[i]!;
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
  }
  return { bars: out, timeClose: p.ends.slice(), index, lastSource: p.lastSource };
}

function periods(time: Float64Array, tf: Timeframe, zone: Zone, session: Session, barMs: number): Periods {
  const n = time.length;
  const calc = new PeriodCalc(zone, session, barMs);
  const index = new Int32Array(n);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    calc.start(time[i]!, tf, true);
    // a period's time and time_close: its first source bar's
    if (i === 0 || calc.periodStart !== starts[count - 1]) {
      starts[count] = calc.periodStart;
      ends[count] = calc.periodEnd;
      count++;
    }
    index[i] = count - 1;
  }
  const lastSource = new Int32Array(count);
  for (let i = 0; i < n; i++) lastSource[index[i]!] = i;
  return { index, starts: starts.slice(0, count), ends: ends.slice(0, count), lastSource };
}

/**
 * periods(), reused for the same time column: a host running scripts again and again over one input
 * (benchmarks, optimize trials, a chart re-run after an input change) resamples the same chart bars
 * to the same timeframes on every run. As runtime/bar-close.ts's close times: the column is compared
 * value by value with a copy taken when its periods were first made (one compare a bar against a
 * zone offset and a session lookup a bar), held weakly with the column, at most PERIODS_PER_COLUMN
 * (timeframe, zone, session, bar length) entries a column.
 */
function periodsOf(time: Float64Array, tf: Timeframe, zone: Zone, session: Session, barMs: number): Periods {
  let c = periodsByColumn.get(time);
  if (c !== undefined && !sameValues(time, c.copy)) c = undefined;
  if (c === undefined) {
    c = { copy: time.slice(), entries: [] };
    periodsByColumn.set(time, c);
  }
  for (const e of c.entries)
    if (e.unit === tf.unit && e.mult === tf.mult && e.zone === zone && e.session === session && e.barMs === barMs)
      return e.periods;
  const p = periods(time, tf, zone, session, barMs);
  if (c.entries.length >= PERIODS_PER_COLUMN) c.entries.shift();
  c.entries.push({ unit: tf.unit, mult: tf.mult, zone, session, barMs, periods: p });
  return p;
}

const PERIODS_PER_COLUMN = 8;

const periodsByColumn = new WeakMap<
  Float64Array,
  {
    copy: Float64Array;
    entries: { unit: string; mult: number; zone: Zone; session: Session; barMs: number; periods: Periods }[];
  }
>();
