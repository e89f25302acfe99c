// ta.* calls inside user functions are hoisted like the top level's when the function's call is at a
// position evaluated on every bar (each call is an instance of its own, with its own slots and call
// sites: check/ir.ts): a parameter then stands for its call's argument (a pre-known column, a constant
// or an input length), and a local declared once from a pre-known value is that value's column. A
// function that only declares such values and returns one (or a tuple of them) is itself pre-known. A
// call in a branch, in a loop or inside another branch-only call stays per bar, as does one whose
// argument is not known before the loop. Both backends must still equal the per-bar interpreter (a
// profiler run never precomputes) to the last field, with inputs overridden, including a length the
// per-bar call refuses (that call then runs per bar, in compile mode too).
import { describe, expect, it } from "vitest";
import { HoistPlan } from "../../src/check/hoist-plan.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { comparable, equalsPerBar, firstDifference, hoistedNames, hoistName, program } from "./parity.js";

const SCRIPT = `//@version=6
strategy("functions", overlay = true)
len = input.int(14, "Length")
src = input.source(close, "Source")
trend(s, fastLen, slowLen) =>
    f = ta.sma(s, fastLen)
    sl = ta.ema(s, slowLen)
    [f, sl, ta.crossover(f, sl) ? 1 : 0]
osc(s, n) =>
    r = ta.rsi(s, n)
    k = ta.stoch(s, high, low, n)
    [r, k]
width(s, n, mult) =>
    [mid, up, lo] = ta.bb(s, n, mult)
    (up - lo) / mid
range(n) => ta.highest(high, n) - ta.lowest(low, n)
nested(s, n) => ta.wma(range(n) + s, n)
moving(s, n) => ta.sma(s, n)
[f, sl, x] = trend(src, 20, 50)
[f2, sl2, x2] = trend(hl2, len, len * 2)
[r, k] = osc(close, len)
w = width(src, 20, 2)
rg = range(len)
ns = nested(close, 10)
var float acc = 0.0
acc := acc + 1
// not pre-known: the argument is a variable written on every bar
mv = moving(acc, 5)
// evaluated on some bars only: stays per bar
br = close > open ? range(7) : 0.0
if x == 1 and r < 70
    strategy.entry("L", strategy.long)
if ta.crossunder(f, sl) or k > 90
    strategy.close("L")
plot(f, "f")
plot(sl - sl2, "sl")
plot(x + x2, "x")
plot(r, "r")
plot(k, "k")
plot(w, "w")
plot(rg, "rg")
plot(ns, "ns")
plot(mv, "mv")
plot(br, "br")
`;

const hoists = hoistedNames;

async function agrees(inputs: Record<string, unknown>): Promise<void> {
  await equalsPerBar(new Runtime(), SCRIPT, [randomWalkBars(900), randomWalkBars(500, 11)], inputs, true);
}

describe("ta.* calls inside user functions", () => {
  it("hoists the calls of functions a bar calls once, each call with its own columns", () => {
    // trend twice (the second's ema has a length of arithmetic, \`len * 2\`, which the plan takes for
    // no length: that ema and the crossover over it stay per bar), osc; width, range and nested only
    // declare and return pre-known values, so each call is a column itself and its body never runs;
    // the top level's crossunder of trend's first two values (a tuple of pre-known values)
    expect(hoists(SCRIPT)).toEqual([
      "ta.sma",
      "ta.ema",
      "ta.crossover",
      "ta.sma",
      "ta.rsi",
      "ta.stoch",
      "ucall",
      "ucall",
      "ucall",
      "ta.crossunder",
    ]);
  });

  it("leaves calls per bar where the function runs on some bars only, or its argument moves", () => {
    expect(hoists(`//@version=6\nindicator("x")\nf(s) => ta.sma(s, 10)\nplot(close > open ? f(close) : 0)`)).toEqual(
      [],
    );
    expect(
      hoists(
        `//@version=6\nindicator("x")\nf(s) => ta.sma(s, 10)\nv = 0.0\nfor i = 0 to 2\n    v += f(close)\nplot(v)`,
      ),
    ).toEqual([]);
    expect(hoists(`//@version=6\nindicator("x")\nf(s) => ta.sma(s, 10)\nvar float a = 0\na += 1\nplot(f(a))`)).toEqual(
      [],
    );
    // a function that counts (a var) or plots is not a pre-known value, though its own calls are hoisted
    expect(
      hoists(
        `//@version=6\nindicator("x")\ng(n) =>\n    var c = 0\n    c += 1\n    ta.sma(close, n)\nplot(ta.wma(g(5), 3))`,
      ),
    ).toEqual(["ta.sma"]);
    expect(
      hoists(
        `//@version=6\nindicator("x")\ng(n) =>\n    label.new(bar_index, n)\n    ta.sma(close, n)\nplot(ta.wma(g(5), 3))`,
      ),
    ).toEqual(["ta.sma"]);
    expect(hoists(`//@version=6\nindicator("x")\ng(n) => ta.sma(close, n) * 2\nplot(ta.wma(g(5), 3))`)).toEqual([
      "ta.wma",
    ]);
    // a length that is itself a series
    expect(hoists(`//@version=6\nindicator("x")\nf(n) => ta.sma(close, n)\nplot(f(bar_index % 5 + 1))`)).toEqual([]);
    // called on every bar: a column, through two levels of functions and a constant or input length
    expect(hoists(`//@version=6\nindicator("x")\nf(s, n) => ta.sma(s, n)\ng(s) => f(s, 10)\nplot(g(close))`)).toEqual([
      "ucall",
    ]);
    expect(
      hoists(`//@version=6\nindicator("x")\nn = input.int(5)\nf(s, k) => ta.sma(s, k)\nplot(f(hl2, n) + f(close, 3))`),
    ).toEqual(["ucall", "ucall"]);
  });

  it("equals the per-bar interpreter with the defaults and overridden inputs", async () => {
    await agrees({});
    await agrees({ Length: 3, Source: "hlc3" });
  });

  it("runs a call per bar when an input length rules its pass out", async () => {
    const rt = new Runtime();
    const r = await rt.run(SCRIPT, randomWalkBars(300), { mode: "compile", inputs: { Length: 0 } });
    const perBar = await rt.run(SCRIPT, randomWalkBars(300), {
      mode: "interpret",
      profiler: true,
      inputs: { Length: 0 },
    });
    expect(r.mode).toBe("compile");
    expect(perBar.error ?? null, "the per-bar call refuses the length").not.toBeNull();
    expect(firstDifference(comparable(r), comparable(perBar))).toBeNull();
  });
});

