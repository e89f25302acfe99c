// `resinctl config ...`: show and change the deployment config, its environment files, KV
// configuration entries and the transport.

import { relative } from "node:path";
import { group, leaf, notImplemented, type Cmd } from "../command.js";
import { configPath, hasConfig, loadConfig, saveConfig, setConfigValue } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { table } from "../output.js";

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
  const [key, raw] = args as [string, string];
  // A worker's script path is given from the caller's directory and stored relative to the workspace.
  const value = /^workers\.[^.]+\.script$/.test(key) ? relative(ctx.root(), ctx.resolvePath(raw)) : raw;
  const cfg = loadConfig(ctx.root());
  setConfigValue(cfg, key, value);
  saveConfig(ctx.root(), cfg);
  return { data: { key, value }, text: `${key} = ${value}` };
}

export const commands: Record<string, Cmd> = {
  config: group("show and change the config", {
    show: leaf("print the config", configShow),
    set: leaf("set a config value", configSet, {
      args: "<key> <value>",
      examples: ["resinctl config set workers.resin.port 8790"],
    }),
    env: notImplemented("config env", "environment files"),
    kv: notImplemented("config kv", "KV configuration entries"),
    transport: notImplemented("config transport", "transport settings"),
  }),
};
