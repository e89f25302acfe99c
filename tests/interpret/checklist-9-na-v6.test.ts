// language.md §9: na semantics and the v6 value rules (v5 behaviour tested alongside where it differs).
// Tests named "9.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v5, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, plots } from "./checklist-helpers.js";

const feed = { A: data.map((b) => ({ ...b, close: 1000 + b.close })), B: data.map((b) => ({ ...b, close: 2000 })) };

describe("language.md §9 na semantics and v6 value rules", () => {
  it("9.01 Arithmetic with `na` gives `na`", async () => {
    const s = await plots(v6("float x = na\nint i = na\nplot(x + 1)\nplot(i * 2)\nplot(-x)\nplot(math.max(x, 1) + x)"));
    for (const k of ["plot_0", "plot_1", "plot_2", "plot_3"]) expect(s[k]).toEqual(fill(null));
  });
  it("9.02 Comparisons with `na` give false", async () => {
    expect(
      await first(
        v6("float x = na\nplot((x > 1 ? 1 : 0) + (x < 1 ? 10 : 0) + (x == x ? 100 : 0) + (x >= 1 ? 1000 : 0))"),
      ),
    ).toEqual(fill(0));
  });
  it("9.03 `x == na` is not a test (never true); use `na(x)`", async () => {
    const s = await plots(v6("x = bar_index % 2 == 0 ? close : na\nplot(x == na ? 1 : 0)\nplot(na(x) ? 1 : 0)"));
    expect(s.plot_0).toEqual(fill(0));
    expect(s.plot_1).toEqual([0, 1, 0, 1, 0, 1]);
  });
  it("9.04 `nz(x, repl)` and `fixnan(x)` (float/int/color/string)", async () => {
    const s = await plots(
      v6(
        "x = bar_index % 2 == 0 ? close : na\nplot(nz(x))\nplot(nz(x, -1))\nplot(fixnan(x))\ns = nz(string(na), 'zz')\nc = nz(color(na), color.blue)\nplot(str.length(s) + color.b(c))\nint i = bar_index == 1 ? na : bar_index\nplot(fixnan(i))",
      ),
    );
    expect(s.plot_0).toEqual(closes.map((c, i) => (i % 2 ? 0 : c)));
    expect(s.plot_1).toEqual(closes.map((c, i) => (i % 2 ? -1 : c)));
    expect(s.plot_2).toEqual(closes.map((c, i) => (i % 2 ? closes[i - 1] : c)));
    expect(s.plot_3).toEqual(fill(2 + 0xff));
    expect(s.plot_4).toEqual([0, 0, 2, 3, 4, 5]);
  });
  it("9.05 [v6] bool is never `na`: an uninitialised bool is `false`; bool history before the first bar is `false`; `na()`/`nz()`/`fixnan()` reject bool", async () => {
    const s = await plots(v6("bool b = na\nc = close > 0\nplot(b ? 1 : 0)\nplot(c[1] ? 1 : 0)"));
    expect(s.plot_0).toEqual(fill(0));
    expect(s.plot_1).toEqual([0, 1, 1, 1, 1, 1]);
    await checkError(v6("b = close > open\nplot(na(b) ? 1 : 0)"), /bool/, 4);
    await checkError(v6("b = close > open\nplot(nz(b) ? 1 : 0)"), /bool/, 4);
    await checkError(v6("b = close > open\nplot(fixnan(b) ? 1 : 0)"), /bool/, 4);
  });
  it("9.05 in v5 a bool can be na and na() accepts it", async () => {
    expect(await first(v5("b = close > open\nplot(na(b) ? 1 : 0)"))).toEqual(fill(0));
  });
  it("9.06 [v6] Conditions in `if`, `while` and `?:` must be bool; no numeric truthiness (v5 accepts numbers)", async () => {
    await checkError(v6("x = 1\nplot(x ? 1 : 0)"), /must be bool/, 4);
    await checkError(v6("y = 0\nif bar_index\n    y := 1\nplot(y)"), /must be bool/, 4);
    await checkError(v6("i = 3\nwhile i\n    i -= 1\nplot(i)"), /must be bool/, 4);
    expect(await first(v5("y = 0\nif bar_index\n    y := 1\nplot(y)"))).toEqual([0, 1, 1, 1, 1, 1]);
  });
  it("9.07 [v6] `const int / const int` gives a fractional result (`5/2 = 2.5`); v5 truncated const/const and kept the fraction otherwise", async () => {
    const s6 = await plots(v6("plot(5 / 2)\nplot(int(5 / 2))\nplot(math.floor(-5 / 2))\nplot(bar_index / 2)"));
    expect(s6.plot_0).toEqual(fill(2.5));
    expect(s6.plot_1).toEqual(fill(2));
    expect(s6.plot_2).toEqual(fill(-3));
    expect(s6.plot_3).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    const s5 = await plots(v5("plot(5 / 2)\nplot(-7 / 2)\nplot(bar_index / 2)\nn = input.int(5)\nplot(n / 2)"));
    expect(s5.plot_0).toEqual(fill(2));
    expect(s5.plot_1).toEqual(fill(-3));
    expect(s5.plot_2).toEqual([0, 0.5, 1, 1.5, 2, 2.5]);
    expect(s5.plot_3).toEqual(fill(2.5));
  });
  it("9.08 `%` on floats: the remainder keeps the sign of the dividend ([verify]: resin uses truncated division like JavaScript)", async () => {
    const s = await plots(v6("plot(7.5 % 2)\nplot(-7.5 % 2)\nplot(-7 % 3)\nplot(7 % -3)\nplot(close % 0)"));
    expect(s.plot_0).toEqual(fill(1.5));
    expect(s.plot_1).toEqual(fill(-1.5));
    expect(s.plot_2).toEqual(fill(-1));
    expect(s.plot_3).toEqual(fill(1));
    expect(s.plot_4).toEqual(fill(null));
  });
  it('9.09 [v6] `timeframe.period` always includes the multiplier (`"1D"`, not `"D"`); v5 gives "D"', async () => {
    expect(await first(v6("plot(timeframe.period == '1D' ? 1 : 0)"), { runtime: { timeframe: "D" } })).toEqual(fill(1));
    expect(await first(v5("plot(timeframe.period == 'D' ? 1 : 0)"), { runtime: { timeframe: "D" } })).toEqual(fill(1));
  });
  it("9.10 [v6] The `transp` parameter is removed from plot/bgcolor/fill etc.", async () => {
    await checkError(v6("plot(close, transp = 50)"), /'plot' has no parameter 'transp'/, 3, 13);
    await checkError(v6("bgcolor(color.red, transp = 50)\nplot(close)"), /'bgcolor' has no parameter 'transp'/, 3);
  });
  it("9.10 in v5 `transp` is still a parameter of plot/bgcolor/fill (applied like color.new(c, transp))", async () => {
    const r = await runBoth(v5("plot(close, transp = 50)\nbgcolor(color.red, transp = 80)"), data);
    expect(r.error).toBeUndefined();
    // plot's default blue at transparency 50 (alpha 128), v5's red #FF5252 at 80 (alpha 51)
    expect(Object.values(r.plot_meta).map((m) => m.color)).toEqual(["#2962FF80", "#FF525233"]);
  });
  it("9.11 [v6] `offset` in `plot*()` no longer accepts series", async () => {
    await checkError(v6("plot(close, offset = bar_index)"), /argument 'offset'=series int: expected simple int/, 3, 13);
    await checkError(v6("plotshape(true, offset = bar_index)"), /argument 'offset'=series int: expected simple int/, 3);
    expect((await runBoth(v6("plot(close, offset = 2)"), data)).error).toBeUndefined();
  });
  it("9.11 in v5 `offset` accepts a series int", async () => {
    const r = await runBoth(v5("plot(close, offset = bar_index % 2)"), data);
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(closes);
  });
  it("9.12 [v6] Some default colours changed (e.g. `color.red` = #F23645)", async () => {
    const s = await plots(
      v6(
        "plot(color.r(color.red) * 1000000 + color.g(color.red) * 1000 + color.b(color.red))\nplot(color.r(color.teal) * 1000000 + color.g(color.teal) * 1000 + color.b(color.teal))",
      ),
    );
    expect(s.plot_0).toEqual(fill(0xf2 * 1e6 + 0x36 * 1e3 + 0x45));
    expect(s.plot_1).toEqual(fill(0x08 * 1e6 + 0x99 * 1e3 + 0x81));
  });
  it("9.13 [v6] `when=` is removed from `strategy.*` (v5 still honours it)", async () => {
    await checkError(
      v6("strategy.entry('L', strategy.long, when = bar_index == 1)\nplot(close)", "strategy('s')"),
      /The 'when' parameter was removed in v6/,
      3,
      36,
    );
    expect(
      await first(
        v5("strategy.entry('L', strategy.long, when = bar_index == 1)\nplot(strategy.position_size)", "strategy('s')"),
      ),
    ).toEqual([0, 0, 1, 1, 1, 1]);
  });
  it("9.14 [v6] Default `margin_long` and `margin_short` are 100: a position worth more than the equity is not opened (v5 default 0 opens it)", async () => {
    const body = "if bar_index == 0\n    strategy.entry('L', strategy.long)\nplot(strategy.position_size)";
    const decl = "strategy('s', initial_capital = 1000, default_qty_type = strategy.fixed, default_qty_value = 15)";
    expect(await first(v6(body, decl))).toEqual(fill(0));
    expect(await first(v5(body, decl))).toEqual([0, 15, 15, 15, 15, 15]);
    expect(await first(v6(body, decl.replace(")", ", margin_long = 50)")))).toEqual([0, 15, 15, 15, 15, 15]);
  });
  it("9.15 [v6] When the 9000-trade limit is exceeded, the oldest orders are trimmed instead of raising an error: 12,000 round trips keep the last 9000 trades, first_index moves, trimmed indexes read na, the statistics cover every trade", async () => {
    // an order on every bar reverses the position: the order of bar k fills at bar k + 1's open and
    // the next one closes it at bar k + 2's open, so n bars close n - 2 trades (long when k is even)
    const n = 12_002;
    const data12k = bars(n);
    const body = [
      "if bar_index % 2 == 0",
      "    strategy.entry('L', strategy.long)",
      "else",
      "    strategy.entry('S', strategy.short)",
      "fi = strategy.closedtrades.first_index",
      "plot(strategy.closedtrades, 'closed')",
      "plot(fi, 'first')",
      "plot(strategy.closedtrades.entry_bar_index(fi), 'first entry bar')",
      "plot(strategy.closedtrades.profit(fi), 'first profit')",
      "plot(strategy.closedtrades.entry_id(fi) == 'L' ? 1 : 0, 'first is long')",
      "plot(strategy.closedtrades.entry_bar_index(0), 'trade 0 entry bar')",
      "plot(strategy.closedtrades.entry_id(0) == 'L' ? 1 : 0, 'trade 0 is long')",
      "plot(strategy.closedtrades.exit_price(fi - 1), 'before first exit price')",
      "plot(strategy.closedtrades.exit_bar_index(strategy.closedtrades - 1), 'last exit bar')",
      "plot(strategy.netprofit, 'net')",
      "plot(strategy.wintrades + strategy.losstrades + strategy.eventrades, 'counted')",
    ].join("\n");
    const r = await runBoth(v6(body, "strategy('s')"), data12k);
    expect(r.error).toBeUndefined();
    const s = r.series;
    const last = n - 1;
    const open = data12k.map((b) => b.open);
    // trade k: long for even k, entry at bar k + 1's open, exit at bar k + 2's open
    const profit = (k: number) => (k % 2 === 0 ? 1 : -1) * (open[k + 2]! - open[k + 1]!);
    let net = 0;
    for (let k = 0; k < n - 2; k++) net += profit(k);
    // closed trades after bar i: i - 1 (from bar 2 on); the 9001st closes on bar 9002
    const closedAt = (i: number) => Math.max(0, i - 1);
    expect(s.closed![last]).toBe(12_000);
    expect(s.first!.slice(9000, 9004)).toEqual([0, 0, 1, 2]);
    expect(s.first![last]).toBe(3000);
    for (const i of [0, 5, 9001, 9002, 10_000, last])
      expect(s.first![i], `bar ${i}`).toBe(Math.max(0, closedAt(i) - 9000));
    expect(s["first entry bar"]![last]).toBe(3001);
    expect(s["first profit"]![last]).toBeCloseTo(profit(3000), 9);
    expect(s["first is long"]![last]).toBe(1);
    expect(s["trade 0 entry bar"]![9001]).toBe(1); // still listed before the limit
    expect(s["trade 0 entry bar"]![9002]).toBeNull(); // trimmed: na
    expect(s["trade 0 is long"]![9001]).toBe(1);
    expect(s["trade 0 is long"]![last]).toBe(0);
    expect(s["before first exit price"]![last]).toBeNull();
    expect(s["last exit bar"]![last]).toBe(last);
    expect(s.counted![last]).toBe(12_000);
    expect(s.net![last]).toBeCloseTo(net, 6);
    // the result lists the visible trades, numbered from the run's first trade; stats cover all 12,000
    const st = r.strategy!;
    expect(st.trades.length).toBe(9000);
    expect(st.trades[0]!.trade_num).toBe(3001);
    expect(st.trades[0]!.entry_bar_index).toBe(3001);
    expect(st.trades[8999]!.trade_num).toBe(12_000);
    expect(st.stats.total_closed_trades).toBe(12_000);
    expect(st.stats.net_profit).toBeCloseTo(net, 6);
    const wins = Array.from({ length: n - 2 }, (_, k) => profit(k)).filter((p) => p > 0).length;
    expect(st.stats.num_winning_trades).toBe(wins);
    expect(st.stats.percent_profitable).toBeCloseTo((wins / 12_000) * 100, 9);
  }, 120_000);
  it("9.15 in v5 the strategy stops with a runtime error when it closes more than 9000 trades", async () => {
    const body =
      "if bar_index % 2 == 0\n    strategy.entry('L', strategy.long)\nelse\n    strategy.entry('S', strategy.short)\nplot(strategy.closedtrades)";
    const r = await runBoth(v5(body, "strategy('s')"), bars(9010));
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/more than 9000 trades/);
    // the 9001st trade closes at the open of bar 9002
    expect(r.error_bar).toBe(9002);
    expect(r.series.plot_0![9001]).toBe(9000);
  }, 120_000);
  it("9.16 [v6] `strategy.exit` evaluates absolute and relative pairs together and uses whichever level triggers first (v5: the absolute one wins)", async () => {
    // entry on bar 1 at its open 101 (mintick 0.01): profit = 100 ticks is 102, limit = 200 never trades
    const body =
      "if bar_index == 0\n    strategy.entry('L', strategy.long)\nstrategy.exit('X', 'L', limit = 200, profit = 100)\nplot(strategy.position_size)\nplot(strategy.closedtrades > 0 ? strategy.closedtrades.exit_price(0) : na)";
    const s6 = await plots(v6(body, "strategy('s')"));
    expect(s6.plot_1).toEqual([null, 102, 102, 102, 102, 102]);
    const s5 = await plots(v5(body, "strategy('s')"));
    expect(s5.plot_0).toEqual([0, 1, 1, 1, 1, 1]);
    expect(s5.plot_1).toEqual(fill(null));
  });
  it("9.17 [v6] All `request.*()` calls are dynamic by default: series symbol arguments, calls inside loops and conditionals", async () => {
    const s = await plots(
      v6(
        "sym = bar_index % 2 == 0 ? 'A' : 'B'\nplot(request.security(sym, timeframe.period, close))\nt = 0.0\nfor i = 0 to 1\n    t += request.security(i == 0 ? 'A' : 'B', timeframe.period, close)\nplot(t)\nu = 0.0\nif bar_index > 2\n    u := request.security('A', timeframe.period, close)\nplot(u)",
      ),
      { dataFeed: feed },
    );
    expect(s.plot_0).toEqual(closes.map((c, i) => (i % 2 ? 2000 : 1000 + c)));
    expect(s.plot_1).toEqual(closes.map((c) => 3000 + c));
    expect(s.plot_2).toEqual(closes.map((c, i) => (i > 2 ? 1000 + c : 0)));
  });
  it("9.17 a request.security call inside a library function", async () => {
    const lib =
      "//@version=6\nlibrary('Req')\nexport other(string sym) => request.security(sym, timeframe.period, close)\n";
    const r = await runBoth(v6("import user/Req/1 as rq\nplot(rq.other('A'))"), data, {
      dataFeed: feed,
      libraries: [{ namespace: "user", name: "Req", version: 1, source: lib }],
    });
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(closes.map((c) => 1000 + c));
  });
});
