// `resin bench` kernel timings: ns per bar of each whole-series WASM kernel, of the same kernel as
// per-bar state machine calls (what the interpreter pays, JS->WASM boundary included), and of a
// plain-JS version of the same algorithm. Deterministic input (seeded random walk); no allocation
// inside the timed loops except the series kernels' own input/output copies.

import { createKernels, type Kernels } from "./index.js";
import * as S from "./series.js";

export interface KernelBench {
  kernel: string;
  /** Whole-series WASM kernel, ns per bar (copies in and out included). */
  wasm_series_ns: number;
  /** Per-bar WASM state machine calls, ns per bar. */
  wasm_per_bar_ns: number;
  /** Plain-JS per-bar implementation of the same algorithm, ns per bar. */
  js_ns: number;
}

function walk(n: number): { high: Float64Array; low: Float64Array; close: Float64Array } {
  let a = 12345;
  const r = () => {
    a = (Math.imul(a, 1103515245) + 12345) >>> 0;
    return a / 4294967296;
  };
  const close = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    p += r() - 0.5;
    close[i] = p;
    high[i] = p + r();
    low[i] = p - r();
  }
  return { high, low, close };
}

function time(n: number, f: () => void): number {
  f(); // warm-up
  let reps = 1;
  let t = 0;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) f();
    t = performance.now() - t0;
    if (t > 50 || reps >= 1 << 16) break;
    reps *= 4;
  }
  return (t * 1e6) / (reps * n);
}

// ---------------------------------------------------------------- plain-JS versions

/** The kernel's running sum (leaving value out, then the new one in), na-free input. */
function jsSma(x: Float64Array, len: number, out: Float64Array): void {
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    if (i >= len) s = s - x[i - len];
    s = s + x[i];
    out[i] = i < len - 1 ? NaN : (Math.abs(s) <= 1e-10 ? 0 : s) / len;
  }
}

function jsEma(x: Float64Array, len: number, rma: boolean, out: Float64Array): void {
  let e = NaN;
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    if (i < len) {
      s += x[i];
      if (i === len - 1) e = s / len;
    } else e = rma ? ((len - 1) * e + x[i]) / len : e + (2 / (len + 1)) * (x[i] - e);
    out[i] = e;
  }
}

function jsWma(x: Float64Array, len: number, out: Float64Array): void {
  const norm = (len * (len + 1)) / 2;
  for (let i = 0; i < x.length; i++) {
    if (i < len - 1) {
      out[i] = NaN;
      continue;
    }
    let s = 0;
    for (let k = len - 1; k >= 0; k--) s += (len - k) * x[i - k];
    out[i] = s / norm;
  }
}

function jsStdev(x: Float64Array, len: number, out: Float64Array): void {
  for (let i = 0; i < x.length; i++) {
    if (i < len - 1) {
      out[i] = NaN;
      continue;
    }
    let s = 0;
    let s2 = 0;
    for (let j = i - len + 1; j <= i; j++) {
      s += x[j];
      s2 += x[j] * x[j];
    }
    const m = s / len;
    out[i] = Math.sqrt(Math.max(0, s2 / len - m * m));
  }
}

function jsHighest(x: Float64Array, len: number, out: Float64Array): void {
  // monotonic deque of indices, as the kernel
  const dq = new Int32Array(x.length);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < x.length; i++) {
    while (tail > head && x[dq[tail - 1]] < x[i]) tail--;
    dq[tail++] = i;
    while (dq[head] <= i - len) head++;
    out[i] = i < len - 1 ? NaN : x[dq[head]];
  }
}

function jsTr(h: Float64Array, l: Float64Array, c: Float64Array, out: Float64Array): void {
  out[0] = NaN;
  for (let i = 1; i < c.length; i++)
    out[i] = Math.max(Math.max(h[i] - l[i], Math.abs(h[i] - c[i - 1])), Math.abs(l[i] - c[i - 1]));
}

function jsRsi(x: Float64Array, len: number, out: Float64Array): void {
  let ru = NaN;
  let rd = NaN;
  let su = 0;
  let sd = 0;
  out[0] = NaN;
  for (let i = 1; i < x.length; i++) {
    const u = Math.max(x[i] - x[i - 1], 0);
    const d = Math.max(x[i - 1] - x[i], 0);
    if (i <= len) {
      su += u;
      sd += d;
      if (i === len) {
        ru = su / len;
        rd = sd / len;
      }
    } else {
      ru = ((len - 1) * ru + u) / len;
      rd = ((len - 1) * rd + d) / len;
    }
    out[i] = rd === 0 ? 100 : ru === 0 ? 0 : 100 - 100 / (1 + ru / rd);
  }
}

