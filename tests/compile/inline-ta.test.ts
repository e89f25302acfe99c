// ta.cross / crossover / crossunder and ta.ema / rma written out in the generated loop
// (src/compile/inline-ta.ts) where a whole-series pass cannot take them: the same values as the impl's
// kernel calls (cross_next, ema_next), na gaps, skipped bars (a call under an `if`), lazy `and`, int
// arguments, every kind, the seed and the length check included; calls a bar may make more than once
// (loops, user functions) and the re-runnable variant keep the impl. The interpreter writes out the
// same calls as closures (src/interpret/inline-ta.ts): each case also runs it against its impl path
// (a profiled run) and counts the calls it wrote out. ta.sma is written out by both with a length fixed
// for the run (the same sites: src/check/once-sites.ts inlineTaSites).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { generatedSource } from "../../src/compile/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { comparable, firstDifference, program, runPair } from "./parity.js";
import { inlineTaBuilds } from "../../src/interpret/inline-ta.js";
import { Runtime } from "../../src/runtime/index.js";

const v6 = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;
const data = syntheticBars(400);

/**
 * Compile equals interpret, and the interpreter's written-out calls (src/interpret/inline-ta.ts)
 * equal its impl calls (a profiled run keeps the impl). `builds`: the closures the interpreter wrote
 * out (its fast path taken at that many call sites).
 */
async function same(src: string, opts = {}) {
  const before = inlineTaBuilds.n;
  const p = await runPair(src, data, opts);
  const builds = inlineTaBuilds.n - before;
  expect(p.interpret.error_kind).toBeUndefined();
  expect(p.compile.mode).toBe("compile");
  expect(p.difference).toBeNull();
  const impl = await new Runtime().run(src, data, { ...opts, mode: "interpret", profiler: true });
  expect(inlineTaBuilds.n - before).toBe(builds);
  expect(firstDifference(comparable(impl), comparable(p.interpret))).toBeNull();
  return { ...p, builds };
}

/** A series computed bar by bar (no whole-series pass takes it): an EMA-like recurrence, na on some bars. */
const KAMA = [
  "var float k = na",
  "k := na(k[1]) ? close : k[1] + 0.2 * (close - k[1])",
  "kn = bar_index % 11 == 3 or bar_index % 17 == 0 ? na : k",
].join("\n");

