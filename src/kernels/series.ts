// Whole-series wrappers for the compile backend's precompute: copy the input column(s) into kernel
// memory, run one kernel pass, copy the output out, release the scratch memory. The numbers are the
// per-bar state machines' numbers (tests/kernels/series.test.ts checks them bit for bit).

import type { Kernels } from "./index.js";

function run(k: Kernels, inputs: ArrayLike<number>[], fill: (ptrs: number[], out: number, n: number) => void): Float64Array {
  const n = inputs[0].length;
  const mark = k.x.heap_top();
  try {
    const ptrs = inputs.map((col) => {
      const p = k.x.series_alloc(n * 8);
      k.view().set(col, p >>> 3);
      return p;
    });
    const out = k.x.series_alloc(n * 8);
    fill(ptrs, out, n);
    return k.view().slice(out >>> 3, (out >>> 3) + n);
  } finally {
    k.x.heap_set(mark);
  }
}

function checkLength(len: number, min = 1): void {
  if (!Number.isInteger(len) || len < min) throw new RangeError(`invalid length ${len}: must be an integer >= ${min}`);
}

export function seriesSma(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_sma(p, out, n, length));
}

export function seriesEma(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_ema(p, out, n, length, 0));
}

export function seriesRma(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_ema(p, out, n, length, 1));
}

export function seriesWma(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_wma(p, out, n, length));
}

export function seriesStdev(k: Kernels, input: ArrayLike<number>, length: number, biased = true): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_stdev(p, out, n, length, biased ? 1 : 0));
}

export function seriesHighest(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_hilo(p, out, n, length, 0));
}

export function seriesLowest(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_hilo(p, out, n, length, 1));
}

export function seriesRsi(k: Kernels, input: ArrayLike<number>, length: number): Float64Array {
  checkLength(length);
  return run(k, [input], ([p], out, n) => k.x.series_rsi(p, out, n, length));
}

export function seriesChange(k: Kernels, input: ArrayLike<number>, length = 1): Float64Array {
  checkLength(length, 0);
  return run(k, [input], ([p], out, n) => k.x.series_change(p, out, n, length));
}

export function seriesTr(
  k: Kernels,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  handleNa = false,
): Float64Array {
  return run(k, [high, low, close], ([h, l, c], out, n) => k.x.series_tr(h, l, c, out, n, handleNa ? 1 : 0));
}

export function seriesAtr(
  k: Kernels,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  length: number,
): Float64Array {
  checkLength(length);
  return run(k, [high, low, close], ([h, l, c], out, n) => k.x.series_atr(h, l, c, out, n, length));
}
