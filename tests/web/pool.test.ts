import { MessageChannel } from "node:worker_threads";
import { nodeEndpoint } from "../helpers/node-endpoint.js";
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { CancelledError, DeadlineError, WorkerPool } from "../../src/worker/pool.js";
import { packBars, type PackedBars } from "../../src/worker/protocol.js";

/** A stand-in worker: a MessageChannel whose far end exposes a tiny api like the runtime worker's. */
function fakeWorkerFactory(log: string[], delayMs = 20) {
  let made = 0;
  const factory = () => {
    const id = made++;
    const { port1, port2 } = new MessageChannel();
    const bars = new Map<string, PackedBars>();
    Comlink.expose(
      {
        setBars: (key: string, b: PackedBars) => void bars.set(key, b),
        dropBars: (key: string) => void bars.delete(key),
        run: async (req: { barsKey: string; source: string }) => {
          log.push(`w${id}:${req.source}`);
          await new Promise((r) => setTimeout(r, delayMs));
          const b = bars.get(req.barsKey);
          if (!b) throw new Error("no bars");
          return { count: b.time.length, worker: id };
        },
      },
      nodeEndpoint(port2) as Comlink.Endpoint,
    );
    return Object.assign(nodeEndpoint(port1), { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker;
  };
  return { factory, made: () => made };
}

const bars = packBars([
  { time: 1, open: 1, high: 2, low: 0, close: 1 },
  { time: 2, open: 1, high: 2, low: 0, close: 1 },
]);

describe("WorkerPool", () => {
  it("spreads jobs over at most `size` workers and sends each its bars once", async () => {
    const log: string[] = [];
    const f = fakeWorkerFactory(log);
    const pool = new WorkerPool(f.factory, 2);
    pool.setBars("k", bars);
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map((i) => pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: `s${i}` }))),
    );
    expect(results.map((r: any) => r.count)).toEqual([2, 2, 2, 2, 2]);
    expect(f.made()).toBe(2);
    expect(new Set(results.map((r: any) => r.worker))).toEqual(new Set([0, 1]));
    expect(log).toHaveLength(5);
    pool.terminate();
  });

  it("rejects a job for bars it was never given", async () => {
    const pool = new WorkerPool(fakeWorkerFactory([]).factory, 1);
    await expect(pool.exec("missing", async () => 1)).rejects.toThrow(/unknown bar set "missing"/);
    pool.terminate();
  });

  it("cancel rejects queued and running jobs, and the pool keeps working", async () => {
    const log: string[] = [];
    const f = fakeWorkerFactory(log, 200);
    const pool = new WorkerPool(f.factory, 1);
    pool.setBars("k", bars);
    const running = pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: "long" }));
    const queued = pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: "queued" }));
    await new Promise((r) => setTimeout(r, 30));
    pool.cancelAll();
    await expect(running).rejects.toBeInstanceOf(CancelledError);
    await expect(queued).rejects.toBeInstanceOf(CancelledError);
    // a fresh worker replaces the terminated one, and gets the bars again
    const after = await pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: "after" }));
    expect((after as any).count).toBe(2);
    expect(f.made()).toBe(2);
    expect(log).not.toContain("w0:queued");
    pool.terminate();
  });

  it("a job past its deadline terminates its worker, fails with RUN_DEADLINE_EXCEEDED, and a fresh worker serves the next job", async () => {
    const log: string[] = [];
    const f = fakeWorkerFactory(log, 20);
    const pool = new WorkerPool(f.factory, 1);
    pool.setBars("k", bars);
    // a worker stuck in one call: the job never answers (as a script inside one long builtin call)
    const stuck = pool.exec("k", () => new Promise<never>(() => {}), { deadlineMs: 80 });
    const err = await stuck.catch((e) => e);
    expect(err).toBeInstanceOf(DeadlineError);
    expect(err.code).toBe("RUN_DEADLINE_EXCEEDED");
    expect(pool.busyCount).toBe(0);
    const after = await pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: "after" }), {
      deadlineMs: 5_000,
    });
    expect((after as any).worker).toBe(1); // the replacement, which got the bars again
    expect((after as any).count).toBe(2);
    expect(f.made()).toBe(2);
    pool.terminate();
  });

  it("a job that finishes in time clears its deadline (its worker is kept)", async () => {
    const f = fakeWorkerFactory([], 10);
    const pool = new WorkerPool(f.factory, 1);
    pool.setBars("k", bars);
    for (let i = 0; i < 3; i++)
      await pool.exec("k", (api) => (api as any).run({ barsKey: "k", source: `s${i}` }), { deadlineMs: 2_000 });
    await new Promise((r) => setTimeout(r, 50));
    expect(f.made()).toBe(1);
    pool.terminate();
  });
});
