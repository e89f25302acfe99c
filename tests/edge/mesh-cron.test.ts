// The evaluate worker and the trade service together under Miniflare (workerd, real D1, KV, R2 and
// the Durable Object): the faults an operator met before the outbox, replayed. Between them sits a
// "front" worker that records every call the evaluate worker makes (in its own D1, so concurrent
// calls are all counted) and fails the calls a test asks it to (faults row n: that call; -1: every
// call; -2: every call waits `status` ms first), then forwards to the real trade service.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type WorkerOptions } from "miniflare";
import { evaluateWorker } from "./worker-options.js";
import { buildEdgeWorker } from "../../src/ops/edge-build.js";
import { INTERNAL_KEY, meshWorker } from "../mesh/harness.js";

const FRONT = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const body = request.method === "GET" ? undefined : await request.text();
    if (request.method === "POST" && url.pathname === "/signal") {
      await env.DB.prepare("CREATE TABLE IF NOT EXISTS calls (n INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, status INTEGER)").run();
      await env.DB.prepare("CREATE TABLE IF NOT EXISTS faults (n INTEGER PRIMARY KEY, status INTEGER)").run();
      const key = JSON.parse(body).key;
      const row = await env.DB.prepare("INSERT INTO calls (key) VALUES (?) RETURNING n").bind(key).first();
      const slow = await env.DB.prepare("SELECT status FROM faults WHERE n = -2").first();
      if (slow) await new Promise((r) => setTimeout(r, slow.status));
      const fault = await env.DB.prepare("SELECT status FROM faults WHERE n = ? OR n = -1 ORDER BY n DESC LIMIT 1").bind(row.n).first();
      if (fault) {
        await env.DB.prepare("UPDATE calls SET status = ? WHERE n = ?").bind(fault.status, row.n).run();
        return Response.json({ status: "error", code: "INJECTED", message: "injected failure" }, { status: fault.status });
      }
    }
    const res = await env.MESH.fetch(request.url, { method: request.method, headers: request.headers, body });
    return res;
  },
};`;

// Three orders on every bar: buy 1, buy 2, sell 1.
const THREE = `//@version=6
strategy("three", pyramiding=10)
strategy.order("a", strategy.long, 1)
strategy.order("b", strategy.long, 2)
strategy.order("c", strategy.short, 1)
`;

function bars(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return {
      time: 1_700_000_000_000 + i * 60_000,
      open: 100 + i,
      high: 102 + i,
      low: 99 + i,
      close: 101 + i,
      volume: 1,
    };
  });
}

let mf: Miniflare;
type D1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;
let front: D1;
let mesh: D1;

async function edge(path: string, json?: unknown, method?: string) {
  const res = await mf.dispatchFetch(`http://edge.local${path}`, {
    method: method ?? (json === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json" },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function trade(path: string, json?: unknown, method?: string) {
  // Typed loosely: the project has no @cloudflare/workers-types.
  const worker = (await mf.getWorker("trade")) as unknown as {
    fetch(url: string, init: RequestInit): Promise<Response>;
  };
  const res = await worker.fetch(`http://trade.local${path}`, {
    method: method ?? (json === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", "x-internal-key": INTERNAL_KEY },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function n(db: D1, sql: string, ...args: unknown[]): Promise<number> {
  return (
    (
      (await db
        .prepare(sql)
        .bind(...args)
        .first()) as { n: number } | null
    )?.n ?? 0
  );
}
const calls = (job: string) => n(front, "SELECT COUNT(*) AS n FROM calls WHERE key LIKE ?1", `ev:${job}:%`);
const placed = (job: string) =>
  n(mesh, "SELECT COUNT(*) AS n FROM orders WHERE key LIKE ?1 AND status = 'placed'", `ev:${job}:%`);

async function setJob(id: string, symbol: string): Promise<void> {
  const jobs = ((await edge("/cron/jobs")).json.jobs as { id: string }[]).filter((j) => j.id !== id);
  await edge("/cron/jobs", { jobs: [...jobs, { id, script_id: "three", symbol, timeframe: "1" }] }, "PUT");
}

beforeAll(async () => {
  const bundle = await buildEdgeWorker();
  mf = new Miniflare({
    workers: [
      {
        ...(await evaluateWorker(bundle)),
        d1Databases: ["RESIN_DB"],
        bindings: { INTERNAL_KEY_BINDING: INTERNAL_KEY, OUTBOX_RETRY_BASE_MS: "0", OUTBOX_MAX_ATTEMPTS: "3" },
        serviceBindings: { TRADE_SERVICE: "front" },
      } as WorkerOptions,
      {
        name: "front",
        modules: true,
        script: FRONT,
        compatibilityDate: "2024-11-01",
        d1Databases: { DB: "front-db" },
        serviceBindings: { MESH: "trade" },
      } as WorkerOptions,
      await meshWorker({ RATE_PER_KEY_PER_MIN: "100000", RATE_PER_SYMBOL_PER_MIN: "100000" }),
    ],
  });
  front = await mf.getD1Database("DB", "front");
  mesh = await mf.getD1Database("MESH_DB", "trade");
  await edge("/scripts", { id: "three", source: THREE });
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("evaluate worker -> outbox -> trade service", () => {
  it("three concurrent /cron/run after one new bar place each order once", async () => {
    await edge("/ingest", { symbol: "CC", timeframe: "1", bars: bars(0, 5) });
    await setJob("cc", "CC");
    const runs = await Promise.all([1, 2, 3].map(() => edge("/cron/run", { job_id: "cc" })));
    const outcomes = runs.map((r) => r.json.results[0]);
    // One run processed the bar; the others found it locked or already processed.
    expect(outcomes.filter((o) => o.status === "ran")).toHaveLength(1);
    expect(outcomes.find((o) => o.status === "ran")).toMatchObject({ events: 3, queued: 3 });
    expect(await calls("cc")).toBe(3);
    expect(await placed("cc")).toBe(3);
    // A new bar, again three at once (the scheduled handler among them).
    await edge("/ingest", { symbol: "CC", timeframe: "1", bars: bars(5, 1) });
    const worker = (await mf.getWorker("resin")) as unknown as { scheduled(o: { cron: string }): Promise<unknown> };
    await Promise.all([
      edge("/cron/run", {}),
      edge("/cron/run", { job_id: "cc" }),
      worker.scheduled({ cron: "* * * * *" }),
    ]);
    expect(await calls("cc")).toBe(6);
    expect(await placed("cc")).toBe(6);
    const log = (await edge("/trades?limit=6")).json.trades;
    expect(log).toHaveLength(6);
    expect(log.every((t: any) => t.status === "placed" && t.meta.job_id === "cc")).toBe(true);
  }, 60_000);

  it("a 500 on the 2nd of 3 events: the job says so, loses nothing, and the next run delivers 2 and 3 in order", async () => {
    await edge("/ingest", { symbol: "F", timeframe: "1", bars: bars(0, 5) });
    await setJob("f", "F");
    const before = await n(front, "SELECT COALESCE(MAX(n), 0) AS n FROM calls");
    await front
      .prepare("INSERT INTO faults (n, status) VALUES (?1, 500)")
      .bind(before + 2)
      .run();
    const first = (await edge("/cron/run", { job_id: "f" })).json.results[0];
    expect(first).toMatchObject({ status: "error", events: 3, queued: 3, forwarded: 1, failed: 1, pending: 2 });
    expect(first.reason).toMatch(/500 INJECTED/);
    expect(await placed("f")).toBe(1);
    const depth = (await edge("/outbox")).json.depth;
    expect(depth.find((d: any) => d.channel === "order" && d.status === "pending").count).toBeGreaterThanOrEqual(2);
    // The bar is processed (no re-run), and the next invocation retries what is pending.
    const second = (await edge("/cron/run", { job_id: "f" })).json.results[0];
    expect(second).toMatchObject({ status: "skipped", reason: "no new closed bar", forwarded: 2, pending: 0 });
    expect(await placed("f")).toBe(3);
    const order = (
      await mesh.prepare("SELECT key FROM orders WHERE key LIKE 'ev:f:%' ORDER BY placed_at, rowid").all()
    ).results.map((r: any) => r.key.split(":").at(-1));
    expect(order).toEqual(["0", "1", "2"]);
    // force re-runs the bar: the same keys, nothing new is queued or placed.
    const forced = (await edge("/cron/run", { job_id: "f", force: true })).json.results[0];
    expect(forced).toMatchObject({ status: "ran", events: 0, queued: 0 });
    expect(await placed("f")).toBe(3);
  }, 60_000);

  it("a trade service down for good dead-letters after the attempts, visible in /outbox", async () => {
    await edge("/ingest", { symbol: "D", timeframe: "1", bars: bars(0, 3) });
    await setJob("d", "D");
    await front.prepare("INSERT INTO faults (n, status) VALUES (-1, 503)").run();
    try {
      for (let i = 0; i < 4; i++) await edge("/cron/run", { job_id: "d" });
    } finally {
      await front.prepare("DELETE FROM faults WHERE n = -1").run();
    }
    const out = (await edge("/outbox")).json;
    const dead = out.dead_letters.filter((r: any) => r.stream === "order:d");
    expect(dead.length).toBeGreaterThanOrEqual(1);
    expect(dead[0]).toMatchObject({ channel: "order", status: "dead", attempts: 3 });
    expect(dead[0].last_error).toMatch(/503/);
    expect(await placed("d")).toBe(0);
  }, 60_000);

  it("the kill switch turned on at the trade service (evaluate worker not involved) cancels orders queued before it", async () => {
    await edge("/ingest", { symbol: "K", timeframe: "1", bars: bars(0, 4) });
    await setJob("k", "K");
    // The trade service is unreachable while the bar is processed: its orders wait in the outbox.
    await front.prepare("INSERT INTO faults (n, status) VALUES (-1, 503)").run();
    const run = (await edge("/cron/run", { job_id: "k" })).json.results[0];
    expect(run).toMatchObject({ queued: 3, pending: 3 });
    await front.prepare("DELETE FROM faults WHERE n = -1").run();
    expect((await trade("/kill-switch", { on: true }, "PUT")).json.on).toBe(true);
    expect((await trade("/kill-switch", { on: false }, "PUT")).json.on).toBe(false);
    // Even after it is off again, what was queued before it never goes out.
    await edge("/cron/run", { job_id: "k" });
    expect(await placed("k")).toBe(0);
    const rows = (await mf.getD1Database("RESIN_DB", "resin"))
      .prepare("SELECT status FROM outbox WHERE stream = 'order:k'")
      .all();
    expect((await rows).results.map((r: any) => r.status)).toEqual(["cancelled", "cancelled", "cancelled"]);
  }, 60_000);

  it("the kill switch turned on mid-batch stops the batch at the next order (the 26-of-28 fault)", async () => {
    await edge("/ingest", { symbol: "MB", timeframe: "1", bars: bars(0, 3) });
    await setJob("mb", "MB");
    await front.prepare("INSERT INTO faults (n, status) VALUES (-1, 503)").run();
    await edge("/cron/run", { job_id: "mb" });
    // Ten new bars at once: 30 orders queued while the trade service is unreachable.
    await edge("/ingest", { symbol: "MB", timeframe: "1", bars: bars(3, 10) });
    const queued = (await edge("/cron/run", { job_id: "mb" })).json.results[0];
    expect(queued.queued).toBe(30);
    await front.prepare("DELETE FROM faults WHERE n = -1").run();
    // The trade service is back (100 ms a call): a drain starts, and the switch goes on while it runs.
    await front.prepare("INSERT INTO faults (n, status) VALUES (-2, 100)").run();
    const drain = edge("/cron/run", { job_id: "mb" });
    while ((await placed("mb")) < 5) await new Promise((r) => setTimeout(r, 20));
    const on = (await trade("/kill-switch", { on: true }, "PUT")).json;
    await drain;
    await front.prepare("DELETE FROM faults WHERE n = -2").run();
    const after = await n(
      mesh,
      "SELECT COUNT(*) AS n FROM orders WHERE key LIKE 'ev:mb:%' AND status = 'placed' AND placed_at > ?1",
      on.updated_at,
    );
    const total = await placed("mb");
    const halted = await n(mesh, "SELECT COUNT(*) AS n FROM orders WHERE key LIKE 'ev:mb:%' AND status = 'halted'");
    console.log(`mid-batch kill switch: ${total} of 33 orders placed, ${after} after 'on' (the one in flight at most)`);
    expect(total).toBeLessThan(33);
    expect(after).toBeLessThanOrEqual(1);
    expect(halted).toBeGreaterThan(0);
    await trade("/kill-switch", { on: false }, "PUT");
  }, 60_000);

  it("the evaluate worker's PUT /kill-switch relays to the trade service and cancels its own queue at once", async () => {
    await edge("/ingest", { symbol: "K2", timeframe: "1", bars: bars(0, 4) });
    await setJob("k2", "K2");
    await front.prepare("INSERT INTO faults (n, status) VALUES (-1, 503)").run();
    await edge("/cron/run", { job_id: "k2" });
    await front.prepare("DELETE FROM faults WHERE n = -1").run();
    const on = await edge("/kill-switch", { on: true }, "PUT");
    expect(on.json).toMatchObject({ status: "success", on: true, cancelled_queued: 3 });
    expect((await edge("/kill-switch")).json.on).toBe(true);
    expect((await trade("/kill-switch")).json.on).toBe(true);
    await edge("/kill-switch", { on: false }, "PUT");
    expect((await edge("/kill-switch")).json.on).toBe(false);
    expect(await placed("k2")).toBe(0);
  }, 60_000);
});
