// onboard, init and setup: from an empty directory to a workspace with a deployment config,
// local state, internal keys.

import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { leaf, type Cmd } from "../command.js";
import { configPath, DEFAULT_CONFIG, hasConfig, saveConfig, setConfigValue } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { remember } from "../workspace.js";

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
  setup: leaf("state directories, internal keys", setup, { seeAlso: ["init", "check setup"] }),
};
