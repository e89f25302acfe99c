// The strategy report with TradingView's tabs: Overview (headline tiles; equity, drawdown and buy &
// hold on the bars' time axis), Performance, Trades analysis, Risk/performance ratios (each with All,
// Long and Short columns) and the List of trades (entry and exit per trade, sortable, virtualised,
// exported as TradingView's CSV). Numbers come from report-metrics.ts; nothing here computes a metric.

import {
  HistogramSeries,
  LineSeries,
  createChart,
  type IChartApi,
  type LineData,
  type Time,
  type WhitespaceData,
} from "lightweight-charts";
import type { StrategyResult, Trade } from "../../../src/core/result.js";
import type { PackedBars, PackedRunResult } from "../../../src/worker/protocol.js";
import { exportTradesCsv } from "../data/tv-trades.js";
import { fmt, h } from "./dom.js";
import {
  overviewCurves,
  reportMetrics,
  type MetricRow,
  type ReportMetrics,
  type Side,
  SIDES,
} from "./report-metrics.js";

export type ReportTab = "overview" | "performance" | "trades-analysis" | "ratios" | "list";
const TABS: [ReportTab, string][] = [
  ["overview", "Overview"],
  ["performance", "Performance"],
  ["trades-analysis", "Trades analysis"],
  ["ratios", "Risk/performance ratios"],
  ["list", "List of trades"],
];
const SIDE_LABEL: Record<Side, string> = { all: "All", long: "Long", short: "Short" };

/** What the report needs to know of the symbol (the symbol-info dialog or the data set's). */
export interface ReportSymbol {
  currency: string;
  timezone: string;
  /** Decimals of a price (from mintick). */
  priceDecimals: number;
}

/** Height of one line of the list of trades (each trade is two: exit above entry, as TradingView). */
const LINE_PX = 20;
/** Most points drawn per overview curve: longer runs are bucketed (drawdown keeps each bucket's low). */
const MAX_CURVE_POINTS = 2000;

export class ReportPanel {
  private chart: IChartApi | null = null;
  private resize: ResizeObserver | null = null;
  private tab: ReportTab = "overview";
  private side: Side = "all";
  private result: PackedRunResult | null = null;
  private bars: PackedBars | null = null;
  private symbol: ReportSymbol = { currency: "USD", timezone: "Etc/UTC", priceDecimals: 2 };
  private metrics: ReportMetrics | null = null;
  private sort: { key: SortKey; desc: boolean } = { key: "num", desc: true };
  private readonly body = h("div", { class: "report-body" });
  private readonly nav = h("nav", { class: "subtabs", "data-testid": "report-tabs" });
  private readonly sides = h("div", { class: "segmented", "data-testid": "report-sides" });

  constructor(private readonly host: HTMLElement) {}

  /** No result to show (a stopped or failed run): the previous report goes. */
  clear(note: string): void {
    this.dropChart();
    this.result = null;
    this.host.replaceChildren(h("p", { class: "muted" }, note));
  }

  render(result: PackedRunResult, bars: PackedBars, symbol?: ReportSymbol): void {
    this.dropChart();
    this.result = result;
    this.bars = bars;
    if (symbol) this.symbol = symbol;
    const st = result.strategy;
    if (result.script_type !== "strategy" || !st) {
      this.metrics = null;
      this.host.replaceChildren(h("p", { class: "muted" }, "The report appears when the script is a strategy()."));
      return;
    }
    this.metrics = reportMetrics(st);
    this.nav.replaceChildren(
      ...TABS.map(([id, label]) =>
        h(
          "button",
          { type: "button", class: id === this.tab ? "active" : "", "data-tab": id, onclick: () => this.show(id) },
          label,
        ),
      ),
    );
    this.sides.replaceChildren(
      ...SIDES.map((s) =>
        h(
          "button",
          {
            type: "button",
            class: s === this.side ? "active" : "",
            "data-side": s,
            onclick: () => {
              this.side = s;
              this.render(result, bars);
            },
          },
          SIDE_LABEL[s],
        ),
      ),
    );
    this.host.replaceChildren(h("div", { class: "report-head" }, this.nav, this.sides), this.body);
    this.show(this.tab);
  }

