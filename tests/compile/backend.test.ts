// The compile backend on its own terms: whole-series precompute, the factory cache, fallbacks, and
// parity with the interpreter on scripts that exercise every construct the generator emits.
import { afterEach, describe, expect, it } from "vitest";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { Runtime, setCompileBackend } from "../../src/runtime/index.js";
import { compileProgram, generatedSource, NotCompilable } from "../../src/compile/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { program, runPair } from "./parity.js";
import { BENCH10 } from "../helpers/data.js";

const ROOT = join(import.meta.dirname, "..", "..");
const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;
const data = syntheticBars(600);

async function same(src: string, bars = data) {
  const p = await runPair(src, bars);
  expect(p.interpret.error).toBeUndefined();
  expect(p.compile.mode).toBe("compile");
  expect(p.difference).toBeNull();
  return p;
}

afterEach(() => setCompileBackend(compileProgram));

describe("whole-series precompute", () => {
  it("top-level ta calls on OHLCV series with constant lengths read a precomputed column", () => {
    const text = generatedSource(
      program(
        v6("a = ta.sma(close, 20)\nb = ta.rsi(hl2, 14)\nc = ta.highest(10)\nd = ta.atr(14)\nplot(a + b + c + d)"),
      ),
    );
    expect(text.match(/K\d+\[b_bar\]/g)?.length).toBe(4);
  });
  it("calls that do not run on every bar, or whose inputs are not known up front, stay per bar", () => {
    const text = generatedSource(
      program(
        v6(
          "x = 0.0\nif close > open\n    x := ta.sma(close, 20)\nlen = bar_index % 5 + 1\ny = ta.sma(close, len)\nz = close > open ? ta.ema(close, 9) : 0\nplot(x + y + z)",
        ),
      ),
    );
    expect(text).not.toMatch(/K\d+\[b_bar\]/);
  });
  it("precomputed and per-bar results are bit-identical (bench10 and friends, 5000 bars)", async () => {
    const src = readFileSync(BENCH10, "utf8");
    await same(src, syntheticBars(5000));
    await same(
      v6(
        "plot(ta.stdev(close - open, 10, false))\nplot(ta.change(hlc3, 3))\nplot(ta.wma(ohlc4, 7))\nplot(ta.rma(volume, 5))\nplot(ta.lowest(low * 2, 4))\nplot(ta.tr(true))\nplot(ta.tr)\nplot(ta.sma(ta.ema(close, 5), 3))\n[m, sg, hs] = ta.macd(hl2, 5, 13, 4)\nplot(m)\nplot(sg)\nplot(hs)\nplot(ta.stoch(close, high, low, 9))",
      ),
      syntheticBars(3000),
    );
  });
  it("tuple results (ta.macd) and ta.stoch are precomputed too", () => {
    const text = generatedSource(
      program(v6("[m, s, h] = ta.macd(close, 12, 26, 9)\nk = ta.stoch(close, high, low, 14)\nplot(m + s + h + k)")),
    );
    // each value read straight from its column (a run constant) into its variable: no tuple buffer
    expect(text.match(/K\d+_\d\[b_bar\]/g)?.length).toBe(3);
    expect(text.match(/\n {6}s\d+ = \+\(K\d+_\d\[b_bar\]\);/g)?.length).toBe(3);
    expect(text).toMatch(/const K(\d+)_0 = K\1\[0\], K\1_1 = K\1\[1\], K\1_2 = K\1\[2\];/);
    expect(text).not.toMatch(/K\d+\[\d\] = K\d+/);
    expect(text.match(/K\d+\[b_bar\]/g)?.length).toBe(1);
  });
  it("a strategy's hoisted tuples agree with interpret, values skipped or read once", async () => {
    await same(
      v6(
        "[m, s, h] = ta.macd(close, 12, 26, 9)\n[_, up, lo] = ta.bb(close, 20, 2)\n[dp, dm, adx] = ta.dmi(14, 14)\n" +
          'if ta.crossover(m, s) and close < up and adx > 10\n    strategy.entry("L", strategy.long)\n' +
          'if ta.crossunder(m, s) or close < lo or dm > dp\n    strategy.close("L")\nplot(h)\nplot(adx)',
        'strategy("t")',
      ),
      syntheticBars(3000),
    );
  });
});

describe("bench10's shape", () => {
  it("ta.bb, ta.crossover of once-assigned variables and every other ta call are precomputed", () => {
    const text = generatedSource(
      program(
        v6(
          "f = ta.sma(close, 20)\ns = ta.ema(close, 50)\n[m, u, l] = ta.bb(close, 20, 2)\nx = ta.crossover(f, s) ? 1 : 0\ny = ta.crossunder(f - s, 0)\nplot(x + u + (y ? 1 : 0))",
        ),
      ),
    );
    expect(text).toMatch(/\(K\d+\[b_bar\] === 1\)/);
    // no builtin called on every bar: the only calls left are the plot's first-bar registration
    expect(text.match(/K\d+\(ctx, K\d+, K\d+\)/g)?.length).toBe(1);
  });
  it("a variable assigned again is not precomputed through its first value", () => {
    const text = generatedSource(
      program(v6("f = ta.sma(close, 20)\nif close > open\n    f := 0\nplot(ta.crossover(f, close) ? 1 : 0)")),
    );
    // computed bar by bar (written out: src/compile/inline-ta.ts), not read from a precomputed column
    expect(text).not.toMatch(/\(K\d+\[b_bar\] === 1\)/);
    expect(text).toContain("X0 <= X1");
  });
  it("plots written directly agree with the impl: constants, colours, series colours, plot ids for fill", async () => {
    await same(
      v6(`a = plot(close, "c", color = color.red, linewidth = 2)
b = plot(open, color = close > open ? color.green : color.red)
plot(bar_index % 3 == 0 ? na : high - low, "r", color.new(color.blue, 50))
fill(a, b, color = color.new(color.gray, 80))
plot(ta.rsi(close, 14))
plotshape(close > open, "up")`),
    );
  });
});

