// `resinctl deploy ...`: numbered versions with hot reload and rollback on the local provider;
// wrangler on the cloudflare provider.

import { join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import { applyKvManifest } from "./config.js";
import { dashboardDeploy } from "./dashboard.js";
import { requireWorker } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { formatBytes, paint, table } from "../output.js";
import type { AotReport, AotScript } from "../edge-aot.js";
import { registeredScripts } from "../registered-scripts.js";

/**
 * The scripts an edge worker's bundle compiles ahead of time (issue 24): every registered one, unless
 * --no-aot. workerd has no `new Function`, so only these run compiled there.
 */
async function aotScripts(ctx: Ctx, name: string, aot: unknown): Promise<{ scripts?: AotScript[]; note?: string }> {
  if (aot === false || requireWorker(ctx.config(), name).kind !== "edge") return {};
  return registeredScripts(ctx);
}

/** A deploy's compiled scripts as the command reports them. */
function aotData(r: AotReport | undefined, note: string | undefined): Record<string, unknown> {
  if (!r) return {};
  return {
    aot: { compiled: r.compiled.map((c) => c.id), skipped: r.skipped, ...(note ? { note } : {}) },
  };
}

async function deployOne(ctx: Ctx, name: string, opts: Inv["opts"] = {}): Promise<Record<string, unknown>> {
  const { scripts, note } = await aotScripts(ctx, name, opts.aot);
  if (ctx.providerName() === "cloudflare") {
    const r = await ctx
      .cloudflare()
      .deploy(name, requireWorker(ctx.config(), name), join(ctx.root(), ".resin", "build", name), {
        ...(scripts ? { scripts } : {}),
      });
    return {
      worker: name,
      provider: "cloudflare",
      version_id: r.version_id,
      config: r.config,
      bytes: 0,
      hot_reload: false,
      ...aotData(r.aot, note),
    };
  }
  const v = await ctx.local().deploy(name, requireWorker(ctx.config(), name), scripts ? { scripts } : {});
  const running = ctx.local().runningUrl(name);
  return {
    worker: name,
    version: v.version,
    bytes: v.bytes,
    created_at: v.created_at,
    hot_reload: running !== null,
    ...(running ? { url: running } : {}),
    ...aotData(v.aot, note),
  };
}

export async function deployWorker(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  const r = await deployOne(ctx, name, opts);
  const aot = r.aot as { compiled: string[]; skipped: unknown[] } | undefined;
  const compiled = aot ? `; ${aot.compiled.length} script(s) compiled ahead of time` : "";
  return {
    data: r,
    text:
      r.provider === "cloudflare"
        ? `deployed ${paint(ctx.out, "bold", name)} to Cloudflare (version ${r.version_id ?? "unknown"})${compiled}`
        : `deployed ${paint(ctx.out, "bold", name)} v${r.version} (${formatBytes(r.bytes as number)})${compiled}${r.hot_reload ? `, hot-reloading ${r.url}` : ""}`,
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

async function telegramWebhook(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const worker = String(opts.worker ?? "telegram");
  const cfg = ctx.config().workers[worker];
  const url =
    (opts.url as string | undefined) ?? (cfg && Object.hasOwn(ctx.config().workers, worker) ? cfg.url : undefined);
  if (!url || !/^https:\/\//.test(url))
    throw new CtlError("NO_PUBLIC_URL", `the ${worker} worker needs a public https URL for Telegram`, {
      exit: EXIT.FAILED,
      hint: `--url https://... or resinctl config set workers.${worker}.url https://... (a tunnel works locally: resinctl tunnel check)`,
    });
  const token = ctx.secrets().get(worker, "TELEGRAM_BOT_TOKEN");
  if (!token)
    throw new CtlError("MISSING_SECRET", `no ${worker}/TELEGRAM_BOT_TOKEN`, {
      exit: EXIT.FAILED,
      suggestions: [`resinctl secrets set ${worker} TELEGRAM_BOT_TOKEN`],
    });
  const secret = ctx.secrets().get(worker, "WEBHOOK_SECRET");
  const hook = new URL("webhook", url.endsWith("/") ? url : `${url}/`).href;
  const res = await ctx.fetch(`https://api.telegram.org/bot${token}/setWebhook`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: hook, ...(secret ? { secret_token: secret } : {}) }),
  });
  const doc = (await res.json().catch(() => ({}))) as { ok?: boolean; description?: string };
  if (!res.ok || !doc.ok)
    throw new CtlError("TELEGRAM_FAILED", `setWebhook: ${doc.description ?? `HTTP ${res.status}`}`, {
      exit: EXIT.FAILED,
    });
  return { data: { worker, webhook: hook, secret_token: !!secret }, text: `Telegram now calls ${hook}` };
}

async function updateInternalUrls(ctx: Ctx): Promise<CmdResult> {
  const cfg = ctx.config();
  const local = ctx.local();
  const urls: Record<string, string | null> = {};
  for (const [name, w] of Object.entries(cfg.workers)) urls[name] = w.url ?? local.runningUrl(name);
  await local.withStores(async (mf) => {
    const kv = (await mf.getKVNamespace("RESIN_KV")) as unknown as { put(k: string, v: string): Promise<void> };
    await kv.put("config:internal_urls", JSON.stringify(urls));
  });
  return {
    data: { internal_urls: urls },
    text: table(
      ctx.out,
      ["worker", "url"],
      Object.entries(urls).map(([k, v]) => [k, v ?? "(not running)"]),
    ),
  };
}

export const commands: Record<string, Cmd> = {
  deploy: group("deploy workers (numbered versions, hot reload, rollback)", {
    all: leaf("deploy every worker", async (ctx) => deployWorkers(ctx), {
      options: [["--auto", "no questions (the default here)"]],
    }),
    workers: leaf("deploy every worker", async (ctx) => deployWorkers(ctx)),
    worker: leaf("deploy one worker", deployWorker, {
      args: "<name>",
      options: [["--no-aot", "do not compile the registered scripts ahead of time (an edge worker's default)"]],
      examples: ["resinctl deploy worker resin"],
    }),
    history: leaf("list a worker's versions", deployHistory, { args: "<worker>" }),
    rollback: leaf("make an earlier version current", deployRollback, {
      args: "<worker> [version]",
      examples: ["resinctl deploy rollback resin", "resinctl deploy rollback resin 2"],
    }),
    dashboard: leaf("deploy the dashboard (same as dashboard deploy)", dashboardDeploy, {
      options: [["--rebuild", "rebuild the page first"]],
    }),
    "telegram-webhook": leaf("register the chat-bot worker's URL with Telegram (setWebhook)", telegramWebhook, {
      options: [
        ["--worker <NAME>", "the chat-bot worker (default telegram)"],
        ["--url <URL>", "its public URL (default: the worker's configured url)"],
      ],
    }),
    "update-internal-urls": leaf(
      "record every worker's URL in KV (config:internal_urls) for the others",
      updateInternalUrls,
    ),
    "kv-config": leaf("apply kv-config.json to the KV store", async (ctx, { args }) => applyKvManifest(ctx, args[0]), {
      args: "[file]",
    }),
  }),
};
