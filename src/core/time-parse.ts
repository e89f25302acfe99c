// Date strings as timestamp(dateString) and data files give them: ISO 8601
// ("2020-02-20", "2011-10-10T14:48:00", "2025-01-01 01:23:45-05:00", "...Z"; "2020/02/20" too, as
// spreadsheets write it) and RFC 2822-like
// forms ("20 Feb 2020", "Feb 01 2020 22:10:05", "Tue, 04 Dec 1995 00:12:00 GMT+5", "... +0530",
// two-digit years "27 MAY 24 00:00 +0300", obsolete zone names "EST").
// Without a zone the time is read in `defaultZone` (UTC unless given), as TradingView does.

import { getZone, UTC, zonedToUtc, type Zone } from "./tz.js";

const MONTHS: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  january: 1,
  february: 2,
  march: 3,
  april: 4,
  june: 6,
  july: 7,
  august: 8,
  september: 9,
  october: 10,
  november: 11,
  december: 12,
};
const WEEKDAY = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?$/i;

const ISO_RE =
  /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(.*)$/i;
const TIME_RE = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?$/;

/** RFC 2822's obsolete US zone names (section 4.3), as hours from UTC. */
const RFC2822_ZONES: Record<string, number> = {
  UT: 0,
  EST: -5,
  EDT: -4,
  CST: -6,
  CDT: -5,
  MST: -7,
  MDT: -6,
  PST: -8,
  PDT: -7,
};

/**
 * RFC 2822 section 4.3's reading of a two- or three-digit year: 00-49 are 2000-2049, 50-99 and any
 * three-digit year add 1900 ("27 MAY 24" is 2024).
 */
function rfc2822Year(t: string): number {
  const y = +t;
  return t.length === 2 && y < 50 ? 2000 + y : 1900 + y;
}

/** A zone suffix: "Z", "UTC", "GMT+5", "+0530", "-05:00", "+3", "EST", or an IANA name. Null when unknown. */
export function parseZoneToken(tok: string): Zone | null {
  const s = tok.trim();
  if (s === "" || /^z$/i.test(s)) return UTC;
  const named = RFC2822_ZONES[s.toUpperCase()];
  if (named !== undefined) return getZone(named === 0 ? "UTC" : `UTC${named > 0 ? "+" : "-"}${Math.abs(named)}`);
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(s);
  if (m) return getZone(`UTC${m[1]}${m[2]}${m[3] ? ":" + m[3] : ""}`);
  const g = /^(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(s);
  if (g) return getZone(`UTC${g[1]}${g[2]}${g[3] ? ":" + g[3] : ""}`);
  return getZone(s);
}

function valid(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  return (
    mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h >= 0 && h <= 24 && mi >= 0 && mi <= 59 && s >= 0 && s <= 60 && y > 0
  );
}

function fractionMs(f: string | undefined): number {
  return f ? Math.round(Number("0." + f) * 1000) : 0;
}

/** Parses a date string to UTC ms; NaN when it is not a recognised date. */
export function parseDateString(text: string, defaultZone: Zone = UTC): number {
  const s = text.trim();
  const iso = ISO_RE.exec(s);
  if (iso) {
    const [, Y, Mo, D, h, mi, sec, frac, rest] = iso;
    const zone = rest ? parseZoneToken(rest) : defaultZone;
    if (!zone) return NaN;
    const y = +Y!,
      mo = +Mo!,
      d = +D!,
      hh = h ? +h : 0,
      mm = mi ? +mi : 0,
      ss = sec ? +sec : 0;
    if (!valid(y, mo, d, hh, mm, ss)) return NaN;
    return zonedToUtc(zone, y, mo, d, hh, mm, ss, fractionMs(frac));
  }
  // RFC 2822-like: tokens in any of the orders "DD MMM YYYY" / "MMM DD YYYY" / "MMM DD, YYYY".
  const toks = s
    .replace(/,/g, " ")
    .split(/\s+/)
    .filter((t) => t !== "");
  let i = 0;
  if (i < toks.length && WEEKDAY.test(toks[i]!)) i++;
  let day = NaN;
  let month = NaN;
  let year = NaN;
  for (let n = 0; n < 3 && i < toks.length; n++, i++) {
    const t = toks[i]!;
    const mName = MONTHS[t.toLowerCase().replace(/\.$/, "")];
    if (mName !== undefined && month !== month) month = mName;
    else if (/^\d{1,2}$/.test(t) && day !== day) day = +t;
    else if (/^\d{4}$/.test(t) && year !== year) year = +t;
    else if (/^\d{2,3}$/.test(t) && year !== year && day === day) year = rfc2822Year(t);
    else return NaN;
  }
  if (day !== day || month !== month || year !== year) return NaN;
  let hh = 0,
    mm = 0,
    ss = 0,
    ms = 0;
  if (i < toks.length) {
    const tm = TIME_RE.exec(toks[i]!);
    if (tm) {
      hh = +tm[1]!;
      mm = +tm[2]!;
      ss = tm[3] ? +tm[3] : 0;
      ms = fractionMs(tm[4]);
      i++;
    }
  }
  let zone: Zone | null = defaultZone;
  if (i < toks.length) {
    zone = parseZoneToken(toks.slice(i).join(""));
    if (!zone) return NaN;
  }
  if (!valid(year, month, day, hh, mm, ss)) return NaN;
  return zonedToUtc(zone, year, month, day, hh, mm, ss, ms);
}
