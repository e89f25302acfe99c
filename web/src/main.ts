// Entry of the chart app: starts the App and exposes a small read-only hook for tests and
// benchmarks (window.__resin): what the chart shows, the last run's timing, and a benchmark helper.

import "./styles.css";
import { App } from "./app.js";
import { crosshairTime } from "./chart/chart-view.js";
import { BrowserEngine, TrialTrace } from "./engines/browser.js";
import { PIPELINE_DEPTH } from "../../src/worker/pool.js";
import { contentKey } from "./data/parse.js";
import { generateBars } from "./data/samples.js";
import { spaceFromInputs } from "../../src/optimize/inputs-space.js";
import type { ParamSpec } from "./engines/types.js";

const app = new App();
const keptEngines: Record<number, BrowserEngine> = {};

const hook = {
  /** Everything drawn on the price chart: per series type, pane, point count and last value. */
  seriesData: () => app.chart.snapshot(),
  lastTiming: () => app.lastTiming,
  /** x of a bar in the chart's box (to hover it), and the crosshair's time label for a bar. */
  barX: (bar: number) => app.chart.barX(bar),
  crosshairLabel: (bar: number) => crosshairTime(app.chart.chartTime(bar) ?? (0 as never)),
  /** A plot's value at a bar, as the result has it (null for na). */
  plotValue: (title: string, bar: number) => {
    const v = app.result?.series[title]?.[bar];
    return typeof v === "number" && v === v ? v : null;
  },
  /** The exit bar of trade `num` (null when open or not listed). */
  tradeExitBar: (num: number) => {
    const st = app.result?.strategy;
    const t = st ? [...st.trades, ...st.open_trades].find((x) => x.trade_num === num) : undefined;
    return t?.exit_bar_index ?? null;
  },
  /** The report's overview chart extent (time axis from the first bar) and its CSV export. */
  reportExtent: () => app.reportPanel.overviewExtent(),
  tradesCsv: () => app.reportPanel.tradesCsv(),
  runCount: () => app.runCount,
  result: () => {
    const r = app.result;
    if (!r) return null;
    return {
      error: r.error ?? null,
      script_type: r.script_type,
      mode: r.mode,
      count: r.count,
      inputs: r.inputs,
      trades: r.strategy?.trades.length ?? null,
      open_trades: r.strategy?.open_trades.length ?? null,
      events: r.events?.length ?? 0,
      /** The engine's statistics, to compare the report's tiles and tables with. */
      stats: r.strategy?.stats ?? null,
      plot_titles: Object.keys(r.plot_meta ?? {}),
    };
  },
  /** Benchmark helper: replaces the data with `n` generated bars (the figure for 100k bars). */
  useGeneratedData: (n: number) => {
    const bars = generateBars(n);
    app.useData(`generated ${n}`, bars, "generated", "CHART");
    return contentKey(bars);
  },
  setSource: (text: string) => app.setSource(text),
  /**
   * How much parallel CPU the page really gets: the same busy loop in 1 worker, then in `k` workers
   * at once. A ratio near 1 means k cores' worth; near k means the workers share one core's time
   * (a loaded machine, or a scheduler that gives the browser one share however many threads it runs).
   */
  benchParallelism: async (k = 2) => {
    const code =
      "onmessage = () => { const t0 = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x = (x + i * 1.000001) % 1e9; postMessage([performance.now() - t0, x]); };";
    const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
    const spin = async (n: number): Promise<number> => {
      const ws = Array.from({ length: n }, () => new Worker(url));
      const t0 = performance.now();
      await Promise.all(ws.map((w) => new Promise((r) => ((w.onmessage = r), w.postMessage(0)))));
      const ms = performance.now() - t0;
      ws.forEach((w) => {
        w.terminate();
      });
      return ms;
    };
    await spin(1); // warm-up
    const one = await spin(1);
    const many = await spin(k);
    URL.revokeObjectURL(url);
    return { oneMs: one, manyMs: many, ratio: many / one, effectiveCores: (k * one) / many };
  },
  /**
   * `n` lean runs of the current script fanned out over a fresh pool of `workers`: wall time and the
   * workers' own per-run time (profile.total_ms), to tell pool overhead from slower runs.
   */
  benchRuns: async (workers: number, n: number) => {
    const data = app.data;
    if (!data) throw new Error("no data");
    const engine = new BrowserEngine(workers);
    const req = { source: app.source(), data, symbol: "CHART", inputs: {}, profiler: false, mode: "interpret" };
    for (let k = 0; k < 3; k++) await Promise.all(Array.from({ length: workers }, () => engine.run(req)));
    const t0 = performance.now();
    const results = await Promise.all(Array.from({ length: n }, () => engine.run(req)));
    const wallMs = performance.now() - t0;
    engine.pool.terminate();
    const inWorker = results.map((r) => r.profile.total_ms);
    return { wallMs, perSecond: n / (wallMs / 1000), workerMsAvg: inWorker.reduce((a, b) => a + b, 0) / n };
  },
  /**
   * The same runs as a study's trials, as plain runs one after another on one warm worker of the kept
   * engine of `workers` (a lean run with a trial's broker settings: every trade kept, no event log):
   * what a trial would cost without a study around it, for the browser row of the optimize benchmark
   * (e2e/bench/optimize-cost.bench.ts measures the browser's CPU around both).
   */
  benchPlainRuns: async (workers: number, params: Record<string, unknown>[]) => {
    const data = app.data;
    if (!data) throw new Error("no data");
    const engine = (keptEngines[workers] ??= new BrowserEngine(workers));
    engine.register({ data });
    const source = app.source();
    let workerMs = 0;
    for (const inputs of params) {
      const r = await engine.pool.exec(data.key, (api) =>
        api.run({
          source,
          barsKey: data.key,
          symbol: "CHART",
          lean: true,
          runtime: { broker: { trade_limit: Infinity, record_events: false } },
          options: { inputs, mode: "auto" },
        }),
      );
      if (r.error) throw new Error(r.error);
      workerMs += r.worker_ms ?? 0;
    }
    return { runs: params.length, workerMsAvg: workerMs / Math.max(1, params.length) };
  },
  /**
   * Optimize throughput with a dedicated browser engine of `workers` workers; returns trials/s.
   * One worker runs the study inside the worker unless `path` is "pool" (page loop, one-worker pool).
   * `trace` averages where a page-loop trial's time goes (queue, round trip, the worker's own time).
   */
  benchOptimize: async (
    workers: number,
    nTrials: number,
    path: "auto" | "pool" = "auto",
    opts: {
      pipeline?: boolean;
      sampler?: string;
      validation?: { mode: string };
      keep?: boolean;
      warmUp?: "runs" | "none" | "prepare";
      /** The space's params (default: the script's inputs that declare minval and maxval). */
      space?: ParamSpec[];
    } = {},
  ) => {
    const data = app.data;
    if (!data) throw new Error("no data");
    // keep: the workers stay up for the next call with the same size (warm, like the app's own)
    const engine = opts.keep ? (keptEngines[workers] ??= new BrowserEngine(workers)) : new BrowserEngine(workers);
    const space = opts.space ?? spaceFromInputs(app.result?.inputs ?? []);
    // warm-up: start every worker, hand it the bars and let its JIT settle (three runs each; the app's
    // own workers stay alive between studies), so the figure is trials, not worker start-up
    // (warmUp "none": the figure includes starting the workers; "prepare": what opening the Optimize tab does)
    const warmUp = opts.warmUp ?? "runs";
    if (warmUp === "prepare") await engine.prepareOptimize({ script: app.source(), data, symbol: "CHART" });
    for (let k = 0; warmUp === "runs" && k < 3; k++) {
      await Promise.all(
        Array.from({ length: workers }, () =>
          engine.run({ source: app.source(), data, symbol: "CHART", inputs: {}, profiler: false, mode: "interpret" }),
        ),
      );
    }
    const trace = (engine.trace = new TrialTrace());
    const t0 = performance.now();
    const req = {
      script: app.source(),
      data,
      space: { params: space },
      n_trials: nTrials,
      sampler: opts.sampler ?? "random",
      objective: "net_pnl",
      validation: opts.validation ?? { mode: "in-sample" },
      min_trades: 0,
      seed: 1,
      symbol: "CHART",
      fixed_inputs: {},
    };
    let progressCalls = 0;
    const onProgress = () => void progressCalls++;
    // one worker: the study runs inside it; a pool: the page runs the study and fans trials out
    const inWorker = workers === 1 && path === "auto";
    // pipeline false: no more trials in flight than workers, so none waits queued inside a worker
    const concurrency = opts.pipeline === false ? workers : workers * PIPELINE_DEPTH;
    const res = inWorker
      ? await engine.optimizeInOneWorker(req, onProgress)
      : await engine.optimize(req, onProgress, concurrency);
    const secs = (performance.now() - t0) / 1000;
    engine.trace = null;
    if (!opts.keep) engine.pool.terminate();
    return {
      trials: res.trials.length,
      seconds: secs,
      perSecond: res.trials.length / secs,
      errors: res.trials.filter((t) => t.error).length,
      progressCalls,
      avgTrialMs: res.trials.reduce((a, t) => a + t.ms, 0) / Math.max(1, res.trials.length),
      bestIndex: res.best_index,
      bestParams: res.best_params,
      /** Every trial's params and scores, to compare studies run on different paths. */
      digest: JSON.stringify(res.trials.map((t) => [t.index, t.params, t.is_score, t.oos_score, t.error])),
      /** Every trial's params, in index order (benchPlainRuns runs them again as plain runs). */
      params: res.trials.map((t) => t.params),
      trace: trace.summary(),
    };
  },
};

declare global {
  interface Window {
    __resin: typeof hook & { ready: boolean };
  }
}
window.__resin = Object.assign(hook, { ready: false });

app.start().then(
  () => (window.__resin.ready = true),
  (e) => {
    app.setStatus(`startup failed: ${(e as Error).message}`, true);
    window.__resin.ready = true;
  },
);
