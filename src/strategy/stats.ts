// Equity curve, drawdown / run-up and the Strategy Tester's performance summary.

import type { BrokerHost } from "./host.js";
import type { StrategyResult, StrategyStats, Trade } from "../core/result.js";
import { hiddenProperty, lazyProperty } from "../core/lazy.js";
import type { Broker } from "./broker.js";
import type { ClosedTrades, ClosedTradesReader } from "./closed-trades.js";
import { type CurveView, curveValues, EquityCurve } from "./equity-curve.js";
import { spareCurveSpans, spareCurveValues, spareTradeColumns } from "./spare-stores.js";

/**
 * Per-bar equity and the running max drawdown / run-up, as TradingView measures them (checked
 * against its strategy.max_drawdown / max_runup plots): the excursions are taken between the
 * "booked" equity (initial capital + net profit - entry commissions already paid) and the open
 * position valued at the bar's low and high. Drawdown falls from the highest booked equity so far,
 * run-up rises from the lowest; the percentages divide each excursion by its higher end (the peak
 * it fell from, the top it reached) and keep their own maxima.
 */
export class EquityTracker {
  /** Equity at each bar's close (flat stretches as repeats: equity-curve.ts). */
  readonly curve: EquityCurve;
  /** The curve's daily and monthly returns (the Sharpe and Sortino ratios), split as the bars come. */
  readonly periods = new Periods();
  // (number fields get a number at their declaration: a field declared bare starts as undefined, so
  // V8 keeps it tagged, and a double stored to or read from it goes through a heap number)
  peakEquity = Number.NaN;
  troughEquity = Number.NaN;
  maxDrawdown = 0;
  maxDrawdownPercent = 0;
  maxRunup = 0;
  maxRunupPercent = 0;
  /**
   * The booked equity of the last bar when it was flat (NaN otherwise): a flat bar at the same
   * equity moves no peak, trough or excursion (all three valuations are that equity), so only its
   * equity is recorded. A number field, so broker snapshots take and restore it with the rest.
   */
  private flatBase = NaN;
  /** Off: every bar takes the full valuation (tests check the flat-bar shortcut against it). */
  fastPath = true;
  /** The peak and the largest drawdown from it whose percentage was divided out (see onBar). */
  private pctPeak = Number.NaN;
  private pctDrawdown = Number.NaN;
  /** The day split of `periods` (a bar inside its current day is one object's two fields away). */
  private readonly days: PeriodSplit;

  private readonly initial: number = Number.NaN;

  constructor(initial: number, capacity = 1024) {
    this.initial = initial;
    this.days = this.periods.days;
    this.peakEquity = initial;
    this.troughEquity = initial;
    // (a bad bar count starts small and grows)
    this.curve = new EquityCurve(capacity >= 16 ? Math.floor(capacity) : 16);
  }

  /** Bars recorded. */
  get count(): number {
    return this.curve.count;
  }

  /** The equity curve so far as the result's plain array (the curve writes into copies from now on). */
  takeEquity(): number[] {
    return curveValues(this.curve.handOut());
  }

  /**
   * A bar's close: repeatFlat's bar, else onBar's. (The broker's bar close calls both, so that the
   * common flat bar costs no call: repeatFlat is small enough for V8 to inline, onBar is not.)
   */
  bar(broker: Broker, ctx: BrokerHost): void {
    if (!this.repeatFlat(broker, ctx)) this.onBar(broker, ctx);
  }

  /**
   * A flat bar inside the current day at the booked equity of the flat bar before (see flatBase):
   * a repeat of the curve's last value, and true; false (nothing done) otherwise.
   */
  private repeatFlat(broker: Broker, ctx: BrokerHost): boolean {
    const ledger = broker.ledger;
    if (ledger.open.length !== 0 || !this.fastPath) return false;
    const time = ctx.time;
    const d = this.days;
    if (!(time >= d.lo && time < d.hi && broker.settings.initialCapital + ledger.netProfit === this.flatBase))
      return false;
    this.periods.lastTime = time;
    this.curve.repeat();
    return true;
  }

