// Fill accounting: what an order does to the position when the path walk (walk.ts) reaches it.
// Entries reverse or add (pyramiding, allow_entry_in, max_position_size, margin), strategy.order
// nets FIFO, closes and exits take their share of the open trades; every fill is booked into the
// ledger and reported to the broker (alerts, calc_on_order_fills).

import type { Broker } from "./broker.js";
import type { ExitOrder, OpenTrade, PendingOrder, Side } from "./types.js";

type Leg = "tp" | "sl" | "trail";

/** `price` moved `slippage` ticks against an order on `side`. */
export function slipped(b: Broker, price: number, side: Side): number {
  return price + side * b.settings.slippage * b.mintick;
}

export function commission(b: Broker, qty: number, price: number): number {
  const s = b.settings;
  if (s.commissionValue === 0) return 0;
  if (s.commissionType === "percent") return (qty * price * b.pointValue * s.commissionValue) / 100;
  if (s.commissionType === "cash_per_contract") return qty * s.commissionValue;
  return s.commissionValue;
}

export function fillOrder(b: Broker, o: PendingOrder, price: number): void {
  b.book.removeRef(o);
  if (o.kind === "close" || o.kind === "close_all") {
    fillClose(b, o, price);
    return;
  }
  const ledger = b.ledger;
  const side = o.side;
  const pos = ledger.side();
  const held = Math.abs(ledger.positionSize());
  let qty = o.qty === o.qty ? o.qty : b.defaultQty(price);
  // How much of the position this order closes first, the rest opening the other way: strategy.order
  // nets FIFO up to its own size; strategy.entry's size was fixed when it was placed, its qty plus
  // the opposite position held then (placed while flat, it only flattens what it meets at the fill,
  // up to its qty; placed against a position that is gone by the fill, it opens the whole size).
  let closing = 0;
  if (o.kind === "entry") qty += o.reverse;
  if (pos === -side) {
    closing = Math.min(held, qty);
    qty -= closing;
  }
  if (o.kind === "entry") {
    if (!b.risk.allowsSide(side)) {
      // strategy.risk.allow_entry_in: an entry the other way only closes the position.
      if (closing > 0) closeTrades(b, ledger.closeList(), Infinity, price, o.id, o.comment, NaN, o);
      return;
    }
  }
  // strategy.risk.max_position_size "affects strategy.entry()" (reference): strategy.order is not capped
  if (o.kind === "entry") qty = b.risk.capQty(qty, side, closing > 0 ? 0 : ledger.positionSize());
  // A fresh or added position the equity cannot margin at the fill price is rejected; the new
  // leg of a reversal is not (a margin call trims it instead).
  if (closing === 0 && !affordable(b, side, qty, price)) return;
  const opening = qty > 1e-12 ? qty : 0;
  // One order pays one commission (cash_per_order), shared by its closing and opening legs.
  const fee = commission(b, closing + opening, price);
  const total = closing + opening;
  if (closing > 0)
    closeTrades(b, ledger.closeList(), closing, price, o.id, o.comment, total > 0 ? (fee * closing) / total : 0, null);
  if (opening > 0) {
    ledger.openTrade(o.id, o.comment, side, opening, price, total > 0 ? (fee * opening) / total : 0, b.bar, b.time);
    // a reversal is one filled order (max_intraday_filled_orders): its closing leg counted it
    if (closing === 0) b.risk.onFill();
  }
  if (total > 0) b.filled(o.id, side, total, price, o.comment, o.alertMessage, o.disableAlert);
  b.book.applyOca(o, total);
}

/** Whether equity at `price` covers the margin of the position after adding `qty` on `side`. */
function affordable(b: Broker, side: Side, qty: number, price: number): boolean {
  const m = (side > 0 ? b.settings.marginLong : b.settings.marginShort) / 100;
  if (!(m > 0)) return true;
  const size = Math.abs(b.ledger.positionSize()) + qty;
  const required = size * price * b.pointValue * m;
  return required <= b.equity(price) * (1 + 1e-12);
}

export function fillClose(b: Broker, o: PendingOrder, price: number): void {
  // only the trades open when the close was placed (entry-then-close_all on one bar: the entry fills
  // first at the next open, reversing or adding, and what it opened stays open)
  const matching = b.ledger.closeList(o.kind === "close_all" ? null : o.id, null, o.openedBefore);
  if (matching.length === 0) return;
  let total = 0;
  for (const t of matching) total += t.qty;
  let qty = total;
  if (o.qty === o.qty) qty = Math.min(o.qty, total);
  else if (o.qtyPercent === o.qtyPercent) qty = b.roundQty((total * o.qtyPercent) / 100);
  if (!(qty > 0)) return;
  const exitId = o.kind === "close_all" ? "Close position order" : `Close entry(s) order ${o.id}`;
  closeTrades(b, matching, qty, slipped(b, price, -matching[0].side as Side), exitId, o.comment, NaN, o);
}

export function fillExit(b: Broker, e: ExitOrder, t: OpenTrade, leg: Leg, price: number): void {
  const qty = b.exitRemaining(e, t);
  if (!(qty > 0)) return;
  const comment = (leg === "tp" ? e.commentProfit : leg === "sl" ? e.commentLoss : e.commentTrailing) ?? e.comment;
  // FIFO: an exit closes the earliest open trades first, whatever trade its levels came from.
  const targets = b.ledger.closeList(null, b.settings.closeEntriesRule === "FIFO" ? null : t);
  const side = -t.side as Side;
  const done = closeTrades(b, targets, qty, price, e.id, comment, NaN, null);
  // (after the close: nothing it runs reads the count, and a trade it closed whole keeps none)
  b.ledger.addExitFilled(t, e.id, qty);
  if (done > 0) {
    const a = e.alerts;
    const alert = a === null ? null : ((leg === "tp" ? a.profit : leg === "sl" ? a.loss : a.trailing) ?? a.message);
    b.filled(e.id, side, done, price, comment, alert, e.disableAlert);
    b.exitOca(e, done);
  }
}

/**
 * Closes up to `qty` of `trades` in order at `price`; one commission for the whole fill unless
 * given. `report`: the close order to announce the fill for (alerts); null when the caller does.
 * Returns the quantity closed.
 */
export function closeTrades(
  b: Broker,
  trades: OpenTrade[],
  qty: number,
  price: number,
  exitId: string,
  comment: string | null,
  fee = NaN,
  report: PendingOrder | null = null,
): number {
  let total = 0;
  for (const t of trades) total += t.qty;
  let left = Math.min(qty, total);
  if (!(left > 0)) return 0;
  const comm = fee === fee ? fee : commission(b, left, price);
  const all = left;
  const side = -trades[0].side as Side;
  for (const t of trades) {
    if (left <= 0) break;
    const q = Math.min(t.qty, left);
    b.ledger.closePart(t, q, price, comm * (q / all), exitId, comment, b.bar, b.time);
    left -= q;
  }
  b.risk.onFill();
  if (report)
    b.filled(
      report.kind === "close" || report.kind === "close_all" ? exitId : report.id,
      side,
      all,
      price,
      comment,
      report.alertMessage,
      report.disableAlert,
    );
  return all;
}
