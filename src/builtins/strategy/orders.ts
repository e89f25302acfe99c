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
import { LogSite } from "../../strategy/events.js";
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
  // (strategy.oca.*'s value as it mostly arrives, as direction's: constName's lastIndexOf is a builtin call)
  if (v === "none" || v === "cancel" || v === "reduce") return v;
  const t = constName(v);
  return t === "cancel" || t === "reduce" ? t : "none";
}

function orderId(ctx: ExecContext, v: unknown, fn: string): string {
  if (typeof v !== "string") return ctx.runtimeError(`${fn}: the order id must be a string, not na`);
  return v;
}

/** A per-site request's fields in parameter order, each with its argument's conversion (BuiltinDef.siteRequest). */
type SiteFields = readonly (readonly [name: string, conv: "num" | "str" | "bool" | "raw"])[];

/**
 * The general call's arguments (the argument array, parameter order) written into a request as a
 * site writes them (BuiltinDef.siteRequest's conversions): the impl of every order call is its
 * site's place function on one request per builtin, so both paths place the same order.
 */
function fromArgs<R extends object>(r: R, fields: SiteFields, a: readonly unknown[]): R {
  const o = r as Record<string, unknown>;
  for (let i = 0; i < fields.length; i++) {
    const [name, conv] = fields[i]!;
    const v = a[i];
    o[name] = conv === "num" ? num(v) : conv === "str" ? strOrNull(v) : conv === "bool" ? v === true : v;
  }
  return r;
}

/**
 * A builtin whose calls go through a per-site request (BuiltinDef.siteRequest: the compiled loop's
 * and the interpreter's call sites each own one, rewritten by every call; the broker reads it
 * synchronously and copies what it keeps), and whose impl (the general call) fills one shared request.
 */
function siteCall<R extends object>(
  name: string,
  fields: SiteFields,
  make: () => R,
  place: (ctx: ExecContext, r: R) => void,
  loadNums: (r: R, nums: Float64Array) => void,
): BuiltinTable[string] {
  const shared = make();
  return {
    name,
    siteRequest: { fields, make, place, loadNums },
    impl: (ctx, a) => place(ctx, fromArgs(shared, fields, a)),
  };
}

/** A request's parameter index of each field (its place in the builtin's signature). */
function paramIndex(fields: SiteFields, name: string): number {
  return fields.findIndex(([f]) => f === name);
}

/**
 * strategy.entry / strategy.order's request: the arguments as given (direction and oca_type raw,
 * in `dirArg` / `ocaTypeArg`) and, set by the place function, their conversions.
 */
type OrderSiteRequest = Omit<Required<EntryRequest>, "id"> & { id: unknown; dirArg: unknown; ocaTypeArg: unknown };

const ORDER_FIELDS: SiteFields = [
  ["id", "raw"],
  ["dirArg", "raw"],
  ["qty", "num"],
  ["limit", "num"],
  ["stop", "num"],
  ["ocaName", "str"],
  ["ocaTypeArg", "raw"],
  ["comment", "str"],
  ["alertMessage", "str"],
  ["disableAlert", "bool"],
];

function newOrderRequest(): OrderSiteRequest {
  return {
    id: "",
    dirArg: undefined,
    direction: "long",
    qty: NaN,
    limit: NaN,
    stop: NaN,
    ocaName: null,
    ocaTypeArg: undefined,
    ocaType: "none",
    comment: null,
    alertMessage: null,
    disableAlert: false,
    site: new LogSite(),
    memoTick: NaN,
    memoRawLimit: NaN,
    memoLimit: NaN,
    memoRawStop: NaN,
    memoStop: NaN,
    placed: null,
    // (the broker's count of the site's calls in a pass, and its memories per call: CallParts)
    parts: null,
    partPass: -1,
    partAt: 0,
  };
}

const [ORDER_QTY, ORDER_LIMIT, ORDER_STOP] = ["qty", "limit", "stop"].map((n) => paramIndex(ORDER_FIELDS, n)) as [
  number,
  number,
  number,
];

function loadOrderNums(r: OrderSiteRequest, n: Float64Array): void {
  r.qty = n[ORDER_QTY]!;
  r.limit = n[ORDER_LIMIT]!;
  r.stop = n[ORDER_STOP]!;
}

