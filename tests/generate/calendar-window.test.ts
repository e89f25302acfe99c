// A window in days is honoured on intraday bars: "20 day high" on the 15-minute sample is the highest
// high of the 20 completed days before the bar's day (request.security on "D"), not of 20 bars.
import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate/index.js";
import { understand } from "../../src/generate/understand.js";
import { sampleBars } from "../../src/generate/sample-bars.js";
import { runBoth } from "../helpers/run-both.js";

const DAY = 86_400_000;

describe("resin generate: windows in days on intraday bars", () => {
  it("'20 day high' is the high of the previous 20 days on 15-minute bars", async () => {
    const a = await generate("20 day high breakout, 2 atr stop");
    const bars = sampleBars(null); // 15-minute bars, UTC days
    const r = await runBoth(a.script, bars);
    expect(r.error).toBeUndefined();
    const line = r.series["20-day high"] as (number | null)[];
    // daily highs by UTC day
    const dayHigh = new Map<number, number>();
    for (const b of bars) {
      const d = Math.floor(b.time / DAY);
      dayHigh.set(d, Math.max(dayHigh.get(d) ?? -Infinity, b.high));
    }
    const firstDay = Math.floor(bars[0]!.time / DAY);
    let checked = 0;
    bars.forEach((b, i) => {
      const d = Math.floor(b.time / DAY);
      if (d - firstDay < 20) {
        expect(line[i], `bar ${i}: fewer than 20 completed days`).toBeNull();
        return;
      }
      let want = -Infinity;
      for (let k = d - 20; k < d; k++) want = Math.max(want, dayHigh.get(k)!);
      expect(line[i], `bar ${i}`).toBe(want);
      checked++;
    });
    expect(checked).toBeGreaterThan(1000);
  });

  it("an average's length in days is said to be bars of the chart, never silently", async () => {
    const a = await generate("buy when price crosses above the 50 day sma, sell when it crosses below");
    expect(a.script).toMatch(/ta\.sma\(close, sma50Length\)/);
    expect(understand("50 day ema / 200 day ema cross").understood).toEqual(
      expect.arrayContaining([
        "length: '50 day' is 50 bars of the chart (50 days on a daily chart, not on an intraday one)",
        "length: '200 day' is 200 bars of the chart (200 days on a daily chart, not on an intraday one)",
      ]),
    );
  });
});
