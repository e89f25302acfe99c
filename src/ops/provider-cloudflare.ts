// The cloudflare provider: the same operations through `wrangler` subprocesses. wrangler is not a
// dependency of this project; without it every operation reports that clearly (exit 3). The
// process runner is injectable so the calls can be tested without wrangler or an account.

import { spawnSync } from "node:child_process";
import type { WorkerConfig } from "./config.js";
import { buildEdgeWorker, buildMeshWorker } from "./edge-build.js";
import { CtlError, EXIT } from "./errors.js";

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

export type ProcessRunner = (
  cmd: string,
  args: string[],
  opts?: { input?: string; env?: Record<string, string | undefined> },
) => ProcessResult;

export const defaultRunner: ProcessRunner = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, {
    encoding: "utf8",
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...(r.error ? { error: r.error } : {}) };
};

export class CloudflareProvider {
  private readonly run: ProcessRunner;
  private readonly env: Record<string, string | undefined>;

  constructor(run: ProcessRunner = defaultRunner, env: Record<string, string | undefined> = {}) {
    this.run = run;
    this.env = env;
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

  private wrangler(args: string[], input?: string): string {
    this.requireWrangler();
    const env = {
      CLOUDFLARE_ACCOUNT_ID: this.env.CLOUDFLARE_ACCOUNT_ID,
      CLOUDFLARE_API_TOKEN: this.env.CLOUDFLARE_API_TOKEN,
    };
    const r = this.run("wrangler", args, { ...(input !== undefined ? { input } : {}), env });
    if (r.error || r.status !== 0) {
      const detail = (r.stderr || r.stdout || r.error?.message || "").trim().split("\n").slice(-3).join(" ");
      throw new CtlError("WRANGLER_FAILED", `wrangler ${args[0]} failed: ${detail}`, {
        exit: EXIT.FAILED,
        hint: "check CLOUDFLARE_API_TOKEN / CLOUDFLARE_ACCOUNT_ID and `wrangler whoami`",
      });
    }
    return r.stdout;
  }

  /** Bundles the edge worker and deploys it with `wrangler deploy`; returns the version id wrangler printed. */
  async deploy(
    worker: string,
    cfg: WorkerConfig,
    bundleDir?: string,
  ): Promise<{ worker: string; version_id: string | null; output: string }> {
    this.requireWrangler();
    if (cfg.kind === "script" && !cfg.script)
      throw new CtlError("CONFIG_INVALID", `worker '${worker}' has no script path`);
    // The trade service's D1 (MESH_DB) and Durable Object (MESH_CONTROL) bindings come from its wrangler config.
    const script =
      cfg.kind === "edge"
        ? (await buildEdgeWorker(bundleDir)).script
        : cfg.kind === "mesh"
          ? (await buildMeshWorker(bundleDir)).script
          : (cfg.script as string);
    const out = this.wrangler([
      "deploy",
      script,
      "--name",
      worker,
      "--compatibility-date",
      cfg.compatibility_date,
      "--compatibility-flags",
      "nodejs_compat",
    ]);
    const id = /Current Version ID:\s*([0-9a-f-]+)/i.exec(out)?.[1] ?? null;
    return { worker, version_id: id, output: out.trim() };
  }

  /** `wrangler secret put NAME --name worker`, the value on stdin (never on the command line). */
  putSecret(worker: string, name: string, value: string): void {
    this.wrangler(["secret", "put", name, "--name", worker], value);
  }

  rollback(worker: string, versionId?: string): string {
    return this.wrangler([
      "rollback",
      ...(versionId ? [versionId] : []),
      "--name",
      worker,
      "--message",
      "resinctl rollback",
      "-y",
    ]).trim();
  }

  history(worker: string): string {
    return this.wrangler(["deployments", "list", "--name", worker]).trim();
  }
}
