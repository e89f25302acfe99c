// Edge storage: the scripts registry and cron jobs in KV, ingested bars in R2 (or KV).

import type { Bar } from "../core/result.js";
import { sha256Hex } from "../core/sha256.js";
import type { EdgeEnv, KVLike } from "./bindings.js";

export interface StoredScript {
  id: string;
  name: string;
  source: string;
  created_at: number;
  updated_at: number;
}

export interface CronJob {
  id: string;
  script_id: string;
  symbol: string;
  timeframe: string;
  enabled: boolean;
  /** false keeps strategy events to itself (no TRADE_SERVICE call). */
  forward_events: boolean;
  /** true: the trade service places this job's orders with the testnet credentials (`_TESTNET_` secrets). */
  test?: boolean;
  inputs: Record<string, unknown>;
}

export interface JobState {
  /** Time of the newest bar the job has processed. */
  last_bar_time: number | null;
  last_run_at: number | null;
  last_error: string | null;
  forwarded: number;
}

export class StoreError extends Error {}

function kv(env: EdgeEnv): KVLike {
  if (!env.RESIN_KV) throw new StoreError("RESIN_KV binding is not configured");
  return env.RESIN_KV;
}

async function getJson<T>(store: KVLike, key: string): Promise<T | null> {
  const text = await store.get(key, "text");
  return text === null ? null : (JSON.parse(text) as T);
}

/** A registry entry without its source; `source_hash` (SHA-256) says which source it is. */
export type ListedScript = Omit<StoredScript, "source"> & { source_hash: string };

export async function listScripts(env: EdgeEnv): Promise<ListedScript[]> {
  const store = kv(env);
  const out: ListedScript[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ prefix: "script:", ...(cursor ? { cursor } : {}) });
    for (const k of page.keys) {
      const s = await getJson<StoredScript>(store, k.name);
      if (s)
        out.push({
          id: s.id,
          name: s.name,
          created_at: s.created_at,
          updated_at: s.updated_at,
          source_hash: sha256Hex(s.source),
        });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

export const getScript = (env: EdgeEnv, id: string) => getJson<StoredScript>(kv(env), `script:${id}`);

export async function putScript(env: EdgeEnv, id: string, name: string, source: string): Promise<StoredScript> {
  const now = Date.now();
  const prev = await getScript(env, id);
  const s: StoredScript = { id, name, source, created_at: prev?.created_at ?? now, updated_at: now };
  await kv(env).put(`script:${id}`, JSON.stringify(s));
  return s;
}

export async function deleteScript(env: EdgeEnv, id: string): Promise<boolean> {
  if (!(await getScript(env, id))) return false;
  await kv(env).delete(`script:${id}`);
  return true;
}

export async function getJobs(env: EdgeEnv): Promise<CronJob[]> {
  return (await getJson<CronJob[]>(kv(env), "cron:jobs")) ?? [];
}

export async function putJobs(env: EdgeEnv, jobs: CronJob[]): Promise<void> {
  await kv(env).put("cron:jobs", JSON.stringify(jobs));
}

export async function getJobState(env: EdgeEnv, id: string): Promise<JobState> {
  return (
    (await getJson<JobState>(kv(env), `cron:state:${id}`)) ?? {
      last_bar_time: null,
      last_run_at: null,
      last_error: null,
      forwarded: 0,
    }
  );
}

export async function putJobState(env: EdgeEnv, id: string, state: JobState): Promise<void> {
  await kv(env).put(`cron:state:${id}`, JSON.stringify(state));
}

/**
 * The storage key of a symbol/timeframe series. Each part is escaped (encodeURIComponent turns
 * ':' into %3A), so symbol "A:B" + timeframe "C" and symbol "A" + timeframe "B:C" get different keys.
 */
export function barsKey(symbol: string, timeframe: string): string {
  return `bars:${encodeURIComponent(symbol)}:${encodeURIComponent(timeframe)}`;
}

/**
 * The key earlier versions used (parts unescaped). It is unambiguous for the timeframes ingest
 * accepts now (they never contain ':'), so series stored under it are still found and move to
 * the escaped key on their next write.
 */
function legacyBarsKey(symbol: string, timeframe: string): string {
  return `bars:${symbol}:${timeframe}`;
}

async function readBars(env: EdgeEnv, key: string): Promise<Bar[] | null> {
  if (env.RESIN_BARS) {
    const obj = await env.RESIN_BARS.get(key);
    return obj ? (JSON.parse(await obj.text()) as Bar[]) : null;
  }
  return getJson<Bar[]>(kv(env), key);
}

export async function getBars(env: EdgeEnv, symbol: string, timeframe: string): Promise<Bar[]> {
  const key = barsKey(symbol, timeframe);
  const legacy = legacyBarsKey(symbol, timeframe);
  return (
    (await readBars(env, key)) ??
    (legacy !== key && !timeframe.includes(":") ? await readBars(env, legacy) : null) ??
    []
  );
}

/** Merges bars by time (a newer copy of a bar replaces the stored one) and stores the series. */
export async function mergeBars(env: EdgeEnv, symbol: string, timeframe: string, incoming: Bar[]): Promise<Bar[]> {
  const byTime = new Map<number, Bar>();
  for (const b of await getBars(env, symbol, timeframe)) byTime.set(b.time, b);
  for (const b of incoming) byTime.set(b.time, b);
  const merged = [...byTime.values()].sort((a, b) => a.time - b.time);
  const key = barsKey(symbol, timeframe);
  const legacy = legacyBarsKey(symbol, timeframe);
  const text = JSON.stringify(merged);
  const store = env.RESIN_BARS ?? kv(env);
  await store.put(key, text);
  if (legacy !== key && !timeframe.includes(":")) await store.delete(legacy);
  return merged;
}
