// The local provider: workers under Miniflare/workerd on 127.0.0.1, state persisted in the
// workspace (.resin/state/{kv,sql,obj,queues}), numbered deploy versions in .resin/versions/<worker>
// with a `current` pointer; a running dev server watches the pointer and hot-reloads, so deploy
// history and rollback are real.

import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import type { MiniflareOptions } from "miniflare";
import type { WorkerConfig } from "./config.js";
import { buildEdgeWorker } from "./edge-build.js";
import { CtlError, EXIT } from "./errors.js";

export interface VersionInfo {
  worker: string;
  version: number;
  created_at: string;
  bytes: number;
  current: boolean;
}

export interface DevServer {
  worker: string;
  url: string;
  version: number;
  /** Resolves after each hot reload (tests wait on it). */
  reloads: number;
  stop(): Promise<void>;
}

export class LocalProvider {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  stateDir(kind: "kv" | "sql" | "obj" | "queues"): string {
    const dir = join(this.root, ".resin", "state", kind);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  private versionsDir(worker: string): string {
    return join(this.root, ".resin", "versions", worker);
  }

  currentVersion(worker: string): number | null {
    try {
      return (JSON.parse(readFileSync(join(this.versionsDir(worker), "current.json"), "utf8")) as { version: number })
        .version;
    } catch {
      return null;
    }
  }

  private setCurrent(worker: string, version: number): void {
    writeFileSync(
      join(this.versionsDir(worker), "current.json"),
      `${JSON.stringify({ version, updated_at: new Date().toISOString() })}\n`,
    );
  }

  history(worker: string): VersionInfo[] {
    const dir = this.versionsDir(worker);
    if (!existsSync(dir)) return [];
    const current = this.currentVersion(worker);
    return readdirSync(dir)
      .filter((d) => /^v\d+$/.test(d))
      .map((d) => {
        const meta = JSON.parse(readFileSync(join(dir, d, "meta.json"), "utf8")) as {
          version: number;
          created_at: string;
          bytes: number;
        };
        return {
          worker,
          version: meta.version,
          created_at: meta.created_at,
          bytes: meta.bytes,
          current: meta.version === current,
        };
      })
      .sort((a, b) => a.version - b.version);
  }

  /** Bundles the worker and stores it as the next version, which becomes current. */
  async deploy(worker: string, cfg: WorkerConfig): Promise<VersionInfo> {
    const dir = this.versionsDir(worker);
    mkdirSync(dir, { recursive: true });
    const next = Math.max(0, ...this.history(worker).map((v) => v.version)) + 1;
    const target = join(dir, `v${next}`);
    mkdirSync(target, { recursive: true });
    let bytes = 0;
    try {
      if (cfg.kind === "edge") {
        bytes = (await buildEdgeWorker(target)).bytes;
      } else {
        if (!cfg.script)
          throw new CtlError("CONFIG_INVALID", `worker '${worker}' has no script path`, {
            hint: `resinctl config set workers.${worker}.script path/to/worker.js`,
          });
        const src = resolve(this.root, cfg.script);
        if (!existsSync(src)) throw new CtlError("NOT_FOUND", `worker script ${src} does not exist`);
        copyFileSync(src, join(target, "worker.js"));
        bytes = statSync(src).size;
      }
    } catch (e) {
      rmSync(target, { recursive: true, force: true });
      throw e;
    }
    const created_at = new Date().toISOString();
    writeFileSync(
      join(target, "meta.json"),
      `${JSON.stringify({ version: next, created_at, bytes, kind: cfg.kind })}\n`,
    );
    this.setCurrent(worker, next);
    return { worker, version: next, created_at, bytes, current: true };
  }

  /** Makes `version` (default: the one before the current) current again. */
  rollback(worker: string, version?: number): VersionInfo {
    const versions = this.history(worker);
    if (!versions.length)
      throw new CtlError("NOT_DEPLOYED", `worker '${worker}' has no deployed versions`, {
        hint: `resinctl deploy worker ${worker}`,
      });
    const current = this.currentVersion(worker);
    const target = version ?? versions.filter((v) => current === null || v.version < current).pop()?.version;
    if (target === undefined)
      throw new CtlError("NO_PREVIOUS_VERSION", `worker '${worker}' has no version before v${current}`, {
        exit: EXIT.FAILED,
      });
    const info = versions.find((v) => v.version === target);
    if (!info)
      throw new CtlError("NOT_FOUND", `worker '${worker}' has no version ${target}`, {
        suggestions: versions.map((v) => `resinctl deploy rollback ${worker} ${v.version}`),
      });
    this.setCurrent(worker, target);
    return { ...info, current: true };
  }

