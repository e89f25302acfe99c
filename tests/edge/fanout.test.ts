// Fanned-out optimize studies under Miniflare 3 (real workerd): the edge bundle with its
// StudyCoordinator Durable Object, R2 and the EVALUATE service binding. One deployment binds the
// worker to itself; the other puts a proxy worker in between that injects failures, hangs and delays
// into chosen batches and logs every batch it passes on, so retries and cancellation are observed
// from outside the coordinator. Every fanned-out result is compared with the in-process study (Node,
// the same optimize module) given the same request and seed.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type WorkerOptions } from "miniflare";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEdgeWorker, edgeModules } from "../../src/ops/edge-build.js";
import { prepareStudy, runStudy, type OptimizeRequest, type OptimizeResult } from "../../src/optimize/index.js";
import { createInProcessEngine, studyTrialRunner, TRIAL_BROKER } from "../../src/server/engine.js";
import { FANOUT_CAPS } from "../../src/edge/fanout-limits.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";

const KEY = "fan-key";
const STRATEGY = `//@version=6
strategy("fan", overlay=true)
len = input.int(10, "Length", minval=2, maxval=30)
band = input.float(0.5, "Band", minval=0, maxval=2)
basis = ta.sma(close, len)
if close > basis + band
    strategy.entry("L", strategy.long)
if close < basis - band
    strategy.close("L")
`;
const SPACE = {
  params: [
    { name: "Length", kind: "int", min: 2, max: 30 },
    { name: "Band", kind: "float", min: 0, max: 2 },
  ],
};
const BARS = randomWalkBars(120);

// Passes batches on to the edge worker, logging each; /__mode sets which batches (by first trial
// index) fail or hang on their first attempt, and a delay for every batch.
const PROXY = `
let mode = { fail: [], hang: [], hangMs: 0, delay: 0 };
const log = [];
export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    if (url.pathname === "/__mode") { mode = await req.json(); log.length = 0; return Response.json({ ok: true }); }
    if (url.pathname === "/__log") return Response.json(log);
    const text = await req.text();
    const body = JSON.parse(text);
    const first = body.trials && body.trials.length ? body.trials[0].index : -1;
    const seen = log.filter((x) => x === first).length;
    log.push(first);
    if (mode.delay) await new Promise((r) => setTimeout(r, mode.delay));
    if (seen === 0 && mode.fail.includes(first)) return new Response("injected failure", { status: 500 });
    if (seen === 0 && mode.hang.includes(first)) await new Promise((r) => setTimeout(r, mode.hangMs));
    return env.EDGE.fetch(req.url, { method: "POST", headers: req.headers, body: text });
  },
};`;

let direct: Miniflare;
let proxied: Miniflare;

function edgeWorker(modules: WorkerOptions["modules"], evaluate: string): WorkerOptions {
  return {
    name: "edge",
    modules,
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["RESIN_KV"],
    r2Buckets: ["RESIN_BARS"],
    durableObjects: { STUDIES: "StudyCoordinator" },
    serviceBindings: { EVALUATE: evaluate },
    bindings: { API_KEY: KEY },
  } as WorkerOptions;
}

beforeAll(async () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const dir = join(root, "build", `edge-fanout-${process.pid}`);
  const bundle = await buildEdgeWorker(dir);
  const modules = (await edgeModules(bundle)) as WorkerOptions["modules"];
  // (Miniflare gets the modules' contents: the directory goes, not one left per test process)
  await rm(dir, { recursive: true, force: true });
  // the worker's one log line per request (hundreds of batches) is not wanted here; workerd's errors are
  const handleRuntimeStdio = (out: NodeJS.ReadableStream, err: NodeJS.ReadableStream) => {
    out.resume();
    err.pipe(process.stderr);
  };
  direct = new Miniflare({ workers: [edgeWorker(modules, "edge")], handleRuntimeStdio } as never);
  proxied = new Miniflare({
    handleRuntimeStdio,
    workers: [
      edgeWorker(modules, "proxy"),
      {
        name: "proxy",
        modules: true,
        script: PROXY,
        compatibilityDate: "2024-11-01",
        serviceBindings: { EDGE: "edge" },
      },
    ],
  });
  await Promise.all([direct.ready, proxied.ready]);
}, 180_000);

