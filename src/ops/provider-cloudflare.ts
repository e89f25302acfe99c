// The cloudflare provider: deploys through `wrangler` subprocesses with a generated wrangler.toml
// (KV, R2, D1, queues, service bindings, cron triggers, compatibility date and flags, the wasm
// module rule), and uses the Cloudflare REST API for what wrangler does not cover here (stores,
// D1 queries and migrations, firewall rules). The account id comes from the config (or
// CLOUDFLARE_ACCOUNT_ID), the API token from CLOUDFLARE_API_TOKEN or the encrypted secret
// _provider/CLOUDFLARE_API_TOKEN. The process runner and fetch are injectable, so every call is
// tested against recorded responses without wrangler, an account or the network.

import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "smol-toml";
import { DEFAULT_CRONS, type CtlConfig, type WorkerConfig } from "./config.js";
import { buildEdgeWorker, buildGenerateWorker, buildMeshWorker, type EdgeBuildOptions } from "./edge-build.js";
import type { AotReport } from "./edge-aot.js";
import { CtlError, EXIT } from "./errors.js";
import type { StoreKind } from "./provider-local.js";
import { applyPendingWith, migrationFiles } from "./sql.js";
import { allStores, workerBindings, wranglerBindings } from "./worker-bindings.js";

export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
  error?: Error;
}

export type ProcessRunner = (
  cmd: string,
  args: string[],
  opts?: { input?: string; env?: Record<string, string | undefined>; cwd?: string },
) => ProcessResult;

export const defaultRunner: ProcessRunner = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, {
    encoding: "utf8",
    timeout: 300_000,
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    ...(opts.env ? { env: { ...process.env, ...opts.env } } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...(r.error ? { error: r.error } : {}) };
};

export const API_BASE = "https://api.cloudflare.com/client/v4";

/** The stores the workers bind, as named on Cloudflare (worker-bindings.ts). */
export const CF_STORES: { kind: StoreKind; binding: string; name: string }[] = allStores();

export interface RemoteStore {
  name: string;
  id: string;
}

export interface CloudflareDeps {
  run?: ProcessRunner;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  config?: CtlConfig;
  /** The API token from the secrets store (when not in the environment). */
  token?: () => string | null;
  /** The workspace root (generated files go under .resin/). */
  root?: string;
}

export class CloudflareProvider {
  private readonly run: ProcessRunner;
  private readonly env: Record<string, string | undefined>;
  private readonly fetchImpl: typeof fetch;
  private readonly config: CtlConfig | undefined;
  private readonly storedToken: () => string | null;
  private readonly root: string | undefined;

  constructor(deps: CloudflareDeps = {}) {
    this.run = deps.run ?? defaultRunner;
    this.env = deps.env ?? {};
    this.fetchImpl = deps.fetch ?? fetch;
    this.config = deps.config;
    this.storedToken = deps.token ?? (() => null);
    this.root = deps.root;
  }

  accountId(): string {
    const id = this.config?.account_id ?? this.env.CLOUDFLARE_ACCOUNT_ID;
    if (!id)
      throw new CtlError("CREDENTIALS_MISSING", "no Cloudflare account id", {
        exit: EXIT.INFRA,
        hint: "resinctl config set account_id <id> (or CLOUDFLARE_ACCOUNT_ID)",
      });
    return id;
  }

  token(): string {
    const t = this.env.CLOUDFLARE_API_TOKEN || this.storedToken();
    if (!t)
      throw new CtlError("CREDENTIALS_MISSING", "no Cloudflare API token", {
        exit: EXIT.INFRA,
        hint: 'printf %s "$TOKEN" | resinctl secrets set _provider CLOUDFLARE_API_TOKEN (or CLOUDFLARE_API_TOKEN)',
      });
    return t;
  }

