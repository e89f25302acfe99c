// MeshControl, the Durable Object that is the mesh's one place of truth for the kill switch and the
// rate limiter. There is one instance (named "global"); every order path calls its /gate immediately
// before sending an order to a broker, so turning the switch on stops orders from the next gate call
// on, everywhere (a KV flag read per job could lag by a job's length plus KV's propagation delay).
//
// The switch's state persists in the object's storage, and so do the rate buckets (each one the gate
// changes is written, one missing from memory is read back), so an evicted object does not restart
// them full. Storage operations hold the object's input gate, so a gate's read-modify-write of its two
// buckets is not interleaved with another gate. Refilled buckets are deleted from storage now and then
// (bounded work per sweep).
//
// It also serialises orders per symbol (/lock, /unlock): the gateway sizes an order from the ledger's
// position and checks the position cap, then places and commits; two orders of one symbol doing that
// side by side would both read the position before either committed (two reversals doubling, two buys
// passing a cap only one fits). A lock is held from the position read to the commit; a waiter queues
// (bounded) instead of failing, and a holder that never unlocks (a crashed attempt) loses it after its
// lease. Locks live in memory: an evicted object forgets them, which can only let one order of a symbol
// overlap a crashed holder's.

import type { DurableObjectNamespaceLike, FetcherLike, MeshEnv } from "./bindings.js";
import { numberVar } from "./bindings.js";
import { type Bucket, TokenBuckets } from "./rate-limit.js";

export interface KillSwitchState {
  on: boolean;
  updated_at: number | null;
  /** When it was last turned on: signals queued before it are cancelled, even after it is off again. */
  last_on_at: number | null;
}

export interface GateRequest {
  principal: string;
  symbol: string;
  queued_at: number | null;
}

export type GateAnswer =
  | { allow: true }
  | { allow: false; code: "KILL_SWITCH_ON" | "CANCELLED_BY_KILL_SWITCH"; message: string }
  | { allow: false; code: "RATE_LIMITED"; message: string; retry_after_ms: number };

interface DurableObjectStateLike {
  storage: {
    get<T>(key: string): Promise<T | undefined>;
    get<T>(keys: string[]): Promise<Map<string, T>>;
    put(key: string, value: unknown): Promise<void>;
    put(entries: Record<string, unknown>, opts?: { allowUnconfirmed?: boolean }): Promise<void>;
    list<T>(opts: { prefix: string; limit: number; startAfter?: string }): Promise<Map<string, T>>;
    delete(keys: string[]): Promise<number>;
  };
  blockConcurrencyWhile<T>(fn: () => Promise<T>): Promise<T>;
}

/** Storage key prefix of the rate buckets ("rl:key:<principal>", "rl:symbol:<symbol>"). */
const BUCKET_PREFIX = "rl:";
/** Gates between sweeps of refilled buckets out of storage, and buckets looked at per sweep. */
const SWEEP_EVERY = 256;
const SWEEP_BATCH = 512;

const OFF: KillSwitchState = { on: false, updated_at: null, last_on_at: null };

/** A symbol's lock: who holds it until when, and who waits for it (FIFO). */
interface SymbolLock {
  holder: string;
  until: number;
  waiters: { holder: string; leaseMs: number; grant: () => void }[];
}

export interface LockRequest {
  /** The symbol's lock name (symbol and venue: testnet and live positions are separate). */
  name: string;
  holder: string;
  leaseMs: number;
  /** How long to wait for the lock before answering busy. */
  waitMs: number;
}

export class MeshControl {
  private kill: KillSwitchState = OFF;
  private readonly locks = new Map<string, SymbolLock>();
  private readonly perKey: TokenBuckets;
  private readonly perSymbol: TokenBuckets;
  private gates = 0;
  /** Where the next sweep of stored buckets starts (it walks the keys round-robin). */
  private sweepAfter: string | undefined;

  constructor(
    private readonly state: DurableObjectStateLike,
    env: MeshEnv,
  ) {
    this.perKey = new TokenBuckets(numberVar(env, "RATE_PER_KEY_PER_MIN", 120) || 1);
    this.perSymbol = new TokenBuckets(numberVar(env, "RATE_PER_SYMBOL_PER_MIN", 60) || 1);
    void state.blockConcurrencyWhile(async () => {
      this.kill = (await state.storage.get<KillSwitchState>("kill-switch")) ?? OFF;
    });
  }

