// The study loop, host-neutral: proposals in index order, trials handed in batches to an evaluator
// (in-process runs, or the edge's parallel sub-invocations), outcomes read back in index order,
// ranked. The result depends on the seed and the study's `parallelism` only: not on the batch size,
// on how many batches run at once, nor on where they run.
//
// Why that holds: every sampler draws from one Rng in proposal order, and proposals are made in index
// order; the proposal for trial k reads the outcomes of the trials before its generation,
// visibleTrials(k, parallelism) = k - k mod parallelism of them, and waits until exactly those are
// scored. With parallelism 1 that is every earlier trial (the sequential study). A sampler whose
// proposal ignores the history (random, grid, TPE's start-up draws) is proposed as soon as a slot is
// free whatever the parallelism, so random and grid studies are the same for every parallelism.

import { createRng } from "./prng.js";
import { createSampler, type Observation } from "./samplers.js";
import type { Params } from "./space.js";
import { OptimizeAbortedError } from "./errors.js";
import type {
  DataSetRef,
  FullRunner,
  OptimizeProgress,
  OptimizeResult,
  PreparedStudy,
  SetBestResult,
} from "./study-types.js";
import { setLabel, type ScoredTrial } from "./trial-eval.js";

/** A trial the sampler proposed, not yet evaluated. */
export interface ProposedTrial {
  index: number;
  params: Params;
}

/** Where trials are evaluated: a batch's outcomes come back in the batch's order. */
export interface TrialEvaluator {
  evaluate(batch: readonly ProposedTrial[]): Promise<ScoredTrial[]>;
  /** The out-of-sample score of the in-sample winner (studies with oos_every_trial false). */
  winnerOos(winner: ScoredTrial): Promise<ScoredTrial>;
}

export interface DriveOptions {
  signal?: AbortSignal;
  onProgress?: (p: OptimizeProgress) => void;
  /** Trials a batch holds at most (1: each trial on its own). */
  batchSize?: number;
  /** Batches in flight at once. */
  concurrency?: number;
  /**
   * Trials already scored by an earlier pass of this study (a coordinator resuming after a restart):
   * their proposals are replayed (the Rng advances the same) and must match; they are not re-run.
   */
  prior?: readonly ScoredTrial[];
  /** Re-runs the winner in full for the result's `best_result` (see OptimizeResult). */
  fullRun?: FullRunner;
}

/** How many of the trials before `index` its proposal reads: those of the earlier generations. */
export function visibleTrials(index: number, parallelism: number): number {
  const p = Math.max(1, Math.floor(parallelism));
  return index - (index % p);
}

function compareTrials(a: ScoredTrial, b: ScoredTrial, byOos: boolean): number {
  if (byOos && a.oos !== b.oos) return b.oos > a.oos ? 1 : -1;
  if (a.is !== b.is) return b.is > a.is ? 1 : -1;
  return a.record.index - b.record.index;
}

export function pickBest(scored: readonly ScoredTrial[], byOos: boolean): ScoredTrial | null {
  let best: ScoredTrial | null = null;
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

function sameParams(a: Params, b: Params): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}

