// request.security's calc_bars_count and currency, the forming higher-timeframe bar on realtime bars,
// the run's timeout reaching secondary runs, and what meta.requests records. Hand-computed on hourly
// bars (close = 10 + i, high = close + 1, open = close - 0.5) resampled to 4h.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/index.js";
import type { Bar, RunOptions, RunResult, SymInfo } from "../../src/index.js";
import { runBoth, runModes } from "../helpers/run-both.js";

const H = 3_600_000;
const D = 24 * H;
const T0 = Date.UTC(2024, 0, 1);
const NA = null;

function hourly(n: number): Bar[] {
  return Array.from({ length: n }, (_, i) => ({
    time: T0 + i * H,
    open: 9.5 + i,
    high: 11 + i,
    low: 9 + i,
    close: 10 + i,
    volume: 100 + i,
  }));
}

/** A daily FX series with one rate from the day before the chart starts. */
function fx(rate: number): Bar[] {
  return [{ time: T0 - D, open: rate, high: rate, low: rate, close: rate, volume: 0 }];
}

const src = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;
const usd = { syminfo: { currency: "USD" } as SymInfo, timeframe: "60" };

async function run(body: string, options: RunOptions = {}, data: Bar[] = hourly(12)): Promise<RunResult> {
  const r = await runBoth(src(body), data, { ...options, runtime: usd });
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r;
}

describe("calc_bars_count", () => {
  it("only the last N bars of the requested context are evaluated, bar_index starting at 0 there", async () => {
    const all = await run(
      `plot(request.security(syminfo.tickerid, "240", bar_index, lookahead = barmerge.lookahead_on))`,
    );
    expect(all.plots).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    const r = await run(
      `plot(request.security(syminfo.tickerid, "240", bar_index, lookahead = barmerge.lookahead_on, calc_bars_count = 2))`,
    );
    expect(r.plots).toEqual([NA, NA, NA, NA, 0, 0, 0, 0, 1, 1, 1, 1]);
    expect(r.meta.requests).toEqual([
      { symbol: "CHART", timeframe: "240", source: "resampled", bars: 3, calc_bars_count: 2 },
    ]);
  });

  it("on the chart's own context: a secondary run over the chart's last N bars", async () => {
    const r = await run(`plot(request.security("", "", ta.cum(close), calc_bars_count = 3))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA, NA, NA, NA, 19, 39, 60]);
  });

  it("a count at least the context's bars changes nothing", async () => {
    const r = await run(`plot(request.security("", "", bar_index, calc_bars_count = 50))`);
    expect(r.plots).toEqual(hourly(12).map((_, i) => i));
  });

  it("the first call of a context fixes the count for the others (the reference's remark)", async () => {
    const r =
      await run(`a = request.security(syminfo.tickerid, "240", close, lookahead = barmerge.lookahead_on, calc_bars_count = 2)
b = request.security(syminfo.tickerid, "240", open, lookahead = barmerge.lookahead_on, calc_bars_count = 3)
plot(b, "b")`);
    expect(r.series.b).toEqual([NA, NA, NA, NA, 13.5, 13.5, 13.5, 13.5, 17.5, 17.5, 17.5, 17.5]);
  });

  it("request.security_lower_tf: intrabars before the window are left out of the arrays", async () => {
    const m15 = Array.from({ length: 12 }, (_, i) => ({
      time: T0 + i * 15 * 60_000,
      open: i,
      high: i + 1,
      low: i - 1,
      close: i,
      volume: 1,
    }));
    const r = await run(
      `a = request.security_lower_tf("X:Y", "15", close, calc_bars_count = 6)
plot(a.size(), "n")
plot(a.size() > 0 ? a.first() : na, "first")`,
      { dataFeed: { "X:Y|15": m15 } },
      hourly(3),
    );
    expect(r.series.n).toEqual([0, 2, 4]);
    expect(r.series.first).toEqual([NA, 6, 8]);
  });

  it("a count below 1 is a runtime error", async () => {
    const r = await runModes(
      new Runtime("CHART", usd),
      src(`plot(request.security(syminfo.tickerid, "240", close, calc_bars_count = 0))`),
      hourly(12),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/calc_bars_count must be at least 1/);
  });
});

describe("currency", () => {
  it("prices are converted with the feed's FX:<FROM><TO> rate; literals are not", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "", close, currency = currency.EUR), "c")
plot(request.security(syminfo.tickerid, "", 200, currency = currency.EUR), "lit")`,
      { dataFeed: { "FX:USDEUR": fx(0.5) } },
    );
    expect(r.series.c).toEqual(hourly(12).map((b) => b.close * 0.5));
    expect(r.series.lit).toEqual(new Array(12).fill(200));
    expect(r.meta.requests).toEqual([{ symbol: "CHART", timeframe: "60", source: "same", bars: 12, currency: "EUR" }]);
  });

  it("the inverse pair FX:<TO><FROM> divides", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "240", close, lookahead = barmerge.lookahead_on, currency = "EUR"))`,
      { dataFeed: { "FX:EURUSD": fx(2) } },
    );
    expect(r.plots).toEqual([6.5, 6.5, 6.5, 6.5, 8.5, 8.5, 8.5, 8.5, 10.5, 10.5, 10.5, 10.5]);
  });

  it("the symbol's own currency: no conversion", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "", close, currency = currency.USD))`);
    expect(r.plots).toEqual(hourly(12).map((b) => b.close));
  });

  it("without a rate: na, and meta says why", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "", close, currency = currency.JPY))`);
    expect(r.plots).toEqual(new Array(12).fill(NA));
    const rec = (r.meta.requests as { source: string; note?: string }[])[0]!;
    expect(rec.source).toBe("none");
    expect(rec.note).toMatch(/FX:USDJPY/);
  });

  it("another symbol's currency is unknown: na with a note, never an unconverted value", async () => {
    const r = await run(`plot(request.security("NASDAQ:MSFT", "60", close, currency = currency.EUR))`, {
      dataFeed: { "NASDAQ:MSFT|60": hourly(12), "FX:USDEUR": fx(0.5) },
    });
    expect(r.plots).toEqual(new Array(12).fill(NA));
    expect((r.meta.requests as { note?: string }[])[0]!.note).toMatch(/currency of 'NASDAQ:MSFT' is unknown/);
  });
});

describe("realtime bars see the forming higher-timeframe bar", () => {
  const body = `c = request.security(syminfo.tickerid, "240", close)
