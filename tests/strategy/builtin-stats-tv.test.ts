// The closed-trade statistics (service.md 1.2 stats) against TradingView's own exported List of
// trades for every conformance case: counts, net / gross profit and loss, profit factor and average
// trade derived from the export's Net P&L column (rounded there, so sums carry half a unit of the
// export's last digit per row). The broker runs directly (tests/strategy/replays.ts), as in
// tests/conformance/strategy.test.ts.

import { describe, expect, it } from "vitest";
import { loadCase } from "./harness.js";
import { CASES, REPLAYS } from "./replays.js";

/** Half a unit of the last digit a number was exported with ("0.002" -> 0.0005). */
const halfUnit = (s: string): number => {
  const d = s.includes(".") ? s.split(".")[1]!.length : 0;
  return 0.5 * 10 ** -d;
};

describe("performance summary against TradingView's exported trades", () => {
  for (const name of CASES) {
    it(name, () => {
      const data = loadCase(name);
      const s = REPLAYS[name](data).stats;
      const closed = data.trades.filter((t) => !t.open);
      let gp = 0,
        gl = 0,
        tolP = 0,
        tolL = 0,
        wins = 0,
        losses = 0,
        unsure = 0;
      for (const t of closed) {
        const p = Number(t.profit);
        if (Math.abs(p) <= halfUnit(t.profit))
          unsure++; // rounded to zero in the export: either side
        else if (p > 0) wins++;
        else losses++;
        if (p >= 0) {
          gp += p;
          tolP += halfUnit(t.profit);
        }
        if (p <= 0) {
          gl -= p;
          tolL += halfUnit(t.profit);
        }
      }
      expect(s.total_closed_trades).toBe(closed.length);
      expect(s.num_winning_trades).toBeGreaterThanOrEqual(wins);
      expect(s.num_losing_trades).toBeGreaterThanOrEqual(losses);
      expect(s.num_winning_trades + s.num_losing_trades + (s.num_even_trades as number)).toBe(closed.length);
      expect(s.num_winning_trades - wins + s.num_losing_trades - losses).toBeLessThanOrEqual(unsure);
      // net profit: the last closed trade's cumulative P&L
      const last = closed[closed.length - 1]!;
      expect(Math.abs(s.net_profit - Number(last.cumProfit))).toBeLessThanOrEqual(halfUnit(last.cumProfit) + 1e-9);
      expect(Math.abs(s.gross_profit - gp)).toBeLessThanOrEqual(tolP + 1e-9);
      expect(Math.abs(s.gross_loss - gl)).toBeLessThanOrEqual(tolL + 1e-9);
      expect(s.net_profit).toBeCloseTo(s.gross_profit - s.gross_loss, 6);
      expect(s.profit_factor).toBeCloseTo(s.gross_profit / s.gross_loss, 12);
      expect(s.avg_trade).toBeCloseTo(s.net_profit / closed.length, 12);
      expect(s.percent_profitable).toBeCloseTo((s.num_winning_trades / closed.length) * 100, 12);
    });
  }
});
