// Test support: a minimal ExecContext over in-memory bars, a bar loop that drives a Broker the way
// the Runtime does, the reader/comparer of TradingView's exported List of trades, and an event log's layout.

import { sep } from "node:path";
import { pathToFileURL } from "node:url";
import { readData, tradingview } from "../helpers/data.js";
import type { ExecContext } from "../../src/builtins/types.js";
import type { StrategyResult, SymInfo, Trade } from "../../src/core/result.js";
import { createBroker, type Broker } from "../../src/strategy/index.js";
import type { EventLog } from "../../src/strategy/events.js";

export interface Columns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export function columnsOf(
  rows: [number, number, number, number, number?][],
  t0 = Date.UTC(2024, 0, 1),
  stepMs = 3_600_000,
): Columns {
  const n = rows.length;
  const c: Columns = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  rows.forEach((r, i) => {
    c.time[i] = t0 + i * stepMs;
    c.open[i] = r[0];
    c.high[i] = r[1];
    c.low[i] = r[2];
    c.close[i] = r[3];
    c.volume[i] = r[4] ?? 0;
  });
  return c;
}

export function makeCtx(
  cols: Columns,
  syminfo: Partial<SymInfo> = {},
  opts: { barMs?: number; version?: number; ext?: Record<string, unknown> } = {},
): ExecContext {
  const si = { mintick: 0.01, pointvalue: 1, timezone: "Etc/UTC", currency: "USD", type: "crypto", ...syminfo };
  const ctx: ExecContext = {
    version: opts.version ?? 6,
    barIndex: 0,
    barCount: cols.time.length,
    time: NaN,
    timeClose: NaN,
    open: NaN,
    high: NaN,
    low: NaN,
    close: NaN,
    volume: NaN,
    columns: cols,
    syminfo: si as ExecContext["syminfo"],
    timeframe: "60",
    isRealtime: false,
    isNewTick: false,
    isConfirmed: true,
    kernels: null,
    broker: null,
    ext: { scriptId: "test-script", runId: "test-run", ...(opts.ext ?? {}) },
    log() {},
    runtimeError(message: string): never {
      throw new Error(message);
    },
  };
  (ctx as ExecContext & { barMs: number }).barMs =
    opts.barMs ?? (cols.time.length > 1 ? cols.time[1] - cols.time[0] : 3_600_000);
  return ctx;
}

/** An order-event log's host on input bar `b` as it is: its time and prices read from `columns`. */
export function inputBarHost(columns: Record<"time" | "open" | "high" | "low" | "close", Float64Array>, b: number) {
  return {
    barIndex: b,
    time: columns.time[b],
    open: columns.open[b],
    high: columns.high[b],
    low: columns.low[b],
    close: columns.close[b],
    ext: { scriptId: "s", runId: "r" },
    columns,
  };
}

export function setBar(ctx: ExecContext, i: number): void {
  const c = ctx.columns;
  ctx.barIndex = i;
  ctx.time = c.time[i];
  ctx.timeClose = c.time[i] + (ctx as ExecContext & { barMs: number }).barMs;
  ctx.open = c.open[i];
  ctx.high = c.high[i];
  ctx.low = c.low[i];
  ctx.close = c.close[i];
  ctx.volume = c.volume[i];
}

/** Runs `script` on every bar between the broker's onBarOpen and onBarClose, like the Runtime. */
export function replay(
  ctx: ExecContext,
  settings: Record<string, unknown>,
  script: (i: number, ctx: ExecContext, broker: Broker) => void,
  setup?: (broker: Broker) => void,
): { result: StrategyResult; broker: Broker } {
  const broker = createBroker(settings, ctx);
  ctx.broker = broker;
  setup?.(broker);
  for (let i = 0; i < ctx.barCount; i++) {
    setBar(ctx, i);
    broker.onBarOpen(ctx);
    script(i, ctx, broker);
    broker.onBarClose(ctx);
  }
  return { result: broker.finish(ctx), broker };
}

// ---------------------------------------------------------------- conformance data

export const CONFORMANCE = pathToFileURL(tradingview("strategy") + sep);

export function readOhlcv(path: URL): Columns {
  const lines = readData(path).trim().split(/\r?\n/);
  const n = lines.length - 1;
  const c: Columns = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const f = lines[i + 1].split(",");
    c.time[i] = Number(f[0]) * 1000;
    c.open[i] = Number(f[1]);
    c.high[i] = Number(f[2]);
    c.low[i] = Number(f[3]);
    c.close[i] = Number(f[4]);
    c.volume[i] = Number(f[5]);
  }
  return c;
}

export interface CaseData {
  name: string;
  cols: Columns;
  settings: { symbol: Record<string, unknown>; strategy: Record<string, unknown>; inputs: Record<string, unknown> };
  script: string;
  trades: ExpectedTrade[];
}

