// strategy.* variables: position, account and performance figures as of the current bar (open
// positions valued at the current close).

import type { Broker } from "../../strategy/broker.js";
import { roundToTick } from "../../strategy/levels.js";
import type { ExecContext, VariableTable } from "../types.js";
import { maybeBroker } from "./common.js";

type Getter = (b: Broker, ctx: ExecContext) => unknown;

function v(name: string, get: Getter, flat: unknown = NaN): VariableTable[string] {
  return {
    name,
    get: (ctx) => {
      const b = maybeBroker(ctx);
      return b ? get(b, ctx) : flat;
    },
    broker: { read: get, flat },
  };
}

/** v's variable for a figure of the equity tracker (BuiltinVariable.equityFigures). */
function tracked(name: string, get: Getter, flat: unknown): VariableTable[string] {
  return { ...v(name, get, flat), equityFigures: true };
}

/** A sum of profit percents over `n` trades, as an average (na without trades). */
function mean(sum: number, n: number): number {
  return n > 0 ? sum / n : NaN;
}

/**
 * Price at which equity falls to the margin the position needs: solves equity(P) = margin(P), on the
 * tick grid (longs floored, shorts ceiled; a long's price may be negative). na when flat, without
 * margin, or for a long at 100% margin (it can never be called).
 */
function liquidationPrice(b: Broker): number {
  const side = b.ledger.side();
  if (side === 0) return NaN;
  const m = (side > 0 ? b.settings.marginLong : b.settings.marginShort) / 100;
  if (!(m > 0) || (side > 0 && m >= 1)) return NaN;
  const q = Math.abs(b.ledger.positionSize()) * b.pointValue;
  const avg = b.ledger.avgPrice();
  const e0 = b.settings.initialCapital + b.ledger.netProfit - b.ledger.openCommission();
  const p = side > 0 ? (q * avg - e0) / (q * (1 - m)) : (e0 + avg * q) / (q * (1 + m));
  return Number.isFinite(p) ? roundToTick(p, b.mintick, side < 0) : NaN;
}

const list: VariableTable[string][] = [
  // (the per-bar figures go through the ledger's `figure` field: Ledger.openProfitAtClose)
  v("strategy.position_size", (b) => (b.ledger.positionSizeFigure(), b.ledger.figure), 0),
  v("strategy.position_avg_price", (b) => (b.ledger.avgPriceFigure(), b.ledger.figure)),
  v("strategy.position_entry_name", (b) => b.ledger.open[0]?.entryId ?? null, null),
  // Broker.equity(ctx.close), summed in its order
  v("strategy.equity", (b, ctx) => {
    const l = b.ledger;
    l.openProfitAtClose(ctx);
    const c = ctx.close;
    return b.settings.initialCapital + l.netProfit + (c === c ? l.figure : 0);
  }),
  v("strategy.initial_capital", (b) => b.settings.initialCapital),
  v(
    "strategy.account_currency",
    (b, ctx) => (b.settings.currency === "NONE" ? ctx.syminfo.currency : b.settings.currency),
    null,
  ),
  v("strategy.netprofit", (b) => b.ledger.netProfit, 0),
  v("strategy.netprofit_percent", (b) => (b.ledger.netProfit / b.settings.initialCapital) * 100, 0),
  v("strategy.openprofit", (b, ctx) => (b.ledger.openProfitAtClose(ctx), b.ledger.figure), 0),
  v(
    "strategy.openprofit_percent",
    (b, ctx) => {
      const l = b.ledger;
      l.openProfitAtClose(ctx);
      return (l.figure / (b.settings.initialCapital + l.netProfit)) * 100;
    },
    0,
  ),
  v("strategy.grossprofit", (b) => b.ledger.grossProfit, 0),
  v("strategy.grossprofit_percent", (b) => (b.ledger.grossProfit / b.settings.initialCapital) * 100, 0),
  // The entry commissions of open trades already count as a loss (TradingView's grossloss_percent
  // and avg_losing_trade show them before the trade closes).
  v("strategy.grossloss", (b) => (b.ledger.openCommissionFigure(), b.ledger.grossLoss + b.ledger.figure), 0),
  v(
    "strategy.grossloss_percent",
    (b) => (
      b.ledger.openCommissionFigure(), ((b.ledger.grossLoss + b.ledger.figure) / b.settings.initialCapital) * 100
    ),
    0,
  ),
  // every trade closed since the first bar ("for the whole trading range"), trimmed ones included
  v("strategy.closedtrades", (b) => b.ledger.closed.total, 0),
  // 0 until more trades than the limit have closed, then the index of the oldest one still listed
  v("strategy.closedtrades.first_index", (b) => b.ledger.closed.firstIndex, 0),
  v("strategy.opentrades", (b) => b.ledger.open.length, 0),
  // The entry value of the open trades, whatever the margin (na only when neither side uses margin).
  v(
    "strategy.opentrades.capital_held",
    (b) => {
      if (!(b.settings.marginLong > 0) && !(b.settings.marginShort > 0)) return NaN;
      let held = 0;
      for (const t of b.ledger.open) held += t.qty * t.entryPrice * b.pointValue;
      return held;
    },
    0,
  ),
  v("strategy.wintrades", (b) => b.ledger.winTrades, 0),
  v("strategy.losstrades", (b) => b.ledger.lossTrades, 0),
  v("strategy.eventrades", (b) => b.ledger.evenTrades, 0),
  v("strategy.avg_trade", (b) => mean(b.ledger.netProfit, b.ledger.closed.total)),
  v("strategy.avg_trade_percent", (b) => mean(b.ledger.sumPercent, b.ledger.closed.total)),
  v("strategy.avg_winning_trade", (b) => (b.ledger.winTrades > 0 ? b.ledger.grossProfit / b.ledger.winTrades : NaN)),
  v("strategy.avg_winning_trade_percent", (b) => mean(b.ledger.sumPercentWin, b.ledger.winTrades)),
  v("strategy.avg_losing_trade", (b) =>
    b.ledger.lossTrades > 0
      ? (b.ledger.openCommissionFigure(), (b.ledger.grossLoss + b.ledger.figure) / b.ledger.lossTrades)
      : NaN,
  ),
  v("strategy.avg_losing_trade_percent", (b) => mean(b.ledger.sumPercentLoss, b.ledger.lossTrades)),
  tracked("strategy.max_drawdown", (b) => b.tracker.maxDrawdown, 0),
  tracked("strategy.max_drawdown_percent", (b) => b.tracker.maxDrawdownPercent, 0),
  tracked("strategy.max_runup", (b) => b.tracker.maxRunup, 0),
  tracked("strategy.max_runup_percent", (b) => b.tracker.maxRunupPercent, 0),
  v("strategy.max_contracts_held_all", (b) => b.ledger.maxContractsAll, 0),
  v("strategy.max_contracts_held_long", (b) => b.ledger.maxContractsLong, 0),
  v("strategy.max_contracts_held_short", (b) => b.ledger.maxContractsShort, 0),
  v("strategy.margin_liquidation_price", (b) => liquidationPrice(b)),
];

export const strategyVariables: VariableTable = Object.fromEntries(list.map((x) => [x.name, x]));
