// Symbol description: defaults (service.md 1), merging the user's syminfo, and loading it from the
// JSON / TOML files the conformance data uses (PyneCore symbol.toml, settings.json "symbol").
//
// symbol.toml opening hours use Python weekdays (0 = Monday .. 6 = Sunday) and exchange-local
// "HH:MM:SS" times; they become a TradingView session string (days 1 = Sunday .. 7 = Saturday):
// each session end closes a trading day named by the end's weekday, opened by the session start
// before it. A start that follows the previous end by at most 15 minutes is a daily break inside
// continuous trading (forex closes 16:59:50 and reopens 17:05 New York): the day then opens at the
// previous close, which is how TradingView anchors forex days at 17:00.

import { parse as parseToml } from "smol-toml";
import type { SymInfo } from "./result.js";
import { getZone } from "./tz.js";
import { parseSession } from "./time-sessions.js";

export type ResolvedSymInfo = Required<Pick<SymInfo, "mintick" | "pointvalue" | "timezone" | "currency" | "type">> &
  SymInfo;

export const DEFAULT_SYMINFO: Readonly<ResolvedSymInfo> = Object.freeze({
  prefix: "",
  ticker: "CHART",
  mintick: 0.01,
  pointvalue: 1,
  currency: "USD",
  timezone: "UTC",
  type: "crypto",
  session: "24x7",
});

/** Decimal places of a tick size (0.025 -> 3). */
function decimals(x: number): number {
  for (let d = 0; d <= 12; d++) {
    const s = x * 10 ** d;
    if (Math.abs(s - Math.round(s)) < 1e-9 * Math.max(1, s)) return d;
  }
  return 12;
}

/**
 * The run's syminfo: defaults, then the `PREFIX:TICKER` of `symbol`, then the user's fields (which
 * win). mintick, pricescale and minmove are completed from one another (mintick = minmove / pricescale).
 */
export function resolveSymInfo(symbol = "CHART", user?: SymInfo | null): ResolvedSymInfo {
  const out: ResolvedSymInfo = { ...DEFAULT_SYMINFO };
  const sym = String(symbol ?? "CHART");
  const i = sym.indexOf(":");
  if (i >= 0) {
    out.prefix = sym.slice(0, i);
    out.ticker = sym.slice(i + 1);
  } else if (sym !== "") {
    out.ticker = sym;
  }
  if (user) {
    for (const [k, v] of Object.entries(user))
      if (v !== undefined && v !== null) (out as Record<string, unknown>)[k] = v;
  }
  const userTick = typeof user?.mintick === "number" && user.mintick > 0;
  const ps = typeof out.pricescale === "number" && out.pricescale > 0 ? out.pricescale : undefined;
  const mm = typeof out.minmove === "number" && out.minmove > 0 ? out.minmove : undefined;
  if (!userTick && ps !== undefined) out.mintick = (mm ?? 1) / ps;
  if (ps === undefined) {
    const d = decimals(out.mintick);
    out.pricescale = 10 ** d;
    out.minmove = mm ?? Math.round(out.mintick * 10 ** d);
  } else if (mm === undefined) {
    out.minmove = Math.round(out.mintick * ps);
  }
  return out;
}

/**
 * Problems that make a syminfo unusable, as one message (null when it is fine): an unknown time
 * zone, a malformed session string, a non-positive mintick or point value. Hosts report it as a
 * data error instead of silently falling back to UTC / 24x7.
 */
export function validateSymInfo(si: SymInfo): string | null {
  const problems: string[] = [];
  if (si.timezone !== undefined && (typeof si.timezone !== "string" || getZone(si.timezone) === null)) {
    problems.push(
      `syminfo.timezone "${String(si.timezone)}" is not a time zone (use an IANA name such as "America/New_York" or "UTC+3")`,
    );
  }
  if (si.session !== undefined && (typeof si.session !== "string" || parseSession(si.session) === null)) {
    problems.push(
      `syminfo.session "${String(si.session)}" is not a session string (e.g. "0930-1600:23456", "1700-1700:23456", "24x7")`,
    );
  }
  for (const k of ["mintick", "pointvalue", "pricescale", "minmove"] as const) {
    const v = si[k];
    if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v > 0))
      problems.push(`syminfo.${k} must be a positive number (got ${String(v)})`);
  }
  return problems.length ? problems.join("; ") : null;
}

