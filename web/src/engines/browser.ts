// The default engine: the Runtime in a pool of Web Workers (Comlink), kernels in WASM; works offline.

import * as Comlink from "comlink";
import { PIPELINE_DEPTH, WorkerPool, defaultPoolSize } from "../../../src/worker/pool.js";
import { trialOutcome, unpackSeries, type PackedRunResult, type TrialReply } from "../../../src/worker/protocol.js";
import type { StudyProgress } from "../../../src/worker/study.js";
import { clientSideOptimize } from "./optimize-loop.js";
import type { Engine, EngineRunRequest, OptimizeProgress, OptimizeRequest, OptimizeResult } from "./types.js";

/**
 * The in-browser run budget, as `resin serve`'s default SVC_MAX_RUN_SECONDS: a run past it returns its
 * partial result with `timed_out`. A worker still busy GRACE_SECONDS later (stuck inside one builtin call)
 * is terminated and replaced, and the run fails with RUN_DEADLINE_EXCEEDED.
 */
export const RUN_BUDGET_SECONDS = 30;
export const GRACE_SECONDS = 5;
const RUN_DEADLINE_MS = (RUN_BUDGET_SECONDS + GRACE_SECONDS) * 1000;

export function createRuntimeWorker(): Worker {
  return new Worker(new URL("../../../src/worker/runtime.worker.ts", import.meta.url), {
    type: "module",
    name: "resin-runtime",
  });
}

export class BrowserEngine implements Engine {
  readonly id = "browser" as const;
  readonly label = "In-browser (Web Worker)";
  readonly pool: WorkerPool;
  private knownBars = new Set<string>();
  private abort = new AbortController();
  /** What prepareOptimize last warmed the workers for. */
  private prepared: { key: string; done: Promise<void> } | null = null;
  /** Per-trial timings for benchmarks (null: not recorded). */
  trace: TrialTrace | null = null;

  constructor(poolSize = defaultPoolSize()) {
    this.pool = new WorkerPool(createRuntimeWorker, poolSize);
  }

  /** Hands a data set to the pool once (its workers get it on their first job that needs it). */
  register(req: { data: EngineRunRequest["data"] }): void {
    if (this.knownBars.has(req.data.key)) return;
    this.pool.setBars(req.data.key, req.data.bars);
    this.knownBars.add(req.data.key);
  }

  run(req: EngineRunRequest): Promise<PackedRunResult> {
    this.register(req);
    return this.pool.exec(
      req.data.key,
      (api) =>
        api.run({
          source: req.source,
          barsKey: req.data.key,
          symbol: req.symbol,
          slice: req.slice,
          // the page shows no order events: the broker logs none (at 100k bars a strategy's event
          // list cost seconds of structured-clone decoding on the page thread)
          runtime: { syminfo: req.syminfo, broker: { ...req.strategy, record_events: false } },
          // "auto" like the HTTP API's default: compiled when eligible, interpret otherwise
          options: {
            inputs: req.inputs,
            profiler: req.profiler,
            mode: req.mode ?? "auto",
            timeoutSeconds: RUN_BUDGET_SECONDS,
            ...(req.realtime && { realtimeFromBar: req.realtime.fromBar, realtimeTicks: req.realtime.ticks }),
          },
        }),
      { deadlineMs: RUN_DEADLINE_MS },
    );
  }

  /**
   * The study loop runs on the page; each trial (and validation slice) is one job on the pool. Trials
   * are pipelined (each worker holds the next one while it runs the current one), so the study keeps
   * size x PIPELINE_DEPTH runs in flight; its result does not depend on that (study.ts).
   */
  optimize(
    req: OptimizeRequest,
    onProgress: (p: OptimizeProgress) => void,
    concurrency = this.pool.size * PIPELINE_DEPTH,
  ): Promise<OptimizeResult> {
    this.register(req);
    const signal = this.abort.signal;
    return clientSideOptimize(
      req,
      (inputs, from, to) => {
        const queued = performance.now();
        return this.pool.exec(
          req.data.key,
          async (api) => {
            const sent = performance.now();
            const reply = await api.trial({
              source: req.script,
              barsKey: req.data.key,
              symbol: req.symbol,
              options: { inputs, mode: "auto" },
              slice: [from, to],
            });
            if (this.trace) this.trace.add(queued, sent, reply);
            return trialOutcome(reply);
          },
          // a pipelined trial's deadline also covers the trial ahead of it on its worker
          { pipeline: true, deadlineMs: PIPELINE_DEPTH * RUN_DEADLINE_MS },
        );
      },
      {
        concurrency,
        signal,
        // the winner over the whole data set, as the chart runs it: the answer's best_result
        fullRun: async (inputs) =>
          unpackSeries(
            await this.run({
              source: req.script,
              data: req.data,
              symbol: req.symbol,
              inputs,
              profiler: false,
              mode: "auto",
            }),
          ),
      },
      onProgress,
    );
  }

