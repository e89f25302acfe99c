// syminfo.* and chart.* through the Runtime.
import { describe, expect, it } from "vitest";
import { runBoth, v6 } from "../helpers/run-both.js";
import { variables as syminfoVars } from "../../src/builtins/syminfo/index.js";
import { variables as chartVars } from "../../src/builtins/chart/index.js";
import type { Bar } from "../../src/core/result.js";
import { makeCtx, site } from "../core/fixture.js";
import { normalizeBars, isBarDataError } from "../../src/core/bars.js";

const data: Bar[] = [0, 1, 2].map((i) => ({
  time: Date.UTC(2024, 0, 1) + i * 86_400_000,
  open: 1,
  high: 2,
  low: 0.5,
  close: 1.5,
}));

async function strings(body: string, symbol = "CHART", syminfo = {}) {
  // Strings are plotted through their lengths and equality flags; log lines carry the values.
  const r = await runBoth(v6(body), data, { symbol, runtime: { syminfo } });
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r;
}

describe("syminfo.*", () => {
  it("defaults and PREFIX:TICKER", async () => {
    const r = await strings(
      `if barstate.islast
    log.info("{0}|{1}|{2}|{3}|{4}|{5}|{6}|{7}|{8}", syminfo.tickerid, syminfo.prefix, syminfo.ticker, syminfo.currency, syminfo.type, syminfo.timezone, syminfo.session, syminfo.description, syminfo.root)
plot(syminfo.mintick, "mintick")
plot(syminfo.pointvalue, "pv")
plot(syminfo.pricescale, "ps")
plot(syminfo.minmove, "mm")
plot(na(syminfo.employees) ? 1 : 0, "emp")
plot(na(syminfo.target_price_high) ? 1 : 0, "tph")`,
      "BINANCE:BTCUSDT",
    );
    expect(r.logs.map((l) => l.message)).toEqual([
      "BINANCE:BTCUSDT|BINANCE|BTCUSDT|USD|crypto|UTC|regular|BTCUSDT|BTCUSDT",
    ]);
    expect([
      r.series.mintick![0],
      r.series.pv![0],
      r.series.ps![0],
      r.series.mm![0],
      r.series.emp![0],
      r.series.tph![0],
    ]).toEqual([0.01, 1, 100, 1, 1, 1]);
  });
  it("user syminfo wins, and syminfo.prefix()/ticker() split ids", async () => {
    const r = await strings(
      `if barstate.islast
    log.info("{0}|{1}|{2}|{3}", syminfo.currency, syminfo.prefix("NASDAQ:AAPL"), syminfo.ticker("NASDAQ:AAPL"), syminfo.basecurrency)
plot(syminfo.mintick, "mintick")`,
      "FX:EURUSD",
      { currency: "USD", basecurrency: "EUR", mintick: 0.00001 },
    );
    expect(r.logs[0]!.message).toBe("USD|NASDAQ|AAPL|EUR");
    expect(r.series.mintick![0]).toBe(0.00001);
  });
  it('derives a pair\'s base currency, "" for other instruments', async () => {
    const pair = await strings(
      `if barstate.islast\n    log.info("[" + syminfo.basecurrency + "][" + syminfo.isin + "]")`,
      "BINANCE:BTCUSDT",
      { currency: "USDT" },
    );
    expect(pair.logs[0]!.message).toBe("[BTC][]");
    const stock = await strings(`if barstate.islast\n    log.info("[" + syminfo.basecurrency + "]")`, "NASDAQ:AAPL", {
      type: "stock",
    });
    expect(stock.logs[0]!.message).toBe("[]");
  });
  it("has all 40 variables of the reference", () => {
    expect(Object.keys(syminfoVars)).toHaveLength(40);
    const bars = normalizeBars(data);
    if (isBarDataError(bars)) throw new Error(bars.error);
    const ctx = makeCtx(bars).at(0);
    for (const v of Object.values(syminfoVars)) expect(() => v.get(ctx, site()), v.name).not.toThrow();
  });
});

describe("chart.*", () => {
  it("a standard chart with the light theme, visible range = the data", () => {
    const bars = normalizeBars(data);
    if (isBarDataError(bars)) throw new Error(bars.error);
    const ctx = makeCtx(bars).at(1);
    const get = (n: string) => chartVars[n]!.get(ctx, site());
    expect(get("chart.is_standard")).toBe(true);
    expect(get("chart.is_heikinashi")).toBe(false);
    expect(get("chart.bg_color")).toBe(0xffffffff);
    expect(get("chart.fg_color")).toBe(0x000000ff);
    expect(get("chart.left_visible_bar_time")).toBe(data[0]!.time);
    expect(get("chart.right_visible_bar_time")).toBe(data[2]!.time);
    ctx.ext.chart = { type: "heikinashi", bg_color: 0x131722ff };
    expect(get("chart.is_heikinashi")).toBe(true);
    expect(get("chart.is_standard")).toBe(false);
    expect(get("chart.fg_color")).toBe(0xffffffff);
  });
});
