// "Compare with TradingView": a run's trades or plots against TradingView's own exports, trade by
// trade and plot by plot, down to the first difference (with the bar to show it on). The rules are
// the conformance suite's: prices agree to half a tick, money to the export's rounding, plot values
// to 1e-9 relative (or the export's rounding when it wrote fewer decimals), na only with na.

import type { Trade } from "../../../src/core/result.js";
import type { PackedRunResult } from "../../../src/worker/protocol.js";
import type { TvTrade } from "./tv-trades.js";

export interface Difference {
  /** What differs: "trade 12: exit price" or "plot RSI". */
  where: string;
  field: string;
  ours: string;
  theirs: string;
  /** The chart bar to show (entry or exit bar of the trade, the plot's row). */
  bar: number | null;
}

export interface TradeRowStatus {
  num: number;
  direction: string;
  agree: boolean;
  /** The first field that differs on this row. */
  field?: string;
}

export interface TradesComparison {
  kind: "trades";
  total: number;
  agreed: number;
  extraOurs: number;
  rows: TradeRowStatus[];
  first: Difference | null;
}

export interface PlotComparison {
  title: string;
  compared: number;
  agreed: number;
  first: Difference | null;
}

export interface PlotsComparison {
  kind: "plots";
  rows: number;
  matchedRows: number;
  plots: PlotComparison[];
  /** Export columns with no plot of that title in the run. */
  unmatched: string[];
  first: Difference | null;
}

/** A money value agrees when ours, rounded like the export (at least 2 decimals), shows its digits. */
export function moneyAgrees(ours: number, exported: string): boolean {
  const e = Number(exported);
  if (exported.trim() === "" || e !== e) return false;
  const dot = exported.indexOf(".");
  const decimals = dot < 0 ? 0 : exported.length - dot - 1;
  const tol = 0.5 * 10 ** -Math.max(2, decimals) + 1e-7 * Math.max(1, Math.abs(e));
  return Math.abs(ours - e) <= tol;
}

const signal = (id: string | null, comment: string | null) => comment ?? id ?? "";
const iso = (ms: number | null) =>
  ms === null || ms !== ms ? "open" : new Date(ms).toISOString().slice(0, 16).replace("T", " ");

export function compareTrades(result: PackedRunResult, theirs: readonly TvTrade[], mintick: number): TradesComparison {
  const st = result.strategy;
  const ours: Trade[] = st ? [...st.trades, ...st.open_trades] : [];
  // the list may be trimmed to the newest trades: pair by trade number
  const byNum = new Map(ours.map((t) => [t.trade_num, t]));
  const rows: TradeRowStatus[] = [];
  let first: Difference | null = null;
  let agreed = 0;
  for (const e of theirs) {
    const t = byNum.get(e.num);
    const checks: [string, boolean, string, string, "entry" | "exit"][] = [];
    if (!t) checks.push(["missing in resin", false, "—", `${e.direction} ${iso(e.entryTime)}`, "entry"]);
    else {
      const px = (a: number | null, b: string) => a !== null && Math.abs(a - Number(b)) <= mintick / 2 + 1e-12;
      checks.push(
        ["direction", t.direction === e.direction, t.direction, e.direction, "entry"],
        ["entry time", t.entry_time === e.entryTime, iso(t.entry_time), iso(e.entryTime), "entry"],
        [
          "entry signal",
          signal(t.entry_id, t.entry_comment) === e.entrySignal,
          signal(t.entry_id, t.entry_comment),
          e.entrySignal,
          "entry",
        ],
        ["entry price", px(t.entry_price, e.entryPrice), String(t.entry_price), e.entryPrice, "entry"],
        ["size", Math.abs(t.qty - Number(e.qty)) <= 1e-9 * Math.max(1, Math.abs(t.qty)), String(t.qty), e.qty, "entry"],
      );
      if (e.open) checks.push(["still open", t.exit_time === null, iso(t.exit_time), "open", "exit"]);
      else
        checks.push(
          ["exit time", t.exit_time === e.exitTime, iso(t.exit_time), iso(e.exitTime), "exit"],
          [
            "exit signal",
            signal(t.exit_id, t.exit_comment) === e.exitSignal,
            signal(t.exit_id, t.exit_comment),
            e.exitSignal,
            "exit",
          ],
          ["exit price", px(t.exit_price, e.exitPrice), String(t.exit_price), e.exitPrice, "exit"],
          ["net P&L", moneyAgrees(t.profit, e.profit), String(t.profit), e.profit, "exit"],
          ["run-up", moneyAgrees(t.run_up, e.runUp), String(t.run_up), e.runUp, "exit"],
          [
            "drawdown",
            moneyAgrees(-Math.abs(t.drawdown), e.drawdown) || moneyAgrees(t.drawdown, e.drawdown),
            String(t.drawdown),
            e.drawdown,
            "exit",
          ],
          ["cumulative P&L", moneyAgrees(t.cum_profit, e.cumProfit), String(t.cum_profit), e.cumProfit, "exit"],
        );
    }
    const bad = checks.find((c) => !c[1]);
    rows.push({ num: e.num, direction: e.direction, agree: !bad, field: bad?.[0] });
    if (!bad) agreed++;
    else if (!first)
      first = {
        where: `trade ${e.num}`,
        field: bad[0],
        ours: bad[2],
        theirs: bad[3],
        bar: t ? (bad[4] === "exit" ? (t.exit_bar_index ?? t.entry_bar_index) : t.entry_bar_index) : null,
      };
  }
  const theirNums = new Set(theirs.map((e) => e.num));
  const extraOurs = ours.filter((t) => !theirNums.has(t.trade_num)).length;
  if (!first && extraOurs) {
    const t = ours.find((x) => !theirNums.has(x.trade_num))!;
    first = {
      where: `trade ${t.trade_num}`,
      field: "not in TradingView's list",
      ours: `${t.direction} ${iso(t.entry_time)}`,
      theirs: "—",
      bar: t.entry_bar_index,
    };
  }
  return { kind: "trades", total: theirs.length, agreed, extraOurs, rows, first };
}

