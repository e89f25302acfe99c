// Bars of the non-standard chart types built from a symbol's own OHLCV (ticker.heikinashi, renko,
// linebreak, kagi, pointfigure in request.*). TradingView builds them from the same data; resin does
// too, so a request of `ticker.heikinashi(syminfo.tickerid)` needs no extra feed. Each derived bar
// carries the time (and close time) of the source bar that completed it, so a request sees it only
// from that bar on, as for a higher timeframe. Several bricks or lines completed by one source bar
// share its time (request alignment takes the last one). Constructions (TradingView's Help Center
// chart-type pages):
// - Heikin Ashi: close = (O + H + L + C) / 4; open = (previous HA open + previous HA close) / 2, the
//   first (O + C) / 2; high = max(H, open, close); low = min(L, open, close). One bar per source bar.
// - Renko on close: a brick of `box` forms when the close moves a box beyond the last brick in its
//   direction, a reversal needs two boxes (one beyond the last brick's open). Wicks (request_wicks) are
//   the extremes of the source highs/lows since the previous brick. "ATR" sizes the box as
//   ta.atr(param) on the last source bar (resin's reading of "the ATR value ... for the period").
// - Line break on close: a new line when the close exceeds the last line's close in its direction;
//   a reversal when it crosses the extreme of the last `number_of_lines` lines.
// - Kagi on close and Point & Figure on close or high/low: one bar per finished segment/column, dated
//   at the source bar that reversed it; the segment/column still forming is the last bar, dated at the
//   last source bar. Kagi reverses when the close moves `reversal` (or the box) against the extreme;
//   P&F columns of `box`-rounded prices reverse after `reversal` boxes. "Percentage" sizes the box as
//   param % of the last close (resin's reading).
// What cannot be built (Renko on OHLC, an unknown type or style, a non-positive size) throws a
// DerivedBarsError naming the parameter: no silent na.

import type { BarColumns } from "./bars.js";

export class DerivedBarsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DerivedBarsError";
  }
}

export interface DerivedBars {
  bars: BarColumns;
  timeClose: Float64Array;
}

/** The chart type of a ticker id (`type`, `params` as ticker.* wrote them). */
export interface ChartTypeSpec {
  type: string;
  params?: Record<string, unknown>;
}

/** Builds the bars of `spec` from the source bars and their close times. */
export function deriveBars(spec: ChartTypeSpec, src: BarColumns, timeClose: Float64Array): DerivedBars {
  const p = spec.params ?? {};
  switch (spec.type) {
    case "heikinashi":
      return heikinAshi(src, timeClose);
    case "renko": {
      const source = String(p.source ?? "close").toLowerCase();
      if (source !== "close")
        throw new DerivedBarsError(
          `ticker.renko: source "${String(p.source)}" cannot be built from the chart's bars (only "Close")`,
        );
      return renko(src, timeClose, boxSize("ticker.renko", p.style, p.param, src), p.request_wicks === true);
    }
    case "linebreak": {
      const n = Math.trunc(Number(p.number_of_lines));
      if (!(n >= 1))
        throw new DerivedBarsError(
          `ticker.linebreak: number_of_lines must be a positive int, got ${String(p.number_of_lines)}`,
        );
      return lineBreak(src, timeClose, n);
    }
    case "kagi": {
      const amount =
        p.reversal !== undefined
          ? positive("ticker.kagi", "reversal", p.reversal)
          : boxSize("ticker.kagi", p.style, p.param, src);
      return kagi(src, timeClose, amount);
    }
    case "pointfigure": {
      const source = String(p.source ?? "").toLowerCase();
      if (source !== "close" && source !== "hl")
        throw new DerivedBarsError(`ticker.pointfigure: source "${String(p.source)}" is not "hl" or "close"`);
      const reversal = Math.trunc(Number(p.reversal));
      if (!(reversal >= 1))
        throw new DerivedBarsError(`ticker.pointfigure: reversal must be a positive int, got ${String(p.reversal)}`);
      return pointFigure(
        src,
        timeClose,
        boxSize("ticker.pointfigure", p.style, p.param, src),
        reversal,
        source === "hl",
      );
    }
    default:
      throw new DerivedBarsError(`chart type "${spec.type}" cannot be built from the chart's bars`);
  }
}

function positive(fn: string, name: string, v: unknown): number {
  const x = Number(v);
  if (!(x > 0) || !Number.isFinite(x))
    throw new DerivedBarsError(`${fn}: ${name} must be a positive number, got ${String(v)}`);
  return x;
}