h = request.security(syminfo.tickerid, "240", high)
s = request.security(syminfo.tickerid, "240", ta.sma(close, 2))
varip float firstTick = na
if barstate.isrealtime and barstate.isnew
    firstTick := c
plot(c, "c")
plot(h, "h")
plot(s, "s")
plot(firstTick, "first")`;

  it("history shows the last closed 4h bar; realtime bars the forming one (lookahead off)", async () => {
    const hist = await run(body);
    expect(hist.series.c).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 17, 21]);
    const r = await run(body, { realtimeBars: 2, realtimeTicks: 3 });
    // bars 10 and 11 are realtime: the 4h bar of bars 8..11 as formed so far
    expect(r.series.c).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 20, 21]);
    expect(r.series.h!.slice(9)).toEqual([18, 21, 22]);
    expect(r.series.s!.slice(9)).toEqual([15, 18.5, 19]);
    // the first tick of bar 10 trades at its open: the forming 4h close is 19.5 then
    expect(r.series.first!.slice(10)).toEqual([19.5, 20.5]);
  });

  it("state inside the requested expression is rolled back between ticks of the forming bar", async () => {
    const body2 = `count() =>
    var int n = 0
    n += 1
    n
plot(request.security(syminfo.tickerid, "240", ta.cum(volume)), "cum")
plot(request.security(syminfo.tickerid, "240", count()), "n")`;
    const r = await run(body2, { realtimeBars: 2, realtimeTicks: 3 });
    // 4h volumes 406, 422; the forming third: 108 + 109 + 110 at bar 10, + 111 at bar 11
    expect(r.series.cum!.slice(9)).toEqual([828, 1155, 1266]);
    expect(r.series.n!.slice(9)).toEqual([2, 3, 3]);
  });

  it("with calc_bars_count the forming bar's run starts at the same context bar", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", bar_index, calc_bars_count = 2))`, {
      realtimeBars: 2,
      realtimeTicks: 2,
    });
    expect(r.plots).toEqual([NA, NA, NA, NA, NA, NA, NA, 0, 0, 0, 1, 1]);
  });

  it("the chart's own context in a secondary run (currency, calc_bars_count) follows the ticks too", async () => {
    const body2 = `varip float eur = na
varip float last3 = na
e = request.security("", "", close, currency = currency.EUR)
l = request.security("", "", close, calc_bars_count = 3)
if barstate.isrealtime and barstate.isnew
    eur := e
    last3 := l
plot(eur, "eur")
plot(last3, "last3")
plot(e, "e")`;
    const r = await run(body2, { realtimeBars: 2, realtimeTicks: 3, dataFeed: { "FX:USDEUR": fx(0.5) } });
    // first ticks of bars 10 and 11 trade at their opens (19.5, 20.5)
    expect(r.series.eur!.slice(10)).toEqual([19.5 * 0.5, 20.5 * 0.5]);
    expect(r.series.last3!.slice(10)).toEqual([19.5, 20.5]);
    expect(r.series.e!.slice(9)).toEqual([9.5, 10, 10.5]);
  });

  it("lookahead has no effect on realtime values", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close, lookahead = barmerge.lookahead_on))`, {
      realtimeBars: 2,
    });
    // historical bars 8 and 9 still see the whole 4h bar (future leak); realtime ones the forming bar
    expect(r.plots).toEqual([13, 13, 13, 13, 17, 17, 17, 17, 21, 21, 20, 21]);
  });
});

describe("the run's timeout covers secondary runs", () => {
  it("a secondary run longer than the budget stops the run with timed_out at the bar that asked", async () => {
    const feed = Array.from({ length: 5000 }, (_, i) => ({
      time: T0 - 5000 * H + i * H,
      open: 1,
      high: 2,
      low: 0.5,
      close: 1.5,
      volume: 1,
    }));
    const body = `f() =>
    float s = 0
    for i = 0 to 30000
        s += math.sqrt(i + close)
    s
