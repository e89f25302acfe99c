// The default engine: the Runtime in a pool of Web Workers (Comlink), kernels in WASM; works offline.

import * as Comlink from "comlink";
import { WorkerPool, defaultPoolSize } from "../../../src/worker/pool.js";
import type { PackedRunResult } from "../../../src/worker/protocol.js";
import type { StudyProgress } from "../../../src/worker/study.js";
import { clientSideOptimize } from "./optimize-loop.js";
import type { Engine, EngineRunRequest, OptimizeProgress, OptimizeRequest, OptimizeResult } from "./types.js";

export function createRuntimeWorker(): Worker {
  return new Worker(new URL("../../../src/worker/runtime.worker.ts", import.meta.url), { type: "module", name: "resin-runtime" });
}

export class BrowserEngine implements Engine {
  readonly id = "browser" as const;
  readonly label = "In-browser (Web Worker)";
  readonly pool: WorkerPool;
  private knownBars = new Set<string>();
  private abort = new AbortController();

  constructor(poolSize = defaultPoolSize()) {
    this.pool = new WorkerPool(createRuntimeWorker, poolSize);
  }

  private register(req: { data: EngineRunRequest["data"] }): void {
    if (this.knownBars.has(req.data.key)) return;
    this.pool.setBars(req.data.key, req.data.bars);
    this.knownBars.add(req.data.key);
  }

  run(req: EngineRunRequest): Promise<PackedRunResult> {
    this.register(req);
    return this.pool.exec(req.data.key, (api) =>
      api.run({
        source: req.source,
        barsKey: req.data.key,
        symbol: req.symbol,
        // "auto" like the HTTP API's default: compiled when eligible, interpret otherwise
        options: { inputs: req.inputs, profiler: req.profiler, mode: req.mode ?? "auto" },
      }),
    );
  }

  /** The study loop runs on the page; each trial (and validation slice) is one job on the pool. */
  optimize(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void, concurrency = this.pool.size): Promise<OptimizeResult> {
    this.register(req);
    const signal = this.abort.signal;
    return clientSideOptimize(
      req,
      (inputs, from, to) =>
        this.pool.exec(req.data.key, (api) =>
          api.run({
            source: req.script,
            barsKey: req.data.key,
            symbol: req.symbol,
            options: { inputs, mode: "interpret" },
            slice: [from, to],
            lean: true,
          }),
        ),
      { concurrency, signal },
      onProgress,
    );
  }

  /**
   * The whole study inside one worker (trials one after another, progress through a Comlink proxy).
   * The pool path above is the default; this one is the single-worker baseline.
   */
  optimizeInOneWorker(req: OptimizeRequest, onProgress: (p: OptimizeProgress) => void): Promise<OptimizeResult> {
    this.register(req);
    const { data, ...rest } = req;
    return this.pool.exec(data.key, (api) => api.optimize({ ...rest, barsKey: data.key }, Comlink.proxy((p: StudyProgress) => onProgress({ done: p.done, total: p.total }))));
  }

  cancel(): void {
    this.abort.abort();
    this.abort = new AbortController();
    this.pool.cancelAll();
  }
}
