// How far the V8 heaps of the server's process grow between full collections (startServer).
//
// The main thread of `resin serve` keeps a small heap (~14 MB, mostly the modules' code and text)
// and allocates little: runs happen on the pool's threads. V8 (Node 20's 11.3) answers a slow
// allocation rate with its smallest growing factor (1.1-1.2), so after a full collection the old
// generation's limit is the live size plus V8's minimum step plus the young generation's present
// capacity, while the test that starts marking asks for more room than the young generation's
// largest capacity: marking starts again a few hundred KB of old-generation growth later. Measured
// (scripts/optimize-http-cpu.mjs, 30 steady /optimize studies of 20k rows): the main thread ran
// 15-25 full collections, ~10 ms of the process's CPU a study between its own pauses and V8's
// marking helpers (~9% of a 32-trial study). A fixed factor (V8's --heap-growing-percent) of 3
// leaves 2-3 of them; each heap then grows to ~3x its live size before one (the main thread's to
// ~45 MB, a pool thread's to ~30 MB), well inside SVC_WORKER_HEAP_MB.
//
// The flag is V8's, process-wide and read whenever a heap's limit is worked out, so setting it after
// start takes effect at the next full collection of every heap (checked by the figures above).
// SVC_HEAP_GROWING_PERCENT sets it (factor 1 + percent/100); 0 leaves V8's own heuristic, as does
// a process started with the flag.

import { setFlagsFromString } from "node:v8";
import type { Env } from "../limits.js";

/** The default growth: a heap collects fully at ~3x its live size. */
export const SERVER_HEAP_GROWING_PERCENT = 200;

/** SVC_HEAP_GROWING_PERCENT: an integer 0-1000 (0: V8's own heuristic); anything else is the default. */
export function heapGrowingPercent(env: Env): number {
  const raw = env.SVC_HEAP_GROWING_PERCENT;
  const v = raw === undefined || raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isInteger(v) && v >= 0 && v <= 1000 ? v : SERVER_HEAP_GROWING_PERCENT;
}

/**
 * Sets V8's heap growing percent for this process: nothing for 0, nor when the process was started
 * with the flag (the operator's word).
 */
export function setHeapGrowth(percent: number): void {
  if (percent <= 0 || process.execArgv.some((a) => /^--heap[-_]growing[-_]percent\b/.test(a))) return;
  setFlagsFromString(`--heap-growing-percent=${Math.floor(percent)}`);
}
