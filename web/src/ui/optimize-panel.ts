// The optimize panel: a space editor prefilled from the strategy's numeric inputs, the study settings,
// a progress bar, a sortable trials table, and "Apply best" (re-runs the script with those inputs).

import type { InputRecord } from "../../../src/core/result.js";
import { spaceFromInputs } from "../../../src/optimize/inputs-space.js";
import type { DataSet, Engine, OptimizeRequest, OptimizeResult, ParamSpec, TrialRecord } from "../engines/types.js";
import { fmt, fmtParam, h } from "./dom.js";

export interface OptimizeContext {
  engine: Engine;
  script: string;
  data: DataSet;
  symbol: string;
  fixedInputs: Record<string, unknown>;
}

type SortKey = "index" | "is_score" | "oos_score" | "trades" | "pnl";

export class OptimizePanel {
  private params: (ParamSpec & { enabled: boolean })[] = [];
  private signature = "";
  private result: OptimizeResult | null = null;
  private trials: TrialRecord[] = [];
  private sort: { key: SortKey; desc: boolean } = { key: "index", desc: false };
  private running = false;
  private isStrategy = false;
  private renderPending = false;
  private readonly spaceHost = h("div", { class: "space" });
  private readonly progress = h("progress", { max: 1, value: 0, "data-testid": "opt-progress" });
  private readonly status = h("span", { class: "muted", "data-testid": "opt-status" });
  private readonly table = h("div", { class: "trials" });
  private readonly fields = {
    nTrials: h("input", { type: "number", min: 1, max: 200, value: "20", name: "n_trials" }),
    sampler: select("sampler", ["auto", "random", "tpe", "grid"]),
    objective: select("objective", ["composite", "net_pnl", "profit_factor", "calmar"]),
    validation: select("validation", ["holdout", "walk-forward", "in-sample"]),
    holdout: h("input", { type: "number", min: 0.05, max: 0.8, step: 0.05, value: "0.3", name: "holdout_frac" }),
    minTrades: h("input", { type: "number", min: 0, value: "5", name: "min_trades" }),
    seed: h("input", { type: "number", value: "42", name: "seed" }),
  };
  private readonly runButton = h(
    "button",
    { class: "primary", "data-testid": "opt-run", onclick: () => void this.start() },
    "Optimize",
  );
  private readonly cancelButton = h("button", { disabled: true, onclick: () => this.cancel() }, "Cancel");
  private readonly applyButton = h(
    "button",
    { disabled: true, "data-testid": "opt-apply", onclick: () => this.applyBest() },
    "Apply best",
  );

  constructor(
    host: HTMLElement,
    private readonly ctx: () => OptimizeContext | null,
    private readonly apply: (params: Record<string, unknown>) => void,
  ) {
    const f = this.fields;
    host.append(
      h("h4", {}, "Search space"),
      this.spaceHost,
      h(
        "div",
        { class: "opt-settings" },
        labelled("Trials", f.nTrials),
        labelled("Sampler", f.sampler),
        labelled("Objective", f.objective),
        labelled("Validation", f.validation),
        labelled("Holdout fraction", f.holdout),
        labelled("Min trades", f.minTrades),
        labelled("Seed", f.seed),
      ),
      h(
        "div",
        { class: "opt-actions" },
        this.runButton,
        this.cancelButton,
        this.applyButton,
        this.progress,
        this.status,
      ),
      this.table,
    );
    this.renderSpace();
  }

  /** New inputs from a run: the space is rebuilt when the set of numeric inputs changed. */
  setInputs(inputs: readonly InputRecord[], isStrategy: boolean): void {
    this.isStrategy = isStrategy;
    const space = isStrategy ? spaceFromInputs(inputs) : [];
    const sig = JSON.stringify(space);
    if (sig === this.signature) return;
    this.signature = sig;
    this.params = space.map((p) => ({ ...p, enabled: true }));
    this.renderSpace();
  }

  /** The panel was opened: the engine may get ready for a study of the current strategy meanwhile. */
  shown(): void {
    const c = this.ctx();
    if (c && this.isStrategy && !this.running)
      c.engine.prepareOptimize?.({ script: c.script, data: c.data, symbol: c.symbol });
  }

  private renderSpace(): void {
    this.spaceHost.replaceChildren();
    if (!this.params.length) {
      this.spaceHost.append(
        h("p", { class: "muted" }, "Run a strategy whose int/float inputs have minval and maxval to fill the space."),
      );
      return;
    }
    const t = h(
      "table",
      { class: "grid" },
      h("tr", {}, ...["Use", "Input", "Kind", "Min", "Max", "Step"].map((c) => h("th", {}, c))),
    );
    for (const p of this.params) {
      const num = (key: "min" | "max" | "step") => {
        const el = h("input", {
          type: "number",
          value: p[key] === undefined ? "" : String(p[key]),
          step: "any",
          onchange: () => (p[key] = el.value === "" ? undefined : Number(el.value)),
        });
        return el;
      };
      const use = h("input", { type: "checkbox", checked: p.enabled, onchange: () => (p.enabled = use.checked) });
      t.append(
        h(
          "tr",
          {},
          h("td", {}, use),
          h("td", {}, p.name),
          h("td", {}, p.kind),
          h("td", {}, num("min")),
          h("td", {}, num("max")),
          h("td", {}, num("step")),
        ),
      );
    }
    this.spaceHost.append(t);
  }

