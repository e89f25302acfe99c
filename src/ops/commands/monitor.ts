// `resinctl monitor ...`: trades forwarded to the trade service, the global kill switch, logs,
// queue depth, backups and analytics.

import { group, leaf, notImplemented, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { usageError } from "../errors.js";
import { paint, table } from "../output.js";
import { callWorker } from "../worker-client.js";
export async function monitorTrades(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const raw = args[0] ?? "20";
  if (!/^\d+$/.test(raw)) throw usageError(`N must be a number (got '${raw}')`);
  const { json } = await callWorker(ctx, "GET", `/trades?limit=${raw}`);
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
      ? await callWorker(ctx, "GET", "/kill-switch")
      : await callWorker(ctx, "PUT", "/kill-switch", { on: action === "on" });
  return {
    data: { on: json.on, updated_at: json.updated_at },
    text: `kill switch ${json.on ? paint(ctx.out, "red", "ON: trade signals halted") : paint(ctx.out, "green", "off")}`,
  };
}

export const commands: Record<string, Cmd> = {
  monitor: group("monitoring", {
    trades: leaf("the last N strategy events forwarded to the trade service", monitorTrades, { args: "[N]" }),
    logs: notImplemented("monitor logs", "logs"),
    "queue-depth": notImplemented("monitor queue-depth", "queue depth"),
    backup: notImplemented("monitor backup", "backup"),
    "kill-switch": leaf("show or set the global trade-signal kill switch", killSwitch, { args: "[action]" }),
    analytics: notImplemented("monitor analytics", "analytics"),
  }),
};
