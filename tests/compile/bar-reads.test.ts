// Builtin variables read without a call through their getter, in both backends: hl2, hlc3, ohlc4 and
// hlcc4 written out from the bar's values (the compile backend's PRICE_VARS; the interpreter's bar
// slots), and strategy.* figures read from the broker by each read's own closure in the interpreter
// (the compile backend's onBroker path). Same values as the getters, bit for bit: against the other
// backend, in user functions (the context's bar), under calc_on_order_fills re-runs (a bar so far)
// and realtime ticks, and a strategy's figures as its orders fill within the bar (strategy.close
// with immediately = true).
import { describe, expect, it } from "vitest";
import { generatedSource } from "../../src/compile/index.js";
import { registry } from "../../src/builtins/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { runModes } from "../helpers/run-both.js";
import { program, runPair } from "./parity.js";

const v6 = (body: string, decl = 'indicator("t")') => `//@version=6\n${decl}\n${body}\n`;

const PRICES = `f(x) => x + hlc3 - ohlc4
var float acc = 0.0
if close > open
    acc += hl2 - hlcc4
plot(hl2, "hl2")
plot(hlc3, "hlc3")
plot(ohlc4, "ohlc4")
plot(hlcc4, "hlcc4")
// (over a variable the bar writes: a call over close alone would be a whole-series column, its body never run)
plot(f(acc), "f")
plot(acc, "acc")`;

/** Runs `f` with the getters of `names` counting their calls; the count. */
async function getterCalls(names: string[], f: () => Promise<unknown>): Promise<number> {
  let calls = 0;
  const saved = names.map((n) => {
    const def = registry.variables[n]!;
    const get = def.get;
    def.get = (ctx, site) => {
      calls++;
      return get(ctx, site);
    };
    return () => {
      def.get = get;
    };
  });
  try {
    await f();
  } finally {
    for (const restore of saved) restore();
  }
  return calls;
}

describe("hl2, hlc3, ohlc4, hlcc4", () => {
  it("are written out in the generated loop and its functions", () => {
    const text = generatedSource(program(v6(PRICES)));
    expect(text).toContain("((b_high + b_low + b_close) / 3)");
    expect(text).toContain("((b_high + b_low + 2 * b_close) / 4)");
    // the user function reads the context's bar
    expect(text).toContain("((ctx.high + ctx.low + ctx.close) / 3)");
    expect(text).not.toMatch(/K\d+\(ctx, K\d+\)/);
  });

  it("are read from the bar's slots by the interpreter", async () => {
    const names = ["hl2", "hlc3", "ohlc4", "hlcc4"];
    const n = await getterCalls(names, () => new Runtime().run(v6(PRICES), randomWalkBars(50), { mode: "interpret" }));
    expect(n).toBe(0);
  });

  it("equal the getters in both backends, also under fill re-runs and realtime ticks", async () => {
    const bars = randomWalkBars(500);
    const p = await runPair(v6(PRICES), bars);
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    // the builtins' own arithmetic (a result holds na as null)
    const b = bars as { high: number; low: number; close: number }[];
    const hlc3 = p.interpret.series.hlc3 as ArrayLike<number>;
    for (let i = 0; i < 50; i++) expect(hlc3[i]).toBe((b[i]!.high + b[i]!.low + b[i]!.close) / 3);
    const strat = v6(
      `m = ta.sma(hlc3, 5)
if hl2 > m
    strategy.entry("L", strategy.long, limit = hlcc4 - 0.2)
if ohlc4 < m
    strategy.close("L")
plot(hlc3 + strategy.position_size)`,
      'strategy("s", calc_on_order_fills = true)',
    );
    const q = await runPair(strat, bars);
    expect(q.difference).toBeNull();
    expect(q.interpret.strategy?.trades?.length).toBeGreaterThan(5);
    const rt = new Runtime();
    for (const opts of [{ realtimeTicks: 3 }, { realtimeBars: 2, realtimeTicks: 2 }]) {
      expect((await runModes(rt, v6(PRICES), randomWalkBars(100), opts)).error).toBeUndefined();
      expect((await runModes(rt, strat, randomWalkBars(100), opts)).error).toBeUndefined();
    }
  });
});

describe("strategy.* figures in the interpreter", () => {
  it("follow fills within the bar, as the compile backend's reads do", async () => {
    const src = v6(
      `if ta.crossover(ta.ema(close, 4), ta.ema(close, 9))
    strategy.entry("L", strategy.long, qty = 2)
before = strategy.position_size
opened = strategy.opentrades
if before > 0 and close < open
    strategy.close("L", qty = 1, immediately = true)
after = strategy.position_size
plot(before, "before")
plot(after, "after")
plot(opened - strategy.opentrades, "closed")
plot(strategy.equity - strategy.netprofit, "eq")
plot(strategy.closedtrades, "ct")`,
      'strategy("s", pyramiding = 2)',
    );
    const bars = randomWalkBars(600);
    const p = await runPair(src, bars);
    expect(p.compile.mode).toBe("compile");
    expect(p.difference).toBeNull();
    // some bar closed one of two contracts in the middle of its script
    const before = p.interpret.series.before as ArrayLike<number>;
    const after = p.interpret.series.after as ArrayLike<number>;
    expect(Array.from(before).some((x, i) => x === 2 && after[i] === 1)).toBe(true);
    // read through the broker figure's own reader, not the shared getter
    const names = ["strategy.position_size", "strategy.opentrades", "strategy.equity", "strategy.netprofit"];
    expect(await getterCalls(names, () => new Runtime().run(src, bars, { mode: "interpret" }))).toBe(0);
  });
});
