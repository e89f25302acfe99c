// The edge worker for real under Miniflare 3 (workerd): the esbuild bundle with kernels.wasm as a
// CompiledWasm module, KV + R2 + D1 bindings, and a second local worker standing in for the trade
// service, recording every signal it receives in its own KV namespace (the real trade service is
// exercised in mesh-cron.test.ts).

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type MiniflareOptions, type WorkerOptions } from "miniflare";
import { buildEdgeWorker, edgeModules } from "../../src/ops/edge-build.js";

const KEY = "test-key-123";
const TRADE_SERVICE = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/signal") {
      const body = await request.text();
      const n = Number((await env.RECORD.get("count")) ?? "0");
      await env.RECORD.put("msg:" + String(n).padStart(4, "0"), body);
      await env.RECORD.put("count", String(n + 1));
      return Response.json({ status: "success" });
    }
    return new Response("not found", { status: 404 });
  },
};`;

const INDICATOR = '//@version=6\nindicator("x")\nplot(close, "c")\n';
// Enters long on every bar whose close is above its open, closes otherwise.
const STRATEGY = `//@version=6
strategy("edge", overlay=true)
if close > open
    strategy.entry("L", strategy.long)
else
    strategy.close("L")
plot(close, "c")
`;
// An indicator that raises an alert() on every bar: alerts are not orders.
const ALERTING = `//@version=6
indicator("alerts")
alert("tick " + str.tostring(close))
plot(close, "c")
`;

function bars(from: number, n: number) {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    const open = 100 + i;
    const close = i % 2 ? open + 1 : open - 1;
    return {
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.5,
      low: Math.min(open, close) - 0.5,
      close,
      volume: 10,
    };
  });
}

let mf: Miniflare;
let mfNoTrade: Miniflare;
/** A deployment of its own with a D1 database and no trade service, made by the test that needs it. */
let freshOptions: MiniflareOptions;

async function call(path: string, init: RequestInit & { json?: unknown; key?: string | null } = {}, m: Miniflare = mf) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.key !== null) headers["x-api-key"] = init.key ?? KEY;
  const res = await m.dispatchFetch(`http://edge.local${path}`, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

async function received(): Promise<any[]> {
  // Typed loosely: the project has no @cloudflare/workers-types.
  const kv = (await mf.getKVNamespace("RECORD", "trade")) as unknown as {
    list(o: { prefix: string }): Promise<{ keys: { name: string }[] }>;
    get(k: string): Promise<string | null>;
  };
  const list = await kv.list({ prefix: "msg:" });
  return Promise.all(list.keys.map(async (k) => JSON.parse((await kv.get(k.name)) as string)));
}

beforeAll(async () => {
  const bundle = await buildEdgeWorker();
  const modules = await edgeModules(bundle);
  const common = {
    modules: modules as WorkerOptions["modules"],
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
    kvNamespaces: ["RESIN_KV"],
    r2Buckets: ["RESIN_BARS"],
  };
  mf = new Miniflare({
    workers: [
      {
        name: "resin",
        ...common,
        d1Databases: ["RESIN_DB"],
        bindings: { API_KEY: KEY },
        serviceBindings: { TRADE_SERVICE: "trade" },
      } as WorkerOptions,
      {
        name: "trade",
        modules: true,
        script: TRADE_SERVICE,
        compatibilityDate: "2024-11-01",
        kvNamespaces: ["RECORD"],
      },
    ],
  });
  // A second deployment without API_KEY and without a trade service binding.
  mfNoTrade = new Miniflare({ ...common, name: "resin" } as MiniflareOptions);
  freshOptions = { ...common, name: "resin", d1Databases: ["RESIN_DB"] } as MiniflareOptions;
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await mfNoTrade?.dispose();
});

