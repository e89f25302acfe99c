// The app controller: owns the state, the editor, the chart and the panels, and runs scripts on the
// selected engine. Everything engine-specific stays behind the Engine interface.

import type { EditorView } from "@codemirror/view";
import { EditorSelection } from "@codemirror/state";
import type { Diagnostic } from "../../src/lang/ast.js";
import { diagnose } from "./editor/diagnose.js";
import type { PackedRunResult } from "../../src/worker/protocol.js";
import { ChartView } from "./chart/chart-view.js";
import { contentKey, parseDataFile } from "./data/parse.js";
import { SAMPLES, loadSample } from "./data/samples.js";
import { type ChartSymbol, guessSymbol, priceDecimals, toSymInfo } from "./data/symbol.js";
import { Engines } from "./engines/index.js";
import type { DataSet, Engine, EngineError, EngineId } from "./engines/types.js";
import { DEFAULT_SCRIPT, EXAMPLES } from "./examples.js";
import { loadState, loadUpload, saveState, saveUpload, type AppState } from "./state.js";
import { h } from "./ui/dom.js";
import { errorText } from "./ui/run-error.js";
import { renderInputs } from "./ui/inputs-panel.js";
import { renderProperties } from "./ui/properties-panel.js";
import { Legend } from "./ui/legend.js";
import { renderLogs } from "./ui/logs-panel.js";
import { OptimizePanel } from "./ui/optimize-panel.js";
import { renderProfile } from "./ui/profiler-panel.js";
import { ReportPanel, type ReportSymbol } from "./ui/report-panel.js";
import { ComparePanel, isComparable } from "./ui/compare-panel.js";
import { editSymbol } from "./ui/symbol-dialog.js";
import { openAlertDialog } from "./ui/alert-dialog.js";
import { DescribePanel } from "./ui/describe-panel.js";
import { Replay } from "./ui/replay.js";
import { sliceBars } from "../../src/worker/protocol.js";

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

export interface RunTiming {
  /** Click (or keypress) to plots drawn, ms. */
  totalMs: number;
  /** Engine round trip, ms. */
  engineMs: number;
  /** Building the chart series from the result, ms (the rest is panels and painting). */
  chartMs: number;
  /** Inputs, report, logs, profiler, legend and the other panels, ms. */
  panelsMs: number;
  bars: number;
}

export class App {
  readonly engines = new Engines();
  readonly chart: ChartView;
  state: AppState;
  data: DataSet | null = null;
  result: PackedRunResult | null = null;
  lastTiming: RunTiming | null = null;
  /** Runs finished (drawn, or failed with a message in the status bar). */
  runCount = 0;
  private editor!: EditorView;
  private setEditorText!: (view: EditorView, text: string) => void;
  private report: ReportPanel;
  private optimize: OptimizePanel;
  private runSeq = 0;
  private saveTimer = 0;
  private symbol = "CHART";
  /** The data's symbol description (guessed, or edited in the symbol dialog). */
  private sym: ChartSymbol = {
    ticker: "CHART",
    timezone: "Etc/UTC",
    session: "24x7",
    mintick: 0.01,
    currency: "USD",
    type: "crypto",
  };
  private legend: Legend;
  private compare: ComparePanel;
  /** Bar replay: while it is on, runs cover the bars revealed so far (ui/replay.ts). */
  readonly replay: Replay;
  /** Problems from the editor (kept while a run's own error is shown next to them) and from the last run. */
  private editorProblems: readonly Diagnostic[] = [];
  private runProblems: Diagnostic[] = [];

