// The strategy report's numbers in one place: every metric of TradingView's Performance, Trades
// analysis and Risk/performance ratios tabs, split All / Long / Short. "All" takes the engine's own
// statistics (src/strategy/stats.ts) wherever it has them; what the engine does not split or does not
// compute (the Long and Short columns, average bars in winning/losing trades) is derived here from
// the closed trades, and each row says which source it came from. The overview curves (drawdown,
// buy & hold) are derived here too, on the bars' time axis.

import type { StrategyResult, StrategyStats, Trade } from "../../../src/core/result.js";

export type Side = "all" | "long" | "short";
export const SIDES: readonly Side[] = ["all", "long", "short"];

export type MetricKind = "money" | "percent" | "count" | "ratio" | "bars";

export interface MetricRow {
  /** Stable id (the engine's stats key where "All" comes from it). */
  key: string;
  label: string;
  kind: MetricKind;
  values: Record<Side, number | null>;
  /** A percentage shown under the value (net profit as % of initial capital, ...). */
  percent?: Partial<Record<Side, number | null>>;
  /** "engine": All is the engine's statistic; "trades": every column is computed from closed trades. */
  source: "engine" | "trades";
  /** Only the All column has a value (equity-curve measures the engine does not split by side). */
  allOnly?: boolean;
}

export interface ReportMetrics {
  performance: MetricRow[];
  tradesAnalysis: MetricRow[];
  ratios: MetricRow[];
  /** The trade list is the newest part only: Long/Short columns cover the listed trades. */
  trimmed: boolean;
}

/** Sums over one side's closed trades. */
interface SideTotals {
  count: number;
  wins: number;
  losses: number;
  even: number;
  net: number;
  grossProfit: number;
  grossLoss: number;
  commission: number;
  largestWin: number;
  largestLoss: number;
  bars: number;
  winBars: number;
  lossBars: number;
}

function totals(trades: readonly Trade[], side: Side): SideTotals {
  const t: SideTotals = {
    count: 0,
    wins: 0,
    losses: 0,
    even: 0,
    net: 0,
    grossProfit: 0,
    grossLoss: 0,
    commission: 0,
    largestWin: 0,
    largestLoss: 0,
    bars: 0,
    winBars: 0,
    lossBars: 0,
  };
  for (const tr of trades) {
    if (side !== "all" && tr.direction !== side) continue;
    const bars = (tr.exit_bar_index ?? tr.entry_bar_index) - tr.entry_bar_index;
    t.count++;
    t.net += tr.profit;
    t.commission += tr.commission;
    t.bars += bars;
    if (tr.profit > 0) {
      t.wins++;
      t.grossProfit += tr.profit;
      t.winBars += bars;
      if (tr.profit > t.largestWin) t.largestWin = tr.profit;
    } else if (tr.profit < 0) {
      t.losses++;
      t.grossLoss -= tr.profit;
      t.lossBars += bars;
      if (tr.profit < t.largestLoss) t.largestLoss = tr.profit;
    } else t.even++;
  }
  return t;
}

