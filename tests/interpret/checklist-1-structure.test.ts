// language.md §1: versions, script structure, comments, annotations. One test (or more) per item,
// named "1.NN <the item>"; every script runs in interpret and compile (run-both).
import { describe, expect, it } from "vitest";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, N, parseError, plots } from "./checklist-helpers.js";

describe("language.md §1 versions, structure, comments", () => {
  it("1.01 `//@version=6` compiler annotation (also accept `//@version=5`); the annotation can appear anywhere", async () => {
    expect(await first(v6("plot(7 / 2)"))).toEqual(fill(3.5));
    expect(await first(v5("plot(7 / 2)"))).toEqual(fill(3));
    // not on line 1: after a comment line
    expect(await first("// header\n//@version=5\nindicator('t')\nplot(7 / 2)\n")).toEqual(fill(3));
  });
  it("1.01 without the annotation the script runs as v6 with warning P3001 (compatibility.md: TradingView's v1 is unsupported); v4 is an error", async () => {
    const r = await runBoth("indicator('t')\nplot(7 / 2)\n", data);
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(fill(3.5));
    await parseError("//@version=4\nstudy('x')\nplot(close)\n", /4 is not supported/, 1);
  });
  it("1.02 v5 vs v6 mode switch: the same script differs in int division and the for bound (bool na, lazy and/or, timeframe.period: §4, §9)", async () => {
    const body = "n = 3\ns = 0\nfor i = 1 to n\n    s += 1\n    n := 1\nplot(7 / 2)\nplot(s)";
    const a = await plots(v5(body)),
      b = await plots(v6(body));
    expect([a.plot_0![0], a.plot_1![0]]).toEqual([3, 3]);
    expect([b.plot_0![0], b.plot_1![0]]).toEqual([3.5, 1]);
  });
  it("1.03 Exactly one declaration statement per script: `indicator(...)`, `strategy(...)` or `library(...)`", async () => {
    await checkError("//@version=6\nplot(close)\n", /one indicator\(\), strategy\(\) or library\(\) declaration/, 1, 1);
    await checkError(
      "//@version=6\nindicator('a')\nstrategy('b')\nplot(close)\n",
      /only one declaration statement/,
      3,
      1,
    );
    for (const decl of ["indicator('a')", "strategy('a')", "library('a')"]) {
      expect((await runBoth(v6("plot(close)", decl), data)).error).toBeUndefined();
    }
  });
  it("1.04 `indicator()` params: title, shorttitle, overlay, format, precision, scale, max_bars_back, timeframe, timeframe_gaps, explicit_plot_zorder, max_*_count, calc_bars_count, dynamic_requests, behind_chart", async () => {
    const decl =
      "indicator(title = 'T', shorttitle = 'S', overlay = true, format = format.price, precision = 3, scale = scale.right, max_bars_back = 50, timeframe = '', timeframe_gaps = true, explicit_plot_zorder = true, max_lines_count = 10, max_labels_count = 11, max_boxes_count = 12, max_polylines_count = 13, calc_bars_count = 100, dynamic_requests = true, behind_chart = false)";
    const r = await runBoth(v6("plot(close)", decl), data);
    expect(r.error).toBeUndefined();
    expect(r.script_type).toBe("indicator");
    expect(r.script_name).toBe("T");
    expect(r.overlay).toBe(true);
    expect(r.meta).toMatchObject({
      shorttitle: "S",
      precision: 3,
      max_bars_back: 50,
      max_lines_count: 10,
      max_labels_count: 11,
      max_boxes_count: 12,
      max_polylines_count: 13,
      calc_bars_count: 100,
    });
    await checkError(v6("plot(close)", "indicator('t', foo = 1)"), /no parameter 'foo'/, 2);
  });
  it("1.05 `strategy()` params: initial_capital, default_qty_type/value, pyramiding, commission_*, slippage, process_orders_on_close, calc_on_every_tick, calc_on_order_fills, margin_long/short, close_entries_rule, use_bar_magnifier", async () => {
    const decl =
      "strategy('S', overlay = true, initial_capital = 5000, default_qty_type = strategy.fixed, default_qty_value = 2, pyramiding = 3, commission_type = strategy.commission.percent, commission_value = 0.1, slippage = 1, process_orders_on_close = true, calc_on_every_tick = false, calc_on_order_fills = false, margin_long = 100, margin_short = 100, close_entries_rule = 'FIFO', use_bar_magnifier = false, currency = currency.NONE, max_bars_back = 100, backtest_fill_limits_assumption = 0, risk_free_rate = 2, fill_orders_on_standard_ohlc = false)";
    const r = await runBoth(v6("plot(strategy.initial_capital)\nplot(strategy.equity)", decl), data);
    expect(r.error).toBeUndefined();
    expect(r.script_type).toBe("strategy");
    expect(r.series.plot_0).toEqual(fill(5000));
    expect(r.series.plot_1).toEqual(fill(5000));
  });
  it("1.06 `library(title, overlay, dynamic_requests)`: a library exports definitions and may plot to test them", async () => {
    const r = await runBoth(
      v6(
        "//@function doubles\nexport f(float x) => x * 2\nplot(f(close))",
        "library('L', overlay = true, dynamic_requests = true)",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.script_type).toBe("library");
    expect(r.series.plot_0).toEqual(closes.map((c) => c * 2));
  });
  it("1.07 Line comments `//`; block comments `/* */` and `# ...` are [not-Pine] parse errors", async () => {
    expect(await first(v6("// a comment\nx = 1 // trailing\nplot(x) // end"))).toEqual(fill(1));
    await parseError(v6("/* block */\nplot(close)"), /Block comments/, 3, 1);
    await parseError(v6("# hash\nplot(close)"), /'#' does not start a comment/, 3, 1);
  });
  it("1.08 Doc annotations: //@description, //@function, //@param, //@returns, //@type, //@field, //@enum, //@variable, //@strategy_alert_message are comments", async () => {
    const src =
      "//@version=6\n//@description d\nindicator('t')\n//@function f\n//@param x the x\n//@returns r\nf(x) => x\n//@type T\n//@field a fa\ntype T\n    int a\n//@enum E\n//@field b x\nenum E\n    b\n//@variable v\nv = f(1)\n//@strategy_alert_message hi\nplot(v)\n";
    expect(await first(src)).toEqual(fill(1));
  });
  it("1.09 Editor region markers `//#region` / `//#endregion` are plain comments", async () => {
    expect(await first(v6("//#region calc\nx = 2\n//#endregion\nplot(x)"))).toEqual(fill(2));
  });
  it("1.10 Indentation-based blocks: 4 spaces or 1 tab per level", async () => {
    expect(await first(v6("x = 0\nif close > 0\n    x := 1\n    if close > 1\n        x += 10\nplot(x)"))).toEqual(
      fill(11),
    );
    expect(await first(v6("x = 0\nif close > 0\n\tx := 1\n\tif close > 1\n\t\tx += 10\nplot(x)"))).toEqual(fill(11));
    await parseError(v6("x = 1\n    y = 2\nplot(x)"), /Unexpected indentation/, 4, 5);
  });
  it("1.11 Line wrapping: a continuation line may use any indentation that is not a multiple of 4", async () => {
    expect(await first(v6("x = 1 +\n  2 +\n     3\nplot(x)"))).toEqual(fill(6));
    expect(await first(v6("x = close > 0 ?\n 1 :\n   2\nplot(x)"))).toEqual(fill(1));
  });
  it("1.12 Line wrapping inside `( )`: any indentation is allowed, including multiples of 4", async () => {
    expect(await first(v6("x = math.max(1,\n    2,\n        3)\nplot(x)"))).toEqual(fill(3));
  });
  it("1.13 A literal string wrapped across lines adds one space per wrapped line", async () => {
    const s = await plots(v6("s = 'ab\n  cd\n   ef'\nplot(str.length(s))\nplot(s == 'ab cd ef' ? 1 : 0)"));
    expect(s.plot_0).toEqual(fill(8));
    expect(s.plot_1).toEqual(fill(1));
  });
  it("1.14 Identifiers: letters, digits and `_`; they cannot start with a digit; case-sensitive", async () => {
    expect(await first(v6("_a1 = 1\nA_1 = 2\na_1 = 3\nplot(_a1 * 100 + A_1 * 10 + a_1)"))).toEqual(fill(123));
    await parseError(v6("1a = 3\nplot(close)"), /Invalid number literal '1a'/, 3, 1);
  });
  it("1.15 Reserved keywords cannot be used as identifiers", async () => {
    await parseError(v6("if = 3\nplot(close)"), /'if' is a reserved keyword/, 3, 1);
    await parseError(v6("for = 3\nplot(close)"), /'for' is a reserved keyword/, 3, 1);
  });
  it("1.16 `_` as a discard placeholder in tuple destructuring, e.g. `[_, hist, _] = ta.macd(...)`", async () => {
    // ta.macd returns [macd, signal, histogram]: the middle name binds the signal line
    const s = await plots(
      v6("[_, mid, _] = ta.macd(close, 2, 3, 2)\n[m, sig, h] = ta.macd(close, 2, 3, 2)\nplot(mid)\nplot(sig)"),
    );
    expect(s.plot_0).toEqual(s.plot_1);
    expect(s.plot_0!.filter((x) => x !== null).length).toBe(N - 3);
  });
  it("1.17 Statements separated by newlines. Several statements on one line joined with `,`", async () => {
    expect(await first(v6("a = 1, b = 2, c = a + b\nplot(c)"))).toEqual(fill(3));
  });
});