  /**
   * A bar's figures. One pass over the open trades values the equity at the close, low and high
   * together (each sum runs in trade order with openProfit's expression, so the figures are
   * Broker.equity's bit for bit); flat, there is nothing to sum.
   */
  onBar(broker: Broker, ctx: BrokerHost): void {
    const ledger = broker.ledger;
    const open = ledger.open;
    const base = broker.settings.initialCapital + ledger.netProfit;
    // The period returns first (the bar before's equity closes a period). A bar inside the current
    // day is inside its month too, and changes nothing but lastTime (tested inline: a double passed
    // to a call V8 does not inline is boxed).
    const time = ctx.time;
    const d = this.days;
    if (time >= d.lo && time < d.hi) this.periods.lastTime = time;
    else this.periods.bar(time, this.curve.last, this.initial, this.curve.count === 0);
    // (a flat bar at the equity of the flat bar before is repeatFlat's, but for the day's first)
    this.flatBase = open.length === 0 ? base : NaN;
    let booked = base;
    let eqClose = base + 0;
    let worst = eqClose;
    let best = eqClose;
    if (open.length !== 0) {
      const close = ctx.close;
      const low = ctx.low;
      const high = ctx.high;
      const pv = ledger.pointValue;
      let comm = 0;
      let opC = 0;
      let opL = 0;
      let opH = 0;
      for (let i = 0; i < open.length; i++) {
        const t = open[i];
        const c = t.commission;
        // (side is 1 or -1: x * side * qty and x * (side * qty) are the same double)
        const q = t.side * t.qty;
        const e = t.entryPrice;
        comm += c;
        opC += (close - e) * q * pv - c;
        opL += (low - e) * q * pv - c;
        opH += (high - e) * q * pv - c;
      }
      booked = base - comm;
      eqClose = base + (close === close ? opC : 0);
      const a = base + (low === low ? opL : 0);
      const b = base + (high === high ? opH : 0);
      worst = Math.min(a, b);
      best = Math.max(a, b);
    }
    // A percentage is divided out only when it may be a new maximum: the drawdown's when the peak
    // moved or the drawdown passed the largest one divided at this peak (for one positive peak the
    // rounded quotient never falls as the drawdown grows), the run-up's when it is positive and not
    // clearly below the maximum (a margin far above the products' rounding).
    if (booked > this.peakEquity) this.peakEquity = booked;
    if (booked < this.troughEquity) this.troughEquity = booked;
    const peak = this.peakEquity;
    const dd = peak - worst;
    if (dd > this.maxDrawdown) this.maxDrawdown = dd;
    const fast = this.fastPath;
    if (peak > 0 && !(fast && peak === this.pctPeak && dd <= this.pctDrawdown)) {
      this.pctPeak = peak;
      this.pctDrawdown = dd;
      const pct = (dd / peak) * 100;
      if (pct > this.maxDrawdownPercent) this.maxDrawdownPercent = pct;
    }
    const ru = best - this.troughEquity;
    if (ru > this.maxRunup) this.maxRunup = ru;
    if (ru > 0 && best > 0) {
      const m = this.maxRunupPercent;
      const bound = m * best * (1 - 1e-9);
      if (!(fast && ru * 100 < bound && bound > 1e-290)) {
        const pct = (ru / best) * 100;
        if (pct > m) this.maxRunupPercent = pct;
      }
    }
    this.curve.push(eqClose);
  }
}

/**
 * The returns of one split of the curve (days or months), closed as the bars come. A period's
 * return is its last bar's equity against the last of the period before (the initial capital for
 * the first). Number fields and an array written by index: a broker snapshot's copy of the fields
 * rolls it back (snapshot.ts).
 */
export class PeriodSplit {
  /** The current period's key and starting equity. */
  private key = Number.NaN;
  private start = Number.NaN;
  /** Times sure to share the current key, [lo, hi): a bar inside works out no key (a Date for months). */
  lo = Number.NaN;
  hi = Number.NaN;
  /** Closed periods' returns; `count` of them are used. */
  private readonly closed: number[] = [];
  count = 0;

  constructor(
    private readonly keyOf: (t: number) => number,
    private readonly spanOf: (k: number) => void,
  ) {}

