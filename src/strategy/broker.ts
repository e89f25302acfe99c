// TradingView's broker emulator. Orders placed by the script on a bar fill on later bars: market
// orders at the next bar's open (or at the close with process_orders_on_close), price orders
// wherever the assumed intrabar path (open -> nearer extreme -> other extreme -> close, or the
// magnifier's lower-timeframe bars) first reaches them, gaps filling at the open.
//
// Lifecycle (driven by the Runtime): onBarOpen before the script runs on a bar (fills over the bar's
// path), the script's strategy.* calls (entry/order/exit/close/cancel...), onBarClose after it
// (process_orders_on_close fills, risk rules, equity), finish at the end (the StrategyResult).

import type { ExecContext } from "../builtins/types.js";
import type { StrategyEvent, StrategyResult } from "../core/result.js";
import { Ledger } from "./ledger.js";
import { highFirst, seekTime, toMagnifierFeed, type MagnifierFeed } from "./path.js";
import { normaliseSettings, type StrategySettings } from "./settings.js";
import { orderEvent } from "./events.js";
import { exitRemaining, exitSlice, floorToStep, qtyStepFor, roundToTick, stopLossLevel, takeProfitLevel, trailActivation } from "./levels.js";
import { RiskRules } from "./risk.js";
import { cloneTrade, restoreScalars, scalarsOf, truncate } from "./snapshot.js";
import { buildResult, EquityTracker } from "./stats.js";
import type { CloseRequest, EntryRequest, ExitOrder, ExitRequest, OpenTrade, PendingOrder, Side } from "./types.js";

export interface BrokerSnapshot {
  orders: PendingOrder[];
  exits: ExitOrder[];
  open: OpenTrade[];
  closed: number;
  events: number;
  equity: number;
  self: Record<string, number | string | boolean>;
  ledger: Record<string, number | string | boolean>;
  risk: Record<string, number | string | boolean>;
  tracker: Record<string, number | string | boolean>;
}

const NONE = 0;
const ORDER = 1;
const EXIT = 2;
type Leg = "tp" | "sl" | "trail";

function finite(v: unknown): number {
  return typeof v === "number" && v === v && v !== Infinity && v !== -Infinity ? v : NaN;
}

export class Broker {
  readonly settings: StrategySettings;
  readonly events: StrategyEvent[] = [];
  readonly ledger: Ledger;
  readonly risk: RiskRules;
  readonly tracker: EquityTracker;
  readonly mintick: number;
  readonly pointValue: number;
  /** Quantity step that computed quantities (cash / percent_of_equity / qty_percent) round down to. */
  readonly qtyStep: number;
  private orders: PendingOrder[] = [];
  private exits: ExitOrder[] = [];
  private seq = 0;
  private version = 6;
  private bar = 0;
  private time = 0;
  private cur = NaN;
  private lastClose = NaN;
  private magnifier: MagnifierFeed | null = null;
  private magCursor = 0;
  // The best fill candidate of a scan (fields instead of an object: no allocation per scan).
  private bKind = NONE;
  private bOrder: PendingOrder | null = null;
  private bExit: ExitOrder | null = null;
  private bTrade: OpenTrade | null = null;
  private bLeg: Leg = "tp";
  private bLevel = NaN;
  private bSeq = 0;

  constructor(settings: Record<string, unknown> | StrategySettings, ctx: ExecContext) {
    this.settings = "initialCapital" in settings ? (settings as StrategySettings) : normaliseSettings(settings, ctx.version || 6);
    const si = ctx.syminfo;
    this.mintick = finite(si?.mintick) > 0 ? (si.mintick as number) : 0.01;
    this.pointValue = finite(si?.pointvalue) > 0 ? (si.pointvalue as number) : 1;
    this.qtyStep = qtyStepFor(si as Record<string, unknown>);
    this.version = ctx.version || 6;
    this.ledger = new Ledger(this.pointValue);
    this.risk = new RiskRules(si?.timezone ?? "Etc/UTC");
    this.tracker = new EquityTracker(this.settings.initialCapital, ctx.barCount);
    if (this.settings.useBarMagnifier) this.magnifier = toMagnifierFeed(ctx.ext?.magnifierBars);
  }

