// The intrabar path walk: the price moves open -> nearer extreme -> other extreme -> close (or along
// the magnifier's lower-timeframe bars), and every pending order or exit level it reaches fills, the
// first reached first, ties in placement order. Gaps fill at the point itself (the open).
//
// calc_on_order_fills: after the fills at one point of the path the broker runs the script again
// (Broker.afterFills); orders placed by that execution are live for the rest of the path, market
// ones filling at the next vertex (TradingView: "on the next tick at one of the bar's OHLC values").

import type { Broker } from "./broker.js";
import { exitCovers } from "./book.js";
import { fillExit, fillOrder, slipped } from "./fills.js";
import { highFirst } from "./path.js";
import { FILLED_ORDERS_CAP } from "./risk.js";
import type { ExitOrder, OpenTrade, PendingOrder, Side } from "./types.js";

const NONE = 0;
const ORDER = 1;
const EXIT = 2;
type Leg = "tp" | "sl" | "trail";

/** quietRange's answers: something may fill; nothing fills; nothing fills and no margin call either. */
const NOT_QUIET = 0;
const QUIET = 1;
const CLEAR = 2;

/**
 * Open trades from which an exit with from_entry reads its span (PathWalker.coverRange) instead of
 * testing each trade: below, the span's own checks cost about what the tests save.
 */
const SPAN_FROM = 3;

export class PathWalker {
  /** The price the walk is at. */
  cur = NaN;
  /** The highest and lowest prices of the chart bar walked so far (a calc_on_order_fills execution's high/low). */
  high = NaN;
  low = NaN;
  // The best fill candidate of a scan (fields instead of an object: no allocation per scan).
  private bKind = NONE;
  private bOrder: PendingOrder | null = null;
  private bExit: ExitOrder | null = null;
  private bTrade: OpenTrade | null = null;
  private bLeg: Leg = "tp";
  private bLevel = NaN;
  private bSeq = 0;
  /** Off: every bar takes the full walk (tests check the fast path against it). */
  fastPath = true;
  /** levelsReach's extremes: the lowest level filled by a rising price, the highest filled by a falling one. */
  private upMin = Infinity;
  private downMax = -Infinity;
  /**
   * levelsReach's extremes without the prices that only move a trail (an active trail's extreme, a
   * trail's activation price), and what the trails need instead (trailsStay): per side, the
   * smallest distance (trail_offset in price) of an active trail, of a trail not active yet, and the
   * activation price nearest the market (a long's lowest, a short's highest). Set only when some
   * trailing exit covers an open trade (`trails`).
   */
  private trails = false;
  /** The book's levelGen and the ledger's (version, epoch) levelsReach last worked the extremes out at (-1: none). */
  private reachGen = -1;
  /** The extremes are clearLevels' (no level): levelsReach alone sets them otherwise. */
  private noLevels = false;
  private reachVer = -1;
  private reachEpoch = -1;
  private upStay = Infinity;
  private downStay = -Infinity;
  private gapLong = Infinity;
  private gapShort = Infinity;
  private gapLongIdle = Infinity;
  private gapShortIdle = Infinity;
  private actLong = Infinity;
  private actShort = -Infinity;

  /** calc_on_order_fills: run the script after fills; calc_on_every_tick too: track the bar's range so far. */
  private readonly recalc: boolean;
  private readonly trackRange: boolean;

  constructor(private readonly b: Broker) {
    this.recalc = b.settings.calcOnOrderFills;
    this.trackRange = this.recalc || b.settings.calcOnEveryTick;
  }

  /**
   * The bar (or magnifier sub-bar) flatBar and walkBar walk, set by the caller (setBar). Fields, not
   * arguments: a double passed to a function V8 does not inline (walkBar is too big) is boxed, a
   * heap number per argument per bar.
   */
  private barO = NaN;
  private barH = NaN;
  private barL = NaN;
  private barC = NaN;

  setBar(o: number, h: number, l: number, c: number): void {
    this.barO = o;
    this.barH = h;
    this.barL = l;
    this.barC = c;
  }

