// request.security / request.security_lower_tf in the compile backend (issue 18 part 5): the
// generated loop calls the interpreter's request site, passing the arguments the interpreter reads
// only sometimes as functions, and the secondary runs (the program over the other context's bars)
// run the program's secondary loop variant (codegen.ts generate). Each script here must give exactly
// the interpreter's result, and compile mode must really compile: stateful calls inside the
// requested expression (which run only when the context is the chart's own), requests in user
// functions and loops, tuples, intrabar arrays, calc_bars_count, errors and strategies.
import { describe, expect, it } from "vitest";
import { Runtime, setCompileBackend } from "../../src/runtime/index.js";
import { compileBackend } from "../../src/runtime/backend.js";
import { generatedSource } from "../../src/compile/index.js";
import { secondaryRuns } from "../../src/interpret/security.js";
import type { Bar, RunResult } from "../../src/core/result.js";
import { runModes } from "../helpers/run-both.js";
import { program } from "./parity.js";

const M = 60_000;
const T0 = Date.UTC(2024, 0, 1);

/** n bars of `stepMs` with a wavy close, so crossings and extremes happen. */
function bars(n: number, stepMs: number, phase = 0): Bar[] {
  return Array.from({ length: n }, (_, i) => {
    const c = 100 + 10 * Math.sin((i + phase) / 7) + (i % 5) * 0.25;
    return { time: T0 + i * stepMs, open: c - 0.5, high: c + 1.25, low: c - 1.5, close: c, volume: 100 + i };
  });
}

const chart = bars(240, 60 * M);
const feed = {
  "NASDAQ:AAPL|15": bars(240 * 4, 15 * M, 3),
  "NYSE:ABC|1D": bars(12, 24 * 60 * M, 5),
  "NYSE:ABC|60": bars(240, 60 * M, 9),
};
const v6 = (body: string, decl = 'indicator("t")') => `//@version=6\n${decl}\n${body}\n`;

async function same(src: string): Promise<RunResult> {
  const r = await runModes(new Runtime("NASDAQ:AAPL", { timeframe: "60" }), src, chart, { dataFeed: feed });
  expect(r.error ?? null, r.error).toBeNull();
  return r;
}