plot(request.security("X:Y", "60", f()))`;
    const r = await runModes(new Runtime("CHART", usd), src(body), hourly(12), {
      timeoutSeconds: 0.02,
      dataFeed: { "X:Y|60": feed },
    });
    expect(r.error).toBeUndefined();
    expect(r.timed_out).toBe(true);
    expect(r.count).toBe(0);
  });
});

describe("requested collections", () => {
  it("each chart bar receives its own copy: mutating it does not change the next bar's value", async () => {
    const r =
      await run(`a = request.security(syminfo.tickerid, "240", array.from(close), lookahead = barmerge.lookahead_on)
a.push(0)
plot(a.size(), "n")`);
    expect(r.series.n).toEqual(new Array(12).fill(2));
  });
  it("a tuple's collection too, its other values as they were recorded", async () => {
    const r = await run(`var acc = array.new<float>()
acc.push(close)
[a, c] = request.security(syminfo.tickerid, "240", [acc, close], lookahead = barmerge.lookahead_on)
acc.clear()
a.push(0)
plot(a.size(), "n")
plot(c, "c")`);
    // In its own context the request gives the secondary run acc itself, so its `a.push(0)` leaves a 0 in
    // acc after the clear() and from the second 4h bar on the array recorded holds two values; the
    // chart's pushes into what it received never reach the next bar (sizes would grow bar by bar).
    expect(r.series.n).toEqual([2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3]);
    const single = await run(
      `plot(request.security(syminfo.tickerid, "240", close, lookahead = barmerge.lookahead_on), "c")`,
    );
    expect(r.series.c).toEqual(single.series.c);
  });
});

describe("a requested tuple on realtime bars", () => {
  it("gives the forming bar's values, as separate requests do", async () => {
    const r = await run(
      `[c, h] = request.security(syminfo.tickerid, "240", [close, high])
plot(c, "c")
plot(h, "h")`,
      { realtimeBars: 2, realtimeTicks: 3 },
    );
    expect(r.series.c).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 20, 21]);
    expect(r.series.h!.slice(9)).toEqual([18, 21, 22]);
  });
  it("of a context with a bar per chart bar (kept in columns) gives what separate requests give", async () => {
    const opts = { realtimeBars: 2, realtimeTicks: 3 };
    const r = await run(
      `ha = ticker.heikinashi(syminfo.tickerid)
[o, c] = request.security(ha, timeframe.period, [open, close])
plot(o, "o")
plot(c, "c")`,
      opts,
    );
    const single = await run(
      `ha = ticker.heikinashi(syminfo.tickerid)
plot(request.security(ha, timeframe.period, open), "o")
plot(request.security(ha, timeframe.period, close), "c")`,
      opts,
    );
    expect(r.series.o).toEqual(single.series.o);
    expect(r.series.c).toEqual(single.series.c);
    expect(r.series.c!.filter((v) => typeof v === "number").length).toBeGreaterThan(8);
  });
});
