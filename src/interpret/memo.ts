// Closures kept across runs of one program. V8 inlines a closure call whose feedback saw a single
// closure object, and then reads what that closure captured as constants (its slot numbers fold into
// the loads); a closure tree built anew by every run is seen through the shared feedback cell of its
// creation site instead, each captured value loaded on every call. A 3-statement numeric loop body
// measured ~17 ns an iteration rebuilt per run against ~5 ns with the same closure objects. So a
// closure that captures only a run's storage (slots, `var` flags, history rings, call sites: state.ts
// takes them from a per-program pool, reset per run, so every run of the program compiles against
// the same ones), the storage's Flow (through which it reaches the run's budget and context) and
// constants (slot and site numbers, values, builtins, other kept closures) is kept per slot array,
// under a key naming all of that, and the next run of the program gets the same object back. Given
// the storage, a closure is a function of its key alone, so handing it out again (or at two nodes
// with the same key) computes what a fresh one would.

import type { Budget } from "../core/budget.js";
import type { ExecContext } from "../builtins/types.js";

type Fn = () => any;

/**
 * The break/continue flag of the closures over one storage (0 none, 1 break, 2 continue; loops
 * consume it), the run's budget, which loops tick, and its context, which builtins take: kept with
 * the slot array, so that a kept loop, block or call reaches the run that calls it (the compiler
 * points B and ctx at its run's).
 */
export interface Flow {
  ctl: number;
  B: Budget;
  ctx: ExecContext;
  /**
   * The run's bar columns in COLUMN_FIELDS order: a kept closure reading a column by its index reads
   * the run's, and one load of a Float64Array out of a small array stays monomorphic (a property read
   * by a captured name goes through the feedback every such closure shares).
   */
  cols: Float64Array[];
  /** Counts the runs over this storage: a kept closure holding a run's own object sees a new run by it. */
  run: number;
}

/** The bar columns a kept closure reads through Flow.cols, by index. */
export const COLUMN_FIELDS = ["open", "high", "low", "close", "volume", "time"] as const;

function columnsOf(ctx: ExecContext): Float64Array[] {
  const c = ctx.columns;
  return [c.open, c.high, c.low, c.close, c.volume, c.time];
}

const flows = new WeakMap<Float64Array, Flow>();

/** The flow object of the closures over the slot array N. */
export function flowOf(N: Float64Array, B: Budget, ctx: ExecContext): Flow {
  let f = flows.get(N);
  if (f === undefined) flows.set(N, (f = { ctl: 0, B, ctx, cols: columnsOf(ctx), run: 0 }));
  f.run++;
  f.ctl = 0;
  f.B = B;
  f.ctx = ctx;
  f.cols = columnsOf(ctx);
  return f;
}

/** What a flow points at between runs (never read: no closure runs then). */
const DETACHED: unknown = Object.freeze({});
const NO_COLUMNS: Float64Array[] = [];

/**
 * The run over the slot array N is over: its flow lets go of the run's budget and context (kept
 * closures hold the flow between runs; through the context, the run's plots, bars and broker).
 * The next run's flowOf points them at its own before any closure runs.
 */
export function detachFlow(N: Float64Array): void {
  const f = flows.get(N);
  if (f === undefined) return;
  f.B = DETACHED as Budget;
  f.ctx = DETACHED as ExecContext;
  f.cols = NO_COLUMNS;
}

const byNums = new WeakMap<Float64Array, Map<string, Fn>>();
const keys = new WeakMap<Fn, string>();

/**
 * How many kept closures were made and how many handed out again, and how many of the programs'
 * top-level statements were compiled to a closure that is not kept (tests read it).
 */
export const keptStats = { made: 0, reused: 0, unkeptTop: 0 };

/** The closure kept for `key` over the slot array N, made by `make` the first time (null: none made, none kept). */
export function keptClosure<T extends Fn>(N: Float64Array, key: string, make: () => T | null): T | null {
  let m = byNums.get(N);
  if (m === undefined) byNums.set(N, (m = new Map()));
  const known = m.get(key);
  if (known !== undefined) {
    keptStats.reused++;
    return known as T;
  }
  const f = make();
  if (f === null) return null;
  // (a short name, unique among the array's kept closures, stands for the key inside other keys)
  keys.set(f, `#${m.size}`);
  m.set(key, f);
  keptStats.made++;
  return f;
}

/** Whether any closure is kept over the slot array N yet (false while its program's first run compiles). */
export function anyKept(N: Float64Array): boolean {
  return (byNums.get(N)?.size ?? 0) > 0;
}

/** The name of a kept closure (to stand for it inside another key), or null for any other closure. */
export function keyOf(f: Fn): string | null {
  return keys.get(f) ?? null;
}

/** A number as a key part: distinct for every value a closure could capture (-0 and NaN included). */
export function numKey(c: number): string {
  return Object.is(c, -0) ? "-0" : String(c);
}
