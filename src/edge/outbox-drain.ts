// The edge worker's outbox sender: the retry policy from the worker's vars, and delivery by
// channel (orders to the trade service, orders.ts; alert messages to their destinations, alerts.ts).

import type { D1Like } from "../mesh/d1.js";
import { type Channel, DEFAULT_RETRY, type RetryPolicy, streamCounts } from "../mesh/outbox.js";
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

export function drainEdgeOutbox(env: EdgeEnv, db: D1Like): Promise<DrainReport> {
  return drainOutbox(
    db,
    (row) => {
      if (row.channel === "order") return deliverOrder(env, row);
      if (row.channel === "alert") return deliverAlert(env, row);
      return Promise.resolve<DeliveryOutcome>({ kind: "dead", reason: `no delivery for channel '${row.channel}'` });
    },
    { policy: retryPolicy(env), budgetMs: DRAIN_BUDGET_MS },
  );
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
