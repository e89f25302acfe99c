// The PineForge corpus (tests/conformance/data/pineforge, see its README.md): TradingView "List of
// trades" exports of clean-room v6 strategies on Binance ETHUSDT perpetual 15m bars. This module
// loads a probe and compares resin's trades with the export under the corpus's rules
// (../shared/conformance/pineforge/README-resin.md):
//  - export times are UTC+8 (the exporter's chart zone), the strategies run in UTC;
//  - money is converted USDT -> USD at the daily rate of fx-usdtusd-daily.json (the FX:USDTUSD feed);
//  - mintick 0.01, quantity step 0.0001, crypto, pointvalue 1;
//  - the run starts where TradingView's chart history began (historyStart below), with no warm-up and
//    no backtest start: the script and its orders start on that bar, as on TradingView (one session
//    whose start is not settled keeps the warm-up feed and counts orders from its first entry).

import { readdirSync, readFileSync, existsSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { dataExists, PINEFORGE as PINEFORGE_DIR, readData } from "../helpers/data.js";
import type { Bar, StrategyResult, SymInfo, Trade } from "../../src/core/result.js";

export const PINEFORGE = pathToFileURL(`${PINEFORGE_DIR}/`);
const BAR_MS = 15 * 60_000;

export const PINEFORGE_SYMINFO: SymInfo = {
  mintick: 0.01,
  pricescale: 100,
  minmove: 1,
  pointvalue: 1,
  mincontract: 0.0001,
  currency: "USDT",
  type: "crypto",
  timezone: "UTC",
  session: "24x7",
} as SymInfo;

let barsCache: Bar[] | null = null;
/** The 15m feed with six months of warm-up (shared by every probe). */
export function pineforgeBars(): Bar[] {
  if (barsCache) return barsCache;
  const lines = readData(new URL("ohlcv_ETH-USDT-USDT_15m_warmup6m.csv", PINEFORGE)).trim().split(/\r?\n/);
  barsCache = lines.slice(1).map((l) => {
    const f = l.split(",");
    return {
      time: Number(f[0]),
      open: Number(f[1]),
      high: Number(f[2]),
      low: Number(f[3]),
      close: Number(f[4]),
      volume: Number(f[5]),
    };
  });
  return barsCache;
}

let fxCache: Bar[] | null = null;
/** FX:USDTUSD as daily bars (one per UTC day, the rate as every price). */
export function pineforgeFx(): Bar[] {
  if (fxCache) return fxCache;
  const rows = JSON.parse(readFileSync(new URL("fx-usdtusd-daily.json", PINEFORGE), "utf8")) as [string, number][];
  fxCache = rows.map(([d, r]) => ({
    time: Date.parse(`${d}T00:00:00Z`),
    open: r,
    high: r,
    low: r,
    close: r,
    volume: 0,
  }));
  return fxCache;
}

export interface TvTrade {
  num: number;
  direction: "long" | "short";
  entryTime: number;
  entrySignal: string;
  entryPrice: number;
  exitTime: number;
  exitSignal: string;
  exitPrice: number;
  open: boolean;
  qty: number;
  profit: string;
}

/** "2025-03-31 16:45" in UTC+8 -> ms. */
function tvTime(s: string): number {
  return Date.parse(`${s.replace(" ", "T")}:00+08:00`);
}

export function parseTvTrades(csv: string): TvTrade[] {
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/)
    .slice(1);
  const byNum = new Map<number, TvTrade>();
  for (const line of lines) {
    const f = line.split(",");
    const num = Number(f[0]);
    const [io, dir] = f[1]!.split(" ");
    let t = byNum.get(num);
    if (!t) {
      t = {
        num,
        direction: dir as "long" | "short",
        entryTime: NaN,
        entrySignal: "",
        entryPrice: NaN,
        exitTime: NaN,
        exitSignal: "",
        exitPrice: NaN,
        open: false,
        qty: Number(f[5]),
        profit: f[7]!,
      };
      byNum.set(num, t);
    }
    if (io === "Entry") {
      t.entryTime = tvTime(f[2]!);
      t.entrySignal = f[3]!;
      t.entryPrice = Number(f[4]);
    } else {
      t.exitTime = tvTime(f[2]!);
      t.exitSignal = f[3]!;
      t.exitPrice = Number(f[4]);
      t.open = f[3] === "Open";
    }
  }
  return [...byNum.values()].sort((a, b) => a.num - b.num);
}

