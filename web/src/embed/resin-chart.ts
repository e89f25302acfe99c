// <resin-chart>: a Pine script's chart as one custom element for dashboards. It draws with the app's
// ChartView (candles, plots, markers, fills, drawings, tables) and runs on the embedding client's
// worker pool, so a page gets the app's chart without the app.
//
// Attributes: `script` (Pine source; or an inline <script type="text/x-pine"> child), `data` (URL of a
// CSV/JSON bar file; or the `data` property with bars), `theme` ("light" | "dark"), `symbol`,
// `timezone` (the exchange's IANA zone: the time axis shows it, the script sees it as syminfo.timezone).
// Events (bubbling, composed): `resin-result` {result} after each drawn run, `resin-error` {message,
// code?, result?} when data cannot be loaded, the engine fails, or the script reports an error.

import type { PackedBars, PackedRunResult } from "../../../src/worker/protocol.js";
import { ChartView } from "../chart/chart-view.js";
import tablesCss from "../chart/tables.css?raw";
import { guessSymbol, priceDecimals, toSymInfo } from "../data/symbol.js";
import { errorText } from "../ui/run-error.js";
import { type BarsInput, type ResinEngine, createEngine, fetchBars, toPackedBars } from "./client.js";

const STYLE = `
:host { display: block; position: relative; height: 400px; min-height: 160px; overflow: hidden;
  font: 12px system-ui, sans-serif; }
:host([hidden]) { display: none; }
.chart { position: absolute; inset: 0; }
.tables-overlay { position: absolute; inset: 0; pointer-events: none; z-index: 4; }
.error { position: absolute; left: 8px; right: 70px; top: 8px; z-index: 5; padding: 6px 10px; border-radius: 4px;
  background: #fdecea; color: #b71c1c; border: 1px solid #f5c2c0; white-space: pre-wrap; }
:host([theme="dark"]) .error { background: #3b1d1d; color: #ffb4ab; border-color: #6b2b2b; }
${tablesCss}`;

/** One engine (worker pool) for every chart on the page unless a chart is given its own. */
let sharedEngine: ResinEngine | null = null;

export class ResinChartElement extends HTMLElement {
  static observedAttributes = ["script", "data", "theme", "symbol", "timezone"];

  #chart: ChartView | null = null;
  #errorBox: HTMLElement | null = null;
  #engine: ResinEngine | null = null;
  #script: string | null = null;
  #bars: BarsInput | null = null;
  #inputs: Record<string, unknown> = {};
  /** Bars loaded from the `data` URL, by URL (a theme change does not fetch again). */
  #loaded: { url: string; bars: Promise<PackedBars> } | null = null;
  #shown: unknown = null;
  #result: PackedRunResult | null = null;
  #seq = 0;
  #pending = false;

  /** The Pine source: the `script` property, else the attribute, else an inline script child. */
  get script(): string {
    return (
      this.#script ??
      this.getAttribute("script") ??
      this.querySelector('script[type="text/x-pine"]')?.textContent?.trim() ??
      ""
    );
  }
  set script(v: string) {
    this.#script = v;
    this.#schedule();
  }

  /** Bars set on the property, or the bars loaded from the `data` URL (null before they load). */
  get data(): BarsInput | null {
    return this.#bars;
  }
  /** Bars (rows or columns), or a URL string (as the attribute). */
  set data(v: BarsInput | string | null) {
    if (typeof v === "string") {
      this.#bars = null;
      this.setAttribute("data", v);
      return;
    }
    this.#bars = v;
    this.#schedule();
  }

  get inputs(): Record<string, unknown> {
    return this.#inputs;
  }
  set inputs(v: Record<string, unknown>) {
    this.#inputs = { ...v };
    this.#schedule();
  }

