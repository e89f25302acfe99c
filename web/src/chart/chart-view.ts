// The price chart: candlesticks plus everything a run produces, drawn with lightweight-charts v5.
// Overlay plots go to pane 0 with the candles, the others to pane 1; shapes, arrows and strategy
// fills become series markers; bgcolor, fill and drawings are painted by canvas layers.

import {
  AreaSeries,
  BarSeries,
  CandlestickSeries,
  HistogramSeries,
  LineSeries,
  LineStyle,
  LineType,
  TickMarkType,
  createChart,
  createSeriesMarkers,
  type CandlestickData,
  type IChartApi,
  type ISeriesApi,
  type ISeriesMarkersPluginApi,
  type SeriesMarker,
  type SeriesType,
  type Time,
  type WhitespaceData,
} from "lightweight-charts";
import type { PackedBars, PackedOhlc, PackedRunResult, SeriesColumn } from "../../../src/worker/protocol.js";
import { CanvasLayer, type PaneGeometry } from "./canvas-layer.js";
import { anyColor, cssColor } from "./colors.js";
import { makeXResolver, paintDrawings, renderTables } from "./drawings.js";
import { planPlots, type Pane, type PlotPlan } from "./plan.js";
import { chartTimes } from "./timezone.js";

export interface SeriesSnapshot {
  title: string;
  type: string;
  pane: number;
  /** Points with a value (whitespace excluded). */
  points: number;
  last: number | null;
  /** Distinct per-point colours (0 when the series has one colour for all points). */
  colors: number;
  /** Sum of the values (close for bars): two engines drawing the same plot agree on it. */
  sum: number;
}

interface Drawn {
  title: string;
  type: string;
  pane: Pane;
  series: ISeriesApi<SeriesType>;
}

const UP = "#26a69a";
/** Bars handed to the chart at first: the latest ones. Older bars follow as the user scrolls back. */
const CHART_WINDOW = 6000;
/** Scrolling within this many bars of the window's left edge loads the next older chunk. */
const EXTEND_MARGIN = 200;
const DOWN = "#ef5350";
const TRANSPARENT = "rgba(0, 0, 0, 0)";

export class ChartView {
  readonly chart: IChartApi;
  private candles: ISeriesApi<"Candlestick">;
  private bars: PackedBars | null = null;
  private times: Time[] = [];
  private drawn: Drawn[] = [];
  private markerApis: ISeriesMarkersPluginApi<Time>[] = [];
  private layers: { series: ISeriesApi<SeriesType>; layer: CanvasLayer }[] = [];
  private markerCount = 0;
  private markerColors = 0;
  private priceFormat: { type: "price"; precision: number; minMove: number } = {
    type: "price",
    precision: 2,
    minMove: 0.01,
  };
  private orderMarkers = 0;
  /** A bar to point out (Compare's first difference), drawn with the next renders. */
  private highlight: { bar: number; text: string } | null = null;
  private duplicateOrderMarkers = 0;
  /** Tables rendered as HTML in the last render (painted drawings are counted by paintDrawings). */
  private tableCount = 0;
  private candleData: (CandlestickData<Time> | WhitespaceData<Time>)[] = [];
  private candlesColored = false;
  /** First bar index in the chart (logical index 0); bars before it are not handed over yet. */
  private start = 0;
  private result: PackedRunResult | null = null;
  private extending = false;
  /** Background rectangles in the last paint (read by the test hook: bgcolor really painted). */
  private bgRects = 0;
  /** Drawings painted in the last paint, by kind (read by the test hook). */
  private drawnKinds: Record<string, number> = {};
  private timezone = "Etc/UTC";

