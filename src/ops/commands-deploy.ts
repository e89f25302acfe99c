// dev, deploy and workers commands (local provider real; cloudflare through wrangler).

import { join } from "node:path";
import type { WorkerConfig } from "./config.js";
import type { CmdResult, Ctx, Inv } from "./context.js";
import { CtlError, EXIT, usageError } from "./errors.js";
import { formatBytes, paint, table } from "./output.js";
import type { DevServer } from "./provider-local.js";

function workerConfig(ctx: Ctx, name: string): WorkerConfig {
  const cfg = ctx.config();
  const w = cfg.workers[name];
  if (!w) {
    throw new CtlError("UNKNOWN_WORKER", `no worker named '${name}' in the config`, {
      exit: EXIT.USAGE,
      suggestions: Object.keys(cfg.workers).map((n) => `resinctl deploy worker ${n}`),
    });
  }
  return w;
}

async function deployOne(ctx: Ctx, name: string): Promise<Record<string, unknown>> {
  if (ctx.providerName() === "cloudflare") {
    const r = await ctx.cloudflare().deploy(name, workerConfig(ctx, name), join(ctx.root(), ".resin", "build", name));
    return { worker: name, provider: "cloudflare", version_id: r.version_id, bytes: 0, hot_reload: false };
  }
  const v = await ctx.local().deploy(name, workerConfig(ctx, name));
  const running = ctx.local().runningUrl(name);
  return {
    worker: name,
    version: v.version,
    bytes: v.bytes,
    created_at: v.created_at,
    hot_reload: running !== null,
    ...(running ? { url: running } : {}),
  };
}

export async function deployWorker(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  const r = await deployOne(ctx, name);
  return {
    data: r,
    text:
      r.provider === "cloudflare"
        ? `deployed ${paint(ctx.out, "bold", name)} to Cloudflare (version ${r.version_id ?? "unknown"})`
        : `deployed ${paint(ctx.out, "bold", name)} v${r.version} (${formatBytes(r.bytes as number)})${r.hot_reload ? `, hot-reloading ${r.url}` : ""}`,
    next: r.hot_reload ? "resinctl script health" : `resinctl dev worker ${name}`,
  };
}

export async function deployWorkers(ctx: Ctx): Promise<CmdResult> {
  const names = Object.keys(ctx.config().workers);
  const results = [];
  for (const n of names) results.push(await deployOne(ctx, n));
  return {
    data: { deployed: results },
    text: table(
      ctx.out,
      ["worker", "version", "size", "hot reload"],
      results.map((r) => [
        r.worker as string,
        `v${r.version}`,
        formatBytes(r.bytes as number),
        r.hot_reload ? "yes" : "no",
      ]),
    ),
    next: "resinctl workers list",
  };
}

export async function deployHistory(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  workerConfig(ctx, name);
  if (ctx.providerName() === "cloudflare") {
    const text = ctx.cloudflare().history(name);
    return { data: { worker: name, provider: "cloudflare", output: text }, text };
  }
  const versions = ctx.local().history(name);
  return {
    data: { worker: name, versions },
    text: versions.length
      ? table(
          ctx.out,
          ["version", "created", "size", "status"],
          versions.map((v) => [`v${v.version}`, v.created_at, formatBytes(v.bytes), v.current ? "current" : ""]),
        )
      : `no versions of ${name} yet`,
    next: versions.length > 1 ? `resinctl deploy rollback ${name}` : `resinctl deploy worker ${name}`,
  };
}

export async function deployRollback(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  workerConfig(ctx, name);
  const raw = args[1];
  let version: number | undefined;
  if (raw !== undefined) {
    const m = /^v?(\d+)$/.exec(raw);
    if (!m) throw usageError(`version must be a number like 3 or v3 (got '${raw}')`);
    version = Number(m[1]);
  }
  if (ctx.providerName() === "cloudflare") {
    const text = ctx.cloudflare().rollback(name, raw);
    return { data: { worker: name, provider: "cloudflare", output: text }, text };
  }
  const v = ctx.local().rollback(name, version);
  const running = ctx.local().runningUrl(name);
  return {
    data: { worker: name, version: v.version, hot_reload: running !== null },
    text: `${name} is now at v${v.version}${running ? " (hot-reloading)" : ""}`,
    next: `resinctl deploy history ${name}`,
  };
}

export async function workersList(ctx: Ctx): Promise<CmdResult> {
  const cfg = ctx.config();
  const local = ctx.local();
  const rows = Object.entries(cfg.workers).map(([name, w]) => {
    const url = local.runningUrl(name);
    return {
      name,
      kind: w.kind,
      port: w.port,
      version: local.currentVersion(name),
      status: url ? "running" : "stopped",
      url,
    };
  });
  return {
    data: { provider: ctx.providerName(), workers: rows },
    text: table(
      ctx.out,
      ["worker", "kind", "port", "version", "status", "url"],
      rows.map((r) => [
        r.name,
        r.kind,
        String(r.port),
        r.version === null ? "-" : `v${r.version}`,
        r.status,
        r.url ?? "",
      ]),
    ),
    next: "resinctl dev start",
  };
}

/** Keeps dev servers in the foreground until SIGINT/SIGTERM. */
async function serveUntilSignal(ctx: Ctx, servers: DevServer[]): Promise<CmdResult> {
  if (!ctx.flags.json)
    for (const s of servers) ctx.out.write(`${paint(ctx.out, "green", "●")} ${s.worker} v${s.version} on ${s.url}\n`);
  else
    ctx.out.write(
      `${JSON.stringify({ success: true, event: "listening", workers: servers.map((s) => ({ worker: s.worker, url: s.url, version: s.version })) })}\n`,
    );
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await Promise.all(servers.map((s) => s.stop()));
  return { data: { stopped: servers.map((s) => s.worker) }, text: "stopped" };
}

function devBindings(ctx: Ctx, name: string): Record<string, string> {
  try {
    return ctx.secrets().all(name);
  } catch {
    return {};
  }
}

export async function devWorker(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  const cfg = workerConfig(ctx, name);
  const server = await ctx.local().startDev(name, cfg, {
    port: (opts.port as number | undefined) ?? cfg.port,
    bindings: devBindings(ctx, name),
    onReload: (v) => ctx.out.writeErr(`reloaded ${name} v${v}\n`),
  });
  return serveUntilSignal(ctx, [server]);
}

export async function devStart(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  if (opts.runtime && opts.runtime !== "workerd") {
    throw new CtlError(
      "RUNTIME_UNAVAILABLE",
      `runtime '${String(opts.runtime)}' is not available; the local provider runs workers on workerd`,
      { exit: EXIT.INFRA, hint: "drop --runtime (workerd is the default)" },
    );
  }
  const cfg = ctx.config();
  const servers: DevServer[] = [];
  let port = (opts.port as number | undefined) ?? null;
  try {
    for (const [name, w] of Object.entries(cfg.workers)) {
      servers.push(await ctx.local().startDev(name, w, { port: port ?? w.port, bindings: devBindings(ctx, name) }));
      if (port) port++;
    }
  } catch (e) {
    await Promise.all(servers.map((s) => s.stop()));
    throw e;
  }
  return serveUntilSignal(ctx, servers);
}