  /**
   * One bar (or magnifier sub-bar: setBar's) of the path; `first` is the chart bar's opening point.
   * `flatChecked`: the caller asked flatBar already (and it said no). The common bar on which nothing
   * can fill (quietRange) takes a few compares here; walkOpen, out of line, walks the others. No
   * price read here crosses a call V8 may not inline: the walk's steps act at `cur` and read the bar
   * from the fields (a double passed to such a call is boxed, and V8 boxes it where all its boxed
   * uses meet, which was before the quiet bar's return: a heap number on every bar). True when the
   * bar was quiet and its range clear of the margin line (quietRange's CLEAR): no margin check is
   * left for the caller.
   */
  walkBar(first: boolean, flatChecked = false): boolean {
    if (this.barO !== this.barO) return false;
    // The common bar in a position with nothing pending (no order, no exit): quietRange's CLEAR
    // case (no level, the range inside the margin line's safe interval, no range to track) in a
    // few compares, ahead of the rest (which made the walk's bar in a position cost more than its
    // work: the chain below ran to it through flatBar, the level extremes and quietRange).
    const b = this.b;
    const book = b.book;
    const ledger = b.ledger;
    if (
      first &&
      book.exits.length === 0 &&
      book.orders.length === 0 &&
      book.market === 0 &&
      ledger.open.length !== 0 &&
      this.fastPath &&
      !this.trackRange
    ) {
      const risk = b.risk;
      const o = this.barO;
      const h = this.barH;
      const l = this.barL;
      const c = this.barC;
      const pLo = Math.min(h, l, c);
      const pHi = Math.max(h, l, c);
      if (!risk.capPending && risk.lineCurrent(b) && Math.min(o, pLo) > risk.safeLo && Math.max(o, pHi) < risk.safeHi) {
        // (what reachLevels leaves for an empty book, for the walk's other paths)
        if (!this.noLevels) this.clearLevels();
        this.cur = c;
        ledger.touchRange(pLo, pHi);
        return true;
      }
    }
    if (first && !flatChecked && this.flatBar()) return false;
    // The per-side extremes of the pending levels (levelsReach) say when nothing can fill at the
    // open or on the segments after it. calc_on_order_fills executions run only after a fill and may
    // place orders anywhere: walkOpen works the extremes out again after the open's.
    const fast = this.fastPath;
    // no market order pending (stop and limit orders may be): nothing fills at the open but what
    // the extremes hold
    const calm = fast && !this.marketPending();
    if (calm) {
      this.reachLevels();
      if (first) {
        const q = this.quietRange();
        if (q !== NOT_QUIET) return q === CLEAR;
      }
    }
    this.walkOpen(first, fast, calm);
    return false;
  }

  /**
   * The chart bar's path from its open when nothing can fill on it: the bar's whole range strictly
   * between the level extremes (calm: no market order pending, the extremes worked out). What the
   * walk does there (the open's margin check, the price to the close, the trades' best and worst
   * prices), and QUIET; CLEAR when no price of the range can bring a margin call either (no check
   * made); NOT_QUIET (nothing done) otherwise.
   */
  private quietRange(): number {
    const b = this.b;
    const o = this.barO;
    const h = this.barH;
    const l = this.barL;
    const c = this.barC;
    if (b.risk.capPending || !(h === h && l === l && c === c)) return NOT_QUIET;
    const lo = Math.min(o, h, l, c);
    const hi = Math.max(o, h, l, c);
    if (!(hi < this.upMin && lo > this.downMax)) return NOT_QUIET;
    // No price of the bar can bring a margin call either (the open's check and the worst price's
    // after the path, at prices inside the range): the price to the close and the trades' best and
    // worst prices are all that is left.
    const risk = b.risk;
    if (this.trackRange) {
      this.high = o;
      this.low = o;
    }
    if (b.ledger.open.length === 0 || (risk.lineCurrent(b) && lo > risk.safeLo && hi < risk.safeHi)) {
      this.quietPath();
      return CLEAR;
    }
    // (calc_on_order_fills too: a margin call runs no execution, no Broker.filled reports it)
    this.cur = o;
    b.risk.checkedPrice = o;
    b.risk.checkMarginAt(b);
    // (a margin call's fill may reach the filled-order cap: the position closes on the path)
    if (b.risk.capPending) this.segments();
    else this.quietPath();
    return QUIET;
  }

  /** levelsReach, but without a call for a book with no order and no exit over an open trade (no level). */
  private reachLevels(): void {
    const b = this.b;
    if (b.book.orders.length === 0 && (b.book.exits.length === 0 || b.ledger.open.length === 0)) {
      if (!this.noLevels) this.clearLevels();
    } else this.levelsReach();
  }

  /** No level: the extremes every price is strictly between. */
  private clearLevels(): void {
    this.upMin = Infinity;
    this.downMax = -Infinity;
    this.trails = false;
    this.reachGen = -1;
    this.noLevels = true;
  }

