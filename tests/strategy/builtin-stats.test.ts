// The performance summary (result.strategy.stats, service.md 1.2) key by key against TradingView's
// definitions (reference manual's strategy.* variables, the Strategy Tester's performance summary),
// on a run whose every figure is worked out by hand below. Scripts run in both modes.

import { describe, expect, it } from "vitest";
import type { Bar, RunResult } from "../../src/core/result.js";
import { runBoth } from "../helpers/run-both.js";

const bars = (rows: number[][]): Bar[] =>
  rows.map((r, i) => ({
    time: Date.UTC(2024, 0, 1) + i * 3_600_000,
    open: r[0]!,
    high: r[1]!,
    low: r[2]!,
    close: r[3]!,
    volume: 10,
  }));
const flat = (p: number) => [p, p, p, p];
const runtime = { timeframe: "60", syminfo: { mintick: 0.01, pointvalue: 1, type: "stock", currency: "USD" } };

async function run(src: string, rows: number[][]): Promise<RunResult> {
  const r = await runBoth(src, bars(rows), { runtime });
  expect(r.error ?? null).toBeNull();
  return r;
}

// Four round trips of one contract, 1 USD commission per order, on flat bars (open = high = low =
// close, so the intrabar excursions are the closes):
//   bar 0 long placed  -> bar 1 buy @100 (fee 1); close placed bar 1 -> bar 2 sell @110 (fee 1): +10 - 2 = +8
//   bar 2 short placed -> bar 3 sell @110;        close placed bar 3 -> bar 4 buy  @114:          -4 - 2 = -6
//   bar 4 long placed  -> bar 5 buy @114;         close placed bar 5 -> bar 6 sell @120:          +6 - 2 = +4
//   bar 6 short placed -> bar 7 sell @120;        close placed bar 7 -> bar 8 buy  @121:          -1 - 2 = -3
const SRC = `//@version=6
strategy("stats", initial_capital = 1000, commission_type = strategy.commission.cash_per_order, commission_value = 1)
if bar_index == 0 or bar_index == 4
    strategy.entry("L", strategy.long)
if bar_index == 2 or bar_index == 6
    strategy.entry("S", strategy.short)
if bar_index == 1 or bar_index == 5
    strategy.close("L")
if bar_index == 3 or bar_index == 7
    strategy.close("S")
plot(strategy.avg_losing_trade, "avg_losing_trade")
plot(strategy.max_drawdown, "max_drawdown")
`;
const ROWS = [100, 100, 110, 110, 114, 114, 120, 120, 121, 121].map(flat);

describe("performance summary on a hand-computed run", () => {
  it("trade list and the profit figures", async () => {
    const r = await run(SRC, ROWS);
    const s = r.strategy!.stats;
    expect(r.strategy!.trades.map((t) => t.profit)).toEqual([8, -6, 4, -3]);
    expect(s.net_profit).toBeCloseTo(3, 9); // 8 - 6 + 4 - 3
    expect(s.net_profit_percent).toBeCloseTo(0.3, 9); // 3 / 1000
    expect(s.gross_profit).toBeCloseTo(12, 9); // 8 + 4
    expect(s.gross_loss).toBeCloseTo(9, 9); // 6 + 3, a positive amount
    expect(s.profit_factor).toBeCloseTo(12 / 9, 9); // gross profit / gross loss
    expect(s.total_closed_trades).toBe(4);
    expect(s.num_winning_trades).toBe(2);
    expect(s.num_losing_trades).toBe(2);
    expect(s.percent_profitable).toBeCloseTo(50, 9);
    expect(s.avg_trade).toBeCloseTo(0.75, 9); // net profit / closed trades
    expect(s.avg_winning_trade).toBeCloseTo(6, 9); // (8 + 4) / 2
    // "the average amount of money lost per losing trade": (6 + 3) / 2, positive like gross_loss and
    // like the script's strategy.avg_losing_trade on the last bar
    expect(s.avg_losing_trade).toBeCloseTo(4.5, 9);
    expect(r.series["avg_losing_trade"]!.at(-1)).toBeCloseTo(4.5, 9);
    expect(s.commission_paid).toBeCloseTo(8, 9); // 8 orders x 1
  });

  it("max drawdown: from the peak equity to the lowest equity after it", async () => {
    // Equity at each bar: 1000, 999 (entry fee), 1008, 1007, 1002, 1001, 1006, 1005, 1003, 1003.
    // Peak 1008 (bar 2), lowest after it 1001 (bar 5): 7, or 7 / 1008 of the peak.
    const r = await run(SRC, ROWS);
    const s = r.strategy!.stats;
    expect(s.max_drawdown).toBeCloseTo(7, 9);
    expect(s.max_drawdown_percent).toBeCloseTo((7 / 1008) * 100, 9);
    expect(r.series["max_drawdown"]!.at(-1)).toBeCloseTo(7, 9);
    expect(r.strategy!.equity).toEqual([1000, 999, 1008, 1007, 1002, 1001, 1006, 1005, 1003, 1003]);
  });

  it("buy & hold: the initial capital bought at the first entry's price and held to the last close", async () => {
    // First entry at 100, last close 121: +21%, 210 on 1000.
    const s = (await run(SRC, ROWS)).strategy!.stats;
    expect(s.buy_and_hold_return_percent).toBeCloseTo(21, 9);
    expect(s.buy_and_hold_return).toBeCloseTo(210, 9);
  });

  it("Sharpe and Sortino need three periods: a run inside one day has none", async () => {
    const s = (await run(SRC, ROWS)).strategy!.stats;
    expect(s.sharpe_ratio).toBeNull();
    expect(s.sortino_ratio).toBeNull();
  });

  it("no losing trade: profit factor and the average loss are na, not a division by zero", async () => {
    const s = (await run(SRC, ROWS.slice(0, 3))).strategy!.stats;
    expect(s.total_closed_trades).toBe(1);
    expect(s.profit_factor).toBeNull();
    expect(s.avg_losing_trade).toBeNull();
    expect(s.percent_profitable).toBeCloseTo(100, 9);
  });
});

