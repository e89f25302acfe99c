// `resinctl update`: self-update from the npm registry. Reads the latest version of the resin
// package (fetch injectable, so tests need no network); --dry-run reports the plan only,
// otherwise `npm install -g resin@<latest>` through the process runner.

import { leaf, type Cmd } from "../command.js";
import { VERSION } from "../../core/version.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { defaultRunner } from "../provider-cloudflare.js";

const REGISTRY = "https://registry.npmjs.org/resin/latest";

function newer(a: string, b: string): boolean {
  const pa = a.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  const pb = b.split(/[.-]/).map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  return false;
}

async function update(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const url = ctx.env.SVC_NPM_REGISTRY ? `${ctx.env.SVC_NPM_REGISTRY.replace(/\/$/, "")}/resin/latest` : REGISTRY;
  let latest: string;
  try {
    const res = await ctx.fetch(url, { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    latest = String(((await res.json()) as { version?: string }).version ?? "");
    if (!/^\d+\.\d+\.\d+/.test(latest)) throw new Error("no version in the answer");
  } catch (e) {
    throw new CtlError("REGISTRY_UNREACHABLE", `cannot read ${url}: ${(e as Error).message}`, { exit: EXIT.INFRA });
  }
  const available = newer(latest, VERSION);
  const command = `npm install -g resin@${latest}`;
  if (!available || opts.dryRun)
    return {
      data: {
        current: VERSION,
        latest,
        update_available: available,
        dry_run: !!opts.dryRun,
        command: available ? command : null,
      },
      text: available
        ? `resin ${latest} is available (you have ${VERSION}); would run: ${command}`
        : `resin ${VERSION} is the latest`,
    };
  const r = (ctx.runProcess ?? defaultRunner)("npm", ["install", "-g", `resin@${latest}`]);
  if (r.error || r.status !== 0)
    throw new CtlError("UPDATE_FAILED", `${command} failed: ${(r.stderr || r.error?.message || "").trim()}`, {
      exit: EXIT.FAILED,
    });
  return { data: { current: VERSION, latest, updated: true }, text: `updated to resin ${latest}` };
}

export const commands: Record<string, Cmd> = {
  update: leaf("self-update from the npm registry", update, { options: [["--dry-run", "report what would happen"]] }),
};
