// strategy.entry / order / exit / close / close_all / cancel / cancel_all, strategy.risk.* and the
// conversion helpers. Arguments arrive in builtins.json parameter order (src/builtins/types.ts).

import type { OcaType } from "../../strategy/types.js";
import type { BuiltinTable, ExecContext } from "../types.js";
import { brokerOf, constName, num, strOrNull } from "./common.js";

function direction(ctx: ExecContext, v: unknown): "long" | "short" {
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

/** strategy.entry and strategy.order share their parameter list. */
function placeOrder(kind: "entry" | "order") {
  return (ctx: ExecContext, a: unknown[]): void => {
    const fn = `strategy.${kind}`;
    brokerOf(ctx).entry(
      {
        id: orderId(ctx, a[0], fn),
        direction: direction(ctx, a[1]),
        qty: num(a[2]),
        limit: num(a[3]),
        stop: num(a[4]),
        ocaName: strOrNull(a[5]),
        ocaType: ocaType(a[6]),
        comment: strOrNull(a[7]),
        alertMessage: strOrNull(a[8]),
        disableAlert: a[9] === true,
      },
      ctx,
      kind,
    );
  };
}

function riskType(v: unknown): "percent_of_equity" | "cash" {
  return constName(v) === "cash" ? "cash" : "percent_of_equity";
}

export const orderFunctions: BuiltinTable = {
  "strategy.entry": { name: "strategy.entry", impl: placeOrder("entry") },
  "strategy.order": { name: "strategy.order", impl: placeOrder("order") },
  "strategy.exit": {
    name: "strategy.exit",
    impl: (ctx, a) => {
      brokerOf(ctx).exit(
        {
          id: orderId(ctx, a[0], "strategy.exit"),
          fromEntry: strOrNull(a[1]),
          qty: num(a[2]),
          qtyPercent: num(a[3]),
          profit: num(a[4]),
          limit: num(a[5]),
          loss: num(a[6]),
          stop: num(a[7]),
          trailPrice: num(a[8]),
          trailPoints: num(a[9]),
          trailOffset: num(a[10]),
          ocaName: strOrNull(a[11]),
          comment: strOrNull(a[12]),
          commentProfit: strOrNull(a[13]),
          commentLoss: strOrNull(a[14]),
          commentTrailing: strOrNull(a[15]),
          alertMessage: strOrNull(a[16]),
          alertProfit: strOrNull(a[17]),
          alertLoss: strOrNull(a[18]),
          alertTrailing: strOrNull(a[19]),
          disableAlert: a[20] === true,
        },
        ctx,
      );
    },
  },
  "strategy.close": {
    name: "strategy.close",
    impl: (ctx, a) => {
      brokerOf(ctx).close(
        {
          id: orderId(ctx, a[0], "strategy.close"),
          comment: strOrNull(a[1]),
          qty: num(a[2]),
          qtyPercent: num(a[3]),
          alertMessage: strOrNull(a[4]),
          immediately: a[5] === true,
          disableAlert: a[6] === true,
        },
        ctx,
      );
    },
  },
  "strategy.close_all": {
    name: "strategy.close_all",
    impl: (ctx, a) => {
      brokerOf(ctx).close(
        { comment: strOrNull(a[0]), alertMessage: strOrNull(a[1]), immediately: a[2] === true, disableAlert: a[3] === true },
        ctx,
        true,
      );
    },
  },
  "strategy.cancel": {
    name: "strategy.cancel",
    impl: (ctx, a) => brokerOf(ctx).cancel(orderId(ctx, a[0], "strategy.cancel"), ctx),
  },
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
