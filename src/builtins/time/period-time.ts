// time(timeframe, session, timezone, bars_back, timeframe_bars_back) and time_close(...): the open
// (close) time of the higher-timeframe bar holding the current bar, na when the bar opens outside
// `session`. Two overloads share builtins.json's parameter list:
//   (timeframe, session, bars_back, timeframe_bars_back)            third argument a number
//   (timeframe, session, timezone, bars_back, timeframe_bars_back)  third argument a string
// With named arguments the list order is (timeframe, session, bars_back, timeframe_bars_back, timezone).

import type { CallSite, ExecContext } from "../types.js";
import { PeriodCalc, type Timeframe } from "../../core/time-frames.js";
import { parseSession, type Session } from "../../core/time-sessions.js";
import { localToUtc, type Zone } from "../../core/tz.js";
import { timeEnv, timeframeArg, zoneArg } from "./env.js";

interface PeriodSiteState {
  zone: Zone;
  session: Session;
  barMs: number;
  calc: PeriodCalc;
  /** The last session argument and its parse (a filter is usually one text for every bar). */
  sessText: unknown;
  filter: Session | null;
}

function calcFor(
  site: CallSite,
  zone: Zone,
  session: Session,
  barMs: number,
  sessText: unknown,
  filter: Session | null,
): PeriodCalc {
  const st = site.state as PeriodSiteState | undefined;
  if (st && st.zone === zone && st.session === session && st.barMs === barMs) {
    st.sessText = sessText;
    st.filter = filter;
    return st.calc;
  }
  const calc = new PeriodCalc(zone, session, barMs);
  site.state = { zone, session, barMs, calc, sessText, filter } satisfies PeriodSiteState;
  return calc;
}

function intArg(v: unknown): number {
  return typeof v === "number" && v === v ? Math.trunc(v) : 0;
}

export function periodTime(ctx: ExecContext, args: any[], site: CallSite, close: boolean): number {
  const env = timeEnv(ctx);
  const tf: Timeframe = timeframeArg(ctx, args[0], env);
  const sessText = args[1];
  let tzArg: unknown;
  let barsBack: number;
  let tfBarsBack: number;
  if (typeof args[2] === "string" || (args[2] === null && args.length >= 5 && typeof args[4] !== "string")) {
    tzArg = args[2];
    barsBack = intArg(args[3]);
    tfBarsBack = intArg(args[4]);
  } else {
    barsBack = intArg(args[2]);
    tfBarsBack = intArg(args[3]);
    tzArg = args[4];
  }
  const zone = tzArg === undefined || tzArg === null || tzArg === "" ? env.zone : zoneArg(ctx, tzArg);
  let filter: Session | null = null;
  if (typeof sessText === "string" && sessText !== "") {
    const st = site.state as PeriodSiteState | undefined;
    if (st !== undefined && st.sessText === sessText) filter = st.filter;
    else {
      filter = parseSession(sessText);
      // (also for bars outside the session, which return before calcFor)
      if (st !== undefined) {
        st.sessText = sessText;
        st.filter = filter;
      }
    }
    if (!filter)
      ctx.runtimeError(`Invalid session "${sessText}": expected e.g. "0930-1600", "0930-1600:23456" or "24x7"`);
  }
  const session = filter ?? env.session;

  // The bar whose time is used: bars_back > 0 looks back in the data, < 0 estimates a future bar.
  let t = ctx.time;
  if (barsBack > 0) {
    const i = ctx.barIndex - barsBack;
    if (i < 0) return NaN;
    t = ctx.columns.time[i]!;
  } else if (barsBack < 0) {
    t = futureBarTime(env.calc, env.chartTf, t, -barsBack);
  }
  if (t !== t) return NaN;

  if (filter) {
    const L = t + zone.offsetMs(t);
    if (!filter.locate(L)) return NaN;
  }

  const calc = calcFor(site, zone, session, env.barMs, sessText, filter);
  calc.start(t, tf, close);
  if (tfBarsBack > 0) {
    for (let k = 0; k < tfBarsBack; k++) calc.start(lastInSessionBefore(session, zone, calc.periodStart), tf, close);
  } else if (tfBarsBack < 0) {
    for (let k = 0; k < -tfBarsBack; k++) {
      calc.start(calc.periodStart, tf, true);
      calc.start(nextOpen(session, zone, calc.periodEnd), tf, close);
    }
  }
  return close ? calc.periodEnd : calc.periodStart;
}

/** The last instant before t that lies inside the session (t - 1 ms when there is none). */
function lastInSessionBefore(session: Session, zone: Zone, t: number): number {
  const L = t - 1 + zone.offsetMs(t - 1);
  if (session.locate(L)) return t - 1;
  const pe = session.prevEnd(L);
  return pe === -Infinity ? t - 1 : localToUtc(zone, pe) - 1;
}

/** The first instant at or after t that lies inside the session. */
function nextOpen(session: Session, zone: Zone, t: number): number {
  const L = t + zone.offsetMs(t);
  if (session.locate(L)) return t;
  const ns = session.nextStart(L);
  return ns === Infinity ? t : localToUtc(zone, ns);
}

/** Expected open time of the chart bar `n` bars after the one opening at t (skipping closed hours). */
function futureBarTime(calc: PeriodCalc, chartTf: Timeframe, t: number, n: number): number {
  let x = t;
  for (let k = 0; k < n; k++) {
    calc.start(x, chartTf, true);
    const end = calc.periodEnd;
    x = nextOpen(calc.session, calc.zone, end > x ? end : x + 60_000);
  }
  return x;
}
