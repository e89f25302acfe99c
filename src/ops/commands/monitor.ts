// `resinctl monitor ...`: the trade service's order log and kill switch (called on the trade service
// itself, with the internal key), the evaluate worker's outbox depth, logs, backups and analytics.

import { group, leaf, notImplemented, type Cmd } from "../command.js";
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

/** The evaluate worker's outbox: rows by channel and state, and the newest dead letters. */
export async function queueDepth(ctx: Ctx): Promise<CmdResult> {
  const { json } = await callWorker(ctx, "GET", "/outbox");
  const depth = json.depth as { channel: string; status: string; count: number; oldest_at: number | null }[];
  const dead = json.dead_letters as { key: string; channel: string; attempts: number; last_error: string | null }[];
  const rows = depth.map((d) => [d.channel, d.status, d.count, d.oldest_at ? new Date(d.oldest_at).toISOString() : ""]);
  const text = [
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
  return { data: { depth, dead_letters: dead }, text };
}

export const commands: Record<string, Cmd> = {
  monitor: group("monitoring", {
    trades: leaf("the trade service's last N orders (placed, refused, halted)", monitorTrades, { args: "[N]" }),
    logs: notImplemented("monitor logs", "logs"),
    "queue-depth": leaf("the evaluate worker's outbox (orders, alerts) by state, and its dead letters", queueDepth),
    backup: notImplemented("monitor backup", "backup"),
    "kill-switch": leaf("show or set the global trade-signal kill switch", killSwitch, { args: "[action]" }),
    analytics: notImplemented("monitor analytics", "analytics"),
  }),
};