export function loadCase(name: string): CaseData {
  const dir = new URL(`${name}/`, CONFORMANCE);
  return {
    name,
    cols: readOhlcv(new URL("ohlcv.csv", dir)),
    settings: JSON.parse(readData(new URL("settings.json", dir))),
    script: readData(new URL("script.pine", dir)),
    trades: parseTrades(readData(new URL("trades.csv", dir))),
  };
}

/** syminfo from a case's settings.json (the "type" note of the EURUSD cases reads as forex). */
export function syminfoOf(sym: Record<string, unknown>): Partial<SymInfo> {
  const type = typeof sym.type === "string" ? (/forex/.test(sym.type) ? "forex" : sym.type.split(" ")[0]) : "forex";
  return {
    mintick: sym.mintick as number,
    pricescale: sym.pricescale as number,
    minmove: sym.minmove as number,
    pointvalue: sym.pointvalue as number,
    timezone: sym.timezone as string,
    currency: sym.currency as string,
    type,
  };
}

export interface ExpectedTrade {
  num: number;
  direction: "long" | "short";
  entryTime: number;
  entrySignal: string;
  entryPrice: string;
  exitTime: number;
  exitSignal: string;
  exitPrice: string;
  open: boolean;
  qty: string;
  profit: string;
  runUp: string;
  drawdown: string;
  cumProfit: string;
}

