// strategy() declaration arguments, normalised. The Runtime hands in the evaluated arguments by
// parameter name (merged with user overrides); anything missing takes TradingView's v6 default.
// Constants may arrive as the Pine constant values (e.g. "percent_of_equity") or as the full
// names ("strategy.percent_of_equity"): both are accepted.

export type QtyType = "fixed" | "cash" | "percent_of_equity";
export type CommissionType = "percent" | "cash_per_contract" | "cash_per_order";

export interface StrategySettings {
  initialCapital: number;
  currency: string;
  defaultQtyType: QtyType;
  defaultQtyValue: number;
  pyramiding: number;
  commissionType: CommissionType;
  commissionValue: number;
  /** Slippage in ticks, applied against the trader to market and stop fills. */
  slippage: number;
  processOrdersOnClose: boolean;
  closeEntriesRule: "FIFO" | "ANY";
  calcOnOrderFills: boolean;
  calcOnEveryTick: boolean;
  marginLong: number;
  marginShort: number;
  useBarMagnifier: boolean;
  fillOrdersOnStandardOhlc: boolean;
  /** Ticks a limit price must be exceeded by before a limit order fills. */
  backtestFillLimitsAssumption: number;
  /** Annual risk-free rate in percent (Sharpe/Sortino). */
  riskFreeRate: number;
  maxBarsBack: number;
  maxLinesCount: number;
  maxLabelsCount: number;
  maxBoxesCount: number;
  maxPolylinesCount: number;
  /**
   * Closed trades a strategy keeps (TradingView: 9000, 1,000,000 with Deep Backtesting). Not a
   * strategy() parameter: hosts set it as `trade_limit` in RuntimeOptions.broker (Infinity: no limit).
   */
  tradeLimit: number;
  /**
   * Whether order calls are logged for result.events. Not a strategy() parameter: hosts set
   * `record_events: false` in RuntimeOptions.broker for runs whose events nobody reads (optimize
   * trials, lean worker runs); result.events is then empty.
   */
  recordEvents: boolean;
  /**
   * Whether the broker keeps the per-bar equity figures: result.strategy.equity, the drawdown and
   * run-up statistics, the Sharpe and Sortino ratios (NaN / null / empty without them). Not a
   * strategy() parameter: hosts set `track_equity: false` in RuntimeOptions.broker for runs read for
   * their closed trades alone (optimize trials); the runtime keeps it on for a script that reads those
   * figures while it runs (check/equity-reads.ts).
   */
  trackEquity: boolean;
  /**
   * Backtest start (TradingView's strategy property): orders placed before this bar open time (ms)
   * or bar index are ignored while the script still runs (indicators warm up). Not a strategy()
   * parameter: hosts set `backtest_start` in the broker settings (RunOptions.backtestStart), a time
   * in ms or `{ bar: n }`. -Infinity / 0: every bar counts.
   */
  backtestStartTime: number;
  backtestStartBar: number;
}

export const DEFAULT_SETTINGS: Readonly<StrategySettings> = Object.freeze({
  initialCapital: 1_000_000,
  currency: "NONE",
  defaultQtyType: "fixed",
  defaultQtyValue: 1,
  pyramiding: 0,
  commissionType: "percent",
  commissionValue: 0,
  slippage: 0,
  processOrdersOnClose: false,
  closeEntriesRule: "FIFO",
  calcOnOrderFills: false,
  calcOnEveryTick: false,
  marginLong: 100,
  marginShort: 100,
  useBarMagnifier: false,
  fillOrdersOnStandardOhlc: false,
  backtestFillLimitsAssumption: 0,
  riskFreeRate: 2,
  maxBarsBack: 0,
  maxLinesCount: 50,
  maxLabelsCount: 50,
  maxBoxesCount: 50,
  maxPolylinesCount: 50,
  tradeLimit: 9000,
  recordEvents: true,
  trackEquity: true,
  backtestStartTime: -Infinity,
  backtestStartBar: 0,
});

function stripNs(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const dot = v.lastIndexOf(".");
  return dot >= 0 ? v.slice(dot + 1) : v;
}

function num(v: unknown, dflt: number): number {
  return typeof v === "number" && v === v ? v : dflt;
}

