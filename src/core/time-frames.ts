// Timeframe strings ("1S", "5", "240", "D", "3W", "12M", "1T") and the periods ("buckets") they cut
// time into, the way TradingView builds higher-timeframe bars:
// - intraday periods are counted from the start of the bar's trading-day session (a 240 bucket on
//   forex, whose day opens 17:00 New York, starts at 17:00, 21:00, 01:00, ...);
// - a day is a trading day of the session (an overnight session's bars before midnight belong to
//   the next day); "2D", "3D" group the year's session days in order from 1 January;
// - weeks run Monday to Sunday by trading day; "3W" groups weeks counted from the year's first Monday;
// - months go by the trading day's month; "3M" is a quarter, "12M" a year.
// Verified against TradingView's exported timeframe.change() values (conformance timeframe_change).

import { parseSession, type Session, SESSION_24X7 } from "./time-sessions.js";
import { civilFromDays, daysFromCivil, getZone, localToUtc, UTC, weekdayOfDay, type Zone } from "./tz.js";

const MIN_MS = 60_000;
const DAY_MS = 86_400_000;

export type TimeframeUnit = "T" | "S" | "m" | "D" | "W" | "M";

export interface Timeframe {
  unit: TimeframeUnit;
  mult: number;
}

const tfCache = new Map<string, Timeframe | null>();

/**
 * Parses a timeframe string. Minutes are bare numbers ("1", "240"); "S" seconds, "D" days, "W" weeks,
 * "M" months, "T" ticks, optionally with a multiplier ("3D"); "H" hours ("4H" = "240") is also
 * accepted. Returns null for anything else (including "", which callers read as the chart timeframe).
 */
export function parseTimeframe(text: string | null | undefined): Timeframe | null {
  if (text == null) return null;
  let tf = tfCache.get(text);
  if (tf !== undefined) return tf;
  tf = parseUncached(text.trim());
  if (tfCache.size > 1000) tfCache.clear();
  tfCache.set(text, tf);
  return tf;
}

function parseUncached(s: string): Timeframe | null {
  const m = /^(\d*)([SDWMTHsdwh]?)$/.exec(s);
  if (!m || s === "") return null;
  const digits = m[1]!;
  const unitCh = m[2]!.toUpperCase();
  if (digits === "" && unitCh === "") return null;
  const mult = digits === "" ? 1 : Number(digits);
  if (!Number.isInteger(mult) || mult <= 0) return null;
  switch (unitCh) {
    case "":
      return { unit: "m", mult };
    case "H":
      return { unit: "m", mult: mult * 60 };
    default:
      return { unit: unitCh as TimeframeUnit, mult };
  }
}

/**
 * Canonical text of a timeframe: minutes "60", seconds "30S", ticks "1T"; days/weeks/months
 * "1D"/"1W"/"1M" in Pine v6, while v5 drops a multiplier of 1 ("D", "W", "M").
 */
export function formatTimeframe(tf: Timeframe, version = 6): string {
  switch (tf.unit) {
    case "m":
      return String(tf.mult);
    case "S":
    case "T":
      return `${tf.mult}${tf.unit}`;
    default:
      return version < 6 && tf.mult === 1 ? tf.unit : `${tf.mult}${tf.unit}`;
  }
}

/** TradingView's month length for timeframe.in_seconds ("1M" = 2628003 s). */
export const MONTH_SECONDS = 2_628_003;

/** Seconds in one bar of the timeframe (timeframe.in_seconds); NaN for ticks. */
export function timeframeSeconds(tf: Timeframe): number {
  switch (tf.unit) {
    case "T":
      return NaN;
    case "S":
      return tf.mult;
    case "m":
      return tf.mult * 60;
    case "D":
      return tf.mult * 86_400;
    case "W":
      return tf.mult * 604_800;
    case "M":
      return tf.mult * MONTH_SECONDS;
  }
}

/** The seconds timeframes TradingView offers. */
const SECOND_STEPS = [1, 5, 10, 15, 30, 45];

/**
 * timeframe.from_seconds, as documented: an exact match in the largest base unit wins (604800 ->
 * "1W", not "7D"); otherwise the next higher valid timeframe (2..5 s -> "5S", 604799 -> "7D");
 * above 366 days "12M". Day/week/month strings follow the version ("1D" in v6, "D" in v5).
 */
