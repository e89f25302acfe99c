// TradingView's "List of trades" as CSV, both ways: the export the report writes (TradingView's own
// column layout, two rows a trade) and the reader of TradingView's exports for "Compare with
// TradingView", which knows its three layouts by their headers:
//   2024: Trade #,Type,Date/Time,Signal,Price USD,Position size (qty),Position size (value),Net P&L USD,...
//   2025: Trade #,Type,Date and time,Signal,Price USD,Size (qty),Size (value),Net P&L USD,Favorable excursion USD,...
//   older: Trade #,Type,Signal,Date/Time,Price USD,Contracts,Profit USD,Profit %,Cum. Profit USD,...
// Hand-written because it is small and the layouts are TradingView's, not a general CSV dialect
// (no quoting beyond a signal name with a comma, which the writer quotes and the reader unquotes).

import type { Trade } from "../../../src/core/result.js";

/** One trade as TradingView lists it (values as exported, text kept for digit-exact comparison). */
export interface TvTrade {
  num: number;
  direction: "long" | "short";
  entryTime: number;
  entrySignal: string;
  entryPrice: string;
  exitTime: number | null;
  exitSignal: string;
  exitPrice: string;
  open: boolean;
  qty: string;
  profit: string;
  runUp: string;
  drawdown: string;
  cumProfit: string;
}

export type TvLayout = "2024" | "2025" | "older";

export interface ExportOptions {
  /** syminfo.currency (TradingView writes it into the money columns' names). */
  currency: string;
  /** The chart's time zone (IANA); the 2024 layout writes times with its UTC offset. */
  timezone: string;
  initialCapital: number;
}

/** The header of the layout the report exports (the conformance exports' own). */
export function exportHeader(currency: string): string {
  const c = currency || "USD";
  return [
    "Trade #",
    "Type",
    "Date/Time",
    "Signal",
    `Price ${c}`,
    "Position size (qty)",
    "Position size (value)",
    `Net P&L ${c}`,
    "Net P&L %",
    `Run-up ${c}`,
    "Run-up %",
    `Drawdown ${c}`,
    "Drawdown %",
    `Cumulative P&L ${c}`,
    "Cumulative P&L %",
  ].join(",");
}

const round = (v: number, d: number): string => {
  if (!Number.isFinite(v)) return "";
  const f = 10 ** d;
  return String(Math.round(v * f) / f);
};

function quote(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of `ms` in `timezone`. */
function wallParts(ms: number, timezone: string): Record<string, string> {
  let f = zoneFormats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(timezone, f);
  }
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(new Date(ms))) p[part.type] = part.value;
  return p;
}

/** The zone's UTC offset at instant `ms`, in ms (New York in winter: -5 h). */
function zoneOffsetMs(ms: number, timezone: string): number {
  const p = wallParts(ms, timezone);
  return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(ms / 1000) * 1000;
}

