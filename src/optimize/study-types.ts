// The optimize module's shared types: the request, a trial's outcome and record, the result, and a
// checked study. Their own module so the trial evaluator, the study driver and the study's checks
// (study.ts) stand on them instead of on each other.

import type { Bar, LibrarySource, RunResult, Trade } from "../core/result.js";
import type { SamplerName } from "./sampler.js";
import type { ParamSpec, Params } from "./space.js";
import type { ObjectiveName, TrialStatsJson } from "./stats.js";
import type { Plan, ValidationSpec } from "./validation.js";

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
  /**
   * Generation size (default 1): a proposal that reads earlier outcomes (TPE past its start-up) sees
   * the trials of the generations before its own, never those of its own generation, so the study's
   * result depends on the seed and this number only, not on how many trials run at once or where.
   */
  parallelism?: number | null;
  /**
   * Several data sets (symbols, timeframes) instead of `data`: every trial runs on each, and its score
   * is their scores' `aggregate` ("mean", the default, or "min", the worst set's).
   */
  datasets?: DataSetRequest[] | null;
  aggregate?: string | null;
}

export interface DataSetRequest {
  data: unknown;
  symbol?: string | null;
  timeframe?: string | null;
}

export type Aggregate = "mean" | "min";
export const AGGREGATES: readonly Aggregate[] = ["mean", "min"];
export const DATASETS_MAX = 16;

/** One data set of a study: its bars and validation slices, and what to run them as. */
export interface DataSet {
  bars: Bar[];
  plan: Plan;
  symbol: string | null;
  timeframe: string | null;
}

/** A trial's scores on one data set of a several-set study. */
export interface SetScore {
  symbol: string | null;
  timeframe: string | null;
  is_score: number | null;
  oos_score: number | null;
  is_stats: TrialStatsJson | null;
  oos_stats: TrialStatsJson | null;
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
 * already (a worker's shared columns) can run the range without the rows. The study passes the same
 * array for a range on every trial: a runner only reads it.
 */
export type TrialRunner = (
  inputs: Record<string, unknown>,
  bars: Bar[],
  range?: readonly [number, number],
) => Promise<TrialOutcome>;

/** The winner's full run as an optimize answer carries it: the run's result without the event array. */
export type BestResult = Omit<RunResult, "events">;

/** Which data set of a study a full run is for (its position in the study's order, and its labels). */
export interface DataSetRef {
  index: number;
  symbol: string | null;
  timeframe: string | null;
}

/**
 * Runs the strategy once in full, as /run does (every result field, the host's usual broker settings):
 * the study's winner over the whole bars of one of its data sets (`set`: which one, so a host that runs
 * each set as its own symbol and timeframe can), with its inputs (fixed_inputs and the best params).
 * Its events, if any, are dropped.
 */
export type FullRunner = (
  inputs: Record<string, unknown>,
  bars: Bar[],
  set: DataSetRef,
) => Promise<BestResult & { events?: RunResult["events"] }>;

/** The winner's full run on one data set of a study of several (OptimizeResult.best_results). */
export interface SetBestResult {
  symbol: string | null;
  timeframe: string | null;
  /** The run over this set's whole bars; null when it failed to run (the warning says why). */
  result: BestResult | null;
}

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
  /** Per data set, in a study of several (the top-level scores are their aggregate; stats are per set only). */
  sets?: SetScore[];
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
  /** The generation size the proposals were drawn with (1: each trial sees every earlier one). */
  parallelism: number;
  /**
   * The winner re-run in full (trials are lean: they keep only what scoring reads) over the whole bars
   * of the study's data set (in a study of several, the first one: best_results[0].result), with
   * `inputs` = fixed_inputs + best_params: what /run with those inputs answers, without `events`. Null
   * without a winner or when that run failed to run (the warning says why); absent when the host gave
   * no full runner.
   */
  best_result?: BestResult | null;
  /**
   * A study of several data sets only: the winner's full run on every set it was scored on, in the
   * study's order (as trials[].sets). Null without a winner; absent for a study of one data set and
   * when the host gave no full runner.
   */
  best_results?: SetBestResult[] | null;
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
  /**
   * Trials handed out together, `concurrency` such batches at once (default 1): for a runner that
   * sends the runs it is given together in one message (server/trial-batches.ts). The result is the
   * same for any value (driver.ts).
   */
  batchSize?: number;
  /** Re-runs the winner in full for `best_result` (see OptimizeResult). */
  fullRun?: FullRunner;
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
  /** Generation size (OptimizeRequest.parallelism), at least 1. */
  parallelism: number;
  /** The data sets: one (bars and plan above) unless the request gave `datasets`. */
  sets: DataSet[];
  aggregate: Aggregate;
  warnings: string[];
}