const div = (a: number, b: number): number | null => (b !== 0 ? a / b : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export function reportMetrics(st: StrategyResult): ReportMetrics {
  const s: StrategyStats = st.stats;
  const closed = num(s.total_closed_trades) ?? st.trades.length;
  const trimmed = closed > st.trades.length;
  const t = { all: totals(st.trades, "all"), long: totals(st.trades, "long"), short: totals(st.trades, "short") };
  const initial = num(s.initial_capital);
  const ofCapital = (v: number | null) => (v !== null && initial ? (v / initial) * 100 : null);
  const openTrades = (side: Side) => st.open_trades.filter((o) => side === "all" || o.direction === side);

  /** A row whose All column is the engine's `key` and whose sides come from `fromTrades`. */
  const row = (
    key: string,
    label: string,
    kind: MetricKind,
    fromTrades: (x: SideTotals, side: Side) => number | null,
    extra: Partial<MetricRow> = {},
  ): MetricRow => {
    const engine = key in s ? num(s[key]) : undefined;
    const values = {
      all: engine !== undefined ? engine : fromTrades(t.all, "all"),
      long: fromTrades(t.long, "long"),
      short: fromTrades(t.short, "short"),
    };
    return { key, label, kind, values, source: engine !== undefined ? "engine" : "trades", ...extra };
  };
  /** An equity-curve measure only the engine knows (no Long/Short split). */
  const allOnly = (key: string, label: string, kind: MetricKind, percentKey?: string): MetricRow => ({
    key,
    label,
    kind,
    values: { all: num(s[key]), long: null, short: null },
    percent: percentKey ? { all: num(s[percentKey]) } : undefined,
    source: "engine",
    allOnly: true,
  });
  const withPercent = (r: MetricRow, allPercentKey?: string): MetricRow => ({
    ...r,
    percent: {
      all: allPercentKey && num(s[allPercentKey]) !== null ? num(s[allPercentKey]) : ofCapital(r.values.all),
      long: ofCapital(r.values.long),
      short: ofCapital(r.values.short),
    },
  });

  const performance: MetricRow[] = [
    allOnly("initial_capital", "Initial capital", "money"),
    {
      key: "open_profit",
      label: "Open P&L",
      kind: "money",
      values: {
        all: num(s.open_profit),
        long: openTrades("long").reduce((a, o) => a + o.profit, 0),
        short: openTrades("short").reduce((a, o) => a + o.profit, 0),
      },
      source: "engine",
    },
    withPercent(
      row("net_profit", "Net P&L", "money", (x) => x.net),
      "net_profit_percent",
    ),
    withPercent(
      row("gross_profit", "Gross profit", "money", (x) => x.grossProfit),
      "gross_profit_percent",
    ),
    withPercent(
      row("gross_loss", "Gross loss", "money", (x) => x.grossLoss),
      "gross_loss_percent",
    ),
    row("commission_paid", "Commission paid", "money", (x) => x.commission),
    allOnly("buy_and_hold_return", "Buy & hold return", "money", "buy_and_hold_return_percent"),
    allOnly("max_runup", "Max equity run-up", "money", "max_runup_percent"),
    allOnly("max_drawdown", "Max equity drawdown", "money", "max_drawdown_percent"),
    allOnly("max_contracts_held", "Max contracts held", "count"),
  ];
  const tradesAnalysis: MetricRow[] = [
    row("total_closed_trades", "Total trades", "count", (x) => x.count),
    {
      key: "total_open_trades",
      label: "Total open trades",
      kind: "count",
      values: {
        all: num(s.total_open_trades) ?? st.open_trades.length,
        long: openTrades("long").length,
        short: openTrades("short").length,
      },
      source: "engine",
    },
    row("num_winning_trades", "Winning trades", "count", (x) => x.wins),
    row("num_losing_trades", "Losing trades", "count", (x) => x.losses),
    row("num_even_trades", "Even trades", "count", (x) => x.even),
    row("percent_profitable", "Percent profitable", "percent", (x) => (x.count ? (x.wins / x.count) * 100 : null)),
    row("avg_trade", "Avg P&L", "money", (x) => div(x.net, x.count)),
    row("avg_winning_trade", "Avg winning trade", "money", (x) => div(x.grossProfit, x.wins)),
    row("avg_losing_trade", "Avg losing trade", "money", (x) => div(x.grossLoss, x.losses)),
    row("ratio_avg_win_loss", "Ratio avg win / avg loss", "ratio", (x) =>
      x.wins && x.losses && x.grossLoss ? x.grossProfit / x.wins / (x.grossLoss / x.losses) : null,
    ),
    row("largest_winning_trade", "Largest winning trade", "money", (x) => (x.wins ? x.largestWin : null)),
    row("largest_losing_trade", "Largest losing trade", "money", (x) => (x.losses ? x.largestLoss : null)),
    row("avg_bars_in_trade", "Avg # bars in trades", "bars", (x) => div(x.bars, x.count)),
    row("avg_bars_in_winning_trade", "Avg # bars in winning trades", "bars", (x) => div(x.winBars, x.wins)),
    row("avg_bars_in_losing_trade", "Avg # bars in losing trades", "bars", (x) => div(x.lossBars, x.losses)),
  ];
  const ratios: MetricRow[] = [
    allOnly("sharpe_ratio", "Sharpe ratio", "ratio"),
    allOnly("sortino_ratio", "Sortino ratio", "ratio"),
    row("profit_factor", "Profit factor", "ratio", (x) => div(x.grossProfit, x.grossLoss)),
    allOnly("margin_calls", "Margin calls", "count"),
  ];
  return { performance, tradesAnalysis, ratios, trimmed };
}

/** The overview's curves per bar: equity, its drawdown from the running peak, and buy & hold. */
export interface OverviewCurves {
  equity: Float64Array;
  drawdown: Float64Array;
  buyHold: Float64Array;
}

/**
 * Drawdown is the close-to-close equity below its highest value so far (the engine's max drawdown
 * also looks inside bars, so its figure can be deeper than this curve). Buy & hold is the engine's
 * definition per bar: the initial capital bought at the first entry's price, valued at each close
 * from that bar on (NaN before it).
 */
export function overviewCurves(st: StrategyResult, close: Float64Array): OverviewCurves {
  const n = Math.min(st.equity.length, close.length);
  const equity = new Float64Array(n);
  const drawdown = new Float64Array(n);
  const buyHold = new Float64Array(n).fill(NaN);
  let peak = -Infinity;
  for (let i = 0; i < n; i++) {
    const v = st.equity[i];
    const e = typeof v === "number" ? v : NaN;
    equity[i] = e;
    if (e > peak) peak = e;
    drawdown[i] = e === e && peak > -Infinity ? e - peak : NaN;
  }
  // the first entry's price, from the engine's own buy & hold figure (the trade itself may be trimmed
  // from the list); the curve starts at trade #1's entry bar when it is listed
  const bhPct = num(st.stats.buy_and_hold_return_percent);
  const initial = num(st.stats.initial_capital);
  if (bhPct !== null && initial !== null && n > 0) {
    const firstPrice = close[n - 1] / (1 + bhPct / 100);
    const first = st.trades[0] ?? st.open_trades[0];
    const from = first && first.trade_num === 1 ? first.entry_bar_index : 0;
    for (let i = from; i < n; i++) buyHold[i] = initial * (close[i] / firstPrice);
  }
  return { equity, drawdown, buyHold };
}