  show(tab: ReportTab): void {
    this.tab = tab;
    for (const b of this.nav.querySelectorAll<HTMLElement>("button"))
      b.classList.toggle("active", b.dataset.tab === tab);
    const st = this.result?.strategy;
    if (!st || !this.metrics || !this.bars) return;
    this.dropChart();
    this.body.replaceChildren();
    const m = this.metrics;
    if (tab === "overview") this.overview(st, m);
    else if (tab === "performance") this.body.append(metricTable(m.performance, m.trimmed));
    else if (tab === "trades-analysis") this.body.append(metricTable(m.tradesAnalysis, m.trimmed));
    else if (tab === "ratios") this.body.append(metricTable(m.ratios, m.trimmed));
    else this.tradeList(st);
  }

  /** The overview chart's time axis and extent, for the e2e hook. */
  overviewExtent(): { firstTime: number; lastTime: number; visibleFrom: number; visibleTo: number } | null {
    const range = this.chart?.timeScale().getVisibleRange();
    if (!range || !this.bars) return null;
    return {
      firstTime: this.bars.time[0] / 1000,
      lastTime: this.bars.time[this.bars.time.length - 1] / 1000,
      visibleFrom: range.from as number,
      visibleTo: range.to as number,
    };
  }

  /** The CSV the "Export CSV" button downloads. */
  tradesCsv(): string | null {
    const st = this.result?.strategy;
    if (!st || !this.bars) return null;
    return exportTradesCsv(st.trades, st.open_trades, this.bars.time[this.bars.time.length - 1], {
      currency: this.symbol.currency,
      timezone: this.symbol.timezone,
      initialCapital: Number(st.stats.initial_capital ?? 0),
    });
  }

  private dropChart(): void {
    this.resize?.disconnect();
    this.resize = null;
    this.chart?.remove();
    this.chart = null;
  }

  private overview(st: StrategyResult, m: ReportMetrics): void {
    const side = this.side;
    const pick = (rows: MetricRow[], key: string) => rows.find((r) => r.key === key)!;
    const tiles: [MetricRow, number?][] = [
      [pick(m.performance, "net_profit")],
      [pick(m.tradesAnalysis, "total_closed_trades"), 0],
      [pick(m.tradesAnalysis, "percent_profitable")],
      [pick(m.ratios, "profit_factor"), 3],
      [pick(m.performance, "max_drawdown")],
      [pick(m.tradesAnalysis, "avg_trade")],
      [pick(m.tradesAnalysis, "avg_bars_in_trade"), 0],
    ];
    const grid = h("div", { class: "stats", "data-testid": "stats" });
    for (const [row, digits] of tiles) {
      const v = row.allOnly ? row.values.all : row.values[side];
      const p = row.allOnly ? row.percent?.all : row.percent?.[side];
      const text = formatMetric(row, v, digits);
      grid.append(
        h(
          "div",
          { class: "stat", "data-metric": row.key, "data-value": v === null ? "" : String(v) },
          h("span", { class: "label" }, row.label + (row.allOnly && side !== "all" ? " (all)" : "")),
          h("span", { class: text.startsWith("-") ? "value neg" : "value" }, text),
          p !== undefined && p !== null ? h("span", { class: "sub" }, `${fmt(p)}%`) : null,
        ),
      );
    }
    const legend = h(
      "div",
      { class: "curve-legend" },
      h("span", { class: "key key-equity" }, "Equity"),
      h("span", { class: "key key-drawdown" }, "Drawdown"),
      h("span", { class: "key key-buyhold" }, "Buy & hold"),
    );
    const chartHost = h("div", { class: "equity", "data-testid": "equity" });
    // tiles on the left, the curves beside them: both fit the report's height at 1366x768
    this.body.append(h("div", { class: "overview" }, grid, h("div", { class: "overview-curves" }, legend, chartHost)));
    // its own task: the tiles paint first, and a large run's chart work does not lengthen the run's task
    const result = this.result;
    setTimeout(() => {
      if (this.result === result && this.tab === "overview" && chartHost.isConnected) this.drawCurves(chartHost, st);
    }, 0);
  }