  constructor(
    container: HTMLElement,
    private readonly tableHost: HTMLElement,
  ) {
    this.chart = createChart(container, {
      autoSize: true,
      layout: {
        background: { color: "#ffffff" },
        textColor: "#131722",
        fontSize: 11,
        panes: { separatorColor: "#d1d4dc" },
      },
      grid: { vertLines: { color: "#f0f3fa" }, horzLines: { color: "#f0f3fa" } },
      timeScale: { timeVisible: true, secondsVisible: false, rightOffset: 6, tickMarkFormatter: tickMark },
      crosshair: { mode: 0 },
      // the crosshair's time label names the day and the year, as TradingView's does
      localization: { timeFormatter: crosshairTime },
    });
    this.candles = this.chart.addSeries(CandlestickSeries, {
      upColor: UP,
      downColor: DOWN,
      borderVisible: false,
      wickUpColor: UP,
      wickDownColor: DOWN,
    });
    // 100k-bar data sets would cost seconds of chart-side work per run: the chart holds the latest
    // CHART_WINDOW bars and grows towards older bars when the view comes near its left edge
    this.chart.timeScale().subscribeVisibleLogicalRangeChange((r) => {
      if (r && r.from < EXTEND_MARGIN && this.start > 0 && !this.extending) {
        this.extending = true;
        setTimeout(() => this.extend(), 0);
      }
    });
  }

  private extend(): void {
    const before = this.start;
    this.start = Math.max(0, this.start - CHART_WINDOW);
    const added = before - this.start;
    const range = this.chart.timeScale().getVisibleLogicalRange();
    this.buildCandles();
    this.candlesColored = false;
    this.candles.setData(this.candleData);
    if (this.result) this.render(this.result);
    if (range) this.chart.timeScale().setVisibleLogicalRange({ from: range.from + added, to: range.to + added });
    this.extending = false;
  }

  private buildCandles(): void {
    const bars = this.bars!;
    const n = bars.time.length;
    this.candleData = new Array(n - this.start);
    for (let i = this.start; i < n; i++) {
      this.candleData[i - this.start] = {
        time: this.times[i],
        open: bars.open[i],
        high: bars.high[i],
        low: bars.low[i],
        close: bars.close[i],
      };
    }
  }

  /**
   * The zone the time axis and crosshair show (the symbol's exchange time zone, as TradingView does).
   * With `redraw` the current bars and result are drawn again in it.
   */
  setTimezone(tz: string, redraw = true): void {
    if (tz === this.timezone) return;
    this.timezone = tz;
    const result = this.result;
    if (!redraw || !this.bars) return;
    this.setBars(this.bars, true);
    if (result) this.render(result);
  }

  /** Light (the app's) or dark colours for the chart's background, text and grid (embedders pick). */
  setTheme(theme: "light" | "dark"): void {
    const dark = theme === "dark";
    this.chart.applyOptions({
      layout: {
        background: { color: dark ? "#131722" : "#ffffff" },
        textColor: dark ? "#d1d4dc" : "#131722",
        panes: { separatorColor: dark ? "#2a2e39" : "#d1d4dc" },
      },
      grid: {
        vertLines: { color: dark ? "#1e222d" : "#f0f3fa" },
        horzLines: { color: dark ? "#1e222d" : "#f0f3fa" },
      },
    });
  }

  /** Price format of the candles and overlay plots: the symbol's tick size. */
  setTick(mintick: number, decimals: number): void {
    this.priceFormat = { type: "price", precision: decimals, minMove: mintick };
    this.candles.applyOptions({ priceFormat: this.priceFormat });
    for (const d of this.drawn) if (d.pane === 0) d.series.applyOptions({ priceFormat: this.priceFormat });
  }

  /** Calls `cb` with the bar index under the crosshair (null when the pointer leaves the chart). */
  onHover(cb: (bar: number | null) => void): void {
    this.chart.subscribeCrosshairMove((p) => {
      const n = this.times.length;
      if (p.logical === undefined || p.logical === null || !n) return cb(null);
      cb(Math.max(0, Math.min(n - 1, this.start + Math.round(p.logical))));
    });
  }

  /** Calls `cb` with the bar index clicked on the chart. */
  onClick(cb: (bar: number) => void): void {
    this.chart.subscribeClick((p) => {
      const n = this.times.length;
      if (p.logical === undefined || p.logical === null || !n) return;
      cb(Math.max(0, Math.min(n - 1, this.start + Math.round(p.logical))));
    });
  }

