// The bar sets optimize trials read, held by the thread that runs them (or the process, in-process).
// A study's bars travel to the worker threads as shared columns (SharedArrayBuffer: no copy per
// message), but the Runtime copies shared columns before a run (core/bar-scan.ts ownFloat64: another
// thread could write them mid-run), which cost every trial a copy of the whole set and the garbage it
// leaves. A study never writes its shared columns, so a thread copies them into its own memory once
// per set (by the key the study gave them) and every later trial and fold reads views of that copy.
// Bounded: at most MAX_SETS sets and MAX_BYTES (a set larger than that is kept alone), least recently
// used dropped first, and everything dropped once no trial has come for IDLE_MS (a server's idle
// threads do not keep a finished study's bars). Columns that are not shared (an engine on the calling
// thread: tests, workerd) are read as they are and nothing is held.
// A held set is this module's own copy, which nothing writes: the columns a run reads for one range
// of it are one object per range, settled (core/bars.ts settleBars), so the trials' runs are not
// each a scan of every bar and a compare of the time column again (~0.07 ms a run at 20k bars).
// Ordinary columns a study packed itself (studyOwnsBars: from its rows, which nobody else holds) are
// served the same way; a caller's own columns are not (it may write into them later).

import { settleBars } from "../core/bars.js";
import type { ColumnarBars } from "../core/result.js";
import { cloneBars, sliceBars, toColumnar, type PackedBars } from "../worker/protocol.js";

export const MAX_SETS = 16;
export const MAX_BYTES = 32 * 1024 * 1024;
export const IDLE_MS = 30_000;

const held = new Map<string, PackedBars>();
let heldBytes = 0;
let idle: ReturnType<typeof setTimeout> | null = null;

const bytesOf = (p: PackedBars): number => p.time.length * 6 * 8;

function drop(key: string): void {
  const p = held.get(key);
  if (!p) return;
  held.delete(key);
  heldBytes -= bytesOf(p);
}

/** Forgets every held set (tests; the idle timer). */
export function dropTrialBars(): void {
  for (const key of [...held.keys()]) drop(key);
}

/** How many sets are held now (tests). */
export function heldTrialBars(): number {
  return held.size;
}

/**
 * The set named `key` in this thread's own memory: copied from `shared` on first use, the same
 * columns for every later trial with that key.
 */
export function ownTrialBars(key: string, shared: PackedBars): PackedBars {
  // ordinary columns (an engine on the calling thread) are read as they are: nothing to hold
  if (!isShared(shared.time)) return shared;
  if (idle !== null) clearTimeout(idle);
  idle = setTimeout(dropTrialBars, IDLE_MS);
  (idle as { unref?: () => void }).unref?.();
  let own = held.get(key);
  if (own) {
    // most recently used last
    held.delete(key);
    held.set(key, own);
    return own;
  }
  own = cloneBars(shared);
  ranges.set(own, new Map());
  held.set(key, own);
  heldBytes += bytesOf(own);
  for (const k of held.keys()) {
    if (held.size <= 1 || (held.size <= MAX_SETS && heldBytes <= MAX_BYTES)) break;
    drop(k);
  }
  return own;
}

/**
 * Marks ordinary columns that a study packed itself (server/engine.ts studyColumns: from rows, or
 * converted from columns that were not Float64Arrays) as columns nothing writes: trialColumns then
 * gives each range of them one settled object, as it does a held set's. Without it, every trial run
 * on the calling thread (`resin optimize`'s own thread, workerd) scanned every bar and made the
 * range's close times and their cache copy again: about 12% of such a study's CPU on that thread
 * (docs/benchmarks.md, issue 18 session 31).
 */
export function studyOwnsBars(p: PackedBars): void {
  if (!ranges.has(p)) ranges.set(p, new Map());
}

/** The held sets' (and studies' own) columns by range ("from:to"), settled (trialColumns). */
const ranges = new WeakMap<PackedBars, Map<string, ColumnarBars>>();

/**
 * The columns a trial's run reads for bars [from, to) of `own` (what ownTrialBars gave): of a held
 * set or a study's own columns, the same settled object for every run of that range; of a caller's
 * columns, a new view (they are never settled: it may write into them later).
 */
export function trialColumns(own: PackedBars, from: number, to: number): ColumnarBars {
  const byRange = ranges.get(own);
  if (!byRange) return toColumnar(sliceBars(own, from, to));
  const range = `${from}:${to}`;
  let cols = byRange.get(range);
  if (!cols) {
    cols = toColumnar(sliceBars(own, from, to));
    // (bad bars are not settled: each run reports them as a run does)
    settleBars(cols);
    byRange.set(range, cols);
  }
  return cols;
}

const isShared = (a: Float64Array): boolean =>
  typeof SharedArrayBuffer !== "undefined" && a.buffer instanceof SharedArrayBuffer;

let sequence = 0;

/** A key no other bar set of this process has (the threads' held sets are per process). */
export function newTrialBarsKey(): string {
  return `bars${++sequence}`;
}
