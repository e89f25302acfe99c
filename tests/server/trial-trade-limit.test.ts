// Optimize trials score every closed trade: their runs lift the broker's 9,000-trade trimming
// (TRIAL_BROKER), while a plain run keeps TradingView's newest 9,000.
import { describe, expect, it } from "vitest";
import { evaluateJob, TRIAL_BROKER } from "../../src/server/engine.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";

const flip = `//@version=6
strategy("flip", overlay = true)
if bar_index % 2 == 0
    strategy.entry("L", strategy.long)
else
    strategy.entry("S", strategy.short)
`;

describe("optimize trials and the trade limit", () => {
  it("a trial run keeps every trade, a plain run the newest 9,000", async () => {
    const data = syntheticBars(9_200);
    const job = { script: flip, data, symbol: "CHART", options: { mode: "interpret" as const } };
    const plain = await evaluateJob(job);
    const trial = await evaluateJob({ ...job, broker: TRIAL_BROKER });
    expect(plain.error).toBeUndefined();
    const total = trial.strategy!.stats.total_closed_trades;
    expect(total).toBeGreaterThan(9_000);
    expect(plain.strategy!.stats.total_closed_trades).toBe(total);
    expect(plain.strategy!.trades.length).toBe(9_000);
    expect(trial.strategy!.trades.length).toBe(total);
    expect(trial.strategy!.trades.slice(-9_000)).toEqual(plain.strategy!.trades);
  }, 60_000);
});
