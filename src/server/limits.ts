// Free-tier guards (service.md 2.6), on when FREE_TIER_LIMITS=1. Checked in this order: rate limit,
// concurrency slot (both before the body is read), then after the schema: script size, bars.

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
      throw new ApiError(429, "RATE_LIMITED", `rate limit of ${this.config.rateLimit} requests per ${this.config.rateWindowSec} s exceeded`,
        { retry_after: retryAfter, limit: this.config.rateLimit, window_sec: this.config.rateWindowSec }, { "Retry-After": String(retryAfter) });
    }
    w.count++;
  }

  /** Takes a concurrency slot (release it when the request ends); throws 429 TOO_MANY_REQUESTS. */
  acquire(): () => void {
    if (this.inflight >= this.config.maxConcurrent) {
      throw new ApiError(429, "TOO_MANY_REQUESTS", `at most ${this.config.maxConcurrent} requests may run at once`,
        { max_concurrent: this.config.maxConcurrent, retry_after: 1 }, { "Retry-After": "1" });
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

  /** The post-schema checks: script size then bar count. */
  checkSize(scripts: readonly string[], bars: number): void {
    for (const s of scripts) {
      if (s.length > this.config.maxScriptChars) {
        throw new ApiError(413, "SCRIPT_TOO_LARGE", `script has ${s.length} characters (max ${this.config.maxScriptChars})`,
          { max_chars: this.config.maxScriptChars, got_chars: s.length });
      }
    }
    if (bars > this.config.maxBars) {
      throw new ApiError(413, "TOO_MANY_BARS", `${bars} bars exceed the free tier's ${this.config.maxBars}`, { max_bars: this.config.maxBars, got_bars: bars });
    }
  }

  private evict(now: number, windowMs: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k);
  }
}
