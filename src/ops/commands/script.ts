// `resinctl script ...`: the edge worker's API (health, run, scripts registry, cron, ingest) over HTTP.

import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { compactNumber, paint, table } from "../output.js";
import { barsFrom, callWorker, readInputFile, workerUrl } from "../worker-client.js";
import { deployWorker } from "./deploy.js";
export async function scriptHealth(ctx: Ctx): Promise<CmdResult> {
  const { json } = await callWorker(ctx, "GET", "/health");
  return {
    data: { url: workerUrl(ctx), health: json },
    text: `${paint(ctx.out, "green", "ok")} ${json.service} ${json.version} at ${workerUrl(ctx)} (default mode ${json.default_mode})`,
  };
}

export async function scriptRun(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const file = args[0] as string;
  let inputs: unknown = {};
  if (opts.inputs) {
    try {
      inputs = JSON.parse(String(opts.inputs));
    } catch {
      throw usageError("--inputs must be a JSON object");
    }
  }
  const { json } = await callWorker(ctx, "POST", "/run", {
    script: readInputFile(ctx.resolvePath(file), "script"),
    data: barsFrom(ctx, opts),
    ...(opts.mode ? { mode: opts.mode } : {}),
    inputs,
  });
  const series = (json.series ?? {}) as Record<string, unknown[]>;
  const rows = Object.entries(series).map(([k, v]) => [k, String(v[v.length - 1] ?? "na")]);
  return {
    data: { result: json },
    text: `${table(ctx.out, ["plot", "last"], rows)}\n${json.count} bars, mode ${json.mode}`,
  };
}

export async function scriptsList(ctx: Ctx): Promise<CmdResult> {
  const { json } = await callWorker(ctx, "GET", "/scripts");
  const scripts = json.scripts as { id: string; name: string; updated_at: number; aot?: boolean }[];
  return {
    data: { scripts },
    text: scripts.length
      ? table(
          ctx.out,
          ["id", "name", "updated", "compiled"],
          // compiled: the running deploy carries its loop (workerd cannot compile it at run time)
          scripts.map((s) => [s.id, s.name, new Date(s.updated_at).toISOString(), s.aot ? "yes" : "no (interprets)"]),
        )
      : "no scripts",
    next: "resinctl script scripts deploy <file.pine>",
  };
}

export async function scriptsGet(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const id = args[0] as string;
  const { json } = await callWorker(ctx, "GET", `/scripts/${encodeURIComponent(id)}`);
  return { data: { script: json }, text: String(json.source) };
}

export async function scriptsDeploy(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const file = args[0] as string;
  const id =
    (opts.id as string | undefined) ??
    basename(file)
      .replace(/\.[^.]+$/, "")
      .replace(/[^A-Za-z0-9._-]/g, "-");
  const { json } = await callWorker(ctx, "POST", "/scripts", {
    id,
    name: (opts.name as string | undefined) ?? id,
    source: readInputFile(ctx.resolvePath(file), "script"),
  });
  const destinations = alertDestinations(opts, ctx.env.RESIN_ALERT_SECRET || undefined);
  const stored =
    destinations.length === 0
      ? { data: { script: json }, text: `stored script ${json.id}`, next: "resinctl script cron jobs" }
      : {
          data: {
            script: json,
            alerts: (
              await callWorker(ctx, "PUT", `/scripts/${encodeURIComponent(String(json.id))}/alerts`, { destinations })
            ).json.destinations,
          },
          text: `stored script ${json.id} with ${destinations.length} alert destination(s)`,
          next: "resinctl script cron jobs",
        };
  if (!opts.aot) return { ...stored, next: "resinctl deploy worker resin (runs it compiled on workerd)" };
  // workerd cannot eval: the script runs compiled only once a deploy bundles its loop (src/ops/edge-aot.ts)
  const deployed = await deployWorker(ctx, { args: ["resin"], opts: {} });
  return {
    ...stored,
    data: { ...stored.data, deploy: deployed.data },
    text: `${stored.text}\n${deployed.text}`,
  };
}

/**
 * The alert destinations `scripts deploy` registers (issue 25): each --alert-webhook URL (signed with
 * RESIN_ALERT_SECRET when that is set: a secret never goes on the command line) and each --alert-chat id
 * (checked against the worker's CHAT_ALLOWLIST). The worker validates them (the outbound guard included).
 */
