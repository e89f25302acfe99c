// Rules settled by the sixth real-world round (issue 17 part 2, tests/realworld/scripts/r6_*): scripts
// TradingView accepts that resin refused or ran wrong. Every case runs in both modes (runBoth).
import { describe, expect, it } from "vitest";
import { registry } from "../../src/builtins/index.js";
import { check } from "../../src/check/index.js";
import { parse } from "../../src/lang/index.js";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(8);

describe("array.every / array.some on numeric arrays", () => {
  // reference Remarks: "This function also works with arrays of int and float types, in which case zero
  // values are considered false, and all others true." builtins.json lists only array<bool>.
  it("accept array<int> and array<float>: zero is false, any other value true", async () => {
    const src =
      "//@version=6\nindicator('t')\nf = array.from(1.5, -2.0, 3.0)\ni = array.from(0, 0, 4)\nz = array.from(0.0, 0.0)\n" +
      "plot(f.every() ? 1 : 0, 'fe')\nplot(i.every() ? 1 : 0, 'ie')\nplot(i.some() ? 1 : 0, 'is')\n" +
      "plot(array.some(z) ? 1 : 0, 'zs')\nplot(array.every(array.from(true, false)) ? 1 : 0, 'be')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["fe"]).toEqual(data.map(() => 1));
    expect(r.series["ie"]).toEqual(data.map(() => 0));
    expect(r.series["is"]).toEqual(data.map(() => 1));
    expect(r.series["zs"]).toEqual(data.map(() => 0));
    expect(r.series["be"]).toEqual(data.map(() => 0));
  });
  it("still refuse an array of strings", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\ns = array.from('a')\nplot(s.every() ? 1 : 0)\n", data);
    expect(r.error).toMatch(/array\.every/);
  });
});

describe("the items of a tuple share one qualifier", () => {
  // User Manual, User-defined functions ("Functions that return multiple results"): "functions cannot
  // return multiple results with different type qualifiers ... If the tuple does not rely on a 'series'
  // value, all the items in the tuple typically inherit the 'simple' qualifier. Otherwise, all items
  // inherit the 'series' qualifier." resin made every destructured item series, so lengths taken from
  // a preset tuple were refused by ta.ema (simple int in v5 and v6).
  it("a tuple of input-derived values from a function, switch or if is simple", async () => {
    const src =
      "//@version=5\nindicator('t')\nlen = input.int(3)\npreset = input.string('A', options = ['A', 'B'])\n" +
      "lens() => [len, len * 2]\n[a, b] = lens()\n" +
      "[f, s] = switch preset\n    'A' => [2, 4]\n    => [5, 8]\n" +
      "[c, d] = if timeframe.isintraday\n    [len, len + 1]\nelse\n    [len + 2, len + 3]\n" +
      "plot(nz(ta.ema(close, a) - ta.ema(close, 3)), 'a')\nplot(nz(ta.ema(close, b) - ta.ema(close, 6)), 'b')\n" +
      "plot(nz(ta.ema(close, f) - ta.ema(close, 2)), 'f')\nplot(nz(ta.ema(close, d) - ta.ema(close, 4)), 'd')\n";
    const r = await runBoth(src, data, { runtime: { timeframe: "60" } });
    expect(r.error).toBeUndefined();
    for (const k of ["a", "b", "f", "d"]) expect(r.series[k]).toEqual(data.map(() => 0));
  });
  it("stays series when an item, a condition or a reassignment is series", async () => {
    const cases = [
      "f() => [len, close]\n[x, y] = f()\n",
      "[x, y] = if close > open\n    [len, 1]\nelse\n    [2, len]\n",
      "[x, y] = ta.macd(close, 12, 26, 9)\n",
      "f() => [len, 2]\n[x, y] = f()\nif close > open\n    x := 3\n",
    ];
    for (const body of cases) {
      const src = `//@version=6\nindicator('t')\nlen = input.int(3)\n${body.replace("[x, y] = ta.macd", "[x, y, _] = ta.macd")}plot(ta.ema(close, int(x)))\n`;
      const r = await runBoth(src, data);
      expect(r.error, body).toMatch(/length.*series/);
    }
  });
});

