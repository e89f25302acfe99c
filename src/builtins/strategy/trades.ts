// strategy.closedtrades.* and strategy.opentrades.*: per-trade lookups by index (0 = oldest).
// Closed trades are numbered in the order they closed; out-of-range and trimmed indexes give na.

import * as CT from "../../strategy/closed-trades.js";
import type { OpenTrade } from "../../strategy/types.js";
import type { Broker } from "../../strategy/broker.js";
import type { BuiltinTable, ExecContext } from "../types.js";
import { maybeBroker, num } from "./common.js";

/** A closed trade's field, read from the closed list's columns at ring slot `slot` (closed-trades.ts). */
type ClosedField = (c: CT.ClosedTrades, slot: number) => unknown;
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
        return t !== undefined && b ? get(t, b, ctx) : na;
      },
    },
  ];
}

/** A closed trade's number in column `col` (`f` applied to it), its string in string column `col`. */
const closedNum = (name: string, col: number, f: (x: number, c: CT.ClosedTrades, slot: number) => number = (x) => x) =>
  closed(name, (c, slot) => f(c.nums[slot * CT.NUM_COLS + col], c, slot));
const closedStr = (name: string, col: number) => closed(name, (c, slot) => c.strs[slot * CT.STR_COLS + col], null);
const closed = (name: string, get: ClosedField, na: unknown = NaN) =>
  lookup<number>(
    `strategy.closedtrades.${name}`,
    (b, i) => {
      const slot = b.ledger.closed.slotOf(i);
      return slot < 0 ? undefined : slot;
    },
    (slot, b) => get(b.ledger.closed, slot),
    na,
  );
const open = (name: string, get: OpenField, na: unknown = NaN) =>
  lookup<OpenTrade>(`strategy.opentrades.${name}`, (b, i) => b.ledger.open[i], get, na);

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
  closedNum("commission", CT.C_COMMISSION),
  closedNum("entry_bar_index", CT.C_ENTRY_BAR),
  closedStr("entry_comment", CT.S_ENTRY_COMMENT),
  closedStr("entry_id", CT.S_ENTRY_ID),
  closedNum("entry_price", CT.C_ENTRY_PRICE),
  closedNum("entry_time", CT.C_ENTRY_TIME),
  closedNum("exit_bar_index", CT.C_EXIT_BAR),
  closedStr("exit_comment", CT.S_EXIT_COMMENT),
  closedStr("exit_id", CT.S_EXIT_ID),
  closedNum("exit_price", CT.C_EXIT_PRICE),
  closedNum("exit_time", CT.C_EXIT_TIME),
  closedNum("max_drawdown", CT.C_DRAWDOWN, Math.abs),
  closedNum("max_drawdown_percent", CT.C_DRAWDOWN_PERCENT, Math.abs),
  closedNum("max_runup", CT.C_RUN_UP),
  closedNum("max_runup_percent", CT.C_RUN_UP_PERCENT),
  closedNum("profit", CT.C_PROFIT),
  closedNum("profit_percent", CT.C_PROFIT_PERCENT),
  closedNum("size", CT.C_QTY, (q, c, slot) => (c.nums[slot * CT.NUM_COLS + CT.C_SIDE] > 0 ? 1 : -1) * q),
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
