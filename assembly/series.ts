// Whole-series kernels for the compile backend's precompute: (input ptr, output ptr, count, params).
// Each gives exactly the per-bar state machine's numbers (same operations in the same order); the
// windowed ones drive a temporary state, the elementwise ones (tr, change) use SIMD.
import { alloc, heap_top, heap_set, setShadowOff } from "./mem";
import { sum_new, sma_next, var_new, var_next, wma_new, wma_next, ema_new, ema_next } from "./avg";
import { hilo_new, hilo_next } from "./window";
import { rsi_new, rsi_next } from "./osc";
import { tr_new, tr_next } from "./misc";

/** Scratch buffer for series inputs/outputs; release with heap_set(mark). */
export function series_alloc(bytes: usize): usize {
  return alloc(bytes);
}

export function series_sma(inp: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = sum_new(len);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), sma_next(h, i, load<f64>(inp + (<usize>i << 3)), len));
  setShadowOff(false);
  heap_set(mark);
}

export function series_ema(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = ema_new(len, kind);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), ema_next(h, i, load<f64>(inp + (<usize>i << 3))));
  setShadowOff(false);
  heap_set(mark);
}

export function series_wma(inp: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = wma_new(len);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), wma_next(h, i, load<f64>(inp + (<usize>i << 3)), len));
  setShadowOff(false);
  heap_set(mark);
}

export function series_stdev(inp: usize, out: usize, n: i32, len: i32, biased: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = var_new(len);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), Math.sqrt(var_next(h, i, load<f64>(inp + (<usize>i << 3)), len, biased)));
  setShadowOff(false);
  heap_set(mark);
}

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars. */
export function series_hilo(inp: usize, out: usize, n: i32, len: i32, kind: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = hilo_new(len, kind);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), hilo_next(h, i, load<f64>(inp + (<usize>i << 3)), len));
  setShadowOff(false);
  heap_set(mark);
}

export function series_rsi(inp: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const h = rsi_new(len);
  for (let i = 0; i < n; i++) store<f64>(out + (<usize>i << 3), rsi_next(h, i, load<f64>(inp + (<usize>i << 3))));
  setShadowOff(false);
  heap_set(mark);
}

/** True range from high/low/close columns; bar 0 gives high-low when handleNa, else na. */
export function series_tr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, handleNa: i32): void {
  if (n <= 0) return;
  store<f64>(out, handleNa ? load<f64>(hi) - load<f64>(lo) : NaN);
  let i = 1;
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    const h = v128.load(hi + o);
    const l = v128.load(lo + o);
    const pc = v128.load(cl + o - 8);
    const r = f64x2.max(f64x2.max(f64x2.sub(h, l), f64x2.abs(f64x2.sub(h, pc))), f64x2.abs(f64x2.sub(l, pc)));
    // f64x2.max propagates NaN like Math.max; a NaN previous close falls back per lane below
    v128.store(out + o, r);
    if (handleNa) {
      if (load<f64>(cl + o - 8) != load<f64>(cl + o - 8)) store<f64>(out + o, load<f64>(hi + o) - load<f64>(lo + o));
      if (load<f64>(cl + o) != load<f64>(cl + o)) store<f64>(out + o + 8, load<f64>(hi + o + 8) - load<f64>(lo + o + 8));
    }
  }
  for (; i < n; i++) {
    const o = <usize>i << 3;
    const pc = load<f64>(cl + o - 8);
    const h = load<f64>(hi + o);
    const l = load<f64>(lo + o);
    store<f64>(out + o, pc != pc ? (handleNa ? h - l : NaN) : Math.max(Math.max(h - l, Math.abs(h - pc)), Math.abs(l - pc)));
  }
}

/** ATR = rma of tr(true), through the same state machines as ta.atr. */
export function series_atr(hi: usize, lo: usize, cl: usize, out: usize, n: i32, len: i32): void {
  const mark = heap_top();
  setShadowOff(true);
  const t = tr_new();
  const r = ema_new(len, 1);
  for (let i = 0; i < n; i++) {
    const o = <usize>i << 3;
    store<f64>(out + o, ema_next(r, i, tr_next(t, i, load<f64>(hi + o), load<f64>(lo + o), load<f64>(cl + o), 1)));
  }
  setShadowOff(false);
  heap_set(mark);
}

/** x - x[len] (na for the first len values). */
export function series_change(inp: usize, out: usize, n: i32, len: i32): void {
  let i = 0;
  const head = len < n ? len : n;
  for (; i < head; i++) store<f64>(out + (<usize>i << 3), NaN);
  if (len < 0) {
    for (; i < n; i++) store<f64>(out + (<usize>i << 3), NaN);
    return;
  }
  for (; i + 1 < n; i += 2) {
    const o = <usize>i << 3;
    v128.store(out + o, f64x2.sub(v128.load(inp + o), v128.load(inp + o - (<usize>len << 3))));
  }
  for (; i < n; i++) {
    const o = <usize>i << 3;
    store<f64>(out + o, load<f64>(inp + o) - load<f64>(inp + o - (<usize>len << 3)));
  }
}
