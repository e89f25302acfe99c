// One trial of a study: its validation slices run through a TrialRunner, read in order, scored into
// a TrialRecord. The in-process study (study.ts) and the edge's trial batches (src/edge/trial-batch.ts)
// both evaluate trials here, so a trial scores the same wherever it runs.

import type { Bar, Trade } from "../core/result.js";
import type { Params } from "./space.js";
import { computeStats, DEFAULT_INITIAL_CAPITAL, finiteOrNull, score, statsToJson, type TrialStats } from "./stats.js";
import type {
  Aggregate,
  DataSet,
  PreparedStudy,
  SetScore,
  TrialOutcome,
  TrialRecord,
  TrialRunner,
} from "./study-types.js";
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

/**
 * The rows of bars [start, end), one array per range for as long as `bars` lives: a study's slices are
 * the same for every trial and fold, so runners get the same array each time instead of a fresh copy
 * (~160 KB of garbage per run at 20k bars). Runners only read it; the whole range is `bars` itself.
 */
const sliceCache = new WeakMap<readonly Bar[], Map<string, Bar[]>>();

function barsOf(bars: readonly Bar[], start: number, end: number): Bar[] {
  if (start === 0 && end === bars.length) return bars as Bar[];
  let byRange = sliceCache.get(bars);
  if (!byRange) sliceCache.set(bars, (byRange = new Map()));
  const key = `${start}:${end}`;
  let rows = byRange.get(key);
  if (!rows) byRange.set(key, (rows = bars.slice(start, end)));
  return rows;
}

/** A run's outcome, or the message of what it threw. */
type Attempt = { ok: true; result: TrialOutcome } | { ok: false; error: string };

