// TradingView's broker emulator. Orders placed by the script on a bar fill on later bars: market
// orders at the next bar's open (or at the close with process_orders_on_close), price orders
// wherever the assumed intrabar path (open -> nearer extreme -> other extreme -> close, or the
// magnifier's lower-timeframe bars) first reaches them, gaps filling at the open.
//
// Lifecycle (driven by the Runtime): onBarOpen before the script runs on a bar (fills over the bar's
// path), the script's strategy.* calls (entry/order/exit/close/cancel...), onBarClose after it
// (process_orders_on_close fills, risk rules, equity), finish at the end (the StrategyResult).

import type { BrokerHost } from "./host.js";
import type { StrategyEvent, StrategyResult } from "../core/result.js";
import { exitCovers, OrderBook } from "./book.js";
import { EXIT_META, EventLog, eventMeta, LogSite } from "./events.js";
import { CurrencyRate } from "./currency.js";
import { closeTrades, commission, fillClose, slipped } from "./fills.js";
import { Ledger } from "./ledger.js";
import { exitHasLevel, relevelExit, writeExit, writeOrder } from "./orders.js";
import {
  exitRemaining,
  finite,
  ticksFromEntry,
  exitSlice,
  floorToStepBy,
  qtyStepFor,
  roundToTick,
  roundToTickBy,
  sameNumber,
  stepDivisor,
  stopLossLevel,
  takeProfitLevel,
  trailActivation,
  writeExitLevels,
} from "./levels.js";
import { seekTime, toMagnifierFeed, type MagnifierFeed } from "./path.js";
import { RiskRules } from "./risk.js";
import { normaliseSettings, type StrategySettings } from "./settings.js";
import { restoreSnapshot, takeSnapshot, type BrokerSnapshot } from "./snapshot.js";
import { buildResult, EquityTracker } from "./stats.js";
import {
  type CallParts,
  type CloseRequest,
  type EntryMemo,
  type EntryRequest,
  type ExitMemo,
  type ExitOrder,
  type ExitRequest,
  EXIT_ARG_ALL,
  EXIT_ARG_LEVELS_ONLY,
  type FillNote,
  LV_ACT,
  LV_SL,
  LV_TP,
  type OpenTrade,
  type PendingOrder,
  type Side,
} from "./types.js";
import { PathWalker } from "./walk.js";

export type { BrokerSnapshot } from "./snapshot.js";

/** The log's codes of the cancels (eventMeta, worked out once). */
const CANCEL_META = eventMeta("cancel", null);
const CANCEL_ALL_META = eventMeta("cancel_all", null);
/** strategy.entry's and strategy.order's codes, long and short. */
const ENTRY_LONG_META = eventMeta("entry", "long");
const ENTRY_SHORT_META = eventMeta("entry", "short");
const ORDER_LONG_META = eventMeta("order", "long");
const ORDER_SHORT_META = eventMeta("order", "short");