  constructor() {
    this.state = loadState({
      source: DEFAULT_SCRIPT,
      dataId: SAMPLES[0].id,
      engine: "browser",
      httpUrl: "",
      edgeUrl: "http://127.0.0.1:8788",
      edgeKey: "",
      inputs: {},
      profiler: false,
      symbols: {},
      properties: {},
    });
    this.chart = new ChartView($("chart"), $("tables"));
    this.legend = new Legend($("legend"));
    this.chart.onHover((bar) => this.legend.show(bar));
    this.compare = new ComparePanel($("compare-panel"), () => ({
      result: this.result,
      barTimes: this.data?.bars.time ?? null,
      mintick: this.sym.mintick,
      timezone: this.sym.timezone,
      highlight: (bar) => this.chart.highlightBar(bar),
    }));
    this.report = new ReportPanel($("report-panel"));
    this.replay = new Replay($("replay-bar"), $<HTMLButtonElement>("replay"), {
      times: () => this.data?.bars.time ?? null,
      run: () => this.run(),
      onChartClick: (cb) => this.chart.onClick(cb),
    });
    this.optimize = new OptimizePanel(
      $("optimize-panel"),
      () =>
        this.data
          ? { engine: this.engine(), script: this.source(), data: this.data, symbol: this.symbol, fixedInputs: {} }
          : null,
      (params) => {
        this.state.inputs = { ...this.state.inputs, ...params };
        this.persist();
        void this.run();
      },
    );
  }

  async start(): Promise<void> {
    // the editor (CodeMirror) is its own chunk so the chart and data load in parallel with it
    const { createEditor, setEditorText } = await import("./editor/editor.js");
    this.setEditorText = setEditorText;
    this.editor = createEditor({
      parent: $("editor"),
      doc: this.state.source,
      diagnose,
      onRun: () => void this.run(),
      onChange: (src) => {
        this.state.source = src;
        this.persist();
      },
      onDiagnostics: (d) => this.showProblems(d),
    });
    this.wireControls();
    new DescribePanel($("editor"), {
      serverUrl: () => (this.state.engine === "http" ? this.state.httpUrl || location.origin : null),
      apply: (script) => {
        this.setSource(script);
        void this.run();
      },
    });
    window.addEventListener("pagehide", () => this.flushState());
    await this.selectData(this.state.dataId);
    await this.run();
  }

  engine(): Engine {
    const s = this.state;
    return this.engines.get(s.engine, {
      httpUrl: s.httpUrl || location.origin,
      edgeUrl: s.edgeUrl,
      edgeKey: s.edgeKey,
    });
  }

  source(): string {
    return this.editor.state.doc.toString();
  }

  setSource(text: string): void {
    this.setEditorText(this.editor, text);
    this.state.source = text;
    this.persist();
  }

