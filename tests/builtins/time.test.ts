// time / time_close / time_tradingday / timestamp / civil-field builtins through the Runtime.
import { describe, expect, it } from "vitest";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import type { Bar, SymInfo } from "../../src/core/result.js";

const NY_STOCK: SymInfo = { timezone: "America/New_York", session: "0930-1600:23456", type: "stock" };
const FX: SymInfo = { timezone: "America/New_York", session: "1700-1700:23456", type: "forex" };

function hourly(startUtc: number, n: number, stepMs = 3_600_000): Bar[] {
  return Array.from({ length: n }, (_, i) => ({
    time: startUtc + i * stepMs,
    open: 1,
    high: 2,
    low: 0.5,
    close: 1.5,
    volume: 1,
  }));
}

async function plots(body: string, bars: Bar[], syminfo: SymInfo, symbol = "CHART", version = 6) {
  const r = await runBoth(version === 6 ? v6(body) : v5(body), bars, { symbol, runtime: { syminfo } });
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r.series;
}

describe("time functions", () => {
  // Monday 2024-06-03 09:30 New York = 13:30 UTC; 7 regular hourly bars, then after-hours bars.
  const bars = hourly(Date.UTC(2024, 5, 3, 13, 30), 10);

  it("time(tf, session, tz) is na outside the session and the period open inside it", async () => {
    const s = await plots(
      `plot(time("60", "0930-1600", "America/New_York"), "in")\nplot(time("D"), "d")\nplot(time_close("D"), "dc")`,
      bars,
      NY_STOCK,
    );
    expect(s.in!.slice(0, 7)).toEqual(bars.slice(0, 7).map((b) => b.time));
    expect(s.in!.slice(7)).toEqual([null, null, null]);
    expect(s.d![0]).toBe(Date.UTC(2024, 5, 3, 13, 30));
    expect(s.dc![3]).toBe(Date.UTC(2024, 5, 3, 20));
  });
  it("bars_back looks back in the data, timeframe_bars_back shifts whole periods", async () => {
    const s = await plots(
      `plot(time("", "", 1), "prev")\nplot(time("D", "", 0, 1), "prevDay")\nplot(time("D", "", -1), "next")`,
      bars,
      NY_STOCK,
    );
    expect(s.prev![0]).toBeNull();
    expect(s.prev![3]).toBe(bars[2]!.time);
    expect(s.prevDay![2]).toBe(Date.UTC(2024, 4, 31, 13, 30)); // Friday before
    expect(s.next![6]).toBe(Date.UTC(2024, 5, 4, 13, 30)); // the bar after 15:30 opens the next day
  });
  it("time_tradingday is 00:00 UTC of the trading day (forex evenings belong to the next day)", async () => {
    // Sunday 2024-06-02 17:00 New York = 21:00 UTC.
    const fx = hourly(Date.UTC(2024, 5, 2, 21), 30);
    const s = await plots(`plot(time_tradingday, "td")\nplot(dayofweek(time_tradingday, "UTC+0"), "dow")`, fx, FX);
    expect(s.td![0]).toBe(Date.UTC(2024, 5, 3));
    expect(s.dow![0]).toBe(2); // Monday
    expect(s.td![23]).toBe(Date.UTC(2024, 5, 3)); // Monday 16:00 NY
    expect(s.td![24]).toBe(Date.UTC(2024, 5, 4)); // Monday 17:00 NY opens Tuesday
  });
  it("civil fields in the exchange zone and in a given zone", async () => {
    const s = await plots(
      `plot(hour, "h")\nplot(hour(time, "UTC"), "hu")\nplot(dayofweek, "dw")\nplot(weekofyear, "w")\nplot(dayofweek.monday, "mon")`,
      bars,
      NY_STOCK,
    );
    expect(s.h![0]).toBe(9);
    expect(s.hu![0]).toBe(13);
    expect(s.dw![0]).toBe(2);
    expect(s.w![0]).toBe(23);
    expect(s.mon![0]).toBe(2);
  });
  it("timestamp() in every overload", async () => {
    const s = await plots(
      [
        `plot(timestamp(2024, 1, 2, 9, 30), "exch")`,
        `plot(timestamp("UTC", 2024, 1, 2, 9, 30), "utc")`,
        `plot(timestamp("GMT+3", 2024, 1, 2), "gmt3")`,
        `plot(timestamp(timezone = "Asia/Kolkata", year = 2024, month = 1, day = 2, hour = 9, minute = 30), "named")`,
        `plot(timestamp("2025-01-01 01:23:45-05:00"), "iso")`,
        `plot(timestamp("Feb 01 2020 22:10:05"), "rfc")`,
      ].join("\n"),
      bars.slice(0, 1),
      NY_STOCK,
    );
    expect(s.exch![0]).toBe(Date.UTC(2024, 0, 2, 14, 30)); // exchange zone New York (EST)
    expect(s.utc![0]).toBe(Date.UTC(2024, 0, 2, 9, 30));
    expect(s.gmt3![0]).toBe(Date.UTC(2024, 0, 1, 21));
    expect(s.named![0]).toBe(Date.UTC(2024, 0, 2, 4));
    expect(s.iso![0]).toBe(Date.UTC(2025, 0, 1, 6, 23, 45));
    expect(s.rfc![0]).toBe(Date.UTC(2020, 1, 1, 22, 10, 5));
  });
  it("an unknown time zone is a runtime error naming it", async () => {
    const r = await runBoth(v6(`plot(hour(time, "Mars/Olympus"))`), bars.slice(0, 2));
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/Mars\/Olympus/);
  });
  it("time_close is the session's scheduled close: cut at 16:00, and 16:00 for a stock's daily bar", async () => {
    const s = await plots(`plot(time_close, "tc")`, bars, NY_STOCK);
    expect(s.tc![6]).toBe(Date.UTC(2024, 5, 3, 20)); // the 15:30 bar closes with the session at 16:00
    const daily = [0, 1, 2].map((i) => ({
      time: Date.UTC(2024, 5, 3 + i, 13, 30),
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
    }));
    const d = await plots(`plot(time_close, "tc")`, daily, NY_STOCK);
    expect(d.tc).toEqual([0, 1, 2].map((i) => Date.UTC(2024, 5, 3 + i, 20)));
  });
  it("last_bar_time and time_close variables", async () => {
    const s = await plots(`plot(last_bar_time, "lbt")\nplot(time_close, "tc")`, bars, NY_STOCK);
    expect(s.lbt![0]).toBe(bars[9]!.time);
    expect(s.tc![0]).toBe(bars[1]!.time);
  });
});