describe("edge worker under workerd", () => {
  it("/health is open and reports interpret as the default mode", async () => {
    const res = await call("/health", { key: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", service: "resin", default_mode: "interpret", kernels: "wasm" });
  });

  it("every other route needs X-API-Key when API_KEY is set", async () => {
    expect((await call("/run", { json: { script: INDICATOR, data: bars(0, 5) }, key: null })).json).toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect((await call("/scripts", { key: "wrong" })).status).toBe(401);
    expect((await call("/scripts")).status).toBe(200);
    // CORS preflights pass the gate (browsers send them without custom headers).
    const pre = await mf.dispatchFetch("http://edge.local/run", {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-api-key",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/x-api-key/i);
    // Without API_KEY the gate is open.
    expect((await call("/scripts", { key: null }, mfNoTrade)).status).toBe(200);
  });

  it("/run has the HTTP contract: validation codes, 422, success with the kernels loaded", async () => {
    expect((await call("/run", { json: {} })).json).toMatchObject({
      status: "error",
      code: "MISSING_FIELD",
      field: "script",
    });
    expect((await call("/run", { json: { script: INDICATOR, data: [] } })).json.code).toBe("NO_DATA");
    expect((await call("/nope")).status).toBe(404);
    const bad = await call("/run", {
      json: { script: '//@version=6\nindicator("x")\nplot(close +)\n', data: bars(0, 5) },
    });
    expect(bad.status).toBe(422);
    expect(bad.json).toMatchObject({ code: "SCRIPT_ERROR", error_kind: "parse" });
    const ok = await call("/run", { json: { script: INDICATOR, data: bars(0, 10) } });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: "success", mode: "interpret", count: 10 });
    expect(ok.json.series.c).toEqual(bars(0, 10).map((b) => b.close));
    const sma = await call("/run", {
      json: { script: '//@version=6\nindicator("x")\nplot(ta.sma(close, 2), "s")\n', data: bars(0, 4) },
    });
    expect(sma.json.error ?? null).toBeNull();
    expect(sma.status).toBe(200);
    expect(sma.json.series.s[1]).toBeCloseTo((bars(0, 2)[0]!.close + bars(0, 2)[1]!.close) / 2, 9);
  });

  it("scripts registry: POST, GET list, GET one, DELETE", async () => {
    const made = await call("/scripts", { json: { id: "tmp", name: "Temp", source: INDICATOR } });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ status: "success", id: "tmp", name: "Temp" });
    expect((await call("/scripts")).json.scripts.map((s: { id: string }) => s.id)).toContain("tmp");
    expect((await call("/scripts/tmp")).json).toMatchObject({ id: "tmp", source: INDICATOR });
    expect((await call("/scripts/tmp", { method: "DELETE" })).json).toMatchObject({ deleted: true });
    expect((await call("/scripts/tmp")).status).toBe(404);
    expect((await call("/scripts/tmp", { method: "DELETE" })).status).toBe(404);
    expect((await call("/scripts", { json: { name: "x" } })).json).toMatchObject({
      code: "MISSING_FIELD",
      field: "source",
    });
    expect((await call("/scripts", { method: "PATCH" })).status).toBe(405);
  });

  it("ingest merges bars by time and validates them", async () => {
    const first = await call("/ingest", { json: { symbol: "TEST", timeframe: "1", bars: bars(0, 6) } });
    expect(first.json).toMatchObject({ status: "success", received: 6, count: 6, last_time: bars(5, 1)[0]!.time });
    const again = await call("/ingest", { json: { symbol: "TEST", timeframe: "1", bars: bars(4, 4) } });
    expect(again.json).toMatchObject({ count: 8, last_time: bars(7, 1)[0]!.time });
    expect(
      (await call("/ingest", { json: { symbol: "TEST", timeframe: "1", bars: [{ time: 1 }] } })).json,
    ).toMatchObject({ code: "INVALID_FIELD", field: "bars" });
    expect((await call("/ingest", { json: { symbol: "TEST", bars: [] } })).json).toMatchObject({
      code: "MISSING_FIELD",
      field: "timeframe",
    });
  });

  it("ingest validates timeframes and keeps every symbol/timeframe series apart", async () => {
    for (const tf of ["", "banana", "B:C", "0", "1X"]) {
      const r = await call("/ingest", { json: { symbol: "A", timeframe: tf, bars: bars(0, 2) } });
      expect([r.status, r.json.code, r.json.field], tf).toEqual([400, "INVALID_TIMEFRAME", "timeframe"]);
    }
    expect((await call("/ingest", { json: { symbol: " ", timeframe: "1", bars: bars(0, 2) } })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "symbol",
    });
    // "A:B" + "1" and "A" + "1" (and "A:B" + "1D") are three series, never merged.
    expect((await call("/ingest", { json: { symbol: "A:B", timeframe: "1", bars: bars(0, 3) } })).json).toMatchObject({
      count: 3,
    });
    expect((await call("/ingest", { json: { symbol: "A", timeframe: "1", bars: bars(10, 2) } })).json).toMatchObject({
      count: 2,
    });
    expect((await call("/ingest", { json: { symbol: "A:B", timeframe: "1D", bars: bars(20, 1) } })).json).toMatchObject(
      { count: 1 },
    );
    expect((await call("/ingest", { json: { symbol: "A:B", timeframe: "1", bars: bars(3, 1) } })).json).toMatchObject({
      count: 4,
    });
    // Cron jobs name series the same way.
    const job = { id: "tf", script_id: "x", symbol: "A", timeframe: "banana" };
    expect((await call("/cron/jobs", { method: "PUT", json: { jobs: [job] } })).json).toMatchObject({
      code: "INVALID_TIMEFRAME",
      field: "jobs[0].timeframe",
    });
  });

  it("bodies must be JSON (415 otherwise)", async () => {
    const res = await mf.dispatchFetch("http://edge.local/ingest", {
      method: "POST",
      headers: { "content-type": "text/plain", "x-api-key": KEY },
      body: JSON.stringify({ symbol: "A", timeframe: "1", bars: bars(0, 2) }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "UNSUPPORTED_MEDIA_TYPE" });
  });

  it("cron jobs: stored, run on a new closed bar, strategy events forwarded to TRADE_SERVICE", async () => {
    await call("/scripts", { json: { id: "edge-strat", source: STRATEGY } });
    await call("/scripts", { json: { id: "quiet", source: STRATEGY } });
    await call("/ingest", { json: { symbol: "CRON", timeframe: "1", bars: bars(0, 8) } });
    const jobs = [
      { id: "live", script_id: "edge-strat", symbol: "CRON", timeframe: "1" },
      { id: "muted", script_id: "quiet", symbol: "CRON", timeframe: "1", forward_events: false },
      { id: "off", script_id: "edge-strat", symbol: "CRON", timeframe: "1", enabled: false },
    ];
    const put = await call("/cron/jobs", { method: "PUT", json: { jobs } });
    expect(put.status).toBe(200);
    expect(put.json.jobs[0]).toMatchObject({ enabled: true, forward_events: true, inputs: {} });
    expect((await call("/cron/jobs")).json.jobs).toHaveLength(3);
    expect((await call("/cron/jobs", { method: "PUT", json: { jobs: [{ id: "x" }] } })).json).toMatchObject({
      code: "MISSING_FIELD",
      field: "jobs[0].script_id",
    });

    const run1 = await call("/cron/run", { json: {} });
    expect(run1.status).toBe(200);
    const byId = Object.fromEntries(run1.json.results.map((r: { job_id: string }) => [r.job_id, r]));
    expect(Object.keys(byId).sort()).toEqual(["live", "muted"]);
    expect(byId.live.reason ?? null).toBeNull();
    expect(byId.live).toMatchObject({ status: "ran", bars: 8 });
    expect(byId.muted).toMatchObject({ status: "ran", forwarded: 0 });
    const afterFirst = await received();
    // Only the newest bar's strategy events go out, never the muted job's.
    expect(afterFirst.length).toBe(byId.live.forwarded);
    expect(afterFirst.length).toBeGreaterThan(0);
    for (const m of afterFirst) {
      expect(m).toMatchObject({ symbol: "CRON", meta: { job_id: "live", script_id: "edge-strat", timeframe: "1" } });
      expect(m.key).toMatch(/^ev:live:edge-strat:\d+:\d+$/);
      expect(m.meta.bar_time).toBe(bars(7, 1)[0]!.time);
      expect(["long", "close"]).toContain(m.action);
      expect(m.queued_at).toBeGreaterThan(0);
    }

    // No new bar: nothing runs, nothing is sent.
    const run2 = await call("/cron/run", { json: {} });
    expect(run2.json.results.every((r: { status: string }) => r.status === "skipped")).toBe(true);
    expect((await received()).length).toBe(afterFirst.length);

    // A new closed bar arrives: the scheduled() handler runs the job and forwards only the new bar's events.
    await call("/ingest", { json: { symbol: "CRON", timeframe: "1", bars: bars(8, 1) } });
    const worker = (await mf.getWorker("resin")) as unknown as { scheduled(o: { cron: string }): Promise<unknown> };
    await worker.scheduled({ cron: "* * * * *" });
    const after = await received();
    expect(after.length).toBeGreaterThan(afterFirst.length);
    for (const m of after.slice(afterFirst.length)) expect(m.meta.bar_time).toBe(bars(8, 1)[0]!.time);
  });

  it("alerts are never forwarded as orders", async () => {
    const before = (await received()).length;
    await call("/scripts", { json: { id: "alerting", source: ALERTING } });
    await call("/ingest", { json: { symbol: "ALR", timeframe: "1", bars: bars(0, 5) } });
    const jobs = (await call("/cron/jobs")).json.jobs;
    await call("/cron/jobs", {
      method: "PUT",
      json: { jobs: [...jobs, { id: "alerts", script_id: "alerting", symbol: "ALR", timeframe: "1" }] },
    });
    const run = await call("/cron/run", { json: { job_id: "alerts" } });
    expect(run.json.results[0].reason ?? null).toBeNull();
    expect(run.json.results[0]).toMatchObject({ status: "ran", events: 0, forwarded: 0 });
    expect(run.json.results[0].alerts).toBeGreaterThan(0);
    expect((await received()).length).toBe(before);
  });

  it("a fresh deployment's cron, before any job is set, runs nothing and succeeds (scheduled() and /cron/run)", async () => {
    const fresh = new Miniflare(freshOptions);
    try {
      const worker = (await fresh.getWorker()) as unknown as {
        scheduled(o: { cron: string }): Promise<{ outcome: string }>;
      };
      expect((await worker.scheduled({ cron: "* * * * *" })).outcome).toBe("ok");
      const run = await call("/cron/run", { json: {}, key: null }, fresh);
      expect(run.status).toBe(200);
      expect(run.json.results).toEqual([]);
    } finally {
      await fresh.dispose();
    }
  });

  it("without a TRADE_SERVICE binding jobs run and forward nothing", async () => {
    await call("/scripts", { json: { id: "s", source: STRATEGY }, key: null }, mfNoTrade);
    await call("/ingest", { json: { symbol: "N", timeframe: "1", bars: bars(0, 6) }, key: null }, mfNoTrade);
    await call(
      "/cron/jobs",
      { method: "PUT", json: { jobs: [{ id: "j", script_id: "s", symbol: "N", timeframe: "1" }] }, key: null },
      mfNoTrade,
    );
    const run = await call("/cron/run", { json: { job_id: "j" }, key: null }, mfNoTrade);
    expect(run.json.results[0]).toMatchObject({ job_id: "j", status: "ran", forwarded: 0 });
  });
});
