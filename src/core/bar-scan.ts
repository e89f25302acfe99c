// The one validation pass over filled OHLC columns (bars.ts): the first bad bar, and on the way the
// bar spacing when every gap is the same (what inferTimeframe would otherwise count in a pass of its
// own). Also: which input columns can be used as they are, without a copy.

import { primeFeedback } from "./feedback.js";

/** The result of scanBars: the first bad bar (-1: none) and the common gap of evenly spaced bars. */
export interface BarScan {
  bad: number;
  /** The gap between every two consecutive bars when all gaps are equal, else NaN (also for < 2 bars). */
  spacing: number;
}

/**
 * The one record scanBars fills and returns (read at once by its caller). A literal made per call
 * has a hidden class that dies with it: after a full GC the feedback naming it is cleared, and the
 * optimised scan was thrown away at its return and compiled again on every run (~8 ms CPU a run at
 * 100k bars, with a forced gc() before each run as `resin bench --expose-gc` does).
 */
const scan: BarScan = { bad: -1, spacing: NaN };

function scanResult(bad: number, spacing: number): BarScan {
  scan.bad = bad;
  scan.spacing = spacing;
  return scan;
}

/**
 * Index of the first bar in [0, to) with a non-finite time or OHLC value, a time that does not
 * increase, or high < low, and the even spacing. x - x is 0 for finite x and NaN otherwise, so one
 * sum tells whether all five values are finite (one compare instead of five branches: this pass
 * runs over every bar of every run). The record returned is shared: read it before the next call.
 */
export function scanBars(
  time: Float64Array,
  open: Float64Array,
  high: Float64Array,
  low: Float64Array,
  close: Float64Array,
  to: number,
): BarScan {
  if (to <= 0) return scanResult(-1, NaN);
  let prev = time[0]!;
  const h0 = high[0]!;
  const l0 = low[0]!;
  const z0 = prev - prev + (open[0]! - open[0]!) + (h0 - h0) + (l0 - l0) + (close[0]! - close[0]!);
  if (!(z0 === 0 && h0 >= l0)) return scanResult(0, NaN);
  const d0 = to > 1 ? time[1]! - prev : NaN;
  let uneven = false;
  let i = 1;
  for (; i < to; i++) {
    const t = time[i]!;
    const o = open[i]!;
    const h = high[i]!;
    const l = low[i]!;
    const x = close[i]!;
    const z = t - t + (o - o) + (h - h) + (l - l) + (x - x);
    if (!(z === 0 && t > prev && h >= l)) break;
    if (t - prev !== d0) uneven = true;
    prev = t;
  }
  return scanResult(i < to ? i : -1, !uneven && i >= to ? d0 : NaN);
}

// once per run over every bar: its entry and exit get their feedback here (core/feedback.ts), on
// evenly spaced bars as a run's usually are (the spacing test runs only then)
{
  const t = new Float64Array([1.7e12, 1.7e12 + 60_000, 1.7e12 + 120_000, 1.7e12 + 180_000]);
  const p = new Float64Array([101.5, 102.25, 100.75, 101]);
  const h = new Float64Array([102.5, 103.25, 101.75, 102]);
  const l = new Float64Array([100.5, 101.25, 99.75, 100]);
  primeFeedback(() => scanBars(t, p, h, l, p, t.length));
}

const typedArrayName = Object.getOwnPropertyDescriptor(
  Object.getPrototypeOf(Int8Array.prototype) as object,
  Symbol.toStringTag,
)!.get!;
const SharedBuffer: (new () => ArrayBufferLike) | undefined =
  typeof SharedArrayBuffer !== "undefined" ? SharedArrayBuffer : undefined;

/**
 * The column itself when it is a real Float64Array over an ordinary (not shared) buffer, else null.
 * A run only reads its columns and finishes synchronously, so the caller's array serves as it is
 * (no copy); a SharedArrayBuffer could be written by another thread during the run, so it is copied.
 * The internal [[TypedArrayName]] decides, not the prototype chain (which a caller can change).
 */
export function ownFloat64(col: unknown): Float64Array | null {
  if (!ArrayBuffer.isView(col) || typedArrayName.call(col) !== "Float64Array") return null;
  if (SharedBuffer !== undefined && col.buffer instanceof SharedBuffer) return null;
  return col as Float64Array;
}
