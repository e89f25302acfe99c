import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/result.js";
import {
  computeStats,
  optimize,
  OptimizeError,
  planValidation,
  parseValidation,
  prepareStudy,
  score,
  walkForwardStarts,
  type OptimizeRequest,
  type TrialRunner,
} from "../../src/optimize/index.js";
import { fakeResult, STRATEGY, syntheticBars, trade } from "./helpers.js";

const SPACE = {
  params: [
    { name: "Length", kind: "int", min: 2, max: 50 },
    { name: "Mult", kind: "float", min: 0, max: 1 },
  ],
};

/** A runner whose trades depend smoothly on the params: profit peaks at Length 20, Mult 0.6. */
const smoothRunner: TrialRunner = async (inputs, bars) => {
  const len = inputs.Length as number;
  const mult = inputs.Mult as number;
  const edge = 100 - (len - 20) ** 2 / 10 - 200 * (mult - 0.6) ** 2;
  return fakeResult(bars.map((_, i) => trade(edge + (i % 2 ? 5 : -5), i)));
};

function codeOf(req: Partial<OptimizeRequest>): string | undefined {
  try {
    prepareStudy({ script: STRATEGY, data: syntheticBars(100), space: SPACE, ...req } as OptimizeRequest);
  } catch (e) {
    return e instanceof OptimizeError ? e.code : String(e);
  }
  return undefined;
}

describe("request checks", () => {
  it("reports each error code, in the documented order", () => {
    expect(codeOf({ script: "  ", data: [] })).toBe("NO_SCRIPT");
    expect(codeOf({ data: [], space: null })).toBe("NO_DATA");
    expect(codeOf({ script: '//@version=6\nindicator("x")\n', space: null })).toBe("NOT_A_STRATEGY");
    expect(codeOf({ space: { params: [] }, validation: { mode: "bogus" } })).toBe("INVALID_SPACE");
    expect(codeOf({ validation: { mode: "bogus" }, objective: "nope" })).toBe("INVALID_VALIDATION");
    expect(codeOf({ validation: { mode: "walk-forward" } })).toBe("INVALID_VALIDATION");
    expect(codeOf({ validation: { mode: "walk-forward", train_bars: 90, test_bars: 20 } })).toBe("INVALID_VALIDATION");
    expect(codeOf({ data: syntheticBars(3) })).toBe("INVALID_VALIDATION");
    expect(codeOf({ objective: "nope", sampler: "nope" })).toBe("INVALID_OBJECTIVE");
    expect(codeOf({ sampler: "nope" })).toBe("INVALID_SAMPLER");
    expect(
      codeOf({
        sampler: "grid",
        space: {
          params: [
            { name: "a", kind: "int", min: 1, max: 20 },
            { name: "b", kind: "int", min: 1, max: 20 },
          ],
        },
      }),
    ).toBe("GRID_TOO_LARGE");
    expect(codeOf({ n_trials: 100, validation: { mode: "walk-forward", train_bars: 40, test_bars: 10 } })).toBe(
      "TOO_MANY_RUNS",
    );
    expect(codeOf({})).toBeUndefined();
  });

  it("caps n_trials at 200 with a warning and resolves auto by trial count", () => {
    const big = prepareStudy({ script: STRATEGY, data: syntheticBars(50), space: SPACE, n_trials: 500 });
    expect(big.nTrials).toBe(200);
    expect(big.warnings.join()).toMatch(/capped at 200/);
    expect(big.sampler).toBe("tpe");
    expect(prepareStudy({ script: STRATEGY, data: syntheticBars(50), space: SPACE, n_trials: 19 }).sampler).toBe(
      "random",
    );
  });
});

