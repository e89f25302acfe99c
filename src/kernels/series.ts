// Whole-series passes for the compile backend's precompute (assembly/series.ts, series-rec.ts,
// series-hilo.ts): one tight WASM loop per ta.* call over whole columns. The numbers are the per-bar
// state machines' numbers (tests/kernels/series.test.ts and series-props.test.ts check them bit for
// bit).
//
// Memory: the passes are pure (columns in, columns out, no state kept), so they run in ONE kernel
// instance per module and process (`seriesArena`), not in the run's own instance: its memory is
// reused from run to run instead of growing a fresh instance every run. A run resets the arena,
// copies the input columns in once, lets every pass write its output in place, and the bar loop
// reads the outputs through Float64Array views of that memory (no copy out). Views are taken after
// the last pass (a pass may grow the memory, which detaches earlier views).

import { Kernels } from "./index.js";

/** Above this many bytes the shared instance is dropped after use rather than kept for the next run. */
const KEEP_BYTES = 256 * 1024 * 1024;

/** Column storage in a kernel instance's memory for one run's passes. */
export class SeriesArena {
  private readonly inputs = new Map<ArrayLike<number>, number>();
  private done = false;

  /**
   * Columns of n values from `base` up (default: the current heap top). Arenas of one shared
   * instance nest like a stack (`owner`): a request's secondary run may open one while the main
   * run's columns are still read.
   */
  constructor(
    readonly k: Kernels,
    readonly n: number,
    private readonly base = k.x.heap_top(),
    private readonly owner: Shared | null = null,
  ) {
    k.x.heap_set(this.base);
  }

  /** A new column of n values (not zeroed: a pass writes every value). */
  alloc(): number {
    if (this.done) throw new Error("internal: series arena used after release");
    // a column above a nested arena's would be freed with it
    if (this.owner && this.owner.open[this.owner.open.length - 1] !== this)
      throw new Error("internal: series arena used while a nested one is open");
    return this.k.x.series_alloc(Math.max(this.n, 1) * 8);
  }

  /** The pointer of `col` copied into kernel memory (once per column per run). */
  input(col: ArrayLike<number>): number {
    let p = this.inputs.get(col);
    if (p === undefined) {
      p = this.alloc();
      this.k.view().set(col, p >>> 3);
      this.inputs.set(col, p);
    }
    return p;
  }

  /** The whole memory as f64 (renewed after growth): column p's value i is `f64[(p >>> 3) + i]`. */
  f64(): Float64Array {
    return this.k.view();
  }

  /** A view of column p (valid until the memory grows: take views after the last pass). */
  view(p: number): Float64Array {
    return this.k.view().subarray(p >>> 3, (p >>> 3) + this.n);
  }

  /** Gives the memory back: views of its columns must not be read after this. Idempotent. */
  release(): void {
    if (this.done) return;
    this.done = true;
    this.inputs.clear();
    const o = this.owner;
    if (!o) {
      this.k.x.heap_set(this.base);
      return;
    }
    // pop every released arena from the top of the stack
    while (o.open.length && o.open[o.open.length - 1]!.done) {
      const top = o.open.pop()!;
      if (o.k === top.k) o.k.x.heap_set(top.base);
    }
  }
}

interface Shared {
  k: Kernels;
  base: number;
  /** Arenas not released yet, oldest first. */
  open: SeriesArena[];
}

const shared = new WeakMap<WebAssembly.Module, Shared>();

/**
 * The arena for one run's passes over n bars, in the process-wide series instance of `k`'s module
 * (created on first use): it starts where the last open arena ends, at the bottom when none is
 * open, so memory is reused from run to run. Release it when its columns are no longer read (an
 * arena never released only costs memory: an instance grown past KEEP_BYTES is replaced by a fresh
 * one, and the old memory lives on for as long as views of it do). Without a known module the arena
 * lives in `k` itself.
 */
export function seriesArena(k: Kernels, n: number): SeriesArena {
  const module = k.module;
  if (!module) return new SeriesArena(k, n);
  let s = shared.get(module);
  if (!s || s.k.x.memory.buffer.byteLength > KEEP_BYTES) {
    let inst: WebAssembly.Instance;
    try {
      inst = new WebAssembly.Instance(module, { env: { abort: kernelAbort } });
    } catch {
      // a host refusing synchronous instantiation (a browser's main thread): the run's own memory
      return new SeriesArena(k, n);
    }
    const sk = new Kernels(inst, module);
    s = { k: sk, base: sk.x.heap_top(), open: [] };
    shared.set(module, s);
  }
  const a = new SeriesArena(s.k, n, s.open.length ? s.k.x.heap_top() : s.base, s);
  s.open.push(a);
  return a;
}

