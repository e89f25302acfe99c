// Internal shapes of the broker emulator: pending orders and open trades.

import type { LogSite } from "./events.js";

export type Side = 1 | -1;
export type OcaType = "cancel" | "reduce" | "none";

/**
 * What the broker remembers of an entry/order call at one place (Broker.entry): the request's own
 * fields for its first call in a script execution, EntryRequest.parts for its later ones.
 */
export interface EntryMemo {
  /**
   * The broker's memo of the place's last tick-rounded prices (Broker.entry): the signed tick they
   * were rounded for (mintick, negative for a short: a request outlives a run, and the side picks the
   * rounding), the limit and stop as given and as rounded. A re-placed entry whose prices did not
   * move is not rounded again; absent or NaN: nothing memoised.
   */
  memoTick?: number;
  memoRawLimit?: number;
  memoLimit?: number;
  memoRawStop?: number;
  memoStop?: number;
  /** The order placed last from here (a hint for OrderBook.requeueEntryLike; absent or null: none). */
  placed?: PendingOrder | null;
}

/**
 * A call site's position among its calls in one script execution (a site in a loop is called once
 * per level): the broker's pass (Broker.pass) of its last call and that call's index. Calls past
 * the first keep their memories per index (`parts`), so a loop's level n finds its own order.
 */
export interface CallParts<M> {
  /** Memories of the calls at index 1, 2, ... (index 0: the request's own fields); absent: none yet. */
  parts?: M[] | null;
  partPass?: number;
  partAt?: number;
}

/** Arguments of strategy.entry / strategy.order after the builtin layer resolved defaults. */
export interface EntryRequest extends EntryMemo, CallParts<EntryMemo> {
  id: string;
  direction: "long" | "short";
  /** NaN/undefined: the strategy's default quantity. */
  qty?: number;
  limit?: number;
  stop?: number;
  ocaName?: string | null;
  ocaType?: OcaType;
  comment?: string | null;
  alertMessage?: string | null;
  disableAlert?: boolean;
  /** The call site's memory of its last logged call (EventLog.logSite); absent: the broker's shared one. */
  site?: LogSite | null;
}

/** What the broker remembers of a strategy.exit call at one place (see EntryMemo). */
export interface ExitMemo {
  /**
   * The exit placed or re-placed last from here, which the place's next call most likely re-places
   * again (OrderBook.placedExit checks it is still pending); any other.
   */
  placed?: ExitOrder | null;
}

/** Arguments of strategy.exit. Tick distances (profit/loss/trailPoints/trailOffset) are in ticks. */
export interface ExitRequest extends ExitMemo, CallParts<ExitMemo> {
  id: string;
  fromEntry?: string | null;
  qty?: number;
  qtyPercent?: number;
  profit?: number;
  limit?: number;
  loss?: number;
  stop?: number;
  trailPrice?: number;
  trailPoints?: number;
  trailOffset?: number;
  ocaName?: string | null;
  comment?: string | null;
  commentProfit?: string | null;
  commentLoss?: string | null;
  commentTrailing?: string | null;
  alertMessage?: string | null;
  /** Per-leg alert texts (take-profit, stop-loss, trailing); alertMessage when na. */
  alertProfit?: string | null;
  alertLoss?: string | null;
  alertTrailing?: string | null;
  disableAlert?: boolean;
  /**
   * The fields a call through this same object may have changed since its previous call, one bit
   * per strategy.exit parameter in order (EXIT_ARG_*); absent: any. A compiled call site's own
   * request writes its constant arguments once and only the others per call, so an exit it placed
   * before needs only those compared (relevelExit).
   */
  varying?: number;
  /** The call site's memory of its last logged call (EventLog.logSite); absent: the broker's shared one. */
  site?: LogSite | null;
}

/**
 * strategy.exit's parameters in signature order, as ExitRequest fields: the one list the builtin's
 * per-site request (its siteRequest fields, whose position codegen turns into `varying` bits) and
 * the EXIT_ARG_* bits below are both made from, so a reordered parameter moves its bit with it.
 */
export const EXIT_PARAMS = [
  "id",
  "fromEntry",
  "qty",
  "qtyPercent",
  "profit",
  "limit",
  "loss",
  "stop",
  "trailPrice",
  "trailPoints",
  "trailOffset",
  "ocaName",
  "comment",
  "commentProfit",
  "commentLoss",
  "commentTrailing",
  "alertMessage",
  "alertProfit",
  "alertLoss",
  "alertTrailing",
  "disableAlert",
] as const satisfies readonly Exclude<keyof ExitRequest, "varying" | "placed" | "site">[];
export type ExitParam = (typeof EXIT_PARAMS)[number];