  async fetch(request: Request): Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === "/gate" && request.method === "POST") return Response.json(await this.gate(await request.json()));
    if (path === "/lock" && request.method === "POST") return Response.json(await this.lock(await request.json()));
    if (path === "/unlock" && request.method === "POST") {
      const { name, holder } = (await request.json()) as { name: string; holder: string };
      this.unlock(name, holder);
      return Response.json({ ok: true });
    }
    if (path === "/kill-switch" && request.method === "GET") return Response.json(this.kill);
    if (path === "/kill-switch" && request.method === "PUT") {
      const { on } = (await request.json()) as { on: boolean };
      const now = Date.now();
      this.kill = { on, updated_at: now, last_on_at: on ? now : this.kill.last_on_at };
      await this.state.storage.put("kill-switch", this.kill);
      return Response.json(this.kill);
    }
    return new Response("not found", { status: 404 });
  }

  private lock(r: LockRequest): Promise<{ ok: boolean }> {
    const now = Date.now();
    const held = this.locks.get(r.name);
    if (!held || held.until <= now || held.holder === r.holder) {
      // free, expired (its holder crashed or hung: waiters keep their places behind the new holder) or re-entered
      this.locks.set(r.name, { holder: r.holder, until: now + r.leaseMs, waiters: held?.waiters ?? [] });
      return Promise.resolve({ ok: true });
    }
    return new Promise((resolve) => {
      const waiter = { holder: r.holder, leaseMs: r.leaseMs, grant: () => resolve({ ok: true }) };
      held.waiters.push(waiter);
      setTimeout(() => {
        const i = held.waiters.indexOf(waiter);
        if (i < 0) return; // granted meanwhile
        held.waiters.splice(i, 1);
        resolve({ ok: false });
      }, r.waitMs);
    });
  }

  private unlock(name: string, holder: string): void {
    const held = this.locks.get(name);
    if (!held || held.holder !== holder) return;
    const next = held.waiters.shift();
    if (!next) {
      this.locks.delete(name);
      return;
    }
    held.holder = next.holder;
    held.until = Date.now() + next.leaseMs;
    next.grant();
  }

  private async gate(g: GateRequest): Promise<GateAnswer> {
    if (this.kill.on) return { allow: false, code: "KILL_SWITCH_ON", message: "kill switch is on: orders halted" };
    if (g.queued_at !== null && this.kill.last_on_at !== null && g.queued_at <= this.kill.last_on_at)
      return {
        allow: false,
        code: "CANCELLED_BY_KILL_SWITCH",
        message: "queued before the kill switch was last turned on: cancelled",
      };
    const keyBucket = `key:${g.principal}`;
    const symbolBucket = `symbol:${g.symbol}`;
    await this.loadBuckets([
      [this.perKey, keyBucket],
      [this.perSymbol, symbolBucket],
    ]);
    const now = Date.now();
    const wait = Math.max(this.perKey.waitMs(keyBucket, now), this.perSymbol.waitMs(symbolBucket, now));
    if (wait > 0)
      return {
        allow: false,
        code: "RATE_LIMITED",
        message: `rate limit for ${g.principal} / ${g.symbol} reached`,
        retry_after_ms: wait,
      };
    // The memory buckets are the truth while the object lives; storage is for its successor, so the
    // answer does not wait for the write to be confirmed (a crash in between forgets one token's use).
    await this.state.storage.put(
      {
        [BUCKET_PREFIX + keyBucket]: this.perKey.take(keyBucket, now),
        [BUCKET_PREFIX + symbolBucket]: this.perSymbol.take(symbolBucket, now),
      },
      { allowUnconfirmed: true },
    );
    if (++this.gates % SWEEP_EVERY === 0) await this.sweep(now);
    return { allow: true };
  }

  /** Reads back the buckets this instance does not hold (it was evicted, or never saw them). */
  private async loadBuckets(wanted: [TokenBuckets, string][]): Promise<void> {
    const missing = wanted.filter(([tb, k]) => !tb.has(k));
    if (!missing.length) return;
    const stored = await this.state.storage.get<Bucket>(missing.map(([, k]) => BUCKET_PREFIX + k));
    for (const [tb, k] of missing) {
      const b = stored.get(BUCKET_PREFIX + k);
      if (b) tb.restore(k, b);
    }
  }

  /** Deletes stored buckets that have refilled (a fresh bucket is the same), a batch at a time. */
  private async sweep(now: number): Promise<void> {
    const page = await this.state.storage.list<Bucket>({
      prefix: BUCKET_PREFIX,
      limit: SWEEP_BATCH,
      ...(this.sweepAfter ? { startAfter: this.sweepAfter } : {}),
    });
    const done: string[] = [];
    let last: string | undefined;
    for (const [k, b] of page) {
      last = k;
      const tb = k.startsWith(`${BUCKET_PREFIX}key:`) ? this.perKey : this.perSymbol;
      if (tb.full(b, now)) done.push(k);
    }
    this.sweepAfter = page.size < SWEEP_BATCH ? undefined : last;
    // delete() takes at most 128 keys per call
    for (let i = 0; i < done.length; i += 128) await this.state.storage.delete(done.slice(i, i + 128));
  }
}

/** The one MeshControl instance, from the worker's side. */
export function controlStub(env: MeshEnv): FetcherLike | null {
  const ns = env.MESH_CONTROL as DurableObjectNamespaceLike | undefined;
  return ns ? ns.get(ns.idFromName("global")) : null;
}

async function call<T>(stub: FetcherLike, method: string, path: string, body?: unknown): Promise<T> {
  const res = await stub.fetch(`https://mesh-control${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  if (!res.ok) throw new Error(`mesh control ${path} answered ${res.status}`);
  return (await res.json()) as T;
}

export const gate = (stub: FetcherLike, g: GateRequest) => call<GateAnswer>(stub, "POST", "/gate", g);
export const lockSymbol = (stub: FetcherLike, r: LockRequest) => call<{ ok: boolean }>(stub, "POST", "/lock", r);
export const unlockSymbol = (stub: FetcherLike, name: string, holder: string) =>
  call<{ ok: boolean }>(stub, "POST", "/unlock", { name, holder });
export const readKillSwitch = (stub: FetcherLike) => call<KillSwitchState>(stub, "GET", "/kill-switch");
export const writeKillSwitch = (stub: FetcherLike, on: boolean) =>
  call<KillSwitchState>(stub, "PUT", "/kill-switch", { on });
