// The SQL store (D1 on Cloudflare, SQLite under Miniflare locally) as resinctl manages it: numbered
// migrations in <workspace>/migrations (NNNN_name.sql, applied in order, each once, recorded in
// d1_migrations like wrangler does, so both providers agree on what is applied), queries, export.
// Statements run as one D1 batch per migration: a failing migration leaves nothing half applied.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CtlError, EXIT } from "./errors.js";
import type { LocalProvider } from "./provider-local.js";

export const MIGRATIONS_DIR = "migrations";
export const MIGRATION_RE = /^(\d{4})_[a-z0-9_-]+\.sql$/;
export const DB_BINDING = "RESIN_DB";
const TRACKING =
  "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE NOT NULL, applied_at TEXT NOT NULL)";

/** resin's own schema: the latency probes `perf fastpath run` keeps for `perf fastpath report`. */
const BUILTIN: Record<string, string> = {
  "0001_resin.sql": `-- resin: tables resinctl keeps in the SQL store
CREATE TABLE IF NOT EXISTS perf_probes (
  run_id TEXT NOT NULL,
  at TEXT NOT NULL,
  probe INTEGER NOT NULL,
  hop TEXT NOT NULL,
  ms REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS perf_probes_run ON perf_probes (run_id);
`,
};

export interface D1Like {
  prepare(sql: string): { bind(...v: unknown[]): unknown; all(): Promise<{ results: Record<string, unknown>[] }> };
  batch(stmts: unknown[]): Promise<unknown[]>;
}

/** Writes resin's built-in migrations into the workspace when they are missing; returns every migration file. */
export function ensureMigrations(root: string): string[] {
  const dir = join(root, MIGRATIONS_DIR);
  mkdirSync(dir, { recursive: true });
  for (const [name, sql] of Object.entries(BUILTIN))
    if (!existsSync(join(dir, name))) writeFileSync(join(dir, name), sql);
  return migrationFiles(root);
}

export function migrationFiles(root: string): string[] {
  const dir = join(root, MIGRATIONS_DIR);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => MIGRATION_RE.test(f))
    .sort();
}

/** SQL text as statements (split at semicolons ending a line; comments dropped). */
export function statements(sql: string): string[] {
  return sql
    .split(/;\s*(?:\r?\n|$)/)
    .map((s) =>
      s
        .split("\n")
        .filter((l) => !l.trim().startsWith("--"))
        .join("\n")
        .trim(),
    )
    .filter(Boolean);
}

export async function appliedMigrations(db: D1Like): Promise<string[]> {
  await db.batch([db.prepare(TRACKING)]);
  const { results } = await db.prepare("SELECT name FROM d1_migrations ORDER BY id").all();
  return results.map((r) => String(r.name));
}

/** Runs one SQL text as a single batch (all or nothing). */
export async function runSql(db: D1Like, sql: string, what: string): Promise<number> {
  const stmts = statements(sql);
  if (!stmts.length) return 0;
  try {
    await db.batch(stmts.map((s) => db.prepare(s)));
  } catch (e) {
    throw new CtlError("SQL_FAILED", `${what}: ${(e as Error).message}`, { exit: EXIT.FAILED });
  }
  return stmts.length;
}

/** Applies the pending numbered migrations in order; returns their names. */
export async function applyPending(db: D1Like, root: string): Promise<string[]> {
  const done = new Set(await appliedMigrations(db));
  const applied: string[] = [];
  for (const name of migrationFiles(root)) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(root, MIGRATIONS_DIR, name), "utf8");
    const stmts = statements(sql).map((s) => db.prepare(s));
    const record = (
      db.prepare("INSERT INTO d1_migrations (name, applied_at) VALUES (?, ?)") as { bind(...v: unknown[]): unknown }
    ).bind(name, new Date().toISOString());
    try {
      await db.batch([...stmts, record]);
    } catch (e) {
      throw new CtlError("MIGRATION_FAILED", `${name}: ${(e as Error).message}`, {
        exit: EXIT.FAILED,
        hint: `fix ${join(MIGRATIONS_DIR, name)}; nothing of it was applied`,
      });
    }
    applied.push(name);
  }
  return applied;
}

export async function applyMigrations(local: LocalProvider, root: string): Promise<string[]> {
  return local.withStores(async (mf) => applyPending((await mf.getD1Database(DB_BINDING)) as unknown as D1Like, root));
}

/** A SQL dump (schema and rows as INSERTs) of every user table. */
export async function exportSql(db: D1Like): Promise<string> {
  const { results: tables } = await db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type IN ('table','index') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type DESC, name",
    )
    .all();
  const out = ["-- resinctl db export", "PRAGMA foreign_keys=OFF;"];
  for (const t of tables) {
    if (!t.sql) continue;
    out.push(`${String(t.sql)};`);
    if (!String(t.sql).startsWith("CREATE TABLE")) continue;
    const { results: rows } = await db.prepare(`SELECT * FROM "${String(t.name).replace(/"/g, '""')}"`).all();
    for (const r of rows) {
      const cols = Object.keys(r).map((c) => `"${c.replace(/"/g, '""')}"`);
      const vals = Object.values(r).map(sqlLiteral);
      out.push(`INSERT INTO "${String(t.name).replace(/"/g, '""')}" (${cols.join(", ")}) VALUES (${vals.join(", ")});`);
    }
  }
  return `${out.join("\n")}\n`;
}

function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "NULL";
  if (typeof v === "bigint") return v.toString();
  if (v instanceof ArrayBuffer || ArrayBuffer.isView(v)) return `X'${Buffer.from(v as ArrayBuffer).toString("hex")}'`;
  return `'${String(v).replace(/'/g, "''")}'`;
}

/** Names of the user tables (for reset). */
export async function userTables(db: D1Like): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
    )
    .all();
  return results.map((r) => String(r.name));
}

/** Pending migrations applied through a query function (the D1 REST API): each file's statements, then its record. */
export async function applyPendingWith(
  query: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>,
  root: string,
): Promise<string[]> {
  await query(TRACKING);
  const done = new Set((await query("SELECT name FROM d1_migrations ORDER BY id")).map((r) => String(r.name)));
  const applied: string[] = [];
  for (const name of migrationFiles(root)) {
    if (done.has(name)) continue;
    const sql = readFileSync(join(root, MIGRATIONS_DIR, name), "utf8");
    await query(statements(sql).join(";\n"));
    await query("INSERT INTO d1_migrations (name, applied_at) VALUES (?, ?)", [name, new Date().toISOString()]);
    applied.push(name);
  }
  return applied;
}
