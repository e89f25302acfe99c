// The plain-text strategy summary `resin run` prints after a strategy run.

import type { StrategyResult } from "../core/result.js";

function money(v: number | null | undefined): string {
  if (v === null || v === undefined || v !== v) return "n/a";
  return v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

function pct(v: number | null | undefined): string {
  if (v === null || v === undefined || v !== v) return "n/a";
  return `${v.toFixed(2)}%`;
}

function ratio(v: number | null | undefined): string {
  if (v === null || v === undefined || v !== v) return "n/a";
  return v.toFixed(3);
}

export function formatStrategySummary(result: StrategyResult): string {
  const s = result.stats;
  const rows: [string, string][] = [
    ["Net profit", `${money(s.net_profit)} (${pct(s.net_profit_percent)})`],
    ["Gross profit", money(s.gross_profit)],
    ["Gross loss", money(s.gross_loss)],
    ["Max drawdown", `${money(s.max_drawdown)} (${pct(s.max_drawdown_percent)})`],
    ["Profit factor", ratio(s.profit_factor)],
    ["Closed trades", String(s.total_closed_trades)],
    ["Open trades", String(result.open_trades.length)],
    ["Winning / losing", `${s.num_winning_trades} / ${s.num_losing_trades}`],
    ["Percent profitable", pct(s.percent_profitable)],
    ["Avg trade", money(s.avg_trade)],
    ["Avg winning trade", money(s.avg_winning_trade)],
    ["Avg losing trade", money(s.avg_losing_trade)],
    ["Sharpe ratio", ratio(s.sharpe_ratio)],
    ["Sortino ratio", ratio(s.sortino_ratio)],
    ["Commission paid", money(s.commission_paid)],
    ["Buy & hold return", money(s.buy_and_hold_return)],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const lines = ["Strategy summary"];
  for (const [k, v] of rows) lines.push(`  ${k.padEnd(width)}  ${v}`);
  return lines.join("\n");
}