  // ------------------------------------------------------------------ account state

  equity(price = this.lastClose): number {
    const op = price === price ? this.ledger.openProfit(price) : 0;
    return this.settings.initialCapital + this.ledger.netProfit + op;
  }

  openProfit(): number {
    return this.lastClose === this.lastClose ? this.ledger.openProfit(this.lastClose) : 0;
  }

  get maxDrawdown(): number {
    return this.tracker.maxDrawdown;
  }

  // ------------------------------------------------------------------ lifecycle

  onBarOpen(ctx: ExecContext): void {
    this.bar = ctx.barIndex;
    this.time = ctx.time;
    this.version = ctx.version || this.version;
    this.risk.onBar(ctx.time, this);
    this.dropBlockedEntries();
    // The Runtime may attach the magnifier's bars after creating the broker.
    if (this.settings.useBarMagnifier && this.magnifier === null && ctx.ext?.magnifierBars) this.magnifier = toMagnifierFeed(ctx.ext.magnifierBars);
    const mag = this.magnifier;
    if (mag) {
      const end = ctx.timeClose === ctx.timeClose && ctx.timeClose > ctx.time ? ctx.timeClose : Infinity;
      let i = seekTime(mag, ctx.time, this.magCursor);
      if (i < mag.length && mag.time[i] < end) {
        let first = true;
        for (; i < mag.length && mag.time[i] < end; i++) {
          this.walkBar(mag.open[i], mag.high[i], mag.low[i], mag.close[i], first);
          first = false;
        }
        this.magCursor = i;
        this.afterPath(ctx);
        return;
      }
      this.magCursor = i;
    }
    this.walkBar(ctx.open, ctx.high, ctx.low, ctx.close, true);
    this.afterPath(ctx);
  }

  onBarClose(ctx: ExecContext): void {
    this.bar = ctx.barIndex;
    this.time = ctx.time;
    this.lastClose = ctx.close;
    if (this.settings.processOrdersOnClose) {
      this.cur = ctx.close;
      this.fillMarketOrders(ctx.close, true);
      this.fillTriggeredAt(ctx.close);
    }
    this.risk.onClose(ctx, this);
    this.tracker.onBar(this, ctx);
  }

  /** The StrategyResult; open trades are valued at the close of the last bar that ran. */
  finish(_ctx: ExecContext): StrategyResult {
    return buildResult(this, this.lastClose);
  }

  // ------------------------------------------------------------------ order API (strategy.*)

  entry(req: EntryRequest, ctx: ExecContext, kind: "entry" | "order" = "entry"): void {
    const side: Side = req.direction === "short" ? -1 : 1;
    // Without an explicit qty the default size is worked out now, from the equity and price at this
    // bar's close (what TradingView's EURUSD exports show).
    const given = finite(req.qty);
    const qty = given > 0 ? given : this.defaultQty(ctx.close);
    const limit = this.roundPrice(finite(req.limit), side, false);
    const stop = this.roundPrice(finite(req.stop), side, true);
    this.record(ctx, kind, req.id, req.direction, qty, limit, stop, req.ocaName ?? null, req.comment ?? null);
    if (given <= 0 || !this.risk.allowsOrders()) return;
    this.removeOrder(req.id, kind === "entry" ? "entry" : "order");
    const o: PendingOrder = {
      kind,
      id: req.id,
      side,
      qty,
      qtyPercent: NaN,
      limit,
      stop,
      stopTriggered: false,
      ocaName: req.ocaName ?? null,
      ocaType: req.ocaType ?? "none",
      comment: req.comment ?? null,
      seq: this.seq++,
      placedBar: ctx.barIndex,
      market: limit !== limit && stop !== stop,
    };
    this.orders.push(o);
  }

