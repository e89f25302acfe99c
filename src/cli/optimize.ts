// resin optimize <strategy> (options declared in index.ts, which loads this module only for `optimize`).
// Searches a strategy's inputs with the shared optimize module (service.md 3 and 5). The space
// defaults to the strategy's int/float inputs that declare minval and maxval. Trials run on this
// thread, and on worker threads too once the study is long enough to pay for their start-up
// (optimize-threads.ts; --workers caps the number).
// Exit codes: 0 ok, 1 script or run error, 2 usage error.

import { UsageError, readText } from "./args.js";
import type { OptimizeOptions as Args } from "./options.js";
import { renderTable } from "./table.js";
import { ThreadGate, type Place } from "./optimize-threads.js";
import { type StudyEngine, studyEngine } from "./optimize-engine.js";
import { RemoteStudyError } from "./optimize-remote.js";
import type { Bar, OhlcvInput } from "../core/result.js";
import { isBarDataError, parseCsvBars, parseJsonBars } from "../core/bars.js";
import { randomWalkBars } from "../runtime/synthetic.js";
import {
  N_TRIALS_DEFAULT,
  OptimizeError,
  prepareStudy,
  runStudy,
  spaceFromInputs,
  toBarArray,
  type OptimizeRequest,
  type OptimizeResult,
  type PreparedStudy,
  type StudyOptions,
  type TrialRecord,
  type TrialRunner,
  type FullRunner,
  setLabel,
  winnerFullResults,
} from "../optimize/index.js";
import { studyFullRunner, studyTrialRunner, TRIAL_BROKER, type Engine } from "../server/engine.js";

