// TradingView session strings and the trading days they define.
//
// Grammar (TradingView's, plus "|" to give different days to different ranges):
//   "24x7" | group ("|" group)*      group = range ("," range)* [":" days]
//   range = "HHMM-HHMM"              days = digits 1..7, 1 = Sunday .. 7 = Saturday (default: all)
// A range whose start is not before its end ("1700-1700", "1800-1600") is overnight: it opens on the
// calendar day BEFORE the trading day it belongs to, and `days` name the trading day (the day the
// session ends), as in TradingView ("1700-1700:23456" = forex, Monday's session opens Sunday 17:00).
// "0000-0000" is the whole calendar day. All times are wall-clock times of the session's time zone;
// this module works on "local ms" (wall-clock time expressed as ms since 1970-01-01, see tz.localMs).

import { weekdayOfDay } from "./tz.js";

const MIN_MS = 60_000;
const DAY_MS = 86_400_000;

export interface SessionRange {
  /** Minutes after local midnight, 0..1440. */
  start: number;
  end: number;
  /** Opens on the calendar day before its trading day. */
  overnight: boolean;
  /** Bit (1 << weekday) per trading weekday, 0 = Sunday .. 6 = Saturday. */
  days: number;
}

export class Session {
  /** Union of the ranges' day bits. */
  readonly dayMask: number;
  // Scratch results of the last lookup (avoid allocating per bar).
  /** Trading day (local day number) of the last successful `locate` / `barDay`. */
  day = NaN;
  /** Local ms bounds of the matched range. */
  rangeStart = NaN;
  rangeEnd = NaN;
  /** Local ms bounds of the whole trading day (first range start .. last range end). */
  spanStart = NaN;
  spanEnd = NaN;

  /**
   * No instant lies in two ranges (of the same or different trading days): then the range `locate`
   * finds for an instant is the only one holding it, and serves every other instant inside it.
   */
  readonly disjoint: boolean;

  constructor(
    readonly text: string,
    readonly ranges: readonly SessionRange[],
    readonly is24x7: boolean,
  ) {
    let mask = 0;
    for (const r of ranges) mask |= r.days;
    this.dayMask = mask;
    this.disjoint = rangesDisjoint(ranges);
  }

  /** Is local day number `day` a trading day of this session? */
  isSessionDay(day: number): boolean {
    return (this.dayMask & (1 << weekdayOfDay(day))) !== 0;
  }

  // What the last lookups found, for the next instant (bars come in time order, and a session filter
  // is asked about every bar): the fields a hit set (disjoint sessions only: there the range holding
  // an instant is the only one, so it is the answer for every instant inside it), and
  // [gapStart, gapEnd), instants a miss proved to lie outside every range.
  private readonly hit: LookupFields = {
    day: Number.NaN,
    rangeStart: Number.NaN,
    rangeEnd: Number.NaN,
    spanStart: Number.NaN,
    spanEnd: Number.NaN,
  };
  private gapStart = Number.NaN;
  private gapEnd = Number.NaN;

  /**
   * Finds the range containing local instant L. On success sets day/rangeStart/rangeEnd (and the
   * trading day's span) and returns true.
   */
  locate(L: number): boolean {
    if (L >= this.hit.rangeStart && L < this.hit.rangeEnd) {
      copyLookup(this, this.hit);
      return true;
    }
    if (L >= this.gapStart && L < this.gapEnd) return false;
    if (this.search(L)) {
      if (this.disjoint) copyLookup(this.hit, this);
      return true;
    }
    // No range starts in (L, next) and none holding L began at or before it, so none holds any
    // instant of [L, next) (a next beyond nextStart's horizon, Infinity, is not remembered).
    if (Number.isFinite(L)) {
      const next = this.nextStart(L);
      if (next !== Infinity) {
        this.gapStart = L;
        this.gapEnd = next;
      }
    }
    return false;
  }