describe("validation slicing", () => {
  it("holdout splits at n - round(n * frac), frac clamped", () => {
    const p = planValidation(parseValidation({ mode: "holdout", holdout_frac: 0.3 }), 101);
    expect(p.train).toEqual({ start: 0, end: 71, scoreFrom: 0 });
    expect(p.tests).toEqual([{ start: 71, end: 101, scoreFrom: 71 }]);
    expect(parseValidation({ holdout_frac: 0.95 }).holdout_frac).toBe(0.8);
    expect(parseValidation({ holdout_frac: 0.01 }).holdout_frac).toBe(0.05);
  });

  it("walk-forward folds are anchored: test [s, s + test) for s = train, train + step, ...", () => {
    expect(walkForwardStarts(100, 40, 20, 20)).toEqual([40, 60, 80]);
    expect(walkForwardStarts(100, 40, 20, 15)).toEqual([40, 55, 70]);
    expect(walkForwardStarts(59, 40, 20, 20)).toEqual([]);
    const p = planValidation(
      parseValidation({ mode: "walk-forward", train_bars: 40, test_bars: 20, warmup_bars: 5 }),
      100,
    );
    expect(p.folds).toBe(3);
    expect(p.spec.step_bars).toBe(20);
    expect(p.train).toEqual({ start: 0, end: 80, scoreFrom: 0 });
    expect(p.tests).toEqual([
      { start: 35, end: 60, scoreFrom: 40 },
      { start: 55, end: 80, scoreFrom: 60 },
      { start: 75, end: 100, scoreFrom: 80 },
    ]);
  });

  it("runs train and test as separate slices and scores only trades closed in the test window", async () => {
    const calls: { first: number; len: number }[] = [];
    const bars = syntheticBars(100);
    const runner: TrialRunner = async (_inputs, slice: Bar[]) => {
      calls.push({ first: (slice[0]!.time - bars[0]!.time) / 60_000, len: slice.length });
      // One trade closing on every bar of the slice, profit 1 each.
      return fakeResult(slice.map((_, i) => trade(1, i)));
    };
    const res = await optimize(
      {
        script: STRATEGY,
        data: bars,
        space: SPACE,
        n_trials: 1,
        min_trades: 0,
        seed: 1,
        validation: { mode: "walk-forward", train_bars: 40, test_bars: 20, warmup_bars: 5 },
      },
      runner,
    );
    expect(calls).toEqual([
      { first: 0, len: 80 },
      { first: 35, len: 25 },
      { first: 55, len: 25 },
      { first: 75, len: 25 },
    ]);
    expect(res.trials[0]!.is_stats!.trades).toBe(80);
    expect(res.trials[0]!.oos_stats!.trades).toBe(60); // warmup trades excluded
    expect(res.trials[0]!.engine_runs).toBe(4);
    expect(res.engine_runs).toBe(4);
  });

  it("gives every trial's run the study's bars over its range, the whole range and each fold alike", async () => {
    const bars = syntheticBars(100);
    const seen: { range: readonly [number, number]; rows: Bar[] }[] = [];
    const runner: TrialRunner = async (_inputs, rows, range) => {
      seen.push({ range: range!, rows: [...rows] });
      return fakeResult(rows.map((_, i) => trade(1, i)));
    };
    for (const validation of [
      { mode: "in-sample" },
      { mode: "walk-forward", train_bars: 40, test_bars: 20, warmup_bars: 5 },
    ]) {
      seen.length = 0;
      const res = await optimize(
        { script: STRATEGY, data: bars, space: SPACE, n_trials: 3, min_trades: 0, seed: 1, validation },
        runner,
      );
      expect(res.trials).toHaveLength(3);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const { range, rows } of seen) expect(rows).toEqual(bars.slice(range[0], range[1]));
    }
  });
});

describe("stats and objectives", () => {
  it("computes pnl, win rate, profit factor and closed-trade drawdown against initial capital", () => {
    const s = computeStats([{ profit: 100 }, { profit: -50 }, { profit: -150 }, { profit: 300 }], 1000);
    expect(s.total_pnl).toBe(200);
    expect(s.trades).toBe(4);
    expect(s.win_rate).toBe(0.5);
    expect(s.profit_factor).toBe(2);
    expect(s.avg_trade).toBe(50);
    expect(s.max_dd).toBeCloseTo(200 / 1100, 12);
  });

  it("scores by objective, -inf below min_trades", () => {
    const s = computeStats([{ profit: 100 }, { profit: -50 }], 1000);
    expect(score("net_pnl", s, 2)).toBe(50);
    expect(score("net_pnl", s, 3)).toBe(-Infinity);
    expect(score("profit_factor", s, 0)).toBe(2);
    expect(score("profit_factor", computeStats([{ profit: 5 }], 1000), 0)).toBe(1e6);
    expect(score("calmar", s, 0)).toBeCloseTo(50 / (50 / 1100), 9);
    expect(score("composite", s, 0)).toBeCloseTo((50 * Math.SQRT2) / (1 + 50 / 1100), 9);
  });
});

