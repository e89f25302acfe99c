// The HTTP API as one host-neutral Hono app (service.md 2): /run, /run/batch, /optimize,
// /backtest/quick, /health. Node (node/host.ts) and workerd (src/edge) host the same app; Node-only
// parts (worker threads, listening, static files) live elsewhere and are injected through options.

import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { SERVICE_NAME, VERSION } from "../core/version.js";
import { MODES, type Mode } from "../core/result.js";
import { createInProcessEngine, type Engine } from "./engine.js";
import { ApiError, errorBody, errorResponse } from "./errors.js";
import { FreeTier, freeTierConfig, type Env } from "./limits.js";
import { registerRunRoutes } from "./routes-run.js";
import { registerOptimizeRoute } from "./routes-optimize.js";
import { registerBacktestRoute } from "./routes-backtest.js";

export interface AppOptions {
  /** Evaluates runs; defaults to the in-process Runtime. */
  engine?: Engine;
  /** Environment (process.env in Node, bindings on workerd): FREE_TIER_LIMITS, FREE_*, SVC_RUNNER, SVC_RUNTIME_MODE. */
  env?: Env;
  /** /run's mode when the body omits it ("auto" for the HTTP server, "interpret" on the edge); env SVC_RUNTIME_MODE overrides it. */
  defaultMode?: Mode;
  /** The rate limiter's client key; defaults to X-Forwarded-For / CF-Connecting-IP. */
  clientKey?: (c: Context) => string;
  /** Serves non-API GET requests (the chart app); return null for a JSON 404. */
  fallback?: (req: Request) => Promise<Response | null>;
  /** Writes one JSON line per request when set (hosted runner mode). */
  requestLog?: (line: string) => void;
  /** Reports unexpected errors (they reach clients as INTERNAL_ERROR without details). */
  onInternalError?: (err: unknown) => void;
  /** Lets a host add routes (the edge worker's registry, ingest, cron) and middleware before the API routes. */
  extend?: (app: Hono) => void;
}

/** What the route modules share. */
export interface RouteContext {
  engine: Engine;
  defaultMode: Mode;
  freeTier: FreeTier | null;
  clientKey: (c: Context) => string;
}

function defaultClientKey(c: Context): string {
  const fwd = c.req.header("x-forwarded-for");
  return c.req.header("cf-connecting-ip") ?? (fwd ? (fwd.split(",")[0] as string).trim() : "anonymous");
}

/** Builds the app. */
export function createApp(options: AppOptions = {}): Hono {
  const env = options.env ?? {};
  const tier = freeTierConfig(env);
  const runner = env.SVC_RUNNER === "1" || env.SVC_RUNNER === "true";
  const ctx: RouteContext = {
    engine: options.engine ?? createInProcessEngine(),
    defaultMode: MODES.includes(env.SVC_RUNTIME_MODE as Mode) ? (env.SVC_RUNTIME_MODE as Mode) : (options.defaultMode ?? "auto"),
    freeTier: tier.enabled ? new FreeTier(tier) : null,
    clientKey: options.clientKey ?? defaultClientKey,
  };
  const app = new Hono();

  if (options.requestLog) {
    const log = options.requestLog;
    app.use("*", async (c, next) => {
      const t0 = Date.now();
      await next();
      log(JSON.stringify({ time: new Date().toISOString(), method: c.req.method, path: c.req.path, status: c.res.status, ms: Date.now() - t0 }));
    });
  }
  // The chart app may call the API from another origin (Vite dev server, an edge engine URL);
  // preflights are answered here, before any host gate.
  app.use("*", cors({ origin: "*", allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"], allowHeaders: ["content-type", "x-api-key"], maxAge: 600 }));
  options.extend?.(app);

  app.get("/health", (c) =>
    c.json({
      status: "ok",
      service: SERVICE_NAME,
      version: VERSION,
      modes: [...MODES],
      default_mode: ctx.defaultMode,
      features: { optimize: true, batch: true, free_tier_limits: tier.enabled, runner },
      kernels: "wasm",
    }),
  );
  registerRunRoutes(app, ctx);
  registerOptimizeRoute(app, ctx);
  registerBacktestRoute(app, ctx);

  app.notFound(async (c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length) {
      return c.json(errorBody("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}`, { allowed }), 405, { Allow: allowed.join(", ") });
    }
    if (options.fallback && (c.req.method === "GET" || c.req.method === "HEAD")) {
      const res = await options.fallback(c.req.raw);
      if (res) return res;
    }
    return c.json(errorBody("NOT_FOUND", `no route ${c.req.method} ${c.req.path}`), 404);
  });
  app.onError((err) => {
    if (err instanceof ApiError) return errorResponse(err);
    options.onInternalError?.(err);
    return errorResponse(new ApiError(500, "INTERNAL_ERROR", "internal error"));
  });
  return app;
}

const patternCache = new Map<string, RegExp>();

function routeRegex(path: string): RegExp {
  let re = patternCache.get(path);
  if (!re) {
    re = new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\/:[^/]+/g, "/[^/]+").replace(/\*/g, ".*")}/?$`);
    patternCache.set(path, re);
  }
  return re;
}

/** Methods registered for a path (for 405), ignoring catch-all middleware. */
function allowedMethods(app: Hono, path: string): string[] {
  const out = new Set<string>();
  for (const r of app.routes) {
    if (r.method === "ALL" || r.path === "*" || r.path === "/*") continue;
    if (routeRegex(r.path).test(path)) out.add(r.method);
  }
  return [...out].sort();
}
