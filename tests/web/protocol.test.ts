import { describe, expect, it } from "vitest";
import { cloneBars, leanResult, packBars, packSeries, toColumnar, unpackSeries } from "../../src/worker/protocol.js";
import { indexOfTime } from "../../web/src/engines/optimize-loop.js";
import { barsToRows } from "../../web/src/engines/http.js";
import { makeXResolver } from "../../web/src/chart/drawings.js";

const bars = [
  { time: 1000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 },
  { time: 2000, open: 1.5, high: 2.5, low: 1, close: 2 },
];

describe("worker protocol", () => {
  it("packs row and columnar bars into Float64 columns with na volume", () => {
    const p = packBars(bars);
    expect(p.close).toBeInstanceOf(Float64Array);
    expect(Array.from(p.close)).toEqual([1.5, 2]);
    expect(p.volume[0]).toBe(10);
    expect(Number.isNaN(p.volume[1])).toBe(true);
    expect(Array.from(packBars(p).time)).toEqual([1000, 2000]);
    expect(Array.from(cloneBars(p, 1).time)).toEqual([2000]);
  });

  it("leaves volume out of columnar bars only when none is known", () => {
    const p = packBars([{ time: 1, open: 1, high: 1, low: 1, close: 1 }]);
    expect(toColumnar(p).volume).toBeUndefined();
    expect(toColumnar(packBars(bars)).volume).toBeDefined();
  });

  it("packs numeric series for transfer and keeps colour and flag columns", () => {
    const { packed, transfer } = packSeries({
      series: { a: [1, null, 3], bg: ["#FF0000", null, null], shape: [true, null, null], empty: [null, null, null] },
      plots: [1, null, 3],
    } as never);
    expect(packed.series.a).toBeInstanceOf(Float64Array);
    expect(Number.isNaN((packed.series.a as Float64Array)[1])).toBe(true);
    expect(packed.series.bg).toEqual(["#FF0000", null, null]);
    expect(packed.series.shape).toEqual([true, null, null]);
    expect(packed.series.empty).toEqual([null, null, null]);
    expect(transfer).toHaveLength(1);
    expect(packed.plots).toBeUndefined();
  });

  it("packs plot_ohlc price columns for transfer and keeps their colour arrays", () => {
    const { packed, transfer } = packSeries({
      series: { c: [2, null] },
      plot_ohlc: {
        c: { open: [1, null], high: [3, null], low: [0.5, null], close: [2, null], wickcolor: ["#FF0000", null] },
      },
    } as never);
    const o = packed.plot_ohlc!.c!;
    for (const k of ["open", "high", "low", "close"] as const) expect(o[k]).toBeInstanceOf(Float64Array);
    expect(Array.from(o.high as Float64Array)).toEqual([3, NaN]);
    expect(o.wickcolor).toEqual(["#FF0000", null]);
    expect(transfer).toHaveLength(5); // series c + four price columns
  });

  it("unpacks a packed result back to its JSON form (na as null, plots as the first series)", () => {
    const result = {
      series: { a: [1, null, 3], bg: ["#FF0000", null, null], empty: [null, null, null] },
      plots: [1, null, 3],
      plot_ohlc: { c: { open: [1, null, 2], high: [3, null, 4], low: [0.5, null, 1], close: [2, null, 3] } },
      events: [],
    };
    const { packed } = packSeries(result as never);
    expect(JSON.parse(JSON.stringify(unpackSeries(packed)))).toEqual(result);
  });

  it("lean results drop what trials do not need", () => {
    const lean = leanResult({
      series: { a: [1] },
      drawings: [{}],
      events: [{}],
      strategy: { trades: [1], open_trades: [], stats: {}, equity: [1, 2] },
    } as never);
    expect(lean.series).toEqual({});
    expect(lean.plot_ohlc).toBeUndefined();
    expect(lean.drawings).toEqual([]);
    expect(lean.strategy?.trades).toEqual([1]);
    expect(lean.strategy?.equity).toEqual([]);
  });
});

describe("engine helpers", () => {
  it("finds validation slices by their first bar time", () => {
    const t = new Float64Array([10, 20, 30, 40]);
    expect(indexOfTime(t, 10)).toBe(0);
    expect(indexOfTime(t, 30)).toBe(2);
    expect(indexOfTime(t, 35)).toBe(3);
  });

  it("writes JSON rows without inventing volume", () => {
    const rows = barsToRows(packBars(bars));
    expect(rows[0]).toEqual(bars[0]);
    expect("volume" in rows[1]).toBe(false);
  });

  it("maps bar_time x coordinates to bar indices", () => {
    const x = makeXResolver(new Float64Array([1000, 2000, 3000]));
    expect(x(2000, "xloc.bar_time")).toBe(1);
    expect(x(7, "bar_index")).toBe(7);
    expect(x(4000, "bar_time")).toBe(3);
  });
});