describe("written-out crosses", () => {
  it("replace the impl call at a top-level call evaluated once a bar", () => {
    const text = generatedSource(program(v6(`${KAMA}\nplot(ta.crossover(close, kn) ? 1 : 0)`)));
    expect(text).toContain("X0 <= X1");
    expect(text).not.toMatch(/K\d+\(ctx, K\d+, K\d+\);?\s*$/m);
  });

  it("every kind, na gaps, skipped bars and lazy and agree with the impl", async () => {
    const src = v6(
      [
        KAMA,
        "a = ta.crossover(close, kn)",
        "b = ta.crossunder(close, kn)",
        "c = ta.cross(kn, open)",
        "plot(a ? 1 : 0)",
        "plot(b ? 1 : 0)",
        "plot(c ? 1 : 0)",
        // called only on some bars: the pair is the last one the call saw
        "var int n = 0",
        "if bar_index % 3 != 0",
        "    if ta.crossover(kn, close)",
        "        n += 1",
        "plot(n)",
        // the right of a lazy and runs only when the left holds
        "d = close > open and ta.crossunder(kn, hl2)",
        "plot(d ? 1 : 0)",
        // int arguments, a value in a ternary
        "plot(bar_index % 5 > 2 ? (ta.cross(bar_index % 7, 3) ? 1 : 0) : -1)",
        // na on both sides at once, an int na
        "e = ta.crossover(bar_index % 13 == 0 ? na : close, bar_index % 9 == 0 ? int(na) : 100)",
        "plot(e ? 1 : 0)",
      ].join("\n"),
    );
    expect((await same(src)).builds).toBe(7);
  });

  it("a cross under a loop keeps the impl, and agrees", async () => {
    const src = v6(
      [
        KAMA,
        "var int m = 0",
        "for i = 0 to 2",
        "    if ta.crossunder(close + i, kn)",
        "        m += 1",
        "g(x) => ta.crossover(x, kn)",
        "var int w = 0",
        "while w < 3 and g(close + w)",
        "    w += 1",
        "plot(m)",
        "plot(w)",
      ].join("\n"),
    );
    expect(generatedSource(program(src))).not.toContain("X0");
    expect((await same(src)).builds).toBe(0);
  });

  it("in a user function called once a bar (each call its own instance) it is written out, and agrees", async () => {
    const src = v6(
      [
        KAMA,
        "f(x) => ta.crossover(x, kn)",
        "h(x, y) => x > y ? ta.crossunder(x, kn) : ta.cross(y, kn)",
        "plot(f(close) ? 1 : 0)",
        "plot(f(open) ? 1 : 0)",
        "plot(h(close, open) ? 1 : 0)",
        "plot(bar_index % 2 == 0 ? (f(high) ? 1 : 0) : -1)",
      ].join("\n"),
    );
    const text = generatedSource(program(src));
    // four sites (f twice, h's two, f once more): each its own pair
    expect(text).toContain("X9 = NaN");
    expect((await same(src)).builds).toBe(5);
  });

  it("the re-runnable variant keeps the impl (a realtime tick rolls the kernel state back)", async () => {
    const src = v6(`${KAMA}\nplot(ta.crossover(close, kn) ? 1 : 0)\nplot(ta.crossunder(close, kn) ? 1 : 0)`);
    expect(generatedSource(program(src), true, true)).not.toContain("X0");
    expect((await same(src, { realtimeLastBar: true })).builds).toBe(0);
  });

  it("a strategy that calcs on order fills keeps the impl (a fill runs the bar again), and agrees", async () => {
    const src = [
      "//@version=6",
      'strategy("t", calc_on_order_fills = true)',
      KAMA,
      // fills on every 5th bar run those bars again
      "if bar_index % 5 == 0",
      '    strategy.entry("L", strategy.long)',
      "if bar_index % 5 == 2",
      '    strategy.close("L")',
      "plot(ta.crossover(close, kn) ? 1 : 0)",
      "plot(ta.crossunder(close, kn) ? 1 : 0)",
      "plot(ta.ema(kn, 5))",
      "",
    ].join("\n");
    const p = await same(src);
    expect(p.builds).toBe(0);
    expect(p.interpret.strategy?.trades.length).toBeGreaterThan(0);
  });

  it("random series with na: compile equals interpret", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant(Number.NaN), fc.integer({ min: -3, max: 3 })), { minLength: 8, maxLength: 40 }),
        fc.array(fc.oneof(fc.constant(Number.NaN), fc.integer({ min: -3, max: 3 })), { minLength: 8, maxLength: 40 }),
        async (xs, ys) => {
          const arr = (v: number[]) => `array.from(${v.map((x) => (x !== x ? "na" : `${x}.0`)).join(", ")})`;
          const src = v6(
            [
              `var xs = ${arr(xs)}`,
              `var ys = ${arr(ys)}`,
              "x = array.get(xs, bar_index % array.size(xs))",
              "y = array.get(ys, bar_index % array.size(ys))",
              "plot(ta.cross(x, y) ? 1 : 0)",
              "plot(ta.crossover(x, y) ? 1 : 0)",
              "plot(bar_index % 4 == 1 ? na : ta.crossunder(x, y) ? 1 : 0)",
            ].join("\n"),
          );
          expect(generatedSource(program(src))).toContain("X0");
          expect((await same(src)).builds).toBe(3);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("written-out ema and rma", () => {
  it("replace the impl call", () => {
    const text = generatedSource(program(v6(`${KAMA}\nplot(ta.ema(kn, 9))\nplot(ta.rma(kn, 5))`)));
    expect(text).toMatch(/X\d+ = X\d+ \+ \(2 \/ \(X\d+ \+ 1\)\)/);
    // the impl calls left are the two plots' first-bar registrations
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)).toHaveLength(2);
  });

  it("seeds, na gaps, skipped bars, int sources and lengths from inputs agree with the impl", async () => {
    const src = v6(
      [
        KAMA,
        "len = input.int(7)",
        "plot(ta.ema(kn, len))",
        "plot(ta.rma(kn, 3))",
        "plot(ta.ema(kn, 1))",
        "plot(ta.rma(bar_index % 5 == 0 ? na : bar_index % 9, 4))",
        // under an if: the average of the bars it ran on
        "var float u = na",
        "if close > open",
        "    u := ta.ema(kn * 1000.0 + 1e9, 6)",
        "plot(u)",
        "plot(ta.rma(close - kn, len * 2))",
        // large and small values together: the compensated seed
        "plot(ta.ema(bar_index % 2 == 0 ? 1e16 : 1.0, 4))",
        "plot(ta.rma(bar_index % 3 == 0 ? 1e-9 : 3e15, 3))",
        // more than the bars: never seeded
        "plot(ta.ema(kn, 1000))",
      ].join("\n"),
    );
    expect((await same(src)).builds).toBe(9);
  });

  it("an invalid length is the impl's error, on the same bar and line", async () => {
    for (const len of ["0", "-3", "input.int(0)", "input.int(-1) + 1"]) {
      const src = v6(`${KAMA}\nx = bar_index > 20 ? ta.ema(kn, ${len}) : 0.0\nplot(x)`);
      expect(generatedSource(program(src))).toContain('"ema")');
      const before = inlineTaBuilds.n;
      const p = await runPair(src, data);
      expect(inlineTaBuilds.n - before).toBe(1);
      expect(p.compile.mode).toBe("compile");
      expect(p.interpret.error).toContain("'ema'");
      expect(p.difference).toBeNull();
      // the impl's own error (a profiled run keeps the impl): the same message, bar and line
      const impl = await new Runtime().run(src, data, { mode: "interpret", profiler: true });
      expect(inlineTaBuilds.n - before).toBe(1);
      expect(impl.error).toContain("'ema'");
      expect(impl.error_bar).toBe(21);
      expect(firstDifference(comparable(impl), comparable(p.interpret))).toBeNull();
    }
    const rma = v6(`${KAMA}\nplot(bar_index > 20 ? ta.rma(kn, 0) : 0.0)`);
    const p = await runPair(rma, data);
    expect(p.interpret.error).toContain("'rma'");
    expect(p.difference).toBeNull();
    const impl = await new Runtime().run(rma, data, { mode: "interpret", profiler: true });
    expect(impl.error).toContain("'rma'");
    expect(firstDifference(comparable(impl), comparable(p.interpret))).toBeNull();
  });

  it("in a loop the impl runs; in a user function called once a bar it is written out; both agree", async () => {
    const loop = v6([KAMA, "s = 0.0", "for i = 0 to 1", "    s += ta.rma(kn + i, 3)", "plot(s)"].join("\n"));
    expect(generatedSource(program(loop))).not.toContain("X0");
    expect((await same(loop)).builds).toBe(0);
    const fn = v6([KAMA, "g(x) => ta.ema(x, 4)", "plot(g(kn))", "plot(g(kn * 2))"].join("\n"));
    // two instances, five locals each
    expect(generatedSource(program(fn))).toContain("X9 = NaN");
    expect((await same(fn)).builds).toBe(2);
    // over a pre-known source the instance's call is a whole-series column instead (hoist-plan.ts)
    const hoisted = v6([KAMA, "g(x) => ta.ema(x, 4)", "plot(g(close))", "plot(g(kn))"].join("\n"));
    // (one instance written out: five locals)
    expect(generatedSource(program(hoisted))).toContain("X4 = NaN");
    expect(generatedSource(program(hoisted))).not.toContain("X5 = NaN");
    expect((await same(hoisted)).builds).toBe(1);
  });

  it("random series with na: compile equals interpret", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.constant(Number.NaN), fc.double({ min: -1e6, max: 1e6, noNaN: true })), {
          minLength: 5,
          maxLength: 30,
        }),
        fc.integer({ min: 1, max: 12 }),
        async (xs, len) => {
          const arr = `array.from(${xs.map((x) => (x !== x ? "na" : String(x))).join(", ")})`;
          const src = v6(
            [
              `var xs = ${arr}`,
              "x = array.get(xs, bar_index % array.size(xs))",
              `plot(ta.ema(x, ${len}))`,
              `plot(ta.rma(x, ${len}))`,
              `plot(bar_index % 3 == 1 ? na : ta.ema(x, ${len + 1}))`,
            ].join("\n"),
          );
          expect(generatedSource(program(src))).toContain("X0");
          expect((await same(src)).builds).toBe(3);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("written-out sma (a length fixed for the run)", () => {
  /** The compile backend's written-out sma steps in a program's generated loop. */
  const steps = (src: string) => generatedSource(program(src)).match(/"sma"\)/g)?.length ?? 0;

  it("replaces the impl call for a constant or input length; a length that may change keeps the impl", async () => {
    expect(steps(v6(`${KAMA}\nlen = input.int(5)\nplot(ta.sma(kn, len))\nplot(ta.sma(kn, 3))`))).toBe(2);
    // arithmetic of fixed lengths is fixed too, also through variables nothing else writes
    expect(steps(v6(`${KAMA}\nlen = input.int(5)\nslow = len * 2\nmid = slow - 1\nplot(ta.sma(kn, mid))`))).toBe(1);
    expect(steps(v6(`${KAMA}\nlen = input.int(5)\nslow = len * 2\nslow := slow + 1\nplot(ta.sma(kn, slow))`))).toBe(0);
    expect(steps(v6(`${KAMA}\nlen = input.int(5)\nplot(ta.sma(kn, len * 3))\nplot(ta.sma(kn, -(-len) + 1))`))).toBe(2);
    // the impl calls left are the two plots' first-bar registrations and the input's first call
    const text = generatedSource(
      program(v6(`${KAMA}\nlen = input.int(5)\nplot(ta.sma(kn, len))\nplot(ta.sma(kn, 3))`)),
    );
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)).toHaveLength(3);
    // a length computed per bar, an input assigned again, a user function's parameter: the impl
    expect(steps(v6(`${KAMA}\nplot(ta.sma(kn, bar_index % 3 + 2))`))).toBe(0);
    expect(steps(v6(`${KAMA}\nlen = input.int(5)\nif close > open\n    len := 6\nplot(ta.sma(kn, len))`))).toBe(0);
    expect(steps(v6(`${KAMA}\nf(x, n) => ta.sma(x, n)\nplot(f(kn, 4))`))).toBe(0);
    // the interpreter writes out the same sites, and agrees with its impl and with compile
    for (const body of [
      "len = input.int(5)\nslow = len * 2\nmid = slow - 1\nplot(ta.sma(kn, mid))\nplot(ta.sma(kn, 3))",
      "len = input.int(5)\nslow = len * 2\nslow := slow + 1\nplot(ta.sma(kn, slow))",
      "plot(ta.sma(kn, bar_index % 3 + 2))",
      "f(x, n) => ta.sma(x, n)\nplot(f(kn, 4))",
      "f(x) => ta.sma(x, 4)\nplot(f(kn))\nplot(f(close - kn))",
      "s = 0.0\nfor i = 0 to 1\n    s += ta.sma(kn + i, 3)\nplot(s)",
    ]) {
      const src = v6(`${KAMA}\n${body}`);
      expect((await same(src)).builds).toBe(steps(src));
    }
  });

  it("na gaps, infinities, cancelling sums, skipped bars, int sources and long windows agree with the impl", async () => {
    const src = v6(
      [
        KAMA,
        "len = input.int(7)",
        "plot(ta.sma(kn, len))",
        "plot(ta.sma(kn, 1))",
        "n4 = 4",
        "plot(ta.sma(kn, n4))",
        "plot(ta.sma(kn, len * 2 - n4 % 3))",
        "slow = len * 3",
        "plot(ta.sma(kn, slow))",
        "plot(ta.sma(bar_index % 5 == 0 ? na : bar_index % 9, 4))",
        // infinities entering and leaving the window: the sum taken again
        "plot(ta.sma(bar_index % 37 == 5 ? 1.0 / 0.0 : bar_index % 53 == 7 ? -1.0 / 0.0 : kn, 6))",
        "plot(ta.sma(bar_index % 41 == 9 ? 1.0 / 0.0 : bar_index % 41 == 11 ? -1.0 / 0.0 : close, 5))",
        // values cancelling out: the running sum's residue reads as 0
        "plot(ta.sma(bar_index % 2 == 0 ? 0.1 : -0.1, 4))",
        "plot(ta.sma(bar_index % 3 == 0 ? 1e16 : 1.0, 3))",
        // under an if: the mean of the calls that ran; the right of a lazy and
        "var float u = na",
        "if close > open",
        "    u := ta.sma(kn * 1000.0 + 1e9, 6)",
        "plot(u)",
        "b = close > open and ta.sma(kn, 3) > close",
        "plot(b ? 1 : 0)",
        // longer than the bars: never defined
        "plot(ta.sma(kn, 1000))",
      ].join("\n"),
    );
    expect(steps(src)).toBe(13);
    expect((await same(src)).builds).toBe(13);
  });

  it("an invalid length is the impl's error, on the same bar and line", async () => {
    const cases = [
      ["len = 0", "len"],
      ["len = input.int(0)", "len"],
      ["len = input.int(4)", "len - 4"],
      ["len = input.int(2)", "-len"],
    ];
    for (const [decl, length] of cases) {
      const src = v6(`${KAMA}\n${decl}\nx = bar_index > 20 ? ta.sma(kn, ${length}) : 0.0\nplot(x)`);
      expect(steps(src)).toBe(1);
      const before = inlineTaBuilds.n;
      const p = await runPair(src, data);
      expect(inlineTaBuilds.n - before).toBe(1);
      expect(p.compile.mode).toBe("compile");
      expect(p.interpret.error).toContain("'sma'");
      expect(p.interpret.error_bar).toBe(21);
      expect(p.difference).toBeNull();
      // the impl's own error (a profiled run keeps the impl): the same message, bar, line and column
      const impl = await new Runtime().run(src, data, { mode: "interpret", profiler: true });
      expect(inlineTaBuilds.n - before).toBe(1);
      expect(impl.error).toContain("'sma'");
      expect(impl.error_bar).toBe(21);
      expect(firstDifference(comparable(impl), comparable(p.interpret))).toBeNull();
    }
  });

  it("in a strategy, next to the other written-out calls, agrees", async () => {
    const src = [
      "//@version=6",
      'strategy("t")',
      KAMA,
      "len = input.int(8)",
      "m = ta.sma(kn, len)",
      "e = ta.ema(kn, 5)",
      // (the synthetic bars trend up: close stays 2-5 above the mean)
      "if ta.crossover(close - m, 3.5) and e > m",
      '    strategy.entry("L", strategy.long)',
      "if ta.crossunder(close - m, 3.2)",
      '    strategy.close("L")',
      "plot(m)",
      "",
    ].join("\n");
    expect(steps(src)).toBe(1);
    const p = await same(src);
    expect(p.builds).toBe(4);
    expect(p.interpret.strategy?.trades.length).toBeGreaterThan(0);
  });

  it("random series with na and infinities: compile equals interpret", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.constant(Number.NaN),
            fc.constant(Number.POSITIVE_INFINITY),
            fc.constant(Number.NEGATIVE_INFINITY),
            fc.double({ min: -1e6, max: 1e6, noNaN: true }),
            fc.integer({ min: -3, max: 3 }),
          ),
          { minLength: 5, maxLength: 30 },
        ),
        fc.integer({ min: 1, max: 12 }),
        async (xs, len) => {
          const lit = (x: number) =>
            x !== x
              ? "na"
              : x === Infinity
                ? "1.0 / 0.0"
                : x === -Infinity
                  ? "-1.0 / 0.0"
                  : Number.isInteger(x)
                    ? `${x}.0`
                    : String(x);
          const arr = `array.from(${xs.map(lit).join(", ")})`;
          const src = v6(
            [
              `var xs = ${arr}`,
              `len = input.int(${len})`,
              "x = array.get(xs, bar_index % array.size(xs))",
              "plot(ta.sma(x, len))",
              `plot(ta.sma(x, ${len + 2}))`,
              "plot(bar_index % 3 == 1 ? na : ta.sma(x, len))",
            ].join("\n"),
          );
          expect(steps(src)).toBe(3);
          expect((await same(src)).builds).toBe(3);
        },
      ),
      { numRuns: 25 },
    );
  });
});
