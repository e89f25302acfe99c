// What crosses the boundary between the page and a runtime worker. Bars go in as columnar
// Float64Arrays and numeric plot columns come back as Float64Arrays, both transferred (moved, not
// copied or serialised), so a 100k-bar run never goes through JSON or per-cell structured cloning.

import type { Bar, ColumnarBars, RunOptions, RunResult, RuntimeOptions } from "../core/result.js";
import { initialCapitalOf, type TrialOutcome } from "../optimize/study.js";
// (stats.js itself: the page's side of the pool loads this module too, and needs no broker)
import { releaseStrategyStores, scoredTrades } from "../strategy/stats.js";

/** Bars as six parallel columns; volume is NaN where the data had none. */
export interface PackedBars {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export const BAR_FIELDS = ["time", "open", "high", "low", "close", "volume"] as const;

/** A plot column as the page sees it: numeric columns are Float64Array (na = NaN), others stay arrays. */
export type SeriesColumn = Float64Array | readonly (number | string | boolean | null)[];

/** A plotcandle/plotbar output with its price columns possibly packed. */
export interface PackedOhlc {
  open: SeriesColumn;
  high: SeriesColumn;
  low: SeriesColumn;
  close: SeriesColumn;
  wickcolor?: readonly (string | null)[];
  bordercolor?: readonly (string | null)[];
}

/** RunResult with its `series` and `plot_ohlc` columns possibly packed. */
export type PackedRunResult = Omit<RunResult, "series" | "plots" | "plot_ohlc"> & {
  series: Record<string, SeriesColumn>;
  plots?: SeriesColumn;
  plot_ohlc?: Record<string, PackedOhlc>;
  /** Time the worker spent on the request, from receipt to reply (tells transport from engine time). */
  worker_ms?: number;
};

/** An optimize trial: a run of `source` over bars [from, to) of a stored set, with input overrides. */
export interface TrialRequest {
  source: string;
  /** Key of bars previously handed to the worker with setBars. */
  barsKey: string;
  symbol?: string;
  runtime?: RuntimeOptions;
  options?: RunOptions;
  /** Evaluate only bars [from, to) of the stored set (optimize validation slices). */
  slice?: [number, number];
}

/** A run whose whole result comes back (or its lean part). */
export interface RunRequest extends TrialRequest {
  /** Drop series, drawings and events from the reply (optimize trials need trades and stats only). */
  lean?: boolean;
}

export function packBars(bars: readonly Bar[] | ColumnarBars | PackedBars): PackedBars {
  if (!Array.isArray(bars)) {
    const c = bars as ColumnarBars;
    const n = c.time.length;
    const col = (a: ArrayLike<number> | undefined): Float64Array => {
      const out = new Float64Array(n);
      if (!a) return out.fill(NaN);
      for (let i = 0; i < n; i++) out[i] = a[i] == null ? NaN : a[i];
      return out;
    };
    return {
      time: col(c.time),
      open: col(c.open),
      high: col(c.high),
      low: col(c.low),
      close: col(c.close),
      volume: col(c.volume),
    };
  }
  const rows = bars as readonly Bar[];
  const n = rows.length;
  const p: PackedBars = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const b = rows[i];
    p.time[i] = b.time;
    p.open[i] = b.open;
    p.high[i] = b.high;
    p.low[i] = b.low;
    p.close[i] = b.close;
    p.volume[i] = b.volume ?? NaN;
  }
  return p;
}

/** A copy of the columns (each worker needs its own: transferring moves the buffer). */
export function cloneBars(p: PackedBars, from = 0, to = p.time.length): PackedBars {
  return {
    time: p.time.slice(from, to),
    open: p.open.slice(from, to),
    high: p.high.slice(from, to),
    low: p.low.slice(from, to),
    close: p.close.slice(from, to),
    volume: p.volume.slice(from, to),
  };
}

/**
 * Bars [from, to) as views of the same columns (no copy): a run never writes into its input
 * columns, so every trial and fold of a study reads the one set a worker holds.
 */
export function sliceBars(p: PackedBars, from = 0, to = p.time.length): PackedBars {
  if (from === 0 && to === p.time.length) return p;
  return {
    time: p.time.subarray(from, to),
    open: p.open.subarray(from, to),
    high: p.high.subarray(from, to),
    low: p.low.subarray(from, to),
    close: p.close.subarray(from, to),
    volume: p.volume.subarray(from, to),
  };
}

