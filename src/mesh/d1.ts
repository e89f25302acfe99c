// The slice of Cloudflare D1 (SQLite) the mesh and the edge use, typed here so the project needs no
// @cloudflare/workers-types. Miniflare runs the real D1 locally (tests, `resinctl dev start`).

export interface D1Result<T = Record<string, unknown>> {
  results: T[];
  meta: { changes?: number; last_row_id?: number };
}

export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  first<T = Record<string, unknown>>(): Promise<T | null>;
  all<T = Record<string, unknown>>(): Promise<D1Result<T>>;
  run(): Promise<D1Result>;
}

export interface D1Like {
  prepare(sql: string): D1Statement;
  /** Runs the statements in one transaction: all apply or none. */
  batch(statements: D1Statement[]): Promise<D1Result[]>;
}

/**
 * Creates each schema once per isolate (CREATE ... IF NOT EXISTS is idempotent, so two isolates
 * racing on a fresh database both succeed). Keyed by database object and schema name.
 */
const ready = new WeakMap<object, Map<string, Promise<void>>>();

export function ensureSchema(db: D1Like, name: string, ddl: readonly string[]): Promise<void> {
  let byName = ready.get(db);
  if (!byName) ready.set(db, (byName = new Map()));
  let p = byName.get(name);
  if (!p) {
    p = db
      .batch(ddl.map((sql) => db.prepare(sql)))
      .then(() => undefined)
      .catch((e) => {
        byName?.delete(name);
        throw e;
      });
    byName.set(name, p);
  }
  return p;
}
