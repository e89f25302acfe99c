// The interpreter's whole-series precompute (src/interpret/hoisting.ts): which calls it hoists, and
// that a hoisted run gives exactly the per-bar results (a profiler run never hoists, so it is the
// per-bar reference), in both backends.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import { Runtime } from "../../src/runtime/index.js";
import { parse } from "../../src/lang/index.js";
import { check } from "../../src/check/index.js";
import { registry } from "../../src/builtins/index.js";
import { HoistPlan } from "../../src/check/hoist-plan.js";
import type { RExpr } from "../../src/check/ir.js";

const data = bars(300);

function candidates(body: string): string[] {
  const checked = check(parse(v6(body)).ast, registry, []);
  const prog = checked.program;
  if (!prog) throw new Error(JSON.stringify(checked.diagnostics));
  return new HoistPlan(prog).candidates.map((e: RExpr) => (e.k === "call" ? `${e.name}@${e.line}` : e.k));
}

/** Hoisted interpret run (checked against compile by runBoth) vs the per-bar interpreter, cell by cell. */
async function samePerBar(body: string): Promise<void> {
  const src = v6(body);
  const hoisted = await runBoth(src, data);
  expect(hoisted.error).toBeUndefined();
  const perBar = await new Runtime().run(src, data, { mode: "interpret", profiler: true });
  expect(perBar.error).toBeUndefined();
  expect(Object.keys(hoisted.series)).toEqual(Object.keys(perBar.series));
  for (const k of Object.keys(perBar.series)) {
    const a = hoisted.series[k]!,
      b = perBar.series[k]!;
    expect(a.length).toBe(b.length);
    const diff = a.findIndex((x, i) => !Object.is(x, b[i]));
    expect(diff, `${k} first differs at bar ${diff}`).toBe(-1);
  }
}

describe("interpreter hoisting: candidates", () => {
  it("top-level calls evaluated on every bar, with constant lengths", () => {
    expect(candidates("a = ta.sma(close, 5)\nb = ta.ema(hl2, 10) - ta.rma(close, 3)\nplot(a + b)")).toEqual([
      "ta.sma@3",
      "ta.ema@4",
      "ta.rma@4",
    ]);
    // the condition of a ternary / if runs every bar; its branches do not
    expect(candidates("x = ta.rsi(close, 14) > 50 ? ta.sma(close, 5) : 0.0\nplot(x)")).toEqual(["ta.rsi@3"]);
    expect(candidates("y = 0.0\nif ta.atr(14) > 1\n    y := ta.sma(close, 5)\nplot(y)")).toEqual(["ta.atr@4"]);
    // tuples and crosses of once-assigned pre-known variables
    expect(
      candidates(
        "[m, s, h] = ta.macd(close, 12, 26, 9)\nf = ta.sma(close, 5)\ns2 = ta.ema(close, 9)\nc = ta.crossover(f, s2) ? 1 : 0\nplot(m + c)",
      ),
    ).toEqual(["ta.macd@3", "ta.sma@4", "ta.ema@5", "ta.crossover@6"]);
  });
  it("the body of a user function a bar calls once, its parameters standing for the call's arguments", () => {
    // a function that only returns a pre-known value is a column itself; one that also counts is
    // run per bar, its call a column
    expect(candidates("f(x) => ta.sma(x, 5)\nplot(f(close))")).toEqual(["ucall"]);
    expect(candidates("f(x) =>\n    var c = 0\n    c += 1\n    ta.sma(x, 5)\nplot(f(close))")).toEqual(["ta.sma@6"]);
  });

  it("never a var initialiser, a lazy right operand, a function called on some bars, a request's expression or a series length", () => {
    expect(candidates("var v = ta.sma(close, 5)\nplot(v)")).toEqual([]);
    expect(candidates("b = close > open and ta.rsi(close, 14) > 50\nplot(b ? 1 : 0)")).toEqual([]);
    expect(candidates("f(x) => ta.sma(x, 5)\nplot(close > open ? f(close) : 0)")).toEqual([]);
    expect(candidates("s = request.security(syminfo.tickerid, 'D', ta.sma(close, 5))\nplot(s)")).toEqual([]);
    expect(candidates("len = bar_index % 5 + 1\nplot(ta.sma(close, len))")).toEqual([]);
  });
});

