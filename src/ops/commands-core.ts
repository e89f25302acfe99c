// Workspace-level commands: init/onboard/setup, config, secrets, keys, doctor, check, disclaimer.

import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { configPath, DEFAULT_CONFIG, hasConfig, loadConfig, saveConfig, setConfigValue } from "./config.js";
import type { CmdResult, Ctx, Inv } from "./context.js";
import { buildEdgeWorker, packageRoot } from "./edge-build.js";
import { CtlError, EXIT, usageError } from "./errors.js";
import { mask } from "./secrets.js";
import { paint, table } from "./output.js";
import { remember } from "./workspace.js";

export async function init(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  if (hasConfig(root) && !ctx.flags.yes) {
    throw new CtlError("CONFIG_EXISTS", `${configPath(root)} already exists`, {
      exit: EXIT.USAGE,
      hint: "pass --yes to overwrite it",
      suggestions: ["resinctl config show"],
    });
  }
  const cfg = structuredClone(DEFAULT_CONFIG);
  if (opts.provider) setConfigValue(cfg, "provider", String(opts.provider));
  if (opts.account) cfg.account_id = String(opts.account);
  saveConfig(root, cfg);
  remember(ctx.ws.home, root);
  return {
    data: { config: configPath(root), provider: cfg.provider },
    text: `wrote ${configPath(root)} (provider ${cfg.provider})`,
    next: "resinctl setup",
  };
}

export async function setup(ctx: Ctx): Promise<CmdResult> {
  const root = ctx.root();
  const local = ctx.local();
  for (const k of ["kv", "sql", "obj", "queues"] as const) local.stateDir(k);
  const secrets = ctx.secrets();
  const created: string[] = [];
  if (!secrets.get("_internal", "INTERNAL_KEY_BINDING")) {
    secrets.set("_internal", "INTERNAL_KEY_BINDING", randomBytes(24).toString("base64url"));
    created.push("INTERNAL_KEY_BINDING");
  }
  return {
    data: { state: join(root, ".resin", "state"), created_keys: created },
    text: `state in ${join(root, ".resin", "state")}${created.length ? `; generated ${created.join(", ")}` : ""}`,
    next: "resinctl deploy all",
  };
}

export async function onboard(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const preset = String(opts.preset ?? "minimal");
  if (!["minimal", "standard", "full"].includes(preset)) throw usageError("--preset must be minimal, standard or full");
  const parts: string[] = [];
  if (!hasConfig(ctx.root()))
    parts.push((await init(ctx, { args: [], opts: opts.account ? { account: opts.account } : {} })).text as string);
  parts.push((await setup(ctx)).text as string);
  return { data: { preset, config: configPath(ctx.root()) }, text: parts.join("\n"), next: "resinctl dev start" };
}

export async function configShow(ctx: Ctx): Promise<CmdResult> {
  const cfg = ctx.config();
  const lines = [`provider   ${cfg.provider}`, ...(cfg.account_id ? [`account_id ${cfg.account_id}`] : [])];
  lines.push(
    table(
      ctx.out,
      ["worker", "kind", "port", "url"],
      Object.entries(cfg.workers).map(([n, w]) => [n, w.kind, String(w.port), w.url ?? ""]),
    ),
  );
  return { data: { config: cfg, file: configPath(ctx.root()), exists: hasConfig(ctx.root()) }, text: lines.join("\n") };
}

export async function configSet(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const [key, value] = args as [string, string];
  const cfg = loadConfig(ctx.root());
  setConfigValue(cfg, key, value);
  saveConfig(ctx.root(), cfg);
  return { data: { key, value }, text: `${key} = ${value}` };
}

