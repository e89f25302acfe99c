// The interpreter's side of src/compile/inline-ta.ts: ta.cross / crossover / crossunder and ta.ema /
// rma as closures whose state lives in variables of the run's closure tree (built per run), instead
// of an argument array, the impl and a WebAssembly kernel call (~30 ns a call). The step is the
// kernel's arithmetic (assembly/window.ts cross_next, avg.ts ema_next) in the same order on the same
// doubles, as the compile backend's text is; tests/compile/inline-ta.test.ts pins this one to the
// impl (a profiled run keeps the impl) and to the compile backend on random series.
//
// Only where that is the same computation (as the compile backend): in a run that executes no bar
// twice (the hoisting runs: no realtime tick, no calc_on_order_fills re-run, so no roll-back of the
// kernel state), with the kernels present (else the impl's missing-kernels error), at the call sites
// src/check/once-sites.ts inlineTaSites gives both backends (evaluated at most once a bar).
import type { ExecContext } from "../builtins/types.js";
import { intArg } from "../builtins/ta/common.js";

type Fn = () => any;

/** Closures built (tests assert the fast path was taken). */
export const inlineTaBuilds = { n: 0 };

/**
 * A call of `name` (a site of src/check/once-sites.ts inlineTaSites) written out, with its two
 * arguments' closures in argument order.
 */
export function inlineTaFn(name: string, ctx: ExecContext, x: Fn, y: Fn): Fn {
  const make = INLINE[name];
  if (!make) throw new Error(`internal: ${name} has no written-out step`);
  inlineTaBuilds.n++;
  return make(ctx, x, y);
}

/**
 * cross_next: an na argument gives false and leaves the last pair with both values defined (NaN
 * before the first); else over is x > y after a pair with pa <= pb, under x < y after pa >= pb.
 * kind 1 crossover, 2 crossunder, 0 either: the kind is fixed per closure, so a call computes only
 * the test its builtin returns.
 */
function cross(kind: 0 | 1 | 2, fx: Fn, fy: Fn): Fn {
  let pa = NaN,
    pb = NaN;
  return () => {
    let a = fx(),
      b = fy();
    if (typeof a !== "number") a = NaN;
    if (typeof b !== "number") b = NaN;
    if (a !== a || b !== b) return false;
    const hit = (kind !== 2 && a > b && pa <= pb) || (kind !== 1 && a < b && pa >= pb);
    pa = a;
    pb = b;
    return hit;
  };
}

/**
 * ema_next (kind 0 ema, 1 rma), the length fixed by the first call (after the impl's length check):
 * an na source gives na and leaves the state; the first `length` values are summed compensated (avg.ts
 * seedAdd, Neumaier) and their mean is the seed; then ema e + 2 / (length + 1) * (x - e), rma
 * ((length - 1) * e + x) / length.
 */
function ema(kind: 0 | 1, fn: string, ctx: ExecContext, fx: Fn, fl: Fn): Fn {
  let e = NaN,
    cnt = 0,
    sum = 0,
    comp = 0,
    n = NaN;
  return () => {
    let v = fx();
    const l = fl();
    if (n !== n) n = intArg(ctx, l, fn);
    if (typeof v !== "number") v = NaN;
    if (v !== v) return NaN;
    if (cnt < n) {
      const t = sum + v;
      comp = comp + (Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum);
      sum = t;
      return ++cnt === n ? (e = (sum + comp) / n) : e;
    }
    return (e = kind === 0 ? e + (2 / (n + 1)) * (v - e) : ((n - 1) * e + v) / n);
  };
}

const INLINE: Record<string, ((ctx: ExecContext, x: Fn, y: Fn) => Fn) | undefined> = {
  "ta.cross": (_, x, y) => cross(0, x, y),
  "ta.crossover": (_, x, y) => cross(1, x, y),
  "ta.crossunder": (_, x, y) => cross(2, x, y),
  "ta.ema": (ctx, x, y) => ema(0, "ema", ctx, x, y),
  "ta.rma": (ctx, x, y) => ema(1, "rma", ctx, x, y),
};
