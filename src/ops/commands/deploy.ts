// `resinctl deploy ...`: numbered versions with hot reload and rollback on the local provider;
// wrangler on the cloudflare provider.

import { join } from "node:path";
import { group, leaf, notImplemented, type Cmd } from "../command.js";
import { requireWorker } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { usageError } from "../errors.js";
import { formatBytes, paint, table } from "../output.js";

async function deployOne(ctx: Ctx, name: string): Promise<Record<string, unknown>> {
  if (ctx.providerName() === "cloudflare") {
    const r = await ctx
      .cloudflare()
      .deploy(name, requireWorker(ctx.config(), name), join(ctx.root(), ".resin", "build", name));
    return { worker: name, provider: "cloudflare", version_id: r.version_id, bytes: 0, hot_reload: false };
  }
  const v = await ctx.local().deploy(name, requireWorker(ctx.config(), name));
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
  requireWorker(ctx.config(), name);
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
  requireWorker(ctx.config(), name);
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

export const commands: Record<string, Cmd> = {
  deploy: group("deploy workers (numbered versions, hot reload, rollback)", {
    all: leaf("deploy every worker", async (ctx) => deployWorkers(ctx), {
      options: [["--auto", "no questions (the default here)"]],
    }),
    workers: leaf("deploy every worker", async (ctx) => deployWorkers(ctx)),
    worker: leaf("deploy one worker", deployWorker, { args: "<name>", examples: ["resinctl deploy worker resin"] }),
    history: leaf("list a worker's versions", deployHistory, { args: "<worker>" }),
    rollback: leaf("make an earlier version current", deployRollback, {
      args: "<worker> [version]",
      examples: ["resinctl deploy rollback resin", "resinctl deploy rollback resin 2"],
    }),
    dashboard: notImplemented("deploy dashboard", "deploy the dashboard"),
    "telegram-webhook": notImplemented("deploy telegram-webhook", "register the chat-bot webhook"),
    "update-internal-urls": notImplemented("deploy update-internal-urls", "rewrite internal worker URLs"),
    "kv-config": notImplemented("deploy kv-config", "push KV configuration"),
  }),
};
