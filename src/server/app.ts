// The HTTP API as one host-neutral Hono app (service.md 2): /run, /run/batch, /optimize,
// /backtest/quick, /health. Node (node/host.ts) and workerd (src/edge) host the same app; Node-only
// parts (worker threads, listening, static files) live elsewhere and are injected through options.

import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { SERVICE_NAME, VERSION } from "../core/version.js";
import { MODES, type Mode } from "../core/result.js";
import { createInProcessEngine, type Engine } from "./engine.js";
import { ApiError, errorBody, errorResponse } from "./errors.js";
import { envSeconds, forwardedClient, FreeTier, freeTierConfig, trustedProxyHops, type Env } from "./limits.js";
import { MAX_BODY_BYTES } from "./validate.js";
import type { RouteContext } from "./route-context.js";
import { registerRunRoutes } from "./routes-run.js";
import { registerOptimizeRoute } from "./routes-optimize.js";
import { registerBacktestRoute } from "./routes-backtest.js";
import { registerGenerateRoute } from "./routes-generate.js";

export interface AppOptions {
  /** Evaluates runs; defaults to the in-process Runtime. */
  engine?: Engine;
  /** Environment (process.env in Node, bindings on workerd): FREE_TIER_LIMITS, FREE_*, SVC_RUNNER, SVC_RUNTIME_MODE. */
  env?: Env;
  /** /run's mode when the body omits it ("auto" for the HTTP server, "interpret" on the edge); env SVC_RUNTIME_MODE overrides it. */
  defaultMode?: Mode;
  /**
   * The rate limiter's client key. The default (workerd) is CF-Connecting-IP, which Cloudflare sets
   * itself, else X-Forwarded-For only when SVC_TRUST_PROXY says how many proxies to trust; the Node
   * host passes the socket address.
   */
  clientKey?: (c: Context) => string;
  /**
   * Origins allowed to call the API from a browser: "*" (the edge worker, called by the chart app
   * from anywhere), a list, or none (no CORS headers: same-origin only, the `resin serve` default).
   */
  corsOrigins?: "*" | readonly string[];
  /** Serves non-API GET requests (the chart app); return null for a JSON 404. */
  fallback?: (req: Request) => Promise<Response | null>;
  /** Writes one JSON line per request when set (hosted runner mode). */
  requestLog?: (line: string) => void;
  /** Reports unexpected errors (they reach clients as INTERNAL_ERROR without details). */
  onInternalError?: (err: unknown) => void;
  /** POST /generate (src/generate); default on. The edge evaluate worker leaves it to its own worker (src/edge/generate-worker.ts). */
  generate?: boolean;
  /**
   * Reads a request body's bytes where the host can do it for less than the Request's text() (Node:
   * node/body.ts, from the socket's buffers; they are parsed without the text of their long strings,
   * json-bytes.ts); null leaves that body to the Request. The body limit still applies first (a host
   * reader takes only bodies whose Content-Length it checked).
   */
  bodyBytes?: (c: Context) => Promise<Uint8Array> | null;
  /**
   * A signal that aborts when the client goes away before the answer is written, where the host has
   * it for less than the Request's `signal` (Node: node/body.ts, from the connection; @hono/node-server
   * builds the whole Request, a web stream over the socket included, for its signal); null leaves it to
   * the Request.
   */
  clientGone?: (c: Context) => AbortSignal | null;
  /** Lets a host add routes (the edge worker's registry, ingest, cron) and middleware before the API routes. */
  extend?: (app: Hono) => void;
}

/** The default run cap of the hosts (service notes in docs/compatibility.md). */
export const DEFAULT_MAX_RUN_SECONDS = 30;

function defaultClientKey(env: Env): (c: Context) => string {
  const hops = trustedProxyHops(env);
  return (c) =>
    c.req.header("cf-connecting-ip") ?? forwardedClient(c.req.header("x-forwarded-for"), hops) ?? "anonymous";
}

/** Builds the app. */
export function createApp(options: AppOptions = {}): Hono {
  const env = options.env ?? {};
  const tier = freeTierConfig(env);
  const runner = env.SVC_RUNNER === "1" || env.SVC_RUNNER === "true";
  const ctx: RouteContext = {
    engine: options.engine ?? createInProcessEngine(),
    defaultMode: MODES.includes(env.SVC_RUNTIME_MODE as Mode)
      ? (env.SVC_RUNTIME_MODE as Mode)
      : (options.defaultMode ?? "auto"),
    freeTier: tier.enabled ? new FreeTier(tier) : null,
    clientKey: options.clientKey ?? defaultClientKey(env),
    maxRunSeconds: envSeconds(env, "SVC_MAX_RUN_SECONDS", DEFAULT_MAX_RUN_SECONDS),
    ...(options.bodyBytes ? { bodyBytes: options.bodyBytes } : {}),
    ...(options.clientGone ? { clientGone: options.clientGone } : {}),
  };
  const app = new Hono();

  if (options.requestLog) {
    const log = options.requestLog;
    app.use("*", async (c, next) => {
      const t0 = Date.now();
      await next();
      log(
        JSON.stringify({
          time: new Date().toISOString(),
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Date.now() - t0,
        }),
      );
    });
  }
  // Browsers may call the API from the origins the host allows (the edge worker: any, since the
  // chart app calls it from wherever it is served; `resin serve`: none unless configured, the app
  // being same-origin). Preflights are answered here, before any host gate.
  const origins = options.corsOrigins;
  if (origins === "*" || origins?.length) {
    app.use(
      "*",
      cors({
        origin: origins === "*" ? "*" : [...origins],
        allowMethods: ["GET", "POST", "PUT", "DELETE", "OPTIONS"],
        allowHeaders: ["content-type", "x-api-key"],
        maxAge: 600,
      }),
    );
  }
  // Every body is capped before anything reads it (service.md 7: 413 BODY_TOO_LARGE).
  const tooLarge = (): never => {
    throw new ApiError(413, "BODY_TOO_LARGE", `request body exceeds ${MAX_BODY_BYTES} bytes`, {
      max_bytes: MAX_BODY_BYTES,
    });
  };
  const limit = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: tooLarge });
  app.use("*", (c, next) => {
    // A declared length is checked without touching the body, as bodyLimit checks it but before it
    // opens the Request's body stream, which would start reading a host's socket (AppOptions.bodyBytes)
    const length = c.req.method === "GET" || c.req.method === "HEAD" ? undefined : c.req.header("content-length");
    if (length === undefined || c.req.header("transfer-encoding") !== undefined) return limit(c, next);
    if (Number.parseInt(length, 10) > MAX_BODY_BYTES) tooLarge();
    return next();
  });
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
      max_run_seconds: ctx.maxRunSeconds,
      ...(ctx.engine.stats ? { pool: ctx.engine.stats() } : {}),
    }),
  );
  registerRunRoutes(app, ctx);
  registerOptimizeRoute(app, ctx);
  registerBacktestRoute(app, ctx);
  if (options.generate ?? true) registerGenerateRoute(app, ctx, env);

  app.notFound(async (c) => {
    const allowed = allowedMethods(app, c.req.path);
    if (allowed.length) {
      return c.json(
        errorBody("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed on ${c.req.path}`, { allowed }),
        405,
        { Allow: allowed.join(", ") },
      );
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
    re = new RegExp(
      `^${path
        .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
        .replace(/\/:[^/]+/g, "/[^/]+")
        .replace(/\*/g, ".*")}/?$`,
    );
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
