// Studies over several data sets (issue 24: multi-symbol / multi-timeframe): every trial runs on each
// set, its score is the sets' mean (or their minimum), each set's scores and stats are in the record's
// `sets`; the checks name the set; batching and concurrency still leave the result unchanged.

import { describe, expect, it } from "vitest";
import {
  driveStudy,
  evaluateTrial,
  OptimizeError,
  prepareStudy,
  runStudy,
  scoreWinnerOos,
  type OptimizeRequest,
  type OptimizeResult,
  type TrialRunner,
} from "../../src/optimize/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { createInProcessEngine, studyFullRunner, studyTrialRunner, TRIAL_BROKER } from "../../src/server/engine.js";
import { CROSS_STRATEGY } from "./cross-strategy.js";
import { fakeResult, STRATEGY, syntheticBars, trade } from "./helpers.js";

const SPACE = { params: [{ name: "Length", kind: "int", min: 2, max: 50 }] };

/** A runner per set: the same params earn differently on each (set 1 prefers longer lengths). */
const runnerFor =
  (bias: number): TrialRunner =>
  async (inputs, bars) => {
    const len = inputs.Length as number;
    if (bias > 0 && len === 9) return fakeResult([], { error: "boom", error_kind: "runtime" });
    const edge = 50 - Math.abs(len - 15 - bias) * 3;
    return fakeResult(bars.map((_, i) => trade(edge + (i % 2 ? 4 : -4), i)));
  };
const RUNNERS = [runnerFor(0), runnerFor(20)];

function request(extra: Partial<OptimizeRequest> = {}): OptimizeRequest {
  return {
    script: STRATEGY,
    data: null,
    datasets: [
      { data: syntheticBars(80), symbol: "AAA", timeframe: "60" },
      { data: syntheticBars(120), symbol: "BBB", timeframe: "D" },
    ],
    space: SPACE,
    n_trials: 40,
    seed: 3,
    sampler: "tpe",
    min_trades: 1,
    ...extra,
  };
}

const strip = (r: OptimizeResult) => ({ ...r, ms: 0, trials: r.trials.map((t) => ({ ...t, ms: 0 })) });

