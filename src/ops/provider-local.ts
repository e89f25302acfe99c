// The local provider: workers under Miniflare/workerd on 127.0.0.1, state persisted in the
// workspace (.resin/state/{kv,sql,obj,queues}), numbered deploy versions in .resin/versions/<worker>
// with a `current` pointer; a running dev server watches the pointer and hot-reloads, so deploy
// history and rollback are real. It also watches the secrets file (a `secrets set` reaches the
// running worker without a restart), captures each worker's console output as JSON lines in
// .resin/logs/<worker>.log, and fires the cron triggers on their schedule (croner).
//
// The stores a worker binds are the defaults below plus what `infra` created (.resin/infra.json);
// a worker's `services` (config) bind other workers by name, forwarded to their running dev
// server, so adding a worker beside the evaluate worker is a config entry, not code.

import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unwatchFile,
  watchFile,
  writeFileSync,
} from "node:fs";
import { randomBytes } from "node:crypto";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { Cron } from "croner";
import type { MiniflareOptions } from "miniflare";
import { checkWorkerName, type WorkerConfig } from "./config.js";
import { buildEdgeWorker, buildGenerateWorker, buildMeshWorker, type EdgeBuildOptions } from "./edge-build.js";
import type { AotReport } from "./edge-aot.js";
import { CtlError, EXIT } from "./errors.js";
import { miniflareBindings, workerBindings } from "./worker-bindings.js";

export interface VersionInfo {
  worker: string;
  version: number;
  created_at: string;
  bytes: number;
  current: boolean;
}

/** How long stopping a dev server waits for cron runs in flight before it stops workerd under them. */
export const CRON_DRAIN_MS = 10_000;

export interface DevServer {
  worker: string;
  url: string;
  version: number;
  /** Counts hot reloads (code or secrets; tests wait on it). */
  reloads: number;
  /** Cron triggers fired so far. */
  cronRuns: number;
  stop(): Promise<void>;
}

/** The directories under .resin/state a workspace needs (what `repair check` looks for). */
export const STATE_KINDS = ["kv", "sql", "obj", "queues", "do"] as const;
export type StateKind = (typeof STATE_KINDS)[number];

export const STORE_KINDS = ["kv", "sql", "obj", "queues", "vectorize", "analytics"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];
export type StoreRegistry = Record<StoreKind, string[]>;

/** The stores the CLI opens by default (db, infra, backups): the edge worker's (worker-bindings.ts). */
export const DEFAULT_STORES: StoreRegistry = {
  kv: workerBindings("edge").kv.map((s) => s.binding),
  sql: workerBindings("edge").d1.map((s) => s.binding),
  obj: workerBindings("edge").r2.map((s) => s.binding),
  queues: [],
  vectorize: [],
  analytics: [],
};

/** A store name as its binding name: "trade-cache" -> TRADE_CACHE. */
export function bindingName(store: string): string {
  return store.toUpperCase().replace(/[^A-Z0-9]/g, "_");
}

export const STORE_NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

export interface LogLine {
  at: string;
  worker: string;
  stream: "stdout" | "stderr" | "system";
  msg: string;
}

/** A script that only exposes its bindings: store access from the CLI without a running worker. */
const STORE_ONLY_SCRIPT = "export default { fetch() { return new Response(null, { status: 204 }); } };";

