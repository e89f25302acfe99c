// Alert message placeholders ({{close}}, {{ticker}}, {{plot_0}}, {{plot("RSI")}}, ... and the
// strategy ones {{strategy.order.action}}, ...), resolved for a given bar after the run, when every
// plot of that bar has its final value.
import type { ExecContext } from "../types.js";
import { numberToString } from "../str/tostring.js";

/** What the strategy engine knows about an order fill, for strategy alert_message placeholders. */
export interface StrategyAlertValues {
  /** "buy" or "sell". */
  action?: string;
  contracts?: number;
  price?: number;
  id?: string;
  comment?: string;
  alert_message?: string;
  /** "long", "short" or "flat". */
  market_position?: string;
  market_position_size?: number;
  prev_market_position?: string;
  prev_market_position_size?: number;
  position_size?: number;
}

interface PlotColumn {
  key: string;
  cells: string;
  col: Float64Array;
  meta: { title: string };
}

const num = (x: number | undefined): string => (x === undefined ? "" : numberToString(x));

/** ISO time without milliseconds, as TradingView writes {{time}}: 2019-08-27T09:56:00Z. */
export function isoTime(ms: number): string {
  if (!Number.isFinite(ms)) return "NaN";
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function plotOutputs(ctx: ExecContext): PlotColumn[] {
  const store = ctx.ext.plots as { outputs?: PlotColumn[] } | undefined;
  return store?.outputs ?? [];
}

function plotValue(p: PlotColumn | undefined, bar: number): string {
  if (!p || bar < 0 || bar >= p.col.length) return "NaN";
  const x = p.col[bar]!;
  return p.cells === "number" ? numberToString(x) : x === x ? "1" : "NaN";
}

function strategyValue(name: string, s: StrategyAlertValues): string | undefined {
  switch (name) {
    case "strategy.order.action":
      return s.action;
    case "strategy.order.contracts":
      return s.contracts === undefined ? undefined : num(s.contracts);
    case "strategy.order.price":
      return s.price === undefined ? undefined : num(s.price);
    case "strategy.order.id":
      return s.id;
    case "strategy.order.comment":
      return s.comment;
    case "strategy.order.alert_message":
      return s.alert_message;
    case "strategy.market_position":
      return s.market_position;
    case "strategy.market_position_size":
      return s.market_position_size === undefined ? undefined : num(s.market_position_size);
    case "strategy.prev_market_position":
      return s.prev_market_position;
    case "strategy.prev_market_position_size":
      return s.prev_market_position_size === undefined ? undefined : num(s.prev_market_position_size);
    case "strategy.position_size":
      return s.position_size === undefined ? undefined : num(s.position_size);
  }
  return undefined;
}

const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
const PLOT_BY_TITLE = /^plot\(\s*"([^"]*)"\s*\)$/;

/**
 * Replaces the placeholders of `template` with the values of bar `bar` (columns of ctx, the plot
 * store in ctx.ext.plots, syminfo) and, when given, a strategy order's values. Unknown placeholders
 * are left as written, like TradingView does.
 */
export function resolvePlaceholders(
  template: string,
  ctx: ExecContext | null,
  bar: number,
  strategy?: StrategyAlertValues,
): string {
  if (template.indexOf("{{") < 0) return template;
  return template.replace(PLACEHOLDER, (whole, name: string) => {
    if (strategy && name.startsWith("strategy.")) return strategyValue(name, strategy) ?? whole;
    if (!ctx) return whole;
    const c = ctx.columns;
    const inRange = bar >= 0 && bar < c.time.length;
    switch (name) {
      case "open":
      case "high":
      case "low":
      case "close":
      case "volume":
        return inRange ? numberToString(c[name][bar]!) : "NaN";
      case "time":
        return inRange ? isoTime(c.time[bar]!) : "NaN";
      case "timenow":
        // a run has no wall clock: the close of the bar stands for the moment the alert fires
        return inRange ? isoTime(bar + 1 < c.time.length ? c.time[bar + 1]! : ctx.timeClose) : "NaN";
      case "ticker":
        return String(ctx.syminfo.ticker ?? "");
      case "exchange":
        return String(ctx.syminfo.prefix ?? "");
      case "interval":
        return ctx.timeframe;
      case "syminfo.currency":
        return String(ctx.syminfo.currency ?? "");
      case "syminfo.basecurrency":
        return String(ctx.syminfo.basecurrency ?? "");
    }
    const m = /^plot_(\d+)$/.exec(name);
    if (m) return plotValue(plotOutputs(ctx)[Number(m[1])], bar);
    const t = PLOT_BY_TITLE.exec(name);
    if (t)
      return plotValue(
        plotOutputs(ctx).find((p) => p.meta.title === t[1] || p.key === t[1]),
        bar,
      );
    return whole;
  });
}

/** Strategy alert_message placeholders only (for the strategy engine at fill time). */
export function resolveStrategyPlaceholders(
  template: string,
  values: StrategyAlertValues,
  ctx: ExecContext | null = null,
  bar = -1,
): string {
  return resolvePlaceholders(template, ctx, bar, values);
}