/** The ExitRequest.varying bits of these parameters (1 << each one's index in strategy.exit's signature). */
function exitArgs(...names: ExitParam[]): number {
  let bits = 0;
  for (const n of names) bits |= 1 << EXIT_PARAMS.indexOf(n);
  return bits;
}

export const EXIT_ARG_LIMIT = exitArgs("limit");
/**
 * The arguments a call site may vary while its exit is re-placed by Broker.exit's short path: the
 * id and from_entry (compared there: another one is another exit) and the limit and stop (stored as
 * they move). A site varying any other argument takes the general path (relevelExit).
 */
export const EXIT_ARG_LEVELS_ONLY = exitArgs("id", "fromEntry", "limit", "stop");
export const EXIT_ARG_STOP = exitArgs("stop");
export const EXIT_ARG_PROFIT = exitArgs("profit");
export const EXIT_ARG_LOSS = exitArgs("loss");
export const EXIT_ARG_TRAIL = exitArgs("trailPrice", "trailPoints");
export const EXIT_ARG_TRAIL_OFFSET = exitArgs("trailOffset");
export const EXIT_ARG_QTY = exitArgs("qty");
export const EXIT_ARG_QTY_PERCENT = exitArgs("qtyPercent");
/** strategy.exit's number arguments other than the limit and stop relevelExit takes as they move. */
export const EXIT_OTHER_NUMBER_PARAMS = [
  "qty",
  "qtyPercent",
  "profit",
  "loss",
  "trailPrice",
  "trailPoints",
  "trailOffset",
] as const satisfies readonly ExitParam[];
/** strategy.exit's string and flag arguments: the signature's tail from oca_name (comments, alert messages, disable_alert). */
export const EXIT_TEXT_PARAMS = EXIT_PARAMS.slice(EXIT_PARAMS.indexOf("ocaName")) as readonly ExitParam[];
export const EXIT_ARG_OTHER_NUMBERS = exitArgs(...EXIT_OTHER_NUMBER_PARAMS);
export const EXIT_ARG_TEXTS = exitArgs(...EXIT_TEXT_PARAMS);
export const EXIT_ARG_ALL = exitArgs(...EXIT_PARAMS);

export interface CloseRequest {
  id?: string | null;
  comment?: string | null;
  qty?: number;
  qtyPercent?: number;
  alertMessage?: string | null;
  immediately?: boolean;
  disableAlert?: boolean;
  /** The call site's memory of its last logged call (EventLog.logSite); absent: the broker's shared one. */
  site?: LogSite | null;
}

/** A pending entry/order/close order (exits are ExitOrder). */
export interface PendingOrder {
  kind: "entry" | "order" | "close" | "close_all";
  id: string;
  side: Side;
  /** Absolute quantity; NaN for close orders means "the whole matching position". */
  qty: number;
  /**
   * strategy.entry: the opposite position held when the order was placed, which a reversing entry
   * closes on top of its own qty (TradingView sizes the reversal at placement, not at the fill).
   */
  reverse: number;
  /**
   * close / close_all: it closes only trades opened before it was placed (OpenTrade.seq below this);
   * Infinity when placed while flat (it then closes what the pending entries open).
   */
  openedBefore: number;
  /** close: percent of the matching position (when qty is NaN). */
  qtyPercent: number;
  limit: number;
  stop: number;
  /** Set once a stop-limit's stop was touched: from then on it is a limit order. */
  stopTriggered: boolean;
  ocaName: string | null;
  ocaType: OcaType;
  comment: string | null;
  alertMessage: string | null;
  disableAlert: boolean;
  /** Creation order: orders triggered at the same price fill in this order. */
  seq: number;
  /** Where it was last seen in the book's list (a hint: OrderBook.requeueEntryLike checks it). */
  at: number;
  placedBar: number;
  /** Filled only at a bar's open (market orders placed on an earlier bar). */
  market: boolean;
  /** Placed by a calc_on_order_fills execution inside its bar: live for the rest of that bar's path. */
  intrabar: boolean;
}