  /** Saves soon (typing is debounced); a pending save is flushed when the page goes away. */
  private persist(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => saveState(this.state), 300);
  }

  private flushState(): void {
    clearTimeout(this.saveTimer);
    saveState(this.state);
  }

  /** The status line; an error also shows in a banner over the chart until the next status. */
  setStatus(text: string, error = false): void {
    const el = $("status");
    el.textContent = text;
    el.title = text;
    el.classList.toggle("error", error);
    const notice = $("notice");
    notice.hidden = !error;
    if (error) $("notice-text").textContent = text;
  }

  private wireControls(): void {
    const example = $<HTMLSelectElement>("example");
    example.append(
      h("option", { value: "" }, "— pick an example —"),
      ...EXAMPLES.map((e) => h("option", { value: e.id }, e.name)),
    );
    example.addEventListener("change", () => {
      const ex = EXAMPLES.find((e) => e.id === example.value);
      example.value = "";
      if (!ex) return;
      this.state.inputs = {};
      this.setSource(ex.source);
      // a discrete choice is saved at once: a reload starts from the URL hash, which a save from
      // the pagehide handler comes too late to change
      this.flushState();
      void this.run();
    });

    const data = $<HTMLSelectElement>("data");
    data.append(
      ...SAMPLES.map((s) => h("option", { value: s.id }, s.name)),
      h("option", { value: "upload", disabled: true }, "Uploaded file"),
    );
    data.addEventListener("change", () => void this.selectData(data.value).then(() => this.run()));

    $<HTMLInputElement>("upload").addEventListener("change", (e) => {
      const input = e.target as HTMLInputElement;
      const file = input.files?.[0];
      input.value = "";
      if (file) void this.upload(file);
    });

    const engine = $<HTMLSelectElement>("engine");
    const labels: Record<EngineId, string> = {
      browser: "In-browser (worker)",
      http: "HTTP server",
      edge: "Edge worker (set its URL in ⚙)",
    };
    engine.append(
      ...(Object.keys(labels) as EngineId[]).map((id) =>
        h("option", { value: id, selected: id === this.state.engine }, labels[id]),
      ),
    );
    engine.addEventListener("change", () => {
      this.state.engine = engine.value as EngineId;
      this.flushState();
      void this.run();
    });
    // probed when asked for (a probe of nothing logs a network error in the console): at start only
    // when the edge is the chosen engine, and whenever its URL changes
    if (this.state.engine === "edge") void this.probeEdge();
    $("edge-url").addEventListener("change", () => void this.probeEdge());
    const bindText = (id: string, key: "httpUrl" | "edgeUrl" | "edgeKey") => {
      const el = $<HTMLInputElement>(id);
      el.value = this.state[key];
      el.addEventListener("change", () => {
        this.state[key] = el.value.trim();
        this.persist();
      });
    };
    bindText("http-url", "httpUrl");
    bindText("edge-url", "edgeUrl");
    bindText("edge-key", "edgeKey");

    const profiler = $<HTMLInputElement>("profiler");
    profiler.checked = this.state.profiler;
    profiler.addEventListener("change", () => {
      this.state.profiler = profiler.checked;
      this.persist();
      void this.run();
    });
    $("run").addEventListener("click", () => void this.run());
    $("symbol-info").addEventListener("click", () => void this.editSymbol());
    $("create-alert").addEventListener("click", () => void this.createAlert());
    // a dropped file: TradingView's exports are compared, anything else is loaded as data
    window.addEventListener("dragover", (e) => e.preventDefault());
    window.addEventListener("drop", (e) => {
      e.preventDefault();
      const file = e.dataTransfer?.files[0];
      if (file) void this.dropFile(file);
    });
    $("notice-close").addEventListener("click", () => ($("notice").hidden = true));
    $("stop").addEventListener("click", () => {
      // terminates the busy workers (or aborts the request); the run then reports the cancellation
      this.engine().cancel();
    });

    for (const nav of document.querySelectorAll<HTMLElement>("nav.tabs")) {
      nav.addEventListener("click", (e) => {
        const btn = (e.target as HTMLElement).closest("button[data-tab]") as HTMLElement | null;
        if (btn) this.showTab(nav.dataset.group!, btn.dataset.tab!);
      });
    }
  }

  private activeTab(group: string): string | undefined {
    return document.querySelector<HTMLElement>(`nav.tabs[data-group="${group}"] button.active`)?.dataset.tab;
  }

  showTab(group: string, tab: string): void {
    document.querySelectorAll(`nav.tabs[data-group="${group}"] button`).forEach((b) => {
      b.classList.toggle("active", (b as HTMLElement).dataset.tab === tab);
    });
    document.querySelectorAll(`.tab-body[data-group="${group}"] .panel`).forEach((p) => {
      p.classList.toggle("active", (p as HTMLElement).dataset.panel === tab);
    });
    if (tab === "optimize") this.optimize.shown();
  }

  async selectData(id: string): Promise<void> {
    const select = $<HTMLSelectElement>("data");
    try {
      if (id === "upload") {
        const up = loadUpload();
        if (!up) throw new Error("the uploaded file is no longer stored; pick a sample or upload again");
        this.useData(up.name, up.bars, "upload", "CHART");
        return;
      }
      const sample = SAMPLES.find((s) => s.id === id) ?? SAMPLES[0];
      this.useData(sample.name, await loadSample(sample), sample.id, sample.symbol);
    } catch (e) {
      this.setStatus(`data: ${(e as Error).message}`, true);
      if (id !== SAMPLES[0].id) await this.selectData(SAMPLES[0].id);
    } finally {
      select.value = this.state.dataId;
    }
  }

  /** Makes `bars` the current data set (validated already) and redraws the candles. */
  useData(name: string, bars: DataSet["bars"], dataId: string, symbol: string): void {
    this.data = { key: contentKey(bars), name, bars };
    this.replay.reset();
    this.sym = this.state.symbols[dataId] ?? guessSymbol(symbol, bars);
    this.symbol = this.sym.ticker;
    this.state.dataId = dataId;
    const select = $<HTMLSelectElement>("data");
    let opt = select.querySelector<HTMLOptionElement>(`option[value="${dataId}"]`);
    if (!opt) select.append((opt = h("option", { value: dataId }, name)));
    if (dataId === "upload") {
      opt.disabled = false;
      opt.textContent = `Uploaded: ${name} (${bars.time.length} bars)`;
    }
    select.value = dataId;
    this.chart.setTimezone(this.sym.timezone, false);
    this.chart.setBars(bars);
    this.chart.setTick(this.sym.mintick, priceDecimals(this.sym.mintick));
    this.persist();
  }

  async upload(file: File): Promise<boolean> {
    try {
      const bars = parseDataFile(file.name, await file.text());
      const stored = saveUpload(file.name, bars);
      this.useData(file.name, bars, "upload", "CHART");
      $<HTMLSelectElement>("data").value = "upload";
      this.setStatus(
        `${file.name}: ${bars.time.length} bars loaded${stored ? "" : " (too large to keep across reloads)"}; tick ${this.sym.mintick}, ${this.sym.timezone} (Symbol… to change)`,
      );
      await this.run();
      return true;
    } catch (e) {
      this.setStatus(`${file.name}: ${(e as Error).message}`, true);
      return false;
    }
  }

  /** Runs the script on the current engine and draws the result; a newer run supersedes an older one. */
  async run(): Promise<PackedRunResult | null> {
    if (!this.data) return null;
    const seq = ++this.runSeq;
    const t0 = performance.now();
    const engine = this.engine();
    const source = this.source();
    // bar replay: the bars revealed so far, the replayed ones realtime
    const win = this.replay.window();
    const bars = win ? sliceBars(this.data.bars, 0, win.to) : this.data.bars;
    this.setStatus(`running on ${engine.label}…`);
    const stop = $("stop");
    stop.hidden = false;
    let result: PackedRunResult;
    try {
      result = await engine.run({
        source,
        data: this.data,
        symbol: this.symbol,
        inputs: this.state.inputs,
        profiler: this.state.profiler,
        syminfo: toSymInfo(this.sym),
        strategy: this.properties(source),
        ...(win && { slice: [0, win.to] as [number, number], realtime: { fromBar: win.from, ticks: win.ticks } }),
      });
    } catch (e) {
      if (seq === this.runSeq) {
        stop.hidden = true;
        let msg = (e as Error).message;
        if (engine.id === "edge" && (e as EngineError).code === "NETWORK") msg = edgeHelp(this.state.edgeUrl, msg);
        // the chart, legend and report no longer show the previous script's output
        this.clearResult(msg === "cancelled" ? "Stopped: no result." : "The run failed: no result.");
        this.setStatus(msg === "cancelled" ? "run stopped" : msg, msg !== "cancelled");
        this.runCount++; // a failed run is a finished run too (tests and the status wait on it)
      }
      return null;
    }
    if (seq === this.runSeq) stop.hidden = true;
    if (seq !== this.runSeq) return null;
    const engineMs = performance.now() - t0;
    this.result = result;
    const tChart = performance.now();
    if (this.chart.barCount !== bars.time.length) this.chart.setBars(bars, true);
    this.chart.render(result);
    const chartMs = performance.now() - tChart;
    // the panels in a task of their own: the result's decoding and the chart already share one, and
    // at 100k bars the three together passed 200 ms on a loaded machine (e2e/responsive.spec.ts)
    await new Promise((r) => setTimeout(r, 0));
    if (seq !== this.runSeq) return null;
    const tPanels = performance.now();
    this.renderPanels(result, source, bars);
    const panelsMs = performance.now() - tPanels;
    // wait for the frame that paints the new series
    await new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
    const totalMs = performance.now() - t0;
    this.lastTiming = { totalMs, engineMs, chartMs, panelsMs, bars: this.data.bars.time.length };
    this.runCount++;
    if (result.error) {
      this.setStatus(errorText(result), true);
      this.showTab("right", "logs");
      this.showTab("left", "problems");
    } else {
      const mode = result.auto_backend ? `auto → ${result.auto_backend}` : result.mode;
      this.setStatus(
        `${result.script_name || "script"}: ${Math.round(totalMs)} ms, ${result.count} bars, ${mode} on ${engine.label}${result.timed_out ? " — timed out" : ""}`,
      );
    }
    return result;
  }

  private renderPanels(result: PackedRunResult, source: string, bars: DataSet["bars"]): void {
    const titles = new Set((result.inputs ?? []).map((i) => i.title));
    // overrides of inputs the script no longer declares are dropped
    for (const k of Object.keys(this.state.inputs)) if (!titles.has(k)) delete this.state.inputs[k];
    renderInputs(
      $("inputs-panel"),
      result.inputs ?? [],
      (title, value) => {
        this.state.inputs = { ...this.state.inputs, [title]: value };
        this.persist();
        void this.run();
      },
      () => {
        this.state.inputs = {};
        this.persist();
        void this.run();
      },
    );
    this.report.render(result, bars, this.reportSymbol());
    renderProperties(
      $("properties-panel"),
      result,
      this.properties(source) ?? {},
      this.engine().id === "browser",
      (change) => {
        // applied to the overrides kept now, not to the ones this render showed (see renderProperties)
        const next = change === null ? {} : { ...(this.properties(source) ?? {}) };
        if (change !== null) {
          if (change.value === undefined) delete next[change.name];
          else next[change.name] = change.value;
        }
        this.state.properties = { ...this.state.properties, [scriptKey(source)]: next };
        this.flushState();
        void this.run();
      },
    );
    renderLogs($("logs-panel"), result);
    this.compare.rerun();
    renderProfile($("profile-panel"), result, source, (line) => this.gotoLine(line));
    this.optimize.setInputs(result.inputs ?? [], result.script_type === "strategy");
    this.renderLegend(result, bars);
    const strategy = result.script_type === "strategy";
    // an indicator has no report: the chart takes the room, and the tab shows what the run said
    document.querySelector(".pane-right")?.classList.toggle("no-report", !strategy);
    if (strategy) this.showTab("right", "report");
    else if (this.activeTab("right") === "report") this.showTab("right", "logs");
    this.runProblems = runProblems(result);
    this.showProblems(this.editorProblems);
  }

  /** Empties the chart, legend and report (a stopped or failed run leaves nothing stale behind). */
  private clearResult(note: string): void {
    this.result = null;
    this.chart.clearResult();
    this.legend.clear();
    this.report.clear(note);
    this.runProblems = [];
    this.showProblems(this.editorProblems);
  }

  /** Marks the Edge worker option with whether anything answers at its URL (its /health). */
  private async probeEdge(): Promise<void> {
    const opt = $<HTMLSelectElement>("engine").querySelector<HTMLOptionElement>('option[value="edge"]');
    if (!opt) return;
    // the field's value: this listener may run before the one that stores it in the state
    const url = ($<HTMLInputElement>("edge-url").value.trim() || this.state.edgeUrl).replace(/\/$/, "");
    let up = false;
    try {
      up = (await fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })).ok;
    } catch {
      up = false;
    }
    opt.textContent = up ? "Edge worker" : "Edge worker (not running: see ⚙)";
    opt.title = up ? url : edgeHelp(url, "no answer");
  }

  private renderLegend(result: PackedRunResult, bars: DataSet["bars"]): void {
    this.legend.render(result, bars, this.sym.ticker, priceDecimals(this.sym.mintick));
  }

  /** A file dropped on the app (or picked): compared with the run when it is a TradingView export, else loaded. */
  async dropFile(file: File): Promise<void> {
    const text = await file.text();
    if (isComparable(text, this.result)) {
      this.showTab("right", "compare");
      this.compare.compare(file.name, text);
    } else await this.upload(file);
  }

  /** Opens the symbol dialog; an edit is kept for this data set and the script runs again with it. */
  async editSymbol(): Promise<void> {
    const next = await editSymbol(this.sym);
    if (!next || !this.data) return;
    this.sym = next;
    this.symbol = next.ticker;
    this.state.symbols = { ...this.state.symbols, [this.state.dataId]: next };
    this.flushState();
    this.chart.setTick(next.mintick, priceDecimals(next.mintick));
    this.chart.setTimezone(next.timezone);
    await this.run();
  }

  /** "Create alert": registers the script with the edge worker of ⚙ (or explains how to get one). */
  createAlert(): Promise<void> {
    const r = this.result;
    return openAlertDialog({
      target: { baseUrl: this.state.edgeUrl, apiKey: this.state.edgeKey || undefined },
      source: this.source(),
      title: scriptKey(this.source()),
      scriptType: r?.script_type ?? null,
      firings: r?.alerts?.length ?? 0,
      conditions: r?.alert_conditions?.length ?? 0,
      symbol: this.sym.ticker,
      bars: this.data?.bars ?? null,
    });
  }

  /** The editor's diagnostics (parser, checker) plus the last run's error with its line and bar. */
  private showProblems(editorDiags: readonly Diagnostic[]): void {
    this.editorProblems = editorDiags;
    const diags = [...this.runProblems, ...editorDiags];
    const host = $("problems-panel");
    host.replaceChildren();
    const errors = diags.filter((d) => d.severity === "error").length;
    $("problem-count").textContent = errors ? String(errors) : "";
    if (!diags.length) host.append(h("p", { class: "muted" }, "No problems."));
    for (const d of diags)
      host.append(
        h(
          "div",
          {
            class: `problem ${d.severity}`,
            "data-testid": "problem",
            onclick: () => (d.line > 0 ? this.gotoLine(d.line, d.column) : undefined),
          },
          d.line > 0 ? `${d.line}:${d.column} ${d.severity}: ${d.message}` : `${d.severity}: ${d.message}`,
        ),
      );
  }

  gotoLine(line: number, column = 1): void {
    const doc = this.editor.state.doc;
    const l = doc.line(Math.min(Math.max(1, line), doc.lines));
    this.editor.dispatch({
      selection: EditorSelection.cursor(Math.min(l.to, l.from + column - 1)),
      scrollIntoView: true,
    });
    this.editor.focus();
  }

  /** Sets one input override as the inputs panel would, and re-runs. */
  async setInput(title: string, value: unknown): Promise<PackedRunResult | null> {
    this.state.inputs = { ...this.state.inputs, [title]: value };
    return this.run();
  }

  /** The Properties overrides kept for this script (by its strategy() title), undefined when none. */
  properties(source: string): Record<string, unknown> | undefined {
    const o = this.state.properties[scriptKey(source)];
    return o && Object.keys(o).length ? o : undefined;
  }

  /** The symbol as the report formats it (currency, time zone, price decimals from mintick). */
  reportSymbol(): ReportSymbol {
    return { currency: this.sym.currency, timezone: this.sym.timezone, priceDecimals: priceDecimals(this.sym.mintick) };
  }

  get reportPanel(): ReportPanel {
    return this.report;
  }

  get optimizePanel(): OptimizePanel {
    return this.optimize;
  }
}