/**
 * The columns copied into SharedArrayBuffers where the host has them (Node's worker threads, an
 * isolated page): a message carrying them then shares the memory instead of copying it, so every
 * trial of a study can name the study's bars at no cost. Plain copies elsewhere.
 */
export function shareBars(p: PackedBars): PackedBars {
  const n = p.time.length;
  const col = (a: Float64Array): Float64Array => {
    if (typeof SharedArrayBuffer !== "function") return a.slice();
    const out = new Float64Array(new SharedArrayBuffer(n * 8));
    out.set(a);
    return out;
  };
  return {
    time: col(p.time),
    open: col(p.open),
    high: col(p.high),
    low: col(p.low),
    close: col(p.close),
    volume: col(p.volume),
  };
}

export function barsBuffers(p: PackedBars): ArrayBuffer[] {
  return BAR_FIELDS.map((f) => p[f].buffer as ArrayBuffer);
}

/** Columnar bars for the Runtime; volume is left out when the data had none. */
export function toColumnar(p: PackedBars): ColumnarBars {
  const hasVolume = p.volume.some((v) => v === v);
  return hasVolume ? p : { time: p.time, open: p.open, high: p.high, low: p.low, close: p.close };
}

/**
 * Replaces every all-numeric series column (numbers and nulls) and every plot_ohlc price column by a
 * Float64Array and returns the buffers to transfer. Columns of colours (strings) or shape flags
 * (true/null) are left as they are.
 */
export function packSeries(result: RunResult): { packed: PackedRunResult; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const pack = (cells: readonly (number | string | boolean | null)[]): SeriesColumn => {
    const col = numericColumn(cells);
    if (!col) return cells;
    transfer.push(col.buffer as ArrayBuffer);
    return col;
  };
  const series: Record<string, SeriesColumn> = {};
  for (const [title, cells] of Object.entries(result.series ?? {})) series[title] = pack(cells);
  const { plot_ohlc, ...rest } = result;
  const packed: PackedRunResult = { ...rest, series };
  if (plot_ohlc) {
    packed.plot_ohlc = {};
    for (const [title, o] of Object.entries(plot_ohlc)) {
      packed.plot_ohlc[title] = {
        ...o,
        open: pack(o.open),
        high: pack(o.high),
        low: pack(o.low),
        close: pack(o.close),
      };
    }
  }
  delete packed.plots; // the first series again; the page reads it from `series`
  return { packed, transfer };
}

function numericColumn(cells: readonly unknown[]): Float64Array | null {
  const n = cells.length;
  let sawNumber = false;
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    if (typeof v === "number") sawNumber = true;
    else if (v !== null && v !== undefined) return null;
  }
  if (!sawNumber && n > 0) return null; // all-na shape columns keep their array form
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = cells[i];
    out[i] = typeof v === "number" ? v : NaN;
  }
  return out;
}

/**
 * The inverse of packSeries, for a result that leaves the page (an optimize answer's best_result):
 * packed columns back to arrays, NaN as null (na, as a JSON result has it), and `plots` as the first
 * series again.
 */
export function unpackSeries(packed: PackedRunResult): Omit<RunResult, "events"> & { events?: RunResult["events"] } {
  const unpack = (col: SeriesColumn): (number | string | boolean | null)[] =>
    col instanceof Float64Array ? Array.from(col, (v) => (v === v ? v : null)) : [...col];
  const { plot_ohlc, worker_ms: _w, plots: _p, ...rest } = packed;
  const series: Record<string, (number | string | boolean | null)[]> = {};
  for (const [title, col] of Object.entries(packed.series)) series[title] = unpack(col);
  const first = Object.keys(series)[0];
  const out: Omit<RunResult, "events"> & { events?: RunResult["events"] } = {
    ...rest,
    series,
    plots: first !== undefined ? series[first]! : [],
  };
  if (plot_ohlc) {
    out.plot_ohlc = {};
    for (const [title, o] of Object.entries(plot_ohlc))
      out.plot_ohlc[title] = {
        ...o,
        open: unpack(o.open),
        high: unpack(o.high),
        low: unpack(o.low),
        close: unpack(o.close),
      } as NonNullable<RunResult["plot_ohlc"]>[string];
  }
  return out;
}

