// POST /run and POST /run/batch (service.md 2.1, 2.2).

import type { Hono } from "hono";
import type { LibrarySource, RunResult } from "../core/result.js";
import { clientSignal, type RouteContext } from "./route-context.js";
import { ApiError } from "./errors.js";
import { baseJob, engineFailure, feedBars, guarded, isFailed, librarySourceChars, scriptError } from "./request.js";
import { batchSchema, MAX_BATCH_RUNS, runSchema } from "./schemas.js";

function requireContent(script: string | null, data: unknown[]): void {
  if (script !== null && script.trim() === "") throw new ApiError(400, "NO_SCRIPT", "script is empty");
  if (data.length === 0) throw new ApiError(400, "NO_DATA", "data has no bars");
}

interface BatchItem {
  id: string | number;
  script: string;
  inputs: Record<string, unknown>;
  mode: string | null;
}

const ITEM_KEYS = new Set(["id", "script", "inputs", "mode"]);

function checkItem(raw: unknown, index: number): BatchItem {
  const bad = (why: string): never => {
    throw new ApiError(400, "INVALID_RUN", `runs[${index}]: ${why}`, { index });
  };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw))
    bad("must be an object {id?, script, inputs?, mode?}");
  const r = raw as Record<string, unknown>;
  const extra = Object.keys(r)
    .filter((k) => !ITEM_KEYS.has(k))
    .sort();
  if (extra.length) bad(`unknown fields: ${extra.join(", ")}`);
  if (typeof r.script !== "string") bad("script must be a string");
  if (r.id !== undefined && r.id !== null && typeof r.id !== "string" && typeof r.id !== "number")
    bad("id must be a string or a number");
  if (r.inputs !== undefined && r.inputs !== null && (typeof r.inputs !== "object" || Array.isArray(r.inputs)))
    bad("inputs must be an object");
  if (r.mode !== undefined && r.mode !== null && typeof r.mode !== "string") bad("mode must be a string");
  return {
    id: (r.id as string | number | undefined | null) ?? index,
    script: r.script as string,
    inputs: (r.inputs as Record<string, unknown> | undefined | null) ?? {},
    mode: (r.mode as string | undefined | null) ?? null,
  };
}

/** The characters of each script with its libraries' sources, as the free tier measures them. */
function sized(scripts: string[], libraries: readonly LibrarySource[] | undefined): number[] {
  const extra = libraries?.length ? librarySourceChars(libraries) : 0;
  return scripts.map((s) => s.length + extra);
}

export function registerRunRoutes(app: Hono, ctx: RouteContext): void {
  const RUN = runSchema(ctx.defaultMode);
  const BATCH = batchSchema(ctx.defaultMode);

  app.post("/run", (c) =>
    guarded(ctx, c, RUN, async (body) => {
      const script = body.script as string;
      const data = body.data as unknown[];
      const job = baseJob(body, ctx.maxRunSeconds);
      ctx.freeTier?.checkSize(
        sized([script], job.options.libraries),
        data.length + feedBars(body.data_feed as Record<string, unknown>),
      );
      requireContent(script, data);
      const inputs = body.inputs as Record<string, unknown>;
      const mode = c.req.query("mode") || (body.mode as string);
      let result: RunResult;
      try {
        result = await ctx.engine.run(
          { ...job, script, options: { ...job.options, mode, ...(Object.keys(inputs).length ? { inputs } : {}) } },
          { signal: clientSignal(ctx, c) },
        );
      } catch (err) {
        throw engineFailure(err);
      }
      if (isFailed(result)) return c.json(scriptError(result), 422);
      return c.json({ status: "success", ...result }, 200);
    }),
  );

  app.post("/run/batch", (c) =>
    guarded(ctx, c, BATCH, async (body) => {
      const runs = body.runs as unknown[];
      const data = body.data as unknown[];
      if (runs.length === 0) throw new ApiError(400, "NO_RUNS", "runs is empty");
      if (runs.length > MAX_BATCH_RUNS) {
        throw new ApiError(
          400,
          "TOO_MANY_RUNS_IN_BATCH",
          `at most ${MAX_BATCH_RUNS} runs per batch (got ${runs.length})`,
          { max_runs: MAX_BATCH_RUNS, got_runs: runs.length },
        );
      }
      const items = runs.map(checkItem);
      const job = baseJob(body, ctx.maxRunSeconds);
      ctx.freeTier?.checkSize(
        sized(
          items.map((i) => i.script),
          job.options.libraries,
        ),
        data.length + feedBars(body.data_feed as Record<string, unknown>),
      );
      requireContent(null, data);
      const queryMode = c.req.query("mode");
      const signal = clientSignal(ctx, c);
      // The engine (a worker pool in Node) spreads these over its threads.
      const results = await Promise.all(
        items.map(async (item): Promise<Record<string, unknown>> => {
          if (item.script.trim() === "")
            return { id: item.id, status: "error", code: "NO_SCRIPT", message: "script is empty" };
          let result: RunResult;
          try {
            const mode = item.mode ?? (queryMode || (body.mode as string));
            result = await ctx.engine.run(
              {
                ...job,
                script: item.script,
                options: { ...job.options, mode, ...(Object.keys(item.inputs).length ? { inputs: item.inputs } : {}) },
              },
              { signal },
            );
          } catch (err) {
            const coded = engineFailure(err);
            if (coded instanceof ApiError)
              return { id: item.id, status: "error", code: coded.code, message: coded.message, ...coded.details };
            return { id: item.id, status: "error", code: "INTERNAL_ERROR", message: "internal error" };
          }
          if (isFailed(result)) return { id: item.id, ...scriptError(result) };
          return { id: item.id, status: "success", ...result };
        }),
      );
      const ok = results.filter((r) => r.status === "success").length;
      return c.json({ status: ok === results.length ? "success" : "partial", results, ok, count: results.length }, 200);
    }),
  );
}