  /**
   * Shows bar `bar`: older bars are loaded when it is before the window, the view centres on it, the
   * crosshair sits on its close and a marker names it (kept until the next data set).
   */
  highlightBar(bar: number, text = "first difference"): void {
    if (!this.bars || bar < 0 || bar >= this.times.length) return;
    while (bar < this.start) this.extend();
    this.highlight = { bar, text };
    if (this.result) this.render(this.result);
    const logical = bar - this.start;
    this.chart.timeScale().setVisibleLogicalRange({ from: logical - 80, to: logical + 40 });
    // after the new range is laid out, or the crosshair lands where the bar was before the scroll
    const bars = this.bars;
    requestAnimationFrame(() => this.chart.setCrosshairPosition(bars.close[bar], this.times[bar], this.candles));
  }

  /** Bar `bar`'s time as the chart shows it (seconds, in the symbol's zone), null outside the data. */
  chartTime(bar: number): Time | null {
    return this.times[bar] ?? null;
  }

  /** Bars the chart holds (bar replay compares it with the bars a run covered). */
  get barCount(): number {
    return this.times.length;
  }

  /** x of bar `bar` in the chart's box (for tests that hover a bar), null when it is not in view. */
  barX(bar: number): number | null {
    return this.chart.timeScale().logicalToCoordinate((bar - this.start) as never);
  }

  /**
   * New data: candles replace the old ones and the view shows the latest bars. `grow` (bar replay: the
   * same data with more bars) keeps the view where it was, following the last bar when it was in view.
   */
  setBars(bars: PackedBars, grow = false): void {
    const range = grow ? this.chart.timeScale().getVisibleLogicalRange() : null;
    const before = { start: this.start, n: this.times.length };
    this.clearResult();
    if (!grow) this.highlight = null;
    this.result = null;
    this.bars = bars;
    const n = bars.time.length;
    this.times = chartTimes(bars.time, this.timezone) as Time[];
    this.start = Math.max(0, n - CHART_WINDOW);
    this.buildCandles();
    this.candles.setData(this.candleData);
    this.candlesColored = false;
    const shown = n - this.start;
    if (range) {
      // the same bars stay in view; when the last bar was in view the window slides with the new ones
      const follow = range.to >= before.n - before.start - 1 ? n - before.n : 0;
      const shift = before.start - this.start + follow;
      this.chart.timeScale().setVisibleLogicalRange({ from: range.from + shift, to: range.to + shift });
    } else this.chart.timeScale().setVisibleLogicalRange({ from: Math.max(0, shown - 300), to: shown + 5 });
  }

  /** Removes every plot, marker, layer and table of the previous run. */
  clearResult(): void {
    for (const m of this.markerApis) m.detach();
    this.markerApis = [];
    for (const { series, layer } of this.layers) series.detachPrimitive(layer);
    this.layers = [];
    for (const d of this.drawn) this.chart.removeSeries(d.series);
    this.drawn = [];
    this.markerCount = 0;
    this.markerColors = 0;
    this.orderMarkers = 0;
    this.duplicateOrderMarkers = 0;
    this.tableCount = 0;
    this.bgRects = 0;
    this.drawnKinds = {};
    this.tableHost.replaceChildren();
  }

