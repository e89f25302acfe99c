// The evaluate contract's shapes (service.md 1 and 1.2). The same object is the library result,
// the Web Worker reply, the HTTP body and `resin run --json`: keys are snake_case for that reason.

import type { Diagnostic } from "../lang/ast.js";

export type Mode = "interpret" | "compile" | "auto";
export const MODES: readonly Mode[] = ["interpret", "compile", "auto"];

export type ErrorKind = "parse" | "check" | "runtime" | "data" | "order" | "mode" | "compile";

/** One bar as users hand it in; time = bar open in ms since epoch. */
export interface Bar {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume?: number;
}

/** Columnar bars; typed arrays are accepted too. */
export interface ColumnarBars {
  time: ArrayLike<number>;
  open: ArrayLike<number>;
  high: ArrayLike<number>;
  low: ArrayLike<number>;
  close: ArrayLike<number>;
  volume?: ArrayLike<number>;
}

export type OhlcvInput = Bar[] | ColumnarBars;

/** Symbol description (the fields of the conformance symbol.toml files). */
export interface SymInfo {
  prefix?: string;
  ticker?: string;
  description?: string;
  type?: string;
  currency?: string;
  basecurrency?: string;
  mintick?: number;
  pricescale?: number;
  minmove?: number;
  pointvalue?: number;
  timezone?: string;
  /** TradingView session string, e.g. "0930-1600:23456" or "24x7". */
  session?: string;
  volumetype?: string;
  [key: string]: unknown;
}

export interface LibrarySource {
  namespace: string;
  name: string;
  version: number;
  source: string;
}

export interface RunOptions {
  mode?: Mode | string;
  inputs?: Record<string, unknown>;
  profiler?: boolean;
  timeoutSeconds?: number | null;
  /**
   * The run's memory budget in bytes for what it allocates from script-given sizes (history rings,
   * ta.* kernel memory, collections); past it the run ends with `Memory limits exceeded`. Default 1 GiB.
   */
  memoryLimitBytes?: number | null;
  libraries?: LibrarySource[];
  /** Bars of other symbols/timeframes: key "SYMBOL" or "SYMBOL|TIMEFRAME". */
  dataFeed?: Record<string, OhlcvInput>;
  realtimeLastBar?: boolean;
  realtimeTicks?: number;
  realtimeBars?: number;
  realtimeFromBar?: number;
  /**
   * Strategies: the backtest start (TradingView's strategy property). Orders count from the bar
   * opening at this time (UNIX ms) or from `{ bar: index }`; earlier bars still run, so indicators
   * warm up.
   */
  backtestStart?: number | { bar: number };
  /**
   * The caller reads only the strategy's closed trades (an optimize trial): output statements whose
   * leaving out changes nothing else are not run (check/unread-outputs.ts), so `series` and the
   * plots may lack them.
   */
  tradesOnly?: boolean;
}

export interface RuntimeOptions {
  inputs?: Record<string, unknown>;
  broker?: Record<string, unknown>;
  timeframe?: string;
  syminfo?: SymInfo;
}

export interface PlotMeta {
  title: string;
  kind: string;
  index: number;
  color?: string | null;
  linewidth?: number;
  style?: string;
  linestyle?: string;
  location?: string;
  text?: string;
  char?: string;
  size?: string;
  price?: number;
  plot1?: string;
  plot2?: string;
  display?: string;
  pane?: "overlay" | "own";
  [key: string]: unknown;
}

/** A plotcandle/plotbar output's prices per bar (plus its wick/border colours when they vary by bar). */
export interface PlotOhlc {
  open: (number | null)[];
  high: (number | null)[];
  low: (number | null)[];
  close: (number | null)[];
  wickcolor?: (string | null)[];
  bordercolor?: (string | null)[];
}

