// Trial statistics from the broker's closed trades (result.strategy.trades), never from re-paired
// events, and the objectives that score them (service.md 3).

import type { Trade } from "../core/result.js";

export interface TrialStats {
  total_pnl: number;
  trades: number;
  /** Fraction of winning trades (0..1); NaN without trades. */
  win_rate: number;
  /** Gross profit / gross loss; Infinity when there are winners and no losers, NaN with neither. */
  profit_factor: number;
  avg_trade: number;
  /** Largest peak-to-trough drop of closed-trade equity, as a fraction of the peak. */
  max_dd: number;
}

export type ObjectiveName = "composite" | "net_pnl" | "profit_factor" | "calmar";
export const OBJECTIVES: readonly ObjectiveName[] = ["composite", "net_pnl", "profit_factor", "calmar"];

/** TradingView's default strategy(initial_capital). */
export const DEFAULT_INITIAL_CAPITAL = 1_000_000;

/** profit_factor objective value when there is no losing trade but some winner. */
export const PROFIT_FACTOR_NO_LOSS = 1e6;

export function computeStats(trades: readonly Pick<Trade, "profit">[], initialCapital: number): TrialStats {
  let pnl = 0;
  let wins = 0;
  let grossProfit = 0;
  let grossLoss = 0;
  let equity = initialCapital;
  let peak = initialCapital;
  let maxDd = 0;
  for (const t of trades) {
    const p = Number.isFinite(t.profit) ? t.profit : 0;
    pnl += p;
    if (p > 0) {
      wins++;
      grossProfit += p;
    } else if (p < 0) grossLoss -= p;
    equity += p;
    if (equity > peak) peak = equity;
    else if (peak > 0) maxDd = Math.max(maxDd, (peak - equity) / peak);
  }
  const n = trades.length;
  return {
    total_pnl: pnl,
    trades: n,
    win_rate: n > 0 ? wins / n : NaN,
    profit_factor: grossLoss > 0 ? grossProfit / grossLoss : grossProfit > 0 ? Infinity : NaN,
    avg_trade: n > 0 ? pnl / n : NaN,
    max_dd: maxDd,
  };
}

/** Higher is better; fewer than `minTrades` trades scores -Infinity. */
export function score(objective: ObjectiveName, s: TrialStats, minTrades: number): number {
  if (s.trades < minTrades) return -Infinity;
  switch (objective) {
    case "net_pnl":
      return s.total_pnl;
    case "profit_factor":
      if (s.profit_factor === Infinity) return PROFIT_FACTOR_NO_LOSS;
      return Number.isFinite(s.profit_factor) ? s.profit_factor : -Infinity;
    case "calmar":
      return s.total_pnl / Math.max(s.max_dd, 1e-9);
    case "composite":
      return (Math.sign(s.total_pnl) * Math.abs(s.total_pnl) * Math.sqrt(Math.max(s.trades, 1))) / (1 + s.max_dd);
  }
}

/** TrialStats as JSON: non-finite numbers are null. */
export interface TrialStatsJson {
  total_pnl: number | null;
  trades: number;
  max_dd: number | null;
  win_rate: number | null;
  profit_factor: number | null;
  avg_trade: number | null;
}

/** The JSON form: non-finite numbers become null. */
export function statsToJson(s: TrialStats | null): TrialStatsJson | null {
  if (!s) return null;
  return {
    total_pnl: finiteOrNull(s.total_pnl),
    trades: s.trades,
    max_dd: finiteOrNull(s.max_dd),
    win_rate: finiteOrNull(s.win_rate),
    profit_factor: finiteOrNull(s.profit_factor),
    avg_trade: finiteOrNull(s.avg_trade),
  };
}

export function finiteOrNull(x: number | null | undefined): number | null {
  return typeof x === "number" && Number.isFinite(x) ? x : null;
}
