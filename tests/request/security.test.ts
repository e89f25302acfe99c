// request.security on the chart's own bars at a higher timeframe (resampled), with the mapping
// rules of TradingView's "Other timeframes and data" page, hand-computed on 1h bars -> 4h / 1D.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { runModes } from "../helpers/run-both.js";
import type { Bar, RunOptions, RunResult } from "../../src/core/result.js";
import { loadTaCase } from "../helpers/conformance.js";

const H = 3_600_000;
const T0 = Date.UTC(2024, 0, 1); // a Monday, 00:00 UTC

/** n hourly bars from T0: close = 10 + i, open = close - 0.5, high = close + 1, low = close - 1. */
function hourly(n: number, start = T0): Bar[] {
  return Array.from({ length: n }, (_, i) => ({
    time: start + i * H,
    open: 9.5 + i,
    high: 11 + i,
    low: 9 + i,
    close: 10 + i,
    volume: 100 + i,
  }));
}

// plots serialise na as null (service.md 1.2)
const NA = null;
const src = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;

async function run(
  body: string,
  data: Bar[] = hourly(12),
  options: RunOptions = {},
  symbol = "CHART",
): Promise<RunResult> {
  const r = await runModes(new Runtime(symbol, { timeframe: "60" }), src(body), data, options);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error} ${JSON.stringify(r.diagnostics ?? [])}`);
  return r;
}

/** The 4h closes of hourly(12): bars 0-3, 4-7, 8-11 close at 13, 17, 21. */
describe("higher timeframe of the chart's own bars", () => {
  it("lookahead off: the 4h value appears on the last 1h bar of its period; earlier bars show the previous one", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close))`);
    expect(r.plots).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 17, 21]);
  });

  it("lookahead on: every 1h bar shows its own 4h bar's value (future leak)", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close, lookahead = barmerge.lookahead_on))`);
    expect(r.plots).toEqual([13, 13, 13, 13, 17, 17, 17, 17, 21, 21, 21, 21]);
  });

  it("the close[1] + lookahead_on idiom: the previous 4h close on every bar of the period", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close[1], lookahead = barmerge.lookahead_on))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 17]);
  });

  it("gaps on: the value only on the bar where it arrives, na elsewhere", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close, gaps = barmerge.gaps_on))`);
    expect(r.plots).toEqual([NA, NA, NA, 13, NA, NA, NA, 17, NA, NA, NA, 21]);
  });

  it("gaps on with lookahead on: on the first bar of each period", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "240", close, barmerge.gaps_on, barmerge.lookahead_on))`,
    );
    expect(r.plots).toEqual([13, NA, NA, NA, 17, NA, NA, NA, 21, NA, NA, NA]);
  });

  it("4h OHLCV are the period's open, highest high, lowest low, close and summed volume", async () => {
    const r =
      await run(`[o, h, l, c, v] = request.security(syminfo.tickerid, "240", [open, high, low, close, volume], lookahead = barmerge.lookahead_on)
plot(o, "o")
plot(h, "h")
plot(l, "l")
plot(c, "c")
plot(v, "v")`);
    const per = (k: number | null) => [k, k, k, k];
    expect(r.series.o).toEqual([...per(9.5), ...per(13.5), ...per(17.5)]);
    expect(r.series.h).toEqual([...per(14), ...per(18), ...per(22)]);
    expect(r.series.l).toEqual([...per(9), ...per(13), ...per(17)]);
    expect(r.series.c).toEqual([...per(13), ...per(17), ...per(21)]);
    // 100+101+102+103, 104..107, 108..111
    expect(r.series.v).toEqual([...per(406), ...per(422), ...per(438)]);
  });

  it("a script variable computed with ta.sma is evaluated on the 4h bars", async () => {
    // 4h closes 13, 17, 21, 25, 29, 33: sma(3) = na, na, 17, 21, 25, 29
    const r = await run(
      `s = ta.sma(close, 3)
plot(request.security(syminfo.tickerid, "240", s, lookahead = barmerge.lookahead_on), "htf")
plot(s, "chart")`,
      hourly(24),
    );
    const per = (k: number | null) => [k, k, k, k];
    expect(r.series.htf).toEqual([...per(NA), ...per(NA), ...per(17), ...per(21), ...per(25), ...per(29)]);
    // the chart's own s is still the 1h sma
    expect(r.series.chart!.slice(2, 5)).toEqual([11, 12, 13]);
  });

  it("daily from 1h bars: the day's close lands on the day's last bar", async () => {
    const data = hourly(72); // three days, closes 10..81; day closes 33, 57, 81
    const r = await run(
      `plot(request.security(syminfo.tickerid, "D", close), "off")
