// The workspace's deployment config (resinctl.toml): provider, account, preset, transport, the
// bar-close cron schedule, and the workers. Worker names are validated on load and on set (they
// become directory names under .resin/, so "../x" must never pass), and config keys are a closed
// list (so `config set workers.__proto__.x` cannot reach an object's prototype).

import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "smol-toml";
import { CtlError, EXIT } from "./errors.js";
import { CONFIG_FILE } from "./workspace.js";

export interface WorkerConfig {
  /** "edge" = the resin edge worker bundled from src/edge; "mesh" = the trade service bundled from
   * src/mesh; "generate" = the script-writing worker (src/edge/generate-worker.ts, issue 23);
   * otherwise a prebuilt ES module script. */
  kind: "edge" | "mesh" | "generate" | "script";
  script?: string;
  port: number;
  compatibility_date: string;
  url?: string;
  /** Other workers this one binds by name: binding -> worker (e.g. TRADE_SERVICE -> "trade"). */
  services?: Record<string, string>;
}

export const PRESETS = ["minimal", "standard", "full"] as const;
export type Preset = (typeof PRESETS)[number];
export const TRANSPORTS = ["public", "access", "mtls", "tunnel"] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface CtlConfig {
  provider: "local" | "cloudflare";
  account_id?: string;
  preset?: Preset;
  /** How clients reach the workers (config transport). */
  transport?: Transport;
  /** Cron expressions of the bar-close trigger (default: every minute). */
  crons?: string[];
  workers: Record<string, WorkerConfig>;
}

export const DEFAULT_CRONS = ["* * * * *"];

export const DEFAULT_CONFIG: CtlConfig = {
  provider: "local",
  workers: {
    resin: { kind: "edge", port: 8788, compatibility_date: "2024-11-01", services: { TRADE_SERVICE: "trade" } },
    trade: { kind: "mesh", port: 8789, compatibility_date: "2024-11-01" },
    generate: { kind: "generate", port: 8790, compatibility_date: "2024-11-01" },
  },
};

export const WORKER_KINDS: readonly WorkerConfig["kind"][] = ["edge", "mesh", "generate", "script"];

/** Worker names: they become directory and binding names, so no path separators or dots. */
export const WORKER_NAME_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const WORKER_FIELDS = new Set(["kind", "script", "port", "url", "compatibility_date"]);

export function checkWorkerName(name: string, where = "worker name"): void {
  if (!WORKER_NAME_RE.test(name))
    throw new CtlError(
      "INVALID_WORKER_NAME",
      `${where} '${name}' is not allowed (lowercase letters, digits, - and _)`,
      {
        exit: EXIT.USAGE,
      },
    );
}

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
    if (!WORKER_NAME_RE.test(name))
      throw new CtlError(
        "CONFIG_INVALID",
        `${file}: worker name '${name}' is not allowed (lowercase letters, digits, - and _)`,
        {
          exit: EXIT.ERROR,
        },
      );
    workers[name] = {
      kind: WORKER_KINDS.includes(w.kind as WorkerConfig["kind"]) ? (w.kind as WorkerConfig["kind"]) : "edge",
      port: typeof w.port === "number" ? w.port : 8788,
      compatibility_date: typeof w.compatibility_date === "string" ? w.compatibility_date : "2024-11-01",
      ...(typeof w.script === "string" ? { script: w.script } : {}),
      ...(typeof w.url === "string" ? { url: w.url } : {}),
      ...(w.services && typeof w.services === "object" ? { services: servicesOf(file, name, w.services) } : {}),
    };
  }
  const crons = Array.isArray(doc.crons) ? doc.crons.filter((c): c is string => typeof c === "string") : undefined;
  return {
    provider: doc.provider === "cloudflare" ? "cloudflare" : "local",
    ...(typeof doc.account_id === "string" ? { account_id: doc.account_id } : {}),
    ...(PRESETS.includes(doc.preset as Preset) ? { preset: doc.preset as Preset } : {}),
    ...(TRANSPORTS.includes(doc.transport as Transport) ? { transport: doc.transport as Transport } : {}),
    ...(crons ? { crons } : {}),
    workers: Object.keys(workers).length ? workers : structuredClone(DEFAULT_CONFIG.workers),
  };
}

