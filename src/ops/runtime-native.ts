// `dev start --runtime native`: the edge app in this Node process (Hono on @hono/node-server,
// 127.0.0.1) instead of workerd, over the same persisted local stores (a store-only workerd hands
// its KV/R2/D1 bindings to Node through Miniflare's proxies). Node allows `new Function`, so
// compile mode runs at full speed here; the cron triggers fire on the same schedule and the
// worker's console output is captured like workerd's.

import type { AddressInfo } from "node:net";
import { Cron } from "croner";
import type { Miniflare, MiniflareOptions } from "miniflare";
import type { WorkerConfig } from "./config.js";
import { CtlError, EXIT } from "./errors.js";
import type { DevServer, LocalProvider } from "./provider-local.js";

export async function startNative(
  local: LocalProvider,
  worker: string,
  cfg: WorkerConfig,
  opts: { port: number; bindings: () => Record<string, string>; crons: string[] },
): Promise<DevServer> {
  if (cfg.kind !== "edge")
    throw new CtlError(
      "RUNTIME_UNAVAILABLE",
      `worker '${worker}' is a prebuilt script; only the edge worker runs natively`,
      {
        exit: EXIT.USAGE,
        hint: "drop --runtime native, or use it with the edge worker only",
      },
    );
  const [{ Miniflare }, { serve }, { edgeApp, runJobs }, { createInProcessEngine }] = await Promise.all([
    import("miniflare"),
    import("@hono/node-server"),
    import("../edge/app.js"),
    import("../server/engine.js"),
  ]);
  const b = local.bindings();
  const mf: Miniflare = new Miniflare({
    name: `${worker}-stores`,
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 204 }); } };",
    host: "127.0.0.1",
    port: 0,
    compatibilityDate: cfg.compatibility_date,
    kvNamespaces: b.kv,
    r2Buckets: b.obj,
    d1Databases: b.sql,
    kvPersist: local.stateDir("kv"),
    r2Persist: local.stateDir("obj"),
    d1Persist: local.stateDir("sql"),
  } as MiniflareOptions);
  await mf.ready;
  const stores = await mf.getBindings();
  const engine = createInProcessEngine();
  const env = (): Record<string, unknown> => ({ ...stores, ...opts.bindings() });
  const server = serve({
    hostname: "127.0.0.1",
    port: opts.port,
    fetch: (req: Request) => {
      const started = Date.now();
      return Promise.resolve(
        edgeApp(env() as never, engine).fetch(req, env() as never, { waitUntil: () => undefined } as never),
      ).then((res: Response) => {
        local.appendLog(
          worker,
          "stdout",
          JSON.stringify({
            trace: "request",
            method: req.method,
            path: new URL(req.url).pathname,
            status: res.status,
            ms: Date.now() - started,
          }),
        );
        return res;
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("listening", () => resolve());
    server.once("error", (e: Error) =>
      reject(
        new CtlError("INFRA_UNAVAILABLE", `cannot listen on 127.0.0.1:${opts.port}: ${e.message}`, {
          exit: EXIT.INFRA,
        }),
      ),
    );
  }).catch(async (e) => {
    await mf.dispose();
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/`;
  local.writeRun(worker, {
    url,
    port,
    version: local.currentVersion(worker) ?? 0,
    runtime: "native",
    crons: opts.crons,
  });
  local.appendLog(worker, "system", `started natively on ${url}`);
  const dev: DevServer = {
    worker,
    url,
    version: local.currentVersion(worker) ?? 0,
    reloads: 0,
    cronRuns: 0,
    stop: async () => {
      for (const j of jobs) j.stop();
      local.clearRun(worker);
      local.appendLog(worker, "system", "stopped");
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mf.dispose();
    },
  };
  const jobs = opts.crons.map(
    (expr) =>
      new Cron(expr, { protect: true }, async () => {
        try {
          const results = await runJobs(env() as never, engine);
          dev.cronRuns++;
          local.appendLog(worker, "system", `cron ${expr}: ok (${results.length} jobs)`);
        } catch (e) {
          local.appendLog(worker, "system", `cron ${expr} failed: ${(e as Error).message}`);
        }
      }),
  );
  return dev;
}
