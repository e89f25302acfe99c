// Bar times as the chart shows them. lightweight-charts lays out and labels every time in UTC; the
// chart shows the symbol's exchange time as TradingView does, so each bar's time is moved by its
// zone's UTC offset at that instant (daylight saving included), from the runtime's own zone table
// (src/core/tz.ts: IANA names and TradingView's "GMT+6" forms, offsets cached per day). Everything
// drawn at a bar uses these shifted times; the data and the runs keep the real ones.

import { getZone, localMs } from "../../../src/core/tz.js";

/** The zone's offset from UTC at `ms`, in ms (0 for UTC or an unknown zone). */
export function zoneOffsetMs(tz: string, ms: number): number {
  return getZone(tz)?.offsetMs(ms) ?? 0;
}

/** Chart times (seconds, increasing) of bar times (ms) shown in zone `tz` (UTC for an unknown zone). */
export function chartTimes(times: Float64Array, tz: string): number[] {
  const n = times.length;
  const out: number[] = new Array(n);
  const zone = getZone(tz);
  if (!zone || (zone.fixed && zone.offsetMs(0) === 0)) {
    for (let i = 0; i < n; i++) out[i] = times[i]! / 1000;
    return out;
  }
  for (let i = 0; i < n; i++) out[i] = localMs(times[i]!, zone) / 1000;
  // the chart needs increasing times: bars of the hour repeated when clocks go back (01:00-02:00 twice)
  // are placed a second after the bar before them
  for (let k = 1; k < n; k++) if (out[k]! <= out[k - 1]!) out[k] = out[k - 1]! + 1;
  return out;
}
