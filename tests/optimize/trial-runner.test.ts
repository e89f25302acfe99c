// Optimize trials at the cost of a run (issue 18 part 4): with an engine that has `trial`, the study's
// bars are packed once into shared columns, each trial names its range of them and only the scored
// trades come back. The study must come out exactly as with whole runs of bar rows, in-process and
// on the built worker-thread pool (where the columns cross threads as SharedArrayBuffers).
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { prepareStudy, runStudy, type OptimizeResult, type OptimizeRequest } from "../../src/optimize/index.js";
import {
  createInProcessEngine,
  evaluateJob,
  studyTrialRunner,
  TRIAL_BROKER,
  type Engine,
} from "../../src/server/engine.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { ensureDist } from "../server/dist.js";
import { CROSS_STRATEGY } from "./cross-strategy.js";

const STRATEGY = CROSS_STRATEGY;

const SPACE = {
  params: [
    { name: "Fast", kind: "int", min: 2, max: 10, step: 1 },
    { name: "Slow", kind: "int", min: 8, max: 30, step: 2 },
  ],
};

/** The study's result without its timings. */
function untimed(r: OptimizeResult): unknown {
  return { ...r, ms: 0, trials: r.trials.map((t) => ({ ...t, ms: 0 })) };
}

async function study(
  engine: Engine,
  validation: unknown,
  seed = 1,
  perMessage = 1,
  sampler: "random" | "tpe" = "random",
): Promise<OptimizeResult> {
  const req: OptimizeRequest = {
    script: STRATEGY,
    data: randomWalkBars(1500, { seed }),
    space: SPACE,
    n_trials: 12,
    sampler,
    seed: 7,
    min_trades: 1,
    validation,
  };
  const s = prepareStudy(req);
  const runner = studyTrialRunner(
    engine,
    s,
    { script: STRATEGY, symbol: "CHART", broker: TRIAL_BROKER, options: { mode: "auto" } },
    {},
    perMessage,
  );
  return runStudy(s, runner, { concurrency: engine.concurrency, batchSize: perMessage });
}

const VALIDATIONS = [
  { mode: "holdout", holdout_frac: 0.3 },
  { mode: "walk-forward", train_bars: 600, test_bars: 300, step_bars: 300 },
];

describe("resin optimize on real worker threads (bin/resin.js from the built dist/)", () => {
  it("the default (one thread, a second once the study is long enough), --workers 1 and --workers 2 give one result", async () => {
    ensureDist();
    const root = join(import.meta.dirname, "..", "..");
    const dir = mkdtempSync(join(tmpdir(), "resin-threads-"));
    const script = join(dir, "cross.pine");
    writeFileSync(script, STRATEGY);
    const run = (extra: string[]): Record<string, unknown> => {
      const out = execFileSync(
        process.execPath,
        [
          join(root, "bin", "resin.js"),
          "optimize",
          script,
          ...["--bars", "3000", "--trials", "60", "--seed", "3", "--min-trades", "1", "--json", ...extra],
        ],
        { cwd: root, encoding: "utf8", timeout: 120_000 },
      );
      const r = JSON.parse(out);
      return { ...(untimed(r) as Record<string, unknown>), best_result: { ...r.best_result, run_id: 0, profile: 0 } };
    };
    const byDefault = run([]);
    expect(byDefault.trials).toHaveLength(60);
    expect(run(["--workers", "1"])).toEqual(byDefault);
    expect(run(["--workers", "2"])).toEqual(byDefault);
  }, 240_000);
});

describe("resin optimize's engine (built): this thread and worker threads side by side", () => {
  it("a study whose threads start midway gives the study of this thread alone, over several sets and folds", async () => {
    ensureDist();
    const root = join(import.meta.dirname, "..", "..");
    const dist = (p: string) => pathToFileURL(join(root, "dist", p)).href;
    const { studyEngine } = (await import(
      dist("cli/optimize-engine.js")
    )) as typeof import("../../src/cli/optimize-engine.js");
    const { localStudy } = (await import(dist("cli/optimize.js"))) as typeof import("../../src/cli/optimize.js");
    const { prepareStudy: prepare } = (await import(
      dist("optimize/index.js")
    )) as typeof import("../../src/optimize/index.js");
    const req: OptimizeRequest = {
      script: STRATEGY,
      data: null,
      datasets: [{ data: randomWalkBars(1500, { seed: 1 }) }, { data: randomWalkBars(1200, { seed: 2 }) }],
      space: SPACE,
      n_trials: 40,
      sampler: "random",
      seed: 11,
      min_trades: 1,
      validation: VALIDATIONS[1],
    };
    const solo = studyEngine(1);
    const two = studyEngine(2);
    const mixed = studyEngine(3);
    try {
      const alone = await localStudy(solo, prepare(req), STRATEGY);
      expect(solo.threadsStarted).toBe(false);
      expect(solo.runs.thread).toBe(0);
      // --workers 2 on a study far shorter than a thread's start-up: no thread (session 10 started it
      // with the study and paid 3.3x the plain runs' CPU at 32 trials of 20k bars)
      const capped = await localStudy(two, prepare(req), STRATEGY);
      expect(two.threadsStarted).toBe(false);
      // the default's rule with no wait: threads let in after the first runs here (started ahead
      // here, so that they are up before this short study ends and take some of its runs)
      await mixed.startThreads();
      const side = await localStudy(mixed, prepare(req), STRATEGY, { growAfterMs: 0 });
      expect(mixed.runs.here).toBeGreaterThanOrEqual(10);
      expect(mixed.runs.thread).toBeGreaterThan(0);
      expect(alone.trials.filter((t) => t.error)).toEqual([]);
      const clean = (r: OptimizeResult) => ({
        ...(untimed(r) as object),
        best_results: r.best_results?.map((x) => ({ ...x, result: { ...x.result, run_id: 0, profile: 0 } })),
        best_result: { ...r.best_result, run_id: 0, profile: 0 },
      });
      expect(clean(side)).toEqual(clean(alone));
      expect(clean(capped)).toEqual(clean(alone));
    } finally {
      await solo.close();
      await two.close();
      await mixed.close();
    }
  }, 120_000);
});