  /** A bar at time `t`; `prev`: the equity of the bar before (NaN for the first bar, which starts at `initial`). */
  bar(t: number, prev: number, initial: number, first: boolean): void {
    if (first) {
      this.count = 0;
      this.start = initial;
      this.enter(this.keyOf(t));
    }
    if (t >= this.lo && t < this.hi) return;
    const k = this.keyOf(t);
    if (k === this.key) return;
    this.closed[this.count++] = this.start !== 0 ? (prev - this.start) / this.start : 0;
    this.start = prev;
    this.enter(k);
  }

  private enter(k: number): void {
    this.key = k;
    this.spanOf(k);
    this.lo = span[0];
    this.hi = span[1];
  }

  /** The returns, the current period closed at equity `last`. */
  returns(last: number): number[] {
    const out = this.closed.slice(0, this.count);
    out.push(this.start !== 0 ? (last - this.start) / this.start : 0);
    return out;
  }
}

/**
 * The day and month splits of a curve (UTC), and its first and last times, which pick the split the
 * run uses: TradingView's Sharpe and Sortino ratios use monthly returns for a trading period of three
 * or more months, daily returns for shorter ones (three or more days).
 */
export class Periods {
  readonly days = new PeriodSplit(dayKey, daySpan);
  readonly months = new PeriodSplit(monthKey, monthSpan);
  firstTime = Number.NaN;
  lastTime = Number.NaN;

  /** A bar at time `t` (see PeriodSplit.bar). */
  bar(t: number, prev: number, initial: number, first: boolean): void {
    if (first) this.firstTime = t;
    this.lastTime = t;
    this.days.bar(t, prev, initial, first);
    this.months.bar(t, prev, initial, first);
  }

  /** The run's returns and periods per year, the last period closed at equity `last`; `count` bars. */
  returns(last: number, count: number): { returns: number[]; perYear: number } {
    if (count === 0) return { returns: [], perYear: 12 };
    const monthly = monthKey(this.lastTime) - monthKey(this.firstTime) >= 3;
    return monthly
      ? { returns: this.months.returns(last), perYear: 12 }
      : { returns: this.days.returns(last), perYear: 365 };
  }
}

/** PeriodSplit's scratch span [lo, hi) (the span functions write it). */
const span = new Float64Array(2);

function monthKey(t: number): number {
  const d = new Date(t);
  return d.getUTCFullYear() * 12 + d.getUTCMonth();
}

/**
 * Times of month key `m`, less the last millisecond of the month: a Date truncates its time toward
 * zero, so a fraction of a millisecond short of the next month would still count; NaN (no times)
 * outside Date's range.
 */
function monthSpan(m: number): void {
  const y = Math.floor(m / 12);
  const mo = m - y * 12;
  // (setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999)
  const d = new Date(0);
  span[0] = d.setUTCFullYear(y, mo, 1);
  span[1] = d.setUTCFullYear(y, mo + 1, 1) - 1;
}

/**
 * Times of day key `k` (k * 86.4e6 is exact below 1e8 days, Date's range), less the last millisecond
 * (a margin against the division's rounding next to the day's end).
 */
function daySpan(k: number): void {
  const ok = Math.abs(k) < 1e8;
  span[0] = ok ? k * 86_400_000 : Number.NaN;
  span[1] = ok ? (k + 1) * 86_400_000 - 1 : Number.NaN;
}

function dayKey(t: number): number {
  return Math.floor(t / 86_400_000);
}

/**
 * Sharpe = (mean period return - risk-free rate per period) / sample stdev of the returns;
 * Sortino divides by the downside deviation (returns below the risk-free rate) instead. Fewer than
 * three periods give na, as in TradingView.
 */
export function sharpeSortino(
  returns: readonly number[],
  riskFreeRate: number,
  perYear = 12,
): { sharpe: number | null; sortino: number | null } {
  const n = returns.length;
  if (n < 3) return { sharpe: null, sortino: null };
  const rf = riskFreeRate / 100 / perYear;
  let sum = 0;
  for (const r of returns) sum += r;
  const mean = sum / n;
  let sq = 0;
  let down = 0;
  for (const r of returns) {
    sq += (r - mean) * (r - mean);
    const d = Math.min(0, r - rf);
    down += d * d;
  }
  const sd = Math.sqrt(sq / (n - 1));
  const dd = Math.sqrt(down / n);
  return {
    sharpe: sd > 0 ? (mean - rf) / sd : null,
    sortino: dd > 0 ? (mean - rf) / dd : null,
  };
}