// A branch whose condition is fixed for the run (an input, a comparison of inputs, a function's
// parameter bound to one) runs on every bar of a run that takes it and on none of the others, so
// its calls are hoisted under that branch's guard: the precompute computes the taken branch's
// columns and gives the others a column the loop never reads (and no pass, so a length only an
// untaken branch would see rules nothing out).
const SELECT = `//@version=6
indicator("select", overlay = true)
kind = input.string("EMA", "Kind", options = ["SMA", "EMA", "HMA", "DEMA"])
len = input.int(20, "Length")
hmaLen = input.int(9, "HMA length")
smooth = input.bool(true, "Smooth")
useAtr = input.bool(false, "ATR bands")
ma(string k, float s, int n) =>
    switch k
        "SMA" => ta.sma(s, n)
        "EMA" => ta.ema(s, n)
        "HMA" => ta.hma(s, hmaLen)
        =>
            e = ta.ema(s, n)
            2 * e - ta.ema(e, n)
pick(string k, float s) =>
    switch k
        "SMA" => ta.sma(s, 3)
        "EMA" => ta.ema(s, 3)
// counts its calls: not a pre-known value, so its cases' calls are hoisted under their guards
counted(string k, float s) =>
    var int calls = 0
    calls += 1
    switch k
        "SMA" => ta.sma(s, 9)
        => ta.ema(s, 9)
basis = ma(kind, close, len)
cnt = counted(kind, open)
sig = smooth ? ta.wma(close, 5) : ta.sma(close, 5)
// pre-known: the taken case's and side's columns (pick: na when no case matches)
cross = ta.crossover(basis, sig)
picked = ta.sma(pick(kind, close), 2)
width = 0.0
if useAtr
    width := ta.atr(len)
else
    width := ta.stdev(close, len)
isFast = kind == "EMA" or kind == "HMA"
fastBand = isFast ? ta.rma(high - low, 10) : 0.0
plot(basis, "basis")
plot(sig, "signal")
plot(basis + 2 * width, "upper")
plot(fastBand, "fast band")
plot(cnt, "counted")
plotshape(cross, "cross")
plot(picked, "picked")
`;

describe("ta.* calls in branches fixed for the run", () => {
  it("hoists the calls of every branch under its guard", () => {
    const plan = new HoistPlan(program(SELECT));
    const guarded = plan.candidates.map((e) => `${hoistName(e)}:${plan.guards.get(e)?.length ?? 0}`);
    // ma's value is pre-known (a switch fixed for the run, each case a pre-known value): one column,
    // the taken case's; counted's cases under their guards; the ternary's and the if's branches
    expect(guarded).toEqual([
      "ucall:0",
      "ta.sma:1",
      "ta.ema:1",
      "ta.wma:1",
      "ta.sma:1",
      "ta.crossover:0",
      "ta.sma:0",
      "ta.atr:1",
      "ta.stdev:1",
      "ta.rma:1",
    ]);
    // a condition that moves from bar to bar guards nothing: its branches stay per bar
    expect(hoists(`//@version=6\nindicator("x")\nplot(close > open ? ta.sma(close, 5) : ta.ema(close, 5))`)).toEqual(
      [],
    );
  });

  it("equals the per-bar interpreter whichever branches the inputs take", async () => {
    const rt = new Runtime();
    const bars = randomWalkBars(700, 5);
    for (const inputs of [
      {},
      { Kind: "SMA", Smooth: false, "ATR bands": true },
      { Kind: "HMA", "HMA length": 4 },
      { Kind: "DEMA", Length: 7 },
      // a length only the untaken HMA branch would read, which its pass refuses: nothing is ruled out
      { Kind: "SMA", "HMA length": 1 },
      // taken, it is: that run makes the calls per bar, in compile mode too
      { Kind: "HMA", "HMA length": 1 },
    ])
      await equalsPerBar(rt, SELECT, [bars], inputs);
  });
});