describe("factory cache", () => {
  it("a second run of the same script reuses the compiled factory", async () => {
    const seen: boolean[] = [];
    setCompileBackend((...a) => {
      const c = compileProgram(...a);
      seen.push(c.cached);
      return c;
    });
    const src = v6(`plot(close * ${Math.random()})`);
    const rt = new Runtime();
    const a = await rt.run(src, data, { mode: "compile" });
    const b = await rt.run(src, data, { mode: "compile" });
    expect(seen).toEqual([false, true]);
    expect(b.series).toEqual(a.series);
  });
});

describe("parity on every construct", () => {
  it("loops with break/continue and their values, switch, while", async () => {
    await same(
      v6(`s = 0.0
for i = 0 to 10
    if i % 3 == 0
        continue
    if i > 7
        break
    s += i
v = for j = 1 to 5 by 2
    j * close
w = for j = 0 to 4
    if j == 2
        break
    j
k = 0
while k < 5
    k += 1
m = switch
    close > open => 1
    close < open => -1
    => 0
n = switch bar_index % 3
    0 => "a"
    1 => "b"
plot(s)
plot(v)
plot(w)
plot(k)
plot(m)
plot(n == "a" ? 1 : n == "b" ? 2 : 0)`),
    );
  });
  it("var, history with constant and dynamic offsets, -0, int division, string concat", async () => {
    await same(
      v6(`var float acc = 0.0
acc := acc + close
d = bar_index % 4
h = acc[d]
z = -0.0 * close
q = int(bar_index / 7)
r = 7 / 2
s = str.tostring(bar_index) + "x"
plot(h)
plot(z)
plot(q)
plot(r)
plot(close[2] - close[d])
plot(str.length(s))
plot((close + open)[3])`),
    );
  });
  it("user functions with their own histories, called from two sites and inside a loop", async () => {
    await same(
      v6(`f(x) =>
    y = x * 2
    y - nz(y[1])
g(a, b) =>
    c = ta.sma(a, 3) + b
    c
t = 0.0
for i = 0 to 2
    t += f(close + i)
plot(f(close))
plot(f(open))
plot(t)
plot(g(close, 1))`),
    );
  });
  it("arrays, maps, UDTs, for...in, tuples", async () => {
    await same(
      v6(`type P
    float x
    int n = 1
var arr = array.new<float>()
arr.push(close)
if arr.size() > 5
    arr.shift()
var m = map.new<string, float>()
m.put("c", close)
p = P.new(close)
p.n += 2
p.x /= 2
s = 0.0
for [i, v] in arr
    s += v * i
for v in arr
    if v > 200
        break
    s += 1
[a, b, hist] = ta.macd(close, 3, 5, 2)
plot(s)
plot(m.get("c"))
plot(p.x + p.n)
plot(a - b + hist)`),
    );
  });
  it("strategies: orders, trades and equity are identical", async () => {
    const file = join(ROOT, "bench", "strategy.pine");
    const src = existsSync(file)
      ? readFileSync(file, "utf8")
      : v6(
          "if ta.crossover(ta.sma(close, 5), ta.sma(close, 20))\n    strategy.entry('L', strategy.long)\nif ta.crossunder(ta.sma(close, 5), ta.sma(close, 20))\n    strategy.close('L')",
          "strategy('s')",
        );
    const p = await same(src, syntheticBars(3000));
    expect(p.interpret.strategy).toBeDefined();
  });
  it("a runtime error stops both backends on the same bar with the same partial result", async () => {
    const p = await runPair(v6("plot(close)\nif bar_index == 57\n    runtime.error('boom')"), data);
    expect(p.compile.mode).toBe("compile");
    expect(p.compile.error_kind).toBe("runtime");
    expect(p.compile.error_bar).toBe(57);
    expect(p.difference).toBeNull();
  });
});

describe("fallbacks", () => {
  it("a script the backend refuses runs interpret; auto names the reason", async () => {
    const src = `//@version=6\nstrategy("s", calc_on_order_fills = true)\nstrategy.entry("L", strategy.long)\nplot(close)\n`;
    setCompileBackend(() => {
      throw new NotCompilable("a construct is not compile-eligible");
    });
    const rt = new Runtime();
    const c = await rt.run(src, data, { mode: "compile" });
    expect(c.mode).toBe("interpret");
    const a = await rt.run(src, data, { mode: "auto" });
    expect(a.mode).toBe("interpret");
    expect(a.auto_backend).toBe("interpret");
    expect(a.compile_fallback_reason).toBe("a construct is not compile-eligible");
    setCompileBackend(compileProgram);
    // (calc_on_order_fills itself compiles since issue 18 part 5: tests/compile/fills.test.ts)
    expect((await rt.run(src, data, { mode: "auto" })).auto_backend).toBe("compile");
  });
  it("auto compiles an eligible script", async () => {
    const a = await new Runtime().run(v6("plot(ta.ema(close, 10))"), data, { mode: "auto" });
    expect(a.mode).toBe("compile");
    expect(a.auto_backend).toBe("compile");
    expect(a.compile_fallback_reason).toBeUndefined();
  });
});
