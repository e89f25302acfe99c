// The book's order records written from strategy.* requests. A call that re-places an order with the
// same id updates the pending record in place (TradingView modifies the existing order), so a script
// that re-issues its brackets on every bar allocates nothing here; every record is built with all its
// fields in one order, so the path walk sees one object shape.

import {
  EXIT_ARG_ALL,
  EXIT_ARG_LIMIT,
  EXIT_ARG_LOSS,
  EXIT_ARG_OTHER_NUMBERS,
  EXIT_ARG_PROFIT,
  EXIT_ARG_QTY,
  EXIT_ARG_QTY_PERCENT,
  EXIT_ARG_STOP,
  EXIT_ARG_TEXTS,
  EXIT_ARG_TRAIL,
  EXIT_ARG_TRAIL_OFFSET,
  type ExitAlerts,
  type ExitOrder,
  type ExitRequest,
  LV_ACT,
  LV_SL,
  LV_TP,
  type OcaType,
  type PendingOrder,
  type Side,
} from "./types.js";
import { finite, sameNumber } from "./levels.js";

/** A blank pending order; the caller writes every field with writeOrder. */
export function newPendingOrder(): PendingOrder {
  return {
    kind: "entry",
    id: "",
    side: 1,
    qty: NaN,
    reverse: 0,
    openedBefore: Infinity,
    qtyPercent: NaN,
    limit: NaN,
    stop: NaN,
    stopTriggered: false,
    ocaName: null,
    ocaType: "none",
    comment: null,
    alertMessage: null,
    disableAlert: false,
    seq: 0,
    at: -1,
    placedBar: 0,
    market: true,
    intrabar: false,
  };
}

/** Writes every field of a pending entry/order/close (a new record or a re-placed one). */
export function writeOrder(
  o: PendingOrder,
  kind: PendingOrder["kind"],
  id: string,
  side: Side,
  qty: number,
  qtyPercent: number,
  limit: number,
  stop: number,
  ocaName: string | null,
  ocaType: OcaType,
  comment: string | null,
  alertMessage: string | null,
  disableAlert: boolean,
  seq: number,
  placedBar: number,
  intrabar: boolean,
): PendingOrder {
  o.kind = kind;
  o.id = id;
  o.side = side;
  o.qty = qty;
  o.reverse = 0;
  o.openedBefore = Infinity;
  o.qtyPercent = qtyPercent;
  o.limit = limit;
  o.stop = stop;
  o.stopTriggered = false;
  o.ocaName = ocaName;
  o.ocaType = ocaType;
  o.comment = comment;
  o.alertMessage = alertMessage;
  o.disableAlert = disableAlert;
  o.seq = seq;
  o.placedBar = placedBar;
  o.market = limit !== limit && stop !== stop;
  o.intrabar = intrabar;
  return o;
}

/** A blank exit; the caller writes it with writeExit and sets seq / armed. */
export function newExitOrder(): ExitOrder {
  return {
    id: "",
    fromEntry: null,
    qty: NaN,
    qtyPercent: NaN,
    profit: NaN,
    limit: NaN,
    loss: NaN,
    stop: NaN,
    trailPrice: NaN,
    trailPoints: NaN,
    trailOffset: NaN,
    ocaName: null,
    comment: null,
    commentProfit: null,
    commentLoss: null,
    commentTrailing: null,
    alerts: null,
    disableAlert: false,
    seq: 0,
    placedBar: 0,
    armed: false,
    unarmedAt: -1,
    coverAt: -1,
    coverEpoch: -1,
    coverOf: null,
    coverLo: 0,
    coverHi: 0,
    bindSide: 0,
    intrabar: false,
    src: null,
    at: 0,
    lvPrice: NaN,
    lvSide: 0,
    lvTp: NaN,
    lvSl: NaN,
    lvAct: NaN,
    lvStale: 0,
  };
}

/** Exit `e` made blank again, every field newExitOrder's, in its order (a dropped exit reused: OrderBook.takeExit). */
export function resetExitOrder(e: ExitOrder): ExitOrder {
  e.id = "";
  e.fromEntry = null;
  e.qty = NaN;
  e.qtyPercent = NaN;
  e.profit = NaN;
  e.limit = NaN;
  e.loss = NaN;
  e.stop = NaN;
  e.trailPrice = NaN;
  e.trailPoints = NaN;
  e.trailOffset = NaN;
  e.ocaName = null;
  e.comment = null;
  e.commentProfit = null;
  e.commentLoss = null;
  e.commentTrailing = null;
  e.alerts = null;
  e.disableAlert = false;
  e.seq = 0;
  e.placedBar = 0;
  e.armed = false;
  e.unarmedAt = -1;
  e.coverAt = -1;
  e.coverEpoch = -1;
  e.coverOf = null;
  e.coverLo = 0;
  e.coverHi = 0;
  e.bindSide = 0;
  e.intrabar = false;
  e.src = null;
  e.at = 0;
  e.lvPrice = NaN;
  e.lvSide = 0;
  e.lvTp = NaN;
  e.lvSl = NaN;
  e.lvAct = NaN;
  e.lvStale = 0;
  return e;
}

