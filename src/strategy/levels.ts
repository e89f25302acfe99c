// Price and quantity grids, and the levels of strategy.exit brackets, as pure functions.

import { type ExitOrder, LV_ACT, LV_SL, LV_TP, type OpenTrade } from "./types.js";

/**
 * `v` when it is a finite number (an argument that is given and not na), else NaN. (`v - v` is 0
 * exactly for finite numbers: 26 bytes of bytecode, which V8 inlines as a small function wherever
 * it is called, past a caller's inlining budget too, where Number.isFinite's 30 bytes were called
 * and boxed the double they returned.)
 */
export function finite(v: unknown): number {
  return typeof v === "number" && v - v === 0 ? v : NaN;
}

/**
 * Object.is for numbers (-0 is not 0, NaN is NaN) without a call: a double passed to a call V8 does
 * not lower is boxed, and Object.is is not always lowered (an exit re-placed in an interpreted run
 * boxed both sides of every compare: ~140 bytes a call).
 */
export function sameNumber(a: number, b: number): boolean {
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
}

/**
 * The divisor `n` steps of `step` are worked out with: k when the step is 1/k (0.00001, 0.025 =
 * 1/40, ...), whose `n` steps are then n / k, exact-then-rounded once (113394 ticks of 0.00001 give
 * exactly 1.13394); 0 for any other step (n * step). A step fixed for a run (the broker's mintick
 * and quantity step) takes it once, not at every rounding.
 */
export function stepDivisor(step: number): number {
  const inv = 1 / step;
  const k = Math.round(inv);
  return Math.abs(inv - k) < 1e-9 * k ? k : 0;
}

/** `n` steps of `step` as the nearest double; `div`: stepDivisor(step). */
function stepsBy(n: number, step: number, div: number): number {
  return div !== 0 ? n / div : n * step;
}

/**
 * `p` on the tick grid: rounded up or down (order prices round against the trader: buy stops and
 * sell limits up, sell stops and buy limits down, which the Bollinger export confirms for stops).
 */
export function roundToTick(p: number, mintick: number, up: boolean): number {
  return roundToTickBy(p, mintick, stepDivisor(mintick), up);
}

/** roundToTick with the tick's stepDivisor worked out already (`div`). */
export function roundToTickBy(p: number, mintick: number, div: number, up: boolean): number {
  if (p !== p) return p;
  const x = p / mintick;
  return stepsBy(up ? Math.ceil(x - 1e-7) : Math.floor(x + 1e-7), mintick, div);
}

/** `q` floored to the quantity step (an exact multiple stored a hair below stays whole); 0 for q <= 0. */
export function floorToStep(q: number, step: number): number {
  return floorToStepBy(q, step, stepDivisor(step));
}

/** floorToStep with the step's stepDivisor worked out already (`div`). */
export function floorToStepBy(q: number, step: number, div: number): number {
  if (!(q > 0)) return 0;
  return stepsBy(Math.floor(q / step + 1e-9), step, div);
}

/**
 * The step computed quantities (cash, percent_of_equity, qty_percent, margin calls) round down to:
 * syminfo.mincontract when the symbol has one; whole contracts for stocks, funds, futures and
 * indices; 0.1 for forex and CFDs (TradingView's EURUSD exports: 10% of 1,000,000 at 1.1373 =
 * 87927.5); 0.000001 for crypto and anything else, so that small crypto positions stay possible.
 * Only the forex step is confirmed by exported data.
 */
export function qtyStepFor(si: Record<string, unknown> | undefined): number {
  const mc = si ? finite(si.mincontract) : NaN;
  if (mc > 0) return mc;
  const type = typeof si?.type === "string" ? si.type : "";
  if (/^(stock|fund|dr|futures|index|warrant|structured)/.test(type)) return 1;
  if (/^(forex|cfd)/.test(type)) return 0.1;
  return 0.000001;
}

/** v6 uses whichever of the absolute and relative levels the price reaches first; v5 the absolute. */
function pick(abs: number, rel: number, first: (a: number, b: number) => number, version: number): number {
  if (abs !== abs) return rel;
  if (rel !== rel) return abs;
  return version >= 6 ? first(abs, rel) : abs;
}

/** Take-profit of exit `e` for trade `t`: limit, or profit ticks from the entry (a sell limit for longs). */
export function takeProfitLevel(e: ExitOrder, t: OpenTrade, mintick: number, version: number): number {
  const rel = e.profit === e.profit ? t.entryPrice + t.side * e.profit * mintick : NaN;
  return roundToTick(pick(e.limit, rel, t.side > 0 ? Math.min : Math.max, version), mintick, t.side > 0);
}

/** Stop-loss of exit `e` for trade `t`: stop, or loss ticks from the entry (a sell stop for longs). */
export function stopLossLevel(e: ExitOrder, t: OpenTrade, mintick: number, version: number): number {
  const rel = e.loss === e.loss ? t.entryPrice - t.side * e.loss * mintick : NaN;
  return roundToTick(pick(e.stop, rel, t.side > 0 ? Math.max : Math.min, version), mintick, t.side < 0);
}

