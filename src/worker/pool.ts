// A pool of runtime workers, one per core by default. Jobs queue and go to the first idle worker.
// Bar sets are registered once on the page side and sent (as transferred copies) to each worker the
// first time a job there needs them. Cancel terminates the busy workers (a synchronous bar loop
// cannot be interrupted otherwise) and rejects their jobs; replacements spawn on demand.

import * as Comlink from "comlink";
import type { RuntimeWorkerApi } from "./runtime.worker.js";
import { barsBuffers, cloneBars, type PackedBars } from "./protocol.js";

export class CancelledError extends Error {
  constructor() {
    super("cancelled");
    this.name = "CancelledError";
  }
}

interface Slot {
  worker: Worker;
  api: Comlink.Remote<RuntimeWorkerApi>;
  bars: Set<string>;
  busy: boolean;
  reject?: (e: unknown) => void;
}

interface Job<T> {
  barsKey?: string;
  fn: (api: Comlink.Remote<RuntimeWorkerApi>) => Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
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

  /** Runs `fn` on an idle worker that holds bars `barsKey` (sending them first if needed). */
  exec<T>(barsKey: string | undefined, fn: (api: Comlink.Remote<RuntimeWorkerApi>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ barsKey, fn, resolve, reject });
      this.pump();
    });
  }

  /** Rejects every queued job and terminates the workers that are busy. */
  cancelAll(): void {
    const queued = this.queue.splice(0);
    for (const j of queued) j.reject(new CancelledError());
    for (const s of [...this.slots]) {
      if (!s.busy) continue;
      s.worker.terminate();
      this.slots.splice(this.slots.indexOf(s), 1);
      s.reject?.(new CancelledError());
    }
  }

  terminate(): void {
    this.cancelAll();
    for (const s of this.slots) s.worker.terminate();
    this.slots = [];
  }

  get busyCount(): number {
    return this.slots.filter((s) => s.busy).length;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idleSlot();
      if (!slot) return;
      const job = this.queue.shift()!;
      void this.runJob(slot, job);
    }
  }

  private idleSlot(): Slot | null {
    const idle = this.slots.find((s) => !s.busy);
    if (idle) return idle;
    if (this.slots.length >= this.size) return null;
    const worker = this.factory();
    const slot: Slot = { worker, api: Comlink.wrap<RuntimeWorkerApi>(worker), bars: new Set(), busy: false };
    worker.addEventListener("error", (e) => {
      // a worker that failed to load (bad bundle, wasm missing) fails its job instead of hanging it
      e.preventDefault();
      worker.terminate();
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      slot.reject?.(new Error(`runtime worker failed: ${e.message || "load error"}`));
    });
    this.slots.push(slot);
    return slot;
  }

  private async runJob<T>(slot: Slot, job: Job<T>): Promise<void> {
    slot.busy = true;
    const settled = new Promise<never>((_, reject) => (slot.reject = reject));
    try {
      const work = (async () => {
        if (job.barsKey !== undefined && !slot.bars.has(job.barsKey)) {
          const master = this.barSets.get(job.barsKey);
          if (!master) throw new Error(`unknown bar set "${job.barsKey}"`);
          const copy = cloneBars(master);
          await slot.api.setBars(job.barsKey, Comlink.transfer(copy, barsBuffers(copy)));
          slot.bars.add(job.barsKey);
        }
        return job.fn(slot.api);
      })();
      job.resolve(await Promise.race([work, settled]));
    } catch (e) {
      job.reject(e);
    } finally {
      slot.busy = false;
      slot.reject = undefined;
      this.pump();
    }
  }
}
