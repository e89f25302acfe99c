// A strategy's equity curve (one value a bar, result.strategy.equity) as the bars come. A flat
// account's equity stays put from bar to bar until a trade opens, so a bar that repeats the bar
// before (the tracker's flat bar at the same booked equity) writes nothing: it counts a repeat of
// the last value written. The values written sit in a Float64Array, the repeats in pairs (index of
// the value, bars repeating it after its own); the whole curve is built when the result is read.
// (A plain array of 100k doubles cost two 800 KB stores a run; the store is sized for the run's
// bars at once, and a flat stretch writes none of it.)

import { spareCurveSpans, spareCurveValues } from "./spare-stores.js";

/** The curve as handed to a result: its own counts, over stores the curve no longer writes. */
export interface CurveView {
  readonly vals: Float64Array;
  readonly nv: number;
  readonly spans: Int32Array;
  readonly ns: number;
  readonly pending: number;
  readonly count: number;
}

export class EquityCurve {
  /** The values written (a bar's equity unless it repeats the bar before); `nv` used. */
  private vals: Float64Array;
  private nv = 0;
  /** Repeats written out: pairs (index in vals, bars after its own that repeat it); `ns` pairs used. */
  // (a released run's spans past `ns` are never read)
  private spans: Int32Array = spareCurveSpans.take(512, 1 << 30) ?? new Int32Array(512);
  private ns = 0;
  /** Bars repeating the last value written, not in spans yet. */
  private pending = 0;
  /** Bars recorded. */
  count = 0;
  /** The last bar's equity (NaN before the first). */
  last = Number.NaN;
  /** The values store handed to a result (view): the next write copies both stores first. */
  private handedOut: Float64Array | null = null;

  /**
   * `capacity`: the values the store holds before it grows (the run's bar count, at most 2^20). The
   * whole run's store at once: growing by doubling copied every value written so far into a fresh
   * store each time (a strategy in a position on most bars wrote ~2 stores' worth a run, and the
   * garbage collector saw each dropped store); memory a flat stretch leaves unwritten costs little.
   */
  constructor(capacity: number) {
    const n = Math.max(16, Math.min(capacity, 1 << 20));
    // (a released run's store: values past `nv` are never read, so they need no clearing)
    this.vals = spareCurveValues.take(n, n) ?? new Float64Array(n);
  }

  /** A bar at equity `eq`. */
  push(eq: number): void {
    if (this.pending !== 0) this.flush();
    if (this.vals === this.handedOut) this.unshare();
    const n = this.nv;
    if (n === this.vals.length) this.vals = grown(this.vals);
    this.vals[n] = eq;
    this.nv = n + 1;
    this.last = eq;
    this.count++;
  }

  /** A bar at the equity of the bar before (called only after a push). */
  repeat(): void {
    this.pending++;
    this.count++;
  }

  /** The pending repeats into spans. */
  private flush(): void {
    if (this.vals === this.handedOut) this.unshare();
    const k = this.ns * 2;
    if (k === this.spans.length) this.spans = grownInt(this.spans);
    this.spans[k] = this.nv - 1;
    this.spans[k + 1] = this.pending;
    this.ns++;
    this.pending = 0;
  }

  private unshare(): void {
    this.vals = this.vals.slice();
    this.spans = this.spans.slice();
    this.handedOut = null;
  }

  /** The curve so far, for a result: the curve writes into copies from now on. */
  handOut(): CurveView {
    this.handedOut = this.vals;
    return { vals: this.vals, nv: this.nv, spans: this.spans, ns: this.ns, pending: this.pending, count: this.count };
  }
}

/** Curve `c`'s value for every bar. */
export function curveValues(c: CurveView): number[] {
  const out = new Array<number>(c.count);
  let w = 0;
  let s = 0;
  for (let v = 0; v < c.nv; v++) {
    const x = c.vals[v];
    out[w++] = x;
    let extra = 0;
    if (s < c.ns && c.spans[2 * s] === v) extra = c.spans[2 * s++ + 1];
    else if (v === c.nv - 1) extra = c.pending;
    for (let k = 0; k < extra; k++) out[w++] = x;
  }
  return out;
}

function grown(a: Float64Array): Float64Array {
  const b = new Float64Array(a.length * 2);
  b.set(a);
  return b;
}

function grownInt(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}
