// Authentication of the trade service's callers: the internal key (the evaluate worker's service
// binding, operators' resinctl calls) and per-webhook secrets (TradingView alerts carry theirs in the
// body, since TradingView cannot set headers). Every comparison is constant-time.

import { ApiError } from "../server/errors.js";
import { type MeshEnv, readSecret } from "./bindings.js";

const encoder = new TextEncoder();

/**
 * Constant-time string equality: both sides are hashed with SHA-256 first, so the compared buffers
 * have equal length whatever the inputs (no length leak), then compared with workerd's
 * crypto.subtle.timingSafeEqual when present or a fixed-length XOR loop elsewhere.
 */
export async function safeEqual(given: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(given)),
    crypto.subtle.digest("SHA-256", encoder.encode(expected)),
  ]);
  const subtle = crypto.subtle as SubtleCrypto & { timingSafeEqual?: (x: ArrayBuffer, y: ArrayBuffer) => boolean };
  if (typeof subtle.timingSafeEqual === "function") return subtle.timingSafeEqual(a, b);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}

/** Throws 401/503 unless the request carries the internal key. */
export async function requireInternalKey(env: MeshEnv, req: Request): Promise<void> {
  const expected = await readSecret(env, "INTERNAL_KEY_BINDING");
  if (!expected)
    throw new ApiError(503, "AUTH_NOT_CONFIGURED", "INTERNAL_KEY_BINDING is not set on the trade service", {
      hint: "resinctl secrets set trade INTERNAL_KEY_BINDING",
    });
  if (!(await safeEqual(req.headers.get("x-internal-key") ?? "", expected)))
    throw new ApiError(401, "UNAUTHORIZED", "missing or wrong X-Internal-Key header");
}

/** The secret binding name of a webhook id: WEBHOOK_<ID>_SECRET (id upper-cased, other characters as _). */
export function webhookSecretName(id: string): string {
  return `WEBHOOK_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_SECRET`;
}

const WEBHOOK_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;

/** Throws unless `secret` is the webhook's configured secret. An unknown webhook is refused the same way. */
export async function requireWebhookSecret(env: MeshEnv, id: string, secret: string): Promise<void> {
  if (!WEBHOOK_ID_RE.test(id))
    throw new ApiError(400, "INVALID_FIELD", "webhook id must be 1-64 of [A-Za-z0-9_-]", { field: "webhook" });
  const expected = await readSecret(env, webhookSecretName(id));
  // An unknown webhook still pays for a comparison, so timing does not tell which ids exist.
  const ok = await safeEqual(secret, expected ?? "\u0000no-webhook");
  if (!expected || !ok) throw new ApiError(401, "UNAUTHORIZED", "wrong webhook secret", { field: "secret" });
}