  private async miniflareOptions(
    worker: string,
    cfg: WorkerConfig,
    version: number,
    port: number,
    bindings: Record<string, string>,
  ): Promise<MiniflareOptions> {
    const dir = join(this.versionsDir(worker), `v${version}`);
    const script = join(dir, "worker.js");
    const modules: { type: "ESModule" | "CompiledWasm"; path: string; contents: string | Uint8Array }[] = [
      { type: "ESModule", path: script, contents: readFileSync(script, "utf8") },
    ];
    if (existsSync(join(dir, "kernels.wasm")))
      modules.push({
        type: "CompiledWasm",
        path: join(dir, "kernels.wasm"),
        contents: readFileSync(join(dir, "kernels.wasm")),
      });
    return {
      name: worker,
      modules,
      // Module paths are resolved against this root; outside it workerd refuses "..".
      modulesRoot: dir,
      compatibilityDate: cfg.compatibility_date,
      compatibilityFlags: ["nodejs_compat"],
      host: "127.0.0.1",
      port,
      kvNamespaces: ["RESIN_KV"],
      r2Buckets: ["RESIN_BARS"],
      d1Databases: ["RESIN_DB"],
      kvPersist: this.stateDir("kv"),
      r2Persist: this.stateDir("obj"),
      d1Persist: this.stateDir("sql"),
      bindings,
    } as MiniflareOptions;
  }

  /** Runs the current version of a worker (deploying it first if it never was) and hot-reloads on deploy/rollback. */
  async startDev(
    worker: string,
    cfg: WorkerConfig,
    opts: { port?: number; bindings?: Record<string, string>; onReload?: (v: number) => void } = {},
  ): Promise<DevServer> {
    let version = this.currentVersion(worker) ?? (await this.deploy(worker, cfg)).version;
    const { Miniflare } = await import("miniflare");
    const port = opts.port ?? cfg.port;
    const bindings = opts.bindings ?? {};
    const mf = new Miniflare(await this.miniflareOptions(worker, cfg, version, port, bindings));
    let url: URL;
    try {
      url = await mf.ready;
    } catch (e) {
      await mf.dispose().catch(() => undefined);
      throw new CtlError(
        "INFRA_UNAVAILABLE",
        `cannot start workerd for '${worker}' on port ${port}: ${(e as Error).message}`,
        { exit: EXIT.INFRA },
      );
    }
    const actualPort = Number(url.port);
    const pointer = join(this.versionsDir(worker), "current.json");
    const runFile = join(this.root, ".resin", "run", `${worker}.json`);
    mkdirSync(join(this.root, ".resin", "run"), { recursive: true });
    writeFileSync(runFile, `${JSON.stringify({ pid: process.pid, url: url.href, port: actualPort, version })}\n`);
    const server: DevServer = {
      worker,
      url: url.href,
      version,
      reloads: 0,
      stop: async () => {
        unwatchFile(pointer);
        rmSync(runFile, { force: true });
        await mf.dispose();
      },
    };
    let reloading = Promise.resolve();
    watchFile(pointer, { interval: 200 }, () => {
      reloading = reloading
        .then(async () => {
          const v = this.currentVersion(worker);
          if (v === null || v === version) return;
          version = v;
          await mf.setOptions(await this.miniflareOptions(worker, cfg, v, actualPort, bindings));
          server.version = v;
          server.reloads++;
          writeFileSync(
            runFile,
            `${JSON.stringify({ pid: process.pid, url: url.href, port: actualPort, version: v })}\n`,
          );
          opts.onReload?.(v);
        })
        .catch(() => undefined);
    });
    return server;
  }

  /** The URL of a running dev server of this workspace, if its process is alive. */
  runningUrl(worker: string): string | null {
    try {
      const run = JSON.parse(readFileSync(join(this.root, ".resin", "run", `${worker}.json`), "utf8")) as {
        pid: number;
        url: string;
      };
      process.kill(run.pid, 0);
      return run.url;
    } catch {
      return null;
    }
  }
}
