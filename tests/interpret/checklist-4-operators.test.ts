// language.md §4: operators and expressions. Tests named "4.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { v5, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, near, parseError, plots, runtimeError } from "./checklist-helpers.js";

describe("language.md §4 operators and expressions", () => {
  it("4.01 Arithmetic `+ - * / %` and unary `+` / `-`", async () => {
    const s = await plots(v6("plot(7 + 2 - 3 * 2 + 9 / 2)\nplot(7 % 3 + -(2) + +1)\nplot(-close)"));
    expect(s.plot_0).toEqual(fill(7.5));
    expect(s.plot_1).toEqual(fill(0));
    expect(s.plot_2).toEqual(closes.map((c) => -c));
  });
  it("4.02 String `+` concatenation and `+=`", async () => {
    const s = await plots(
      v6(
        "s = 'a' + 'b'\ns += 'cd'\nplot(s == 'abcd' ? str.length(s) : -1)\nplot(str.length(str.tostring(bar_index) + 'x'))",
      ),
    );
    expect(s.plot_0).toEqual(fill(4));
    expect(s.plot_1).toEqual(fill(2));
  });
  it("4.03 Comparisons `== != < <= > >=`; strings compare with `==`", async () => {
    const src = v6(
      "a = bar_index\nplot((a == 2 ? 1 : 0) + (a != 2 ? 10 : 0) + (a < 2 ? 100 : 0) + (a <= 2 ? 1000 : 0) + (a > 2 ? 10000 : 0) + (a >= 2 ? 100000 : 0))\nplot('ab' == 'a' + 'b' ? 1 : 0)\nplot('ab' != 'ab' ? 1 : 0)",
    );
    const s = await plots(src);
    expect(s.plot_0).toEqual([1110, 1110, 101001, 110010, 110010, 110010]);
    expect(s.plot_1).toEqual(fill(1));
    expect(s.plot_2).toEqual(fill(0));
  });
  it("4.04 Logical `and`, `or`, `not`", async () => {
    const s = await plots(
      v6("a = bar_index % 2 == 0\nb = bar_index < 3\nplot(a and b ? 1 : 0)\nplot(a or b ? 1 : 0)\nplot(not a ? 1 : 0)"),
    );
    expect(s.plot_0).toEqual([1, 0, 1, 0, 0, 0]);
    expect(s.plot_1).toEqual([1, 1, 1, 0, 1, 0]);
    expect(s.plot_2).toEqual([0, 1, 0, 1, 0, 1]);
  });
  it("4.05 [v6] `and` and `or` short-circuit (lazy evaluation); v5 evaluates both operands", async () => {
    // f() records each evaluation in a global array (a method call, not a reassignment)
    const body =
      "var calls = array.new<int>()\nf() =>\n    calls.push(1)\n    true\na = bar_index % 2 == 0 and f()\nb = bar_index % 2 == 0 or f()\nplot(calls.size())";
    // and: runs on even bars; or: runs on odd bars -> one call a bar in v6, two in v5
    expect(await first(v6(body))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await first(v5(body))).toEqual([2, 4, 6, 8, 10, 12]);
  });
  it("4.05 [v6] a stateful `ta.*` call on the right of `and` only advances on the bars it runs", async () => {
    // ta.cum(1) counts its own evaluations: lazily it reaches 2 on bar 2 (bars 0 and 2), eagerly on bar 1
    const src = "x = bar_index % 2 == 0 and ta.cum(1) == 2\nplot(x ? 1 : 0)";
    expect(await first(v6(src))).toEqual([0, 0, 1, 0, 0, 0]);
    expect(await first(v5(src))).toEqual([0, 0, 0, 0, 0, 0]);
  });
  it("4.06 Ternary `cond ? a : b`, right-associative and nestable", async () => {
    expect(await first(v6("plot(bar_index == 0 ? 10 : bar_index == 1 ? 20 : bar_index == 2 ? 30 : 40)"))).toEqual([
      10, 20, 30, 40, 40, 40,
    ]);
    expect(await first(v6("plot((bar_index < 2 ? bar_index == 0 ? 1 : 2 : 3) * 10)"))).toEqual([
      10, 20, 30, 30, 30, 30,
    ]);
  });
  it("4.07 History operator `x[n]` on series variables, built-ins and expressions: `(a + b)[1]`, `f()[1]`, `close[1]`", async () => {
    const s = await plots(
      v6(
        "x = close * 2\nf() => close + 1\nplot(close[1])\nplot(x[2])\nplot((close + open)[1])\nplot(f()[1])\nplot(ta.sma(close, 1)[1])",
      ),
    );
    expect(s.plot_0).toEqual([null, ...closes.slice(0, -1)]);
    expect(s.plot_1).toEqual([null, null, ...closes.slice(0, -2).map((c) => c * 2)]);
    expect(s.plot_2).toEqual([null, ...data.slice(0, -1).map((d) => d.close + d.open)]);
    expect(s.plot_3).toEqual([null, ...closes.slice(0, -1).map((c) => c + 1)]);
    expect(s.plot_4).toEqual([null, ...closes.slice(0, -1)]);
  });
  it("4.08 `[]` also works on UDT objects and collection references (e.g. `obj[1]`)", async () => {
    const s = await plots(
      v6(
        "type P\n    float x\np = P.new(close)\nq = p[1]\nplot(na(q) ? -1 : q.x)\narr = array.from(close)\nprev = arr[1]\nplot(na(prev) ? -1 : prev.get(0))",
      ),
    );
    expect(s.plot_0).toEqual([-1, ...closes.slice(0, -1)]);
    expect(s.plot_1).toEqual([-1, ...closes.slice(0, -1)]);
  });
  it("4.09 [v6] No `[]` on literal values or constants", async () => {
    await checkError(v6("plot(1[1])"), /cannot be used on literal values/, 3, 6);
    await checkError(v6("plot(true[1] ? 1 : 0)"), /cannot be used on literal values/, 3, 6);
    await checkError(v6("plot(math.pi[1])"), /cannot be used on constants/, 3, 6);
  });
  it("4.09 in v5 `[]` on a literal is accepted (a series of the literal)", async () => {
    expect(await first(v5("plot(1[1])"))).toEqual([null, 1, 1, 1, 1, 1]);
  });
  it("4.10 [v6] No `[]` directly on UDT fields; write `(obj[1]).field` or assign the field to a variable first", async () => {
    await checkError(
      v6("type P\n    float x\np = P.new(close)\nplot(p.x[1])"),
      /\[\] cannot be applied to a UDT field directly/,
      6,
      6,
    );
    const s = await plots(
      v6("type P\n    float x\np = P.new(close)\nv = p.x\nplot(bar_index > 0 ? (p[1]).x : -1)\nplot(v[1])"),
    );
    expect(s.plot_0).toEqual([-1, ...closes.slice(0, -1)]);
    expect(s.plot_1).toEqual([null, ...closes.slice(0, -1)]);
  });
  it("4.10 in v5 `obj.field[1]` is accepted", async () => {
    expect(await first(v5("type P\n    float x\np = P.new(close)\nplot(p.x[1])"))).toEqual([
      null,
      ...closes.slice(0, -1),
    ]);
  });
  it("4.11 `[]` offset can be a series int; before the first bar it gives `na`", async () => {
    const s = await plots(v6("x = close\nplot(x[bar_index])\nplot(x[bar_index + 1])\nplot(close[bar_index % 2])"));
    expect(s.plot_0).toEqual(fill(closes[0]));
    expect(s.plot_1).toEqual(fill(null));
    expect(s.plot_2).toEqual(closes.map((c, i) => (i % 2 ? closes[i - 1] : c)));
  });
  it("4.11 a reference past the history buffer (max_bars_back) is a runtime error on that bar", async () => {
    const r = await runtimeError(
      v6("x = close\nk = bar_index\nplot(x[k])", "indicator('t', max_bars_back = 3)"),
      /The requested historical offset \(4\) is beyond the historical buffer's limit \(3\)/,
      4,
    );
    expect(r.series.plot_0).toEqual(fill(closes[0], 4));
  });
  it("4.12 Operator precedence: `[]` > unary > `* / %` > `+ -` > comparisons > `and` > `or` > `?:` (`not` binds like unary, compatibility.md)", async () => {
    const s = await plots(
      v6(
        "plot(2 + 3 * 4 - 10 / 5 % 3)\nplot(-2 * 3 + 1)\nplot(1 + 2 > 2 and 3 > 4 or 1 < 2 ? 1 : 0)\nt = true\nf = false\nplot(not t == f ? 1 : 0)\nplot(f and f or t ? 1 : 0)\nplot(t or f and f ? 1 : 0)\nplot(-close[1])",
      ),
    );
    expect(s.plot_0).toEqual(fill(12));
    expect(s.plot_1).toEqual(fill(-5));
    expect(s.plot_2).toEqual(fill(1));
    // (not t) == f  -> false == false -> true
    expect(s.plot_3).toEqual(fill(1));
    expect(s.plot_4).toEqual(fill(1));
    expect(s.plot_5).toEqual(fill(1));
    expect(s.plot_6).toEqual([null, ...closes.slice(0, -1).map((c) => -c)]);
  });
  it("4.13 Pine has no bitwise operators (`& | ^ ~ << >>`) [not-Pine]", async () => {
    await parseError(v6("plot(close & 1)"), /no bitwise operators \('&'\)/, 3, 12);
    await parseError(v6("plot(1 << 2)"), /no bitwise operators \('<<'\)/, 3, 8);
  });
});
