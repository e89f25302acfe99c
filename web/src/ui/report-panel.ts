// The strategy report: headline stats, the equity curve (its own small chart) and the list of trades
// in TradingView's "List of trades" order. Indicators get a short note instead.

import { AreaSeries, createChart, type IChartApi, type Time } from "lightweight-charts";
import type { StrategyResult } from "../../../src/core/result.js";
import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { fmt, fmtTime, h } from "./dom.js";

const MAX_TRADE_ROWS = 1000;

export class ReportPanel {
  private equityChart: IChartApi | null = null;

  constructor(private readonly host: HTMLElement) {}

  /** No result to show (a stopped or failed run): the previous report goes. */
  clear(note: string): void {
    this.equityChart?.remove();
    this.equityChart = null;
    this.host.replaceChildren(h("p", { class: "muted" }, note));
  }

  render(result: PackedRunResult, barTimes: Float64Array): void {
    this.equityChart?.remove();
    this.equityChart = null;
    this.host.replaceChildren();
    const st = result.strategy;
    if (result.script_type !== "strategy" || !st) {
      this.host.append(h("p", { class: "muted" }, "The report appears when the script is a strategy()."));
      return;
    }
    this.host.append(statsGrid(st));
    const equityHost = h("div", { class: "equity", "data-testid": "equity" });
    this.host.append(h("h4", {}, "Equity"), equityHost);
    this.drawEquity(equityHost, st, barTimes);
    // past 9,000 closed trades the list keeps the newest (TradingView's trimming); the stats count them all
    const closed = typeof st.stats.total_closed_trades === "number" ? st.stats.total_closed_trades : st.trades.length;
    const shown = closed > st.trades.length ? `, the newest ${st.trades.length} listed` : "";
    this.host.append(h("h4", {}, `Trades (${closed} closed${shown}, ${st.open_trades.length} open)`), tradesTable(st));
  }

  private drawEquity(host: HTMLElement, st: StrategyResult, times: Float64Array): void {
    const eq = st.equity ?? [];
    if (!eq.length) {
      host.append(h("p", { class: "muted" }, "No equity curve in the result."));
      return;
    }
    const chart = createChart(host, {
      autoSize: true,
      layout: { fontSize: 10, attributionLogo: false },
      timeScale: { timeVisible: true },
      grid: { vertLines: { visible: false } },
    });
    const s = chart.addSeries(AreaSeries, {
      lineColor: "#2962ff",
      topColor: "rgba(41,98,255,0.3)",
      bottomColor: "rgba(41,98,255,0.02)",
      lineWidth: 2,
      priceLineVisible: false,
    });
    const n = Math.min(eq.length, times.length);
    const data = [];
    for (let i = 0; i < n; i++) {
      const v = eq[i];
      data.push(
        typeof v === "number" && v === v
          ? { time: (times[i] / 1000) as Time, value: v }
          : { time: (times[i] / 1000) as Time },
      );
    }
    s.setData(data);
    chart.timeScale().fitContent();
    this.equityChart = chart;
  }
}

function statsGrid(st: StrategyResult): HTMLElement {
  const s = st.stats;
  const pct = (v: unknown) => (typeof v === "number" ? `${fmt(v)}%` : "—");
  const items: [string, string, string?][] = [
    ["Net profit", fmt(s.net_profit), s.net_profit_percent !== undefined ? pct(s.net_profit_percent) : undefined],
    ["Closed trades", fmt(s.total_closed_trades, 0)],
    ["Percent profitable", pct(s.percent_profitable)],
    ["Profit factor", fmt(s.profit_factor, 3)],
    [
      "Max drawdown",
      fmt(s.max_drawdown),
      s.max_drawdown_percent !== undefined ? pct(s.max_drawdown_percent) : undefined,
    ],
    ["Avg trade", fmt(s.avg_trade)],
    ["Gross profit", fmt(s.gross_profit)],
    ["Gross loss", fmt(s.gross_loss)],
    ["Sharpe", fmt(s.sharpe_ratio, 3)],
    ["Sortino", fmt(s.sortino_ratio, 3)],
    ["Commission", fmt(s.commission_paid)],
    ["Buy & hold", fmt(s.buy_and_hold_return)],
  ];
  const grid = h("div", { class: "stats", "data-testid": "stats" });
  for (const [label, value, sub] of items) {
    const neg = value.startsWith("-");
    grid.append(
      h(
        "div",
        { class: "stat" },
        h("span", { class: "label" }, label),
        h("span", { class: neg ? "value neg" : "value" }, value),
        sub ? h("span", { class: "sub" }, sub) : null,
      ),
    );
  }
  return grid;
}

function tradesTable(st: StrategyResult): HTMLElement {
  const t = h(
    "table",
    { class: "grid trades", "data-testid": "trades" },
    h(
      "tr",
      {},
      ...[
        "#",
        "Type",
        "Entry",
        "Entry time",
        "Entry price",
        "Exit",
        "Exit time",
        "Exit price",
        "Qty",
        "Profit",
        "Profit %",
        "Cum. profit",
        "Run-up",
        "Drawdown",
      ].map((c) => h("th", {}, c)),
    ),
  );
  const rows = [...st.trades, ...st.open_trades];
  for (const tr of rows.slice(-MAX_TRADE_ROWS).reverse()) {
    t.append(
      h(
        "tr",
        { class: tr.exit_time === null ? "open-trade" : "" },
        h("td", {}, tr.trade_num),
        h("td", {}, tr.direction),
        h("td", {}, tr.entry_id),
        h("td", {}, fmtTime(tr.entry_time)),
        h("td", {}, fmt(tr.entry_price, 5)),
        h("td", {}, tr.exit_id ?? "open"),
        h("td", {}, fmtTime(tr.exit_time)),
        h("td", {}, fmt(tr.exit_price, 5)),
        h("td", {}, fmt(tr.qty, 4)),
        h("td", { class: tr.profit < 0 ? "neg" : "pos" }, fmt(tr.profit)),
        h("td", {}, `${fmt(tr.profit_percent)}%`),
        h("td", {}, fmt(tr.cum_profit)),
        h("td", {}, fmt(tr.run_up)),
        h("td", {}, fmt(tr.drawdown)),
      ),
    );
  }
  return t;
}
