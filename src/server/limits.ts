// Free-tier guards (service.md 2.6), on when FREE_TIER_LIMITS=1. Checked in this order: rate limit
// (before the body is read), then the schema, then the concurrency slot (taken only once the body
// is in: a slow upload must not hold one), then script size and bars. Library sources count
// towards the script size and data_feed bars towards the bar count. Also the host settings read
// from the environment (run cap, trusted proxies).

import { ApiError } from "./errors.js";

export type Env = Record<string, string | undefined>;

export interface FreeTierConfig {
  enabled: boolean;
  maxBars: number;
  maxScriptChars: number;
  maxConcurrent: number;
  rateLimit: number;
  rateWindowSec: number;
}

/** A positive number of seconds from the environment, else the fallback. */
export function envSeconds(env: Env, key: string, fallback: number): number {
  const v = Number(env[key]);
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

/**
 * How many reverse proxies in front of the host append to X-Forwarded-For (SVC_TRUST_PROXY: a
 * count, "true" = 1); 0 (the default) means the header is the client's own word and is ignored.
 */
export function trustedProxyHops(env: Env): number {
  const v = env.SVC_TRUST_PROXY;
  if (v === "true") return 1;
  const n = Number(v);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/**
 * The client address behind `hops` trusted proxies: each appends the address it saw, so the
 * client is the hops-th entry from the right; whatever the client wrote further left is ignored.
 */
export function forwardedClient(header: string | undefined, hops: number): string | null {
  if (!header || hops <= 0) return null;
  const parts = header
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  return parts.length ? (parts[Math.max(0, parts.length - hops)] as string) : null;
}

function envInt(env: Env, key: string, fallback: number): number {
  const v = Number(env[key]);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

export function freeTierConfig(env: Env): FreeTierConfig {
  return {
    enabled: env.FREE_TIER_LIMITS === "1" || env.FREE_TIER_LIMITS === "true",
    maxBars: envInt(env, "FREE_MAX_BARS", 5000),
    maxScriptChars: envInt(env, "FREE_MAX_SCRIPT_CHARS", 262144),
    maxConcurrent: envInt(env, "FREE_MAX_CONCURRENT", 4),
    rateLimit: envInt(env, "FREE_RATE_LIMIT", 60),
    rateWindowSec: envInt(env, "FREE_RATE_WINDOW_SEC", 60),
  };
}

/** Fixed-window rate limiter and a concurrency counter, per app instance. */
export class FreeTier {
  readonly config: FreeTierConfig;
  private readonly windows = new Map<string, { start: number; count: number }>();
  private inflight = 0;
  private readonly now: () => number;

  constructor(config: FreeTierConfig, now: () => number = Date.now) {
    this.config = config;
    this.now = now;
  }

  /** Counts a request against the client's window; throws 429 RATE_LIMITED with Retry-After. */
  checkRate(client: string): void {
    const now = this.now();
    const windowMs = this.config.rateWindowSec * 1000;
    let w = this.windows.get(client);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(client, w);
      if (this.windows.size > 10_000) this.evict(now, windowMs);
    }
    if (w.count >= this.config.rateLimit) {
      const retryAfter = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
      throw new ApiError(
        429,
        "RATE_LIMITED",
        `rate limit of ${this.config.rateLimit} requests per ${this.config.rateWindowSec} s exceeded`,
        { retry_after: retryAfter, limit: this.config.rateLimit, window_sec: this.config.rateWindowSec },
        { "Retry-After": String(retryAfter) },
      );
    }
    w.count++;
  }

  /** Takes a concurrency slot (release it when the request ends); throws 429 TOO_MANY_REQUESTS. */
  acquire(): () => void {
    if (this.inflight >= this.config.maxConcurrent) {
      throw new ApiError(
        429,
        "TOO_MANY_REQUESTS",
        `at most ${this.config.maxConcurrent} requests may run at once`,
        { max_concurrent: this.config.maxConcurrent, retry_after: 1 },
        { "Retry-After": "1" },
      );
    }
    this.inflight++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        this.inflight--;
      }
    };
  }

  /** The post-schema checks: script size (each script with its libraries' sources) then bar count (data_feed included). */
  checkSize(scriptChars: readonly number[], bars: number): void {
    for (const n of scriptChars) {
      if (n > this.config.maxScriptChars) {
        throw new ApiError(
          413,
          "SCRIPT_TOO_LARGE",
          `script (with its libraries) has ${n} characters (max ${this.config.maxScriptChars})`,
          { max_chars: this.config.maxScriptChars, got_chars: n },
        );
      }
    }
    if (bars > this.config.maxBars) {
      throw new ApiError(413, "TOO_MANY_BARS", `${bars} bars exceed the free tier's ${this.config.maxBars}`, {
        max_bars: this.config.maxBars,
        got_bars: bars,
      });
    }
  }

  private evict(now: number, windowMs: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k);
  }
}
