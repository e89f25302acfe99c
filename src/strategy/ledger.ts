// The account book: open trades, closed trade rows and the running totals the strategy.*
// variables read. It knows nothing of orders; the broker decides what fills, the ledger books it.

import type { Trade } from "../core/result.js";
import { objectArray, removeItem, truncate } from "../core/shapes.js";
import * as CT from "./closed-trades.js";
import type { OpenTrade, Side } from "./types.js";

/** Closed trades kept for reuse (Ledger.recycle). */
const SPARE_TRADES = 4;

let epochs = 0;

/** A ledger epoch no ledger had (Ledger.epoch). */
export function newEpoch(): number {
  return ++epochs;
}

export class Ledger {
  // (arrays created in the object elements kind: see core/shapes.ts)
  readonly open: OpenTrade[] = objectArray();
  /** The visible closed trades (the oldest are trimmed past the limit); the totals below cover all. */
  readonly closed: CT.ClosedTrades;
  netProfit = 0;
  grossProfit = 0;
  grossLoss = 0;
  commissionPaid = 0;
  winTrades = 0;
  lossTrades = 0;
  evenTrades = 0;
  maxContractsLong = 0;
  maxContractsShort = 0;
  maxContractsAll = 0;
  // Running figures over every closed trade, trimmed ones included, summed in closing order.
  largestWin = 0;
  largestLoss = 0;
  barsInTrades = 0;
  sumPercent = 0;
  sumPercentWin = 0;
  sumPercentLoss = 0;
  /** Fill price of the first entry of the run (buy & hold); NaN before it. */
  firstEntryPrice = NaN;
  /**
   * Counts the changes to the open trades and the net profit (a trade opened or closed, whole or in
   * part): figures derived from them (the margin check's price line) are kept until it moves. A
   * number field, so broker snapshots restore it together with the trades.
   */
  version = 0;
  /**
   * The ledger's epoch: a new one when made and when a snapshot is restored (which takes `version`
   * back, so a version seen before the restore may name other trades after it): (version, epoch)
   * names one state of the open trades.
   */
  epoch = newEpoch();
  private seq = 0;
  private readonly closing: OpenTrade[] = objectArray();
  /**
   * Trades closed whole, for the next ones opened (openTrade writes every field): a trade was ~300
   * bytes of garbage (each double field a heap number). A closed trade waits in `closedWhole` until
   * the next bar opens (`recycle`), as the fill that closed it may still read it; nothing reads it
   * after (snapshots clone the open trades). Up to SPARE_TRADES kept.
   */
  private readonly closedWhole: OpenTrade[] = objectArray();
  private readonly spareTrades: OpenTrade[] = objectArray();

  /** A bar opens: the trades closed before it may be reused. */
  recycle(): void {
    const c = this.closedWhole;
    while (c.length !== 0 && this.spareTrades.length < SPARE_TRADES) this.spareTrades.push(c.pop() as OpenTrade);
    if (c.length !== 0) truncate(c, 0);
  }

  /**
   * Account currency per point (the broker updates it when the account currency is converted). A
   * number at its declaration: a field declared bare (a constructor parameter property) starts as
   * undefined, and V8 then keeps it tagged, a heap number behind every read and write.
   */
  pointValue = Number.NaN;

  /** `tradeLimit`: how many closed trades stay visible. */
  constructor(pointValue: number, tradeLimit = CT.TRADE_LIMIT) {
    this.pointValue = pointValue;
    this.closed = new CT.ClosedTrades(tradeLimit);
  }

  // (the per-bar readers below index the list: inlined into a compiled loop, for-of left an array
  // iterator allocated per call, 1.6 MB a 100k-bar run for one plot of strategy.openprofit)
  positionSize(): number {
    this.positionSizeFigure();
    return this.figure;
  }

  /**
   * The open trades (of entry `entryId` when given), or just `only`, copied into one reused list: a
   * fill walks it while closePart removes closed trades from `open`. Valid until the next call.
   */
  closeList(entryId: string | null = null, only: OpenTrade | null = null, openedBefore = Infinity): OpenTrade[] {
    const list = this.closing;
    // (written by index and cut with pop: length 0 would drop the backing store, and the next list
    // would allocate one again, and the length setter is a runtime call; an empty list is NO_TRADES)
    let n = 0;
    if (only !== null) list[n++] = only;
    else
      for (let i = 0; i < this.open.length; i++) {
        const t = this.open[i];
        if ((entryId === null || t.entryId === entryId) && t.seq < openedBefore) list[n++] = t;
      }
    if (n === 0) return NO_TRADES;
    truncate(list, n);
    return list;
  }