function kernelAbort(): never {
  throw new Error("kernels.wasm aborted");
}

function checkLength(len: number, min = 1): void {
  if (!Number.isInteger(len) || len < min) throw new RangeError(`invalid length ${len}: must be an integer >= ${min}`);
}

// ---------------------------------------------------------------- passes on arena columns (pointers)

export const pass = {
  sma: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_sma(src, o, a.n, len), len),
  ema: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_ema(src, o, a.n, len, 0), len),
  rma: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_ema(src, o, a.n, len, 1), len),
  wma: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_wma(src, o, a.n, len), len),
  stdev: (a: SeriesArena, src: number, len: number, biased: boolean): number =>
    one(a, (o) => a.k.x.series_stdev(src, o, a.n, len, biased ? 1 : 0), len),
  /** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars. */
  hilo: (a: SeriesArena, src: number, len: number, kind: number): number =>
    one(a, (o) => a.k.x.series_hilo(src, o, a.n, len, kind), len),
  rsi: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_rsi(src, o, a.n, len), len),
  change: (a: SeriesArena, src: number, len: number): number =>
    one(a, (o) => a.k.x.series_change(src, o, a.n, len), len, 0),
  tr: (a: SeriesArena, h: number, l: number, c: number, handleNa: boolean): number =>
    one(a, (o) => a.k.x.series_tr(h, l, c, o, a.n, handleNa ? 1 : 0), 1),
  atr: (a: SeriesArena, h: number, l: number, c: number, len: number): number =>
    one(a, (o) => a.k.x.series_atr(h, l, c, o, a.n, len), len),
  /** kind 0 cross, 1 crossover, 2 crossunder: 1/0 per bar. */
  cross: (a: SeriesArena, x: number, y: number, kind: number): number =>
    one(a, (o) => a.k.x.series_cross(x, y, o, a.n, kind), 1),
  /** [macd, signal, histogram] of ta.macd. */
  macd: (a: SeriesArena, src: number, fast: number, slow: number, sig: number): number[] => {
    for (const len of [fast, slow, sig]) checkLength(len);
    const m = a.alloc(),
      sg = a.alloc(),
      hs = a.alloc();
    a.k.x.series_macd(src, m, sg, hs, a.n, fast, slow, sig);
    return [m, sg, hs];
  },
  /** ta.stoch(x, high, low, len). */
  stoch: (a: SeriesArena, x: number, h: number, l: number, len: number): number =>
    one(a, (o) => a.k.x.series_stoch(x, h, l, o, a.n, len), len),
  /** Element-wise x op y: 0 +, 1 -, 2 *, 3 / (na for a zero divisor), 4 -x. */
  arith: (a: SeriesArena, x: number, y: number, op: number): number =>
    one(a, (o) => a.k.x.series_arith(x, y, o, a.n, op), 1),
  /** [supertrend, direction] of ta.supertrend(factor, atrPeriod) over high, low and close. */
  supertrend: (a: SeriesArena, h: number, l: number, c: number, factor: number, period: number): number[] => {
    checkLength(period);
    const st = a.alloc(),
      dir = a.alloc();
    a.k.x.series_supertrend(h, l, c, st, dir, a.n, period, factor);
    return [st, dir];
  },
  // stepped passes (assembly/series-step.ts): the per-bar kernels run over the columns
  /** kind 0 ta.pivothigh, 1 ta.pivotlow. */
  pivot: (a: SeriesArena, src: number, left: number, right: number, kind: number): number => {
    checkLength(left, 0);
    return one(a, (o) => a.k.x.series_pivot(src, o, a.n, left, right, kind), right, 0);
  },
  /** kind 0 ta.mom, 1 ta.roc. */
  mom: (a: SeriesArena, src: number, len: number, kind: number): number =>
    one(a, (o) => a.k.x.series_mom(src, o, a.n, len, kind), len, 0),
  cci: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_cci(src, o, a.n, len), len),
  cmo: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_cmo(src, o, a.n, len), len),
  mfi: (a: SeriesArena, src: number, vol: number, len: number): number =>
    one(a, (o) => a.k.x.series_mfi(src, vol, o, a.n, len), len),
  vwma: (a: SeriesArena, src: number, vol: number, len: number): number =>
    one(a, (o) => a.k.x.series_vwma(src, vol, o, a.n, len), len),
  hma: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_hma(src, o, a.n, len), len, 2),
  linreg: (a: SeriesArena, src: number, len: number, offset: number): number =>
    one(a, (o) => a.k.x.series_linreg(src, o, a.n, len, offset), len),
  dev: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_dev(src, o, a.n, len), len),
  variance: (a: SeriesArena, src: number, len: number, biased: boolean): number =>
    one(a, (o) => a.k.x.series_variance(src, o, a.n, len, biased ? 1 : 0), len),
  percentrank: (a: SeriesArena, src: number, len: number): number =>
    one(a, (o) => a.k.x.series_percentrank(src, o, a.n, len), len),
  alma: (a: SeriesArena, src: number, len: number, offset: number, sigma: number, floor: boolean): number =>
    one(a, (o) => a.k.x.series_alma(src, o, a.n, len, offset, sigma, floor ? 1 : 0), len),
  swma: (a: SeriesArena, src: number): number => one(a, (o) => a.k.x.series_swma(src, o, a.n), 1),
  cog: (a: SeriesArena, src: number, len: number): number => one(a, (o) => a.k.x.series_cog(src, o, a.n, len), len),
  cum: (a: SeriesArena, src: number): number => one(a, (o) => a.k.x.series_cum(src, o, a.n), 1),
  median: (a: SeriesArena, src: number, len: number): number =>
    one(a, (o) => a.k.x.series_median(src, o, a.n, len), len),
  tsi: (a: SeriesArena, src: number, shortLen: number, longLen: number): number => {
    checkLength(shortLen);
    return one(a, (o) => a.k.x.series_tsi(src, o, a.n, shortLen, longLen), longLen);
  },
  correlation: (a: SeriesArena, x: number, y: number, len: number): number =>
    one(a, (o) => a.k.x.series_correlation(x, y, o, a.n, len), len),
  /** ta.bbw: the Bollinger width in percent. */
  bbw: (a: SeriesArena, src: number, len: number, mult: number): number =>
    one(a, (o) => a.k.x.series_bbw(src, o, a.n, len, mult), len),
  /**
   * Keltner channels over the source and high, low and close: [basis, upper, lower] (ta.kc), or
   * with `width` the one column of ta.kcw's width.
   */
  keltner: (
    a: SeriesArena,
    src: number,
    h: number,
    l: number,
    c: number,
    len: number,
    mult: number,
    useTr: boolean,
    width: boolean,
  ): number[] => {
    checkLength(len);
    const b = a.alloc();
    const [up, lo] = width ? [b, b] : [a.alloc(), a.alloc()];
    a.k.x.series_keltner(src, h, l, c, b, up, lo, a.n, len, mult, useTr ? 1 : 0, width ? 1 : 0);
    return width ? [b] : [b, up, lo];
  },
  /** ta.rising (dir 1) / ta.falling (dir -1): 1/0 per bar. */
  rise: (a: SeriesArena, src: number, len: number, dir: number): number =>
    one(a, (o) => a.k.x.series_rise(src, o, a.n, len, dir), len),
  /** ta.vwap of x without bands; `anchor` a column of 1 (a new period) and 0. */
  vwap: (a: SeriesArena, x: number, vol: number, anchor: number): number =>
    one(a, (o) => a.k.x.series_vwap(x, vol, anchor, o, a.n), 1),
  /** A volume variable (kind: 0 ta.obv, 1 accdist, 2 pvt, 3 wad, 4 nvi, 5 pvi). */
  volind: (a: SeriesArena, h: number, l: number, c: number, vol: number, kind: number): number =>
    one(a, (o) => a.k.x.series_volind(h, l, c, vol, o, a.n, kind), 1),
  /** ta.valuewhen(cond, x, occ) of a number x; `cond` a column of 1 and 0. */
  valuewhen: (a: SeriesArena, cond: number, x: number, occ: number): number =>
    one(a, (o) => a.k.x.series_valuewhen(cond, x, o, a.n, occ), occ, 0),
  /** ta.barssince(cond); `cond` a column of 1 and 0. */
  barssince: (a: SeriesArena, cond: number): number => one(a, (o) => a.k.x.series_barssince(cond, o, a.n), 1),
  /** ta.sar(start, inc, max) over high, low and close. */
  sar: (a: SeriesArena, h: number, l: number, c: number, start: number, inc: number, max: number): number =>
    one(a, (o) => a.k.x.series_sar(h, l, c, o, a.n, start, inc, max), 1),
  /** ta.wpr(len) over high, low and close. */
  wpr: (a: SeriesArena, h: number, l: number, c: number, len: number): number =>
    one(a, (o) => a.k.x.series_wpr(h, l, c, o, a.n, len), len),
  /** [+DI, -DI, ADX] of ta.dmi(diLength, adxSmoothing) over high, low and close. */
  dmi: (a: SeriesArena, h: number, l: number, c: number, diLen: number, adxLen: number): number[] => {
    checkLength(diLen);
    checkLength(adxLen);
    const p = a.alloc(),
      m = a.alloc(),
      x = a.alloc();
    a.k.x.series_dmi(h, l, c, p, m, x, a.n, diLen, adxLen);
    return [p, m, x];
  },
  /** [basis, upper, lower] of ta.bb. */
  bb: (a: SeriesArena, src: number, len: number, mult: number): number[] => {
    checkLength(len);
    const mid = a.alloc(),
      up = a.alloc(),
      lo = a.alloc();
    a.k.x.series_bb(src, mid, up, lo, a.n, len, mult);
    return [mid, up, lo];
  },
};