export function timeframeFromSeconds(seconds: number, version = 6): string | null {
  if (seconds !== seconds) return null;
  const s = Math.max(1, Math.ceil(seconds));
  let tf: Timeframe;
  if (s > 366 * 86_400) tf = { unit: "M", mult: 12 };
  else if (s % MONTH_SECONDS === 0 && s / MONTH_SECONDS <= 12) tf = { unit: "M", mult: s / MONTH_SECONDS };
  else if (s % 604_800 === 0 && s / 604_800 <= 52) tf = { unit: "W", mult: s / 604_800 };
  else if (s % 86_400 === 0) tf = { unit: "D", mult: s / 86_400 };
  else if (s < 60) {
    const step = SECOND_STEPS.find((x) => x >= s);
    tf = step !== undefined ? { unit: "S", mult: step } : { unit: "m", mult: 1 };
  } else if (s < 86_400) tf = { unit: "m", mult: Math.ceil(s / 60) };
  else tf = { unit: "D", mult: Math.ceil(s / 86_400) };
  if (tf.unit === "m" && tf.mult === 1440) tf = { unit: "D", mult: 1 };
  if (tf.unit === "D" && tf.mult > 365) tf = { unit: "M", mult: 12 };
  return formatTimeframe(tf, version);
}

export function isIntraday(tf: Timeframe): boolean {
  return tf.unit === "m" || tf.unit === "S" || tf.unit === "T";
}

/** A nominal bar length in ms (calendar units approximated), for spacing and estimates. */
export function nominalMs(tf: Timeframe): number {
  const s = timeframeSeconds(tf);
  return s === s ? s * 1000 : 1000;
}

// ---------------------------------------------------------------- periods

/**
 * The environment periods are computed in: the exchange zone, the symbol session and the chart
 * timeframe (for the length of a chart bar). Holds per-call scratch results, so one instance must not
 * be shared by concurrent computations (builtins use one per run).
 */
export class PeriodCalc {
  /** Start (UTC ms) of the period found by the last `start` call. */
  periodStart = NaN;
  /** End (UTC ms, exclusive) of that period, filled by `start` when `withEnd` is true. */
  periodEnd = NaN;
  /** Trading day (local day number) of the last bar looked at; NaN outside the session. */
  tradingDay = NaN;

  constructor(
    readonly zone: Zone,
    readonly session: Session,
    /** Length of a chart bar in ms (to see which session opens inside a bar). */
    readonly barMs: number,
  ) {}

  /**
   * Computes the period of timeframe `tf` holding the bar that opens at `t` (UTC ms). Returns its
   * start (also in `periodStart`); with `withEnd`, also fills `periodEnd`. NaN when tf is ticks.
   */
  start(t: number, tf: Timeframe, withEnd = false): number {
    const zone = this.zone;
    const ses = this.session;
    const off = zone.offsetMs(t);
    const L = t + off;
    const inSession = ses.barDay(L, L + this.barMs);
    const D = inSession ? ses.day : Math.floor(L / DAY_MS);
    this.tradingDay = inSession ? D : NaN;
    const calendar = tf.unit === "D" || tf.unit === "W" || tf.unit === "M";
    // D/W/M periods depend only on the trading day: reuse the last answer for the same day.
    if (calendar && tf === this.memoTf && D === this.memoDay && (!withEnd || this.memoEnd === this.memoEnd)) {
      this.periodStart = this.memoStart;
      this.periodEnd = withEnd ? this.memoEnd : NaN;
      return this.periodStart;
    }
    let startL: number;
    let endL = NaN;
    switch (tf.unit) {
      case "T":
        this.periodStart = this.periodEnd = NaN;
        return NaN;
      case "S":
      case "m": {
        const len = tf.unit === "S" ? tf.mult * 1000 : tf.mult * MIN_MS;
        let anchor = D * DAY_MS;
        let cap = anchor + DAY_MS;
        if (inSession) {
          anchor = ses.spanStart;
          cap = ses.spanEnd;
        } else if (L < anchor) {
          anchor -= DAY_MS;
        }
        startL = anchor + Math.floor((L - anchor) / len) * len;
        if (withEnd) endL = Math.min(startL + len, cap > startL ? cap : startL + len);
        break;
      }
      case "D": {
        let first = D;
        if (tf.mult > 1) {
          const idx = this.sessionDayIndex(D);
          const k = idx - (idx % tf.mult);
          first = this.nthSessionDayOfYear(D, k);
        }
        startL = this.dayOpen(first);
        if (withEnd) endL = this.dayClose(tf.mult > 1 ? this.lastDayOfGroup(first, tf.mult) : D);
        break;
      }
      case "W": {
        const monday = D - ((weekdayOfDay(D) + 6) % 7);
        let first = monday;
        if (tf.mult > 1) {
          const ymd = civilFromDays(monday);
          const jan1 = daysFromCivil(Math.floor(ymd / 10000), 1, 1);
          const firstMonday = jan1 + ((8 - weekdayOfDay(jan1)) % 7);
          const idx = Math.floor((monday - firstMonday) / 7);
          first = firstMonday + (idx - (idx % tf.mult)) * 7;
        }
        startL = this.dayOpen(this.firstSessionDayFrom(first, 7));
        if (withEnd) endL = this.dayClose(this.lastSessionDayBefore(first + 7 * tf.mult, 7));
        break;
      }
      case "M": {
        const ymd = civilFromDays(D);
        const y = Math.floor(ymd / 10000);
        const m = Math.floor(ymd / 100) % 100;
        const m0 = m - 1 - ((m - 1) % tf.mult);
        const first = daysFromCivil(y, m0 + 1, 1);
        startL = this.dayOpen(this.firstSessionDayFrom(first, 31));
        if (withEnd) endL = this.dayClose(this.lastSessionDayBefore(daysFromCivil(y, m0 + 1 + tf.mult, 1), 31));
        break;
      }
    }
    this.periodStart = toUtc(zone, startL, off);
    this.periodEnd = withEnd ? toUtc(zone, endL, off) : NaN;
    if (calendar) {
      this.memoTf = tf;
      this.memoDay = D;
      this.memoStart = this.periodStart;
      this.memoEnd = this.periodEnd;
    }
    return this.periodStart;
  }

