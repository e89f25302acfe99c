// Bar times as the chart shows them. lightweight-charts lays out and labels every time in UTC; the
// chart shows the symbol's exchange time as TradingView does, so each bar's time is moved by its
// zone's UTC offset at that instant (daylight saving included). Everything drawn at a bar uses these
// shifted times; the data and the runs keep the real ones.

const formats = new Map<string, Intl.DateTimeFormat | null>();
const DAY_MS = 86_400_000;

function formatFor(tz: string): Intl.DateTimeFormat | null {
  let f = formats.get(tz);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: tz,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      f = null; // an unknown zone (the symbol dialog refuses them; old saved state might not): UTC
    }
    formats.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC at `ms`, in ms (0 for UTC or an unknown zone). */
export function zoneOffsetMs(tz: string, ms: number): number {
  const f = formatFor(tz);
  if (!f || !Number.isFinite(ms)) return 0;
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(ms)) if (part.type !== "literal") p[part.type] = Number(part.value);
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
  return wall - Math.floor(ms / 1000) * 1000;
}

function isUtc(tz: string): boolean {
  return tz === "UTC" || tz === "Etc/UTC" || tz === "GMT" || tz === "Etc/GMT" || tz === "";
}

/**
 * Chart times (seconds, increasing) of bar times (ms) shown in zone `tz`. The offset is looked up at the first
 * bar of each day of data and at the last bar before the next day; bars in between share it unless
 * the two differ (a daylight-saving change that day), then each of them is looked up.
 */
export function chartTimes(times: Float64Array, tz: string): number[] {
  const n = times.length;
  const out: number[] = new Array(n);
  if (isUtc(tz) || !formatFor(tz)) {
    for (let i = 0; i < n; i++) out[i] = times[i]! / 1000;
    return out;
  }
  let i = 0;
  while (i < n) {
    let j = i + 1;
    while (j < n && times[j]! < times[i]! + DAY_MS) j++;
    const first = zoneOffsetMs(tz, times[i]!);
    const same = zoneOffsetMs(tz, times[j - 1]!) === first;
    for (let k = i; k < j; k++) out[k] = (times[k]! + (same ? first : zoneOffsetMs(tz, times[k]!))) / 1000;
    i = j;
  }
  // the chart needs increasing times: bars of the hour repeated when clocks go back (01:00-02:00 twice)
  // are placed a second after the bar before them
  for (let k = 1; k < n; k++) if (out[k]! <= out[k - 1]!) out[k] = out[k - 1]! + 1;
  return out;
}