  render(result: PackedRunResult): void {
    const range = this.chart.timeScale().getVisibleLogicalRange();
    this.clearResult();
    this.result = result;
    if (!this.bars) return;
    const plans = planPlots(result);
    const markers: Record<Pane, SeriesMarker<Time>[]> = { 0: [], 1: [] };
    const barcolor = plans.find((p) => p.type === "barcolor");
    // re-setting 100k candles is expensive: only when bar colours are (or were) in play
    if (barcolor) {
      this.candles.setData(this.coloredCandles(result.series[barcolor.title]));
      this.candlesColored = true;
    } else if (this.candlesColored) {
      this.candles.setData(this.candleData);
      this.candlesColored = false;
    }

    for (const plan of plans) this.drawPlan(plan, result, markers);
    const orders = this.strategyMarkers(result);
    markers[0].push(...orders);
    const hl = this.highlight;
    if (hl && hl.bar >= this.start && hl.bar < this.times.length)
      markers[0].push({
        time: this.times[hl.bar],
        position: "aboveBar",
        shape: "square",
        color: "#ff6d00",
        text: hl.text,
      });
    // two order markers at one bar and side with the same text would be one label printed twice
    const seen = new Set(orders.map((m) => `${m.time}|${m.position}|${m.text}`));
    this.duplicateOrderMarkers = orders.length - seen.size;
    this.orderMarkers = orders.length;

    const colorsSeen = new Set<string>();
    const paneSeries = (pane: Pane): ISeriesApi<SeriesType> | null =>
      pane === 0 ? this.candles : (this.drawn.find((d) => d.pane === 1)?.series ?? null);
    for (const pane of [0, 1] as const) {
      const target = paneSeries(pane);
      if (!target || markers[pane].length === 0) continue;
      markers[pane].sort((a, b) => (a.time as number) - (b.time as number));
      this.markerApis.push(createSeriesMarkers(target, markers[pane]));
      this.markerCount += markers[pane].length;
      for (const m of markers[pane]) colorsSeen.add(m.color ?? "");
    }

    this.markerColors = colorsSeen.size;
    // canvas layers: bgcolor under the candles, fills per pane, drawings on top of the price pane
    for (const pane of [0, 1] as const) {
      const bg = plans.filter((p) => p.type === "bgcolor" && p.pane === pane).map((p) => result.series[p.title]);
      const target = paneSeries(pane);
      if (bg.length && target) this.attachLayer(target, "bottom", (g) => (this.bgRects = paintBackground(g, bg)));
    }
    for (const pane of [0, 1] as const) {
      const fills = plans.filter((p): p is Extract<PlotPlan, { type: "fill" }> => p.type === "fill" && p.pane === pane);
      const target = paneSeries(pane);
      if (fills.length && target) this.attachLayer(target, "bottom", (g) => paintFills(g, fills, result, plans));
    }
    const drawings = (result.drawings ?? []) as Record<string, unknown>[];
    if (drawings.length) {
      const xOf = makeXResolver(this.bars.time);
      this.attachLayer(this.candles, "top", (g) => (this.drawnKinds = paintDrawings(g, drawings, xOf)));
      const tables = renderTables(this.tableHost, drawings);
      if (tables) this.tableCount = tables;
    }
    if (this.drawn.some((d) => d.pane === 1)) {
      const panes = this.chart.panes();
      panes[0]?.setStretchFactor(2);
      panes[1]?.setStretchFactor(1);
    }
    if (range) this.chart.timeScale().setVisibleLogicalRange(range);
  }

  private attachLayer(series: ISeriesApi<SeriesType>, z: "bottom" | "top", painter: (g: PaneGeometry) => void): void {
    const layer = new CanvasLayer(
      painter,
      z,
      () => this.times.length,
      () => this.start,
    );
    series.attachPrimitive(layer);
    this.layers.push({ series, layer });
  }

  private coloredCandles(col: SeriesColumn | undefined): CandlestickData<Time>[] {
    return this.candleData.map((c, i) => {
      const color = col ? anyColor(col[i + this.start]) : null;
      return color
        ? { ...(c as CandlestickData<Time>), color, wickColor: color, borderColor: color }
        : (c as CandlestickData<Time>);
    });
  }

  private add(plan: PlotPlan & { pane: Pane }, series: ISeriesApi<SeriesType>): void {
    this.drawn.push({ title: plan.title, type: plan.type, pane: plan.pane, series });
  }

  /**
   * Points of a line/histogram/area; with `colors` (the plot's per-bar colours) each point carries
   * its own colour, and an na colour hides the point like TradingView does. `offset` shifts values
   * right by that many bars; `bridge` leaves na bars out so the line joins across them (style_line)
   * instead of breaking there (whitespace, the *br styles).
   */
  private lineData(
    col: SeriesColumn | undefined,
    colors?: readonly (string | null)[],
    opts: { area?: boolean; offset?: number; bridge?: boolean } = {},
  ): (WhitespaceData<Time> & {
    value?: number;
    color?: string;
    lineColor?: string;
    topColor?: string;
    bottomColor?: string;
  })[] {
    const offset = opts.offset ?? 0;
    const out: (WhitespaceData<Time> & {
      value?: number;
      color?: string;
      lineColor?: string;
      topColor?: string;
      bottomColor?: string;
    })[] = [];
    for (let i = this.start; i < this.times.length; i++) {
      const src = i - offset;
      const v = col && src >= 0 && src < col.length ? col[src] : null;
      if (typeof v !== "number" || v !== v) {
        if (!opts.bridge) out.push({ time: this.times[i] });
        continue;
      }
      if (!colors) {
        out.push({ time: this.times[i], value: v });
        continue;
      }
      const c = colors[src] ? cssColor(colors[src]) : TRANSPARENT;
      out.push(
        opts.area
          ? {
              time: this.times[i],
              value: v,
              lineColor: c,
              topColor: withAlpha(c, 0.35),
              bottomColor: withAlpha(c, 0.02),
            }
          : { time: this.times[i], value: v, color: c },
      );
    }
    return out;
  }

