// One trial of a study: its validation slices run through a TrialRunner, read in order, scored into
// a TrialRecord. The in-process study (study.ts) and the edge's trial batches (src/edge/trial-batch.ts)
// both evaluate trials here, so a trial scores the same wherever it runs.

import type { Trade } from "../core/result.js";
import type { Params } from "./space.js";
import { computeStats, DEFAULT_INITIAL_CAPITAL, finiteOrNull, score, statsToJson, type TrialStats } from "./stats.js";
import type { PreparedStudy, TrialOutcome, TrialRecord, TrialRunner } from "./study-types.js";
import type { Slice } from "./validation.js";

/** A trial's record with the raw scores the ranking reads (-Infinity for none or an error). */
export interface ScoredTrial {
  record: TrialRecord;
  is: number;
  oos: number;
}

export interface SliceOutcome {
  stats: TrialStats | null;
  error: string | null;
  runs: number;
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
export async function runSlices(
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

/**
 * Runs and scores trial `index` with these params. With `speculate` (room for more than one run at a
 * time) its in-sample and out-of-sample runs start together; the out-of-sample outcome is used only
 * when the in-sample run succeeded, as sequentially.
 */
export async function evaluateTrial(
  study: PreparedStudy,
  runner: TrialRunner,
  index: number,
  params: Params,
  speculate = false,
): Promise<ScoredTrial> {
  const t0 = Date.now();
  const oosNow = study.plan.tests.length > 0 && study.oosEveryTrial;
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
}

/**
 * The out-of-sample runs of the in-sample winner (a study with oos_every_trial false scores only it):
 * its record updated in place, with the raw oos score.
 */
export async function scoreWinnerOos(
  study: PreparedStudy,
  runner: TrialRunner,
  winner: ScoredTrial,
): Promise<ScoredTrial> {
  const inputs = { ...study.fixedInputs, ...winner.record.params };
  const oos = await runSlices(study, runner, inputs, study.plan.tests);
  const record = { ...winner.record };
  record.engine_runs += oos.runs;
  record.oos_stats = statsToJson(oos.stats);
  const oosScore = oos.stats ? score(study.objective, oos.stats, study.minTrades) : -Infinity;
  record.oos_score = finiteOrNull(oosScore);
  if (oos.error) record.error = oos.error;
  return { record, is: winner.is, oos: oosScore };
}

/** A raw score as JSON carries it: finite numbers as they are, the rest by name (JSON has no Infinity). */
export type WireScore = number | "Infinity" | "-Infinity" | "NaN";

export function scoreToWire(x: number): WireScore {
  if (Number.isFinite(x)) return x;
  return Number.isNaN(x) ? "NaN" : x > 0 ? "Infinity" : "-Infinity";
}

export function scoreFromWire(x: unknown): number {
  if (typeof x === "number") return x;
  if (x === "Infinity") return Infinity;
  if (x === "NaN") return NaN;
  return -Infinity;
}
