// What each kind of worker needs bound, described once and turned into both providers' shapes: the
// cloudflare provider's wrangler.toml entries and the local provider's Miniflare options. The edge
// worker's bindings are src/edge/bindings.ts's EdgeEnv, the trade service's src/mesh/bindings.ts's
// MeshEnv; tests/ops/worker-bindings.test.ts checks every store, object and service binding those
// types declare against the generated wrangler.toml, so the two providers cannot drift apart again.

import type { WorkerConfig } from "./config.js";

/** The Durable Object class the edge bundle exports for fanned-out studies (docs/fanout.md). */
export const STUDY_CLASS = "StudyCoordinator";
/** The trade service's Durable Object class: kill switch and rate limiter (src/mesh/control.ts). */
export const MESH_CONTROL_CLASS = "MeshControl";

export interface StoreBinding {
  binding: string;
  /** The store's name on Cloudflare (created by `infra provision` / the first deploy). */
  store: string;
}

export interface WorkerBindings {
  kv: StoreBinding[];
  /** D1 databases; `migrations` marks the one the workspace's numbered migrations apply to. */
  d1: (StoreBinding & { migrations?: boolean })[];
  r2: StoreBinding[];
  /** Durable Objects, each class with its migration tag (SQLite-backed: Workers Free allows only those). */
  durableObjects: { binding: string; className: string; tag: string }[];
  /** Service bindings of the worker to itself (by binding name). */
  self: string[];
  /** Secrets the worker reads (wrangler secret put; locally the secrets store and the workspace key). */
  secrets: string[];
  /** Secrets read only by optional routes (the chat bot's); exchange and webhook secrets are named per use. */
  optionalSecrets: string[];
  /** Whether the worker's cron triggers fire (the bar-close jobs). */
  crons: boolean;
}

const NONE: WorkerBindings = {
  kv: [],
  d1: [],
  r2: [],
  durableObjects: [],
  self: [],
  secrets: [],
  optionalSecrets: [],
  crons: false,
};

/** The edge (evaluate) worker: src/edge/bindings.ts. */
const EDGE: WorkerBindings = {
  kv: [{ binding: "RESIN_KV", store: "resin-kv" }],
  d1: [{ binding: "RESIN_DB", store: "resin-db", migrations: true }],
  r2: [{ binding: "RESIN_BARS", store: "resin-bars" }],
  durableObjects: [{ binding: "STUDIES", className: STUDY_CLASS, tag: "studies-v1" }],
  self: ["EVALUATE"],
  secrets: ["INTERNAL_KEY_BINDING"],
  optionalSecrets: ["API_KEY", "TELEGRAM_BOT_TOKEN"],
  crons: true,
};

/** The trade service: src/mesh/bindings.ts (its ledger makes its own tables, so no migrations). */
const MESH: WorkerBindings = {
  ...NONE,
  d1: [{ binding: "MESH_DB", store: "resin-mesh-db" }],
  durableObjects: [{ binding: "MESH_CONTROL", className: MESH_CONTROL_CLASS, tag: "mesh-control-v1" }],
  secrets: ["INTERNAL_KEY_BINDING"],
  optionalSecrets: ["TELEGRAM_WEBHOOK_SECRET"],
};

/**
 * The script-writing worker (src/edge/generate-worker.ts): no stores; the model endpoint comes from its
 * secrets (without them it writes with the offline grammar).
 */
const GENERATE: WorkerBindings = {
  ...NONE,
  optionalSecrets: ["RESIN_LLM_BASE_URL", "RESIN_LLM_MODEL", "RESIN_LLM_API_KEY"],
};

/**
 * A worker kind's bindings. A plain script gets the edge worker's stores (what the local provider has
 * always given it), without the edge bundle's objects, self binding or crons.
 */
export function workerBindings(kind: WorkerConfig["kind"]): WorkerBindings {
  if (kind === "edge") return EDGE;
  if (kind === "mesh") return MESH;
  if (kind === "generate") return GENERATE;
  return { ...NONE, kv: EDGE.kv, d1: EDGE.d1, r2: EDGE.r2 };
}