  private memoTf: Timeframe | null = null;
  private memoDay = NaN;
  private memoStart = NaN;
  private memoEnd = NaN;

  /** The open (local ms) of trading day D: its session span start, or midnight when D has none. */
  private dayOpen(D: number): number {
    return this.session.span(D) ? this.session.spanStart : D * DAY_MS;
  }

  private dayClose(D: number): number {
    return this.session.span(D) ? this.session.spanEnd : (D + 1) * DAY_MS;
  }

  /** 0-based index of day D among its year's session days (every day when D itself is not one). */
  private sessionDayIndex(D: number): number {
    const y = Math.floor(civilFromDays(D) / 10000);
    const jan1 = daysFromCivil(y, 1, 1);
    const mask = this.session.dayMask;
    if (mask === 0 || !this.session.isSessionDay(D)) return D - jan1;
    let count = 0;
    // Whole weeks at once, then the remainder day by day.
    const days = D - jan1;
    const perWeek = popcount(mask);
    count += Math.floor(days / 7) * perWeek;
    for (let d = jan1 + Math.floor(days / 7) * 7; d < D; d++) if (this.session.isSessionDay(d)) count++;
    return count;
  }

  /** The day of D's year whose session-day index is k. */
  private nthSessionDayOfYear(D: number, k: number): number {
    const y = Math.floor(civilFromDays(D) / 10000);
    const jan1 = daysFromCivil(y, 1, 1);
    if (this.session.dayMask === 0 || !this.session.isSessionDay(D)) return jan1 + k;
    let d = D;
    let idx = this.sessionDayIndex(D);
    while (idx > k) {
      d--;
      if (this.session.isSessionDay(d)) idx--;
    }
    return d;
  }

  /** Last day of a group of n session days starting at `first` (within its year). */
  private lastDayOfGroup(first: number, n: number): number {
    const y = Math.floor(civilFromDays(first) / 10000);
    const nextJan1 = daysFromCivil(y + 1, 1, 1);
    let d = first;
    let left = n - 1;
    while (left > 0 && d + 1 < nextJan1) {
      d++;
      if (this.session.dayMask === 0 || this.session.isSessionDay(d)) left--;
    }
    return d;
  }

  private firstSessionDayFrom(d: number, within: number): number {
    for (let i = 0; i < within; i++) if (this.session.isSessionDay(d + i)) return d + i;
    return d;
  }

  private lastSessionDayBefore(end: number, within: number): number {
    for (let i = 1; i <= within; i++) if (this.session.isSessionDay(end - i)) return end - i;
    return end - 1;
  }
}

/** Local ms -> UTC, trying the offset already known (`off`, usually right) before the full search. */
export function toUtc(zone: Zone, local: number, off: number): number {
  if (zone.fixed) return local - off;
  const guess = local - off;
  if (zone.offsetMs(guess) === off && zone.offsetMs(guess - 3_600_000) === off) return guess;
  return localToUtc(zone, local);
}

function popcount(x: number): number {
  let n = 0;
  while (x) {
    n += x & 1;
    x >>>= 1;
  }
  return n;
}

// ---------------------------------------------------------------- convenience helpers for other modules

const calcCache = new Map<string, PeriodCalc>();

/** A timeframe, zone or session given as an object or as its text ("60", "America/New_York", "24x7"). */
export type TimeframeLike = Timeframe | string;
export type ZoneLike = Zone | string;
export type SessionLike = Session | string;

