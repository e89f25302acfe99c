// The time environment of a run, derived once from ctx (exchange zone, symbol session, chart
// timeframe) and kept in ctx.ext so per-bar builtins do no parsing. Rebuilt only when the
// ExecContext's syminfo timezone/session or timeframe strings change.

import type { ExecContext } from "../types.js";
import { getZone, UTC, type Zone } from "../../core/tz.js";
import { parseSession, SESSION_24X7, type Session } from "../../core/time-sessions.js";
import {
  formatTimeframe,
  isIntraday,
  nominalMs,
  parseTimeframe,
  PeriodCalc,
  type Timeframe,
} from "../../core/time-frames.js";

export interface TimeEnv {
  tzName: unknown;
  sessionText: unknown;
  tfText: unknown;
  zone: Zone;
  session: Session;
  chartTf: Timeframe;
  /** Length of one chart bar in ms (0 for D/W/M: calendar bars hold whole trading days). */
  barMs: number;
  /** Period calculator in the exchange zone and symbol session. */
  calc: PeriodCalc;
  /**
   * timeframe.period's text of chartTf for Pine version periodVersion (periodText): one string read
   * on every bar, and timeframeArg knows it for chartTf without parsing it again.
   */
  periodText: string;
  periodVersion: number;
}

const KEY = "time.env";

const ALL_KEY = "time.envs";

export function timeEnv(ctx: ExecContext): TimeEnv {
  const env = ctx.ext[KEY] as TimeEnv | undefined;
  const si = ctx.syminfo;
  if (env && env.tzName === si.timezone && env.sessionText === si.session && env.tfText === ctx.timeframe) return env;
  // Contexts that switch symbol or timeframe (request.security) come back to earlier environments.
  let all = ctx.ext[ALL_KEY] as Map<string, TimeEnv> | undefined;
  if (!all) ctx.ext[ALL_KEY] = all = new Map();
  const key = `${String(si.timezone)}|${String(si.session)}|${ctx.timeframe}`;
  const known = all.get(key);
  if (known) {
    ctx.ext[KEY] = known;
    return known;
  }
  const zone = getZone(si.timezone ?? "UTC") ?? UTC;
  const session = (typeof si.session === "string" ? parseSession(si.session) : null) ?? SESSION_24X7;
  const chartTf = parseTimeframe(ctx.timeframe) ?? { unit: "D", mult: 1 };
  const barMs = isIntraday(chartTf) ? nominalMs(chartTf) : 0;
  const fresh: TimeEnv = {
    tzName: si.timezone,
    sessionText: si.session,
    tfText: ctx.timeframe,
    zone,
    session,
    chartTf,
    barMs,
    calc: new PeriodCalc(zone, session, barMs),
    periodText: "",
    periodVersion: Number.NaN,
  };
  ctx.ext[KEY] = fresh;
  if (all.size < 64) all.set(key, fresh);
  return fresh;
}

/** Resolves a timezone argument (na or "" = the exchange zone); raises a runtime error for an unknown name. */
export function zoneArg(ctx: ExecContext, tz: unknown): Zone {
  if (tz === undefined || tz === null || tz === "") return timeEnv(ctx).zone;
  const z = getZone(String(tz));
  if (!z)
    ctx.runtimeError(
      `Invalid timezone "${String(tz)}": use an IANA name such as "America/New_York" or an offset such as "UTC+3" / "GMT-05:30"`,
    );
  return z;
}

/** timeframe.period: the chart timeframe's text in the script's Pine version. */
export function periodText(ctx: ExecContext): string {
  const env = timeEnv(ctx);
  if (env.periodVersion !== ctx.version) {
    env.periodText = formatTimeframe(env.chartTf, ctx.version);
    env.periodVersion = ctx.version;
  }
  return env.periodText;
}

/** Resolves a timeframe argument ("" or na = the chart timeframe); runtime error when malformed. `env`: ctx's, when the caller has it. */
export function timeframeArg(ctx: ExecContext, tf: unknown, env: TimeEnv = timeEnv(ctx)): Timeframe {
  // (timeframe.period, the usual argument: its text stands for the chart timeframe it was made from)
  if (tf === undefined || tf === null || tf === "" || tf === env.periodText) return env.chartTf;
  const p = parseTimeframe(String(tf));
  if (!p) ctx.runtimeError(`Invalid timeframe "${String(tf)}": expected e.g. "1", "60", "1D", "1W", "1M", "30S"`);
  return p;
}
