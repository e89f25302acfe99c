// strategy.closedtrades.* and strategy.opentrades.*: per-trade lookups by index (0 = oldest).
// Closed trades are numbered in the order they closed; out-of-range and trimmed indexes give na.

import type { Trade } from "../../core/result.js";
import type { OpenTrade } from "../../strategy/types.js";
import type { Broker } from "../../strategy/broker.js";
import type { BuiltinTable, ExecContext } from "../types.js";
import { maybeBroker, num } from "./common.js";

type ClosedField = (t: Trade) => unknown;
type OpenField = (t: OpenTrade, b: Broker, ctx: ExecContext) => unknown;

/**
 * A `strategy.<list>.<name>(trade_num)` lookup: the trade at that index, else `na`. Closed trades keep
 * their index from the start of the run; those trimmed past the trade limit (below
 * strategy.closedtrades.first_index) read as `na`, as the v6 migration guide says.
 */
function lookup<T>(
  full: string,
  find: (b: Broker, i: number) => T | undefined,
  get: (t: T, b: Broker, ctx: ExecContext) => unknown,
  na: unknown,
): [string, BuiltinTable[string]] {
  return [
    full,
    {
      name: full,
      impl: (ctx, a) => {
        const b = maybeBroker(ctx);
        const i = num(a[0]);
        const t = b && Number.isInteger(i) && i >= 0 ? find(b, i) : undefined;
        return t && b ? get(t, b, ctx) : na;
      },
    },
  ];
}

const closed = (name: string, get: ClosedField, na: unknown = NaN) =>
  lookup<Trade>(`strategy.closedtrades.${name}`, (b, i) => b.ledger.closed.get(i), get, na);
const open = (name: string, get: OpenField, na: unknown = NaN) =>
  lookup<OpenTrade>(`strategy.opentrades.${name}`, (b, i) => b.ledger.open[i], get, na);

const sign = (t: Trade) => (t.direction === "long" ? 1 : -1);

function openProfit(t: OpenTrade, b: Broker, price: number): number {
  return (price - t.entryPrice) * t.side * t.qty * b.pointValue - t.commission;
}
function entryValue(t: OpenTrade, b: Broker): number {
  return t.entryPrice * t.qty * b.pointValue;
}
function openRunUp(t: OpenTrade, b: Broker): number {
  return Math.max(0, (t.bestPrice - t.entryPrice) * t.side * t.qty * b.pointValue - t.commission);
}
function openDrawdown(t: OpenTrade, b: Broker): number {
  return Math.min(0, (t.worstPrice - t.entryPrice) * t.side * t.qty * b.pointValue - t.commission);
}

export const tradeFunctions: BuiltinTable = Object.fromEntries([
  closed("commission", (t) => t.commission),
  closed("entry_bar_index", (t) => t.entry_bar_index),
  closed("entry_comment", (t) => t.entry_comment, null),
  closed("entry_id", (t) => t.entry_id, null),
  closed("entry_price", (t) => t.entry_price),
  closed("entry_time", (t) => t.entry_time),
  closed("exit_bar_index", (t) => t.exit_bar_index ?? NaN),
  closed("exit_comment", (t) => t.exit_comment, null),
  closed("exit_id", (t) => t.exit_id, null),
  closed("exit_price", (t) => t.exit_price ?? NaN),
  closed("exit_time", (t) => t.exit_time ?? NaN),
  closed("max_drawdown", (t) => Math.abs(t.drawdown)),
  closed("max_drawdown_percent", (t) => Math.abs(t.drawdown_percent)),
  closed("max_runup", (t) => t.run_up),
  closed("max_runup_percent", (t) => t.run_up_percent),
  closed("profit", (t) => t.profit),
  closed("profit_percent", (t) => t.profit_percent),
  closed("size", (t) => sign(t) * t.qty),
  open("commission", (t) => t.commission),
  open("entry_bar_index", (t) => t.entryBar),
  open("entry_comment", (t) => t.entryComment, null),
  open("entry_id", (t) => t.entryId, null),
  open("entry_price", (t) => t.entryPrice),
  open("entry_time", (t) => t.entryTime),
  open("max_drawdown", (t, b) => Math.abs(openDrawdown(t, b))),
  open("max_drawdown_percent", (t, b) => (Math.abs(openDrawdown(t, b)) / entryValue(t, b)) * 100),
  open("max_runup", (t, b) => openRunUp(t, b)),
  open("max_runup_percent", (t, b) => (openRunUp(t, b) / entryValue(t, b)) * 100),
  open("profit", (t, b, ctx) => openProfit(t, b, ctx.close)),
  open("profit_percent", (t, b, ctx) => (openProfit(t, b, ctx.close) / entryValue(t, b)) * 100),
  open("size", (t) => t.side * t.qty),
]);
