// Checker rules settled by the third real-world round (tests/realworld/scripts/r3_*, Pine v5 as
// published): clear check errors with positions where scripts used to fail unclearly or at runtime.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(5);

describe("tuples in ternaries", () => {
  // User manual, "Tuples": local blocks of if/switch can return tuples; a ternary's values are not
  // local blocks, so `[v1, v2] = close > open ? [high, close] : [close, low]` is not allowed.
  it("a tuple in either branch of a ternary is a check error at the tuple, naming the if/switch form", async () => {
    for (const [expr, col] of [
      ["close > open ? [high, low] : [0.0, 0.0]", 25],
      ["close > open ? high : [0.0, 0.0]", 32],
      ["close > open ? [high, low] : close < open ? [low, high] : [0.0, 0.0]", 25],
    ] as const) {
      const src = `//@version=5\nindicator('t')\n[a, b] = ${expr}\nplot(a)\n`;
      const r = await runBoth(src, data);
      expect(r.error_kind).toBe("check");
      expect(r.error).toContain("A ternary cannot return a tuple");
      expect(r.error).toContain("if or switch");
      expect(r.diagnostics?.[0]).toMatchObject({ line: 3, column: col });
    }
  });
  it("the if and switch forms of the manual return tuples", async () => {
    const src =
      "//@version=5\nindicator('t')\n[v1, v2] = if close > open\n    [high, close]\nelse\n    [close, low]\n" +
      "[w1, w2] = switch\n    close > open => [high, close]\n    =>              [close, low]\nplot(v1, 'v1')\nplot(v2, 'v2')\nplot(w1, 'w1')\nplot(w2, 'w2')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["v1"]).toEqual(data.map((b) => (b.close > b.open ? b.high : b.close)));
    expect(r.series["v2"]).toEqual(data.map((b) => (b.close > b.open ? b.close : b.low)));
    expect(r.series["w1"]).toEqual(r.series["v1"]);
    expect(r.series["w2"]).toEqual(r.series["v2"]);
  });
});

describe("strategy.* calls in an indicator() script", () => {
  it("are a check error at the call, not a runtime error on the first bar that reaches them", async () => {
    const src =
      "//@version=5\nindicator('t')\nx = ta.sma(close, 3)\nif close > x\n    strategy.entry('L', strategy.long)\nplot(x)\n";
    const r = await runBoth(src, data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toBe(
      "'strategy.entry' can only be used in a strategy() script, and this script is declared with indicator()",
    );
    expect(r.diagnostics?.[0]).toMatchObject({ line: 5, column: 5 });
  });
  it("v5 when= calls and calls inside a user function are caught too", async () => {
    for (const body of [
      "strategy.close_all(when = close > open)",
      "f() =>\n    strategy.exit('x', 'L', profit = 10)\nf()",
    ]) {
      const r = await runBoth(`//@version=5\nindicator('t')\n${body}\nplot(close)\n`, data);
      expect(r.error_kind).toBe("check");
      expect(r.error).toMatch(/^'strategy\.(close_all|exit)' can only be used in a strategy\(\) script/);
    }
  });
  it("a declaration after global constants still counts, and strategies keep their calls", async () => {
    const ind = await runBoth(
      "//@version=6\nconst string T = 'x'\nindicator(T)\nstrategy.entry('L', strategy.long)\nplot(close)\n",
      data,
    );
    expect(ind.error_kind).toBe("check");
    const strat = await runBoth(
      "//@version=5\nstrategy('s')\nstrategy.entry('L', strategy.long, when = bar_index == 1)\nplot(close)\n",
      data,
    );
    expect(strat.error).toBeUndefined();
    expect(strat.strategy?.open_trades.length).toBe(1);
  });
});

describe("tuple-valued if without else, switch without default", () => {
  // Both used to crash at runtime ("TypeError: Cannot read properties of null (reading '0')") on
  // the first bar where no block ran; like a scalar if/switch they give na there.
  it("if without else: na items on the bars where the block does not run", async () => {
    const src =
      "//@version=5\nindicator('t')\n[c, d] = if close > open\n    [close, bar_index]\nplot(c, 'c')\nplot(d, 'd')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(data.map((b) => (b.close > b.open ? b.close : null)));
    expect(r.series["d"]).toEqual(data.map((b, i) => (b.close > b.open ? i : null)));
  });
  it("switch without a default, with and without a subject; string and bool items get their na", async () => {
    const src =
      "//@version=5\nindicator('t')\n[c, s, b] = switch\n    close > open => [close, 'up', true]\n" +
      "x = bar_index\n[e, f] = switch x\n    1 => [open, 1]\n    3 => [high, 3]\n" +
      "plot(c, 'c')\nplot(na(s) ? 0 : 1, 's')\nplot(b ? 1 : 0, 'b')\nplot(e, 'e')\nplot(f, 'f')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(data.map((q) => (q.close > q.open ? q.close : null)));
    expect(r.series["s"]).toEqual(data.map((q) => (q.close > q.open ? 1 : 0)));
    expect(r.series["b"]).toEqual(data.map((q) => (q.close > q.open ? 1 : 0)));
    expect(r.series["e"]).toEqual(data.map((q, i) => (i === 1 ? q.open : i === 3 ? q.high : null)));
    expect(r.series["f"]).toEqual(data.map((_, i) => (i === 1 || i === 3 ? i : null)));
  });
  // A loop that runs zero times yields na: the backends' tuple declaration gives each variable its na
  it("a tuple-valued while loop with zero iterations gives na items", async () => {
    const src =
      "//@version=6\nindicator('t')\ni = 0\n[c, d] = while i < (close > open ? 1 : 0)\n    i += 1\n    [close, i]\nplot(c, 'c')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(data.map((b) => (b.close > b.open ? b.close : null)));
  });
});
