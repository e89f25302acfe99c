// `resinctl script ...`: the edge worker's API (health, run, scripts registry, cron, ingest) over HTTP.

import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { CmdResult, Ctx, Inv } from "./context.js";
import { CtlError, EXIT, usageError } from "./errors.js";
import { compactNumber, paint, table } from "./output.js";

const WORKER = "resin";

export function workerUrl(ctx: Ctx, worker = WORKER): string {
  const env = ctx.env.SVC_WORKER_URL;
  if (env) return env.endsWith("/") ? env : `${env}/`;
  const cfg = ctx.config().workers[worker];
  if (cfg?.url) return cfg.url.endsWith("/") ? cfg.url : `${cfg.url}/`;
  return ctx.local().runningUrl(worker) ?? `http://127.0.0.1:${cfg?.port ?? 8788}/`;
}

async function call(
  ctx: Ctx,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const base = workerUrl(ctx);
  const headers: Record<string, string> = { "content-type": "application/json" };
  let key: string | null = null;
  try {
    key = ctx.secrets().get(WORKER, "API_KEY");
  } catch {
    key = null;
  }
  if (key) headers["x-api-key"] = key;
  let res: Response;
  try {
    res = await ctx.fetch(new URL(path.replace(/^\//, ""), base), {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (e) {
    throw new CtlError("WORKER_UNREACHABLE", `cannot reach the edge worker at ${base}: ${(e as Error).message}`, {
      exit: EXIT.INFRA,
      hint: "start it with `resinctl dev start` (local provider) or set workers.resin.url",
      suggestions: ["resinctl dev start", "resinctl workers list"],
    });
  }
  const text = await res.text();
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = { raw: text };
  }
  if (res.status >= 400) {
    throw new CtlError(String(json.code ?? `HTTP_${res.status}`), String(json.message ?? `HTTP ${res.status}`), {
      exit: res.status >= 500 ? EXIT.INFRA : EXIT.FAILED,
      ...(res.status === 401 ? { hint: "set the key with `resinctl secrets set resin API_KEY`" } : {}),
    });
  }
  return { status: res.status, json };
}

function readFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw usageError(`cannot read ${what} '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function syntheticBars(n: number): Record<string, number>[] {
  const out = [];
  let open = 100;
  for (let i = 0; i < n; i++) {
    const close = i % 3 === 2 ? open - 0.5 : open + 1;
    out.push({
      time: 1_700_000_000_000 + i * 60_000,
      open,
      high: Math.max(open, close) + 0.8,
      low: Math.min(open, close) - 0.8,
      close,
      volume: 1000 + i,
    });
    open = close;
  }
  return out;
}

function barsFrom(ctx: Ctx, opts: Inv["opts"]): unknown[] {
  if (!opts.data) return syntheticBars((opts.bars as number | undefined) ?? 20);
  const text = readFile(String(opts.data), "data file");
  try {
    const doc = JSON.parse(text) as unknown;
    const bars = Array.isArray(doc) ? doc : (doc as { bars?: unknown[] }).bars;
    if (!Array.isArray(bars)) throw new Error("expected an array of bars");
    return bars;
  } catch (e) {
    throw usageError(`--data must be a JSON array of bars: ${(e as Error).message}`);
  }
}

export async function monitorTrades(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const raw = args[0] ?? "20";
  if (!/^\d+$/.test(raw)) throw usageError(`N must be a number (got '${raw}')`);
  const { json } = await call(ctx, "GET", `/trades?limit=${raw}`);
  const trades = json.trades as {
    at: number;
    job_id: string;
    symbol: string;
    kind: string;
    id: string | null;
    direction: string | null;
    qty: number | null;
    bar_time: number;
  }[];
  return {
    data: { trades },
    text: trades.length
      ? table(
          ctx.out,
          ["sent", "job", "symbol", "kind", "id", "dir", "qty", "bar"],
          trades.map((t) => [
            new Date(t.at).toISOString(),
            t.job_id,
            t.symbol,
            t.kind,
            t.id ?? "",
            t.direction ?? "",
            t.qty ?? 0,
            new Date(t.bar_time).toISOString(),
          ]),
        )
      : "no strategy events forwarded yet",
  };
}

export async function killSwitch(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const action = args[0] ?? "show";
  if (!["show", "on", "off"].includes(action)) throw usageError("kill-switch takes show, on or off");
  const { json } =
    action === "show"
      ? await call(ctx, "GET", "/kill-switch")
      : await call(ctx, "PUT", "/kill-switch", { on: action === "on" });
  return {
    data: { on: json.on, updated_at: json.updated_at },
    text: `kill switch ${json.on ? paint(ctx.out, "red", "ON: trade signals halted") : paint(ctx.out, "green", "off")}`,
  };
}

export async function scriptHealth(ctx: Ctx): Promise<CmdResult> {
  const { json } = await call(ctx, "GET", "/health");
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
  const { json } = await call(ctx, "POST", "/run", {
    script: readFile(file, "script"),
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
  const { json } = await call(ctx, "GET", "/scripts");
  const scripts = json.scripts as { id: string; name: string; updated_at: number }[];
  return {
    data: { scripts },
    text: scripts.length
      ? table(
          ctx.out,
          ["id", "name", "updated"],
          scripts.map((s) => [s.id, s.name, new Date(s.updated_at).toISOString()]),
        )
      : "no scripts",
    next: "resinctl script scripts deploy <file.pine>",
  };
}

export async function scriptsGet(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const id = args[0] as string;
  const { json } = await call(ctx, "GET", `/scripts/${encodeURIComponent(id)}`);
  return { data: { script: json }, text: String(json.source) };
}

export async function scriptsDeploy(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const file = args[0] as string;
  const id =
    (opts.id as string | undefined) ??
    basename(file)
      .replace(/\.[^.]+$/, "")
      .replace(/[^A-Za-z0-9._-]/g, "-");
  const { json } = await call(ctx, "POST", "/scripts", {
    id,
    name: (opts.name as string | undefined) ?? id,
    source: readFile(file, "script"),
  });
  return { data: { script: json }, text: `stored script ${json.id}`, next: "resinctl script cron jobs" };
}

export async function scriptsDelete(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const id = args[0] as string;
  if (!ctx.flags.yes && process.stdin.isTTY && !ctx.flags.json) {
    throw new CtlError("CONFIRM", `deleting script '${id}' needs confirmation`, {
      exit: EXIT.USAGE,
      hint: "pass --yes",
    });
  }
  await call(ctx, "DELETE", `/scripts/${encodeURIComponent(id)}`);
  return { data: { id, deleted: true }, text: `deleted script ${id}` };
}

export async function cronJobs(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  if (opts.set) {
    let jobs: unknown;
    try {
      jobs = JSON.parse(readFile(String(opts.set), "jobs file"));
    } catch (e) {
      if (e instanceof CtlError) throw e;
      throw usageError("--set must name a JSON file with an array of jobs");
    }
    await call(ctx, "PUT", "/cron/jobs", { jobs: Array.isArray(jobs) ? jobs : (jobs as { jobs?: unknown }).jobs });
  }
  const { json } = await call(ctx, "GET", "/cron/jobs");
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
  const { json } = await call(ctx, "POST", "/cron/run", {
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
  };
}

export async function ingest(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const symbol = opts.symbol as string | undefined;
  const timeframe = opts.timeframe as string | undefined;
  if (!symbol || !timeframe)
    throw usageError("ingest needs --symbol and --timeframe", undefined, [
      "resinctl script ingest --symbol BTCUSDT --timeframe 60 --data bars.json",
    ]);
  const { json } = await call(ctx, "POST", "/ingest", { symbol, timeframe, bars: barsFrom(ctx, opts) });
  return {
    data: { ingest: json },
    text: `${symbol} ${timeframe}: ${compactNumber(json.count as number)} bars stored (last ${new Date(json.last_time as number).toISOString()})`,
  };
}
