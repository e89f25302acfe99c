// request.* with other symbols and lower timeframes: values only from RunOptions.dataFeed, na
// otherwise (service.md 1.1: resin never invents bars), and result.meta.requests says which.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { runModes } from "../helpers/run-both.js";
import type { Bar, RunOptions, RunResult } from "../../src/core/result.js";
import { loadTaCase } from "../helpers/conformance.js";

const M = 60_000;
const H = 60 * M;
const T0 = Date.UTC(2024, 0, 1);
const NA = null; // plots serialise na as null

function series(n: number, stepMs: number, close: (i: number) => number, start = T0): Bar[] {
  return Array.from({ length: n }, (_, i) => ({
    time: start + i * stepMs,
    open: close(i),
    high: close(i) + 1,
    low: close(i) - 1,
    close: close(i),
    volume: 1,
  }));
}

const chart = series(6, H, (i) => 10 + i); // 1h chart, closes 10..15
const src = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;

async function run(body: string, options: RunOptions = {}, data: Bar[] = chart): Promise<RunResult> {
  const r = await runModes(new Runtime("NASDAQ:AAPL", { timeframe: "60" }), src(body), data, options);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error} ${JSON.stringify(r.diagnostics ?? [])}`);
  return r;
}

describe("foreign symbols", () => {
  it("without a dataFeed entry: na on every bar, and meta says the source is none", async () => {
    const r = await run(`plot(request.security("NASDAQ:MSFT", "60", close))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA]);
    expect(r.meta.requests).toEqual([{ symbol: "NASDAQ:MSFT", timeframe: "60", source: "none", bars: 0 }]);
  });

  it("with a dataFeed entry at the chart's timeframe: its values bar by bar", async () => {
    const msft = series(6, H, (i) => 100 + i);
    const r = await run(`plot(request.security("NASDAQ:MSFT", "60", close * 2))`, {
      dataFeed: { "NASDAQ:MSFT|60": msft },
    });
    expect(r.plots).toEqual([200, 202, 204, 206, 208, 210]);
    expect(r.meta.requests).toEqual([{ symbol: "NASDAQ:MSFT", timeframe: "60", source: "dataFeed", bars: 6 }]);
  });

  it("a feed key without a timeframe is matched by its bars' spacing", async () => {
    const msft = series(6, H, (i) => 100 + i);
    const r = await run(`plot(request.security("MSFT", timeframe.period, close))`, { dataFeed: { MSFT: msft } });
    expect(r.plots).toEqual([100, 101, 102, 103, 104, 105]);
  });

  it("a feed bar missing at a chart bar: lookahead off keeps the last value, gaps on gives na", async () => {
    const msft = series(6, H, (i) => 100 + i).filter((_, i) => i !== 2);
    const feed = { dataFeed: { "NASDAQ:MSFT|60": msft } };
    const off = await run(`plot(request.security("NASDAQ:MSFT", "60", close))`, feed);
    expect(off.plots).toEqual([100, 101, 101, 103, 104, 105]);
    const gaps = await run(`plot(request.security("NASDAQ:MSFT", "60", close, gaps = barmerge.gaps_on))`, feed);
    expect(gaps.plots).toEqual([100, 101, NA, 103, 104, 105]);
  });

  it("a foreign symbol at a higher timeframe from its lower-timeframe feed (resampled)", async () => {
    const msft = series(6, H, (i) => 100 + i);
    const r = await run(`plot(request.security("NASDAQ:MSFT", "120", close))`, {
      dataFeed: { "NASDAQ:MSFT|60": msft },
    });
    // 2h closes: 101, 103, 105, delivered on the last 1h bar of each period
    expect(r.plots).toEqual([NA, 101, 101, 103, 103, 105]);
    expect((r.meta.requests as { source: string }[])[0]!.source).toBe("dataFeed");
  });

  it("a daily feed on an exchange-session 1h chart: the day's value arrives on the day's last bar (16:00 close)", async () => {
    const open0 = Date.UTC(2024, 0, 2, 14, 30); // Tue 09:30 New York
    const day = (d: number) => Array.from({ length: 7 }, (_, k) => open0 + d * 86_400_000 + k * H);
    const times = [...day(0), ...day(1)];
    const hourlyNy = times.map((t, i) => ({ time: t, open: i, high: i + 1, low: i - 1, close: i, volume: 1 }));
    const daily = [0, 1].map((d) => ({
      time: open0 + d * 86_400_000,
      open: 1,
      high: 1,
      low: 1,
      close: 100 * (d + 1),
      volume: 1,
    }));
    const r = await runModes(
      new Runtime("NYSE:XYZ", {
        timeframe: "60",
        syminfo: { timezone: "America/New_York", session: "0930-1600:23456" },
      }),
      src(`plot(request.security("NYSE:ABC", "D", close))`),
      hourlyNy,
      { dataFeed: { "NYSE:ABC|1D": daily } },
    );
    expect(r.error).toBeUndefined();
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA, 100, 100, 100, 100, 100, 100, 100, 200]);
  });

  it("the chart symbol at a lower timeframe: na without a feed, the last intrabar value with one", async () => {
    const none = await run(`plot(request.security(syminfo.tickerid, "30", close))`);
    expect(none.plots).toEqual([NA, NA, NA, NA, NA, NA]);
    const m30 = series(12, 30 * M, (i) => 50 + i);
    const r = await run(`plot(request.security(syminfo.tickerid, "30", close))`, {
      dataFeed: { "NASDAQ:AAPL|30": m30 },
    });
    expect(r.plots).toEqual([51, 53, 55, 57, 59, 61]);
  });

  it("ignore_invalid_symbol does not turn na into values", async () => {
    const r = await run(`plot(request.security("XX:NOPE", "D", close, ignore_invalid_symbol = true))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA]);
  });
});

describe("request.security_lower_tf", () => {
  const m15 = series(24, 15 * M, (i) => i); // four 15m closes per chart bar

  it("gives the intrabar values of each chart bar as an array", async () => {
    const r = await run(
      `a = request.security_lower_tf(syminfo.tickerid, "15", close)
plot(array.size(a), "n")
plot(array.sum(a), "sum")
plot(array.first(a), "first")`,
      { dataFeed: { "NASDAQ:AAPL|15": m15 } },
    );
    expect(r.series.n).toEqual([4, 4, 4, 4, 4, 4]);
    // bar k holds closes 4k..4k+3: sum 16k + 6
    expect(r.series.sum).toEqual([6, 22, 38, 54, 70, 86]);
    expect(r.series.first).toEqual([0, 4, 8, 12, 16, 20]);
  });

  it("tuples give one array per element", async () => {
    const r = await run(
      `[h, c] = request.security_lower_tf(syminfo.tickerid, "15", [high, close])
plot(array.max(h), "maxh")
plot(array.last(c), "lastc")`,
      { dataFeed: { "NASDAQ:AAPL|15": m15 } },
    );
    expect(r.series.maxh).toEqual([4, 8, 12, 16, 20, 24]);
    expect(r.series.lastc).toEqual([3, 7, 11, 15, 19, 23]);
  });

  it("empty arrays when the feed has no such bars", async () => {
    const r = await run(`plot(array.size(request.security_lower_tf(syminfo.tickerid, "15", close)))`);
    expect(r.plots).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it("a chart bar without intrabars gets an empty array", async () => {
    const gap = m15.filter((_, i) => i < 4 || i >= 8);
    const r = await run(`plot(array.size(request.security_lower_tf(syminfo.tickerid, "15", close)))`, {
      dataFeed: { "NASDAQ:AAPL|15": gap },
    });
    expect(r.plots).toEqual([4, 0, 4, 4, 4, 4]);
  });
});

describe("other request.* from documented dataFeed keys", () => {
  it("currency_rate: 1 for the same currency, the FX feed's close otherwise, na without it", async () => {
    const fx = series(6, H, (i) => 1.1 + i / 100);
    const r = await run(
      `plot(request.currency_rate("USD", "USD"), "same")
plot(request.currency_rate("EUR", "USD"), "fx")
plot(request.currency_rate("GBP", "USD"), "none")`,
      { dataFeed: { "FX:EURUSD": fx } },
    );
    expect(r.series.same).toEqual([1, 1, 1, 1, 1, 1]);
    expect(r.series.fx).toEqual(fx.map((b) => b.close));
    expect(r.series.none).toEqual([NA, NA, NA, NA, NA, NA]);
  });

  it("dividends from their key, gaps on only on the bar where a payment arrives", async () => {
    const div = [
      { time: T0 + 2 * H, open: 0.5, high: 0.5, low: 0.5, close: 0.5, volume: 0 },
      { time: T0 + 4 * H + 30 * M, open: 0.7, high: 0.7, low: 0.7, close: 0.7, volume: 0 },
    ];
    const r = await run(
      `plot(request.dividends("NASDAQ:AAPL", dividends.gross), "held")
plot(request.dividends("NASDAQ:AAPL", dividends.gross, barmerge.gaps_on), "gaps")`,
      { dataFeed: { "DIVIDENDS:NASDAQ:AAPL:gross": div } },
    );
    expect(r.series.held).toEqual([NA, NA, 0.5, 0.5, 0.7, 0.7]);
    expect(r.series.gaps).toEqual([NA, NA, 0.5, NA, 0.7, NA]);
    expect(r.meta.requests).toEqual([
      { symbol: "DIVIDENDS:NASDAQ:AAPL:gross", timeframe: "", source: "dataFeed", bars: 2 },
    ]);
  });

  it("request.financial without data is na", async () => {
    const r = await run(`plot(request.financial("NASDAQ:AAPL", "EARNINGS_PER_SHARE", "FQ"))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA]);
  });
});

describe("conformance case security_advance_decline_ratio", () => {
  it("without the USI:ADVN.NY / USI:DECL.NY bars it yields na on every bar, never invented values", async () => {
    const c = loadTaCase("security_advance_decline_ratio");
    const r = await runModes(new Runtime("BATS:SPY", { syminfo: c.syminfo, timeframe: "1D" }), c.script, c.bars);
    expect(r.error).toBeUndefined();
    expect(r.count).toBe(c.bars.length);
    expect(r.plots.every((x) => x === null)).toBe(true);
    const reqs = (r.meta.requests as { symbol: string }[]).slice().sort((a, b) => a.symbol.localeCompare(b.symbol));
    expect(reqs).toEqual([
      { symbol: "USI:ADVN.NY", timeframe: "1D", source: "none", bars: 0 },
      { symbol: "USI:DECL.NY", timeframe: "1D", source: "none", bars: 0 },
    ]);
  });
});
