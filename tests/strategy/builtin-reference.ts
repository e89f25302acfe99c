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
//   profit at that close; no commission), plus the opposite position it will meet: the one held as
//   the market orders and strategy.close calls placed before it on that bar leave it. At the fill it
//   closes what it meets of the opposite position, oldest first, and opens the rest;
// - strategy.close(id) closes the trades of `id` opened before it was placed;
//   an entry call in the position's direction with `pyramiding` trades open places nothing (an order
//   already pending keeps), and a pending entry is not checked again when it fills;
// - an entry with the id of a pending order replaces it; strategy.cancel removes it;
// - a stop-limit is a stop until the price reaches its stop, then a limit (nothing fills at the
//   trigger unless the limit is already reachable there);
// - strategy.exit's trailing stop: once the price reaches entry + trail_points ticks (a long), a stop
//   trails trail_offset ticks behind the best price reached since, wherever the path has been
//   (it cannot be hit while the price rises, only on the way back).

import type { Columns } from "./harness.js";

export type Action =
  | { kind: "entry"; id: string; dir: 1 | -1; stop: number; limit?: number }
  | { kind: "cancel"; id: string }
  // strategy.close(id): every open trade of `id` closes at the next bar's open
  | { kind: "close"; id: string }
  // strategy.exit(from_entry = from, profit = ticks, loss = ticks): a take-profit limit and a stop-loss
  // for the trade opened by `from`, live from its entry fill on (it persists once placed).
  | { kind: "exit"; from: string; profit: number; loss: number; trailPoints?: number; trailOffset?: number };

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
  stop: number; // NaN: not a stop
  limit: number; // NaN: not a limit (neither: market)
  triggered: boolean; // a stop-limit whose stop the price has reached: a limit from then on
  seq: number;
  placedBar: number;
  qty: number;
  /** The opposite position held at placement, which the order closes on top of its qty. */
  reverse: number;
}

/** Order prices sit on the tick grid, rounded against the trader (buy stops up, sell stops down). */
export function onTick(price: number, dir: 1 | -1, mintick: number): number {
  const t = price / mintick;
  const r = Math.round(t);
  const ticks = Math.abs(t - r) < 1e-7 ? r : dir > 0 ? Math.ceil(t) : Math.floor(t);
  return ticks * mintick;
}

/** Something the price can reach: `up` ones trigger at or above `level` (ticks), the others at or below. */
interface Reachable {
  level: number;
  up: boolean;
  seq: number;
  order: RefOrder | null; // null: the open trade's exit
  trigger: boolean; // reaching it turns a stop-limit into a limit; nothing fills
}

export interface SimOptions {
  /** Quantity of an entry from the equity and close of the bar that places it (default 1). */
  size?: (equity: number, close: number) => number;
  capital?: number;
  /** Open trades allowed in one direction (strategy(pyramiding); 0 and 1 both mean one). */
  pyramiding?: number;
  /** strategy(process_orders_on_close): market orders fill at the close of the bar that places them. */
  processOrdersOnClose?: boolean;
}

/** A strategy.close(id) call: it closes the trades of `id` opened before it (n < before). */
interface CloseRef {
  id: string;
  seq: number;
  before: number;
}

interface OpenRef {
  id: string;
  /** Opening order: a close binds to the trades opened before it was placed. */
  n: number;
  bar: number;
  price: number;
  qty: number;
}

/**
 * Runs the reference broker. `actions(i, positionSize)` gives bar i's script actions, in script order,
 * with the position size the script sees after the bar's fills.
 */