// ---------------------------------------------------------------- files

export interface LoadedSymInfo {
  syminfo: SymInfo;
  /** Timeframe the file records ("period" / "timeframe"), when any. */
  timeframe?: string;
}

export interface SymInfoError {
  error: string;
}

const SYMBOL_RE = /^[\w.!&^-]+:[\w.!&^/-]+$/;

/** Maps a symbol table (TOML [symbol], settings.json "symbol", or a flat object) into SymInfo. */
export function symInfoFromObject(obj: Record<string, unknown>): LoadedSymInfo {
  const src = (obj.symbol && typeof obj.symbol === "object" ? obj.symbol : obj) as Record<string, unknown>;
  const si: SymInfo = {};
  const str = (k: string): string | undefined =>
    typeof src[k] === "string" && src[k] !== "" ? (src[k] as string) : undefined;
  const num = (k: string): number | undefined =>
    typeof src[k] === "number" && Number.isFinite(src[k]) ? (src[k] as number) : undefined;
  for (const k of [
    "prefix",
    "ticker",
    "description",
    "currency",
    "basecurrency",
    "timezone",
    "volumetype",
    "country",
    "sector",
    "industry",
    "isin",
    "root",
  ]) {
    const v = str(k);
    if (v !== undefined) si[k] = v;
  }
  for (const k of [
    "mintick",
    "pricescale",
    "minmove",
    "pointvalue",
    "mincontract",
    "avg_spread",
    "taker_fee",
    "maker_fee",
  ]) {
    const v = num(k);
    if (v !== undefined) si[k] = v;
  }
  const type = str("type");
  if (type !== undefined) si.type = type.split(/[\s(]/)[0]!; // "crypto (PyneCore test default; ...)" -> "crypto"
  const tv = str("tv_symbol") ?? str("symbol");
  if (tv !== undefined && SYMBOL_RE.test(tv)) {
    const i = tv.indexOf(":");
    si.prefix ??= tv.slice(0, i);
    si.ticker ??= tv.slice(i + 1);
  }
  const session = str("session") ?? sessionFromHours(obj, src);
  if (session !== undefined) si.session = session;
  for (const k of ["session_premarket", "session_postmarket"]) {
    const v = str(k);
    if (v !== undefined) si[k] = v;
  }
  const out: LoadedSymInfo = { syminfo: si };
  const tf = str("period") ?? str("timeframe");
  if (tf !== undefined) out.timeframe = tf;
  return out;
}

/** Loads syminfo from TOML text (PyneCore symbol.toml layout, or flat keys). */
export function parseSymInfoToml(text: string): LoadedSymInfo | SymInfoError {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(text) as Record<string, unknown>;
  } catch (e) {
    return { error: `symbol TOML: ${(e as Error).message}` };
  }
  return symInfoFromObject(doc);
}

/** Loads syminfo from JSON text (settings.json {"symbol": {...}} or a flat SymInfo object). */
export function parseSymInfoJson(text: string): LoadedSymInfo | SymInfoError {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `symbol JSON: ${(e as Error).message}` };
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { error: "symbol JSON: expected an object" };
  return symInfoFromObject(doc as Record<string, unknown>);
}

// ---------------------------------------------------------------- opening hours -> session string

interface DayTime {
  /** Minutes of the week, 0 = Sunday 00:00. */
  m: number;
}

/** "HH:MM[:SS]" -> minutes; seconds rounded up when `up` (an end at 16:59:50 closes at 17:00). */
function clockMinutes(s: unknown, up: boolean): number {
  if (typeof s !== "string") return NaN;
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  if (!m) return NaN;
  const sec = m[3] ? +m[3] : 0;
  return +m[1]! * 60 + +m[2]! + (up && sec > 0 ? 1 : 0);
}

