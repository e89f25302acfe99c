// math.* builtins and constants. Stateful ones (math.sum, seeded math.random) keep their state in
// site.state, one per call site.

import type { BuiltinDef, BuiltinImpl, BuiltinTable, ConstantTable, VariableTable } from "../types.js";
import { mathAvg } from "./avg.js";
import { nextDouble, seedRandom, type RandomState } from "./random.js";
import { createSumState, sumStep, type SumState } from "./sum.js";

export { mathAvg } from "./avg.js";
export { JavaRandom, nextDouble, seedRandom } from "./random.js";
export { createSumState, sumStep } from "./sum.js";

/** Seed base of call sites that call math.random without a seed (seed = base + call-site id). */
export const UNSEEDED_BASE = 0x7265_7369_6e;

/** Pine math.round: nearest integer, ties up; with precision, to that many decimals. */
export function mathRound(x: number, precision?: number): number {
  if (x !== x) return NaN;
  if (precision == null || precision !== precision) return Math.round(x);
  const p = Math.pow(10, Math.trunc(precision));
  return Math.round(x * p) / p;
}

/**
 * Nearest multiple of mintick (ties up). A decimal tick (0.01, 0.25, 1e-5) has an integer number of
 * ticks per unit; dividing the tick count by that integer gives the double nearest the decimal
 * (116.6), where multiplying by the inexact tick gives binary noise (11660 * 0.01 = 116.60000000000001).
 */
export function roundToMintick(x: number, mintick: number): number {
  if (x !== x || !(mintick > 0)) return x;
  const perUnit = Math.round(1 / mintick);
  if (perUnit >= 1 && Math.abs(perUnit * mintick - 1) < 1e-9) return Math.round(x / mintick) / perUnit;
  return Math.round(x / mintick) * mintick;
}

export function mathSign(x: number): number {
  return x !== x ? NaN : x > 0 ? 1 : x < 0 ? -1 : 0;
}

function unary(name: string, fn: (x: number) => number): BuiltinDef {
  return { name, impl: (_c, a) => fn(a[0] as number), pure: true };
}

function extreme(name: string, pickMax: boolean): BuiltinDef {
  const impl: BuiltinImpl = (_c, a) => {
    let r = a[0] as number;
    if (r !== r) return NaN;
    for (let i = 1; i < a.length; i++) {
      const v = a[i] as number;
      if (v === undefined) continue;
      if (v !== v) return NaN;
      if (pickMax ? v > r : v < r) r = v;
    }
    return r;
  };
  return { name, impl, pure: true };
}

export const functions: BuiltinTable = {
  "math.abs": unary("math.abs", Math.abs),
  "math.acos": unary("math.acos", Math.acos),
  "math.asin": unary("math.asin", Math.asin),
  "math.atan": unary("math.atan", Math.atan),
  "math.ceil": unary("math.ceil", Math.ceil),
  "math.cos": unary("math.cos", Math.cos),
  "math.exp": unary("math.exp", Math.exp),
  "math.floor": unary("math.floor", Math.floor),
  "math.log": unary("math.log", Math.log),
  "math.log10": unary("math.log10", Math.log10),
  "math.sign": unary("math.sign", mathSign),
  "math.sin": unary("math.sin", Math.sin),
  "math.sqrt": unary("math.sqrt", Math.sqrt),
  "math.tan": unary("math.tan", Math.tan),
  "math.todegrees": unary("math.todegrees", (x) => (x * 180) / Math.PI),
  "math.toradians": unary("math.toradians", (x) => (x * Math.PI) / 180),
  "math.pow": {
    name: "math.pow",
    impl: (_c, a) => Math.pow(a[0] as number, a[1] as number),
    direct: (_c, x: number, y: number) => Math.pow(x, y),
    pure: true,
  },
  "math.max": extreme("math.max", true),
  "math.min": extreme("math.min", false),
  "math.avg": {
    name: "math.avg",
    impl: (_c, a) => {
      let n = a.length;
      while (n > 0 && a[n - 1] === undefined) n--;
      return mathAvg(n === a.length ? a : a.slice(0, n));
    },
    pure: true,
  },
  "math.round": {
    name: "math.round",
    impl: (_c, a) => mathRound(a[0] as number, a[1] as number | undefined),
    // (direct: no argument array for math.round(x, 2) on a bar's value)
    direct: (_c, x: number, precision?: number) => mathRound(x, precision),
    pure: true,
  },
  "math.round_to_mintick": {
    name: "math.round_to_mintick",
    impl: (ctx, a) => roundToMintick(a[0] as number, ctx.syminfo?.mintick ?? 0.01),
  },
  "math.random": {
    name: "math.random",
    stateful: true,
    impl: (_c, a, site) => {
      const min = a[0] == null ? 0 : (a[0] as number);
      const max = a[1] == null ? 1 : (a[1] as number);
      const seed = a[2] as number | undefined;
      // Without a seed TradingView is not reproducible; here each call site gets a fixed seed of its
      // own so that a run (and the interpret and compile backends) always give the same numbers.
      if (site.state === undefined)
        site.state = seedRandom(seed == null || seed !== seed ? UNSEEDED_BASE + site.id : seed);
      return min + (max - min) * nextDouble(site.state as RandomState);
    },
  },
  "math.sum": {
    name: "math.sum",
    stateful: true,
    impl: (ctx, a, site) => {
      const length = a[1] as number;
      let st = site.state as SumState | undefined;
      if (!st) st = site.state = createSumState(length >= 1 ? Math.trunc(length) : 1);
      // the bar index lets a second call on the same bar (a realtime tick) replace that bar's value
      return sumStep(st, a[0] as number, length, ctx.barIndex);
    },
  },
};

export const variables: VariableTable = {};

export const constants: ConstantTable = {
  "math.pi": Math.PI,
  "math.e": Math.E,
  "math.phi": 1.618033988749895,
  "math.rphi": 0.6180339887498948,
};