function asTf(tf: TimeframeLike): Timeframe {
  if (typeof tf !== "string") return tf;
  const p = parseTimeframe(tf);
  if (!p) throw new RangeError(`invalid timeframe "${tf}"`);
  return p;
}
function asZone(z: ZoneLike): Zone {
  if (typeof z !== "string") return z;
  const p = getZone(z);
  if (!p) throw new RangeError(`invalid time zone "${z}"`);
  return p;
}
function asSession(s: SessionLike): Session {
  if (typeof s !== "string") return s;
  const p = parseSession(s);
  if (!p) throw new RangeError(`invalid session "${s}"`);
  return p;
}

let lastCalc: PeriodCalc | null = null;

function calcFor(zone: Zone, session: Session, barMs: number): PeriodCalc {
  const l = lastCalc;
  if (l !== null && l.zone === zone && l.session === session && l.barMs === barMs) return l;
  lastCalc = calcForKeyed(zone, session, barMs);
  return lastCalc;
}

function calcForKeyed(zone: Zone, session: Session, barMs: number): PeriodCalc {
  const key = `${zone.name}|${session.text}|${barMs}`;
  let c = calcCache.get(key);
  if (!c) {
    if (calcCache.size > 64) calcCache.clear();
    c = new PeriodCalc(zone, session, barMs);
    calcCache.set(key, c);
  }
  return c;
}

/**
 * Start (UTC ms) of the `tf` period holding the bar that opens at `time`: the open time of the
 * higher-timeframe bar (what `time(tf)` returns). `barMs` is the chart bar length (0 = instant).
 * Session-anchored ta.vwap and request.security use it; NaN for a tick timeframe. Strings are
 * accepted for tf/zone/session (a malformed one throws a RangeError: validate user input first).
 */
export function periodStart(
  time: number,
  tf: TimeframeLike,
  zone: ZoneLike = UTC,
  session: SessionLike = SESSION_24X7,
  barMs = 0,
): number {
  return calcFor(asZone(zone), asSession(session), barMs).start(time, asTf(tf));
}

/** End (UTC ms, exclusive) of that period: what `time_close(tf)` returns. */
export function periodEnd(
  time: number,
  tf: TimeframeLike,
  zone: ZoneLike = UTC,
  session: SessionLike = SESSION_24X7,
  barMs = 0,
): number {
  const c = calcFor(asZone(zone), asSession(session), barMs);
  c.start(time, asTf(tf), true);
  return c.periodEnd;
}

/** timeframe.change between two bar open times: true when they fall in different `tf` periods. */
export function timeframeChange(
  prevTime: number,
  time: number,
  tf: TimeframeLike,
  zone: ZoneLike = UTC,
  session: SessionLike = SESSION_24X7,
  barMs = 0,
): boolean {
  if (prevTime !== prevTime) return false;
  const c = calcFor(asZone(zone), asSession(session), barMs);
  const p = asTf(tf);
  const a = c.start(prevTime, p);
  return c.start(time, p) !== a;
}

/**
 * Does the bar opening at `time` start a new trading-day session? True when its trading day
 * differs from the previous bar's; for the first bar (prevTime NaN), when a session opens inside it.
 */
export function isSessionStart(
  prevTime: number,
  time: number,
  zoneLike: ZoneLike = UTC,
  sessionLike: SessionLike = SESSION_24X7,
  barMs = 0,
): boolean {
  const zone = asZone(zoneLike);
  const session = asSession(sessionLike);
  const L = time + zone.offsetMs(time);
  if (!session.barDay(L, L + Math.max(barMs, 1))) return false;
  const day = session.day;
  const spanStart = session.spanStart;
  if (prevTime !== prevTime) return spanStart >= L && spanStart < L + Math.max(barMs, 1);
  const P = prevTime + zone.offsetMs(prevTime);
  if (!session.barDay(P, Math.min(P + Math.max(barMs, 1), L))) return true;
  return session.day !== day;
}

/**
 * Close time (UTC ms) of a chart bar, as time_close gives it: open + bar length for intraday
 * timeframes, cut at the end of the session range the bar opens in; the end of the period (the
 * last trading day's session close) for D/W/M. NaN for ticks.
 */
export function barTimeClose(
  time: number,
  chartTfLike: TimeframeLike,
  zone: ZoneLike = UTC,
  session: SessionLike = SESSION_24X7,
): number {
  const chartTf = asTf(chartTfLike);
  if (chartTf.unit === "T") return NaN;
  const z = asZone(zone);
  const ses = asSession(session);
  if (!isIntraday(chartTf)) return periodEnd(time, chartTf, z, ses, 0);
  const end = time + nominalMs(chartTf);
  const off = z.offsetMs(time);
  if (!ses.locate(time + off)) return end;
  const cut = toUtc(z, ses.rangeEnd, off);
  return cut < end ? cut : end;
}
