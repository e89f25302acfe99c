// The edge worker's app: the HTTP API app (default mode interpret) plus the API-key gate, the
// scripts registry, bar ingest and cron routes (service.md 4). Host-neutral: the workerd entry
// (worker.ts) only adds the kernels module and the fetch/scheduled handlers.

import type { Context, Hono } from "hono";
import { compiledFromSource } from "../compile/aot.js";
import type { Bar } from "../core/result.js";
import { sha256Hex } from "../core/sha256.js";
import { parseTimeframe } from "../core/time-frames.js";
import { createApp } from "../server/app.js";
import { firstBadBar } from "../server/backtest.js";
import { createInProcessEngine, type Engine } from "../server/engine.js";
import { ApiError } from "../server/errors.js";
import type { Env } from "../server/limits.js";
import { readJsonBody, validateBody, type Schema } from "../server/validate.js";
import type { EdgeEnv } from "./bindings.js";
import { runJobs } from "./cron.js";
import {
  acknowledgeDead,
  cancelOpen,
  deadLetters,
  deliveriesByKeyPrefix,
  ensureOutbox,
  historyByKeyPrefix,
  type OutboxStatus,
  queueDepth,
} from "../mesh/outbox.js";
import { getDestinations, publicDestination, putDestinations, validDestinations } from "./alert-destinations.js";
import { alertKeyPrefix } from "./alerts.js";
import { ensureJobLedger } from "./job-ledger.js";
import { registerStudyRoutes } from "./studies.js";
import {
  deleteScript,
  getJobs,
  getScript,
  listScripts,
  mergeBars,
  putJobs,
  putScript,
  StoreError,
  type CronJob,
} from "./store.js";

const SCRIPT_SCHEMA: Schema = [
  { name: "source", type: "string", required: true },
  { name: "name", type: "string", default: null },
  { name: "id", type: "string", default: null },
];

const INGEST_SCHEMA: Schema = [
  { name: "symbol", type: "string", required: true },
  { name: "timeframe", type: "string", required: true },
  { name: "bars", type: "array", required: true },
];

const JOBS_SCHEMA: Schema = [{ name: "jobs", type: "array", required: true }];

const JOB_SCHEMA: Schema = [
  { name: "id", type: "string", required: true },
  { name: "script_id", type: "string", required: true },
  { name: "symbol", type: "string", required: true },
  { name: "timeframe", type: "string", required: true },
  { name: "enabled", type: "bool", default: true },
  { name: "forward_events", type: "bool", default: true },
  { name: "test", type: "bool", default: false },
  { name: "inputs", type: "object", default: () => ({}) },
];

const CRON_RUN_SCHEMA: Schema = [
  { name: "job_id", type: "string", default: null },
  { name: "force", type: "bool", default: false },
];

const ALERTS_SCHEMA: Schema = [{ name: "destinations", type: "array", required: true }];

const ACK_SCHEMA: Schema = [
  { name: "keys", type: "array", default: null },
  { name: "all", type: "bool", default: false },
];

const DELIVERY_STATUSES: readonly OutboxStatus[] = [
  "pending",
  "sending",
  "delivered",
  "cancelled",
  "rejected",
  "dead",
  "acknowledged",
];

const KILL_SWITCH_SCHEMA: Schema = [{ name: "on", type: "bool", required: true }];

const ID_RE = /^[A-Za-z0-9._-]{1,64}$/;
/** Longest symbol ingest and cron jobs accept (TradingView's longest tickers are far shorter). */
const MAX_SYMBOL_CHARS = 128;

/** A symbol/timeframe pair that storage keys can hold: a non-empty symbol and a timeframe resin parses ("1", "60", "1D", ...). */
function checkSeries(symbol: string, timeframe: string, prefix = ""): void {
  if (symbol.trim() === "" || symbol.length > MAX_SYMBOL_CHARS) {
    throw new ApiError(400, "INVALID_FIELD", `${prefix}symbol must be 1-${MAX_SYMBOL_CHARS} characters`, {
      field: `${prefix}symbol`,
    });
  }
  if (!parseTimeframe(timeframe)) {
    throw new ApiError(
      400,
      "INVALID_TIMEFRAME",
      `${prefix}timeframe '${timeframe}' is not a timeframe (e.g. "1", "60", "240", "1D", "1W", "1M")`,
      { field: `${prefix}timeframe` },
    );
  }
}

