// `resinctl db ...`: the SQL store. apply runs one SQL file (or the pending migrations when none is
// given); migrate applies the pending numbered migrations (--create NAME adds the next one); list
// shows them with their status; query runs one statement; export dumps schema and rows; reset
// drops every table (confirmed). Locally through the persisted D1 of Miniflare; --remote (or the
// cloudflare provider) through the D1 REST API.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { confirm } from "../interaction.js";
import { table } from "../output.js";
import {
  appliedMigrations,
  applyPending,
  type D1Like,
  DB_BINDING,
  ensureMigrations,
  exportSql,
  MIGRATIONS_DIR,
  migrationFiles,
  runSql,
  userTables,
} from "../sql.js";

async function withDb<T>(ctx: Ctx, fn: (db: D1Like) => Promise<T>): Promise<T> {
  return ctx.local().withStores(async (mf) => fn((await mf.getD1Database(DB_BINDING)) as unknown as D1Like));
}

function remote(ctx: Ctx, opts: Inv["opts"]): boolean {
  return !!opts.remote || ctx.providerName() === "cloudflare";
}

async function dbApply(ctx: Ctx, { args }: Inv): Promise<CmdResult> {
  const file = args[0];
  if (!file) return dbMigrate(ctx, { args: [], opts: {} });
  const path = ctx.resolvePath(file);
  if (!existsSync(path)) throw usageError(`no SQL file ${path}`);
  const n = await withDb(ctx, (db) => runSql(db, readFileSync(path, "utf8"), path));
  return { data: { file: path, statements: n }, text: `applied ${n} statements from ${file}` };
}

async function dbMigrate(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const root = ctx.root();
  if (opts.create) {
    const name = String(opts.create)
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "_");
    if (!name) throw usageError("--create needs a name");
    const files = ensureMigrations(root);
    const next = Math.max(0, ...files.map((f) => Number(f.slice(0, 4)))) + 1;
    const file = `${String(next).padStart(4, "0")}_${name}.sql`;
    writeFileSync(join(root, MIGRATIONS_DIR, file), `-- ${file}\n`);
    return { data: { created: file }, text: `created ${join(MIGRATIONS_DIR, file)}`, next: "resinctl db migrate" };
  }
  ensureMigrations(root);
  if (remote(ctx, opts)) {
    const applied = await ctx.cloudflare().d1Migrate(root);
    return {
      data: { applied, provider: "cloudflare" },
      text: applied.length ? `applied ${applied.join(", ")}` : "up to date",
    };
  }
  const applied = await withDb(ctx, (db) => applyPending(db, root));
  return { data: { applied }, text: applied.length ? `applied ${applied.join(", ")}` : "migrations up to date" };
}

async function dbList(ctx: Ctx): Promise<CmdResult> {
  const root = ctx.root();
  const files = migrationFiles(root);
  const { done, tables } = await withDb(ctx, async (db) => ({
    done: new Set(await appliedMigrations(db)),
    tables: await userTables(db),
  }));
  const rows = files.map((f) => ({ name: f, status: done.has(f) ? "applied" : "pending" }));
  return {
    data: { migrations: rows, tables: tables.filter((t) => t !== "d1_migrations") },
    text: `${
      rows.length
        ? table(
            ctx.out,
            ["migration", "status"],
            rows.map((r) => [r.name, r.status]),
          )
        : "no migrations"
    }\ntables: ${tables.filter((t) => t !== "d1_migrations").join(", ") || "none"}`,
  };
}

async function dbQuery(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const sql = args[0] as string;
  if (remote(ctx, opts)) {
    const rows = await ctx.cloudflare().d1Query(sql);
    return { data: { rows, provider: "cloudflare" }, text: JSON.stringify(rows, null, 2) };
  }
  const rows = await withDb(ctx, async (db) => {
    try {
      return (await db.prepare(sql).all()).results;
    } catch (e) {
      throw new CtlError("SQL_FAILED", (e as Error).message, { exit: EXIT.FAILED });
    }
  });
  const head = rows.length ? Object.keys(rows[0] as object) : [];
  return {
    data: { rows, count: rows.length },
    text: rows.length
      ? table(
          ctx.out,
          head,
          rows.map((r) => head.map((h) => (typeof r[h] === "number" ? (r[h] as number) : String(r[h] ?? "NULL")))),
        )
      : "0 rows",
  };
}

async function dbExport(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const dump = await withDb(ctx, exportSql);
  if (opts.output) {
    const path = ctx.resolvePath(String(opts.output));
    writeFileSync(path, dump);
    return { data: { file: path, bytes: Buffer.byteLength(dump) }, text: `wrote ${path}` };
  }
  return { data: { sql: dump }, text: dump.trimEnd() };
}

async function dbReset(ctx: Ctx): Promise<CmdResult> {
  await confirm(ctx, "drop every table of the SQL store");
  const dropped = await withDb(ctx, async (db) => {
    const tables = await userTables(db);
    if (tables.length) await db.batch(tables.map((t) => db.prepare(`DROP TABLE IF EXISTS "${t.replace(/"/g, '""')}"`)));
    return tables;
  });
  return { data: { dropped }, text: `dropped ${dropped.length} tables`, next: "resinctl db migrate" };
}

export const commands: Record<string, Cmd> = {
  db: group("SQL store", {
    apply: leaf("run a SQL file (no file: the pending migrations)", dbApply, { args: "[file]" }),
    migrate: leaf("apply pending numbered migrations (--create adds one)", dbMigrate, {
      options: [
        ["--create <NAME>", "create the next numbered migration file"],
        ["--remote", "on the cloudflare D1 database"],
      ],
    }),
    list: leaf("migrations and their status, tables", dbList),
    query: leaf("run one SQL statement", dbQuery, {
      args: "<sql>",
      options: [["--remote", "on the cloudflare D1 database"]],
      examples: ['resinctl db query "SELECT count(*) FROM perf_probes"'],
    }),
    export: leaf("dump schema and rows as SQL", dbExport, { options: [["--output <FILE>", "write to a file"]] }),
    reset: leaf("drop every table (destructive, confirms)", dbReset),
  }),
};
