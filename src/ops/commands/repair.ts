// `resinctl repair ...`: find what is broken in a workspace and fix it. `repair check` runs five
// steps (config, state, secrets, deployments, SQL schema) and names the fix of each failure;
// each fix is its own command. `check fix` runs the fixes the checks call for (--dry-run lists them).

import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import { requireWorker } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { confirm } from "../interaction.js";
import { table } from "../output.js";
import {
  appliedMigrations,
  applyMigrations,
  type D1Like,
  DB_BINDING,
  ensureMigrations,
  migrationFiles,
} from "../sql.js";
import { STATE_KINDS } from "../provider-local.js";
import { randomBytes } from "node:crypto";
import { chmodSync, rmSync } from "node:fs";

export interface Step {
  step: string;
  status: "ok" | "failed";
  detail: string;
  fix?: string;
}

const wrap = async (step: string, fix: string, fn: () => Promise<string | null> | string | null): Promise<Step> => {
  try {
    const problem = await fn();
    return problem === null ? { step, status: "ok", detail: "ok" } : { step, status: "failed", detail: problem, fix };
  } catch (e) {
    return { step, status: "failed", detail: (e as Error).message, fix };
  }
};

function currentIntact(root: string, worker: string): boolean {
  try {
    const { version } = JSON.parse(readFileSync(join(root, ".resin", "versions", worker, "current.json"), "utf8")) as {
      version: number;
    };
    return existsSync(join(root, ".resin", "versions", worker, `v${version}`, "worker.js"));
  } catch {
    return false;
  }
}

export async function runChecks(ctx: Ctx): Promise<Step[]> {
  const root = ctx.root();
  return [
    await wrap("config", "resinctl init --yes", () => {
      ctx.config();
      return null;
    }),
    await wrap("state", "resinctl repair infra", () => {
      const missing = STATE_KINDS.filter((k) => !existsSync(join(root, ".resin", "state", k)));
      return missing.length ? `missing .resin/state/${missing.join(", ")}` : null;
    }),
    await wrap("secrets", "resinctl repair secrets", () => {
      const store = ctx.secrets();
      store.list();
      const loose = store.hygiene().filter(([f, want]) => existsSync(f) && (statSync(f).mode & 0o777) !== want);
      if (loose.length) return `loose modes: ${loose.map(([f]) => f).join(", ")}`;
      return store.get("_internal", "INTERNAL_KEY_BINDING") ? null : "no INTERNAL_KEY_BINDING";
    }),
    await wrap("deployments", "resinctl repair worker <name>", () => {
      const broken = Object.keys(ctx.config().workers).filter(
        (w) => existsSync(join(root, ".resin", "versions", w)) && !currentIntact(root, w),
      );
      return broken.length ? `broken current version: ${broken.join(", ")}` : null;
    }),
    await wrap("db", "resinctl repair db", async () => {
      const files = migrationFiles(root);
      if (!files.length) return "no migrations (resinctl setup writes them)";
      const done = new Set(
        await ctx
          .local()
          .withStores(async (mf) => appliedMigrations((await mf.getD1Database(DB_BINDING)) as unknown as D1Like)),
      );
      const pending = files.filter((f) => !done.has(f));
      return pending.length ? `pending: ${pending.join(", ")}` : null;
    }),
  ];
}

function report(ctx: Ctx, steps: Step[]): CmdResult {
  const failed = steps.filter((s) => s.status !== "ok");
  return {
    data: { steps, ok: failed.length === 0 },
    text: table(
      ctx.out,
      ["step", "status", "detail", "fix"],
      steps.map((s) => [s.step, s.status, s.detail, s.fix ?? ""]),
    ),
    ...(failed.length ? { exit: EXIT.FAILED, next: failed[0]?.fix } : {}),
  };
}

async function repairCheck(ctx: Ctx): Promise<CmdResult> {
  return report(ctx, await runChecks(ctx));
}

export async function repairWorker(ctx: Ctx, name: string, force = false): Promise<string> {
  const cfg = requireWorker(ctx.config(), name);
  if (!force && currentIntact(ctx.root(), name)) return `${name}: current version intact`;
  const v = await ctx.local().deploy(name, cfg);
  return `${name}: redeployed as v${v.version}`;
}

export async function repairInfra(ctx: Ctx): Promise<string> {
  const local = ctx.local();
  // the Durable Objects' storage (studies, the trade service's kill switch and rate limits) among them
  for (const k of STATE_KINDS) local.stateDir(k);
  await local.withStores(async () => undefined);
  return "state directories and stores present";
}

