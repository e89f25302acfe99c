// The order book: pending entry/order/close orders and strategy.exit brackets, their replacement
// rules, OCA groups and the pruning of exits whose trades are gone. It knows nothing of prices; the
// path walk (walk.ts) decides what fills, fills.ts books it.

import { objectArray, truncate } from "../core/shapes.js";
import { newExitOrder, newPendingOrder, resetExitOrder } from "./orders.js";
import type { ExitMemo, ExitOrder, ExitRequest, OpenTrade, PendingOrder } from "./types.js";

/** Dropped records kept for reuse, per kind (a trade takes one exit and an entry and a close order or two). */
const SPARE = 4;

/**
 * Records `o` as the one last placed under `id` in a hint map (entryById, exitById). The hints are
 * checked on read, so stale records are harmless; the map is dropped before it grows past the ids a
 * script keeps pending (`pending`: the book's count), e.g. ids made from the bar index.
 */
function rememberById<T>(byId: Map<string, T>, id: string, o: T, pending: number): void {
  if (byId.size >= 64 && byId.size > 2 * pending) byId.clear();
  byId.set(id, o);
}

export class OrderBook {
  // (created in the object elements kind: see core/shapes.ts)
  private list: PendingOrder[] = objectArray();
  /**
   * An order was re-placed by its seq alone (requeueEntryLike's fast path) and is not at the back of
   * `list` yet: the queue is `list` sorted by seq (every order enters with the highest seq so far, so
   * the two orders are the same otherwise). A grid re-placed in its queue's order every bar leaves
   * `list` sorted: no order moves at all, where moving each to the back shifted the whole book a call.
   */
  private unsorted = false;
  /**
   * The entry-like order last placed or found under each id. It names every pending entry-like order
   * (each is the value of its id: `exact`), so an id whose value is not pending under it has none
   * pending, and requeueEntryLike needs no walk of the book (a grid re-placing its filled levels).
   */
  private readonly entryById = new Map<string, PendingOrder>();
  /**
   * entryById names every pending entry-like order. Kept by every placing (addEntryLike, the lookup)
   * and by the map's clearing (the pending ones recorded again); a list set from outside (a snapshot
   * restored) is recorded anew, and off only if it held one id twice; off for good when the list
   * was changed from outside (`size`).
   */
  private exact = true;
  /**
   * The orders' count as the book's methods left it: a list changed from outside (orders pushed by
   * a test) turns `exact` off.
   */
  private size = 0;
  /** The exit last placed or found under each id (a hint: placedExit checks it). */
  private readonly exitById = new Map<string, ExitOrder>();
  /**
   * Off: requeueEntryLike always walks the book, and Broker.exit looks for an exit's trades on every
   * placement (tests check the hints against it).
   */
  hints = true;
  exits: ExitOrder[] = objectArray();
  /** Creation counter: orders triggered at the same price fill in this order. */
  seq = 0;
  /**
   * How many of `orders` are market orders (PendingOrder.market), kept by every change of the
   * orders here and by the broker's placing (add, rewritten): the path walk asks it on every bar
   * instead of walking the orders. A number field: snapshots restore it with the orders.
   */
  market = 0;
  /**
   * Moves on every change here that may move a pending level (an order or exit added, dropped or
   * filled; the broker bumps it for a re-placed order or exit whose levels moved): the walk keeps its
   * level extremes while it and the ledger's (version, epoch) stay (PathWalker.levelsReach).
   */
  levelGen = 0;
  /**
   * Records the book dropped, for the next ones placed (takeExit, takeOrder): a trade's exit and its
   * entry and close orders were ~1 KB of garbage a trade (each double field its own heap number).
   * Exits come from pruneExits (their trades closed: nothing else holds them); filled orders wait in
   * `filled` until the next bar opens (`recycle`), as the fill that took them may still read them.
   * Not part of snapshots (the book's arrays are copied there, never these).
   */
  private readonly spareExits: ExitOrder[] = objectArray();
  private readonly spareOrders: PendingOrder[] = objectArray();
  private readonly filled: PendingOrder[] = objectArray();

