// strategy.risk.* rules and margin calls: the parts of the emulator that act on the account rather
// than on individual orders.

import type { BrokerHost } from "./host.js";
import type { Broker } from "./broker.js";
import type { Side } from "./types.js";

/** The exit comment of the max_intraday_filled_orders liquidation. */
export const FILLED_ORDERS_CAP = "Close Position (Max number of filled orders in one day)";

export type RiskAmountType = "percent_of_equity" | "cash";

export class RiskRules {
  allowEntryIn: "all" | "long" | "short" = "all";
  maxPositionSize = NaN;
  maxIntradayLoss = NaN;
  maxIntradayLossType: RiskAmountType = "percent_of_equity";
  maxDrawdownValue = NaN;
  maxDrawdownType: RiskAmountType = "percent_of_equity";
  maxConsLossDays = NaN;
  maxIntradayFilledOrders = NaN;
  /** Trading stopped for good (max drawdown, consecutive loss days). */
  haltedForever = false;
  /** Trading stopped until the next trading day (intraday loss, filled-order count). */
  haltedToday = false;
  marginCalls = 0;
  private dayKey = NaN;
  private offsetMs = 0;
  private offsetFrom = NaN;
  private offsetUntil = NaN;
  private dayStartEquity = NaN;
  private dayFills = 0;
  private consLossDays = 0;
  private fmt: Intl.DateTimeFormat | null = null;

  constructor(private readonly timezone: string) {}

  /** Whether a rule counts trading days (onBar has work to do). */
  usesDays(): boolean {
    return (
      this.maxIntradayLoss === this.maxIntradayLoss ||
      this.maxConsLossDays === this.maxConsLossDays ||
      this.maxIntradayFilledOrders === this.maxIntradayFilledOrders
    );
  }

  /** Calendar day of `time` in the exchange time zone, as a day number. */
  private dayOf(time: number): number {
    // The zone's offset is looked up at most every 6 hours: offsets change only at DST switches,
    // in the small hours, far from the midnight that separates days.
    if (!(time >= this.offsetFrom && time < this.offsetUntil)) {
      this.offsetMs = this.offsetAt(time);
      this.offsetFrom = time;
      this.offsetUntil = time + 6 * 3_600_000;
    }
    return Math.floor((time + this.offsetMs) / 86_400_000);
  }

  private offsetAt(time: number): number {
    if (!this.fmt) {
      const opts: Intl.DateTimeFormatOptions = {
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      };
      try {
        this.fmt = new Intl.DateTimeFormat("en-US", { ...opts, timeZone: this.timezone });
      } catch {
        this.fmt = new Intl.DateTimeFormat("en-US", { ...opts, timeZone: "UTC" });
      }
    }
    const p: Record<string, number> = {};
    for (const part of this.fmt.formatToParts(time)) if (part.type !== "literal") p[part.type] = Number(part.value);
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    return wall - (time - (((time % 1000) + 1000) % 1000));
  }

  /**
   * Start of a bar: rolls the trading day over (calendar day in the exchange time zone). A day that
   * ends the max_cons_loss_days streak stops the strategy at once: pending orders are cancelled and
   * the position is closed at this bar's open.
   */
  onBar(ctx: BrokerHost, broker: Broker): void {
    if (!this.usesDays()) return;
    const key = this.dayOf(ctx.time);
    if (key === this.dayKey) return;
    const eq = broker.equity();
    if (this.dayKey === this.dayKey) {
      if (eq < this.dayStartEquity) this.consLossDays++;
      else this.consLossDays = 0;
      if (
        this.maxConsLossDays === this.maxConsLossDays &&
        this.consLossDays >= this.maxConsLossDays &&
        !this.haltedForever
      ) {
        this.haltedForever = true;
        broker.liquidate(ctx.open, "Close Position (Max consecutive loss days)");
      }
    }
    this.dayKey = key;
    this.dayStartEquity = eq;
    this.dayFills = 0;
    this.haltedToday = false;
  }

  allowsOrders(): boolean {
    return !this.haltedForever && !this.haltedToday;
  }

  allowsSide(side: Side): boolean {
    return this.allowEntryIn === "all" || (this.allowEntryIn === "long" ? side > 0 : side < 0);
  }

  /** Caps an opening quantity so the position never exceeds max_position_size. */
  capQty(qty: number, side: Side, position: number): number {
    const max = this.maxPositionSize;
    if (max !== max) return qty;
    const held = side > 0 ? Math.max(0, position) : Math.max(0, -position);
    return Math.max(0, Math.min(qty, max - held));
  }

  /**
   * Counts one filled order (a reversal is one order). The fill that reaches
   * max_intraday_filled_orders stops trading for the day at once; the position is closed at the next
   * point of the path (capPending, see PathWalker.capCheck).
   */
  onFill(): void {
    this.dayFills++;
    if (
      this.maxIntradayFilledOrders === this.maxIntradayFilledOrders &&
      !this.haltedToday &&
      this.dayFills >= this.maxIntradayFilledOrders
    ) {
      this.haltedToday = true;
      this.capPending = true;
    }
  }

