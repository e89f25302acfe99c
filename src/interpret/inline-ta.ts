// The interpreter's side of src/compile/inline-ta.ts: ta.cross / crossover / crossunder, ta.ema / rma
// and ta.sma (with a length fixed for the run) as closures whose state lives in their call site's
// state (a typed array made by the run's first call: the storage resets its sites per run, so the
// closure is kept across the program's runs, memo.ts), instead of an argument array, the impl and a
// WebAssembly kernel call (~30 ns a call). Doubles live in typed arrays: a double written to a
// captured `let` or a plain property is a new heap number each call. The step is the kernel's arithmetic (assembly/window.ts cross_next, avg.ts ema_next,
// sum_new/sma_next) in the same order on the same doubles, as the compile backend's text is; tests/compile/inline-ta.test.ts pins this one to the
// impl (a profiled run keeps the impl) and to the compile backend on random series.
//
// Only where that is the same computation (as the compile backend): in a run that executes no bar
// twice (the hoisting runs: no realtime tick, no calc_on_order_fills re-run, so no roll-back of the
// kernel state), with the kernels present (else the impl's missing-kernels error), at the call sites
// src/check/once-sites.ts inlineTaSites gives both backends (evaluated at most once a bar).
import type { CallSite } from "../builtins/types.js";
import { intArg } from "../builtins/ta/common.js";
import type { Flow } from "./memo.js";

type Fn = () => any;

/** Closures built (tests assert the fast path was taken). */
export const inlineTaBuilds = { n: 0 };

/**
 * A call of `name` (a site of src/check/once-sites.ts inlineTaSites) written out, with its two
 * arguments' closures in argument order; its state in `site` (undefined at a run's start), the run's
 * context through `flow`.
 */
export function inlineTaFn(name: string, flow: Flow, site: CallSite, x: Fn, y: Fn): Fn {
  const make = INLINE[name];
  if (!make) throw new Error(`internal: ${name} has no written-out step`);
  inlineTaBuilds.n++;
  return make(flow, site, x, y);
}

/**
 * cross_next: an na argument gives false and leaves the last pair with both values defined (NaN
 * before the first); else over is x > y after a pair with pa <= pb, under x < y after pa >= pb.
 * kind 1 crossover, 2 crossunder, 0 either: the kind is fixed per closure, so a call computes only
 * the test its builtin returns.
 */
function cross(kind: 0 | 1 | 2, site: CallSite, fx: Fn, fy: Fn): Fn {
  return () => {
    let a = fx(),
      b = fy();
    // [pa, pb]
    let st = site.state as Float64Array | undefined;
    if (st === undefined) site.state = st = new Float64Array(2).fill(NaN);
    if (typeof a !== "number") a = NaN;
    if (typeof b !== "number") b = NaN;
    if (a !== a || b !== b) return false;
    const pa = st[0]!,
      pb = st[1]!;
    const hit = (kind !== 2 && a > b && pa <= pb) || (kind !== 1 && a < b && pa >= pb);
    st[0] = a;
    st[1] = b;
    return hit;
  };
}

/**
 * ema_next (kind 0 ema, 1 rma), the length fixed by the first call (after the impl's length check):
 * an na source gives na and leaves the state; the first `length` values are summed compensated (avg.ts
 * seedAdd, Neumaier) and their mean is the seed; then ema e + 2 / (length + 1) * (x - e), rma
 * ((length - 1) * e + x) / length.
 */
function ema(kind: 0 | 1, fn: string, flow: Flow, site: CallSite, fx: Fn, fl: Fn): Fn {
  return () => {
    let v = fx();
    const l = fl();
    // [e, cnt, sum, comp, n]
    let st = site.state as Float64Array | undefined;
    if (st === undefined) site.state = st = Float64Array.of(NaN, 0, 0, 0, NaN);
    let n = st[4]!;
    if (n !== n) st[4] = n = intArg(flow.ctx, l, fn);
    if (typeof v !== "number") v = NaN;
    if (v !== v) return NaN;
    const cnt = st[1]!;
    if (cnt < n) {
      const sum = st[2]!;
      const t = sum + v;
      st[3] = st[3]! + (Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum);
      st[2] = t;
      st[1] = cnt + 1;
      return cnt + 1 === n ? (st[0] = (t + st[3]!) / n) : st[0]!;
    }
    const e = st[0]!;
    return (st[0] = kind === 0 ? e + (2 / (n + 1)) * (v - e) : ((n - 1) * e + v) / n);
  };
}

/**
 * sum_new + sma_next for a length the same on every call (the compile backend's sma(), which says
 * why): a ring of length + 1 values made on the first call, its next write position, the values
 * pushed and the running sum. A value pushed takes the one leaving the window out of the sum before
 * adding itself; a sum left infinite or na is taken again from the window (windowResum); na adds
 * nothing; the mean is na until `length` values came, a sum within 1e-10 of zero reads as 0. The
 * length is read and checked on the first call.
 */
function sma(flow: Flow, site: CallSite, fx: Fn, fl: Fn): Fn {
  return () => {
    let v = fx();
    let st = site.state as SmaState | undefined;
    // (the length read and checked on the first call only: the compile backend's sma() says why)
    if (st === undefined) {
      const n = intArg(flow.ctx, fl(), "sma");
      site.state = st = { ring: new Float64Array(n + 1), at: new Float64Array(3) };
    }
    // [the next write position, the values pushed, the running sum]
    const ring = st.ring,
      at = st.at,
      n = ring.length - 1;
    let k = at[1]!;
    if (typeof v !== "number") v = NaN;
    if (v === v) {
      const i = at[0]!;
      ring[i] = v;
      const next = i === n ? 0 : i + 1;
      at[0] = next;
      let s = at[2]!;
      if (++k > n) s = s - ring[next]!;
      at[1] = k;
      s = s + v;
      at[2] = s - s !== 0 ? windowResum(ring, k, n) : s;
    }
    const s = at[2]!;
    return k >= n ? (Math.abs(s) <= 1e-10 ? 0 : s) / n : NaN;
  };
}

/** A written-out sma's state: the window's ring (length + 1 values) and its numbers. */
interface SmaState {
  ring: Float64Array;
  at: Float64Array;
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

const INLINE: Record<string, ((flow: Flow, site: CallSite, x: Fn, y: Fn) => Fn) | undefined> = {
  "ta.cross": (_, site, x, y) => cross(0, site, x, y),
  "ta.crossover": (_, site, x, y) => cross(1, site, x, y),
  "ta.crossunder": (_, site, x, y) => cross(2, site, x, y),
  "ta.ema": (flow, site, x, y) => ema(0, "ema", flow, site, x, y),
  "ta.rma": (flow, site, x, y) => ema(1, "rma", flow, site, x, y),
  "ta.sma": (flow, site, x, y) => sma(flow, site, x, y),
};
