// The backtest start (RunOptions.backtestStart; TradingView's strategy property): order calls on bars
// before it are not placed, while the script runs there (indicators warm up), in both modes.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";
import { backtestStartArg } from "../../src/cli/index.js";

const SCRIPT = `//@version=6
strategy("bt start", overlay = true)
ma = ta.sma(close, 5)
if bar_index % 4 == 0
    strategy.entry("L", strategy.long)
if bar_index % 4 == 2
    strategy.close("L")
plot(ma)
`;

describe("backtest start", () => {
  const data = bars(60);

  it("orders count from { bar } on; the indicator is the same as without it", async () => {
    const all = await runBoth(SCRIPT, data);
    const from = await runBoth(SCRIPT, data, { backtestStart: { bar: 20 } });
    expect(from.error ?? null).toBeNull();
    expect(from.series).toEqual(all.series);
    const trades = [...from.strategy!.trades, ...from.strategy!.open_trades];
    expect(trades.length).toBeGreaterThan(0);
    expect(Math.min(...trades.map((t) => t.entry_bar_index))).toBe(21);
    expect(all.strategy!.trades[0].entry_bar_index).toBe(1);
  });

  it("a time in ms counts from the bar opening at or after it", async () => {
    const r = await runBoth(SCRIPT, data, { backtestStart: data[30]!.time });
    expect(Math.min(...r.strategy!.trades.map((t) => t.entry_bar_index))).toBe(33);
  });

  it("a bad value is a clear data error", async () => {
    const r = await runBoth(SCRIPT, data, { backtestStart: { bar: -1 } });
    expect(r.error_kind).toBe("data");
    expect(r.error).toMatch(/backtestStart/);
  });

  it("the CLI flag takes bar:N, UNIX ms or an ISO date", () => {
    expect(backtestStartArg("bar:12")).toEqual({ bar: 12 });
    expect(backtestStartArg("1745182800000")).toBe(1745182800000);
    expect(backtestStartArg("2025-04-20T21:00")).toBe(Date.UTC(2025, 3, 20, 21));
    expect(backtestStartArg("2025-04-20")).toBe(Date.UTC(2025, 3, 20));
    expect(() => backtestStartArg("soon")).toThrow(/--backtest-start/);
  });
});