function servicesOf(file: string, worker: string, raw: object): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [binding, target] of Object.entries(raw)) {
    if (!/^[A-Z][A-Z0-9_]*$/.test(binding) || typeof target !== "string" || !WORKER_NAME_RE.test(target))
      throw new CtlError("CONFIG_INVALID", `${file}: workers.${worker}.services.${binding} must name a worker`, {
        exit: EXIT.ERROR,
      });
    out[binding] = target;
  }
  return out;
}

export function saveConfig(root: string, cfg: CtlConfig): void {
  // Written whole to a temporary file and renamed: a reader never sees half a config.
  const file = configPath(root);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `# resinctl deployment config\n${stringify(cfg as unknown as Record<string, unknown>)}\n`);
  renameSync(tmp, file);
}

const usage = (message: string) => new CtlError("USAGE", message, { exit: EXIT.USAGE });

/** Sets a dotted key (provider, account_id, preset, transport, crons, workers.<name>.<field>). */
export function setConfigValue(cfg: CtlConfig, key: string, raw: string): void {
  const parts = key.split(".");
  const bad = parts.find((p) => FORBIDDEN_KEYS.has(p));
  if (bad) throw new CtlError("INVALID_CONFIG_KEY", `config keys cannot contain '${bad}'`, { exit: EXIT.USAGE });
  if (parts.length === 1) {
    if (key === "provider") {
      if (raw !== "local" && raw !== "cloudflare") throw usage("provider must be local or cloudflare");
      cfg.provider = raw;
      return;
    }
    if (key === "account_id") {
      if (!/^[0-9a-f]{32}$/i.test(raw) && !/^[A-Za-z0-9_-]{1,64}$/.test(raw))
        throw usage("account_id is a 32-hex-digit id");
      cfg.account_id = raw;
      return;
    }
    if (key === "preset") {
      if (!PRESETS.includes(raw as Preset)) throw usage(`preset must be one of ${PRESETS.join(", ")}`);
      cfg.preset = raw as Preset;
      return;
    }
    if (key === "transport") {
      if (!TRANSPORTS.includes(raw as Transport)) throw usage(`transport must be one of ${TRANSPORTS.join(", ")}`);
      cfg.transport = raw as Transport;
      return;
    }
    if (key === "crons") {
      cfg.crons = raw
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
      return;
    }
  }
  if (parts.length === 3 && parts[0] === "workers") {
    const [, name, field] = parts as [string, string, string];
    checkWorkerName(name);
    if (!WORKER_FIELDS.has(field))
      throw usage(`workers.${name}.${field}: worker fields are ${[...WORKER_FIELDS].join(", ")}`);
    const w: WorkerConfig = Object.hasOwn(cfg.workers, name)
      ? (cfg.workers[name] as WorkerConfig)
      : { kind: "script", port: 8788, compatibility_date: "2024-11-01" };
    if (field === "port") {
      if (!/^\d+$/.test(raw) || Number(raw) > 65535) throw usage("port must be 0-65535");
      w.port = Number(raw);
    } else if (field === "kind") {
      if (!WORKER_KINDS.includes(raw as WorkerConfig["kind"]))
        throw usage(`kind must be one of ${WORKER_KINDS.join(", ")}`);
      w.kind = raw as WorkerConfig["kind"];
    } else if (field === "compatibility_date") {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw usage("compatibility_date is YYYY-MM-DD");
      w.compatibility_date = raw;
    } else if (field === "url") {
      try {
        new URL(raw);
      } catch {
        throw usage(`url must be an absolute URL (got '${raw}')`);
      }
      w.url = raw;
    } else w.script = raw;
    cfg.workers[name] = w;
    return;
  }
  throw new CtlError("USAGE", `unknown config key '${key}'`, {
    exit: EXIT.USAGE,
    hint: "keys: provider, account_id, preset, transport, crons, workers.<name>.{kind,script,port,url,compatibility_date}",
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