function one(a: SeriesArena, f: (out: number) => void, len: number, min = 1): number {
  checkLength(len, min);
  const out = a.alloc();
  f(out);
  return out;
}

// ---------------------------------------------------------------- Float64Array wrappers (tests, bench)

/** Runs one pass in `k`'s own memory over JS columns and returns a copy of its output(s). */
function run(
  k: Kernels,
  inputs: ArrayLike<number>[],
  f: (a: SeriesArena, ptrs: number[]) => number | number[],
): Float64Array[] {
  const a = new SeriesArena(k, inputs[0]!.length);
  try {
    const out = f(
      a,
      inputs.map((c) => a.input(c)),
    );
    return (Array.isArray(out) ? out : [out]).map((p) => a.view(p).slice(0, a.n));
  } finally {
    a.release();
  }
}

const single = (k: Kernels, inputs: ArrayLike<number>[], f: (a: SeriesArena, ptrs: number[]) => number): Float64Array =>
  run(k, inputs, f)[0]!;

export const seriesSma = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.sma(a, p!, length));
export const seriesEma = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.ema(a, p!, length));
export const seriesRma = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.rma(a, p!, length));
export const seriesWma = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.wma(a, p!, length));
export const seriesStdev = (k: Kernels, input: ArrayLike<number>, length: number, biased = true) =>
  single(k, [input], (a, [p]) => pass.stdev(a, p!, length, biased));
