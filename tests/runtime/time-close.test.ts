// ctx.timeClose is the bar's scheduled close (barTimeClose): time_close and the runtime's own bar
// close agree, e.g. a stock's daily bar closes at 16:00 New York, not at the next bar's open.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { barCloseTimes } from "../../src/runtime/bar-close.js";
import { barTimeClose } from "../../src/core/time-frames.js";

const HOUR = 3_600_000;
// Tuesday 2024-01-02 .. Friday 2024-01-05, daily bars stamped at 09:30 New York (14:30 UTC)
const dailyOpens = [2, 3, 4, 5].map((d) => Date.UTC(2024, 0, d, 14, 30));
const NY = { timezone: "America/New_York", session: "0930-1600:23456" };

describe("bar close times", () => {
  it("daily stock bars close at the session end", () => {
    const tc = barCloseTimes(Float64Array.from(dailyOpens), "1D", NY.timezone, NY.session);
    expect(Array.from(tc)).toEqual(dailyOpens.map((t) => t + 6.5 * HOUR));
  });
  it("intraday bars are cut at the session end; tick charts fall back to the next open", () => {
    // 15:30 New York hourly bar closes at 16:00
    const t = Date.UTC(2024, 0, 2, 20, 30);
    expect(barCloseTimes(Float64Array.of(t), "60", NY.timezone, NY.session)[0]).toBe(Date.UTC(2024, 0, 2, 21, 0));
    const ticks = barCloseTimes(Float64Array.of(1000, 1500), "1T", "UTC", "24x7");
    expect(ticks[0]).toBe(1500);
  });
  it("time_close in the script equals the close the runtime schedules", async () => {
    const bars = dailyOpens.map((time, i) => ({
      time,
      open: 10 + i,
      high: 11 + i,
      low: 9 + i,
      close: 10.5 + i,
      volume: 100,
    }));
    const src = `//@version=6
indicator("tc")
plot(time_close, "tc")
`;
    for (const mode of ["interpret", "compile"] as const) {
      const r = await new Runtime("NYSE:X", { timeframe: "1D", syminfo: NY }).run(src, bars, { mode });
      expect(r.error).toBeUndefined();
      expect(r.series.tc).toEqual(dailyOpens.map((t) => barTimeClose(t, "1D", NY.timezone, NY.session)));
    }
  });
  it("the broker's magnifier window ends at the scheduled close: after-hours bars are not walked", async () => {
    const bars = dailyOpens.map((time) => ({ time, open: 10, high: 11, low: 9, close: 10, volume: 100 }));
    // regular-hours hourly bars inside the daily range, plus one 17:30 New York bar that spikes to 13
    const hourly: { time: number; open: number; high: number; low: number; close: number }[] = [];
    for (const open of dailyOpens)
      for (let h = 0; h < 7; h++) hourly.push({ time: open + h * HOUR, open: 10, high: 10.5, low: 9.5, close: 10 });
    hourly.push({ time: dailyOpens[1]! + 8 * HOUR, open: 10, high: 13, low: 10, close: 12 });
    hourly.sort((a, b) => a.time - b.time);
    const src = `//@version=6
strategy("m", use_bar_magnifier = true)
if bar_index == 0
    strategy.entry("L", strategy.long, stop = 12)
`;
    for (const mode of ["interpret", "compile"] as const) {
      const r = await new Runtime("NYSE:X", { timeframe: "1D", syminfo: NY }).run(src, bars, {
        mode,
        dataFeed: { "NYSE:X|60": hourly },
      });
      expect(r.error).toBeUndefined();
      expect(r.mode).toBe(mode);
      expect(r.strategy!.trades.length + r.strategy!.open_trades.length).toBe(0);
    }
  });
});