  private drawPlan(plan: PlotPlan, result: PackedRunResult, markers: Record<Pane, SeriesMarker<Time>[]>): void {
    const col = result.series[plan.title];
    const colors = result.plot_colors?.[plan.title];
    const common = {
      title: plan.title,
      priceLineVisible: false,
      lastValueVisible: true,
      // overlay plots are prices: they show the symbol's tick; pane plots keep their own scale's format
      ...("pane" in plan && plan.pane === 0 ? { priceFormat: this.priceFormat } : {}),
    };
    switch (plan.type) {
      case "line": {
        const s = this.chart.addSeries(
          LineSeries,
          {
            ...common,
            color: plan.color,
            lineWidth: Math.max(1, Math.min(4, plan.width)) as 1 | 2 | 3 | 4,
            lineType: plan.step ? LineType.WithSteps : LineType.Simple,
            lineVisible: plan.lineVisible,
            pointMarkersVisible: plan.points,
            pointMarkersRadius: plan.points ? 2 : undefined,
          },
          plan.pane,
        );
        s.setData(this.lineData(col, colors, { offset: plan.offset, bridge: plan.bridge }));
        this.add(plan, s);
        break;
      }
      case "histogram": {
        const s = this.chart.addSeries(HistogramSeries, { ...common, color: plan.color }, plan.pane);
        s.setData(this.lineData(col, colors, { offset: plan.offset }));
        this.add(plan, s);
        break;
      }
      case "area": {
        const s = this.chart.addSeries(
          AreaSeries,
          {
            ...common,
            lineColor: plan.color,
            topColor: withAlpha(plan.color, 0.35),
            bottomColor: withAlpha(plan.color, 0.02),
            lineWidth: 1,
          },
          plan.pane,
        );
        s.setData(this.lineData(col, colors, { area: true, offset: plan.offset, bridge: plan.bridge }));
        this.add(plan, s);
        break;
      }
      case "hline": {
        // an invisible carrier series keeps the level inside the autoscaled range
        const s = this.chart.addSeries(
          LineSeries,
          {
            lineVisible: false,
            priceLineVisible: false,
            lastValueVisible: false,
            crosshairMarkerVisible: false,
            color: plan.color,
          },
          plan.pane,
        );
        s.setData(this.times.slice(this.start).map((time) => ({ time, value: plan.price })));
        s.createPriceLine({
          price: plan.price,
          color: plan.color,
          lineWidth: Math.max(1, Math.min(4, plan.width)) as 1 | 2 | 3 | 4,
          lineStyle: plan.dashed ? LineStyle.Dashed : LineStyle.Solid,
          axisLabelVisible: false,
          title: plan.title.startsWith("hline") || plan.title.startsWith("plot_") ? "" : plan.title,
        });
        this.add(plan, s);
        break;
      }
      case "markers":
        if (col) markers[plan.pane].push(...shapeMarkers(plan, col, this.times, this.start, colors));
        break;
      case "ohlc": {
        const ohlc = result.plot_ohlc?.[plan.title];
        if (!ohlc) {
          // a server without plot_ohlc sends only the close: show it as a line rather than nothing
          const s = this.chart.addSeries(LineSeries, { ...common, color: plan.color, lineWidth: 1 }, plan.pane);
          s.setData(this.lineData(col, colors));
          this.add(plan, s);
          break;
        }
        const data = ohlcData(ohlc, plan, colors, this.times, this.start);
        const s = plan.candles
          ? this.chart.addSeries(
              CandlestickSeries,
              {
                ...common,
                upColor: plan.color,
                downColor: plan.color,
                wickUpColor: plan.wickColor,
                wickDownColor: plan.wickColor,
                borderVisible: true,
                borderUpColor: plan.borderColor,
                borderDownColor: plan.borderColor,
              },
              plan.pane,
            )
          : this.chart.addSeries(
              BarSeries,
              { ...common, upColor: plan.color, downColor: plan.color, openVisible: true, thinBars: false },
              plan.pane,
            );
        s.setData(data);
        this.add(plan, s);
        break;
      }
      default:
        break; // fill, bgcolor, barcolor are painted by layers / candle colours
    }
  }

