// Time zones: fixed offsets ("UTC", "GMT+6", "UTC-05:30") and IANA names through Intl, plus
// allocation-free civil-calendar arithmetic. Runs in Node, browsers and workerd (no node:* imports).
//
// TradingView's "GMT+6" means six hours AHEAD of UTC (the opposite of the POSIX "Etc/GMT+6" name).
// IANA offsets come from Intl.DateTimeFormat, which is slow (microseconds), so each zone caches the
// offset per UTC hour; a bar-by-bar lookup then costs one Map read (and one comparison on a hit of
// the last bucket).

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const MAX_CACHED_HOURS = 400_000;

/** A resolved time zone. `offsetMs(t)` = local wall-clock time minus UTC, at instant t (ms). */
export interface Zone {
  /** The name as given (normalised for fixed zones: "UTC", "UTC+05:30"). */
  readonly name: string;
  /** True for a fixed offset (no daylight saving). */
  readonly fixed: boolean;
  offsetMs(t: number): number;
}

class FixedZone implements Zone {
  readonly fixed = true;
  constructor(
    readonly name: string,
    private readonly offset: number,
  ) {}
  offsetMs(): number {
    return this.offset;
  }
}

class IanaZone implements Zone {
  readonly fixed = false;
  private readonly fmt: Intl.DateTimeFormat;
  private readonly hours = new Map<number, number>();
  private lastBucket = NaN;
  private lastOffset = 0;

  constructor(readonly name: string) {
    this.fmt = new Intl.DateTimeFormat("en-US", {
      timeZone: name,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      era: "short",
    });
  }

  offsetMs(t: number): number {
    const bucket = Math.floor(t / HOUR_MS);
    if (bucket === this.lastBucket) return this.lastOffset;
    let off = this.hours.get(bucket);
    if (off === undefined) {
      off = this.fill(bucket);
      if (off !== off) return this.exactOffset(t);
    }
    this.lastBucket = bucket;
    this.lastOffset = off;
    return off;
  }

  /**
   * Caches the offset of the hour `bucket`: the whole UTC day at once when the offset does not
   * change during it (two Intl calls per day), else hour by hour. NaN when the offset changes inside
   * this very hour (the caller then asks Intl for the exact instant).
   */
  private fill(bucket: number): number {
    if (this.hours.size >= MAX_CACHED_HOURS) this.hours.clear();
    const day = Math.floor(bucket / 24);
    const dayStart = day * DAY_MS;
    const a = this.exactOffset(dayStart);
    const b = this.exactOffset(dayStart + DAY_MS - 1000);
    if (a === b) {
      for (let h = 0; h < 24; h++) this.hours.set(day * 24 + h, a);
      return a;
    }
    const start = bucket * HOUR_MS;
    const x = this.exactOffset(start);
    const y = this.exactOffset(start + HOUR_MS - 1000);
    if (x !== y) return NaN;
    this.hours.set(bucket, x);
    return x;
  }

  /** Offset straight from Intl (whole seconds; sub-second part of t ignored). */
  private exactOffset(t: number): number {
    const secT = Math.floor(t / 1000) * 1000;
    let year = 0;
    let month = 1;
    let day = 1;
    let hour = 0;
    let minute = 0;
    let second = 0;
    let bc = false;
    for (const p of this.fmt.formatToParts(secT)) {
      switch (p.type) {
        case "year":
          year = +p.value;
          break;
        case "month":
          month = +p.value;
          break;
        case "day":
          day = +p.value;
          break;
        case "hour":
          hour = +p.value % 24;
          break;
        case "minute":
          minute = +p.value;
          break;
        case "second":
          second = +p.value;
          break;
        case "era":
          bc = p.value === "BC" || p.value === "B";
          break;
      }
    }
    if (bc) year = 1 - year;
    const local = daysFromCivil(year, month, day) * DAY_MS + hour * HOUR_MS + minute * 60_000 + second * 1000;
    return local - secT;
  }
}

const zoneCache = new Map<string, Zone | null>();

