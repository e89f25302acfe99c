// `resinctl check ...`: prerequisites, setup, the workers' health, fixes.

import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import { repairDb, repairInfra, repairSecrets, repairWorker, runChecks } from "./repair.js";
import { configPath, hasConfig } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { packageRoot } from "../edge-build.js";
import { EXIT } from "../errors.js";
import { table } from "../output.js";
import { restartDetached } from "../dev-restart.js";

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

async function probe(ctx: Ctx): Promise<{ worker: string; status: string; url: string; detail: string }[]> {
  const cfg = ctx.config();
  const rows: { worker: string; status: string; url: string; detail: string }[] = [];
  for (const [name, w] of Object.entries(cfg.workers)) {
    const url = w.url ?? ctx.local().runningUrl(name);
    if (!url) {
      const dead = ctx.providerName() === "local" && ctx.local().deadRun(name);
      rows.push(
        dead
          ? { worker: name, status: "dead", url: dead.url, detail: `dev server (pid ${dead.pid}) is gone` }
          : { worker: name, status: "stopped", url: "", detail: "not running (resinctl dev start)" },
      );
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
  return rows;
}

interface Fix {
  what: string;
  detail: string;
}

/**
 * What `check health --fix` repairs on the local provider: the workspace first (state directories and
 * stores, secrets' modes and internal key, pending SQL migrations, broken current versions: the
 * `repair` fixes, which a running worker picks up by hot reload), then every dev worker whose process
 * died, restarted detached on its port. Workers never started and what needs an operator are reported.
 */
async function healthFixes(
  ctx: Ctx,
  rows: Awaited<ReturnType<typeof probe>>,
): Promise<{ fixed: Fix[]; unfixed: Fix[] }> {
  const fixed: Fix[] = [];
  const unfixed: Fix[] = [];
  if (ctx.providerName() !== "local") {
    unfixed.push({
      what: "cloudflare",
      detail:
        "--fix repairs the local provider's workspace; on Cloudflare redeploy (resinctl deploy worker <name>) or migrate (resinctl db migrate)",
    });
    return { fixed, unfixed };
  }
  for (const s of await runChecks(ctx)) {
    if (s.status === "ok") continue;
    const fix = FIXES[s.step];
    if (!fix) {
      unfixed.push({ what: s.step, detail: `${s.detail} (${s.fix ?? "manual"})` });
      continue;
    }
    try {
      fixed.push({ what: s.step, detail: `${s.detail}: ${await fix(ctx)}` });
    } catch (e) {
      unfixed.push({ what: s.step, detail: `${s.detail}: ${(e as Error).message}` });
    }
  }
  const cfg = ctx.config();
  for (const r of rows) {
    const w = cfg.workers[r.worker];
    if (r.status === "dead" && w) {
      const dead = ctx.local().deadRun(r.worker);
      try {
        const { pid, url } = await restartDetached(ctx.local(), r.worker, dead?.port ?? w.port, ctx.env);
        fixed.push({ what: `worker ${r.worker}`, detail: `restarted (pid ${pid}) on ${url}` });
      } catch (e) {
        unfixed.push({ what: `worker ${r.worker}`, detail: (e as Error).message });
      }
    } else if (r.status === "stopped") {
      unfixed.push({ what: `worker ${r.worker}`, detail: "never started here: resinctl dev start" });
    } else if (r.status !== "ok" && !w?.url) {
      // alive but failing: a broken version was redeployed above (hot reload); anything else needs a look
      unfixed.push({
        what: `worker ${r.worker}`,
        detail: `${r.status}: ${r.detail} (resinctl logs worker ${r.worker})`,
      });
    } else if (r.status !== "ok") {
      unfixed.push({ what: `worker ${r.worker}`, detail: `${r.status} at its configured url ${r.url}` });
    }
  }
  return { fixed, unfixed };
}

export async function checkHealth(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  let rows = await probe(ctx);
  let fixes: { fixed: Fix[]; unfixed: Fix[] } | null = null;
  if (opts.fix) {
    fixes = await healthFixes(ctx, rows);
    // probed again: what the fixes changed, and what they did not
    if (fixes.fixed.length) rows = await probe(ctx);
  }
  // Nothing running is infrastructure unavailable too (exit 3), not a healthy answer.
  const bad = rows.some((r) => r.status !== "ok");
  const lines = [
    table(
      ctx.out,
      ["worker", "status", "url", "detail"],
      rows.map((r) => [r.worker, r.status, r.url, r.detail]),
    ),
  ];
  if (fixes) {
    lines.push(
      fixes.fixed.length || fixes.unfixed.length
        ? table(
            ctx.out,
            ["fix", "status", "detail"],
            [
              ...fixes.fixed.map((f) => [f.what, "fixed", f.detail]),
              ...fixes.unfixed.map((f) => [f.what, "not fixed", f.detail]),
            ],
          )
        : "nothing to fix",
    );
  }
  return {
    data: { workers: rows, ...(fixes ? { fixed: fixes.fixed, unfixed: fixes.unfixed } : {}) },
    text: lines.join("\n"),
    ...(bad || fixes?.unfixed.length ? { exit: EXIT.INFRA } : {}),
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

const FIXES: Record<string, (ctx: Ctx) => Promise<string>> = {
  state: repairInfra,
  secrets: repairSecrets,
  db: repairDb,
  deployments: async (ctx) => {
    const out: string[] = [];
    for (const w of Object.keys(ctx.config().workers)) out.push(await repairWorker(ctx, w));
    return out.join("; ");
  },
};

async function checkFix(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const steps = await runChecks(ctx);
  const todo = steps.filter((s) => s.status !== "ok");
  const rows: { step: string; problem: string; action: string; status: string }[] = [];
  for (const s of todo) {
    const fix = FIXES[s.step];
    if (!fix) rows.push({ step: s.step, problem: s.detail, action: s.fix ?? "", status: "manual" });
    else if (opts.dryRun) rows.push({ step: s.step, problem: s.detail, action: s.fix ?? "", status: "would fix" });
    else {
      try {
        rows.push({ step: s.step, problem: s.detail, action: await fix(ctx), status: "fixed" });
      } catch (e) {
        rows.push({ step: s.step, problem: s.detail, action: (e as Error).message, status: "failed" });
      }
    }
  }
  const bad = rows.some((r) => r.status === "failed" || r.status === "manual");
  return {
    data: { dry_run: !!opts.dryRun, fixes: rows },
    text: rows.length
      ? table(
          ctx.out,
          ["step", "problem", "action", "status"],
          rows.map((r) => [r.step, r.problem, r.action, r.status]),
        )
      : "nothing to fix",
    ...(bad ? { exit: EXIT.FAILED } : {}),
  };
}

/** True when `path` matches a .gitignore line (plain names and dir/ patterns; what resinctl writes). */
function ignored(lines: string[], path: string): boolean {
  const p = path.replace(/\/+$/, "");
  return lines.some((l) => {
    const pat = l.trim().replace(/^\//, "").replace(/\/+$/, "");
    if (!pat || l.startsWith("#") || l.startsWith("!")) return false;
    if (pat.includes("*"))
      return new RegExp(`^${pat.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*")}(/|$)`).test(p);
    return p === pat || p.startsWith(`${pat}/`);
  });
}

async function submoduleGitignore(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  const gi = join(root, ".gitignore");
  const lines = existsSync(gi) ? readFileSync(gi, "utf8").split(/\r?\n/) : [];
  const modules = existsSync(join(root, ".gitmodules"))
    ? [...readFileSync(join(root, ".gitmodules"), "utf8").matchAll(/^\s*path\s*=\s*(.+)$/gm)].map((m) =>
        (m[1] as string).trim(),
      )
    : [];
  const problems: { path: string; problem: string }[] = [];
  for (const m of modules)
    if (ignored(lines, m)) problems.push({ path: m, problem: "submodule is ignored by .gitignore" });
  const mustIgnore = [".resin/", ".dev.vars", ".dev.vars.*"];
  const missing = mustIgnore.filter((p) => !lines.some((l) => l.trim() === p || l.trim() === `/${p}`));
  for (const p of missing) problems.push({ path: p, problem: "holds local state or secrets; not ignored" });
  let fixed = false;
  if (opts.fix && missing.length) {
    appendFileSync(
      gi,
      `${lines.length && lines[lines.length - 1] !== "" ? "\n" : ""}# resinctl: local state and secrets\n${missing.join("\n")}\n`,
    );
    fixed = true;
  }
  const left = fixed ? problems.filter((p) => !missing.includes(p.path)) : problems;
  return {
    data: { submodules: modules, problems: left, fixed: fixed ? missing : [] },
    text: left.length
      ? table(
          ctx.out,
          ["path", "problem"],
          left.map((p) => [p.path, p.problem]),
        )
      : `ok (${modules.length} submodules${fixed ? `; added ${missing.join(", ")} to .gitignore` : ""})`,
    ...(left.length ? { exit: EXIT.FAILED, next: "resinctl check sg --fix" } : {}),
  };
}

export const commands: Record<string, Cmd> = {
  check: group("verify the installation", {
    prerequisites: leaf("node, workerd, esbuild, kernels.wasm (and wrangler for cloudflare)", checkPrerequisites),
    setup: leaf("config, state and keys", checkSetup),
    health: leaf("probe every worker's /health", checkHealth, {
      options: [
        [
          "--fix",
          "repair the workspace (stores, secrets, migrations, broken versions), restart dead dev workers; reports what it fixed and what not",
        ],
      ],
    }),
    fix: leaf("run the fixes the checks call for", checkFix, { options: [["--dry-run", "only list them"]] }),
    "submodule-gitignore": leaf("the worker submodules are not ignored and .resin/ is", submoduleGitignore, {
      aliases: ["sg"],
      options: [["--fix", "append the missing .gitignore lines"]],
    }),
  }),
};
