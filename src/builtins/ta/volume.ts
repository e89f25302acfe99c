// ta.vwap (function and variable) and the volume-based variables: ta.obv, ta.accdist, ta.pvt,
// ta.wad, ta.nvi, ta.pvi (kernel states), ta.iii, ta.wvad (per bar), ta.tr.
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
  const i = ctx.barIndex;
  const prev = i > 0 ? ctx.columns.time[i - 1] : NaN;
  const zone = getZone(ctx.syminfo.timezone) ?? UTC;
  const session = parseSession(ctx.syminfo.session as string | undefined) ?? SESSION_24X7;
  const tf = parseTimeframe(ctx.timeframe);
  const barMs = tf ? nominalMs(tf) : 0;
  if (i === 0) return true;
  return isSessionStart(prev, ctx.time, zone, session, barMs);
}

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
      const hlc3 = (ctx.high + ctx.low + ctx.close) / 3;
      return k.vwap_next(h, ctx.barIndex, hlc3, ctx.volume, newSession(ctx) ? 1 : 0, 0);
    },
    stateful: true,
  },
  "ta.obv": { name: "ta.obv", get: volInd(0), stateful: true },
  "ta.accdist": { name: "ta.accdist", get: volInd(1), stateful: true },
  "ta.pvt": { name: "ta.pvt", get: volInd(2), stateful: true },
  "ta.wad": { name: "ta.wad", get: volInd(3), stateful: true },
  "ta.nvi": { name: "ta.nvi", get: volInd(4), stateful: true },
  "ta.pvi": { name: "ta.pvi", get: volInd(5), stateful: true },
  "ta.iii": {
    name: "ta.iii",
    get: (ctx) => (2 * ctx.close - ctx.high - ctx.low) / ((ctx.high - ctx.low) * ctx.volume),
  },
  "ta.wvad": {
    name: "ta.wvad",
    get: (ctx) => ((ctx.close - ctx.open) / (ctx.high - ctx.low)) * ctx.volume,
  },
};
