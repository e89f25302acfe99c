// The edge's fanned-out optimize studies (service.md 4): POST /studies checks the study (the optimize
// module's checks with the fan-out caps, then the plan's limits), stores its bars once in R2 under a
// content id and its spec beside them, and starts a StudyCoordinator (study-coordinator.ts); GET
// /studies/:id is its progress (and the result once done), DELETE /studies/:id cancels it. POST
// /studies/batch is the evaluate side a coordinator calls for each batch (trial-batch.ts).

import type { Context, Hono } from "hono";
import type { DurableObjectNamespaceLike } from "../mesh/bindings.js";
import {
  DATASETS_MAX,
  OptimizeError,
  prepareStudy,
  type OptimizeRequest,
  type PreparedStudy,
} from "../optimize/index.js";
import type { Bar } from "../core/result.js";
import type { Engine } from "../server/engine.js";
import { ApiError } from "../server/errors.js";
import { checkLibraries } from "../server/request.js";
import { OPTIMIZE_SCHEMA } from "../server/schemas.js";
import { readJsonBody, validateBody, type Schema } from "../server/validate.js";
import type { EdgeEnv, R2Like } from "./bindings.js";
import {
  estimateFanout,
  FANOUT_BATCH_SIZE_MAX,
  FANOUT_CAPS,
  FANOUT_CONCURRENCY_MAX,
  FANOUT_RETRIES_MAX,
  fanoutRefusal,
  planLimits,
  US_PER_BAR_DEFAULT,
} from "./fanout-limits.js";
import type { StudyMeta } from "./study-coordinator.js";
import { readJsonObject, runTrialBatch, studiesBucket, type BatchRequest, type StudySpec } from "./trial-batch.js";

/** /optimize's fields (data optional when bars_id names stored bars) and the fan-out's own. */
const STUDY_SCHEMA: Schema = [
  ...OPTIMIZE_SCHEMA.map((f) =>
    f.name === "data"
      ? { ...f, required: false, default: null }
      : f.name === "parallelism"
        ? { ...f, default: null }
        : f,
  ),
  { name: "bars_id", type: "string", default: null },
  // several data sets (symbols, timeframes): each {data | bars_id, symbol?, timeframe?}; scores aggregated
  { name: "datasets", type: "array", default: null, min: 1, max: DATASETS_MAX },
  { name: "aggregate", type: "string", default: null },
  { name: "batch_size", type: "int", default: null, min: 1, max: FANOUT_BATCH_SIZE_MAX },
  { name: "concurrency", type: "int", default: 8, min: 1, max: FANOUT_CONCURRENCY_MAX },
  { name: "max_retries", type: "int", default: 2, min: 0, max: FANOUT_RETRIES_MAX },
  { name: "batch_deadline_ms", type: "int", default: 60_000, min: 100, max: 900_000 },
  { name: "plan", type: "string", default: null },
];

const BATCH_SCHEMA: Schema = [
  { name: "spec_key", type: "string", required: true },
  { name: "trials", type: "array", default: () => [] },
  { name: "winner", type: "object", default: null },
];

const BARS_ID_RE = /^[0-9a-f]{64}$/;
const STUDY_ID_RE = /^[0-9a-f-]{36}$/;

/** Trials per generation a TPE study uses when not told: four batches' worth per slot in flight. */
export const TPE_GENERATION_PER_SLOT = 4;

async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const barsKeyOf = (id: string): string => `studies/bars/${id}.json`;