/** Whether a level of exit `e` is a distance in ticks from the entry price (profit, loss, trail_points). */
export function ticksFromEntry(e: ExitOrder): boolean {
  return e.profit === e.profit || e.loss === e.loss || e.trailPoints === e.trailPoints;
}

/** Price that activates the trailing stop: trail_price, or trail_points ticks from the entry. */
export function trailActivation(e: ExitOrder, t: OpenTrade, mintick: number, version: number): number {
  const rel = e.trailPoints === e.trailPoints ? t.entryPrice + t.side * e.trailPoints * mintick : NaN;
  return pick(e.trailPrice, rel, t.side > 0 ? Math.min : Math.max, version);
}

/**
 * The levels of exit `e` named in `which` (LV_TP, LV_SL, LV_ACT) for trade `t`, written into its
 * cached fields (lvTp, lvSl, lvAct): takeProfitLevel, stopLossLevel and trailActivation's values bit
 * for bit, their arithmetic (pick, roundToTick, steps) written out here. Only objects and small
 * integers cross this call: a double passed to or returned by a call V8 does not inline is a new
 * heap number, and where the inlining stopped inside the chain of small helpers was V8's choice (a
 * 100k-bar run re-placing a bracket in ticks boxed ~1.8 MB of them). The grid's mintick is read here.
 * One function, past V8's inlining size on purpose: split into a writer per level, V8 inlined the
 * writers into levelsReach and updateTrails and boxed there again (0.9-1.4 MB a run).
 */
export function writeExitLevels(
  e: ExitOrder,
  t: OpenTrade,
  grid: { readonly mintick: number },
  version: number,
  which: number,
): void {
  const mt = grid.mintick;
  const s = t.side;
  const ep = t.entryPrice;
  // steps' divisor: n ticks are n / k when the tick is 1/k
  const inv = 1 / mt;
  const k = Math.round(inv);
  const exact = Math.abs(inv - k) < 1e-9 * k;
  if ((which & LV_TP) !== 0) {
    const abs = e.limit;
    const rel = e.profit === e.profit ? ep + s * e.profit * mt : NaN;
    const p =
      abs !== abs ? rel : rel !== rel ? abs : version >= 6 ? (s > 0 ? Math.min(abs, rel) : Math.max(abs, rel)) : abs;
    let v = p;
    if (p === p) {
      const x = p / mt;
      const n = s > 0 ? Math.ceil(x - 1e-7) : Math.floor(x + 1e-7);
      v = exact ? n / k : n * mt;
    }
    e.lvTp = v;
  }
  if ((which & LV_SL) !== 0) {
    const abs = e.stop;
    const rel = e.loss === e.loss ? ep - s * e.loss * mt : NaN;
    const p =
      abs !== abs ? rel : rel !== rel ? abs : version >= 6 ? (s > 0 ? Math.max(abs, rel) : Math.min(abs, rel)) : abs;
    let v = p;
    if (p === p) {
      const x = p / mt;
      const n = s < 0 ? Math.ceil(x - 1e-7) : Math.floor(x + 1e-7);
      v = exact ? n / k : n * mt;
    }
    e.lvSl = v;
  }
  if ((which & LV_ACT) !== 0) {
    const abs = e.trailPrice;
    const rel = e.trailPoints === e.trailPoints ? ep + s * e.trailPoints * mt : NaN;
    e.lvAct =
      abs !== abs ? rel : rel !== rel ? abs : version >= 6 ? (s > 0 ? Math.min(abs, rel) : Math.max(abs, rel)) : abs;
  }
}

/** The slice of trade `t` exit `e` is for: its qty, its qty_percent of the filled size, or NaN (the rest). */
export function exitSlice(e: ExitOrder, t: OpenTrade, step: number): number {
  if (e.qty === e.qty) return e.qty;
  if (e.qtyPercent === e.qtyPercent) {
    const raw = (t.initialQty * e.qtyPercent) / 100;
    return floorToStep(raw, step) || raw;
  }
  return NaN;
}

/**
 * Quantity exit `e` may still close of trade `t`. A sized exit owns its slice of the entry's filled
 * size and fills it once; an exit without qty takes the rest: the filled size minus the slices its
 * sized siblings reserve (`reserved`), so a stop-loss leg next to a 50% take-profit closes only half.
 */
export function exitRemaining(e: ExitOrder, t: OpenTrade, step: number, reserved: number): number {
  const slice = exitSlice(e, t, step);
  const target = slice === slice ? slice : Math.max(0, t.initialQty - reserved);
  const done = t.exitFilled === null ? 0 : (t.exitFilled.get(e.id) ?? 0);
  return Math.min(target - done, t.qty);
}