export class LocalProvider {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** A persisted state directory (created when missing); `do` holds the Durable Objects' storage. */
  stateDir(kind: StateKind): string {
    mkdirSync(join(this.root, ".resin"), { recursive: true, mode: 0o700 });
    const dir = join(this.root, ".resin", "state", kind);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  private infraFile(): string {
    return join(this.root, ".resin", "infra.json");
  }

  /** The stores `infra` created (beyond the defaults). */
  registry(): StoreRegistry {
    const out: StoreRegistry = { kv: [], sql: [], obj: [], queues: [], vectorize: [], analytics: [] };
    let doc: Partial<StoreRegistry> = {};
    try {
      doc = JSON.parse(readFileSync(this.infraFile(), "utf8")) as Partial<StoreRegistry>;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT")
        throw new CtlError("STATE_CORRUPT", `${this.infraFile()}: ${(e as Error).message}`, { exit: EXIT.ERROR });
    }
    for (const k of STORE_KINDS)
      if (Array.isArray(doc[k])) out[k] = (doc[k] as string[]).filter((n) => STORE_NAME_RE.test(n));
    return out;
  }

  saveRegistry(reg: StoreRegistry): void {
    mkdirSync(join(this.root, ".resin"), { recursive: true, mode: 0o700 });
    const tmp = `${this.infraFile()}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(reg, null, 2)}\n`);
    renameSync(tmp, this.infraFile());
  }

  /** Binding names per kind: the defaults plus the registry's stores. */
  bindings(): StoreRegistry {
    const reg = this.registry();
    const out = structuredClone(DEFAULT_STORES);
    for (const k of STORE_KINDS)
      for (const n of reg[k]) if (!out[k].includes(bindingName(n))) out[k].push(bindingName(n));
    return out;
  }

  private storeOptions(): Partial<MiniflareOptions> {
    const b = this.bindings();
    return {
      kvNamespaces: b.kv,
      r2Buckets: b.obj,
      d1Databases: b.sql,
      ...(b.queues.length ? { queueProducers: b.queues } : {}),
      kvPersist: this.stateDir("kv"),
      r2Persist: this.stateDir("obj"),
      d1Persist: this.stateDir("sql"),
    } as Partial<MiniflareOptions>;
  }

  /** Runs `fn` with the persisted stores opened by a short-lived workerd (no worker needs to run). */
  async withStores<T>(fn: (mf: import("miniflare").Miniflare) => Promise<T>): Promise<T> {
    const { Miniflare } = await import("miniflare");
    const mf = new Miniflare({
      name: "resinctl-stores",
      modules: true,
      script: STORE_ONLY_SCRIPT,
      host: "127.0.0.1",
      port: 0,
      compatibilityDate: "2024-11-01",
      ...this.storeOptions(),
    } as MiniflareOptions);
    try {
      await mf.ready;
    } catch (e) {
      await mf.dispose().catch(() => undefined);
      throw new CtlError("INFRA_UNAVAILABLE", `cannot start workerd for the local stores: ${(e as Error).message}`, {
        exit: EXIT.INFRA,
      });
    }
    try {
      return await fn(mf);
    } finally {
      await mf.dispose();
    }
  }

  logFile(worker: string): string {
    return join(this.root, ".resin", "logs", `${worker}.log`);
  }

  /** Appends one captured line to the worker's log (JSON lines). */
  appendLog(worker: string, stream: LogLine["stream"], msg: string): void {
    mkdirSync(join(this.root, ".resin", "logs"), { recursive: true });
    const line: LogLine = { at: new Date().toISOString(), worker, stream, msg };
    appendFileSync(this.logFile(worker), `${JSON.stringify(line)}\n`);
  }

  /** The captured log lines of a worker (oldest first). */
  readLogs(worker: string): LogLine[] {
    let text: string;
    try {
      text = readFileSync(this.logFile(worker), "utf8");
    } catch {
      return [];
    }
    const out: LogLine[] = [];
    for (const l of text.split("\n")) {
      if (!l) continue;
      try {
        out.push(JSON.parse(l) as LogLine);
      } catch {
        // A line cut by a crash mid-write is skipped; the rest of the log stays readable.
      }
    }
    return out;
  }

  /** Workers with a captured log. */
  loggedWorkers(): string[] {
    try {
      return readdirSync(join(this.root, ".resin", "logs"))
        .filter((f) => f.endsWith(".log"))
        .map((f) => f.slice(0, -4))
        .sort();
    } catch {
      return [];
    }
  }

