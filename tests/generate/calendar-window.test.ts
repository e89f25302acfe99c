// A window in days is honoured on intraday bars: "20 day high" on the 15-minute sample is the highest
// high of the 20 completed days before the bar's day (request.security on "D"), not of 20 bars.
import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate/index.js";
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
});