/**
 * The StrategyResult. `trades` lists the visible closed trades (the last TRADE_LIMIT, numbered from
 * the first trade of the run, as TradingView's List of Trades after trimming); the statistics cover
 * every trade the run closed.
 */
export function buildResult(broker: Broker, lastClose: number): StrategyResult {
  const ledger = broker.ledger;
  const n = ledger.closed.total;
  const open: Trade[] = ledger.open.map((t, i) => ledger.openRow(t, lastClose, n + i + 1));
  const initial = broker.settings.initialCapital;
  const tracker = broker.tracker;
  const winSum = ledger.grossProfit;
  const lossSum = -ledger.grossLoss;
  // (figures of the per-bar equity a run without it did not keep: settings.trackEquity)
  const tracked = broker.settings.trackEquity !== false;
  const pr = tracker.periods.returns(tracker.curve.last, tracker.count);
  const { sharpe, sortino } = tracked
    ? sharpeSortino(pr.returns, broker.settings.riskFreeRate, pr.perYear)
    : { sharpe: null, sortino: null };
  // Buy & hold: all the initial capital bought at the first entry's price, held to the last close.
  const firstPrice = ledger.firstEntryPrice;
  const bhPct = firstPrice > 0 && lastClose === lastClose ? ((lastClose - firstPrice) / firstPrice) * 100 : NaN;
  const openProfit = lastClose === lastClose ? ledger.openProfit(lastClose) : 0;
  const stats: StrategyStats = {
    net_profit: ledger.netProfit,
    net_profit_percent: (ledger.netProfit / initial) * 100,
    gross_profit: ledger.grossProfit,
    gross_profit_percent: (ledger.grossProfit / initial) * 100,
    gross_loss: ledger.grossLoss,
    gross_loss_percent: (ledger.grossLoss / initial) * 100,
    max_drawdown: tracked ? tracker.maxDrawdown : Number.NaN,
    max_drawdown_percent: tracked ? tracker.maxDrawdownPercent : Number.NaN,
    max_runup: tracked ? tracker.maxRunup : Number.NaN,
    max_runup_percent: tracked ? tracker.maxRunupPercent : Number.NaN,
    profit_factor: ledger.grossLoss > 0 ? ledger.grossProfit / ledger.grossLoss : null,
    total_closed_trades: n,
    total_open_trades: open.length,
    num_winning_trades: ledger.winTrades,
    num_losing_trades: ledger.lossTrades,
    num_even_trades: ledger.evenTrades,
    percent_profitable: n > 0 ? (ledger.winTrades / n) * 100 : null,
    avg_trade: n > 0 ? ledger.netProfit / n : null,
    avg_winning_trade: ledger.winTrades > 0 ? winSum / ledger.winTrades : null,
    // "the average amount of money lost per losing trade" (reference, strategy.avg_losing_trade): a
    // positive amount, like gross_loss and the Pine variable.
    avg_losing_trade: ledger.lossTrades > 0 ? -lossSum / ledger.lossTrades : null,
    ratio_avg_win_loss:
      ledger.winTrades > 0 && ledger.lossTrades > 0 && lossSum !== 0
        ? winSum / ledger.winTrades / (-lossSum / ledger.lossTrades)
        : null,
    largest_winning_trade: ledger.largestWin,
    largest_losing_trade: ledger.largestLoss,
    avg_bars_in_trade: n > 0 ? ledger.barsInTrades / n : null,
    sharpe_ratio: sharpe,
    sortino_ratio: sortino,
    commission_paid: ledger.commissionPaid,
    open_profit: openProfit,
    buy_and_hold_return: bhPct === bhPct ? (initial * bhPct) / 100 : null,
    buy_and_hold_return_percent: bhPct === bhPct ? bhPct : null,
    max_contracts_held: ledger.maxContractsAll,
    margin_calls: broker.risk.marginCalls,
    initial_capital: initial,
  };
  return lazyResult(ledger.closed, open, stats, tracker.curve.handOut());
}