export const seriesHighest = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.hilo(a, p!, length, 0));
export const seriesLowest = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.hilo(a, p!, length, 1));
export const seriesHighestBars = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.hilo(a, p!, length, 2));
export const seriesLowestBars = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.hilo(a, p!, length, 3));
export const seriesRsi = (k: Kernels, input: ArrayLike<number>, length: number) =>
  single(k, [input], (a, [p]) => pass.rsi(a, p!, length));
export const seriesChange = (k: Kernels, input: ArrayLike<number>, length = 1) =>
  single(k, [input], (a, [p]) => pass.change(a, p!, length));
export const seriesCross = (k: Kernels, x: ArrayLike<number>, y: ArrayLike<number>, kind: 0 | 1 | 2) =>
  single(k, [x, y], (a, [p, q]) => pass.cross(a, p!, q!, kind));
export const seriesMacd = (k: Kernels, input: ArrayLike<number>, fast: number, slow: number, sig: number) =>
  run(k, [input], (a, [p]) => pass.macd(a, p!, fast, slow, sig));
export const seriesStoch = (
  k: Kernels,
  x: ArrayLike<number>,
  h: ArrayLike<number>,
  l: ArrayLike<number>,
  length: number,
) => single(k, [x, h, l], (a, [p, q, r]) => pass.stoch(a, p!, q!, r!, length));
export const seriesSupertrend = (
  k: Kernels,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  factor: number,
  period: number,
) => run(k, [high, low, close], (a, [h, l, c]) => pass.supertrend(a, h!, l!, c!, factor, period));
export const seriesBb = (k: Kernels, input: ArrayLike<number>, length: number, mult: number) =>
  run(k, [input], (a, [p]) => pass.bb(a, p!, length, mult));

export function seriesTr(
  k: Kernels,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  handleNa = false,
): Float64Array {
  return single(k, [high, low, close], (a, [h, l, c]) => pass.tr(a, h!, l!, c!, handleNa));
}

export function seriesAtr(
  k: Kernels,
  high: ArrayLike<number>,
  low: ArrayLike<number>,
  close: ArrayLike<number>,
  length: number,
): Float64Array {
  return single(k, [high, low, close], (a, [h, l, c]) => pass.atr(a, h!, l!, c!, length));
}