  /** The filled-order cap was reached on the path: the position closes at the next path point. */
  capPending = false;

  /** Whether a rule is checked at a bar's close (without one, onClose need not value the equity). */
  private checksAtClose(): boolean {
    return (
      this.haltedForever ||
      this.maxIntradayLoss === this.maxIntradayLoss ||
      this.maxIntradayFilledOrders === this.maxIntradayFilledOrders ||
      this.maxDrawdownValue === this.maxDrawdownValue
    );
  }

  /** End of a bar: checks the account rules; a breached rule closes the position at the close. */
  onClose(ctx: BrokerHost, broker: Broker): void {
    if (!this.checksAtClose()) return;
    const eq = broker.equity(ctx.close);
    if (
      this.maxIntradayLoss === this.maxIntradayLoss &&
      !this.haltedToday &&
      this.dayStartEquity === this.dayStartEquity
    ) {
      const limit =
        this.maxIntradayLossType === "cash" ? this.maxIntradayLoss : (this.dayStartEquity * this.maxIntradayLoss) / 100;
      if (this.dayStartEquity - eq >= limit) {
        broker.liquidate(ctx.close, "Close Position (Max intraday loss)");
        this.haltedToday = true;
      }
    }
    if (this.capPending) {
      // capped by a fill at the close (process_orders_on_close)
      this.capPending = false;
      broker.liquidate(ctx.close, FILLED_ORDERS_CAP);
    }
    if (this.maxDrawdownValue === this.maxDrawdownValue && !this.haltedForever) {
      const peak = Math.max(broker.tracker.peakEquity, broker.settings.initialCapital);
      const dd = peak - eq;
      const limit = this.maxDrawdownType === "cash" ? this.maxDrawdownValue : (peak * this.maxDrawdownValue) / 100;
      if (dd >= limit) {
        broker.liquidate(ctx.close, "Close Position (Max drawdown)");
        this.haltedForever = true;
      }
    }
    if (this.haltedForever && broker.ledger.open.length > 0)
      broker.liquidate(ctx.close, "Close Position (Max consecutive loss days)");
  }

  /**
   * Margin call check at one point of the bar's path (TradingView checks at the open, after the
   * orders filled there, and at the bar's worst price for the position): when equity at `price` is
   * below the margin the position needs, the emulator liquidates four times the quantity that would
   * cover the shortfall ("to prevent constant margin calls on subsequent bars"). The covering
   * quantity is truncated to the quantity step before the x4 (one step when that truncates to
   * nothing), capped at the whole position, and filled at `price`.
   */
  checkMargin(price: number, broker: Broker): void {
    this.checkedPrice = price;
    this.checkMarginAt(broker);
  }

  /**
   * checkMargin at the price its caller put in `checkedPrice`: the walk's and the bar's checks (a
   * field, not an argument: a double passed to a call V8 does not inline is a new heap number, and
   * whether this is inlined into the bar's open depends on what else V8 inlined there).
   */
  checkMarginAt(broker: Broker): void {
    const price = this.checkedPrice;
    const ledger = broker.ledger;
    if (ledger.open.length === 0 || !(price > 0)) return;
    if (this.lineVersion !== ledger.version || this.linePointValue !== broker.pointValue) this.marginLine(broker);
    // clear of the call level by more than any rounding: the exact check would pass
    if (this.fastPath && price < this.priceCap && this.slack0 + price * this.slack1 > this.tol0 + price * this.tol1)
      return;
    this.exactMargin(broker);
  }

  /** The price checkMarginAt and exactMargin check. */
  checkedPrice = Number.NaN;

  /**
   * Brings the price line up to date for the open trades (at least one) and says whether its safe
   * interval (safeLo, safeHi) may stand for the margin checks: no price strictly inside can bring a
   * margin call. The walk's quiet bar compares its whole range with it, once, instead of
   * checkMarginAt at the open and at the worst price. (No price crosses this call: a double passed
   * to a call V8 does not inline is a new heap number.)
   */
  lineCurrent(broker: Broker): boolean {
    if (this.lineVersion !== broker.ledger.version || this.linePointValue !== broker.pointValue)
      this.marginLine(broker);
    return this.fastPath;
  }

