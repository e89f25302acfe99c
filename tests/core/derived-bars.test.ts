// Non-standard chart types built from a symbol's own bars (src/core/derived-bars.ts): each
// construction on a hand-made close path whose bricks, lines and columns can be counted by hand.
import { describe, expect, it } from "vitest";
import { deriveBars, DerivedBarsError } from "../../src/core/derived-bars.js";
import type { BarColumns } from "../../src/core/bars.js";

/** Bars one minute apart whose open is the previous close and whose wicks reach 0.25 beyond the body. */
function fromCloses(closes: number[], first = closes[0]!): { bars: BarColumns; timeClose: Float64Array } {
  const n = closes.length;
  const f = (g: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => g(i));
  const open = f((i) => (i === 0 ? first : closes[i - 1]!));
  const bars: BarColumns = {
    length: n,
    time: f((i) => i * 60_000),
    open,
    high: f((i) => Math.max(open[i]!, closes[i]!) + 0.25),
    low: f((i) => Math.min(open[i]!, closes[i]!) - 0.25),
    close: Float64Array.from(closes),
    volume: f(() => 10),
  };
  return { bars, timeClose: f((i) => (i + 1) * 60_000) };
}

const rows = (d: { bars: BarColumns }) =>
  Array.from(d.bars.time, (t, i) => [t / 60_000, d.bars.open[i], d.bars.high[i], d.bars.low[i], d.bars.close[i]]);

describe("Heikin Ashi", () => {
  it("close = ohlc4, open = mean of the previous HA open and close, wicks include both", () => {
    const { bars, timeClose } = fromCloses([10, 12, 11, 13], 9);
    const d = deriveBars({ type: "heikinashi" }, bars, timeClose);
    expect(d.bars.time).toBe(bars.time);
    const c0 = (9 + 10.25 + 8.75 + 10) / 4;
    expect(d.bars.close[0]).toBe(c0);
    expect(d.bars.open[0]).toBe((9 + 10) / 2);
    expect(d.bars.open[1]).toBe((d.bars.open[0]! + c0) / 2);
    for (let i = 0; i < 4; i++) {
      expect(d.bars.high[i]).toBe(Math.max(bars.high[i]!, d.bars.open[i]!, d.bars.close[i]!));
      expect(d.bars.low[i]).toBe(Math.min(bars.low[i]!, d.bars.open[i]!, d.bars.close[i]!));
    }
  });
});

describe("Renko", () => {
  it("bricks of the box size in the trend, a reversal after two boxes, several bricks on one bar", () => {
    // 100 -> 103.5 (3 up bricks on one bar) -> 102.5 (no brick: needs 101) -> 99.5 (2 down: 102-101, 101-100)
    const { bars, timeClose } = fromCloses([100, 103.5, 102.5, 99.5]);
    const d = deriveBars({ type: "renko", params: { style: "Traditional", param: 1 } }, bars, timeClose);
    expect(rows(d)).toEqual([
      [1, 100, 101, 100, 101],
      [1, 101, 102, 101, 102],
      [1, 102, 103, 102, 103],
      [3, 102, 102, 101, 101],
      [3, 101, 101, 100, 100],
    ]);
    expect(Array.from(d.timeClose)).toEqual([2, 2, 2, 4, 4].map((m) => m * 60_000));
  });
  it("wicks are the source extremes since the previous brick", () => {
    const { bars, timeClose } = fromCloses([100, 101.5]);
    const d = deriveBars(
      { type: "renko", params: { style: "Traditional", param: 1, request_wicks: true } },
      bars,
      timeClose,
    );
    expect(rows(d)).toEqual([[1, 100, 101.75, 99.75, 101]]);
  });
  it("ATR style sizes the box by ta.atr(param) on the last bar", () => {
    const { bars, timeClose } = fromCloses([100, 101, 102, 103, 104, 105], 99);
    // every true range is 1.5 (body 1 + wicks 0.25 each): ATR 1.5, bricks from 100 at 101.5, 103, 104.5
    const d = deriveBars({ type: "renko", params: { style: "ATR", param: 3 } }, bars, timeClose);
    expect(Array.from(d.bars.close)).toEqual([101.5, 103, 104.5]);
  });
});

