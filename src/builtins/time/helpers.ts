// Helpers for other builtin modules (ta.vwap's session anchor, request.security's period
// alignment) that need this module's notion of periods and sessions for the current run.
//
// Checked against TradingView's vwap export: ta.vwap(src) resets where session.isfirstbar is true
// (accumulating from bar 0 before the first reset), and an explicit anchor such as
// timeframe.change("240") gives na until its first true.

import type { ExecContext } from "../types.js";
import { isSessionStart, type Timeframe } from "../../core/time-frames.js";
import { timeEnv, timeframeArg } from "./env.js";

/** Start (UTC ms) of the `tf` period ("" = chart timeframe) holding the bar that opens at `t`. */
export function periodStartAt(ctx: ExecContext, tf: string | Timeframe, t: number = ctx.time): number {
  const p = typeof tf === "string" ? timeframeArg(ctx, tf) : tf;
  return timeEnv(ctx).calc.start(t, p);
}

/** timeframe.change(tf) for the current bar, without per-site state (compares with the previous bar). */
export function periodChanged(ctx: ExecContext, tf: string | Timeframe): boolean {
  const b = ctx.barIndex;
  if (b <= 0) return false;
  const p = typeof tf === "string" ? timeframeArg(ctx, tf) : tf;
  const calc = timeEnv(ctx).calc;
  const prev = calc.start(ctx.columns.time[b - 1]!, p);
  return calc.start(ctx.time, p) !== prev;
}

/** session.isfirstbar_regular for the current bar: the bar opens a new trading-day session. */
export function isNewSession(ctx: ExecContext): boolean {
  const env = timeEnv(ctx);
  const prev = ctx.barIndex > 0 ? ctx.columns.time[ctx.barIndex - 1]! : NaN;
  return isSessionStart(prev, ctx.time, env.zone, env.session, env.barMs);
}
