// A study: the checks of an optimize request (in the order of service.md 2.3), then the trial loop.
// The engine is injected as a TrialRunner so the same loop runs in Node (worker threads), in the
// browser (a Web Worker pool) and on the edge. Nothing here imports node:* modules.

import { declarationKind, toBarArray } from "./bars.js";
import { driveStudy, type TrialEvaluator } from "./driver.js";
import { OptimizeError } from "./errors.js";
import { resolveSampler, SAMPLERS, type SamplerChoice } from "./samplers.js";
import { gridSize, parseSpace } from "./space.js";
import { OBJECTIVES, type ObjectiveName } from "./stats.js";
import {
  AGGREGATES,
  DATASETS_MAX,
  type Aggregate,
  type DataSet,
  type DataSetRequest,
  type OptimizeRequest,
  type OptimizeResult,
  type PreparedStudy,
  type StudyOptions,
} from "./study-types.js";
import { evaluateTrial, scoreWinnerOos, type TrialRunners } from "./trial-eval.js";
import { IN_SAMPLE_WARNING, parseValidation, planValidation, type Plan } from "./validation.js";

export type {
  OptimizeProgress,
  OptimizeRequest,
  OptimizeResult,
  PreparedStudy,
  StudyOptions,
  TrialOutcome,
  TrialRecord,
  TrialRunner,
} from "./study-types.js";
export { initialCapitalOf } from "./trial-eval.js";

export const N_TRIALS_DEFAULT = 30;
export const N_TRIALS_CAP = 200;
export const ENGINE_RUNS_CAP = 400;
export const GRID_CELLS_CAP = 200;
export const MIN_TRADES_DEFAULT = 5;

/**
 * The sizes a host lets a study reach: the single-host defaults of service.md 7, or a fanned-out
 * host's own (src/edge/fanout-limits.ts), which spreads the engine runs over many invocations.
 */
export interface StudyCaps {
  nTrials: number;
  engineRuns: number;
}

export const SINGLE_HOST_CAPS: StudyCaps = { nTrials: N_TRIALS_CAP, engineRuns: ENGINE_RUNS_CAP };

/** The request's data sets: `datasets`, else `data` as the one set. */
function dataSetsOf(req: OptimizeRequest): DataSetRequest[] {
  if (req.datasets === undefined || req.datasets === null) return [{ data: req.data }];
  const list = req.datasets as unknown;
  if (!Array.isArray(list) || list.length === 0 || list.length > DATASETS_MAX)
    throw new OptimizeError("INVALID_DATASETS", `datasets must be an array of 1 to ${DATASETS_MAX} data sets`);
  if (req.data !== undefined && req.data !== null)
    throw new OptimizeError("INVALID_DATASETS", "give data or datasets, not both");
  return list.map((d, i) => {
    const x = d as Record<string, unknown> | null;
    const str = (v: unknown) => v === undefined || v === null || typeof v === "string";
    if (x === null || typeof x !== "object" || Array.isArray(x) || !str(x.symbol) || !str(x.timeframe))
      throw new OptimizeError("INVALID_DATASETS", `datasets[${i}] must be {data, symbol?, timeframe?}`, { dataset: i });
    return x as unknown as DataSetRequest;
  });
}

/** Applies every check of service.md 2.3 after the schema, in order; throws OptimizeError. */
export function prepareStudy(req: OptimizeRequest, caps: StudyCaps = SINGLE_HOST_CAPS): PreparedStudy {
  if (typeof req.script !== "string" || req.script.trim() === "")
    throw new OptimizeError("NO_SCRIPT", "script is empty");
  const raw = dataSetsOf(req);
  const barsOf = raw.map((d, i) => {
    const bars = toBarArray(d.data);
    if (bars.length === 0)
      throw new OptimizeError("NO_DATA", raw.length > 1 ? `datasets[${i}] has no bars` : "data has no bars", {
        ...(raw.length > 1 ? { dataset: i } : {}),
      });
    return bars;
  });
  const bars = barsOf[0]!;
  const decl = declarationKind(req.script);
  if (decl !== "strategy") {
    throw new OptimizeError(
      "NOT_A_STRATEGY",
      `optimize needs a strategy() script (found ${decl ? `${decl}()` : "no declaration"})`,
    );
  }
  const space = parseSpace(req.space);
  const spec = parseValidation(req.validation);
  const sets: DataSet[] = raw.map((d, i) => {
    let setPlan: Plan;
    try {
      setPlan = planValidation(spec, barsOf[i]!.length);
    } catch (e) {
      if (e instanceof OptimizeError && raw.length > 1)
        throw new OptimizeError(e.code, `datasets[${i}]: ${e.message}`, { ...e.details, dataset: i });
      throw e;
    }
    return { bars: barsOf[i]!, plan: setPlan, symbol: d.symbol ?? null, timeframe: d.timeframe ?? null };
  });
  const plan = sets[0]!.plan;
  const aggregate = req.aggregate ?? "mean";
  if (!AGGREGATES.includes(aggregate as Aggregate))
    throw new OptimizeError("INVALID_DATASETS", `aggregate must be one of ${AGGREGATES.join(", ")}`, {
      allowed: AGGREGATES,
    });
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
  if (nTrials > caps.nTrials) {
    warnings.push(`n_trials capped at ${caps.nTrials} (asked ${nTrials})`);
    nTrials = caps.nTrials;
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
  const folds = sets.reduce((n, x) => n + x.plan.folds, 0);
  const estimated = nTrials * folds;
  if (estimated > caps.engineRuns) {
    throw new OptimizeError(
      "TOO_MANY_RUNS",
      `estimated engine runs ${estimated} (n_trials ${nTrials} x folds ${folds}${sets.length > 1 ? ` over ${sets.length} data sets` : ""}) exceed ${caps.engineRuns}`,
      {
        estimated_runs: estimated,
        max_runs: caps.engineRuns,
      },
    );
  }
  const parallelism = req.parallelism ?? 1;
  if (!Number.isInteger(parallelism) || parallelism < 1) {
    throw new OptimizeError("INVALID_PARALLELISM", "parallelism must be an integer >= 1", { parallelism });
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
    parallelism,
    sets,
    aggregate: aggregate as Aggregate,
    warnings,
  };
}

/**
 * Runs a prepared study in process: trials in proposal order, scored, ranked. A study of several data
 * sets takes one runner per set (in the study's order) or one runner for all.
 */
export async function runStudy(
  study: PreparedStudy,
  runner: TrialRunners,
  options: StudyOptions = {},
): Promise<OptimizeResult> {
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  // With room for more than one run at a time, a trial's slices start together (speculate).
  const speculate = concurrency > 1;
  const evaluator: TrialEvaluator = {
    evaluate: (batch) => Promise.all(batch.map((t) => evaluateTrial(study, runner, t.index, t.params, speculate))),
    winnerOos: (winner) => scoreWinnerOos(study, runner, winner),
  };
  return driveStudy(study, evaluator, {
    concurrency,
    batchSize: options.batchSize ?? 1,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.fullRun ? { fullRun: options.fullRun } : {}),
  });
}

/** Checks and runs an optimize request. */
export async function optimize(
  req: OptimizeRequest,
  runner: TrialRunners,
  options: StudyOptions = {},
): Promise<OptimizeResult> {
  return runStudy(prepareStudy(req), runner, options);
}
