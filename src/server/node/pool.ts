// The worker-thread engine of the Node host: run jobs (/run, /run/batch, /optimize trials) go to a
// tinypool of threads running run-worker.js. tinypool queues jobs, and terminates a thread whose
// task is aborted and starts its replacement; this module adds what the host needs on top:
// - a hard deadline per job (its time budget plus a grace period, engine.ts hardDeadlineSeconds):
//   the engine's own countdown should stop a run with `timed_out` long before; a run that never
//   returns (a builtin that does not look at the clock, a bug) gets its thread terminated and the
//   request a RunDeadlineError (HTTP 504 RUN_DEADLINE_EXCEEDED), and the pool has its capacity back;
// - cancellation when the caller's signal aborts (a client disconnect): the thread is terminated
//   the same way, a queued job just leaves the queue;
// - a V8 heap cap per thread (resourceLimits): a run past it ends its thread, never the process,
//   and gets a RunMemoryError (HTTP 507 MEMORY_LIMIT);
// - honest counts for /health (alive, busy, queued, terminated, cancelled).
// The worker entry is the compiled dist/server/node/run-worker.js, bundled into one file by the build
// (dist/bundle/run-worker.js, workerEntry); when this module runs from
// TypeScript sources (vitest) there is no loadable entry and `createNodeEngine` falls back to
// in-process evaluation.