  private drawCurves(host: HTMLElement, st: StrategyResult): void {
    const bars = this.bars!;
    if (!st.equity.length) {
      host.append(h("p", { class: "muted" }, "No equity curve in the result."));
      return;
    }
    const c = overviewCurves(st, bars.close);
    const n = c.equity.length;
    const step = Math.max(1, Math.ceil(n / MAX_CURVE_POINTS));
    const eq: (LineData<Time> | WhitespaceData<Time>)[] = [];
    const bh: (LineData<Time> | WhitespaceData<Time>)[] = [];
    const dd: (LineData<Time> | WhitespaceData<Time>)[] = [];
    for (let i = 0; i < n; i += step) {
      const last = Math.min(n - 1, i + step - 1);
      const time = (bars.time[last] / 1000) as Time;
      let low = 0;
      for (let k = i; k <= last; k++) if (c.drawdown[k] < low) low = c.drawdown[k];
      const e = c.equity[last];
      const b = c.buyHold[last];
      eq.push(e === e ? { time, value: e } : { time });
      bh.push(b === b ? { time, value: b } : { time });
      dd.push({ time, value: low });
    }
    const chart = createChart(host, {
      autoSize: true,
      layout: { fontSize: 10, attributionLogo: false },
      // the whole run in view, from the first bar to the last (no empty margin before the data)
      timeScale: { timeVisible: true, fixLeftEdge: true, fixRightEdge: true, minBarSpacing: 0.001, rightOffset: 0 },
      grid: { vertLines: { visible: false } },
      rightPriceScale: { scaleMargins: { top: 0.05, bottom: 0.3 } },
    });
    chart
      .addSeries(HistogramSeries, { color: "rgba(239,83,80,0.45)", priceScaleId: "dd", priceLineVisible: false })
      .setData(dd);
    chart.priceScale("dd").applyOptions({ scaleMargins: { top: 0.75, bottom: 0 } });
    chart
      .addSeries(LineSeries, { color: "#9598a1", lineWidth: 1, priceLineVisible: false, lastValueVisible: false })
      .setData(bh);
    chart.addSeries(LineSeries, { color: "#2962ff", lineWidth: 2, priceLineVisible: false }).setData(eq);
    // fitted again whenever the box changes size (it is created before layout, and the window or the
    // panes may resize later): a range fitted at another width leaves months of empty axis
    chart.timeScale().fitContent();
    this.resize?.disconnect();
    this.resize = new ResizeObserver(() => chart.timeScale().fitContent());
    this.resize.observe(host);
    this.chart = chart;
  }

  private tradeList(st: StrategyResult): void {
    const side = this.side;
    const trades = [...st.trades, ...st.open_trades].filter((t) => side === "all" || t.direction === side);
    const { key, desc } = this.sort;
    trades.sort((a, b) => (desc ? -1 : 1) * (sortValue(a, key) - sortValue(b, key)) || b.trade_num - a.trade_num);
    const closed = typeof st.stats.total_closed_trades === "number" ? st.stats.total_closed_trades : st.trades.length;
    const note =
      closed > st.trades.length ? ` — the newest ${st.trades.length} of ${closed} closed trades are listed` : "";
    const exportBtn = h(
      "button",
      { type: "button", "data-testid": "export-csv", onclick: () => this.download() },
      "Export CSV",
    );
    const head = h("div", { class: "trow thead" });
    const cols: [string, SortKey | null][] = [
      ["Trade #", "num"],
      ["Type", null],
      ["Date/Time", "time"],
      ["Signal", null],
      ["Price", null],
      ["Position size", "qty"],
      ["Net P&L", "profit"],
      ["Run-up", "runup"],
      ["Drawdown", "drawdown"],
      ["Cumulative P&L", "cum"],
    ];
    for (const [label, k] of cols)
      head.append(
        h(
          "div",
          {
            class: k ? `sortable${k === key ? (desc ? " desc" : " asc") : ""}` : "",
            "data-sort": k ?? "",
            onclick: k
              ? () => {
                  this.sort = { key: k, desc: this.sort.key === k ? !this.sort.desc : true };
                  this.show("list");
                }
              : null,
          },
          label,
        ),
      );
    const scroller = h("div", { class: "trade-scroll", "data-testid": "trades" });
    const spacer = h("div", { class: "trade-spacer" });
    spacer.style.height = `${trades.length * 2 * LINE_PX}px`;
    scroller.append(head, spacer);
    this.body.append(
      h("div", { class: "list-head" }, h("span", { class: "muted" }, `${trades.length} trades${note}`), exportBtn),
      scroller,
    );
    const money = (v: number) => fmt(v);
    const price = (v: number | null) => (v === null ? "—" : fmt(v, this.symbol.priceDecimals));
    const two = (a: string, b: string, cls = "") =>
      h("div", { class: `two ${cls}` }, h("span", {}, a), h("span", { class: "sub" }, b));
    const renderTrade = (t: Trade, at: number): HTMLElement => {
      const open = t.exit_time === null;
      const r = h(
        "div",
        { class: `trow trade${open ? " open-trade" : ""}`, "data-num": t.trade_num },
        h("div", {}, String(t.trade_num)),
        two(`Exit ${t.direction}`, `Entry ${t.direction}`),
        two(open ? "Open" : fmtTs(t.exit_time), fmtTs(t.entry_time)),
        two(open ? "Open" : (t.exit_comment ?? t.exit_id ?? ""), t.entry_comment ?? t.entry_id),
        two(price(t.exit_price), price(t.entry_price)),
        two(fmt(t.qty, 4), money(t.qty * t.entry_price)),
        two(money(t.profit), `${fmt(t.profit_percent)}%`, t.profit < 0 ? "neg" : "pos"),
        two(money(t.run_up), `${fmt(t.run_up_percent)}%`),
        two(money(-Math.abs(t.drawdown)), `${fmt(-Math.abs(t.drawdown_percent))}%`),
        two(money(t.cum_profit), ""),
      );
      r.style.top = `${at * 2 * LINE_PX}px`;
      return r;
    };
    // only the trades in view (plus a margin) are in the DOM: 100k trades scroll like 20
    let shown = "";
    const paint = () => {
      const first = Math.max(0, Math.floor(scroller.scrollTop / (2 * LINE_PX)) - 10);
      const count = Math.ceil(scroller.clientHeight / (2 * LINE_PX)) + 20;
      const last = Math.min(trades.length, first + count);
      const key = `${first}:${last}`;
      if (key === shown) return;
      shown = key;
      spacer.replaceChildren(...trades.slice(first, last).map((t, k) => renderTrade(t, first + k)));
    };
    scroller.addEventListener("scroll", () => requestAnimationFrame(paint), { passive: true });
    new ResizeObserver(() => paint()).observe(scroller);
    paint();
  }

