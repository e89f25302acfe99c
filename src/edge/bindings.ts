// The bindings the edge worker reads (wrangler.toml / Miniflare options). Only the Workers APIs
// it uses are typed here, so the project needs no @cloudflare/workers-types.

import type { DurableObjectNamespaceLike } from "../mesh/bindings.js";
import type { D1Like } from "../mesh/d1.js";

export interface KVLike {
  get(key: string, type: "text"): Promise<string | null>;
  put(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  list(opts?: {
    prefix?: string;
    cursor?: string;
  }): Promise<{ keys: { name: string }[]; list_complete: boolean; cursor?: string }>;
}

export interface R2Like {
  get(key: string): Promise<{ text(): Promise<string> } | null>;
  put(key: string, value: string): Promise<unknown>;
  delete(key: string): Promise<void>;
}

export interface FetcherLike {
  fetch(input: Request | string, init?: RequestInit): Promise<Response>;
}

export interface EdgeEnv {
  /** When set, every route but /health needs header X-API-Key with this value. */
  API_KEY?: string;
  /** Scripts registry, cron jobs and job state. */
  RESIN_KV?: KVLike;
  /** Ingested bars (falls back to RESIN_KV when absent). */
  RESIN_BARS?: R2Like;
  /** Job state, per-job locks and the outbox of orders and alert deliveries (D1). */
  RESIN_DB?: D1Like;
  /** The trade service (src/mesh) that receives strategy events (POST /signal). */
  TRADE_SERVICE?: FetcherLike;
  /** Sent as X-Internal-Key to the trade service. */
  INTERNAL_KEY_BINDING?: string;
  /** Outbox retry policy: first retry delay (ms, doubling), attempts before dead-lettering. */
  OUTBOX_RETRY_BASE_MS?: string;
  OUTBOX_MAX_ATTEMPTS?: string;
  /** Outbox retention: settled rows kept this many hours (default 168), dead letters (default 720), row caps. */
  OUTBOX_RETAIN_HOURS?: string;
  OUTBOX_DEAD_RETAIN_HOURS?: string;
  OUTBOX_MAX_ROWS?: string;
  OUTBOX_MAX_DEAD?: string;
  /** Time cap of one alert delivery, redirects and reading the answer included (ms, default 10000, at most 30000). */
  OUTBOUND_TIMEOUT_MS?: string;
  /** Hosts alert deliveries may reach although private or loopback (comma-separated host or host:port). */
  OUTBOUND_ALLOW_HOSTS?: string;
  /** Chat ids alert chat destinations may name (comma-separated). */
  CHAT_ALLOWLIST?: string;
  /** The chat bot's token (Telegram sendMessage) and API base (default https://api.telegram.org). */
  TELEGRAM_BOT_TOKEN?: string;
  TELEGRAM_API_BASE?: string;
  /** "false" disables event forwarding for every job. */
  FORWARD_EVENTS?: string;
  FREE_TIER_LIMITS?: string;
  /** Fanned-out studies (studies.ts): one StudyCoordinator Durable Object per study, and this worker itself. */
  STUDIES?: DurableObjectNamespaceLike;
  EVALUATE?: FetcherLike;
  /** "free" or "paid" (default): the Workers plan whose limits a fanned-out study is checked against. */
  WORKERS_PLAN?: string;
  [key: string]: unknown;
}

export interface ExecutionContextLike {
  waitUntil(p: Promise<unknown>): void;
}