  exit(req: ExitRequest, ctx: ExecContext): void {
    const e: ExitOrder = {
      id: req.id,
      fromEntry: req.fromEntry ? req.fromEntry : null,
      qty: finite(req.qty),
      qtyPercent: finite(req.qtyPercent),
      profit: finite(req.profit),
      limit: finite(req.limit),
      loss: finite(req.loss),
      stop: finite(req.stop),
      trailPrice: finite(req.trailPrice),
      trailPoints: finite(req.trailPoints),
      trailOffset: finite(req.trailOffset),
      ocaName: req.ocaName ?? null,
      comment: req.comment ?? null,
      commentProfit: req.commentProfit ?? null,
      commentLoss: req.commentLoss ?? null,
      commentTrailing: req.commentTrailing ?? null,
      seq: this.seq++,
      placedBar: ctx.barIndex,
      armed: false,
      bindSide: 0,
    };
    const dir = this.ledger.side();
    e.bindSide = e.fromEntry === null ? dir : 0;
    this.record(ctx, "exit", req.id, dir > 0 ? "short" : dir < 0 ? "long" : null, e.qty, e.limit, e.stop, e.ocaName, e.comment);
    const hasLevel =
      e.profit === e.profit ||
      e.limit === e.limit ||
      e.loss === e.loss ||
      e.stop === e.stop ||
      (e.trailOffset === e.trailOffset && (e.trailPoints === e.trailPoints || e.trailPrice === e.trailPrice));
    // An exit with no level at all (e.g. levels computed from an na price while flat) is a no-op.
    if (!hasLevel) return;
    const i = this.exits.findIndex((x) => x.id === e.id && x.fromEntry === e.fromEntry);
    if (i >= 0) {
      // Re-issued exit: new levels, same fills so far; keeps its place in the queue.
      e.seq = this.exits[i].seq;
      e.armed = this.exits[i].armed;
      this.exits[i] = e;
    } else this.exits.push(e);
  }

  close(req: CloseRequest, ctx: ExecContext, all = false): void {
    const id = all ? "" : (req.id ?? "");
    const side = this.ledger.side();
    let qty = finite(req.qty);
    const pct = finite(req.qtyPercent);
    // qty_percent is a share of the position as it stands when the close is placed, so several
    // closes on one bar (30% + 30% + 40%) stack to the whole position.
    if (qty !== qty && pct === pct) {
      let held = 0;
      for (const t of this.ledger.open) if (all || t.entryId === id) held += t.qty;
      if (held > 0) qty = this.roundQty((held * pct) / 100);
    }
    this.record(ctx, all ? "close_all" : "close", all ? null : id, side > 0 ? "short" : side < 0 ? "long" : null, qty, NaN, NaN, null, req.comment ?? null);
    if (!all && !this.ledger.open.some((t) => t.entryId === id) && !this.orders.some((o) => o.id === id && o.kind === "entry")) return;
    if (all && this.ledger.open.length === 0 && !this.orders.some((o) => o.kind === "entry" || o.kind === "order")) return;
    const o: PendingOrder = {
      kind: all ? "close_all" : "close",
      id,
      side: side > 0 ? -1 : 1,
      qty,
      qtyPercent: pct,
      limit: NaN,
      stop: NaN,
      stopTriggered: false,
      ocaName: null,
      ocaType: "none",
      comment: req.comment ?? null,
      seq: this.seq++,
      placedBar: ctx.barIndex,
      market: true,
    };
    if (req.immediately) {
      this.bar = ctx.barIndex;
      this.time = ctx.time;
      this.cur = ctx.close;
      this.fillClose(o, ctx.close);
      this.pruneExits();
      return;
    }
    this.orders.push(o);
  }

  cancel(id: string, ctx: ExecContext): void {
    this.record(ctx, "cancel", id, null, NaN, NaN, NaN, null, null);
    this.orders = this.orders.filter((o) => o.id !== id || o.kind === "close" || o.kind === "close_all");
    this.exits = this.exits.filter((e) => e.id !== id);
  }

