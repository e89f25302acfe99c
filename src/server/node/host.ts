// The Node host of the API (`resin serve`): the Hono app on @hono/node-server, runs spread over a
// worker-thread pool, optionally the built chart app at `/`, and the hosted-runner behaviours
// (one JSON log line per request, graceful SIGTERM).

import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { createAdaptorServer } from "@hono/node-server";
import type { Context } from "hono";
import { createApp } from "../app.js";
import type { Engine } from "../engine.js";
import type { Env } from "../limits.js";
import { createNodeEngine } from "./pool.js";
import { createStaticFallback } from "./static.js";

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
  /** Where request log lines and internal errors go (default: stdout / stderr). */
  out?: (line: string) => void;
  err?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  port: number;
  engineKind: string;
  /** Requests being handled right now. */
  inflight(): number;
  /** Stops accepting connections, waits for in-flight requests, then frees the pool. */
  close(): Promise<void>;
}

/** The package's dist-web/ (this file sits at <root>/{src,dist}/server/node/). */
export function defaultWebRoot(): string {
  return fileURLToPath(new URL("../../../dist-web/", import.meta.url));
}

export class HostError extends Error {}

const CHECK_SCRIPT = '//@version=6\nindicator("startup check")\nplot(close, "close")\n';

/** The runtime must evaluate a trivial script before a hosted runner accepts traffic. */
async function startupCheck(engine: Engine): Promise<void> {
  const data = [0, 1, 2].map((i) => ({ time: 1_700_000_000_000 + i * 60_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 1 }));
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
  const engine = opts.engine ?? createNodeEngine();
  const runner = env.SVC_RUNNER === "1" || env.SVC_RUNNER === "true";
  if (opts.startupCheck) await startupCheck(engine);
  const app = createApp({
    engine,
    env,
    defaultMode: "auto",
    ...(fallback ? { fallback } : {}),
    ...(runner ? { requestLog: out } : {}),
    clientKey: (c: Context) => {
      const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
      return c.req.header("x-forwarded-for")?.split(",")[0]?.trim() || incoming?.socket?.remoteAddress || "local";
    },
    onInternalError: (e) => err(runner ? JSON.stringify({ level: "error", message: e instanceof Error ? e.message : String(e) }) : `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  });

  let inflight = 0;
  let drained: (() => void) | null = null;
  const server = createAdaptorServer({
    fetch: async (req: Request, nodeEnv: unknown) => {
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
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      if (e.code === "EADDRINUSE") reject(new HostError(`port ${opts.port} on ${opts.host} is already in use (try --port 0 for a free one)`));
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
  let closing: Promise<void> | null = null;
  return {
    url: `http://${hostPart}:${port}/`,
    port,
    engineKind: (engine as { kind?: string }).kind ?? "custom",
    inflight: () => inflight,
    close: () =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((r) => server.close(() => r()));
        // Idle keep-alive sockets would hold close() open; busy ones finish their response first
        // and are closed as soon as they turn idle.
        const closeIdle = (): void => (server as { closeIdleConnections?: () => void }).closeIdleConnections?.();
        closeIdle();
        if (inflight > 0) await new Promise<void>((r) => (drained = r));
        const sweep = setInterval(closeIdle, 25);
        try {
          await stopped;
        } finally {
          clearInterval(sweep);
        }
        await engine.close?.();
      })()),
  };
}
