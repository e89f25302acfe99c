// The optimize panel: a space editor prefilled from the strategy's numeric inputs, the study settings,
// a progress bar, a sortable trials table, and "Apply best" (re-runs the script with those inputs).

import type { InputRecord } from "../../../src/core/result.js";
import { spaceFromInputs } from "../../../src/optimize/inputs-space.js";
import { N_TRIALS_CAP } from "../../../src/optimize/study.js";
import type { DataSet, Engine, OptimizeRequest, OptimizeResult, ParamSpec, TrialRecord } from "../engines/types.js";
import { fmt, fmtParam, h } from "./dom.js";
import { heatmap, isOosScatter } from "./optimize-charts.js";

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
  /** The study's best (a cancelled study's: the best finished trial). */
  private result: Pick<OptimizeResult, "best_index" | "best_params"> | null = null;
  private trials: TrialRecord[] = [];
  private sort: { key: SortKey; desc: boolean } = { key: "index", desc: false };
  private running = false;
  /** Cancel was pressed during the current study (whatever error the engine then rejects with). */
  private cancelled = false;
  private isStrategy = false;
  private renderPending = false;
  private readonly spaceHost = h("div", { class: "space" });
  private readonly progress = h("progress", { max: 1, value: 0, "data-testid": "opt-progress" });
  private readonly status = h("span", { class: "muted", "data-testid": "opt-status" });
  private readonly table = h("div", { class: "trials" });
  private readonly fields = {
    nTrials: h("input", { type: "number", min: 1, max: N_TRIALS_CAP, value: "20", name: "n_trials" }),
    sampler: select("sampler", ["auto", "random", "tpe", "grid"]),
    objective: select("objective", ["composite", "net_pnl", "profit_factor", "calmar"]),
    validation: select("validation", ["holdout", "walk-forward", "in-sample"]),
    holdout: h("input", { type: "number", min: 0.05, max: 0.8, step: 0.05, value: "0.3", name: "holdout_frac" }),
    minTrades: h("input", { type: "number", min: 0, value: "5", name: "min_trades" }),
    seed: h("input", { type: "number", value: "42", name: "seed" }),
    oosEvery: h("input", { type: "checkbox", checked: true, name: "oos_every_trial" }),
  };
  /** The heatmap's two inputs and the charts' host (drawn when a study ends or is cancelled). */
  private readonly heatX = h("select", { name: "heat_x", onchange: () => this.renderCharts() });
  private readonly heatY = h("select", { name: "heat_y", onchange: () => this.renderCharts() });
  private readonly charts = h("div", { class: "opt-charts", "data-testid": "opt-charts" });
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
        labelled(`Trials (≤ ${N_TRIALS_CAP})`, f.nTrials),
        labelled("Sampler", f.sampler),
        labelled("Objective", f.objective),
        labelled("Validation", f.validation),
        labelled("Holdout fraction", f.holdout),
        labelled("Min trades", f.minTrades),
        labelled("Seed", f.seed),
        labelled("OOS every trial", f.oosEvery),
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
      this.charts,
      this.table,
    );
    this.renderSpace();
  }

  /** New inputs from a run: the space is rebuilt when the set of numeric inputs changed. */
  setInputs(inputs: readonly InputRecord[], isStrategy: boolean): void {
    this.isStrategy = isStrategy;
    const space = isStrategy ? spaceFromInputs(inputs) : [];
    // numeric inputs without minval/maxval are listed too, unticked, for the user to bound
    const named = new Set(space.map((p) => p.name));
    const unbounded = isStrategy
      ? inputs.filter((i) => (i.type === "int" || i.type === "float") && !named.has(i.title))
      : [];
    const sig = JSON.stringify([space, unbounded.map((i) => i.title)]);
    if (sig === this.signature) return;
    this.signature = sig;
    this.params = [
      ...space.map((p) => ({ ...p, enabled: true })),
      ...unbounded.map((i) => ({ name: i.title, kind: i.type as "int" | "float", enabled: false })),
    ];
    this.renderSpace();
  }

  /** Why the space cannot be searched as set (null when it can): said in words, not INVALID_SPACE. */
  private spaceProblem(): string | null {
    const used = this.params.filter((p) => p.enabled);
    const unbounded = used.filter((p) => typeof p.min !== "number" || typeof p.max !== "number" || !(p.min < p.max));
    if (unbounded.length)
      return `Give ${unbounded.map((p) => `"${p.name}"`).join(", ")} a min below its max (or untick it): the optimizer searches between the bounds. Declaring them in the script, input.int(10, "Length", minval = 2, maxval = 50), fills them in.`;
    if (!used.length)
      return this.params.length
        ? "Tick at least one input and give it a min and a max."
        : "This strategy has no int/float inputs to search: declare some with input.int / input.float (with minval and maxval).";
    return null;
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
        h(
          "p",
          { class: "muted", "data-testid": "opt-guidance" },
          this.isStrategy
            ? "This strategy has no int/float inputs to search: declare some with input.int / input.float, ideally with minval and maxval."
            : "Run a strategy to optimize its inputs.",
        ),
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
    if (this.params.some((p) => !p.enabled && p.min === undefined))
      this.spaceHost.append(
        h(
          "p",
          { class: "muted", "data-testid": "opt-guidance" },
          "Inputs declared without minval/maxval are unticked: give them a min and a max to search them.",
        ),
      );
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
      // every trial scored out of sample too, for the IS vs OOS scatter (the best one always is)
      oos_every_trial: f.oosEvery.checked && mode !== "in-sample",
      symbol: c.symbol,
      fixed_inputs: c.fixedInputs,
    };
  }

  async start(): Promise<OptimizeResult | null> {
    const c = this.ctx();
    if (!c || this.running) return null;
    const problem = this.spaceProblem();
    if (problem) {
      this.status.textContent = problem;
      this.status.classList.add("error");
      return null;
    }
    const asked = Number(this.fields.nTrials.value);
    if (asked > N_TRIALS_CAP) this.fields.nTrials.value = String(N_TRIALS_CAP);
    const capped = asked > N_TRIALS_CAP ? ` (${asked} asked: a study runs at most ${N_TRIALS_CAP})` : "";
    const req = this.request(c);
    this.running = true;
    this.cancelled = false;
    this.runButton.disabled = true;
    this.cancelButton.disabled = false;
    this.applyButton.disabled = true;
    this.trials = [];
    this.result = null;
    this.progress.max = req.n_trials;
    this.progress.value = 0;
    this.status.textContent = `running on ${c.engine.label}…`;
    this.status.classList.remove("error");
    this.charts.replaceChildren();
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
        // the winner re-run over all the bars (the engine's best_result): what Apply best will show
        (res.best_result?.strategy
          ? ` (${res.best_result.strategy.trades.length} trades on all ${res.best_result.count} bars)`
          : "") +
        (res.warning ? ` — ${res.warning}` : "") +
        capped;
      this.applyButton.disabled = !res.best_params;
      this.renderTrials();
      this.renderCharts();
      return res;
    } catch (e) {
      const msg = (e as Error).message;
      if (this.cancelled) {
        // the finished trials stay, and Apply best takes the best of them
        const best = bestFinished(this.trials);
        this.result = best ? { best_index: best.index, best_params: best.params } : null;
        this.status.textContent = `cancelled after ${this.trials.length} trials${best ? `: best so far #${best.index} (in-sample score)` : ""}${capped}`;
        this.applyButton.disabled = !best;
        this.renderTrials();
        this.renderCharts();
        return null;
      }
      this.status.textContent = msg.startsWith("INVALID_SPACE") ? `${this.spaceProblem() ?? msg}` : msg;
      this.status.classList.add("error");
      return null;
    } finally {
      this.running = false;
      this.runButton.disabled = false;
      this.cancelButton.disabled = true;
    }
  }

  cancel(): void {
    this.cancelled = true;
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

  /** Heatmap over two chosen inputs and the IS vs OOS scatter of the finished trials. */
  private renderCharts(): void {
    this.charts.replaceChildren();
    const trials = this.trials;
    if (!trials.length) return;
    const names = Object.keys(trials[0].params);
    const pick = (sel: HTMLSelectElement, dflt: string) => {
      const keep = names.includes(sel.value) ? sel.value : dflt;
      sel.replaceChildren(...names.map((n) => h("option", { value: n, selected: n === keep }, n)));
      return keep;
    };
    if (names.length >= 2) {
      const x = pick(this.heatX, names[0]);
      const y = pick(this.heatY, names.find((n) => n !== x) ?? names[1]);
      this.charts.append(
        h("div", { class: "opt-chart-head" }, labelled("Heatmap X", this.heatX), labelled("Y", this.heatY)),
        heatmap(trials, x, y),
      );
    }
    const scatter = isOosScatter(trials, this.result?.best_index ?? null);
    if (scatter) this.charts.append(scatter);
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

/** The finished trial with the highest in-sample score (no error), as a cancelled study's best so far. */
export function bestFinished(trials: readonly TrialRecord[]): TrialRecord | null {
  let best: TrialRecord | null = null;
  for (const t of trials)
    if (!t.error && typeof t.is_score === "number" && (!best || t.is_score > (best.is_score as number))) best = t;
  return best;
}

function select(name: string, options: string[]): HTMLSelectElement {
  const s = h("select", { name });
  for (const o of options) s.append(h("option", { value: o }, o));
  return s;
}

function labelled(text: string, control: HTMLElement): HTMLElement {
  return h("label", { class: "field" }, h("span", {}, text), control);
}
