// strategy.* builtins: order placement (orders.ts), account variables (variables.ts), per-trade
// lookups (trades.ts) and the constants. They reach the run's broker through ctx.broker.

import type { BuiltinTable, ConstantTable, VariableTable } from "../types.js";
import { orderFunctions } from "./orders.js";
import { tradeFunctions } from "./trades.js";
import { strategyVariables } from "./variables.js";

export const functions: BuiltinTable = { ...orderFunctions, ...tradeFunctions };

export const variables: VariableTable = strategyVariables;

/** Constant values are the short names the broker's settings and requests understand. */
export const constants: ConstantTable = {
  "strategy.long": "long",
  "strategy.short": "short",
  "strategy.fixed": "fixed",
  "strategy.cash": "cash",
  "strategy.percent_of_equity": "percent_of_equity",
  "strategy.commission.percent": "percent",
  "strategy.commission.cash_per_contract": "cash_per_contract",
  "strategy.commission.cash_per_order": "cash_per_order",
  "strategy.oca.cancel": "cancel",
  "strategy.oca.reduce": "reduce",
  "strategy.oca.none": "none",
  "strategy.direction.all": "all",
  "strategy.direction.long": "long",
  "strategy.direction.short": "short",
};
