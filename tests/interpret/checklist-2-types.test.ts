// language.md §2: literals and types. Tests named "2.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, parseError, plots, runtimeErrorAt } from "./checklist-helpers.js";

describe("language.md §2 literals and types", () => {
  it("2.01 int literals (`42`) and float literals (`1.`, `.5`, `1.5e-3`)", async () => {
    expect(await first(v6("plot(42 + 1. + .5 + 1.5e-3 * 1000 + 2E2)"))).toEqual(fill(245));
  });
  it("2.01 [not-Pine] hex literals and `_` separators are parse errors", async () => {
    await parseError(v6("plot(0x10)"), /Hexadecimal literals are not supported/, 3, 6);
    await parseError(v6("plot(1_000)"), /Invalid number literal '1_000'/, 3, 6);
  });
  it("2.02 bool literals `true` / `false`", async () => {
    expect(await first(v6("b = true\nc = false\nplot(b and not c ? 1 : 0)"))).toEqual(fill(1));
  });
  it("2.03 Color literals `#RRGGBB` and `#RRGGBBAA`", async () => {
    const s = await plots(
      v6("plot(color.r(#1A2B3C) * 1000 + color.b(#1A2B3C))\nplot(color.t(#1A2B3C80))\nbgcolor(#FF000080)"),
    );
    expect(s.plot_0).toEqual(fill(26 * 1000 + 60));
    expect(s.plot_1![0] as number).toBeCloseTo(100 - (0x80 / 255) * 100, 0);
    expect(s.plot_2).toEqual(fill("#FF000080"));
  });
  it("2.04 String literals in `\"...\"` or `'...'`; triple-quoted strings are [not-Pine]", async () => {
    expect(await first(v6('plot("ab" == \'ab\' ? str.length("it\'s") : -1)'))).toEqual(fill(4));
    await parseError(v6('s = """abc"""\nplot(close)'), /Triple-quoted strings are not supported/, 3, 5);
  });
  it('2.05 String escapes `\\n`, `\\t`, `\\\\`, `\\\'`, `\\"`; a backslash before any other character leaves that character (`"\\T"` gives `T`)', async () => {
    const s = await plots(
      v6('s = "a\\nb\\tc\\\\d\\\'e\\"f"\nplot(str.length(s))\nplot("\\T" == "T" ? 1 : 0)\nplot(str.pos(s, "\\n"))'),
    );
    expect(s.plot_0).toEqual(fill(11));
    expect(s.plot_1).toEqual(fill(1));
    expect(s.plot_2).toEqual(fill(1));
  });
  it("2.06 Maximum string length is 40,960 characters: building a longer one is a runtime error", async () => {
    // the error names the length; position is the innermost statement's line, bar as usual
    const tooLong = (n: number) => new RegExp(`^String is too long: ${n} characters \\(the maximum is 40960\\)$`);
    await runtimeErrorAt(v6("s = str.repeat('a', 50000)\nplot(str.length(s))"), tooLong(50000), 0, 3, 1);
    // `+=` grows one character a bar: 40,959, 40,960, then the error on bar 2
    const r = await runtimeErrorAt(
      v6("var s = str.repeat('x', 40958)\nplot(0)\ns += 'y'\nplot(str.length(s))"),
      tooLong(40961),
      2,
      5,
      1,
    );
    expect(r.series.plot_1).toEqual([40959, 40960]);
    // `+` (inside a user function: the position of the function body's statement); an na side adds nothing
    // (the v6 migration guide's v5 example: na + ", more text" shows ", more text"), so na + 40,960 characters
    // is those characters
    await runtimeErrorAt(
      v6(
        "f(n) =>\n    str.repeat('a', 40000) + str.repeat('b', n)\nx = bar_index == 1 ? f(961) : ''\nplot(str.length(x))",
      ),
      tooLong(40961),
      1,
      4,
      5,
    );
    expect(await first(v6("string n = na\nplot(str.length(n + str.repeat('a', 40960)))"))).toEqual(fill(40960));
  });
  it("2.06 the other operations that build strings: str.repeat with a separator, str.replace_all, str.format, str.tostring, array.join", async () => {
    const tooLong = (n: number) => new RegExp(`^String is too long: ${n} characters`);
    await runtimeErrorAt(v6("plot(str.length(str.repeat('abc', 10241, ',')))"), tooLong(3 * 10241 + 10240), 0, 3, 1);
    await runtimeErrorAt(
      v6("s = str.repeat('a', 20481)\nplot(str.length(str.replace_all(s, 'a', 'bb')))"),
      tooLong(40962),
      0,
      4,
      1,
    );
    await runtimeErrorAt(
      v6("s = str.repeat('a', 20481)\nplot(str.length(str.format('{0}{0}', s)))"),
      tooLong(40962),
      0,
      4,
      1,
    );
    await runtimeErrorAt(
      v6("a = array.new<string>(2, str.repeat('a', 20480))\nplot(str.length(a.join(',')))"),
      tooLong(40961),
      0,
      4,
      1,
    );
    await runtimeErrorAt(
      v6("a = array.new<string>(2, str.repeat('a', 20480))\nplot(str.length(str.tostring(a)))"),
      tooLong(40964),
      0,
      4,
      1,
    );
    // exactly the maximum is allowed everywhere
    const ok = await plots(
      v6(
        "s = str.repeat('a', 20480)\nplot(str.length(s + s))\nplot(str.length(str.replace_all(s, 'a', 'bb')))\nplot(str.length(array.new<string>(2, s).join('')))",
      ),
    );
    expect([ok.plot_0![0], ok.plot_1![0], ok.plot_2![0]]).toEqual([40960, 40960, 40960]);
  });
  it("2.06 a string of exactly 40,960 characters is allowed", async () => {
    expect(await first(v6("s = str.repeat('a', 40960)\nplot(str.length(s))"))).toEqual(fill(40960));
  });
  it("2.07 `na` literal/constant. It is typeless until context gives it a type", async () => {
    await checkError(v6("x = na\nplot(x)"), /without a type/, 3, 5);
    const s = await plots(
      v6("float a = na\nb = bar_index > 2 ? 1.5 : na\nstring c = na\nplot(a)\nplot(b)\nplot(na(c) ? 1 : 0)"),
    );
    expect(s.plot_0).toEqual(fill(null));
    expect(s.plot_1).toEqual([null, null, null, 1.5, 1.5, 1.5]);
    expect(s.plot_2).toEqual(fill(1));
  });
  it("2.08 Fundamental types: int, float, bool, color, string", async () => {
    const s = await plots(
      v6(
        "int i = 3\nfloat f = 1.5\nbool b = true\ncolor c = color.red\nstring s = 'xy'\nplot(i + f + (b ? 1 : 0) + str.length(s) + color.r(c))",
      ),
    );
    expect(s.plot_0).toEqual(fill(3 + 1.5 + 1 + 2 + 0xf2));
  });
  it("2.09 Drawing/special types: line, label, box, table, linefill, polyline, chart.point", async () => {
    const src = v6(
      "line l = na\nlabel b = na\nbox x = na\ntable t = na\nlinefill lf = na\npolyline p = na\nchart.point cp = chart.point.from_index(bar_index, close)\nplot(na(l) and na(b) and na(x) and na(t) and na(lf) and na(p) ? cp.price : -1)",
    );
    expect(await first(src)).toEqual(closes);
  });
  it("2.09 footprint and volume_row types", async () => {
    expect(
      (await runBoth(v6("footprint f = na\nvolume_row v = na\nplot(na(f) and na(v) ? 1 : 0)"), data)).series.plot_0,
    ).toEqual(fill(1));
  });
  it("2.10 Return-only types: `plot`, `hline` (used by fill) and `void` (cannot be assigned)", async () => {
    const r = await runBoth(
      v6("p1 = plot(close)\np2 = plot(open)\nh1 = hline(100)\nh2 = hline(110)\nfill(p1, p2)\nfill(h1, h2)"),
      data,
    );
    expect(r.error).toBeUndefined();
    await checkError(
      v6("f() => label.delete(na)\nx = f()\nplot(close)"),
      /Cannot assign the result of a void expression to 'x'/,
      4,
      5,
    );
  });
  it("2.11 Type qualifiers const < input < simple < series; a result takes the strongest qualifier of its operands", async () => {
    // const + const stays const (a const string title); input into a simple parameter is fine
    const r = await runBoth(v6("len = input.int(2)\nplot(close, title = 'a' + 'b', offset = len)"), data);
    expect(r.error).toBeUndefined();
    expect(r.plot_meta.ab).toBeDefined();
    // const + series is series
    await checkError(
      v6("plot(close, title = 'a' + str.tostring(close))"),
      /argument 'title'=series string: expected const string/,
      3,
    );
    await checkError(
      v6("n = 1 + bar_index\nplot(close, offset = n)"),
      /argument 'offset'=series int: expected simple int/,
      4,
    );
  });
  it("2.12 Explicit qualifier keywords in declarations and params: `const`, `simple`, `series`", async () => {
    expect(
      await first(
        v6(
          "f(simple int len, series float src) => src * len\nconst int K = 2\nsimple float z = 1.5\nseries float s = close\nplot(f(K, s) + z)",
        ),
      ),
    ).toEqual(closes.map((c) => c * 2 + 1.5));
    await checkError(
      v6("f(simple int len) => len * 2\nplot(f(bar_index))"),
      /argument 'len'=series int: expected simple int/,
      4,
      6,
    );
    await checkError(
      v6("f(const string t) => t\nplot(close, title = f(str.tostring(close)))"),
      /expected const string/,
      4,
    );
  });
  it("2.12 Only non-exported function params may be `const`", async () => {
    await checkError(
      v6("export f(const int x) => x\nplot(close)", "library('L')"),
      /Parameter 'x' of exported function 'f' cannot be const/,
      3,
      10,
    );
    expect(await first(v6("f(const int x) => x * 2\nplot(f(3))", "library('L')"))).toEqual(fill(6));
  });
  it("2.13 Implicit int→float cast. There is no implicit float→int", async () => {
    expect(await first(v6("float x = 1\nx += bar_index\nplot(x / 2)"))).toEqual([0.5, 1, 1.5, 2, 2.5, 3]);
    await checkError(v6("int x = 1.5\nplot(x)"), /Cannot assign const float to variable 'x' of type int/, 3, 9);
    await checkError(v6("x = 1\nx := 1.5\nplot(x)"), /Cannot assign const float to 'x' of type int/, 4, 6);
  });
  it("2.14 [v6] No implicit int/float → bool cast; write `bool(x)`; v5 accepts numbers as conditions", async () => {
    await checkError(v6("x = bar_index % 2\nplot(x ? 1 : 0)"), /must be bool/, 4);
    expect(await first(v6("x = bar_index % 2\nplot(bool(x) ? 1 : 0)"))).toEqual([0, 1, 0, 1, 0, 1]);
    expect(await first(v5("x = bar_index % 2\nplot(x ? 1 : 0)"))).toEqual([0, 1, 0, 1, 0, 1]);
  });
  it("2.15 Explicit cast functions: `int()`, `float()`, `bool()`, `string()`, `color()`, `line()`, `label()`, `box()`, `table()`, `linefill()`", async () => {
    const s = await plots(
      v6(
        "plot(int(2.9) + int(-2.9) * 10 + float(3) / 2)\nplot(bool(0) ? 1 : bool(2) ? 2 : 3)\nsv = string(na)\ncv = color(na)\nl = line(na)\nlb = label(na)\nb = box(na)\nt = table(na)\nlf = linefill(na)\nplot(na(sv) and na(cv) and na(l) and na(lb) and na(b) and na(t) and na(lf) ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(fill(2 - 20 + 1.5));
    expect(s.plot_1).toEqual(fill(2));
    expect(s.plot_2).toEqual(fill(1));
  });
  it("2.16 Typed declarations: `float x = na`, `array<float> a = na`, `MyType t = na`", async () => {
    const s = await plots(
      v6(
        "type MyType\n    int n\nfloat x = na\narray<float> a = na\nMyType t = na\nplot(na(x) and na(a) and na(t) ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(fill(1));
  });
  it("2.17 Untyped declaration with inference: `x = 1.0` (the type sticks: a later string is an error)", async () => {
    expect(await first(v6("x = 1.0\nx := 2\nplot(x / 4)"))).toEqual(fill(0.5));
    await checkError(v6("x = 1.0\nx := 'a'\nplot(x)"), /Cannot assign/, 4, 6);
  });
  it("2.18 Template/generic types: `array<T>`, `matrix<T>`, `map<K,V>`", async () => {
    const src = v6(
      "array<int> a = array.from(1, 2)\nmatrix<float> m = matrix.new<float>(2, 2, 0.5)\nmap<string, float> k = map.new<string, float>()\nk.put('x', 4)\nplot(a.sum() + m.get(1, 1) + m.elements_count() + k.get('x'))",
    );
    expect(await first(src)).toEqual(fill(3 + 0.5 + 4 + 4));
  });
  it("2.19 Legacy array type syntax `float[]`", async () => {
    expect(
      await first(v6("float[] a = array.new_float(3, 1.5)\nint[] b = array.from(1, 2)\nplot(a.sum() + b.size())")),
    ).toEqual(fill(6.5));
  });
  it("2.20 Generic constructor calls: `array.new<float>(n, v)`, `matrix.new<int>(r, c, v)`, `map.new<string, float>()`", async () => {
    expect(
      await first(
        v6(
          "a = array.new<float>(2, 1.5)\nm = matrix.new<int>(2, 3, 1)\nk = map.new<string, float>()\nk.put('a', 1)\nplot(a.sum() * 100 + m.elements_count() * 10 + m.get(1, 2) + k.size())",
        ),
      ),
    ).toEqual(fill(362));
  });
  it("2.21 Typed specialisations `array.new_float()`, `array.new_int()`, etc.", async () => {
    const src = v6(
      "a = array.new_float(2, 0.5)\nb = array.new_int(3, 2)\nc = array.new_bool(1, true)\nd = array.new_string(2, 'x')\ne = array.new_color(1, color.red)\nf = array.new_line()\ng = array.new_label()\nh = array.new_box()\nplot(a.sum() + b.sum() * 10 + (c.get(0) ? 100 : 0) + d.size() * 1000 + e.size() * 10000 + f.size() + g.size() + h.size())",
    );
    expect(await first(src)).toEqual(fill(1 + 60 + 100 + 2000 + 10000));
  });
  it("2.22 Collections cannot contain collections directly; nest them through a UDT wrapper", async () => {
    await checkError(v6("array<array<float>> a = na\nplot(close)"), /Collections cannot contain collections/, 3);
    expect(
      await first(
        v6(
          "type Row\n    array<float> xs\nrows = array.new<Row>()\nrows.push(Row.new(array.from(1.0, 2.0)))\nrows.push(Row.new(array.from(3.0)))\nplot(rows.get(0).xs.sum() * 10 + rows.get(1).xs.sum())",
        ),
      ),
    ).toEqual(fill(33));
  });
  it("2.23 Map keys are restricted to fundamental types and enums", async () => {
    await checkError(v6("map<line, float> m = na\nplot(close)"), /Map keys/, 3);
    await checkError(v6("type T\n    int n\nm = map.new<T, int>()\nplot(close)"), /Map keys/, 5);
    expect(
      await first(
        v6(
          "enum E\n    a\nm1 = map.new<int, int>()\nm2 = map.new<bool, int>()\nm3 = map.new<color, int>()\nm4 = map.new<E, int>()\nm1.put(1, 1)\nm2.put(true, 2)\nm3.put(color.red, 3)\nm4.put(E.a, 4)\nplot(m1.get(1) + m2.get(true) + m3.get(color.red) + m4.get(E.a))",
        ),
      ),
    ).toEqual(fill(10));
  });
  it('2.24 [v6] `na` is not allowed in place of "unique" built-in constants (e.g. `plot.style_*`, `hline.style_*`; shape.* are const strings, where na is a string na)', async () => {
    await checkError(v6("plot(close, style = na)"), /na cannot be used for 'style'/, 3);
    await checkError(v6("hline(100, linestyle = na)\nplot(close)"), /na cannot be used for 'linestyle'/, 3);
  });
  it("2.24 in v5 `na` is still accepted for a unique constant", async () => {
    expect(await first(v5("plot(close, style = na)"))).toEqual(closes);
  });
  it('2.25 [v6] Mutable variables (`var x = 0; x += 1`) are "series", never "const"', async () => {
    await checkError(
      v6("var x = 2\nx += 1\nplot(close, offset = x)"),
      /argument 'offset'=series int: expected simple int/,
      5,
    );
    await checkError(
      v6("x = 2\nx := 3\nplot(close, offset = x)"),
      /argument 'offset'=series int: expected simple int/,
      5,
    );
    // never reassigned: stays const
    expect((await runBoth(v6("x = 2\nplot(close, offset = x)"), data)).error).toBeUndefined();
  });
});
