// The outbox: deferred deliveries (orders to the trade service, alert messages to their destinations)
// written to D1 in the same transaction that marks a bar processed, then drained by a retrying
// sender (outbox-sender.ts). Each row has an idempotency key (UNIQUE: writing the same firing twice
// is a no-op) and belongs to a stream (job + channel) whose rows are delivered in order: only the
// oldest undelivered row of a stream is eligible, so a failed entry is never overtaken by its exit.
//
// Row states: pending -> sending (claimed, with a lease) -> delivered | cancelled | rejected | dead;
// a failed attempt returns the row to pending with a backoff, and after MAX attempts it is dead
// (the dead-letter list `resinctl monitor queue-depth` shows) until an operator acknowledges it
// (dead -> acknowledged). Settled rows are pruned (pruneOutbox): delivered, cancelled, rejected and
// acknowledged ones after a retention period, dead letters after a longer one, each kind capped in
// count; a pruned row's bar is already marked processed (job_state), so pruning never re-queues it. A sender that crashes mid-send leaves
// a `sending` row whose lease expires, and the next drain claims it again (the receiver's
// idempotency key makes that second delivery harmless).

import { type D1Like, type D1Statement, ensureSchema } from "./d1.js";

export type Channel = "order" | "alert";
export type OutboxStatus = "pending" | "sending" | "delivered" | "cancelled" | "rejected" | "dead" | "acknowledged";

