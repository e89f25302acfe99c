// onboard, init and setup: from an empty directory to a workspace with a deployment config
// (init is a wizard on a TTY), local state, internal keys, the SQL schema, secrets and (preset
// full) the dashboard. A fresh directory becomes a workspace: init writes the project marker
// (a package.json depending on resin) next to resinctl.toml.

import { randomBytes } from "node:crypto";
import { existsSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { VERSION } from "../../core/version.js";
import { leaf, type Cmd } from "../command.js";
import {
  configPath,
  DEFAULT_CONFIG,
  hasConfig,
  loadConfig,
  PRESETS,
  type Preset,
  saveConfig,
  setConfigValue,
} from "../config.js";
import { buildDashboard } from "../dashboard.js";
import { applyMigrations, ensureMigrations } from "../sql.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { remember } from "../workspace.js";

/** A new workspace needs the project marker: a package.json that depends on resin. */
function ensureProjectMarker(root: string): boolean {
  const pkg = join(root, "package.json");
  if (existsSync(pkg)) return false;
  const name =
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, "-") || "resin-workers";
  writeFileSync(
    pkg,
    `${JSON.stringify({ name, private: true, description: "resin edge workers (resinctl)", dependencies: { resin: `^${VERSION}` } }, null, 2)}\n`,
  );
  return true;
}

/** Asks init's questions on a TTY (provider, account); flags answer them without asking. */
async function wizard(ctx: Ctx, opts: Inv["opts"]): Promise<{ provider?: string; account?: string; preset?: string }> {
  const answers: { provider?: string; account?: string; preset?: string } = {
    ...(opts.provider ? { provider: String(opts.provider) } : {}),
    ...(opts.account ? { account: String(opts.account) } : {}),
    ...(opts.preset ? { preset: String(opts.preset) } : {}),
  };
  const p = ctx.session.prompter;
  if (!ctx.session.isTTY || !p || ctx.flags.json || ctx.flags.quiet || ctx.flags.yes) return answers;
  if (!answers.provider) {
    const picked = await p.select("Where do the workers run?", ["local", "cloudflare"]);
    if (picked === null) throw new CtlError("CANCELLED", "init cancelled", { exit: EXIT.ERROR });
    answers.provider = picked;
  }
  if (answers.provider === "cloudflare" && !answers.account) {
    const account = await p.text("Cloudflare account id");
    if (account === null) throw new CtlError("CANCELLED", "init cancelled", { exit: EXIT.ERROR });
    answers.account = account.trim();
  }
  if (!answers.preset) {
    const preset = await p.select("Preset", PRESETS);
    if (preset === null) throw new CtlError("CANCELLED", "init cancelled", { exit: EXIT.ERROR });
    answers.preset = preset;
  }
  return answers;
}

export async function init(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  if (hasConfig(root) && !ctx.flags.yes) {
    throw new CtlError("CONFIG_EXISTS", `${configPath(root)} already exists`, {
      exit: EXIT.USAGE,
      hint: "pass --yes to overwrite it",
      suggestions: ["resinctl config show"],
    });
  }
  const answers = await wizard(ctx, opts);
  const cfg = structuredClone(DEFAULT_CONFIG);
  if (answers.provider) setConfigValue(cfg, "provider", answers.provider);
  if (answers.account) setConfigValue(cfg, "account_id", answers.account);
  if (answers.preset) setConfigValue(cfg, "preset", answers.preset);
  if (opts.token) {
    if (!opts.account && !cfg.account_id) throw usageError("--token needs --account (the Cloudflare account id)");
    cfg.provider = "cloudflare";
  }
  const marker = ensureProjectMarker(root);
  saveConfig(root, cfg);
  if (opts.token) ctx.secrets().set("_provider", "CLOUDFLARE_API_TOKEN", String(opts.token));
  remember(ctx.ws.home, root);
  return {
    data: {
      config: configPath(root),
      provider: cfg.provider,
      preset: cfg.preset ?? "minimal",
      created_package_json: marker,
      token_stored: !!opts.token,
    },
    text: `wrote ${configPath(root)} (provider ${cfg.provider}, preset ${cfg.preset ?? "minimal"})${opts.token ? "; API token stored encrypted" : ""}`,
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
  const cfg = ctx.config();
  const preset = cfg.preset ?? "minimal";
  // standard and full: the edge worker asks for an API key, and the SQL schema is applied.
  if (preset !== "minimal" && !secrets.get("resin", "API_KEY")) {
    secrets.set("resin", "API_KEY", randomBytes(24).toString("base64url"));
    created.push("resin/API_KEY");
  }
  const migrations = ensureMigrations(root);
  const applied = await applyMigrations(local, root);
  let dashboard: string | null = null;
  if (preset === "full") dashboard = (await buildDashboard(root)).dir;
  return {
    data: {
      state: join(root, ".resin", "state"),
      created_keys: created,
      migrations: migrations,
      applied,
      dashboard,
    },
    text: [
      `state in ${join(root, ".resin", "state")}`,
      created.length ? `generated ${created.join(", ")}` : "keys present",
      `SQL schema: ${applied.length ? `applied ${applied.join(", ")}` : "up to date"}`,
      ...(dashboard ? [`dashboard built in ${dashboard}`] : []),
    ].join("\n"),
    next: "resinctl deploy all",
  };
}

export async function onboard(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const preset = String(opts.preset ?? "minimal");
  if (!PRESETS.includes(preset as Preset)) throw usageError("--preset must be minimal, standard or full");
  const parts: string[] = [];
  if (!hasConfig(ctx.root())) parts.push((await init(ctx, { args: [], opts: { ...opts, preset } })).text as string);
  else if (opts.preset) {
    const cfg = loadConfig(ctx.root());
    setConfigValue(cfg, "preset", preset);
    saveConfig(ctx.root(), cfg);
  }
  const done = await setup(ctx);
  parts.push(done.text as string);
  return {
    data: { preset, config: configPath(ctx.root()), ...done.data },
    text: parts.join("\n"),
    next: "resinctl dev start",
  };
}

export const commands: Record<string, Cmd> = {
  onboard: leaf("init + setup in one go", onboard, {
    aliases: ["bootstrap", "quickstart"],
    options: [
      ["--token <T>", "Cloudflare API token"],
      ["--account <A>", "Cloudflare account id"],
      ["--preset <P>", "minimal | standard | full"],
    ],
    examples: ["resinctl onboard --preset minimal"],
    seeAlso: ["init", "setup"],
  }),
  init: leaf("write the deployment config (resinctl.toml)", init, {
    options: [
      ["--provider <P>", "local | cloudflare"],
      ["--account <ID>", "Cloudflare account id"],
      ["--preset <P>", "minimal | standard | full"],
      ["--token <T>", "Cloudflare API token"],
    ],
    seeAlso: ["setup", "config show"],
  }),
  setup: leaf("state, internal keys, SQL schema, secrets, dashboard", setup, { seeAlso: ["init", "check setup"] }),
};
