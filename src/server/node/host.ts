// The Node host of the API (`resin serve`): the Hono app on @hono/node-server, runs spread over a
// worker-thread pool, optionally the built chart app at `/`, and the hosted-runner behaviours
// (one JSON log line per request, graceful SIGTERM). Connection hygiene lives here: a cap on open
// connections (SVC_MAX_CONNECTIONS), body and header timeouts (SVC_BODY_TIMEOUT_SECONDS), the
// client address from the socket unless SVC_TRUST_PROXY says how many proxies to believe, CORS
// only for the origins in SVC_CORS_ORIGINS, and a drain with a deadline (SVC_DRAIN_SECONDS).
// SVC_POOL_THREADS sets the worker-thread count (default: the cores, at most 8), SVC_WORKER_HEAP_MB
// each thread's V8 heap cap (default 1024), SVC_HEAP_GROWING_PERCENT how far the process's heaps
// grow between full collections (heap-growth.ts).

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createAdaptorServer } from "@hono/node-server";
import type { Context } from "hono";
import { createApp } from "../app.js";
import type { Engine } from "../engine.js";
import { envSeconds, forwardedClient, trustedProxyHops, type Env } from "../limits.js";
import { errorBody } from "../errors.js";
import { createNodeEngine } from "./pool.js";
import { createStaticFallback } from "./static.js";
import { socketBodyBytes } from "./body.js";
import { connectionSignal } from "./client-signal.js";
import { heapGrowingPercent, setHeapGrowth } from "./heap-growth.js";

export interface HostOptions {
  port: number;
  host: string;
  /** Serve the chart app (dist-web/) at `/`. */
  app?: boolean;
  /** Directory of the built chart app; defaults to <package>/dist-web. */
  webRoot?: string;
  env?: Env;
  engine?: Engine;
  /** Evaluate a tiny script before listening and fail to start if that does not work (hosted runner). */
  startupCheck?: boolean;
  /** Origins allowed to call the API from a browser (default: SVC_CORS_ORIGINS, comma-separated; none when unset). */
  corsOrigins?: "*" | readonly string[];
  /** Where request log lines and internal errors go (default: stdout / stderr). */
  out?: (line: string) => void;
  err?: (line: string) => void;
  /**
   * V8's heap growing percent for the whole process (heap-growth.ts; default SVC_HEAP_GROWING_PERCENT,
   * else 200); 0 leaves V8's own heuristic.
   */
  heapGrowingPercent?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  engineKind: string;
  /** Requests being handled right now. */
  inflight(): number;
  /**
   * Stops accepting connections and requests (new ones get 503 SHUTTING_DOWN), waits for in-flight
   * requests up to `deadlineSeconds` (default SVC_DRAIN_SECONDS, 30), then ends what is left and
   * frees the pool. Resolves true when everything finished in time.
   */
  close(deadlineSeconds?: number): Promise<boolean>;
}

/** The package's dist-web/ (this file sits at <root>/{src,dist}/server/node/). */
export function defaultWebRoot(): string {
  return fileURLToPath(new URL("../../../dist-web/", import.meta.url));
}

export class HostError extends Error {}

/** Defaults of the connection settings (each overridable from the environment). */
export const HOST_DEFAULTS = {
  bodyTimeoutSeconds: 30,
  maxConnections: 256,
  drainSeconds: 30,
  workerHeapMb: 1024,
} as const;

/** SVC_CORS_ORIGINS: "*" or a comma-separated list of origins; unset means none. */
export function corsOriginsFromEnv(env: Env): "*" | string[] {
  const v = (env.SVC_CORS_ORIGINS ?? "").trim();
  if (v === "*") return "*";
  return v
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
}

const CHECK_SCRIPT = '//@version=6\nindicator("startup check")\nplot(close, "close")\n';