plot(request.security(syminfo.tickerid, "D", close[1], lookahead = barmerge.lookahead_on), "prev")`,
      data,
    );
    const off = r.series.off!;
    expect(off.slice(0, 23).every((x) => x === null)).toBe(true);
    expect(off[23]).toBe(33);
    expect(off.slice(24, 47).every((x) => x === 33)).toBe(true);
    expect(off[47]).toBe(57);
    expect(off[71]).toBe(81);
    const prev = r.series.prev!;
    expect(prev.slice(0, 24).every((x) => x === null)).toBe(true);
    expect(prev.slice(24, 48).every((x) => x === 33)).toBe(true);
    expect(prev.slice(48).every((x) => x === 57)).toBe(true);
  });

  it("the chart's own timeframe and symbol give the expression's own value", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, timeframe.period, close * 2))`);
    expect(r.plots).toEqual(hourly(12).map((b) => b.close * 2));
    expect(r.meta.requests).toEqual([{ symbol: "CHART", timeframe: "60", source: "same", bars: 12 }]);
  });

  it("an empty timeframe means the chart's", async () => {
    const r = await run(`plot(request.security("", "", close))`);
    expect(r.plots).toEqual(hourly(12).map((b) => b.close));
  });

  it("meta.requests records the resampled context", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close))`);
    expect(r.meta.requests).toEqual([{ symbol: "CHART", timeframe: "240", source: "resampled", bars: 3 }]);
  });

  it("a dynamic timeframe from input.timeframe, overridable", async () => {
    const body = `tf = input.timeframe("240", "TF")\nplot(request.security(syminfo.tickerid, tf, close, lookahead = barmerge.lookahead_on))`;
    const a = await run(body);
    expect(a.plots).toEqual([13, 13, 13, 13, 17, 17, 17, 17, 21, 21, 21, 21]);
    const b = await run(body, hourly(12), { inputs: { TF: "120" } });
    expect(b.plots).toEqual([11, 11, 13, 13, 15, 15, 17, 17, 19, 19, 21, 21]);
  });

  it("a timeframe switching per bar caches one context per distinct pair", async () => {
    const r = await run(
      `tf = bar_index < 6 ? "120" : "240"\nplot(request.security(syminfo.tickerid, tf, close, lookahead = barmerge.lookahead_on))`,
    );
    expect(r.plots).toEqual([11, 11, 13, 13, 15, 15, 17, 17, 21, 21, 21, 21]);
    expect((r.meta.requests as { timeframe: string }[]).map((x) => x.timeframe)).toEqual(["120", "240"]);
  });

  it("the secondary run's plots, logs and inputs do not leak into the result", async () => {
    const r = await run(
      `x = input.int(3, "len")\nlog.info("hi")\nplot(request.security(syminfo.tickerid, "240", close), "a")`,
    );
    expect(Object.keys(r.series)).toEqual(["a"]);
    expect(r.logs.length).toBe(12);
    expect(r.inputs.length).toBe(1);
  });

  it("a request inside the requested context does not nest: it is that context's own value", async () => {
    const r = await run(
      `inner = request.security(syminfo.tickerid, "120", close)\nplot(request.security(syminfo.tickerid, "240", inner, lookahead = barmerge.lookahead_on))`,
    );
    expect(r.plots).toEqual([13, 13, 13, 13, 17, 17, 17, 17, 21, 21, 21, 21]);
  });

  it("an invalid timeframe is a runtime error, not a crash", async () => {
    const r = await runModes(
      new Runtime("CHART", { timeframe: "60" }),
      src(`plot(request.security(syminfo.tickerid, "xyz", close))`),
      hourly(5),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/Invalid timeframe 'xyz'/);
  });
  it("the data's last, unfinished 4h period is not delivered with lookahead off (its bars show the previous value)", async () => {
    // hourly(10): periods 0-3, 4-7 and an unfinished 8-9
    const r = await run(`plot(request.security(syminfo.tickerid, "240", close))`, hourly(10));
    expect(r.plots).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17]);
  });

  it("history inside the requested expression reads the requested context's history", async () => {
    const r = await run(`s = close * 2
