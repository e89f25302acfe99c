// strategy.entry / order / exit / close / close_all / cancel / cancel_all, strategy.risk.* and the
// conversion helpers. Arguments arrive in builtins.json parameter order (src/builtins/types.ts).

import {
  type CloseRequest,
  type EntryRequest,
  EXIT_ARG_ALL,
  EXIT_PARAMS,
  type ExitParam,
  type ExitRequest,
  type OcaType,
} from "../../strategy/types.js";
import type { BuiltinTable, ExecContext } from "../types.js";
import { brokerOf, constName, num, strOrNull } from "./common.js";

function direction(ctx: ExecContext, v: unknown): "long" | "short" {
  // (strategy.long's value as it mostly arrives: constName's lastIndexOf is a builtin call)
  if (v === "long" || v === "short") return v;
  const d = constName(v);
  if (d === "long" || d === "short") return d;
  return ctx.runtimeError(`Invalid strategy direction: ${String(v)}`);
}

function ocaType(v: unknown): OcaType {
  const t = constName(v);
  return t === "cancel" || t === "reduce" ? t : "none";
}

function orderId(ctx: ExecContext, v: unknown, fn: string): string {
  if (typeof v !== "string") return ctx.runtimeError(`${fn}: the order id must be a string, not na`);
  return v;
}

// One request object per kind, rewritten by every call: the broker reads it synchronously and copies
// what it keeps, so a script placing orders on every bar allocates no request.
const entryReq: Required<EntryRequest> = {
  id: "",
  direction: "long",
  qty: NaN,
  limit: NaN,
  stop: NaN,
  ocaName: null,
  ocaType: "none",
  comment: null,
  alertMessage: null,
  disableAlert: false,
};

const exitReq: Required<ExitRequest> = newExitRequest();

const closeReq: Required<CloseRequest> = {
  id: null,
  comment: null,
  qty: NaN,
  qtyPercent: NaN,
  alertMessage: null,
  immediately: false,
  disableAlert: false,
};

/**
 * strategy.entry and strategy.order share their parameter list. Positional (BuiltinDef.direct): the
 * compiled loop passes the values without an argument array; the impl unpacks the interpreter's.
 */
function placeOrder(kind: "entry" | "order") {
  const fn = `strategy.${kind}`;
  return (
    ctx: ExecContext,
    id: unknown,
    dir: unknown,
    qty: unknown,
    limit: unknown,
    stop: unknown,
    ocaName: unknown,
    ocaTypeArg: unknown,
    comment: unknown,
    alertMessage: unknown,
    disableAlert: unknown,
  ): void => {
    const b = brokerOf(ctx);
    const r = entryReq;
    r.id = orderId(ctx, id, fn);
    r.direction = direction(ctx, dir);
    r.qty = num(qty);
    r.limit = num(limit);
    r.stop = num(stop);
    r.ocaName = strOrNull(ocaName);
    r.ocaType = ocaType(ocaTypeArg);
    r.comment = strOrNull(comment);
    r.alertMessage = strOrNull(alertMessage);
    r.disableAlert = disableAlert === true;
    b.entry(r, ctx, kind);
  };
}

function placeExit(
  ctx: ExecContext,
  id: unknown,
  fromEntry: unknown,
  qty: unknown,
  qtyPercent: unknown,
  profit: unknown,
  limit: unknown,
  loss: unknown,
  stop: unknown,
  trailPrice: unknown,
  trailPoints: unknown,
  trailOffset: unknown,
  ocaName: unknown,
  comment: unknown,
  commentProfit: unknown,
  commentLoss: unknown,
  commentTrailing: unknown,
  alertMessage: unknown,
  alertProfit: unknown,
  alertLoss: unknown,
  alertTrailing: unknown,
  disableAlert: unknown,
): void {
  const b = brokerOf(ctx);
  const r = exitReq;
  r.id = orderId(ctx, id, "strategy.exit");
  r.fromEntry = strOrNull(fromEntry);
  r.qty = num(qty);
  r.qtyPercent = num(qtyPercent);
  r.profit = num(profit);
  r.limit = num(limit);
  r.loss = num(loss);
  r.stop = num(stop);
  r.trailPrice = num(trailPrice);
  r.trailPoints = num(trailPoints);
  r.trailOffset = num(trailOffset);
  r.ocaName = strOrNull(ocaName);
  r.comment = strOrNull(comment);
  r.commentProfit = strOrNull(commentProfit);
  r.commentLoss = strOrNull(commentLoss);
  r.commentTrailing = strOrNull(commentTrailing);
  r.alertMessage = strOrNull(alertMessage);
  r.alertProfit = strOrNull(alertProfit);
  r.alertLoss = strOrNull(alertLoss);
  r.alertTrailing = strOrNull(alertTrailing);
  r.disableAlert = disableAlert === true;
  b.exit(r, ctx);
}

