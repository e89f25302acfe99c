// The bar-close jobs' D1 state: a per-job lock (a compare-and-set row with a lease, so concurrent
// cron invocations never run one job at once and a crashed holder's lock expires), the job state
// (newest processed bar), and the one transaction that writes a run's deliveries to the outbox and
// marks its bar processed together: a bar is never marked without its events queued, nor queued twice.

import { type D1Like, ensureSchema } from "../mesh/d1.js";
import { enqueueStatements, ensureOutbox, type NewOutboxRow } from "../mesh/outbox.js";
import type { JobState } from "./store.js";

const DDL = [
  "CREATE TABLE IF NOT EXISTS job_locks (job_id TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS job_state (
    job_id TEXT PRIMARY KEY,
    last_bar_time INTEGER,
    last_run_at INTEGER,
    last_error TEXT,
    forwarded INTEGER NOT NULL DEFAULT 0
  )`,
];

export async function ensureJobLedger(db: D1Like): Promise<void> {
  await Promise.all([ensureSchema(db, "edge-jobs", DDL), ensureOutbox(db)]);
}

/** Longest a run may hold a job's lock before another run may take it (a run is bounded well below). */
export const JOB_LOCK_MS = 120_000;

/** Takes the job's lock (free or expired) for `holder`; false when another run holds it. */
export async function acquireJobLock(db: D1Like, jobId: string, holder: string, now: number): Promise<boolean> {
  const row = await db
    .prepare(
      `INSERT INTO job_locks (job_id, holder, until) VALUES (?1, ?2, ?3)
       ON CONFLICT(job_id) DO UPDATE SET holder = excluded.holder, until = excluded.until WHERE job_locks.until <= ?4
       RETURNING holder`,
    )
    .bind(jobId, holder, now + JOB_LOCK_MS, now)
    .first<{ holder: string }>();
  return row?.holder === holder;
}

export async function releaseJobLock(db: D1Like, jobId: string, holder: string): Promise<void> {
  await db.prepare("DELETE FROM job_locks WHERE job_id = ?1 AND holder = ?2").bind(jobId, holder).run();
}

export async function readJobState(db: D1Like, jobId: string): Promise<JobState | null> {
  return db
    .prepare("SELECT last_bar_time, last_run_at, last_error, forwarded FROM job_state WHERE job_id = ?1")
    .bind(jobId)
    .first<JobState>();
}

/** Queues the run's deliveries and stores the job state, in one transaction. */
export async function commitRun(
  db: D1Like,
  jobId: string,
  state: JobState,
  rows: NewOutboxRow[],
  now: number,
): Promise<void> {
  await db.batch([
    ...enqueueStatements(db, rows, now),
    db
      .prepare(
        `INSERT INTO job_state (job_id, last_bar_time, last_run_at, last_error, forwarded) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT(job_id) DO UPDATE SET last_bar_time = excluded.last_bar_time, last_run_at = excluded.last_run_at,
           last_error = excluded.last_error, forwarded = excluded.forwarded`,
      )
      .bind(jobId, state.last_bar_time, state.last_run_at, state.last_error, state.forwarded),
  ]);
}