d = s - s[1]
plot(request.security(syminfo.tickerid, "240", close - close[1], lookahead = barmerge.lookahead_on), "c")
plot(request.security(syminfo.tickerid, "240", d + 0, lookahead = barmerge.lookahead_on), "s")`);
    // 4h closes 13, 17, 21
    expect(r.series.c).toEqual([NA, NA, NA, NA, 4, 4, 4, 4, 4, 4, 4, 4]);
    expect(r.series.s).toEqual([NA, NA, NA, NA, 8, 8, 8, 8, 8, 8, 8, 8]);
  });

  it("expressions calling user functions run in the requested context", async () => {
    const r = await run(`f(x) => x * 2 + ta.change(x)
plot(request.security(syminfo.tickerid, "240", f(close), lookahead = barmerge.lookahead_on))`);
    // 4h closes 13, 17, 21: 2c + change = na, 38, 46
    expect(r.plots).toEqual([NA, NA, NA, NA, 38, 38, 38, 38, 46, 46, 46, 46]);
  });

  it("a strategy's orders in the requested context are discarded", async () => {
    const body = `if bar_index % 3 == 0
    strategy.entry("L", strategy.long)
if bar_index % 3 == 2
    strategy.close("L")
h = request.security(syminfo.tickerid, "240", close)
plot(h)`;
    const strat = (b: string) => `//@version=6
strategy("s")
${b}
`;
    const rt = new Runtime("CHART", { timeframe: "60" });
    const a = await runModes(rt, strat(body), hourly(12));
    const b = await runModes(rt, strat(body.replace(/h = request[^\n]*\n/, "h = close\n")), hourly(12));
    expect(a.error).toBeUndefined();
    expect(a.plots).toEqual([NA, NA, NA, 13, 13, 13, 13, 17, 17, 17, 17, 21]);
    expect(a.strategy).toEqual(b.strategy);
    expect(a.events.length).toBeGreaterThan(0);
    expect(a.events.length).toBe(b.events.length);
  });
});

describe("calendar timeframes on a daily exchange chart", () => {
  it("weekly close of SPY daily bars (America/New_York session) lands on each week's last trading day", async () => {
    const c = loadTaCase("security_advance_decline_ratio"); // only its SPY chart bars are used here
    const script = `//@version=6\nindicator("w")\nplot(request.security(syminfo.tickerid, "W", close), "off")\nplot(request.security(syminfo.tickerid, "W", close[1], lookahead = barmerge.lookahead_on), "prev")`;
    const r = await runModes(new Runtime("BATS:SPY", { syminfo: c.syminfo, timeframe: "1D" }), script, c.bars);
    expect(r.error).toBeUndefined();
    // independent grouping: bars open at 09:30 New York, so the UTC calendar day is the trading day
    const week = (t: number) => Math.floor((Math.floor(t / 86_400_000) + 3) / 7); // weeks starting Monday
    const wk = c.bars.map((b) => week(b.time));
    const n = c.bars.length;
    const lastOfWeek = new Map<number, number>();
    wk.forEach((w, i) => {
      lastOfWeek.set(w, c.bars[i]!.close);
    });
    const off: (number | null)[] = [];
    const prev: (number | null)[] = [];
    let delivered: number | null = null;
    let prevWeekClose: number | null = null;
    for (let i = 0; i < n; i++) {
      if (i > 0 && wk[i] !== wk[i - 1]) prevWeekClose = lastOfWeek.get(wk[i - 1]!)!;
      const endsWeek = i + 1 < n && wk[i + 1] !== wk[i];
      if (endsWeek) delivered = c.bars[i]!.close;
      off.push(delivered);
      prev.push(prevWeekClose);
    }
    // the data's last week may be unfinished: compare up to the last completed week
    const lastDone = off.length - 1 - [...wk].reverse().findIndex((w) => w !== wk[n - 1]!);
    expect(r.series.off!.slice(0, lastDone + 1)).toEqual(off.slice(0, lastDone + 1));
    expect(r.series.prev).toEqual(prev);
  });
});

describe("request contexts", () => {
  it("two spellings of one context share it (one meta record)", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "240", close), "a")\nplot(request.security("", "4H", close), "b")`,
    );
    expect(r.series.a).toEqual(r.series.b);
    expect(r.meta.requests).toEqual([{ symbol: "CHART", timeframe: "240", source: "resampled", bars: 3 }]);
  });

  it("more than 40 distinct contexts is a runtime error, not a runaway", async () => {
    const r = await runModes(
      new Runtime("CHART", { timeframe: "60" }),
      src(`plot(request.security("SYM" + str.tostring(bar_index), "60", close))`),
      hourly(60),
    );
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/at most 40 distinct/);
    expect(r.error_bar).toBe(40);
  });
});