function alertDestinations(opts: Record<string, unknown>, secret: string | undefined): Record<string, unknown>[] {
  const list = (v: unknown): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);
  return [
    ...list(opts.alertWebhook).map((url, i) => ({ id: `webhook${i + 1}`, type: "webhook", url, secret })),
    ...list(opts.alertChat).map((chat_id, i) => ({ id: `chat${i + 1}`, type: "chat", chat_id })),
  ];
}

export async function scriptsDelete(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const id = args[0] as string;
  if (!ctx.flags.yes && process.stdin.isTTY && !ctx.flags.json) {
    throw new CtlError("CONFIRM", `deleting script '${id}' needs confirmation`, {
      exit: EXIT.USAGE,
      hint: "pass --yes",
    });
  }
  await callWorker(ctx, "DELETE", `/scripts/${encodeURIComponent(id)}`);
  return { data: { id, deleted: true }, text: `deleted script ${id}` };
}

export async function cronJobs(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  if (opts.set) {
    let jobs: unknown;
    try {
      jobs = JSON.parse(readInputFile(ctx.resolvePath(String(opts.set)), "jobs file"));
    } catch (e) {
      if (e instanceof CtlError) throw e;
      throw usageError("--set must name a JSON file with an array of jobs");
    }
    await callWorker(ctx, "PUT", "/cron/jobs", {
      jobs: Array.isArray(jobs) ? jobs : (jobs as { jobs?: unknown }).jobs,
    });
  }
  const { json } = await callWorker(ctx, "GET", "/cron/jobs");
  const jobs = json.jobs as {
    id: string;
    script_id: string;
    symbol: string;
    timeframe: string;
    enabled: boolean;
    forward_events: boolean;
  }[];
  return {
    data: { jobs },
    text: jobs.length
      ? table(
          ctx.out,
          ["job", "script", "symbol", "tf", "enabled", "forward"],
          jobs.map((j) => [
            j.id,
            j.script_id,
            j.symbol,
            j.timeframe,
            j.enabled ? "on" : "off",
            j.forward_events ? "yes" : "no",
          ]),
        )
      : "no cron jobs",
  };
}

export async function cronRun(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const { json } = await callWorker(ctx, "POST", "/cron/run", {
    ...(opts.job ? { job_id: opts.job } : {}),
    force: !!opts.force,
  });
  const results = json.results as {
    job_id: string;
    status: string;
    events?: number;
    forwarded?: number;
    reason?: string;
  }[];
  return {
    data: { results },
    text: results.length
      ? table(
          ctx.out,
          ["job", "status", "events", "forwarded", "reason"],
          results.map((r) => [r.job_id, r.status, r.events ?? 0, r.forwarded ?? 0, r.reason ?? ""]),
        )
      : "no enabled jobs",
    // A job that failed makes the command fail (exit 4); skipped jobs are fine.
    ...(results.some((r) => r.status === "error") ? { exit: EXIT.FAILED } : {}),
  };
}

export async function ingest(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const symbol = opts.symbol as string | undefined;
  const timeframe = opts.timeframe as string | undefined;
  if (!symbol || !timeframe)
    throw usageError("ingest needs --symbol and --timeframe", undefined, [
      "resinctl script ingest --symbol BTCUSDT --timeframe 60 --data bars.json",
    ]);
  const { json } = await callWorker(ctx, "POST", "/ingest", { symbol, timeframe, bars: barsFrom(ctx, opts) });
  return {
    data: { ingest: json },
    text: `${symbol} ${timeframe}: ${compactNumber(json.count as number)} bars stored (last ${new Date(json.last_time as number).toISOString()})`,
  };
}

async function feedRefresh(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const { url, symbol, timeframe } = opts as { url?: string; symbol?: string; timeframe?: string };
  if (!url || !symbol || !timeframe) throw usageError("feed refresh needs --url, --symbol and --timeframe");
  let bars: unknown;
  try {
    const res = await ctx.fetch(url);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const doc = (await res.json()) as unknown;
    bars = Array.isArray(doc) ? doc : (doc as { bars?: unknown }).bars;
    if (!Array.isArray(bars)) throw new Error("expected a JSON array of bars");
  } catch (e) {
    throw new CtlError("FEED_FAILED", `${url}: ${(e as Error).message}`, { exit: EXIT.FAILED });
  }
  const { json } = await callWorker(ctx, "POST", "/ingest", { symbol, timeframe, bars });
  return { data: { feed: url, ingest: json }, text: `${symbol} ${timeframe}: ${json.count} bars stored from ${url}` };
}

