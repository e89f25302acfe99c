// An optimize trial's run skips the broker's per-bar equity figures (TRIAL_BROKER track_equity:
// false): the closed trades it is scored by are those of a run that keeps them, in both modes; a
// script that reads those figures itself (strategy.max_drawdown, max_runup and their percents, in a
// user function too, or the strategy.risk.max_drawdown rule) keeps them and runs as it would.
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/result.js";
import { generateBars } from "../../src/cli/bench.js";
import { evaluateJob, TRIAL_BROKER } from "../../src/server/engine.js";

const data = generateBars(3000);
const TRACKED = { ...TRIAL_BROKER, track_equity: true };

function run(script: string, mode: "interpret" | "compile", broker: Record<string, unknown>) {
  return evaluateJob({ script, data, symbol: "CHART", options: { mode }, broker });
}

/** The closed trades, every field. */
function trades(r: RunResult) {
  expect(r.error).toBeUndefined();
  return r.strategy!.trades;
}

const CROSS = `//@version=6
strategy("cross", overlay = true, default_qty_type = strategy.percent_of_equity, default_qty_value = 50, commission_type = strategy.commission.percent, commission_value = 0.1)
fast = ta.ema(close, 5)
slow = ta.ema(close, 13)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
strategy.exit("XL", "L", stop = close * 0.98, limit = close * 1.03)
plot(strategy.equity)
`;

/** Scripts whose trades depend on a figure of the tracker. */
const READERS: Record<string, string> = {
  "strategy.max_drawdown": `//@version=6
strategy("dd gate", overlay = true)
if ta.crossover(ta.ema(close, 5), ta.ema(close, 13)) and strategy.max_drawdown < 10
    strategy.entry("L", strategy.long)
if ta.crossunder(ta.ema(close, 5), ta.ema(close, 13))
    strategy.close("L")
plot(strategy.max_drawdown)
`,
  "strategy.max_runup_percent in a user function": `//@version=6
strategy("runup gate", overlay = true)
calm() => strategy.max_runup_percent < 0.002
if ta.crossover(ta.ema(close, 5), ta.ema(close, 13)) and calm()
    strategy.entry("L", strategy.long)
if ta.crossunder(ta.ema(close, 5), ta.ema(close, 13))
    strategy.close("L")
`,
  "strategy.risk.max_drawdown": `//@version=6
strategy("risk", overlay = true, default_qty_type = strategy.percent_of_equity, default_qty_value = 100)
strategy.risk.max_drawdown(0.5, strategy.percent_of_equity)
if ta.crossover(ta.ema(close, 5), ta.ema(close, 13))
    strategy.entry("L", strategy.long)
if ta.crossunder(ta.ema(close, 5), ta.ema(close, 13))
    strategy.entry("S", strategy.short)
`,
};

/** Each reader with what it reads taken out. */
const WITHOUT: Record<string, string> = {
  "strategy.max_drawdown": READERS["strategy.max_drawdown"]!.replace("strategy.max_drawdown < 10", "true"),
  "strategy.max_runup_percent in a user function": READERS["strategy.max_runup_percent in a user function"]!.replace(
    "strategy.max_runup_percent < 0.002",
    "true",
  ),
  "strategy.risk.max_drawdown": READERS["strategy.risk.max_drawdown"]!.replace(
    "strategy.risk.max_drawdown(0.5, strategy.percent_of_equity)\n",
    "",
  ),
};

describe("optimize trials without the per-bar equity figures", () => {
  it("score the trades a run with them closes, in both modes", async () => {
    for (const mode of ["interpret", "compile"] as const) {
      const kept = await run(CROSS, mode, TRACKED);
      const trial = await run(CROSS, mode, TRIAL_BROKER);
      expect(trades(kept).length).toBeGreaterThan(50);
      expect(trades(trial)).toEqual(trades(kept));
      expect(trial.strategy!.open_trades).toEqual(kept.strategy!.open_trades);
      expect(trial.strategy!.stats.net_profit).toBe(kept.strategy!.stats.net_profit);
      expect(trial.series).toEqual(kept.series);
      // what the trial did not keep reads as unknown, not as a zero drawdown
      expect(kept.strategy!.equity.length).toBe(data.time.length);
      expect(kept.strategy!.stats.max_drawdown).toBeGreaterThan(0);
      expect(trial.strategy!.equity).toEqual([]);
      expect(trial.strategy!.stats.max_drawdown).toBeNaN();
      expect(trial.strategy!.stats.sharpe_ratio).toBeNull();
    }
  });

  for (const [reads, script] of Object.entries(READERS))
    it(`keep them for a script that reads ${reads}`, async () => {
      for (const mode of ["interpret", "compile"] as const) {
        const kept = await run(script, mode, TRACKED);
        const trial = await run(script, mode, TRIAL_BROKER);
        expect(trades(kept).length).toBeGreaterThan(0);
        expect(trades(trial)).toEqual(trades(kept));
        expect(trial.series).toEqual(kept.series);
        expect(trial.strategy!.equity).toEqual(kept.strategy!.equity);
        expect(trial.strategy!.stats.max_drawdown).toBe(kept.strategy!.stats.max_drawdown);
        // (not vacuous: without the figure the script closes other trades)
        expect(trades(await run(WITHOUT[reads]!, mode, TRACKED)).length).toBeGreaterThan(trades(kept).length);
      }
    });
});