  cancelAll(ctx: ExecContext): void {
    this.record(ctx, "cancel_all", null, null, NaN, NaN, NaN, null, null);
    this.orders = this.orders.filter((o) => o.kind === "close" || o.kind === "close_all");
    this.exits.length = 0;
  }

  /** Cancels every pending order and closes the position now (risk rules). */
  liquidate(price: number, comment: string): void {
    this.orders.length = 0;
    this.exits.length = 0;
    if (this.ledger.open.length === 0) return;
    const side = this.ledger.side() as Side;
    this.closeTrades(this.ledger.open.slice(), Infinity, this.slipped(price, -side as Side), "Close position order", comment);
  }

  /** Quantity strategy.entry uses when none is given, for an order filled at `price`. */
  defaultQty(price: number): number {
    const s = this.settings;
    if (s.defaultQtyType === "fixed") return s.defaultQtyValue;
    if (!(price > 0)) return NaN;
    const cash = s.defaultQtyType === "cash" ? s.defaultQtyValue : (this.equity(price) * s.defaultQtyValue) / 100;
    // Equity valued at `price`; percent commission is paid out of the same cash, so the order value
    // plus its commission fits.
    const commFactor = s.commissionType === "percent" ? 1 + s.commissionValue / 100 : 1;
    return this.roundQty(cash / (price * this.pointValue * commFactor));
  }

  /** Order prices sit on the tick grid, rounded against the trader (see roundToTick). */
  roundPrice(p: number, side: Side, isStop: boolean): number {
    return roundToTick(p, this.mintick, isStop ? side > 0 : side < 0);
  }

  roundQty(q: number): number {
    return floorToStep(q, this.qtyStep);
  }

  /** Everything a realtime tick may change, to put back with restore() before the next tick. */
  snapshot(): BrokerSnapshot {
    return {
      orders: this.orders.map((o) => ({ ...o })),
      exits: this.exits.map((e) => ({ ...e })),
      open: this.ledger.open.map(cloneTrade),
      closed: this.ledger.closed.length,
      events: this.events.length,
      equity: this.tracker.count,
      self: scalarsOf(this),
      ledger: scalarsOf(this.ledger),
      risk: scalarsOf(this.risk),
      tracker: scalarsOf(this.tracker),
    };
  }

  restore(s: BrokerSnapshot): void {
    this.orders = s.orders.map((o) => ({ ...o }));
    this.exits = s.exits.map((e) => ({ ...e }));
    this.ledger.open.length = 0;
    for (const t of s.open) this.ledger.open.push(cloneTrade(t));
    truncate(this.ledger.closed, s.closed);
    truncate(this.events, s.events);
    restoreScalars(this, s.self);
    restoreScalars(this.ledger, s.ledger);
    restoreScalars(this.risk, s.risk);
    restoreScalars(this.tracker, s.tracker);
  }

  get pendingOrders(): readonly PendingOrder[] {
    return this.orders;
  }
  get pendingExits(): readonly ExitOrder[] {
    return this.exits;
  }

  // ------------------------------------------------------------------ the path walk

  private walkBar(o: number, h: number, l: number, c: number, first: boolean): void {
    if (o !== o) return;
    // The open itself is not "touched": a trade exiting at the open saw only its fill price, and
    // for the others the bar's high and low bracket it anyway.
    this.cur = o;
    this.updateTrails(o);
    if (first) this.fillMarketOrders(o, false);
    this.fillTriggeredAt(o);
    if (first) this.risk.checkMargin(o, this);
    if (highFirst(o, h, l, this.mintick)) {
      this.moveTo(h);
      this.moveTo(l);
    } else {
      this.moveTo(l);
      this.moveTo(h);
    }
    this.moveTo(c);
  }

