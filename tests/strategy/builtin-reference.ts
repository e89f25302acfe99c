// An independent reference for the built-in strategy tests (builtin-strategies.test.ts): a tiny
// broker that knows only what those strategies use (strategy.entry market/stop orders, strategy.cancel,
// pyramiding 0, one position at a time), written straight from the manual's fill rules and sharing
// no code with src/strategy:
//
// - a market order placed on bar i fills at bar i+1's open;
// - a stop order placed on bar i is live from bar i+1: a buy stop fills when the price reaches
//   stop or above (a sell stop: stop or below), at the open when the open is already past it, else
//   at the stop price; the price walks open -> nearer extreme -> farther extreme -> close (a tie
//   goes to the low first), and an order already past the price when it becomes fillable (after a
//   reversal on the way) fills at that price;
// - an entry against the position closes it and opens the other side (a reversal); its quantity is
//   1, or `size(equity, close)` of the bar that places it (equity = capital + closed profit + open
//   profit at that close; no commission);
//   an entry in the position's direction is dropped at the start of the bar (pyramiding 0);
// - an entry with the id of a pending order replaces it; strategy.cancel removes it.

import type { Columns } from "./harness.js";

export type Action = { kind: "entry"; id: string; dir: 1 | -1; stop: number } | { kind: "cancel"; id: string };

export interface RefTrade {
  dir: 1 | -1;
  entryBar: number;
  entryPrice: number;
  exitBar: number;
  exitPrice: number;
  qty: number;
  profit: number;
}

interface RefOrder {
  id: string;
  dir: 1 | -1;
  stop: number; // NaN: market
  seq: number;
  placedBar: number;
  qty: number;
}

/** Stop prices sit on the tick grid, rounded against the trader (buy stops up, sell stops down). */
export function onTick(price: number, dir: 1 | -1, mintick: number): number {
  const t = price / mintick;
  const r = Math.round(t);
  const ticks = Math.abs(t - r) < 1e-7 ? r : dir > 0 ? Math.ceil(t) : Math.floor(t);
  return ticks * mintick;
}

export function simulate(
  c: Columns,
  actions: (i: number) => Action[],
  mintick: number,
  size: (equity: number, close: number) => number = () => 1,
  capital = 1_000_000,
): RefTrade[] {
  const trades: RefTrade[] = [];
  let pos: 0 | 1 | -1 = 0;
  let entryBar = -1;
  let entryPrice = NaN;
  let held = 0;
  let closedProfit = 0;
  let pending: RefOrder[] = [];
  let seq = 0;

  const fill = (o: RefOrder, price: number, bar: number): void => {
    pending = pending.filter((x) => x !== o);
    if (o.dir === pos) return;
    if (pos !== 0) {
      const profit = (price - entryPrice) * pos * held;
      closedProfit += profit;
      trades.push({ dir: pos, entryBar, entryPrice, exitBar: bar, exitPrice: price, qty: held, profit });
    }
    pos = o.dir;
    entryBar = bar;
    entryPrice = price;
    held = o.qty;
  };
  const live = (i: number): RefOrder[] => pending.filter((o) => o.placedBar < i && o.stop === o.stop);
  // Prices are compared in whole ticks (bars and stops sit on the grid), so float noise cannot decide a touch.
  const tk = (p: number): number => Math.round(p / mintick);
  // Orders already past `p` fill at `p`, oldest first.
  const fillPastAt = (p: number, i: number): void => {
    for (;;) {
      const past = live(i).filter((o) => (o.dir > 0 ? tk(p) >= tk(o.stop) : tk(p) <= tk(o.stop)));
      if (past.length === 0) return;
      past.sort((a, b) => a.seq - b.seq);
      fill(past[0], p, i);
    }
  };
  // The price moves from `from` to `to`; orders fill where it reaches them, nearest first.
  const move = (from: number, to: number, i: number): void => {
    let cur = from;
    for (;;) {
      const up = to > cur;
      const [c0, t0] = [tk(cur), tk(to)];
      const hit = live(i).filter((o) => (up ? o.dir > 0 && tk(o.stop) > c0 && tk(o.stop) <= t0 : o.dir < 0 && tk(o.stop) < c0 && tk(o.stop) >= t0));
      if (hit.length === 0) return;
      hit.sort((a, b) => Math.abs(tk(a.stop) - c0) - Math.abs(tk(b.stop) - c0) || a.seq - b.seq);
      cur = hit[0].stop;
      fill(hit[0], cur, i);
      fillPastAt(cur, i);
    }
  };

  for (let i = 0; i < c.time.length; i++) {
    const [o, h, l, cl] = [c.open[i], c.high[i], c.low[i], c.close[i]];
    if (pos !== 0) pending = pending.filter((x) => x.dir !== pos);
    for (const m of pending.filter((x) => x.placedBar < i && x.stop !== x.stop).sort((a, b) => a.seq - b.seq)) fill(m, o, i);
    fillPastAt(o, i);
    const highFirst = Math.round((h - o) / mintick) < Math.round((o - l) / mintick);
    const [first, second] = highFirst ? [h, l] : [l, h];
    move(o, first, i);
    move(first, second, i);
    move(second, cl, i);
    const equity = capital + closedProfit + (pos !== 0 ? (cl - entryPrice) * pos * held : 0);
    for (const a of actions(i)) {
      pending = pending.filter((x) => x.id !== a.id);
      if (a.kind === "entry") pending.push({ id: a.id, dir: a.dir, stop: a.stop === a.stop ? onTick(a.stop, a.dir, mintick) : NaN, seq: seq++, placedBar: i, qty: size(equity, cl) });
    }
  }
  return trades;
}

// ---------------------------------------------------------------- indicators (manual definitions)

/** ta.tr(handle_na): the true range; the first bar is high - low when handle_na, else na. */
export function trueRange(c: Columns, handleNa: boolean): Float64Array {
  const out = new Float64Array(c.time.length);
  for (let i = 0; i < out.length; i++) {
    if (i === 0) out[i] = handleNa ? c.high[i] - c.low[i] : NaN;
    else out[i] = Math.max(c.high[i] - c.low[i], Math.abs(c.high[i] - c.close[i - 1]), Math.abs(c.low[i] - c.close[i - 1]));
  }
  return out;
}

/**
 * ta.pivothigh / ta.pivotlow: the bar `right` bars back when no bar to its left goes beyond it and
 * every bar to its right stays strictly short of it (an equal bar on the left does not spoil a pivot,
 * one on the right does: the tie rule of src's ta kernel, which owns that question; the local data
 * has no TradingView export of ties).
 */
export function pivots(src: ArrayLike<number>, left: number, right: number, high: boolean): Float64Array {
  const out = new Float64Array(src.length).fill(NaN);
  for (let i = left + right; i < src.length; i++) {
    const p = i - right;
    let ok = true;
    for (let j = p - left; j < p && ok; j++) ok = high ? src[p] >= src[j] : src[p] <= src[j];
    for (let j = p + 1; j <= i && ok; j++) ok = high ? src[p] > src[j] : src[p] < src[j];
    if (ok) out[i] = src[p];
  }
  return out;
}
