// `resinctl dev ...`: workers in the foreground under workerd (local provider) until SIGINT/SIGTERM.

import { group, leaf, notImplemented, type Cmd } from "../command.js";
import { requireWorker } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { paint } from "../output.js";
import type { DevServer } from "../provider-local.js";

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
  const cfg = requireWorker(ctx.config(), name);
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

export const commands: Record<string, Cmd> = {
  dev: group("run workers locally under workerd", {
    start: leaf("start every configured worker (foreground)", devStart, {
      options: [
        ["--port <N>", "first port (the next workers take the following ones; 0 picks free ports)", "int"],
        ["--runtime <R>", "workerd (the only runtime of the local provider)"],
      ],
      examples: ["resinctl dev start", "resinctl dev start --port 0"],
    }),
    worker: leaf("start one worker (foreground)", devWorker, {
      args: "<name>",
      options: [["--port <N>", "port (0 picks a free one)", "int"]],
    }),
    dashboard: notImplemented("dev dashboard", "serve the dashboard locally"),
  }),
};
