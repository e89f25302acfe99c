import { describe, expect, it } from "vitest";
import { formatMessage } from "../../src/builtins/str/format.js";
import { JavaRandom, mathAvg, mathRound, roundToMintick } from "../../src/builtins/math/index.js";
import { constants } from "../../src/builtins/math/index.js";
import { callWith, caller, expectedMessages, makeCtx, site } from "./math-helpers/ctx.js";

const f = (p: string, ...a: unknown[]) => formatMessage(p, a as never[]);

describe("math.* unit", () => {
  const call = caller();
  it.each([
    ["math.abs", [-2.5], 2.5],
    ["math.ceil", [1.2], 2],
    ["math.floor", [-1.2], -2],
    ["math.sign", [0], 0],
    ["math.sign", [-3], -1],
    ["math.max", [1, 5, 3], 5],
    ["math.min", [4, 2, 3], 2],
    ["math.pow", [2, 10], 1024],
    ["math.round", [2.5], 3],
    ["math.round", [-2.5], -2],
    ["math.round", [1.005, 2], 1],
    ["math.round", [1.56789, 2], 1.57],
    ["math.todegrees", [Math.PI], 180],
    ["math.toradians", [180], Math.PI],
  ])("%s(%j) = %s", (name, args, want) => {
    expect(call(name as string, ...(args as unknown[]))).toBe(want);
  });

  it("propagates na", () => {
    expect(call("math.max", 1, NaN)).toBeNaN();
    expect(call("math.sqrt", -4)).toBeNaN();
    expect(call("math.round", NaN)).toBeNaN();
  });

  it("constants", () => {
    expect(constants["math.pi"]).toBe(Math.PI);
    expect(constants["math.e"]).toBe(Math.E);
    expect(constants["math.phi"]).toBeCloseTo(1.618033988749895, 15);
    expect(constants["math.rphi"]).toBeCloseTo(0.618033988749895, 15);
  });

  it("round_to_mintick uses the symbol's mintick", () => {
    expect(roundToMintick(1.56789918, 1e-5)).toBeCloseTo(1.5679, 12);
    const ctx = makeCtx({
      syminfo: { mintick: 0.25, pointvalue: 1, timezone: "UTC", currency: "USD", type: "futures" },
    });
    expect(callWith(ctx, "math.round_to_mintick", [10.13])).toBe(10.25);
  });

  it("round_to_mintick gives the double nearest the decimal multiple, without binary noise", () => {
    // 116.6 / 0.01 rounds to 11660 ticks; 11660 * 0.01 is 116.60000000000001, 11660 / 100 is 116.6
    expect(roundToMintick(116.5987, 0.01)).toBe(116.6);
    expect(roundToMintick(112.5400001, 0.01)).toBe(112.54);
    expect(roundToMintick(1.234567, 1e-5)).toBe(1.23457);
    expect(roundToMintick(-0.125, 0.25)).toBe(-0);
    expect(roundToMintick(0.125, 0.25)).toBe(0.25);
    // a tick that is not 1/n of a unit keeps the plain product
    expect(roundToMintick(7.4, 0.3)).toBe(Math.round(7.4 / 0.3) * 0.3);
    expect(roundToMintick(NaN, 0.01)).toBeNaN();
  });

  it("java.util.Random sequence for seed 42", () => {
    const r = new JavaRandom(42);
    expect(r.nextDouble()).toBe(0.7275636800328681);
    expect(r.nextDouble()).toBe(0.6832234717598454);
  });

  it("math.random with a seed: one draw per call of the call site, independent call sites", () => {
    const ctx = makeCtx();
    const s1 = site();
    const s2 = site();
    const a = callWith(ctx, "math.random", [0, 1, 42], s1);
    const b = callWith(ctx, "math.random", [0, 1, 42], s2);
    expect(a).toBe(b);
    expect(callWith(ctx, "math.random", [0, 1, 42], s1)).not.toBe(a);
  });

  it("math.sum skips na and waits for `length` values", () => {
    const ctx = makeCtx();
    const s = site();
    const input = [NaN, NaN, 1, NaN, NaN, 1, NaN, NaN, 1];
    // one call per bar: math.sum replaces the value of a bar it is called on again (realtime ticks)
    const out = input.map((x, i) => ((ctx.barIndex = i), callWith(ctx, "math.sum", [x, 2], s)));
    expect(out.slice(0, 5).every((x) => Number.isNaN(x))).toBe(true);
    expect(out.slice(5)).toEqual([2, 2, 2, 2]);
  });

  it("math.avg: 2 args plain, 3+ compensated", () => {
    expect(mathAvg([1, 2, 3])).toBe(2);
    expect(mathAvg([0.99521, 1.00504])).toBe((0.99521 + 1.00504) / 2);
    expect(mathRound(1.5)).toBe(2);
  });
});