  /** locate without the remembered answers: the day-by-day search. */
  private search(L: number): boolean {
    // (an infinite L would never leave the day loop below: Infinity + 1 === Infinity)
    if (!Number.isFinite(L)) return false;
    const cal = Math.floor(L / DAY_MS);
    // A trading day D covers at most [D-1 00:00, D+1 00:00): try the calendar day, then the next one.
    for (let D = cal; D <= cal + 1; D++) {
      const bit = 1 << weekdayOfDay(D);
      for (const r of this.ranges) {
        if ((r.days & bit) === 0) continue;
        const s = (r.overnight ? (D - 1) * DAY_MS : D * DAY_MS) + r.start * MIN_MS;
        const e = D * DAY_MS + r.end * MIN_MS;
        if (L >= s && L < e) {
          this.rangeStart = s;
          this.rangeEnd = e;
          this.day = D;
          this.span(D);
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The trading day of a bar [L, Lc) (local ms): the session holding its open, else the session
   * that opens inside the bar (a 60m bar at 17:00 holds a 17:05 open). Sets the same fields as
   * `locate`; returns false when the bar lies outside every session.
   */
  barDay(L: number, Lc: number): boolean {
    if (this.locate(L)) return true;
    const next = this.nextStart(L);
    if (next < Lc) return this.locate(next);
    return false;
  }

  /** Sets spanStart/spanEnd for trading day D; false when D is not a trading day. */
  span(D: number): boolean {
    const bit = 1 << weekdayOfDay(D);
    let s = Infinity;
    let e = -Infinity;
    for (const r of this.ranges) {
      if ((r.days & bit) === 0) continue;
      const rs = (r.overnight ? (D - 1) * DAY_MS : D * DAY_MS) + r.start * MIN_MS;
      const re = D * DAY_MS + r.end * MIN_MS;
      if (rs < s) s = rs;
      if (re > e) e = re;
    }
    if (s === Infinity) {
      this.spanStart = this.spanEnd = NaN;
      return false;
    }
    this.spanStart = s;
    this.spanEnd = e;
    return true;
  }

  /** The earliest range start strictly after local instant L (within 9 days), or Infinity. */
  nextStart(L: number): number {
    // (-Infinity would never leave the day loop: -Infinity + 1 === -Infinity)
    if (!Number.isFinite(L)) return Infinity;
    const cal = Math.floor(L / DAY_MS);
    let best = Infinity;
    // A trading day D opens no earlier than D-1 00:00: stop once no later day can beat `best`.
    for (let D = cal; D <= cal + 9 && (D - 1) * DAY_MS < best; D++) {
      const bit = 1 << weekdayOfDay(D);
      for (const r of this.ranges) {
        if ((r.days & bit) === 0) continue;
        const s = (r.overnight ? (D - 1) * DAY_MS : D * DAY_MS) + r.start * MIN_MS;
        if (s > L && s < best) best = s;
      }
    }
    return best;
  }

  /** The latest range end at or before local instant L (within 9 days), or -Infinity. */
  prevEnd(L: number): number {
    if (!Number.isFinite(L)) return -Infinity;
    const cal = Math.floor(L / DAY_MS);
    let best = -Infinity;
    // A trading day D closes no later than D+1 00:00: stop once no earlier day can beat `best`.
    for (let D = cal + 1; D >= cal - 8 && (D + 1) * DAY_MS > best; D--) {
      const bit = 1 << weekdayOfDay(D);
      for (const r of this.ranges) {
        if ((r.days & bit) === 0) continue;
        const e = D * DAY_MS + r.end * MIN_MS;
        if (e <= L && e > best) best = e;
      }
    }
    return best;
  }
}

/** The fields a successful lookup sets. */
interface LookupFields {
  day: number;
  rangeStart: number;
  rangeEnd: number;
  spanStart: number;
  spanEnd: number;
}

function copyLookup(to: LookupFields, from: LookupFields): void {
  to.day = from.day;
  to.rangeStart = from.rangeStart;
  to.rangeEnd = from.rangeEnd;
  to.spanStart = from.spanStart;
  to.spanEnd = from.spanEnd;
}

const WEEK_MIN = 7 * 1440;

/** Whether the ranges' copies over a week (the pattern repeats weekly) overlap nowhere, wrap included. */
function rangesDisjoint(ranges: readonly SessionRange[]): boolean {
  const spans: [number, number][] = [];
  for (const r of ranges) {
    for (let w = 0; w < 7; w++) {
      if ((r.days & (1 << w)) === 0) continue;
      // minutes of the week; an overnight range opens the calendar day before its trading day
      let s = w * 1440 + (r.overnight ? r.start - 1440 : r.start);
      let e = w * 1440 + r.end;
      if (s < 0) {
        s += WEEK_MIN;
        e += WEEK_MIN;
      }
      if (e > WEEK_MIN) {
        spans.push([s, WEEK_MIN], [0, e - WEEK_MIN]);
      } else spans.push([s, e]);
    }
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) if (spans[i]![0] < spans[i - 1]![1]) return false;
  return true;
}

const cache = new Map<string, Session | null>();

/** Parses a session string; null when it is malformed. Cached per string. */
export function parseSession(text: string | null | undefined): Session | null {
  if (text == null) return null;
  let s = cache.get(text);
  if (s !== undefined) return s;
  s = parseUncached(text);
  if (cache.size > 1000) cache.clear();
  cache.set(text, s);
  return s;
}

const ALL_DAYS = 0b1111111;

function parseUncached(text: string): Session | null {
  const src = text.trim();
  if (src === "") return null;
  if (/^24x7$/i.test(src)) {
    return new Session(src, [{ start: 0, end: 1440, overnight: false, days: ALL_DAYS }], true);
  }
  const ranges: SessionRange[] = [];
  for (const group of src.split("|")) {
    const [times, dayText, extra] = group.split(":");
    if (extra !== undefined || times === undefined) return null;
    let days = ALL_DAYS;
    if (dayText !== undefined) {
      const dt = dayText.trim();
      if (!/^[1-7]+$/.test(dt)) return null;
      days = 0;
      for (const ch of dt) days |= 1 << (ch.charCodeAt(0) - 49);
    }
    for (const part of times.split(",")) {
      const m = /^\s*(\d{2})(\d{2})\s*-\s*(\d{2})(\d{2})\s*$/.exec(part);
      if (!m) return null;
      const start = +m[1]! * 60 + +m[2]!;
      let end = +m[3]! * 60 + +m[4]!;
      if (+m[2]! > 59 || +m[4]! > 59 || start > 1440 || end > 1440) return null;
      if (start === 1440) return null;
      let overnight = start >= end;
      if (start === 0 && end === 0) {
        end = 1440;
        overnight = false;
      }
      ranges.push({ start, end, overnight, days });
    }
  }
  if (ranges.length === 0) return null;
  const full = ranges.length === 1 && ranges[0]!.start === 0 && ranges[0]!.end === 1440 && ranges[0]!.days === ALL_DAYS;
  return new Session(src, ranges, full);
}

/** The session every symbol has unless told otherwise (crypto: around the clock). */
export const SESSION_24X7: Session = parseSession("24x7")!;
