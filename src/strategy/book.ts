// The order book: pending entry/order/close orders and strategy.exit brackets, their replacement
// rules, OCA groups and the pruning of exits whose trades are gone. It knows nothing of prices; the
// path walk (walk.ts) decides what fills, fills.ts books it.

import type { ExitOrder, OpenTrade, PendingOrder, Side } from "./types.js";

export class OrderBook {
  orders: PendingOrder[] = [];
  exits: ExitOrder[] = [];
  /** Creation counter: orders triggered at the same price fill in this order. */
  seq = 0;

  nextSeq(): number {
    return this.seq++;
  }

  /** A new entry/order replaces the pending entry-like order with the same id. */
  placeEntry(o: PendingOrder): void {
    this.removeOrder(o.id, o.kind);
    this.orders.push(o);
  }

  /** A re-issued exit (same id and from_entry) takes new levels, keeps its fills and its place in the queue. */
  placeExit(e: ExitOrder): void {
    const i = this.exits.findIndex((x) => x.id === e.id && x.fromEntry === e.fromEntry);
    if (i >= 0) {
      e.seq = this.exits[i].seq;
      e.armed = this.exits[i].armed;
      this.exits[i] = e;
    } else this.exits.push(e);
  }

  /** strategy.cancel: every entry/order/exit with that id (pending closes stay). */
  cancel(id: string): void {
    this.orders = this.orders.filter((o) => o.id !== id || o.kind === "close" || o.kind === "close_all");
    this.exits = this.exits.filter((e) => e.id !== id);
  }

  cancelAll(): void {
    this.orders = this.orders.filter((o) => o.kind === "close" || o.kind === "close_all");
    this.exits.length = 0;
  }

  clear(): void {
    this.orders.length = 0;
    this.exits.length = 0;
  }

  removeOrder(id: string, kind: PendingOrder["kind"]): void {
    const entryLike = kind === "entry" || kind === "order";
    let w = 0;
    for (const o of this.orders) {
      const same = o.id === id && (entryLike ? o.kind === "entry" || o.kind === "order" : o.kind === kind);
      if (!same) this.orders[w++] = o;
    }
    this.orders.length = w;
  }

  removeRef(o: PendingOrder): void {
    const i = this.orders.indexOf(o);
    if (i >= 0) this.orders.splice(i, 1);
  }

  /**
   * One-cancels-all after an order of a group filled `filled` contracts: `cancel` drops the other
   * orders of the group; `reduce` takes the filled quantity off the other reduce orders of the group
   * (a partial fill reduces by what filled) and drops those left with nothing.
   */
  applyOca(o: PendingOrder, filled: number): void {
    if (!o.ocaName || o.ocaType === "none") return;
    if (o.ocaType === "cancel") {
      this.orders = this.orders.filter((x) => x.ocaName !== o.ocaName);
      return;
    }
    if (!(filled > 0)) return;
    for (const x of this.orders) if (x.ocaName === o.ocaName && x.ocaType === "reduce") x.qty -= filled;
    this.orders = this.orders.filter((x) => !(x.ocaName === o.ocaName && x.ocaType === "reduce" && x.qty <= 1e-12));
  }

  /** An exit of OCA group `name` filled `filled` contracts: the group's reduce orders shrink by it. */
  reduceGroup(name: string, filled: number): void {
    if (!(filled > 0)) return;
    let touched = false;
    for (const x of this.orders) {
      if (x.ocaName === name && x.ocaType === "reduce") {
        x.qty -= filled;
        touched = true;
      }
    }
    if (touched) this.orders = this.orders.filter((x) => !(x.ocaName === name && x.ocaType === "reduce" && x.qty <= 1e-12));
  }

  /**
   * At the start of a bar, entries in the direction of the position that pyramiding does not allow
   * are dropped: they cannot fill on this bar even if the position reverses later in it (the
   * channel-breakout export shows a stop entry skipped after a reversal on the same bar).
   */
  dropBlockedEntries(side: Side | 0, openCount: number, pyramiding: number): void {
    if (side === 0 || openCount < Math.max(1, pyramiding)) return;
    let w = 0;
    for (const o of this.orders) if (!(o.kind === "entry" && o.side === side)) this.orders[w++] = o;
    this.orders.length = w;
  }

  /** An exit that has found its trades is dropped once none of them remains open. */
  pruneExits(open: readonly OpenTrade[]): void {
    if (this.exits.length === 0) return;
    let w = 0;
    for (const e of this.exits) {
      if (coversAny(e, open)) e.armed = true;
      else if (e.armed) continue;
      this.exits[w++] = e;
    }
    this.exits.length = w;
  }
}

/** Whether exit `e` applies to open trade `t` (its from_entry, or the position it was bound to). */
export function exitCovers(e: ExitOrder, t: OpenTrade): boolean {
  if (e.fromEntry !== null) return t.entryId === e.fromEntry;
  return e.bindSide === 0 || t.side === e.bindSide;
}

function coversAny(e: ExitOrder, open: readonly OpenTrade[]): boolean {
  for (const t of open) if (exitCovers(e, t)) return true;
  return false;
}
