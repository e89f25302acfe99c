// A pool of runtime workers, one per core by default. Jobs queue and go to the first idle worker.
// Bar sets are registered once on the page side and sent (as transferred copies) to each worker the
// first time a job there needs them. Cancel terminates the busy workers (a synchronous bar loop
// cannot be interrupted otherwise) and rejects their jobs; replacements spawn on demand.
//
// Pipelined jobs (optimize trials) may also be handed to a worker that is still busy, up to
// PIPELINE_DEPTH at a time: the next request is then already in the worker's message queue when it
// replies, so it never waits for the page to read the reply and post more work. On a machine with
// as many cores as workers the page thread competes with them, and without this every trial paid a
// scheduling round trip through the page (measured: docs/benchmarks.md, browser section).
//
// A job may carry a hard deadline: past it its worker is terminated and replaced, as the Node
// server's pool does (a script stuck inside one builtin call never reaches the runtime's own budget
// check), and the job fails with a DeadlineError coded RUN_DEADLINE_EXCEEDED like the server's 504.

import * as Comlink from "comlink";
import type { RuntimeWorkerApi } from "./runtime.worker.js";
import { barsBuffers, cloneBars, type PackedBars } from "./protocol.js";

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

/** A job that passed its hard deadline; its worker was terminated and will be replaced on demand. */
export class DeadlineError extends Error {
  readonly code = "RUN_DEADLINE_EXCEEDED";
  constructor(readonly deadlineMs: number) {
    super(`the run passed its ${Math.round(deadlineMs / 1000)} s deadline: its worker was stopped and replaced`);
    this.name = "DeadlineError";
  }
}

/** Jobs a worker holds at once when they are pipelined: the one running and the next one. */
export const PIPELINE_DEPTH = 2;

interface Slot {
  worker: Worker;
  api: Comlink.Remote<RuntimeWorkerApi>;
  /** Bar sets this worker has or is being sent (jobs behind the first wait for the same send). */
  bars: Map<string, Promise<void>>;
  /** Jobs handed to this worker and not settled yet. */
  running: number;
  /** Rejecters of those jobs (cancel and a worker error fail them all). */
  rejects: Set<(e: unknown) => void>;
}

interface Job<T> {
  barsKey?: string;
  fn: (api: Comlink.Remote<RuntimeWorkerApi>) => Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
  pipeline: boolean;
  deadlineMs: number | undefined;
}

export interface ExecOptions {
  /** May queue on a busy worker (up to PIPELINE_DEPTH jobs) when no worker is idle. */
  pipeline?: boolean;
  /**
   * Hard deadline in ms from the moment the job is handed to a worker (for a pipelined job that
   * includes the job ahead of it there). Past it the worker is terminated: its jobs fail with a
   * DeadlineError and a fresh worker takes the next ones.
   */
  deadlineMs?: number;
}

export type WorkerFactory = () => Worker;

export function defaultPoolSize(): number {
  const n = typeof navigator !== "undefined" ? navigator.hardwareConcurrency || 2 : 2;
  return Math.max(1, Math.min(n, 16));
}

export class WorkerPool {
  private slots: Slot[] = [];
  private queue: Job<any>[] = [];
  private barSets = new Map<string, PackedBars>();

  constructor(
    private readonly factory: WorkerFactory,
    readonly size: number = defaultPoolSize(),
  ) {}

  /** Registers a bar set under a key (the pool keeps the master copy). */
  setBars(key: string, bars: PackedBars): void {
    this.barSets.set(key, bars);
    for (const s of this.slots) if (s.bars.delete(key)) void s.api.dropBars(key);
  }

  /** Runs `fn` on a worker that holds bars `barsKey` (sending them first if needed). */
  exec<T>(
    barsKey: string | undefined,
    fn: (api: Comlink.Remote<RuntimeWorkerApi>) => Promise<T>,
    options: ExecOptions = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        barsKey,
        fn,
        resolve,
        reject,
        pipeline: options.pipeline ?? false,
        deadlineMs: options.deadlineMs,
      });
      this.pump();
    });
  }

  /** Rejects every queued job and terminates the workers that are busy. */
  cancelAll(): void {
    const queued = this.queue.splice(0);
    for (const j of queued) j.reject(new CancelledError());
    for (const s of [...this.slots]) if (s.running > 0) this.kill(s, new CancelledError());
  }

  terminate(): void {
    this.cancelAll();
    for (const s of this.slots) s.worker.terminate();
    this.slots = [];
  }

  get busyCount(): number {
    return this.slots.filter((s) => s.running > 0).length;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slotFor(this.queue[0]!);
      if (!slot) return;
      void this.runJob(slot, this.queue.shift()!);
    }
  }

  /** An idle worker, else a new one while under `size`, else (pipelined jobs) the least loaded one with room. */
  private slotFor(job: Job<unknown>): Slot | null {
    const idle = this.slots.find((s) => s.running === 0);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.spawn();
    if (!job.pipeline) return null;
    let best: Slot | null = null;
    for (const s of this.slots) if (s.running < PIPELINE_DEPTH && (!best || s.running < best.running)) best = s;
    return best;
  }

  private spawn(): Slot {
    const worker = this.factory();
    const slot: Slot = {
      worker,
      api: Comlink.wrap<RuntimeWorkerApi>(worker),
      bars: new Map(),
      running: 0,
      rejects: new Set(),
    };
    worker.addEventListener("error", (e) => {
      // a worker that failed to load (bad bundle, wasm missing) fails its jobs instead of hanging them
      e.preventDefault();
      this.kill(slot, new Error(`runtime worker failed: ${e.message || "load error"}`));
    });
    this.slots.push(slot);
    return slot;
  }

  /** Terminates a worker and fails the jobs it holds with `reason`; a replacement spawns on demand. */
  private kill(slot: Slot, reason: Error): void {
    slot.worker.terminate();
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    for (const reject of slot.rejects) reject(reason);
  }

  /** Sends bar set `key` to the worker once; later jobs there wait for the same transfer. */
  private barsOn(slot: Slot, key: string): Promise<void> {
    let sent = slot.bars.get(key);
    if (!sent) {
      const master = this.barSets.get(key);
      if (!master) return Promise.reject(new Error(`unknown bar set "${key}"`));
      const copy = cloneBars(master);
      sent = slot.api.setBars(key, Comlink.transfer(copy, barsBuffers(copy)));
      slot.bars.set(key, sent);
      sent.catch(() => slot.bars.delete(key)); // the next job tries again
    }
    return sent;
  }

  private async runJob<T>(slot: Slot, job: Job<T>): Promise<void> {
    slot.running++;
    let reject!: (e: unknown) => void;
    const settled = new Promise<never>((_, r) => (reject = r));
    slot.rejects.add(reject);
    const deadline = job.deadlineMs;
    const timer =
      deadline === undefined ? undefined : setTimeout(() => this.kill(slot, new DeadlineError(deadline)), deadline);
    try {
      const work = (async () => {
        if (job.barsKey !== undefined) await this.barsOn(slot, job.barsKey);
        return job.fn(slot.api);
      })();
      job.resolve(await Promise.race([work, settled]));
    } catch (e) {
      job.reject(e);
    } finally {
      clearTimeout(timer);
      slot.running--;
      slot.rejects.delete(reject);
      this.pump();
    }
  }
}
