// Closures kept across runs of one program. V8 inlines a closure call whose feedback saw a single
// closure object, and then reads what that closure captured as constants (its slot numbers fold into
// the loads); a closure tree built anew by every run is seen through the shared feedback cell of its
// creation site instead, each captured value loaded on every call. A 3-statement numeric loop body
// measured ~17 ns an iteration rebuilt per run against ~5 ns with the same closure objects. So a
// closure that captures only a run's numeric slot array and constants (slot numbers, numbers,
// other kept closures) is kept per slot array, under a key naming all of that, and the next run of
// the program gets the same object back: RunState takes its slot array from a per-program pool
// (state.ts), so every run of the program compiles against the same array. A closure is a pure
// function of the array and its key, so handing it out again (or at two nodes with the same key)
// computes what a fresh one would.

import type { Budget } from "../core/budget.js";

type Fn = () => any;

/**
 * The break/continue flag of the closures over one storage (0 none, 1 break, 2 continue; loops
 * consume it) and the run's budget, which loops tick: kept with the slot array, so that a kept loop
 * or block reaches the run that calls it (the compiler points B at its run's budget).
 */
export interface Flow {
  ctl: number;
  B: Budget;
}

const flows = new WeakMap<Float64Array, Flow>();

/** The flow object of the closures over the slot array N. */
export function flowOf(N: Float64Array, B: Budget): Flow {
  let f = flows.get(N);
  if (f === undefined) flows.set(N, (f = { ctl: 0, B }));
  f.ctl = 0;
  f.B = B;
  return f;
}

const byNums = new WeakMap<Float64Array, Map<string, Fn>>();
const keys = new WeakMap<Fn, string>();

/** How many kept closures were made and how many handed out again (tests read it). */
export const keptStats = { made: 0, reused: 0 };

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

/** The name of a kept closure (to stand for it inside another key), or null for any other closure. */
export function keyOf(f: Fn): string | null {
  return keys.get(f) ?? null;
}

/** A number as a key part: distinct for every value a closure could capture (-0 and NaN included). */
export function numKey(c: number): string {
  return Object.is(c, -0) ? "-0" : String(c);
}