/**
 * The run's error as Problems rows: its diagnostics (a runtime error names its statement's line),
 * or one row without a line when the error carries none, so Problems never says "No problems" then.
 */
function runProblems(result: PackedRunResult): Diagnostic[] {
  if (!result.error) return [];
  const bar =
    typeof result.error_bar === "number" && result.error_kind === "runtime" ? ` (bar ${result.error_bar})` : "";
  const diags = (result.diagnostics ?? []).map((d) => ({
    ...d,
    message: d.message.includes("bar ") ? d.message : `${d.message}${bar}`,
  }));
  if (diags.some((d) => d.severity === "error")) return diags;
  return [
    ...diags,
    { severity: "error", line: 0, column: 0, end_line: 0, end_column: 0, message: `${result.error}${bar}` },
  ];
}

function edgeHelp(url: string, why: string): string {
  return `No edge worker answers at ${url || "the configured URL"} (${why}). Start one locally with \`npx resinctl dev worker resin\` (it listens on http://127.0.0.1:8788), or set a deployed worker's URL and key under ⚙; the In-browser engine needs nothing.`;
}

/** What Properties are remembered by: the script's declared title (the first string of its declaration). */
export function scriptKey(source: string): string {
  return /^\s*(?:strategy|indicator)\s*\(\s*(?:title\s*=\s*)?"([^"]*)"/m.exec(source)?.[1] ?? "script";
}