  /** checkMargin's exact test at `checkedPrice`, and the margin call. */
  private exactMargin(broker: Broker): void {
    const price = this.checkedPrice;
    // (checkMargin made the price line current for these trades: its margin rate is theirs)
    const margin = this.lineMargin;
    if (!(margin > 0)) return;
    const ledger = broker.ledger;
    // the position and the equity at `price` in one pass (positionSize's and openProfit's sums, in
    // the same order: Broker.equity(price) bit for bit)
    const open = ledger.open;
    const pv = ledger.pointValue;
    let pos = 0;
    let op = 0;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      pos += t.side * t.qty;
      op += (price - t.entryPrice) * t.side * t.qty * pv - t.commission;
    }
    const size = Math.abs(pos);
    const equity = broker.settings.initialCapital + ledger.netProfit + op;
    const perUnit = price * broker.pointValue * margin;
    const required = size * perUnit;
    if (equity >= required - 1e-9 * required) return;
    const cover = (required - equity) / perUnit;
    const step = broker.qtyStep;
    const coverQty = Math.max(step, Math.floor(cover / step + 1e-9) * step);
    const qty = Math.min(size, broker.roundQty(4 * coverQty) || 4 * coverQty);
    this.marginCalls++;
    broker.marginCall(qty, price);
  }

  // checkMargin's price line for the open trades as they are (Ledger.version, the point value): the
  // slack equity(p) - required(p) = slack0 + p * slack1 is linear in the price p, and tol0 + p * tol1
  // bounds the rounding of both that line and the exact check's sums (far above it: (n + 8) * 1e-13
  // of every term's magnitude, n trades, where the sums' own error is under (n + 4) * 1.2e-16). A
  // price whose slack clears the bound cannot be called, so the exact check runs only near the call
  // level; a position with no margin set cannot be called at all (slack 1, no tolerance). Prices up
  // to priceCap keep every term of the sums far from overflowing. Number fields, so snapshots
  // restore them together with the ledger's version.
  /** Off: every check is the exact one (tests check the price line against it). */
  fastPath = true;
  private lineVersion = -1;
  private linePointValue = Number.NaN;
  /** The margin rate of the line's position side (a fraction; not above 0: no margin call). */
  private lineMargin = Number.NaN;
  private priceCap = 0;
  private slack0 = 0;
  private slack1 = 0;
  private tol0 = 0;
  private tol1 = 0;
  /**
   * Prices strictly between these pass the price line's test (the fast one above) for sure: where
   * slack0 - 3 * tol0 + p * (slack1 - 3 * tol1) > 0 (the line's zero with three times its
   * tolerance, so that the rounding of this quotient, under 4 float steps of |slack0| + 3 * tol0,
   * stays far inside the tolerance it leaves, tol0 >= 9e-13 of that), below priceCap. Prices at or
   * below 0 are never checked.
   */
  safeLo = Number.POSITIVE_INFINITY;
  safeHi = Number.NEGATIVE_INFINITY;

  private marginLine(broker: Broker): void {
    const ledger = broker.ledger;
    const open = ledger.open;
    this.lineVersion = ledger.version;
    this.linePointValue = broker.pointValue;
    const side = ledger.side();
    const margin = (side > 0 ? broker.settings.marginLong : broker.settings.marginShort) / 100;
    this.lineMargin = margin;
    if (!(margin > 0)) {
      this.priceCap = Number.MAX_VALUE;
      this.slack0 = 1;
      this.slack1 = 0;
      this.tol0 = 0;
      this.tol1 = 0;
      this.safeLo = Number.NEGATIVE_INFINITY;
      this.safeHi = Number.POSITIVE_INFINITY;
      return;
    }
    const pv = ledger.pointValue;
    const base = broker.settings.initialCapital + ledger.netProfit;
    // equity(p) = base + sum((p - entry) * side * qty * pv - commission)
    let pos = 0;
    let perPrice = 0;
    let fixed = base;
    let mag0 = Math.abs(broker.settings.initialCapital) + Math.abs(ledger.netProfit);
    let mag1 = 0;
    for (let i = 0; i < open.length; i++) {
      const t = open[i];
      pos += t.side * t.qty;
      perPrice += t.side * t.qty * pv;
      fixed -= t.entryPrice * t.side * t.qty * pv + t.commission;
      mag0 += Math.abs(t.entryPrice * t.qty * pv) + Math.abs(t.commission);
      mag1 += Math.abs(t.qty * pv);
    }
    // required(p) = |pos| * p * pointValue * margin
    const perUnit = Math.abs(pos) * broker.pointValue * margin;
    const rel = (open.length + 8) * 1e-13;
    this.priceCap = mag0 < 1e290 ? 1e290 / (mag1 + Math.abs(perUnit) + 1) : 0;
    this.slack0 = fixed;
    this.slack1 = perPrice - perUnit;
    this.tol0 = rel * mag0;
    this.tol1 = rel * (mag1 + Math.abs(perUnit));
    this.safeRange();
  }

  /** safeLo and safeHi from the line (see there); none when a figure is not finite. */
  private safeRange(): void {
    const d = this.slack1 - 3 * this.tol1;
    const n = 3 * this.tol0 - this.slack0;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    if (d > 0) {
      lo = n / d;
      hi = this.priceCap;
    } else if (d < 0) {
      lo = Number.NEGATIVE_INFINITY;
      hi = Math.min(n / d, this.priceCap);
    } else if (n < 0) {
      lo = Number.NEGATIVE_INFINITY;
      hi = this.priceCap;
    }
    // (NaN bounds fail every compare: no price is clear)
    this.safeLo = lo;
    this.safeHi = hi;
  }

  /** The worst price of the bar for the open position (low for longs, high for shorts). */
  static worstPrice(ctx: BrokerHost, side: number): number {
    return side > 0 ? ctx.low : ctx.high;
  }
}
