// The idempotency key of a webhook that names none. TradingView alerts carry no delivery id, and a
// sender or proxy that retries a delivery must not place the order twice, so the key is derived
// from what the alert says (docs: src/mesh/README.md, "Webhook idempotency"):
//   - with a `time` field (TradingView's {{time}}, the bar's time, or any sender's timestamp): the
//     key is a hash of the webhook id and every field but the secret, the time included: the same
//     alert for the same bar is placed once, however late a retry arrives;
//   - without one: the same hash within a dedup window (WEBHOOK_DEDUP_WINDOW_S, default 60 s): the
//     key names the window's bucket, and a delivery early in a bucket also finds an order of the
//     previous bucket placed less than a window ago, so a retry straddling a boundary is a duplicate.
// An explicit `key` always wins. Two genuinely different alerts with identical fields inside one
// window are one order: an alert that may repeat within a minute should carry {{timenow}} as `time` or a `key`.

import { type MeshEnv, numberVar } from "./bindings.js";

/** The fields of a keyless webhook that identify it (the secret never enters the key). */
export interface WebhookFields {
  webhook: string;
  symbol: string;
  action: string;
  qty: number | null;
  price: number | null;
  test: boolean;
  comment: string | null;
  time: string | null;
}

export const DEFAULT_DEDUP_WINDOW_MS = 60_000;

export function dedupWindowMs(env: MeshEnv): number {
  return Math.max(1, numberVar(env, "WEBHOOK_DEDUP_WINDOW_S", DEFAULT_DEDUP_WINDOW_MS / 1000)) * 1000;
}

async function digest(f: WebhookFields): Promise<string> {
  // a fixed order of fields, so the same alert hashes the same whatever its JSON key order
  const canon = JSON.stringify([f.webhook, f.symbol, f.action, f.qty, f.price, f.test, f.comment, f.time]);
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canon)));
  return Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The derived key, and for a windowed key the previous bucket's key with the earliest creation time
 * an order under it may have to still count as the same delivery.
 */
export async function derivedWebhookKey(
  f: WebhookFields,
  now: number,
  windowMs: number,
): Promise<{ key: string; previous: { key: string; since: number } | null }> {
  const h = await digest(f);
  if (f.time !== null) return { key: `wh:${f.webhook}:t:${h}`, previous: null };
  const bucket = Math.floor(now / windowMs);
  return {
    key: `wh:${f.webhook}:w:${h}:${bucket}`,
    previous: { key: `wh:${f.webhook}:w:${h}:${bucket - 1}`, since: now - windowMs },
  };
}