describe("several data sets", () => {
  it("a trial scores the mean of its sets (or the worst set); each set's scores and stats are kept", async () => {
    for (const aggregate of ["mean", "min"] as const) {
      const res = await runStudy(prepareStudy(request({ aggregate })), RUNNERS);
      const ok = res.trials.filter((t) => !t.error);
      expect(ok.length).toBeGreaterThan(10);
      for (const t of ok) {
        expect(t.sets!.map((s) => [s.symbol, s.timeframe])).toEqual([
          ["AAA", "60"],
          ["BBB", "D"],
        ]);
        expect(t.is_stats).toBeNull();
        const scores = t.sets!.map((s) => s.is_score as number);
        const want = aggregate === "mean" ? (scores[0]! + scores[1]!) / 2 : Math.min(...scores);
        expect(t.is_score).toBe(want);
        expect(t.engine_runs).toBe(4);
        expect(t.sets![1]!.is_stats!.trades).toBeGreaterThan(t.sets![0]!.is_stats!.trades);
      }
      const failed = res.trials.find((t) => t.params.Length === 9);
      if (failed) expect(failed.error).toBe("BBB D: runtime: boom");
    }
  });

  it("any batch size and concurrency give the in-process result; so does the winner-only out-of-sample path", async () => {
    for (const extra of [{ parallelism: 5 }, { parallelism: 4, oos_every_trial: false }]) {
      const req = request(extra);
      const reference = strip(await runStudy(prepareStudy(req), RUNNERS));
      const study = prepareStudy(req);
      const got = await driveStudy(
        study,
        {
          evaluate: async (batch) => Promise.all(batch.map((t) => evaluateTrial(study, RUNNERS, t.index, t.params))),
          winnerOos: (w) => scoreWinnerOos(study, RUNNERS, w),
        },
        { batchSize: 3, concurrency: 4 },
      );
      expect(strip(got)).toEqual(reference);
      expect(reference.best_index).not.toBeNull();
    }
  });

  it("the winner's full run covers every data set (best_results): each a plain run of that set with the winning inputs, in both modes", async () => {
    const engine = createInProcessEngine();
    const sets = [randomWalkBars(300, { seed: 5 }), randomWalkBars(220, { seed: 9 })];
    for (const mode of ["interpret", "compile"] as const) {
      const study = prepareStudy({
        script: CROSS_STRATEGY,
        data: null,
        datasets: [
          { data: sets[0], symbol: "AAA", timeframe: "60" },
          { data: sets[1], symbol: "BBB", timeframe: "D" },
        ],
        space: { params: [{ name: "Fast", kind: "int", min: 2, max: 10 }] },
        n_trials: 6,
        seed: 1,
        sampler: "random",
        min_trades: 1,
      });
      const job = (symbol: string) => ({ script: CROSS_STRATEGY, symbol, options: { mode } });
      const seen: string[] = [];
      const res = await runStudy(
        study,
        study.sets.map((set) =>
          studyTrialRunner(engine, { ...study, bars: set.bars }, { ...job(set.symbol!), broker: TRIAL_BROKER }),
        ),
        {
          // each set's winner run as that set's symbol, as its trials ran
          fullRun: (inputs, bars, set) => {
            seen.push(`${set.index} ${set.symbol} ${set.timeframe}`);
            return studyFullRunner(engine, job(set.symbol!))(inputs, bars, set);
          },
        },
      );
      expect(res.best_params, mode).not.toBeNull();
      expect(seen.sort()).toEqual(["0 AAA 60", "1 BBB D"]);
      expect(res.best_results!.map((b) => [b.symbol, b.timeframe])).toEqual([
        ["AAA", "60"],
        ["BBB", "D"],
      ]);
      // best_result stays the first set's run (what a client of one data set reads)
      expect(res.best_result).toBe(res.best_results![0]!.result);
      for (let k = 0; k < 2; k++) {
        const full = res.best_results![k]!.result!;
        const direct = await new Runtime(k ? "BBB" : "AAA", { broker: { record_events: false } }).run(
          CROSS_STRATEGY,
          sets[k]!,
          { mode, inputs: res.best_params! },
        );
        expect(full.mode, mode).toBe(mode);
        expect(full.count).toBe(sets[k]!.length);
        expect(full).not.toHaveProperty("events");
        expect(full.strategy!.trades.length).toBeGreaterThan(0);
        expect(full.strategy).toEqual(direct.strategy);
        expect(full.series).toEqual(direct.series);
      }
    }
  });

  it("a set whose full run fails is null in best_results, with a warning naming it; the others stand", async () => {
    const res = await runStudy(prepareStudy(request({ n_trials: 8 })), RUNNERS, {
      fullRun: async (inputs, bars, set) => {
        if (set.index === 1) throw new Error("no engine for BBB");
        return {
          ...fakeResult([trade(1, 0)]),
          count: bars.length,
          inputs: [{ title: "Length", value: inputs.Length }],
        } as never;
      },
    });
    expect(res.best_results!.map((b) => b.result === null)).toEqual([false, true]);
    expect(res.best_result).toBe(res.best_results![0]!.result);
    expect(res.warning).toContain("the winner's full run failed: BBB D: no engine for BBB");
    // one data set: best_result only, as before
    const one = await runStudy(
      prepareStudy({ ...request({ n_trials: 4 }), datasets: null, data: syntheticBars(80) }),
      RUNNERS[0]!,
      {
        fullRun: async (_inputs, bars) => ({ ...fakeResult([]), count: bars.length }) as never,
      },
    );
    expect(one.best_result).not.toBeUndefined();
    expect(one).not.toHaveProperty("best_results");
  });

  it("checks: data and datasets together, an empty set, a window that does not fit one set, the runs cap over every set", () => {
    const code = (req: OptimizeRequest) => {
      try {
        prepareStudy(req);
        return null;
      } catch (e) {
        return e instanceof OptimizeError ? [e.code, e.message] : String(e);
      }
    };
    expect(code(request({ data: syntheticBars(50) }))?.[0]).toBe("INVALID_DATASETS");
    expect(code(request({ datasets: [] }))?.[0]).toBe("INVALID_DATASETS");
    expect(code(request({ aggregate: "median" }))?.[0]).toBe("INVALID_DATASETS");
    expect(code(request({ datasets: [{ data: syntheticBars(50) }, { data: [] }] }))).toEqual([
      "NO_DATA",
      "datasets[1] has no bars",
    ]);
    const wf = { mode: "walk-forward", train_bars: 90, test_bars: 20 };
    expect(code(request({ validation: wf }))).toEqual([
      "INVALID_VALIDATION",
      "datasets[0]: walk-forward window does not fit: train_bars 90 + test_bars 20 > 80 bars",
    ]);
    // 200 trials x (1 + 1) folds over two sets = 400 fits the single-host cap; 201 trials would not (capped to 200)
    expect(code(request({ n_trials: 200 }))).toBeNull();
    const three = request({
      n_trials: 200,
      datasets: [{ data: syntheticBars(40) }, { data: syntheticBars(40) }, { data: syntheticBars(40) }],
    });
    expect(code(three)?.[0]).toBe("TOO_MANY_RUNS");
  });
});
