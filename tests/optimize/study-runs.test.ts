// The engine runs `resin optimize`'s thread gate expects of a study (src/cli/optimize.ts studyRuns)
// against the runs its study makes, counted on the CLI's engine with no thread (StudyEngine.runs):
// the gate weighs the work still ahead by them. (Until session 31 it took the service's estimate,
// n_trials x folds, which counts a holdout trial's two runs as one.)
import { describe, expect, it } from "vitest";
import { localStudy, studyRuns } from "../../src/cli/optimize.js";
import { studyEngine } from "../../src/cli/optimize-engine.js";
import { prepareStudy, type OptimizeRequest } from "../../src/optimize/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { CROSS_STRATEGY } from "./cross-strategy.js";

const SPACE = {
  params: [
    { name: "Fast", kind: "int", min: 2, max: 10, step: 1 },
    { name: "Slow", kind: "int", min: 8, max: 30, step: 2 },
  ],
};

const base: OptimizeRequest = {
  script: CROSS_STRATEGY,
  data: randomWalkBars(900, { seed: 3 }),
  space: SPACE,
  n_trials: 9,
  sampler: "random",
  seed: 5,
  min_trades: 1,
};

describe("studyRuns", () => {
  it.each([
    ["holdout", { validation: { mode: "holdout", holdout_frac: 0.3 } }, 9 * 2 + 1],
    [
      "walk-forward, 3 folds",
      { validation: { mode: "walk-forward", train_bars: 300, test_bars: 200, step_bars: 200 } },
      9 * 4 + 1,
    ],
    ["in-sample", { validation: { mode: "in-sample" } }, 9 + 1],
    [
      "holdout scored at the end",
      { validation: { mode: "holdout", holdout_frac: 0.3 }, oos_every_trial: false },
      9 + 2,
    ],
    [
      "two data sets, holdout",
      {
        data: null,
        datasets: [{ data: randomWalkBars(900, { seed: 3 }) }, { data: randomWalkBars(700, { seed: 4 }) }],
        validation: { mode: "holdout", holdout_frac: 0.3 },
      },
      9 * 4 + 2,
    ],
  ] as const)("%s: the runs the study makes", async (_name, extra, expected) => {
    const study = prepareStudy({ ...base, ...extra } as OptimizeRequest);
    expect(studyRuns(study)).toBe(expected);
    const engine = studyEngine(1);
    try {
      await localStudy(engine, study, CROSS_STRATEGY);
      expect(engine.runs.here + engine.runs.thread).toBe(expected);
    } finally {
      await engine.close();
    }
  });
});
