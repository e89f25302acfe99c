// The engine behind the HTTP routes: something that evaluates one run job. The app is host-neutral
// and only sees this interface; Node plugs in a worker-thread pool (node/pool.ts), workerd and tests
// use the in-process engine below.

import type { Bar, LibrarySource, OhlcvInput, RunOptions, RunResult, SymInfo } from "../core/result.js";
import type { FullRunner, PreparedStudy, TrialOutcome, TrialRunner } from "../optimize/index.js";
// (bars.js itself, not the index: the worker threads load this module)
import { columnStandIn, sourceColumns } from "../optimize/bars.js";
import { isBarDataError, normalizeBars } from "../core/bars.js";
import {
  BAR_FIELDS,
  shareBars,
  spentTrialReply,
  TRIAL_BROKER,
  toColumnar,
  trialOutcome,
  trialRunOptions,
  type PackedBars,
  type TrialReply,
} from "../worker/protocol.js";
import { newTrialBarsKey, ownTrialBars, studyOwnsBars, trialColumns } from "./trial-bars.js";
import { jsonRun } from "./answer-json.js";
import { markRun, type RunClock } from "./run-clock.js";
import { batchedRuns } from "./trial-batches.js";
import { releaseStrategyStores } from "../strategy/stats.js";

/** One evaluation: the Runtime's constructor arguments plus run(source, ohlcv, options). */
export interface RunJob {
  script: string;
  data: unknown;
  symbol: string;
  timeframe?: string | null;
  syminfo?: SymInfo;
  options: RunOptions & { libraries?: LibrarySource[] };
  /** Broker settings over the script's (RuntimeOptions.broker): optimize trials lift the 9,000-trade limit. */
  broker?: Record<string, unknown>;
}

/** What an optimize trial's run needs from the broker (worker/protocol.ts, shared with the browser pool). */
export { TRIAL_BROKER };

/**
 * An optimize trial: a run over bars [slice[0], slice[1]) of the study's bars, which travel as
 * shared columns (protocol.ts shareBars: no copy per message; each thread copies them into its own
 * memory once per study, trial-bars.ts), answered with only what the study scores (protocol.ts TrialReply).
 */
export interface TrialJob extends Omit<RunJob, "data"> {
  bars: PackedBars;
  /** Names `bars` (one study's set): the thread copies them into its own memory once per key (trial-bars.ts). */
  barsKey: string;
  slice: readonly [number, number];
}

/** One run of a TrialBatch: its inputs and its range of the study's bars. */
export interface BatchRun {
  inputs: Record<string, unknown>;
  slice: readonly [number, number];
}

/**
 * Several optimize trial runs in one message to one thread (trial-batches.ts): the TrialJob's fields
 * but the inputs and the range, which each run brings. `clock` is where the thread marks each run's
 * start (run-clock.ts: the pool's per-run deadline); the pool sets it.
 */
export interface TrialBatch extends Omit<TrialJob, "slice"> {
  runs: BatchRun[];
  clock?: RunClock;
}

/** How a caller controls one job: a signal that cancels it (the client went away). */
export interface RunControl {
  signal?: AbortSignal;
}

/** What a pool reports on /health: its real capacity right now. */
export interface EngineStats {
  kind: string;
  /** Threads the pool runs at most. */
  size: number;
  /** Threads alive now (a terminated one is counted again once its replacement is up). */
  alive: number;
  /** Jobs running now. */
  busy: number;
  /** Jobs waiting for a thread. */
  queued: number;
  /** Threads terminated because their job passed its deadline (and replaced). */
  terminated: number;
  /** Jobs cancelled because their client disconnected. */
  cancelled: number;
}