  private download(): void {
    const csv = this.tradesCsv();
    if (csv === null) return;
    const name = `${this.result?.script_name || "strategy"} List of trades.csv`;
    const a = h("a", { href: URL.createObjectURL(new Blob([csv], { type: "text/csv" })), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }
}

type SortKey = "num" | "time" | "qty" | "profit" | "runup" | "drawdown" | "cum";

function sortValue(t: Trade, key: SortKey): number {
  switch (key) {
    case "num":
      return t.trade_num;
    case "time":
      return t.entry_time;
    case "qty":
      return t.qty;
    case "profit":
      return t.profit;
    case "runup":
      return t.run_up;
    case "drawdown":
      return -Math.abs(t.drawdown);
    case "cum":
      return t.cum_profit;
  }
}

function fmtTs(ms: number | null): string {
  if (ms === null) return "—";
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

function formatMetric(row: MetricRow, v: number | null, digits?: number): string {
  if (v === null) return "—";
  switch (row.kind) {
    case "percent":
      return `${fmt(v)}%`;
    case "count":
      return fmt(v, 0);
    case "bars":
      return fmt(v, digits ?? 0);
    case "ratio":
      return fmt(v, digits ?? 3);
    default:
      return fmt(v, digits ?? 2);
  }
}

/** A metrics tab: one row per metric, All / Long / Short columns, the percentage under the value. */
function metricTable(rows: MetricRow[], trimmed: boolean): HTMLElement {
  const t = h(
    "table",
    { class: "grid metrics", "data-testid": "metrics" },
    h("tr", {}, h("th", {}, "Metric"), ...SIDES.map((s) => h("th", {}, SIDE_LABEL[s]))),
  );
  for (const r of rows) {
    const cells = SIDES.map((s) => {
      if (r.allOnly && s !== "all") return h("td", { class: "muted" }, "");
      const v = r.values[s];
      const p = r.percent?.[s];
      return h(
        "td",
        { "data-side": s, "data-value": v === null ? "" : String(v), class: v !== null && v < 0 ? "neg" : "" },
        formatMetric(r, v),
        p !== undefined && p !== null ? h("span", { class: "sub" }, ` ${fmt(p)}%`) : null,
      );
    });
    t.append(
      h(
        "tr",
        {
          "data-metric": r.key,
          title: r.source === "engine" ? "All: the engine's statistic" : "from the closed trades",
        },
        h("td", {}, r.label),
        ...cells,
      ),
    );
  }
  const wrap = h("div", {}, t);
  if (trimmed)
    wrap.append(
      h("p", { class: "muted" }, "Long and Short cover the listed (newest) trades; All covers every closed trade."),
    );
  return wrap;
}