describe("math Pine Logs ground truth (direct calls)", () => {
  it("math_test_001_math", () => {
    const call = caller();
    const r = new JavaRandom(1337);
    const p10 = "{0,number,#.##########}";
    const got = [
      f("{0}", call("math.abs", -1)),
      f(p10, call("math.acos", 0.5)),
      f(p10, call("math.asin", 0.5)),
      f(p10, call("math.atan", 0.5)),
      f("{0}", call("math.avg", 1, 2, 3)),
      f("{0}", call("math.ceil", 1.5)),
      f(p10, call("math.cos", 0.5)),
      f(p10, call("math.exp", 0.5)),
      f("{0}", call("math.floor", 1.5)),
      f(p10, call("math.log", 2.718281828459045)),
      f(p10, call("math.log10", 100)),
      f("{0}", call("math.max", 1, 2, 3)),
      f("{0}", call("math.min", 1, 2, 3)),
      f(p10, call("math.pow", 2, 3)),
      f("{0,number,#.################}", 10 * r.nextDouble()),
      f(p10, call("math.round", 1.5)),
      f(p10, call("math.round", 1.56789, 2)),
      f(p10, call("math.round_to_mintick", 1.56789918)),
      f(p10, call("math.sign", -1.5)),
      f(p10, call("math.sign", 1.5)),
      f(p10, call("math.sign", 0)),
      f(p10, call("math.sin", 0.5)),
      f(p10, call("math.sqrt", 4)),
      f(p10, call("math.sqrt", -4)),
      f(p10, call("math.tan", 0.5)),
      f(p10, call("math.todegrees", 0.5)),
      f(p10, call("math.toradians", 30)),
    ];
    expect(got).toEqual(expectedMessages("math_test_001_math"));
  });

  it("math_test_002_math_sum", () => {
    const ctx = makeCtx();
    const s = site();
    const got = [0, 1, 2, 3, 4, 5].map((bi) => ((ctx.barIndex = bi), f("{0}", callWith(ctx, "math.sum", [bi, 3], s))));
    expect(got).toEqual(expectedMessages("math_test_002_math_sum"));
  });

  it("math_test_002_math_sum_na (the math.sum column)", () => {
    const ctx = makeCtx();
    const s = site();
    const want = expectedMessages("math_test_002_math_sum_na").map((m) => m.split("t2: ")[1]);
    const got = [];
    for (let bi = 0; bi < 10; bi++) {
      ctx.barIndex = bi;
      got.push(f("{0}", callWith(ctx, "math.sum", [bi % 3 === 2 ? 1 : NaN, 2], s)));
    }
    expect(got).toEqual(want);
  });

  it("math_test_003_math_random", () => {
    const ctx = makeCtx();
    const s1 = site();
    const s2 = site();
    const got: string[] = [];
    for (let bi = 0; bi < 10; bi++) {
      got.push(f("bar_index: {0}; r: {1,number,#.###############}", bi, callWith(ctx, "math.random", [0, 1, 42], s1)));
      got.push(f("bar_index: {0}; r: {1,number,#.###############}", bi, callWith(ctx, "math.random", [0, 1, 42], s2)));
    }
    expect(got).toEqual(expectedMessages("math_test_003_math_random"));
  });

  it("math_test_004_math_sum_flat_exact (the math.sum column)", () => {
    const ctx = makeCtx();
    const s = site();
    const want = expectedMessages("math_test_004_math_sum_flat_exact").map((m) => m.split("sum_exact: ")[1]);
    const got: string[] = [];
    for (let bi = 0; bi < 30; bi++) {
      const v = bi < 10 ? bi * 7.3 + 0.1 : bi < 20 ? 100 : 0;
      ctx.barIndex = bi;
      const sum = callWith(ctx, "math.sum", [v, 3], s);
      if (bi >= 16) got.push(String(sum === v * 3));
    }
    expect(got).toEqual(want);
  });

  it("math_test_005_math_avg_exact", () => {
    const call = caller();
    const a2 = call("math.avg", 0.99521, 1.00504) - 1.000125;
    const a3 = call("math.avg", 60.48816185259965, 66.50424923195895, 78.0) - 68.33080369485288;
    const b3 = call("math.avg", 22363.666666666668, 1.067091, 67091000.5) - 22371121.74458589;
    const a4 = call("math.avg", 22364.333333333332, 1.067093, 67093000.5, -9584.714285714286) - 16776445.296535155;
    const a5 =
      call("math.avg", 11540.0, 1.03462, 34620000.5, -4945.714285714285, 18.351718397760905) - 6925322.834410538;
    const a6 =
      call(
        "math.avg",
        31676000000.5,
        -31675999999.5,
        4525.142857142857,
        3.156864602077217e-5,
        0.00031676,
        -4525.142857141856,
      ) - 0.16672472160780671;
    const got = [f("{0}|{1}|{2}|{3}|{4}|{5}", a2 * 1e15, a3 * 1e15, b3 * 1e15, a4 * 1e15, a5 * 1e15, a6 * 1e15)];
    expect(got).toEqual(expectedMessages("math_test_005_math_avg_exact"));
  });
});

describe("math.random without a seed", () => {
  it("is reproducible per call site and stays within [min, max)", () => {
    const run = () => {
      const ctx = makeCtx();
      const s = site();
      return Array.from({ length: 5 }, () => callWith(ctx, "math.random", [5, 10], s));
    };
    const a = run();
    expect(a.every((x) => x >= 5 && x < 10)).toBe(true);
    const ctx = makeCtx();
    const s1 = { state: undefined, id: 7 };
    const s2 = { state: undefined, id: 7 };
    expect(callWith(ctx, "math.random", [0, 1], s1)).toBe(callWith(ctx, "math.random", [0, 1], s2));
    expect(new Set(a).size).toBe(5);
  });
});