  /** The engine this chart runs on (default: one shared by the page's charts). */
  get engine(): ResinEngine {
    return (this.#engine ??= sharedEngine ??= createEngine());
  }
  set engine(e: ResinEngine) {
    this.#engine = e;
    this.#schedule();
  }

  /** The last drawn run's result. */
  get result(): PackedRunResult | null {
    return this.#result;
  }

  connectedCallback(): void {
    if (!this.#chart) {
      const root = this.attachShadow({ mode: "open" });
      const style = document.createElement("style");
      style.textContent = STYLE;
      const box = document.createElement("div");
      box.className = "chart";
      box.part.add("chart");
      const tables = document.createElement("div");
      tables.className = "tables-overlay";
      this.#errorBox = document.createElement("div");
      this.#errorBox.className = "error";
      this.#errorBox.part.add("error");
      this.#errorBox.hidden = true;
      root.append(style, box, tables, this.#errorBox);
      this.#chart = new ChartView(box, tables);
    }
    this.#chart.setTheme(this.getAttribute("theme") === "dark" ? "dark" : "light");
    this.#schedule();
  }

  disconnectedCallback(): void {
    this.#seq++; // a run still in flight is not drawn
  }

  attributeChangedCallback(name: string): void {
    if (!this.#chart) return;
    if (name === "theme") this.#chart.setTheme(this.getAttribute("theme") === "dark" ? "dark" : "light");
    else this.#schedule();
  }

  /** Runs the script now and draws it; resolves with the result (null when superseded or not ready). */
  async run(): Promise<PackedRunResult | null> {
    const seq = ++this.#seq;
    const chart = this.#chart;
    const script = this.script;
    if (!chart || !script) return null;
    let bars: BarsInput;
    try {
      const b = this.#bars ?? (await this.#fromUrl());
      if (!b || seq !== this.#seq) return null;
      bars = b;
    } catch (e) {
      if (seq === this.#seq) this.#fail((e as Error).message, "DATA");
      return null;
    }
    try {
      const packed = this.#packed(bars);
      // the tick size is guessed from the prices, as the app does for uploaded data
      const sym = guessSymbol(this.getAttribute("symbol") || "CHART", packed);
      sym.timezone = this.getAttribute("timezone") || sym.timezone;
      chart.setTimezone(sym.timezone, this.#shown === packed);
      if (this.#shown !== packed) {
        chart.setBars(packed);
        this.#shown = packed;
      }
      chart.setTick(sym.mintick, priceDecimals(sym.mintick));
      const result = await this.engine.run(script, packed, {
        symbol: sym.ticker,
        inputs: this.#inputs,
        syminfo: toSymInfo(sym),
      });
      if (seq !== this.#seq) return null;
      this.#result = result;
      chart.render(result);
      if (result.error) this.#fail(errorText(result), result.error_kind ?? "SCRIPT", result);
      else {
        this.#errorBox!.hidden = true;
        this.dispatchEvent(new CustomEvent("resin-result", { detail: { result }, bubbles: true, composed: true }));
      }
      return result;
    } catch (e) {
      if (seq === this.#seq) this.#fail((e as Error).message, (e as { code?: string }).code ?? "ENGINE");
      return null;
    }
  }

  #schedule(): void {
    if (this.#pending || !this.isConnected) return;
    this.#pending = true;
    // attributes set one after another in the same task make one run
    queueMicrotask(() => {
      this.#pending = false;
      void this.run();
    });
  }

  #fromUrl(): Promise<PackedBars> | null {
    const url = this.getAttribute("data");
    if (!url) return null;
    const abs = new URL(url, document.baseURI).href;
    if (this.#loaded?.url !== abs) {
      const bars = fetchBars(abs);
      this.#loaded = { url: abs, bars };
      bars.catch(() => {
        if (this.#loaded?.bars === bars) this.#loaded = null; // the next run fetches again
      });
    }
    return this.#loaded.bars;
  }

  /** Bars as columns, packed once per bars object. */
  #packedCache = new WeakMap<object, PackedBars>();
  #packed(bars: BarsInput): PackedBars {
    let p = this.#packedCache.get(bars);
    if (!p) this.#packedCache.set(bars, (p = toPackedBars(bars)));
    return p;
  }

  #fail(message: string, code: string, result?: PackedRunResult): void {
    this.#errorBox!.textContent = message;
    this.#errorBox!.hidden = false;
    this.dispatchEvent(
      new CustomEvent("resin-error", { detail: { message, code, result }, bubbles: true, composed: true }),
    );
  }
}

const registered: Record<string, typeof ResinChartElement> = {};

/** Registers the element (once) under `name`. */
export function defineResinChart(name = "resin-chart"): void {
  if (customElements.get(name)) return;
  // a class can be defined once: other names get a subclass
  const defined = Object.values(registered).includes(ResinChartElement);
  customElements.define(name, defined ? class extends ResinChartElement {} : ResinChartElement);
  registered[name] = defined ? (customElements.get(name) as typeof ResinChartElement) : ResinChartElement;
}

declare global {
  interface HTMLElementTagNameMap {
    "resin-chart": ResinChartElement;
  }
}
