// strategy() calculation settings: calc_on_order_fills (extra executions after fills inside a bar),
// calc_on_every_tick (realtime ticks) and fill_orders_on_standard_ohlc. Expectations are worked out
// by hand from TradingView's user manual ("Strategies" > "Altering calculation behavior") and the
// execution model page ("strategies ... execute only once per bar at each closing tick";
// "rollback ... can also happen on historical bars for strategies that recalculate after an order
// fills"). Every script runs through both modes (run-both); calc_on_order_fills compiles (issue 18
// part 5: tests/compile/fills.test.ts).

import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import type { Bar } from "../../src/core/result.js";
import { runBoth, runModes } from "../helpers/run-both.js";
import { FILL_PATH, hourlyBars } from "../helpers/hourly-bars.js";

/** Both modes, identical results, and compile mode really compiled (calc_on_order_fills compiles). */
const fills = (src: string, data: Bar[]) => runModes(new Runtime("CHART", {}), src, data);

const entries = (r: Awaited<ReturnType<typeof runBoth>>) =>
  [...(r.strategy?.trades ?? []), ...(r.strategy?.open_trades ?? [])].map((t) => [t.entry_bar_index, t.entry_price]);

describe("calc_on_order_fills", () => {
  // The manual's "buy on every fill" example: a market entry placed on every execution fills on the
  // next tick, and each fill runs the script again. Bar 0's close places Buy #1; bar 1: it fills at
  // the open 100 -> execution places #2 -> fills at the next path point 95 -> execution places #3 ->
  // fills at 110 -> execution places #4 -> fills at the close 105; bar 1's own (closing) execution
  // places #5, which fills at bar 2's open 105. Bar 2's executions no longer order (bar_index > 1):
  // "four entries per bar ... each historical bar has four ticks (open, high, low, and close)".
  const BUY_EVERY_FILL = `//@version=6
strategy("buy on every fill", overlay = true, calc_on_order_fills = true, pyramiding = 100)
if bar_index <= 1
    strategy.entry("Buy", strategy.long)
`;

  it("re-runs the script after each fill; market orders placed then fill at the next path point", async () => {
    const r = await fills(BUY_EVERY_FILL, FILL_PATH);
    expect(r.error).toBeUndefined();
    expect(entries(r)).toEqual([
      [1, 100],
      [1, 95],
      [1, 110],
      [1, 105],
      [2, 105],
    ]);
  });

  it("without it, the same script fills once per bar at the open", async () => {
    const r = await fills(
      BUY_EVERY_FILL.replace("calc_on_order_fills = true", "calc_on_order_fills = false"),
      FILL_PATH,
    );
    // bar 0's order fills at bar 1's open, bar 1's at bar 2's open
    expect(entries(r)).toEqual([
      [1, 100],
      [2, 105],
    ]);
  });

  it("each extra execution sees the fill price as close, the bar so far as high/low, an unconfirmed bar, and is rolled back", async () => {
    // Fills on bar 1 at 100 (open), 95 and 110 trigger executions; the fill at bar 1's close (105) is
    // followed by the bar's own execution instead. Bar 2's open fill (105) triggers one more.
    // `runs` counts committed executions only: rollback undoes the extra ones, so it equals bar_index + 1.
    const src = `${BUY_EVERY_FILL}var int runs = 0
runs += 1
plot(runs, "runs")
if not barstate.isconfirmed
    log.info("close={0} high={1} low={2}", close, high, low)
`;
    const r = await fills(src, FILL_PATH);
    expect(r.logs.map((l) => [l.bar_index, l.message])).toEqual([
      [1, "close=100 high=100 low=100"],
      [1, "close=95 high=100 low=95"],
      [1, "close=110 high=110 low=95"],
      [2, "close=105 high=105 low=105"],
    ]);
    expect(r.series.runs).toEqual([1, 2, 3, 4]);
  });

  it("exit levels computed in the execution after the entry fill work inside the same bar", async () => {
    // The manual's "Intrabar exit" pattern. Bar 1: 100 -> 99 -> 110 -> 108. The entry fills at the
    // open 100; the execution that follows sees position_avg_price 100 and places the exit's limit at
    // 105, which the path reaches on its way to 110: the trade closes on bar 1 at 105 (profit 5).
    // Without calc_on_order_fills the exit is placed at bar 1's close and waits for bar 2.
    const src = (on: boolean) => `//@version=6
strategy("intrabar exit", calc_on_order_fills = ${on})
if strategy.position_size == 0 and bar_index == 0
    strategy.entry("Buy", strategy.long)
if strategy.position_size > 0
    strategy.exit("Exit", "Buy", limit = strategy.position_avg_price + 5)
`;
    const data = hourlyBars([
      [100, 100, 100, 100],
      [100, 110, 99, 108],
      [108, 112, 107, 110],
    ]);
    const on = await fills(src(true), data);
    expect(
      on.strategy!.trades.map((t) => [t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price, t.profit]),
    ).toEqual([[1, 100, 1, 105, 5]]);
    const off = await fills(src(false), data);
    // bar 2 opens at 108, already above the 105 limit: a gap fill at the open
    expect(off.strategy!.trades.map((t) => [t.entry_bar_index, t.exit_bar_index, t.exit_price])).toEqual([[1, 2, 108]]);
  });

  it("the extra executions leave no trace in indicator state (ta.*, var, arrays are rolled back)", async () => {
    // Fills on most bars (a market entry or close every bar) trigger extra executions; the committed
    // values of every ta.* call, var counter and array must equal a run without the setting.
    const src = (on: boolean) => `//@version=6
strategy("s", calc_on_order_fills = ${on}, pyramiding = 3)
if bar_index % 2 == 0
    strategy.entry("L", strategy.long)
else
    strategy.close_all()
var a = array.new<float>()
a.push(close)
var int n = 0
n += 1
plot(ta.sma(close, 3), "sma")
plot(ta.ema(close, 4), "ema")
plot(ta.rsi(close, 3), "rsi")
plot(ta.atr(2), "atr")
plot(ta.highest(high, 3), "hi")
plot(ta.cum(volume), "cum")
plot(ta.change(close), "chg")
plot(a.size() + n, "size")
`;
    const rows: number[][] = [];
    for (let i = 0; i < 24; i++) rows.push([100 + (i % 5), 103 + (i % 7), 97 - (i % 3), 100 + ((i * 3) % 5)]);
    const data = hourlyBars(rows);
    const on = await fills(src(true), data);
    const off = await fills(src(false), data);
    expect(on.error).toBeUndefined();
    expect(on.strategy!.trades.length).toBeGreaterThan(5);
    expect(on.series).toEqual(off.series);
  });

  it("drawings an extra execution creates or changes are rolled back, with none alive before it and with some", async () => {
    // Executions after fills draw a label (and move a kept one): the committed drawings, their ids
    // too (a label drawn on the last bar), equal a run without the setting. Without `keep` no
    // drawing is alive when an execution starts (src/runtime/rerun.ts takes no copy then).
    const src = (on: boolean, keep: boolean) => `//@version=6
strategy("draw on fills", overlay = true, calc_on_order_fills = ${on}, pyramiding = 100)
if bar_index <= 1
    strategy.entry("Buy", strategy.long)
var label kept = ${keep ? 'label.new(0, 1, "keep")' : "na"}
if not barstate.isconfirmed
    label.new(bar_index, close, "fill " + str.tostring(close))
    if not na(kept)
        kept.set_text("moved")
if bar_index == 3
    label.new(bar_index, close, "last")
`;
    for (const keep of [false, true]) {
      const on = await fills(src(true, keep), FILL_PATH);
      const off = await fills(src(false, keep), FILL_PATH);
      expect(on.error).toBeUndefined();
      expect(on.strategy!.trades.length + on.strategy!.open_trades.length).toBe(5);
      expect(on.drawings).toEqual(off.drawings);
      expect(on.drawings.length).toBe(keep ? 2 : 1);
    }
  });

  it("compiles, also when set through RuntimeOptions.broker", async () => {
    const rt = new Runtime("CHART", {});
    const r = await rt.run(BUY_EVERY_FILL, FILL_PATH, { mode: "auto" });
    expect(r.auto_backend).toBe("compile");
    expect(r.compile_fallback_reason).toBeUndefined();
    const plain = BUY_EVERY_FILL.replace("calc_on_order_fills = true", "calc_on_order_fills = false");
    const viaOverride = await new Runtime("CHART", { broker: { calc_on_order_fills: true } }).run(plain, FILL_PATH, {
      mode: "auto",
    });
    expect(viaOverride.auto_backend).toBe("compile");
    expect(entries(viaOverride as never)).toEqual([
      [1, 100],
      [1, 95],
      [1, 110],
      [1, 105],
      [2, 105],
    ]);
  });
});