  /** A blank exit (newExitOrder's fields): a dropped one reset, else a new one. */
  takeExit(): ExitOrder {
    const e = this.spareExits.pop();
    return e === undefined ? newExitOrder() : resetExitOrder(e);
  }

  /** A pending order for writeOrder to write every field of: a filled one, else a new one. */
  takeOrder(): PendingOrder {
    const o = this.spareOrders.pop();
    return o === undefined ? newPendingOrder() : o;
  }

  /** A bar opens: the orders filled before it may be reused. */
  recycle(): void {
    const f = this.filled;
    while (f.length !== 0 && this.spareOrders.length < SPARE) this.spareOrders.push(f.pop() as PendingOrder);
    if (f.length !== 0) truncate(f, 0);
  }

  nextSeq(): number {
    return this.seq++;
  }

  /** The pending entry/order/close orders in queue order (placing order; a re-placed one at the back). */
  get orders(): PendingOrder[] {
    if (this.unsorted) this.settle();
    return this.list;
  }

  set orders(list: PendingOrder[]) {
    this.list = list;
    this.unsorted = false;
    this.resync();
  }

  /** The orders' places and the ids' map as a list set from outside (a restored snapshot) has them. */
  private resync(): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) list[i].at = i;
    this.entryById.clear();
    this.exact = this.recordEntryLike();
    this.size = list.length;
  }

  /** The orders cut to their first `n` (a compaction's end). */
  private cut(n: number): void {
    truncate(this.list, n);
    this.size = n;
  }

  /** Records every pending entry-like order in entryById (after a clear): false when an id names two. */
  private recordEntryLike(): boolean {
    const list = this.list;
    const byId = this.entryById;
    let once = true;
    for (let i = 0; i < list.length; i++) {
      const o = list[i];
      if (o.kind !== "entry" && o.kind !== "order") continue;
      if (byId.has(o.id)) once = false;
      byId.set(o.id, o);
    }
    return once;
  }

  /** `list` sorted by seq (insertion sort: one pass when the re-placements kept the queue's order), `at` kept. */
  private settle(): void {
    const list = this.list;
    for (let i = 1; i < list.length; i++) {
      const o = list[i];
      const s = o.seq;
      let j = i - 1;
      if (list[j].seq < s) continue;
      while (j >= 0 && list[j].seq > s) {
        const x = list[j];
        list[j + 1] = x;
        x.at = j + 1;
        j--;
      }
      list[j + 1] = o;
      o.at = j + 1;
    }
    // (the places of the orders that moved are written above; a list changed from outside gets all)
    if (list.length !== this.size) for (let i = 0; i < list.length; i++) list[i].at = i;
    this.unsorted = false;
  }

  /** A new entry/order replaces the pending entry-like order with the same id. */
  placeEntry(o: PendingOrder): void {
    this.removeOrder(o.id, o.kind);
    this.addEntryLike(o);
  }

  /** A new order at the back of the queue. */
  add(o: PendingOrder): void {
    this.levelGen++;
    const orders = this.orders;
    o.at = orders.length;
    orders.push(o);
    this.size = orders.length;
    if (o.market) this.market++;
  }

  /** Pending order `o` was written anew (a re-placed entry): `wasMarket`, whether it was a market order before. */
  rewritten(o: PendingOrder, wasMarket: boolean): void {
    if (o.market !== wasMarket) this.market += o.market ? 1 : -1;
  }

  /** The market orders among `orders` counted again (after a change that dropped some). */
  private recount(): void {
    const orders = this.orders;
    let m = 0;
    for (let i = 0; i < orders.length; i++) if (orders[i].market) m++;
    this.market = m;
  }

  /**
   * Placing an entry/order with id `id` replaces the pending entry-like orders (entry or order) with
   * that id and goes to the back of the queue with `seq`: the first of them is moved to the back (the
   * others dropped) and returned for the caller to rewrite; null when none is pending. `hint`: the
   * order the call site placed last (EntryRequest.placed); while it is in the book under that id it
   * is the one (an id names at most one pending entry-like order once placed through here), and it
   * takes the new seq where it stands (see `unsorted`), without a lookup. An id whose entryById
   * value is not pending under it has none pending (`exact`): null, without a walk.
   */
  requeueEntryLike(id: string, seq: number, hint: PendingOrder | null = null): PendingOrder | null {
    if (!this.hints) return this.requeueLookup(id, seq);
    // (the site's own order, else the one last placed under the id: a site in a loop places many)
    let o = hint !== null && this.pending(hint, id) ? hint : null;
    if (o === null) {
      // (a list changed from outside, orders pushed by a test: the map's word is not taken)
      if (this.list.length !== this.size) this.exact = false;
      const byId = this.entryById.get(id);
      if (byId !== undefined && this.pending(byId, id)) o = byId;
      else if (this.exact) return null;
    }
    if (o !== null) {
      this.requeue(o, seq);
      return o;
    }
    return this.requeueLookup(id, seq);
  }

  /**
   * requeueEntryLike for the order `o` a call site placed last, when it is still pending under `id`:
   * it takes `seq` where it stands, and true; false (nothing done) otherwise, or with the hints off.
   */
  requeueHeld(o: PendingOrder, id: string, seq: number): boolean {
    if (!this.hints || !this.pending(o, id)) return false;
    this.requeue(o, seq);
    return true;
  }

  /** Pending order `o` takes `seq` where it stands: the queue is sorted by seq again when next read. */
  private requeue(o: PendingOrder, seq: number): void {
    o.seq = seq;
    if (o.at !== this.list.length - 1) this.unsorted = true;
  }

  /** Whether entry-like order `o` is in the book under id `id` (every pending order's `at` is its index). */
  private pending(o: PendingOrder, id: string): boolean {
    const at = o.at;
    return at < this.list.length && this.list[at] === o && o.id === id && (o.kind === "entry" || o.kind === "order");
  }

  /** A new entry/order at the back of the queue (requeueEntryLike found none under its id). */
  addEntryLike(o: PendingOrder): void {
    this.add(o);
    const byId = this.entryById;
    if (byId.size >= 64 && byId.size > 2 * this.list.length) {
      // (ids made from the bar index: the map is dropped, the pending orders recorded again)
      byId.clear();
      if (!this.recordEntryLike()) this.exact = false;
    } else byId.set(o.id, o);
  }

  /** requeueEntryLike's lookup: the book walked, duplicates of the id dropped. */
  private requeueLookup(id: string, seq: number): PendingOrder | null {
    this.levelGen++;
    const orders = this.orders;
    let found: PendingOrder | null = null;
    let w = 0;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i];
      if (o.id === id && (o.kind === "entry" || o.kind === "order")) {
        if (found === null) found = o;
      } else {
        o.at = w;
        orders[w++] = o;
      }
    }
    if (found === null) return null;
    found.seq = seq;
    found.at = w;
    orders[w++] = found;
    if (w !== orders.length) {
      this.cut(w);
      this.recount();
    }
    this.entryById.set(id, found);
    return found;
  }

  /** The pending exit a strategy.exit(id, from_entry) call re-places, or null. */
  findExit(id: string, fromEntry: string | null): ExitOrder | null {
    const exits = this.exits;
    for (let i = 0; i < exits.length; i++) {
      const e = exits[i];
      if (e.id === id && e.fromEntry === fromEntry) {
        e.at = i;
        return e;
      }
    }
    return null;
  }

  /**
   * findExit for a strategy.exit request: the exit its call site placed last from this place of the
   * pass (`memo.placed`: the request's own, or its memory for the call's index, CallParts) when it
   * is still where it was in the book and has the request's id and from_entry, without a lookup
   * (a site re-placing its exit on every bar), else the exit last placed under the id when it is
   * (a site in a loop). An id and from_entry name at most one pending exit, so that one is findExit's.
   */
  placedExit(req: ExitRequest, fromEntry: string | null, memo: ExitMemo = req): ExitOrder | null {
    const last = memo.placed;
    const exits = this.exits;
    if (
      last != null &&
      last.at < exits.length &&
      exits[last.at] === last &&
      last.id === req.id &&
      last.fromEntry === fromEntry
    )
      return last;
    // (else the exit last placed under the id: a site in a loop places one per level)
    const byId = this.exitById.get(req.id);
    if (
      byId !== undefined &&
      byId.at < exits.length &&
      exits[byId.at] === byId &&
      byId.id === req.id &&
      byId.fromEntry === fromEntry
    ) {
      memo.placed = byId;
      return byId;
    }
    const e = this.findExit(req.id, fromEntry);
    if (e !== null) {
      memo.placed = e;
      this.exitById.set(e.id, e);
    }
    return e;
  }

  /** Whether exit `e` is pending, where its `at` says. */
  holdsExit(e: ExitOrder): boolean {
    const at = e.at;
    return at < this.exits.length && this.exits[at] === e;
  }

  /** A new exit placed by request `req`, at the back of the queue. */
  addExit(e: ExitOrder, memo: ExitMemo): void {
    this.levelGen++;
    e.seq = this.nextSeq();
    e.at = this.exits.length;
    this.exits.push(e);
    memo.placed = e;
    rememberById(this.exitById, e.id, e, this.exits.length);
  }

  /** Whether a strategy.entry with id `id` is pending. */
  hasEntry(id: string): boolean {
    for (let i = 0; i < this.orders.length; i++)
      if (this.orders[i].id === id && this.orders[i].kind === "entry") return true;
    return false;
  }

  /** Whether any strategy.entry or strategy.order is pending. */
  hasEntryOrOrder(): boolean {
    for (let i = 0; i < this.orders.length; i++)
      if (this.orders[i].kind === "entry" || this.orders[i].kind === "order") return true;
    return false;
  }

  /**
   * strategy.cancel: every entry/order/exit with that id (pending closes stay). An id with nothing
   * pending (a script cancelling its entries on every bar of a position) costs the lookups only: the
   * arrays are compacted from the first match on, so kept records before it are not stored again.
   */
  cancel(id: string): void {
    this.levelGen++;
    const orders = this.orders;
    let i = 0;
    while (i < orders.length && !cancels(orders[i], id)) i++;
    if (i < orders.length) {
      let w = i;
      for (i++; i < orders.length; i++)
        if (!cancels(orders[i], id)) {
          orders[i].at = w;
          orders[w++] = orders[i];
        }
      this.cut(w);
      this.recount();
    }
    const exits = this.exits;
    let j = 0;
    while (j < exits.length && exits[j].id !== id) j++;
    if (j < exits.length) {
      let w = j;
      for (j++; j < exits.length; j++)
        if (exits[j].id !== id) {
          exits[j].at = w;
          exits[w++] = exits[j];
        }
      truncate(exits, w);
    }
  }

  cancelAll(): void {
    this.levelGen++;
    const orders = this.orders;
    let w = 0;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i];
      if (o.kind === "close" || o.kind === "close_all") {
        o.at = w;
        orders[w++] = o;
      }
    }
    if (w !== orders.length) {
      this.cut(w);
      this.recount();
    }
    truncate(this.exits, 0);
  }

  clear(): void {
    this.levelGen++;
    this.cut(0);
    this.market = 0;
    truncate(this.exits, 0);
  }

  removeOrder(id: string, kind: PendingOrder["kind"]): void {
    this.levelGen++;
    const entryLike = kind === "entry" || kind === "order";
    const orders = this.orders;
    let w = 0;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i];
      const same = o.id === id && (entryLike ? o.kind === "entry" || o.kind === "order" : o.kind === kind);
      if (!same) {
        o.at = w;
        orders[w++] = o;
      }
    }
    if (w !== orders.length) {
      this.cut(w);
      this.recount();
    }
  }

  /** Takes the filled order `o` out, the others keeping their order (and their `at`, each its index). */
  removeRef(o: PendingOrder): void {
    this.levelGen++;
    const orders = this.orders;
    const n = orders.length;
    let i = o.at;
    if (!(i < n && orders[i] === o)) {
      i = 0;
      while (i < n && orders[i] !== o) i++;
      if (i === n) return;
    }
    for (; i + 1 < n; i++) {
      const x = orders[i + 1];
      x.at = i;
      orders[i] = x;
    }
    orders.pop();
    this.size = orders.length;
    if (o.market) this.market--;
    if (this.filled.length < SPARE) this.filled.push(o);
  }

  /**
   * One-cancels-all after an order of a group filled `filled` contracts: `cancel` drops the other
   * orders of the group; `reduce` takes the filled quantity off the other reduce orders of the group
   * (a partial fill reduces by what filled) and drops those left with nothing.
   */
  applyOca(o: PendingOrder, filled: number): void {
    this.levelGen++;
    if (!o.ocaName || o.ocaType === "none") return;
    const name = o.ocaName;
    const orders = this.orders;
    let w = 0;
    if (o.ocaType === "cancel") {
      for (let i = 0; i < orders.length; i++)
        if (orders[i].ocaName !== name) {
          orders[i].at = w;
          orders[w++] = orders[i];
        }
      if (w !== orders.length) {
        this.cut(w);
        this.recount();
      }
      return;
    }
    if (!(filled > 0)) return;
    for (const x of orders) if (x.ocaName === name && x.ocaType === "reduce") x.qty -= filled;
    this.dropEmptyReduce(name);
  }

  /** An exit of OCA group `name` filled `filled` contracts: the group's reduce orders shrink by it. */
  reduceGroup(name: string, filled: number): void {
    this.levelGen++;
    if (!(filled > 0)) return;
    let touched = false;
    for (const x of this.orders) {
      if (x.ocaName === name && x.ocaType === "reduce") {
        x.qty -= filled;
        touched = true;
      }
    }
    if (touched) this.dropEmptyReduce(name);
  }

  /** Drops the reduce orders of group `name` that have nothing left. */
  private dropEmptyReduce(name: string): void {
    const orders = this.orders;
    let w = 0;
    for (let i = 0; i < orders.length; i++) {
      const x = orders[i];
      if (!(x.ocaName === name && x.ocaType === "reduce" && x.qty <= 1e-12)) {
        x.at = w;
        orders[w++] = x;
      }
    }
    if (w !== orders.length) {
      this.cut(w);
      this.recount();
    }
  }

  /** An exit that has found its trades is dropped once none of them remains open. */
  pruneExits(open: readonly OpenTrade[]): void {
    this.levelGen++;
    const exits = this.exits;
    if (exits.length === 0) return;
    let w = 0;
    for (let i = 0; i < exits.length; i++) {
      const e = exits[i];
      if (coversAny(e, open)) e.armed = true;
      else if (e.armed) {
        if (this.spareExits.length < SPARE) this.spareExits.push(e);
        continue;
      }
      e.at = w;
      exits[w++] = e;
    }
    if (w !== exits.length) truncate(exits, w);
  }
}

/** Whether strategy.cancel(id) takes pending order `o` (an entry or order of that id; closes stay). */
function cancels(o: PendingOrder, id: string): boolean {
  return o.id === id && o.kind !== "close" && o.kind !== "close_all";
}

/** Whether exit `e` applies to open trade `t` (its from_entry, or the position it was bound to). */
export function exitCovers(e: ExitOrder, t: OpenTrade): boolean {
  if (e.fromEntry !== null) return t.entryId === e.fromEntry;
  return e.bindSide === 0 || t.side === e.bindSide;
}

function coversAny(e: ExitOrder, open: readonly OpenTrade[]): boolean {
  for (let i = 0; i < open.length; i++) if (exitCovers(e, open[i])) return true;
  return false;
}
