// timeframe.* : the chart timeframe's properties, timeframe.in_seconds / from_seconds, and the
// stateful timeframe.change (did the bar enter a new period of the given timeframe?).

import type { BuiltinTable, CallSite, ConstantTable, ExecContext, VariableTable } from "../types.js";
import {
  formatTimeframe,
  parseTimeframe,
  timeframeFromSeconds,
  timeframeSeconds,
  type Timeframe,
} from "../../core/time-frames.js";
import { periodText, timeEnv, timeframeArg } from "../time/env.js";

interface ChangeState {
  /** Bar index of the last evaluation, its period start and the previous bar's period start. */
  bar: number;
  tf: Timeframe | null;
  start: number;
  prevStart: number;
}

/**
 * timeframe.change(tf): the current bar's `tf` period differs from the previous bar's. The previous
 * bar's period is remembered per call site and recomputed from the data when the call was skipped on
 * that bar, so a call inside a conditional block still compares with the bar just before. False on
 * the first bar.
 */
function change(ctx: ExecContext, args: any[], site: CallSite): boolean {
  const tf = timeframeArg(ctx, args[0]);
  const b = ctx.barIndex;
  if (tf.unit === "T") return tickChange(ctx, tf, b);
  let st = site.state as ChangeState | undefined;
  if (!st) st = site.state = { bar: -2, tf: null, start: NaN, prevStart: NaN };
  if (st.bar !== b || st.tf !== tf) {
    const calc = timeEnv(ctx).calc;
    let prev = NaN;
    if (st.bar === b - 1 && st.tf === tf) prev = st.start;
    else if (b > 0) prev = calc.start(ctx.columns.time[b - 1]!, tf);
    st.prevStart = prev;
    st.start = calc.start(ctx.time, tf);
    st.bar = b;
    st.tf = tf;
  }
  return st.prevStart === st.prevStart && st.start !== st.prevStart;
}

/**
 * timeframe.change with a tick timeframe: ticks have no periods in time. Every chart bar holds at least
 * one new trade, so a tick count no larger than the chart's own (any count on a time-based chart) starts
 * a new tick bar on every bar after the first; a larger one on a tick chart every (count / chart count)
 * bars, counted from the first bar (docs/compatibility.md: no TradingView data for this).
 */
function tickChange(ctx: ExecContext, tf: Timeframe, b: number): boolean {
  const chart = chartTf(ctx);
  if (b === 0) return false;
  if (chart.unit !== "T" || tf.mult <= chart.mult) return true;
  return Math.floor((b * chart.mult) / tf.mult) !== Math.floor(((b - 1) * chart.mult) / tf.mult);
}

function inSeconds(ctx: ExecContext, args: any[]): number {
  // An omitted timeframe (undefined or an unfilled null slot) is the chart's.
  return timeframeSeconds(timeframeArg(ctx, args[0]));
}

function fromSeconds(ctx: ExecContext, args: any[]): string | null {
  const s = args[0];
  if (typeof s !== "number" || s !== s) return null;
  return timeframeFromSeconds(s, ctx.version);
}

const chartTf = (ctx: ExecContext): Timeframe => timeEnv(ctx).chartTf;

export const functions: BuiltinTable = {
  "timeframe.change": { name: "timeframe.change", impl: change, stateful: true },
  "timeframe.in_seconds": { name: "timeframe.in_seconds", impl: inSeconds },
  "timeframe.from_seconds": { name: "timeframe.from_seconds", impl: fromSeconds },
};

/** A property of the chart timeframe (or the script's main one): fixed for a run. */
function v(name: string, get: (ctx: ExecContext) => unknown): VariableTable[string] {
  return { name, get, perRun: true };
}

export const variables: VariableTable = {
  "timeframe.period": v("timeframe.period", periodText),
  // The script's main timeframe: the chart's, or indicator(timeframe=) when the runtime sets it.
  "timeframe.main_period": v("timeframe.main_period", (ctx) => {
    const main =
      typeof ctx.ext["timeframe.main"] === "string" ? parseTimeframe(ctx.ext["timeframe.main"] as string) : null;
    return formatTimeframe(main ?? chartTf(ctx), ctx.version);
  }),
  "timeframe.multiplier": v("timeframe.multiplier", (ctx) => chartTf(ctx).mult),
  "timeframe.isdaily": v("timeframe.isdaily", (ctx) => chartTf(ctx).unit === "D"),
  "timeframe.isweekly": v("timeframe.isweekly", (ctx) => chartTf(ctx).unit === "W"),
  "timeframe.ismonthly": v("timeframe.ismonthly", (ctx) => chartTf(ctx).unit === "M"),
  "timeframe.isdwm": v("timeframe.isdwm", (ctx) => {
    const u = chartTf(ctx).unit;
    return u === "D" || u === "W" || u === "M";
  }),
  "timeframe.isintraday": v("timeframe.isintraday", (ctx) => {
    const u = chartTf(ctx).unit;
    return u === "m" || u === "S" || u === "T";
  }),
  "timeframe.isminutes": v("timeframe.isminutes", (ctx) => chartTf(ctx).unit === "m"),
  "timeframe.isseconds": v("timeframe.isseconds", (ctx) => chartTf(ctx).unit === "S"),
  "timeframe.isticks": v("timeframe.isticks", (ctx) => chartTf(ctx).unit === "T"),
};

export const constants: ConstantTable = {};
