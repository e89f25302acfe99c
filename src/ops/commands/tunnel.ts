// `resinctl tunnel check`: is a tunnel daemon installed (cloudflared, ngrok, tailscale), and with
// --probe URL does the edge worker answer /v1/health through it.

import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { EXIT } from "../errors.js";
import { table } from "../output.js";
import { defaultRunner } from "../provider-cloudflare.js";

const DAEMONS: [string, string[]][] = [
  ["cloudflared", ["--version"]],
  ["ngrok", ["version"]],
  ["tailscale", ["version"]],
];

async function tunnelCheck(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const run = ctx.runProcess ?? defaultRunner;
  const found = DAEMONS.map(([name, args]) => {
    const r = run(name, args);
    const ok = !r.error && r.status === 0;
    return { daemon: name, status: ok ? "ok" : "missing", version: ok ? (r.stdout.trim().split("\n")[0] ?? "") : "" };
  });
  let probe: { url: string; status: string; detail: string } | null = null;
  if (opts.probe) {
    const url = new URL("v1/health", String(opts.probe).endsWith("/") ? String(opts.probe) : `${opts.probe}/`).href;
    try {
      const res = await ctx.fetch(url);
      probe = { url, status: res.ok ? "ok" : "error", detail: `HTTP ${res.status}` };
    } catch (e) {
      probe = { url, status: "down", detail: (e as Error).message };
    }
  }
  const any = found.some((f) => f.status === "ok");
  const bad = !any || (probe !== null && probe.status !== "ok");
  return {
    data: { daemons: found, tunnel: any, probe },
    text: `${table(
      ctx.out,
      ["daemon", "status", "version"],
      found.map((f) => [f.daemon, f.status, f.version]),
    )}${probe ? `\nprobe ${probe.url}: ${probe.status} (${probe.detail})` : ""}`,
    ...(bad ? { exit: EXIT.INFRA } : {}),
  };
}

export const commands: Record<string, Cmd> = {
  tunnel: group("tunnels", {
    check: leaf("detect a tunnel daemon; --probe URL checks /v1/health through it", tunnelCheck, {
      options: [["--probe <URL>", "the tunnel's public URL"]],
    }),
  }),
};
