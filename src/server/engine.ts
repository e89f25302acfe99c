// The engine behind the HTTP routes: something that evaluates one run job. The app is host-neutral
// and only sees this interface; Node plugs in a worker-thread pool (node/pool.ts), workerd and tests
// use the in-process engine below.

import type { LibrarySource, RunOptions, RunResult, SymInfo } from "../core/result.js";

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

/**
 * What an optimize trial's run needs from the broker: every closed trade (the study scores the
 * whole list; TradingView's 9,000-trade trimming would drop the oldest ones), and no order-event log
 * (the study never reads result.events).
 */
export const TRIAL_BROKER: Record<string, unknown> = { trade_limit: Infinity, record_events: false };

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
  /** How many jobs it runs at once (batch and optimize fan out this wide). */
  readonly concurrency: number;
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
export function hardDeadlineSeconds(job: RunJob): number | null {
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

/** Evaluates jobs on the calling thread (workerd, tests, or Node when no worker build exists). */
export function createInProcessEngine(run: (job: RunJob) => Promise<RunResult> = evaluateJob): Engine {
  return { run: (job) => run(job), concurrency: 1 };
}
