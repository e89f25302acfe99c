// The workspace's deployment config (resinctl.toml): provider and workers.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "smol-toml";
import { CtlError, EXIT } from "./errors.js";
import { CONFIG_FILE } from "./workspace.js";

export interface WorkerConfig {
  /** "edge" = the resin edge worker bundled from src/edge; otherwise a prebuilt ES module script. */
  kind: "edge" | "script";
  script?: string;
  port: number;
  compatibility_date: string;
  url?: string;
}

export interface CtlConfig {
  provider: "local" | "cloudflare";
  account_id?: string;
  workers: Record<string, WorkerConfig>;
}

export const DEFAULT_CONFIG: CtlConfig = {
  provider: "local",
  workers: { resin: { kind: "edge", port: 8788, compatibility_date: "2024-11-01" } },
};

export function configPath(root: string): string {
  return join(root, CONFIG_FILE);
}

export function hasConfig(root: string): boolean {
  return existsSync(configPath(root));
}

export function loadConfig(root: string): CtlConfig {
  const file = configPath(root);
  if (!existsSync(file)) return structuredClone(DEFAULT_CONFIG);
  let doc: Record<string, unknown>;
  try {
    doc = parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (e) {
    throw new CtlError("CONFIG_INVALID", `${file}: ${(e as Error).message}`, {
      exit: EXIT.ERROR,
      hint: "fix the TOML syntax or re-run `resinctl init`",
    });
  }
  const workers: Record<string, WorkerConfig> = {};
  for (const [name, w] of Object.entries((doc.workers ?? {}) as Record<string, Record<string, unknown>>)) {
    workers[name] = {
      kind: w.kind === "script" ? "script" : "edge",
      port: typeof w.port === "number" ? w.port : 8788,
      compatibility_date: typeof w.compatibility_date === "string" ? w.compatibility_date : "2024-11-01",
      ...(typeof w.script === "string" ? { script: w.script } : {}),
      ...(typeof w.url === "string" ? { url: w.url } : {}),
    };
  }
  return {
    provider: doc.provider === "cloudflare" ? "cloudflare" : "local",
    ...(typeof doc.account_id === "string" ? { account_id: doc.account_id } : {}),
    workers: Object.keys(workers).length ? workers : structuredClone(DEFAULT_CONFIG.workers),
  };
}

export function saveConfig(root: string, cfg: CtlConfig): void {
  writeFileSync(
    configPath(root),
    `# resinctl deployment config\n${stringify(cfg as unknown as Record<string, unknown>)}\n`,
  );
}

/** Sets a dotted key (provider, account_id, workers.<name>.<field>). */
export function setConfigValue(cfg: CtlConfig, key: string, raw: string): void {
  const value: unknown = /^-?\d+$/.test(raw) ? Number(raw) : raw === "true" ? true : raw === "false" ? false : raw;
  const parts = key.split(".");
  if (parts.length === 1 && (key === "provider" || key === "account_id")) {
    if (key === "provider" && raw !== "local" && raw !== "cloudflare")
      throw new CtlError("USAGE", "provider must be local or cloudflare", { exit: EXIT.USAGE });
    (cfg as unknown as Record<string, unknown>)[key] = raw;
    return;
  }
  if (parts.length === 3 && parts[0] === "workers") {
    const w = (cfg.workers[parts[1] as string] ??= { kind: "script", port: 8788, compatibility_date: "2024-11-01" });
    (w as unknown as Record<string, unknown>)[parts[2] as string] = value;
    return;
  }
  throw new CtlError("USAGE", `unknown config key '${key}'`, {
    exit: EXIT.USAGE,
    hint: "keys: provider, account_id, workers.<name>.{kind,script,port,url,compatibility_date}",
  });
}

/** The named worker's config, or a usage error listing the configured ones. */
export function requireWorker(cfg: CtlConfig, name: string): WorkerConfig {
  const w = Object.hasOwn(cfg.workers, name) ? cfg.workers[name] : undefined;
  if (!w) {
    throw new CtlError("UNKNOWN_WORKER", `no worker named '${name}' in the config`, {
      exit: EXIT.USAGE,
      suggestions: Object.keys(cfg.workers).map((n) => `resinctl deploy worker ${n}`),
    });
  }
  return w;
}