/** How each of strategy.exit's arguments converts into its request field. */
const EXIT_CONV: Record<ExitParam, "num" | "str" | "bool" | "raw"> = {
  id: "raw",
  fromEntry: "str",
  qty: "num",
  qtyPercent: "num",
  profit: "num",
  limit: "num",
  loss: "num",
  stop: "num",
  trailPrice: "num",
  trailPoints: "num",
  trailOffset: "num",
  ocaName: "str",
  comment: "str",
  commentProfit: "str",
  commentLoss: "str",
  commentTrailing: "str",
  alertMessage: "str",
  alertProfit: "str",
  alertLoss: "str",
  alertTrailing: "str",
  disableAlert: "bool",
};

/**
 * strategy.exit's parameters in order, as request fields, and how each argument converts: in
 * EXIT_PARAMS' order, which the EXIT_ARG_* bits relevelExit reads are made from.
 */
const EXIT_FIELDS = EXIT_PARAMS.map((n) => [n, EXIT_CONV[n]] as const);

/** A compiled strategy.exit site's own request: fields converted, the id still unchecked. */
type ExitSiteRequest = Omit<Required<ExitRequest>, "id"> & { id: unknown };

/**
 * A strategy.exit request with every field at its na default: the interpreter's shared exitReq, and
 * a fresh one per compiled call site (never a copy of exitReq, which holds the last interpreted call's
 * values).
 */
function newExitRequest(): Required<ExitRequest> {
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
    alertMessage: null,
    alertProfit: null,
    alertLoss: null,
    alertTrailing: null,
    disableAlert: false,
    // (a compiled site narrows it to the arguments it writes per call)
    varying: EXIT_ARG_ALL,
    placed: null,
  };
}

/** Parameter index of each numeric strategy.exit field (its place in EXIT_PARAMS). */
const [QTY, QTY_PCT, PROFIT, LIMIT, LOSS, STOP, TRAIL_PRICE, TRAIL_POINTS, TRAIL_OFFSET] = (
  ["qty", "qtyPercent", "profit", "limit", "loss", "stop", "trailPrice", "trailPoints", "trailOffset"] as const
).map((n) => EXIT_PARAMS.indexOf(n)) as number[];

/** The interpreter's strategy.exit site (siteRequest.loadNums): the numeric fields from its area. */
function loadExitNums(r: ExitSiteRequest, n: Float64Array): void {
  r.qty = n[QTY!]!;
  r.qtyPercent = n[QTY_PCT!]!;
  r.profit = n[PROFIT!]!;
  r.limit = n[LIMIT!]!;
  r.loss = n[LOSS!]!;
  r.stop = n[STOP!]!;
  r.trailPrice = n[TRAIL_PRICE!]!;
  r.trailPoints = n[TRAIL_POINTS!]!;
  r.trailOffset = n[TRAIL_OFFSET!]!;
}

/**
 * The compiled loop's strategy.exit (BuiltinDef.siteRequest): the site's request arrives with its
 * arguments written and converted; the same checks, in the same order, as placeExit.
 */
function exitWith(ctx: ExecContext, r: ExitSiteRequest): void {
  const b = brokerOf(ctx);
  orderId(ctx, r.id, "strategy.exit");
  b.exit(r as Required<ExitRequest>, ctx);
}

/** strategy.close(id, comment, qty, qty_percent, alert_message, immediately, disable_alert) and close_all. */
/** strategy.close, positional (BuiltinDef.direct: the compiled loop passes its values without an argument array). */
function placeClose(
  ctx: ExecContext,
  id: unknown,
  comment: unknown,
  qty: unknown,
  qtyPercent: unknown,
  alertMessage: unknown,
  immediately: unknown,
  disableAlert: unknown,
): void {
  const r = closeReq;
  r.id = orderId(ctx, id, "strategy.close");
  r.comment = strOrNull(comment);
  r.qty = num(qty);
  r.qtyPercent = num(qtyPercent);
  r.alertMessage = strOrNull(alertMessage);
  r.immediately = immediately === true;
  r.disableAlert = disableAlert === true;
  brokerOf(ctx).close(r, ctx, false);
}

/** strategy.close_all, positional (BuiltinDef.direct). */
function placeCloseAll(
  ctx: ExecContext,
  comment: unknown,
  alertMessage: unknown,
  immediately: unknown,
  disableAlert: unknown,
): void {
  const r = closeReq;
  r.id = null;
  r.comment = strOrNull(comment);
  r.qty = NaN;
  r.qtyPercent = NaN;
  r.alertMessage = strOrNull(alertMessage);
  r.immediately = immediately === true;
  r.disableAlert = disableAlert === true;
  brokerOf(ctx).close(r, ctx, true);
}