  /** Fills market orders (entries, orders, closes) in the order they were placed. */
  private fillMarketOrders(price: number, atClose: boolean): void {
    for (let guard = 0; guard < 10_000; guard++) {
      let next: PendingOrder | null = null;
      for (const o of this.orders) {
        if (!o.market) continue;
        if (!atClose && o.placedBar >= this.bar) continue;
        if (next === null || o.seq < next.seq) next = o;
      }
      if (next === null) return;
      // Close orders take their slippage from the position they find when they fill.
      const isClose = next.kind === "close" || next.kind === "close_all";
      this.fillOrder(next, isClose ? price : this.slipped(price, next.side));
      this.pruneExits();
    }
  }

  /** Fills orders already triggered at the current price (gaps at the open, exits of a fresh trade). */
  private fillTriggeredAt(price: number): void {
    for (let guard = 0; guard < 10_000; guard++) {
      this.scan(price, price, true);
      if (this.bKind === NONE) return;
      this.fillBest(price, true);
    }
  }

  /** Moves the price along one monotonic segment, filling whatever it reaches first. */
  private moveTo(to: number): void {
    if (to !== to) return;
    for (let guard = 0; guard < 10_000; guard++) {
      const from = this.cur;
      this.scan(from, to, false);
      if (this.bKind === NONE) break;
      this.cur = this.bLevel;
      this.ledger.touch(this.bLevel);
      this.fillBest(this.bLevel, false);
      this.fillTriggeredAt(this.cur);
    }
    this.cur = to;
    this.ledger.touch(to);
    this.updateTrails(to);
  }

  /**
   * Finds the order the price reaches first: at `from` itself when `atPoint`, else strictly after
   * `from` and up to `to`. Ties go to the order placed first.
   */
  private scan(from: number, to: number, atPoint: boolean): void {
    this.bKind = NONE;
    const up = to > from;
    const mt = this.mintick;
    const limitAdj = this.settings.backtestFillLimitsAssumption * mt;
    for (const o of this.orders) {
      if (o.market || o.placedBar >= this.bar && !this.settings.processOrdersOnClose) continue;
      if (o.stop === o.stop && !o.stopTriggered) this.consider(ORDER, o, null, null, "sl", o.stop, o.side, from, to, up, atPoint, o.seq);
      else if (o.limit === o.limit) this.consider(ORDER, o, null, null, "tp", o.limit - o.side * limitAdj, -o.side, from, to, up, atPoint, o.seq);
    }
    if (this.exits.length === 0 || this.ledger.open.length === 0) return;
    for (const e of this.exits) {
      if (e.placedBar >= this.bar && !this.settings.processOrdersOnClose) continue;
      for (const t of this.ledger.open) {
        if (!this.exitCovers(e, t)) continue;
        if (!(this.exitRemaining(e, t) > 0)) continue;
        const s = t.side;
        const tp = this.takeProfitLevel(e, t);
        if (tp === tp) this.consider(EXIT, null, e, t, "tp", tp + s * limitAdj, s, from, to, up, atPoint, e.seq);
        const sl = this.stopLossLevel(e, t);
        if (sl === sl) this.consider(EXIT, null, e, t, "sl", sl, -s as Side, from, to, up, atPoint, e.seq);
        const tr = t.trail.get(e.id);
        if (tr && tr.active) {
          const lvl = tr.extreme - s * e.trailOffset * mt;
          this.consider(EXIT, null, e, t, "trail", lvl, -s as Side, from, to, up, atPoint, e.seq);
        }
      }
    }
  }

