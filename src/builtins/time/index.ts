// Time builtins: the bar-time variables (time, time_close, time_tradingday, timenow, last_bar_time,
// year .. second in the exchange zone), their function forms with (time, timezone), timestamp() in
// every overload, the time()/time_close() functions with timeframe/session/timezone/bars_back, and
// the dayofweek.* constants.

import type { BuiltinTable, CallSite, ConstantTable, ExecContext, VariableTable } from "../types.js";
import {
  dayOfMonthOf,
  dayOfWeekOf,
  hourOf,
  minuteOf,
  monthOf,
  secondOf,
  weekOfYearOf,
  yearOf,
  zonedToUtc,
  type Zone,
} from "../../core/tz.js";
import { barTimeClose } from "../../core/time-frames.js";
import { parseDateString } from "../../core/time-parse.js";
import { timeEnv, zoneArg } from "./env.js";
import { periodTime } from "./period-time.js";

const DAY_MS = 86_400_000;

type FieldFn = (t: number, zone: Zone) => number;

/** A civil-field builtin pair: the variable (bar open in the exchange zone) and f(time, timezone). */
function field(name: string, fn: FieldFn): { fn: BuiltinTable[string]; v: VariableTable[string] } {
  return {
    v: { name, get: (ctx) => fn(ctx.time, timeEnv(ctx).zone) },
    fn: {
      name,
      impl: (ctx, args) => {
        const t = args[0];
        if (typeof t !== "number" || t !== t) return NaN;
        return fn(t, zoneArg(ctx, args[1]));
      },
    },
  };
}

const FIELDS: Record<string, FieldFn> = {
  year: yearOf,
  month: monthOf,
  weekofyear: weekOfYearOf,
  dayofmonth: dayOfMonthOf,
  dayofweek: dayOfWeekOf,
  hour: hourOf,
  minute: minuteOf,
  second: secondOf,
};

/** An optional numeric argument: omitted (undefined or null slot) gives the default. */
function num(v: unknown, dflt: number): number {
  if (v === undefined || v === null) return dflt;
  return typeof v === "number" ? v : NaN;
}

/** Is any argument after the first one given? */
function restGiven(args: any[]): boolean {
  for (let i = 1; i < args.length; i++) if (args[i] !== undefined && args[i] !== null) return true;
  return false;
}

/**
 * timestamp() overloads, told apart by the argument values. Backends hand arguments either
 * positionally or in builtins.json's union order (dateString, year, month, day, hour, minute,
 * second, timezone) with unfilled slots undefined or null:
 *   (dateString)                           a string first and nothing else
 *   (timezone, year, month, day, h, m, s)   a string first, then numbers
 *   [_, timezone, year, ...]                the timezone form laid out over the (year, ...) slots
 *   (year, month, day, h, m, s)             a number first
 *   [_, year, ..., second, timezone]        union order (named arguments)
 */
function timestamp(ctx: ExecContext, args: any[], site: CallSite): number {
  const a0 = args[0];
  if (typeof a0 === "string" && !restGiven(args)) {
    // A date string is usually the same on every bar: parse it once per call site.
    const st = site.state as { text: string; value: number } | undefined;
    if (st && st.text === a0) return st.value;
    const t = parseDateString(a0);
    if (t !== t)
      ctx.runtimeError(
        `timestamp(): cannot parse the date string "${a0}" (expected e.g. "2020-02-20T15:30:00+02:00" or "20 Feb 2020 15:30 +0200")`,
      );
    site.state = { text: a0, value: t };
    return t;
  }
  let zone: Zone;
  let p: number; // index of `year`
  if (typeof a0 === "string") {
    zone = zoneArg(ctx, a0);
    p = 1;
  } else if (typeof a0 === "number") {
    zone = zoneArg(ctx, args[7]);
    p = 0;
  } else if (typeof args[1] === "string") {
    zone = zoneArg(ctx, args[1]);
    p = 2;
  } else {
    zone = zoneArg(ctx, args[7]);
    p = 1;
  }
  const y = num(args[p], NaN);
  const mo = num(args[p + 1], NaN);
  const d = num(args[p + 2], NaN);
  const h = num(args[p + 3], 0);
  const mi = num(args[p + 4], 0);
  const s = num(args[p + 5], 0);
  if (y !== y || mo !== mo || d !== d || h !== h || mi !== mi || s !== s) return NaN;
  return zonedToUtc(zone, Math.trunc(y), Math.trunc(mo), Math.trunc(d), Math.trunc(h), Math.trunc(mi), Math.trunc(s));
}

