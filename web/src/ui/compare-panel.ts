// The "Compare with TradingView" tab: drop (or pick) TradingView's exported List of trades (any of
// its layouts) or a chart export with plot columns; the tab says how much agrees and shows the first
// difference, whose bar the chart highlights. The comparison itself is data/tv-compare.ts.

import type { PackedRunResult } from "../../../src/worker/protocol.js";
import { comparePlots, compareTrades, csvHeader, type Difference } from "../data/tv-compare.js";
import { parseTvTrades } from "../data/tv-trades.js";
import { h } from "./dom.js";

export interface CompareContext {
  result: PackedRunResult | null;
  barTimes: Float64Array | null;
  mintick: number;
  timezone: string;
  /** Shows bar `bar` on the chart (scrolled into view, crosshair on it). */
  highlight: (bar: number) => void;
}

/** Whether a dropped CSV is something to compare (a list of trades, or columns titled like plots). */
export function isComparable(text: string, result: PackedRunResult | null): boolean {
  const head = csvHeader(text);
  if (head.includes("Trade #")) return true;
  return !!result && head.some((c) => c in (result.series ?? {}));
}

export class ComparePanel {
  private readonly out = h("div", { class: "compare-out", "data-testid": "compare-out" });
  private last: { name: string; text: string } | null = null;

  constructor(
    host: HTMLElement,
    private readonly ctx: () => CompareContext,
  ) {
    const input = h("input", { type: "file", accept: ".csv,text/csv", "data-testid": "compare-file", hidden: true });
    input.addEventListener("change", () => {
      const f = input.files?.[0];
      input.value = "";
      if (f) void f.text().then((t) => this.compare(f.name, t));
    });
    host.append(
      h(
        "p",
        { class: "muted" },
        "Drop TradingView's exported List of trades (Strategy Tester → Export) or a chart export with plot columns (Export chart data) anywhere on the app, or ",
        h("label", { class: "button-like" }, "pick a file…", input),
      ),
      this.out,
    );
  }

  /** The run changed: the last file is compared again with it. */
  rerun(): void {
    if (this.last) this.compare(this.last.name, this.last.text);
  }

  compare(name: string, text: string): void {
    this.last = { name, text };
    const c = this.ctx();
    this.out.replaceChildren();
    if (!c.result || !c.barTimes) {
      this.out.append(h("p", { class: "muted" }, "Run a script first."));
      return;
    }
    try {
      if (csvHeader(text).includes("Trade #")) this.showTrades(name, text, c);
      else this.showPlots(name, text, c);
    } catch (e) {
      this.out.append(h("p", { class: "error", "data-testid": "compare-summary" }, `${name}: ${(e as Error).message}`));
    }
  }

  private showTrades(name: string, text: string, c: CompareContext): void {
    const { layout, trades } = parseTvTrades(text, c.timezone);
    const cmp = compareTrades(c.result!, trades, c.mintick);
    const all = cmp.agreed === cmp.total && cmp.extraOurs === 0;
    this.out.append(
      h(
        "p",
        { class: all ? "pos" : "neg", "data-testid": "compare-summary" },
        `${name} (${layout} layout): ${cmp.agreed} of ${cmp.total} trades agree` +
          (cmp.extraOurs ? `, ${cmp.extraOurs} more in resin` : "") +
          (all ? " — no differences" : ""),
      ),
    );
    if (cmp.first) this.out.append(this.firstDifference(cmp.first, c));
    const t = h(
      "table",
      { class: "grid", "data-testid": "compare-trades" },
      h("tr", {}, ...["Trade #", "Side", "Status"].map((x) => h("th", {}, x))),
    );
    // the first rows and every differing one, up to 300 rows
    let shown = 0;
    for (const r of cmp.rows) {
      if (shown >= 300) break;
      if (r.agree && shown >= 20) continue;
      shown++;
      t.append(
        h(
          "tr",
          { class: r.agree ? "" : "differs" },
          h("td", {}, r.num),
          h("td", {}, r.direction),
          h("td", { class: r.agree ? "pos" : "neg" }, r.agree ? "agrees" : `differs: ${r.field}`),
        ),
      );
    }
    this.out.append(t);
  }

  private showPlots(name: string, text: string, c: CompareContext): void {
    const cmp = comparePlots(c.result!, c.barTimes!, text);
    if (!cmp.plots.length)
      throw new Error(
        `no column is titled like a plot of this run (columns: ${csvHeader(text).slice(0, 8).join(", ")}…; plots: ${Object.keys(c.result!.series).slice(0, 8).join(", ")})`,
      );
    const agreed = cmp.plots.filter((p) => p.agreed === p.compared).length;
    this.out.append(
      h(
        "p",
        { class: agreed === cmp.plots.length ? "pos" : "neg", "data-testid": "compare-summary" },
        `${name}: ${cmp.matchedRows} of ${cmp.rows} rows on this chart's bars; ${agreed} of ${cmp.plots.length} plots agree on every bar` +
          (agreed === cmp.plots.length ? " — no differences" : "") +
          (cmp.unmatched.length ? ` (not plotted by this run: ${cmp.unmatched.join(", ")})` : ""),
      ),
    );
    if (cmp.first) this.out.append(this.firstDifference(cmp.first, c));
    const t = h(
      "table",
      { class: "grid", "data-testid": "compare-plots" },
      h("tr", {}, ...["Plot", "Bars agreeing", "First difference"].map((x) => h("th", {}, x))),
    );
    for (const p of cmp.plots)
      t.append(
        h(
          "tr",
          { class: p.first ? "differs" : "" },
          h("td", {}, p.title),
          h("td", {}, `${p.agreed} / ${p.compared}`),
          h("td", {}, p.first ? `${p.first.field}: resin ${p.first.ours}, TradingView ${p.first.theirs}` : "—"),
        ),
      );
    this.out.append(t);
  }

  private firstDifference(d: Difference, c: CompareContext): HTMLElement {
    if (d.bar !== null) c.highlight(d.bar);
    return h(
      "p",
      { class: "first-diff", "data-testid": "compare-first", "data-bar": d.bar ?? "" },
      `First difference — ${d.where}, ${d.field}: resin ${d.ours}, TradingView ${d.theirs}`,
      d.bar !== null
        ? h("button", { type: "button", class: "link", onclick: () => c.highlight(d.bar!) }, ` show bar ${d.bar}`)
        : null,
    );
  }
}