  /**
   * Entry and exit markers from the trade list: one marker per bar and order direction. A reversal
   * (the long's exit and the short's entry are one sell order) and several fills on one bar (pyramiding,
   * a margin call on the entry bar) share that marker, which names each signal once.
   */
  private strategyMarkers(result: PackedRunResult): SeriesMarker<Time>[] {
    const st = result.strategy;
    if (!st) return [];
    const groups = new Map<string, { marker: SeriesMarker<Time>; ids: string[]; entries: number }>();
    const add = (bar: number | null, kind: "entry" | "exit", long: boolean, id: string) => {
      if (bar === null || bar < this.start || bar >= this.times.length) return;
      // a buy order (long entry, short exit) points up, a sell order down
      const up = kind === "entry" ? long : !long;
      const key = `${bar}|${up}`;
      let g = groups.get(key);
      if (!g) {
        g = {
          marker: {
            time: this.times[bar],
            position: up ? "belowBar" : "aboveBar",
            shape: up ? "arrowUp" : "arrowDown",
            color: "#9c27b0",
            text: "",
          },
          ids: [],
          entries: 0,
        };
        groups.set(key, g);
      }
      // an entry colours the marker by its direction; exits alone stay purple
      if (kind === "entry") {
        g.marker.color = long ? "#2962ff" : "#e91e63";
        g.entries++;
      }
      if (!g.ids.includes(id)) g.ids.push(id);
    };
    for (const t of [...(st.trades ?? []), ...(st.open_trades ?? [])]) {
      const long = t.direction === "long";
      add(t.entry_bar_index, "entry", long, t.entry_id ?? "");
      if (t.exit_price !== null) add(t.exit_bar_index, "exit", long, t.exit_id ?? "close");
    }
    const out: SeriesMarker<Time>[] = [];
    for (const { marker, ids, entries } of groups.values()) {
      // pyramided entries of one id on one bar: the id once, with the count
      marker.text = ids.join(", ") + (entries > ids.length ? ` ×${entries}` : "");
      out.push(marker);
    }
    return out;
  }

