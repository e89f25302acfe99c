// strategy.closedtrades.* and strategy.opentrades.*: per-trade lookups by index (0 = oldest).
// Closed trades are numbered in the order they closed; out-of-range, fractional, na and trimmed
// (below strategy.closedtrades.first_index, as the v6 migration guide says) indexes give na.
//
// A stats table loops over every trade on every bar (`for i = 0 to strategy.closedtrades - 1`), so a
// lookup is written to cost a few loads: each builtin is its own small function (BuiltinDef.direct,
// called by both backends with the index, no argument array). They were closures of one factory,
// sharing its feedback: the per-field reader each called was megamorphic and never inlined.

import {
  C_COMMISSION,
  C_DRAWDOWN,
  C_DRAWDOWN_PERCENT,
  C_ENTRY_BAR,
  C_ENTRY_PRICE,
  C_ENTRY_TIME,
  C_EXIT_BAR,
  C_EXIT_PRICE,
  C_EXIT_TIME,
  C_PROFIT,
  C_PROFIT_PERCENT,
  C_RUN_UP,
  C_RUN_UP_PERCENT,
  S_ENTRY_COMMENT,
  S_ENTRY_ID,
  S_EXIT_COMMENT,
  S_EXIT_ID,
} from "../../strategy/closed-trades.js";
import type { Broker } from "../../strategy/broker.js";
import type { OpenTrade } from "../../strategy/types.js";
import type { BuiltinTable, ExecContext } from "../types.js";
import { num } from "./common.js";

/**
 * na, as a constant of the module, not the global `NaN`: in optimised code a global read on a path
 * not taken yet is a generic load, which made every lookup's result a boxed number (a heap number a
 * call in the compiled loop); a module constant folds to the number itself.
 */
const NA = NaN;

// (the index is a number: the backends pass the checked int argument, `impl` converts its own)

/** Number column `col` of closed trade `i`, na when there is none (not a strategy, or ClosedTrades.num). */
function closedNum(ctx: ExecContext, i: number, col: number): number {
  const b = ctx.broker as Broker | null;
  return b ? b.ledger.closed.num(i, col) : NA;
}
/** String column `col` of closed trade `i`, na (null) when there is none. */
function closedStr(ctx: ExecContext, i: number, col: number): string | null {
  const b = ctx.broker as Broker | null;
  return b ? b.ledger.closed.str(i, col) : null;
}

/** Open trade `i` (0 = oldest), or undefined when there is none or `i` is not a whole index. */
function openTrade(ctx: ExecContext, i: number): OpenTrade | undefined {
  const b = ctx.broker as Broker | null;
  if (!b) return undefined;
  const open = b.ledger.open;
  // (a whole number in [0, 2^32): not NaN, fractional, negative or another type)
  return i >>> 0 === i && i < open.length ? open[i] : undefined;
}
/** The run's broker, once openTrade found a trade. */
const brokerAt = (ctx: ExecContext) => ctx.broker as Broker;

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

type Lookup = (ctx: ExecContext, i: number) => unknown;

// One function per builtin (see the header): written out, not made by a factory.
const closed: [string, Lookup][] = [
  ["commission", (ctx, i) => closedNum(ctx, i, C_COMMISSION)],
  ["entry_bar_index", (ctx, i) => closedNum(ctx, i, C_ENTRY_BAR)],
  ["entry_comment", (ctx, i) => closedStr(ctx, i, S_ENTRY_COMMENT)],
  ["entry_id", (ctx, i) => closedStr(ctx, i, S_ENTRY_ID)],
  ["entry_price", (ctx, i) => closedNum(ctx, i, C_ENTRY_PRICE)],
  ["entry_time", (ctx, i) => closedNum(ctx, i, C_ENTRY_TIME)],
  ["exit_bar_index", (ctx, i) => closedNum(ctx, i, C_EXIT_BAR)],
  ["exit_comment", (ctx, i) => closedStr(ctx, i, S_EXIT_COMMENT)],
  ["exit_id", (ctx, i) => closedStr(ctx, i, S_EXIT_ID)],
  ["exit_price", (ctx, i) => closedNum(ctx, i, C_EXIT_PRICE)],
  ["exit_time", (ctx, i) => closedNum(ctx, i, C_EXIT_TIME)],
  ["max_drawdown", (ctx, i) => Math.abs(closedNum(ctx, i, C_DRAWDOWN))],
  ["max_drawdown_percent", (ctx, i) => Math.abs(closedNum(ctx, i, C_DRAWDOWN_PERCENT))],
  ["max_runup", (ctx, i) => closedNum(ctx, i, C_RUN_UP)],
  ["max_runup_percent", (ctx, i) => closedNum(ctx, i, C_RUN_UP_PERCENT)],
  ["profit", (ctx, i) => closedNum(ctx, i, C_PROFIT)],
  ["profit_percent", (ctx, i) => closedNum(ctx, i, C_PROFIT_PERCENT)],
  [
    "size",
    (ctx, i) => {
      const b = ctx.broker as Broker | null;
      return b ? b.ledger.closed.signedQty(i) : NA;
    },
  ],
];

const open: [string, Lookup][] = [
  [
    "commission",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : t.commission;
    },
  ],
  [
    "entry_bar_index",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : t.entryBar;
    },
  ],
  [
    "entry_comment",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? null : t.entryComment;
    },
  ],
  [
    "entry_id",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? null : t.entryId;
    },
  ],
  [
    "entry_price",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : t.entryPrice;
    },
  ],
  [
    "entry_time",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : t.entryTime;
    },
  ],
  [
    "max_drawdown",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : Math.abs(openDrawdown(t, brokerAt(ctx)));
    },
  ],
  [
    "max_drawdown_percent",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      if (t === undefined) return NA;
      const b = brokerAt(ctx);
      return (Math.abs(openDrawdown(t, b)) / entryValue(t, b)) * 100;
    },
  ],
  [
    "max_runup",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : openRunUp(t, brokerAt(ctx));
    },
  ],
  [
    "max_runup_percent",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      if (t === undefined) return NA;
      const b = brokerAt(ctx);
      return (openRunUp(t, b) / entryValue(t, b)) * 100;
    },
  ],
  [
    "profit",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : openProfit(t, brokerAt(ctx), ctx.close);
    },
  ],
  [
    "profit_percent",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      if (t === undefined) return NA;
      const b = brokerAt(ctx);
      return (openProfit(t, b, ctx.close) / entryValue(t, b)) * 100;
    },
  ],
  [
    "size",
    (ctx, i) => {
      const t = openTrade(ctx, i);
      return t === undefined ? NA : t.side * t.qty;
    },
  ],
];

/**
 * The builtin: `direct` is the lookup (both backends call it with the index), `impl` unpacks the
 * array (an index that is not a number is na).
 */
const def = (list: string, [name, fn]: [string, Lookup]): [string, BuiltinTable[string]] => {
  const full = `strategy.${list}.${name}`;
  return [full, { name: full, direct: fn, impl: (ctx, a) => fn(ctx, num(a[0])) }];
};

export const tradeFunctions: BuiltinTable = Object.fromEntries([
  ...closed.map((x) => def("closedtrades", x)),
  ...open.map((x) => def("opentrades", x)),
]);