function loadFile(a: Args, file: string): Bar[] | string {
  const text = readText(file, "data file");
  const parsed =
    /\.json$/i.test(file) || /^\s*[[{]/.test(text)
      ? parseJsonBars(text, { timeUnit: a.timeUnit })
      : parseCsvBars(text, { timeUnit: a.timeUnit });
  if (isBarDataError(parsed)) return `${file}: ${parsed.error}${parsed.line ? ` (line ${parsed.line})` : ""}`;
  return toBarArray(parsed as unknown as OhlcvInput);
}

/** The study's data sets: each --data file, else seeded random-walk bars. */
function loadBars(a: Args): Bar[][] | string {
  if (!a.data?.length) return [randomWalkBars(a.bars)];
  const sets: Bar[][] = [];
  for (const file of a.data) {
    const bars = loadFile(a, file);
    if (typeof bars === "string") return bars;
    sets.push(bars);
  }
  return sets;
}

/** The validation object for the request: walk-forward windows derive from the bar count. */
function validationOf(a: Args, n: number): Record<string, unknown> {
  const v: Record<string, unknown> = { mode: a.validation };
  if (a.holdoutFrac !== undefined) v.holdout_frac = a.holdoutFrac;
  if (a.validation === "walk-forward") {
    v.train_bars = a.trainBars ?? Math.max(8, Math.floor((2 * n) / 3));
    v.test_bars = a.testBars ?? Math.max(4, Math.floor(n / 6));
    v.step_bars = a.stepBars ?? v.test_bars;
  }
  return v;
}

function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return "-";
  return String(Number(x.toPrecision(digits + 2)));
}

/** A progress bar on stderr (@clack/prompts, loaded only on a terminal). */
async function progressOnTerminal(
  total: number,
): Promise<{ advance(msg: string, step?: number): void; stop(msg: string): void } | null> {
  if (!process.stderr.isTTY) return null;
  const { progress } = await import("@clack/prompts");
  const bar = progress({ max: total, output: process.stderr, style: "heavy" });
  bar.start(`0/${total} trials`);
  return { advance: (msg, step = 1) => bar.advance(step, msg), stop: (msg) => bar.stop(msg) };
}

function printTable(res: OptimizeResult): void {
  const ranked = res.trials
    .filter((t) => !t.error)
    .sort(
      (a, b) =>
        (b.oos_score ?? -Infinity) - (a.oos_score ?? -Infinity) ||
        (b.is_score ?? -Infinity) - (a.is_score ?? -Infinity),
    );
  const rows = ranked
    .slice(0, 10)
    .map((t: TrialRecord) => [
      String(t.index),
      JSON.stringify(t.params),
      fmt(t.is_score),
      fmt(t.oos_score),
      String(t.is_stats?.trades ?? "-"),
      fmt(t.is_stats?.total_pnl),
    ]);
  const head = ["#", "params", "is_score", "oos_score", "trades", "is_pnl"];
  console.log(renderTable(head, rows, ["right", "left", "right", "right", "right", "right"]));
  const errors = res.trials.filter((t) => t.error).length;
  console.log("");
  console.log(
    `sampler ${res.sampler}, objective ${res.objective}, validation ${res.validation.mode}, ${res.n_trials} trials (${errors} failed), ${res.engine_runs} engine runs, ${res.ms} ms`,
  );
  const sets = res.trials.find((t) => t.sets)?.sets?.length;
  if (sets) console.log(`${sets} data sets: scores are their aggregate; per-set stats in --json (trials[].sets)`);
  if (res.best_params)
    console.log(
      `best #${res.best_index}: ${JSON.stringify(res.best_params)}  is ${fmt(res.best_is_score)}  oos ${fmt(res.best_oos_score)}`,
    );
  else console.log("best: none (no trial reached min_trades with a finite score)");
  // the winner's full run on each data set (one line per set in a study of several)
  const fulls = res.best_results ?? [{ symbol: null, timeframe: null, result: res.best_result ?? null }];
  fulls.forEach((f, k) => {
    const full = f.result;
    if (!full?.strategy) return;
    const s = full.strategy.stats;
    const on = res.best_results ? `${setLabel(f, k)} (all ${full.count} bars)` : `all ${full.count} bars`;
    console.log(
      `best re-run on ${on}: ${full.strategy.trades.length} closed trades, ${full.strategy.open_trades.length} open, net profit ${fmt(s.net_profit)}, max drawdown ${fmt(s.max_drawdown)}${full.error ? `, error: ${full.error}` : ""}`,
    );
  });
  if (res.warning) console.log(`warning: ${res.warning}`);
}

const USAGE_CODES = new Set([
  "INVALID_SPACE",
  "INVALID_VALIDATION",
  "INVALID_OBJECTIVE",
  "INVALID_SAMPLER",
  "GRID_TOO_LARGE",
  "TOO_MANY_RUNS",
  "INVALID_PARALLELISM",
  "INVALID_DATASETS",
  // refused by a --remote worker: the study does not fit its plan's limits, or the URL is wrong
  "TOO_MANY_SUBREQUESTS",
  "BATCH_CPU_EXCEEDED",
  "INVALID_URL",
]);

/** Prints a result; exit 1 when every trial failed. */
function report(a: Args, res: OptimizeResult): number {
  if (a.json) console.log(JSON.stringify({ status: "success", ...res }));
  else printTable(res);
  const failed = res.trials.filter((t) => t.error);
  if (failed.length === res.trials.length) {
    console.error(`resin optimize: every trial failed: ${failed[0]?.error}`);
    return 1;
  }
  return 0;
}

/** The study on an edge worker (--remote): fanned out there, progress polled here. */
async function remote(a: Args, req: OptimizeRequest, engine: Engine): Promise<number> {
  const { runRemoteStudy } = await import("./optimize-remote.js");
  // the worker may cap n_trials: the bar's length is what was asked
  const bar = a.json ? null : await progressOnTerminal(req.n_trials ?? N_TRIALS_DEFAULT);
  let done = 0;
  const res = await runRemoteStudy(
    a.remote as string,
    req,
    {
      ...(a.concurrency !== undefined ? { concurrency: a.concurrency } : {}),
      ...(a.batchSize !== undefined ? { batchSize: a.batchSize } : {}),
      ...(a.parallelism !== undefined ? { parallelism: a.parallelism } : {}),
    },
    (p) => {
      if (p.completed > done) bar?.advance(`${p.completed}/${p.total} trials (remote)`, p.completed - done);
      done = p.completed;
    },
  );
  bar?.stop(`${res.trials.length} trials (remote)`);
  // the worker answers lean trials only: the winner's full results (on every data set) are run here,
  // as a local study does
  const study = prepareStudy(req);
  const warnings = res.warning ? [res.warning] : [];
  const fullRun = studyFullRunner(engine, { script: req.script, symbol: "CHART", options: { mode: "auto" } });
  const full = await winnerFullResults(study, res.best_params, fullRun, warnings);
  return report(a, { ...res, ...full, warning: warnings.length ? warnings.join("; ") : null });
}

/**
 * A checked study on the CLI's engine: one trial runner per data set and place (each packs its own
 * bars once: ordinary columns here, shared ones for the threads), each run placed by a ThreadGate
 * (optimize-threads.ts: here, and on threads once they pay), and the
 * winner re-run in full over each data set's whole bars (best_result, best_results).
 */
export function localStudy(
  engine: StudyEngine,
  study: PreparedStudy,
  source: string,
  options: {
    onProgress?: StudyOptions["onProgress"];
    /** Work ahead from which threads are let in (optimize-threads.ts GROW_AFTER_MS; tests lower it). */
    growAfterMs?: number;
  } = {},
): Promise<OptimizeResult> {
  const gate = new ThreadGate(engine.threads, studyRuns(study), {
    ...(options.growAfterMs !== undefined ? { growAfterMs: options.growAfterMs } : {}),
    startThreads: () => engine.startThreads(),
  });
  const job = { script: source, symbol: "CHART", options: { mode: "auto" as const } };
  const on = (place: Place): Engine => (place === "here" ? engine : engine.onThreads);
  /** `work` through the gate, counted where it ran. */
  const placed = <T>(work: (place: Place) => Promise<T>): Promise<T> =>
    gate.run((place) => {
      engine.runs[place]++;
      return work(place);
    });
  const fullRuns = { here: studyFullRunner(engine, job), thread: null as FullRunner | null };
  return runStudy(
    study,
    study.sets.map((set): TrialRunner => {
      const trial = (place: Place) =>
        studyTrialRunner(on(place), { ...study, bars: set.bars }, { ...job, broker: TRIAL_BROKER });
      const runners: Record<Place, TrialRunner | null> = { here: null, thread: null };
      return (inputs, bars, range) => placed((place) => (runners[place] ??= trial(place))(inputs, bars, range));
    }),
    {
      // the gate holds runs back; the study proposes further ahead (its result does not depend on it)
      // so that runs finishing here need not wait for an earlier one on a thread to be read
      concurrency: gate.maxInFlight + 8,
      fullRun: (inputs, bars, set) =>
        placed((place) => (fullRuns[place] ??= studyFullRunner(on(place), job))(inputs, bars, set)),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    },
  );
}

/**
 * The engine runs a study makes: each trial's in-sample run and, scored every trial, its out-of-sample
 * runs, on every data set; then the winner's full run on each, and its out-of-sample runs where the
 * trials were scored in sample only. (The service's run estimate, n_trials x folds, counts a holdout
 * trial's two runs as one: the gate saw half the work ahead.)
 */
export function studyRuns(study: PreparedStudy): number {
  let perTrial = 0;
  let after = 0;
  for (const set of study.sets) {
    const tests = set.plan.tests.length;
    perTrial += 1 + (study.oosEveryTrial ? tests : 0);
    after += 1 + (study.oosEveryTrial ? 0 : tests);
  }
  return study.nTrials * perTrial + after;
}

export async function execute(script: string, a: Args): Promise<number> {
  const engine = studyEngine(a.workers);
  try {
    const source = readText(script, "script");
    const sets = loadBars(a);
    if (typeof sets === "string") {
      console.error(`resin optimize: ${sets}`);
      return 1;
    }
    const bars = sets[0]!;
    let space = a.space;
    if (space === undefined) {
      const probe = await engine.run({ script: source, data: bars, symbol: "CHART", options: { mode: "interpret" } });
      if (probe.error && !probe.timed_out) {
        console.error(`resin optimize: ${script}: ${probe.error_kind ?? "error"} error: ${probe.error}`);
        return 1;
      }
      const params = spaceFromInputs(probe.inputs ?? []);
      if (params.length === 0)
        throw new UsageError("the strategy has no int/float inputs with minval and maxval; pass --space");
      space = { params };
    }
    const several = sets.length > 1;
    const req: OptimizeRequest = {
      script: source,
      // several --data files: a study over several data sets (their symbol is the chart's, CHART)
      ...(several ? { data: null, datasets: sets.map((data) => ({ data })) } : { data: bars }),
      ...(a.aggregate !== undefined ? { aggregate: a.aggregate } : {}),
      space,
      // walk-forward windows derive from the shortest set, so they fit every set
      validation: validationOf(a, Math.min(...sets.map((x) => x.length))),
      ...(a.trials !== undefined ? { n_trials: a.trials } : {}),
      ...(a.sampler !== undefined ? { sampler: a.sampler } : {}),
      ...(a.objective !== undefined ? { objective: a.objective } : {}),
      ...(a.minTrades !== undefined ? { min_trades: a.minTrades } : {}),
      ...(a.seed !== undefined ? { seed: a.seed } : {}),
      ...(a.parallelism !== undefined ? { parallelism: a.parallelism } : {}),
    };
    if (a.remote) return await remote(a, req, engine);
    const study = prepareStudy(req);
    const bar = a.json ? null : await progressOnTerminal(study.nTrials);
    let best = "-";
    const res = await localStudy(engine, study, source, {
      onProgress: (p) => {
        if (p.best_index !== null) {
          const t = p.best_index === p.trial.index ? p.trial : undefined;
          if (t) best = fmt(t.oos_score ?? t.is_score);
        }
        bar?.advance(`${p.completed}/${p.total} trials, best ${best}`);
      },
    });
    bar?.stop(`${res.trials.length} trials, best ${best}`);
    return report(a, res);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`resin optimize: ${e.message}`);
      return 2;
    }
    if (e instanceof OptimizeError || e instanceof RemoteStudyError) {
      console.error(`resin optimize: [${e.code}] ${e.message}`);
      return USAGE_CODES.has(e.code) ? 2 : 1;
    }
    throw e;
  } finally {
    await engine.close?.();
  }
}