export async function repairSecrets(ctx: Ctx): Promise<string> {
  const store = ctx.secrets();
  const done: string[] = [];
  for (const [f, want] of store.hygiene()) {
    if (existsSync(f) && (statSync(f).mode & 0o777) !== want) {
      chmodSync(f, want);
      done.push(`chmod ${want.toString(8)} ${f}`);
    }
  }
  if (!store.get("_internal", "INTERNAL_KEY_BINDING")) {
    store.set("_internal", "INTERNAL_KEY_BINDING", randomBytes(24).toString("base64url"));
    done.push("generated INTERNAL_KEY_BINDING");
  }
  return done.length ? done.join("; ") : "secrets in order";
}

interface KVStore {
  get(k: string, type: "text"): Promise<string | null>;
  put(k: string, v: string): Promise<void>;
}

export async function repairKv(ctx: Ctx): Promise<string> {
  return ctx.local().withStores(async (mf) => {
    const kv = (await mf.getKVNamespace("RESIN_KV")) as unknown as KVStore;
    const raw = await kv.get("cron:jobs", "text");
    if (raw === null) return "no cron jobs";
    let jobs: { id: string; script_id: string; enabled?: boolean }[];
    try {
      jobs = JSON.parse(raw);
      if (!Array.isArray(jobs)) throw new Error("not an array");
    } catch {
      await kv.put(`cron:jobs.corrupt.${Date.now()}`, raw);
      await kv.put("cron:jobs", "[]");
      return "cron:jobs did not parse: kept as cron:jobs.corrupt.*, reset to []";
    }
    const disabled: string[] = [];
    for (const j of jobs) {
      if (j.enabled === false) continue;
      if ((await kv.get(`script:${j.script_id}`, "text")) === null) {
        j.enabled = false;
        disabled.push(j.id);
      }
    }
    if (disabled.length) await kv.put("cron:jobs", JSON.stringify(jobs));
    return disabled.length
      ? `disabled jobs whose script is gone: ${disabled.join(", ")}`
      : "cron jobs reference existing scripts";
  });
}

export async function repairDb(ctx: Ctx): Promise<string> {
  ensureMigrations(ctx.root());
  const applied = await applyMigrations(ctx.local(), ctx.root());
  return applied.length ? `applied ${applied.join(", ")}` : "migrations up to date";
}

async function rebuild(ctx: Ctx): Promise<CmdResult> {
  await confirm(ctx, "delete every deployed version and rebuild all workers");
  const running = Object.keys(ctx.config().workers).filter((w) => ctx.local().runningUrl(w));
  if (running.length)
    throw new CtlError("WORKERS_RUNNING", `stop the running workers first (${running.join(", ")})`, {
      exit: EXIT.FAILED,
    });
  rmSync(join(ctx.root(), ".resin", "versions"), { recursive: true, force: true });
  rmSync(join(ctx.root(), ".resin", "build"), { recursive: true, force: true });
  const lines: string[] = [];
  for (const w of Object.keys(ctx.config().workers)) lines.push(await repairWorker(ctx, w, true));
  return { data: { rebuilt: lines }, text: lines.join("\n") };
}

const one =
  (fn: (ctx: Ctx, inv: Inv) => Promise<string>) =>
  async (ctx: Ctx, inv: Inv): Promise<CmdResult> => {
    const detail = await fn(ctx, inv);
    return { data: { detail }, text: detail };
  };

export const commands: Record<string, Cmd> = {
  repair: group("find and fix what is broken", {
    check: leaf("five checks: config, state, secrets, deployments, SQL schema", repairCheck),
    worker: leaf(
      "redeploy a worker whose current version is broken (--force: always)",
      one((ctx, { args, opts }) => repairWorker(ctx, args[0] as string, !!opts.force)),
      {
        args: "<name>",
        options: [["--force", "redeploy even when intact"]],
      },
    ),
    infra: leaf("recreate the state directories and stores", one(repairInfra)),
    secrets: leaf("tighten file modes, regenerate a missing internal key", one(repairSecrets)),
    kv: leaf("reset unparseable cron jobs, disable jobs whose script is gone", one(repairKv)),
    db: leaf("apply the pending migrations", one(repairDb)),
    rebuild: leaf("delete every deployed version and rebuild (destructive, --yes)", rebuild),
  }),
};
