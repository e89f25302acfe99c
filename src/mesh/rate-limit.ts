// Token buckets keyed by string (the per-key and per-symbol order rate limits). Lives in the
// MeshControl Durable Object, the one instance every order path goes through, so the limits are
// mesh-wide rather than per isolate; the object writes each bucket it changes to its storage and reads
// back the ones it does not hold (control.ts), so an evicted object resumes the levels it had.
// Memory is bounded: idle buckets that have refilled are dropped once the table passes MAX_BUCKETS.

const MAX_BUCKETS = 10_000;

export interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  /** `capacity` tokens, refilled at capacity per `windowMs`. */
  constructor(
    readonly capacity: number,
    readonly windowMs = 60_000,
  ) {}

  private level(key: string, now: number): Bucket {
    const b = this.buckets.get(key) ?? { tokens: this.capacity, at: now };
    const refill = ((now - b.at) * this.capacity) / this.windowMs;
    return { tokens: Math.min(this.capacity, b.tokens + refill), at: now };
  }

  /** Milliseconds until `key` has a token (0: it has one now). */
  waitMs(key: string, now: number): number {
    const b = this.level(key, now);
    return b.tokens >= 1 ? 0 : Math.ceil(((1 - b.tokens) * this.windowMs) / this.capacity);
  }

  /** Takes a token; returns the bucket as it now is (what the caller persists). */
  take(key: string, now: number): Bucket {
    const b = this.level(key, now);
    b.tokens -= 1;
    this.buckets.set(key, b);
    if (this.buckets.size > MAX_BUCKETS) this.prune(now);
    return b;
  }

  has(key: string): boolean {
    return this.buckets.has(key);
  }

  /** Puts back a bucket read from storage. */
  restore(key: string, b: Bucket): void {
    if (Number.isFinite(b?.tokens) && Number.isFinite(b?.at)) this.buckets.set(key, { tokens: b.tokens, at: b.at });
  }

  /** True when a stored bucket has refilled by `now` (it then says nothing a fresh one would not). */
  full(b: Bucket, now: number): boolean {
    return b.tokens + ((now - b.at) * this.capacity) / this.windowMs >= this.capacity;
  }

  private prune(now: number): void {
    for (const [k, b] of this.buckets) {
      if (b.tokens + ((now - b.at) * this.capacity) / this.windowMs >= this.capacity) this.buckets.delete(k);
    }
  }
}