/** Python weekday (0 = Monday) -> days since Sunday (0 = Sunday). */
function fromPyDay(d: unknown): number {
  return typeof d === "number" && d >= 0 && d <= 6 ? (d + 1) % 7 : NaN;
}

function entries(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter((x) => x && typeof x === "object") : [];
}

const WEEK = 7 * 1440;

function hhmm(min: number): string {
  const m = ((min % 1440) + 1440) % 1440;
  return String(Math.floor(m / 60)).padStart(2, "0") + String(m % 60).padStart(2, "0");
}

/** Builds a TradingView session string from opening_hours / session_starts / session_ends. */
export function sessionFromHours(doc: Record<string, unknown>, sym?: Record<string, unknown>): string | undefined {
  const pick = (k: string): Record<string, unknown>[] => entries(doc[k] ?? sym?.[k]);
  const hours = pick("opening_hours");
  const starts = pick("session_starts");
  const ends = pick("session_ends");
  if (hours.length === 0 && starts.length === 0) return undefined;

  // Around the clock: every day open 00:00-00:00.
  const fullDays = new Set<number>();
  for (const h of hours)
    if (clockMinutes(h.start, false) === 0 && clockMinutes(h.end, true) === 0) fullDays.add(fromPyDay(h.day));
  if (fullDays.size === 7) return "24x7";

  const groups = new Map<string, Set<number>>();
  const add = (range: string, day: number): void => {
    let s = groups.get(range);
    if (!s) groups.set(range, (s = new Set()));
    s.add(day);
  };

  if (starts.length > 0 && ends.length > 0) {
    const st: DayTime[] = starts
      .map((s) => ({ m: fromPyDay(s.day) * 1440 + clockMinutes(s.time, false) }))
      .filter((x) => x.m === x.m);
    const en: DayTime[] = ends
      .map((e) => {
        let mm = clockMinutes(e.time, true);
        if (mm === 0) mm = 1440; // an end at 00:00 closes the day
        return { m: fromPyDay(e.day) * 1440 + mm };
      })
      .filter((x) => x.m === x.m)
      .sort((a, b) => a.m - b.m);
    for (let i = 0; i < en.length; i++) {
      const end = en[i]!.m;
      const prevEnd = en[(i - 1 + en.length) % en.length]!.m;
      // The latest start before this end (circular week).
      let best = NaN;
      let bestGap = Infinity;
      for (const s of st) {
        const gap = (((end - s.m) % WEEK) + WEEK) % WEEK;
        if (gap > 0 && gap < bestGap) {
          bestGap = gap;
          best = s.m;
        }
      }
      if (best !== best) continue;
      let open = best;
      const breakLen = (((open - prevEnd) % WEEK) + WEEK) % WEEK;
      if (en.length > 1 && breakLen <= 15 && breakLen < bestGap) open = prevEnd;
      const tradingDay = Math.floor(((end - 1 + WEEK) % WEEK) / 1440);
      const endClock = end % 1440 === 0 ? 1440 : end % 1440;
      add(`${hhmm(open)}-${endClock === 1440 ? "2400" : hhmm(endClock)}`, tradingDay);
    }
  } else {
    for (const h of hours) {
      const day = fromPyDay(h.day);
      const s = clockMinutes(h.start, false);
      let e = clockMinutes(h.end, true);
      if (day !== day || s !== s || e !== e) continue;
      if (e === 0) e = 1440;
      add(`${hhmm(s)}-${e === 1440 ? "2400" : hhmm(e)}`, day);
    }
  }
  if (groups.size === 0) return undefined;
  const parts: string[] = [];
  for (const [range, days] of groups)
    parts.push(
      `${range}:${[...days]
        .sort()
        .map((d) => d + 1)
        .join("")}`,
    );
  return parts.join("|");
}
