// `resinctl check ...`: prerequisites, setup, the workers' health, fixes.

import { existsSync } from "node:fs";
import { join } from "node:path";
import { group, leaf, notImplemented, type Cmd } from "../command.js";
import { configPath, hasConfig } from "../config.js";
import type { CmdResult, Ctx } from "../context.js";
import { packageRoot } from "../edge-build.js";
import { EXIT } from "../errors.js";
import { table } from "../output.js";

export async function checkPrerequisites(ctx: Ctx): Promise<CmdResult> {
  const root = packageRoot();
  const checks: { name: string; status: string; detail: string }[] = [];
  const major = Number(process.versions.node.split(".")[0]);
  checks.push({ name: "node", status: major >= 20 ? "ok" : "failed", detail: process.versions.node });
  for (const [name, mod] of [
    ["workerd", "workerd"],
    ["miniflare", "miniflare"],
    ["esbuild", "esbuild"],
  ] as const) {
    checks.push({
      name,
      status: existsSync(join(root, "node_modules", mod)) ? "ok" : "failed",
      detail: existsSync(join(root, "node_modules", mod)) ? "installed" : "missing (npm install)",
    });
  }
  checks.push({
    name: "kernels.wasm",
    status: existsSync(join(root, "build", "kernels.wasm")) ? "ok" : "failed",
    detail: "build/kernels.wasm",
  });
  if (ctx.providerName() === "cloudflare") {
    try {
      checks.push({ name: "wrangler", status: "ok", detail: ctx.cloudflare().requireWrangler() });
    } catch (e) {
      checks.push({ name: "wrangler", status: "failed", detail: (e as Error).message });
    }
  }
  const failed = checks.filter((c) => c.status !== "ok").length;
  return {
    data: { checks, ok: failed === 0 },
    text: table(
      ctx.out,
      ["check", "status", "detail"],
      checks.map((c) => [c.name, c.status, c.detail]),
    ),
    ...(failed ? { exit: EXIT.INFRA } : {}),
  };
}

export async function checkHealth(ctx: Ctx): Promise<CmdResult> {
  const cfg = ctx.config();
  const rows: { worker: string; status: string; url: string; detail: string }[] = [];
  for (const [name, w] of Object.entries(cfg.workers)) {
    const url = w.url ?? ctx.local().runningUrl(name);
    if (!url) {
      rows.push({ worker: name, status: "stopped", url: "", detail: "not running (resinctl dev start)" });
      continue;
    }
    try {
      const res = await ctx.fetch(new URL("health", url.endsWith("/") ? url : `${url}/`));
      const body = (await res.json()) as { status?: string; version?: string };
      rows.push({
        worker: name,
        status: res.ok && body.status === "ok" ? "ok" : "error",
        url,
        detail: `HTTP ${res.status} ${body.version ?? ""}`.trim(),
      });
    } catch (e) {
      rows.push({ worker: name, status: "down", url, detail: (e as Error).message });
    }
  }
  // Nothing running is infrastructure unavailable too (exit 3), not a healthy answer.
  const bad = rows.some((r) => r.status !== "ok");
  return {
    data: { workers: rows },
    text: table(
      ctx.out,
      ["worker", "status", "url", "detail"],
      rows.map((r) => [r.worker, r.status, r.url, r.detail]),
    ),
    ...(bad ? { exit: EXIT.INFRA } : {}),
  };
}

export async function checkSetup(ctx: Ctx): Promise<CmdResult> {
  const root = ctx.root();
  const checks = [
    { name: "config", ok: hasConfig(root), detail: configPath(root) },
    { name: "state", ok: existsSync(join(root, ".resin", "state")), detail: join(root, ".resin", "state") },
    { name: "internal key", ok: ctx.secrets().list("_internal").length > 0, detail: "INTERNAL_KEY_BINDING" },
  ];
  const failed = checks.filter((c) => !c.ok);
  return {
    data: { checks },
    text: table(
      ctx.out,
      ["check", "status", "detail"],
      checks.map((c) => [c.name, c.ok ? "ok" : "failed", c.detail]),
    ),
    ...(failed.length ? { exit: EXIT.FAILED, next: "resinctl setup" } : {}),
  };
}

export const commands: Record<string, Cmd> = {
  check: group("verify the installation", {
    prerequisites: leaf("node, workerd, esbuild, kernels.wasm (and wrangler for cloudflare)", checkPrerequisites),
    setup: leaf("config, state and keys", checkSetup),
    health: leaf("probe every worker's /health", checkHealth, {
      options: [["--fix", "repair what can be repaired"]],
    }),
    fix: notImplemented("check fix", "repair what check found"),
    "submodule-gitignore": notImplemented("check submodule-gitignore", "check submodule ignores"),
  }),
};