export interface Engine {
  /**
   * Evaluates a job; resolves with the result (script/data errors are in it). Rejects with
   * RunDeadlineError when a thread had to be terminated, RunCancelledError when `control.signal`
   * aborted it, and otherwise only on bugs.
   */
  run(job: RunJob, control?: RunControl): Promise<RunResult>;
  /**
   * A run answered as the JSON of its result without `events` (evaluateJobJson), text or its UTF-8
   * bytes: the optimize winner's best_result, written where it ran. Rejects as run() does. Engines
   * without it answer through run().
   */
  runJson?(job: RunJob, control?: RunControl): Promise<string | Uint8Array>;
  /** An optimize trial (see TrialJob); rejects as run() does. Engines without it run trials through run(). */
  trial?(job: TrialJob, control?: RunControl): Promise<TrialReply>;
  /**
   * Several trial runs in one message to one thread, answered in order (TrialBatch). A run the pool
   * ends (deadline, heap) rejects the whole batch with an error whose `run` names it (trial-batches.ts).
   */
  trials?(job: TrialBatch, control?: RunControl): Promise<TrialReply[]>;
  /** How many jobs it runs at once (batch and optimize fan out this wide). */
  readonly concurrency: number;
  /**
   * Its jobs cross to other threads: a study's bars go to it as shared columns (no copy per message).
   * An engine on the calling thread gets ordinary columns, which its runs read as they are.
   */
  readonly crossesThreads?: boolean;
  stats?(): EngineStats;
  close?(): Promise<void>;
}

/** A job whose thread ran past its deadline plus the grace period and was terminated (HTTP 504 RUN_DEADLINE_EXCEEDED). */
export class RunDeadlineError extends Error {
  readonly seconds: number;
  constructor(seconds: number) {
    super(
      `the run did not stop within ${seconds} s (its time budget plus a grace period); its worker thread was terminated and replaced`,
    );
    this.name = "RunDeadlineError";
    this.seconds = seconds;
  }
}

/** A job whose worker thread ran out of its heap (the thread is replaced; HTTP 507 MEMORY_LIMIT). */
export class RunMemoryError extends Error {
  readonly limitMb: number | null;
  constructor(limitMb: number | null) {
    super(
      `the run exceeded the memory limit of its worker thread${limitMb ? ` (${limitMb} MB of heap)` : ""}; the thread was replaced`,
    );
    this.name = "RunMemoryError";
    this.limitMb = limitMb;
  }
}

/** A job cancelled by its caller (the client disconnected). */
export class RunCancelledError extends Error {
  constructor() {
    super("the run was cancelled (client disconnected)");
    this.name = "RunCancelledError";
  }
}

/**
 * The hard deadline of a job on a thread that can be terminated: its time budget plus a grace
 * period in which the engine's own countdown should have stopped it with `timed_out`. Null when
 * the job has no budget (the library default: the CLI's own runs).
 */
export function hardDeadlineSeconds(job: Pick<RunJob, "options">): number | null {
  const t = job.options.timeoutSeconds;
  if (typeof t !== "number" || !(t > 0)) return null;
  return t + Math.min(10, 1 + t / 4);
}

/** Runs one job with the library Runtime (loaded on first use). Shared by the in-process engine and the worker threads. */
export async function evaluateJob(job: RunJob): Promise<RunResult> {
  const { Runtime } = await import("../runtime/index.js");
  const rt = new Runtime(job.symbol, {
    ...(job.timeframe ? { timeframe: job.timeframe } : {}),
    ...(job.syminfo && Object.keys(job.syminfo).length ? { syminfo: job.syminfo } : {}),
    ...(job.broker ? { broker: job.broker } : {}),
  });
  return rt.run(job.script, job.data as never, job.options);
}

/**
 * A run's result without its event log as JSON text, written on the thread that ran it: a winner's
 * full result (its equity series and trade list) crosses to the server's main thread as one string
 * instead of a graph of objects it would clone back and then stringify itself.
 */
export async function evaluateJobJson(job: RunJob): Promise<string> {
  const { events: _events, ...result } = await evaluateJob(job);
  const json = JSON.stringify(result);
  // (the text is all that leaves: the run's typed-array stores go to the next run's broker)
  if (result.strategy) releaseStrategyStores(result.strategy);
  return json;
}

/**
 * evaluateJobJson's text as UTF-8 bytes (a pool thread's answer): they cross to the main thread as a
 * buffer outside its heap, where the text would be a ~600 KB string on it (answer-json.ts).
 */
export async function evaluateJobJsonBytes(job: RunJob): Promise<Uint8Array> {
  return new TextEncoder().encode(await evaluateJobJson(job));
}

/** Runs one optimize trial over its slice of the shared bars (views, no copy) and keeps only the scored part. */
export async function evaluateTrial(job: TrialJob): Promise<TrialReply> {
  const { bars, barsKey, slice, ...rest } = job;
  return trialRun(rest, ownTrialBars(barsKey, bars), slice);
}