  /** Read-only view of what is drawn, for the e2e test hook. */
  snapshot(): {
    candles: number;
    /** Decimals of the price axis (the symbol's tick). */
    pricePrecision: number;
    highlightedBar: number | null;
    candleColors: number;
    windowStart: number;
    series: SeriesSnapshot[];
    markers: number;
    markerColors: number;
    /** Strategy order markers, and those repeating another's bar, side and text (should be 0). */
    orderMarkers: number;
    duplicateOrderMarkers: number;
    panes: number;
    backgroundRects: number;
    drawings: Record<string, number>;
  } {
    const series = this.drawn.map((d) => {
      const data = d.series.data() as readonly (WhitespaceData<Time> & {
        value?: number;
        close?: number;
        color?: string;
        lineColor?: string;
      })[];
      let points = 0;
      let last: number | null = null;
      const colors = new Set<string>();
      let sum = 0;
      for (const p of data) {
        const v = p.value ?? p.close;
        if (typeof v === "number") {
          points++;
          last = v;
          sum += v;
          const c = p.color ?? p.lineColor;
          if (c) colors.add(c);
        }
      }
      return { title: d.title, type: d.type, pane: d.pane, points, last, colors: colors.size, sum };
    });
    const candleColors = new Set(
      (this.candles.data() as readonly { color?: string }[]).map((c) => c.color).filter(Boolean),
    ).size;
    return {
      candles: this.candles.data().length,
      pricePrecision: this.priceFormat.precision,
      highlightedBar: this.highlight?.bar ?? null,
      candleColors,
      markerColors: this.markerColors,
      orderMarkers: this.orderMarkers,
      duplicateOrderMarkers: this.duplicateOrderMarkers,
      windowStart: this.start,
      series,
      markers: this.markerCount,
      panes: this.chart.panes().length,
      backgroundRects: this.bgRects,
      drawings: { ...this.drawnKinds, ...(this.tableCount ? { table: this.tableCount } : {}) },
    };
  }
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** Time-axis labels (UTC): the year at year ticks, month ticks with a short year, days with the month. */
function tickMark(time: Time, type: TickMarkType): string {
  const d = new Date((time as number) * 1000);
  const mon = MONTHS[d.getUTCMonth()];
  switch (type) {
    case TickMarkType.Year:
      return String(d.getUTCFullYear());
    case TickMarkType.Month:
      return `${mon} '${String(d.getUTCFullYear()).slice(2)}`;
    case TickMarkType.DayOfMonth:
      return `${d.getUTCDate()} ${mon}`;
    default:
      return `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  }
}

/** The crosshair's time: "Tue 04 Mar 2025 14:00" (of a chart time: already in the symbol's zone). */
export function crosshairTime(time: Time): string {
  const d = new Date((time as number) * 1000);
  const hm = `${String(d.getUTCHours()).padStart(2, "0")}:${String(d.getUTCMinutes()).padStart(2, "0")}`;
  return `${DAYS[d.getUTCDay()]} ${String(d.getUTCDate()).padStart(2, "0")} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${hm}`;
}

/** `color` with its opacity scaled by `a` (for area fills under the line). */
function withAlpha(color: string, a: number): string {
  if (color.startsWith("#") && color.length === 7) {
    const r = parseInt(color.slice(1, 3), 16);
    const g = parseInt(color.slice(3, 5), 16);
    const b = parseInt(color.slice(5, 7), 16);
    return `rgba(${r}, ${g}, ${b}, ${a})`;
  }
  const m = /^rgba\((\d+), (\d+), (\d+), ([\d.]+)\)$/.exec(color);
  if (m) return `rgba(${m[1]}, ${m[2]}, ${m[3]}, ${Math.round(Number(m[4]) * a * 1000) / 1000})`;
  return color;
}

function shapeMarkers(
  plan: Extract<PlotPlan, { type: "markers" }>,
  col: SeriesColumn,
  times: Time[],
  start: number,
  colors?: readonly (string | null)[],
): SeriesMarker<Time>[] {
  const out: SeriesMarker<Time>[] = [];
  const n = Math.min(col.length, times.length);
  for (let i = start; i < n; i++) {
    const v = col[i];
    if (plan.arrow) {
      if (typeof v !== "number" || v !== v || v === 0) continue;
      const up = v > 0;
      out.push({
        time: times[i],
        position: up ? "belowBar" : "aboveBar",
        shape: up ? "arrowUp" : "arrowDown",
        color: up ? plan.color : plan.colorDown,
      });
      continue;
    }
    const hit = v === true || (typeof v === "number" && v === v);
    if (!hit) continue;
    // a per-bar colour of na hides the shape on that bar
    const color = colors ? (colors[i] ? cssColor(colors[i]) : null) : plan.color;
    if (color === null) continue;
    if (plan.position === "inBar" && typeof v === "number") {
      out.push({
        time: times[i],
        position: "atPriceMiddle",
        price: v,
        shape: plan.shape,
        color,
        text: plan.text,
        size: plan.size,
      });
    } else
      out.push({ time: times[i], position: plan.position, shape: plan.shape, color, text: plan.text, size: plan.size });
  }
  return out;
}

/** plotcandle/plotbar bars from plot_ohlc; a bar with any price na is left out, as TradingView does. */
function ohlcData(
  o: PackedOhlc,
  plan: Extract<PlotPlan, { type: "ohlc" }>,
  colors: readonly (string | null)[] | undefined,
  times: Time[],
  start: number,
): (CandlestickData<Time> | WhitespaceData<Time>)[] {
  const num = (col: SeriesColumn, i: number): number => {
    const v = col[i];
    return typeof v === "number" ? v : NaN;
  };
  const out: (CandlestickData<Time> | WhitespaceData<Time>)[] = new Array(times.length - start);
  for (let i = start; i < times.length; i++) {
    const open = num(o.open, i),
      high = num(o.high, i),
      low = num(o.low, i),
      close = num(o.close, i);
    const time = times[i];
    if (open !== open || high !== high || low !== low || close !== close) {
      out[i - start] = { time };
      continue;
    }
    const bar: CandlestickData<Time> = { time, open, high, low, close };
    // per-bar colours only where they vary; an na body colour hides the bar
    if (colors) {
      const c = colors[i];
      bar.color = c ? cssColor(c) : TRANSPARENT;
      if (!o.wickcolor && plan.wickColor === plan.color) bar.wickColor = bar.color;
      if (!o.bordercolor && plan.borderColor === plan.color) bar.borderColor = bar.color;
    }
    if (o.wickcolor) bar.wickColor = o.wickcolor[i] ? cssColor(o.wickcolor[i]) : TRANSPARENT;
    if (o.bordercolor) bar.borderColor = o.bordercolor[i] ? cssColor(o.bordercolor[i]) : TRANSPARENT;
    out[i - start] = bar;
  }
  return out;
}

/** Paints bgcolor columns over the visible bars; returns the number of rectangles drawn. */
function paintBackground(g: PaneGeometry, cols: (SeriesColumn | undefined)[]): number {
  let rects = 0;
  // runs of one colour become one rectangle; edges sit halfway between bars so nothing overlaps
  const edge = (i: number): number | null => {
    const x = g.x(i);
    return x === null ? null : x - g.barSpacing / 2;
  };
  for (const col of cols) {
    if (!col) continue;
    let runColor: string | null = null;
    let runStart = 0;
    const flush = (end: number) => {
      if (runColor === null) return;
      const x0 = edge(runStart);
      const x1 = edge(end);
      if (x0 !== null && x1 !== null && x1 > x0) {
        rects++;
        g.ctx.fillStyle = runColor;
        g.ctx.fillRect(Math.round(x0), 0, Math.max(1, Math.round(x1) - Math.round(x0)), g.height);
      }
    };
    for (let i = g.visible.from; i <= g.visible.to + 1; i++) {
      const c = i <= g.visible.to ? anyColor(col[i]) : null;
      if (c === runColor) continue;
      flush(i);
      runColor = c;
      runStart = i;
    }
  }
  return rects;
}

function paintFills(
  g: PaneGeometry,
  fills: Extract<PlotPlan, { type: "fill" }>[],
  result: PackedRunResult,
  plans: PlotPlan[],
): void {
  const valuesOf = (title: string): ((i: number) => number) => {
    const hl = plans.find((p) => p.type === "hline" && p.title === title) as
      | Extract<PlotPlan, { type: "hline" }>
      | undefined;
    if (hl) return () => hl.price;
    const col = result.series[title];
    return (i) => {
      const v = col?.[i];
      return typeof v === "number" ? v : NaN;
    };
  };
  for (const f of fills) {
    const a = valuesOf(f.plot1);
    const b = valuesOf(f.plot2);
    const col = result.series[f.title];
    const base = cssColor(f.color);
    // one quad per bar pair, so gaps (na) break the band like TradingView does
    for (let i = Math.max(1, g.visible.from); i <= g.visible.to; i++) {
      const a0 = a(i - 1),
        a1 = a(i),
        b0 = b(i - 1),
        b1 = b(i);
      if (a0 !== a0 || a1 !== a1 || b0 !== b0 || b1 !== b1) continue;
      const x0 = g.x(i - 1),
        x1 = g.x(i);
      const ya0 = g.y(a0),
        ya1 = g.y(a1),
        yb0 = g.y(b0),
        yb1 = g.y(b1);
      if (x0 === null || x1 === null || ya0 === null || ya1 === null || yb0 === null || yb1 === null) continue;
      const perBar = col ? anyColor(col[i]) : null;
      g.ctx.fillStyle = perBar ?? base;
      g.ctx.beginPath();
      g.ctx.moveTo(x0, ya0);
      g.ctx.lineTo(x1, ya1);
      g.ctx.lineTo(x1, yb1);
      g.ctx.lineTo(x0, yb0);
      g.ctx.closePath();
      g.ctx.fill();
    }
  }
}
