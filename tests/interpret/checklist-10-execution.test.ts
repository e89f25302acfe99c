// language.md §10: execution model and series. Tests named "10.NN <the item>", every script through
// run-both (options only the interpreter honours, such as realtime ticks, run interpret in both).
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import {
  checkError,
  closes,
  data,
  fill,
  first,
  near,
  plots,
  runtimeError,
  runtimeErrorAt,
} from "./checklist-helpers.js";

const RT = { realtimeBars: 2, realtimeTicks: 3 };
// bars on whole minutes, so 2-minute periods hold bars {0,1}, {2,3}, {4,5}
const T0 = 1_700_000_040_000;
const aligned = data.map((b, i) => ({ ...b, time: T0 + i * 60_000 }));
// bars whose open differs from the previous close (fills at the open and at the close are told apart)
// 2-minute chart bars over 1-minute intrabars (closes 500, 501, ...)
const chart2 = bars(3).map((b, i) => ({ ...b, time: T0 + i * 120_000 }));
const LTF = {
  runtime: { timeframe: "2" },
  dataFeed: { "CHART|1": bars(6).map((b, i) => ({ ...b, time: T0 + i * 60_000, close: 500 + i })) },
};
const gapped = data.map((b, i) => ({
  ...b,
  open: b.open + 0.25 * (i % 2 ? 1 : -1),
  high: b.high + 0.5,
  low: b.low - 0.5,
}));