  /** The seq the next trade opened will get: trades with a lower seq are open or closed already. */
  get nextTradeSeq(): number {
    return this.seq;
  }

  /** Whether a trade entered by order `entryId` is open. */
  hasOpen(entryId: string): boolean {
    for (let i = 0; i < this.open.length; i++) if (this.open[i].entryId === entryId) return true;
    return false;
  }

  side(): Side | 0 {
    return this.open.length === 0 ? 0 : this.open[0].side;
  }

  avgPrice(): number {
    this.avgPriceFigure();
    return this.figure;
  }

  /**
   * Unrealised profit of the open trades at `price`. Entry commissions are paid when the entry
   * fills, so they already count against it (TradingView's open P&L, equity and sizing agree).
   */
  openProfit(price: number): number {
    const open = this.open;
    let p = 0;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      p += (price - t.entryPrice) * t.side * t.qty * this.pointValue - t.commission;
    }
    return p;
  }

  /** Entry commissions of the open trades (paid, not yet part of a closed trade). */
  openCommission(): number {
    this.openCommissionFigure();
    return this.figure;
  }

  /**
   * The readers above for a caller whose inlining budget may be spent (a compiled script's loop
   * reading strategy.* figures every bar): each leaves its figure in `figure` instead of returning
   * it, and takes the price from the host, so no double crosses a call V8 does not inline (a double
   * passed or returned there is boxed: 1.6 MB a 100k-bar run each). Each holds its own loop: a
   * wrapper around the returning reader, once inlined itself, left that call with the box. Read
   * `figure` right after.
   */
  figure = Number.NaN;
  /** positionSizeFigure's last sum and the version and epoch it was made at (-1: none). Number fields. */
  private position = 0;
  private positionAt = -1;
  private positionEpoch = -1;
  /** openProfit(host.close), its expression in its order. */
  openProfitAtClose(host: { readonly close: number }): void {
    const open = this.open;
    const price = host.close;
    let p = 0;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      p += (price - t.entryPrice) * t.side * t.qty * this.pointValue - t.commission;
    }
    this.figure = p;
  }
  openCommissionFigure(): void {
    const open = this.open;
    let c = 0;
    for (let i = 0; i < open.length; i++) c += open[i].commission;
    this.figure = c;
  }
  /**
   * The position (sum over the open trades, in their order) into `figure`. It changes only with the
   * trades, so the last sum is kept with the (version, epoch) it was made at: a script reading
   * strategy.position_size in a loop over its grid, or an entry checking for a reversal, sums once
   * per change of the trades, not per read.
   */
  positionSizeFigure(): void {
    if (this.version === this.positionAt && this.epoch === this.positionEpoch) {
      this.figure = this.position;
      return;
    }
    const open = this.open;
    let s = 0;
    for (let i = 0; i < open.length; i++) s += open[i].side * open[i].qty;
    this.position = s;
    this.positionAt = this.version;
    this.positionEpoch = this.epoch;
    this.figure = s;
  }
  avgPriceFigure(): void {
    const open = this.open;
    let q = 0;
    let v = 0;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      q += t.qty;
      v += t.qty * t.entryPrice;
    }
    this.figure = q > 0 ? v / q : NaN;
  }

  openTrade(
    entryId: string,
    comment: string | null,
    side: Side,
    qty: number,
    price: number,
    commission: number,
    bar: number,
    time: number,
  ): OpenTrade {
    const spare = this.spareTrades.pop();
    const t: OpenTrade =
      spare === undefined
        ? {
            entryId,
            entryComment: comment,
            entryBar: bar,
            entryTime: time,
            entryPrice: price,
            side,
            qty,
            initialQty: qty,
            commission,
            bestPrice: price,
            worstPrice: price,
            exitFilled: null,
            trailId: null,
            trailExtreme: Number.NaN,
            trail: null,
            seq: this.seq,
          }
        : spare;
    if (spare !== undefined) {
      // (the literal's fields, in its order)
      t.entryId = entryId;
      t.entryComment = comment;
      t.entryBar = bar;
      t.entryTime = time;
      t.entryPrice = price;
      t.side = side;
      t.qty = qty;
      t.initialQty = qty;
      t.commission = commission;
      t.bestPrice = price;
      t.worstPrice = price;
      t.exitFilled = null;
      t.trailId = null;
      t.trailExtreme = Number.NaN;
      t.trail = null;
      t.seq = this.seq;
    }
    this.seq++;
    this.open.push(t);
    this.version++;
    // (stores on every open: branches taken once or twice a run, on its first trades, have no type
    // feedback in code optimised in an earlier run, which then deoptimises there)
    const first = this.firstEntryPrice;
    this.firstEntryPrice = first === first ? first : price;
    this.commissionPaid += commission;
    const size = Math.abs(this.positionSize());
    this.maxContractsAll = above(size, this.maxContractsAll);
    if (side > 0) this.maxContractsLong = above(size, this.maxContractsLong);
    else this.maxContractsShort = above(size, this.maxContractsShort);
    return t;
  }

  /** Records that price traded at `price` while the trades were open (run-up / drawdown). */
  touch(price: number): void {
    const open = this.open;
    for (let i = 0; i < open.length; i++) this.touchTrade(open[i], price);
  }

  /** touch() with every price of [lo, hi] (lo <= hi): the trades' best and worst prices see its ends. */
  touchRange(lo: number, hi: number): void {
    const open = this.open;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      if (t.side > 0) {
        if (hi > t.bestPrice) t.bestPrice = hi;
        if (lo < t.worstPrice) t.worstPrice = lo;
      } else {
        if (lo < t.bestPrice) t.bestPrice = lo;
        if (hi > t.worstPrice) t.worstPrice = hi;
      }
    }
  }

  private touchTrade(t: OpenTrade, price: number): void {
    if (t.side > 0) {
      if (price > t.bestPrice) t.bestPrice = price;
      if (price < t.worstPrice) t.worstPrice = price;
    } else {
      if (price < t.bestPrice) t.bestPrice = price;
      if (price > t.worstPrice) t.worstPrice = price;
    }
  }

  /**
   * Closes `qty` of open trade `t` at `price`, charging `exitCommission` for that part; books one
   * closed trade (a row of the closed list's columns). Removes the trade once nothing of it remains.
   */
  closePart(
    t: OpenTrade,
    qty: number,
    price: number,
    exitCommission: number,
    exitId: string | null,
    exitComment: string | null,
    bar: number,
    time: number,
  ): void {
    const q = Math.min(qty, t.qty);
    this.version++;
    // The exit fill (slippage included) is the last price the trade saw.
    this.touchTrade(t, price);
    const frac = t.qty > 0 ? q / t.qty : 1;
    const entryComm = t.commission * frac;
    t.commission -= entryComm;
    const pv = this.pointValue;
    const gross = (price - t.entryPrice) * t.side * q * pv;
    const commission = entryComm + exitCommission;
    const profit = gross - commission;
    const entryValue = t.entryPrice * q * pv;
    // Profit percent is measured against what the entry cost, its commission included (TradingView's
    // avg_trade_percent family averages exactly these).
    const entryCost = entryValue + entryComm;
    // Run-up and drawdown are measured net of the entry commission already paid.
    const runUp = Math.max(0, (t.bestPrice - t.entryPrice) * t.side * q * pv - entryComm);
    const drawdown = Math.min(0, (t.worstPrice - t.entryPrice) * t.side * q * pv - entryComm);
    this.commissionPaid += exitCommission;
    this.netProfit += profit;
    if (profit > 0) {
      this.grossProfit += profit;
      this.winTrades++;
    } else if (profit < 0) {
      this.grossLoss -= profit;
      this.lossTrades++;
    } else this.evenTrades++;
    // the row goes into the closed list's columns (closed-trades.ts): no object, no heap numbers
    const closed = this.closed;
    const slot = closed.add();
    const n = closed.nums;
    const b = slot * CT.NUM_COLS;
    const strs = closed.strs;
    const c = slot * CT.STR_COLS;
    strs[c + CT.S_ENTRY_ID] = t.entryId;
    strs[c + CT.S_ENTRY_COMMENT] = t.entryComment;
    strs[c + CT.S_EXIT_ID] = exitId;
    strs[c + CT.S_EXIT_COMMENT] = exitComment;
    const profitPercent = entryCost !== 0 ? (profit / entryCost) * 100 : 0;
    n[b + CT.C_ENTRY_BAR] = t.entryBar;
    n[b + CT.C_ENTRY_TIME] = t.entryTime;
    n[b + CT.C_ENTRY_PRICE] = t.entryPrice;
    n[b + CT.C_EXIT_BAR] = bar;
    n[b + CT.C_EXIT_TIME] = time;
    n[b + CT.C_EXIT_PRICE] = price;
    n[b + CT.C_SIDE] = t.side;
    n[b + CT.C_QTY] = q;
    n[b + CT.C_PROFIT] = profit;
    n[b + CT.C_PROFIT_PERCENT] = profitPercent;
    n[b + CT.C_RUN_UP] = runUp;
    n[b + CT.C_RUN_UP_PERCENT] = entryValue !== 0 ? (runUp / entryValue) * 100 : 0;
    n[b + CT.C_DRAWDOWN] = drawdown;
    n[b + CT.C_DRAWDOWN_PERCENT] = entryValue !== 0 ? (drawdown / entryValue) * 100 : 0;
    n[b + CT.C_COMMISSION] = commission;
    this.tally(profit, profitPercent, bar - t.entryBar);
    t.qty -= q;
    if (t.qty <= 1e-12 * Math.max(1, q)) {
      t.qty = 0;
      this.remove(t);
    }
    // Cumulative P&L is the account's realised result: the entry commissions of trades still open
    // were paid already.
    n[b + CT.C_CUM_PROFIT] = this.netProfit - this.openCommission();
  }

  /** Takes `t` out of the open trades, the others keeping their order. */
  private remove(t: OpenTrade): void {
    if (removeItem(this.open, t) && this.closedWhole.length < SPARE_TRADES) this.closedWhole.push(t);
  }

  /**
   * Books `qty` more closed of open trade `t` by exit `exitId` (what exitRemaining subtracts). A
   * trade closed whole is never read again: it gets no map (most trades close whole).
   */
  addExitFilled(t: OpenTrade, exitId: string, qty: number): void {
    if (t.qty === 0) return;
    const m = t.exitFilled ?? new Map<string, number>();
    t.exitFilled = m;
    m.set(exitId, (m.get(exitId) ?? 0) + qty);
  }

  /**
   * Adds a closed trade's profit `p`, profit percent `pct` and bars held to the running figures
   * (win/loss counts and sums are booked in closePart).
   */
  private tally(p: number, pct: number, bars: number): void {
    if (p > this.largestWin) this.largestWin = p;
    if (p < this.largestLoss) this.largestLoss = p;
    this.barsInTrades += bars;
    this.sumPercent += pct;
    if (p > 0) this.sumPercentWin += pct;
    else if (p < 0) this.sumPercentLoss += pct;
  }

  /** A row for a trade that is still open, valued at `price` (TradingView's "Open" rows). */
  openRow(t: OpenTrade, price: number, num: number): Trade {
    const pv = this.pointValue;
    const q = t.qty;
    const entryValue = t.entryPrice * q * pv;
    const profit = (price - t.entryPrice) * t.side * q * pv - t.commission;
    const entryCost = entryValue + t.commission;
    const runUp = Math.max(0, (t.bestPrice - t.entryPrice) * t.side * q * pv - t.commission);
    const drawdown = Math.min(0, (t.worstPrice - t.entryPrice) * t.side * q * pv - t.commission);
    return {
      trade_num: num,
      entry_id: t.entryId,
      entry_bar_index: t.entryBar,
      entry_time: t.entryTime,
      entry_price: t.entryPrice,
      entry_comment: t.entryComment,
      exit_id: null,
      exit_bar_index: null,
      exit_time: null,
      exit_price: null,
      exit_comment: null,
      direction: t.side > 0 ? "long" : "short",
      qty: q,
      profit,
      profit_percent: entryCost !== 0 ? (profit / entryCost) * 100 : 0,
      cum_profit: this.netProfit - this.openCommission() + profit + t.commission,
      run_up: runUp,
      run_up_percent: entryValue !== 0 ? (runUp / entryValue) * 100 : 0,
      drawdown,
      drawdown_percent: entryValue !== 0 ? (drawdown / entryValue) * 100 : 0,
      commission: t.commission,
    };
  }
}

/** closeList's empty list (never written). */
const NO_TRADES: OpenTrade[] = objectArray();

/** `x` when it is above `max`, else `max` (not Math.max: a NaN `x` leaves `max` as it is). */
function above(x: number, max: number): number {
  // biome-ignore lint/complexity/useMathMinMax: NaN keeps the running maximum, as the comparison did
  return x > max ? x : max;
}
