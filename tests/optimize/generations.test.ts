// The study driver's contract (src/optimize/driver.ts): a seeded study's result depends on its
// `parallelism` (TPE's generation size) and on nothing else: not on the batch size, on how many
// batches are in flight, nor on batches finishing out of order; a resumed study (stored trials
// replayed) is the uninterrupted one.

import { describe, expect, it } from "vitest";
import {
  driveStudy,
  evaluateTrial,
  prepareStudy,
  runStudy,
  scoreWinnerOos,
  visibleTrials,
  type OptimizeRequest,
  type OptimizeResult,
  type ScoredTrial,
  type TrialEvaluator,
  type TrialRunner,
} from "../../src/optimize/index.js";
import { fakeResult, STRATEGY, syntheticBars, trade } from "./helpers.js";

const SPACE = {
  params: [
    { name: "Length", kind: "int", min: 2, max: 50 },
    { name: "Mult", kind: "float", min: 0, max: 1 },
    { name: "Side", kind: "categorical", choices: ["long", "short", "both"] },
  ],
};

const runner: TrialRunner = async (inputs, bars) => {
  const len = inputs.Length as number;
  if (len === 7) return fakeResult([], { error: "boom", error_kind: "runtime" });
  const edge =
    100 - (len - 20) ** 2 / 10 - 200 * ((inputs.Mult as number) - 0.6) ** 2 + (inputs.Side === "both" ? 9 : 0);
  return fakeResult(bars.map((_, i) => trade(edge + (i % 2 ? 5 : -5), i)));
};

/** Batches settle after a delay that varies by call, so they finish out of order. */
function evaluator(req: OptimizeRequest, calls = { n: 0 }): TrialEvaluator {
  const study = prepareStudy(req);
  return {
    evaluate: async (batch) => {
      calls.n++;
      await new Promise((r) => setTimeout(r, (calls.n * 7) % 5));
      const out: ScoredTrial[] = [];
      for (const t of batch) out.push(await evaluateTrial(study, runner, t.index, t.params));
      return out;
    },
    winnerOos: (w) => scoreWinnerOos(study, runner, w),
  };
}

const strip = (r: OptimizeResult) => ({ ...r, ms: 0, trials: r.trials.map((t) => ({ ...t, ms: 0 })) });

function request(extra: Partial<OptimizeRequest>): OptimizeRequest {
  return { script: STRATEGY, data: syntheticBars(80), space: SPACE, n_trials: 60, seed: 9, ...extra };
}

describe("generations", () => {
  it("visibleTrials: a proposal reads the trials of the generations before its own", () => {
    expect([0, 1, 7, 8, 9, 15, 16].map((k) => visibleTrials(k, 8))).toEqual([0, 0, 0, 8, 8, 8, 16]);
    expect([0, 1, 5].map((k) => visibleTrials(k, 1))).toEqual([0, 1, 5]);
  });

  for (const parallelism of [1, 6, 16]) {
    it(`tpe with parallelism ${parallelism}: any batch size and concurrency give the in-process result`, async () => {
      const req = request({ sampler: "tpe", parallelism });
      const reference = strip(await runStudy(prepareStudy(req), runner));
      expect(reference.parallelism).toBe(parallelism);
      for (const [batchSize, concurrency] of [
        [1, 1],
        [3, 2],
        [4, 8],
        [7, 3],
        [60, 1],
      ] as const) {
        const got = await driveStudy(prepareStudy(req), evaluator(req), { batchSize, concurrency });
        expect(strip(got)).toEqual(reference);
      }
    });
  }

  it("tpe's result depends on the generation size; random's does not", async () => {
    const tpe = async (parallelism: number) =>
      strip(await runStudy(prepareStudy(request({ sampler: "tpe", parallelism })), runner));
    const [one, many] = [await tpe(1), await tpe(16)];
    // the start-up draws (10 of 60 trials) agree, the estimators' proposals after them do not
    expect(many.trials.slice(0, 10).map((t) => t.params)).toEqual(one.trials.slice(0, 10).map((t) => t.params));
    expect(many.trials.map((t) => t.params)).not.toEqual(one.trials.map((t) => t.params));
    const random = async (parallelism: number) =>
      strip(await runStudy(prepareStudy(request({ sampler: "random", parallelism })), runner));
    expect({ ...(await random(16)), parallelism: 1 }).toEqual(await random(1));
  });

  it("only the winner scored out of sample: the same through batches", async () => {
    const req = request({ sampler: "tpe", parallelism: 4, oos_every_trial: false });
    const reference = strip(await runStudy(prepareStudy(req), runner));
    expect(reference.best_oos_score).not.toBeNull();
    expect(strip(await driveStudy(prepareStudy(req), evaluator(req), { batchSize: 5, concurrency: 3 }))).toEqual(
      reference,
    );
  });

  it("a resumed study replays its stored trials and ends as the uninterrupted one", async () => {
    const req = request({ sampler: "tpe", parallelism: 5 });
    const whole = await driveStudy(prepareStudy(req), evaluator(req), { batchSize: 5, concurrency: 2 });
    const stored: ScoredTrial[] = [];
    const calls = { n: 0 };
    await driveStudy(prepareStudy(req), evaluator(req), {
      batchSize: 5,
      concurrency: 2,
      onProgress: (p) => {
        const raw = (x: number | null) => (p.trial.error || x === null ? -Infinity : x);
        if (stored.length < 23)
          stored.push({ record: p.trial, is: raw(p.trial.is_score), oos: raw(p.trial.oos_score) });
      },
    });
    const resumed = await driveStudy(prepareStudy(req), evaluator(req, calls), {
      batchSize: 5,
      concurrency: 2,
      prior: stored,
    });
    expect(strip(resumed)).toEqual(strip(whole));
    // 37 trials left in batches of 5 (the first one completes the generation 20..24)
    expect(calls.n).toBeLessThanOrEqual(9);
    // trials of another study do not resume this one
    const other = request({ sampler: "tpe", parallelism: 5, seed: 10 });
    await expect(driveStudy(prepareStudy(other), evaluator(other), { prior: stored })).rejects.toThrow(/diverges/);
  });
});
