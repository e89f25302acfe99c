// Copies of the broker's state so the Runtime can roll a realtime bar back before each tick
// (architecture: "before each tick, every var and every series is rolled back"). Taken once per
// confirmed bar, only when realtime ticks are simulated; history runs never call it.

import type { OpenTrade } from "./types.js";

type Scalars = Record<string, number | string | boolean>;

/** The number/string/boolean own fields of an object (its counters and flags). */
export function scalarsOf(obj: object): Scalars {
  const out: Scalars = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

export function restoreScalars(obj: object, s: Scalars): void {
  Object.assign(obj, s);
}

export function cloneTrade(t: OpenTrade): OpenTrade {
  const trail = new Map<string, { active: boolean; extreme: number }>();
  for (const [k, v] of t.trail) trail.set(k, { active: v.active, extreme: v.extreme });
  return { ...t, exitFilled: new Map(t.exitFilled), trail };
}

/** Truncates an array back to `n` items in place. */
export function truncate<T>(a: T[], n: number): void {
  if (a.length > n) a.length = n;
}
