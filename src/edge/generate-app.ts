// The script-writing worker's app (host-neutral; generate-worker.ts adds the kernels module): the
// HTTP API's app with only /health and /generate, CORS open like the evaluate worker's (the chart
// app calls it from wherever it is served). One app per environment object, as in app.ts.

import { Hono } from "hono";
import { createApp } from "../server/app.js";
import type { Env } from "../server/limits.js";

const cache = new WeakMap<object, Hono>();

/** The string-valued bindings (vars and secrets); KV/R2/D1 bindings are not needed here. */
function plainEnv(env: Record<string, unknown>): Env {
  const out: Env = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v;
  return out;
}

export function generateApp(env: Record<string, unknown>): Hono {
  let app = cache.get(env);
  if (!app) {
    const full = createApp({ env: plainEnv(env), defaultMode: "interpret", corsOrigins: "*" });
    // only the routes this worker serves: anything else is a JSON 404 from the app itself
    app = new Hono();
    app.use("*", async (c, next) => {
      const path = new URL(c.req.url).pathname;
      if (path === "/generate" || path === "/health") return full.fetch(c.req.raw);
      return next();
    });
    app.notFound((c) =>
      c.json({ status: "error", code: "NOT_FOUND", message: `no route ${c.req.method} ${c.req.path}` }, 404),
    );
    cache.set(env, app);
  }
  return app;
}