export interface OutboxRow {
  id: number;
  key: string;
  channel: Channel;
  stream: string;
  bar_time: number;
  payload: string;
  status: OutboxStatus;
  attempts: number;
  next_at: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface NewOutboxRow {
  key: string;
  channel: Channel;
  /** Rows of one stream are delivered in insertion order (e.g. "job:<id>"). */
  stream: string;
  bar_time: number;
  payload: unknown;
}

export interface RetryPolicy {
  /** First retry delay; doubles per attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Attempts before a row is dead-lettered. */
  maxAttempts: number;
  /** How long a claimed row is held before another sender may take it over. */
  leaseMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { baseDelayMs: 2_000, maxDelayMs: 300_000, maxAttempts: 8, leaseMs: 30_000 };

const DDL = [
  `CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL UNIQUE,
    channel TEXT NOT NULL,
    stream TEXT NOT NULL,
    bar_time INTEGER NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    lease_until INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  )`,
  "CREATE INDEX IF NOT EXISTS outbox_open ON outbox(status, stream, id)",
];

export const ensureOutbox = (db: D1Like) => ensureSchema(db, "outbox", DDL);

/** The delay before retry number `attempts` (1-based): base * 2^(attempts-1), capped. */
export function backoffMs(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

/** Insert statements (for a caller's batch): a key already present is left as it is. */
export function enqueueStatements(db: D1Like, rows: NewOutboxRow[], now: number): D1Statement[] {
  return rows.map((r) =>
    db
      .prepare(
        "INSERT INTO outbox (key, channel, stream, bar_time, payload, next_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING",
      )
      .bind(r.key, r.channel, r.stream, r.bar_time, JSON.stringify(r.payload), now, now),
  );
}

/**
 * The rows a sender may take now: the head (oldest open row) of each stream, if it is due (pending
 * and past its backoff, or sending with an expired lease).
 */
export async function dueHeads(db: D1Like, now: number, limit: number, channel?: Channel): Promise<OutboxRow[]> {
  const sql = `SELECT o.* FROM outbox o
    WHERE o.status IN ('pending', 'sending') ${channel ? "AND o.channel = ?3" : ""}
      AND o.id = (SELECT MIN(h.id) FROM outbox h WHERE h.stream = o.stream AND h.status IN ('pending', 'sending'))
      AND ((o.status = 'pending' AND o.next_at <= ?1) OR (o.status = 'sending' AND o.lease_until <= ?1))
    ORDER BY o.id LIMIT ?2`;
  const stmt = db.prepare(sql);
  const bound = channel ? stmt.bind(now, limit, channel) : stmt.bind(now, limit);
  return (await bound.all<OutboxRow>()).results;
}

/** Compare-and-set claim: true when this sender now holds the row (no other sender does). */
export async function claim(db: D1Like, row: OutboxRow, now: number, policy: RetryPolicy): Promise<boolean> {
  const res = await db
    .prepare(
      `UPDATE outbox SET status = 'sending', lease_until = ?1, attempts = attempts + 1
       WHERE id = ?2 AND ((status = 'pending' AND next_at <= ?3) OR (status = 'sending' AND lease_until <= ?3))`,
    )
    .bind(now + policy.leaseMs, row.id, now)
    .run();
  return (res.meta.changes ?? 0) === 1;
}

/** Final states of a claimed row. */
export async function settle(
  db: D1Like,
  id: number,
  status: "delivered" | "cancelled" | "rejected" | "dead",
  now: number,
  error: string | null = null,
): Promise<void> {
  await db
    .prepare("UPDATE outbox SET status = ?1, delivered_at = ?2, last_error = ?3, lease_until = 0 WHERE id = ?4")
    .bind(status, status === "delivered" ? now : null, error, id)
    .run();
}

/** A failed attempt: back to pending after the backoff, or dead once the attempts are spent. */
export async function retryLater(
  db: D1Like,
  row: { id: number; attempts: number },
  now: number,
  policy: RetryPolicy,
  error: string,
  retryAfterMs?: number,
): Promise<"pending" | "dead"> {
  if (row.attempts >= policy.maxAttempts) {
    await settle(db, row.id, "dead", now, error);
    return "dead";
  }
  const delay = Math.max(retryAfterMs ?? 0, backoffMs(policy, row.attempts));
  await db
    .prepare("UPDATE outbox SET status = 'pending', next_at = ?1, last_error = ?2, lease_until = 0 WHERE id = ?3")
    .bind(now + delay, error, row.id)
    .run();
  return "pending";
}

/** Cancels every open row of a channel (the kill switch cancels queued orders). Returns how many. */
export async function cancelOpen(db: D1Like, channel: Channel, reason: string): Promise<number> {
  const res = await db
    .prepare(
      "UPDATE outbox SET status = 'cancelled', last_error = ?1, lease_until = 0 WHERE channel = ?2 AND status IN ('pending', 'sending')",
    )
    .bind(reason, channel)
    .run();
  return res.meta.changes ?? 0;
}

export interface StreamCounts {
  open: number;
  delivered: number;
  failed_attempts: number;
}

/** Open (pending or sending) and delivered rows of one stream and channel, for a job's result. */
export async function streamCounts(db: D1Like, stream: string, channel: Channel): Promise<StreamCounts> {
  const row = await db
    .prepare(
      `SELECT
        SUM(CASE WHEN status IN ('pending', 'sending') THEN 1 ELSE 0 END) AS open,
        SUM(CASE WHEN status = 'delivered' THEN 1 ELSE 0 END) AS delivered,
        SUM(CASE WHEN status IN ('pending', 'sending') AND last_error IS NOT NULL THEN 1 ELSE 0 END) AS failed_attempts
       FROM outbox WHERE stream = ?1 AND channel = ?2`,
    )
    .bind(stream, channel)
    .first<StreamCounts>();
  return { open: row?.open ?? 0, delivered: row?.delivered ?? 0, failed_attempts: row?.failed_attempts ?? 0 };
}

export interface QueueDepth {
  channel: Channel;
  status: OutboxStatus;
  count: number;
  oldest_at: number | null;
}

/** Row counts by channel and state (`resinctl monitor queue-depth`). */
export async function queueDepth(db: D1Like): Promise<QueueDepth[]> {
  return (
    await db
      .prepare(
        "SELECT channel, status, COUNT(*) AS count, MIN(created_at) AS oldest_at FROM outbox GROUP BY channel, status ORDER BY channel, status",
      )
      .all<QueueDepth>()
  ).results;
}

/** The newest dead-lettered rows (payload included, so an operator can replay one by hand). */
export async function deadLetters(db: D1Like, limit: number): Promise<OutboxRow[]> {
  return (
    await db
      .prepare("SELECT * FROM outbox WHERE status = 'dead' ORDER BY id DESC LIMIT ?1")
      .bind(limit)
      .all<OutboxRow>()
  ).results;
}

/** The newest rows whose key starts with `prefix` (substr, not LIKE: ids may hold LIKE's wildcards), payload left out. */
export async function historyByKeyPrefix(
  db: D1Like,
  prefix: string,
  limit: number,
): Promise<Omit<OutboxRow, "payload">[]> {
  return (
    await db
      .prepare(
        `SELECT id, key, channel, stream, bar_time, status, attempts, next_at, last_error, created_at, delivered_at
         FROM outbox WHERE substr(key, 1, ?1) = ?2 ORDER BY id DESC LIMIT ?3`,
      )
      .bind(prefix.length, prefix, limit)
      .all<Omit<OutboxRow, "payload">>()
  ).results;
}

export interface DeliveryRow {
  key: string;
  dest_id: string | null;
  bar_time: number;
  status: OutboxStatus;
  attempts: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
  title: string | null;
  message: string | null;
}

/**
 * The newest rows of a key prefix with what was sent (the payload's message, title and destination,
 * read with SQLite's json_extract so the rest of the payload stays in the database).
 */
export async function deliveriesByKeyPrefix(
  db: D1Like,
  prefix: string,
  limit: number,
  status?: OutboxStatus,
): Promise<DeliveryRow[]> {
  return (
    await db
      .prepare(
        `SELECT key, json_extract(payload, '$.dest_id') AS dest_id, bar_time, status, attempts, last_error, created_at,
           delivered_at, json_extract(payload, '$.title') AS title, json_extract(payload, '$.message') AS message
         FROM outbox WHERE substr(key, 1, ?1) = ?2 ${status ? "AND status = ?4" : ""} ORDER BY id DESC LIMIT ?3`,
      )
      .bind(prefix.length, prefix, limit, ...(status ? [status] : []))
      .all<DeliveryRow>()
  ).results;
}

/** Marks dead letters as seen (all of them, or those keys): they leave the dead-letter list. */
export async function acknowledgeDead(db: D1Like, keys: string[] | "all", now: number): Promise<number> {
  if (keys === "all") {
    const res = await db
      .prepare("UPDATE outbox SET status = 'acknowledged', delivered_at = ?1 WHERE status = 'dead'")
      .bind(now)
      .run();
    return res.meta.changes ?? 0;
  }
  if (keys.length === 0) return 0;
  const results = await db.batch(
    keys.map((k) =>
      db
        .prepare("UPDATE outbox SET status = 'acknowledged', delivered_at = ?1 WHERE status = 'dead' AND key = ?2")
        .bind(now, k),
    ),
  );
  return results.reduce((n, r) => n + (r.meta.changes ?? 0), 0);
}

export interface Retention {
  /** Delivered, cancelled, rejected and acknowledged rows are kept this long after they settled (ms). */
  settledMs: number;
  /** Dead letters not acknowledged are kept this long after they were queued (ms). */
  deadMs: number;
  /** At most this many settled (non-dead) rows and this many dead letters are kept, the newest. */
  maxSettled: number;
  maxDead: number;
}

/** 7 days of history, 30 days of dead letters, 10,000 and 1,000 rows at most. */
export const DEFAULT_RETENTION: Retention = {
  settledMs: 7 * 86_400_000,
  deadMs: 30 * 86_400_000,
  maxSettled: 10_000,
  maxDead: 1_000,
};

const SETTLED = "('delivered', 'cancelled', 'rejected', 'acknowledged')";

/** Deletes what the retention no longer keeps; open rows (pending, sending) are never pruned. Returns how many. */
export async function pruneOutbox(db: D1Like, now: number, r: Retention): Promise<{ settled: number; dead: number }> {
  const [byAge, byCount, deadByAge, deadByCount] = await db.batch([
    db
      .prepare(`DELETE FROM outbox WHERE status IN ${SETTLED} AND COALESCE(delivered_at, created_at) < ?1`)
      .bind(now - r.settledMs),
    db
      .prepare(
        `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status IN ${SETTLED} ORDER BY id DESC LIMIT -1 OFFSET ?1)`,
      )
      .bind(r.maxSettled),
    db.prepare("DELETE FROM outbox WHERE status = 'dead' AND created_at < ?1").bind(now - r.deadMs),
    db
      .prepare(
        "DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE status = 'dead' ORDER BY id DESC LIMIT -1 OFFSET ?1)",
      )
      .bind(r.maxDead),
  ]);
  const n = (x: { meta: { changes?: number } } | undefined) => x?.meta.changes ?? 0;
  return { settled: n(byAge) + n(byCount), dead: n(deadByAge) + n(deadByCount) };
}