/** Splits a CSV line (TradingView quotes plot titles that contain commas). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (q) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') q = false;
      else cur += ch;
    } else if (ch === '"') q = true;
    else if (ch === ",") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** The header cells of a CSV text (to tell a list of trades from a chart export). */
export function csvHeader(text: string): string[] {
  const nl = text.indexOf("\n");
  return cells((nl < 0 ? text : text.slice(0, nl)).replace(/^\uFEFF/, "").replace(/\r$/, "")).map((c) => c.trim());
}

/** A chart export's time cell: unix seconds or ms, or ISO-8601. */
function timeMs(s: string): number {
  const v = Number(s);
  if (s.trim() !== "" && v === v) return Math.abs(v) < 1e11 ? v * 1000 : v;
  return Date.parse(s.replace(/([+-]\d\d)(\d\d)$/, "$1:$2"));
}

function valueAgrees(ours: number | null, exported: string): boolean {
  const t = exported.trim();
  const na = t === "" || t === "NaN" || t === "nan" || t === "∅";
  if (na || ours === null) return na && ours === null;
  const e = Number(t);
  if (e !== e) return false;
  const dot = t.indexOf(".");
  const decimals = dot < 0 || /e/i.test(t) ? 99 : t.length - dot - 1;
  const rounding = decimals <= 8 ? 0.5 * 10 ** -decimals : 0;
  const tol = Math.max(1e-9 * Math.max(Math.abs(ours), Math.abs(e)), 1e-12, rounding);
  return Math.abs(ours - e) <= tol;
}

/**
 * A chart export (time column, OHLC, then one column per plot titled like the plot) against the
 * run's series. Rows pair with bars by time; columns with plots by title.
 */
export function comparePlots(result: PackedRunResult, barTimes: Float64Array, csv: string): PlotsComparison {
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  const header = csvHeader(lines[0] ?? "");
  const timeCol = header.findIndex((h) => /^time$/i.test(h));
  const bars = new Map<number, number>();
  for (let i = 0; i < barTimes.length; i++) bars.set(barTimes[i], i);
  const skip = new Set(["time", "open", "high", "low", "close", "volume"]);
  const plotCols = header.map((h, i) => [h, i] as const).filter(([h]) => !skip.has(h.toLowerCase()));
  const unmatched = plotCols.filter(([h]) => !(h in result.series)).map(([h]) => h);
  const plots: PlotComparison[] = plotCols
    .filter(([h]) => h in result.series)
    .map(([title]) => ({ title, compared: 0, agreed: 0, first: null }));
  const colOf = new Map(plotCols.map(([h, i]) => [h, i]));
  let matchedRows = 0;
  let first: Difference | null = null;
  for (let li = 1; li < lines.length; li++) {
    const f = cells(lines[li]);
    const bar = bars.get(timeMs(f[timeCol < 0 ? 0 : timeCol]));
    if (bar === undefined) continue;
    matchedRows++;
    for (const p of plots) {
      const raw = f[colOf.get(p.title)!] ?? "";
      const v = result.series[p.title][bar];
      const ours = typeof v === "number" && v === v ? v : null;
      p.compared++;
      if (valueAgrees(ours, raw)) p.agreed++;
      else if (!p.first) {
        p.first = {
          where: `plot ${p.title}`,
          field: `bar ${bar}`,
          ours: ours === null ? "na" : String(ours),
          theirs: raw,
          bar,
        };
        if (!first || bar < (first.bar ?? Infinity)) first = p.first;
      }
    }
  }
  return { kind: "plots", rows: lines.length - 1, matchedRows, plots, unmatched, first };
}
