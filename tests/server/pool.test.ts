// The Node worker pool (tinypool underneath): a job past its hard deadline gets its thread
// terminated and replaced (RunDeadlineError), a cancelled job frees its thread (RunCancelledError),
// and stats() counts honestly. A stand-in worker entry spins forever on demand, like a run whose
// engine never returns.

import { afterEach, describe, expect, it } from "vitest";
import {
  hardDeadlineSeconds,
  RunCancelledError,
  RunDeadlineError,
  RunMemoryError,
  type RunJob,
  type TrialBatch,
} from "../../src/server/engine.js";
import { WorkerPool } from "../../src/server/node/pool.js";

const ENTRY = new URL("./fixtures/spin-worker.mjs", import.meta.url);
const job = (script: string, timeoutSeconds: number | null = null): RunJob => ({
  script,
  data: [],
  symbol: "CHART",
  options: { timeoutSeconds },
});

let pool: WorkerPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

async function settle(p: WorkerPool): Promise<void> {
  for (let i = 0; i < 200 && (p.stats().alive < p.concurrency || p.stats().busy > 0); i++)
    await new Promise((r) => setTimeout(r, 25));
}

describe("WorkerPool", () => {
  it("the hard deadline is the budget plus a grace period; none without a budget", () => {
    expect(hardDeadlineSeconds(job("x"))).toBeNull();
    expect(hardDeadlineSeconds(job("x", 0))).toBeNull();
    expect(hardDeadlineSeconds(job("x", 1))).toBe(2.25);
    expect(hardDeadlineSeconds(job("x", 30))).toBe(38.5);
    expect(hardDeadlineSeconds(job("x", 1000))).toBe(1010);
  });

  it("terminates and replaces threads whose jobs never return; the pool keeps serving", async () => {
    pool = new WorkerPool(ENTRY, { size: 2 });
    const runaway = [pool.run(job("spin", 0.2)), pool.run(job("spin", 0.2))];
    // Queued behind the two runaways: answered once their threads are replaced.
    const queued = pool.run(job("after"));
    for (const r of runaway) await expect(r).rejects.toBeInstanceOf(RunDeadlineError);
    await expect(queued).resolves.toMatchObject({ script: "after" });
    await settle(pool);
    expect(pool.stats()).toMatchObject({
      kind: "threads",
      size: 2,
      alive: 2,
      busy: 0,
      queued: 0,
      terminated: 2,
      cancelled: 0,
    });
    await expect(pool.run(job("again"))).resolves.toMatchObject({ script: "again" });
  }, 30_000);

  it("a cancelled job frees its thread; a job that throws rejects with its message", async () => {
    pool = new WorkerPool(ENTRY, { size: 1 });
    const ctrl = new AbortController();
    const spinning = pool.run(job("spin"), { signal: ctrl.signal });
    const waiting = pool.run(job("next"));
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });
    ctrl.abort();
    await expect(spinning).rejects.toBeInstanceOf(RunCancelledError);
    await expect(waiting).resolves.toMatchObject({ script: "next" });
    await expect(pool.run(job("throw"))).rejects.toThrow(/engine bug/);
    await settle(pool);
    expect(pool.stats()).toMatchObject({ alive: 1, busy: 0, terminated: 0, cancelled: 1 });
    // An already-aborted signal never starts the job.
    await expect(pool.run(job("x"), { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RunCancelledError);
  }, 30_000);

  it("hands a thread its next job while it runs one when nothing can abort either (jobsPerThread), even if this thread is busy", async () => {
    pool = new WorkerPool(ENTRY, { size: 1, jobsPerThread: 2 });
    await pool.warm();
    const first = pool.run(job("busy:300"));
    const second = pool.run(job("busy:10"));
    // this thread is busy (as the CLI's is with a trial of its own) while the worker ends the first job
    const blocked = Date.now();
    while (Date.now() - blocked < 1500);
    const a = (await first) as unknown as { end: number };
    const b = (await second) as unknown as { start: number };
    // the second job was already in the worker: it started when the first ended, not once this thread
    // read the first one's answer
    expect(b.start - a.end).toBeLessThan(500);
    expect(b.start).toBeLessThan(blocked + 1500);
  }, 30_000);

  it("an abortable job (a deadline) runs alone on its thread: the next one waits for its answer", async () => {
    pool = new WorkerPool(ENTRY, { size: 1, jobsPerThread: 2 });
    await pool.warm();
    const first = pool.run(job("busy:300", 30));
    const second = pool.run(job("busy:10", 30));
    const blocked = Date.now();
    while (Date.now() - blocked < 1000);
    const b = (await second) as unknown as { start: number };
    await first;
    expect(b.start).toBeGreaterThanOrEqual(blocked + 1000);
  }, 30_000);

  it("a run past its thread's heap cap gets RunMemoryError; the thread is replaced, the process lives on", async () => {
    pool = new WorkerPool(ENTRY, { size: 1, maxHeapMb: 32 });
    await expect(pool.run(job("hog"))).rejects.toBeInstanceOf(RunMemoryError);
    await expect(pool.run(job("after"))).resolves.toMatchObject({ script: "after" });
    await settle(pool);
    expect(pool.stats()).toMatchObject({ alive: 1, busy: 0 });
  }, 30_000);

  it("a batch of trial runs keeps the hard deadline per run: long batches of short runs end, a runaway run fails by its index", async () => {
    pool = new WorkerPool(ENTRY, { size: 1, maxHeapMb: 32 });
    await pool.warm();
    // timeoutSeconds 0.2: a run's hard deadline is 1.25 s (hardDeadlineSeconds)
    const batch = (...scripts: string[]): TrialBatch =>
      ({
        ...job("batch", 0.2),
        bars: null,
        barsKey: "k",
        runs: scripts.map((script) => ({ inputs: { script }, slice: [0, 0] })),
      }) as unknown as TrialBatch;
    // three runs of 0.8 s each: 2.4 s in all, each inside its own deadline
    const long = (await pool.trials(batch("busy:800", "busy:800", "busy:800"))) as unknown as { start: number }[];
    expect(long).toHaveLength(3);
    expect(pool.stats().terminated).toBe(0);
    const t0 = Date.now();
    const runaway = await pool.trials(batch("ok", "ok", "spin", "ok")).catch((e: unknown) => e);
    expect(runaway).toBeInstanceOf(RunDeadlineError);
    expect((runaway as { run?: number }).run).toBe(2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1200);
    const heap = await pool.trials(batch("ok", "hog")).catch((e: unknown) => e);
    expect(heap).toBeInstanceOf(RunMemoryError);
    expect((heap as { run?: number }).run).toBe(1);
    await expect(pool.trials(batch("a", "b"))).resolves.toMatchObject([{ script: "a" }, { script: "b" }]);
    await settle(pool);
    expect(pool.stats()).toMatchObject({ alive: 1, busy: 0, terminated: 1 });
  }, 30_000);
});