/** "2022-01-02T19:00:00-0500" -> ms. */
export function parseTvTime(s: string): number {
  return Date.parse(s.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
}

export function parseTrades(csv: string): ExpectedTrade[] {
  const lines = csv.trim().split(/\r?\n/).slice(1);
  const byNum = new Map<number, ExpectedTrade>();
  for (const line of lines) {
    const f = line.split(",");
    const num = Number(f[0]);
    const [io, dir] = f[1].split(" ");
    let t = byNum.get(num);
    if (!t) {
      t = {
        num,
        direction: dir as "long" | "short",
        entryTime: NaN,
        entrySignal: "",
        entryPrice: "",
        exitTime: NaN,
        exitSignal: "",
        exitPrice: "",
        open: false,
        qty: f[5],
        profit: f[7],
        runUp: f[9],
        drawdown: f[11],
        cumProfit: f[13],
      };
      byNum.set(num, t);
    }
    if (io === "Entry") {
      t.entryTime = parseTvTime(f[2]);
      t.entrySignal = f[3];
      t.entryPrice = f[4];
    } else {
      t.exitTime = parseTvTime(f[2]);
      t.exitSignal = f[3];
      t.exitPrice = f[4];
    }
  }
  const out = [...byNum.values()].sort((a, b) => a.num - b.num);
  // The last trade is still open when its exit signal reads "Open" (or is empty, futures_pnl).
  const last = out[out.length - 1];
  if (last && (last.exitSignal === "Open" || last.exitSignal === "")) last.open = true;
  return out;
}

/**
 * An exported money value matches when ours, rounded like the export, shows the same digits. The
 * export rounds to at least 2 decimals (trailing zeros dropped by the re-serialisation). Both sides
 * accumulate floating-point sums in their own order, so a value within 1e-7 (relative) of a rounding
 * boundary may round either way: that much slack is allowed, no more.
 */
export function matchesExport(ours: number, exported: string): boolean {
  const e = Number(exported);
  const dot = exported.indexOf(".");
  const decimals = dot < 0 ? 0 : exported.length - dot - 1;
  const tol = 0.5 * 10 ** -Math.max(2, decimals) + 1e-7 * Math.max(1, Math.abs(e));
  return Math.abs(ours - e) <= tol;
}

export interface TradeComparison {
  matched: number;
  total: number;
  mismatches: string[];
}

function signal(id: string | null, comment: string | null): string {
  return comment ?? id ?? "";
}

/** Compares every trade row: times, direction, signals, prices (to mintick), size, P&L, run-up, drawdown, cumulative P&L. */
export function compareTrades(
  result: StrategyResult,
  expected: ExpectedTrade[],
  mintick: number,
  maxReport = 5,
): TradeComparison {
  const ours: Trade[] = [...result.trades, ...result.open_trades];
  const mismatches: string[] = [];
  let matched = 0;
  for (let k = 0; k < expected.length; k++) {
    const e = expected[k];
    const t = ours[k];
    const bad: string[] = [];
    if (!t) bad.push("missing");
    else {
      if (t.direction !== e.direction) bad.push(`direction ${t.direction}`);
      if (t.entry_time !== e.entryTime)
        bad.push(`entry_time ${new Date(t.entry_time).toISOString()} vs ${new Date(e.entryTime).toISOString()}`);
      if (signal(t.entry_id, t.entry_comment) !== e.entrySignal)
        bad.push(`entry signal ${signal(t.entry_id, t.entry_comment)} vs ${e.entrySignal}`);
      if (Math.abs(t.entry_price - Number(e.entryPrice)) > mintick / 2)
        bad.push(`entry_price ${t.entry_price} vs ${e.entryPrice}`);
      if (Math.abs(t.qty - Number(e.qty)) > 1e-9 * Math.max(1, Math.abs(t.qty))) bad.push(`qty ${t.qty} vs ${e.qty}`);
      if (e.open) {
        if (t.exit_time !== null) bad.push(`closed at ${new Date(t.exit_time).toISOString()}, TradingView: open`);
      } else {
        if (t.exit_time !== e.exitTime)
          bad.push(
            `exit_time ${t.exit_time === null ? "open" : new Date(t.exit_time).toISOString()} vs ${new Date(e.exitTime).toISOString()}`,
          );
        if (signal(t.exit_id, t.exit_comment) !== e.exitSignal)
          bad.push(`exit signal ${signal(t.exit_id, t.exit_comment)} vs ${e.exitSignal}`);
        if (t.exit_price === null || Math.abs(t.exit_price - Number(e.exitPrice)) > mintick / 2)
          bad.push(`exit_price ${t.exit_price} vs ${e.exitPrice}`);
        if (!matchesExport(t.profit, e.profit)) bad.push(`profit ${t.profit} vs ${e.profit}`);
        if (!matchesExport(t.run_up, e.runUp)) bad.push(`run_up ${t.run_up} vs ${e.runUp}`);
        if (!matchesExport(t.drawdown, e.drawdown)) bad.push(`drawdown ${t.drawdown} vs ${e.drawdown}`);
        if (!matchesExport(t.cum_profit, e.cumProfit)) bad.push(`cum_profit ${t.cum_profit} vs ${e.cumProfit}`);
      }
    }
    if (bad.length === 0) matched++;
    else if (mismatches.length < maxReport) mismatches.push(`trade ${e.num}: ${bad.join("; ")}`);
  }
  if (ours.length > expected.length && mismatches.length < maxReport)
    mismatches.push(`${ours.length - expected.length} extra trades`);
  return { matched, total: expected.length, mismatches };
}

/**
 * A random held position for the margin tests (quiet-bars, fast-paths): 1-3 trades on one side, the
 * capital around the position's value (calls at prices near the entries), margins from 0 to 100%.
 * `make(fast)` opens the trades in a new broker with the margin check's price line on or off;
 * `level` is the call level worked out in doubles, where equity meets the margin (not a positive
 * finite number when there is none). `pick` draws from `rnd` too, for the caller's own choices.
 */
/**
 * What a broker booked, for comparing two runs of it (a fast path against the full walk): the result's
 * trades, equity and stats, and copies of the open trades (their fill and trail lists included).
 */
export function brokerOutcome(b: Broker) {
  const res = b.finish(null as unknown as ExecContext);
  return {
    trades: res.trades,
    equity: res.equity,
    stats: res.stats,
    open: b.ledger.open.map((t) => ({
      ...t,
      exitFilled: t.exitFilled === null ? [] : [...t.exitFilled],
      trail: t.trail === null ? null : [...t.trail],
    })),
  };
}

export function randomMarginCase(rnd: () => number, ctx: ExecContext) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const side = rnd() < 0.5 ? 1 : -1;
  const trades = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => ({
    qty: pick([1, 3, 0.5, 17.25, 100]),
    price: 50 + Math.floor(rnd() * 10000) / 100,
    commission: pick([0, 0.1, 1.37]),
  }));
  let value = 0;
  for (const t of trades) value += t.qty * t.price;
  const settings = {
    initial_capital: Math.round(value * pick([0.3, 0.55, 1, 1.7, 40])),
    margin_long: pick([100, 50, 25, 3.3, 0]),
    margin_short: pick([100, 50, 25, 3.3, 0]),
  };
  const make = (fast: boolean): Broker => {
    const b = createBroker(settings, ctx);
    b.risk.fastPath = fast;
    for (const t of trades) b.ledger.openTrade("L", null, side, t.qty, t.price, t.commission, 0, 0);
    return b;
  };
  const m = (side > 0 ? settings.margin_long : settings.margin_short) / 100;
  let fixed = settings.initial_capital;
  let perPrice = 0;
  let size = 0;
  for (const t of trades) {
    fixed -= t.price * side * t.qty + t.commission;
    perPrice += side * t.qty;
    size += t.qty;
  }
  return { side, settings, make, pick, level: -fixed / (perPrice - size * m) };
}

/** How an event log stores what it logged: [slots, groups, runs] (EventLog's private counts). */
export function logLayout(log: EventLog): [number, number, number] {
  const l = log as unknown as { slots: number; groups: number; runCount: number };
  return [l.slots, l.groups, l.runCount];
}
