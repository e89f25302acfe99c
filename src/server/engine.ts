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
 * whole list; TradingView's 9,000-trade trimming would drop the oldest ones).
 */
export const TRIAL_BROKER: Record<string, unknown> = { trade_limit: Infinity };

export interface Engine {
  /** Evaluates a job; resolves with the result (script/data errors are in it), rejects only on bugs. */
  run(job: RunJob): Promise<RunResult>;
  /** How many jobs it runs at once (batch and optimize fan out this wide). */
  readonly concurrency: number;
  close?(): Promise<void>;
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
  return { run, concurrency: 1 };
}