  /**
   * walkBar's bar when something may fill: the open's fills (market orders, gaps past a level), its
   * margin check, then the segments unless the range proves them quiet. `calm`: no market order is
   * pending, and the level extremes were worked out for the bar already.
   */
  private walkOpen(first: boolean, fast: boolean, calm: boolean): void {
    const o = this.barO;
    const h = this.barH;
    const l = this.barL;
    const c = this.barC;
    const b = this.b;
    // The open itself is not "touched": a trade exiting at the open saw only its fill price, and
    // for the others the bar's high and low bracket it anyway.
    this.cur = o;
    if (first) {
      this.high = o;
      this.low = o;
    } else this.reach(o);
    // The open strictly between the extremes: no market order to fill, no trail to move or
    // activate, nothing that fills at the open.
    let quiet = calm && o < this.upMin && o > this.downMax;
    if (!quiet) {
      this.trailAt = o;
      this.updateTrails();
      if (first) this.fillMarketOrders(false);
      else this.fillIntrabarMarket();
      // (no market order pending: nothing filled just now, and the open lies past the extremes
      // already: a gap past a level, or a trail it moved)
      if (fast && !calm) this.levelsReach();
      if (!(fast && o < this.upMin && o > this.downMax)) {
        this.fillTriggeredAt();
        // fills at the open change the trades and so the exit levels that apply
        if (fast) this.levelsReach();
      }
      quiet = fast;
    }
    this.capCheck();
    if (first) {
      b.risk.checkedPrice = o;
      b.risk.checkMarginAt(b);
    }
    if (this.recalc) {
      this.recalcAt();
      // An execution there may have placed orders: a market one fills at the next vertex, the
      // others move the extremes (worked out again only when the book or the trades changed).
      if (quiet) {
        if (this.marketPending()) quiet = false;
        else this.levelsReach();
      }
    }
    // (a liquidation at the open only removes levels: the extremes still cover what is left)
    if (quiet && !b.risk.capPending && h === h && l === l && c === c) {
      const lo = Math.min(o, h, l, c);
      const hi = Math.max(o, h, l, c);
      if (hi < this.upMin && lo > this.downMax) {
        // Nothing pending can fill between the open and the close: the three segments would only
        // move the price (moveTo with no fill: the range so far and the trades' best/worst prices,
        // both extremes of what the segments reach, in whatever order).
        this.quietPath();
        return;
      }
      // (out of line: walkOpen keeps its size for strategies without a trailing exit)
      if (this.trails && this.trailsOnly()) return;
    }
    this.segments();
  }

  /** Whether a market order is pending (fills at the open or the next path point): the book counts them. */
  private marketPending(): boolean {
    return this.b.book.market !== 0;
  }

  /** The bar's path after the open (setBar's bar): the nearer extreme, the other, the close. */
  private segments(): void {
    const o = this.barO;
    const h = this.barH;
    const l = this.barL;
    const hf = highFirst(o, h, l, this.b.mintick);
    this.moveAt = hf ? h : l;
    this.moveTo(true);
    this.moveAt = hf ? l : h;
    this.moveTo(true);
    this.moveAt = this.barC;
    this.moveTo(false);
  }

  /** Where moveTo takes the price. */
  private moveAt = Number.NaN;
  /** The segment (or point) scan looks at. */
  private scanFrom = Number.NaN;
  private scanTo = Number.NaN;

  /** calc_on_order_fills: the script runs again after fills at the walk's price. */
  private recalcAt(): void {
    this.b.afterFills(this.cur);
  }

  /**
   * A bar on which only trails would move (levelsReach's extremes leave out what only moves them):
   * when none fills on the path (trailsStay), each moves to where the path's points take it and
   * the price to the close; true then. One that activates takes the points in path order across
   * all trails (updateTrails at each), as the walk does: a trade's first trail to activate gets its
   * own fields (setTrailExtreme).
   */
  private trailsOnly(): boolean {
    const o = this.barO;
    const h = this.barH;
    const l = this.barL;
    const c = this.barC;
    const lo = Math.min(o, h, l, c);
    const hi = Math.max(o, h, l, c);
    const hf = highFirst(o, h, l, this.b.mintick);
    const p1 = hf ? h : l;
    const p2 = hf ? l : h;
    if (!(hi < this.upStay && lo > this.downStay)) return false;
    // (the path's points in fields for trailsStay and moveTrails: no double crosses a call)
    this.pathP1 = p1;
    this.pathP2 = p2;
    if (!this.trailsStay(hi >= this.actLong, lo <= this.actShort)) return false;
    if (hi >= this.actLong || lo <= this.actShort) {
      this.trailAt = p1;
      this.updateTrails();
      this.trailAt = p2;
      this.updateTrails();
      this.trailAt = c;
      this.updateTrails();
    } else this.moveTrails();
    this.quietPath();
    return true;
  }

  /** The bar's first and second points after the open (trailsOnly's, for trailsStay and moveTrails). */
  private pathP1 = Number.NaN;
  private pathP2 = Number.NaN;

  /**
   * The rest of a bar's path after the open when nothing fills on it: the price moves to the close
   * (moveTo with no fill: the range so far and the trades' best/worst prices, both extremes of what
   * the segments reach, in whatever order).
   */
  private quietPath(): void {
    // (the bar from the fields: a double passed to a call V8 does not inline is a new heap number)
    const h = this.barH;
    const l = this.barL;
    const c = this.barC;
    this.cur = c;
    const pLo = Math.min(h, l, c);
    const pHi = Math.max(h, l, c);
    this.reach(pLo);
    this.reach(pHi);
    this.b.ledger.touchRange(pLo, pHi);
  }

