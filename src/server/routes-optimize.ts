// POST /optimize (service.md 2.3): schema, free-tier sizes, then the optimize module's checks and
// study; trials run through the engine (spread over the worker pool in Node).

import type { Hono } from "hono";
import type { Bar } from "../core/result.js";
import { OptimizeError, prepareStudy, runStudy, type OptimizeRequest } from "../optimize/index.js";
import type { RouteContext } from "./app.js";
import { ApiError } from "./errors.js";
import { TRIAL_BROKER } from "./engine.js";
import { checkLibraries, guarded, readBody } from "./request.js";
import { OPTIMIZE_SCHEMA } from "./schemas.js";

export function registerOptimizeRoute(app: Hono, ctx: RouteContext): void {
  app.post("/optimize", (c) =>
    guarded(ctx, c, async () => {
      const body = await readBody(c, OPTIMIZE_SCHEMA);
      ctx.freeTier?.checkSize([body.script as string], (body.data as unknown[]).length);
      const libraries = checkLibraries(body.libraries as unknown[]);
      let study;
      try {
        study = prepareStudy(body as unknown as OptimizeRequest);
      } catch (err) {
        if (err instanceof OptimizeError) throw new ApiError(400, err.code, err.message, err.details);
        throw err;
      }
      const symbol = body.symbol as string;
      const runner = (inputs: Record<string, unknown>, bars: Bar[]) =>
        ctx.engine.run({ script: study.script, data: bars, symbol, broker: TRIAL_BROKER, options: { mode: "auto", inputs, ...(libraries.length ? { libraries } : {}) } });
      const result = await runStudy(study, runner, { concurrency: ctx.engine.concurrency, signal: c.req.raw.signal });
      return c.json({ status: "success", ...result }, 200);
    }),
  );
}