const encoder = new TextEncoder();

/**
 * Compares the API key in constant time. workerd offers crypto.subtle.timingSafeEqual (a
 * Cloudflare extension, equal-length buffers only); elsewhere (Node hosting the same app in
 * tests) node:crypto's timingSafeEqual is not importable from this host-neutral module, so both
 * sides are hashed with SHA-256 first and the digests compared with a fixed-length XOR loop:
 * digests have equal length whatever the inputs, so neither path leaks the key's length.
 */
async function keyMatches(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (x: ArrayBuffer, y: ArrayBuffer) => boolean };
  if (typeof subtle.timingSafeEqual === "function") return subtle.timingSafeEqual(a, b);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}

async function body(c: Context, schema: Schema, allowEmpty = false): Promise<Record<string, unknown>> {
  if (allowEmpty && c.req.header("content-length") === "0") return validateBody({}, schema);
  return validateBody(await readJsonBody(c.req.raw), schema);
}

function validJob(raw: unknown, i: number): CronJob {
  try {
    const j = validateBody(raw, JOB_SCHEMA) as unknown as CronJob;
    if (!ID_RE.test(j.id))
      throw new ApiError(400, "INVALID_FIELD", "job id must be 1-64 of [A-Za-z0-9._-]", { field: "id" });
    checkSeries(j.symbol, j.timeframe);
    return j;
  } catch (e) {
    if (e instanceof ApiError) {
      const field = e.details.field ? `jobs[${i}].${String(e.details.field)}` : `jobs[${i}]`;
      throw new ApiError(400, e.code === "INVALID_BODY" ? "INVALID_FIELD" : e.code, `jobs[${i}]: ${e.message}`, {
        ...e.details,
        field,
      });
    }
    throw e;
  }
}

