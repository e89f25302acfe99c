// The dev-vars files (wrangler's KEY=value format): `.dev.vars` holds the edge worker's ("resin")
// variables, `.dev.vars.<worker>` another worker's. What each worker declares (required, system)
// lives here too, so `config env validate`, `secrets sync` and `repair secrets` agree.

import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface DeclaredVar {
  name: string;
  required?: boolean;
  /** Mesh secrets shared by every worker (secrets sync --system). */
  system?: boolean;
  description: string;
}

const SYSTEM: DeclaredVar[] = [
  { name: "INTERNAL_KEY_BINDING", system: true, description: "internal auth between workers" },
  { name: "WEBHOOK_SECRET", system: true, description: "signs webhook calls between workers" },
];

export function declaredVars(worker: string): DeclaredVar[] {
  if (worker === "resin")
    return [
      { name: "API_KEY", required: true, description: "X-API-Key every route but /health needs" },
      { name: "FORWARD_EVENTS", description: '"false" stops forwarding strategy events' },
      ...SYSTEM,
    ];
  if (worker === "generate")
    return [
      { name: "RESIN_LLM_BASE_URL", description: "OpenAI-compatible endpoint (unset: the offline grammar)" },
      { name: "RESIN_LLM_MODEL", description: "the model the endpoint serves" },
      { name: "RESIN_LLM_API_KEY", description: "the endpoint's API key" },
      ...SYSTEM,
    ];
  return [...SYSTEM];
}

export const isSystemSecret = (name: string): boolean => name === "INTERNAL_KEY_BINDING" || name.startsWith("WEBHOOK_");

export function devVarsFile(root: string, worker: string): string {
  return join(root, worker === "resin" ? ".dev.vars" : `.dev.vars.${worker}`);
}

/** A value that only stands in for one (left for the operator to fill). */
export function isPlaceholder(v: string): boolean {
  return v.trim() === "" || /^<.*>$/.test(v.trim()) || /^(changeme|change-me|todo|xxx+)$/i.test(v.trim());
}

/** KEY=value lines; # comments and blank lines skipped; optional quotes removed. */
export function parseDevVars(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const eq = line.indexOf("=");
    if (eq <= 0) continue;
    let v = line.slice(eq + 1).trim();
    if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1);
    out.set(line.slice(0, eq).trim(), v);
  }
  return out;
}

export function readDevVars(root: string, worker: string): Map<string, string> | null {
  const f = devVarsFile(root, worker);
  return existsSync(f) ? parseDevVars(readFileSync(f, "utf8")) : null;
}

/** Writes a dev-vars file readable by its owner only (it holds secrets). */
export function writeDevVars(file: string, vars: [string, string][], header: string): void {
  writeFileSync(file, `# ${header}\n${vars.map(([k, v]) => `${k}=${v}`).join("\n")}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