/** Runs a batch's trial runs in order (each marked on the batch's clock as it starts), answered in order. */
export async function evaluateTrials(job: TrialBatch): Promise<TrialReply[]> {
  const { bars, barsKey, runs, clock, ...rest } = job;
  const own = ownTrialBars(barsKey, bars);
  const replies: TrialReply[] = [];
  for (let i = 0; i < runs.length; i++) {
    if (clock) markRun(clock, i);
    const { inputs, slice } = runs[i]!;
    replies.push(await trialRun({ ...rest, options: { ...rest.options, inputs } }, own, slice));
  }
  return replies;
}

async function trialRun(job: Omit<RunJob, "data">, own: PackedBars, slice: readonly [number, number]) {
  const t0 = performance.now();
  const options = trialRunOptions(job.options);
  const result = await evaluateJob({ ...job, options, data: trialColumns(own, slice[0], slice[1]) });
  return spentTrialReply(result, performance.now() - t0).reply;
}

/** Evaluates jobs on the calling thread (workerd, tests, or Node when no worker build exists). */
export function createInProcessEngine(run: (job: RunJob) => Promise<RunResult> = evaluateJob): Engine {
  return {
    run: (job) => run(job),
    runJson: async (job) => {
      const { events: _events, ...result } = await run(job);
      return JSON.stringify(result);
    },
    // trials through evaluateTrial only where runs are the library's own (a test's stand-in run stays in charge)
    ...(run === evaluateJob ? { trial: (job: TrialJob) => evaluateTrial(job) } : {}),
    concurrency: 1,
  };
}

/**
 * The study winner's full run on an engine (the CLI's and /optimize's `best_result`): the trials'
 * job with the run's usual broker (TradingView's trade limit applies as in /run) and without the
 * order-event log, which the answer leaves out anyway.
 */
export function studyFullRunner(
  engine: Engine,
  job: Omit<RunJob, "data" | "broker">,
  control?: RunControl,
): FullRunner {
  return (inputs, bars) => engine.run(fullRunJob(engine, job, inputs, bars), control);
}

/**
 * The winner's full run as studyFullRunner makes it, answered as JSON text (Engine.runJson) in a
 * JsonRun: for a host that writes the study's answer as JSON (/optimize, answer-json.ts) and never
 * reads the result itself.
 */
export function studyFullJsonRunner(
  engine: Engine,
  job: Omit<RunJob, "data" | "broker">,
  control?: RunControl,
): FullRunner {
  const runJson = engine.runJson?.bind(engine);
  if (!runJson) return studyFullRunner(engine, job, control);
  return async (inputs, bars) => jsonRun(await runJson(fullRunJob(engine, job, inputs, bars), control));
}

function fullRunJob(
  engine: Engine,
  job: Omit<RunJob, "data" | "broker">,
  inputs: Record<string, unknown>,
  bars: Bar[],
): RunJob {
  // the study's columns, not its rows: a thread gets them without a copy of 20k objects
  const cols = studyColumns(bars, engine.crossesThreads === true);
  const data = cols ? toColumnar(cols) : bars;
  return { ...job, broker: { record_events: false }, options: { ...job.options, inputs }, data };
}

const columnsOf = new WeakMap<readonly Bar[], { plain: PackedBars | null; shared?: PackedBars | null }>();

/**
 * A study's bar rows as the Runtime reads them, made once per rows array for the study's trials and
 * its winner's full run: ordinary columns, or (`shared`, for an engine whose jobs cross threads) a
 * copy in shared memory (protocol.ts shareBars). null for bad data, which keeps the row path (each
 * run reports it as a run does).
 */
function studyColumns(rows: readonly Bar[], shared: boolean): PackedBars | null {
  let entry = columnsOf.get(rows);
  if (!entry) {
    // rows the study made from columns (a columnar /optimize body) pack from those columns
    const cols = packStudyBars(sourceColumns(rows) ?? rows);
    entry = { plain: isBarDataError(cols) ? null : cols };
    columnsOf.set(rows, entry);
  }
  if (!shared || !entry.plain) return entry.plain;
  return (entry.shared ??= shareBars(entry.plain));
}

/**
 * A study's bars as the Runtime reads them (normalizeBars). Columns packed anew (from rows, or
 * converted from columns that were not Float64Arrays) are the study's own, which nobody else holds:
 * trial runs on the calling thread then read one settled object per range of them (trial-bars.ts
 * studyOwnsBars). A caller's own Float64Array columns come back as they are and stay unsettled.
 */