export interface Probe {
  name: string;
  category: string;
  script: string;
  trades: TvTrade[];
  inputs: Record<string, unknown>;
  /** The first bar of TradingView's chart (historyStart), where the run starts; null: not known. */
  feedStart: number | null;
  /** Why the probe cannot run on this data, or null. */
  unavailable: string | null;
}

/**
 * Where TradingView's chart history began, per export session (measured on the visible exports, not
 * given by them). A session is known by the chart's last bar (the open trade's row) or, without an
 * open trade, by the day of TradingView's first entry:
 *  - charts ending 2026-04-01 00:00 or 2026-05-01 00:00, or first trading before 2025-04-05: history
 *    from 2025-03-31 00:00 UTC (inputs.json's ohlcv_start_ms says so for the probes that name it);
 *  - ending 2026-04-05 20:45, or first trading 2025-04-05 .. 2025-04-19: from 2025-04-05 00:00 UTC;
 *  - ending 2026-04-20 20:45, or first trading from 2025-04-20: not settled (no start tried matches
 *    exactly); run on the warm-up feed with orders counted from the bar before the first entry.
 * The run starts there with no warm-up and no backtest start, as TradingView's does: every probe of
 * the first two sessions then matches its first trades, where the warm-up feed with orders counted
 * from TradingView's first entry missed 53 trades in 26 probes. inputs.json's `ohlcv_csv` (the
 * window-only feed from 2025-04-20 21:00) is not TradingView's history: those trades start earlier.
 */
const MAR31 = Date.UTC(2025, 2, 31);
const APR5 = Date.UTC(2025, 3, 5);
const APR20 = Date.UTC(2025, 3, 20);
const ENDS_APR5 = Date.UTC(2026, 3, 5, 20, 45);
const ENDS_APR20 = Date.UTC(2026, 3, 20, 20, 45);

/** The history start (ms), or null when the probe's session start is not known. */
function historyStart(trades: TvTrade[], meta: Record<string, unknown>): number | null {
  if (typeof meta.ohlcv_start_ms === "number") return meta.ohlcv_start_ms;
  const open = trades.find((t) => t.open);
  if (open) return open.exitTime === ENDS_APR5 ? APR5 : open.exitTime === ENDS_APR20 ? null : MAR31;
  const first = Math.min(...trades.map((t) => t.entryTime));
  return first >= APR20 ? null : first >= APR5 ? APR5 : MAR31;
}

export function probeNames(): string[] {
  return readdirSync(new URL("validation/", PINEFORGE)).sort();
}

export function loadProbe(name: string): Probe {
  const dir = new URL(`validation/${name}/`, PINEFORGE);
  const script = readData(new URL("strategy.pine", dir));
  const tradesUrl = new URL("tv_trades.csv", dir);
  const trades = dataExists(tradesUrl) ? parseTvTrades(readData(tradesUrl)) : [];
  const meta = existsSync(new URL("inputs.json", dir))
    ? (JSON.parse(readFileSync(new URL("inputs.json", dir), "utf8")) as Record<string, unknown>)
    : {};
  const inputs: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(meta))
    if (!k.startsWith("_") && !/^(tv_|ohlcv_|runtime_|expected_|notes)/.test(k)) inputs[k] = v;
  const feedStart = trades.length > 0 ? historyStart(trades, meta) : null;
  let unavailable: string | null = null;
  if (trades.length === 0)
    unavailable = `no TradingView export for the default inputs (${String(meta.tv_trades_csv ?? "none")})`;
  else if (/use_bar_magnifier\s*=\s*true/.test(script) || /^(magnifier|ltf)-/.test(name))
    unavailable = "needs the 1-minute feed, not in the set";
  else if (/request\.security_lower_tf/.test(script)) unavailable = "request.security_lower_tf needs the 1-minute feed";
  return { name, category: name.split("-")[0]!, script, trades, inputs, feedStart, unavailable };
}

