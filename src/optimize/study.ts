// A study: the checks of an optimize request (in the order of service.md 2.3), then the trial loop.
// The engine is injected as a TrialRunner so the same loop runs in Node (worker threads), in the
// browser (a Web Worker pool) and on the edge. Nothing here imports node:* modules.

import type { Bar, LibrarySource, Trade } from "../core/result.js";
import { declarationKind, toBarArray } from "./bars.js";
import { OptimizeAbortedError, OptimizeError } from "./errors.js";
import { createRng } from "./prng.js";
import {
  createSampler,
  resolveSampler,
  SAMPLERS,
  type Observation,
  type SamplerChoice,
  type SamplerName,
} from "./samplers.js";
import { gridSize, parseSpace, type ParamSpec, type Params } from "./space.js";
import {
  computeStats,
  DEFAULT_INITIAL_CAPITAL,
  finiteOrNull,
  OBJECTIVES,
  score,
  statsToJson,
  type ObjectiveName,
  type TrialStats,
  type TrialStatsJson,
} from "./stats.js";
import {
  IN_SAMPLE_WARNING,
  parseValidation,
  planValidation,
  type Plan,
  type Slice,
  type ValidationSpec,
} from "./validation.js";

export const N_TRIALS_DEFAULT = 30;
export const N_TRIALS_CAP = 200;
export const ENGINE_RUNS_CAP = 400;
export const GRID_CELLS_CAP = 200;
export const MIN_TRADES_DEFAULT = 5;

/** The /optimize body (service.md 2.3); optional fields take their documented defaults. */
export interface OptimizeRequest {
  script: string;
  data: unknown;
  space: unknown;
  n_trials?: number | null;
  sampler?: string | null;
  objective?: string | null;
  validation?: unknown;
  min_trades?: number | null;
  seed?: number | null;
  symbol?: string | null;
  oos_every_trial?: boolean | null;
  fixed_inputs?: Record<string, unknown> | null;
  libraries?: LibrarySource[] | null;
}

/**
 * What the study reads from one run: a RunResult has this shape, and so does the compact reply a
 * browser worker sends back for a trial (only the closed trades' profit and exit bar travel).
 */
export interface TrialOutcome {
  error?: string | null;
  error_kind?: string;
  timed_out?: boolean;
  meta?: Record<string, unknown>;
  strategy?: {
    trades: readonly Pick<Trade, "profit" | "exit_bar_index">[];
    stats?: object;
  };
}

/**
 * Runs the strategy once with these input overrides over these bars: `bars` is the study's bars
 * [range[0], range[1]) (the study always passes the range), so a host that holds the study's bars
 * already (a worker's shared columns) can run the range without the rows.
 */
export type TrialRunner = (
  inputs: Record<string, unknown>,
  bars: Bar[],
  range?: readonly [number, number],
) => Promise<TrialOutcome>;

export interface TrialRecord {
  index: number;
  params: Params;
  is_score: number | null;
  oos_score: number | null;
  is_stats: TrialStatsJson | null;
  oos_stats: TrialStatsJson | null;
  error: string | null;
  engine_runs: number;
  ms: number;
}

export interface OptimizeResult {
  sampler: SamplerName;
  objective: ObjectiveName;
  validation: ValidationSpec;
  n_trials: number;
  trials: TrialRecord[];
  best_index: number | null;
  best_params: Params | null;
  best_is_score: number | null;
  best_oos_score: number | null;
  engine_runs: number;
  ms: number;
  warning: string | null;
}

export interface OptimizeProgress {
  completed: number;
  total: number;
  trial: TrialRecord;
  best_index: number | null;
}

export interface StudyOptions {
  signal?: AbortSignal;
  onProgress?: (p: OptimizeProgress) => void;
  /**
   * Trials run at once (a worker pool's size, or more to keep its queues fed). The result is the
   * sequential one for any value: only proposals that ignore earlier outcomes are made ahead.
   */
  concurrency?: number;
}

