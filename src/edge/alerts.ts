// Alert delivery: the alert() and alertcondition() firings of the bars a job has not processed go to
// the outbox, one row per (firing, destination), keyed by (script, job, bar time, alert index,
// destination), so concurrent or repeated runs queue each once and each destination retries on its
// own stream. The body follows TradingView's webhook convention: the message as it is, sent as JSON
// when it parses as JSON, else as plain text (the message's {{...}} placeholders were filled by the run).
// Signed webhooks carry X-Resin-Timestamp and X-Resin-Signature: sha256=HMAC(secret, timestamp + "." + body);
// every delivery carries X-Resin-Delivery (its idempotency key) so a receiver can drop the repeat a
// crashed sender may make.

import type { AlertRecord } from "../core/result.js";
import type { NewOutboxRow, OutboxRow } from "../mesh/outbox.js";
import type { DeliveryOutcome } from "../mesh/outbox-sender.js";
import { allowedHosts, guardedPost, OutboundRefused, outboundTimeout } from "../mesh/outbound.js";
import { type AlertDestination, chatAllowed, getDestinations } from "./alert-destinations.js";
import type { EdgeEnv } from "./bindings.js";
import type { CronJob } from "./store.js";

export const alertStream = (jobId: string, destId: string) => `alert:${jobId}:${destId}`;
export const alertKeyPrefix = (scriptId: string) => `al:${scriptId}:`;

interface AlertPayload {
  script_id: string;
  job_id: string;
  dest_id: string;
  symbol: string;
  timeframe: string;
  bar_time: number;
  source: AlertRecord["source"];
  title: string | null;
  message: string;
}

export function alertRows(
  job: CronJob,
  scriptId: string,
  alerts: AlertRecord[],
  since: number,
  dests: AlertDestination[],
): NewOutboxRow[] {
  if (dests.length === 0) return [];
  const rows: NewOutboxRow[] = [];
  const perBar = new Map<number, number>();
  for (const a of alerts) {
    // The index counts every firing of the bar, so it is stable across re-runs.
    const index = perBar.get(a.time) ?? 0;
    perBar.set(a.time, index + 1);
    if (a.time <= since) continue;
    for (const d of dests) {
      const payload: AlertPayload = {
        script_id: scriptId,
        job_id: job.id,
        dest_id: d.id,
        symbol: job.symbol,
        timeframe: job.timeframe,
        bar_time: a.time,
        source: a.source,
        title: a.title ?? null,
        message: a.message,
      };
      rows.push({
        key: `${alertKeyPrefix(scriptId)}${job.id}:${a.time}:${index}:${d.id}`,
        channel: "alert",
        stream: alertStream(job.id, d.id),
        bar_time: a.time,
        payload,
      });
    }
  }
  return rows;
}

/** TradingView's webhook body convention: JSON when the message is JSON, plain text otherwise. */
export function alertBody(message: string): { body: string; contentType: string } {
  try {
    JSON.parse(message);
    return { body: message, contentType: "application/json" };
  } catch {
    return { body: message, contentType: "text/plain; charset=utf-8" };
  }
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
  let hex = "";
  for (const b of sig) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** The headers of a signed delivery (exported for receivers' verification in tests and docs). */
export async function signatureHeaders(
  secret: string,
  body: string,
  timestamp: number,
): Promise<Record<string, string>> {
  return {
    "x-resin-timestamp": String(timestamp),
    "x-resin-signature": `sha256=${await hmacHex(secret, `${timestamp}.${body}`)}`,
  };
}

function httpOutcome(status: number, text: string): DeliveryOutcome {
  if (status >= 200 && status < 300) return { kind: "delivered" };
  const reason = `destination answered ${status}${text ? `: ${text.slice(0, 200)}` : ""}`;
  if (status === 408 || status === 425 || status === 429 || status >= 500) return { kind: "retry", reason };
  return { kind: "dead", reason };
}

export async function deliverAlert(env: EdgeEnv, row: OutboxRow): Promise<DeliveryOutcome> {
  const p = JSON.parse(row.payload) as AlertPayload;
  const dest = (await getDestinations(env, p.script_id)).find((d) => d.id === p.dest_id);
  if (!dest) return { kind: "cancelled", reason: `destination '${p.dest_id}' was removed` };
  const allow = allowedHosts(env.OUTBOUND_ALLOW_HOSTS);
  const post = (url: string, body: string, headers: Record<string, string>) =>
    guardedPost(url, body, headers, allow, undefined, outboundTimeout(env.OUTBOUND_TIMEOUT_MS));
  try {
    if (dest.type === "webhook") {
      const { body, contentType } = alertBody(p.message);
      const headers: Record<string, string> = { "content-type": contentType, "x-resin-delivery": row.key };
      if (dest.secret) Object.assign(headers, await signatureHeaders(dest.secret, body, Date.now()));
      const res = await post(dest.url, body, headers);
      return httpOutcome(res.status, res.text);
    }
    if (!chatAllowed(env, dest.chat_id))
      return { kind: "dead", reason: `chat ${dest.chat_id} is no longer on CHAT_ALLOWLIST` };
    const token = typeof env.TELEGRAM_BOT_TOKEN === "string" ? env.TELEGRAM_BOT_TOKEN : "";
    if (!token) return { kind: "retry", reason: "TELEGRAM_BOT_TOKEN is not set on the evaluate worker" };
    const base =
      typeof env.TELEGRAM_API_BASE === "string" && env.TELEGRAM_API_BASE
        ? env.TELEGRAM_API_BASE
        : "https://api.telegram.org";
    const res = await post(
      `${base.replace(/\/$/, "")}/bot${token}/sendMessage`,
      JSON.stringify({ chat_id: dest.chat_id, text: p.message }),
      { "content-type": "application/json" },
    );
    return httpOutcome(res.status, "");
  } catch (e) {
    if (e instanceof OutboundRefused) return { kind: "dead", reason: `${e.code}: ${e.message}` };
    if (e instanceof Error && e.name === "TimeoutError")
      return { kind: "retry", reason: `no answer within ${outboundTimeout(env.OUTBOUND_TIMEOUT_MS)} ms` };
    return { kind: "retry", reason: e instanceof Error ? e.message : String(e) };
  }
}