afterAll(async () => {
  await direct?.dispose();
  await proxied?.dispose();
});

async function call(mf: Miniflare, path: string, init: { method?: string; json?: unknown } = {}) {
  const method = init.method ?? (init.json === undefined ? "GET" : "POST");
  const send = () =>
    mf.dispatchFetch(`http://edge.local${path}`, {
      method,
      headers: { "content-type": "application/json", "x-api-key": KEY },
      ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
    });
  // a poll that meets a keep-alive connection workerd just closed (seen on a loaded machine) is sent again
  const res = await send().catch((e: unknown) => {
    if (method !== "GET") throw e;
    return send();
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function proxy(path: string, json?: unknown): Promise<any> {
  const w = (await proxied.getWorker("proxy")) as unknown as {
    fetch(url: string, init: RequestInit): Promise<Response>;
  };
  const res = await w.fetch(`http://proxy${path}`, {
    method: json === undefined ? "GET" : "POST",
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return res.json();
}

/** Polls a study until it leaves `running`. */
async function settle(mf: Miniflare, id: string, timeoutMs = 90_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const s = (await call(mf, `/studies/${id}`)).json;
    if (s.state !== "running") return s;
    if (Date.now() > until) throw new Error(`study ${id} still running: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The in-process study (Node) for the same request, with the fan-out's caps. */
async function local(req: Omit<OptimizeRequest, "script" | "data" | "space">): Promise<OptimizeResult> {
  const study = prepareStudy({ script: STRATEGY, data: BARS, space: SPACE, ...req }, FANOUT_CAPS);
  const runner = studyTrialRunner(createInProcessEngine(), study, {
    script: STRATEGY,
    symbol: "CHART",
    broker: TRIAL_BROKER,
    options: { mode: "auto" },
  });
  return runStudy(study, runner, { concurrency: 4 });
}

/** A result as JSON carries it, without wall times. */
const comparable = (r: any) =>
  JSON.parse(JSON.stringify({ ...r, ms: 0, trials: r.trials.map((t: any) => ({ ...t, ms: 0 })) }));

describe("fanned-out studies", () => {
  it("a 400-trial TPE study over 8 concurrent invocations is the local study with the same seed", async () => {
    const started = await call(direct, "/studies", {
      json: { script: STRATEGY, data: BARS, space: SPACE, n_trials: 400, seed: 11, concurrency: 8, min_trades: 1 },
    });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ sampler: "tpe", parallelism: 32, batch_size: 4, concurrency: 8, total: 400 });
    const done = await settle(direct, started.json.id);
    expect(done.state).toBe("done");
    expect(done.batches).toMatchObject({ dispatched: 100, succeeded: 100, retried: 0, in_flight: 0, max_in_flight: 8 });
    const mine = await local({ n_trials: 400, seed: 11, min_trades: 1, parallelism: 32 });
    expect(mine.trials).toHaveLength(400);
    expect(comparable(done.result)).toEqual(comparable(mine));
    expect(done.result.best_index).not.toBeNull();
  }, 180_000);

  it("random proposals ignore the generation size: the fanned-out study is the default local one; bars are stored once", async () => {
    const body = { script: STRATEGY, data: BARS, space: SPACE, n_trials: 400, sampler: "random", seed: 5 };
    const a = await call(direct, "/studies", { json: { ...body, concurrency: 8 } });
    expect(a.json).toMatchObject({ parallelism: 1, batch_size: 13 });
    // the same bars by their id, no data sent
    const b = await call(direct, "/studies", {
      json: { ...body, data: null, bars_id: a.json.bars_id, concurrency: 3, batch_size: 50 },
    });
    expect(b.status).toBe(202);
    const [ra, rb] = [await settle(direct, a.json.id), await settle(direct, b.json.id)];
    const mine = await local({ n_trials: 400, sampler: "random", seed: 5 });
    expect(comparable(ra.result)).toEqual(comparable(mine));
    expect(comparable(rb.result)).toEqual(comparable(mine));
    const r2 = (await direct.getR2Bucket("RESIN_BARS", "edge")) as unknown as {
      list(o: { prefix: string }): Promise<{ objects: { key: string }[] }>;
    };
    const stored = await r2.list({ prefix: "studies/bars/" }).catch(() => r2.list({ prefix: "studies/bars/" }));
    expect(stored.objects.map((o) => o.key)).toEqual([`studies/bars/${a.json.bars_id}.json`]);
  }, 180_000);

  it("walk-forward with only the winner scored out of sample (its own batch): the local result", async () => {
    const validation = { mode: "walk-forward", train_bars: 60, test_bars: 20, warmup_bars: 30 };
    const body = { n_trials: 60, seed: 2, sampler: "tpe", validation, oos_every_trial: false, min_trades: 1 };
    const started = await call(direct, "/studies", {
      json: { script: STRATEGY, data: BARS, space: SPACE, ...body, concurrency: 4, parallelism: 6, batch_size: 3 },
    });
    expect(started.status).toBe(202);
    const done = await settle(direct, started.json.id);
    expect(done.state).toBe("done");
    // batches of up to 3 (one cut short where a proposal waits for its generation's predecessors), and one for the winner
    expect(done.batches).toMatchObject({ dispatched: 22, succeeded: 22, retried: 0 });
    const mine = await local({ ...body, parallelism: 6 });
    expect(mine.best_oos_score).not.toBeNull();
    expect(comparable(done.result)).toEqual(comparable(mine));
  }, 120_000);

  it("two data sets (symbols, timeframes), scores aggregated: the local study with a runner per set", async () => {
    const other = randomWalkBars(200).slice(60);
    const datasets = [
      { data: BARS, symbol: "AAA", timeframe: "60" },
      { data: other, symbol: "BBB", timeframe: "D" },
    ];
    const body = { n_trials: 80, seed: 8, sampler: "tpe", min_trades: 1, aggregate: "min", parallelism: 8 };
    const started = await call(direct, "/studies", {
      json: { script: STRATEGY, space: SPACE, datasets, ...body, concurrency: 4 },
    });
    expect(started.status).toBe(202);
    expect(started.json.bars_ids).toHaveLength(2);
    const done = await settle(direct, started.json.id);
    expect(done.state).toBe("done");
    const study = prepareStudy({ script: STRATEGY, data: null, space: SPACE, datasets, ...body }, FANOUT_CAPS);
    const engine = createInProcessEngine();
    const runners = study.sets.map((set) =>
      studyTrialRunner(
        engine,
        { ...study, bars: set.bars },
        {
          script: STRATEGY,
          symbol: set.symbol as string,
          timeframe: set.timeframe,
          broker: TRIAL_BROKER,
          options: { mode: "auto" },
        },
      ),
    );
    const mine = await runStudy(study, runners, { concurrency: 4 });
    expect(mine.trials[20]!.sets).toHaveLength(2);
    expect(comparable(done.result)).toEqual(comparable(mine));
  }, 120_000);

  it("a failing batch and a batch past its deadline are retried; the result is unchanged", async () => {
    await proxy("/__mode", { fail: [40], hang: [80], hangMs: 8000, delay: 0 });
    const started = await call(proxied, "/studies", {
      json: {
        script: STRATEGY,
        data: BARS,
        space: SPACE,
        n_trials: 120,
        sampler: "random",
        seed: 3,
        batch_size: 10,
        concurrency: 4,
        batch_deadline_ms: 3000,
      },
    });
    const done = await settle(proxied, started.json.id);
    expect(done.state).toBe("done");
    // 12 batches, two of them sent twice (a loaded machine may push another past its deadline too)
    expect(done.batches.succeeded).toBe(12);
    expect(done.batches.retried).toBeGreaterThanOrEqual(2);
    expect(done.batches.dispatched).toBe(12 + done.batches.retried);
    const log: number[] = await proxy("/__log");
    expect(log.filter((x) => x === 40).length).toBeGreaterThanOrEqual(2);
    expect(log.filter((x) => x === 80).length).toBeGreaterThanOrEqual(2);
    expect(comparable(done.result)).toEqual(comparable(await local({ n_trials: 120, sampler: "random", seed: 3 })));
  }, 120_000);

  it("a batch that fails every attempt fails the study with BATCH_FAILED", async () => {
    await proxy("/__mode", { fail: [20], hang: [], hangMs: 0, delay: 0 });
    const started = await call(proxied, "/studies", {
      json: {
        script: STRATEGY,
        data: BARS,
        space: SPACE,
        n_trials: 60,
        sampler: "random",
        batch_size: 10,
        max_retries: 0,
      },
    });
    const done = await settle(proxied, started.json.id);
    expect(done.state).toBe("failed");
    expect(done.error).toMatchObject({ code: "BATCH_FAILED" });
    expect(done.error.message).toContain("HTTP 500");
  }, 60_000);

  it("a cancelled study stops dispatching its batches", async () => {
    await proxy("/__mode", { fail: [], hang: [], hangMs: 0, delay: 150 });
    const started = await call(proxied, "/studies", {
      json: {
        script: STRATEGY,
        data: BARS,
        space: SPACE,
        n_trials: 400,
        sampler: "random",
        batch_size: 5,
        concurrency: 2,
      },
    });
    const id = started.json.id;
    for (let i = 0; i < 200; i++) {
      if ((await call(proxied, `/studies/${id}`)).json.completed >= 10) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancelled = await call(proxied, `/studies/${id}`, { method: "DELETE" });
    expect(cancelled.json.state).toBe("cancelled");
    await new Promise((r) => setTimeout(r, 600));
    const seen = (await proxy("/__log")).length;
    await new Promise((r) => setTimeout(r, 800));
    expect((await proxy("/__log")).length).toBe(seen);
    expect(seen).toBeLessThan(80);
    const after = (await call(proxied, `/studies/${id}`)).json;
    expect(after).toMatchObject({ state: "cancelled", batches: { in_flight: 0 } });
    expect(after.completed).toBeLessThan(400);
    expect(after.result).toBeUndefined();
  }, 60_000);

  it("a study past the plan's limits is refused up front with a coded error", async () => {
    const body = { script: STRATEGY, data: BARS, space: SPACE, sampler: "random" };
    const free = await call(direct, "/studies", { json: { ...body, n_trials: 100, batch_size: 20, plan: "free" } });
    expect(free.status).toBe(400);
    expect(free.json).toMatchObject({ code: "BATCH_CPU_EXCEEDED", plan: "free", max_cpu_ms: 10 });
    const many = await call(direct, "/studies", {
      json: { ...body, n_trials: 10_000, batch_size: 1, max_retries: 2, plan: "paid" },
    });
    expect(many.status).toBe(400);
    expect(many.json).toMatchObject({ code: "TOO_MANY_SUBREQUESTS", estimated: 30_000, max: 10_000 });
    // TPE's proposals grow with the square of the trials, all in the coordinator's one alarm
    const tpe = await call(direct, "/studies", { json: { ...body, sampler: "tpe", n_trials: 5000 } });
    expect(tpe.status).toBe(400);
    expect(tpe.json).toMatchObject({ code: "COORDINATOR_CPU_EXCEEDED", estimated_cpu_ms: 100_000, max_cpu_ms: 30_000 });
    const runs = await call(direct, "/studies", {
      json: { ...body, n_trials: 10_000, validation: { mode: "walk-forward", train_bars: 40, test_bars: 10 } },
    });
    expect(runs.json).toMatchObject({ code: "TOO_MANY_RUNS", max_runs: FANOUT_CAPS.engineRuns });
    expect((await call(direct, "/studies/00000000-0000-0000-0000-000000000000")).status).toBe(404);
  }, 60_000);
});
