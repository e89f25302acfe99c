// The bindings each worker's Env type declares against what both providers bind: every store,
// Durable Object and service binding of src/edge/bindings.ts's EdgeEnv and src/mesh/bindings.ts's
// MeshEnv appears in the cloudflare provider's generated wrangler.toml and in the local provider's
// Miniflare options (worker-bindings.ts, the one description both use).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml } from "smol-toml";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, type WorkerConfig } from "../../src/ops/config.js";
import { CF_STORES, CloudflareProvider } from "../../src/ops/provider-cloudflare.js";
import { miniflareBindings, workerBindings } from "../../src/ops/worker-bindings.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

type Resource = "d1" | "kv" | "r2" | "do" | "service" | "secret";

/** The resource bindings an Env interface declares, by the type each property is given. */
function envResources(file: string, iface: string): Record<string, Resource> {
  const src = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.ES2022, true);
  const out: Record<string, Resource> = {};
  const byType: Record<string, Resource> = {
    D1Like: "d1",
    KVLike: "kv",
    R2Like: "r2",
    DurableObjectNamespaceLike: "do",
    FetcherLike: "service",
    SecretBinding: "secret",
  };
  let found = false;
  src.forEachChild((node) => {
    if (!ts.isInterfaceDeclaration(node) || node.name.text !== iface) return;
    found = true;
    for (const m of node.members) {
      if (!ts.isPropertySignature(m) || !m.type || !m.name || !ts.isIdentifier(m.name)) continue;
      const kind = byType[m.type.getText(src)];
      if (kind) out[m.name.text] = kind;
      // a binding typed `unknown` could hide a resource from this check
      expect(m.type.getText(src), `${iface}.${m.name.text}`).not.toBe("unknown");
    }
  });
  expect(found, `${iface} in ${file}`).toBe(true);
  return out;
}

function generated(worker: string, cfg: WorkerConfig): Record<string, any> {
  const cf = new CloudflareProvider({ config: { ...DEFAULT_CONFIG, account_id: "acct" } as never });
  const stores = CF_STORES.map((s, i) => ({ kind: s.kind, name: s.name, id: `id-${i}` }));
  return parseToml(cf.wranglerToml(worker, cfg, stores, "/ws/migrations")) as Record<string, any>;
}

function checkEnv(resources: Record<string, Resource>, worker: string, cfg: WorkerConfig): void {
  const doc = generated(worker, cfg);
  const local = miniflareBindings(worker, cfg.kind, { kv: [], sql: [], obj: [] }, "/ws/.resin/state/do");
  const has = (list: { binding?: string; name?: string }[] | undefined, b: string) =>
    (list ?? []).some((x) => (x.binding ?? x.name) === b);
  for (const [binding, kind] of Object.entries(resources)) {
    const where = `${worker}: ${binding} (${kind})`;
    if (kind === "d1") {
      expect(has(doc.d1_databases, binding), where).toBe(true);
      expect(local.d1Databases, where).toContain(binding);
    } else if (kind === "kv") {
      expect(has(doc.kv_namespaces, binding), where).toBe(true);
      expect(local.kvNamespaces, where).toContain(binding);
    } else if (kind === "r2") {
      expect(has(doc.r2_buckets, binding), where).toBe(true);
      expect(local.r2Buckets, where).toContain(binding);
    } else if (kind === "do") {
      const obj = (doc.durable_objects?.bindings ?? []).find((o: any) => o.name === binding);
      expect(obj, where).toBeDefined();
      // its class is created by a SQLite-backed migration (Workers Free allows only those)
      expect(
        doc.migrations.some((m: any) => m.new_sqlite_classes?.includes(obj.class_name)),
        where,
      ).toBe(true);
      expect(local.durableObjects?.[binding], where).toBe(obj.class_name);
    } else if (kind === "service") {
      // the worker itself, or another worker named in the config
      expect(has(doc.services, binding), where).toBe(true);
    } else {
      const b = workerBindings(cfg.kind);
      expect([...b.secrets, ...b.optionalSecrets], where).toContain(binding);
    }
  }
}

describe("worker bindings: one description, both providers", () => {
  it("the trade service's wrangler.toml binds MESH_DB, MESH_CONTROL (SQLite-backed) and no cron", () => {
    const mesh = envResources("src/mesh/bindings.ts", "MeshEnv");
    // the secrets are typed SecretBinding; the internal key is the one both workers need
    expect(mesh).toMatchObject({ MESH_DB: "d1", MESH_CONTROL: "do", INTERNAL_KEY_BINDING: "secret" });
    checkEnv(mesh, "trade", DEFAULT_CONFIG.workers.trade!);
    const doc = generated("trade", DEFAULT_CONFIG.workers.trade!);
    expect(doc).toMatchObject({
      name: "trade",
      no_bundle: true,
      d1_databases: [{ binding: "MESH_DB", database_name: "resin-mesh-db" }],
      durable_objects: { bindings: [{ name: "MESH_CONTROL", class_name: "MeshControl" }] },
      migrations: [{ tag: "mesh-control-v1", new_sqlite_classes: ["MeshControl"] }],
    });
    // the workspace migrations are the evaluate worker's schema, not the trade service's
    expect(doc.d1_databases[0].migrations_dir).toBeUndefined();
    expect(doc.triggers).toBeUndefined();
  });

  it("the evaluate worker's wrangler.toml binds every store, object and service EdgeEnv declares", () => {
    const edge = envResources("src/edge/bindings.ts", "EdgeEnv");
    expect(Object.keys(edge).sort()).toEqual(
      ["EVALUATE", "RESIN_BARS", "RESIN_DB", "RESIN_KV", "STUDIES", "TRADE_SERVICE"].sort(),
    );
    checkEnv(edge, "resin", DEFAULT_CONFIG.workers.resin!);
    const doc = generated("resin", DEFAULT_CONFIG.workers.resin!);
    expect(doc.d1_databases).toEqual([
      { binding: "RESIN_DB", database_name: "resin-db", database_id: "id-1", migrations_dir: "/ws/migrations" },
    ]);
    expect(doc.triggers).toEqual({ crons: ["* * * * *"] });
  });

  it("infra provision creates every store any worker binds, the trade service's database included", () => {
    expect(CF_STORES.map((s) => `${s.kind}:${s.name}`)).toEqual([
      "kv:resin-kv",
      "sql:resin-db",
      "obj:resin-bars",
      "sql:resin-mesh-db",
    ]);
  });
});
