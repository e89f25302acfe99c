// A study: the checks of an optimize request (in the order of service.md 2.3), then the trial loop.
// The engine is injected as a TrialRunner so the same loop runs in Node (worker threads), in the
// browser (a Web Worker pool) and on the edge. Nothing here imports node:* modules.

import { declarationKind, toBarArray } from "./bars.js";
import { driveStudy, type TrialEvaluator } from "./driver.js";
import { OptimizeError } from "./errors.js";
import { resolveSampler, SAMPLERS, type SamplerChoice } from "./samplers.js";
import { gridSize, parseSpace } from "./space.js";
import { OBJECTIVES, type ObjectiveName } from "./stats.js";
import type { OptimizeRequest, OptimizeResult, PreparedStudy, StudyOptions, TrialRunner } from "./study-types.js";
import { evaluateTrial, scoreWinnerOos } from "./trial-eval.js";
import { IN_SAMPLE_WARNING, parseValidation, planValidation } from "./validation.js";

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

/** Applies every check of service.md 2.3 after the schema, in order; throws OptimizeError. */
export function prepareStudy(req: OptimizeRequest, caps: StudyCaps = SINGLE_HOST_CAPS): PreparedStudy {
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
  const estimated = nTrials * plan.folds;
  if (estimated > caps.engineRuns) {
    throw new OptimizeError(
      "TOO_MANY_RUNS",
      `estimated engine runs ${estimated} (n_trials ${nTrials} x folds ${plan.folds}) exceed ${caps.engineRuns}`,
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
    warnings,
  };
}

/** Runs a prepared study in process: trials in proposal order, scored, ranked. */
export async function runStudy(
  study: PreparedStudy,
  runner: TrialRunner,
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
    batchSize: 1,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
}

/** Checks and runs an optimize request. */
export async function optimize(
  req: OptimizeRequest,
  runner: TrialRunner,
  options: StudyOptions = {},
): Promise<OptimizeResult> {
  return runStudy(prepareStudy(req), runner, options);
}
