// The chart app's client-side study (web/src/engines/optimize-loop.ts) with its winner's full run, as
// the in-browser and edge engines give it: the answer's best_result is the run over the whole data set
// with the winner's inputs, as /optimize and `resin optimize` carry it (tests/server/runtime.test.ts,
// tests/optimize/cli.test.ts). The pool's runs are the library Runtime here (no Web Workers in Node),
// packed and unpacked as the worker protocol does.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { packBars, packSeries, sliceBars, toColumnar, unpackSeries } from "../../src/worker/protocol.js";
import { runStudyInWorker } from "../../src/worker/study.js";
import { clientSideOptimize } from "../../web/src/engines/optimize-loop.js";
import { CROSS_STRATEGY } from "../optimize/cross-strategy.js";

const SCRIPT = `${CROSS_STRATEGY}plot(f, "fast")\n`;

describe("client-side optimize", () => {
  it("carries the winner's full run over the whole data set (best_result)", async () => {
    const bars = packBars(randomWalkBars(400, { seed: 4 }));
    const rt = new Runtime("CHART", {});
    const run = (inputs: Record<string, unknown>, from: number, to: number) =>
      rt.run(SCRIPT, toColumnar(sliceBars(bars, from, to)), { inputs, mode: "auto" });
    const res = await clientSideOptimize(
      {
        script: SCRIPT,
        data: { key: "k", name: "walk", bars },
        space: {
          params: [
            { name: "Fast", kind: "int", min: 2, max: 10 },
            { name: "Slow", kind: "int", min: 8, max: 30 },
          ],
        },
        n_trials: 6,
        sampler: "random",
        objective: "net_pnl",
        validation: { mode: "holdout" },
        min_trades: 1,
        seed: 2,
        symbol: "CHART",
        fixed_inputs: {},
      },
      run,
      {
        concurrency: 2,
        signal: new AbortController().signal,
        fullRun: async (inputs) => unpackSeries(packSeries(await run(inputs, 0, 400)).packed),
      },
      () => {},
    );
    expect(res.best_params).not.toBeNull();
    const full = res.best_result!;
    expect(full.count).toBe(400);
    expect("events" in full).toBe(false);
    expect(full.strategy!.trades.length).toBeGreaterThan(0);
    const direct = await rt.run(SCRIPT, toColumnar(bars), { inputs: res.best_params!, mode: "auto" });
    const { run_id: _a, profile: _b, events: _c, ...want } = JSON.parse(JSON.stringify(direct));
    const { run_id: _d, profile: _e, ...got } = JSON.parse(JSON.stringify(full));
    expect(got).toEqual(want);
  });

  it("the single-worker study carries it too", async () => {
    const bars = packBars(randomWalkBars(400, { seed: 4 }));
    const rt = new Runtime("CHART", {});
    const lean = new Runtime("CHART", { broker: { record_events: false } });
    const res = await runStudyInWorker(
      {
        script: SCRIPT,
        barsKey: "k",
        space: { params: [{ name: "Fast", kind: "int", min: 2, max: 10 }] },
        n_trials: 4,
        sampler: "random",
        objective: "net_pnl",
        min_trades: 1,
        seed: 1,
      },
      bars,
      (r) => rt.run(r.source, toColumnar(sliceBars(bars, r.slice![0], r.slice![1])), r.options),
      () => false,
      undefined,
      (r) => lean.run(r.source, toColumnar(bars), r.options),
    );
    expect(res.best_params).not.toBeNull();
    expect(res.best_result!.count).toBe(400);
    const direct = await rt.run(SCRIPT, toColumnar(bars), { inputs: res.best_params!, mode: "auto" });
    expect(res.best_result!.strategy).toEqual(direct.strategy);
  });
});