  private versionsDir(worker: string): string {
    checkWorkerName(worker);
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

  /**
   * Bundles the worker and stores it as the next version, which becomes current; an edge worker's
   * bundle carries `aot.scripts` compiled ahead of time (src/ops/edge-aot.ts).
   */
  async deploy(
    worker: string,
    cfg: WorkerConfig,
    aot: EdgeBuildOptions = {},
  ): Promise<VersionInfo & { aot?: AotReport }> {
    const dir = this.versionsDir(worker);
    mkdirSync(dir, { recursive: true });
    const next = Math.max(0, ...this.history(worker).map((v) => v.version)) + 1;
    const target = join(dir, `v${next}`);
    mkdirSync(target, { recursive: true });
    let bytes = 0;
    let report: AotReport | undefined;
    try {
      if (cfg.kind === "edge") {
        const b = await buildEdgeWorker(target, { deploy: `${worker} v${next}`, ...aot });
        bytes = b.bytes;
        report = b.aot;
      } else if (cfg.kind === "mesh") {
        bytes = (await buildMeshWorker(target)).bytes;
      } else if (cfg.kind === "generate") {
        bytes = (await buildGenerateWorker(target)).bytes;
      } else {
        if (!cfg.script)
          throw new CtlError("CONFIG_INVALID", `worker '${worker}' has no script path`, {
            exit: EXIT.FAILED,
            hint: `resinctl config set workers.${worker}.script path/to/worker.js`,
          });
        const src = resolve(this.root, cfg.script);
        if (!existsSync(src))
          throw new CtlError("NOT_FOUND", `worker script ${src} does not exist`, { exit: EXIT.FAILED });
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
      `${JSON.stringify({ version: next, created_at, bytes, kind: cfg.kind, ...(report ? { aot: aotSummary(report) } : {}) })}\n`,
    );
    this.setCurrent(worker, next);
    return { worker, version: next, created_at, bytes, current: true, ...(report ? { aot: report } : {}) };
  }

  /** Makes `version` (default: the one before the current) current again. */
  rollback(worker: string, version?: number): VersionInfo {
    const versions = this.history(worker);
    if (!versions.length)
      throw new CtlError("NOT_DEPLOYED", `worker '${worker}' has no deployed versions`, {
        exit: EXIT.FAILED,
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
        exit: EXIT.FAILED,
        suggestions: versions.map((v) => `resinctl deploy rollback ${worker} ${v.version}`),
      });
    this.setCurrent(worker, target);
    return { ...info, current: true };
  }

  /**
   * The workspace's internal key (X-Internal-Key between the evaluate worker, the trade service and
   * resinctl), created once with mode 0600 under .resin/state. A secret INTERNAL_KEY_BINDING overrides it.
   */
  internalKey(): string {
    const file = join(this.stateDir("kv"), "..", "internal-key");
    if (existsSync(file)) return readFileSync(file, "utf8").trim();
    const key = randomBytes(24).toString("hex");
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return key;
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
    // Another worker bound by name reaches that worker's running dev server.
    const serviceBindings: Record<string, string | ((req: Request) => Promise<Response>)> = {};
    for (const [binding, target] of Object.entries(cfg.services ?? {})) {
      serviceBindings[binding] = async (req) => {
        const base = this.runningUrl(target);
        if (!base) return new Response(`service '${target}' is not running`, { status: 503 });
        const url = new URL(req.url);
        return fetch(new URL(url.pathname + url.search, base), req as unknown as RequestInit);
      };
    }
    // The worker's own bindings (worker-bindings.ts, shared with the cloudflare provider) plus the
    // stores `infra` created; the stores persist under .resin/state, Durable Objects under .resin/state/do.
    const reg = this.registry();
    const own = miniflareBindings(
      worker,
      cfg.kind,
      { kv: reg.kv.map(bindingName), sql: reg.sql.map(bindingName), obj: reg.obj.map(bindingName) },
      this.stateDir("do"),
    );
    Object.assign(serviceBindings, own.serviceBindings);
    const queues = this.bindings().queues;
    const store = {
      kvNamespaces: own.kvNamespaces,
      r2Buckets: own.r2Buckets,
      d1Databases: own.d1Databases,
      ...(queues.length ? { queueProducers: queues } : {}),
      kvPersist: this.stateDir("kv"),
      r2Persist: this.stateDir("obj"),
      d1Persist: this.stateDir("sql"),
      ...(own.durableObjects
        ? { durableObjects: own.durableObjects, durableObjectsPersist: own.durableObjectsPersist }
        : {}),
    };
    // The evaluate worker and the trade service share one internal key; a workspace key unless a secret sets it.
    const internal = workerBindings(cfg.kind).secrets.includes("INTERNAL_KEY_BINDING")
      ? { INTERNAL_KEY_BINDING: this.internalKey(), ...bindings }
      : bindings;
    return {
      name: worker,
      modules,
      // Module paths are resolved against this root; outside it workerd refuses "..".
      modulesRoot: dir,
      compatibilityDate: cfg.compatibility_date,
      compatibilityFlags: ["nodejs_compat"],
      host: "127.0.0.1",
      port,
      ...store,
      ...(Object.keys(serviceBindings).length ? { serviceBindings } : {}),
      bindings: internal,
      handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
        for (const [stream, name] of [
          [stdout, "stdout"],
          [stderr, "stderr"],
        ] as const) {
          createInterface({ input: stream }).on("line", (line) => {
            if (line.trim()) this.appendLog(worker, name, line);
          });
        }
      },
    } as MiniflareOptions;
  }

  /** Runs the current version of a worker (deploying it first if it never was) and hot-reloads on
   * deploy/rollback and on secret changes; fires `crons` on their schedule. */
  async startDev(
    worker: string,
    cfg: WorkerConfig,
    opts: {
      port?: number;
      /** The worker's secrets now (called again when `watch` files change). */
      bindings?: () => Record<string, string>;
      /** Files whose change reloads the bindings (the secrets store). */
      watch?: string[];
      crons?: string[];
      onReload?: (v: number) => void;
      onCron?: (cron: string, outcome: string) => void;
    } = {},
  ): Promise<DevServer> {
    let version = this.currentVersion(worker) ?? (await this.deploy(worker, cfg)).version;
    const { Miniflare } = await import("miniflare");
    const port = opts.port ?? cfg.port;
    const readBindings = opts.bindings ?? (() => ({}));
    let bindings = readBindings();
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
    const writeRun = (): void =>
      this.writeRun(worker, { url: url.href, port: actualPort, version, runtime: "workerd", crons: opts.crons ?? [] });
    writeRun();
    this.appendLog(worker, "system", `started v${version} on ${url.href}`);
    const jobs: Cron[] = [];
    // Cron runs still inside the worker: stop lets them finish (up to CRON_DRAIN_MS) before workerd goes,
    // so a run that fired as the server stopped reports its own outcome, not the shutdown's broken fetch.
    const inFlight = new Set<Promise<void>>();
    let stopping = false;
    const watched = [pointer, ...(opts.watch ?? [])];
    const server: DevServer = {
      worker,
      url: url.href,
      version,
      reloads: 0,
      cronRuns: 0,
      stop: async () => {
        stopping = true;
        for (const j of jobs) j.stop();
        if (inFlight.size > 0) {
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.allSettled(inFlight),
            new Promise((r) => {
              timer = setTimeout(r, CRON_DRAIN_MS);
            }),
          ]);
          clearTimeout(timer);
        }
        for (const f of watched) unwatchFile(f);
        this.clearRun(worker);
        this.appendLog(worker, "system", "stopped");
        await mf.dispose();
      },
    };
    let reloading = Promise.resolve();
    const reload = (why: "code" | "secrets"): void => {
      reloading = reloading
        .then(async () => {
          const v = this.currentVersion(worker);
          if (why === "code" && (v === null || v === version)) return;
          if (why === "secrets") {
            const next = readBindings();
            if (JSON.stringify(next) === JSON.stringify(bindings)) return;
            bindings = next;
          }
          if (v !== null) version = v;
          await mf.setOptions(await this.miniflareOptions(worker, cfg, version, actualPort, bindings));
          server.version = version;
          server.reloads++;
          writeRun();
          this.appendLog(worker, "system", why === "code" ? `reloaded v${version}` : "secrets reloaded");
          if (why === "code") opts.onReload?.(version);
        })
        .catch((e) => this.appendLog(worker, "system", `reload failed: ${(e as Error).message}`));
    };
    watchFile(pointer, { interval: 200 }, () => reload("code"));
    for (const f of opts.watch ?? []) watchFile(f, { interval: 200 }, () => reload("secrets"));
    for (const expr of opts.crons ?? []) {
      jobs.push(
        new Cron(expr, { protect: true }, () => {
          if (stopping) return;
          const run = (async () => {
            try {
              const w = await mf.getWorker();
              const fire = (
                w as unknown as { scheduled(o: { cron: string; scheduledTime: Date }): Promise<{ outcome: string }> }
              ).scheduled;
              const r = await fire.call(w, { cron: expr, scheduledTime: new Date() });
              server.cronRuns++;
              this.appendLog(worker, "system", `cron ${expr}: ${r.outcome}`);
              opts.onCron?.(expr, r.outcome);
            } catch (e) {
              // (past the drain, the shutdown cut the run short: not the worker's exception)
              const outcome = stopping ? "stopped" : "exception";
              this.appendLog(
                worker,
                "system",
                `cron ${expr} ${outcome === "stopped" ? "stopped" : "failed"}: ${(e as Error).message}`,
              );
              opts.onCron?.(expr, outcome);
            }
          })();
          inFlight.add(run);
          return run.finally(() => inFlight.delete(run));
        }),
      );
    }
    return server;
  }

  private runFile(worker: string): string {
    return join(this.root, ".resin", "run", `${worker}.json`);
  }

  /** Records a running dev server (read by runningUrl, workers list, check health). */
  writeRun(
    worker: string,
    info: { url: string; port: number; version: number; runtime: string; crons: string[] },
  ): void {
    mkdirSync(join(this.root, ".resin", "run"), { recursive: true });
    writeFileSync(this.runFile(worker), `${JSON.stringify({ pid: process.pid, ...info })}\n`);
  }

  clearRun(worker: string): void {
    rmSync(this.runFile(worker), { force: true });
  }

  /** The run record of a live dev server, or null. */
  running(
    worker: string,
  ): { pid: number; url: string; port: number; version: number; runtime: string; crons: string[] } | null {
    try {
      const run = JSON.parse(readFileSync(this.runFile(worker), "utf8"));
      process.kill(run.pid, 0);
      return run;
    } catch {
      return null;
    }
  }

  /** The run record of a dev server whose process is gone (it crashed or was killed), or null. */
  deadRun(worker: string): { pid: number; url: string; port: number } | null {
    let run: { pid: number; url: string; port: number };
    try {
      run = JSON.parse(readFileSync(this.runFile(worker), "utf8"));
    } catch {
      return null;
    }
    try {
      process.kill(run.pid, 0);
      return null;
    } catch (e) {
      // EPERM: alive under another user, not dead
      return (e as NodeJS.ErrnoException).code === "ESRCH" ? run : null;
    }
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

/** What a version's meta.json records of its compiled scripts: ids and module hashes, skipped ones with why. */
function aotSummary(r: AotReport): Record<string, unknown> {
  return {
    compiled: r.compiled.map((c) => ({ id: c.id, source_hash: c.source_hash, hashes: c.modules.map((m) => m.hash) })),
    skipped: r.skipped,
  };
}
