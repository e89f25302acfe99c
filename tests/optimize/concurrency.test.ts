// A study with trials (and validation slices) in flight side by side gives exactly the sequential
// result for every sampler and validation mode: the browser pool and the server's worker threads may
// use any concurrency without changing what a seeded study returns.

import { describe, expect, it } from "vitest";
import { optimize, type OptimizeRequest, type OptimizeResult, type TrialRunner } from "../../src/optimize/index.js";
import { fakeResult, STRATEGY, syntheticBars, trade } from "./helpers.js";

const SPACE = {
  params: [
    { name: "Length", kind: "int", min: 2, max: 50 },
    { name: "Mult", kind: "float", min: 0, max: 1 },
  ],
};

/**
 * Trades from the params (profit peaks at Length 20, Mult 0.6), settling after a delay that varies by
 * call so runs finish out of order; Length 7 fails as a script error and Length 13 throws.
 */
function runner(calls: { n: number; maxInFlight: number }): TrialRunner {
  let inFlight = 0;
  return async (inputs, bars) => {
    calls.n++;
    inFlight++;
    calls.maxInFlight = Math.max(calls.maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, (calls.n * 7) % 5));
    inFlight--;
    const len = inputs.Length as number;
    if (len === 13) throw new Error("worker lost");
    if (len === 7) return fakeResult([], { error: "boom", error_kind: "runtime" });
    const mult = inputs.Mult as number;
    const edge = 100 - (len - 20) ** 2 / 10 - 200 * (mult - 0.6) ** 2;
    return fakeResult(bars.map((_, i) => trade(edge + (i % 2 ? 5 : -5), i)));
  };
}

const strip = (r: OptimizeResult) => ({ ...r, ms: 0, trials: r.trials.map((t) => ({ ...t, ms: 0 })) });

describe("concurrency", () => {
  const validations: unknown[] = [
    { mode: "holdout" },
    { mode: "in-sample" },
    { mode: "walk-forward", train_bars: 40, test_bars: 10, step_bars: 10 },
  ];
  for (const sampler of ["random", "grid", "tpe"] as const) {
    it(`${sampler}: any concurrency gives the sequential result`, async () => {
      for (const validation of validations) {
        for (const oos_every_trial of [true, false]) {
          const space =
            sampler === "grid"
              ? {
                  params: [
                    { name: "Length", kind: "int", min: 2, max: 22, step: 5 },
                    { name: "Mult", kind: "float", min: 0, max: 1, step: 0.5 },
                  ],
                }
              : SPACE;
          const req: OptimizeRequest = {
            script: STRATEGY,
            data: syntheticBars(90),
            space,
            n_trials: 24,
            sampler,
            seed: 7,
            min_trades: 1,
            validation,
            oos_every_trial,
          };
          const seqCalls = { n: 0, maxInFlight: 0 };
          const seq = await optimize(req, runner(seqCalls));
          expect(seqCalls.maxInFlight).toBe(1);
          for (const concurrency of [2, 4]) {
            const calls = { n: 0, maxInFlight: 0 };
            const par = await optimize(req, runner(calls), { concurrency });
            expect(
              strip(par),
              `${JSON.stringify(validation)} oos_every_trial ${oos_every_trial} concurrency ${concurrency}`,
            ).toEqual(strip(seq));
            expect(calls.maxInFlight).toBeGreaterThan(1); // it really ran side by side
          }
        }
      }
    });
  }

  it("TPE proposals after the start-up draws wait for every earlier trial", async () => {
    const order: string[] = [];
    let inFlight = 0;
    const tracking: TrialRunner = async (inputs, bars) => {
      order.push(`start ${inFlight}`);
      inFlight++;
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      return fakeResult(bars.map((_, i) => trade((inputs.Length as number) + i, i)));
    };
    // 30 trials: 10 start-up draws (max(3, min(10, 30 / 3))), in-sample so one run a trial
    await optimize(
      {
        script: STRATEGY,
        data: syntheticBars(50),
        space: SPACE,
        n_trials: 30,
        sampler: "tpe",
        seed: 1,
        min_trades: 0,
        validation: { mode: "in-sample" },
      },
      tracking,
      { concurrency: 3 },
    );
    expect(order.slice(0, 10).some((s) => s !== "start 0")).toBe(true);
    expect(order.slice(10)).toEqual(Array(20).fill("start 0"));
  });
});