function packStudyBars(source: unknown): ReturnType<typeof normalizeBars> {
  const cols = normalizeBars(source);
  if (isBarDataError(cols)) return cols;
  const given = Array.isArray(source) ? null : new Set(Object.values(source as object));
  if (given === null || !BAR_FIELDS.some((f) => given.has(cols[f]))) studyOwnsBars(cols);
  return cols;
}

/**
 * A columnar request's bars for a study on `engine` whose runs read them only as columns (engine.trial:
 * every trial by its range of the study's columns, the winner's run by studyColumns): a stand-in for
 * the rows (optimize/bars.ts columnStandIn) with its columns packed here once, instead of a row object
 * per bar that nothing reads (20k rows were ~5.5 MB of the ~11.7 MB a 32-trial /optimize study
 * allocated on the server's main thread, most of it kept for the study). Rows given are read into
 * columns here too, the same reading the study's runs would make of them, so that the caller can
 * drop them: kept for the study, JSON.parse's 20k row objects (~4.3 MB with their numbers) reached
 * the old generation, and the main thread's mark-compacts came every few studies. null where the
 * study needs real rows: an engine without trial, or bars the Runtime refuses (each run then reports
 * them as a run does).
 */
export function columnStudyData(engine: Engine, data: unknown): Bar[] | null {
  if (!engine.trial || data === null || typeof data !== "object") return null;
  // (a body's rows or number arrays are packed anew: an engine on the calling thread, workerd's,
  // then serves each range of them as one settled object)
  const cols = packStudyBars(data);
  if (isBarDataError(cols)) return null;
  const rows = columnStandIn(Array.isArray(data) ? cols : (data as OhlcvInput));
  columnsOf.set(rows, { plain: cols });
  return rows;
}

/** Trial runs a message carries at most (trialsPerMessage). */
export const MAX_TRIALS_PER_MESSAGE = 8;

/**
 * How many trials a study hands an engine at once (runStudy's batchSize, studyTrialRunner's
 * perMessage): 1 unless the engine takes batches (engine.trials); else about a quarter of each
 * thread's share of the study, at most MAX_TRIALS_PER_MESSAGE, so every thread still gets several
 * batches and the last one to end holds a few trials at most.
 */
export function trialsPerMessage(engine: Engine, nTrials: number): number {
  if (!engine.trials) return 1;
  const share = nTrials / Math.max(1, engine.concurrency);
  return Math.max(1, Math.min(MAX_TRIALS_PER_MESSAGE, Math.floor(share / 4)));
}

/**
 * The study's trial runner on an engine (the CLI's and /optimize's): with engine.trial, the study's
 * bars are packed into shared columns once and every trial names its range of them and gets back
 * only the scored trades; otherwise each trial is a whole run of its bar rows. `job` is everything
 * but the bars and the inputs. With `perMessage` > 1 and engine.trials, the runs the study starts
 * together go to a thread in messages of up to that many (trial-batches.ts).
 */
export function studyTrialRunner(
  engine: Engine,
  study: PreparedStudy,
  job: Omit<RunJob, "data">,
  control?: RunControl,
  perMessage = 1,
): TrialRunner {
  const withInputs = (inputs: Record<string, unknown>): Omit<RunJob, "data"> => ({
    ...job,
    options: { ...job.options, inputs },
  });
  const byRows: TrialRunner = (inputs, bars: Bar[]) => engine.run({ ...withInputs(inputs), data: bars }, control);
  if (!engine.trial) return byRows;
  // the rows as the Runtime reads them (bad data keeps the row path: each trial reports it as a run does)
  const shared = studyColumns(study.bars, engine.crossesThreads === true);
  if (!shared) return byRows;
  const trial = engine.trial.bind(engine);
  const barsKey = newTrialBarsKey();
  const one = (run: BatchRun): Promise<TrialReply> =>
    trial({ ...withInputs(run.inputs), bars: shared, barsKey, slice: run.slice }, control);
  const trials = engine.trials?.bind(engine);
  const send =
    trials && perMessage > 1
      ? batchedRuns((runs: BatchRun[]) => trials({ ...job, bars: shared, barsKey, runs }, control), one, perMessage)
      : one;
  return async (inputs, bars, range): Promise<TrialOutcome> =>
    range ? trialOutcome(await send({ inputs, slice: range })) : byRows(inputs, bars);
}
