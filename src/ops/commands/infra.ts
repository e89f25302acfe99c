// `resinctl infra ...`: the stores the workers bind. Locally a store is an entry of
// .resin/infra.json (bound to every worker under its upper-snake name) with its data persisted
// under .resin/state/; deleting one empties its data first. On the cloudflare provider the same
// commands go through the REST API (provider-cloudflare.ts).

import { group, leaf, type Cmd, type Handler } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { confirm } from "../interaction.js";
import { table } from "../output.js";
import {
  bindingName,
  DEFAULT_STORES,
  STATE_KINDS,
  STORE_KINDS,
  STORE_NAME_RE,
  type StoreKind,
} from "../provider-local.js";

const LABEL: Record<StoreKind, string> = {
  kv: "KV namespace",
  sql: "SQL database",
  obj: "object bucket",
  queues: "queue",
  vectorize: "vector index",
  analytics: "analytics dataset",
};

function checkStoreName(name: string | undefined): string {
  if (!name || !STORE_NAME_RE.test(name))
    throw usageError(`store names start with a letter: letters, digits, - and _ (got '${name ?? ""}')`);
  return name;
}

async function listStores(ctx: Ctx, kind: StoreKind): Promise<CmdResult> {
  if (ctx.providerName() === "cloudflare") {
    const items = await ctx.cloudflare().listStores(kind);
    return {
      data: { kind, provider: "cloudflare", stores: items },
      text: table(
        ctx.out,
        ["name", "id"],
        items.map((i) => [i.name, i.id]),
      ),
    };
  }
  const local = ctx.local();
  const reg = local.registry();
  const rows = [
    ...DEFAULT_STORES[kind].map((b) => ({ name: b, binding: b, origin: "default" })),
    ...reg[kind].map((n) => ({ name: n, binding: bindingName(n), origin: "infra" })),
  ];
  return {
    data: { kind, stores: rows },
    text: rows.length
      ? table(
          ctx.out,
          ["name", "binding", "origin"],
          rows.map((r) => [r.name, r.binding, r.origin]),
        )
      : `no ${LABEL[kind]}s`,
  };
}

async function createStore(ctx: Ctx, kind: StoreKind, raw: string | undefined): Promise<CmdResult> {
  const name = checkStoreName(raw);
  if (ctx.providerName() === "cloudflare") {
    const made = await ctx.cloudflare().createStore(kind, name);
    return { data: { kind, provider: "cloudflare", ...made }, text: `created ${LABEL[kind]} ${name} (${made.id})` };
  }
  const local = ctx.local();
  const reg = local.registry();
  if (reg[kind].includes(name) || DEFAULT_STORES[kind].includes(bindingName(name)))
    throw new CtlError("ALREADY_EXISTS", `${LABEL[kind]} '${name}' already exists`, { exit: EXIT.FAILED });
  reg[kind].push(name);
  local.saveRegistry(reg);
  return {
    data: { kind, name, binding: bindingName(name) },
    text: `created ${LABEL[kind]} ${name} (binding ${bindingName(name)}; running workers pick it up on their next reload)`,
  };
}

interface KVStore {
  list(o: { cursor?: string }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
  delete(k: string): Promise<void>;
}
interface R2Store {
  list(o: { cursor?: string }): Promise<{ objects: { key: string }[]; truncated: boolean; cursor?: string }>;
  delete(k: string): Promise<void>;
}

/** Empties a local store's persisted data before it is dropped from the registry. */
async function emptyLocal(ctx: Ctx, kind: StoreKind, binding: string): Promise<number> {
  if (kind !== "kv" && kind !== "obj" && kind !== "sql") return 0;
  return ctx.local().withStores(async (mf) => {
    let n = 0;
    if (kind === "kv") {
      const kv = (await mf.getKVNamespace(binding)) as unknown as KVStore;
      for (let cursor: string | undefined; ; ) {
        const page = await kv.list(cursor ? { cursor } : {});
        for (const k of page.keys) {
          await kv.delete(k.name);
          n++;
        }
        if (page.list_complete) break;
        cursor = page.cursor;
      }
    } else if (kind === "obj") {
      const r2 = (await mf.getR2Bucket(binding)) as unknown as R2Store;
      for (let cursor: string | undefined; ; ) {
        const page = await r2.list(cursor ? { cursor } : {});
        for (const o of page.objects) {
          await r2.delete(o.key);
          n++;
        }
        if (!page.truncated) break;
        cursor = page.cursor;
      }
    } else {
      const db = await mf.getD1Database(binding);
      const { results } = await db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
        )
        .all<{ name: string }>();
      for (const t of results) {
        await db.prepare(`DROP TABLE IF EXISTS "${t.name.replace(/"/g, '""')}"`).run();
        n++;
      }
    }
    return n;
  });
}