function jsChange(x: Float64Array, len: number, out: Float64Array): void {
  for (let i = 0; i < x.length; i++) out[i] = i < len ? NaN : x[i] - x[i - len];
}

// ---------------------------------------------------------------- the bench

/** Per-kernel ns/bar for `bars` bars (length 20 windows, 14 for rsi/atr). */
export async function benchKernels(bars: number): Promise<KernelBench[]> {
  const n = Math.max(100, Math.floor(bars));
  const { high, low, close } = walk(n);
  const k: Kernels = await createKernels();
  const out = new Float64Array(n);
  const L = 20;
  const perBar = (make: () => number, step: (h: number, i: number) => number) => () => {
    const mark = k.x.heap_top();
    const h = make();
    for (let i = 0; i < n; i++) out[i] = step(h, i);
    k.x.heap_set(mark);
  };
  const x = k.x;
  let atrRma = 0;
  const rows: [string, () => void, () => void, () => void][] = [
    [
      "sma",
      () => S.seriesSma(k, close, L),
      perBar(
        () => x.sum_new(L),
        (h, i) => x.sma_next(h, i, close[i], L),
      ),
      () => jsSma(close, L, out),
    ],
    [
      "ema",
      () => S.seriesEma(k, close, L),
      perBar(
        () => x.ema_new(L, 0),
        (h, i) => x.ema_next(h, i, close[i]),
      ),
      () => jsEma(close, L, false, out),
    ],
    [
      "rma",
      () => S.seriesRma(k, close, L),
      perBar(
        () => x.ema_new(L, 1),
        (h, i) => x.ema_next(h, i, close[i]),
      ),
      () => jsEma(close, L, true, out),
    ],
    [
      "wma",
      () => S.seriesWma(k, close, L),
      perBar(
        () => x.wma_new(L),
        (h, i) => x.wma_next(h, i, close[i], L),
      ),
      () => jsWma(close, L, out),
    ],
    [
      "stdev",
      () => S.seriesStdev(k, close, L),
      perBar(
        () => x.var_new(L),
        (h, i) => Math.sqrt(x.var_next(h, i, close[i], L, 1)),
      ),
      () => jsStdev(close, L, out),
    ],
    [
      "highest",
      () => S.seriesHighest(k, close, L),
      perBar(
        () => x.hilo_new(L, 0),
        (h, i) => x.hilo_next(h, i, close[i], L),
      ),
      () => jsHighest(close, L, out),
    ],
    [
      "lowest",
      () => S.seriesLowest(k, close, L),
      perBar(
        () => x.hilo_new(L, 1),
        (h, i) => x.hilo_next(h, i, close[i], L),
      ),
      () =>
        jsHighest(
          close.map((v) => -v),
          L,
          out,
        ),
    ],
    [
      "tr",
      () => S.seriesTr(k, high, low, close),
      perBar(
        () => x.tr_new(),
        (h, i) => x.tr_next(h, i, high[i], low[i], close[i], 0),
      ),
      () => jsTr(high, low, close, out),
    ],
    [
      "atr",
      () => S.seriesAtr(k, high, low, close, 14),
      // the per-bar atr is a tr state feeding an rma state, as ta.atr does
      perBar(
        () => {
          atrRma = x.ema_new(14, 1);
          return x.tr_new();
        },
        (h, i) => x.ema_next(atrRma, i, x.tr_next(h, i, high[i], low[i], close[i], 1)),
      ),
      () => {
        jsTr(high, low, close, out);
        jsEma(out, 14, true, out);
      },
    ],
    [
      "rsi",
      () => S.seriesRsi(k, close, 14),
      perBar(
        () => x.rsi_new(14),
        (h, i) => x.rsi_next(h, i, close[i]),
      ),
      () => jsRsi(close, 14, out),
    ],
    [
      "change",
      () => S.seriesChange(k, close, 1),
      perBar(
        () => x.lag_new(1),
        (h, i) => close[i] - x.lag_next(h, i, close[i], 1),
      ),
      () => jsChange(close, 1, out),
    ],
  ];
  return rows.map(([kernel, series, bar, js]) => ({
    kernel,
    wasm_series_ns: time(n, series),
    wasm_per_bar_ns: time(n, bar),
    js_ns: time(n, js),
  }));
}