  /**
   * Starts every worker of the pool and runs the script twice on each, in the background, with its
   * default inputs. A fresh worker spends about 0.3 s of CPU loading the runtime and warming its JIT
   * on the first runs; a short study on a pool of cold workers pays that once per worker, which can
   * cost more than the trials themselves (20 MA-cross trials are about 0.15 s of CPU).
   */
  prepareOptimize(req: Pick<OptimizeRequest, "script" | "data" | "symbol">): Promise<void> {
    const key = `${req.data.key}\n${req.symbol}\n${req.script}`;
    if (this.prepared?.key === key) return this.prepared.done;
    this.register(req);
    // at most the last 2,000 bars: enough to warm the JIT, short enough not to hold up a study or a
    // chart run that comes right after on a large data set
    const n = req.data.bars.time.length;
    const slice: [number, number] = [Math.max(0, n - 2000), n];
    const trial = () =>
      this.pool.exec(req.data.key, (api) =>
        api.trial({
          source: req.script,
          barsKey: req.data.key,
          symbol: req.symbol,
          options: { inputs: {}, mode: "auto" },
          slice,
        }),
      );
    // `size` jobs queued at once land on `size` different workers
    const round = () => Promise.all(Array.from({ length: this.pool.size }, trial));
    const done = round()
      .then(round)
      .then(
        () => undefined,
        () => void (this.prepared = null), // cancelled or failed: the next call tries again
      );
    this.prepared = { key, done };
    return done;
  }

  /**
   * The whole study inside one worker (trials one after another, progress through a Comlink proxy).
   * The pool path above is the default; this one is the single-worker baseline.
   */
  optimizeInOneWorker(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void): Promise<OptimizeResult> {
    this.register(req);
    const { data, ...rest } = req;
    return this.pool.exec(data.key, (api) =>
      api.optimize(
        { ...rest, barsKey: data.key },
        Comlink.proxy((p: StudyProgress) => onProgress({ done: p.done, total: p.total, trial: p.trial })),
      ),
    );
  }

  cancel(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.prepared = null; // busy workers are replaced by cold ones
    this.pool.cancelAll();
  }
}

/** Where a trial's time goes, summed over trials: waiting for a worker, the round trip, the worker's own time. */
export class TrialTrace {
  jobs = 0;
  queueMs = 0;
  roundTripMs = 0;
  workerMs = 0;
  /** Time workers sat idle between trials, waiting for the page to send the next one. */
  idleMs = 0;
  replyBytes = 0;

  add(queued: number, sent: number, reply: TrialReply): void {
    this.jobs++;
    this.queueMs += sent - queued;
    this.roundTripMs += performance.now() - sent;
    this.workerMs += reply.worker_ms;
    if (reply.idle_ms < 1000) this.idleMs += reply.idle_ms; // a longer gap is the pause between two studies
    // the typed columns plus the scalar fields (a rough structured-clone size)
    this.replyBytes += reply.profit.byteLength + reply.exit_bar.byteLength + 100 + (reply.error?.length ?? 0) * 2;
  }

  /** Averages per trial. */
  summary(): {
    jobs: number;
    queueMs: number;
    roundTripMs: number;
    workerMs: number;
    idleMs: number;
    replyBytes: number;
  } {
    const n = Math.max(1, this.jobs);
    return {
      jobs: this.jobs,
      queueMs: this.queueMs / n,
      roundTripMs: this.roundTripMs / n,
      workerMs: this.workerMs / n,
      idleMs: this.idleMs / n,
      replyBytes: this.replyBytes / n,
    };
  }
}
