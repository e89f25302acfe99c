// language.md §3: variables and assignment. Tests named "3.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { runBoth, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, parseError, plots } from "./checklist-helpers.js";

const RT = { realtimeLastBar: true, realtimeTicks: 3 };

describe("language.md §3 variables and assignment", () => {
  it("3.01 Declaration `=`, reassignment `:=`, and compound `+=`, `-=`, `*=`, `/=`, `%=`", async () => {
    expect(await first(v6("x = 10.0\nx := x + 1\nx += 4\nx -= 3\nx *= 2\nx /= 4\nx %= 4\nplot(x)"))).toEqual(fill(2));
  });
  it("3.02 Redeclaring a name in the same scope is an error", async () => {
    await checkError(v6("x = 1\nx = 2\nplot(x)"), /Redeclaration of variable 'x'/, 4, 1);
    await checkError(v6("if close > 0\n    y = 1\n    y = 2\nplot(close)"), /Redeclaration of variable 'y'/, 5, 5);
  });
  it("3.03 `:=` on an undeclared name is an error", async () => {
    await checkError(v6("x := 1\nplot(close)"), /undeclared variable 'x'/, 3, 1);
  });
  it("3.04 Scopes: global plus nested local blocks; inner blocks read outer variables; a local name is not visible outside", async () => {
    expect(
      await first(v6("a = 2\nx = 0\nif close > 0\n    b = a * 3\n    if b > 0\n        x := a + b\nplot(x)")),
    ).toEqual(fill(8));
    await checkError(v6("if close > 0\n    y = 1\nplot(y)"), /Undeclared identifier 'y'/, 5, 6);
  });
  it("3.04 [verify] shadowing: TradingView warns ('Shadowing variable'), it does not refuse; the inner declaration is a new variable", async () => {
    // compatibility.md: language.md says "not allowed"; TradingView compiles it with a warning
    expect(await first(v6("x = 1\nif close > 0\n    x = 2\nplot(x)"))).toEqual(fill(1));
  });
  it("3.05 Functions can read global variables but cannot reassign them (or their own parameters) with `:=`", async () => {
    expect(await first(v6("g = 5\nf(x) => x + g\nplot(f(1))"))).toEqual(fill(6));
    await checkError(
      v6("g = 0\nf() =>\n    g := 1\n    g\nplot(f())"),
      /Cannot modify global variable 'g' in a function/,
      5,
      5,
    );
    await checkError(
      v6("f(x) =>\n    x := 2\n    x\nplot(f(1))"),
      /Cannot assign to 'x': function parameters and loop counters are read-only/,
      4,
      5,
    );
  });
  it("3.06 `var` declaration: initialised once (first bar, or the first time a local block is reached); keeps its value across bars", async () => {
    const s = await plots(
      v6(
        "var a = 0\na += 1\nb = 0\nif bar_index >= 3\n    var c = bar_index * 10\n    c += 1\n    b := c\nplot(a)\nplot(b)",
      ),
    );
    expect(s.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    // c is initialised when the block is first reached (bar 3), from that bar's bar_index
    expect(s.plot_1).toEqual([0, 0, 0, 31, 32, 33]);
  });
  it("3.07 `varip` declaration: like `var`, but also escapes rollback between realtime ticks", async () => {
    const src = v6("var int v = 0\nvarip int vp = 0\nv += 1\nvp += 1\nplot(v)\nplot(vp)");
    const hist = await plots(src);
    expect(hist.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(hist.plot_1).toEqual([1, 2, 3, 4, 5, 6]);
    // the last bar is realtime with 3 ticks: var is rolled back before each tick, varip counts all 3
    const rt = await plots(src, RT);
    expect(rt.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rt.plot_1).toEqual([1, 2, 3, 4, 5, 8]);
  });
  it("3.08 `varip` is allowed on UDT fields", async () => {
    const src = v6(
      "type T\n    varip int n = 0\n    int m = 0\nvar t = T.new()\nt.n += 1\nt.m += 1\nplot(t.n)\nplot(t.m)",
    );
    const hist = await plots(src);
    expect(hist.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(hist.plot_1).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it("3.08 a varip UDT field keeps every realtime tick while the plain field of the same var object rolls back", async () => {
    const rt = await plots(
      v6("type T\n    varip int n = 0\n    int m = 0\nvar t = T.new()\nt.n += 1\nt.m += 1\nplot(t.n)\nplot(t.m)"),
      RT,
    );
    expect(rt.plot_0).toEqual([1, 2, 3, 4, 5, 8]);
    expect(rt.plot_1).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it("3.09 Tuple declaration/destructuring: `[a, b] = f()` and `[a, b, c] = request.security(..., [x, y, z])`", async () => {
    const s = await plots(
      v6(
        "f() => [close, open]\n[a, b] = f()\n[x, y, z] = request.security(syminfo.tickerid, timeframe.period, [close, open, high])\nplot(a - b)\nplot(x)\nplot(y)\nplot(z)",
      ),
    );
    expect(s.plot_0).toEqual(data.map((d) => d.close - d.open));
    expect(s.plot_1).toEqual(closes);
    expect(s.plot_2).toEqual(data.map((d) => d.open));
    expect(s.plot_3).toEqual(data.map((d) => d.high));
  });
  it("3.10 Tuple reassignment `[a, b] := ...` is not allowed in Pine", async () => {
    await parseError(v6("[a, b] = [1, 2]\n[a, b] := [3, 4]\nplot(a)"), /Tuples cannot be reassigned with ':='/, 4, 1);
  });
  it("3.11 Exported library constants: `export const float X = ...`, only int/float/bool/color/string", async () => {
    const lib =
      "//@version=6\nlibrary('L')\nexport const float X = 1.5\nexport const string S = 'ab'\nexport const int I = 2\nexport const bool B = true\nexport const color C = #102030\n";
    const r = await runBoth(
      v6("import user/L/1 as l\nplot(l.X + l.I + str.length(l.S) + (l.B ? 10 : 0) + color.r(l.C))"),
      data,
      { libraries: [{ namespace: "user", name: "L", version: 1, source: lib }] },
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(fill(1.5 + 2 + 2 + 10 + 16));
    await checkError(
      v6("export const array<float> A = na\nplot(close)", "library('L')"),
      /Exported constant 'A' must be int, float, bool, color or string/,
      3,
      1,
    );
    await checkError(
      v6("export const float X = 1.5\nplot(close)"),
      /Exported constants are only allowed in libraries/,
      3,
      1,
    );
  });
});