describe("declaration arguments from const expressions", () => {
  // indicator()/strategy() arguments must be const; a const ternary, comparison, `and`/`or` or
  // math.min/max of constants is const in TradingView (their reference returns list "const"), but
  // resin's declaration evaluator knew only literals, constants and arithmetic and refused them.
  it("accepts ternaries, comparisons, and/or and math.min/max of constants", async () => {
    const src =
      "//@version=6\nconst bool DARK = true\nconst string T = DARK ? 'Dark' : 'Light'\n" +
      "indicator('Theme ' + T, overlay = not DARK, precision = DARK ? 2 : 4, max_bars_back = math.max(100, 200), " +
      "format = DARK and 1 < 2 ? format.price : format.volume)\nplot(close[DARK ? 1 : 2], 'p')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.meta).toMatchObject({
      title: "Theme Dark",
      overlay: false,
      precision: 2,
      max_bars_back: 200,
      format: "price",
    });
    expect(r.series["p"]).toEqual(data.map((_, i) => (i >= 1 ? data[i - 1]!.close : null)));
  });
  it("still refuses an input in a declaration", async () => {
    const r = await runBoth("//@version=6\nindicator('t', overlay = input.bool(true))\nplot(close)\n", data);
    expect(r.error).toMatch(/overlay.*constant/);
  });
});

describe("string + na", () => {
  // The v6 migration guide's v5 example: `labelText = "string literal"[20]` is na on the last bar and
  // "Label output will only show ', more text' in v5, since labelText is na": an na side of a string `+`
  // adds nothing. resin made the whole result na (a label's text vanished when one part was na).
  it("an na side adds nothing, in + and +=; na + na stays na", async () => {
    const src =
      "//@version=6\nindicator('t')\nstring s = na\nstring country = bar_index % 2 == 0 ? na : 'US'\n" +
      "a = 'x' + s\nb = s + 'y'\nc = 'Country: ' + country\nstring d = 'p'\nd += s\nd += 'q'\ne = s + s\n" +
      "plot(str.length(a), 'a')\nplot(str.length(b), 'b')\nplot(str.length(c), 'c')\nplot(str.length(d), 'd')\nplot(na(e) ? 1 : 0, 'e')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["a"]).toEqual(data.map(() => 1));
    expect(r.series["b"]).toEqual(data.map(() => 1));
    expect(r.series["c"]).toEqual(data.map((_, i) => (i % 2 === 0 ? 9 : 11)));
    expect(r.series["d"]).toEqual(data.map(() => 2));
    expect(r.series["e"]).toEqual(data.map(() => 1));
  });
  it("v5: the history of a string literal is na before the script's start and concatenates as nothing", async () => {
    const src = "//@version=5\nindicator('t')\nlbl = 'abc'[3] + ', tail'\nplot(str.length(lbl), 'n')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["n"]).toEqual(data.map((_, i) => (i < 3 ? 6 : 9)));
  });
});

describe("v5 repeated arguments", () => {
  // v6 migration guide, "Cannot repeat parameters": "In v5, you can specify the same parameter in a function
  // more than once. However, doing so raises a compiler warning, and only the first value will be used."
  // resin refused every repeat; v5 scripts with a doubled `color =` or `title =` ran on TradingView.
  it("v5: the first value is used, in builtin calls and the declaration", async () => {
    const src =
      "//@version=5\nindicator('t', overlay = true, overlay = false)\n" +
      "plot(close, 'c', color = color.blue, linewidth = 2, color = color.red, linewidth = 3)\n" +
      "plot(ta.sma(close, length = 2, length = 3), 's')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.meta).toMatchObject({ overlay: true });
    expect(r.plot_meta?.["c"]).toMatchObject({ color: "#2962FF", linewidth: 2 });
    expect(r.series["s"]![1]).toBe((data[0]!.close + data[1]!.close) / 2);
  });
  it("v5: the same for a user-defined function's named argument", async () => {
    const r = await runBoth(
      "//@version=5\nindicator('t')\nf(a, b) => a * 10 + b\nplot(f(1, b = 2, b = 3), 'f')\n",
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.series["f"]).toEqual(data.map(() => 12));
  });
  it("v5: `resin check` reports the repeat as a warning; v6 refuses it", async () => {
    const v5 = parse("//@version=5\nindicator('t')\nplot(close, color = color.blue, color = color.red)\n");
    const d = check(v5.ast, registry, [], { diagnosticsOnly: true }).diagnostics;
    expect(d).toEqual([expect.objectContaining({ severity: "warning", line: 3, column: 33 })]);
    const r = await runBoth("//@version=6\nindicator('t')\nplot(close, color = color.blue, color = color.red)\n", data);
    expect(r.error).toMatch(/given more than once/);
  });
});