export async function secretsList(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const worker = args[0];
  const store = ctx.secrets();
  const rows = store.list(worker).map((s) => ({ ...s, preview: mask(store.get(s.worker, s.name) ?? "") }));
  return {
    data: { secrets: rows.map(({ worker: w, name }) => ({ worker: w, name })) },
    text: rows.length
      ? table(
          ctx.out,
          ["worker", "name", "value"],
          rows.map((r) => [r.worker, r.name, r.preview]),
        )
      : "no secrets",
  };
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

export async function secretsSet(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const [worker, name] = args as [string, string];
  if (!/^[A-Z][A-Z0-9_]*$/.test(name)) throw usageError(`secret names are UPPER_SNAKE_CASE (got '${name}')`);
  const value = (opts.value as string | undefined) ?? (process.stdin.isTTY ? null : await readStdin());
  if (!value) throw usageError("no value: pass --value or pipe it on stdin");
  ctx.secrets().set(worker, name, value);
  // With the cloudflare provider the secret also goes to the deployed worker (value on stdin).
  const pushed = ctx.providerName() === "cloudflare" && worker !== "_internal";
  if (pushed) ctx.cloudflare().putSecret(worker, name, value);
  return {
    data: { worker, name, pushed },
    text: `set ${worker}/${name} (${mask(value)})${pushed ? " and pushed to Cloudflare" : ""}`,
  };
}

export async function secretsDelete(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const [worker, name] = args as [string, string];
  if (!ctx.secrets().delete(worker, name))
    throw new CtlError("NOT_FOUND", `no secret ${worker}/${name}`, { exit: EXIT.FAILED });
  return { data: { worker, name, deleted: true }, text: `deleted ${worker}/${name}` };
}

export async function keysGenerate(ctx: Ctx): Promise<CmdResult> {
  const store = ctx.secrets();
  const n = store.list("_internal").filter((s) => s.name.startsWith("INTERNAL_KEY")).length;
  const name = n === 0 ? "INTERNAL_KEY_BINDING" : `INTERNAL_KEY_BINDING_${n + 1}`;
  const value = randomBytes(24).toString("base64url");
  store.set("_internal", name, value);
  return { data: { name }, text: `generated ${name} (${mask(value)})` };
}

export async function keysList(ctx: Ctx): Promise<CmdResult> {
  const store = ctx.secrets();
  const keys = store
    .list("_internal")
    .map((s) => ({ name: s.name, preview: mask(store.get("_internal", s.name) ?? "") }));
  return {
    data: { keys: keys.map((k) => k.name) },
    text: keys.length
      ? table(
          ctx.out,
          ["key", "value"],
          keys.map((k) => [k.name, k.preview]),
        )
      : "no internal keys (resinctl keys generate)",
  };
}

function mode(path: string): string | null {
  try {
    return (statSync(path).mode & 0o777).toString(8);
  } catch {
    return null;
  }
}

export async function doctor(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  if (opts.fixRuntime) {
    throw new CtlError(
      "NOT_IMPLEMENTED",
      "doctor --fix-runtime (cloning a global runtime into ~/.resinctl/repo) is not implemented in this build",
      { exit: EXIT.FAILED, hint: "set SVC_REPO to a resin checkout instead" },
    );
  }
  const ws = ctx.ws;
  const facts: Record<string, unknown> = {
    remembered: ws.remembered ?? "none",
    runtime_root: ws.root ?? "none",
    source: ws.source,
    home: ws.home,
    terminal_ui: "resinctl tui",
    provider: ctx.providerName(),
  };
  const issues: string[] = [];
  if (ws.root) {
    const key = join(ws.root, ".resin", "secret.key");
    const sec = join(ws.root, ".resin", "secrets.json");
    for (const f of [key, sec]) {
      const m = mode(f);
      if (m && m !== "600") issues.push(`${f} has mode ${m}; expected 600`);
    }
    if (!ctx.env.SVC_SECRET_KEY && !existsSync(key)) facts.secret_key = "none yet (created on the first `secrets set`)";
    else facts.secret_key = ctx.env.SVC_SECRET_KEY ? "SVC_SECRET_KEY" : key;
  }
  facts.security = issues.length ? issues : "ok";
  const lines = [
    `Remembered     ${facts.remembered}`,
    `Runtime root   ${facts.runtime_root}`,
    `Source         ${facts.source}`,
    `Terminal UI    ${facts.terminal_ui}`,
    `Provider       ${facts.provider}`,
    `Security       ${issues.length ? paint(ctx.out, "yellow", issues.join("; ")) : paint(ctx.out, "green", "ok")}`,
  ];
  return { data: facts, text: lines.join("\n"), ...(issues.length ? { exit: EXIT.FAILED } : {}) };
}

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
  const bad = rows.some((r) => r.status === "down" || r.status === "error");
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

export async function buildOnly(): Promise<CmdResult> {
  const b = await buildEdgeWorker();
  return { data: { ...b }, text: `bundled ${b.script} (+ kernels.wasm)` };
}

export const DISCLAIMER = `resin runs trading scripts for research and automation. Nothing it computes is financial advice.
Strategy events are forwarded to a trade service only when you configure one; alerts are never orders.
You are responsible for any orders your own services place.`;

export async function disclaimer(): Promise<CmdResult> {
  return { data: { disclaimer: DISCLAIMER }, text: DISCLAIMER };
}
