// The generated nested functions (user-function instances, blocks in expressions) live in the scope
// around the loop function (codegen.ts nestedScope): made once per generated function, so every run
// calls the same functions (the loop's optimised code, made on one run, fits the next). Each run sets
// that scope's variables (its refs, the written-out ta.* state of calls inside the functions) and a
// finished run drops them. Runs of one cached function on different bars must each agree with the
// interpreter.
import { describe, expect, it } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { comparable, firstDifference, program, runPair } from "./parity.js";

const SCRIPT = [
  "//@version=6",
  'indicator("t")',
  'kind = input.string("EMA", "kind", options = ["EMA", "RMA", "SMA"])',
  "ma(src, len) =>",
  '    kind == "EMA" ? ta.ema(src, len) : kind == "RMA" ? ta.rma(src, len) : ta.sma(src, len)',
  "band(src, len) =>",
  "    m = ma(src, len)",
  "    var float peak = na",
  "    peak := na(peak) or m > peak ? m : peak * 0.999",
  "    [m, peak]",
  // (sources no whole-series pass takes: the fixed kind alone would have the calls hoisted, hoist-plan.ts)
  "[m1, p1] = band(close[1], 10)",
  "[m2, p2] = band(high[2], 21)",
  "x = bar_index % 7 == 0 ? (close > m1 ? ta.ema(close, 5) : ta.rma(low, 8)) : m2",
  "plot(m1)",
  "plot(p1)",
  "plot(m2)",
  "plot(p2)",
  "plot(x)",
].join("\n");

describe("nested functions outside the loop function", () => {
  it("are defined once, before the loop function, with the scope they read", () => {
    const text = generatedSource(program(SCRIPT));
    const run = text.indexOf("function run(");
    expect(run).toBeGreaterThan(0);
    expect(text.indexOf("function u0(")).toBeGreaterThan(0);
    expect(text.indexOf("function u0(")).toBeLessThan(run);
    expect(text.indexOf("function $setup(K, R)")).toBeLessThan(run);
    // the written-out ta.* calls inside the functions keep their state there, reset by each run
    expect(text.slice(0, run)).toMatch(/\nlet X0, X1/);
    expect(text.slice(text.indexOf("function $setup"), run)).toMatch(/\n {2}X0 = /);
    // set once per run by the backend, not by the loop function's prologue (which runs many times)
    expect(text).toMatch(/\nrun\.setup = \$setup;\nreturn run;$/);
    expect(text.slice(run)).not.toContain("$setup(");
  });

  it("a program without nested functions keeps its text (no scope around the loop function)", () => {
    const text = generatedSource(program(`//@version=6\nindicator("t")\nplot(ta.ema(close, 9))\n`));
    expect(text.startsWith(`"use strict";\nreturn function run(`)).toBe(true);
    expect(text).toContain("\nconst ctx = R.ctx, N = R.nums, V = R.vals, O = R.once, B = R.budget,");
    expect(text).not.toContain("$setup");
  });

  it("runs of one cached function on different bars each agree with interpret", async () => {
    const rt = new Runtime();
    for (const [n, seed] of [
      [600, 1],
      [900, 2],
      [450, 3],
      [900, 2],
    ] as const) {
      const bars = generateBars(n, seed);
      const c = await rt.run(SCRIPT, bars, { mode: "compile" });
      const i = await rt.run(SCRIPT, bars, { mode: "interpret" });
      expect(c.mode).toBe("compile");
      expect(firstDifference(comparable(i), comparable(c))).toBeNull();
    }
  });

  it("the re-runnable variant (realtime ticks, fill re-runs) reaches them too and agrees with interpret", async () => {
    const text = generatedSource(program(SCRIPT), false, true);
    expect(text.indexOf("function u0(")).toBeLessThan(text.indexOf("function run("));
    const bars = generateBars(400, 7);
    const p = await runPair(SCRIPT, bars, { realtimeBars: 3, realtimeTicks: 4 });
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    const strat = SCRIPT.replace('indicator("t")', 'strategy("s", calc_on_order_fills = true)').concat(
      '\nif ta.crossover(m1, m2)\n    strategy.entry("L", strategy.long)\nif ta.crossunder(m1, m2)\n    strategy.close("L")\n',
    );
    const q = await runPair(strat, bars);
    expect(q.compile.mode).toBe("compile");
    expect(q.compile.events.length).toBeGreaterThan(0);
    expect(q.difference).toBeNull();
  });

  it("a run after another script's run of the same scope's text starts from its own state", async () => {
    // two Runtimes sharing the process-wide cache of generated functions, alternating
    const a = new Runtime();
    const b = new Runtime();
    const bars1 = generateBars(700, 5);
    const bars2 = generateBars(500, 6);
    const ca = await a.run(SCRIPT, bars1, { mode: "compile" });
    const cb = await b.run(SCRIPT, bars2, { mode: "compile", inputs: { kind: "RMA" } });
    const ca2 = await a.run(SCRIPT, bars1, { mode: "compile" });
    expect(firstDifference(comparable(ca), comparable(ca2))).toBeNull();
    const ib = await b.run(SCRIPT, bars2, { mode: "interpret", inputs: { kind: "RMA" } });
    expect(firstDifference(comparable(ib), comparable(cb))).toBeNull();
  });
});
