// The retrying sender: drains the outbox's due rows through a caller-supplied delivery function,
// within a time and count budget (a cron invocation is short-lived; what is left waits for the next
// drain). Each row is claimed by compare-and-set first, so concurrent drains never send a row twice
// at once; a stream whose head failed in this drain is not retried again within it.

import type { D1Like } from "./d1.js";
import { type Channel, claim, dueHeads, type OutboxRow, type RetryPolicy, retryLater, settle } from "./outbox.js";

/** What the receiver made of one delivery. */
export type DeliveryOutcome =
  | { kind: "delivered" }
  /** The receiver refused it for good on purpose (kill switch, a guard): not retried, not dead. */
  | { kind: "cancelled" | "rejected"; reason: string }
  /** Worth another try later (5xx, timeout, 429, a lease held elsewhere). */
  | { kind: "retry"; reason: string; retryAfterMs?: number }
  /** Will never succeed as sent (4xx on the request itself): dead-lettered now. */
  | { kind: "dead"; reason: string };

export type Deliver = (row: OutboxRow) => Promise<DeliveryOutcome>;

export interface DrainReport {
  delivered: number;
  failed: number;
  cancelled: number;
  rejected: number;
  dead: number;
  /** Per stream, what this drain delivered (a job result reports its own stream). */
  byStream: Map<string, { delivered: number; failed: number; errors: string[] }>;
}

export interface DrainOptions {
  policy: RetryPolicy;
  channel?: Channel;
  /** Stop claiming new rows after this long (ms). */
  budgetMs?: number;
  maxRows?: number;
  now?: () => number;
  /** Told of every attempt's result (the edge worker turns dead letters and retries into trace events). */
  onAttempt?: (
    row: OutboxRow,
    attempts: number,
    result: "delivered" | "cancelled" | "rejected" | "dead" | "retry",
    reason: string | null,
  ) => void;
}

export async function drainOutbox(db: D1Like, deliver: Deliver, opts: DrainOptions): Promise<DrainReport> {
  const now = opts.now ?? Date.now;
  const started = now();
  const budget = opts.budgetMs ?? 20_000;
  const maxRows = opts.maxRows ?? 500;
  const report: DrainReport = { delivered: 0, failed: 0, cancelled: 0, rejected: 0, dead: 0, byStream: new Map() };
  const stalled = new Set<string>();
  let handled = 0;
  while (handled < maxRows && now() - started < budget) {
    const heads = (await dueHeads(db, now(), 50, opts.channel)).filter((r) => !stalled.has(r.stream));
    if (heads.length === 0) break;
    let progressed = false;
    for (const row of heads) {
      if (handled >= maxRows || now() - started >= budget) break;
      if (!(await claim(db, row, now(), opts.policy))) continue;
      handled++;
      progressed = true;
      const attempts = row.attempts + 1;
      const stream = report.byStream.get(row.stream) ?? { delivered: 0, failed: 0, errors: [] };
      report.byStream.set(row.stream, stream);
      let outcome: DeliveryOutcome;
      try {
        outcome = await deliver(row);
      } catch (e) {
        outcome = { kind: "retry", reason: e instanceof Error ? e.message : String(e) };
      }
      let result: "delivered" | "cancelled" | "rejected" | "dead" | "retry" = outcome.kind;
      switch (outcome.kind) {
        case "delivered":
          await settle(db, row.id, "delivered", now());
          report.delivered++;
          stream.delivered++;
          break;
        case "cancelled":
        case "rejected":
          await settle(db, row.id, outcome.kind, now(), outcome.reason);
          report[outcome.kind]++;
          break;
        case "dead":
          await settle(db, row.id, "dead", now(), outcome.reason);
          report.dead++;
          stream.failed++;
          stream.errors.push(outcome.reason);
          break;
        case "retry": {
          const state = await retryLater(
            db,
            { id: row.id, attempts },
            now(),
            opts.policy,
            outcome.reason,
            outcome.retryAfterMs,
          );
          if (state === "dead") {
            report.dead++;
            result = "dead";
          } else report.failed++;
          stream.failed++;
          stream.errors.push(outcome.reason);
          stalled.add(row.stream);
          break;
        }
      }
      opts.onAttempt?.(row, attempts, result, outcome.kind === "delivered" ? null : outcome.reason);
    }
    if (!progressed) break;
  }
  return report;
}
