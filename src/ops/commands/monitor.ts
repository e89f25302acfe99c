// `resinctl monitor ...`: the trade service's order log and kill switch (called on the trade service
// itself, with the internal key), the evaluate worker's outbox depth, logs, backups (a gzipped tar
// of the workspace's state, restorable) and analytics (from the workers' structured request lines).

import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import { confirm } from "../interaction.js";
import { LOG_OPTIONS, linesOf, showLogs } from "../logview.js";
import { formatBytes } from "../output.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { paint, table } from "../output.js";
import { callWorker } from "../worker-client.js";
/** The trade service worker of the config (kind "mesh"), called with the internal key. */
function tradeService(ctx: Ctx): { worker: string; headers: Record<string, string> } {
  const worker = Object.entries(ctx.config().workers).find(([, w]) => w.kind === "mesh")?.[0];
  if (!worker)
    throw new CtlError("NOT_CONFIGURED", "no trade service worker in the config (a worker of kind mesh)", {
      exit: EXIT.FAILED,
      hint: "resinctl config set workers.trade.kind mesh",
    });
  let key: string | null = null;
  try {
    key = ctx.secrets().get(worker, "INTERNAL_KEY_BINDING");
  } catch {
    key = null;
  }
  return { worker, headers: { "x-internal-key": key ?? ctx.local().internalKey() } };
}

export async function monitorTrades(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const raw = args[0] ?? "20";
  if (!/^\d+$/.test(raw)) throw usageError(`N must be a number (got '${raw}')`);
  const { json } = await callWorker(ctx, "GET", `/trades?limit=${raw}`, undefined, tradeService(ctx));
  const trades = json.trades as {
    key: string;
    status: string;
    symbol: string;
    action: string;
    side: string | null;
    qty: number | null;
    price: number | null;
    code: string | null;
    source: string;
    test: boolean;
    created_at: number;
  }[];
  return {
    data: { trades },
    text: trades.length
      ? table(
          ctx.out,
          ["at", "status", "symbol", "action", "side", "qty", "price", "source", "test", "code"],
          trades.map((t) => [
            new Date(t.created_at).toISOString(),
            t.status,
            t.symbol,
            t.action,
            t.side ?? "",
            t.qty ?? 0,
            t.price ?? "",
            t.source,
            t.test ? "yes" : "",
            t.code ?? "",
          ]),
        )
      : "no orders yet",
  };
}

/** Talks to the trade service itself, so it works while the evaluate worker is down. */
export async function killSwitch(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const action = args[0] ?? "show";
  if (!["show", "on", "off"].includes(action)) throw usageError("kill-switch takes show, on or off");
  const target = tradeService(ctx);
  const { json } =
    action === "show"
      ? await callWorker(ctx, "GET", "/kill-switch", undefined, target)
      : await callWorker(ctx, "PUT", "/kill-switch", { on: action === "on" }, target);
  return {
    data: { on: json.on, updated_at: json.updated_at, last_on_at: json.last_on_at },
    text: `kill switch ${json.on ? paint(ctx.out, "red", "ON: trade signals halted") : paint(ctx.out, "green", "off")}`,
  };
}

/**
 * The evaluate worker's outbox: rows by channel and state, and the newest dead letters; `--ack KEY`
 * (repeatable, or `all`) acknowledges dead letters first, which takes them off the list.
 */
export async function queueDepth(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const ack = ([] as unknown[]).concat(opts.ack ?? []).map(String);
  let acknowledged: number | undefined;
  if (ack.length) {
    const { json } = await callWorker(ctx, "POST", "/outbox/ack", ack.includes("all") ? { all: true } : { keys: ack });
    acknowledged = json.acknowledged as number;
  }
  const { json } = await callWorker(ctx, "GET", "/outbox");
  const depth = json.depth as { channel: string; status: string; count: number; oldest_at: number | null }[];
  const dead = json.dead_letters as { key: string; channel: string; attempts: number; last_error: string | null }[];
  const rows = depth.map((d) => [d.channel, d.status, d.count, d.oldest_at ? new Date(d.oldest_at).toISOString() : ""]);
  const text = [
    ...(acknowledged === undefined ? [] : [`acknowledged ${acknowledged} dead letter(s)`]),
    depth.length ? table(ctx.out, ["channel", "status", "count", "oldest"], rows) : "outbox is empty",
    ...(dead.length
      ? [
          "dead letters:",
          table(
            ctx.out,
            ["key", "channel", "attempts", "error"],
            dead.map((d) => [d.key, d.channel, d.attempts, d.last_error ?? ""]),
          ),
        ]
      : []),
  ].join("\n");
  return { data: { depth, dead_letters: dead, ...(acknowledged === undefined ? {} : { acknowledged }) }, text };
}

/** What a backup holds: the state, versions, store registry, sealed secrets (the key is kept apart), config and migrations. */
const BACKUP_PATHS = [
  ".resin/state",
  ".resin/versions",
  ".resin/infra.json",
  ".resin/secrets.json",
  "resinctl.toml",
  "migrations",
];