function bool(v: unknown, dflt: boolean): boolean {
  return typeof v === "boolean" ? v : dflt;
}

/** camelCase aliases of the snake_case names, made once (every broker of every run reads them all). */
const camelOf = new Map<string, string>();

/** Reads a strategy() argument under its Pine name (snake_case) or a camelCase alias. */
function pick(s: Record<string, unknown>, name: string): unknown {
  if (name in s) return s[name];
  let camel = camelOf.get(name);
  if (camel === undefined) camelOf.set(name, (camel = name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())));
  return s[camel];
}

/**
 * `version` is the script's Pine version: v5 strategies default to no margin (margin_long/short 0),
 * v6 ones to 100.
 */
export function normaliseSettings(raw: Record<string, unknown> | undefined | null, version = 6): StrategySettings {
  const s = raw ?? {};
  const d = version >= 6 ? DEFAULT_SETTINGS : { ...DEFAULT_SETTINGS, marginLong: 0, marginShort: 0 };
  const qtyType = stripNs(pick(s, "default_qty_type"));
  const commType = stripNs(pick(s, "commission_type"));
  const rule = stripNs(pick(s, "close_entries_rule"));
  const currency = pick(s, "currency");
  const start = pick(s, "backtest_start");
  const startBar = start !== null && typeof start === "object" ? (start as { bar?: unknown }).bar : undefined;
  return {
    initialCapital: num(pick(s, "initial_capital"), d.initialCapital),
    currency: typeof currency === "string" ? (stripNs(currency) ?? "NONE") : d.currency,
    defaultQtyType:
      qtyType === "cash" || qtyType === "percent_of_equity" || qtyType === "fixed" ? qtyType : d.defaultQtyType,
    defaultQtyValue: num(pick(s, "default_qty_value"), d.defaultQtyValue),
    pyramiding: Math.max(0, Math.floor(num(pick(s, "pyramiding"), d.pyramiding))),
    commissionType:
      commType === "cash_per_contract" || commType === "cash_per_order" || commType === "percent"
        ? commType
        : d.commissionType,
    commissionValue: num(pick(s, "commission_value"), d.commissionValue),
    slippage: Math.max(0, Math.floor(num(pick(s, "slippage"), d.slippage))),
    processOrdersOnClose: bool(pick(s, "process_orders_on_close"), d.processOrdersOnClose),
    closeEntriesRule: typeof rule === "string" && rule.toUpperCase() === "ANY" ? "ANY" : "FIFO",
    calcOnOrderFills: bool(pick(s, "calc_on_order_fills"), d.calcOnOrderFills),
    calcOnEveryTick: bool(pick(s, "calc_on_every_tick"), d.calcOnEveryTick),
    marginLong: num(pick(s, "margin_long"), d.marginLong),
    marginShort: num(pick(s, "margin_short"), d.marginShort),
    useBarMagnifier: bool(pick(s, "use_bar_magnifier"), d.useBarMagnifier),
    fillOrdersOnStandardOhlc: bool(pick(s, "fill_orders_on_standard_ohlc"), d.fillOrdersOnStandardOhlc),
    backtestFillLimitsAssumption: Math.max(
      0,
      num(pick(s, "backtest_fill_limits_assumption"), d.backtestFillLimitsAssumption),
    ),
    riskFreeRate: num(pick(s, "risk_free_rate"), d.riskFreeRate),
    maxBarsBack: num(pick(s, "max_bars_back"), d.maxBarsBack),
    maxLinesCount: num(pick(s, "max_lines_count"), d.maxLinesCount),
    maxLabelsCount: num(pick(s, "max_labels_count"), d.maxLabelsCount),
    maxBoxesCount: num(pick(s, "max_boxes_count"), d.maxBoxesCount),
    maxPolylinesCount: num(pick(s, "max_polylines_count"), d.maxPolylinesCount),
    tradeLimit: Math.max(1, Math.floor(num(pick(s, "trade_limit"), d.tradeLimit))),
    recordEvents: bool(pick(s, "record_events"), d.recordEvents),
    trackEquity: bool(pick(s, "track_equity"), d.trackEquity),
    backtestStartTime: num(start, d.backtestStartTime),
    backtestStartBar: Math.max(0, Math.floor(num(startBar, d.backtestStartBar))),
  };
}
