// `resinctl dashboard ...` (and `dev dashboard`, `deploy dashboard`): the operations page of
// dashboard.ts. dev serves it on 127.0.0.1 with /api/* proxied to the edge worker (the API key is
// added here, never shipped to the page); deploy stores a numbered static bundle (local).

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { buildDashboard, dashboardHtml } from "../dashboard.js";
import { CtlError, EXIT } from "../errors.js";
import { follow } from "../interaction.js";
import { workerUrl } from "../worker-client.js";

export async function dashboardDev(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  const html = dashboardHtml(root);
  let key: string | null = null;
  try {
    key = ctx.secrets().get("resin", "API_KEY");
  } catch {
    key = null;
  }
  const server = createServer(async (req, res) => {
    const path = req.url ?? "/";
    if (!path.startsWith("/api/")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
      return;
    }
    try {
      const upstream = await ctx.fetch(new URL(path.slice(5), workerUrl(ctx)), {
        headers: key ? { "x-api-key": key } : {},
      });
      res
        .writeHead(upstream.status, { "content-type": upstream.headers.get("content-type") ?? "application/json" })
        .end(await upstream.text());
    } catch (e) {
      res
        .writeHead(502, { "content-type": "application/json" })
        .end(JSON.stringify({ status: "error", message: (e as Error).message }));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e) =>
      reject(new CtlError("INFRA_UNAVAILABLE", `cannot listen: ${e.message}`, { exit: EXIT.INFRA })),
    );
    server.listen((opts.port as number | undefined) ?? 8790, "127.0.0.1", () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  ctx.out.write(ctx.flags.json ? `${JSON.stringify({ event: "listening", url })}\n` : `dashboard on ${url}\n`);
  const signal = await follow(() => undefined, opts.for as number | undefined, 1000);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { data: { url, stopped: true, signal }, text: "dashboard stopped" };
}

export async function dashboardDeploy(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  const build = join(root, ".resin", "dashboard", "build");
  if (opts.rebuild || !existsSync(join(build, "index.html"))) await buildDashboard(root);
  const dir = join(root, ".resin", "dashboard", "versions");
  mkdirSync(dir, { recursive: true });
  const next = Math.max(0, ...readdirSync(dir).map((d) => Number(d.replace(/^v/, "")) || 0)) + 1;
  cpSync(build, join(dir, `v${next}`), { recursive: true });
  return {
    data: { version: next, dir: join(dir, `v${next}`), rebuilt: !!opts.rebuild },
    text: `dashboard v${next} deployed to ${join(dir, `v${next}`)}`,
    next: "resinctl dashboard dev",
  };
}

export const DEV_OPTIONS: [string, string, "int"?][] = [
  ["--port <N>", "port (default 8790; 0 picks a free one)", "int"],
  ["--for <S>", "stop by itself after S seconds", "int"],
];

export const commands: Record<string, Cmd> = {
  dashboard: group("the operations dashboard", {
    dev: leaf("serve the dashboard on 127.0.0.1 (API proxied to the edge worker)", dashboardDev, {
      options: DEV_OPTIONS,
    }),
    deploy: leaf("store a numbered dashboard bundle", dashboardDeploy, {
      options: [["--rebuild", "rebuild the page first"]],
    }),
  }),
};