describe("v5 mutable variables keep a non-series qualifier", () => {
  // v6 migration guide, "Mutable variables are always 'series'": "In Pine v5, some mutable variables are
  // qualified as 'series' values but are erroneously qualified as 'const'": `var seriesLen = 0`,
  // `seriesLen += 1`, `ta.ema(close, seriesLen)` compiles in v5 and "only its first recorded value 1 is used".
  it("v5: a reassigned variable declared from a non-series value is accepted as a simple length", async () => {
    const src =
      "//@version=5\nindicator('t')\nvar seriesLen = 0\nseriesLen += 1\nlen = input.int(3)\nif timeframe.isintraday\n    len := 4\n" +
      "plot(ta.ema(close, seriesLen) - close, 'e')\nplot(nz(ta.ema(close, len) - ta.ema(close, 3)), 'l')\n";
    const r = await runBoth(src, data, { runtime: { timeframe: "D" } });
    expect(r.error).toBeUndefined();
    // the first length (1) is the one used: the EMA is the close itself
    expect(r.series["e"]).toEqual(data.map(() => 0));
    expect(r.series["l"]).toEqual(data.map(() => 0));
  });
  it("v6 (and a series value in v5) stays series", async () => {
    for (const src of [
      "//@version=6\nindicator('t')\nvar n = 0\nn += 1\nplot(ta.ema(close, n))\n",
      "//@version=5\nindicator('t')\nn = bar_index\nn := n + 1\nplot(ta.ema(close, n))\n",
    ]) {
      const r = await runBoth(src, data);
      expect(r.error, src).toMatch(/length.*series/);
    }
  });
});

describe("fill() between hlines with a gradient", () => {
  // reference: "fill(hline1, hline2, top_value, bottom_value, top_color, bottom_color, title, display, fillgaps,
  // editable) → void"; builtins.json lists the gradient overload for plots only, so resin read `30` as the
  // `color` of the hline overload and refused the User Manual FAQ's own `fill(h2, h1, 30, 5, ...)`.
  it("accepts the hline gradient overload, positional and named", async () => {
    const src =
      "//@version=6\nindicator('t')\nh1 = hline(30, color = color(na)), h2 = hline(-30)\n" +
      "fill(h2, h1, 30, 5, color.new(color.red, 80), color(na))\n" +
      "fill(h1, h2, top_value = 0, bottom_value = -30, top_color = color(na), bottom_color = color.green, title = 'g')\n" +
      "plot(close, 'c')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(data.map((b) => b.close));
  });
});

describe("request.security: a failing statement the expression does not need", () => {
  // resin runs the whole script in the requested context; a runtime.error guard on the chart's timeframe
  // (the User Manual's repainting example: `if timeframe.in_seconds() > timeframe.in_seconds(tf)`) fired
  // there and the rest of every context bar was skipped, so a request site after it recorded nothing: the
  // requested series was na on every bar. Only the failing top-level statement is skipped now.
  it("skips the failing top-level statement and records the request sites after it", async () => {
    const src =
      "//@version=6\nindicator('t', overlay = true)\nstring tf = input.timeframe('240')\n" +
      "if timeframe.in_seconds() > timeframe.in_seconds(tf)\n    runtime.error('chart timeframe above ' + tf)\n" +
      "nr(sym, tf_, x) => request.security(sym, tf_, x[1], lookahead = barmerge.lookahead_on)\n" +
      "plot(nr(syminfo.tickerid, 'D', high), 'pdh')\n";
    const hourly = bars(60).map((b, i) => ({ ...b, time: Date.UTC(2024, 0, 1) + i * 3_600_000 }));
    const r = await runBoth(src, hourly, { runtime: { timeframe: "60" } });
    expect(r.error).toBeUndefined();
    // from the second day on, the previous day's high
    const day0High = Math.max(...hourly.slice(0, 24).map((b) => b.high));
    expect(r.series["pdh"]![30]).toBe(day0High);
  });
});