  /** One REST call under the account; Cloudflare's error list becomes a coded error (exit 4). */
  async api<T>(method: string, path: string, body?: unknown): Promise<T> {
    const url = `${API_BASE}/accounts/${this.accountId()}${path}`;
    let res: Response;
    try {
      res = await this.fetchImpl(url, {
        method,
        headers: { authorization: `Bearer ${this.token()}`, "content-type": "application/json" },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (e) {
      throw new CtlError("CLOUDFLARE_UNREACHABLE", `${method} ${path}: ${(e as Error).message}`, { exit: EXIT.INFRA });
    }
    let doc: { success?: boolean; errors?: { code: number; message: string }[]; result?: T };
    try {
      doc = (await res.json()) as typeof doc;
    } catch {
      throw new CtlError("CLOUDFLARE_API_FAILED", `${method} ${path}: HTTP ${res.status}, not JSON`, {
        exit: EXIT.FAILED,
      });
    }
    if (!res.ok || doc.success === false) {
      const why = (doc.errors ?? []).map((e) => `${e.message} [code: ${e.code}]`).join("; ") || `HTTP ${res.status}`;
      throw new CtlError("CLOUDFLARE_API_FAILED", `${method} ${path}: ${why}`, {
        exit: res.status === 401 || res.status === 403 ? EXIT.INFRA : EXIT.FAILED,
        hint: "check the API token's permissions and the account id",
      });
    }
    return doc.result as T;
  }

  private static PATHS: Partial<Record<StoreKind, string>> = {
    kv: "/storage/kv/namespaces",
    sql: "/d1/database",
    obj: "/r2/buckets",
    queues: "/queues",
    vectorize: "/vectorize/v2/indexes",
  };

  private pathOf(kind: StoreKind): string {
    const p = CloudflareProvider.PATHS[kind];
    if (!p)
      throw new CtlError(
        "UNSUPPORTED",
        `${kind} stores are created by binding them (analytics datasets appear on first write)`,
        {
          exit: EXIT.FAILED,
        },
      );
    return p;
  }

  async listStores(kind: StoreKind): Promise<RemoteStore[]> {
    if (kind === "analytics") return [];
    const r = await this.api<unknown>("GET", this.pathOf(kind));
    const items = (kind === "obj" ? ((r as { buckets?: unknown[] }).buckets ?? []) : (r as unknown[])) as Record<
      string,
      string
    >[];
    return items.map((i) => ({
      name: i.title ?? i.name ?? i.queue_name ?? "",
      id: i.id ?? i.uuid ?? i.queue_id ?? i.name ?? "",
    }));
  }

  async createStore(kind: StoreKind, name: string): Promise<RemoteStore> {
    const body =
      kind === "kv"
        ? { title: name }
        : kind === "queues"
          ? { queue_name: name }
          : kind === "vectorize"
            ? { name, config: { dimensions: 768, metric: "cosine" } }
            : { name };
    const r = await this.api<Record<string, string>>("POST", this.pathOf(kind), body);
    return { name, id: r.id ?? r.uuid ?? r.queue_id ?? r.name ?? name };
  }

  async deleteStore(kind: StoreKind, name: string): Promise<void> {
    const found = (await this.listStores(kind)).find((s) => s.name === name);
    if (!found) throw new CtlError("NOT_FOUND", `no ${kind} store '${name}' on Cloudflare`, { exit: EXIT.FAILED });
    await this.api("DELETE", `${this.pathOf(kind)}/${encodeURIComponent(kind === "obj" ? name : found.id)}`);
  }

  /** Creates the stores the workers bind when missing; records their ids for wrangler.toml. */
  async provision(): Promise<{ kind: StoreKind; name: string; id: string; status: string }[]> {
    const out: { kind: StoreKind; name: string; id: string; status: string }[] = [];
    for (const s of CF_STORES) {
      const existing = (await this.listStores(s.kind)).find((x) => x.name === s.name);
      const store = existing ?? (await this.createStore(s.kind, s.name));
      out.push({ kind: s.kind, name: s.name, id: store.id, status: existing ? "exists" : "created" });
    }
    if (this.root) {
      mkdirSync(join(this.root, ".resin"), { recursive: true, mode: 0o700 });
      writeFileSync(join(this.root, ".resin", "cloudflare.json"), `${JSON.stringify({ stores: out }, null, 2)}\n`);
    }
    return out;
  }

  private recordedStores(): { kind: StoreKind; name: string; id: string }[] | null {
    if (!this.root) return null;
    try {
      return (
        JSON.parse(readFileSync(join(this.root, ".resin", "cloudflare.json"), "utf8")) as {
          stores: { kind: StoreKind; name: string; id: string }[];
        }
      ).stores;
    } catch {
      return null;
    }
  }

  /** The wrangler.toml of a worker: its stores, services, cron triggers and module rules. */
  wranglerToml(
    worker: string,
    cfg: WorkerConfig,
    stores: { kind: StoreKind; name: string; id: string }[],
    migrationsDir?: string,
  ): string {
    const doc: Record<string, unknown> = {
      name: worker,
      main: "worker.js",
      account_id: this.accountId(),
      compatibility_date: cfg.compatibility_date,
      compatibility_flags: ["nodejs_compat"],
      workers_dev: true,
    };
    if (cfg.kind === "edge" || cfg.kind === "mesh" || cfg.kind === "generate") {
      // The bundle is already built (edge-build.ts): wrangler uploads it as is, kernels.wasm as a CompiledWasm module.
      doc.no_bundle = true;
      doc.find_additional_modules = true;
      doc.rules = [{ type: "CompiledWasm", globs: ["**/*.wasm"], fallthrough: false }];
    }
    // Stores, Durable Objects (+ their SQLite migrations) and self bindings: the description both providers share.
    Object.assign(doc, wranglerBindings(worker, cfg.kind, stores, migrationsDir).doc);
    if (workerBindings(cfg.kind).crons) doc.triggers = { crons: this.config?.crons ?? DEFAULT_CRONS };
    const queues = stores.filter((s) => s.kind === "queues");
    if (queues.length)
      doc.queues = {
        producers: queues.map((q) => ({ binding: q.name.toUpperCase().replace(/[^A-Z0-9]/g, "_"), queue: q.name })),
      };
    const services = Object.entries(cfg.services ?? {});
    if (services.length)
      doc.services = [
        ...((doc.services as unknown[] | undefined) ?? []),
        ...services.map(([binding, service]) => ({ binding, service })),
      ];
    // Secrets are not part of the file (wrangler secret put); the header names the ones the worker reads.
    const b = workerBindings(cfg.kind);
    const secrets = [...b.secrets, ...b.optionalSecrets];
    const secretNote = secrets.length
      ? `# secrets it reads (resinctl secrets set ${worker} NAME): ${secrets.join(", ")}\n`
      : "";
    return `# generated by resinctl: do not edit (resinctl deploy worker ${worker} rewrites it)\n${secretNote}${stringify(doc)}\n`;
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

  private wrangler(args: string[], input?: string, cwd?: string): string {
    this.requireWrangler();
    const env = { CLOUDFLARE_ACCOUNT_ID: this.accountId(), CLOUDFLARE_API_TOKEN: this.token() };
    const r = this.run("wrangler", args, { ...(input !== undefined ? { input } : {}), env, ...(cwd ? { cwd } : {}) });
    if (r.error || r.status !== 0) {
      const detail = (r.stderr || r.stdout || r.error?.message || "").trim().split("\n").slice(-3).join(" ");
      throw new CtlError("WRANGLER_FAILED", `wrangler ${args[0]} failed: ${detail}`, {
        exit: EXIT.FAILED,
        hint: "check the API token / account id and `wrangler whoami`",
      });
    }
    return r.stdout;
  }

  /** Bundles the worker, writes its wrangler.toml beside the bundle, deploys; returns the version id. */
  async deploy(
    worker: string,
    cfg: WorkerConfig,
    bundleDir: string,
    aot: EdgeBuildOptions = {},
  ): Promise<{ worker: string; version_id: string | null; output: string; config: string; aot?: AotReport }> {
    this.requireWrangler();
    if (cfg.kind === "script" && !cfg.script)
      throw new CtlError("CONFIG_INVALID", `worker '${worker}' has no script path`, { exit: EXIT.FAILED });
    mkdirSync(bundleDir, { recursive: true });
    let report: AotReport | undefined;
    if (cfg.kind === "edge") report = (await buildEdgeWorker(bundleDir, aot)).aot;
    else if (cfg.kind === "mesh") await buildMeshWorker(bundleDir);
    else if (cfg.kind === "generate") await buildGenerateWorker(bundleDir);
    else writeFileSync(join(bundleDir, "worker.js"), readFileSync(join(this.root ?? ".", cfg.script as string)));
    // The stores this worker binds, provisioned first when the recorded ids lack one (e.g. the trade
    // service's database in a workspace provisioned before it was described).
    const recorded = this.recordedStores() ?? [];
    const needed = wranglerBindings(worker, cfg.kind, recorded).missing;
    const stores = needed.length ? await this.provision() : recorded;
    const migrations = this.root && migrationFiles(this.root).length ? join(this.root, "migrations") : undefined;
    const configFile = join(bundleDir, "wrangler.toml");
    writeFileSync(configFile, this.wranglerToml(worker, cfg, stores, migrations));
    const out = this.wrangler(["deploy", "--config", configFile], undefined, bundleDir);
    const id = /Current Version ID:\s*([0-9a-f-]+)/i.exec(out)?.[1] ?? null;
    return { worker, version_id: id, output: out.trim(), config: configFile, ...(report ? { aot: report } : {}) };
  }

  /** `wrangler secret put NAME --name worker`, the value on stdin (never on the command line). */
  async putSecret(worker: string, name: string, value: string): Promise<void> {
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

  private async databaseId(): Promise<string> {
    const rec = this.recordedStores()?.find((s) => s.kind === "sql" && s.name === "resin-db");
    if (rec) return rec.id;
    const found = (await this.listStores("sql")).find((s) => s.name === "resin-db");
    if (!found)
      throw new CtlError("NOT_PROVISIONED", "the resin-db D1 database does not exist", {
        exit: EXIT.FAILED,
        hint: "resinctl infra provision",
      });
    return found.id;
  }

  async d1Query(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
    const r = await this.api<{ results: Record<string, unknown>[] }[]>(
      "POST",
      `/d1/database/${await this.databaseId()}/query`,
      { sql, params },
    );
    return r.flatMap((x) => x.results ?? []);
  }

  async d1Migrate(root: string): Promise<string[]> {
    return applyPendingWith((sql, params) => this.d1Query(sql, params), root);
  }

  /** The zone's custom firewall rules (WAF custom ruleset phase), replaced by `rules`. */
  async putWafRules(
    zoneId: string,
    rules: { description: string; expression: string; action: string }[],
  ): Promise<unknown> {
    const url = `${API_BASE}/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`;
    const res = await this.fetchImpl(url, {
      method: "PUT",
      headers: { authorization: `Bearer ${this.token()}`, "content-type": "application/json" },
      body: JSON.stringify({ rules }),
    });
    const doc = (await res.json()) as { success?: boolean; errors?: { message: string }[]; result?: unknown };
    if (!res.ok || doc.success === false)
      throw new CtlError(
        "CLOUDFLARE_API_FAILED",
        `WAF rules: ${(doc.errors ?? []).map((e) => e.message).join("; ") || res.status}`,
        { exit: EXIT.FAILED },
      );
    return doc.result;
  }
}