const FIXED_RE = /^(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i;

/**
 * Resolves a Pine time zone argument: "UTC"/"GMT"/"Etc/UTC", "GMT+6", "UTC-5", "GMT+05:30",
 * "UTC+0530", or any IANA name Intl knows ("America/New_York", "US/Eastern", ...).
 * Returns null for a name that is none of these.
 */
export function getZone(name: string | null | undefined): Zone | null {
  if (name == null) return null;
  let z = zoneCache.get(name);
  if (z !== undefined) return z;
  z = resolveZone(name.trim());
  if (zoneCache.size >= 1000) zoneCache.clear();
  zoneCache.set(name, z);
  return z;
}

function resolveZone(name: string): Zone | null {
  const upper = name.toUpperCase();
  if (
    upper === "UTC" ||
    upper === "GMT" ||
    upper === "Z" ||
    upper === "ETC/UTC" ||
    upper === "ETC/GMT" ||
    upper === "UTC0"
  ) {
    return new FixedZone("UTC", 0);
  }
  const m = FIXED_RE.exec(name);
  if (m) {
    const h = +m[2]!;
    const mi = m[3] ? +m[3] : 0;
    if (h > 14 || mi > 59) return null;
    const sign = m[1] === "-" ? -1 : 1;
    const label = `UTC${m[1]}${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")}`;
    return new FixedZone(label, sign * (h * HOUR_MS + mi * 60_000));
  }
  if (name === "" || typeof Intl === "undefined") return null;
  try {
    return new IanaZone(name);
  } catch {
    return null;
  }
}

/** The UTC zone (always available). */
export const UTC: Zone = new FixedZone("UTC", 0);

// ---------------------------------------------------------------- civil calendar arithmetic

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12; day may overflow). */
export function daysFromCivil(y: number, m: number, d: number): number {
  // Normalise the month first so that month overflow (timestamp(2020, 13, 1)) rolls the year.
  const m0 = m - 1;
  y += Math.floor(m0 / 12);
  m = (((m0 % 12) + 12) % 12) + 1;
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Civil date of a day number, as year * 10000 + month * 100 + day (no allocation; years 1..9999). */
export function civilFromDays(z: number): number {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return y * 10000 + m * 100 + d;
}

/** Wall-clock ms (local time expressed as if it were UTC) of instant t in zone. */
export function localMs(t: number, zone: Zone): number {
  return t + zone.offsetMs(t);
}

/** Local day number (days since 1970-01-01 in the zone's calendar). */
export function localDay(t: number, zone: Zone): number {
  return Math.floor(localMs(t, zone) / DAY_MS);
}

export function yearOf(t: number, zone: Zone): number {
  return Math.floor(civilFromDays(localDay(t, zone)) / 10000);
}
export function monthOf(t: number, zone: Zone): number {
  return Math.floor(civilFromDays(localDay(t, zone)) / 100) % 100;
}
export function dayOfMonthOf(t: number, zone: Zone): number {
  return civilFromDays(localDay(t, zone)) % 100;
}
/** Pine numbering: 1 = Sunday .. 7 = Saturday. */
export function dayOfWeekOf(t: number, zone: Zone): number {
  return weekdayOfDay(localDay(t, zone)) + 1;
}
/** 0 = Sunday .. 6 = Saturday, of a day number. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}
export function hourOf(t: number, zone: Zone): number {
  return Math.floor(mod(localMs(t, zone), DAY_MS) / HOUR_MS);
}
export function minuteOf(t: number, zone: Zone): number {
  return Math.floor(mod(localMs(t, zone), HOUR_MS) / 60_000);
}
export function secondOf(t: number, zone: Zone): number {
  return Math.floor(mod(localMs(t, zone), 60_000) / 1000);
}

/** ISO-8601 week number (weeks start on Monday; week 1 holds the year's first Thursday). TradingView's weekofyear. */
export function weekOfYearOf(t: number, zone: Zone): number {
  return isoWeekOfDay(localDay(t, zone));
}

export function isoWeekOfDay(day: number): number {
  const isoDow = ((weekdayOfDay(day) + 6) % 7) + 1; // 1 = Monday .. 7 = Sunday
  const thursday = day + 4 - isoDow;
  const year = Math.floor(civilFromDays(thursday) / 10000);
  const jan1 = daysFromCivil(year, 1, 1);
  return Math.floor((thursday - jan1) / 7) + 1;
}

/**
 * The instant at which the wall clock in `zone` shows the given civil time. Fields may overflow
 * (minute 90 = next hour + 30). In a daylight-saving gap the result moves forward by the gap; in an
 * overlap the earlier instant is chosen.
 */
export function zonedToUtc(zone: Zone, y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const local = daysFromCivil(y, mo, d) * DAY_MS + h * HOUR_MS + mi * 60_000 + s * 1000 + ms;
  return localToUtc(zone, local);
}

/** Instant of a wall-clock time given as local ms (see localMs). */
export function localToUtc(zone: Zone, local: number): number {
  if (zone.fixed) return local - zone.offsetMs(local);
  const o1 = zone.offsetMs(local - zone.offsetMs(local));
  const t1 = local - o1;
  const o2 = zone.offsetMs(t1);
  if (o1 === o2) {
    // Overlap: prefer the earlier instant when the earlier offset also maps to this wall time.
    const earlier = local - zone.offsetMs(t1 - HOUR_MS);
    if (earlier < t1 && zone.offsetMs(earlier) + earlier === local) return earlier;
    return t1;
  }
  // Gap: the wall time does not exist; keep the pre-transition offset (moves the time forward).
  return local - Math.min(o1, o2);
}

function mod(a: number, b: number): number {
  const r = a % b;
  return r < 0 ? r + b : r;
}

export const MS = { HOUR: HOUR_MS, DAY: DAY_MS, MINUTE: 60_000, SECOND: 1000 } as const;