/** A finite number (an argument that is given and not na). */
function given(v: unknown): boolean {
  return typeof v === "number" && Number.isFinite(v);
}

/** Whether a strategy.exit request has any level: one with none (levels from an na price while flat) is a no-op. */
export function exitHasLevel(req: ExitRequest): boolean {
  return (
    given(req.profit) ||
    given(req.limit) ||
    given(req.loss) ||
    given(req.stop) ||
    given(req.trailPoints) ||
    given(req.trailPrice)
  );
}

/**
 * Two numbers equal as exit fields: the same value (NaN, an absent level, equals NaN; -0 is not 0,
 * so an exit's fields are always exactly its request's, which relevelExit relies on).
 */
const same = sameNumber;

/**
 * Writes a strategy.exit request into exit `e` (new or re-placed): everything but its queue place
 * (`seq`) and whether it has found its trades (`armed`), which a re-placed exit keeps. The cached
 * bracket levels (`lv*`) are marked stale one by one, when a field they derive from changed, so an
 * exit re-placed with the same levels on every bar keeps them and a moved stop recomputes only the
 * stop: levels are worked out once per change, not per bar.
 */
export function writeExit(
  e: ExitOrder,
  req: ExitRequest,
  fromEntry: string | null,
  placedBar: number,
  bindSide: Side | 0,
  intrabar: boolean,
): void {
  moveLimitStop(e, req, EXIT_ARG_ALL);
  moveOtherNumbers(e, req, EXIT_ARG_ALL);
  // (a re-placed exit mostly brings the strings it had: a compare costs less than storing the same
  // reference again, a store with the GC's write barrier)
  if (e.id !== req.id) e.id = req.id;
  if (e.fromEntry !== fromEntry) e.fromEntry = fromEntry;
  const ocaName = req.ocaName ?? null;
  if (e.ocaName !== ocaName) e.ocaName = ocaName;
  const comment = req.comment ?? null;
  if (e.comment !== comment) e.comment = comment;
  const commentProfit = req.commentProfit ?? null;
  if (e.commentProfit !== commentProfit) e.commentProfit = commentProfit;
  const commentLoss = req.commentLoss ?? null;
  if (e.commentLoss !== commentLoss) e.commentLoss = commentLoss;
  const commentTrailing = req.commentTrailing ?? null;
  if (e.commentTrailing !== commentTrailing) e.commentTrailing = commentTrailing;
  const alerts = exitAlerts(e.alerts, req);
  if (e.alerts !== alerts) e.alerts = alerts;
  e.disableAlert = req.disableAlert === true;
  e.placedBar = placedBar;
  e.bindSide = bindSide;
  e.intrabar = intrabar;
  if (e.src !== req) e.src = req;
}

/**
 * A re-placed exit whose call differs from the one that wrote it at most in its numbers (the common
 * case: a bracket, an ATR stop, tick distances or a trail re-placed on every bar with moving
 * values): its texts compared, only the numbers that moved stored, with the stale marks writeExit
 * would set, and true. False (nothing written) when a text or flag differs: the caller then writes
 * the exit with writeExit. Placed again
 * through the request object that last wrote it (a compiled call site's own), only the fields its
 * `varying` bits name can differ: the others are not compared. The result is writeExit's field for
 * field (tests/strategy/fast-paths.test.ts).
 */
export function relevelExit(
  e: ExitOrder,
  req: ExitRequest,
  placedBar: number,
  bindSide: Side | 0,
  intrabar: boolean,
): boolean {
  // (no double crosses a call here or in its helpers: each reads the request's numbers itself, so
  // none is boxed whichever of them V8 inlines; limit and stop as arguments were 12.6 MB of garbage a
  // 100k-bar ema_cross_bracket run once the function grew past V8's inlining budget)
  const varying = e.src === req ? (req.varying ?? EXIT_ARG_ALL) : EXIT_ARG_ALL;
  if ((varying & EXIT_ARG_TEXTS) !== 0 && !sameTexts(e, req)) return false;
  moveLimitStop(e, req, varying);
  if ((varying & EXIT_ARG_OTHER_NUMBERS) !== 0) moveOtherNumbers(e, req, varying);
  e.placedBar = placedBar;
  e.bindSide = bindSide;
  e.intrabar = intrabar;
  // (every field now holds what this request's call makes of it)
  if (e.src !== req) e.src = req;
  return true;
}