/**
 * time_tradingday: 00:00 UTC of the trading day the bar belongs to (an overnight session's Sunday
 * 17:00 bar belongs to Monday); above "1D", of the last trading day inside the bar.
 */
function tradingDayTime(ctx: ExecContext): number {
  const env = timeEnv(ctx);
  const tf = env.chartTf;
  let t = ctx.time;
  if (tf.unit === "W" || tf.unit === "M" || (tf.unit === "D" && tf.mult > 1)) {
    env.calc.start(t, tf, true);
    t = env.calc.periodEnd - 1;
    const L = t + env.zone.offsetMs(t);
    return (env.session.locate(L) ? env.session.day : Math.floor(L / DAY_MS)) * DAY_MS;
  }
  const L = t + env.zone.offsetMs(t);
  const day = env.session.barDay(L, L + Math.max(env.barMs, 1)) ? env.session.day : Math.floor(L / DAY_MS);
  return day * DAY_MS;
}

/**
 * time_close: the scheduled close of the bar, from the exchange session: open + timeframe for
 * intraday bars, cut at the session's end, and the session close for daily and longer bars (16:00
 * New York for a stock's daily bar, not the next bar's open). ctx.timeClose is the fallback.
 */
function timeClose(ctx: ExecContext): number {
  const env = timeEnv(ctx);
  const tc = barTimeClose(ctx.time, env.chartTf, env.zone, env.session);
  return tc === tc ? tc : ctx.timeClose;
}

/**
 * timenow: the wall-clock time. Historical bars all see the time the run started (one value per run,
 * so two evaluations of the same run agree bar for bar); realtime ticks see the clock.
 */
function timeNow(ctx: ExecContext): number {
  if (ctx.isRealtime) return Date.now();
  let t = ctx.ext["time.now"];
  if (typeof t !== "number") ctx.ext["time.now"] = t = Date.now();
  return t as number;
}

export const functions: BuiltinTable = {
  timestamp: { name: "timestamp", impl: timestamp, stateful: true },
  time: { name: "time", impl: (ctx, args, site: CallSite) => periodTime(ctx, args, site, false), stateful: true },
  time_close: {
    name: "time_close",
    impl: (ctx, args, site: CallSite) => periodTime(ctx, args, site, true),
    stateful: true,
  },
};

export const variables: VariableTable = {
  time: { name: "time", get: (ctx) => ctx.time },
  time_close: { name: "time_close", get: timeClose },
  time_tradingday: { name: "time_tradingday", get: tradingDayTime },
  timenow: { name: "timenow", get: timeNow },
  last_bar_time: {
    name: "last_bar_time",
    get: (ctx) => {
      const col = ctx.columns.time;
      return col.length > 0 ? col[col.length - 1]! : NaN;
    },
  },
};

for (const [name, fn] of Object.entries(FIELDS)) {
  const f = field(name, fn);
  functions[name] = f.fn;
  variables[name] = f.v;
}

export const constants: ConstantTable = {
  "dayofweek.sunday": 1,
  "dayofweek.monday": 2,
  "dayofweek.tuesday": 3,
  "dayofweek.wednesday": 4,
  "dayofweek.thursday": 5,
  "dayofweek.friday": 6,
  "dayofweek.saturday": 7,
};