/** Box size of style "Traditional" (param is the size) or "ATR" (param is the ATR length). */
function boxSize(fn: string, style: unknown, param: unknown, src: BarColumns): number {
  const s = String(style ?? "Traditional").toLowerCase();
  if (s === "traditional") return positive(fn, "param (box size)", param);
  if (s === "atr") {
    const len = Math.trunc(positive(fn, "param (ATR length)", param));
    const atr = lastAtr(src, len);
    if (!(atr > 0))
      throw new DerivedBarsError(`${fn}: ATR(${len}) is not available on ${src.time.length} bars to size the box`);
    return atr;
  }
  if (s === "percentage" && fn !== "ticker.renko") {
    const last = src.close[src.time.length - 1];
    if (last === undefined || !(last > 0)) throw new DerivedBarsError(`${fn}: no last price to size a percentage box`);
    return (last * positive(fn, "param (percentage)", param)) / 100;
  }
  throw new DerivedBarsError(
    `${fn}: style "${String(style)}" cannot be built from the chart's bars (${fn === "ticker.renko" ? '"Traditional" or "ATR"' : '"Traditional", "ATR" or "Percentage"'})`,
  );
}

/** ta.atr(len) on the last bar: RMA of the true range seeded with the SMA of the first `len`. */
function lastAtr(b: BarColumns, len: number): number {
  const n = b.time.length;
  if (n < len) return NaN;
  let sum = 0;
  let atr = NaN;
  for (let i = 0; i < n; i++) {
    const tr =
      i === 0
        ? b.high[0]! - b.low[0]!
        : Math.max(
            b.high[i]! - b.low[i]!,
            Math.abs(b.high[i]! - b.close[i - 1]!),
            Math.abs(b.low[i]! - b.close[i - 1]!),
          );
    if (i < len) {
      sum += tr;
      if (i === len - 1) atr = sum / len;
    } else atr = (atr * (len - 1) + tr) / len;
  }
  return atr;
}

/** Growable OHLCV columns for bars whose count is not known in advance. */
class Builder {
  time: number[] = [];
  close_: number[] = [];
  open: number[] = [];
  high: number[] = [];
  low: number[] = [];
  volume: number[] = [];
  timeClose: number[] = [];
  push(t: number, tc: number, o: number, h: number, l: number, c: number, v: number): void {
    this.time.push(t);
    this.timeClose.push(tc);
    this.open.push(o);
    this.high.push(h);
    this.low.push(l);
    this.close_.push(c);
    this.volume.push(v);
  }
  done(): DerivedBars {
    const f = (a: number[]) => Float64Array.from(a);
    return {
      bars: {
        length: this.time.length,
        time: f(this.time),
        open: f(this.open),
        high: f(this.high),
        low: f(this.low),
        close: f(this.close_),
        volume: f(this.volume),
      },
      timeClose: f(this.timeClose),
    };
  }
}

function heikinAshi(b: BarColumns, timeClose: Float64Array): DerivedBars {
  const n = b.time.length;
  const open = new Float64Array(n),
    high = new Float64Array(n),
    low = new Float64Array(n),
    close = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = (b.open[i]! + b.high[i]! + b.low[i]! + b.close[i]!) / 4;
    const o = i === 0 ? (b.open[0]! + b.close[0]!) / 2 : (open[i - 1]! + close[i - 1]!) / 2;
    open[i] = o;
    close[i] = c;
    high[i] = Math.max(b.high[i]!, o, c);
    low[i] = Math.min(b.low[i]!, o, c);
  }
  return { bars: { length: n, time: b.time, open, high, low, close, volume: b.volume }, timeClose };
}

function renko(b: BarColumns, timeClose: Float64Array, box: number, wicks: boolean): DerivedBars {
  const out = new Builder();
  const n = b.time.length;
  if (n === 0) return out.done();
  // the last brick's open and close (no brick yet: both at the first close)
  let top = b.close[0]!;
  let bottom = top;
  let dir = 0;
  let hi = -Infinity,
    lo = Infinity,
    vol = 0;
  for (let i = 0; i < n; i++) {
    const c = b.close[i]!;
    hi = Math.max(hi, b.high[i]!);
    lo = Math.min(lo, b.low[i]!);
    vol += b.volume[i]!;
    for (;;) {
      let o: number, cl: number;
      if (c >= top + box && dir >= 0) {
        o = top;
        cl = top + box;
        dir = 1;
      } else if (c <= bottom - box && dir <= 0) {
        o = bottom;
        cl = bottom - box;
        dir = -1;
      } else if (dir === 1 && c <= bottom - box) {
        o = bottom;
        cl = bottom - box;
        dir = -1;
      } else if (dir === -1 && c >= top + box) {
        o = top;
        cl = top + box;
        dir = 1;
      } else break;
      top = Math.max(o, cl);
      bottom = Math.min(o, cl);
      out.push(
        b.time[i]!,
        timeClose[i]!,
        o,
        wicks ? Math.max(hi, top) : top,
        wicks ? Math.min(lo, bottom) : bottom,
        cl,
        vol,
      );
      hi = -Infinity;
      lo = Infinity;
      vol = 0;
    }
  }
  return out.done();
}

