// Where a registered script's alert firings go: webhook URLs (optionally signed with a secret) and
// chat-bot destinations (Telegram's sendMessage, the bot token a worker secret). Stored in KV next
// to the script; checked on registration (the outbound guard, the chat allowlist) and again at
// delivery, since the guard's allow list or the allowlist may have changed in between.

import { allowedHosts, checkOutboundUrl, OutboundRefused } from "../mesh/outbound.js";
import { ApiError } from "../server/errors.js";
import type { EdgeEnv, KVLike } from "./bindings.js";
import { StoreError } from "./store.js";

export type AlertDestination =
  | { id: string; type: "webhook"; url: string; secret: string | null }
  | { id: string; type: "chat"; chat_id: string };

/** Most destinations a script may have (every firing is one delivery per destination). */
export const MAX_DESTINATIONS = 10;
const DEST_ID_RE = /^[A-Za-z0-9_-]{1,32}$/;

function kv(env: EdgeEnv): KVLike {
  if (!env.RESIN_KV) throw new StoreError("RESIN_KV binding is not configured");
  return env.RESIN_KV;
}

export function chatAllowed(env: EdgeEnv, chatId: string): boolean {
  const raw = typeof env.CHAT_ALLOWLIST === "string" ? env.CHAT_ALLOWLIST : "";
  return raw
    .split(",")
    .map((s) => s.trim())
    .includes(chatId);
}

const invalid = (i: number, field: string, code: string, message: string): ApiError =>
  new ApiError(400, code, `destinations[${i}]: ${message}`, { field: `destinations[${i}].${field}` });

/**
 * Validates a destinations list (coded 400s naming the field); ids default to d0, d1, ... A webhook
 * with `keep_secret: true` and no secret keeps the stored secret of the destination with its id and
 * URL (`stored`), so a client that never saw the secret (the API does not echo it) can update the rest.
 */
export function validDestinations(env: EdgeEnv, raw: unknown[], stored: AlertDestination[] = []): AlertDestination[] {
  if (raw.length > MAX_DESTINATIONS)
    throw new ApiError(400, "INVALID_FIELD", `at most ${MAX_DESTINATIONS} destinations`, { field: "destinations" });
  const allow = allowedHosts(env.OUTBOUND_ALLOW_HOSTS);
  const ids = new Set<string>();
  return raw.map((d, i) => {
    if (d === null || typeof d !== "object" || Array.isArray(d))
      throw invalid(i, "type", "INVALID_FIELD", "must be an object");
    const o = d as Record<string, unknown>;
    const id = o.id === undefined ? `d${i}` : o.id;
    if (typeof id !== "string" || !DEST_ID_RE.test(id))
      throw invalid(i, "id", "INVALID_FIELD", "id must be 1-32 of [A-Za-z0-9_-]");
    if (ids.has(id)) throw invalid(i, "id", "INVALID_FIELD", `duplicate id '${id}'`);
    ids.add(id);
    if (o.type === "webhook") {
      if (typeof o.url !== "string") throw invalid(i, "url", "MISSING_FIELD", "webhook needs a url");
      try {
        checkOutboundUrl(o.url, allow);
      } catch (e) {
        if (e instanceof OutboundRefused) throw invalid(i, "url", "URL_REFUSED", e.message);
        throw e;
      }
      if (o.secret !== undefined && o.secret !== null && (typeof o.secret !== "string" || o.secret.length < 8))
        throw invalid(i, "secret", "INVALID_FIELD", "secret must be a string of at least 8 characters");
      if (o.keep_secret !== undefined && typeof o.keep_secret !== "boolean")
        throw invalid(i, "keep_secret", "INVALID_FIELD", "keep_secret must be true or false");
      let secret = (o.secret as string | undefined | null) ?? null;
      if (secret === null && o.keep_secret === true) {
        const prev = stored.find((p) => p.id === id);
        // A changed URL drops the secret: it was shared with the receiver at the old URL.
        if (prev?.type === "webhook" && prev.url === o.url) secret = prev.secret;
      }
      return { id, type: "webhook", url: o.url, secret };
    }
    if (o.type === "chat") {
      const chat = typeof o.chat_id === "number" ? String(o.chat_id) : o.chat_id;
      if (typeof chat !== "string" || chat === "") throw invalid(i, "chat_id", "MISSING_FIELD", "chat needs a chat_id");
      if (!chatAllowed(env, chat))
        throw invalid(i, "chat_id", "CHAT_NOT_ALLOWED", `chat ${chat} is not on CHAT_ALLOWLIST`);
      return { id, type: "chat", chat_id: chat };
    }
    throw invalid(i, "type", "INVALID_FIELD", "type must be webhook or chat");
  });
}

export async function getDestinations(env: EdgeEnv, scriptId: string): Promise<AlertDestination[]> {
  const text = await kv(env).get(`alerts:${scriptId}`, "text");
  return text ? (JSON.parse(text) as AlertDestination[]) : [];
}

export async function putDestinations(env: EdgeEnv, scriptId: string, dests: AlertDestination[]): Promise<void> {
  if (dests.length === 0) await kv(env).delete(`alerts:${scriptId}`);
  else await kv(env).put(`alerts:${scriptId}`, JSON.stringify(dests));
}

/** A destination as the API shows it: a webhook's secret is never echoed. */
export function publicDestination(d: AlertDestination): Record<string, unknown> {
  return d.type === "webhook" ? { id: d.id, type: d.type, url: d.url, signed: d.secret !== null } : { ...d };
}
