// Input lengths (`len = input.int(14)`) are read once per run, so top-level ta.* calls taking them
// are precomputed like constant lengths, in compile mode and in the interpreter's hoisting, with the
// run's input values (defaults, constructor inputs, overrides); a value the per-bar call would refuse
// leaves the calls per bar (compile mode then runs its loop without the passes, as the interpreter does).
import { afterEach, describe, expect, it } from "vitest";
import { Runtime, setCompileBackend } from "../../src/runtime/index.js";
import { compileProgram, generatedSource } from "../../src/compile/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { firstDifference, program, runPair } from "./parity.js";
import type { Bar, RunResult } from "../../src/core/result.js";

const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;
const data = randomWalkBars(800);

/**
 * Both modes precompute, so their agreement says nothing about the passes: the reference is the
 * per-bar interpreter (a profiler run never precomputes), compared series by series with Object.is.
 */
async function samePerBar(got: RunResult, src: string, bars: Bar[], rt = new Runtime()): Promise<void> {
  const perBar = await rt.run(src, bars, { mode: "interpret", profiler: true });
  expect(perBar.error).toBeUndefined();
  expect(firstDifference(got.series, perBar.series)).toBeNull();
}

/** The per-bar interpreter's run of `src` with `rt`'s inputs (errors included). */
function perBarRun(src: string, rt: Runtime): Promise<RunResult> {
  return rt.run(src, data, { mode: "interpret", profiler: true });
}

const SCRIPT = v6(`len = input.int(14, "Length", minval = 1)
fast = input(12, "Fast")
slow = input.int(26, "Slow")
sig = input.int(9, "Signal")
mult = input.float(2.0, "Mult")
back = input.int(1, "Back", minval = 0)
a = ta.sma(close, len)
r = ta.rsi(close, len)
[m, s, h] = ta.macd(close, fast, slow, sig)
[mid, up, lo] = ta.bb(close, len, mult)
hh = ta.highest(high, len)
ch = ta.change(close, back)
at = ta.atr(len)
k = ta.stoch(close, high, low, len)
plot(a)
plot(r)
plot(m + s + h)
plot(up - lo)
plot(hh)
plot(ch)
plot(at)
plot(k)`);

afterEach(() => setCompileBackend(compileProgram));

describe("input lengths", () => {
  it("are precomputed: no ta.* builtin is called per bar", () => {
    const text = generatedSource(program(SCRIPT));
    // every ta.* result is a column read: six single columns and two tuples of three
    expect(text.match(/K\d+(_\d)?\[b_bar\]/g)?.length).toBe(6 + 2 * 3);
  });
  it("give the per-bar results bit for bit, with defaults and with constructor inputs", async () => {
    let p = await runPair(SCRIPT, data);
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    await samePerBar(p.compile, SCRIPT, data);
    const rt = new Runtime("CHART", { inputs: { Length: 5, Fast: 3, Mult: 1.5, Back: 2 } });
    p = await runPair(SCRIPT, data, {}, rt);
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    await samePerBar(p.compile, SCRIPT, data, rt);
    // the values really changed the passes: constructor inputs equal run-time overrides (interpret)
    const over = await new Runtime().run(SCRIPT, data, {
      mode: "interpret",
      inputs: { Length: 5, Fast: 3, Mult: 1.5, Back: 2 },
    });
    expect(p.compile.series).toEqual(over.series);
    expect(p.compile.series.plot_0).not.toEqual(
      (await new Runtime().run(SCRIPT, data, { mode: "compile" })).series.plot_0,
    );
  });
  it("a value the per-bar call refuses leaves the calls per bar: compile runs its loop without the passes", async () => {
    const rt = new Runtime("CHART", { inputs: { Back: -1 } });
    const src = v6("back = input.int(1, 'Back')\nplot(ta.change(close, back))");
    const p = await runPair(src, data, {}, rt);
    expect(p.compile.mode).toBe("compile");
    expect(p.compile.error).toMatch(/'length' argument \(-1\)/);
    expect(p.difference).toBeNull();
    expect(firstDifference(p.compile.series, (await perBarRun(src, rt)).series)).toBeNull();
    // the same script with a valid value precomputes again (the choice is not cached)
    const ok = await new Runtime().run(src, data, { mode: "compile" });
    expect(ok.mode).toBe("compile");
    expect(firstDifference(ok.series, (await perBarRun(src, new Runtime())).series)).toBeNull();
  });
  it("a length past LARGE_LENGTH runs per bar, where the memory budget is checked, in every mode", async () => {
    const src = v6("n = input.int(10, 'N')\nplot(ta.sma(close, n))\nplot(ta.highest(n))");
    const rt = new Runtime("CHART", { inputs: { N: 200_000_000 } });
    const p = await runPair(src, data, {}, rt);
    expect(p.compile.mode).toBe("compile");
    expect(p.compile.error).toMatch(/Memory limits exceeded: the 'length' argument \(200000000\) of 'sma'/);
    expect(p.difference).toBeNull();
    expect(p.compile.error).toBe((await perBarRun(src, rt)).error);
  });
  it("an input assigned again, or with a non-constant argument, is not a precompute length", () => {
    const again = generatedSource(
      program(v6("len = input.int(14)\nif close > open\n    len := 3\nplot(ta.sma(close, len))")),
    );
    expect(again).not.toMatch(/K\d+\[b_bar\]/);
  });
});

describe("infinities in a precomputed window", () => {
  it("sma and bb re-sum their window once an infinity has left it, as the per-bar kernels do", async () => {
    // a volume of 1e300 on every 7th bar: volume * 1e10 overflows to +inf there (x / 0 is na in Pine)
    const bars = randomWalkBars(300).map((b, i) => (i % 7 === 3 ? { ...b, volume: 1e300 } : b));
    const src = v6("x = volume * 1e10\nplot(ta.sma(x, 4))\n[m, u, l] = ta.bb(x, 4, 2)\nplot(m)\nplot(u)");
    const text = generatedSource(program(src));
    expect(text.match(/K\d+(_\d)?\[b_bar\]/g)?.length).toBe(1 + 3);
    const p = await runPair(src, bars);
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    await samePerBar(p.compile, src, bars);
    // inf while the infinity is in the window, finite again once it has left
    expect(p.interpret.series.plot_0![3 + 7 * 2]).toBe(Infinity);
    expect(p.interpret.series.plot_0![3 + 7 * 2 + 4]).toEqual(expect.any(Number));
    expect(Number.isFinite(p.interpret.series.plot_0![3 + 7 * 2 + 4])).toBe(true);
  });
});
