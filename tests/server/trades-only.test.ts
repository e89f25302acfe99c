// A run read only for its closed trades (RunOptions.tradesOnly: an optimize trial) leaves out the
// top-level output statements whose leaving out changes nothing else (check/unread-outputs.ts): the
// trades are those of a full run in both modes, the droppable plots are missing from its series and
// every other plot is there, a plot whose arguments could fail still fails the run, and a full run
// of the same script after a trades-only one (the compile cache) still has all its plots.
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/result.js";
import { generateBars } from "../../src/cli/bench.js";
import { evaluateJob, TRIAL_BROKER } from "../../src/server/engine.js";
import { clearCompiled, installCompiled } from "../../src/compile/aot.js";
import { sha256Hex } from "../../src/core/sha256.js";

const data = generateBars(2000);

function run(script: string, mode: "interpret" | "compile", tradesOnly: boolean) {
  return evaluateJob({ script, data, symbol: "CHART", options: { mode, tradesOnly }, broker: TRIAL_BROKER });
}

const SCRIPT = `//@version=6
strategy("outputs", overlay = true)
var hits = array.new_float()
fast = ta.ema(close, 5)
slow = ta.ema(close, 13)
bump() =>
    array.push(hits, close)
    array.size(hits)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
plot(fast, "fast", color = fast > slow ? color.green : color.new(color.red, 50))
plot(nz(slow[3]) - close, "gap")
plot(strategy.equity, "equity")
bgcolor(strategy.position_size > 0 ? color.new(color.green, 90) : na)
plot(ta.sma(close, 7), "sma")
plot(bump(), "bumps")
p1 = plot(high, "high")
p2 = plot(low, "low")
fill(p1, p2)
if array.size(hits) % 50 == 0 and strategy.position_size != 0
    strategy.close_all()
`;

/** The run's outputs, sorted: kind and title (an untitled one's default title, plot_N, counts on). */
function outputs(r: RunResult): string[] {
  return Object.values(r.plot_meta ?? {})
    .map((m) => (/^plot_\d+$/.test(m.title) ? m.kind : `${m.kind}:${m.title}`))
    .sort();
}

describe("trades-only runs (optimize trials)", () => {
  it("close the same trades and leave out only the outputs nothing else reads", async () => {
    for (const mode of ["interpret", "compile"] as const) {
      const full = await run(SCRIPT, mode, false);
      const trial = await run(SCRIPT, mode, true);
      expect(full.error).toBeUndefined();
      expect(trial.error).toBeUndefined();
      expect(full.strategy!.trades.length).toBeGreaterThan(20);
      expect(trial.strategy!.trades).toEqual(full.strategy!.trades);
      expect(outputs(full)).toEqual([
        "bgcolor",
        "fill",
        "plot:bumps",
        "plot:equity",
        "plot:fast",
        "plot:gap",
        "plot:high",
        "plot:low",
        "plot:sma",
      ]);
      // kept: a ta.* call, a user function (it pushes to the array the orders read), plots fill() reads
      expect(outputs(trial)).toEqual(["fill", "plot:bumps", "plot:high", "plot:low", "plot:sma"]);
      for (const t of ["bumps", "high", "low", "sma"]) expect(trial.series[t]).toEqual(full.series[t]);
      // a full run after the trades-only one has every output (each compiled apart)
      expect(outputs(await run(SCRIPT, mode, false))).toEqual(outputs(full));
    }
  });

  it("still fail where an output's arguments fail", async () => {
    const script = `//@version=6
strategy("failing output")
a = array.new_float(3, 0)
if ta.crossover(ta.ema(close, 5), ta.ema(close, 13))
    strategy.entry("L", strategy.long)
plot(array.get(a, bar_index))
`;
    for (const mode of ["interpret", "compile"] as const) {
      const full = await run(script, mode, false);
      const trial = await run(script, mode, true);
      expect(full.error).toBeDefined();
      expect(trial.error).toBe(full.error);
    }
  });

  it("run whole where a deploy compiled the script's loop ahead of time (its trimmed loop would have no module)", async () => {
    // (a module of this source installed, as a workerd deploy installs them: its text is not this loop's)
    installCompiled([{ hash: "0".repeat(64), factory: () => null, sourceHash: sha256Hex(SCRIPT) }]);
    try {
      const full = await run(SCRIPT, "interpret", false);
      const trial = await run(SCRIPT, "interpret", true);
      expect(outputs(trial)).toEqual(outputs(full));
      expect(trial.strategy!.trades).toEqual(full.strategy!.trades);
    } finally {
      clearCompiled();
    }
  });
});
