// str.format_time: SimpleDateFormat-style patterns ("yyyy-MM-dd'T'HH:mm:ssZ") in a Pine time zone.

import { civilFromDays, getZone, UTC, type Zone } from "../../core/tz.js";

export const DEFAULT_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ssZ";

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const DAY_MS = 86_400_000;

function pad(n: number, width: number): string {
  const s = String(Math.abs(n));
  return (n < 0 ? "-" : "") + (s.length >= width ? s : "0".repeat(width - s.length) + s);
}

function offsetText(offMs: number, colon: boolean): string {
  const sign = offMs < 0 ? "-" : "+";
  const mins = Math.round(Math.abs(offMs) / 60_000);
  return sign + pad(Math.floor(mins / 60), 2) + (colon ? ":" : "") + pad(mins % 60, 2);
}

/**
 * Formats the instant `t` (ms) with `pattern` in time zone `tz` (Pine notation: "UTC-4", "GMT+0530",
 * IANA names). An unknown zone falls back to UTC. Letters are tokens, text in '...' is literal.
 */
export function formatTime(t: number, pattern: string = DEFAULT_TIME_FORMAT, tz: string | Zone | null = null): string {
  const zone = typeof tz === "string" ? (getZone(tz) ?? UTC) : (tz ?? UTC);
  const off = zone.offsetMs(t);
  const local = t + off;
  const day = Math.floor(local / DAY_MS);
  const msOfDay = local - day * DAY_MS;
  const ymd = civilFromDays(day);
  const year = Math.floor(ymd / 10000);
  const month = Math.floor(ymd / 100) % 100;
  const dom = ymd % 100;
  const hour = Math.floor(msOfDay / 3_600_000);
  const minute = Math.floor(msOfDay / 60_000) % 60;
  const second = Math.floor(msOfDay / 1000) % 60;
  const milli = msOfDay % 1000;
  const dow = (((day + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday
  let out = "";
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        out += "'";
        i += 2;
        continue;
      }
      const end = pattern.indexOf("'", i + 1);
      const stop = end < 0 ? pattern.length : end;
      out += pattern.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(ch)) {
      out += ch;
      i++;
      continue;
    }
    let n = 1;
    while (pattern[i + n] === ch) n++;
    i += n;
    switch (ch) {
      case "y":
      case "Y":
      case "u":
        if (ch === "u") out += String(dow === 0 ? 7 : dow);
        else out += n === 2 ? pad(year % 100, 2) : pad(year, n);
        break;
      case "M":
      case "L":
        out += n >= 4 ? MONTHS[month - 1]! : n === 3 ? MONTHS[month - 1]!.slice(0, 3) : pad(month, n);
        break;
      case "d":
        out += pad(dom, n);
        break;
      case "D": {
        const jan1 = Math.floor(ymd / 10000);
        const doy = day - daysFromYearStart(jan1) + 1;
        out += pad(doy, n);
        break;
      }
      case "E":
        out += n >= 4 ? DAYS[dow]! : DAYS[dow]!.slice(0, 3);
        break;
      case "a":
        out += hour < 12 ? "AM" : "PM";
        break;
      case "H":
        out += pad(hour, n);
        break;
      case "k":
        out += pad(hour === 0 ? 24 : hour, n);
        break;
      case "K":
        out += pad(hour % 12, n);
        break;
      case "h":
        out += pad(hour % 12 === 0 ? 12 : hour % 12, n);
        break;
      case "m":
        out += pad(minute, n);
        break;
      case "s":
        out += pad(second, n);
        break;
      case "S":
        out += pad(milli, n); // SimpleDateFormat: S is the millisecond count (SSS -> 045)
        break;
      case "Z":
        out += offsetText(off, false);
        break;
      case "X":
      case "x":
        out += off === 0 && ch === "X" ? "Z" : n >= 3 ? offsetText(off, true) : offsetText(off, false);
        break;
      case "z":
        out += off === 0 ? "UTC" : "GMT" + offsetText(off, true);
        break;
      default:
        out += ch.repeat(n);
    }
  }
  return out;
}

function daysFromYearStart(year: number): number {
  // Days from 1970-01-01 to January 1st of `year` (proleptic Gregorian).
  const y = year - 1;
  return 365 * (year - 1970) + (Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400)) - 477;
}