  /**
   * Whether no trailing exit can fill on the path from the open `o` through `p1`, `p2` to the close
   * `c` (the bar's open and close, pathP1 and pathP2; `actsLong`: the path's high reaches actLong,
   * `actsShort`: its low reaches actShort). A long's trail fills only on a falling segment, where the
   * price falls to its level: its extreme minus its offset `d` (scan's expression), the extreme
   * being the highest point the walk passed since the trail activated (updateTrails at each
   * point). So a segment's end above both (extreme before the bar) - d (in downStay already) and
   * (highest point before it, from the open on) - d fills nothing: a double minus a fixed d rounds
   * monotonically, so the level is at most the larger of the two. The smallest d of all long trails
   * makes the test for every one. A trail not active yet activates only at a point at or past its
   * activation price (hi >= actLong for a long); from there its extreme is a point of the path, so
   * the same test with its offset covers it (with offset 0 it fills on activation: a point above
   * the highest before it minus 0 is a new high, never a fall). Shorts the mirror way. A flat
   * segment (equal ends) fills nothing; the test counts it as a fall (a test that may say "no"
   * more often than needed, never "yes" wrongly).
   */
  private trailsStay(actsLong: boolean, actsShort: boolean): boolean {
    const o = this.barO;
    const p1 = this.pathP1;
    const p2 = this.pathP2;
    const c = this.barC;
    const gl = actsLong ? Math.min(this.gapLong, this.gapLongIdle) : this.gapLong;
    const gs = actsShort ? Math.min(this.gapShort, this.gapShortIdle) : this.gapShort;
    const hi1 = Math.max(o, p1);
    const lo1 = Math.min(o, p1);
    return (
      p1 > o - gl &&
      p2 > hi1 - gl &&
      c > Math.max(hi1, p2) - gl &&
      p1 < o + gs &&
      p2 < lo1 + gs &&
      c < Math.min(lo1, p2) + gs
    );
  }

  /**
   * Every active trail to where updateTrails at the path's points after the open (pathP1, pathP2
   * and the close, in path order) would take it, in one pass over the exits and trades (none
   * activates: the caller knows the points stay short of every activation price).
   */
  private moveTrails(): void {
    const p1 = this.pathP1;
    const p2 = this.pathP2;
    const p3 = this.barC;
    const b = this.b;
    const exits = b.book.exits;
    const open = b.ledger.open;
    for (let i = 0; i < exits.length; i++) {
      const e = exits[i];
      if (e.trailOffset !== e.trailOffset) continue;
      for (let j = 0; j < open.length; j++) {
        const t = open[j];
        if (!exitCovers(e, t)) continue;
        const ex = trailExtreme(t, e.id);
        if (ex !== ex) continue;
        // the first point past the extreme, then each past that (updateTrails' strict compare)
        let to = ex;
        if (t.side > 0) {
          if (p1 > to) to = p1;
          if (p2 > to) to = p2;
          if (p3 > to) to = p3;
        } else {
          if (p1 < to) to = p1;
          if (p2 < to) to = p2;
          if (p3 < to) to = p3;
        }
        if (to === ex) continue;
        // (setTrailExtreme's common case written here: no double crosses a call)
        if (t.trailId === e.id) t.trailExtreme = to;
        else setTrailExtreme(t, e.id, to);
      }
    }
  }

  /**
   * A chart bar's path (setBar's, from its opening point) while flat with no order pending (exits
   * wait for trades, of which there are none): nothing can fill, no trade to mark, no margin to
   * check; the walk would only move the price to the close, which this does. False (nothing done)
   * otherwise.
   */
  flatBar(): boolean {
    const o = this.barO;
    const h = this.barH;
    const l = this.barL;
    const c = this.barC;
    const b = this.b;
    if (
      !this.fastPath ||
      b.ledger.open.length !== 0 ||
      b.book.orders.length !== 0 ||
      b.risk.capPending ||
      o !== o ||
      h !== h ||
      l !== l ||
      c !== c
    )
      return false;
    this.cur = c;
    if (this.trackRange) {
      this.high = Math.max(o, h, l, c);
      this.low = Math.min(o, h, l, c);
    }
    return true;
  }

  /**
   * One realtime tick of a calc_on_every_tick bar: the bar so far is (open, high, low, close); the
   * price goes from where it was to a new extreme first (open -> nearer extreme -> other extreme ->
   * close), then to the tick's price. Market orders from earlier ticks fill at the tick's price.
   */
  tick(open: number, high: number, low: number, close: number): void {
    if (close !== close) return;
    const b = this.b;
    const hf = highFirst(open, high, low, b.mintick);
    const first = hf ? high : low;
    const second = hf ? low : high;
    if (hf ? first > this.high : first < this.low) {
      this.moveAt = first;
      this.moveTo(false);
    }
    if (hf ? second < this.low : second > this.high) {
      this.moveAt = second;
      this.moveTo(false);
    }
    this.moveAt = close;
    this.moveTo(false);
    // (the walk is at the close now)
    this.fillIntrabarMarket();
    this.fillTriggeredAt();
  }

  /** Fills market orders (entries, orders, closes) in the order they were placed, at the walk's price. */
  private fillMarketOrders(atClose: boolean): void {
    const b = this.b;
    const price = this.cur;
    for (let guard = 0; guard < 10_000; guard++) {
      let next: PendingOrder | null = null;
      const orders = b.book.orders;
      for (let i = 0; i < orders.length; i++) {
        const o = orders[i];
        if (!o.market) continue;
        if (!atClose && o.placedBar >= b.bar) continue;
        if (next === null || o.seq < next.seq) next = o;
      }
      if (next === null || b.risk.capPending) return;
      this.fillMarket(next, price);
    }
  }

