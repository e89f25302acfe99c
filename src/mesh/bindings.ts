// The bindings the trade-service worker reads (wrangler.toml / Miniflare options), typed here so the
// project needs no @cloudflare/workers-types. Secrets may be plain strings (wrangler secrets, Miniflare
// bindings) or Secrets Store bindings with get().

import type { D1Like } from "./d1.js";

export interface FetcherLike {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): FetcherLike;
}

export type SecretBinding = string | { get(): Promise<string | null> };

export interface MeshEnv {
  /** Orders (the idempotency ledger and trade log), paper fills, quotes. */
  MESH_DB?: D1Like;
  /** The MeshControl Durable Object: kill switch and rate limiter, read per order. */
  MESH_CONTROL?: DurableObjectNamespaceLike;
  /** Header X-Internal-Key of the evaluate worker's service binding and of operators' calls. */
  INTERNAL_KEY_BINDING?: SecretBinding;
  /** "paper" (default) or "binance". */
  BROKER?: string;
  /** Per-symbol caps, JSON: {"BTCUSDT": {"max_order": 1, "max_position": 2}, "*": {...}}. */
  MESH_LIMITS?: string;
  RATE_PER_KEY_PER_MIN?: string;
  RATE_PER_SYMBOL_PER_MIN?: string;
  PAPER_SLIPPAGE_BPS?: string;
  PAPER_FEE_RATE?: string;
  /** Comma-separated chat ids the chat-bot route obeys. */
  CHAT_ALLOWLIST?: string;
  /** Telegram's X-Telegram-Bot-Api-Secret-Token for the chat-bot route. */
  TELEGRAM_WEBHOOK_SECRET?: SecretBinding;
  /** Keyless webhooks without a `time`: identical deliveries within this many seconds are one order (default 60). */
  WEBHOOK_DEDUP_WINDOW_S?: string;
  /** How long a reservation is held before a retry may take it over (ms, default 30000). */
  RESERVE_LEASE_MS?: string;
  [key: string]: unknown;
}

/** A secret's value, or null when unset or empty. */
export async function readSecret(env: MeshEnv, name: string): Promise<string | null> {
  const b = env[name] as SecretBinding | undefined;
  if (b === undefined || b === null) return null;
  const v = typeof b === "string" ? b : typeof b === "object" && typeof b.get === "function" ? await b.get() : null;
  return v ? v : null;
}

/** A positive number from a string binding, or the default. */
export function numberVar(env: MeshEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (typeof raw !== "string" || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}
