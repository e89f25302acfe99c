// `resinctl tui`: the terminal dashboard on ink (React for terminals): workers with version and
// status, the edge worker's health, recent trades and the kill switch, refreshed every 2 s until q
// or Ctrl-C. Without a TTY (or with --once) it renders one frame and exits, so it also works in
// scripts and tests.

import { leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { callWorker } from "../worker-client.js";

export interface Snapshot {
  workers: { name: string; version: number | null; status: string; url: string | null }[];
  health: string;
  killSwitch: string;
  trades: { at: number; symbol: string; kind: string; direction: string | null; qty: number | null }[];
  at: string;
}

export async function snapshot(ctx: Ctx): Promise<Snapshot> {
  const local = ctx.local();
  const workers = Object.keys(ctx.config().workers).map((name) => {
    const url = local.runningUrl(name);
    return { name, version: local.currentVersion(name), status: url ? "running" : "stopped", url };
  });
  const edgeUp = workers.some((w) => w.name === "resin" && w.status === "running") || !!ctx.env.SVC_WORKER_URL;
  let health = "stopped";
  let killSwitch = "unknown";
  let trades: Snapshot["trades"] = [];
  if (edgeUp) {
    try {
      health = String((await callWorker(ctx, "GET", "/health")).json.status);
      killSwitch = (await callWorker(ctx, "GET", "/kill-switch")).json.on ? "ON" : "off";
      trades = (await callWorker(ctx, "GET", "/trades?limit=8")).json.trades as Snapshot["trades"];
    } catch (e) {
      health = `error: ${(e as Error).message}`;
    }
  }
  return { workers, health, killSwitch, trades, at: new Date().toISOString() };
}

async function view(s: Snapshot) {
  const React = await import("react");
  const { Box, Text } = await import("ink");
  const h = React.createElement;
  return h(
    Box,
    { flexDirection: "column", borderStyle: "round", paddingX: 1 },
    h(Text, { bold: true }, `resin operations  ${s.at}`),
    h(Text, null, "Workers"),
    ...s.workers.map((w) =>
      h(
        Text,
        { key: w.name, color: w.status === "running" ? "green" : "gray" },
        `  ${w.name.padEnd(12)} ${w.version === null ? "-" : `v${w.version}`}  ${w.status}${w.url ? `  ${w.url}` : ""}`,
      ),
    ),
    h(Text, null, `Health       ${s.health}`),
    h(Text, { color: s.killSwitch === "ON" ? "red" : "green" }, `Kill switch  ${s.killSwitch}`),
    h(Text, null, `Recent trades (${s.trades.length})`),
    ...s.trades.map((t, i) =>
      h(
        Text,
        { key: String(i) },
        `  ${new Date(t.at).toISOString()} ${t.symbol} ${t.kind} ${t.direction ?? ""} ${t.qty ?? ""}`,
      ),
    ),
    h(Text, { dimColor: true }, "q quits"),
  );
}

/** One frame as text: ink renders the view to a string (no live terminal, so CI and pipes get it too). */
export async function renderFrame(s: Snapshot): Promise<string> {
  const { renderToString } = await import("ink");
  return renderToString(await view(s), { columns: 100 }).trimEnd();
}

async function tui(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const interactive = ctx.session.isTTY && !opts.once && !ctx.flags.json && process.stdin.isTTY;
  if (!interactive) {
    const s = await snapshot(ctx);
    return { data: { snapshot: s }, text: await renderFrame(s) };
  }
  const { runInteractive } = await import("../tui-app.js");
  const current = await runInteractive(await snapshot(ctx), () => snapshot(ctx), view);
  return { data: { snapshot: current }, text: "" };
}

export const commands: Record<string, Cmd> = {
  tui: leaf("terminal dashboard: workers, health, recent trades, kill switch", tui, {
    options: [["--once", "render one frame and exit (the default without a TTY)"]],
  }),
};