describe("interpreter hoisting: identical to the per-bar calls", () => {
  it("bench10-like script", async () => {
    await samePerBar(
      [
        "f = ta.sma(close, 20)",
        "s = ta.ema(close, 50)",
        "r = ta.rsi(close, 14)",
        "[m, sig, h] = ta.macd(close, 12, 26, 9)",
        "[mid, up, lo] = ta.bb(close, 20, 2)",
        "a = ta.atr(14)",
        "k = ta.stoch(close, high, low, 14)",
        "hh = ta.highest(high, 20)",
        "ll = ta.lowest(low, 20)",
        "x = ta.crossover(f, s) ? 1 : 0",
        "plot(f)\nplot(s)\nplot(r)\nplot(m + sig + h)\nplot(mid + up - lo)\nplot(a)\nplot(k)\nplot(hh - ll)\nplot(x)",
      ].join("\n"),
    );
  });
  it("hoisted values read in expressions, history and later reassignment", async () => {
    await samePerBar(
      [
        "e = ta.ema(close, 10)",
        "d = e - ta.sma(close, 10) * 2",
        "w = ta.wma(hlc3, 7)",
        "t = ta.tr",
        "plot(d)",
        "plot(e[3])",
        "plot((ta.stdev(close, 12))[2])",
        "plot(w > e ? w : e)",
        "e := e + 1",
        "plot(e + t)",
        "plot(ta.change(close, 2) + ta.highest(5) - ta.lowest(5))",
      ].join("\n"),
    );
  });
  it("a hoisted cross is a bool wherever it goes (variable, argument, string, comparison)", async () => {
    await samePerBar(
      [
        "f = ta.sma(close, 5)",
        "s = ta.ema(close, 9)",
        "c = ta.crossover(f, s)",
        "plot(c ? 1 : 0)",
        "plot(c == true ? 1 : 0)",
        "plot(str.tostring(ta.crossunder(f, s)) == 'true' ? 1 : 0)",
        "plot(str.length(str.tostring(ta.cross(f, s))))",
      ].join("\n"),
    );
  });
  it("na inputs and lengths longer than the bars", async () => {
    // close / (open - open): a pre-known source that is na on every bar (division by zero)
    await samePerBar(
      "plot(ta.sma(close, 500))\nplot(ta.ema(close, 400))\nx = ta.rsi(close, 2)\nplot(x)\nplot(ta.highest(high, 1))\nplot(ta.sma(close / (open - open), 3))\nplot(ta.ema(close / (open - open), 3))",
    );
  });
  it("a strategy whose entries use hoisted indicators", async () => {
    const src = v6(
      "f = ta.ema(close, 8)\ns = ta.ema(close, 21)\nif ta.crossover(f, s)\n    strategy.entry('L', strategy.long)\nif ta.crossunder(f, s)\n    strategy.close('L')\nplot(f - s)",
      "strategy('s')",
    );
    const hoisted = await runBoth(src, data);
    const perBar = await new Runtime().run(src, data, { mode: "interpret", profiler: true });
    expect(hoisted.strategy).toEqual(perBar.strategy);
    expect(hoisted.series).toEqual(perBar.series);
  });
  it("a realtime window is not hoisted: ticks move close, and the indicators follow", async () => {
    const src = v6("plot(ta.sma(close, 3))");
    const rt = new Runtime();
    const live = await rt.run(src, data.slice(0, 20), { mode: "interpret", realtimeBars: 2, realtimeTicks: 3 });
    const perBar = await rt.run(src, data.slice(0, 20), {
      mode: "interpret",
      realtimeBars: 2,
      realtimeTicks: 3,
      profiler: true,
    });
    expect(live.error).toBeUndefined();
    expect(live.series).toEqual(perBar.series);
  });
});