/**
 * The StrategyResult whose `trades` and `equity` are built on first read (an optimize trial reads
 * the trades, a bench run neither): the closed list's columns and the equity store become plain
 * arrays then, and the getters plain data properties (JSON.stringify, structured clone and spreads
 * read them as they would any property). The trades are those of the run's end: the closed list
 * settles them before it changes (a run going on after finish, a rolled-back realtime tick).
 */
function lazyResult(closed: ClosedTrades, open: Trade[], stats: StrategyStats, equity: CurveView): StrategyResult {
  const trades = new SettledTrades(closed);
  closed.watch(trades);
  // (every key in the contract's order first: redefining a property keeps its place in JSON)
  const r: StrategyResult = { trades: [], open_trades: open, stats, equity: [] };
  lazyProperty(r, "trades", () => trades.rows());
  lazyProperty(r, "equity", () => curveValues(equity));
  const parts: LazyParts = { trades, closed, equity };
  hiddenProperty(r, PARTS, parts);
  return r;
}

/** What a lazy result's `trades` and `equity` are built from. */
interface LazyParts {
  trades: SettledTrades;
  closed: ClosedTrades;
  equity: CurveView;
}

/**
 * A lazy result's parts (scoredTrades, releaseStrategyStores), under a non-enumerable symbol: the
 * result's keys, JSON, clones and spreads are as they were. (Not a WeakMap: a minor GC keeps the
 * values of a WeakMap in V8's old generation alive, every run's trades with them.)
 */
const PARTS = Symbol("resin.lazyParts");

function partsOf(r: StrategyResult): LazyParts | undefined {
  return (r as { [PARTS]?: LazyParts })[PARTS];
}

/**
 * Gives a finished run's closed-trade columns and equity values to the next runs' brokers
 * (spare-stores.ts), for a caller done with the result: an optimize trial once its reply is built.
 * The result's `trades` and `equity`, where still unread, throw when read from then on.
 */
export function releaseStrategyStores(r: StrategyResult): void {
  const parts = partsOf(r);
  if (parts === undefined) return;
  (r as { [PARTS]?: LazyParts })[PARTS] = undefined;
  released(r, "trades");
  released(r, "equity");
  spareTradeColumns.give(parts.closed.nums);
  spareCurveValues.give(parts.equity.vals);
  spareCurveSpans.give(parts.equity.spans);
}

function released(r: StrategyResult, key: "trades" | "equity"): void {
  // (a field read before is a plain array of its own by now)
  if (Object.getOwnPropertyDescriptor(r, key)?.get === undefined) return;
  Object.defineProperty(r, key, { enumerable: true, configurable: true, get: RELEASED[key] });
}

/** A released field's getter: throws. */
function releasedGetter(key: "trades" | "equity"): () => never {
  return () => {
    throw new Error(`result.strategy.${key} was read after its run's stores were released`);
  };
}

/** The released fields' getters (one each, shared: see core/lazy.ts on accessors of a run's own). */
const RELEASED = { trades: releasedGetter("trades"), equity: releasedGetter("equity") };

/**
 * The result's closed trades' profit and exit bar index, oldest first, read from the closed list's
 * columns: what an optimize trial's reply carries (worker/protocol.ts trialReply), without the Trade
 * objects result.strategy.trades builds (~0.2 ms of a 4 ms trial at 20k bars and 430 trades). null
 * once the trades were read (the caller reads those) or for a result this module did not build.
 */
export function scoredTrades(r: StrategyResult): { profit: Float64Array; exitBar: Float64Array } | null {
  // (still the accessor: nobody read or wrote r.trades, so the list is as the run left it)
  if (Object.getOwnPropertyDescriptor(r, "trades")?.get === undefined) return null;
  return partsOf(r)?.trades.columns() ?? null;
}

/** The closed trades as they were at a run's end, built when read or before the list changes. */
class SettledTrades implements ClosedTradesReader {
  private built: Trade[] | null = null;

  constructor(private readonly closed: ClosedTrades) {}

  settle(): void {
    if (this.built === null) this.built = this.closed.toArray();
  }

  rows(): Trade[] {
    this.settle();
    return this.built as Trade[];
  }

  /** The profit and exit bar columns while the rows are unbuilt (the list is then as the run left it). */
  columns(): { profit: Float64Array; exitBar: Float64Array } | null {
    return this.built === null ? this.closed.profitColumns() : null;
  }
}
