// ta.vwap (function and variable) and the volume-based variables: ta.obv, ta.accdist, ta.pvt,
// ta.wad, ta.nvi, ta.pvi (kernel states), ta.iii, ta.wvad (per bar), ta.tr.
import { COMPOSITE_PRICES } from "../../core/prices.js";
import { getZone, UTC } from "../../core/tz.js";
import { parseSession, SESSION_24X7 } from "../../core/time-sessions.js";
import { isSessionStart, nominalMs, parseTimeframe } from "../../core/time-frames.js";
import type { BuiltinTable, CallSite, ExecContext, VariableTable } from "../types.js";
import { kernels, kx, num, truthy, tuple } from "./common.js";
import { trueRange } from "./oscillators.js";

/**
 * Default vwap anchor: the bar starts a new trading session (symbol session and time zone).
 * Needs the previous bar's open time, read from the input columns.
 */
function newSession(ctx: ExecContext): boolean {
  return sessionStartAt(ctx, ctx.barIndex, ctx.time);
}

/**
 * Whether input bar `i`, opening at `time`, starts a new trading session of the run's symbol (the
 * default vwap anchor; the whole-series pass asks it of every bar, interpret/precompute.ts).
 */
export function sessionStartAt(ctx: ExecContext, i: number, time: number): boolean {
  if (i === 0) return true;
  const { zone, session, barMs } = sessionRules(ctx);
  return isSessionStart(ctx.columns.time[i - 1]!, time, zone, session, barMs);
}

interface SessionRules {
  timezone: unknown;
  sessionText: unknown;
  timeframe: unknown;
  zone: NonNullable<ReturnType<typeof getZone>>;
  session: NonNullable<ReturnType<typeof parseSession>>;
  barMs: number;
}

/** The last rules sessionRules worked out (a run asks with the same three values on every bar). */
let lastRules: SessionRules | null = null;

/** The run's time zone, session and bar length, as sessionStartAt reads them. */
function sessionRules(ctx: ExecContext): SessionRules {
  const timezone = ctx.syminfo.timezone;
  const sessionText = ctx.syminfo.session;
  const timeframe = ctx.timeframe;
  const last = lastRules;
  if (last !== null && last.timezone === timezone && last.sessionText === sessionText && last.timeframe === timeframe)
    return last;
  const tf = parseTimeframe(timeframe);
  lastRules = {
    timezone,
    sessionText,
    timeframe,
    zone: getZone(timezone) ?? UTC,
    session: parseSession(sessionText as string | undefined) ?? SESSION_24X7,
    barMs: tf ? nominalMs(tf) : 0,
  };
  return lastRules;
}

/**
 * sessionStartAt of every input bar (1 or 0), the rules read once: the whole-series pass's anchor
 * column (interpret/precompute.ts).
 */
export function sessionStarts(ctx: ExecContext, out: Float64Array): void {
  const { zone, session, barMs } = sessionRules(ctx);
  const time = ctx.columns.time;
  for (let i = 0; i < out.length; i++)
    out[i] = i === 0 || isSessionStart(time[i - 1]!, time[i]!, zone, session, barMs) ? 1 : 0;
}

/** The source of the ta.vwap variable: the bar's hlc3. */
function vwapSource(ctx: ExecContext): number {
  return COMPOSITE_PRICES.hlc3(ctx.open, ctx.high, ctx.low, ctx.close);
}

/** The volume variables' kernel kinds (volind_new). */
export const VOLUME_VARIABLE_KIND: Record<string, number> = {
  "ta.obv": 0,
  "ta.accdist": 1,
  "ta.pvt": 2,
  "ta.wad": 3,
  "ta.nvi": 4,
  "ta.pvi": 5,
};

function vwapFn(ctx: ExecContext, args: any[], site: CallSite): any {
  const kk = kernels(ctx);
  const k = kk.x;
  const h = (site.state ??= k.vwap_new()) as number;
  const anchor = args[1] === undefined ? newSession(ctx) : truthy(args[1]);
  const withBands = args[2] !== undefined && args[2] !== null;
  const v = k.vwap_next(h, ctx.barIndex, num(args[0]), ctx.volume, anchor ? 1 : 0, withBands ? num(args[2]) : 0);
  if (!withBands) return v;
  const out = tuple(site, 3);
  out[0] = v;
  out[1] = kk.out(0);
  out[2] = kk.out(1);
  return out;
}

function volInd(kind: number) {
  return (ctx: ExecContext, site: CallSite): number => {
    const k = kx(ctx);
    const h = (site.state ??= k.volind_new(kind)) as number;
    return k.volind_next(h, ctx.barIndex, ctx.high, ctx.low, ctx.close, ctx.volume);
  };
}

export const volumeFunctions: BuiltinTable = {
  "ta.vwap": { name: "ta.vwap", impl: vwapFn, stateful: true },
};

export const variables: VariableTable = {
  "ta.tr": { name: "ta.tr", get: (ctx, site) => trueRange(ctx, site, false), stateful: true },
  "ta.vwap": {
    name: "ta.vwap",
    get: (ctx, site) => {
      const k = kx(ctx);
      const h = (site.state ??= k.vwap_new()) as number;
      return k.vwap_next(h, ctx.barIndex, vwapSource(ctx), ctx.volume, newSession(ctx) ? 1 : 0, 0);
    },
    stateful: true,
  },
  ...Object.fromEntries(
    Object.entries(VOLUME_VARIABLE_KIND).map(([name, kind]) => [name, { name, get: volInd(kind), stateful: true }]),
  ),
  "ta.iii": {
    name: "ta.iii",
    get: (ctx) => (2 * ctx.close - ctx.high - ctx.low) / ((ctx.high - ctx.low) * ctx.volume),
  },
  "ta.wvad": {
    name: "ta.wvad",
    get: (ctx) => ((ctx.close - ctx.open) / (ctx.high - ctx.low)) * ctx.volume,
  },
};