import { usableCores } from "./cores.js";
import { existsSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Tinypool from "tinypool";
import type { RunResult } from "../../core/result.js";
import {
  createInProcessEngine,
  hardDeadlineSeconds,
  RunCancelledError,
  RunDeadlineError,
  RunMemoryError,
  type Engine,
  type EngineStats,
  type RunControl,
  type RunJob,
  type TrialBatch,
  type TrialJob,
} from "../engine.js";
import type { TrialReply } from "../../worker/protocol.js";
import { epochMs, newRunClock, runOn, runStarted, type RunClock } from "../run-clock.js";

export interface PoolOptions {
  size: number;
  /**
   * Threads started with the pool (default: all `size`); the others start when jobs wait for one
   * (`resin optimize` starts one and lets more jobs in only when the study is long enough).
   */
  minThreads?: number;
  /** V8 heap cap of each thread, MB (a run past it ends its thread, not the process). */
  maxHeapMb?: number;
  /**
   * Jobs a thread is handed at once (default 1). `resin optimize` hands two, so the next trial
   * already waits in the thread while the CLI's own thread is busy with a trial of its own; a
   * job's deadline then includes the one ahead of it (the CLI's runs have none). Only jobs that
   * can never be aborted (no deadline, no caller's signal) double up: tinypool runs an abortable
   * job alone on its thread, since aborting it ends the thread.
   */
  jobsPerThread?: number;
}

export class WorkerPool implements Engine {
  readonly concurrency: number;
  readonly kind = "threads";
  readonly crossesThreads = true;
  private readonly pool: Tinypool;
  private readonly maxHeapMb: number | null;
  private active = 0;
  private terminated = 0;
  private cancelled = 0;
  private closed = false;

  constructor(entry: URL, options: PoolOptions) {
    this.concurrency = Math.max(1, options.size);
    this.maxHeapMb = options.maxHeapMb ?? null;
    this.pool = new Tinypool({
      filename: fileURLToPath(entry),
      // A fixed-size pool unless told otherwise: a terminated thread is replaced at once, so queued
      // jobs never wait for a thread that nobody starts (tinypool also starts one for a waiting job
      // while under maxThreads).
      minThreads: Math.max(1, Math.min(this.concurrency, options.minThreads ?? this.concurrency)),
      maxThreads: this.concurrency,
      // a thread started past minThreads stays once started (tinypool's default, 0, ends it as soon as
      // it is idle, and the next job then pays a cold thread's start-up and JIT warm-up again)
      idleTimeout: 2 ** 31 - 1,
      ...(options.jobsPerThread ? { concurrentTasksPerWorker: options.jobsPerThread } : {}),
      ...(options.maxHeapMb ? { resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb } } : {}),
    });
  }

  run(job: RunJob, control: RunControl = {}): Promise<RunResult> {
    return this.dispatch(job, "default", control) as Promise<RunResult>;
  }

  /** A run answered as its result's JSON without events, UTF-8 bytes (run-worker.ts `runJson`: the optimize winner's best_result). */
  runJson(job: RunJob, control: RunControl = {}): Promise<Uint8Array> {
    return this.dispatch(job, "runJson", control) as Promise<Uint8Array>;
  }

  /** An optimize trial (run-worker.ts `trial`): the bars' shared columns cross without a copy, the reply is the scored trades. */
  trial(job: TrialJob, control: RunControl = {}): Promise<TrialReply> {
    return this.dispatch(job, "trial", control) as Promise<TrialReply>;
  }

  /**
   * Several trial runs in one message (run-worker.ts `trials`), answered in order. Each run keeps its
   * own hard deadline (from its start, which the thread marks on the batch's clock; the first from
   * the dispatch); a run the pool ends fails the batch with an error whose `run` names it.
   */
  trials(job: TrialBatch, control: RunControl = {}): Promise<TrialReply[]> {
    const clock = newRunClock();
    return this.dispatch({ ...job, clock }, "trials", control, clock) as Promise<TrialReply[]>;
  }

  /** Resolves once a thread is up (its engine loaded: run-worker.ts `warm`). */
  async warm(): Promise<void> {
    if (this.closed) throw new Error("worker pool is closed");
    await this.pool.run(null, { name: "warm" });
  }

  /**
   * Runs `job` through the worker entry's export `name`, under the job's hard deadline and the
   * caller's signal. A batch (`clock`) has the deadline per run: the timer, when it fires, waits
   * again for as long as the run the thread is on now has left.
   */
  private async dispatch(
    job: RunJob | TrialJob | TrialBatch,
    name: string,
    control: RunControl,
    clock?: RunClock,
  ): Promise<unknown> {
    if (this.closed) throw new Error("worker pool is closed");
    if (control.signal?.aborted) throw new RunCancelledError();
    const abort = new AbortController();
    const deadline = hardDeadlineSeconds(job);
    let reason: "deadline" | "cancel" | null = null;
    const sent = epochMs();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const check = (): void => {
      const left = (clock ? (runStarted(clock) ?? sent) : sent) + (deadline as number) * 1000 - epochMs();
      if (clock && left > 0) {
        timer = setTimeout(check, left);
        return;
      }
      reason = "deadline";
      abort.abort();
    };
    if (deadline !== null) timer = setTimeout(check, deadline * 1000);
    const onCancel = (): void => {
      reason ??= "cancel";
      abort.abort();
    };
    control.signal?.addEventListener("abort", onCancel, { once: true });
    this.active++;
    try {
      // a job nothing can abort goes without a signal: tinypool hands a thread a second job
      // (jobsPerThread) only while the one it runs has none
      const abortable = timer !== null || control.signal !== undefined;
      return await this.pool.run(job, abortable ? { name, signal: abort.signal } : { name });
    } catch (err) {
      // (of a batch: the run the thread was on, which trial-batches.ts fails alone)
      const onRun = <E extends Error>(e: E): E => (clock ? Object.assign(e, { run: Math.max(0, runOn(clock)) }) : e);
      if (reason === "deadline") {
        this.terminated++;
        throw onRun(new RunDeadlineError(deadline as number));
      }
      if (reason === "cancel") {
        this.cancelled++;
        throw new RunCancelledError();
      }
      // A thread past its heap cap dies (tinypool replaces it); the run gets a coded error, the process lives on.
      if ((err as { code?: string } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY")
        throw onRun(new RunMemoryError(this.maxHeapMb));
      throw err instanceof Error ? err : new Error(String(err));
    } finally {
      this.active--;
      if (timer) clearTimeout(timer);
      control.signal?.removeEventListener("abort", onCancel);
    }
  }

  stats(): EngineStats {
    const busy = Math.min(this.active, this.concurrency);
    return {
      kind: this.kind,
      size: this.concurrency,
      alive: this.pool.threads.length,
      busy,
      queued: this.active - busy,
      terminated: this.terminated,
      cancelled: this.cancelled,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.destroy();
  }
}

/**
 * The worker entry, if this module runs built: the one-file bundle of it (scripts/bundle-worker.mjs:
 * loading it takes about a third of the CPU the ~180 modules cost, a whole cold thread's start-up
 * about half) when it is not older than the entry next to this module, else that entry itself.
 */
export function workerEntry(): URL | null {
  const url = new URL("./run-worker.js", import.meta.url);
  if (!import.meta.url.endsWith(".js") || !existsSync(fileURLToPath(url))) return null;
  const bundle = new URL("../../bundle/run-worker.js", import.meta.url);
  const mtime = (u: URL): number => statSync(fileURLToPath(u), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  return mtime(bundle) >= mtime(url) ? bundle : url;
}

/** A worker-thread pool when the built entry exists, else in-process evaluation. */
export function createNodeEngine(
  size = Math.min(usableCores(), 8),
  options: Omit<PoolOptions, "size"> = {},
): Engine & { kind: "threads" | "in-process" } {
  const entry = workerEntry();
  if (entry) return Object.assign(new WorkerPool(entry, { size, ...options }), { kind: "threads" as const });
  const inProcess = createInProcessEngine();
  let active = 0;
  const counted = async <T>(work: () => Promise<T>): Promise<T> => {
    active++;
    try {
      return await work();
    } finally {
      active--;
    }
  };
  return {
    kind: "in-process" as const,
    concurrency: inProcess.concurrency,
    run: (job) => counted(() => inProcess.run(job)),
    runJson: (job) => counted(() => inProcess.runJson!(job)),
    trial: (job) => counted(() => inProcess.trial!(job)),
    stats: () => ({
      kind: "in-process",
      size: 1,
      alive: 1,
      busy: Math.min(1, active),
      queued: Math.max(0, active - 1),
      terminated: 0,
      cancelled: 0,
    }),
  };
}
