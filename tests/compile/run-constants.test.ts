// Values fixed for a run, read or computed once instead of on every bar, in both backends:
// builtin variables marked perRun (syminfo.*, timeframe.*: read on the first bar that reaches them,
// then kept: a run local in the generated loop, the site's state in the interpreter and in the
// generated code's nested functions), pure builtins of constants folded by the checker
// (color.new(color.red, 50) is a constant) and an output call's constant colour, never written
// again after the call that registered the output. Same results in both backends, with a user
// syminfo, another timeframe, a strategy using the tick size, realtime ticks and a runtime error's bar.
import { describe, expect, it } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { registry } from "../../src/builtins/index.js";
import { colorNew } from "../../src/builtins/color/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { runModes } from "../helpers/run-both.js";
import type { RExpr } from "../../src/check/ir.js";
import { comparable, firstDifference, program, runPair } from "./parity.js";

const v6 = (body: string, decl = 'indicator("t")') => `//@version=6\n${decl}\n${body}\n`;

const STRATEGY = v6(
  `f(x) => x / syminfo.mintick
fast = ta.ema(close, 5)
slow = ta.ema(close, 13)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
atr = ta.atr(10)
if strategy.position_size > 0
    strategy.exit("LX", "L", profit = 2 * atr / syminfo.mintick, loss = f(atr))
if strategy.position_size < 0
    strategy.exit("SX", "S", profit = 2 * atr / syminfo.mintick, loss = f(atr))
plot(syminfo.pointvalue * close + syminfo.mintick)
plot(timeframe.multiplier)
plot(timeframe.isintraday ? 1 : 0)
plot(str.length(syminfo.tickerid + timeframe.period))`,
  'strategy("s", overlay = true)',
);

/** The IR node of the first call argument `i` of the first top-level expression statement. */
function firstCallArg(src: string, i: number): RExpr | undefined {
  const s = program(src).body.stmts.find((x) => x.k === "expr");
  return s?.k === "expr" && s.e.k === "call" ? s.e.args[i] : undefined;
}

describe("per-run builtin variables", () => {
  it("are one run local in the generated loop, whatever the number of sites", () => {
    const text = generatedSource(program(STRATEGY));
    // syminfo.mintick at four top-level sites (and one in f), syminfo.pointvalue, .tickerid,
    // timeframe.multiplier, .isintraday, .period: one local each
    const locals = new Set(text.match(/Y\d+(?= !== undefined)/g));
    expect(locals.size).toBe(6);
    // the user function's site keeps it in its site's state
    expect(text).toMatch(/\.state\) !== undefined \? \$\d+ : \(K\d+\.state = K\d+\(ctx, K\d+\)\)/);
  });

  it("agree with the interpreter with a user syminfo, another timeframe and realtime ticks", async () => {
    const bars = randomWalkBars(600);
    for (const syminfo of [{}, { mintick: 0.25, pointvalue: 50 }, { mintick: 0.0001 }]) {
      for (const timeframe of ["1", "60", "D"]) {
        const rt = new Runtime("CME:ES", { timeframe, syminfo });
        const p = await runPair(STRATEGY, bars, {}, rt);
        expect(p.compile.mode).toBe("compile");
        expect(p.interpret.error).toBeUndefined();
        expect(p.difference).toBeNull();
        expect(p.compile.strategy?.trades?.length).toBeGreaterThan(5);
      }
    }
    const rt = new Runtime("CHART", { syminfo: { mintick: 0.5 } });
    for (const opts of [{ realtimeTicks: 3 }, { realtimeBars: 2, realtimeTicks: 2 }]) {
      const r = await runModes(rt, STRATEGY, randomWalkBars(120), opts);
      expect(r.error).toBeUndefined();
    }
  });

  it("are read once a run by the interpreter, again on the next run", async () => {
    const def = registry.variables["syminfo.mintick"]!;
    const get = def.get;
    let reads = 0;
    def.get = (ctx, site) => {
      reads++;
      return get(ctx, site);
    };
    try {
      const src = v6("a = close / syminfo.mintick\nplot(a)\nplot(syminfo.mintick)");
      const rt = new Runtime("CHART", { syminfo: { mintick: 0.25 } });
      for (let run = 1; run <= 2; run++) {
        const r = await rt.run(src, randomWalkBars(300), { mode: "interpret" });
        expect(r.series.plot_1?.[7]).toBe(0.25);
        // one read per site and run
        expect(reads).toBe(2 * run);
      }
    } finally {
      def.get = get;
    }
  });

  it("leave a runtime error on its bar and line", async () => {
    const src = v6(`x = bar_index > 40 and syminfo.mintick > 0 ? array.get(array.new<float>(1), 3) : 0.0
plot(x)`);
    const p = await runPair(src, randomWalkBars(100));
    expect(p.interpret.error_bar).toBe(41);
    expect(p.difference).toBeNull();
  });
});

describe("pure builtins of constants", () => {
  it("fold to constants in the checker", () => {
    const red = registry.constants["color.red"] as number;
    const c = firstCallArg(v6("plot(close, color = color.new(color.red, 50))"), 2);
    expect(c).toMatchObject({ k: "const", v: colorNew(red, 50) });
    expect(firstCallArg(v6("plot(close, color = color.rgb(10, 20, 30, 40))"), 2)?.k).toBe("const");
    // a series argument keeps the call
    expect(firstCallArg(v6("plot(close, color = color.new(color.red, bar_index % 90))"), 2)?.k).toBe("call");
  });

  it("and a constant colour: later bars write only the cell, in both backends", async () => {
    const src = v6(`w = input.int(2)
plot(close, "a", color = color.new(color.red, 50))
plot(open, "b", color = color.blue)
plotshape(close > open, "s", color = color.rgb(0, 200, 0, 30))
plot(high, "c", color = close > open ? color.new(color.green, 20) : na)`);
    const text = generatedSource(program(src));
    // only the per-bar colour writes its track
    expect(new Set(text.match(/\w+(?=\.set\()/g))).toEqual(new Set(["P7c"]));
    // its track's column written in place once it has one (ColorTrack.set called only to make it)
    expect(text).toMatch(/P7c\.col !== null \? \(P7c\.col\[b_bar\] = \$\d+\)/);
    const bars = randomWalkBars(400);
    const p = await runPair(src, bars);
    expect(p.difference).toBeNull();
    // the general call (an argument the impl never reads keeps it) gives the same result
    const general = src.replace(/"(\w)", /g, '"$1", editable = w > 0, ');
    expect(generatedSource(program(general))).not.toMatch(/\.set\(/);
    for (const mode of ["interpret", "compile"] as const) {
      const rt = new Runtime();
      const a = await rt.run(src, bars, { mode });
      const b = await rt.run(general, bars, { mode });
      const { script_id: _a, ...x } = comparable(a);
      const { script_id: _b, ...y } = comparable(b);
      expect(firstDifference(x, y)).toBeNull();
      expect(a.plot_colors?.c).toBeDefined();
    }
  });
});