export function simulate(
  c: Columns,
  actions: (i: number, positionSize: number) => Action[],
  mintick: number,
  opts: SimOptions = {},
): RefTrade[] {
  const size = opts.size ?? (() => 1);
  const capital = opts.capital ?? 1_000_000;
  const pyramiding = Math.max(1, opts.pyramiding ?? 1);
  const trades: RefTrade[] = [];
  let pos: 0 | 1 | -1 = 0;
  let open: OpenRef[] = [];
  let closedProfit = 0;
  let pending: RefOrder[] = [];
  let closes: CloseRef[] = [];
  let opened = 0;
  const exits = new Map<string, { profit: number; loss: number; trailPoints?: number; trailOffset?: number }>();
  let trailActive = false;
  let peak = 0; // ticks: the best price since the trailing stop activated
  let seq = 0;
  // Prices are compared in whole ticks (bars and order prices sit on the grid), so float noise cannot decide a touch.
  const tk = (p: number): number => Math.round(p / mintick);

  // Closes the open trades `which` selects, oldest first, at `price`.
  const closeWhere = (which: (t: OpenRef) => boolean, price: number, bar: number): void => {
    const keep: OpenRef[] = [];
    for (const t of open) {
      if (!which(t)) {
        keep.push(t);
        continue;
      }
      const profit = (price - t.price) * pos * t.qty;
      closedProfit += profit;
      trades.push({
        dir: pos as 1 | -1,
        entryBar: t.bar,
        entryPrice: t.price,
        exitBar: bar,
        exitPrice: price,
        qty: t.qty,
        profit,
      });
    }
    open = keep;
    if (open.length === 0) pos = 0;
  };
  // Closes `qty` of the open trades, oldest first, at `price` (a trade closed in part is split).
  const closeQty = (qty: number, price: number, bar: number): void => {
    let left = qty;
    const keep: OpenRef[] = [];
    const dir = pos;
    for (const t of open) {
      const q = Math.min(t.qty, left);
      if (q <= 1e-12) {
        keep.push(t);
        continue;
      }
      left -= q;
      const profit = (price - t.price) * dir * q;
      closedProfit += profit;
      trades.push({
        dir: dir as 1 | -1,
        entryBar: t.bar,
        entryPrice: t.price,
        exitBar: bar,
        exitPrice: price,
        qty: q,
        profit,
      });
      if (t.qty - q > 1e-12) keep.push({ ...t, qty: t.qty - q });
    }
    open = keep;
    if (open.length === 0) pos = 0;
  };
  const fill = (o: RefOrder, price: number, bar: number): void => {
    pending = pending.filter((x) => x !== o);
    if (o.dir === pos) {
      open.push({ id: o.id, n: opened++, bar, price, qty: o.qty });
      return;
    }
    let total = o.qty + o.reverse;
    if (pos !== 0) {
      const held = open.reduce((sum, t) => sum + t.qty, 0);
      const closing = Math.min(held, total);
      closeQty(closing, price, bar);
      total -= closing;
    }
    if (total <= 1e-12) return;
    pos = o.dir;
    open = [{ id: o.id, n: opened++, bar, price, qty: total }];
    trailActive = false;
  };
  // Exits (only modelled for one open trade at a time): the trade they cover, if any.
  const exitOf = () => (open.length === 1 ? exits.get(open[0].id) : undefined);
  // The price is at `p`: the open trade's trailing stop activates or follows it.
  const track = (p: number): void => {
    const x = exitOf();
    if (!x || x.trailPoints === undefined) return;
    const t = tk(p);
    if (!trailActive && pos * (t - (tk(open[0].price) + pos * x.trailPoints)) >= 0) {
      trailActive = true;
      peak = t;
    }
    if (trailActive && pos * (t - peak) > 0) peak = t;
  };
  const reachable = (i: number): Reachable[] => {
    const out: Reachable[] = [];
    for (const o of pending) {
      if (o.placedBar >= i) continue;
      const stopLimit = o.stop === o.stop && o.limit === o.limit;
      if (o.stop === o.stop && !o.triggered)
        out.push({ level: tk(o.stop), up: o.dir > 0, seq: o.seq, order: o, trigger: stopLimit });
      else if (o.limit === o.limit)
        out.push({ level: tk(o.limit), up: o.dir < 0, seq: o.seq, order: o, trigger: false });
    }
    const x = exitOf();
    if (x) {
      const e = tk(open[0].price);
      if (x.profit === x.profit)
        out.push({ level: e + pos * x.profit, up: pos > 0, seq: -1, order: null, trigger: false });
      if (x.loss === x.loss) out.push({ level: e - pos * x.loss, up: pos < 0, seq: -1, order: null, trigger: false });
      if (trailActive && x.trailOffset !== undefined)
        out.push({ level: peak - pos * x.trailOffset, up: pos < 0, seq: -1, order: null, trigger: false });
    }
    return out;
  };
  const fillMarket = (queue: (RefOrder | CloseRef)[], price: number, i: number): void => {
    for (const m of queue) {
      if ("dir" in m) fill(m, price, i);
      else closeWhere((t) => t.id === m.id && t.n < m.before, price, i);
    }
  };
  const take = (r: Reachable, price: number, i: number): void => {
    if (r.trigger) r.order!.triggered = true;
    else if (r.order) fill(r.order, price, i);
    else closeWhere(() => true, price, i);
  };
  // What is already past `p` fills at `p`, exits and then orders oldest first.
  const fillPastAt = (p: number, i: number): void => {
    for (;;) {
      const past = reachable(i).filter((r) => (r.up ? tk(p) >= r.level : tk(p) <= r.level));
      if (past.length === 0) return;
      past.sort((a, b) => a.seq - b.seq);
      take(past[0], p, i);
    }
  };
  // The price moves from `from` to `to`; whatever it reaches fills there, nearest first.
  const move = (from: number, to: number, i: number): void => {
    let cur = tk(from);
    const t0 = tk(to);
    for (;;) {
      const up = t0 > cur;
      const hit = reachable(i).filter((r) =>
        up ? r.up && r.level > cur && r.level <= t0 : !r.up && r.level < cur && r.level >= t0,
      );
      if (hit.length === 0) {
        track(to);
        return;
      }
      hit.sort((a, b) => Math.abs(a.level - cur) - Math.abs(b.level - cur) || a.seq - b.seq);
      cur = hit[0].level;
      take(hit[0], cur * mintick, i);
      fillPastAt(cur * mintick, i);
    }
  };

  for (let i = 0; i < c.time.length; i++) {
    const [o, h, l, cl] = [c.open[i], c.high[i], c.low[i], c.close[i]];
    track(o);
    // market orders (entries and strategy.close calls) at the open, in placement order
    const market = pending.filter((x) => x.placedBar < i && x.stop !== x.stop && x.limit !== x.limit);
    const queue: (RefOrder | CloseRef)[] = [...market, ...closes].sort((a, b) => a.seq - b.seq);
    closes = [];
    fillMarket(queue, o, i);
    fillPastAt(o, i);
    // the nearer extreme first, distances compared as raw floats (a float-equal tie goes low first)
    const highFirst = h - o < o - l;
    const [first, second] = highFirst ? [h, l] : [l, h];
    move(o, first, i);
    move(first, second, i);
    move(second, cl, i);
    let held = 0;
    let openProfit = 0;
    for (const t of open) {
      held += t.qty;
      openProfit += (cl - t.price) * pos * t.qty;
    }
    const equity = capital + closedProfit + openProfit;
    for (const a of actions(i, pos * held)) {
      if (a.kind === "exit") {
        exits.set(a.from, { profit: a.profit, loss: a.loss, trailPoints: a.trailPoints, trailOffset: a.trailOffset });
        continue;
      }
      if (a.kind === "close") {
        closes.push({ id: a.id, seq: seq++, before: open.length > 0 ? opened : Infinity });
        continue;
      }
      // pyramiding is checked when the entry is placed
      if (a.kind === "entry" && a.dir === (pos as number) && open.length >= pyramiding) continue;
      pending = pending.filter((x) => x.id !== a.id);
      if (a.kind !== "entry") continue;
      const stop = a.stop === a.stop ? onTick(a.stop, a.dir, mintick) : NaN;
      const limit = a.limit !== undefined && a.limit === a.limit ? onTick(a.limit, -a.dir as 1 | -1, mintick) : NaN;
      // the position this entry will meet: the one held, as this bar's market orders and closes
      // (placed before it, filling first at the next open) leave it
      let projected = pos * held;
      const before = [...pending.filter((x) => x.stop !== x.stop && x.limit !== x.limit), ...closes];
      for (const m of before.sort((x, y) => x.seq - y.seq)) {
        if ("dir" in m) {
          const opposite = projected * m.dir < 0;
          projected = opposite
            ? m.dir * Math.max(0, m.qty + m.reverse - Math.abs(projected))
            : projected + m.dir * m.qty;
        } else {
          let ofId = 0;
          for (const t of open) if (t.id === m.id && t.n < m.before) ofId += t.qty;
          const left = Math.max(0, Math.abs(projected) - ofId);
          projected = projected > 0 ? left : -left;
        }
      }
      const reverse = projected * a.dir < 0 ? Math.abs(projected) : 0;
      pending.push({
        id: a.id,
        dir: a.dir,
        stop,
        limit,
        triggered: false,
        seq: seq++,
        placedBar: i,
        qty: size(equity, cl),
        reverse: Math.max(0, reverse),
      });
    }
    if (opts.processOrdersOnClose) {
      const market = pending.filter((x) => x.stop !== x.stop && x.limit !== x.limit);
      const queue: (RefOrder | CloseRef)[] = [...market, ...closes].sort((a, b) => a.seq - b.seq);
      closes = [];
      fillMarket(queue, cl, i);
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
    else
      out[i] = Math.max(
        c.high[i] - c.low[i],
        Math.abs(c.high[i] - c.close[i - 1]),
        Math.abs(c.low[i] - c.close[i - 1]),
      );
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