/** strategy.entry and strategy.order share their parameter list. */
function orderDef(kind: "entry" | "order"): BuiltinTable[string] {
  const fn = `strategy.${kind}`;
  return siteCall(
    fn,
    ORDER_FIELDS,
    newOrderRequest,
    (ctx, r) => {
      const b = brokerOf(ctx);
      orderId(ctx, r.id, fn);
      r.direction = direction(ctx, r.dirArg);
      r.ocaType = ocaType(r.ocaTypeArg);
      b.entry(r as Required<EntryRequest>, ctx, kind);
    },
    loadOrderNums,
  );
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

/** A strategy.exit call site's own request: fields converted, the id still unchecked. */
type ExitSiteRequest = Omit<Required<ExitRequest>, "id"> & { id: unknown };

/**
 * A strategy.exit request with every field at its na default: the general call's shared one, and
 * one per call site (never a copy of the shared one, which holds the last general call's values).
 */
function newExitRequest(): ExitSiteRequest {
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
    // (a site narrows it to the arguments it writes per call)
    varying: EXIT_ARG_ALL,
    placed: null,
    // (the broker's count of the site's calls in a pass, and its memories per call: CallParts)
    parts: null,
    partPass: -1,
    partAt: 0,
    // (the site's memory of its last logged call: one per request, so per call site)
    site: new LogSite(),
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

/** strategy.exit's place function: the id checked, then the broker. */
function exitWith(ctx: ExecContext, r: ExitSiteRequest): void {
  const b = brokerOf(ctx);
  orderId(ctx, r.id, "strategy.exit");
  b.exit(r as Required<ExitRequest>, ctx);
}

/** strategy.close(id, comment, qty, qty_percent, alert_message, immediately, disable_alert)'s request. */
type CloseSiteRequest = Omit<Required<CloseRequest>, "id"> & { id: unknown };

const CLOSE_FIELDS: SiteFields = [
  ["id", "raw"],
  ["comment", "str"],
  ["qty", "num"],
  ["qtyPercent", "num"],
  ["alertMessage", "str"],
  ["immediately", "bool"],
  ["disableAlert", "bool"],
];

/** strategy.close_all(comment, alert_message, immediately, disable_alert): close's request without id or size. */
const CLOSE_ALL_FIELDS: SiteFields = [
  ["comment", "str"],
  ["alertMessage", "str"],
  ["immediately", "bool"],
  ["disableAlert", "bool"],
];

function newCloseRequest(): CloseSiteRequest {
  return {
    id: null,
    comment: null,
    qty: NaN,
    qtyPercent: NaN,
    alertMessage: null,
    immediately: false,
    disableAlert: false,
    site: new LogSite(),
  };
}

const [CLOSE_QTY, CLOSE_PCT] = ["qty", "qtyPercent"].map((n) => paramIndex(CLOSE_FIELDS, n)) as [number, number];

function loadCloseNums(r: CloseSiteRequest, n: Float64Array): void {
  r.qty = n[CLOSE_QTY]!;
  r.qtyPercent = n[CLOSE_PCT]!;
}

/** strategy.cancel(id) and cancel_all()'s request. */
interface CancelSiteRequest {
  id: unknown;
  site: LogSite;
}

const newCancelRequest = (): CancelSiteRequest => ({ id: null, site: new LogSite() });

const noNums = (): void => {};

function riskType(v: unknown): "percent_of_equity" | "cash" {
  return constName(v) === "cash" ? "cash" : "percent_of_equity";
}

export const orderFunctions: BuiltinTable = {
  "strategy.entry": orderDef("entry"),
  "strategy.order": orderDef("order"),
  "strategy.exit": siteCall("strategy.exit", EXIT_FIELDS, newExitRequest, exitWith, loadExitNums),
  "strategy.close": siteCall(
    "strategy.close",
    CLOSE_FIELDS,
    newCloseRequest,
    (ctx, r) => {
      // (the id checked before the broker is reached, as ever)
      orderId(ctx, r.id, "strategy.close");
      brokerOf(ctx).close(r as Required<CloseRequest>, ctx, false);
    },
    loadCloseNums,
  ),
  "strategy.close_all": siteCall(
    "strategy.close_all",
    CLOSE_ALL_FIELDS,
    newCloseRequest,
    (ctx, r) => brokerOf(ctx).close(r as Required<CloseRequest>, ctx, true),
    noNums,
  ),
  "strategy.cancel": siteCall(
    "strategy.cancel",
    [["id", "raw"]],
    newCancelRequest,
    (ctx, r) => {
      const b = brokerOf(ctx);
      b.cancel(orderId(ctx, r.id, "strategy.cancel"), ctx, r.site);
    },
    noNums,
  ),
  "strategy.cancel_all": siteCall(
    "strategy.cancel_all",
    [],
    newCancelRequest,
    (ctx, r) => brokerOf(ctx).cancelAll(ctx, r.site),
    noNums,
  ),

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
    // (the rule measures from the equity's peak: strategy/risk.ts)
    equityFigures: true,
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