describe("max drawdown counts the intrabar equity, not only closed trades", () => {
  it("a long that dips 10 below its entry inside a bar and closes with a profit", async () => {
    // Long 1 @100 on bar 1 (no commission); bar 2 dips to 90 and closes at 105; the close placed on
    // bar 2 sells at bar 3's open 105: one winning trade (+5), yet the equity fell from 1000 to 990
    // inside bar 2: max drawdown 10 (closed trades alone would give 0).
    const r = await run(
      `//@version=6
strategy("dd", initial_capital = 1000)
if bar_index == 0
    strategy.entry("L", strategy.long)
if bar_index == 2
    strategy.close("L")`,
      [flat(100), flat(100), [100, 106, 90, 105], flat(105), flat(105)],
    );
    const s = r.strategy!.stats;
    expect(r.strategy!.trades.map((t) => t.profit)).toEqual([5]);
    expect(s.max_drawdown).toBeCloseTo(10, 9);
    expect(r.strategy!.trades[0].drawdown).toBeCloseTo(-10, 9); // the List of trades signs it (exports: -0.0005)
    // run-up: from the lowest equity (1000) to the highest intrabar (1006 at bar 2's high)
    expect(s.max_runup).toBeCloseTo(6, 9);
  });
});

describe("Sharpe and Sortino on monthly returns with risk_free_rate", () => {
  it("a four-month run: monthly returns of the equity, sample stdev, downside deviation against the risk-free rate", async () => {
    // Daily bars from 2024-01-01 (UTC), flat inside each month: 100 in January, 110 in February, 105
    // in March, 120 in April. Long 1 from January 2's open (100), initial capital 1000.
    // Month-end equity: 1000, 1010, 1005, 1020 -> returns (each month against the previous month's
    // end, January against the initial capital): 0, 10/1000, -5/1010, 15/1005.
    // risk_free_rate 2 (% a year) -> 2 / 100 / 12 per month.
    // Sharpe = (mean - rf) / sample stdev; Sortino = (mean - rf) / sqrt(sum(min(0, r - rf))^2 / N).
    const rows: number[][] = [];
    const D = 86_400_000;
    const start = Date.UTC(2024, 0, 1);
    const price = (t: number) => [100, 110, 105, 120][new Date(t).getUTCMonth()]!;
    for (let t = start; t < Date.UTC(2024, 4, 1); t += D) rows.push(flat(price(t)));
    const data = rows.map((r, i) => ({
      time: start + i * D,
      open: r[0]!,
      high: r[1]!,
      low: r[2]!,
      close: r[3]!,
      volume: 10,
    }));
    const res = await runBoth(
      `//@version=6
strategy("sr", initial_capital = 1000, risk_free_rate = 2)
if bar_index == 0
    strategy.entry("L", strategy.long)`,
      data,
      { runtime: { ...runtime, timeframe: "D" } },
    );
    expect(res.error ?? null).toBeNull();
    const returns = [0, 10 / 1000, -5 / 1010, 15 / 1005];
    const rf = 0.02 / 12;
    const mean = returns.reduce((a, b) => a + b, 0) / 4;
    const sd = Math.sqrt(returns.reduce((a, r) => a + (r - mean) ** 2, 0) / 3);
    const dd = Math.sqrt(returns.reduce((a, r) => a + Math.min(0, r - rf) ** 2, 0) / 4);
    const s = res.strategy!.stats;
    expect(s.sharpe_ratio).toBeCloseTo((mean - rf) / sd, 9);
    expect(s.sortino_ratio).toBeCloseTo((mean - rf) / dd, 9);
  });
});