  /**
   * max_intraday_filled_orders reached by a fill on the path: nothing else fills, and the position
   * closes at the next point of the path, the one the walk is at now (the open when the capping fill
   * was there; PineForge composite-bracket-cap exports).
   */
  private capCheck(): void {
    const b = this.b;
    if (!b.risk.capPending) return;
    b.risk.capPending = false;
    b.liquidate(this.cur, FILLED_ORDERS_CAP);
  }

  /**
   * process_orders_on_close: the close's market orders, then whatever the close reaches. A close
   * strictly between the level extremes reaches nothing (levelsReach costs less than scan's
   * remaining quantities and level reads per exit and trade).
   */
  fillAtClose(price: number): void {
    this.cur = price;
    this.fillMarketOrders(true);
    if (this.fastPath) {
      this.levelsReach();
      if (price < this.upMin && price > this.downMax) return;
    }
    this.fillTriggeredAt();
  }

  /** Market orders placed by a calc_on_order_fills execution earlier in this bar fill at the next vertex (the walk's price). */
  private fillIntrabarMarket(): void {
    const b = this.b;
    if (!this.trackRange) return;
    const price = this.cur;
    for (let guard = 0; guard < 10_000; guard++) {
      let next: PendingOrder | null = null;
      const orders = b.book.orders;
      for (let i = 0; i < orders.length; i++) {
        const o = orders[i];
        if (!o.market || !o.intrabar || o.placedBar !== b.bar) continue;
        if (next === null || o.seq < next.seq) next = o;
      }
      if (next === null) return;
      this.fillMarket(next, price);
    }
  }

  private fillMarket(o: PendingOrder, price: number): void {
    const b = this.b;
    // Close orders take their slippage from the position they find when they fill.
    const isClose = o.kind === "close" || o.kind === "close_all";
    fillOrder(b, o, isClose ? price : slipped(b, price, o.side));
    b.book.pruneExits(b.ledger.open);
  }

  /** Fills orders already triggered at the walk's price (gaps at the open, exits of a fresh trade). */
  private fillTriggeredAt(): void {
    const price = this.cur;
    for (let guard = 0; guard < 10_000; guard++) {
      if (this.b.risk.capPending) return;
      this.scanFrom = price;
      this.scanTo = price;
      this.scan(true);
      if (this.bKind === NONE) return;
      this.fillBest(true);
    }
  }

  /**
   * Moves the price along one monotonic segment, to `moveAt` (set by the caller: a field, not an
   * argument, so no double crosses the call), filling whatever it reaches first. `vertex`: the
   * segment ends on an intrabar point (a high or low) where a calc_on_order_fills execution's market
   * orders fill; the close is not one (the bar's own execution follows it).
   */
  moveTo(vertex: boolean): void {
    const to = this.moveAt;
    if (to !== to) return;
    const b = this.b;
    for (let guard = 0; guard < 10_000; guard++) {
      const from = this.cur;
      // Nothing to reach on the way (levelsCurrent's extremes: a rising segment fills only a
      // level that fills on the way up, at or below its end; a falling one the mirror way).
      if (this.levelsCurrent() && (to > from ? to < this.upMin : to > this.downMax)) break;
      this.scanFrom = from;
      this.scanTo = to;
      this.scan(false);
      if (this.bKind === NONE) break;
      this.cur = this.bLevel;
      this.reach(this.cur);
      b.ledger.touch(this.bLevel);
      this.fillBest(false);
      this.fillTriggeredAt();
      if (this.recalc) b.afterFills(this.cur);
      if (b.risk.capPending) break;
    }
    this.cur = to;
    this.reach(to);
    b.ledger.touch(to);
    this.capCheck();
    this.trailAt = to;
    this.updateTrails();
    if (this.recalc) {
      if (b.book.market !== 0) this.fillIntrabarMarket();
      // (a point strictly between the extremes triggers nothing: scan's test at a point)
      if (!(this.levelsCurrent() && to < this.upMin && to > this.downMax)) this.fillTriggeredAt();
      if (vertex) b.afterFills(to);
    }
  }

  /**
   * Whether levelsReach's extremes hold for the book and trades as they are now (worked out again
   * here when either changed). No with trails (every call works them out again: as costly as the
   * scan they would spare) or with the fast paths off (tests).
   */
  private levelsCurrent(): boolean {
    if (!this.fastPath || this.trails) return false;
    this.levelsReach();
    return !this.trails;
  }