describe("trials through engine.trial", () => {
  it("give the study of whole runs of bar rows, for holdout and walk-forward slices", async () => {
    const withTrial = createInProcessEngine();
    expect(withTrial.trial).toBeDefined();
    // the same runs without the trial path (a stand-in run function turns it off)
    const rowsOnly = createInProcessEngine((job) => evaluateJob(job));
    expect(rowsOnly.trial).toBeUndefined();
    for (const v of VALIDATIONS) {
      const a = await study(withTrial, v);
      const b = await study(rowsOnly, v);
      expect(a.trials.filter((t) => t.error)).toEqual([]);
      expect(a.best_params).not.toBeNull();
      expect(untimed(a)).toEqual(untimed(b));
      // again on the same engine (its held bars) and over other bars: still the whole-run studies
      expect(untimed(await study(withTrial, v))).toEqual(untimed(b));
      expect(untimed(await study(withTrial, v, 3))).toEqual(untimed(await study(rowsOnly, v, 3)));
    }
  }, 120_000);

  it("on the built worker-thread pool too (shared columns across threads, the one-file thread entry)", async () => {
    ensureDist();
    const root = join(import.meta.dirname, "..", "..");
    const { createNodeEngine, workerEntry } = (await import(
      pathToFileURL(join(root, "dist", "server", "node", "pool.js")).href
    )) as typeof import("../../src/server/node/pool.js");
    // the threads load the build's bundle of the entry (scripts/bundle-worker.mjs), not its ~180 modules
    expect(workerEntry()?.href).toBe(pathToFileURL(join(root, "dist", "bundle", "run-worker.js")).href);
    const pool = createNodeEngine(2);
    try {
      expect(pool.kind).toBe("threads");
      const rowsOnly = createInProcessEngine((job) => evaluateJob(job));
      const a = await study(pool, VALIDATIONS[1]);
      const b = await study(rowsOnly, VALIDATIONS[1]);
      expect(untimed(a)).toEqual(untimed(b));
      // the threads keep each study's bars (trial-bars.ts): later studies on the kept pool, over other
      // bars and then the first ones again, still give exactly the whole-run studies
      const other = await study(pool, VALIDATIONS[0], 2);
      expect(untimed(other)).toEqual(untimed(await study(rowsOnly, VALIDATIONS[0], 2)));
      expect(untimed(other)).not.toEqual(untimed(await study(rowsOnly, VALIDATIONS[0], 1)));
      expect(untimed(await study(pool, VALIDATIONS[1]))).toEqual(untimed(b));
    } finally {
      await pool.close?.();
    }
  }, 120_000);

  it("in batches of several trials a message to a thread (engine.trials): the same studies", async () => {
    ensureDist();
    const root = join(import.meta.dirname, "..", "..");
    const { createNodeEngine } = (await import(
      pathToFileURL(join(root, "dist", "server", "node", "pool.js")).href
    )) as typeof import("../../src/server/node/pool.js");
    const { trialsPerMessage } = (await import(
      pathToFileURL(join(root, "dist", "server", "engine.js")).href
    )) as typeof import("../../src/server/engine.js");
    const pool = createNodeEngine(2);
    try {
      expect(pool.trials).toBeDefined();
      expect(trialsPerMessage(pool, 12)).toBe(1);
      expect(trialsPerMessage(pool, 32)).toBe(4);
      expect(trialsPerMessage(pool, 200)).toBe(8);
      expect(trialsPerMessage(createInProcessEngine(), 200)).toBe(1);
      const rowsOnly = createInProcessEngine((job) => evaluateJob(job));
      // (the batches a study sends, and the runs in them)
      const trials = pool.trials!.bind(pool);
      let batches = 0;
      let batched = 0;
      pool.trials = (job, control) => {
        batches++;
        batched += job.runs.length;
        return trials(job, control);
      };
      for (const v of [{ mode: "in-sample" }, ...VALIDATIONS])
        for (const perMessage of [3, 5]) {
          const want = untimed(await study(rowsOnly, v, 2));
          expect(untimed(await study(pool, v, 2, perMessage))).toEqual(want);
        }
      expect(batched).toBeGreaterThan(2 * batches);
      // TPE: its start-up draws go out in batches, its later proposals one at a time
      const tpe = untimed(await study(rowsOnly, VALIDATIONS[0], 1, 1, "tpe"));
      expect(untimed(await study(pool, VALIDATIONS[0], 1, 4, "tpe"))).toEqual(tpe);
    } finally {
      await pool.close?.();
    }
  }, 180_000);
});