describe("Line break", () => {
  it("a new line beyond the last close, a reversal beyond the extreme of the last 3 lines", () => {
    // first line 99 -> 100; 101, 102 continue; 101.5 neither; 98.5 breaks below 100 (the low of the last 3)
    const { bars, timeClose } = fromCloses([100, 101, 102, 101.5, 98.5], 99);
    const d = deriveBars({ type: "linebreak", params: { number_of_lines: 3 } }, bars, timeClose);
    expect(rows(d)).toEqual([
      [0, 99, 100, 99, 100],
      [1, 100, 101, 100, 101],
      [2, 101, 102, 101, 102],
      [4, 101, 101, 98.5, 98.5],
    ]);
  });
});

describe("Kagi and Point & Figure on close", () => {
  it("kagi: a segment ends when the close reverses by the amount; the forming one is the last bar", () => {
    const { bars, timeClose } = fromCloses([100, 102, 104, 103, 101, 99, 100]);
    const d = deriveBars({ type: "kagi", params: { reversal: 2 } }, bars, timeClose);
    expect(rows(d)).toEqual([
      [4, 100, 104, 100, 104],
      [6, 104, 104, 99, 99],
    ]);
  });
  it("point & figure: X and O columns on the box grid, reversed after `reversal` boxes", () => {
    const { bars, timeClose } = fromCloses([100, 101.2, 103.4, 102, 100.1, 99.4]);
    const d = deriveBars(
      { type: "pointfigure", params: { source: "close", style: "Traditional", param: 1, reversal: 3 } },
      bars,
      timeClose,
    );
    expect(rows(d)).toEqual([
      // the X column 100-103 ends when 99.4 is 3 boxes below its top; the O column 102-100 is forming
      [5, 100, 103, 100, 103],
      [5, 102, 102, 100, 100],
    ]);
  });
});

describe("Point & Figure on high/low and percentage boxes", () => {
  it("an X column extends with the highs and reverses on a low `reversal` boxes below its top", () => {
    // highs reach 103.25 on bar 2 (X to 103); bar 3's low 99.75 is 3 boxes below: the X column ends
    const { bars, timeClose } = fromCloses([100, 101.5, 103, 100]);
    const d = deriveBars(
      { type: "pointfigure", params: { source: "hl", style: "Traditional", param: 1, reversal: 3 } },
      bars,
      timeClose,
    );
    expect(rows(d)).toEqual([
      [3, 100, 103, 100, 103],
      [3, 102, 102, 100, 100],
    ]);
  });
  it("a Percentage box is param % of the last close", () => {
    const { bars, timeClose } = fromCloses([100, 102, 104, 103, 101, 99, 100]);
    // 2 % of 100 is the kagi reversal 2 of the test above: the same segments
    const d = deriveBars({ type: "kagi", params: { param: 2, style: "Percentage" } }, bars, timeClose);
    expect(rows(d)).toEqual([
      [4, 100, 104, 100, 104],
      [6, 104, 104, 99, 99],
    ]);
  });
});

describe("what cannot be built is an error naming the parameter", () => {
  const { bars, timeClose } = fromCloses([100, 101]);
  it.each([
    [{ type: "renko", params: { style: "Traditional", param: 1, source: "OHLC" } }, /source "OHLC"/],
    [{ type: "renko", params: { style: "Percentage", param: 1 } }, /style "Percentage"/],
    [{ type: "pointfigure", params: { source: "open", style: "Traditional", param: 1, reversal: 3 } }, /source "open"/],
    [{ type: "renko", params: { style: "Traditional", param: 0 } }, /box size/],
    [{ type: "range", params: {} }, /chart type "range"/],
  ])("%j", (spec, message) => {
    expect(() => deriveBars(spec, bars, timeClose)).toThrow(DerivedBarsError);
    expect(() => deriveBars(spec, bars, timeClose)).toThrow(message);
  });
});