  /**
   * The per-side extremes of every level that may fill: `upMin`, the lowest level that fills when
   * the price rises to it (buy stops, sell limits, a short's stop-loss, a long's take-profit), and
   * `downMax`, the highest that fills when the price falls to it. Nothing fills at a point p when
   * downMax < p < upMin (scan's test at a point), nor on a path inside [lo, hi] when downMax < lo and
   * hi < upMin (a segment's test needs a level between its ends). A superset of what scan
   * considers: every non-market order with both its levels, exits with their levels where they
   * have a quantity left to close of the trade (scan's test), trailing exits with the prices that
   * would move their trail (see below). The `*Stay` fields and gaps are trailsStay's.
   */
  private levelsReach(): void {
    const b = this.b;
    // Nothing levelsReach reads changed since its last call (no order or exit placed, moved or
    // dropped, no trade opened or closed): the extremes stand. Trails move them with the price.
    const gen = b.book.levelGen;
    const ver = b.ledger.version;
    const epoch = b.ledger.epoch;
    if (!this.trails && gen === this.reachGen && ver === this.reachVer && epoch === this.reachEpoch) return;
    this.noLevels = false;
    this.reachGen = gen;
    this.reachVer = ver;
    this.reachEpoch = epoch;
    const limitAdj = b.settings.backtestFillLimitsAssumption * b.mintick;
    let up = Infinity;
    let down = -Infinity;
    let gapLong = Infinity;
    let gapShort = Infinity;
    let gapLongIdle = Infinity;
    let gapShortIdle = Infinity;
    let actLong = Infinity;
    let actShort = -Infinity;
    let trails = false;
    const orders = b.book.orders;
    for (let i = 0; i < orders.length; i++) {
      const x = orders[i];
      if (x.market) continue;
      // a stop fills on the order's side (a buy stop when the price rises), a limit on the other
      const st = x.stop;
      if (st === st) {
        if (x.side > 0) {
          if (st < up) up = st;
        } else if (st > down) down = st;
      }
      if (x.limit === x.limit) {
        const lp = x.limit - x.side * limitAdj;
        if (x.side > 0) {
          if (lp > down) down = lp;
        } else if (lp < up) up = lp;
      }
    }
    // (the trails' ahead prices go only into up/down: upStay/downStay are the rest)
    let upStay = up;
    let downStay = down;
    const exits = b.book.exits;
    const open = b.ledger.open;
    if (exits.length !== 0 && open.length !== 0) {
      const mt = b.mintick;
      for (let i = 0; i < exits.length; i++) {
        const e = exits[i];
        const trailing = e.trailOffset === e.trailOffset;
        let j = 0;
        let end = open.length;
        if (e.fromEntry !== null && end > SPAN_FROM) {
          this.coverRange(e);
          j = e.coverLo;
          end = e.coverHi;
        }
        for (; j < end; j++) {
          const t = open[j];
          if (!exitCovers(e, t)) continue;
          // An exit with nothing left to close of the trade (scan passes it by: a position's exit
          // without from_entry that filled once for a pyramided trade closed an older one first)
          // fills nothing, though its trail still moves. (Asked only of a trade some exit closed
          // part of: with none, counting the exit in is only a wider bound.)
          const live = t.exitFilled === null || this.exitLeft(e, t);
          if (!live && !trailing) continue;
          b.freshLevels(e, t);
          const tp = live ? e.lvTp + t.side * limitAdj : NaN;
          const sl = live ? e.lvSl : NaN;
          // a long's take-profit fills on the way up and its stop-loss on the way down; a short's the other way
          if (t.side > 0) {
            if (tp < up) up = tp;
            if (sl > down) down = sl;
            if (tp < upStay) upStay = tp;
            if (sl > downStay) downStay = sl;
          } else {
            if (tp > down) down = tp;
            if (sl < up) up = sl;
            if (tp > downStay) downStay = tp;
            if (sl < upStay) upStay = sl;
          }
          if (!trailing) continue;
          trails = true;
          // A trail changes only at prices past its activation (not active yet: there it activates,
          // and with offset 0 fills) or past its extreme (active: the extreme moves); an active one
          // fills on its way back to the level behind the extreme (scan's expression).
          const ex = trailExtreme(t, e.id);
          let ahead: number;
          let behind = NaN;
          if (ex !== ex) ahead = e.lvAct;
          else {
            ahead = ex;
            if (live) behind = ex - t.side * e.trailOffset * mt;
          }
          // (a spent one: no level behind, no offset to fill by; it still moves and activates)
          const gap = live ? e.trailOffset * mt : Infinity;
          if (t.side > 0) {
            if (ahead < up) up = ahead;
            if (behind > down) down = behind;
            if (behind > downStay) downStay = behind;
            if (ex === ex) {
              if (gap < gapLong) gapLong = gap;
            } else if (ahead === ahead) {
              if (ahead < actLong) actLong = ahead;
              if (gap < gapLongIdle) gapLongIdle = gap;
            }
          } else {
            if (ahead > down) down = ahead;
            if (behind < up) up = behind;
            if (behind < upStay) upStay = behind;
            if (ex === ex) {
              if (gap < gapShort) gapShort = gap;
            } else if (ahead === ahead) {
              if (ahead > actShort) actShort = ahead;
              if (gap < gapShortIdle) gapShortIdle = gap;
            }
          }
        }
      }
    }
    this.upMin = up;
    this.downMax = down;
    this.trails = trails;
    if (!trails) return;
    this.upStay = upStay;
    this.downStay = downStay;
    this.gapLong = gapLong;
    this.gapShort = gapShort;
    this.gapLongIdle = gapLongIdle;
    this.gapShortIdle = gapShortIdle;
    this.actLong = actLong;
    this.actShort = actShort;
  }