async function backup(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  const tar = await import("tar");
  if (opts.restore) {
    const file = ctx.resolvePath(String(opts.restore));
    if (!existsSync(file)) throw new CtlError("NOT_FOUND", `no backup ${file}`, { exit: EXIT.FAILED });
    const running = Object.keys(ctx.config().workers).filter((w) => ctx.local().runningUrl(w));
    if (running.length)
      throw new CtlError("WORKERS_RUNNING", `stop the running workers first (${running.join(", ")})`, {
        exit: EXIT.FAILED,
      });
    await confirm(ctx, `replace the workspace state with ${file}`);
    const entries: string[] = [];
    await tar.t({ file, onReadEntry: (e) => void entries.push(e.path) });
    const outside = entries.find((p) => !BACKUP_PATHS.some((b) => p === b || p.startsWith(`${b}/`)));
    if (outside)
      throw new CtlError("BACKUP_INVALID", `${file} holds '${outside}', which is not workspace state`, {
        exit: EXIT.FAILED,
      });
    await tar.x({ file, cwd: root, strict: true });
    return {
      data: { restored: file, entries: entries.length },
      text: `restored ${entries.length} entries from ${file}`,
    };
  }
  const dir = join(root, ".resin", "backups");
  mkdirSync(dir, { recursive: true });
  const file = opts.output
    ? ctx.resolvePath(String(opts.output))
    : join(dir, `backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tgz`);
  const present = BACKUP_PATHS.filter((p) => existsSync(join(root, p)));
  await tar.c({ gzip: true, file, cwd: root, portable: true }, present);
  const { statSync } = await import("node:fs");
  const bytes = statSync(file).size;
  return {
    data: { file, bytes, paths: present, backups: readdirSync(dir).filter((f) => f.endsWith(".tgz")).length },
    text: `wrote ${relative(ctx.session.cwd, file) || file} (${formatBytes(bytes)}: ${present.join(", ")})`,
    next: `resinctl monitor backup --restore ${file}`,
  };
}

interface RequestTrace {
  trace: "request";
  method: string;
  path: string;
  status: number;
  ms: number;
}

function quantile(sorted: number[], q: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

async function analytics(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const workers = Object.keys(ctx.config().workers);
  const lines = linesOf(ctx, workers, opts.since as string | undefined);
  const byRoute = new Map<string, { count: number; errors: number; ms: number[] }>();
  let cron = 0;
  for (const l of lines) {
    if (l.stream === "system" && l.msg.startsWith("cron ")) cron++;
    if (!l.msg.startsWith("{")) continue;
    let t: RequestTrace;
    try {
      t = JSON.parse(l.msg) as RequestTrace;
    } catch {
      continue;
    }
    if (t.trace !== "request") continue;
    const key = `${l.worker} ${t.method} ${t.path.replace(/\/[^/]+$/, (m) => (/\d|[A-Za-z0-9_-]{12,}/.test(m) && t.path.split("/").length > 2 ? "/:id" : m))}`;
    const e = byRoute.get(key) ?? { count: 0, errors: 0, ms: [] };
    e.count++;
    if (t.status >= 400) e.errors++;
    e.ms.push(t.ms);
    byRoute.set(key, e);
  }
  const routes = [...byRoute.entries()].map(([route, e]) => {
    const ms = [...e.ms].sort((a, b) => a - b);
    return { route, requests: e.count, errors: e.errors, p50_ms: quantile(ms, 0.5), p95_ms: quantile(ms, 0.95) };
  });
  return {
    data: { routes, cron_runs: cron, lines: lines.length },
    text: routes.length
      ? `${table(
          ctx.out,
          ["route", "requests", "errors", "p50 ms", "p95 ms"],
          routes.map((r) => [r.route, r.requests, r.errors, r.p50_ms, r.p95_ms]),
        )}\ncron runs: ${cron}`
      : `no requests captured yet (cron runs: ${cron})`,
  };
}

export const commands: Record<string, Cmd> = {
  monitor: group("monitoring", {
    trades: leaf("the trade service's last N orders (placed, refused, halted)", monitorTrades, { args: "[N]" }),
    logs: leaf(
      "the workers' captured output (one worker or all)",
      async (ctx, { args, opts }) => showLogs(ctx, args[0] ?? null, opts),
      {
        args: "[worker]",
        options: LOG_OPTIONS,
      },
    ),
    "queue-depth": leaf("the evaluate worker's outbox (orders, alerts) by state, and its dead letters", queueDepth, {
      options: [["--ack <KEY...>", "acknowledge these dead letters (or 'all'): they leave the list"]],
    }),
    backup: leaf("a restorable archive of the workspace state (--restore FILE restores it)", backup, {
      options: [
        ["--output <FILE>", "where to write the archive (default .resin/backups/)"],
        ["--restore <FILE>", "restore this archive (workers stopped; confirms)"],
      ],
    }),
    "kill-switch": leaf("show or set the global trade-signal kill switch", killSwitch, { args: "[action]" }),
    analytics: leaf("requests, errors and latency per route, cron runs", analytics, {
      options: [["--since <ISO>", "only since this time"]],
    }),
  }),
};