describe("study", () => {
  it("is deterministic for a seed, for every sampler", async () => {
    for (const sampler of ["random", "tpe", "grid"]) {
      const req: OptimizeRequest = {
        script: STRATEGY,
        data: syntheticBars(60),
        space: SPACE,
        n_trials: 25,
        sampler,
        seed: 42,
        min_trades: 1,
        ...(sampler === "grid"
          ? {
              space: {
                params: [
                  { name: "Length", kind: "int", min: 2, max: 50, step: 8 },
                  { name: "Mult", kind: "float", min: 0, max: 1, step: 0.25 },
                ],
              },
            }
          : {}),
      };
      const a = await optimize(req, smoothRunner);
      const a2 = await optimize(req, smoothRunner);
      // Parallel batches propose from the history at the batch start, so they reproduce too.
      const b = await optimize(req, smoothRunner, { concurrency: 3 });
      const b2 = await optimize(req, smoothRunner, { concurrency: 3 });
      const c = await optimize({ ...req, seed: 43 }, smoothRunner);
      expect(a2.trials.map((t) => t.params)).toEqual(a.trials.map((t) => t.params));
      expect(a2.best_params).toEqual(a.best_params);
      expect(b2.trials.map((t) => t.params)).toEqual(b.trials.map((t) => t.params));
      if (sampler !== "tpe") expect(b.trials.map((t) => t.params)).toEqual(a.trials.map((t) => t.params));
      if (sampler !== "grid") expect(c.trials.map((t) => t.params)).not.toEqual(a.trials.map((t) => t.params));
    }
  });

  it("ranks holdout by out-of-sample score and never picks an erroring trial", async () => {
    let call = 0;
    const runner: TrialRunner = async (inputs, bars) => {
      call++;
      if (inputs.Length === 2) return fakeResult([], { error: "boom", error_kind: "runtime" });
      return smoothRunner(inputs, bars);
    };
    const res = await optimize(
      {
        script: STRATEGY,
        data: syntheticBars(60),
        space: { params: [{ name: "Length", kind: "int", min: 2, max: 22, step: 10 }] },
        sampler: "grid",
        n_trials: 3,
        seed: 1,
        min_trades: 1,
        fixed_inputs: { Mult: 0.6, Length: 999 },
      },
      runner,
    );
    expect(res.trials.map((t) => t.params.Length)).toEqual([2, 12, 22]);
    expect(res.trials[0]!.error).toMatch(/boom/);
    expect(res.trials[0]!.is_score).toBeNull();
    expect(res.best_params).toEqual({ Length: 22 });
    expect(res.best_oos_score).toBe(res.trials[2]!.oos_score);
    expect(call).toBe(1 + 2 + 2);
    expect(res.validation).toEqual({
      mode: "holdout",
      holdout_frac: 0.3,
      train_bars: null,
      test_bars: null,
      step_bars: null,
      warmup_bars: 0,
    });
  });

  it("best_* are null when every score is -inf; in-sample warns", async () => {
    const res = await optimize(
      {
        script: STRATEGY,
        data: syntheticBars(30),
        space: SPACE,
        n_trials: 4,
        seed: 3,
        min_trades: 10_000,
        validation: { mode: "in-sample" },
      },
      smoothRunner,
    );
    expect(res.best_index).toBeNull();
    expect(res.best_params).toBeNull();
    expect(res.warning).toBe("in-sample results overfit; prefer holdout");
    expect(res.trials.every((t) => t.is_score === null && t.engine_runs === 1)).toBe(true);
  });

  it("reports progress per trial and stops on abort", async () => {
    const ctrl = new AbortController();
    const seen: number[] = [];
    const p = optimize(
      { script: STRATEGY, data: syntheticBars(30), space: SPACE, n_trials: 50, seed: 3 },
      smoothRunner,
      {
        signal: ctrl.signal,
        onProgress: (pr) => {
          seen.push(pr.completed);
          if (pr.completed === 5) ctrl.abort();
        },
      },
    );
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("TPE", () => {
  it("finds a better objective than random on a smooth objective over fixed seeds", async () => {
    const space = { params: [0, 1, 2, 3].map((i) => ({ name: `x${i}`, kind: "float", min: -1, max: 1 })) };
    // Injected objective: a smooth bowl with its peak off-centre; each trial scores one closed trade.
    const runner: TrialRunner = async (inputs) => {
      const v = [0, 1, 2, 3].reduce((acc, i) => acc - ((inputs[`x${i}`] as number) - 0.35 + 0.1 * i) ** 2, 0);
      return fakeResult([trade(1000 + 1000 * v, 0)]);
    };
    let tpeWins = 0;
    let tpeSum = 0;
    let randSum = 0;
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    for (const seed of seeds) {
      const base = {
        script: STRATEGY,
        data: syntheticBars(10),
        space,
        n_trials: 60,
        seed,
        min_trades: 1,
        objective: "net_pnl",
        validation: { mode: "in-sample" },
      };
      const tpe = await optimize({ ...base, sampler: "tpe" }, runner);
      const rnd = await optimize({ ...base, sampler: "random" }, runner);
      tpeSum += tpe.best_is_score!;
      randSum += rnd.best_is_score!;
      if (tpe.best_is_score! > rnd.best_is_score!) tpeWins++;
    }
    expect(tpeWins).toBeGreaterThanOrEqual(14);
    expect(tpeSum / seeds.length).toBeGreaterThan(randSum / seeds.length);
  });
});