  /**
   * Sets exit `e`'s coverLo / coverHi (it has a from_entry) to the span of the open trades that hold
   * every trade it covers, looked for once per state of the trades (the ledger's version and epoch)
   * and from_entry: a grid's exits over its pyramided trades were each tested against every trade on
   * every bar. The callers still test each trade of the span. With the book's hints off (tests), the
   * whole list.
   */
  private coverRange(e: ExitOrder): void {
    const b = this.b;
    const l = b.ledger;
    const open = l.open;
    if (!b.book.hints) {
      e.coverLo = 0;
      e.coverHi = open.length;
      e.coverAt = -1;
      return;
    }
    if (e.coverAt === l.version && e.coverEpoch === l.epoch && e.coverOf === e.fromEntry) return;
    let lo = 0;
    let hi = 0;
    for (let j = 0; j < open.length; j++) {
      if (!exitCovers(e, open[j])) continue;
      if (hi === 0) lo = j;
      hi = j + 1;
    }
    e.coverLo = lo;
    e.coverHi = hi;
    e.coverAt = l.version;
    e.coverEpoch = l.epoch;
    e.coverOf = e.fromEntry;
  }

  private reach(p: number): void {
    if (!this.trackRange) return;
    if (p > this.high) this.high = p;
    if (p < this.low) this.low = p;
  }

  /**
   * Finds the order the price reaches first: at `scanFrom` itself when `atPoint`, else strictly
   * after `scanFrom` and up to `scanTo` (fields the caller sets: no double crosses the call). Ties go
   * to the order placed first.
   */
  private scan(atPoint: boolean): void {
    const from = this.scanFrom;
    const to = this.scanTo;
    this.bKind = NONE;
    const b = this.b;
    const up = to > from;
    const mt = b.mintick;
    const poc = b.settings.processOrdersOnClose;
    const limitAdj = b.settings.backtestFillLimitsAssumption * mt;
    const orders = b.book.orders;
    for (let i = 0; i < orders.length; i++) {
      const o = orders[i];
      if (o.market || (o.placedBar >= b.bar && !poc && !o.intrabar)) continue;
      if (o.stop === o.stop && !o.stopTriggered) {
        this.cLevel = o.stop;
        this.consider(ORDER, o, null, null, "sl", o.side, up, atPoint, o.seq);
      } else if (o.limit === o.limit) {
        this.cLevel = o.limit - o.side * limitAdj;
        this.consider(ORDER, o, null, null, "tp", -o.side, up, atPoint, o.seq);
      }
    }
    const exits = b.book.exits;
    const open = b.ledger.open;
    if (exits.length === 0 || open.length === 0) return;
    for (let i = 0; i < exits.length; i++) {
      const e = exits[i];
      if (e.placedBar >= b.bar && !poc && !e.intrabar) continue;
      let j = 0;
      let end = open.length;
      if (e.fromEntry !== null && end > SPAN_FROM) {
        this.coverRange(e);
        j = e.coverLo;
        end = e.coverHi;
      }
      for (; j < end; j++) {
        const t = open[j];
        if (!exitCovers(e, t)) continue;
        if (!this.exitLeft(e, t)) continue;
        const s = t.side;
        // (the cached levels read after freshLevels: a double returned by a call V8 does not inline is boxed)
        b.freshLevels(e, t);
        const tp = e.lvTp;
        if (tp === tp) {
          this.cLevel = tp + s * limitAdj;
          this.consider(EXIT, null, e, t, "tp", s, up, atPoint, e.seq);
        }
        const sl = e.lvSl;
        if (sl === sl) {
          this.cLevel = sl;
          this.consider(EXIT, null, e, t, "sl", -s as Side, up, atPoint, e.seq);
        }
        // only an exit with a trail offset has a trailing level (without one it would be na)
        if (e.trailOffset !== e.trailOffset) continue;
        const ex = trailExtreme(t, e.id);
        if (ex === ex) {
          this.cLevel = ex - s * e.trailOffset * mt;
          this.consider(EXIT, null, e, t, "trail", -s as Side, up, atPoint, e.seq);
        } else if (e.trailOffset === 0) {
          // offset 0: the stop is born on the activation price the moment the price reaches it
          this.cLevel = e.lvAct;
          this.consider(EXIT, null, e, t, "trail", s, up, atPoint, e.seq);
        }
      }
    }
  }

  /**
   * Whether exit `e` has a quantity left to close of trade `t` (Broker.exitRemaining > 0). A call of
   * its own: V8 inlines exitRemaining here, where the double it returns stays unboxed (scan, past
   * its inlining budget, boxed one per exit and trade it looked at).
   */
  private exitLeft(e: ExitOrder, t: OpenTrade): boolean {
    return this.b.exitRemaining(e, t) > 0;
  }