/** A checked request, ready to run. */
export interface PreparedStudy {
  script: string;
  bars: Bar[];
  space: ParamSpec[];
  nTrials: number;
  sampler: SamplerName;
  objective: ObjectiveName;
  plan: Plan;
  minTrades: number;
  seed: number | null;
  oosEveryTrial: boolean;
  fixedInputs: Record<string, unknown>;
  warnings: string[];
}

/** Applies every check of service.md 2.3 after the schema, in order; throws OptimizeError. */
export function prepareStudy(req: OptimizeRequest): PreparedStudy {
  if (typeof req.script !== "string" || req.script.trim() === "")
    throw new OptimizeError("NO_SCRIPT", "script is empty");
  const bars = toBarArray(req.data);
  if (bars.length === 0) throw new OptimizeError("NO_DATA", "data has no bars");
  const decl = declarationKind(req.script);
  if (decl !== "strategy") {
    throw new OptimizeError(
      "NOT_A_STRATEGY",
      `optimize needs a strategy() script (found ${decl ? `${decl}()` : "no declaration"})`,
    );
  }
  const space = parseSpace(req.space);
  const spec = parseValidation(req.validation);
  const plan = planValidation(spec, bars.length);
  const objective = req.objective ?? "composite";
  if (!OBJECTIVES.includes(objective as ObjectiveName)) {
    throw new OptimizeError("INVALID_OBJECTIVE", `objective must be one of ${OBJECTIVES.join(", ")}`, {
      allowed: OBJECTIVES,
    });
  }
  const samplerChoice = req.sampler ?? "auto";
  if (!SAMPLERS.includes(samplerChoice as SamplerChoice)) {
    throw new OptimizeError("INVALID_SAMPLER", `sampler must be one of ${SAMPLERS.join(", ")}`, { allowed: SAMPLERS });
  }
  const warnings: string[] = [];
  let nTrials = req.n_trials ?? N_TRIALS_DEFAULT;
  if (nTrials > N_TRIALS_CAP) {
    warnings.push(`n_trials capped at ${N_TRIALS_CAP} (asked ${nTrials})`);
    nTrials = N_TRIALS_CAP;
  }
  const sampler = resolveSampler(samplerChoice as SamplerChoice, nTrials);
  if (sampler === "grid") {
    const cells = gridSize(space);
    if (cells > GRID_CELLS_CAP) {
      throw new OptimizeError("GRID_TOO_LARGE", `grid has ${cells} cells (max ${GRID_CELLS_CAP})`, {
        cells,
        max_cells: GRID_CELLS_CAP,
      });
    }
  }
  const estimated = nTrials * plan.folds;
  if (estimated > ENGINE_RUNS_CAP) {
    throw new OptimizeError(
      "TOO_MANY_RUNS",
      `estimated engine runs ${estimated} (n_trials ${nTrials} x folds ${plan.folds}) exceed ${ENGINE_RUNS_CAP}`,
      {
        estimated_runs: estimated,
        max_runs: ENGINE_RUNS_CAP,
      },
    );
  }
  if (spec.mode === "in-sample") warnings.push(IN_SAMPLE_WARNING);
  return {
    script: req.script,
    bars,
    space,
    nTrials,
    sampler,
    objective: objective as ObjectiveName,
    plan,
    minTrades: req.min_trades ?? MIN_TRADES_DEFAULT,
    seed: req.seed ?? null,
    oosEveryTrial: req.oos_every_trial ?? true,
    fixedInputs: req.fixed_inputs ?? {},
    warnings,
  };
}

/** The strategy's initial capital as a run reports it (meta, then the stats), else TradingView's default. */
export function initialCapitalOf(result: TrialOutcome): number {
  const meta = result.meta ?? {};
  for (const v of [
    meta.initial_capital,
    (meta.strategy as Record<string, unknown> | undefined)?.initial_capital,
    (result.strategy?.stats as { initial_capital?: unknown } | undefined)?.initial_capital,
  ]) {
    if (typeof v === "number" && Number.isFinite(v) && v > 0) return v;
  }
  return DEFAULT_INITIAL_CAPITAL;
}