/** strategy.cancel, positional (BuiltinDef.direct). */
function placeCancel(ctx: ExecContext, id: unknown): void {
  brokerOf(ctx).cancel(orderId(ctx, id, "strategy.cancel"), ctx);
}

function orderDef(kind: "entry" | "order"): BuiltinTable[string] {
  const place = placeOrder(kind);
  return {
    name: `strategy.${kind}`,
    direct: place,
    impl: (ctx, a) => place(ctx, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]),
  };
}

function riskType(v: unknown): "percent_of_equity" | "cash" {
  return constName(v) === "cash" ? "cash" : "percent_of_equity";
}

export const orderFunctions: BuiltinTable = {
  "strategy.entry": orderDef("entry"),
  "strategy.order": orderDef("order"),
  "strategy.exit": {
    name: "strategy.exit",
    siteRequest: { fields: EXIT_FIELDS, make: newExitRequest, place: exitWith, loadNums: loadExitNums },
    impl: (ctx, a) =>
      placeExit(
        ctx,
        a[0],
        a[1],
        a[2],
        a[3],
        a[4],
        a[5],
        a[6],
        a[7],
        a[8],
        a[9],
        a[10],
        a[11],
        a[12],
        a[13],
        a[14],
        a[15],
        a[16],
        a[17],
        a[18],
        a[19],
        a[20],
      ),
  },
  "strategy.close": {
    name: "strategy.close",
    direct: placeClose,
    impl: (ctx, a) => placeClose(ctx, a[0], a[1], a[2], a[3], a[4], a[5], a[6]),
  },
  "strategy.close_all": {
    name: "strategy.close_all",
    direct: placeCloseAll,
    impl: (ctx, a) => placeCloseAll(ctx, a[0], a[1], a[2], a[3]),
  },
  "strategy.cancel": { name: "strategy.cancel", direct: placeCancel, impl: (ctx, a) => placeCancel(ctx, a[0]) },
  "strategy.cancel_all": { name: "strategy.cancel_all", impl: (ctx) => brokerOf(ctx).cancelAll(ctx) },

  "strategy.risk.allow_entry_in": {
    name: "strategy.risk.allow_entry_in",
    impl: (ctx, a) => {
      const d = constName(a[0]);
      brokerOf(ctx).risk.allowEntryIn = d === "long" || d === "short" ? d : "all";
    },
  },
  "strategy.risk.max_position_size": {
    name: "strategy.risk.max_position_size",
    impl: (ctx, a) => {
      const v = num(a[0]);
      if (!(v > 0)) ctx.runtimeError("strategy.risk.max_position_size: contracts must be greater than 0");
      brokerOf(ctx).risk.maxPositionSize = v;
    },
  },
  "strategy.risk.max_intraday_loss": {
    name: "strategy.risk.max_intraday_loss",
    impl: (ctx, a) => {
      const r = brokerOf(ctx).risk;
      r.maxIntradayLoss = num(a[0]);
      r.maxIntradayLossType = riskType(a[1]);
    },
  },
  "strategy.risk.max_drawdown": {
    name: "strategy.risk.max_drawdown",
    impl: (ctx, a) => {
      const r = brokerOf(ctx).risk;
      r.maxDrawdownValue = num(a[0]);
      r.maxDrawdownType = riskType(a[1]);
    },
  },
  "strategy.risk.max_cons_loss_days": {
    name: "strategy.risk.max_cons_loss_days",
    impl: (ctx, a) => {
      brokerOf(ctx).risk.maxConsLossDays = num(a[0]);
    },
  },
  "strategy.risk.max_intraday_filled_orders": {
    name: "strategy.risk.max_intraday_filled_orders",
    impl: (ctx, a) => {
      brokerOf(ctx).risk.maxIntradayFilledOrders = num(a[0]);
    },
  },

  // Account <-> symbol currency at the rate the broker converts profits with (src/strategy/currency.ts).
  "strategy.convert_to_account": {
    name: "strategy.convert_to_account",
    impl: (ctx, a) => num(a[0]) * brokerOf(ctx).currency.rate,
  },
  "strategy.convert_to_symbol": {
    name: "strategy.convert_to_symbol",
    impl: (ctx, a) => num(a[0]) / brokerOf(ctx).currency.rate,
  },
  "strategy.default_entry_qty": {
    name: "strategy.default_entry_qty",
    impl: (ctx, a) => brokerOf(ctx).defaultQty(num(a[0])),
  },
};