/**
 * Stores the request's limit and stop where they differ from exit `e`'s and marks the levels derived
 * from them stale (an ATR stop moved every bar leaves the take-profit and the trail activation as
 * they were). Only the arguments in `varying` are read: the others are the exit's (relevelExit).
 */
function moveLimitStop(e: ExitOrder, req: ExitRequest, varying: number): void {
  if ((varying & EXIT_ARG_LIMIT) !== 0) {
    const limit = finite(req.limit);
    if (!same(e.limit, limit)) {
      e.limit = limit;
      e.lvStale |= LV_TP;
    }
  }
  if ((varying & EXIT_ARG_STOP) !== 0) {
    const stop = finite(req.stop);
    if (!same(e.stop, stop)) {
      e.stop = stop;
      e.lvStale |= LV_SL;
    }
  }
}

/**
 * moveLimitStop for the request's other numbers (tick distances, trail, size): a trail moved on
 * every bar (macd_trail's loss, trail_points and trail_offset) compares those three, not seven.
 */
function moveOtherNumbers(e: ExitOrder, req: ExitRequest, varying: number): void {
  if ((varying & EXIT_ARG_PROFIT) !== 0) {
    const profit = finite(req.profit);
    if (!same(e.profit, profit)) {
      e.profit = profit;
      e.lvStale |= LV_TP;
    }
  }
  if ((varying & EXIT_ARG_LOSS) !== 0) {
    const loss = finite(req.loss);
    if (!same(e.loss, loss)) {
      e.loss = loss;
      e.lvStale |= LV_SL;
    }
  }
  if ((varying & EXIT_ARG_TRAIL) !== 0) {
    const trailPrice = finite(req.trailPrice);
    const trailPoints = finite(req.trailPoints);
    if (!(same(e.trailPrice, trailPrice) && same(e.trailPoints, trailPoints))) {
      e.trailPrice = trailPrice;
      e.trailPoints = trailPoints;
      e.lvStale |= LV_ACT;
    }
  }
  // (stored only when moved: a double store into a field may box a new number)
  if ((varying & EXIT_ARG_QTY) !== 0) {
    const qty = finite(req.qty);
    if (!same(e.qty, qty)) e.qty = qty;
  }
  if ((varying & EXIT_ARG_QTY_PERCENT) !== 0) {
    const qtyPercent = finite(req.qtyPercent);
    if (!same(e.qtyPercent, qtyPercent)) e.qtyPercent = qtyPercent;
  }
  if ((varying & (EXIT_ARG_TRAIL | EXIT_ARG_TRAIL_OFFSET)) !== 0) {
    // an activation level without trail_offset trails at offset 0: the stop sits on the activation
    // price and fires there (TradingView; PineForge bracket-trail-points-no-offset exports); the
    // exit's trail fields are the request's now
    const trailOffset =
      e.trailPoints === e.trailPoints || e.trailPrice === e.trailPrice ? finite(req.trailOffset) || 0 : NaN;
    if (!same(e.trailOffset, trailOffset)) e.trailOffset = trailOffset;
  }
}

/** Whether the request's texts and flag (comments, oca_name, alert texts, disable_alert) are exit `e`'s. */
function sameTexts(e: ExitOrder, req: ExitRequest): boolean {
  return !(
    e.alerts !== null ||
    e.disableAlert !== (req.disableAlert === true) ||
    req.alertMessage ||
    req.alertProfit ||
    req.alertLoss ||
    req.alertTrailing ||
    e.ocaName !== (req.ocaName ?? null) ||
    e.comment !== (req.comment ?? null) ||
    e.commentProfit !== (req.commentProfit ?? null) ||
    e.commentLoss !== (req.commentLoss ?? null) ||
    e.commentTrailing !== (req.commentTrailing ?? null)
  );
}

/**
 * The exit's alert texts; null when the call gave none (the common case). An unchanged set keeps its
 * object: never mutated, since broker snapshots share it.
 */
function exitAlerts(prev: ExitAlerts | null, req: ExitRequest): ExitAlerts | null {
  if (!(req.alertMessage || req.alertProfit || req.alertLoss || req.alertTrailing)) return null;
  const message = req.alertMessage ?? null;
  const profit = req.alertProfit ?? null;
  const loss = req.alertLoss ?? null;
  const trailing = req.alertTrailing ?? null;
  if (
    prev !== null &&
    prev.message === message &&
    prev.profit === profit &&
    prev.loss === loss &&
    prev.trailing === trailing
  )
    return prev;
  return { message, profit, loss, trailing };
}
