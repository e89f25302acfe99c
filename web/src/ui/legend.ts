// The chart legend as TradingView's data window: the symbol's OHLC and every drawn plot's value at the
// bar under the crosshair (the last bar when the pointer is away), each value in its plot's colour
// (the bar's own colour when it changes bar by bar). Values are formatted only for the hovered bar.

import type { PackedBars, PackedRunResult } from "../../../src/worker/protocol.js";
import { cssColor } from "../chart/colors.js";
import { fmt, h } from "./dom.js";

/** Plot kinds named in the legend (shapes, fills and colours have no line to name). */
const LEGEND_KINDS = new Set(["plot", "plotcandle", "plotbar"]);

interface Item {
  title: string;
  value: HTMLElement;
  swatch: HTMLElement;
  baseColor: string;
  perBar?: readonly (string | null)[];
  decimals: number;
}

export class Legend {
  private items: Item[] = [];
  private ohlc: HTMLElement | null = null;
  private bars: PackedBars | null = null;
  private result: PackedRunResult | null = null;
  private priceDecimals = 2;
  /** The bar the values show (null: the last bar). */
  private bar: number | null = null;

  constructor(private readonly host: HTMLElement) {}

  clear(): void {
    this.items = [];
    this.result = null;
    this.ohlc = null;
    this.host.replaceChildren();
  }

  render(result: PackedRunResult, bars: PackedBars, ticker: string, priceDecimals: number): void {
    this.result = result;
    this.bars = bars;
    this.priceDecimals = priceDecimals;
    this.items = [];
    this.ohlc = h("span", { class: "ohlc", "data-testid": "legend-ohlc" });
    this.host.replaceChildren(
      h(
        "div",
        { class: "legend-row" },
        h("b", {}, result.script_name || ""),
        h("span", { class: "muted" }, ticker),
        this.ohlc,
      ),
    );
    const row = h("div", { class: "legend-row" });
    for (const [title, m] of Object.entries(result.plot_meta ?? {})) {
      if (!LEGEND_KINDS.has(m.kind) || m.display === "none") continue;
      const perBar = result.plot_colors?.[title];
      const baseColor = cssColor(m.color, "#2962ff");
      const swatch = h("span", { class: "swatch" });
      const value = h("span", { class: "value", "data-plot": title });
      // overlay plots are prices (the symbol's tick); pane plots show up to 4 decimals
      const decimals = m.pane === "own" || result.overlay === false ? 4 : priceDecimals;
      this.items.push({ title, value, swatch, baseColor, perBar, decimals });
      row.append(h("span", { class: "item", "data-testid": "legend-item" }, swatch, title, value));
    }
    if (this.items.length) this.host.append(row);
    this.show(this.bar);
  }

  /** Shows the values at `bar` (null: the last bar). */
  show(bar: number | null): void {
    this.bar = bar;
    const bars = this.bars;
    const result = this.result;
    if (!bars || !result || !this.ohlc) return;
    const n = bars.time.length;
    const i = bar === null || bar >= n ? n - 1 : bar;
    if (i < 0) return;
    const up = bars.close[i] >= bars.open[i];
    const d = this.priceDecimals;
    this.ohlc.className = `ohlc ${up ? "pos" : "neg"}`;
    this.ohlc.dataset.bar = String(i);
    this.ohlc.textContent = `O ${fmt(bars.open[i], d)} H ${fmt(bars.high[i], d)} L ${fmt(bars.low[i], d)} C ${fmt(bars.close[i], d)}`;
    for (const it of this.items) {
      const v = valueAt(result, it.title, i);
      const color = it.perBar ? (it.perBar[i] ? cssColor(it.perBar[i]) : it.baseColor) : it.baseColor;
      it.swatch.style.background = color;
      it.value.style.color = color;
      it.value.dataset.value = v === null ? "" : String(v);
      it.value.textContent = v === null ? "∅" : fmt(v, Math.abs(v) >= 1e5 ? 2 : it.decimals);
    }
  }
}

/** A plot's value at bar `i`: its series cell, or a plotcandle/plotbar's close. */
function valueAt(result: PackedRunResult, title: string, i: number): number | null {
  const col = result.series[title] ?? result.plot_ohlc?.[title]?.close;
  const v = col?.[i];
  return typeof v === "number" && v === v ? v : null;
}
