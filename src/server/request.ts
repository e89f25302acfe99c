// Helpers the routes share: the free-tier guard around a handler, reading and validating a body,
// and turning /run-style fields into Runtime options.

import type { Context } from "hono";
import type { LibrarySource, RunOptions, RunResult, SymInfo } from "../core/result.js";
import type { RouteContext } from "./route-context.js";
import { RunCancelledError, RunDeadlineError, RunMemoryError, type RunJob } from "./engine.js";
import { ApiError } from "./errors.js";
import { readJsonBody, validateBody, type Schema } from "./validate.js";

/**
 * Reads and validates the body, then runs `handler` with it; with the free tier on, under its rate
 * limit (checked first, before the body is read) and a concurrency slot (taken only after the body
 * is in and valid, so slow uploads hold none).
 */
export async function guarded(
  ctx: RouteContext,
  c: Context,
  schema: Schema,
  handler: (body: Record<string, unknown>) => Promise<Response>,
): Promise<Response> {
  ctx.freeTier?.checkRate(ctx.clientKey(c));
  const body = await readBody(c, schema, ctx);
  const release = ctx.freeTier?.acquire();
  try {
    return await handler(body);
  } finally {
    release?.();
  }
}

/** The body read (by the host's reader where `ctx` has one: RouteContext.bodyBytes) and validated. */
export async function readBody(
  c: Context,
  schema: Schema,
  ctx?: Pick<RouteContext, "bodyBytes">,
): Promise<Record<string, unknown>> {
  const hostBytes = ctx?.bodyBytes;
  // (a data field that takes columns gets its base64 columns decoded by the byte reader: validate.ts takes either)
  const columns = schema.some((f) => f.name === "data" && f.type === "bars");
  return validateBody(await readJsonBody(c.req.raw, hostBytes ? () => hostBytes(c) : undefined, columns), schema);
}

/** Bars in a data_feed value (an array of bars or columns {time: [...], ...}), for the free tier's cap. */
export function feedBars(feed: Record<string, unknown>): number {
  let n = 0;
  for (const v of Object.values(feed)) {
    if (Array.isArray(v)) n += v.length;
    else if (v && typeof v === "object" && Array.isArray((v as { time?: unknown }).time))
      n += (v as { time: unknown[] }).time.length;
  }
  return n;
}

/** Characters of the library sources a request brings (they count with each script against the free tier's cap). */
export function librarySourceChars(libraries: readonly LibrarySource[]): number {
  return libraries.reduce((n, l) => n + l.source.length, 0);
}

/** The time budget a host gives a run: `timeout_seconds` can only lower the host's cap. */
export function effectiveTimeout(requested: unknown, capSeconds: number): number {
  return typeof requested === "number" && requested > 0 ? Math.min(requested, capSeconds) : capSeconds;
}

/** The coded error of a run the engine gave up on (504 RUN_DEADLINE_EXCEEDED, 507 MEMORY_LIMIT, 499 CLIENT_CLOSED); other errors are bugs and pass through. */
export function engineFailure(err: unknown): unknown {
  if (err instanceof RunDeadlineError)
    return new ApiError(504, "RUN_DEADLINE_EXCEEDED", err.message, { deadline_seconds: err.seconds });
  if (err instanceof RunMemoryError)
    return new ApiError(507, "MEMORY_LIMIT", err.message, err.limitMb ? { limit_mb: err.limitMb } : {});
  if (err instanceof RunCancelledError) return new ApiError(499, "CLIENT_CLOSED", err.message);
  return err;
}

const REALTIME_FIELDS: Record<string, "bool" | "int"> = {
  last_bar: "bool",
  ticks: "int",
  bars: "int",
  from_bar: "int",
};

function checkRealtime(raw: Record<string, unknown>): Partial<RunOptions> {
  const out: Partial<RunOptions> = {};
  const unknown = Object.keys(raw)
    .filter((k) => !(k in REALTIME_FIELDS))
    .sort();
  for (const [k, type] of Object.entries(REALTIME_FIELDS)) {
    const v = raw[k];
    if (v === undefined || v === null) continue;
    const ok = type === "bool" ? typeof v === "boolean" : typeof v === "number" && Number.isInteger(v);
    if (!ok)
      throw new ApiError(
        400,
        "INVALID_FIELD",
        `field 'realtime.${k}' must be ${type === "bool" ? "a boolean" : "an integer"}`,
        { field: `realtime.${k}` },
      );
  }
  if (unknown.length)
    throw new ApiError(400, "UNKNOWN_FIELDS", `unknown fields: ${unknown.map((k) => `realtime.${k}`).join(", ")}`, {
      fields: unknown.map((k) => `realtime.${k}`),
    });
  if (typeof raw.last_bar === "boolean") out.realtimeLastBar = raw.last_bar;
  if (typeof raw.ticks === "number") out.realtimeTicks = raw.ticks;
  if (typeof raw.bars === "number") out.realtimeBars = raw.bars;
  if (typeof raw.from_bar === "number") out.realtimeFromBar = raw.from_bar;
  return out;
}

export function checkLibraries(libs: unknown[]): LibrarySource[] {
  libs.forEach((l, i) => {
    const x = l as Record<string, unknown> | null;
    const ok =
      x !== null &&
      typeof x === "object" &&
      !Array.isArray(x) &&
      typeof x.namespace === "string" &&
      typeof x.name === "string" &&
      typeof x.source === "string" &&
      typeof x.version === "number" &&
      Number.isInteger(x.version);
    if (!ok) {
      throw new ApiError(400, "INVALID_FIELD", `libraries[${i}] must be {namespace, name, version (integer), source}`, {
        field: `libraries[${i}]`,
      });
    }
  });
  return libs as LibrarySource[];
}

/** Builds a run job from validated /run-style fields (without script/inputs/mode, which vary per run). */
export function baseJob(
  body: Record<string, unknown>,
  maxRunSeconds: number,
): Omit<RunJob, "script" | "options"> & { options: RunOptions } {
  const options: RunOptions = {
    profiler: body.profiler as boolean,
    timeoutSeconds: effectiveTimeout(body.timeout_seconds, maxRunSeconds),
    ...checkRealtime(body.realtime as Record<string, unknown>),
  };
  // strategies: orders count from the bar opening at this UNIX time (ms); earlier bars warm up
  if (typeof body.backtest_start === "number") options.backtestStart = body.backtest_start;
  const libraries = checkLibraries(body.libraries as unknown[]);
  if (libraries.length) options.libraries = libraries;
  const feed = body.data_feed as Record<string, unknown>;
  if (Object.keys(feed).length) options.dataFeed = feed as RunOptions["dataFeed"];
  return {
    data: body.data,
    symbol: body.symbol as string,
    timeframe: body.timeframe as string | null,
    syminfo: body.syminfo as SymInfo,
    options,
  };
}

/** The 422 body of a failed run. */
export function scriptError(result: RunResult): Record<string, unknown> {
  return {
    status: "error",
    code: "SCRIPT_ERROR",
    message: result.error,
    error: result.error,
    error_kind: result.error_kind ?? null,
    diagnostics: result.diagnostics ?? [],
    error_bar: result.error_bar ?? null,
    ...(result.error_bar_time !== undefined ? { error_bar_time: result.error_bar_time } : {}),
  };
}

export function isFailed(result: RunResult): boolean {
  return !!result.error && !result.timed_out;
}