/** Every store any worker kind binds on Cloudflare (what `infra provision` creates), once each. */
export function allStores(): { kind: "kv" | "sql" | "obj"; binding: string; name: string }[] {
  const out: { kind: "kv" | "sql" | "obj"; binding: string; name: string }[] = [];
  for (const b of [EDGE, MESH]) {
    for (const [kind, list] of [
      ["kv", b.kv],
      ["sql", b.d1],
      ["obj", b.r2],
    ] as const)
      for (const s of list)
        if (!out.some((o) => o.name === s.store)) out.push({ kind, binding: s.binding, name: s.store });
  }
  return out;
}

/** Store ids as provisioned on Cloudflare. */
export interface ProvisionedStore {
  kind: string;
  name: string;
  id: string;
}

/** The wrangler.toml entries of a worker's bindings; stores not provisioned yet are left out (and listed). */
export function wranglerBindings(
  worker: string,
  kind: WorkerConfig["kind"],
  stores: ProvisionedStore[],
  migrationsDir?: string,
): { doc: Record<string, unknown>; missing: string[] } {
  const b = workerBindings(kind);
  const doc: Record<string, unknown> = {};
  const missing: string[] = [];
  const find = (k: string, s: StoreBinding) => {
    const found = stores.find((x) => x.kind === k && x.name === s.store);
    if (!found) missing.push(s.store);
    return found;
  };
  const kv = b.kv.flatMap((s) => {
    const f = find("kv", s);
    return f ? [{ binding: s.binding, id: f.id }] : [];
  });
  const r2 = b.r2.flatMap((s) => (find("obj", s) ? [{ binding: s.binding, bucket_name: s.store }] : []));
  const d1 = b.d1.flatMap((s) => {
    const f = find("sql", s);
    return f
      ? [
          {
            binding: s.binding,
            database_name: s.store,
            database_id: f.id,
            ...(s.migrations && migrationsDir ? { migrations_dir: migrationsDir } : {}),
          },
        ]
      : [];
  });
  if (kv.length) doc.kv_namespaces = kv;
  if (r2.length) doc.r2_buckets = r2;
  if (d1.length) doc.d1_databases = d1;
  if (b.durableObjects.length) {
    doc.durable_objects = { bindings: b.durableObjects.map((o) => ({ name: o.binding, class_name: o.className })) };
    doc.migrations = b.durableObjects.map((o) => ({ tag: o.tag, new_sqlite_classes: [o.className] }));
  }
  if (b.self.length) doc.services = b.self.map((binding) => ({ binding, service: worker }));
  return { doc, missing };
}

/**
 * The Miniflare options of a worker's bindings. Local D1 databases and KV namespaces are keyed by their
 * binding name (their persisted state has always been), `extra` adds the stores `infra` created.
 */
export function miniflareBindings(
  worker: string,
  kind: WorkerConfig["kind"],
  extra: { kv: string[]; sql: string[]; obj: string[] },
  durableObjectsPersist: string,
): {
  kvNamespaces: string[];
  d1Databases: string[];
  r2Buckets: string[];
  durableObjects?: Record<string, string>;
  durableObjectsPersist?: string;
  serviceBindings: Record<string, string>;
} {
  const b = workerBindings(kind);
  const union = (own: StoreBinding[], more: string[]) => [...new Set([...own.map((s) => s.binding), ...more])];
  return {
    kvNamespaces: union(b.kv, extra.kv),
    d1Databases: union(b.d1, extra.sql),
    r2Buckets: union(b.r2, extra.obj),
    ...(b.durableObjects.length
      ? {
          durableObjects: Object.fromEntries(b.durableObjects.map((o) => [o.binding, o.className])),
          durableObjectsPersist,
        }
      : {}),
    serviceBindings: Object.fromEntries(b.self.map((binding) => [binding, worker])),
  };
}