  /** `dir` +1: triggers when price rises to `level`; -1: when it falls to it. */
  private consider(
    kind: number,
    o: PendingOrder | null,
    e: ExitOrder | null,
    t: OpenTrade | null,
    leg: Leg,
    level: number,
    dir: number,
    from: number,
    to: number,
    up: boolean,
    atPoint: boolean,
    seq: number,
  ): void {
    if (level !== level) return;
    let hit: boolean;
    if (atPoint) hit = dir > 0 ? from >= level : from <= level;
    else if (from === to) hit = false;
    // A level equal to `from` counts: a trailing stop with no offset sits exactly on the peak it
    // just made, and fills as soon as the price turns.
    else if (up) hit = dir > 0 && level >= from && level <= to;
    else hit = dir < 0 && level <= from && level >= to;
    if (!hit) return;
    const at = atPoint ? from : level;
    if (this.bKind !== NONE) {
      const better = atPoint ? seq < this.bSeq : up ? at < this.bLevel || (at === this.bLevel && seq < this.bSeq) : at > this.bLevel || (at === this.bLevel && seq < this.bSeq);
      if (!better) return;
    }
    this.bKind = kind;
    this.bOrder = o;
    this.bExit = e;
    this.bTrade = t;
    this.bLeg = leg;
    this.bLevel = at;
    this.bSeq = seq;
  }

  private fillBest(price: number, atPoint: boolean): void {
    if (this.bKind === ORDER) {
      const o = this.bOrder as PendingOrder;
      if (o.stop === o.stop && !o.stopTriggered) {
        if (o.limit === o.limit) {
          o.stopTriggered = true; // stop-limit: from now on a limit order
          return;
        }
        this.fillOrder(o, this.slipped(price, o.side));
      } else {
        // A limit fills at its price, or better when the price gapped through it.
        const lp = atPoint ? price : o.limit;
        this.fillOrder(o, lp);
      }
    } else if (this.bKind === EXIT) {
      const e = this.bExit as ExitOrder;
      const t = this.bTrade as OpenTrade;
      const exitSide = -t.side as Side;
      let p = price;
      if (this.bLeg === "tp") p = atPoint ? price : (this.takeProfitLevel(e, t) as number);
      else p = this.slipped(price, exitSide);
      this.fillExit(e, t, this.bLeg, p);
    }
    this.pruneExits();
  }

  private updateTrails(price: number): void {
    if (this.exits.length === 0) return;
    for (const e of this.exits) {
      if (e.trailOffset !== e.trailOffset) continue;
      for (const t of this.ledger.open) {
        if (!this.exitCovers(e, t)) continue;
        let st = t.trail.get(e.id);
        if (!st) {
          st = { active: false, extreme: NaN };
          t.trail.set(e.id, st);
        }
        const act = this.trailActivation(e, t);
        if (!st.active) {
          if (act === act && (t.side > 0 ? price >= act : price <= act)) {
            st.active = true;
            st.extreme = price;
          }
        } else if (t.side > 0 ? price > st.extreme : price < st.extreme) st.extreme = price;
      }
    }
  }

  // ------------------------------------------------------------------ exit levels (levels.ts)

  private takeProfitLevel(e: ExitOrder, t: OpenTrade): number {
    return takeProfitLevel(e, t, this.mintick, this.version);
  }

  private stopLossLevel(e: ExitOrder, t: OpenTrade): number {
    return stopLossLevel(e, t, this.mintick, this.version);
  }

  private trailActivation(e: ExitOrder, t: OpenTrade): number {
    return trailActivation(e, t, this.mintick, this.version);
  }

  private exitRemaining(e: ExitOrder, t: OpenTrade): number {
    let reserved = 0;
    if (e.qty !== e.qty && e.qtyPercent !== e.qtyPercent) {
      for (const x of this.exits) {
        if (x === e || !this.exitCovers(x, t)) continue;
        const slice = exitSlice(x, t, this.qtyStep);
        if (slice === slice) reserved += slice;
      }
    }
    return exitRemaining(e, t, this.qtyStep, reserved);
  }

  // ------------------------------------------------------------------ fills

  private slipped(price: number, side: Side): number {
    return price + side * this.settings.slippage * this.mintick;
  }

  commission(qty: number, price: number): number {
    const s = this.settings;
    if (s.commissionValue === 0) return 0;
    if (s.commissionType === "percent") return (qty * price * this.pointValue * s.commissionValue) / 100;
    if (s.commissionType === "cash_per_contract") return qty * s.commissionValue;
    return s.commissionValue;
  }

