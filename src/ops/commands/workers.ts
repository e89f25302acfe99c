// `resinctl workers ...`: the configured workers, their versions and status.

import { group, leaf, type Cmd } from "../command.js";
import { LOG_OPTIONS, showLogs } from "../logview.js";
import type { CmdResult, Ctx } from "../context.js";
import { table } from "../output.js";
import { devWorker } from "./dev.js";

export async function workersList(ctx: Ctx): Promise<CmdResult> {
  const cfg = ctx.config();
  const local = ctx.local();
  const rows = Object.entries(cfg.workers).map(([name, w]) => {
    const url = local.runningUrl(name);
    return {
      name,
      kind: w.kind,
      port: w.port,
      version: local.currentVersion(name),
      status: url ? "running" : "stopped",
      url,
    };
  });
  return {
    data: { provider: ctx.providerName(), workers: rows },
    text: table(
      ctx.out,
      ["worker", "kind", "port", "version", "status", "url"],
      rows.map((r) => [
        r.name,
        r.kind,
        String(r.port),
        r.version === null ? "-" : `v${r.version}`,
        r.status,
        r.url ?? "",
      ]),
    ),
    next: "resinctl dev start",
  };
}

export const commands: Record<string, Cmd> = {
  workers: group("workers", {
    list: leaf("configured workers, versions and status", workersList),
    dev: leaf("start one worker (same as dev worker)", devWorker, {
      args: "<name>",
      options: [["--port <N>", "port (0 picks a free one)", "int"]],
    }),
    logs: leaf(
      "a worker's captured log (same as logs worker)",
      async (ctx, { args, opts }) => showLogs(ctx, args[0] as string, opts),
      {
        args: "<name>",
        options: LOG_OPTIONS,
      },
    ),
  }),
};
