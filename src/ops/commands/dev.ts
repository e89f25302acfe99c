// `resinctl dev ...`: workers in the foreground under workerd (or natively in Node) until
// SIGINT/SIGTERM or --for seconds; each gets its secrets live and the bar-close cron on schedule.

import { group, leaf, type Cmd } from "../command.js";
import { DEV_OPTIONS, dashboardDev } from "./dashboard.js";
import { DEFAULT_CRONS, requireWorker, type WorkerConfig } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { paint } from "../output.js";
import type { DevServer } from "../provider-local.js";
import { startNative } from "../runtime-native.js";

/** Keeps dev servers in the foreground until SIGINT/SIGTERM (or --for seconds), then stops them all. */
async function serveUntilSignal(ctx: Ctx, servers: DevServer[], seconds?: number): Promise<CmdResult> {
  if (!ctx.flags.json)
    for (const s of servers) ctx.out.write(`${paint(ctx.out, "green", "●")} ${s.worker} v${s.version} on ${s.url}\n`);
  else
    ctx.out.write(
      `${JSON.stringify({ success: true, event: "listening", workers: servers.map((s) => ({ worker: s.worker, url: s.url, version: s.version })) })}\n`,
    );
  let signal: string | null = null;
  await new Promise<void>((resolve) => {
    const done = (sig: string | null) => () => {
      signal = sig;
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      if (timer) clearTimeout(timer);
      resolve();
    };
    const onInt = done("SIGINT");
    const onTerm = done("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    const timer = seconds !== undefined ? setTimeout(done(null), seconds * 1000) : null;
  });
  // A clean stop (every server disposed, run files removed) is a successful end: exit 0.
  await Promise.all(servers.map((s) => s.stop()));
  const cronRuns = servers.reduce((n, s) => n + s.cronRuns, 0);
  return {
    data: { stopped: servers.map((s) => s.worker), signal, cron_runs: cronRuns },
    text: `stopped ${servers.map((s) => s.worker).join(", ")}${signal ? ` on ${signal}` : ""}`,
  };
}

/** A worker's secrets now, re-read when the store changes (a secret set reaches it without a restart). */
function secretBindings(ctx: Ctx, name: string): { bindings: () => Record<string, string>; watch: string[] } {
  const store = ctx.secrets();
  store.all(name); // a wrong key or a damaged store stops the start with its coded error
  return { bindings: () => store.all(name), watch: [store.file] };
}

function cronsFor(ctx: Ctx, w: WorkerConfig): string[] {
  return w.kind === "edge" ? (ctx.config().crons ?? DEFAULT_CRONS) : [];
}

const RUNTIMES = ["workerd", "native"] as const;

async function startOne(ctx: Ctx, name: string, w: WorkerConfig, port: number, runtime: string): Promise<DevServer> {
  const { bindings, watch } = secretBindings(ctx, name);
  const crons = cronsFor(ctx, w);
  const onCron = (cron: string, outcome: string) =>
    !ctx.flags.quiet && ctx.out.writeErr(`cron ${cron} on ${name}: ${outcome}\n`);
  if (runtime === "native") return startNative(ctx.local(), name, w, { port, bindings, crons });
  return ctx.local().startDev(name, w, {
    port,
    bindings,
    watch,
    crons,
    onCron,
    onReload: (v) => ctx.out.writeErr(`reloaded ${name} v${v}\n`),
  });
}

function runtimeOf(opts: Inv["opts"]): string {
  const runtime = String(opts.runtime ?? "workerd");
  if (!RUNTIMES.includes(runtime as (typeof RUNTIMES)[number]))
    throw new CtlError("USAGE", `--runtime must be workerd or native (got '${runtime}')`, { exit: EXIT.USAGE });
  return runtime;
}

export async function devWorker(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const name = args[0] as string;
  const cfg = requireWorker(ctx.config(), name);
  const server = await startOne(ctx, name, cfg, (opts.port as number | undefined) ?? cfg.port, runtimeOf(opts));
  return serveUntilSignal(ctx, [server], opts.for as number | undefined);
}

export async function devStart(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const runtime = runtimeOf(opts);
  const cfg = ctx.config();
  const servers: DevServer[] = [];
  let port = (opts.port as number | undefined) ?? null;
  try {
    for (const [name, w] of Object.entries(cfg.workers)) {
      if (runtime === "native" && w.kind !== "edge") continue;
      servers.push(await startOne(ctx, name, w, port ?? w.port, runtime));
      if (port) port++;
    }
  } catch (e) {
    await Promise.all(servers.map((s) => s.stop()));
    throw e;
  }
  return serveUntilSignal(ctx, servers, opts.for as number | undefined);
}

export const commands: Record<string, Cmd> = {
  dev: group("run workers locally under workerd", {
    start: leaf("start every configured worker (foreground)", devStart, {
      options: [
        ["--port <N>", "first port (the next workers take the following ones; 0 picks free ports)", "int"],
        ["--runtime <R>", "workerd (default) or native (the edge app in Node, same stores)"],
        ["--for <S>", "stop by itself after S seconds (smoke tests, CI)", "int"],
      ],
      examples: ["resinctl dev start", "resinctl dev start --port 0"],
    }),
    worker: leaf("start one worker (foreground)", devWorker, {
      args: "<name>",
      options: [
        ["--port <N>", "port (0 picks a free one)", "int"],
        ["--runtime <R>", "workerd (default) or native"],
        ["--for <S>", "stop by itself after S seconds", "int"],
      ],
    }),
    dashboard: leaf("serve the dashboard locally (same as dashboard dev)", dashboardDev, { options: DEV_OPTIONS }),
  }),
};