  private fillOrder(o: PendingOrder, price: number): void {
    this.removeOrderRef(o);
    if (o.kind === "close" || o.kind === "close_all") {
      this.fillClose(o, price);
      return;
    }
    const side = o.side;
    const pos = this.ledger.side();
    const held = Math.abs(this.ledger.positionSize());
    let qty = o.qty === o.qty ? o.qty : this.defaultQty(price);
    // How much of the position this order closes first: all of it for a reversing entry, up to its
    // own size for strategy.order (FIFO); the rest opens the other way.
    let closing = 0;
    if (pos === -side) {
      if (o.kind === "entry") closing = held;
      else {
        closing = Math.min(held, qty);
        qty -= closing;
      }
    }
    if (o.kind === "entry") {
      if (!this.risk.allowsSide(side)) {
        if (closing > 0) this.closeTrades(this.ledger.open.slice(), Infinity, price, o.id, o.comment);
        return;
      }
      if (pos === side && this.ledger.open.length >= Math.max(1, this.settings.pyramiding)) return;
    }
    qty = this.risk.capQty(qty, side, closing > 0 ? 0 : this.ledger.positionSize());
    // A fresh or added position the equity cannot margin at the fill price is rejected; the new
    // leg of a reversal is not (a margin call trims it instead).
    if (closing === 0 && !this.affordable(side, qty, price)) return;
    const opening = qty > 1e-12 ? qty : 0;
    // One order pays one commission (cash_per_order), shared by its closing and opening legs.
    const fee = this.commission(closing + opening, price);
    const total = closing + opening;
    if (closing > 0) this.closeTrades(this.ledger.open.slice(), closing, price, o.id, o.comment, total > 0 ? (fee * closing) / total : 0);
    if (opening > 0) {
      this.ledger.openTrade(o.id, o.comment, side, opening, price, total > 0 ? (fee * opening) / total : 0, this.bar, this.time);
      this.risk.onFill();
    }
    this.applyOca(o, opening);
  }

  /** Whether equity at `price` covers the margin of the position after adding `qty` on `side`. */
  private affordable(side: Side, qty: number, price: number): boolean {
    const m = (side > 0 ? this.settings.marginLong : this.settings.marginShort) / 100;
    if (!(m > 0)) return true;
    const size = Math.abs(this.ledger.positionSize()) + qty;
    const required = size * price * this.pointValue * m;
    return required <= this.equity(price) * (1 + 1e-12);
  }

  private fillClose(o: PendingOrder, price: number): void {
    const matching = o.kind === "close_all" ? this.ledger.open.slice() : this.ledger.open.filter((t) => t.entryId === o.id);
    if (matching.length === 0) return;
    let total = 0;
    for (const t of matching) total += t.qty;
    let qty = total;
    if (o.qty === o.qty) qty = Math.min(o.qty, total);
    else if (o.qtyPercent === o.qtyPercent) qty = this.roundQty((total * o.qtyPercent) / 100);
    if (!(qty > 0)) return;
    const exitId = o.kind === "close_all" ? "Close position order" : `Close entry(s) order ${o.id}`;
    this.closeTrades(matching, qty, this.slipped(price, -matching[0].side as Side), exitId, o.comment);
  }

  private fillExit(e: ExitOrder, t: OpenTrade, leg: Leg, price: number): void {
    const qty = this.exitRemaining(e, t);
    if (!(qty > 0)) return;
    const comment = (leg === "tp" ? e.commentProfit : leg === "sl" ? e.commentLoss : e.commentTrailing) ?? e.comment;
    t.exitFilled.set(e.id, (t.exitFilled.get(e.id) ?? 0) + qty);
    // FIFO: an exit closes the earliest open trades first, whatever trade its levels came from.
    const targets = this.settings.closeEntriesRule === "FIFO" ? this.ledger.open.slice() : [t];
    this.closeTrades(targets, qty, price, e.id, comment);
  }

