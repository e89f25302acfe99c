// Choosing the bar magnifier's lower-timeframe bars from a run's data feed.
import { describe, expect, it } from "vitest";
import { magnifierBarsFrom, timeframeSeconds } from "../../src/strategy/index.js";

const bars = (tag: number) => [{ time: tag, open: 1, high: 1, low: 1, close: 1 }];

describe("magnifierBarsFrom", () => {
  it("reads timeframes in TradingView notation", () => {
    expect([
      timeframeSeconds("15"),
      timeframeSeconds("60"),
      timeframeSeconds("D"),
      timeframeSeconds("1W"),
      timeframeSeconds("30S"),
    ]).toEqual([900, 3600, 86400, 604800, 30]);
    expect(timeframeSeconds("bogus")).toBeNaN();
  });

  it("takes the chart symbol's largest lower timeframe that divides the chart's", () => {
    // 1D chart: 60 divides a day and beats 15; 2D is not lower; another symbol's 240 is ignored.
    const feed = { "CHART|15": bars(15), "CHART|60": bars(60), "CHART|2D": bars(2), "OTHER|240": bars(240) };
    expect(magnifierBarsFrom(feed, "CHART", "D")).toEqual(bars(60));
    expect(magnifierBarsFrom(feed, "CHART", "60")).toEqual(bars(15));
    expect(magnifierBarsFrom(feed, "CHART", "15")).toBeNull();
    expect(magnifierBarsFrom(undefined, "CHART", "D")).toBeNull();
  });
});