/**
 * Bars of TradingView's chart: from its history start to where the export's open trade's row is
 * dated (that bar is the last); without an open trade the end is unknown, and only trades entered up
 * to the export's last row are scored. Where the history start is not known, the whole warm-up feed
 * with a backtest start at the bar before TradingView's first entry.
 */
export function probeRun(p: Probe): { bars: Bar[]; backtestStart: number | undefined; lastRow: number } {
  const all = pineforgeBars();
  const open = p.trades.find((t) => t.open);
  const end = open ? open.exitTime : Infinity;
  const start = p.feedStart ?? 0;
  const bars = all.filter((b) => b.time >= start && b.time <= end);
  const first = Math.min(...p.trades.map((t) => t.entryTime));
  const lastRow = Math.max(...p.trades.map((t) => (t.exitTime === t.exitTime ? t.exitTime : t.entryTime)));
  return { bars, backtestStart: p.feedStart === null ? first - BAR_MS : undefined, lastRow };
}

export interface ProbeScore {
  matched: number;
  total: number;
  ours: number;
  mismatches: string[];
}

const iso = (t: number | null) => (t === null || t !== t ? "open" : new Date(t).toISOString().slice(0, 16));

/**
 * Trade by trade: TradingView's trades are matched to resin's with the same entry time, direction
 * and entry signal (in order, so a shifted first trade does not shift the rest); a match counts when
 * exit time and signal, both prices (to the tick), size (to the 0.0001 step) and net P&L (to the
 * export's cent, with a cent of slack for the reconstructed daily USD rate) agree. An open trade
 * must be open.
 */
export function scoreProbe(
  result: StrategyResult | undefined,
  tv: TvTrade[],
  lastRow: number,
  maxReport = 4,
): ProbeScore {
  const ours: Trade[] = (result ? [...result.trades, ...result.open_trades] : []).filter(
    (t) => t.entry_time <= lastRow,
  );
  const byKey = new Map<string, Trade[]>();
  for (const t of ours) {
    const k = `${t.entry_time}|${t.direction}|${t.entry_comment ?? t.entry_id}`;
    const q = byKey.get(k);
    if (q) q.push(t);
    else byKey.set(k, [t]);
  }
  const mismatches: string[] = [];
  let matched = 0;
  for (const e of tv) {
    const q = byKey.get(`${e.entryTime}|${e.direction}|${e.entrySignal}`);
    const t = q?.shift();
    const bad: string[] = [];
    if (!t) bad.push(`missing (${e.direction} ${e.entrySignal} at ${iso(e.entryTime)})`);
    else {
      if (Math.abs(t.entry_price - e.entryPrice) > 0.005) bad.push(`entry_price ${t.entry_price} vs ${e.entryPrice}`);
      if (Math.abs(t.qty - e.qty) > 0.00005) bad.push(`qty ${t.qty} vs ${e.qty}`);
      if (e.open) {
        if (t.exit_time !== null) bad.push(`closed at ${iso(t.exit_time)}, TradingView: open`);
      } else {
        if (t.exit_time !== e.exitTime) bad.push(`exit_time ${iso(t.exit_time)} vs ${iso(e.exitTime)}`);
        const sig = t.exit_comment ?? t.exit_id ?? "";
        if (sig !== e.exitSignal) bad.push(`exit signal ${sig} vs ${e.exitSignal}`);
        if (t.exit_price === null || Math.abs(t.exit_price - e.exitPrice) > 0.005)
          bad.push(`exit_price ${t.exit_price} vs ${e.exitPrice}`);
        if (!(Math.abs(t.profit - Number(e.profit)) <= 0.015 + 1e-6 * Math.abs(t.profit)))
          bad.push(`profit ${t.profit.toFixed(4)} vs ${e.profit}`);
      }
    }
    if (bad.length === 0) matched++;
    else if (mismatches.length < maxReport) mismatches.push(`trade ${e.num}: ${bad.join("; ")}`);
  }
  if (ours.length !== tv.length && mismatches.length < maxReport)
    mismatches.push(`${ours.length} trades vs TradingView's ${tv.length}`);
  return { matched, total: tv.length, ours: ours.length, mismatches };
}