  /** Closes up to `qty` of `trades` in order at `price`; one commission for the whole fill unless given. */
  private closeTrades(trades: OpenTrade[], qty: number, price: number, exitId: string, comment: string | null, fee = NaN): void {
    let total = 0;
    for (const t of trades) total += t.qty;
    let left = Math.min(qty, total);
    if (!(left > 0)) return;
    const comm = fee === fee ? fee : this.commission(left, price);
    const all = left;
    for (const t of trades) {
      if (left <= 0) break;
      const q = Math.min(t.qty, left);
      this.ledger.closePart(t, q, price, comm * (q / all), exitId, comment, this.bar, this.time);
      left -= q;
    }
    this.risk.onFill();
  }

  private applyOca(o: PendingOrder, filled: number): void {
    if (!o.ocaName || o.ocaType === "none") return;
    if (o.ocaType === "cancel") {
      this.orders = this.orders.filter((x) => x.ocaName !== o.ocaName);
      return;
    }
    for (const x of this.orders) if (x.ocaName === o.ocaName && x.ocaType === "reduce") x.qty -= filled;
    this.orders = this.orders.filter((x) => !(x.ocaName === o.ocaName && x.ocaType === "reduce" && x.qty <= 1e-12));
  }

  /**
   * At the start of a bar, entries in the direction of the position that pyramiding does not allow
   * are dropped: they cannot fill on this bar even if the position reverses later in it (the
   * channel-breakout export shows a stop entry skipped after a reversal on the same bar).
   */
  private dropBlockedEntries(): void {
    const side = this.ledger.side();
    if (side === 0 || this.ledger.open.length < Math.max(1, this.settings.pyramiding)) return;
    let w = 0;
    for (const o of this.orders) if (!(o.kind === "entry" && o.side === side)) this.orders[w++] = o;
    this.orders.length = w;
  }

  /** Whether exit `e` applies to open trade `t` (its from_entry, or the position it was bound to). */
  private exitCovers(e: ExitOrder, t: OpenTrade): boolean {
    if (e.fromEntry !== null) return t.entryId === e.fromEntry;
    return e.bindSide === 0 || t.side === e.bindSide;
  }

  /** An exit that has found its trades is dropped once none of them remains open. */
  private pruneExits(): void {
    if (this.exits.length === 0) return;
    let w = 0;
    for (const e of this.exits) {
      if (this.coversAny(e)) e.armed = true;
      else if (e.armed) continue;
      this.exits[w++] = e;
    }
    this.exits.length = w;
  }

  private coversAny(e: ExitOrder): boolean {
    for (const t of this.ledger.open) if (this.exitCovers(e, t)) return true;
    return false;
  }

  private afterPath(ctx: ExecContext): void {
    this.pruneExits();
    this.risk.checkMargin(RiskRules.worstPrice(ctx, this.ledger.side()), this);
  }

  private removeOrder(id: string, kind: PendingOrder["kind"]): void {
    const entryLike = kind === "entry" || kind === "order";
    let w = 0;
    for (const o of this.orders) {
      const same = o.id === id && (entryLike ? o.kind === "entry" || o.kind === "order" : o.kind === kind);
      if (!same) this.orders[w++] = o;
    }
    this.orders.length = w;
  }

  private removeOrderRef(o: PendingOrder): void {
    const i = this.orders.indexOf(o);
    if (i >= 0) this.orders.splice(i, 1);
  }

  /** Margin-call liquidation of `qty` at `price` (called by the risk module). */
  marginCall(qty: number, price: number): void {
    const side = this.ledger.side();
    if (side === 0) return;
    this.closeTrades(this.ledger.open.slice(), qty, price, "Margin call", "Margin call");
  }

  private record(
    ctx: ExecContext,
    kind: StrategyEvent["kind"],
    id: string | null,
    direction: "long" | "short" | null,
    qty: number,
    limit: number,
    stop: number,
    oca: string | null,
    comment: string | null,
  ): void {
    this.events.push(orderEvent(ctx, kind, id, direction, qty, limit, stop, oca, comment));
  }
}