/** Runs a prepared study through an evaluator. */
export async function driveStudy(
  study: PreparedStudy,
  evaluator: TrialEvaluator,
  options: DriveOptions = {},
): Promise<OptimizeResult> {
  const started = Date.now();
  const rng = createRng(study.seed);
  const sampler = createSampler(study.sampler, study.space, rng, study.nTrials);
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 1));
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  const prior = options.prior ?? [];
  const history: Observation[] = [];
  const scored: ScoredTrial[] = [];
  const withOos = study.plan.tests.length > 0;
  const oosNow = withOos && study.oosEveryTrial;
  let engineRuns = 0;

  // Batches in flight, in index order; each settles into `scored` in order, so `scored` is always the
  // prefix 0..scored.length-1 of the study.
  const inFlight: Promise<ScoredTrial[]>[] = [];
  let pending: ProposedTrial[] = [];
  const record = (s: ScoredTrial): void => {
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
  const settle = async (): Promise<void> => {
    for (const s of await inFlight.shift()!) record(s);
  };
  const dispatch = async (): Promise<void> => {
    if (pending.length === 0) return;
    while (inFlight.length >= concurrency) await settle();
    throwIfAborted(options.signal);
    const batch = pending;
    pending = [];
    const run = evaluator.evaluate(batch);
    // a rejection is read when the batch settles, in order; until then it must not surface as unhandled
    run.catch(() => undefined);
    inFlight.push(run);
  };
  const observed = (upTo: number): Observation[] => {
    while (history.length < upTo) {
      const s = scored[history.length]!;
      history.push({ params: s.record.params, score: s.is });
    }
    return history.slice(0, upTo);
  };

  try {
    for (let index = 0; index < study.nTrials; index++) {
      throwIfAborted(options.signal);
      const free = sampler.ignoresHistory?.(index) ?? false;
      const need = visibleTrials(index, study.parallelism);
      if (!free && scored.length < need) {
        // the trials this proposal reads may still sit in the unsent batch
        await dispatch();
        while (scored.length < need) await settle();
      }
      const params = sampler.propose(observed(free ? Math.min(need, scored.length) : need));
      if (index < prior.length) {
        const p = prior[index]!;
        if (p.record.index !== index || !sameParams(p.record.params, params))
          throw new Error(`resumed study diverges at trial ${index}: the stored trials are not this study's`);
        if (pending.length) await dispatch();
        while (inFlight.length) await settle();
        record(p);
        continue;
      }
      pending.push({ index, params });
      if (pending.length >= batchSize) await dispatch();
    }
    await dispatch();
    while (inFlight.length) await settle();
  } catch (err) {
    // nothing may outlive the study: wait for (and drop) what is still in flight
    await Promise.allSettled(inFlight);
    throw err;
  }
  throwIfAborted(options.signal);

  let best = pickBest(scored, oosNow);
  if (best && withOos && !oosNow) {
    // OOS only for the in-sample winner: score it now.
    const before = best.record.engine_runs;
    const updated = await evaluator.winnerOos(best);
    scored[updated.record.index] = updated;
    engineRuns += updated.record.engine_runs - before;
    best = updated.record.error ? null : updated;
  }

  const warnings = [...study.warnings];
  const full = options.fullRun
    ? await winnerFullResults(study, best ? best.record.params : null, options.fullRun, warnings)
    : undefined;

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
    warning: warnings.length ? warnings.join("; ") : null,
    parallelism: study.parallelism,
    ...full,
  };
}

/**
 * The winner run once more, in full (no event log), over the whole bars of every data set of the
 * study: the answer's `best_result` (the first set's run) and, for a study of several sets,
 * `best_results` (one per set, in the study's order). A run that throws is null there (said in
 * `warnings`); without a winner both are null. Shared by the in-process driver and the CLI's --remote
 * path, whose worker answers lean trials only.
 */
export async function winnerFullResults(
  study: Pick<PreparedStudy, "fixedInputs" | "sets">,
  bestParams: Params | null,
  fullRun: FullRunner,
  warnings: string[],
): Promise<Pick<OptimizeResult, "best_result" | "best_results">> {
  const several = study.sets.length > 1;
  if (!bestParams) return several ? { best_result: null, best_results: null } : { best_result: null };
  const inputs = { ...study.fixedInputs, ...bestParams };
  const sets = study.sets;
  // (the sets' runs start together: a pool runs them side by side; their warnings keep the sets' order)
  const runs = await Promise.all(
    sets.map(async (set, index): Promise<SetBestResult & { error?: string }> => {
      const ref: DataSetRef = { index, symbol: set.symbol, timeframe: set.timeframe };
      try {
        const { events: _events, ...result } = await fullRun(inputs, set.bars, ref);
        return { symbol: set.symbol, timeframe: set.timeframe, result };
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return {
          symbol: set.symbol,
          timeframe: set.timeframe,
          result: null,
          error: several ? `${setLabel(set, index)}: ${why}` : why,
        };
      }
    }),
  );
  for (const r of runs) if (r.error !== undefined) warnings.push(`the winner's full run failed: ${r.error}`);
  const best_result = runs[0]!.result;
  if (!several) return { best_result };
  return { best_result, best_results: runs.map(({ error: _e, ...r }) => r) };
}
