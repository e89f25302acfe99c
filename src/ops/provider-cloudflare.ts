// The cloudflare provider: operations through `wrangler` subprocesses. wrangler is not a
// dependency of this project, so without it every operation reports that clearly (exit 3).

import { spawnSync } from "node:child_process";
import { CtlError, EXIT } from "./errors.js";

export type ProcessRunner = (cmd: string, args: string[]) => { status: number | null; stdout: string; stderr: string; error?: Error };

export const defaultRunner: ProcessRunner = (cmd, args) => {
  const r = spawnSync(cmd, args, { encoding: "utf8" });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...(r.error ? { error: r.error } : {}) };
};

export class CloudflareProvider {
  private readonly run: ProcessRunner;

  constructor(run: ProcessRunner = defaultRunner) {
    this.run = run;
  }

  /** wrangler's version, or a CtlError (exit 3) when it is not installed. */
  requireWrangler(): string {
    const r = this.run("wrangler", ["--version"]);
    if (r.error || r.status !== 0) {
      throw new CtlError("WRANGLER_MISSING", "wrangler is not installed, so the cloudflare provider cannot run here", {
        exit: EXIT.INFRA,
        hint: "install it with `npm install -g wrangler`, or use the local provider (SVC_PROVIDER=local)",
      });
    }
    return r.stdout.trim();
  }

  deploy(worker: string): never {
    this.requireWrangler();
    throw new CtlError("NOT_IMPLEMENTED", `cloudflare deploy of '${worker}' is not implemented in this build`, { exit: EXIT.FAILED });
  }
}
