// An optimize trial's run hands its typed-array stores (closed-trade columns, equity values and
// spans) to the next runs' brokers (strategy/spare-stores.ts, worker/protocol.ts spentTrialReply):
// runs on those stores answer exactly as runs on new ones, in both modes, trials and full runs, with
// more trades than the stores first held and fewer; a released result's trades and equity throw.
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/core/result.js";
import { evaluateJob, TRIAL_BROKER } from "../../src/server/engine.js";
import { generateBars } from "../../src/cli/bench.js";
import { spareCurveSpans, spareCurveValues, spareTradeColumns } from "../../src/strategy/spare-stores.js";
import { scoredTrades } from "../../src/strategy/stats.js";
import { spentTrialReply } from "../../src/worker/protocol.js";

const script = `//@version=6
strategy("cross", overlay = true)
fastLen = input.int(3, "Fast")
slowLen = input.int(8, "Slow")
fast = ta.ema(close, fastLen)
slow = ta.ema(close, slowLen)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
strategy.exit("XL", "L", stop = close * 0.97)
`;

/** Input sets from many trades (the columns grow past their first 256 rows) to few. */
const SETS = [
  { Fast: 2, Slow: 3 },
  { Fast: 20, Slow: 60 },
  { Fast: 3, Slow: 8 },
  { Fast: 9, Slow: 21 },
];

const data = generateBars(4000);

/** A trial's broker with the equity figures kept (TRIAL_BROKER skips them), so the curve's stores are used too. */
const TRACKED_TRIAL = { ...TRIAL_BROKER, track_equity: true };

function run(
  mode: "interpret" | "compile",
  inputs: Record<string, number>,
  broker: Record<string, unknown> = TRACKED_TRIAL,
) {
  return evaluateJob({ script, data, symbol: "CHART", options: { mode, inputs }, broker });
}

/** What a run answers, its lazy fields read. */
function answer(r: RunResult) {
  const s = r.strategy!;
  return { error: r.error, trades: s.trades, equity: s.equity, stats: s.stats, open: s.open_trades };
}

describe("spare stores of released trial runs", () => {
  it("runs on a released run's stores answer as runs on new stores", async () => {
    for (const mode of ["interpret", "compile"] as const) {
      // before any release: every run's stores are new
      expect(spareTradeColumns.count + spareCurveValues.count + spareCurveSpans.count).toBe(0);
      const want = [];
      for (const inputs of SETS) want.push(answer(await run(mode, inputs)));
      expect(want[0]!.trades.length).toBeGreaterThan(300);
      expect(want[1]!.trades.length).toBeLessThan(200);
      const order = [0, 1, 2, 0, 3, 1, 0, 2];
      for (const [k, i] of order.entries()) {
        const trial = await run(mode, SETS[i]!);
        const { reply } = spentTrialReply(trial, 0);
        const trades = want[i]!.trades;
        expect(reply.profit).toEqual(Float64Array.from(trades, (t) => t.profit));
        expect(reply.exit_bar).toEqual(Float64Array.from(trades, (t) => t.exit_bar_index ?? Number.NaN));
        expect(spareTradeColumns.count).toBeGreaterThan(0);
        expect(spareCurveValues.count).toBeGreaterThan(0);
        // a full run (9,000-trade limit) and a trial whose fields are read take the spares too
        const j = order[(k + 1) % order.length]!;
        expect(answer(await run(mode, SETS[j]!, {}))).toEqual(want[j]);
        expect(answer(await run(mode, SETS[j]!))).toEqual(want[j]);
      }
      // the released result is spent: its unread fields throw, it has no scored columns
      const spent = await run(mode, SETS[2]!);
      spentTrialReply(spent, 0);
      expect(() => spent.strategy!.trades).toThrow(/released/);
      expect(() => spent.strategy!.equity).toThrow(/released/);
      expect(scoredTrades(spent.strategy!)).toBeNull();
      // (empty the pools for the next mode's fresh runs)
      while (spareTradeColumns.take(0, Infinity) !== undefined);
      while (spareCurveValues.take(0, Infinity) !== undefined);
      while (spareCurveSpans.take(0, Infinity) !== undefined);
    }
  }, 120_000);
});
