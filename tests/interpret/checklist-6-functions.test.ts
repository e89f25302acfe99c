// language.md §6: functions and methods. Tests named "6.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, near, parseError, plots } from "./checklist-helpers.js";

const LIB = `//@version=6
library("Geo")
export type Pt
    float x = 0
    float y = 0
export enum Side
    long = "Long"
    short = "Short"
export method norm(Pt this) => math.sqrt(this.x * this.x + this.y * this.y)
export scale(Pt p, float k) => Pt.new(p.x * k, p.y * k)
export sign(Side s) => s == Side.long ? 1 : -1
`;
const libraries = [{ namespace: "user", name: "Geo", version: 1, source: LIB }];

describe("language.md §6 functions and methods", () => {
  it("6.01 Single-line function `f(x, y) => expr`", async () => {
    expect(await first(v6("f(x, y) => x * y\nplot(f(close, 2))"))).toEqual(closes.map((c) => c * 2));
  });
  it("6.02 Multi-line function body as an indented block; the last expression is the return value", async () => {
    expect(await first(v6("f(x) =>\n    a = x + 1\n    b = a * 2\n    b - 1\nplot(f(bar_index))"))).toEqual([
      1, 3, 5, 7, 9, 11,
    ]);
  });
  it("6.03 Returning a tuple `[a, b]`", async () => {
    const s = await plots(v6("f(x) =>\n    [x + 1, x * 2]\n[a, b] = f(bar_index)\nplot(a)\nplot(b)"));
    expect(s.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.plot_1).toEqual([0, 2, 4, 6, 8, 10]);
  });
  it("6.04 Default parameter values `f(x, len = 14) =>`; defaults must come last", async () => {
    expect(await first(v6("f(x, len = 14) => x + len\nplot(f(1) * 100 + f(1, 2))"))).toEqual(fill(1503));
    await checkError(
      v6("f(a = 1, b) => a + b\nplot(f(1, 2))"),
      /Parameter 'b' of 'f' needs a default value: parameters with defaults must come last/,
      3,
      10,
    );
  });
  it("6.05 Typed and qualified params: `f(series float src, simple int len) =>`", async () => {
    const s = await plots(v6("f(series float src, simple int len) => ta.sma(src, len)\nplot(f(close, 2))"));
    near(
      s.plot_0!,
      closes.map((c, i) => (i === 0 ? null : (c + closes[i - 1]!) / 2)),
    );
    await checkError(
      v6("f(series float src, simple int len) => src * len\nplot(f(close, bar_index))"),
      /argument 'len'=series int: expected simple int/,
      4,
    );
    await checkError(v6("f(int x) => x\nplot(f('a'))"), /No overload of 'f'|Cannot call 'f'/, 4);
  });
  it("6.06 Named arguments at call sites: `ta.sma(source = close, length = 14)`; positional arguments must come before named ones", async () => {
    const s = await plots(v6("plot(ta.sma(length = 2, source = close))\nf(a, b) => a - b\nplot(f(b = 1, a = 10))"));
    near(
      s.plot_0!,
      closes.map((c, i) => (i === 0 ? null : (c + closes[i - 1]!) / 2)),
    );
    expect(s.plot_1).toEqual(fill(9));
    await checkError(
      v6("plot(ta.sma(source = close, 2))"),
      /Positional arguments of 'ta.sma' must come before named ones/,
      3,
      13,
    );
    await checkError(
      v6("f(a, b) => a - b\nplot(f(a = 1, 2))"),
      /Positional arguments of 'f' must come before named ones/,
      4,
    );
  });
  it("6.06 arguments are evaluated in the order written, not in parameter order (user and builtin calls)", async () => {
    const src = v6(
      "var log = array.new<int>()\ng(int k) =>\n    log.push(k)\n    k\nf(a, b) => a * 10 + b\nx = f(b = g(1), a = g(2))\ny = str.tostring(format = str.tostring(g(3)), value = g(4))\nplot(x)\nplot(log.get(0) * 1000 + log.get(1) * 100 + log.get(2) * 10 + log.get(3))",
    );
    const s = await plots(src);
    expect(s.plot_0).toEqual(fill(21));
    expect(s.plot_1).toEqual(fill(1234));
    // the compile backend takes the script (not a fallback) and agrees
    const c = await new Runtime("CHART").run(src, data, { mode: "compile" });
    expect(c.mode).toBe("compile");
    expect(c.series.plot_1).toEqual(fill(1234));
  });
  it("6.07 [v6] Passing the same parameter twice is a compile error", async () => {
    await checkError(
      v6("plot(close, title = 'a', title = 'b')"),
      /Argument 'title' of 'plot' is given more than once/,
      3,
      26,
    );
    await checkError(v6("f(a, b) => a\nplot(f(1, b = 2, b = 3))"), /Argument 'b' of 'f' is given more than once/, 4);
  });
  it("6.08 User function overloads: same name, different parameter types or counts", async () => {
    expect(
      await first(
        v6(
          "g(int x) => 1\ng(float x) => 2\ng(string x) => 3\ng(int x, int y) => 4\nplot(g(1) * 1000 + g(1.5) * 100 + g('a') * 10 + g(1, 2))",
        ),
      ),
    ).toEqual(fill(1234));
    await checkError(v6("g(int x) => 1\ng(int x) => 2\nplot(g(1))"), /already declared with these parameters/, 4);
  });
  it("6.09 Functions may only be defined at global scope; no nested definitions", async () => {
    await parseError(
      v6("f() =>\n    g() => 1\n    g()\nplot(f())"),
      /Functions can only be declared at the top level/,
      4,
      5,
    );
  });
  it("6.10 No recursion, including indirect recursion", async () => {
    await checkError(v6("f(x) => f(x)\nplot(f(1))"), /Recursive call of 'f' is not allowed/, 3);
    await checkError(v6("f(x) => g(x)\ng(x) => f(x)\nplot(f(1))"), /Recursive call of .f. is not allowed/, 4);
  });
  it("6.11 Function-call-site state isolation: each call site keeps its own history buffers and `var` storage, ta.* inside functions too", async () => {
    const s = await plots(
      v6(
        "f() =>\n    var n = 0\n    n += 1\n    n\ng(src) => ta.cum(src)\nh(x) => x[1]\na = f()\nb = f()\nplot(a + b * 100)\nplot(g(1) * 100 + g(2))\nplot(nz(h(close)) + nz(h(close * 2)))",
      ),
    );
    expect(s.plot_0).toEqual([101, 202, 303, 404, 505, 606]);
    expect(s.plot_1).toEqual([102, 204, 306, 408, 510, 612]);
    expect(s.plot_2).toEqual([0, ...closes.slice(0, -1).map((c) => c * 3)]);
  });
  it("6.12 Side effects from inside functions: plots are not allowed in local scopes; label/line drawing is allowed", async () => {
    await checkError(v6("f() =>\n    plot(close)\n    1\nf()"), /Cannot use 'plot' in local scope/, 4, 5);
    const r = await runBoth(
      v6(
        "f() =>\n    label.new(bar_index, close, 'x')\n    line.new(bar_index, close, bar_index + 1, close)\n    1\nplot(f())",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.drawings.filter((d) => d.type === "label").length).toBe(data.length);
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(data.length);
  });
  it("6.13 `method` keyword: user methods whose first param is typed, e.g. `method m(MyType this, ...)`", async () => {
    expect(
      await first(
        v6(
          "type C\n    int n = 0\nmethod add(C this, int k) =>\n    this.n += k\n    this.n\nvar c = C.new()\nplot(c.add(2))",
        ),
      ),
    ).toEqual([2, 4, 6, 8, 10, 12]);
    await checkError(v6("method m(x) => x\nplot(close)"), /The first parameter of method .m. needs a type/, 3, 10);
  });
  it("6.14 Method call syntax `obj.m(...)`, with `this` as an ordinary name (any name works; a method is also a function)", async () => {
    const s = await plots(
      v6(
        "type C\n    int n = 5\nmethod twice(C self) => self.n * 2\nmethod dbl(float this) => this * 2\nc = C.new()\nthis = 1.5\nplot(c.twice() + twice(c))\nplot(this.dbl() + close.dbl())",
      ),
    );
    expect(s.plot_0).toEqual(fill(20));
    expect(s.plot_1).toEqual(closes.map((x) => 3 + x * 2));
  });
  it("6.15 Built-in method syntax on collections and drawings: `arr.push(x)`, `m.get(k)`, `ln.set_x2(...)`, `mat.row(0)`", async () => {
    const r = await runBoth(
      v6(
        "arr = array.new<float>()\narr.push(close)\nk = map.new<string, float>()\nk.put('a', 2)\nmat = matrix.new<float>(2, 2, 3)\nvar ln = line.new(0, 1, 1, 1)\nln.set_x2(bar_index + 5)\nplot(arr.get(0) + k.get('a') + mat.row(0).sum() + ln.get_x2())",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(closes.map((c, i) => c + 2 + 6 + i + 5));
  });
  it("6.16 `export` of functions, methods, types and enums from libraries", async () => {
    const r = await runBoth(
      v6(
        "import user/Geo/1 as geo\np = geo.Pt.new(3, 4)\nq = geo.scale(p, 2)\nplot(p.norm() + q.norm() * 10 + geo.sign(geo.Side.short))",
      ),
      data,
      { libraries },
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(fill(5 + 100 - 1));
  });
  it("6.17 Exported functions must have fully typed params", async () => {
    await checkError(
      v6("export f(x) => x\nplot(close)", "library('L')"),
      /Parameter 'x' of exported function 'f' needs a type/,
      3,
      10,
    );
  });
  it("6.18 `import user/libname/version as alias`, then `alias.func()` and `alias.Type.new()`", async () => {
    const r = await runBoth(v6("import user/Geo/1 as g\nplot(g.Pt.new(6, 8).norm())"), data, { libraries });
    expect(r.series.plot_0).toEqual(fill(10));
    const bad = await runBoth(v6("import user/Nope/1 as n\nplot(close)"), data, { libraries });
    expect(bad.error_kind).toBe("check");
    expect(bad.error).toMatch(/Nope/);
  });
  it("6.07 in v5 a duplicated argument of a builtin compiles and the first value is used", async () => {
    // v6 migration guide, "Cannot repeat parameters": in v5 it "raises a compiler warning, and only the
    // first value will be used" (`resin check` shows the warning)
    const r = await runBoth(v5("plot(close, title = 'a', title = 'b')"), data);
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series)).toEqual(["a"]);
  });
});