describe("request.security compiles and agrees with the interpreter", () => {
  it("higher timeframes of the chart, gaps and lookahead, stateful expressions", async () => {
    await same(
      v6(`a = request.security(syminfo.tickerid, "240", ta.sma(close, 3))
b = request.security(syminfo.tickerid, "D", ta.ema(close, 5), lookahead = barmerge.lookahead_on)
c = request.security(syminfo.tickerid, "240", close[1], gaps = barmerge.gaps_on)
plot(a)
plot(b)
plot(c)`),
    );
  });
  it("the chart's own context: the expression's calls run in the main run, once per bar", async () => {
    await same(
      v6(`f() => ta.rsi(close, 4) + ta.cum(1)
x = request.security(syminfo.tickerid, timeframe.period, f())
plot(x)
plot(ta.cum(1))`),
    );
  });
  it("another symbol from the data feed, tuples, a missing one", async () => {
    await same(
      v6(`[o, c] = request.security("NYSE:ABC", "D", [open, ta.highest(close, 2)])
h = request.security("NYSE:ABC", "60", ta.change(close))
z = request.security("NYSE:NONE", "D", close)
plot(o)
plot(c)
plot(h)
plot(z)`),
    );
  });
  it("lower timeframes as arrays, in a user function and a loop", async () => {
    await same(
      v6(`intrabar(src) => request.security_lower_tf(syminfo.tickerid, "15", src)
a = intrabar(close)
[h, l] = request.security_lower_tf(syminfo.tickerid, "15", [high, low])
s = 0.0
for i = 0 to 1
    s += array.size(a) > i ? array.get(a, i) : 0
plot(array.size(a))
plot(array.sum(a))
plot(array.max(h) - array.min(l))
plot(s)`),
    );
  });
  it("a symbol and timeframe chosen per bar, calc_bars_count", async () => {
    await same(
      v6(`tf = bar_index % 2 == 0 ? "240" : "D"
x = request.security(syminfo.tickerid, tf, close)
y = request.security("NYSE:ABC", "60", close, calc_bars_count = 50)
plot(x)
plot(y)`),
    );
  });
  it("a site in a loop over more contexts than it remembers gets each one's values", async () => {
    const r = await same(
      v6(`float acc = 0.0
for tf in array.from("120", "180", "240", "360", "480", "D")
    acc += request.security(syminfo.tickerid, tf, close)
a = request.security(syminfo.tickerid, "120", close) + request.security(syminfo.tickerid, "180", close) + request.security(syminfo.tickerid, "240", close) + request.security(syminfo.tickerid, "360", close) + request.security(syminfo.tickerid, "480", close) + request.security(syminfo.tickerid, "D", close)
plot(acc, "acc")
plot(a, "a")`),
    );
    expect(r.series.acc).toEqual(r.series.a);
    expect(r.series.a!.filter((v) => typeof v === "number").length).toBeGreaterThan(100);
  });
  it("a request inside a requested expression (the inner one evaluated in the secondary run's own context)", async () => {
    const r = await same(
      v6(`inner() => request.security("NYSE:ABC", "1D", close)
float x = request.security("NYSE:ABC", "60", inner() + ta.sma(close, 3))
float y = request.security(syminfo.tickerid, "120", request.security(syminfo.tickerid, "240", high))
plot(x, "x")
plot(y, "y")`),
    );
    for (const k of ["x", "y"])
      expect(r.series[k]!.filter((v) => typeof v === "number").length, k).toBeGreaterThan(100);
  });
  it("an error in the request's arguments stops both runs on the same bar", async () => {
    const r = await runModes(
      new Runtime("NASDAQ:AAPL", { timeframe: "60" }),
      v6(`plot(close)
plot(request.security("NYSE:ABC", "60", close, calc_bars_count = 0))`),
      chart,
      { dataFeed: feed },
    );
    expect(r.error).toMatch(/calc_bars_count/);
  });
  it("a strategy trading on a higher timeframe's signal", async () => {
    await same(
      v6(
        `fast = request.security(syminfo.tickerid, "240", ta.ema(close, 3))
slow = request.security(syminfo.tickerid, "240", ta.ema(close, 8))
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.close("L")
strategy.exit("X", "L", stop = close * 0.97)`,
        'strategy("s")',
      ),
    );
  });
  it("the expression is a function defined once; constants and plain reads are values", () => {
    const text = generatedSource(program(v6(`plot(request.security(syminfo.tickerid, "240", ta.sma(close, 3)))`)));
    // symbol (syminfo.tickerid, read through its getter on the run's first bar, then kept: it is
    // fixed for the run) as its value, timeframe, expression (a nested function defined once, its sma
    // written out, src/compile/inline-ta.ts), then the absent ones: no function made on every bar
    const call = text.match(
      /K\d+\(\(Y\d+ !== undefined \? Y\d+ : \(Y\d+ = K\d+\(ctx, K\d+\)\)\), "240", (x\d+), undefined, undefined/,
    );
    expect(call).not.toBeNull();
    expect(text).toMatch(new RegExp(`function ${call![1]}\\(\\) \\{[^}]*"sma"`));
    expect(text).not.toContain("() =>");
  });
  it("a symbol computed with effects stays a function the site calls when it reads it", () => {
    // (a string concatenation may raise the length limit: evaluated where the interpreter evaluates it)
    const text = generatedSource(program(v6(`s = input.string("A")\nplot(request.security(s + "X", "240", close))`)));
    expect(text).toMatch(/K\d+\(\(\) => \(/);
  });
});

describe("request.security's secondary runs in compile mode", () => {
  /** The secondary runs each backend ran for `src` in interpret mode, then in compile mode. */
  async function counted(src: string): Promise<{ r: RunResult; interpreted: number; compiled: number }> {
    const before = { ...secondaryRuns };
    const r = await same(src);
    return {
      r,
      interpreted: secondaryRuns.interpreted - before.interpreted,
      compiled: secondaryRuns.compiled - before.compiled,
    };
  }

  it("are compiled: one per context in each mode, each in its run's backend", async () => {
    const { interpreted, compiled } = await counted(
      v6(`var float acc = 0.0
acc += close - open
f(x) =>
    s = 0.0
    for i = 0 to 2
        s += x[i]
    s
a = request.security(syminfo.tickerid, "240", acc[2] + f(close) + ta.sma(close, 3))
b = request.security("NYSE:ABC", "D", f(high - low))
plot(a)
plot(b)`),
    );
    expect(interpreted).toBe(2);
    expect(compiled).toBe(2);
  });
  it("skip a top-level statement that fails in the other context, note it, and run the rest of the bar", async () => {
    const { r, compiled } = await counted(
      v6(`var int n = 0
if timeframe.period == "240"
    runtime.error("not on 240")
n += 1
arr = array.new<float>()
for i = 0 to 3
    if i == 2 and timeframe.period == "240"
        arr.get(10)
    arr.push(i)
m = 0
for j = 0 to 4
    m += 1
x = request.security(syminfo.tickerid, "240", n * 1000 + arr.size() * 10 + m)
plot(x, "x")`),
    );
    expect(compiled).toBe(1);
    const x = r.series.x!.filter((v): v is number => typeof v === "number");
    expect(x.length).toBeGreaterThan(100);
    // n counts every context bar, the failing loop left two elements, the loop after it ran whole
    for (const v of x) expect(v % 1000).toBe(25);
    const note = (r.meta.requests as { note?: string }[]).map((q) => q.note ?? "").join(" ");
    expect(note).toMatch(/does not need failed on context bar 0/);
  });
  it("record a copy of a requested collection the secondary run changes afterwards", async () => {
    const { r, compiled } = await counted(
      v6(`var a = array.new<float>()
a.push(close)
s = request.security(syminfo.tickerid, "240", a)
a.clear()
plot(na(s) ? -1 : s.size(), "n")`),
    );
    expect(compiled).toBe(1);
    // (na before the first 240-minute bar closes)
    expect(new Set(r.series.n!)).toEqual(new Set([-1, 1]));
  });
  it("fall back to the interpreter when the backend refuses one, and the request's note says so", async () => {
    const src = v6(`plot(request.security(syminfo.tickerid, "240", ta.sma(close, 3)), "x")`);
    const rt = new Runtime("NASDAQ:AAPL", { timeframe: "60" });
    const expected = await rt.run(src, chart, { mode: "interpret" });
    const real = compileBackend()!;
    let calls = 0;
    // the main run compiles; its secondary run's compile (the backend's second call) fails
    setCompileBackend((...args) => {
      if (++calls > 1) throw new Error("refused for the test");
      return real(...args);
    });
    const before = { ...secondaryRuns };
    try {
      const r = await rt.run(src, chart, { mode: "compile" });
      expect(r.error ?? null).toBeNull();
      expect(r.mode).toBe("compile");
      expect(secondaryRuns.interpreted - before.interpreted).toBe(1);
      expect(secondaryRuns.compiled - before.compiled).toBe(0);
      expect(r.series.x).toEqual(expected.series.x);
      const note = (r.meta.requests as { note?: string }[]).map((q) => q.note ?? "").join(" ");
      expect(note).toMatch(/compile backend refused this context's run, which was interpreted: refused for the test/);
    } finally {
      setCompileBackend(real);
    }
  });
  it("stay interpreted in interpret mode", async () => {
    const before = { ...secondaryRuns };
    const r = await new Runtime("NASDAQ:AAPL", { timeframe: "60" }).run(
      v6(`plot(request.security(syminfo.tickerid, "240", close))`),
      chart,
      { mode: "interpret" },
    );
    expect(r.error ?? null).toBeNull();
    expect(secondaryRuns.interpreted - before.interpreted).toBe(1);
    expect(secondaryRuns.compiled - before.compiled).toBe(0);
  });
});