async function syncVendor(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const dir = args[0] ? ctx.resolvePath(args[0]) : join(ctx.root(), "scripts");
  if (!existsSync(dir)) throw usageError(`no directory ${dir}`);
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".pine"))
    .sort();
  const stored: string[] = [];
  for (const f of files) {
    const id = f.replace(/\.pine$/, "").replace(/[^A-Za-z0-9._-]/g, "-");
    await callWorker(ctx, "POST", "/scripts", { id, name: id, source: readInputFile(join(dir, f), "script") });
    stored.push(id);
  }
  const pruned: string[] = [];
  if (opts.prune) {
    const { json } = await callWorker(ctx, "GET", "/scripts");
    for (const s of json.scripts as { id: string }[])
      if (!stored.includes(s.id)) {
        await callWorker(ctx, "DELETE", `/scripts/${encodeURIComponent(s.id)}`);
        pruned.push(s.id);
      }
  }
  return {
    data: { dir, stored, pruned },
    text: `stored ${stored.length} scripts from ${dir}${pruned.length ? `; deleted ${pruned.join(", ")}` : ""}`,
  };
}

export const commands: Record<string, Cmd> = {
  script: group("the edge worker's evaluate API", {
    health: leaf("GET /health of the edge worker", scriptHealth),
    run: leaf("POST /run with a script file", scriptRun, {
      args: "<file>",
      options: [
        ["--bars <N>", "synthetic bars when no --data is given (default 20)", "int"],
        ["--data <FILE>", "bars as a JSON array"],
        ["--mode <M>", "interpret | compile | auto"],
        ["--inputs <JSON>", "input overrides"],
      ],
    }),
    scripts: group("the scripts registry", {
      list: leaf("list stored scripts", scriptsList),
      get: leaf("print a stored script", scriptsGet, { args: "<id>" }),
      deploy: leaf("store a script", scriptsDeploy, {
        args: "<file>",
        options: [
          ["--id <ID>", "script id (default: the file name)"],
          ["--name <N>", "display name"],
          ["--alert-webhook <URL...>", "deliver its alerts to these URLs (signed when RESIN_ALERT_SECRET is set)"],
          ["--alert-chat <ID...>", "deliver its alerts to these chats (on the worker's CHAT_ALLOWLIST)"],
          ["--aot", "then redeploy the edge worker with the registered scripts compiled ahead of time"],
        ],
      }),
      delete: leaf("delete a stored script", scriptsDelete, { args: "<id>" }),
    }),
    cron: group("bar-close jobs", {
      jobs: leaf("list jobs (--set file.json replaces them)", cronJobs, {
        options: [["--set <FILE>", "replace the jobs with a JSON file's"]],
      }),
      run: leaf("run jobs now", cronRun, {
        options: [
          ["--job <ID>", "only this job"],
          ["--force", "run even without a new closed bar"],
        ],
      }),
    }),
    ingest: leaf("store bars for a symbol/timeframe", ingest, {
      options: [
        ["--symbol <S>", "symbol"],
        ["--timeframe <TF>", "timeframe (1, 60, 1D, ...)"],
        ["--data <FILE>", "bars as a JSON array"],
        ["--bars <N>", "synthetic bars (default 20)", "int"],
      ],
    }),
    feed: group("bar feeds", {
      refresh: leaf("fetch bars from a feed URL (JSON array) and ingest them", feedRefresh, {
        options: [
          ["--url <URL>", "the feed (a JSON array of bars, or {bars: [...]})"],
          ["--symbol <S>", "symbol"],
          ["--timeframe <TF>", "timeframe"],
        ],
      }),
    }),
    "sync-vendor": leaf("store every .pine file of a directory (default scripts/) in the registry", syncVendor, {
      args: "[dir]",
      options: [["--prune", "also delete stored scripts that are not in the directory"]],
    }),
    deploy: leaf("bundle and deploy the edge worker", async (ctx) => deployWorker(ctx, { args: ["resin"], opts: {} })),
  }),
};