async function deleteStore(ctx: Ctx, kind: StoreKind, raw: string | undefined): Promise<CmdResult> {
  const name = checkStoreName(raw);
  await confirm(ctx, `delete ${LABEL[kind]} '${name}' and its data`);
  if (ctx.providerName() === "cloudflare") {
    await ctx.cloudflare().deleteStore(kind, name);
    return { data: { kind, provider: "cloudflare", name, deleted: true }, text: `deleted ${LABEL[kind]} ${name}` };
  }
  const local = ctx.local();
  const reg = local.registry();
  if (!reg[kind].includes(name)) {
    const isDefault = DEFAULT_STORES[kind].includes(bindingName(name));
    throw new CtlError(
      isDefault ? "PROTECTED" : "NOT_FOUND",
      isDefault ? `${name} is a default store the workers need` : `no ${LABEL[kind]} '${name}'`,
      {
        exit: EXIT.FAILED,
      },
    );
  }
  const removed = await emptyLocal(ctx, kind, bindingName(name));
  reg[kind] = reg[kind].filter((n) => n !== name);
  local.saveRegistry(reg);
  return {
    data: { kind, name, deleted: true, items_removed: removed },
    text: `deleted ${LABEL[kind]} ${name} (${removed} items removed)`,
  };
}

async function provision(ctx: Ctx): Promise<CmdResult> {
  if (ctx.providerName() === "cloudflare") {
    const made = await ctx.cloudflare().provision();
    return {
      data: { provider: "cloudflare", stores: made },
      text: table(
        ctx.out,
        ["kind", "name", "id", "status"],
        made.map((m) => [m.kind, m.name, m.id, m.status]),
      ),
    };
  }
  const local = ctx.local();
  for (const k of STATE_KINDS) local.stateDir(k);
  const b = local.bindings();
  // Opening the stores once creates their persisted files.
  await local.withStores(async (mf) => {
    for (const n of b.kv) await mf.getKVNamespace(n);
    for (const n of b.obj) await mf.getR2Bucket(n);
    for (const n of b.sql) await (await mf.getD1Database(n)).prepare("SELECT 1").all();
  });
  const rows = STORE_KINDS.flatMap((k) => b[k].map((n) => ({ kind: k, binding: n })));
  return {
    data: { stores: rows, state: ".resin/state" },
    text: table(
      ctx.out,
      ["kind", "binding"],
      rows.map((r) => [r.kind, r.binding]),
    ),
    next: "resinctl deploy all",
  };
}

function crud(kind: StoreKind, summary: string, ops: ("list" | "create" | "delete")[]): Cmd {
  const sub: Record<string, Cmd> = {};
  const run: Record<string, Handler> = {
    list: async (ctx) => listStores(ctx, kind),
    create: async (ctx, { args }: Inv) => createStore(ctx, kind, args[0]),
    delete: async (ctx, { args }: Inv) => deleteStore(ctx, kind, args[0]),
  };
  for (const op of ops)
    sub[op] = leaf(`${op} ${LABEL[kind]}s`, run[op] as Handler, op === "list" ? {} : { args: "<name>" });
  return group(summary, sub);
}

export const commands: Record<string, Cmd> = {
  infra: group("provision stores", {
    provision: leaf("create every store the workers bind", provision),
    sqlstore: crud("sql", "SQL stores (D1)", ["list", "create", "delete"]),
    kvstore: crud("kv", "KV stores", ["list", "create", "delete"]),
    objstore: crud("obj", "object stores (R2)", ["list", "create", "delete"]),
    queues: crud("queues", "queues", ["list", "create", "delete"]),
    vectorize: crud("vectorize", "vector indexes", ["create", "delete"]),
    analytics: crud("analytics", "analytics datasets", ["list"]),
  }),
};