function attempt(
  runner: TrialRunner,
  bars: readonly Bar[],
  inputs: Record<string, unknown>,
  slice: Slice,
): Promise<Attempt> {
  return runner(inputs, barsOf(bars, slice.start, slice.end), [slice.start, slice.end]).then(
    (result) => ({ ok: true, result }),
    (err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
}

/**
 * The slices' runs (over these bars) read in order, stopping at the first failure. `speculate` starts
 * every slice's run at once (a pool can run them side by side); runs past a failure are then wasted
 * but not counted, so the outcome, `runs` included, is the sequential one.
 */
export async function runSlices(
  bars: readonly Bar[],
  runner: TrialRunner,
  inputs: Record<string, unknown>,
  slices: Slice[],
  speculate = false,
): Promise<SliceOutcome> {
  const started = speculate ? slices.map((slice) => attempt(runner, bars, inputs, slice)) : [];
  const trades: Pick<Trade, "profit" | "exit_bar_index">[] = [];
  let capital = DEFAULT_INITIAL_CAPITAL;
  let runs = 0;
  for (let i = 0; i < slices.length; i++) {
    const slice = slices[i]!;
    runs++;
    const a = await (speculate ? started[i]! : attempt(runner, bars, inputs, slice));
    if (!a.ok) return { stats: null, error: a.error, runs };
    const result = a.result;
    if (result.error) return { stats: null, error: `${result.error_kind ?? "error"}: ${result.error}`, runs };
    if (result.timed_out) return { stats: null, error: "run timed out", runs };
    capital = initialCapitalOf(result);
    trades.push(...scoredTrades(result, slice));
  }
  return { stats: computeStats(trades, capital), error: null, runs };
}

/** One runner for every data set, or one per data set (in the study's order). */
export type TrialRunners = TrialRunner | readonly TrialRunner[];

function runnerOf(runners: TrialRunners, k: number): TrialRunner {
  if (typeof runners === "function") return runners;
  const r = runners[k];
  if (!r) throw new Error(`no trial runner for data set ${k}`);
  return r;
}

/** The scores of several data sets as one: their mean, or the worst of them. */
export function aggregateScores(scores: readonly number[], how: Aggregate): number {
  if (how === "min") return Math.min(...scores);
  return scores.reduce((a, b) => a + b, 0) / scores.length;
}

interface SetOutcome {
  is: SliceOutcome;
  oos: SliceOutcome;
}

/** A trial's in-sample run, then (when scored every trial and in-sample succeeded) its out-of-sample runs, on one set. */
async function runSet(
  study: PreparedStudy,
  set: DataSet,
  runner: TrialRunner,
  inputs: Record<string, unknown>,
  speculate: boolean,
): Promise<SetOutcome> {
  const oosNow = set.plan.tests.length > 0 && study.oosEveryTrial;
  const oosRun = speculate && oosNow ? runSlices(set.bars, runner, inputs, set.plan.tests, true) : null;
  const is = await runSlices(set.bars, runner, inputs, [set.plan.train]);
  let oos: SliceOutcome = { stats: null, error: null, runs: 0 };
  if (!is.error && oosNow) oos = await (oosRun ?? runSlices(set.bars, runner, inputs, set.plan.tests));
  return { is, oos };
}

const scoreOf = (study: PreparedStudy, o: SliceOutcome): number =>
  o.stats ? score(study.objective, o.stats, study.minTrades) : -Infinity;

/** How messages name data set `k` of a study: its symbol and timeframe, else its position. */
export const setLabel = (set: Pick<DataSet, "symbol" | "timeframe">, k: number): string =>
  [set.symbol, set.timeframe].filter((x) => x !== null).join(" ") || `data set ${k}`;

/**
 * Runs and scores trial `index` with these params. With `speculate` (room for more than one run at a
 * time) its in-sample and out-of-sample runs start together; the out-of-sample outcome is used only
 * when the in-sample run succeeded, as sequentially. In a study of several data sets the trial runs on
 * each in turn (stopping at the first that fails) and scores their aggregate.
 */
export async function evaluateTrial(
  study: PreparedStudy,
  runners: TrialRunners,
  index: number,
  params: Params,
  speculate = false,
): Promise<ScoredTrial> {
  const t0 = Date.now();
  const inputs = { ...study.fixedInputs, ...params };
  if (study.sets.length <= 1) {
    const { is, oos } = await runSet(study, study.sets[0] ?? study, runnerOf(runners, 0), inputs, speculate);
    const isScore = scoreOf(study, is);
    const oosScore = scoreOf(study, oos);
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
  const sets: SetScore[] = [];
  const isScores: number[] = [];
  const oosScores: number[] = [];
  let error: string | null = null;
  let runs = 0;
  for (let k = 0; k < study.sets.length && error === null; k++) {
    const set = study.sets[k]!;
    const { is, oos } = await runSet(study, set, runnerOf(runners, k), inputs, speculate);
    runs += is.runs + oos.runs;
    const e = is.error ?? oos.error;
    if (e !== null) error = `${setLabel(set, k)}: ${e}`;
    isScores.push(scoreOf(study, is));
    oosScores.push(scoreOf(study, oos));
    sets.push({
      symbol: set.symbol,
      timeframe: set.timeframe,
      is_score: finiteOrNull(isScores[k]!),
      oos_score: finiteOrNull(oosScores[k]!),
      is_stats: statsToJson(is.stats),
      oos_stats: statsToJson(oos.stats),
    });
  }
  const isScore = error === null ? aggregateScores(isScores, study.aggregate) : -Infinity;
  const oosScore = error === null ? aggregateScores(oosScores, study.aggregate) : -Infinity;
  const record: TrialRecord = {
    index,
    params,
    is_score: finiteOrNull(isScore),
    oos_score: finiteOrNull(oosScore),
    is_stats: null,
    oos_stats: null,
    error,
    engine_runs: runs,
    ms: Date.now() - t0,
    sets,
  };
  return { record, is: isScore, oos: oosScore };
}

/**
 * The out-of-sample runs of the in-sample winner (a study with oos_every_trial false scores only it):
 * its record updated (a copy), with the raw oos score.
 */
export async function scoreWinnerOos(
  study: PreparedStudy,
  runners: TrialRunners,
  winner: ScoredTrial,
): Promise<ScoredTrial> {
  const inputs = { ...study.fixedInputs, ...winner.record.params };
  const record = { ...winner.record };
  if (study.sets.length <= 1) {
    const set = study.sets[0] ?? study;
    const oos = await runSlices(set.bars, runnerOf(runners, 0), inputs, set.plan.tests);
    record.engine_runs += oos.runs;
    record.oos_stats = statsToJson(oos.stats);
    const oosScore = scoreOf(study, oos);
    record.oos_score = finiteOrNull(oosScore);
    if (oos.error) record.error = oos.error;
    return { record, is: winner.is, oos: oosScore };
  }
  const sets = (record.sets ?? []).map((x) => ({ ...x }));
  const scores: number[] = [];
  for (let k = 0; k < study.sets.length; k++) {
    const set = study.sets[k]!;
    const oos = await runSlices(set.bars, runnerOf(runners, k), inputs, set.plan.tests);
    record.engine_runs += oos.runs;
    scores.push(scoreOf(study, oos));
    if (sets[k]) {
      sets[k]!.oos_stats = statsToJson(oos.stats);
      sets[k]!.oos_score = finiteOrNull(scores[k]!);
    }
    if (oos.error) {
      record.error = `${setLabel(set, k)}: ${oos.error}`;
      break;
    }
  }
  record.sets = sets;
  const oosScore = record.error ? -Infinity : aggregateScores(scores, study.aggregate);
  record.oos_score = finiteOrNull(oosScore);
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