/** The runtime must evaluate a trivial script before a hosted runner accepts traffic. */
async function startupCheck(engine: Engine): Promise<void> {
  const data = [0, 1, 2].map((i) => ({
    time: 1_700_000_000_000 + i * 60_000,
    open: 1,
    high: 2,
    low: 0.5,
    close: 1.5,
    volume: 1,
  }));
  let error: string | undefined;
  try {
    const r = await engine.run({ script: CHECK_SCRIPT, data, symbol: "CHART", options: { mode: "interpret" } });
    if (r.error) error = `${r.error_kind}: ${r.error}`;
    else if (r.count !== data.length) error = `evaluated ${r.count} of ${data.length} bars`;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (error) {
    await engine.close?.();
    throw new HostError(`startup check failed: ${error}`);
  }
}

export async function startServer(opts: HostOptions): Promise<RunningServer> {
  const env = opts.env ?? (process.env as Env);
  const out = opts.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = opts.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  let fallback: ((req: Request) => Promise<Response | null>) | undefined;
  if (opts.app) {
    const root = opts.webRoot ?? defaultWebRoot();
    if (!existsSync(join(root, "index.html"))) {
      throw new HostError(`chart app not built: ${join(root, "index.html")} is missing (run \`npm run build:web\`)`);
    }
    fallback = createStaticFallback(root);
  }
  setHeapGrowth(opts.heapGrowingPercent ?? heapGrowingPercent(env));
  const threads = Math.floor(envSeconds(env, "SVC_POOL_THREADS", 0));
  const heapMb = Math.floor(envSeconds(env, "SVC_WORKER_HEAP_MB", HOST_DEFAULTS.workerHeapMb));
  const engine =
    opts.engine ??
    (threads > 0
      ? createNodeEngine(threads, { maxHeapMb: heapMb })
      : createNodeEngine(undefined, { maxHeapMb: heapMb }));
  const runner = env.SVC_RUNNER === "1" || env.SVC_RUNNER === "true";
  if (opts.startupCheck) await startupCheck(engine);
  const hops = trustedProxyHops(env);
  const app = createApp({
    engine,
    env,
    defaultMode: "auto",
    corsOrigins: opts.corsOrigins ?? corsOriginsFromEnv(env),
    ...(fallback ? { fallback } : {}),
    ...(runner ? { requestLog: out } : {}),
    bodyBytes: socketBodyBytes,
    clientGone: connectionSignal,
    // The socket's address, unless trusted proxies put the client in X-Forwarded-For.
    clientKey: (c: Context) => {
      const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
      return forwardedClient(c.req.header("x-forwarded-for"), hops) ?? incoming?.socket?.remoteAddress ?? "local";
    },
    onInternalError: (e) =>
      err(
        runner
          ? JSON.stringify({ level: "error", message: e instanceof Error ? e.message : String(e) })
          : `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      ),
  });

  let inflight = 0;
  let drained: (() => void) | null = null;
  let draining = false;
  const bodyTimeoutMs = envSeconds(env, "SVC_BODY_TIMEOUT_SECONDS", HOST_DEFAULTS.bodyTimeoutSeconds) * 1000;
  const server = createAdaptorServer({
    // Slow bodies and headers are cut off (Node answers 408), not held for Node's default 300 s.
    // Node enforces both on a timer (connectionsCheckingInterval, 30 s by default): check often enough for the limit to mean something.
    serverOptions: {
      requestTimeout: bodyTimeoutMs,
      headersTimeout: Math.min(bodyTimeoutMs, 20_000),
      connectionsCheckingInterval: Math.min(1000, bodyTimeoutMs / 2),
    },
    fetch: async (req: Request, nodeEnv: unknown) => {
      if (draining) {
        return new Response(JSON.stringify(errorBody("SHUTTING_DOWN", "the server is shutting down")), {
          status: 503,
          headers: { "content-type": "application/json; charset=utf-8", connection: "close", "retry-after": "1" },
        });
      }
      inflight++;
      try {
        return await app.fetch(req, nodeEnv);
      } finally {
        inflight--;
        if (inflight === 0 && drained) drained();
      }
    },
    hostname: opts.host,
  });
  server.maxConnections = Math.floor(envSeconds(env, "SVC_MAX_CONNECTIONS", HOST_DEFAULTS.maxConnections));
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      if (e.code === "EADDRINUSE")
        reject(new HostError(`port ${opts.port} on ${opts.host} is already in use (try --port 0 for a free one)`));
      else if (e.code === "EACCES") reject(new HostError(`no permission to listen on ${opts.host}:${opts.port}`));
      else reject(new HostError(`cannot listen on ${opts.host}:${opts.port}: ${e.message}`));
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(opts.port, opts.host);
  }).catch(async (e) => {
    await engine.close?.();
    throw e;
  });

  const port = (server.address() as AddressInfo).port;
  const hostPart = opts.host.includes(":") ? `[${opts.host}]` : opts.host;
  let closing: Promise<boolean> | null = null;
  return {
    url: `http://${hostPart}:${port}/`,
    port,
    engineKind: (engine as { kind?: string }).kind ?? "custom",
    inflight: () => inflight,
    close: (deadlineSeconds?: number) =>
      (closing ??= (async () => {
        draining = true;
        const deadlineMs = (deadlineSeconds ?? envSeconds(env, "SVC_DRAIN_SECONDS", HOST_DEFAULTS.drainSeconds)) * 1000;
        const http = server as unknown as { closeIdleConnections(): void; closeAllConnections(): void };
        const stopped = new Promise<void>((r) => server.close(() => r()));
        // Idle keep-alive sockets would hold close() open; busy ones finish their response first
        // and are closed as soon as they turn idle.
        http.closeIdleConnections();
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<false>((r) => (timer = setTimeout(() => r(false), deadlineMs)));
        const finished =
          inflight > 0 ? new Promise<true>((r) => (drained = () => r(true))) : Promise.resolve(true as const);
        const inTime = await Promise.race([finished, expired]);
        clearTimeout(timer);
        // Past the deadline, the pool is stopped first (its threads are terminated, their
        // requests fail), then every connection is closed.
        if (!inTime) {
          await engine.close?.();
          http.closeAllConnections();
        }
        const sweep = setInterval(() => http.closeIdleConnections(), 25);
        try {
          await stopped;
        } finally {
          clearInterval(sweep);
        }
        if (inTime) await engine.close?.();
        return inTime;
      })()),
  };
}
