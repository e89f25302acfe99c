// Strategy events as trade-service deliveries: each becomes an outbox row keyed by (job, script,
// bar time, index among that bar's events), so a re-run of the same bar writes the same keys (ignored
// by the outbox) and the trade service's gateway sees one key per order whatever is retried. The
// sender posts each row to TRADE_SERVICE /signal with the internal key and reads the answer.

import type { StrategyEvent } from "../core/result.js";
import type { NewOutboxRow, OutboxRow } from "../mesh/outbox.js";
import type { DeliveryOutcome } from "../mesh/outbox-sender.js";
import { actionOfEvent, eventKey } from "../mesh/signal.js";
import type { EdgeEnv } from "./bindings.js";
import type { CronJob } from "./store.js";

export const orderStream = (jobId: string) => `order:${jobId}`;

/** Outbox rows for the events of bars newer than `since` (events that place nothing are left out). */
export function orderRows(job: CronJob, scriptId: string, events: StrategyEvent[], since: number): NewOutboxRow[] {
  const rows: NewOutboxRow[] = [];
  const perBar = new Map<number, number>();
  for (const e of events) {
    // The index counts every event of the bar, kept or not, so it is stable across re-runs.
    const index = perBar.get(e.bar_time) ?? 0;
    perBar.set(e.bar_time, index + 1);
    if (e.bar_time <= since) continue;
    const order = actionOfEvent(e);
    if (!order) continue;
    const key = eventKey(job.id, scriptId, e.bar_time, index);
    rows.push({
      key,
      channel: "order",
      stream: orderStream(job.id),
      bar_time: e.bar_time,
      payload: {
        key,
        symbol: job.symbol,
        action: order.action,
        qty: order.qty,
        price: e.ohlc[3],
        test: job.test === true,
        meta: {
          job_id: job.id,
          script_id: scriptId,
          timeframe: job.timeframe,
          bar_time: e.bar_time,
          kind: e.kind,
          id: e.id,
          comment: e.comment,
        },
      },
    });
  }
  return rows;
}

/** How a trade-service answer settles an outbox row. */
export function orderOutcome(
  status: number,
  body: { code?: string; message?: string; retry_after_ms?: number },
): DeliveryOutcome {
  const reason = `trade service answered ${status}${body.code ? ` ${body.code}` : ""}${body.message ? `: ${body.message}` : ""}`;
  if (status >= 200 && status < 300) return { kind: "delivered" };
  // The kill switch: halted or cancelled at the gateway, never to be sent again.
  if (status === 423) return { kind: "cancelled", reason };
  // A guard refused it for good (size caps, nothing to close): delivered and decided.
  if (status === 422) return { kind: "rejected", reason };
  // Malformed on our side: retrying cannot help.
  if (status === 400 || status === 404 || status === 413 || status === 415) return { kind: "dead", reason };
  // 401/403 (a key being rotated), 409 (another attempt holds it), 429, 5xx: later.
  return { kind: "retry", reason, ...(body.retry_after_ms ? { retryAfterMs: body.retry_after_ms } : {}) };
}

export async function deliverOrder(env: EdgeEnv, row: OutboxRow): Promise<DeliveryOutcome> {
  const service = env.TRADE_SERVICE;
  if (!service) return { kind: "retry", reason: "TRADE_SERVICE binding is not configured" };
  const payload = { ...(JSON.parse(row.payload) as Record<string, unknown>), queued_at: row.created_at };
  const res = await service.fetch("https://trade-service/signal", {
    method: "POST",
    headers: { "content-type": "application/json", "x-internal-key": String(env.INTERNAL_KEY_BINDING ?? "") },
    body: JSON.stringify(payload),
  });
  const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string; retry_after_ms?: number };
  return orderOutcome(res.status, body);
}
