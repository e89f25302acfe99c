// TradingView's outputs for na holes inside ta windows: 60 BINANCE:BTCUSDT 1h candles and
// TradingView's values on the last 12 of them (data/tv-na-window.json, extracted from TradingView and
// published with LuxAlgo/PineTS) for three na patterns: g = na every 7th bar, h = every 3rd bar,
// r = runs of three. They settle, among others: sma/sum/variance/median/stoch keep their value on an
// na bar, wma is na there, dev/cci are na while an na is among the last `length` bars, percentrank
// does not count na, rising/falling runs skip steps touching na, crosses compare with the last pair
// before the gap. Every cell must match to 1e-9 relative, except variance/stdev/correlation: their
// moment form cancels ~6 digits on prices near 77,000 and TradingView's window sums carry rounding
// from the 41,141 bars before these 60, so those match to 1e-8 (observed gap up to 4e-9).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Bar } from "../../src/core/result.js";
import { runBoth, v6 } from "../helpers/run-both.js";

interface Fixture {
  firstBarIndex: number;
  candles: { openTime: number; open: number; high: number; low: number; close: number; volume: number }[];
  tv: Record<string, (number | null)[]>;
}
const fx = JSON.parse(readFileSync(new URL("./data/tv-na-window.json", import.meta.url), "utf8")) as Fixture;

const b = (x: string) => `(${x} ? 1 : 0)`;
const EXPR: Record<string, string> = {};
for (const s of ["g", "h"]) {
  Object.assign(EXPR, {
    [`sma ${s}`]: `ta.sma(${s}, 5)`,
    [`sum ${s}`]: `math.sum(${s}, 5)`,
    [`wma ${s}`]: `ta.wma(${s}, 5)`,
    [`vwma ${s}`]: `ta.vwma(${s}, 5)`,
    [`variance ${s}`]: `ta.variance(${s}, 5)`,
    [`stdev ${s}`]: `ta.stdev(${s}, 5)`,
    [`dev ${s}`]: `ta.dev(${s}, 5)`,
    [`median ${s}`]: `ta.median(${s}, 5)`,
    [`prank ${s}`]: `ta.percentrank(${s}, 5)`,
    [`cci ${s}`]: `ta.cci(${s}, 5)`,
  });
}
Object.assign(EXPR, {
  "hma g": "ta.hma(g, 9)",
  "corr g close": "ta.correlation(g, close, 5)",
  "corr h volume": "ta.correlation(h, volume, 5)",
  "stoch g": "ta.stoch(g, high, low, 5)",
  "rising g 3": b("ta.rising(g, 3)"),
  "falling g 3": b("ta.falling(g, 3)"),
  "rising h 2": b("ta.rising(h, 2)"),
  "falling h 2": b("ta.falling(h, 2)"),
  "crossover g": b("ta.crossover(g, ta.sma(close, 5))"),
  "crossunder g": b("ta.crossunder(g, ta.sma(close, 5))"),
  "crossover sma h": b("ta.crossover(ta.sma(close, 5), h)"),
  "cross g": b("ta.cross(g, ta.sma(close, 5))"),
  "sma r": "ta.sma(r, 5)",
  "sum r": "math.sum(r, 5)",
  "wma r": "ta.wma(r, 5)",
  "variance r": "ta.variance(r, 5)",
  "median r": "ta.median(r, 5)",
  "dev r": "ta.dev(r, 5)",
  "prank r": "ta.percentrank(r, 5)",
  "cci r": "ta.cci(r, 5)",
  "stoch r": "ta.stoch(r, high, low, 5)",
  "rising 3 r": b("ta.rising(r, 3)"),
  "falling 2 r": b("ta.falling(r, 2)"),
  "crossover r": b("ta.crossover(r, ta.sma(close, 5))"),
  "cross r": b("ta.cross(r, ta.sma(close, 5))"),
  "stoch flat": "ta.stoch(x, x, x, 5)",
  "stoch flat hl": "ta.stoch(close, x, x, 5)",
});

/** Moment-form columns whose last digits depend on window-sum rounding from before the fixture. */
const CANCELLING = /^(variance|stdev|corr) /;

describe("na inside ta windows: TradingView's values (BTCUSDT 1h)", () => {
  it("every column, every cell", async () => {
    expect(Object.keys(EXPR).sort()).toEqual(Object.keys(fx.tv).sort());
    const script = v6(
      [
        `int bi = bar_index + ${fx.firstBarIndex}`,
        "g = bi % 7 == 0 ? na : close",
        "h = bi % 3 == 0 ? na : close",
        "r = bi % 11 < 3 ? na : close",
        "x = bi % 20 < 8 ? 5.0 : close",
        ...Object.entries(EXPR).map(([title, e]) => `plot(${e}, "${title}")`),
      ].join("\n"),
    );
    const bars: Bar[] = fx.candles.map((c) => ({
      time: c.openTime,
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume: c.volume,
    }));
    const r = await runBoth(script, bars);
    expect(r.error).toBeUndefined();
    const misses: string[] = [];
    for (const [title, want] of Object.entries(fx.tv)) {
      const got = r.series[title].slice(-want.length);
      const tol = CANCELLING.test(title) ? 1e-8 : 1e-9;
      want.forEach((w, i) => {
        const g = got[i];
        const ok =
          w === null ? g === null : g !== null && Math.abs((g as number) - w) <= tol * Math.max(1, Math.abs(w));
        if (!ok) misses.push(`${title} [${i}]: got ${g}, TradingView ${w}`);
      });
    }
    expect(misses).toEqual([]);
  });
});