/** The study's bars: stored under their content id (once: the same bars are never written twice). */
async function storeBars(
  bucket: R2Like,
  b: Record<string, unknown>,
  field = "data",
): Promise<{ id: string; bars: Bar[] }> {
  if (b.data !== null && b.data !== undefined) {
    if (!Array.isArray(b.data))
      throw new ApiError(400, "INVALID_FIELD", `${field} must be an array of bars`, { field });
    const text = JSON.stringify(b.data);
    const id = await sha256Hex(text);
    const head = (bucket as R2Like & { head?(key: string): Promise<unknown> }).head;
    const exists = head ? (await head.call(bucket, barsKeyOf(id))) !== null : false;
    if (!exists) await bucket.put(barsKeyOf(id), text);
    return { id, bars: b.data as Bar[] };
  }
  const id = (b.bars_id as string | null | undefined) ?? null;
  if (id === null) throw new ApiError(400, "MISSING_FIELD", `${field} or bars_id is required`, { field });
  if (typeof id !== "string" || !BARS_ID_RE.test(id))
    throw new ApiError(400, "INVALID_FIELD", "bars_id is a 64-hex content id", { field: "bars_id" });
  return { id, bars: await readJsonObject<Bar[]>(bucket, barsKeyOf(id)) };
}

interface StoredSet {
  id: string;
  bars: Bar[];
  symbol: string | null;
  timeframe: string | null;
}

/** The request's data sets (`datasets`, else `data`/`bars_id` as the one set), each stored once. */
async function storeDataSets(bucket: R2Like, b: Record<string, unknown>): Promise<StoredSet[]> {
  if (b.datasets === null) return [{ ...(await storeBars(bucket, b)), symbol: null, timeframe: null }];
  if (b.data !== null || b.bars_id !== null)
    throw new ApiError(400, "INVALID_DATASETS", "give data (or bars_id) or datasets, not both");
  return Promise.all(
    (b.datasets as unknown[]).map(async (raw, i) => {
      const d = raw as Record<string, unknown> | null;
      const str = (v: unknown) => v === undefined || v === null || typeof v === "string";
      if (d === null || typeof d !== "object" || Array.isArray(d) || !str(d.symbol) || !str(d.timeframe))
        throw new ApiError(400, "INVALID_DATASETS", `datasets[${i}] must be {data | bars_id, symbol?, timeframe?}`, {
          dataset: i,
        });
      return {
        ...(await storeBars(bucket, d, `datasets[${i}].data`)),
        symbol: (d.symbol as string | null | undefined) ?? null,
        timeframe: (d.timeframe as string | null | undefined) ?? null,
      };
    }),
  );
}

/** The fan-out settings a study runs with, its defaults resolved (service.md 4 documents them). */
function fanoutSettings(b: Record<string, unknown>, study: PreparedStudy) {
  const concurrency = b.concurrency as number;
  const tpe = study.sampler === "tpe";
  const parallelism = (b.parallelism as number | null) ?? (tpe ? concurrency * TPE_GENERATION_PER_SLOT : 1);
  const batchSize =
    (b.batch_size as number | null) ??
    Math.max(
      1,
      tpe
        ? Math.ceil(parallelism / concurrency)
        : Math.min(50, Math.ceil(study.nTrials / (concurrency * TPE_GENERATION_PER_SLOT))),
    );
  return { concurrency, parallelism, batchSize, maxRetries: b.max_retries as number };
}

function coordinators(env: EdgeEnv): DurableObjectNamespaceLike {
  const ns = env.STUDIES as DurableObjectNamespaceLike | undefined;
  if (!ns || !env.EVALUATE)
    throw new ApiError(503, "NO_FANOUT", "fanned-out studies need the STUDIES (Durable Object) and EVALUATE bindings");
  return ns;
}

async function toCoordinator(env: EdgeEnv, id: string, path: string, init?: RequestInit): Promise<Response> {
  if (!STUDY_ID_RE.test(id)) throw new ApiError(404, "NOT_FOUND", `no study '${id}'`);
  const ns = coordinators(env);
  const res = await ns.get(ns.idFromName(id)).fetch(`https://study${path}`, init);
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status === 404) throw new ApiError(404, "NOT_FOUND", `no study '${id}'`);
  return Response.json({ status: "success", ...json }, { status: res.status });
}

