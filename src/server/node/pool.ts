// A pool of worker threads that evaluate run jobs: /run/batch and /optimize spread their runs over
// it. The worker entry is the compiled dist/server/node/run-worker.js; when this module itself runs
// from TypeScript sources (vitest), there is no loadable entry and `createNodeEngine` falls back to
// in-process evaluation (documented in the serve help and the report).

import { availableParallelism } from "node:os";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { RunResult } from "../../core/result.js";
import { createInProcessEngine, type Engine, type RunJob } from "../engine.js";

interface Pending {
  id: number;
  job: RunJob;
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
}

export class WorkerPool implements Engine {
  readonly concurrency: number;
  private readonly entry: URL;
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private closed = false;

  constructor(entry: URL, size: number) {
    this.entry = entry;
    this.concurrency = Math.max(1, size);
  }

  run(job: RunJob): Promise<RunResult> {
    if (this.closed) return Promise.reject(new Error("worker pool is closed"));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error("worker pool closed"));
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length) {
      let slot = this.slots.find((s) => !s.busy);
      if (!slot && this.slots.length < this.concurrency) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Pending;
      slot.busy = job;
      // A busy worker keeps the process alive (its reply is awaited); an idle one does not.
      slot.worker.ref();
      slot.worker.postMessage({ id: job.id, job: job.job });
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.entry), busy: null };
    slot.worker.on("message", (msg: { id: number; result?: RunResult; error?: string }) => {
      const job = slot.busy;
      slot.busy = null;
      slot.worker.unref();
      if (job && job.id === msg.id) {
        if (msg.error !== undefined) job.reject(new Error(msg.error));
        else job.resolve(msg.result as RunResult);
      }
      this.dispatch();
    });
    // A crashed worker fails its job and is replaced on the next dispatch.
    const fail = (err: Error): void => {
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      slot.busy?.reject(err);
      slot.busy = null;
      if (!this.closed) this.dispatch();
    };
    slot.worker.on("error", fail);
    slot.worker.on("exit", (code) => fail(new Error(`worker exited with code ${code}`)));
    slot.worker.unref();
    this.slots.push(slot);
    return slot;
  }
}

/** The worker entry next to this module, if it is a loadable .js file. */
export function workerEntry(): URL | null {
  const url = new URL("./run-worker.js", import.meta.url);
  if (!import.meta.url.endsWith(".js")) return null;
  return existsSync(fileURLToPath(url)) ? url : null;
}

/** A worker-thread pool when the built entry exists, else in-process evaluation. */
export function createNodeEngine(size = Math.min(availableParallelism(), 8)): Engine & { kind: "threads" | "in-process" } {
  const entry = workerEntry();
  if (entry) return Object.assign(new WorkerPool(entry, size), { kind: "threads" as const });
  return Object.assign(createInProcessEngine(), { kind: "in-process" as const });
}