/** Drops what an optimize trial does not need so the reply stays small. */
export function leanResult(result: RunResult): PackedRunResult {
  return {
    ...result,
    series: {},
    plots: undefined,
    plot_meta: {},
    plot_ohlc: undefined,
    plot_colors: undefined,
    drawings: [],
    events: [],
    alert_conditions: [],
    strategy: result.strategy ? { ...result.strategy, equity: [] } : undefined,
  };
}

/**
 * What an optimize trial's run needs from the broker, on every host: every closed trade (the study
 * scores the whole list; TradingView's 9,000-trade trimming would drop the oldest ones), no
 * order-event log (the study never reads result.events) and no per-bar equity figures (it scores the
 * closed trades' profits: result.strategy.equity and the drawdown statistics stay unread; a script
 * that reads them itself keeps them, check/equity-reads.ts).
 */
export const TRIAL_BROKER: Record<string, unknown> = {
  trade_limit: Infinity,
  record_events: false,
  track_equity: false,
};

/**
 * A trial run's options: its reply is the closed trades (TrialReply), so the outputs whose leaving
 * out changes nothing else are not run (RunOptions.tradesOnly, check/unread-outputs.ts).
 */
export function trialRunOptions(options: RunOptions | undefined): RunOptions {
  return { ...options, tradesOnly: true };
}

/**
 * A trial's reply: only what the study reads (optimize/study.ts TrialOutcome), the closed trades as
 * two transferred columns. A few hundred bytes instead of the whole result (trades with all their
 * fields, inputs, logs, meta), so the page spends next to nothing per trial.
 */
export interface TrialReply {
  error: string | null;
  error_kind: string | null;
  timed_out: boolean;
  initial_capital: number;
  /** Closed trades' profit, in trade order. */
  profit: Float64Array;
  /** Closed trades' exit bar index (NaN where a trade has none). */
  exit_bar: Float64Array;
  /** Time the worker spent on the request, from receipt to reply. */
  worker_ms: number;
  /** Time the worker sat idle before this request, since its previous trial's reply (0 for its first). */
  idle_ms: number;
}

export function trialReply(result: RunResult, workerMs: number): { reply: TrialReply; transfer: ArrayBuffer[] } {
  const { profit, exitBar } = (result.strategy && scoredTrades(result.strategy)) ?? tradeColumns(result);
  const reply: TrialReply = {
    error: result.error ?? null,
    error_kind: result.error_kind ?? null,
    timed_out: result.timed_out ?? false,
    initial_capital: initialCapitalOf(result),
    profit,
    exit_bar: exitBar,
    worker_ms: workerMs,
    idle_ms: 0,
  };
  return { reply, transfer: [profit.buffer as ArrayBuffer, exitBar.buffer as ArrayBuffer] };
}

/**
 * trialReply for a result its caller drops after (an optimize trial's): the reply holds copies of
 * what it needs, and the run's typed-array stores go to the next run's broker (stats.ts
 * releaseStrategyStores) instead of becoming memory V8 charges to its next mark-compact.
 */
export function spentTrialReply(result: RunResult, workerMs: number): { reply: TrialReply; transfer: ArrayBuffer[] } {
  const answer = trialReply(result, workerMs);
  if (result.strategy) releaseStrategyStores(result.strategy);
  return answer;
}

/** The scored columns read from result.strategy.trades (a result whose trades were read or built elsewhere). */
function tradeColumns(result: RunResult): { profit: Float64Array; exitBar: Float64Array } {
  const trades = result.strategy?.trades ?? [];
  const n = trades.length;
  const profit = new Float64Array(n);
  const exitBar = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = trades[i]!;
    profit[i] = t.profit;
    exitBar[i] = t.exit_bar_index ?? NaN;
  }
  return { profit, exitBar };
}

/** The reply as the study reads it (same error, capital and scored trades as the full result). */
export function trialOutcome(r: TrialReply): TrialOutcome {
  const trades: { profit: number; exit_bar_index: number | null }[] = new Array(r.profit.length);
  for (let i = 0; i < r.profit.length; i++) {
    const exit = r.exit_bar[i]!;
    trades[i] = { profit: r.profit[i]!, exit_bar_index: exit === exit ? exit : null };
  }
  return {
    error: r.error,
    error_kind: r.error_kind ?? undefined,
    timed_out: r.timed_out,
    meta: { initial_capital: r.initial_capital },
    strategy: { trades },
  };
}