export function registerStudyRoutes(app: Hono, env: EdgeEnv, engine: Engine): void {
  app.post("/studies", async (c: Context) => {
    const ns = coordinators(env);
    const b = validateBody(await readJsonBody(c.req.raw), STUDY_SCHEMA);
    const libraries = checkLibraries(b.libraries as unknown[]);
    const bucket = studiesBucket(env);
    const {
      bars_id: _b,
      batch_size: _s,
      concurrency: _c,
      max_retries: _r,
      batch_deadline_ms: _d,
      plan: _p,
      ...rest
    } = b;
    const sets = await storeDataSets(bucket, b);
    let study: PreparedStudy;
    try {
      study = prepareStudy(
        b.datasets !== null
          ? ({
              ...rest,
              data: null,
              datasets: sets.map((x) => ({ data: x.bars, symbol: x.symbol, timeframe: x.timeframe })),
            } as OptimizeRequest)
          : ({ ...rest, data: sets[0]!.bars } as OptimizeRequest),
        FANOUT_CAPS,
      );
    } catch (e) {
      if (e instanceof OptimizeError) throw new ApiError(400, e.code, e.message, e.details);
      throw e;
    }
    const f = fanoutSettings(b, study);
    const limits = planLimits(env, b.plan as string | null);
    const usPerBar = Number(env.FANOUT_US_PER_BAR) > 0 ? Number(env.FANOUT_US_PER_BAR) : US_PER_BAR_DEFAULT;
    const estimate = estimateFanout({
      nTrials: study.nTrials,
      batchSize: f.batchSize,
      maxRetries: f.maxRetries,
      oosEveryTrial: study.oosEveryTrial,
      plans: study.sets.map((x) => x.plan),
      usPerBar,
      tpeAxes: study.sampler === "tpe" ? study.space.length : 0,
    });
    const refusal = fanoutRefusal(estimate, limits, f.batchSize, usPerBar);
    if (refusal) throw new ApiError(400, refusal.code, refusal.message, refusal.details);

    const id = crypto.randomUUID();
    const specKey = `studies/${id}/spec.json`;
    const { data: _data, datasets: _sets, ...request } = rest;
    const barsId = sets[0]!.id;
    const spec: StudySpec = {
      request: { ...(request as StudySpec["request"]), parallelism: f.parallelism },
      bars_key: barsKeyOf(barsId),
      ...(b.datasets !== null
        ? { datasets: sets.map((x) => ({ bars_key: barsKeyOf(x.id), symbol: x.symbol, timeframe: x.timeframe })) }
        : {}),
      symbol: b.symbol as string,
      libraries,
      run_seconds: Math.max(1, Math.ceil((b.batch_deadline_ms as number) / 1000)),
    };
    await bucket.put(specKey, JSON.stringify(spec));
    const meta: StudyMeta = {
      id,
      spec_key: specKey,
      total: study.nTrials,
      batch_size: f.batchSize,
      concurrency: f.concurrency,
      parallelism: f.parallelism,
      max_retries: f.maxRetries,
      batch_deadline_ms: b.batch_deadline_ms as number,
      status: "running",
      error: null,
      created_at: Date.now(),
      finished_at: null,
    };
    const res = await ns.get(ns.idFromName(id)).fetch("https://study/start", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(meta),
    });
    const started = (await res.json()) as Record<string, unknown>;
    return c.json(
      {
        status: "success",
        ...started,
        bars_id: barsId,
        ...(b.datasets !== null ? { bars_ids: sets.map((x) => x.id) } : {}),
        sampler: study.sampler,
        warning: study.warnings.length ? study.warnings.join("; ") : null,
        limits: { ...limits, us_per_bar: usPerBar },
        estimate,
      },
      202,
    );
  });

  app.get("/studies/:id", (c) => toCoordinator(env, c.req.param("id"), "/result"));
  app.delete("/studies/:id", (c) => toCoordinator(env, c.req.param("id"), "/cancel", { method: "POST" }));

  app.post("/studies/batch", async (c) => {
    const b = validateBody(await readJsonBody(c.req.raw), BATCH_SCHEMA) as unknown as BatchRequest;
    return c.json({ status: "success", trials: await runTrialBatch(env, engine, b) });
  });
}
