// The worker's reused kernel instance gives the same results as a fresh instance per run, across
// different scripts, inputs and both backends in any order, and after a failed run.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { getKernelModule } from "../../src/kernels/index.js";
import { ReusedKernels } from "../../src/worker/kernel-reuse.js";
import { bars } from "../helpers/run-both.js";
import type { RunResult } from "../../src/core/result.js";

const MA = `//@version=6
strategy("ma", overlay = true, default_qty_type = strategy.percent_of_equity, default_qty_value = 50)
len = input.int(10, "Len", minval = 2)
fast = ta.sma(close, len)
slow = ta.ema(close, 3 * len)
[m, s, h] = ta.macd(close, 12, 26, 9)
plot(fast, "f")
plot(h, "h")
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
`;
const STATS = `//@version=6
indicator("stats")
plot(ta.stdev(close, 7), "sd")
plot(ta.highest(high, 5) - ta.lowest(low, 9), "range")
plot(ta.rsi(close, 4), "rsi")
plot(ta.percentrank(close, 6), "pr")
`;
const FAILS = `//@version=6
indicator("fails")
x = ta.sma(close, 4)
a = array.new<float>(2)
plot(x + array.get(a, bar_index))
`;

const comparable = (r: RunResult) => ({
  ...r,
  run_id: "",
  profile: null,
  events: r.events.map((e) => ({ ...e, run_id: "" })),
});

describe("ReusedKernels", () => {
  it("runs one instance after another with the results of fresh instances", async () => {
    const data = bars(300).map((b, i) => ({
      ...b,
      close: b.close + 8 * Math.sin(i / 6),
      high: b.high + 9,
      low: b.low - 9,
    }));
    const rt = new Runtime();
    const reused = new ReusedKernels(await getKernelModule());
    const cases: [string, Record<string, unknown>, string][] = [
      [MA, { Len: 5 }, "interpret"],
      [STATS, {}, "compile"],
      [MA, { Len: 9 }, "interpret"],
      [FAILS, {}, "interpret"],
      [STATS, {}, "interpret"],
      [MA, {}, "compile"],
      [MA, { Len: 5 }, "interpret"],
    ];
    let failed = 0;
    for (const [src, inputs, mode] of cases) {
      const fresh = await rt.run(src, data, { mode, inputs });
      const again = rt.runSync(src, data, { mode, inputs }, reused.forRun());
      if (again.error || again.timed_out) {
        failed++;
        reused.discard();
      }
      expect(comparable(again)).toEqual(comparable(fresh));
    }
    expect(failed).toBe(1); // FAILS stops on bar 2 (index out of range); the next run starts clean
  });
});
