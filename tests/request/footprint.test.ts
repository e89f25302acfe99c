// request.footprint, footprint.*, volume_row.*, earnings.future_*, dividends.future_*, ask and bid:
// values from the data feed's documented records (src/builtins/request/README.md), na without them.
// Footprint numbers hand-computed: mintick 0.01, ticks_per_row 10 -> rows of 0.10.
import { describe, expect, it } from "vitest";
import { check, parse, registry } from "../../src/index.js";
import type { Bar, SymInfo } from "../../src/index.js";
import { runBoth, v6 } from "../helpers/run-both.js";

const M = 60_000;
const T0 = Date.UTC(2024, 0, 1);
const NA = null;
const chart: Bar[] = Array.from({ length: 3 }, (_, i) => ({
  time: T0 + i * M,
  open: 10,
  high: 10.5,
  low: 9.9,
  close: 10.2,
  volume: 20,
}));
const runtime = { timeframe: "1", syminfo: { mintick: 0.01 } as SymInfo };

/** Prints as bar-shaped rows: [ms after T0, price, size]. */
function prints(rows: [number, number, number][]): Bar[] {
  return rows.map(([t, p, v]) => ({ time: T0 + t, open: p, high: p, low: p, close: p, volume: v }));
}

// bar 0: buys 10.01 x5, 10.25 x3, 10.27 x1; sells 9.95 x4, 10.05 x2, 10.26 x6
// rows: [9.9,10.0) b0 s4 | [10.0,10.1) b5 s2 | [10.1,10.2) b0 s0 | [10.2,10.3) b4 s6
// bar 1: one buy at 10.4 x2; bar 2: no print
const feed = {
  "TRADES:CHART:buy": prints([
    [1000, 10.01, 5],
    [2000, 10.25, 3],
    [2500, 10.27, 1],
    [M + 5000, 10.4, 2],
  ]),
  "TRADES:CHART:sell": prints([
    [1500, 9.95, 4],
    [1600, 10.05, 2],
    [3000, 10.26, 6],
  ]),
};

const body = `fp = request.footprint(10, 70, 200)
plot(na(fp) ? 0 : 1, "has")
plot(fp.buy_volume(), "buy")
plot(footprint.sell_volume(fp), "sell")
plot(fp.total_volume(), "total")
plot(fp.delta(), "delta")
volume_row poc = fp.poc()
plot(poc.down_price(), "pocDown")
plot(volume_row.up_price(fp.vah()), "vahUp")
plot(fp.val().down_price(), "valDown")
array<volume_row> rows = fp.rows()
plot(na(rows) ? na : rows.size(), "rows")
// the row checks read bar 0's four rows only
first = bar_index == 0
plot(first ? rows.get(1).delta() : na, "row1delta")
r = fp.get_row_by_price(10.15)
plot(r.total_volume(), "row3total")
plot(na(fp.get_row_by_price(11)) ? 1 : 0, "outside")
plot(first ? (rows.get(1).has_buy_imbalance() ? 1 : 0) : na, "buyImb1")
plot(first ? (rows.get(3).has_buy_imbalance() ? 1 : 0) : na, "buyImb3")
plot(first ? (rows.get(0).has_sell_imbalance() ? 1 : 0) : na, "sellImb0")
plot(first ? (rows.get(3).has_sell_imbalance() ? 1 : 0) : na, "sellImb3")`;