/** Equal, or both NaN (a price memo's key: 0 and -0 round alike; a re-placed order's or exit's level fields). */
function sameOrNaN(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/** A site's calls per pass with a memory of their own (CallParts); later ones share the request's. */
const MAX_PARTS = 256;

/** The memory of a request's call at index `at` (1..MAX_PARTS) of a pass, made on first use. */
function entryPart(req: EntryRequest, at: number): EntryMemo {
  let parts = req.parts;
  if (parts == null) parts = req.parts = [];
  while (parts.length < at)
    parts.push({ memoTick: NaN, memoRawLimit: NaN, memoLimit: NaN, memoRawStop: NaN, memoStop: NaN, placed: null });
  return parts[at - 1];
}

/** exitPart: entryPart for a strategy.exit request. */
function exitPart(req: ExitRequest, at: number): ExitMemo {
  let parts = req.parts;
  if (parts == null) parts = req.parts = [];
  while (parts.length < at) parts.push({ placed: null });
  return parts[at - 1];
}

/** calc_on_order_fills: at most this many extra executions per bar (a script re-placing orders that fill at once cannot loop). */
const MAX_FILL_EXECUTIONS_PER_BAR = 64;

/**
 * The Runtime's calc_on_order_fills hook (ctx.ext.fillRecalc): `run` executes the script once with the
 * bar so far. An object holding the function, not the function itself: a function made per run and
 * stored into a property survives every minor GC with the run it captures (runtime/rerun.ts).
 */
export interface FillRecalc {
  run(high: number, low: number, close: number): void;
}

export class Broker {
  readonly settings: StrategySettings;
  /** Every order call (result.events), logged in columns; `events` builds the records. */
  readonly eventLog: EventLog;
  readonly ledger: Ledger;
  readonly risk: RiskRules;
  readonly tracker: EquityTracker;
  // (number fields get a number at their declaration: one declared bare starts as undefined, and V8
  // then keeps it tagged, a heap number behind every read of the walk and the equity tracker)
  readonly mintick: number = Number.NaN;
  /** Account currency per point of the symbol: syminfo.pointvalue times the current cross rate. */
  pointValue = Number.NaN;
  readonly symbolPointValue: number = Number.NaN;
  readonly currency: CurrencyRate;
  /** Quantity step that computed quantities (cash / percent_of_equity / qty_percent) round down to. */
  readonly qtyStep: number = Number.NaN;
  /** stepDivisor of the mintick and of the quantity step (worked out once, not at every order call). */
  private readonly tickDiv: number = 0;
  private readonly qtyDiv: number = 0;
  /** default_qty_type is fixed (defaultQty's common case, without a string compare per order call). */
  private readonly qtyFixed: boolean = false;
  readonly book = new OrderBook();
  readonly walker: PathWalker;
  private version = 6;
  /** The bar being processed and its open time (fills are booked on it). */
  bar = 0;
  time = 0;
  private lastClose = NaN;
  private magnifier: MagnifierFeed | null = null;
  private magCursor = 0;
  private ctx: BrokerHost | null = null;
  /** True while a calc_on_order_fills execution runs: the orders it places are live inside the bar. */
  private inRecalc = false;
  /** A realtime bar of a calc_on_every_tick strategy is in progress: orders fill tick by tick. */
  private tickMode = false;
  private fillsSinceRecalc = 0;
  /** The ledger's version at the last prune of exits (pruneExits). */
  private prunedAt = -1;
  private recalcBar = -1;
  /**
   * The script executions (bars, ticks, fill recalculations) begun so far: a call site's calls in one
   * are counted (CallParts), so a site in a loop keeps a memory per level. Any miscount only costs
   * hints (each one is checked where it is read).
   */
  pass = 0;
  private recalcsThisBar = 0;
  /**
   * defaultQty's last computed (cash or percent_of_equity) quantity and what it depends on: the
   * price, the ledger's version (its trades and net profit) and the point value. Number fields:
   * snapshots restore them with the version.
   */
  private qtyAtPrice = NaN;
  private qtyAtVersion = -1;
  private qtyAtPointValue = NaN;
  private qtyAt = NaN;
  /** The log's site memory for order calls whose request carries none (EventLog.logSite). */
  private readonly anySite = new LogSite();
  /** Receives every order fill (the strategy builtins turn them into alerts). */
  onFill: ((fill: FillNote, ctx: BrokerHost) => void) | null = null;

  constructor(settings: Record<string, unknown> | StrategySettings, ctx: BrokerHost) {
    this.settings =
      "initialCapital" in settings ? (settings as StrategySettings) : normaliseSettings(settings, ctx.version || 6);
    this.eventLog = new EventLog(this.settings.recordEvents);
    this.eventLog.passes = this;
    const si = ctx.syminfo;
    this.mintick = finite(si?.mintick) > 0 ? (si.mintick as number) : 0.01;
    this.symbolPointValue = finite(si?.pointvalue) > 0 ? (si.pointvalue as number) : 1;
    this.pointValue = this.symbolPointValue;
    this.currency = new CurrencyRate(this.settings.currency, ctx);
    this.qtyStep = qtyStepFor(si as Record<string, unknown>);
    this.tickDiv = stepDivisor(this.mintick);
    this.qtyDiv = stepDivisor(this.qtyStep);
    this.qtyFixed = this.settings.defaultQtyType === "fixed";
    this.version = ctx.version || 6;
    // v5 stops with an error past the limit instead of trimming (see enforceTradeLimit)
    this.ledger = new Ledger(
      this.pointValue,
      this.version >= 6 ? this.settings.tradeLimit : this.settings.tradeLimit + 1,
    );
    this.ctx = ctx;
    this.risk = new RiskRules(si?.timezone ?? "Etc/UTC");
    this.tracker = new EquityTracker(this.settings.initialCapital, ctx.barCount);
    if (this.settings.useBarMagnifier) this.magnifier = toMagnifierFeed(ctx.ext?.magnifierBars);
    this.walker = new PathWalker(this);
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

  onBarOpen(ctx: BrokerHost): void {
    this.pass++;
    this.bar = ctx.barIndex;
    this.time = ctx.time;
    this.ctx = ctx;
    this.version = ctx.version || this.version;
    this.fillsSinceRecalc = 0;
    if (this.currency.converting) {
      this.currency.onBar(ctx.timeClose);
      this.pointValue = this.symbolPointValue * this.currency.rate;
      this.ledger.pointValue = this.pointValue;
    }
    if (this.risk.usesDays()) this.risk.onBar(ctx, this);
    // The Runtime may attach the magnifier's bars after creating the broker.
    if (this.settings.useBarMagnifier && this.magnifier === null && ctx.ext?.magnifierBars)
      this.magnifier = toMagnifierFeed(ctx.ext.magnifierBars);
    const mag = this.magnifier;
    const walker = this.walker;
    if (mag === null) {
      // Flat with no order pending (walker.flatBar): the path and the margin check have nothing to
      // do; exits of trades a margin call closed after the last prune still go.
      walker.setBar(ctx.open, ctx.high, ctx.low, ctx.close);
      if (walker.flatBar()) {
        if (this.book.exits.length !== 0) this.pruneExits();
        this.enforceTradeLimit(ctx);
        return;
      }
    } else {
      const end = ctx.timeClose === ctx.timeClose && ctx.timeClose > ctx.time ? ctx.timeClose : Infinity;
      let i = seekTime(mag, ctx.time, this.magCursor);
      if (i < mag.length && mag.time[i] < end) {
        let first = true;
        for (; i < mag.length && mag.time[i] < end; i++) {
          walker.setBar(mag.open[i], mag.high[i], mag.low[i], mag.close[i]);
          walker.walkBar(first);
          first = false;
        }
        this.magCursor = i;
        this.afterPath(ctx);
        return;
      }
      this.magCursor = i;
    }
    // (without a magnifier, flatBar was asked above)
    if (mag !== null) walker.setBar(ctx.open, ctx.high, ctx.low, ctx.close);
    // A bar on which nothing filled and no price could bring a margin call (the walk's quiet bar):
    // the worst price's margin check and the trade limit (nothing closed) have nothing to do.
    if (walker.walkBar(true, mag === null)) {
      if (this.ledger.version !== this.prunedAt) this.pruneExits();
      return;
    }
    this.afterPath(ctx);
  }

  /**
   * Past the trade limit a v6 strategy trims its oldest trades (the ledger's ring); a v5 one stops
   * with a runtime error (migration guide, "Excess orders are trimmed": v5 "raises a runtime error and
   * halts any further calculations").
   */
  private enforceTradeLimit(ctx: BrokerHost): void {
    if (this.version >= 6) return;
    const limit = this.settings.tradeLimit;
    if (this.ledger.closed.total > limit) {
      ctx.runtimeError(
        `The strategy closed more than ${limit} trades, the limit of Pine Script v5 strategies (v6 trims the oldest trades instead)`,
      );
    }
  }

  /**
   * calc_on_every_tick on a realtime bar: the Runtime calls onBarOpen with the bar's first tick (open
   * = high = low = close) and this for every later tick. The price moves from the previous tick to
   * this one (through a new high or low first, in path order); orders the script placed on earlier
   * ticks are live, market ones filling at this tick's price. Nothing here is rolled back: fills
   * are events, like TradingView's realtime fills.
   */
  onTick(ctx: BrokerHost): void {
    this.bar = ctx.barIndex;
    this.time = ctx.time;
    this.ctx = ctx;
    this.tickMode = true;
    this.pass++;
    this.walker.tick(ctx.open, ctx.high, ctx.low, ctx.close);
    this.afterPath(ctx); // exits of closed trades go; margin call at the bar's worst price so far
  }

  /** Starts a realtime bar of a calc_on_every_tick strategy (see onTick). */
  beginTicks(): void {
    this.tickMode = true;
  }

  onBarClose(ctx: BrokerHost): void {
    this.tickMode = false;
    this.bar = ctx.barIndex;
    this.time = ctx.time;
    this.lastClose = ctx.close;
    if (this.settings.processOrdersOnClose) this.walker.fillAtClose(ctx.close);
    this.risk.onClose(ctx, this);
    // (false only where a host asked: settings given whole without the field keep tracking)
    if (this.settings.trackEquity !== false) this.tracker.bar(this, ctx);
    this.enforceTradeLimit(ctx);
  }

  /** The StrategyResult; open trades are valued at the close of the last bar that ran. */
  finish(_ctx: BrokerHost): StrategyResult {
    return buildResult(this, this.lastClose);
  }

  // ------------------------------------------------------------------ order API (strategy.*)

  /** Whether the bar is before the backtest start, where order calls are not placed (settings.backtestStart*). */
  private beforeStart(ctx: BrokerHost): boolean {
    return ctx.time < this.settings.backtestStartTime || ctx.barIndex < this.settings.backtestStartBar;
  }

  entry(req: EntryRequest, ctx: BrokerHost, kind: "entry" | "order" = "entry"): void {
    if (this.beforeStart(ctx)) return;
    const side: Side = req.direction === "short" ? -1 : 1;
    // Without an explicit qty the default size is worked out now, from the equity and price at this
    // bar's close (what TradingView's EURUSD exports show).
    const given = finite(req.qty);
    const qty = given > 0 ? given : this.defaultQty(ctx.close);
    // (rounded only when moved: the request's memo holds its last prices, raw and rounded)
    const rawLimit = finite(req.limit);
    const rawStop = finite(req.stop);
    const tick = side > 0 ? this.mintick : -this.mintick;
    // (the memory of this place: the request's own for a site's first call, per level in a loop)
    // (this call's index among the request's calls in the pass, CallParts, counted here rather than
    // through a call: written out, it leaves entry's inlining budget to the calls below)
    let m: EntryMemo = req;
    if (req.partPass !== this.pass) {
      req.partPass = this.pass;
      req.partAt = 0;
    } else {
      const at = (req.partAt = (req.partAt as number) + 1);
      if (at <= MAX_PARTS) m = entryPart(req, at);
    }
    let limit: number;
    let stop: number;
    if (m.memoTick === tick) {
      if (sameOrNaN(rawLimit, m.memoRawLimit as number)) limit = m.memoLimit as number;
      else {
        limit = this.roundPrice(rawLimit, side, false);
        m.memoRawLimit = rawLimit;
        m.memoLimit = limit;
      }
      if (sameOrNaN(rawStop, m.memoRawStop as number)) stop = m.memoStop as number;
      else {
        stop = this.roundPrice(rawStop, side, true);
        m.memoRawStop = rawStop;
        m.memoStop = stop;
      }
    } else {
      limit = this.roundPrice(rawLimit, side, false);
      stop = this.roundPrice(rawStop, side, true);
      m.memoTick = tick;
      m.memoRawLimit = rawLimit;
      m.memoLimit = limit;
      m.memoRawStop = rawStop;
      m.memoStop = stop;
    }
    const ocaName = req.ocaName ?? null;
    const comment = req.comment ?? null;
    // (the log's numbers through the site's fields, as in exit: no boxed double whether V8 inlines it)
    const site = req.site ?? this.anySite;
    site.qty = qty;
    site.limit = limit;
    site.stop = stop;
    const meta =
      kind === "entry"
        ? side > 0
          ? ENTRY_LONG_META
          : ENTRY_SHORT_META
        : side > 0
          ? ORDER_LONG_META
          : ORDER_SHORT_META;
    this.eventLog.logSite(ctx, site, meta, req.id, ocaName, comment);
    if (given <= 0 || !this.risk.allowsOrders()) return;
    // Pyramiding is checked when strategy.entry is called, against the trades open then: with as many
    // open entries on its side as pyramiding allows (one for 0 or 1) the call places nothing (an order
    // of that id already pending stays as it is). An entry placed while flat or against the position
    // is not checked again at its fill, so it can fill on top of a same-side position opened meanwhile
    // (PineForge order-dual-stop-both-touch-priority trade 35, order-opposite-entry-close-same-pass
    // trade 12). (written out, as the call count above)
    if (
      kind === "entry" &&
      this.ledger.open.length !== 0 &&
      this.ledger.open[0].side === side &&
      this.ledger.open.length >= Math.max(1, this.settings.pyramiding)
    )
      return;
    const seq = this.book.nextSeq();
    const ocaType = req.ocaType ?? "none";
    const alertMessage = req.alertMessage ?? null;
    const disableAlert = req.disableAlert === true;
    const intrabar = this.inRecalc || this.tickMode;
    // The short path: the place re-places the order it placed last, still pending under the id, with
    // the same kind, direction, oca and texts: every other field is already this call's, so only the
    // numbers that moved are stored (a breakout's stop entry at the channel high, a grid's limits).
    const p = m.placed;
    let o: PendingOrder;
    let requeued: PendingOrder | null;
    if (
      p != null &&
      p.kind === kind &&
      p.side === side &&
      p.ocaName === ocaName &&
      p.ocaType === ocaType &&
      p.comment === comment &&
      p.alertMessage === alertMessage &&
      p.disableAlert === disableAlert &&
      this.placeAgain(p, req.id, seq, site, ctx.barIndex, intrabar)
    ) {
      o = requeued = p;
    } else {
      // a re-placed id replaces its pending order: the same record, rewritten, goes to the back
      requeued = this.book.requeueEntryLike(req.id, seq, p ?? null);
      const wasMarket = requeued !== null && requeued.market;
      // (a re-placed order's levels as they were: the walk's extremes stay unless they moved)
      const wasStop = requeued !== null ? requeued.stop : NaN;
      const wasLimit = requeued !== null ? requeued.limit : NaN;
      const wasSide = requeued !== null ? requeued.side : 0;
      o = requeued ?? this.book.takeOrder();
      writeOrder(
        o,
        kind,
        req.id,
        side,
        qty,
        NaN,
        limit,
        stop,
        ocaName,
        ocaType,
        comment,
        alertMessage,
        disableAlert,
        seq,
        ctx.barIndex,
        intrabar,
      );
      if (requeued !== null) {
        this.book.rewritten(o, wasMarket);
        if (
          o.market !== wasMarket ||
          o.side !== wasSide ||
          !sameOrNaN(o.stop, wasStop) ||
          !sameOrNaN(o.limit, wasLimit)
        )
          this.book.levelGen++;
      }
    }
    if (kind === "entry") {
      // the position this entry will meet: the one held, as the market orders placed before it on
      // this bar leave it (a requeued record is the book's last: not one of them); without a market
      // order pending, the one held (positionAfterPendingMarket out of line: entry's inlining budget)
      if (this.book.market === 0) {
        // (the open trades are all on the position's side: only a position the other way is summed)
        if (this.ledger.side() === -side) {
          const pos = this.ledger.positionSize();
          if (pos * side < 0 && Math.abs(pos) > 1e-12) o.reverse = Math.abs(pos);
        }
      } else
        this.reverseAfterPendingMarket(o, requeued === null ? this.book.orders.length : this.book.orders.length - 1);
    }
    if (requeued === null) this.book.addEntryLike(o);
    // (the site's next call finds its order without a lookup: OrderBook.requeueEntryLike)
    if (m.placed !== o) m.placed = o;
  }

  /**
   * Broker.entry's short path: pending order `p`, re-placed by the call that placed it with the same
   * kind, id, direction, oca and texts, still pending under `id` (false otherwise: nothing done),
   * takes seq where it stands (OrderBook.requeueHeld) and what writeOrder would write, only what
   * differs stored: qtyPercent (NaN) and openedBefore (Infinity) never change on an entry-like order.
   * The call's qty, limit and stop come through its log site's fields (no double crosses the call:
   * one passed to a call V8 does not inline is boxed).
   */
  private placeAgain(
    p: PendingOrder,
    id: string,
    seq: number,
    site: LogSite,
    placedBar: number,
    intrabar: boolean,
  ): boolean {
    if (!this.book.requeueHeld(p, id, seq)) return false;
    const qty = site.qty;
    const limit = site.limit;
    const stop = site.stop;
    if (!sameNumber(p.qty, qty)) p.qty = qty;
    if (p.reverse !== 0) p.reverse = 0;
    const movedLimit = !sameNumber(p.limit, limit);
    const movedStop = !sameNumber(p.stop, stop);
    if (movedLimit || movedStop) {
      if (movedLimit) p.limit = limit;
      if (movedStop) p.stop = stop;
      const market = limit !== limit && stop !== stop;
      if (p.market !== market) {
        p.market = market;
        this.book.market += market ? 1 : -1;
      }
      // (the walk's level extremes are worked out again)
      this.book.levelGen++;
    }
    if (p.stopTriggered) p.stopTriggered = false;
    p.placedBar = placedBar;
    if (p.intrabar !== intrabar) p.intrabar = intrabar;
    return true;
  }

  exit(req: ExitRequest, ctx: BrokerHost): void {
    if (this.beforeStart(ctx)) return;
    const dir = this.ledger.side();
    const fromEntry = req.fromEntry ? req.fromEntry : null;
    // (converted once for the log and the level check)
    const limit = finite(req.limit);
    const stop = finite(req.stop);
    // (the log's numbers through the site's fields: V8 may not inline logSite here, see EventLog.call)
    const site = req.site ?? this.anySite;
    site.qty = finite(req.qty);
    site.limit = limit;
    site.stop = stop;
    this.eventLog.logSite(
      ctx,
      site,
      dir > 0 ? EXIT_META.long : dir < 0 ? EXIT_META.short : EXIT_META.flat,
      req.id,
      req.ocaName ?? null,
      req.comment ?? null,
    );
    if (limit !== limit && stop !== stop && !exitHasLevel(req)) return;
    // without from_entry an exit binds to the position open now (0 when flat)
    const bindSide = fromEntry === null ? dir : 0;
    // (the memory of this place: the request's own for the site's first call of the pass, per level
    // in a loop: CallParts, counted here rather than through a call, which took exit's inlining budget)
    let m: ExitMemo = req;
    if (req.partPass !== this.pass) {
      req.partPass = this.pass;
      req.partAt = 0;
    } else m = this.laterExitMemo(req);
    // The short path: the place re-places the exit it wrote last, still pending under the same id
    // and from_entry, and the site varies no argument but those and the limit and stop (`varying`):
    // every other field is already the request's, so this is relevelExit's result with only the
    // levels compared (a stop moved on every bar, a grid's take-profits).
    const e = m.placed;
    if (
      e != null &&
      e.src === req &&
      ((req.varying ?? EXIT_ARG_ALL) & ~EXIT_ARG_LEVELS_ONLY) === 0 &&
      this.book.holdsExit(e) &&
      e.id === req.id &&
      e.fromEntry === fromEntry
    ) {
      // (sameNumber written out: called past exit's inlining budget, it boxed both doubles)
      const el = e.limit;
      if (!(el === limit ? el !== 0 || 1 / el === 1 / limit : el !== el && limit !== limit)) {
        e.limit = limit;
        e.lvStale |= LV_TP;
        this.book.levelGen++;
      }
      const es = e.stop;
      if (!(es === stop ? es !== 0 || 1 / es === 1 / stop : es !== es && stop !== stop)) {
        e.stop = stop;
        e.lvStale |= LV_SL;
        this.book.levelGen++;
      }
      e.placedBar = ctx.barIndex;
      if (e.bindSide !== bindSide) this.book.levelGen++;
      e.bindSide = bindSide;
      e.intrabar = this.inRecalc || this.tickMode;
      // (an armed exit without a trail has nothing more to do)
      if (!e.armed || e.trailOffset === e.trailOffset) this.settleExit(e, ctx);
      return;
    }
    this.placeExit(req, ctx, fromEntry, bindSide, m);
  }

  /** The memory of a strategy.exit site's call past its first in this pass (CallParts). */
  private laterExitMemo(req: ExitRequest): ExitMemo {
    const at = (req.partAt = (req.partAt as number) + 1);
    return at > MAX_PARTS ? req : exitPart(req, at);
  }

  /** Broker.exit's general path: the exit found (or made) for this place of the pass (memory `m`) and written. */
  private placeExit(
    req: ExitRequest,
    ctx: BrokerHost,
    fromEntry: string | null,
    bindSide: Side | 0,
    m: ExitMemo,
  ): void {
    // A re-issued exit (same id and from_entry) takes the new levels in place and keeps its fills,
    // its place in the queue and whether it found its trades.
    let e = this.book.placedExit(req, fromEntry, m);
    const intrabar = this.inRecalc || this.tickMode;
    if (e === null) {
      e = this.book.takeExit();
      // (a queue place only for a new exit: a re-placed one keeps its own, and only their order counts)
      this.book.addExit(e, m);
      writeExit(e, req, fromEntry, ctx.barIndex, bindSide, intrabar);
    } else {
      // (what levelsReach reads beside the levels relevelExit marks stale: the walk's extremes stay
      // unless one of them moved)
      const qty = e.qty;
      const qtyPercent = e.qtyPercent;
      const trailOffset = e.trailOffset;
      const side = e.bindSide;
      if (!relevelExit(e, req, ctx.barIndex, bindSide, intrabar)) {
        // (re-placed with only numbers moved, relevelExit stored just those; a text changed: written anew)
        writeExit(e, req, fromEntry, ctx.barIndex, bindSide, intrabar);
        this.book.levelGen++;
      } else if (
        e.lvStale !== 0 ||
        e.bindSide !== side ||
        !sameOrNaN(e.qty, qty) ||
        !sameOrNaN(e.qtyPercent, qtyPercent) ||
        !sameOrNaN(e.trailOffset, trailOffset)
      )
        this.book.levelGen++;
    }
    this.settleExit(e, ctx);
  }

  /** A placed or re-placed exit `e` finds its trades, and a trailing one sees the close it is placed at. */
  private settleExit(e: ExitOrder, ctx: BrokerHost): void {
    // An exit placed while its trades are open belongs to them: once they close it goes, even if they
    // close on the next bar's path before it was ever checked (a later entry with the same id does
    // not inherit it: TradingView books no zero-P&L trade at the old levels).
    // (looked for once per change of the trades: a grid's exits wait for their entries' fills)
    const version = this.ledger.version;
    if (!e.armed && (e.unarmedAt !== version || !this.book.hints)) {
      for (let i = 0; i < this.ledger.open.length; i++)
        if (exitCovers(e, this.ledger.open[i])) {
          e.armed = true;
          break;
        }
      if (!e.armed) e.unarmedAt = version;
    }
    // A trailing exit sees the price it is placed at (the bar's close): placed past its activation,
    // it trails from that close, not from the next bar's open (PineForge trailing-activation path;
    // exits placed earlier saw this close at the end of the bar's path already).
    if (e.trailOffset === e.trailOffset && e.armed) {
      this.walker.trailAt = ctx.close;
      this.walker.updateTrails();
    }
  }

  close(req: CloseRequest, ctx: BrokerHost, all = false): void {
    if (this.beforeStart(ctx)) return;
    const id = all ? "" : (req.id ?? "");
    const side = this.ledger.side();
    const open = this.ledger.open;
    let qty = finite(req.qty);
    const pct = finite(req.qtyPercent);
    // qty_percent is a share of the position as it stands when the close is placed, so several
    // closes on one bar (30% + 30% + 40%) stack to the whole position.
    if (qty !== qty && pct === pct) {
      let held = 0;
      for (let i = 0; i < open.length; i++) if (all || open[i].entryId === id) held += open[i].qty;
      if (held > 0) qty = this.roundQty((held * pct) / 100);
    }
    const comment = req.comment ?? null;
    const site = req.site ?? this.anySite;
    site.qty = qty;
    site.limit = NaN;
    site.stop = NaN;
    this.eventLog.logSite(
      ctx,
      site,
      eventMeta(all ? "close_all" : "close", side > 0 ? "short" : side < 0 ? "long" : null),
      all ? null : id,
      null,
      comment,
    );
    // a close of an entry that has not filled yet is ignored (TradingView does not hold it for the fill)
    if (all ? open.length === 0 && !this.book.hasEntryOrOrder() : !this.ledger.hasOpen(id)) return;
    // closes are not replaced: several on one bar stack
    const o = writeOrder(
      this.book.takeOrder(),
      all ? "close_all" : "close",
      id,
      side > 0 ? -1 : 1,
      qty,
      pct,
      NaN,
      NaN,
      null,
      "none",
      comment,
      req.alertMessage ?? null,
      req.disableAlert === true,
      this.book.nextSeq(),
      ctx.barIndex,
      this.inRecalc || this.tickMode,
    );
    // it closes the trades open now, not those opened between now and its fill (a market entry placed
    // before it on this bar fills first at the next open and stays open)
    if (open.length > 0) o.openedBefore = this.ledger.nextTradeSeq;
    if (req.immediately) {
      this.bar = ctx.barIndex;
      this.time = ctx.time;
      this.walker.cur = ctx.close;
      fillClose(this, o, ctx.close);
      this.book.pruneExits(this.ledger.open);
      this.enforceTradeLimit(ctx);
      return;
    }
    this.book.add(o);
  }

  /**
   * The signed position a reversing entry placed now closes on top of its qty: what is held, as the
   * market orders already placed (this bar's; they fill at the next open, before it) will leave it.
   * strategy.close / close_all orders reduce it (close-then-entry on one bar only opens;
   * entry-then-close flattens and opens the full reversal size), and so do market entries: an entry
   * placed while flat right after a market entry the other way is a reversal of that position
   * (PineForge pyramid-deferred-flip-close-all trade 1514). Pending stop and limit orders do not count.
   * `count`: how many of the book's orders (from the front) were placed before it.
   */
  private positionAfterPendingMarket(count: number): number {
    const open = this.ledger.open;
    let pos = this.ledger.positionSize();
    const orders = this.book.orders;
    for (let i = 0; i < count; i++) {
      const o = orders[i];
      // (stop and limit orders do not count; closes are market orders)
      if (!o.market) continue;
      if (o.kind === "close_all") pos = 0;
      else if (o.kind === "close") {
        if (pos === 0) continue;
        let ofId = 0;
        for (let k = 0; k < open.length; k++) if (open[k].entryId === o.id) ofId += open[k].qty;
        const closes =
          o.qty === o.qty
            ? Math.min(o.qty, ofId)
            : o.qtyPercent === o.qtyPercent
              ? this.roundQty((ofId * o.qtyPercent) / 100)
              : ofId;
        const left = Math.max(0, Math.abs(pos) - closes);
        pos = pos > 0 ? left : -left;
      } else if (o.qty === o.qty) {
        if (o.kind === "entry" && pos * o.side < 0) pos = o.side * Math.max(0, o.qty + o.reverse - Math.abs(pos));
        else pos += o.side * o.qty;
      }
    }
    return Math.abs(pos) > 1e-12 ? pos : 0;
  }

  /** Entry `o` reverses the position positionAfterPendingMarket(count) projects when it is the other way. */
  private reverseAfterPendingMarket(o: PendingOrder, count: number): void {
    const projected = this.positionAfterPendingMarket(count);
    if (projected * o.side < 0) o.reverse = Math.abs(projected);
  }

  /** strategy.cancel; `site`: the call site's memory of its last logged call (EventLog.logSite). */
  cancel(id: string, ctx: BrokerHost, site: LogSite = this.anySite): void {
    this.logNoNumbers(ctx, site, CANCEL_META, id);
    this.book.cancel(id);
  }

  cancelAll(ctx: BrokerHost, site: LogSite = this.anySite): void {
    this.logNoNumbers(ctx, site, CANCEL_ALL_META, null);
    this.book.cancelAll();
  }

  /** Logs a call without qty, limit, stop or other strings (a cancel). */
  private logNoNumbers(ctx: BrokerHost, site: LogSite, meta: number, id: string | null): void {
    site.qty = NaN;
    site.limit = NaN;
    site.stop = NaN;
    this.eventLog.logSite(ctx, site, meta, id, null, null);
  }

  /** Cancels every pending order and closes the position now (risk rules). */
  liquidate(price: number, comment: string): void {
    this.book.clear();
    if (this.ledger.open.length === 0) return;
    const side = this.ledger.side() as Side;
    closeTrades(
      this,
      this.ledger.closeList(),
      Infinity,
      slipped(this, price, -side as Side),
      "Close position order",
      comment,
    );
  }

  /** Quantity strategy.entry uses when none is given, for an order filled at `price`. */
  defaultQty(price: number): number {
    if (this.qtyFixed) return this.settings.defaultQtyValue;
    // (the quantity through a field: a double returned by a call V8 does not inline is boxed)
    this.sizeAt(price);
    return this.qtyAt;
  }

  /**
   * defaultQty's cash or percent_of_equity quantity at `price`, into `qtyAt`; a second entry sized
   * on the same bar, at the same price and account, finds it there.
   */
  private sizeAt(price: number): void {
    const version = this.ledger.version;
    if (price === this.qtyAtPrice && version === this.qtyAtVersion && this.pointValue === this.qtyAtPointValue) return;
    const s = this.settings;
    if (!(price > 0)) {
      this.qtyAtPrice = NaN;
      this.qtyAt = NaN;
      return;
    }
    let cash = s.defaultQtyType === "cash" ? s.defaultQtyValue : (this.equity(price) * s.defaultQtyValue) / 100;
    // percent_of_equity with a cash-per-order commission: the order's fee comes out of the slice first
    if (s.defaultQtyType === "percent_of_equity" && s.commissionType === "cash_per_order") cash -= s.commissionValue;
    // Equity valued at `price`; percent commission is paid out of the same cash, so the order value
    // plus its commission fits.
    const commFactor = s.commissionType === "percent" ? 1 + s.commissionValue / 100 : 1;
    this.qtyAt = this.roundQty(cash / (price * this.pointValue * commFactor));
    this.qtyAtPrice = price;
    this.qtyAtVersion = version;
    this.qtyAtPointValue = this.pointValue;
  }

  /** Order prices sit on the tick grid, rounded against the trader (see roundToTick). */
  roundPrice(p: number, side: Side, isStop: boolean): number {
    return roundToTickBy(p, this.mintick, this.tickDiv, isStop ? side > 0 : side < 0);
  }

  roundQty(q: number): number {
    return floorToStepBy(q, this.qtyStep, this.qtyDiv);
  }

  /** Everything a realtime tick may change, to put back with restore() before the next tick. */
  snapshot(): BrokerSnapshot {
    return takeSnapshot(this);
  }

  restore(s: BrokerSnapshot): void {
    restoreSnapshot(this, s);
  }

  /** result.events: one record per order call so far. */
  get events(): StrategyEvent[] {
    return this.eventLog.toArray();
  }

  get pendingOrders(): readonly PendingOrder[] {
    return this.book.orders;
  }
  get pendingExits(): readonly ExitOrder[] {
    return this.book.exits;
  }

  // ------------------------------------------------------------------ fill reports

  /** Called by fills.ts for every order fill: alerts, and calc_on_order_fills bookkeeping. */
  filled(
    id: string,
    side: Side,
    qty: number,
    price: number,
    comment: string | null,
    alertMessage: string | null,
    disableAlert: boolean,
  ): void {
    this.fillsSinceRecalc++;
    const ctx = this.ctx;
    if (disableAlert || this.onFill === null || ctx === null) return;
    // no message to send (no alert_message, no //@strategy_alert_message): nothing to build
    if ((alertMessage === null || alertMessage === "") && typeof ctx.ext.strategyAlertMessage !== "string") return;
    const position = this.ledger.positionSize();
    const action = side > 0 ? "buy" : "sell";
    this.onFill(
      {
        id,
        action,
        qty,
        price,
        comment,
        alertMessage,
        prevPosition: position - side * qty,
        position,
        bar: this.bar,
        time: this.time,
      },
      ctx,
    );
  }

  /**
   * calc_on_order_fills: after the fills at one point of the path, the script runs again on this bar
   * with that point as its close (the Runtime's ctx.ext.fillRecalc rolls the execution back like a
   * realtime tick). Orders it places are live for the rest of the bar.
   */
  afterFills(price: number): void {
    if (!this.settings.calcOnOrderFills || this.fillsSinceRecalc === 0) return;
    this.fillsSinceRecalc = 0;
    const ctx = this.ctx;
    const recalc = ctx?.ext?.fillRecalc as FillRecalc | undefined;
    if (!ctx || typeof recalc?.run !== "function" || this.inRecalc) return;
    if (this.recalcBar !== this.bar) {
      this.recalcBar = this.bar;
      this.recalcsThisBar = 0;
    }
    if (this.recalcsThisBar >= MAX_FILL_EXECUTIONS_PER_BAR) return;
    this.recalcsThisBar++;
    this.inRecalc = true;
    this.pass++;
    try {
      recalc.run(this.walker.high, this.walker.low, price);
    } finally {
      this.inRecalc = false;
      // (the bar's own execution follows: its calls count from the first again)
      this.pass++;
    }
  }

  /**
   * strategy.exit(oca_name): the exit's fill of `filled` contracts reduces the other exits of the
   * group on the trades they cover and the group's strategy.oca.reduce orders (an exit's own legs
   * always form a reduce group).
   */
  exitOca(e: ExitOrder, filled: number): void {
    const name = e.ocaName;
    if (!name) return;
    for (const x of this.book.exits) {
      if (x === e || x.ocaName !== name) continue;
      for (const t of this.ledger.open) if (exitCovers(x, t)) this.ledger.addExitFilled(t, x.id, filled);
    }
    this.book.reduceGroup(name, filled);
  }

  // ------------------------------------------------------------------ exit levels (levels.ts)

  takeProfitLevel(e: ExitOrder, t: OpenTrade): number {
    this.freshLevels(e, t);
    return e.lvTp;
  }

  stopLossLevel(e: ExitOrder, t: OpenTrade): number {
    this.freshLevels(e, t);
    return e.lvSl;
  }

  trailActivation(e: ExitOrder, t: OpenTrade): number {
    this.freshLevels(e, t);
    return e.lvAct;
  }

  /**
   * Brings exit `e`'s cached levels (lvTp, lvSl, lvAct) up to date for trade `t`. The per-bar walk
   * reads the fields after it: a double returned by a call V8 does not inline is boxed.
   */
  freshLevels(e: ExitOrder, t: OpenTrade): void {
    // Levels given only as prices (no profit / loss / trail_points ticks) do not depend on the entry
    // price: every trade on the side reads them as they are (pyramided trades sharing one exit
    // worked all three out again at every trade of every scan).
    if (e.lvSide !== t.side || (e.lvPrice !== t.entryPrice && ticksFromEntry(e))) this.levelsFor(e, t);
    else if (e.lvStale !== 0) this.staleLevels(e, t);
  }

  /** Works out exit `e`'s levels for a trade like `t` (they depend only on its side and, with ticks, entry price). */
  private levelsFor(e: ExitOrder, t: OpenTrade): void {
    writeExitLevels(e, t, this, this.version, LV_TP | LV_SL | LV_ACT);
    e.lvPrice = t.entryPrice;
    e.lvSide = t.side;
    e.lvStale = 0;
  }

  /** Works out again the levels of `e` whose arguments changed since levelsFor (same trade key). */
  private staleLevels(e: ExitOrder, t: OpenTrade): void {
    writeExitLevels(e, t, this, this.version, e.lvStale);
    e.lvStale = 0;
  }

  /** What exit `e` may still close of trade `t` (a no-qty exit takes what its sized siblings leave). */
  exitRemaining(e: ExitOrder, t: OpenTrade): number {
    let reserved = 0;
    if (e.qty !== e.qty && e.qtyPercent !== e.qtyPercent) {
      const exits = this.book.exits;
      for (let i = 0; i < exits.length; i++) {
        const x = exits[i];
        // only sized siblings reserve a slice
        if (x === e || (x.qty !== x.qty && x.qtyPercent !== x.qtyPercent) || !exitCovers(x, t)) continue;
        const slice = exitSlice(x, t, this.qtyStep);
        if (slice === slice) reserved += slice;
      }
    }
    return exitRemaining(e, t, this.qtyStep, reserved);
  }

  commission(qty: number, price: number): number {
    return commission(this, qty, price);
  }

  private afterPath(ctx: BrokerHost): void {
    this.pruneExits();
    this.risk.checkedPrice = RiskRules.worstPrice(ctx, this.ledger.side());
    this.risk.checkMarginAt(this);
    this.enforceTradeLimit(ctx);
  }

  /**
   * Exits whose trades are gone go (OrderBook.pruneExits). A prune leaves every exit that covers an
   * open trade armed and no other armed, and an exit placed while trades are open is armed at once
   * when it covers one (Broker.exit): so until a trade opens or closes (the ledger's version) a
   * prune finds nothing to do. A number field: snapshots restore it with the version.
   */
  private pruneExits(): void {
    const v = this.ledger.version;
    if (v === this.prunedAt && this.walker.fastPath) return;
    this.book.pruneExits(this.ledger.open);
    this.prunedAt = v;
    // (the orders filled and trades closed on the path are done with: they serve new ones from here
    // on; here, as the trades changed, not on every bar: a call more in onBarOpen boxed a price there)
    this.book.recycle();
    this.ledger.recycle();
  }

  /** Margin-call liquidation of `qty` at `price` (called by the risk module). */
  marginCall(qty: number, price: number): void {
    const side = this.ledger.side();
    if (side === 0) return;
    closeTrades(this, this.ledger.closeList(), qty, price, "Margin call", "Margin call");
  }
}