  private request(c: OptimizeContext): OptimizeRequest {
    const f = this.fields;
    const mode = f.validation.value;
    const n = c.data.bars.time.length;
    const validation: OptimizeRequest["validation"] =
      mode === "holdout"
        ? { mode, holdout_frac: Number(f.holdout.value) }
        : mode === "walk-forward"
          ? {
              mode,
              train_bars: Math.max(8, Math.floor((2 * n) / 3)),
              test_bars: Math.max(4, Math.floor(n / 6)),
              step_bars: Math.max(4, Math.floor(n / 6)),
            }
          : { mode };
    return {
      script: c.script,
      data: c.data,
      space: { params: this.params.filter((p) => p.enabled).map(({ enabled: _e, ...p }) => p) },
      n_trials: Number(f.nTrials.value),
      sampler: f.sampler.value,
      objective: f.objective.value,
      validation,
      min_trades: Number(f.minTrades.value),
      seed: f.seed.value === "" ? undefined : Number(f.seed.value),
      symbol: c.symbol,
      fixed_inputs: c.fixedInputs,
    };
  }

  async start(): Promise<OptimizeResult | null> {
    const c = this.ctx();
    if (!c || this.running) return null;
    const req = this.request(c);
    this.running = true;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.applyButton.disabled = true;
    this.trials = [];
    this.result = null;
    this.progress.max = req.n_trials;
    this.progress.value = 0;
    this.status.textContent = `running on ${c.engine.label}…`;
    this.status.classList.remove("error");
    this.renderTrials();
    const t0 = performance.now();
    try {
      const res = await c.engine.optimize(req, (p) => {
        this.progress.max = p.total;
        this.progress.value = p.done;
        this.status.textContent = `${p.done} / ${p.total} trials`;
        if (p.trial) {
          this.trials.push(p.trial);
          this.renderSoon();
        }
      });
      this.result = res;
      this.trials = res.trials;
      const secs = (performance.now() - t0) / 1000;
      this.status.textContent =
        `${res.trials.length} trials in ${fmt(secs, 2)} s (${fmt(res.trials.length / secs, 1)}/s), sampler ${res.sampler}` +
        (res.best_index !== null ? `, best #${res.best_index}` : ", no trial scored (too few trades?)") +
        (res.warning ? ` — ${res.warning}` : "");
      this.applyButton.disabled = !res.best_params;
      this.renderTrials();
      return res;
    } catch (e) {
      this.status.textContent = (e as Error).message;
      this.status.classList.add("error");
      return null;
    } finally {
      this.running = false;
      this.runButton.disabled = false;
      this.cancelButton.disabled = true;
    }
  }

  cancel(): void {
    this.ctx()?.engine.cancel();
  }

  /**
   * Re-renders the trials table at most once a frame while trials stream in: the page thread shares
   * the CPU with the workers, and a full table per trial would cost them time on a busy machine.
   */
  private renderSoon(): void {
    if (this.renderPending) return;
    this.renderPending = true;
    requestAnimationFrame(() => {
      this.renderPending = false;
      this.renderTrials();
    });
  }

  private applyBest(): void {
    if (this.result?.best_params) this.apply(this.result.best_params);
  }

  private sortValue(t: TrialRecord, key: SortKey): number {
    const v =
      key === "index"
        ? t.index
        : key === "is_score"
          ? t.is_score
          : key === "oos_score"
            ? t.oos_score
            : key === "trades"
              ? t.is_stats?.trades
              : t.is_stats?.total_pnl;
    return typeof v === "number" ? v : -Infinity;
  }

  private renderTrials(): void {
    this.table.replaceChildren();
    if (!this.trials.length) return;
    const names = Object.keys(this.trials[0].params);
    const head = (label: string, key?: SortKey) =>
      h(
        "th",
        key
          ? {
              class: "sortable" + (this.sort.key === key ? (this.sort.desc ? " desc" : " asc") : ""),
              onclick: () => {
                this.sort = { key, desc: this.sort.key === key ? !this.sort.desc : true };
                this.renderTrials();
              },
            }
          : {},
        label,
      );
    const t = h(
      "table",
      { class: "grid", "data-testid": "trials" },
      h(
        "tr",
        {},
        head("#", "index"),
        ...names.map((n) => head(n)),
        head("IS score", "is_score"),
        head("OOS score", "oos_score"),
        head("Trades", "trades"),
        head("IS P&L", "pnl"),
        head("Error"),
      ),
    );
    const { key, desc } = this.sort;
    const rows = [...this.trials].sort(
      (a, b) => (desc ? -1 : 1) * (this.sortValue(a, key) - this.sortValue(b, key)) || a.index - b.index,
    );
    for (const tr of rows) {
      const best = this.result?.best_index === tr.index;
      t.append(
        h(
          "tr",
          { class: best ? "best" : "" },
          h("td", {}, tr.index),
          ...names.map((n) => h("td", {}, fmtParam(tr.params[n]))),
          h("td", {}, fmt(tr.is_score, 3)),
          h("td", {}, fmt(tr.oos_score, 3)),
          h("td", {}, fmt(tr.is_stats?.trades, 0)),
          h("td", {}, fmt(tr.is_stats?.total_pnl)),
          h("td", { class: "error" }, tr.error ?? ""),
        ),
      );
    }
    this.table.append(t);
  }
}

function select(name: string, options: string[]): HTMLSelectElement {
  const s = h("select", { name });
  for (const o of options) s.append(h("option", { value: o }, o));
  return s;
}

function labelled(text: string, control: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, text), control);
}