/** Closed trades of a slice's run that closed inside its scored window. */
function scoredTrades(result: TrialOutcome, slice: Slice): readonly Pick<Trade, "profit" | "exit_bar_index">[] {
  const from = slice.scoreFrom - slice.start;
  const trades = result.strategy?.trades ?? [];
  return from <= 0 ? trades : trades.filter((t) => t.exit_bar_index !== null && t.exit_bar_index >= from);
}

interface SliceOutcome {
  stats: TrialStats | null;
  error: string | null;
  runs: number;
}

/** A run's outcome, or the message of what it threw. */
type Attempt = { ok: true; result: TrialOutcome } | { ok: false; error: string };

function attempt(
  runner: TrialRunner,
  study: PreparedStudy,
  inputs: Record<string, unknown>,
  slice: Slice,
): Promise<Attempt> {
  return runner(inputs, study.bars.slice(slice.start, slice.end), [slice.start, slice.end]).then(
    (result) => ({ ok: true, result }),
    (err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
}

/**
 * The slices' runs read in order, stopping at the first failure. `speculate` starts every slice's run
 * at once (a pool can run them side by side); runs past a failure are then wasted but not counted, so
 * the outcome, `runs` included, is the sequential one.
 */
async function runSlices(
  study: PreparedStudy,
  runner: TrialRunner,
  inputs: Record<string, unknown>,
  slices: Slice[],
  speculate = false,
): Promise<SliceOutcome> {
  const started = speculate ? slices.map((slice) => attempt(runner, study, inputs, slice)) : [];
  const trades: Pick<Trade, "profit" | "exit_bar_index">[] = [];
  let capital = DEFAULT_INITIAL_CAPITAL;
  let runs = 0;
  for (let i = 0; i < slices.length; i++) {
    const slice = slices[i]!;
    runs++;
    const a = await (speculate ? started[i]! : attempt(runner, study, inputs, slice));
    if (!a.ok) return { stats: null, error: a.error, runs };
    const result = a.result;
    if (result.error) return { stats: null, error: `${result.error_kind ?? "error"}: ${result.error}`, runs };
    if (result.timed_out) return { stats: null, error: "run timed out", runs };
    capital = initialCapitalOf(result);
    trades.push(...scoredTrades(result, slice));
  }
  return { stats: computeStats(trades, capital), error: null, runs };
}

interface Scored {
  record: TrialRecord;
  is: number;
  oos: number;
}

function compareTrials(a: Scored, b: Scored, byOos: boolean): number {
  if (byOos && a.oos !== b.oos) return b.oos > a.oos ? 1 : -1;
  if (a.is !== b.is) return b.is > a.is ? 1 : -1;
  return a.record.index - b.record.index;
}

function pickBest(scored: Scored[], byOos: boolean): Scored | null {
  let best: Scored | null = null;
  for (const s of scored) {
    if (s.record.error) continue;
    if (s.is === -Infinity && s.oos === -Infinity) continue;
    if (!best || compareTrials(s, best, byOos) < 0) best = s;
  }
  return best;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new OptimizeAbortedError();
}

/** Runs a prepared study: trials in proposal order, scored, ranked. */
export async function runStudy(
  study: PreparedStudy,
  runner: TrialRunner,
  options: StudyOptions = {},
): Promise<OptimizeResult> {
  const started = Date.now();
  const rng = createRng(study.seed);
  const sampler = createSampler(study.sampler, study.space, rng, study.nTrials);
  const history: Observation[] = [];
  const scored: Scored[] = [];
  const batch = Math.max(1, Math.floor(options.concurrency ?? 1));
  const withOos = study.plan.tests.length > 0;
  const oosNow = withOos && study.oosEveryTrial;
  let engineRuns = 0;

  // With room for more than one run at a time, a trial's in-sample and out-of-sample runs start
  // together; the out-of-sample outcome is used only when the in-sample run succeeded, as sequentially.
  const speculate = batch > 1;
  const evaluate = async (index: number, params: Params): Promise<Scored> => {
    const t0 = Date.now();
    const inputs = { ...study.fixedInputs, ...params };
    const oosRun = speculate && oosNow ? runSlices(study, runner, inputs, study.plan.tests, true) : null;
    const is = await runSlices(study, runner, inputs, [study.plan.train]);
    let oos: SliceOutcome = { stats: null, error: null, runs: 0 };
    if (!is.error && oosNow) oos = await (oosRun ?? runSlices(study, runner, inputs, study.plan.tests));
    const isScore = is.stats ? score(study.objective, is.stats, study.minTrades) : -Infinity;
    const oosScore = oos.stats ? score(study.objective, oos.stats, study.minTrades) : -Infinity;
    const record: TrialRecord = {
      index,
      params,
      is_score: finiteOrNull(isScore),
      oos_score: finiteOrNull(oosScore),
      is_stats: statsToJson(is.stats),
      oos_stats: statsToJson(oos.stats),
      error: is.error ?? oos.error,
      engine_runs: is.runs + oos.runs,
      ms: Date.now() - t0,
    };
    return { record, is: record.error ? -Infinity : isScore, oos: record.error ? -Infinity : oosScore };
  };

  // Up to `batch` trials in flight, and results identical to a sequential study whatever `batch` is:
  // a proposal the sampler draws without reading earlier outcomes (random, grid, TPE's start-up draws)
  // is made as soon as a slot is free; one that reads them waits until every earlier trial is scored,
  // so it sees exactly trials 0..k-1, as it would one at a time. Proposals are made in index order
  // (the samplers' random draws stay in sequence) and a slow trial holds back one slot, not a batch.
  const inFlight: Promise<Scored>[] = [];
  const observed = (): void => {
    // history grows in index order only
    while (history.length < scored.length) {
      const s = scored[history.length]!;
      history.push({ params: s.record.params, score: s.is });
    }
  };
  const settle = async (): Promise<void> => {
    const s = await inFlight.shift()!;
    scored.push(s);
    engineRuns += s.record.engine_runs;
    const best = pickBest(scored, oosNow);
    options.onProgress?.({
      completed: scored.length,
      total: study.nTrials,
      trial: s.record,
      best_index: best ? best.record.index : null,
    });
  };
  for (let index = 0; index < study.nTrials; index++) {
    throwIfAborted(options.signal);
    if (inFlight.length >= batch) await settle();
    if (!(sampler.ignoresHistory?.(index) ?? false)) while (inFlight.length) await settle();
    observed();
    inFlight.push(evaluate(index, sampler.propose(history)));
  }
  while (inFlight.length) await settle();
  throwIfAborted(options.signal);

  let best = pickBest(scored, oosNow);
  if (best && withOos && !oosNow) {
    // OOS only for the in-sample winner: score it now.
    const inputs = { ...study.fixedInputs, ...best.record.params };
    const oos = await runSlices(study, runner, inputs, study.plan.tests);
    engineRuns += oos.runs;
    best.record.engine_runs += oos.runs;
    best.record.oos_stats = statsToJson(oos.stats);
    best.oos = oos.stats ? score(study.objective, oos.stats, study.minTrades) : -Infinity;
    best.record.oos_score = finiteOrNull(best.oos);
    if (oos.error) best.record.error = oos.error;
    if (best.record.error) best = null;
  }

  return {
    sampler: study.sampler,
    objective: study.objective,
    validation: study.plan.spec,
    n_trials: study.nTrials,
    trials: scored.map((s) => s.record),
    best_index: best ? best.record.index : null,
    best_params: best ? best.record.params : null,
    best_is_score: best ? best.record.is_score : null,
    best_oos_score: best ? best.record.oos_score : null,
    engine_runs: engineRuns,
    ms: Date.now() - started,
    warning: study.warnings.length ? study.warnings.join("; ") : null,
  };
}

/** Checks and runs an optimize request. */
export async function optimize(
  req: OptimizeRequest,
  runner: TrialRunner,
  options: StudyOptions = {},
): Promise<OptimizeResult> {
  return runStudy(prepareStudy(req), runner, options);
}