describe("calc_on_every_tick", () => {
  // Last bar realtime with 3 ticks. Bar 3: open 100, high 104, low 100, close 104; the tick path is
  // open 100 -> low 100 -> high 104 -> close 104 (the open is nearer the low), so tick 0 is at 100,
  // tick 1 halfway along the path at 102, tick 2 the whole bar (104).
  const RT = hourlyBars([
    [100, 101, 99, 100],
    [100, 101, 99, 100],
    [100, 101, 99, 100],
    [100, 104, 100, 104],
  ]);
  const src = (on: boolean) => `//@version=6
strategy("rt", calc_on_every_tick = ${on})
if barstate.isrealtime and strategy.position_size == 0
    strategy.entry("L", strategy.long)
var int execs = 0
execs += 1
plot(execs, "execs")
`;

  it("on: the script runs on every realtime tick and a market order fills at the next tick's price", async () => {
    // tick 0 places L; tick 1 fills it at that tick's price 102; the later executions see the position.
    const r = await runBoth(src(true), RT, { realtimeTicks: 3 });
    expect(r.strategy!.open_trades.map((t) => [t.entry_bar_index, t.entry_price])).toEqual([[3, 102]]);
  });

  it("off: a realtime bar runs the strategy once, on its closing tick, and its order waits for the next bar", async () => {
    const r = await runBoth(src(false), RT, { realtimeTicks: 3 });
    expect(r.strategy!.open_trades).toEqual([]);
    expect(r.strategy!.trades).toEqual([]);
    // one committed execution per bar either way
    expect(r.series.execs).toEqual([1, 2, 3, 4]);
    expect(r.events.map((e) => [e.kind, e.bar_index])).toEqual([["entry", 3]]);
  });

  it("on: a limit order placed on a tick fills where a later tick's move reaches it", async () => {
    // 5 ticks on bar 3 (open 100, high 104, low 98, close 103): the open is nearer the low, so the
    // path is 100 -> 98 -> 104 -> 103 (length 9) and tick k sits k/4 along it: tick 1 at 98.25 after
    // touching 98. The buy limit at 99 placed on tick 0 fills at 99 on the way down to 98.
    const data = hourlyBars([
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 104, 98, 103],
    ]);
    const limitSrc = `//@version=6
strategy("rt", calc_on_every_tick = true)
if barstate.isrealtime and strategy.position_size == 0
    strategy.entry("L", strategy.long, limit = 99)
`;
    const r = await runBoth(limitSrc, data, { realtimeTicks: 5 });
    expect(r.strategy!.open_trades.map((t) => [t.entry_bar_index, t.entry_price])).toEqual([[3, 99]]);
  });

  it("changes nothing on historical bars", async () => {
    const hist = `//@version=6
strategy("h", calc_on_every_tick = CALC)
if close > open
    strategy.entry("L", strategy.long)
if close < open
    strategy.close("L")
`;
    const data = hourlyBars([
      [100, 103, 99, 102],
      [102, 104, 100, 101],
      [101, 105, 100, 104],
      [104, 106, 103, 103],
      [103, 104, 101, 104],
    ]);
    const on = await runBoth(hist.replace("CALC", "true"), data);
    const off = await runBoth(hist.replace("CALC", "false"), data);
    expect(on.strategy!.trades.length).toBeGreaterThan(0);
    expect(on.strategy).toEqual(off.strategy);
  });
});

describe("fill_orders_on_standard_ohlc", () => {
  // TradingView: on Heikin Ashi charts, fill at the real OHLC instead of the synthetic bars. resin's
  // bars are always the real ones (there is no chart type), so the flag is accepted and the fills
  // are the same with and without it.
  it("is accepted and changes nothing on standard bars", async () => {
    const s = (flag: boolean) => `//@version=6
strategy("s", fill_orders_on_standard_ohlc = ${flag})
if bar_index % 2 == 0
    strategy.entry("L", strategy.long, limit = close - 1)
else
    strategy.close("L")
`;
    const data = hourlyBars([
      [100, 103, 99, 102],
      [102, 104, 100, 101],
      [101, 105, 100, 104],
      [104, 106, 103, 103],
      [103, 104, 101, 104],
    ]);
    const on = await runBoth(s(true), data);
    const off = await runBoth(s(false), data);
    expect(on.error).toBeUndefined();
    expect(on.strategy!.trades.length).toBeGreaterThan(0);
    expect(on.strategy).toEqual(off.strategy);
  });
});