describe("language.md §10 execution model and series", () => {
  it("10.01 The script runs once per bar, from the first historical bar to the last, then on every realtime tick", async () => {
    const src = v6("varip int runs = 0\nruns += 1\nplot(runs)\nplot(bar_index)");
    const h = await plots(src);
    expect(h.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(h.plot_1).toEqual([0, 1, 2, 3, 4, 5]);
    // the last two bars are realtime with 3 ticks each: 3 executions per bar
    expect((await plots(src, RT)).plot_0).toEqual([1, 2, 3, 4, 7, 10]);
  });
  it("10.02 Every variable is implicitly a series with a history buffer (globals, locals, function locals, strings, bools)", async () => {
    const s = await plots(
      v6(
        "a = close * 2\ns = str.tostring(bar_index)\nb = bar_index % 2 == 0\nf() =>\n    loc = close + 1\n    loc[1]\nplot(a[1])\nplot(s[1] == '' or na(s[1]) ? -1 : str.tonumber(s[1]))\nplot(b[1] ? 1 : 0)\nplot(f())",
      ),
    );
    expect(s.plot_0).toEqual([null, ...closes.slice(0, -1).map((c) => c * 2)]);
    expect(s.plot_1).toEqual([-1, 0, 1, 2, 3, 4]);
    expect(s.plot_2).toEqual([0, 1, 0, 1, 0, 1]);
    expect(s.plot_3).toEqual([null, ...closes.slice(0, -1).map((c) => c + 1)]);
  });
  it("10.03 `max_bars_back` sizing: automatic detection for constant and dynamic offsets; `max_bars_back=`; `max_bars_back(var, num)`", async () => {
    const long = bars(700);
    const auto = await plots(v6("x = close\ny = x[10]\nplot(x[bar_index])\nplot(y)"), {}, long);
    expect(auto.plot_0!.every((v) => v === long[0]!.close)).toBe(true);
    expect(auto.plot_1![699]).toBe(long[689]!.close);
    const fn = await plots(v6("x = close\nmax_bars_back(x, 600)\nplot(x[bar_index])"), {}, long);
    expect(fn.plot_0![699]).toBe(long[0]!.close);
    const decl = await plots(v6("x = close\nplot(x[bar_index])", "indicator('t', max_bars_back = 600)"), {}, long);
    expect(decl.plot_0![699]).toBe(long[0]!.close);
  });
  it("10.03 a dynamic reference past the declared buffer is a runtime error on that bar", async () => {
    await runtimeErrorAt(
      v6("x = close\nk = bar_index\nplot(x[k])", "indicator('t', max_bars_back = 3)"),
      /beyond the historical buffer's limit \(3\)/,
      4,
      5,
      1,
    );
  });
  it("10.04 `var` initialisation happens on the first bar, or the first time execution reaches a `var` inside a local block (or function call)", async () => {
    const s = await plots(
      v6(
        "var first = bar_index\nlate = 0\nif bar_index >= 2\n    var seen = bar_index\n    late := seen\ng() =>\n    var born = bar_index\n    born\nv = bar_index >= 4 ? g() : -1\nplot(first)\nplot(late)\nplot(v)",
      ),
    );
    expect(s.plot_0).toEqual(fill(0));
    expect(s.plot_1).toEqual([0, 0, 2, 2, 2, 2]);
    expect(s.plot_2).toEqual([-1, -1, -1, -1, 4, 4]);
  });
  it("10.05 Realtime rollback: before each new tick every non-`varip` variable (numbers, arrays, objects) is restored to its bar-close state", async () => {
    const s = await plots(
      v6(
        "type C\n    int n = 0\nvar int v = 0\nvar a = array.new<int>()\nvar c = C.new()\nv += 1\na.push(1)\nc.n += 1\nplot(v)\nplot(a.size())\nplot(c.n)",
      ),
      RT,
    );
    expect(s.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.plot_1).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.plot_2).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it("10.06 `varip` variables survive rollback", async () => {
    const s = await plots(v6("varip int n = 0\nvarip float last = na\nn += 1\nlast := close\nplot(n)"), RT);
    expect(s.plot_0).toEqual([1, 2, 3, 4, 7, 10]);
  });
  it("10.07 The state is committed at bar close (`barstate.isconfirmed`): only the last tick's values are kept", async () => {
    const s = await plots(
      v6(
        "var int closes = 0\nif barstate.isconfirmed\n    closes += 1\nvarip int confirmedTicks = 0\nif barstate.isconfirmed\n    confirmedTicks += 1\nplot(closes)\nplot(confirmedTicks)\nplot(close)",
      ),
      RT,
    );
    expect(s.plot_0).toEqual([1, 2, 3, 4, 5, 6]);
    expect(s.plot_1).toEqual([1, 2, 3, 4, 5, 6]);
    // the committed close of a realtime bar is its final close
    expect(s.plot_2).toEqual(closes);
  });
  it("10.08 `barstate.*`: isfirst, islast, ishistory, isrealtime, isnew, isconfirmed, islastconfirmedhistory", async () => {
    const src = v6(
      "plot(barstate.isfirst ? 1 : 0)\nplot(barstate.islast ? 1 : 0)\nplot(barstate.ishistory ? 1 : 0)\nplot(barstate.isrealtime ? 1 : 0)\nvarip int news = 0\nif barstate.isnew\n    news += 1\nplot(news)\nplot(barstate.isconfirmed ? 1 : 0)\nplot(barstate.islastconfirmedhistory ? 1 : 0)",
    );
    const h = await plots(src);
    expect(h.plot_0).toEqual([1, 0, 0, 0, 0, 0]);
    expect(h.plot_1).toEqual([0, 0, 0, 0, 0, 1]);
    expect(h.plot_2).toEqual(fill(1));
    expect(h.plot_3).toEqual(fill(0));
    expect(h.plot_4).toEqual([1, 2, 3, 4, 5, 6]);
    expect(h.plot_5).toEqual(fill(1));
    expect(h.plot_6).toEqual([0, 0, 0, 0, 0, 1]);
    const r = await plots(src, RT);
    expect(r.plot_1).toEqual([0, 0, 0, 0, 1, 1]);
    expect(r.plot_2).toEqual([1, 1, 1, 1, 0, 0]);
    expect(r.plot_3).toEqual([0, 0, 0, 0, 1, 1]);
    // isnew only on the first tick of each realtime bar
    expect(r.plot_4).toEqual([1, 2, 3, 4, 5, 6]);
    expect(r.plot_6).toEqual([0, 0, 0, 1, 0, 0]);
  });
  it("10.09 `bar_index`, `last_bar_index`, `last_bar_time`", async () => {
    const s = await plots(v6("plot(bar_index)\nplot(last_bar_index)\nplot(last_bar_time)"));
    expect(s.plot_0).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.plot_1).toEqual(fill(5));
    expect(s.plot_2).toEqual(fill(data[5]!.time));
  });
  it("10.10 `time`, `time_close`, `time_tradingday`, `timenow`", async () => {
    const s = await plots(
      v6("plot(time)\nplot(time_close)\nplot(time_tradingday)\nplot(timenow >= last_bar_time ? 1 : 0)"),
    );
    expect(s.plot_0).toEqual(data.map((b) => b.time));
    expect(s.plot_1).toEqual(data.map((b) => b.time + 60_000));
    // the trading day of an intraday bar is the day's midnight (UTC here)
    expect(s.plot_2).toEqual(fill(Date.UTC(2023, 10, 14)));
    expect(s.plot_3).toEqual(fill(1));
  });
  it('10.11 Session and time functions: `time(tf, session, timezone)`, session strings (`"0930-1600:23456"`), timezone strings', async () => {
    // bars 0..5 are 22:14 .. 22:19 UTC on Tuesday 2023-11-14 (day 3 in Pine's Sunday = 1 numbering)
    const s = await plots(
      v6(
        "plot(time(timeframe.period, '2215-2217', 'UTC'))\nplot(na(time(timeframe.period, '2215-2217:3', 'UTC')) ? 0 : 1)\nplot(na(time(timeframe.period, '2215-2217:246', 'UTC')) ? 0 : 1)\nplot(na(time(timeframe.period, '1715-1717', 'America/New_York')) ? 0 : 1)\nplot(hour(time, 'UTC+2') * 100 + minute(time, 'GMT+2'))",
      ),
      {},
      aligned,
    );
    expect(s.plot_0).toEqual([null, aligned[1]!.time, aligned[2]!.time, null, null, null]);
    expect(s.plot_1).toEqual([0, 1, 1, 0, 0, 0]);
    expect(s.plot_2).toEqual(fill(0));
    expect(s.plot_3).toEqual([0, 1, 1, 0, 0, 0]);
    // 22:14 UTC is 00:14 at UTC+2
    expect(s.plot_4).toEqual([14, 15, 16, 17, 18, 19]);
  });
  it('10.12 Timeframe string format: `"1"`, `"60"`, `"1D"`, `"W"`, `"1M"`, `"1S"`', async () => {
    const s = await plots(
      v6(
        "plot(timeframe.in_seconds('1'))\nplot(timeframe.in_seconds('60'))\nplot(timeframe.in_seconds('1D'))\nplot(timeframe.in_seconds('W'))\nplot(timeframe.in_seconds('1M'))\nplot(timeframe.in_seconds('1S'))\nplot(timeframe.in_seconds('D') == timeframe.in_seconds('1D') ? 1 : 0)",
      ),
    );
    expect([s.plot_0![0], s.plot_1![0], s.plot_2![0], s.plot_3![0], s.plot_5![0], s.plot_6![0]]).toEqual([
      60, 3600, 86400, 604800, 1, 1,
    ]);
    // a month is 365/12 days in timeframe.in_seconds (the reference's figure)
    expect(s.plot_4![0]).toBe(2628003);
  });
  it('10.12 tick timeframes `"1T"`: a tick chart\'s timeframe.* values; ticks have no length in seconds (na)', async () => {
    // trades at irregular times, more than a second apart
    const ticks = data.map((b, i) => ({ ...b, time: T0 + [0, 400, 5_000, 5_100, 60_000, 61_500][i]! }));
    const src = v6(
      "plot(timeframe.isticks ? 1 : 0)\nplot(timeframe.isintraday and not timeframe.isseconds and not timeframe.isminutes and not timeframe.isdwm ? 1 : 0)\nplot(timeframe.multiplier)\nplot(timeframe.in_seconds())\nplot(timeframe.period == '1T' and timeframe.main_period == '1T' ? 1 : 0)\nplot(time_close)",
    );
    const s = await plots(src, { runtime: { timeframe: "1T" } }, ticks);
    expect([s.plot_0, s.plot_1, s.plot_2, s.plot_3, s.plot_4]).toEqual([
      fill(1),
      fill(1),
      fill(1),
      fill(null),
      fill(1),
    ]);
    // a tick bar closes when the next trade opens the next bar (the last one, whose next trade is unknown, one second later)
    expect(s.plot_5).toEqual([...ticks.slice(1).map((b) => b.time), ticks[5]!.time + 1000]);
    const ten = await plots(
      v6("plot(timeframe.multiplier)\nplot(timeframe.period == '10T' ? 1 : 0)\nplot(timeframe.isticks ? 1 : 0)"),
      { runtime: { timeframe: "10T" } },
      ticks,
    );
    expect([ten.plot_0, ten.plot_1, ten.plot_2]).toEqual([fill(10), fill(1), fill(1)]);
    // timeframe.change with ticks: every bar holds a new trade; a larger count every (count / chart count) bars
    const ch = await plots(
      v6("plot(timeframe.change('1T') ? 1 : 0)\nplot(timeframe.change('3T') ? 1 : 0)"),
      { runtime: { timeframe: "1T" } },
      ticks,
    );
    expect([ch.plot_0, ch.plot_1]).toEqual([
      [0, 1, 1, 1, 1, 1],
      [0, 0, 0, 1, 0, 0],
    ]);
    expect(await first(v6("plot(timeframe.change('100T') ? 1 : 0)"))).toEqual([0, 1, 1, 1, 1, 1]);
    // the User Manual gives no seconds for ticks: timeframe.in_seconds("1T") is na (docs/compatibility.md), other charts say false
    const m = await plots(
      v6(
        "plot(na(timeframe.in_seconds('1T')) ? 1 : 0)\nplot(na(timeframe.in_seconds('1000T')) ? 1 : 0)\nplot(timeframe.isticks ? 1 : 0)",
      ),
    );
    expect([m.plot_0, m.plot_1, m.plot_2]).toEqual([fill(1), fill(1), fill(0)]);
  });
  it("10.12 request.security with tick timeframes: the tick chart's own context, time bars resampled from ticks, tick data only from dataFeed", async () => {
    const ticks = data.map((b, i) => ({ ...b, time: T0 + [0, 20_000, 59_000, 60_000, 90_000, 130_000][i]! }));
    const c = ticks.map((b) => b.close);
    const s = await plots(
      v6(
        "plot(request.security(syminfo.tickerid, timeframe.period, close))\nplot(request.security(syminfo.tickerid, '1', close))",
      ),
      { runtime: { timeframe: "1T" } },
      ticks,
    );
    expect(s.plot_0).toEqual(c);
    // one-minute bars built from the trades: [0, 60 s) holds ticks 0-2, [60, 120 s) ticks 3-4, then tick 5
    expect(s.plot_1).toEqual([null, null, c[2], c[2], c[4], c[4]]);
    // on a minute chart a tick timeframe needs tick data: na with a note without it, the dataFeed's ticks with it
    const r = await runBoth(v6("plot(request.security(syminfo.tickerid, '1T', close))"), aligned);
    expect(r.series.plot_0).toEqual(fill(null));
    expect(r.meta.requests).toEqual([
      {
        symbol: "CHART",
        timeframe: "1T",
        source: "none",
        bars: 0,
        note: "no '1T' tick data: give it in dataFeed as 'CHART|1T', na",
      },
    ]);
    const fed = aligned.map((b, i) => ({ ...b, time: b.time + 30_000, close: 700 + i }));
    const f = await plots(
      v6("plot(request.security(syminfo.tickerid, '1T', close))"),
      { dataFeed: { "CHART|1T": fed } },
      aligned,
    );
    // the last trade inside each minute bar (lookahead off: known once the chart bar closes)
    expect(f.plot_0).toEqual([700, 701, 702, 703, 704, 705]);
  });
  it("10.13 Calls to stateful built-ins (`ta.*`) inside conditional branches are not executed on every bar, so their results differ", async () => {
    const s = await plots(
      v6("x = 0.0\nif bar_index % 2 == 0\n    x := ta.sma(close, 2)\nplot(x)\nplot(ta.sma(close, 2))"),
    );
    // the branch's sma sees bars 0, 2, 4 only
    near(s.plot_0!, [null, 0, (closes[0]! + closes[2]!) / 2, 0, (closes[2]! + closes[4]!) / 2, 0]);
    near(s.plot_1!, [null, ...closes.slice(1).map((c, i) => (c + closes[i]!) / 2)]);
  });
  it("10.14 `request.security()` evaluates an expression in another symbol/timeframe context", async () => {
    const feed = { A: aligned.map((b) => ({ ...b, close: 1000 + b.close })) };
    const s = await plots(
      v6(
        "plot(request.security('A', timeframe.period, close * 2 + bar_index))\nplot(request.security(syminfo.tickerid, '2', ta.cum(1)))",
      ),
      { dataFeed: feed },
      aligned,
    );
    expect(s.plot_0).toEqual(closes.map((c, i) => (1000 + c) * 2 + i));
    // ta.cum(1) evaluated on the 2-minute bars: 1, 2, 3 on their closing chart bars
    expect(s.plot_1).toEqual([null, 1, 1, 2, 2, 3]);
  });
  it("10.15 `request.security()` options: `lookahead`, `gaps` (barmerge.*), `ignore_invalid_symbol`", async () => {
    const s = await plots(
      v6(
        "plot(request.security(syminfo.tickerid, '2', close))\nplot(request.security(syminfo.tickerid, '2', close, lookahead = barmerge.lookahead_on))\nplot(request.security(syminfo.tickerid, '2', close, gaps = barmerge.gaps_on))\nplot(request.security('NOPE', '2', close, ignore_invalid_symbol = true))",
      ),
      {},
      aligned,
    );
    const c = aligned.map((b) => b.close);
    expect(s.plot_0).toEqual([null, c[1], c[1], c[3], c[3], c[5]]);
    expect(s.plot_1).toEqual([c[1], c[1], c[3], c[3], c[5], c[5]]);
    expect(s.plot_2).toEqual([null, c[1], null, c[3], null, c[5]]);
    expect(s.plot_3).toEqual(fill(null));
  });
  it("10.15 `currency` and `calc_bars_count` are accepted", async () => {
    const r = await runBoth(
      v6(
        "plot(request.security(syminfo.tickerid, timeframe.period, close, currency = currency.NONE, calc_bars_count = 3))",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
  });
  it("10.16 `request.security()` accepts tuple expressions", async () => {
    const feed = { A: data.map((b) => ({ ...b, close: 1000 + b.close })) };
    const s = await plots(
      v6("[c, o, n] = request.security('A', timeframe.period, [close, open, bar_index])\nplot(c)\nplot(o)\nplot(n)"),
      { dataFeed: feed },
    );
    expect(s.plot_0).toEqual(closes.map((x) => 1000 + x));
    expect(s.plot_1).toEqual(data.map((b) => b.open));
    expect(s.plot_2).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it("10.17 `request.security_lower_tf()` returns arrays of intrabar values", async () => {
    const s = await plots(
      v6(
        "a = request.security_lower_tf(syminfo.tickerid, '1', close)\nplot(a.size())\nplot(a.size() > 0 ? a.get(0) : na)\nplot(a.size() > 1 ? a.get(1) : na)",
      ),
      LTF,
      chart2,
    );
    expect(s.plot_0).toEqual([2, 2, 2]);
    expect(s.plot_1).toEqual([500, 502, 504]);
    expect(s.plot_2).toEqual([501, 503, 505]);
  });
  it("10.17 an unguarded `a.get(1)` on the intrabar array works: a statement the requested expression does not need may fail in the intrabar context without stopping the run (meta says so)", async () => {
    const src = v6("a = request.security_lower_tf(syminfo.tickerid, '1', close)\nplot(a.get(1))");
    const s = await plots(src, LTF, chart2);
    expect(s.plot_0).toEqual([501, 503, 505]);
    const r = await runBoth(src, chart2, LTF);
    expect(String((r.meta.requests as { note?: string }[])[0]!.note)).toMatch(/does not need failed on context bar 0/);
  });
  it("10.18 Strategy engine: orders fill at the next bar open, or at the close with `process_orders_on_close`", async () => {
    const body = "if bar_index == 0\n    strategy.entry('L', strategy.long)\nplot(strategy.position_avg_price)";
    expect(await first(v6(body, "strategy('s')"), {}, gapped)).toEqual([null, ...fill(gapped[1]!.open, 5)]);
    expect(await first(v6(body, "strategy('s', process_orders_on_close = true)"), {}, gapped)).toEqual([
      null,
      ...fill(gapped[0]!.close, 5),
    ]);
  });
  it("10.19 Strategy engine: pyramiding, OCA groups, `strategy.risk.*`, commission/slippage", async () => {
    expect(
      await first(
        v6("strategy.entry('L', strategy.long)\nplot(strategy.position_size)", "strategy('s', pyramiding = 2)"),
      ),
    ).toEqual([0, 1, 2, 2, 2, 2]);
    // A (stop 101.5) fills on bar 1; B (stop 104, reached on bar 4) is cancelled with it
    const oca = (t: string) =>
      v6(
        `if bar_index == 0\n    strategy.order('A', strategy.long, stop = 101.5, oca_name = 'g', oca_type = ${t})\n    strategy.order('B', strategy.long, stop = 104, oca_name = 'g', oca_type = ${t})\nplot(strategy.position_size)`,
        "strategy('s')",
      );
    expect(await first(oca("strategy.oca.cancel"))).toEqual([0, 1, 1, 1, 1, 1]);
    expect(await first(oca("strategy.oca.none"))).toEqual([0, 1, 1, 1, 2, 2]);
    expect(
      await first(
        v6(
          "strategy.risk.allow_entry_in(strategy.direction.long)\nif bar_index == 1\n    strategy.entry('S', strategy.short)\nplot(strategy.position_size)",
          "strategy('s')",
        ),
      ),
    ).toEqual(fill(0));
    const r = await runBoth(
      v6(
        "if bar_index == 0\n    strategy.entry('L', strategy.long)\nif bar_index == 2\n    strategy.close('L')\nplot(close)",
        "strategy('s', commission_type = strategy.commission.percent, commission_value = 1, slippage = 10)",
      ),
      data,
    );
    const t = r.strategy!.trades[0]!;
    // slippage 10 ticks of 0.01 against the order; commission 1% of both sides
    expect(t.entry_price).toBeCloseTo(data[1]!.open + 0.1, 10);
    expect(t.exit_price).toBeCloseTo(data[3]!.open - 0.1, 10);
    expect(t.commission).toBeCloseTo((t.entry_price + t.exit_price!) * 0.01, 10);
  });
  it("10.19 `calc_on_every_tick`: a realtime strategy runs on every tick only when it is set", async () => {
    const src = (on: boolean) => v6("varip int n = 0\nn += 1\nplot(n)", `strategy('s', calc_on_every_tick = ${on})`);
    expect(await first(src(false), RT)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await first(src(true), RT)).toEqual([1, 2, 3, 4, 7, 10]);
  });
  it("10.19 `calc_on_order_fills`: the script runs once more on the bar an order fills (varip keeps that execution, var is rolled back)", async () => {
    const src = (decl: string) =>
      v6(
        `${decl} int n = 0\nn += 1\nif bar_index == 1\n    strategy.entry('L', strategy.long)\nplot(n)`,
        "strategy('s', calc_on_order_fills = true)",
      );
    // the entry placed on bar 1 fills at bar 2's open: one extra execution there, before the bar's close
    expect(await first(src("varip"))).toEqual([1, 2, 4, 5, 6, 7]);
    expect(await first(src("var"))).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it("10.19 bar magnifier: `use_bar_magnifier` walks the lower-timeframe bars of the dataFeed (tests/runtime/magnifier.test.ts has the full case)", async () => {
    const DAY = 86_400_000,
      D0 = Date.UTC(2024, 0, 1);
    const daily = [0, 1, 2].map((i) => ({
      time: D0 + i * DAY,
      open: 100,
      high: i === 1 ? 110 : 101,
      low: i === 1 ? 90 : 99,
      close: 100,
      volume: 1,
    }));
    const hourly = Array.from({ length: 72 }, (_, i) => ({
      time: D0 + i * 3_600_000,
      open: 100,
      high: i === 25 ? 110 : i === 26 ? 108 : 100.5,
      low: i === 26 ? 90 : i === 25 ? 100 : 99.5,
      close: 100,
      volume: 1,
    }));
    const src = (m: boolean) =>
      `//@version=6\nstrategy("m", use_bar_magnifier = ${m})\nif bar_index == 0\n    strategy.entry("L", strategy.long, stop = 105)\n    strategy.exit("X", "L", stop = 95)\nplot(strategy.closedtrades)\n`;
    const on = await plots(src(true), { runtime: { timeframe: "1D" }, dataFeed: { "CHART|60": hourly } }, daily);
    expect(on.plot_0).toEqual([0, 1, 1]);
  });
  it("10.20 Plot/visual layer: `plot*` only at global scope; `plot`/`hline`/`fill` ids; `display.*`, `format.*`, `precision`", async () => {
    await checkError(v6("if close > 0\n    plot(close)"), /Cannot use 'plot' in local scope/, 4, 5);
    const r = await runBoth(
      v6(
        "plot(close, 'a', display = display.data_window, format = format.percent, precision = 2)\nh = hline(100, 'h')\np = plot(open, 'b')\nfill(p, plot(high, 'c'), color = color.red, title = 'f')\nfill(h, hline(90), color = color.blue)",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series)).toEqual(expect.arrayContaining(["a", "h", "b", "c", "f"]));
    expect(r.plot_meta.a).toMatchObject({ display: "data_window" });
    expect(r.plot_meta.f).toMatchObject({ plot1: "b", plot2: "c" });
  });
  it("10.20 limits: at most 64 plot counts; the call that passes 64 is a check error giving the script's total", async () => {
    const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join("\n");
    // the 65th plot is on line 3 + 64
    await checkError(
      v6(lines(65, (i) => `plot(close, 'p${i}')`)),
      /^Too many plots: the script uses 65 plot counts, the maximum is 64$/,
      67,
      1,
    );
    const ok = await runBoth(v6(lines(64, (i) => `plot(close, 'p${i}')`)), data);
    expect(Object.keys(ok.series)).toHaveLength(64);
    // the column of the call (here after `p = `), and the total of the whole script
    await checkError(
      v6(`${lines(64, (i) => `plot(close, 'p${i}')`)}\np = plot(open)\nplot(high)`),
      /uses 66 plot counts/,
      67,
      5,
    );
    // hline and fills with a non-series colour count nothing; bgcolor, barcolor and alertcondition one each
    const free = `${lines(64, (i) => `plot(close, 'p${i}')`)}\nh1 = hline(1)\nh2 = hline(2)\nfill(h1, h2, color.red)\nlabel.new(bar_index, close)`;
    expect((await runBoth(v6(free), data)).error).toBeUndefined();
    await checkError(
      v6(`${lines(63, (i) => `plot(close, 'p${i}')`)}\nbgcolor(color.red)\nbarcolor(color.red)`),
      /uses 65 plot counts/,
      67,
      1,
    );
    await checkError(
      v6(`${lines(64, (i) => `plot(close, 'p${i}')`)}\nalertcondition(close > open)`),
      /uses 65 plot counts/,
      67,
      1,
    );
  });
  it("10.20 limits: the User Manual's plot-count example (56), and 70 with two more seven-count plotcandle calls", async () => {
    const example = [
      "bool isUp = close > open",
      "color isUpColor = isUp ? color.green : color.red",
      "bool isDn = not isUp",
      "color isDnColor = isDn ? color.red : color.green",
      "p1 = plot(close, color = color.white)",
      "p2 = plot(open, color = na)",
      "plot(close, color = isUpColor)",
      "plotarrow(close, colorup = color.green, colordown = color.red)",
      "plotarrow(close, colorup = isUpColor)",
      "plotarrow(close - open, colorup = isUpColor, colordown = isDnColor)",
      "plotbar(open, high, low, close, color = color.white)",
      "plotbar(open, high, low, close, color = isUpColor)",
      "plotcandle(open, high, low, close, color = color.white, wickcolor = color.white, bordercolor = color.purple)",
      "plotcandle(open, high, low, close, color = isUpColor, wickcolor = color.white, bordercolor = color.purple)",
      "plotcandle(open, high, low, close, color = isUpColor, wickcolor = isUpColor , bordercolor = color.purple)",
      "plotcandle(open, high, low, close, color = isUpColor, wickcolor = isUpColor , bordercolor = isUp ? color.lime : color.maroon)",
      "plotchar(close, color = color.white, text = '|', textcolor = color.white)",
      "plotchar(close, color = isUpColor, text = '—', textcolor = color.white)",
      "plotchar(close, color = isUpColor, text = 'O', textcolor = isUp ? color.yellow : color.white)",
      "plotshape(close, color = color.white, textcolor = color.white)",
      "plotshape(close, color = isUpColor, textcolor = color.white)",
      "plotshape(close, color = isUpColor, textcolor = isUp ? color.yellow : color.white)",
      "alertcondition(close > open, 'close > open', 'Up bar alert')",
      "bgcolor(isUp ? color.yellow : color.white)",
      "fill(p1, p2, color = isUpColor)",
    ];
    const r = await runBoth(v6(example.join("\n"), "indicator('Plot count example')"), data);
    expect(r.error).toBeUndefined();
    // 56 + 7 = 63 is still allowed; the second extra call makes 70 (the manual's figure), on line 3 + 26
    const seven = example[15]!;
    await checkError(
      v6([...example, seven, seven].join("\n"), "indicator('Plot count example')"),
      /^Too many plots: the script uses 70 plot counts, the maximum is 64$/,
      29,
      1,
    );
  });
  it("10.21 `alert()` and `alertcondition()`", async () => {
    const r = await runBoth(
      v6(
        "if bar_index == 2\n    alert('hi ' + str.tostring(bar_index), alert.freq_once_per_bar)\nalertcondition(close > open, 'up', 'Up!')\nplot(close)",
      ),
      data,
    );
    expect(r.alerts.filter((a) => a.source === "alert")).toEqual([
      { message: "hi 2", freq: "once_per_bar", bar_index: 2, time: data[2]!.time, source: "alert" },
    ]);
    expect(r.alert_conditions[0]).toMatchObject({ title: "up", message: "Up!", fired_bars: [0, 1, 3, 4] });
  });
  it("10.22 Drawing objects with garbage collection of the oldest items past `max_*_count`; `label.all`, `line.all`, etc.", async () => {
    const r = await runBoth(
      v6(
        "label.new(bar_index, close, str.tostring(bar_index))\nline.new(bar_index, close, bar_index + 1, close)\nbox.new(bar_index, high, bar_index + 1, low)\nplot(label.all.size() * 100 + line.all.size() * 10 + box.all.size())",
        "indicator('t', max_labels_count = 3, max_lines_count = 2, max_boxes_count = 4)",
      ),
      data,
    );
    expect(r.series.plot_0).toEqual([111, 222, 323, 324, 324, 324]);
    const labels = r.drawings.filter((d) => d.type === "label");
    expect(labels.map((d) => d.text)).toEqual(["3", "4", "5"]);
  });
  it("10.23 Runtime errors: `runtime.error(msg)`; array bounds; loop timeout; division by zero gives `na` (not an error)", async () => {
    // the position is the innermost statement that was running (line, first column), plus the bar
    const r = await runtimeErrorAt(v6("if bar_index == 3\n    runtime.error('boom')\nplot(close)"), /^boom$/, 3, 4, 5);
    expect(r.series.plot_0).toEqual(closes.slice(0, 3));
    await runtimeErrorAt(
      v6("a = array.new<float>(2, 0)\nplot(bar_index == 1 ? a.get(2) : 0)"),
      /Index 2 is out of bounds, array size is 2/,
      1,
      4,
      1,
    );
    // inside a function: the statement of its body
    await runtimeErrorAt(
      v6("f(a) =>\n    a.get(9)\nx = array.from(1.0)\ny = 0.0\nif bar_index == 2\n    y := f(x)\nplot(y)"),
      /Index 9 is out of bounds/,
      2,
      4,
      5,
    );
    // na where a value is required
    await runtimeErrorAt(
      v6("int n = bar_index < 3 ? 2 : na\nplot(ta.sma(close, n))"),
      /Invalid value of the 'length' argument \(NaN\) in the 'sma' function/,
      3,
      4,
      1,
    );
    await runtimeErrorAt(
      v6("a = array.from(1.0)\nif bar_index == 1\n    a := na\nplot(a.size())"),
      /Cannot call 'array.size' with an array that is na/,
      1,
      6,
      1,
    );
    const s = await plots(v6("plot(close / 0)\nplot(5 % 0)\nx = 0\nplot(10 / x)"));
    expect(s.plot_0).toEqual(fill(null));
    expect(s.plot_1).toEqual(fill(null));
    expect(s.plot_2).toEqual(fill(null));
  });
  it("10.23 the loop timeout is a runtime error on its bar", async () => {
    await runtimeErrorAt(
      v6("i = 0\nif bar_index == 1\n    while true\n        i += 1\nplot(i)"),
      /Loop is too long \(> 500 ms\)/,
      1,
      5,
      5,
    );
  }, 20_000);
  it("10.24 Logging: `log.info/warning/error(msg)` and `log.info(formatString, args...)`", async () => {
    const r = await runBoth(
      v6(
        "if bar_index == 1\n    log.info('a {0} b {1}', 1, 'x')\n    log.warning('w')\n    log.error('e {0,number,#.00}', 1.5)\nplot(close)",
      ),
      data,
    );
    expect(r.logs).toEqual([
      { level: "info", message: "a 1 b x", bar_index: 1, time: data[1]!.time },
      { level: "warning", message: "w", bar_index: 1, time: data[1]!.time },
      { level: "error", message: "e 1.50", bar_index: 1, time: data[1]!.time },
    ]);
  });
  it("10.25 Inputs: `input()` and the 13 `input.*` kinds", async () => {
    const src = v6(
      "enum E\n    a\n    b\ni0 = input(5, 'plain')\ni1 = input.int(2, 'int')\ni2 = input.float(1.5, 'float')\ni3 = input.bool(true, 'bool')\ni4 = input.string('x', 'string')\ni5 = input.color(color.red, 'color')\ni6 = input.source(close, 'source')\ni7 = input.symbol('NASDAQ:AAPL', 'symbol')\ni8 = input.timeframe('60', 'tf')\ni9 = input.session('0930-1600', 'session')\ni10 = input.time(1700000000000, 'time')\ni11 = input.price(100.5, 'price')\ni12 = input.text_area('t', 'area')\ni13 = input.enum(E.b, 'enum')\nplot(i0 + i1 + i2 + (i3 ? 1 : 0) + str.length(i4 + i7 + i8 + i9 + i12) + color.r(i5) + i6 + i11 + (i13 == E.b ? 1 : 0) + (i10 > 0 ? 1 : 0))",
    );
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.inputs.map((x) => x.type)).toEqual([
      "int",
      "int",
      "float",
      "bool",
      "string",
      "color",
      "source",
      "symbol",
      "timeframe",
      "session",
      "time",
      "price",
      "text_area",
      "enum",
    ]);
    const fixed = 5 + 2 + 1.5 + 1 + (1 + 11 + 2 + 9 + 1) + 0xf2 + 100.5 + 1 + 1;
    near(
      r.series.plot_0!,
      closes.map((c) => fixed + c),
    );
    // overrides by title
    const o = await runBoth(src, data, { inputs: { int: 4, source: "open", enum: "a", color: "#0A0000" } });
    near(
      o.series.plot_0!,
      data.map((b) => fixed + 2 - 1 - 0xf2 + 10 + b.open),
    );
  });
  it("10.26 Input params: `options`, `minval/maxval/step`, `group`, `inline`, `tooltip`, `confirm`, `display`, `active`", async () => {
    const src = v6(
      "a = input.int(5, 'A', minval = 1, maxval = 10, step = 2, group = 'G', inline = 'r', tooltip = 'tip', confirm = false, display = display.none, active = true)\nb = input.string('x', 'B', options = ['x', 'y'], group = 'G', display = display.all)\nplot(a + (b == 'y' ? 100 : 0))",
    );
    const r = await runBoth(src, data);
    expect(r.inputs[0]).toEqual({
      id: "in_0",
      type: "int",
      title: "A",
      default: 5,
      value: 5,
      min: 1,
      max: 10,
      step: 2,
      tooltip: "tip",
      inline: "r",
      group: "G",
      confirm: false,
    });
    expect(r.inputs[1]).toMatchObject({ options: ["x", "y"], group: "G" });
    expect(await first(src, { inputs: { A: 7, B: "y" } })).toEqual(fill(107));
    // overrides outside minval/maxval are clamped; a value outside the options is refused
    expect(await first(src, { inputs: { A: 99 } })).toEqual(fill(10));
    expect(await first(src, { inputs: { A: -5 } })).toEqual(fill(1));
    const bad = await runBoth(src, data, { inputs: { B: "z" } });
    expect(bad.error_kind).toBe("check");
    expect(bad.error).toMatch(/must be one of \["x","y"\]/);
  });
  it("10.26 a default outside minval/maxval is clamped (service.md 1.3); a default outside its options is a check error", async () => {
    const r = await runBoth(
      v6("x = input.int(50, 'L', minval = 1, maxval = 10)\ny = input.float(-3.5, 'F', minval = 0)\nplot(x + y)"),
      data,
    );
    expect(r.series.plot_0).toEqual(fill(10));
    expect(r.inputs.map((i) => [i.default, i.value])).toEqual([
      [10, 10],
      [0, 0],
    ]);
    const bad = await runBoth(v6("x = input.string('z', 'S', options = ['a', 'b'])\nplot(close)"), data);
    expect(bad.error_kind).toBe("check");
    expect(bad.error).toMatch(/Input 'S': the default "z" is not one of its options \["a","b"\]/);
  });
});