/** One strategy.exit call (re-issued calls with the same id update it). */
export interface ExitOrder {
  id: string;
  fromEntry: string | null;
  qty: number;
  qtyPercent: number;
  profit: number;
  limit: number;
  loss: number;
  stop: number;
  trailPrice: number;
  trailPoints: number;
  trailOffset: number;
  ocaName: string | null;
  comment: string | null;
  commentProfit: string | null;
  commentLoss: string | null;
  commentTrailing: string | null;
  /** alert_message and the per-leg alert texts; null when the call gave none (the common case: smaller objects). */
  alerts: ExitAlerts | null;
  disableAlert: boolean;
  seq: number;
  placedBar: number;
  /** Has matched at least one open trade (it is dropped once none of its trades remain). */
  armed: boolean;
  /**
   * The ledger's version when a placement found none of the open trades covered (-1: not looked):
   * until a trade opens or closes, a re-placement need not look again (Broker.exit).
   */
  unarmedAt: number;
  /**
   * With from_entry: the open trades it covers lie in [coverLo, coverHi) of the ledger's list, as
   * found at the ledger's (version, epoch) coverAt / coverEpoch for from_entry coverOf (the per-bar
   * walk's levels and scan look at those trades only; PathWalker.coverRange). -1: not looked.
   */
  coverAt: number;
  coverEpoch: number;
  coverOf: string | null;
  coverLo: number;
  coverHi: number;
  /**
   * Without from_entry: the side of the position open when the exit was placed (0 when flat). An
   * exit binds to the open position, so the new leg of a reversal is not covered until the script
   * issues the exit again on a later bar.
   */
  bindSide: Side | 0;
  /** Placed by a calc_on_order_fills execution inside its bar: live for the rest of that bar's path. */
  intrabar: boolean;
  /**
   * The request object whose call last wrote this exit (writeExit, relevelExit): its fields outside
   * its `varying` bits still hold what was written, so a re-placement through it compares only those.
   */
  src: ExitRequest | null;
  /** Its index in the book's exits when last placed or found (OrderBook.placedExit checks it). */
  at: number;
  /**
   * The bracket levels (levels.ts) last worked out, for a trade entered at `lvPrice` on `lvSide`:
   * they depend only on those and the exit's own fields (on the side alone when no level is in ticks
   * from the entry), so the path walk reads them instead of rounding them again at every point.
   * lvSide 0: none yet. Re-placing the exit with other levels
   * marks only the levels whose arguments changed stale (`lvStale`: LV_TP | LV_SL | LV_ACT).
   */
  lvPrice: number;
  lvSide: Side | 0;
  lvTp: number;
  lvSl: number;
  lvAct: number;
  lvStale: number;
}

/** ExitOrder.lvStale bits: the take-profit, stop-loss and trail-activation levels to work out again. */
export const LV_TP = 1;
export const LV_SL = 2;
export const LV_ACT = 4;

export interface ExitAlerts {
  message: string | null;
  profit: string | null;
  loss: string | null;
  trailing: string | null;
}

/** One order fill as alerts and calc_on_order_fills see it. */
export interface FillNote {
  id: string;
  /** "buy" or "sell". */
  action: "buy" | "sell";
  qty: number;
  price: number;
  comment: string | null;
  alertMessage: string | null;
  /** Position size before and after the fill (signed). */
  prevPosition: number;
  position: number;
  bar: number;
  time: number;
}

/** A filled entry that is (still partly) open. Money values are in account currency. */
export interface OpenTrade {
  entryId: string;
  entryComment: string | null;
  entryBar: number;
  entryTime: number;
  entryPrice: number;
  side: Side;
  /** Remaining quantity (absolute). */
  qty: number;
  /** Quantity when filled (qty_percent of strategy.exit refers to it). */
  initialQty: number;
  /** Entry commission not yet attributed to a closed part. */
  commission: number;
  /** Most favourable / adverse prices seen since the fill. */
  bestPrice: number;
  worstPrice: number;
  /**
   * Per exit id: quantity this exit already closed of the trade. Null until an exit closes part of
   * it (Ledger.addExitFilled; most trades close whole, and a closed trade's record is never read).
   */
  exitFilled: Map<string, number> | null;
  /**
   * Activated trailing stops per exit id: the extreme price since activation (an exit with no entry
   * has not activated). The trade's first one in two fields (trailId null until it activates; most
   * trades have one trailing exit at most: no map, no object a trade), any further one in `trail`
   * (null until there is one). Read and written through walk.ts (trailExtreme, setTrailExtreme).
   */
  trailId: string | null;
  trailExtreme: number;
  trail: Map<string, { extreme: number }> | null;
  seq: number;
}