describe("request.footprint", () => {
  it("bins the bar's classified prints into rows: volumes, POC, value area, imbalances", async () => {
    const r = await runBoth(v6(body), chart, { runtime, dataFeed: feed });
    expect(r.error).toBeUndefined();
    const s = r.series;
    expect(s.has).toEqual([1, 1, 0]);
    expect(s.buy).toEqual([9, 2, NA]);
    expect(s.sell).toEqual([12, 0, NA]);
    expect(s.total).toEqual([21, 2, NA]);
    expect(s.delta).toEqual([-3, 2, NA]);
    // POC: [10.2, 10.3) with 10; value area 70% of 21 = 14.7: POC 10, then [10.1,10.2) 0 vs... the
    // upper side is exhausted, so the rows below join: 10 + 0 + 7 = 17 >= 14.7
    expect(s.pocDown).toEqual([10.2, 10.4, NA]);
    expect(s.vahUp).toEqual([10.3, 10.5, NA]);
    expect(s.valDown).toEqual([10, 10.4, NA]);
    expect(s.rows).toEqual([4, 1, NA]);
    expect(s.row1delta![0]).toBe(3);
    expect(s.row3total![0]).toBe(0);
    expect(s.outside).toEqual([1, 1, 1]);
    // row 1 buys 5 > 200% of row 0's sells (4)? 5 > 8 no; row 3 buys 4 > 200% of row 2's sells (0): yes
    expect(s.buyImb1![0]).toBe(0);
    expect(s.buyImb3![0]).toBe(1);
    // row 0 sells 4 > 200% of row 1's buys (10)? no; the top row has no row above: false
    expect(s.sellImb0![0]).toBe(0);
    expect(s.sellImb3![0]).toBe(0);
    expect(r.meta.requests).toEqual([{ symbol: "TRADES:CHART", timeframe: "", source: "dataFeed", bars: 7 }]);
  });

  it("without trades in the feed: na on every bar and a meta note, never invented volume", async () => {
    const r = await runBoth(
      v6(
        `fp = request.footprint(10)\nplot(na(fp) ? 0 : 1, "has")\nplot(fp.buy_volume(), "buy")\nplot(fp.poc().up_price(), "poc")`,
      ),
      chart,
      { runtime },
    );
    expect(r.error).toBeUndefined();
    expect(r.series.has).toEqual([0, 0, 0]);
    expect(r.series.buy).toEqual([NA, NA, NA]);
    expect(r.series.poc).toEqual([NA, NA, NA]);
    expect((r.meta.requests as { source: string; note?: string }[])[0]).toMatchObject({
      source: "none",
      note: expect.stringMatching(/TRADES/),
    });
  });

  it("bad arguments and a second call site are runtime errors", async () => {
    const zero = await runBoth(v6(`fp = request.footprint(0)\nplot(fp.delta())`), chart, { runtime, dataFeed: feed });
    expect(zero.error).toMatch(/ticks_per_row must be a positive integer/);
    const two = await runBoth(
      v6(`a = request.footprint(10)\nb = request.footprint(20)\nplot(a.delta() + b.delta())`),
      chart,
      { runtime, dataFeed: feed },
    );
    expect(two.error).toMatch(/more than one request.footprint/);
  });

  it("the checker types footprint and volume_row as builtins.json says", () => {
    const ok = check(
      parse(
        v6(
          `fp = request.footprint(5)\nfloat d = fp.delta()\nvolume_row r = fp.poc()\nbool b = r.has_sell_imbalance()\narray<volume_row> rs = fp.rows()\nplot(d)`,
        ),
      ).ast,
      registry,
      [],
    );
    expect(ok.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    const bad = check(parse(v6(`fp = request.footprint(5)\nfloat x = fp.poc()\nplot(x)`)).ast, registry, []);
    expect(bad.program).toBeUndefined();
  });
});

describe("earnings.future_* and dividends.future_*", () => {
  const t = (ms: number, v: number): Bar => ({ time: ms, open: v, high: v, low: v, close: v, volume: 0 });
  const end = T0 + 3 * M;
  const records = {
    // a past report, then the next one: the next one counts
    "EARNINGS:CHART:estimate": [t(T0 - M, 1.1), t(end + 10 * M, 1.25), t(end + 100 * M, 1.4)],
    "EARNINGS:CHART:revenue_estimate": [t(end + 10 * M, 5e9)],
    "EARNINGS:CHART:period_end": [t(end + 10 * M, end - 5 * M)],
    "DIVIDENDS:CHART:gross": [t(end + 20 * M, 0.24)],
    "DIVIDENDS:CHART:pay_date": [t(end + 20 * M, end + 40 * M)],
  };
  const src = v6(`plot(earnings.future_eps, "eps")
plot(earnings.future_time, "et")
plot(earnings.future_revenue, "rev")
plot(earnings.future_period_end_time, "pe")
plot(dividends.future_amount, "amt")
plot(dividends.future_ex_date, "ex")
plot(dividends.future_pay_date, "pay")`);

  it("the first record after the data's end, the same value on every bar", async () => {
    const r = await runBoth(src, chart, { runtime, dataFeed: records });
    expect(r.error).toBeUndefined();
    expect(r.series.eps).toEqual([1.25, 1.25, 1.25]);
    expect(r.series.et).toEqual(new Array(3).fill(end + 10 * M));
    expect(r.series.rev).toEqual(new Array(3).fill(5e9));
    expect(r.series.pe).toEqual(new Array(3).fill(end - 5 * M));
    expect(r.series.amt).toEqual(new Array(3).fill(0.24));
    expect(r.series.ex).toEqual(new Array(3).fill(end + 20 * M));
    expect(r.series.pay).toEqual(new Array(3).fill(end + 40 * M));
  });

  it("without records (or only past ones): na", async () => {
    const r = await runBoth(src, chart, { runtime, dataFeed: { "EARNINGS:CHART:estimate": [t(T0 - M, 1.1)] } });
    for (const k of ["eps", "et", "rev", "pe", "amt", "ex", "pay"]) expect(r.series[k], k).toEqual([NA, NA, NA]);
  });
});

describe("ask and bid", () => {
  const quotes = {
    "ASK:CHART": [{ time: T0 - 1, open: 10.3, high: 10.3, low: 10.3, close: 10.3, volume: 0 }],
    "BID:CHART": [{ time: T0 - 1, open: 10.1, high: 10.1, low: 10.1, close: 10.1, volume: 0 }],
  };
  const src = v6(`plot(ask, "ask")\nplot(bid, "bid")`);

  it("na on a chart that is not 1T, realtime bars included", async () => {
    const r = await runBoth(src, chart, { runtime, dataFeed: quotes, realtimeLastBar: true });
    expect(r.series.ask).toEqual([NA, NA, NA]);
  });

  it("on a 1T chart: na on historical ticks, the quote in force on realtime ones", async () => {
    const r = await runBoth(src, chart, {
      runtime: { ...runtime, timeframe: "1T" },
      dataFeed: quotes,
      realtimeBars: 2,
    });
    expect(r.error).toBeUndefined();
    expect(r.series.ask).toEqual([NA, 10.3, 10.3]);
    expect(r.series.bid).toEqual([NA, 10.1, 10.1]);
    expect(r.meta.requests).toEqual([
      { symbol: "ASK:CHART", timeframe: "", source: "dataFeed", bars: 1 },
      { symbol: "BID:CHART", timeframe: "", source: "dataFeed", bars: 1 },
    ]);
  });

  it("on a 1T chart without quotes: na", async () => {
    const r = await runBoth(src, chart, { runtime: { ...runtime, timeframe: "1T" }, realtimeBars: 2 });
    expect(r.series.ask).toEqual([NA, NA, NA]);
  });
});
