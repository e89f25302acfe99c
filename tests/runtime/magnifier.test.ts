// Bar magnifier through the Runtime: strategy(use_bar_magnifier = true) takes the chart symbol's
// lower-timeframe bars from RunOptions.dataFeed (the full TradingView case is in
// tests/conformance/strategy.test.ts, bar_magnifier).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2024, 0, 1);
// two daily bars; a buy stop at 105 sits inside bar 1's range
const daily = [
  { time: T0, open: 100, high: 101, low: 99, close: 100, volume: 1 },
  { time: T0 + DAY, open: 100, high: 110, low: 90, close: 100, volume: 1 },
  { time: T0 + 2 * DAY, open: 100, high: 101, low: 99, close: 100, volume: 1 },
];
// bar 1 intraday: first up to 110 (the stop fills), then down to 90 (the stop-loss at 95 is hit)
const hourly = Array.from({ length: 72 }, (_, i) => {
  const t = T0 + i * 3_600_000;
  if (i === 25) return { time: t, open: 100, high: 110, low: 100, close: 108, volume: 1 };
  if (i === 26) return { time: t, open: 108, high: 108, low: 90, close: 100, volume: 1 };
  return { time: t, open: 100, high: 100.5, low: 99.5, close: 100, volume: 1 };
});

const script = (magnify: boolean) => `//@version=6
strategy("m", use_bar_magnifier = ${magnify})
if bar_index == 0
    strategy.entry("L", strategy.long, stop = 105)
    strategy.exit("X", "L", stop = 95)
`;

describe("bar magnifier", () => {
  it("walks the dataFeed's lower-timeframe bars when use_bar_magnifier = true", async () => {
    const rt = new Runtime("CHART", { timeframe: "1D" });
    const on = await rt.run(script(true), daily, { dataFeed: { "CHART|60": hourly } });
    expect(on.error).toBeUndefined();
    const off = await rt.run(script(false), daily, { dataFeed: { "CHART|60": hourly } });
    expect(off.error).toBeUndefined();
    const closedOn = on.strategy?.trades ?? [];
    // magnified: entry at 105 then the stop at 95 inside the same day -> one closed losing trade
    expect(closedOn.length).toBe(1);
    expect(closedOn[0]!.exit_price).toBe(95);
    // the same run without the magnifier does not see the intraday order of the moves
    expect(JSON.stringify(off.strategy?.trades)).not.toBe(JSON.stringify(on.strategy?.trades));
  });
  it("bad magnifier bars are a data error, not a throw", async () => {
    const rt = new Runtime("CHART", { timeframe: "1D" });
    const r = await rt.run(script(true), daily, {
      dataFeed: { "CHART|60": [{ time: T0, open: 1, high: 0, low: 2, close: 1 }] },
    });
    expect(r.error_kind).toBe("data");
    expect(r.error).toMatch(/bar magnifier data: bar 0: high 0 is below low 2/);
  });
});
