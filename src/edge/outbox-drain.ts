// The edge worker's outbox sender: the retry and retention policies from the worker's vars, and
// delivery by channel (orders to the trade service, orders.ts; alert messages to their destinations,
// alerts.ts). Failed attempts and dead letters become trace events (one JSON line on the console with
// a "trace" field, which `resinctl trace` reads from the captured worker output): {"trace":"outbox.retry"|
// "outbox.dead", key, channel, stream, attempts, error}; a prune that deleted rows is "outbox.pruned".

import type { D1Like } from "../mesh/d1.js";
import {
  type Channel,
  DEFAULT_RETENTION,
  DEFAULT_RETRY,
  pruneOutbox,
  type Retention,
  type RetryPolicy,
  streamCounts,
} from "../mesh/outbox.js";
import { type DeliveryOutcome, type DrainReport, drainOutbox } from "../mesh/outbox-sender.js";
import type { EdgeEnv } from "./bindings.js";
import { deliverAlert } from "./alerts.js";
import { deliverOrder } from "./orders.js";

/** How long one invocation spends draining (a cron invocation or a /cron/run request). */
const DRAIN_BUDGET_MS = 15_000;

function numberVar(env: EdgeEnv, name: string, fallback: number): number {
  const raw = env[name];
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

export function retryPolicy(env: EdgeEnv): RetryPolicy {
  return {
    ...DEFAULT_RETRY,
    baseDelayMs: numberVar(env, "OUTBOX_RETRY_BASE_MS", DEFAULT_RETRY.baseDelayMs),
    maxAttempts: Math.max(1, numberVar(env, "OUTBOX_MAX_ATTEMPTS", DEFAULT_RETRY.maxAttempts)),
  };
}

const HOUR_MS = 3_600_000;

/** OUTBOX_RETAIN_HOURS (settled rows), OUTBOX_DEAD_RETAIN_HOURS (dead letters), OUTBOX_MAX_ROWS, OUTBOX_MAX_DEAD. */
export function retention(env: EdgeEnv): Retention {
  return {
    settledMs: numberVar(env, "OUTBOX_RETAIN_HOURS", DEFAULT_RETENTION.settledMs / HOUR_MS) * HOUR_MS,
    deadMs: numberVar(env, "OUTBOX_DEAD_RETAIN_HOURS", DEFAULT_RETENTION.deadMs / HOUR_MS) * HOUR_MS,
    maxSettled: Math.floor(numberVar(env, "OUTBOX_MAX_ROWS", DEFAULT_RETENTION.maxSettled)),
    maxDead: Math.floor(numberVar(env, "OUTBOX_MAX_DEAD", DEFAULT_RETENTION.maxDead)),
  };
}

function trace(kind: string, fields: Record<string, unknown>): void {
  console.log(JSON.stringify({ trace: kind, ...fields }));
}

/** Drains the due rows, then prunes what the retention no longer keeps. */
export async function drainEdgeOutbox(env: EdgeEnv, db: D1Like): Promise<DrainReport> {
  const report = await drainOutbox(
    db,
    (row) => {
      if (row.channel === "order") return deliverOrder(env, row);
      if (row.channel === "alert") return deliverAlert(env, row);
      return Promise.resolve<DeliveryOutcome>({ kind: "dead", reason: `no delivery for channel '${row.channel}'` });
    },
    {
      policy: retryPolicy(env),
      budgetMs: DRAIN_BUDGET_MS,
      onAttempt: (row, attempts, result, reason) => {
        if (result === "retry" || result === "dead")
          trace(`outbox.${result}`, {
            key: row.key,
            channel: row.channel,
            stream: row.stream,
            attempts,
            error: reason,
          });
      },
    },
  );
  const pruned = await pruneOutbox(db, Date.now(), retention(env));
  if (pruned.settled + pruned.dead > 0) trace("outbox.pruned", pruned);
  return report;
}

export interface StreamReport {
  delivered: number;
  failed: number;
  pending: number;
  errors: string[];
}

export async function streamReport(
  db: D1Like,
  report: DrainReport,
  stream: string,
  channel: Channel,
): Promise<StreamReport> {
  const s = report.byStream.get(stream);
  const counts = await streamCounts(db, stream, channel);
  return { delivered: s?.delivered ?? 0, failed: s?.failed ?? 0, pending: counts.open, errors: s?.errors ?? [] };
}