  /** The level consider weighs, set by scan: a field, not an argument (see consider). */
  private cLevel = Number.NaN;

  /**
   * `dir` +1: triggers when price rises to the level `cLevel`; -1: when it falls to it. The scan's
   * segment is scanFrom to scanTo. Its doubles are fields: V8 does not inline this into scan, and a
   * double passed to such a call is a new heap number (three a call, ~1.5 MB a 50k-bar run of a
   * trailing exit strategy).
   */
  private consider(
    kind: number,
    o: PendingOrder | null,
    e: ExitOrder | null,
    t: OpenTrade | null,
    leg: Leg,
    dir: number,
    up: boolean,
    atPoint: boolean,
    seq: number,
  ): void {
    const level = this.cLevel;
    if (level !== level) return;
    const from = this.scanFrom;
    const to = this.scanTo;
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
      const better = atPoint
        ? seq < this.bSeq
        : up
          ? at < this.bLevel || (at === this.bLevel && seq < this.bSeq)
          : at > this.bLevel || (at === this.bLevel && seq < this.bSeq);
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

  /** Fills scan's best candidate at the walk's price (`cur`: read here, no double crosses the call). */
  private fillBest(atPoint: boolean): void {
    const b = this.b;
    const price = this.cur;
    if (this.bKind === ORDER) {
      const o = this.bOrder as PendingOrder;
      if (o.stop === o.stop && !o.stopTriggered) {
        if (o.limit === o.limit) {
          o.stopTriggered = true; // stop-limit: from now on a limit order
          return;
        }
        fillOrder(b, o, slipped(b, price, o.side));
      } else {
        // A limit fills at its price, or better when the price gapped through it.
        const lp = atPoint ? price : o.limit;
        fillOrder(b, o, lp);
      }
    } else if (this.bKind === EXIT) {
      const e = this.bExit as ExitOrder;
      const t = this.bTrade as OpenTrade;
      const exitSide = -t.side as Side;
      let p = price;
      if (this.bLeg === "tp") {
        b.freshLevels(e, t);
        p = atPoint ? price : e.lvTp;
      } else p = slipped(b, price, exitSide);
      fillExit(b, e, t, this.bLeg, p);
    }
    b.book.pruneExits(b.ledger.open);
  }

  /**
   * The price updateTrails moves the trails to, set by its caller: a field, not an argument (a
   * double passed to a call V8 does not inline is a new heap number, on every bar a trailing exit
   * is re-placed and at every point of the path).
   */
  trailAt = Number.NaN;

  /** Activates or moves every trail that covers an open trade to the price `trailAt`. */
  updateTrails(): void {
    const price = this.trailAt;
    const b = this.b;
    const exits = b.book.exits;
    if (exits.length === 0) return;
    const open = b.ledger.open;
    // (indexed loops: a for-of iterator V8 does not optimise away is an object a call, and this
    // runs at every point of a bar's path)
    for (let i = 0; i < exits.length; i++) {
      const e = exits[i];
      if (e.trailOffset !== e.trailOffset) continue;
      for (let j = 0; j < open.length; j++) {
        const t = open[j];
        if (!exitCovers(e, t)) continue;
        const ex = trailExtreme(t, e.id);
        if (ex !== ex) {
          b.freshLevels(e, t);
          const act = e.lvAct;
          if (act === act && (t.side > 0 ? price >= act : price <= act)) this.trailTo(t, e.id);
        } else if (t.side > 0 ? price > ex : price < ex) this.trailTo(t, e.id);
      }
    }
  }

  /** setTrailExtreme at `trailAt`, its common case (the trade's first trail) written here: no double crosses a call. */
  private trailTo(t: OpenTrade, id: string): void {
    if (t.trailId === null || t.trailId === id) {
      t.trailId = id;
      t.trailExtreme = this.trailAt;
    } else setTrailExtreme(t, id, this.trailAt);
  }
}

/**
 * The extreme of trade `t`'s trail for exit `id` since it activated; NaN while it has not (a price
 * the path reaches is never NaN). Small enough for V8 to inline: a double returned by a call is boxed.
 */
export function trailExtreme(t: OpenTrade, id: string): number {
  if (t.trailId === id) return t.trailExtreme;
  if (t.trail === null) return NaN;
  const st = t.trail.get(id);
  return st === undefined ? NaN : st.extreme;
}

/** Activates or moves trade `t`'s trail for exit `id` to `price` (its first trail in the trade's fields). */
export function setTrailExtreme(t: OpenTrade, id: string, price: number): void {
  if (t.trailId === null || t.trailId === id) {
    t.trailId = id;
    t.trailExtreme = price;
    return;
  }
  const m = t.trail ?? new Map<string, { extreme: number }>();
  t.trail = m;
  const st = m.get(id);
  if (st === undefined) m.set(id, { extreme: price });
  else st.extreme = price;
}