/** Forwards an operator call to the trade service binding with the internal key. */
async function relay(_c: Context, env: EdgeEnv, method: string, path: string, json?: unknown): Promise<Response> {
  if (!env.TRADE_SERVICE) throw new ApiError(503, "NO_TRADE_SERVICE", "TRADE_SERVICE binding is not configured");
  const res = await env.TRADE_SERVICE.fetch(`https://trade-service${path}`, {
    method,
    headers: { "content-type": "application/json", "x-internal-key": String(env.INTERNAL_KEY_BINDING ?? "") },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return new Response(res.body, { status: res.status, headers: { "content-type": "application/json; charset=utf-8" } });
}

function registerEdgeRoutes(app: Hono, env: EdgeEnv, engine: Engine): void {
  app.use("*", async (c, next) => {
    if (env.API_KEY && c.req.path !== "/health") {
      const given = c.req.header("x-api-key") ?? "";
      if (!(await keyMatches(given, String(env.API_KEY)))) {
        throw new ApiError(401, "UNAUTHORIZED", "missing or wrong X-API-Key header");
      }
    }
    try {
      await next();
    } catch (e) {
      if (e instanceof StoreError) throw new ApiError(503, "STORAGE_UNAVAILABLE", e.message);
      throw e;
    }
  });

  // aot: this deploy carries the script's compiled loop (src/compile/aot.ts); otherwise it interprets on workerd
  app.get("/scripts", async (c) =>
    c.json({
      status: "success",
      scripts: (await listScripts(env)).map((s) => ({ ...s, aot: compiledFromSource(s.source_hash) })),
    }),
  );
  app.post("/scripts", async (c) => {
    const b = await body(c, SCRIPT_SCHEMA);
    const source = b.source as string;
    if (source.trim() === "") throw new ApiError(400, "NO_SCRIPT", "source is empty");
    const id = (b.id as string | null) ?? crypto.randomUUID().slice(0, 8);
    if (!ID_RE.test(id)) throw new ApiError(400, "INVALID_FIELD", "id must be 1-64 of [A-Za-z0-9._-]", { field: "id" });
    const stored = await putScript(env, id, (b.name as string | null) ?? id, source);
    return c.json({ status: "success", id: stored.id, name: stored.name, updated_at: stored.updated_at }, 201);
  });
  app.get("/scripts/:id", async (c) => {
    const s = await getScript(env, c.req.param("id"));
    if (!s) throw new ApiError(404, "NOT_FOUND", `no script '${c.req.param("id")}'`);
    return c.json({ status: "success", ...s, aot: compiledFromSource(sha256Hex(s.source)) });
  });
  app.delete("/scripts/:id", async (c) => {
    if (!(await deleteScript(env, c.req.param("id"))))
      throw new ApiError(404, "NOT_FOUND", `no script '${c.req.param("id")}'`);
    return c.json({ status: "success", id: c.req.param("id"), deleted: true });
  });

  // Alert destinations of a registered script, and its delivery history (the newest outbox rows).
  app.get("/scripts/:id/alerts", async (c) => {
    const id = c.req.param("id");
    if (!(await getScript(env, id))) throw new ApiError(404, "NOT_FOUND", `no script '${id}'`);
    const limit = Math.min(200, Math.max(1, Number(c.req.query("limit") ?? 50) || 50));
    let deliveries: unknown[] = [];
    if (env.RESIN_DB) {
      await ensureJobLedger(env.RESIN_DB);
      deliveries = await historyByKeyPrefix(env.RESIN_DB, alertKeyPrefix(id), limit);
    }
    return c.json({
      status: "success",
      script_id: id,
      destinations: (await getDestinations(env, id)).map(publicDestination),
      deliveries,
    });
  });
  // What each alert delivery sent and what became of it, newest first (the app's delivery history).
  app.get("/scripts/:id/alerts/deliveries", async (c) => {
    const id = c.req.param("id");
    if (!(await getScript(env, id))) throw new ApiError(404, "NOT_FOUND", `no script '${id}'`);
    const limit = Math.min(200, Math.max(1, Number(c.req.query("limit") ?? 50) || 50));
    const status = c.req.query("status");
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as OutboxStatus))
      throw new ApiError(400, "INVALID_FIELD", `status must be one of ${DELIVERY_STATUSES.join(", ")}`, {
        field: "status",
      });
    if (!env.RESIN_DB) throw new ApiError(503, "STORAGE_UNAVAILABLE", "RESIN_DB (D1) binding is not configured");
    await ensureJobLedger(env.RESIN_DB);
    return c.json({
      status: "success",
      script_id: id,
      deliveries: await deliveriesByKeyPrefix(env.RESIN_DB, alertKeyPrefix(id), limit, status as OutboxStatus),
    });
  });
  app.put("/scripts/:id/alerts", async (c) => {
    const id = c.req.param("id");
    if (!(await getScript(env, id))) throw new ApiError(404, "NOT_FOUND", `no script '${id}'`);
    const b = await body(c, ALERTS_SCHEMA);
    const dests = validDestinations(env, b.destinations as unknown[], await getDestinations(env, id));
    await putDestinations(env, id, dests);
    return c.json({ status: "success", script_id: id, destinations: dests.map(publicDestination) });
  });

  app.post("/ingest", async (c) => {
    const b = await body(c, INGEST_SCHEMA);
    checkSeries(b.symbol as string, b.timeframe as string);
    const bars = b.bars as unknown[];
    if (bars.length === 0) throw new ApiError(400, "NO_DATA", "bars is empty");
    const bad = firstBadBar(bars);
    if (bad >= 0)
      throw new ApiError(400, "INVALID_FIELD", `bars[${bad}] is not a valid bar`, { field: "bars", index: bad });
    const merged = await mergeBars(env, b.symbol as string, b.timeframe as string, bars as Bar[]);
    return c.json({
      status: "success",
      symbol: b.symbol,
      timeframe: b.timeframe,
      received: bars.length,
      count: merged.length,
      last_time: merged[merged.length - 1]?.time ?? null,
    });
  });

  app.get("/cron/jobs", async (c) => c.json({ status: "success", jobs: await getJobs(env) }));
  app.put("/cron/jobs", async (c) => {
    const b = await body(c, JOBS_SCHEMA);
    const jobs = (b.jobs as unknown[]).map(validJob);
    const ids = new Set<string>();
    for (const j of jobs) {
      if (ids.has(j.id)) throw new ApiError(400, "INVALID_FIELD", `duplicate job id '${j.id}'`, { field: "jobs" });
      ids.add(j.id);
    }
    await putJobs(env, jobs);
    return c.json({ status: "success", jobs });
  });
  // The trade log and the kill switch live in the trade service (src/mesh); these routes relay to it
  // through the binding. `resinctl monitor kill-switch` also reaches the trade service directly,
  // so the switch works while this worker is down.
  app.get("/trades", async (c) => {
    const limit = Math.min(1000, Math.max(1, Number(c.req.query("limit") ?? 20) || 20));
    return relay(c, env, "GET", `/trades?limit=${limit}`);
  });
  app.get("/kill-switch", async (c) => relay(c, env, "GET", "/kill-switch"));
  app.put("/kill-switch", async (c) => {
    const b = await body(c, KILL_SWITCH_SCHEMA);
    const res = await relay(c, env, "PUT", "/kill-switch", { on: b.on });
    // Turning it on cancels the orders queued here too (the gateway would refuse them anyway).
    if (res.status === 200 && b.on === true && env.RESIN_DB) {
      await ensureOutbox(env.RESIN_DB);
      const cancelled = await cancelOpen(env.RESIN_DB, "order", "kill switch turned on");
      return c.json({ ...((await res.json()) as Record<string, unknown>), cancelled_queued: cancelled });
    }
    return res;
  });
  app.get("/outbox", async (c) => {
    if (!env.RESIN_DB) throw new ApiError(503, "STORAGE_UNAVAILABLE", "RESIN_DB (D1) binding is not configured");
    await ensureJobLedger(env.RESIN_DB);
    const limit = Math.min(200, Math.max(1, Number(c.req.query("dead") ?? 20) || 20));
    return c.json({
      status: "success",
      depth: await queueDepth(env.RESIN_DB),
      dead_letters: await deadLetters(env.RESIN_DB, limit),
    });
  });
  // Acknowledging dead letters takes them off the dead-letter list (kept as history until pruned).
  app.post("/outbox/ack", async (c) => {
    if (!env.RESIN_DB) throw new ApiError(503, "STORAGE_UNAVAILABLE", "RESIN_DB (D1) binding is not configured");
    const b = await body(c, ACK_SCHEMA);
    const keys = b.keys as unknown[] | null;
    if (!b.all && !keys)
      throw new ApiError(400, "MISSING_FIELD", "give keys (an array) or all: true", { field: "keys" });
    if (keys && (keys.length > 500 || keys.some((k) => typeof k !== "string")))
      throw new ApiError(400, "INVALID_FIELD", "keys must be at most 500 strings", { field: "keys" });
    await ensureJobLedger(env.RESIN_DB);
    const n = await acknowledgeDead(env.RESIN_DB, b.all ? "all" : (keys as string[]), Date.now());
    return c.json({ status: "success", acknowledged: n });
  });
  registerStudyRoutes(app, env, engine);
  app.post("/cron/run", async (c) => {
    const b = await body(c, CRON_RUN_SCHEMA, true);
    const results = await runJobs(env, engine, { jobId: b.job_id as string | null, force: b.force as boolean });
    return c.json({ status: "success", results });
  });
}

/** The edge app for one environment (cached per env object: the free-tier counters live in it). */
const cache = new WeakMap<object, Hono>();

export function edgeApp(env: EdgeEnv, engine: Engine = createInProcessEngine()): Hono {
  let app = cache.get(env);
  if (!app) {
    const plain: Env = {};
    for (const [k, v] of Object.entries(env)) if (typeof v === "string") plain[k] = v;
    // The chart app calls the edge worker from wherever it is served: any origin, with the API key as the gate.
    app = createApp({
      env: plain,
      engine,
      defaultMode: "interpret",
      corsOrigins: "*",
      generate: false,
      extend: (a) => registerEdgeRoutes(a, env, engine),
    });
    cache.set(env, app);
  }
  return app;
}

export { runJobs };
