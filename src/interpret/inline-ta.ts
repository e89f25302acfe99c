// The interpreter's side of src/compile/inline-ta.ts: ta.cross / crossover / crossunder, ta.ema / rma
// and ta.sma (with a length fixed for the run) as closures whose state lives in variables of the run's
// closure tree (built per run), instead of an argument array, the impl and a WebAssembly kernel call
// (~30 ns a call). The step is the kernel's arithmetic (assembly/window.ts cross_next, avg.ts ema_next,
// sum_new/sma_next) in the same order on the same doubles, as the compile backend's text is; tests/compile/inline-ta.test.ts pins this one to the
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

/**
 * sum_new + sma_next for a length the same on every call (the compile backend's sma(), which says
 * why): a ring of length + 1 values made on the first call, its next write position, the values
 * pushed and the running sum. A value pushed takes the one leaving the window out of the sum before
 * adding itself; a sum left infinite or na is taken again from the window (windowResum); na adds
 * nothing; the mean is na until `length` values came, a sum within 1e-10 of zero reads as 0. The
 * length is checked on every call, as the impl does.
 */
function sma(ctx: ExecContext, fx: Fn, fl: Fn): Fn {
  let ring: Float64Array | null = null,
    i = 0,
    k = 0,
    n = 0;
  // the sum in a typed array: a double written to a captured `let` is a new heap number each call
  const sum = new Float64Array(1);
  return () => {
    let v = fx();
    const l = fl();
    n = intArg(ctx, l, "sma");
    if (ring === null) ring = new Float64Array(n + 1);
    if (typeof v !== "number") v = NaN;
    if (v === v) {
      ring[i] = v;
      i = i === n ? 0 : i + 1;
      let s = sum[0]!;
      if (++k > n) s = s - ring[i]!;
      s = s + v;
      sum[0] = s - s !== 0 ? windowResum(ring, k, n) : s;
    }
    const s = sum[0]!;
    return k >= n ? (Math.abs(s) <= 1e-10 ? 0 : s) / n : NaN;
  };
}

/**
 * The sum of the window's values, oldest first, from 0 (sumUpdate's re-sum): the last min(pushes,
 * length) of the values `pushes` pushes wrote into `ring` (length + 1 values, push q at q % (length + 1)).
 * Both backends' sma steps call it on their rare path.
 */
export function windowResum(ring: Float64Array, pushes: number, length: number): number {
  const m = Math.min(pushes, length);
  let s = 0.0;
  for (let j = m - 1; j >= 0; j--) s += ring[(pushes - 1 - j) % (length + 1)]!;
  return s;
}

const INLINE: Record<string, ((ctx: ExecContext, x: Fn, y: Fn) => Fn) | undefined> = {
  "ta.cross": (_, x, y) => cross(0, x, y),
  "ta.crossover": (_, x, y) => cross(1, x, y),
  "ta.crossunder": (_, x, y) => cross(2, x, y),
  "ta.ema": (ctx, x, y) => ema(0, "ema", ctx, x, y),
  "ta.rma": (ctx, x, y) => ema(1, "rma", ctx, x, y),
  "ta.sma": (ctx, x, y) => sma(ctx, x, y),
};