function lineBreak(b: BarColumns, timeClose: Float64Array, lines: number): DerivedBars {
  const out = new Builder();
  const n = b.time.length;
  let vol = 0;
  for (let i = 0; i < n; i++) {
    const c = b.close[i]!;
    vol += b.volume[i]!;
    const k = out.time.length;
    if (k === 0) {
      if (c !== b.open[0]!) {
        out.push(b.time[i]!, timeClose[i]!, b.open[0]!, Math.max(b.open[0]!, c), Math.min(b.open[0]!, c), c, vol);
        vol = 0;
      }
      continue;
    }
    const lastO = out.open[k - 1]!,
      lastC = out.close_[k - 1]!;
    const up = lastC > lastO;
    let hiN = -Infinity,
      loN = Infinity;
    for (let j = Math.max(0, k - lines); j < k; j++) {
      hiN = Math.max(hiN, out.high[j]!);
      loN = Math.min(loN, out.low[j]!);
    }
    let o: number | null = null;
    if (up ? c > lastC : c < lastC)
      o = lastC; // continuation
    else if (up ? c < loN : c > hiN) o = lastO; // reversal beyond the last `lines` lines
    if (o === null) continue;
    out.push(b.time[i]!, timeClose[i]!, o, Math.max(o, c), Math.min(o, c), c, vol);
    vol = 0;
  }
  return out.done();
}

function kagi(b: BarColumns, timeClose: Float64Array, amount: number): DerivedBars {
  const out = new Builder();
  const n = b.time.length;
  if (n === 0) return out.done();
  let start = b.close[0]!;
  let extreme = start;
  let dir = 0;
  let vol = 0;
  for (let i = 0; i < n; i++) {
    const c = b.close[i]!;
    vol += b.volume[i]!;
    if (dir === 0) {
      if (Math.abs(c - start) >= amount) {
        dir = c > start ? 1 : -1;
        extreme = c;
      }
    } else if (dir * (c - extreme) > 0) extreme = c;
    else if (dir * (extreme - c) >= amount) {
      // the segment start -> extreme is finished: it is a bar from here on
      out.push(b.time[i]!, timeClose[i]!, start, Math.max(start, extreme), Math.min(start, extreme), extreme, vol);
      vol = 0;
      start = extreme;
      extreme = c;
      dir = -dir;
    }
  }
  if (dir !== 0)
    out.push(
      b.time[n - 1]!,
      timeClose[n - 1]!,
      start,
      Math.max(start, extreme),
      Math.min(start, extreme),
      extreme,
      vol,
    );
  return out.done();
}

function pointFigure(b: BarColumns, timeClose: Float64Array, box: number, reversal: number, hl: boolean): DerivedBars {
  const out = new Builder();
  const n = b.time.length;
  if (n === 0) return out.done();
  // prices on the box grid: a column runs from `from` to `to` (X up, O down)
  const floorBox = (x: number) => Math.floor(x / box + 1e-9) * box;
  const ceilBox = (x: number) => Math.ceil(x / box - 1e-9) * box;
  let from = floorBox(b.close[0]!);
  let to = from;
  let dir = 0;
  let vol = 0;
  for (let i = 0; i < n; i++) {
    vol += b.volume[i]!;
    // on "hl" an X column extends with the high and reverses on the low (O: the other way round);
    // the extension is tried first, as a bar that does both is read as the trend continuing
    const up = hl ? b.high[i]! : b.close[i]!;
    const down = hl ? b.low[i]! : b.close[i]!;
    if (dir >= 0 && up >= to + box) {
      dir = 1;
      to = floorBox(up);
    } else if (dir <= 0 && down <= to - box) {
      dir = -1;
      to = ceilBox(down);
    } else if (dir === 1 && down <= to - reversal * box) {
      out.push(b.time[i]!, timeClose[i]!, from, to, from, to, vol);
      vol = 0;
      from = to - box;
      to = ceilBox(down);
      dir = -1;
    } else if (dir === -1 && up >= to + reversal * box) {
      out.push(b.time[i]!, timeClose[i]!, from, from, to, to, vol);
      vol = 0;
      from = to + box;
      to = floorBox(up);
      dir = 1;
    }
  }
  if (dir !== 0) out.push(b.time[n - 1]!, timeClose[n - 1]!, from, Math.max(from, to), Math.min(from, to), to, vol);
  return out.done();
}
