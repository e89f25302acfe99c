// A window in days is honoured on intraday bars: "20 day high" on the 15-minute sample is the highest
// high of the 20 completed days before the bar's day (request.security on "D"), not of 20 bars.
import { describe, expect, it } from "vitest";
import { generate } from "../../src/generate/index.js";
import { understand } from "../../src/generate/understand.js";
import { expectationsOf } from "../../src/generate/intent.js";
import { sampleBars } from "../../src/generate/sample-bars.js";
import { runBoth } from "../helpers/run-both.js";

const DAY = 86_400_000;

/**
 * Walks the intraday bars: while fewer than 20 UTC days have completed the line must be na; after that
 * `check(i, d)` compares bar i (of UTC day d) with the 20 days before d. Returns how many it compared.
 */
function afterTwentyDays(
  bars: { time: number }[],
  line: (number | null)[],
  check: (i: number, d: number) => void,
): number {
  const firstDay = Math.floor(bars[0]!.time / DAY);
  let checked = 0;
  bars.forEach((b, i) => {
    const d = Math.floor(b.time / DAY);
    if (d - firstDay < 20) {
      expect(line[i], `bar ${i}: fewer than 20 completed days`).toBeNull();
      return;
    }
    check(i, d);
    checked++;
  });
  return checked;
}

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
    const checked = afterTwentyDays(bars, line, (i, d) => {
      let want = -Infinity;
      for (let k = d - 20; k < d; k++) want = Math.max(want, dayHigh.get(k)!);
      expect(line[i], `bar ${i}`).toBe(want);
    });
    expect(checked).toBeGreaterThan(1000);
  });

  it("'20 day sma' is the average of the previous 20 daily closes on 15-minute bars", async () => {
    const a = await generate("buy when price crosses above the 20 day sma, sell when it crosses below");
    expect(a.script).toMatch(
      /request\.security\(syminfo\.tickerid, "D", ta\.sma\(close, sma20DayLength\)\[1\], lookahead = barmerge\.lookahead_on\)/,
    );
    const bars = sampleBars(null);
    const r = await runBoth(a.script, bars);
    expect(r.error).toBeUndefined();
    const line = r.series["SMA 20 days"] as (number | null)[];
    // daily closes by UTC day: the last bar's close of each day
    const dayClose = new Map<number, number>();
    for (const b of bars) dayClose.set(Math.floor(b.time / DAY), b.close);
    const checked = afterTwentyDays(bars, line, (i, d) => {
      let sum = 0;
      for (let k = d - 20; k < d; k++) sum += dayClose.get(k)!;
      expect(line[i], `bar ${i}`).toBeCloseTo(sum / 20, 9);
    });
    expect(checked).toBeGreaterThan(0);
    // the crossings of that line are the entries: at least one trade on the intraday bars
    expect(r.strategy!.trades.length + r.strategy!.open_trades.length).toBeGreaterThan(0);
  });

  it("on a daily chart the same script uses the chart's own bars (no day of lag)", async () => {
    const a = await generate("20 day sma cross 50 day sma, long only");
    const bars = sampleBars(null, undefined, "D");
    const r = await runBoth(a.script, bars);
    const own = await runBoth("//@version=6\nindicator('x')\nplot(ta.sma(close, 50), 'own')\n", bars);
    expect(r.series["SMA 50 days"]).toEqual(own.series.own);
  });

  it("is verified on daily bars, or hourly ones when a session's hours need intraday bars", () => {
    const tf = (text: string) => expectationsOf(understand(text)).sampleTimeframe;
    expect(tf("20 day high breakout")).toBe("D");
    expect(tf("20 day high breakout, no trades fridays")).toBe("D");
    expect(tf("20 day high breakout, session 0930-1600 ny")).toBe("60");
    expect(tf("ema 9/21 cross, session 0930-1600 ny")).toBe("15");
  });

  it("an oscillator's length in days is said to be bars of the chart, never silently", () => {
    expect(understand("14 day rsi < 30 buy").understood).toEqual(
      expect.arrayContaining([
        "length: '14 day' is 14 bars of the chart (14 days on a daily chart, not on an intraday one)",
      ]),
    );
  });
});