export interface StrategyEvent {
  kind: "entry" | "exit" | "close" | "close_all" | "cancel" | "cancel_all" | "order";
  id: string | null;
  direction: "long" | "short" | null;
  qty: number | null;
  order_type: string | null;
  limit: number | null;
  stop: number | null;
  oca_name: string | null;
  comment: string | null;
  bar_index: number;
  bar_time: number;
  ohlc: [number, number, number, number];
  script_id: string;
  run_id: string;
}

export interface Trade {
  trade_num: number;
  entry_id: string;
  entry_bar_index: number;
  entry_time: number;
  entry_price: number;
  entry_comment: string | null;
  exit_id: string | null;
  exit_bar_index: number | null;
  exit_time: number | null;
  exit_price: number | null;
  exit_comment: string | null;
  direction: "long" | "short";
  qty: number;
  profit: number;
  profit_percent: number;
  cum_profit: number;
  run_up: number;
  run_up_percent: number;
  drawdown: number;
  drawdown_percent: number;
  commission: number;
}

export interface StrategyStats {
  net_profit: number;
  net_profit_percent?: number;
  gross_profit: number;
  gross_loss: number;
  max_drawdown: number;
  max_drawdown_percent?: number;
  profit_factor: number | null;
  total_closed_trades: number;
  num_winning_trades: number;
  num_losing_trades: number;
  percent_profitable: number | null;
  avg_trade: number | null;
  avg_winning_trade: number | null;
  avg_losing_trade: number | null;
  sharpe_ratio: number | null;
  sortino_ratio: number | null;
  commission_paid: number;
  buy_and_hold_return: number | null;
  [key: string]: unknown;
}

export interface StrategyResult {
  trades: Trade[];
  open_trades: Trade[];
  stats: StrategyStats;
  equity: number[];
}

export interface AlertRecord {
  message: string;
  freq: "once_per_bar" | "once_per_bar_close" | "all";
  bar_index: number;
  time: number;
  source: "alert" | "alertcondition";
  title?: string;
}

export interface InputRecord {
  id: string;
  type: string;
  title: string;
  default: unknown;
  value: unknown;
  min?: number;
  max?: number;
  step?: number;
  options?: unknown[];
  tooltip?: string;
  inline?: string;
  group?: string;
  confirm?: boolean;
}

export interface LogRecord {
  level: "info" | "warning" | "error";
  message: string;
  bar_index: number;
  time: number;
}

export interface ProfileRecord {
  total_ms: number;
  bars: number;
  mode: string;
  phases: { parse_ms: number; check_ms: number; eval_ms: number };
  lines?: { line: number; ms: number; execs: number; pct: number }[];
}

export interface RunResult {
  mode: "interpret" | "compile";
  auto_backend?: "compile" | "interpret";
  compile_fallback_reason?: string;
  count: number;
  series: Record<string, (number | string | boolean | null)[]>;
  plots: (number | string | boolean | null)[];
  plot_meta: Record<string, PlotMeta>;
  /** plotcandle/plotbar outputs by title (an addition to service.md 1.2; see docs/compatibility.md). */
  plot_ohlc?: Record<string, PlotOhlc>;
  /** Per-bar colours of plots whose colour argument varies across bars (null: na colour or no value). */
  plot_colors?: Record<string, (string | null)[]>;
  /**
   * Built on first read. A bar's time and prices come from the run's input columns then (a
   * Float64Array input is the caller's own array, not copied): reading after writing into those
   * arrays throws an error rather than giving the new values (src/strategy/events.ts).
   */
  events: StrategyEvent[];
  strategy?: StrategyResult;
  drawings: Record<string, unknown>[];
  alerts: AlertRecord[];
  alert_conditions: Record<string, unknown>[];
  inputs: InputRecord[];
  logs: LogRecord[];
  profile: ProfileRecord;
  overlay: boolean;
  script_name: string;
  script_type: "indicator" | "strategy" | "library";
  script_id: string;
  run_id: string;
  meta: Record<string, unknown>;
  timed_out?: boolean;
  error?: string;
  error_kind?: ErrorKind;
  error_bar?: number;
  error_bar_time?: number;
  diagnostics?: Diagnostic[];
}