/** "2022-01-02T19:00:00-0500": the time in `timezone` with its UTC offset, as TradingView exports it. */
export function formatTvTime(ms: number, timezone: string): string {
  const p = wallParts(ms, timezone);
  const off = Math.round(zoneOffsetMs(ms, timezone) / 60_000);
  const a = Math.abs(off);
  const hh = String(Math.floor(a / 60)).padStart(2, "0");
  const mm = String(a % 60).padStart(2, "0");
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${off < 0 ? "-" : "+"}${hh}${mm}`;
}

const signalOf = (id: string | null, comment: string | null): string => comment ?? id ?? "";

/**
 * The list of trades as TradingView's export: per trade an "Entry" and an "Exit" row (an open
 * trade's exit row reads "Open", priced at the last close), oldest first; money to 2 decimals as the
 * export rounds, prices as filled.
 */
export function exportTradesCsv(
  closed: readonly Trade[],
  open: readonly Trade[],
  lastTime: number,
  o: ExportOptions,
): string {
  const lines = [exportHeader(o.currency)];
  const pctOfCapital = (v: number) => (o.initialCapital ? round((v / o.initialCapital) * 100, 2) : "");
  for (const t of [...closed, ...open]) {
    const dir = t.direction;
    const common = [
      String(t.qty),
      String(t.qty * t.entry_price),
      round(t.profit, 2),
      round(t.profit_percent, 2),
      round(t.run_up, 2),
      round(t.run_up_percent, 2),
      round(-Math.abs(t.drawdown), 2),
      round(-Math.abs(t.drawdown_percent), 2),
      round(t.cum_profit, 2),
      pctOfCapital(t.cum_profit),
    ];
    lines.push(
      [
        String(t.trade_num),
        `Entry ${dir}`,
        formatTvTime(t.entry_time, o.timezone),
        quote(signalOf(t.entry_id, t.entry_comment)),
        String(t.entry_price),
        ...common,
      ].join(","),
    );
    const isOpen = t.exit_time === null;
    lines.push(
      [
        String(t.trade_num),
        `Exit ${dir}`,
        formatTvTime(isOpen ? lastTime : (t.exit_time as number), o.timezone),
        quote(isOpen ? "Open" : signalOf(t.exit_id, t.exit_comment)),
        t.exit_price === null ? "" : String(t.exit_price),
        ...common,
      ].join(","),
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Splits one CSV line (quoted fields may hold commas and doubled quotes). */
function splitCsv(line: string): string[] {
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

/**
 * A TradingView time: with an offset ("2022-01-02T19:00:00-0500") it is exact; without one
 * ("2025-03-31 09:00", the 2025 layout) it is wall time in the chart's `timezone`.
 */
export function parseTvTime(s: string, timezone: string): number {
  const m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?(?:([+-]\d\d):?(\d\d)|Z)?$/.exec(s.trim());
  if (!m) return NaN;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  if (m[7] !== undefined) {
    const sign = m[7].startsWith("-") ? -1 : 1;
    return wall - sign * (Math.abs(+m[7]) * 60 + +m[8]) * 60_000;
  }
  if (/Z$/.test(s.trim())) return wall;
  // wall time in the chart's zone: the offset near that instant, taken again to settle across DST
  const guess = wall - zoneOffsetMs(wall, timezone);
  return wall - zoneOffsetMs(guess, timezone);
}

export class TvTradesError extends Error {}

/** Reads a TradingView "List of trades" export in any of its layouts. */
export function parseTvTrades(csv: string, timezone = "Etc/UTC"): { layout: TvLayout; trades: TvTrade[] } {
  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split(/\r?\n/);
  const header = splitCsv(lines[0] ?? "").map((h) => h.trim());
  const col = (re: RegExp): number => header.findIndex((h) => re.test(h));
  const layout: TvLayout =
    col(/^Date and time$/) >= 0 ? "2025" : col(/^Contracts$/) >= 0 || col(/^Profit /) >= 0 ? "older" : "2024";
  const idx = {
    num: col(/^Trade #$/),
    type: col(/^Type$/),
    time: col(/^Date[/ ]/),
    signal: col(/^Signal$/),
    price: col(/^Price /),
    qty: col(/^(Position size|Size) \(qty\)$|^Contracts$|^Quantity$/),
    profit: col(/^(Net P&L|Profit) [A-Z]/),
    runUp: col(/^(Run-up|Favorable excursion) [A-Z]/),
    drawdown: col(/^(Drawdown|Adverse excursion) [A-Z]/),
    cum: col(/^(Cumulative P&L|Cum\. Profit) [A-Z]/),
  };
  const missing = Object.entries(idx)
    .filter(([, i]) => i < 0)
    .map(([k]) => k);
  if (missing.length)
    throw new TvTradesError(
      `not a TradingView "List of trades" export: no column for ${missing.join(", ")} (header: ${lines[0]?.slice(0, 120)})`,
    );
  const byNum = new Map<number, TvTrade>();
  for (let li = 1; li < lines.length; li++) {
    if (!lines[li].trim()) continue;
    const f = splitCsv(lines[li]);
    const num = Number(f[idx.num]);
    const [io, dir] = (f[idx.type] ?? "").trim().split(/\s+/);
    if (!Number.isInteger(num) || (io !== "Entry" && io !== "Exit") || (dir !== "long" && dir !== "short"))
      throw new TvTradesError(
        `line ${li + 1}: expected "<n>,Entry|Exit long|short,..." but read ${lines[li].slice(0, 80)}`,
      );
    let t = byNum.get(num);
    if (!t) {
      t = {
        num,
        direction: dir,
        entryTime: NaN,
        entrySignal: "",
        entryPrice: "",
        exitTime: null,
        exitSignal: "",
        exitPrice: "",
        open: false,
        qty: f[idx.qty],
        profit: f[idx.profit],
        runUp: f[idx.runUp],
        drawdown: f[idx.drawdown],
        cumProfit: f[idx.cum],
      };
      byNum.set(num, t);
    }
    const time = parseTvTime(f[idx.time], timezone);
    if (io === "Entry") {
      t.entryTime = time;
      t.entrySignal = f[idx.signal];
      t.entryPrice = f[idx.price];
    } else {
      t.exitTime = time;
      t.exitSignal = f[idx.signal];
      t.exitPrice = f[idx.price];
    }
  }
  const trades = [...byNum.values()].sort((a, b) => a.num - b.num);
  const last = trades[trades.length - 1];
  // the last trade is still open when its exit reads "Open" (or has no signal)
  if (last && (last.exitSignal === "Open" || last.exitSignal === "")) last.open = true;
  return { layout, trades };
}
