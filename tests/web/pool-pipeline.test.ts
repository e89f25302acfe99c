// Pipelined jobs on the worker pool (a busy worker holds its next optimize trial), and the compact
// trial reply: a study fed with it gives exactly the result of one fed with full run results.

import { readFileSync } from "node:fs";
import { MessageChannel } from "node:worker_threads";
import { nodeEndpoint } from "../helpers/node-endpoint.js";
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { optimize, type OptimizeRequest, type TrialRunner } from "../../src/optimize/index.js";
import { CancelledError, PIPELINE_DEPTH, WorkerPool } from "../../src/worker/pool.js";
import { packBars, trialOutcome, trialReply, type PackedBars } from "../../src/worker/protocol.js";
import type { Bar } from "../../src/core/result.js";

/** Stand-in workers that record how many calls each holds at once and how often it got bars. */
function fakeWorkers(delayMs: number) {
  const stats: { maxHeld: number; held: number; barsSent: number; ran: string[] }[] = [];
  const factory = () => {
    const st = { maxHeld: 0, held: 0, barsSent: 0, ran: [] as string[] };
    stats.push(st);
    const { port1, port2 } = new MessageChannel();
    const bars = new Map<string, PackedBars>();
    Comlink.expose(
      {
        setBars: async (key: string, b: PackedBars) => {
          st.barsSent++;
          await new Promise((r) => setTimeout(r, 5));
          bars.set(key, b);
        },
        dropBars: (key: string) => void bars.delete(key),
        run: async (req: { barsKey: string; source: string }) => {
          st.held++;
          st.maxHeld = Math.max(st.maxHeld, st.held);
          await new Promise((r) => setTimeout(r, delayMs));
          st.held--;
          if (!bars.has(req.barsKey)) throw new Error("no bars");
          st.ran.push(req.source);
          return req.source;
        },
      },
      nodeEndpoint(port2) as Comlink.Endpoint,
    );
    return Object.assign(nodeEndpoint(port1), { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker;
  };
  return { factory, stats };
}

const bars = packBars([
  { time: 1, open: 1, high: 2, low: 0, close: 1 },
  { time: 2, open: 1, high: 2, low: 0, close: 1 },
]);

const run = (pool: WorkerPool, source: string, pipeline: boolean) =>
  pool.exec("k", (api) => (api as any).run({ barsKey: "k", source }) as Promise<string>, { pipeline });

describe("pipelined jobs", () => {
  it("a busy worker holds up to PIPELINE_DEPTH pipelined jobs; plain jobs wait for an idle one", async () => {
    for (const pipeline of [true, false]) {
      const f = fakeWorkers(15);
      const pool = new WorkerPool(f.factory, 2);
      pool.setBars("k", bars);
      const sources = Array.from({ length: 12 }, (_, i) => `s${i}`);
      expect(await Promise.all(sources.map((s) => run(pool, s, pipeline)))).toEqual(sources);
      expect(f.stats).toHaveLength(2);
      for (const st of f.stats) {
        expect(st.maxHeld).toBe(pipeline ? PIPELINE_DEPTH : 1);
        expect(st.barsSent).toBe(1); // the second job waited for the first one's bar transfer
      }
      expect(f.stats.flatMap((s) => s.ran).sort()).toEqual([...sources].sort());
      pool.terminate();
    }
  });

  it("spreads pipelined jobs over idle and new workers before doubling up", async () => {
    const f = fakeWorkers(15);
    const pool = new WorkerPool(f.factory, 3);
    pool.setBars("k", bars);
    await Promise.all(["a", "b", "c"].map((s) => run(pool, s, true)));
    expect(f.stats.map((s) => s.maxHeld)).toEqual([1, 1, 1]);
    pool.terminate();
  });

  it("cancel rejects every job a worker holds and the pool keeps working", async () => {
    const f = fakeWorkers(200);
    const pool = new WorkerPool(f.factory, 1);
    pool.setBars("k", bars);
    const jobs = ["a", "b", "c"].map((s) => run(pool, s, true));
    await new Promise((r) => setTimeout(r, 30));
    pool.cancelAll();
    for (const j of jobs) await expect(j).rejects.toBeInstanceOf(CancelledError);
    expect(await run(pool, "after", true)).toBe("after");
    expect(f.stats).toHaveLength(2);
    expect(f.stats[1]!.barsSent).toBe(1);
    pool.terminate();
  });
});

describe("trial replies", () => {
  const script = `//@version=6
strategy("MA cross", initial_capital = 10000, default_qty_type = strategy.percent_of_equity, default_qty_value = 50)
fastLen = input.int(10, "Fast length", minval = 2, maxval = 60)
slowLen = input.int(30, "Slow length", minval = 10, maxval = 200)
fast = ta.sma(close, fastLen)
slow = ta.sma(close, slowLen)
if ta.crossover(fast, slow)
    strategy.entry("Long", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("Short", strategy.short)
if fastLen == 13
    runtime.error("thirteen")
`;
  const sample = JSON.parse(
    readFileSync(new URL("../../web/public/samples/btc-like-1d.json", import.meta.url), "utf8"),
  ) as Record<string, number[]>;
  const data: Bar[] = sample.time!.slice(0, 600).map((time, i) => ({
    time,
    open: sample.open![i]!,
    high: sample.high![i]!,
    low: sample.low![i]!,
    close: sample.close![i]!,
    volume: sample.volume![i]!,
  }));

  it("a study fed compact replies gives the result of one fed full run results", async () => {
    const full: TrialRunner = (inputs, slice) => new Runtime("CHART").run(script, slice, { inputs, mode: "interpret" });
    let bytes = 0;
    const compact: TrialRunner = async (inputs, slice) => {
      const { reply, transfer } = trialReply((await full(inputs, slice)) as never, 1);
      bytes += transfer.reduce((a, b) => a + b.byteLength, 0);
      return trialOutcome(reply);
    };
    for (const validation of [
      { mode: "holdout" },
      { mode: "walk-forward", train_bars: 300, test_bars: 100, step_bars: 100 },
    ]) {
      const req: OptimizeRequest = {
        script,
        data,
        validation,
        n_trials: 12,
        sampler: "grid",
        seed: 3,
        min_trades: 1,
        space: {
          params: [
            { name: "Fast length", kind: "int", min: 5, max: 15, step: 4 },
            { name: "Slow length", kind: "int", min: 20, max: 40, step: 10 },
          ],
        },
      };
      const a = await optimize(req, full);
      const b = await optimize(req, compact, { concurrency: 3 });
      const strip = (r: typeof a) => ({ ...r, ms: 0, trials: r.trials.map((t) => ({ ...t, ms: 0 })) });
      expect(strip(b)).toEqual(strip(a));
      expect(
        a.trials.some((t) => t.error?.includes("thirteen")),
        JSON.stringify(a.trials.map((t) => [t.params, t.error, t.is_stats?.trades])),
      ).toBe(true);
      expect(a.trials.filter((t) => !t.error).every((t) => (t.is_stats?.trades ?? 0) > 0)).toBe(true);
    }
    expect(bytes).toBeGreaterThan(0);
  });
});
