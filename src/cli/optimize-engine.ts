// The engine of one `resin optimize`: runs on the CLI's own thread (the probe for the space, the
// trials until threads pay, a --remote study's winner), and a pool of worker threads that starts
// only when the study's ThreadGate lets threads in (optimize-threads.ts). A process whose study
// stays short never starts a thread.

import { createInProcessEngine, type Engine } from "../server/engine.js";
import { usableCores } from "../server/node/cores.js";
import { createNodeEngine, WorkerPool } from "../server/node/pool.js";
import { RUNS_PER_THREAD, type Place } from "./optimize-threads.js";

export class StudyEngine implements Engine {
  private readonly here = createInProcessEngine();
  private pool: (Engine & { close?(): Promise<void> }) | null = null;
  readonly concurrency = 1;
  /** Runs of studies placed here and on threads so far (localStudy counts them; tests read them). */
  readonly runs: Record<Place, number> = { here: 0, thread: 0 };

  /** `threads`: worker threads at most besides this one. */
  constructor(readonly threads: number) {}

  run: Engine["run"] = (job, control) => this.here.run(job, control);
  trial: NonNullable<Engine["trial"]> = (job, control) => this.here.trial!(job, control);

  /** The threads' engine (started on first use: all of them at once). */
  get onThreads(): Engine {
    this.pool ??= createNodeEngine(this.threads, { jobsPerThread: RUNS_PER_THREAD });
    return this.pool;
  }

  /** The threads were started (tests). */
  get threadsStarted(): boolean {
    return this.pool !== null;
  }

  /** Starts the threads; resolves once one is up (they start together). */
  async startThreads(): Promise<void> {
    const pool = this.onThreads;
    if (pool instanceof WorkerPool) await pool.warm();
  }

  async close(): Promise<void> {
    await this.pool?.close?.();
  }
}

/**
 * `workers` in all at most (this thread and workers - 1 threads), by default this thread and as many
 * threads as the other cores (at most 7); either way the threads start once the study is long enough.
 */
export function studyEngine(workers?: number): StudyEngine {
  return new StudyEngine(Math.max(0, (workers ?? Math.min(usableCores(), 8)) - 1));
}
