// request.security at a timeframe lower than the chart's (the FAQ "Other data and timeframes", lower
// timeframes): the expression is evaluated on the lower timeframe's bars (a dataFeed entry) and each
// chart bar shows one intrabar's value: the last one with lookahead off, the first one with lookahead
// on (historical bars). Without those bars: na, with a meta note and a warning naming the missing
// entry (the same for request.security_lower_tf's empty arrays). Hand-computed on constructed bars.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { runModes } from "../helpers/run-both.js";
import type { Bar, RunOptions, RunResult } from "../../src/core/result.js";

const M = 60_000;
const T0 = Date.UTC(2024, 0, 1);
const NA = null; // plots serialise na as null

function bar(minute: number, close: number): Bar {
  return { time: T0 + minute * M, open: close, high: close + 1, low: close - 1, close, volume: 1 };
}

// five 15m chart bars: [0,15) [15,30) [30,45) [45,60) [60,75)
const chart = [0, 15, 30, 45, 60].map((m, i) => bar(m, 100 + i));
// 5m intrabars: three in chart bar 0, two in bar 1, none in bar 2, one in bar 3, three in bar 4
const m5 = [
  [0, 1],
  [5, 2],
  [10, 3],
  [15, 4],
  [20, 5],
  [50, 7],
  [60, 8],
  [65, 9],
  [70, 10],
].map(([m, c]) => bar(m!, c!));
const feed: RunOptions = { dataFeed: { "NASDAQ:AAPL|5": m5 } };

const src = (body: string) => `//@version=6\nindicator("t")\n${body}\n`;

async function run(body: string, options: RunOptions = {}, data: Bar[] = chart): Promise<RunResult> {
  const r = await runModes(new Runtime("NASDAQ:AAPL", { timeframe: "15" }), src(body), data, options);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error} ${JSON.stringify(r.diagnostics ?? [])}`);
  return r;
}

describe("request.security at a lower timeframe, with its bars in the feed", () => {
  it("lookahead off: the last intrabar's value; a chart bar without intrabars keeps the last one, gaps on gives na", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "5", close), "off")
plot(request.security(syminfo.tickerid, "5", close, gaps = barmerge.gaps_on), "gaps")`,
      feed,
    );
    expect(r.series.off).toEqual([3, 5, 5, 7, 10]);
    expect(r.series.gaps).toEqual([3, 5, NA, 7, 10]);
    expect(r.meta.requests).toEqual([{ symbol: "NASDAQ:AAPL", timeframe: "5", source: "dataFeed", bars: 9 }]);
    expect(r.logs).toEqual([]);
  });

  it("the expression is evaluated on the lower timeframe (its own history and bar_index)", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "5", ta.sma(close, 2)), "sma")
plot(request.security(syminfo.tickerid, "5", bar_index), "bi")`,
      feed,
    );
    // 5m closes 1 2 3 4 5 7 8 9 10 -> sma2: na 1.5 2.5 3.5 4.5 6 7.5 8.5 9.5
    expect(r.series.sma).toEqual([2.5, 4.5, 4.5, 6, 9.5]);
    expect(r.series.bi).toEqual([2, 4, 4, 5, 8]);
  });

  it("lookahead on: the first intrabar's value (historical bars); gaps on: na where there is none", async () => {
    const r = await run(
      `plot(request.security(syminfo.tickerid, "5", close, lookahead = barmerge.lookahead_on), "on")
plot(request.security(syminfo.tickerid, "5", close, barmerge.gaps_on, barmerge.lookahead_on), "gaps")`,
      feed,
    );
    // chart bar 2 has no intrabar: gaps off keeps bar 1's value (its first intrabar, 4)
    expect(r.series.on).toEqual([1, 4, 4, 7, 8]);
    expect(r.series.gaps).toEqual([1, 4, NA, 7, 8]);
  });

  it("lookahead on, realtime bars: the last intrabar (the FAQ: first historically, last in realtime)", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "5", close, lookahead = barmerge.lookahead_on))`, {
      ...feed,
      realtimeBars: 2,
    });
    // bars 3 and 4 are realtime: their last intrabars close at 7 and 10 (historically 7 and 8)
    expect(r.plots).toEqual([1, 4, 4, 7, 10]);
  });

  it("a lower feed entry that divides the timeframe is resampled to it (1m -> 5m on a 15m chart)", async () => {
    const m1 = Array.from({ length: 45 }, (_, i) => bar(i, i));
    const r = await run(
      `plot(request.security(syminfo.tickerid, "5", close))`,
      { dataFeed: { "NASDAQ:AAPL|1": m1 } },
      chart.slice(0, 3),
    );
    // 5m bars close at 1m closes 4, 9, 14, ...: chart bar k's last one is 15k + 14
    expect(r.plots).toEqual([14, 29, 44]);
  });
});

describe("request.security at a lower timeframe without its bars", () => {
  const note = /no '5' bars of 'NASDAQ:AAPL' \(lower than the chart's '15'.*dataFeed as 'NASDAQ:AAPL\|5'/;

  it("na on every bar, and a meta note plus one warning naming the missing dataFeed entry", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "5", close))`);
    expect(r.plots).toEqual([NA, NA, NA, NA, NA]);
    const rec = (r.meta.requests as { source: string; note?: string }[])[0]!;
    expect(rec).toMatchObject({ symbol: "NASDAQ:AAPL", timeframe: "5", source: "none", bars: 0 });
    expect(rec.note).toMatch(note);
    expect(r.logs.map((l) => [l.level, l.message])).toEqual([["warning", rec.note]]);
  });

  it("request.security_lower_tf reports it the same way (empty arrays), once per context", async () => {
    const r = await run(`a = request.security_lower_tf(syminfo.tickerid, "5", close)
plot(array.size(a), "n")
plot(request.security("", "5", close), "v")`);
    expect(r.series.n).toEqual([0, 0, 0, 0, 0]);
    expect(r.series.v).toEqual([NA, NA, NA, NA, NA]);
    expect(r.meta.requests).toHaveLength(1);
    expect((r.meta.requests as { note?: string }[])[0]!.note).toMatch(note);
    expect(r.logs.filter((l) => l.level === "warning")).toHaveLength(1);
  });

  it("a higher timeframe of the chart's bars needs no feed: no warning", async () => {
    const r = await run(`plot(request.security(syminfo.tickerid, "30", close))`);
    expect(r.logs).toEqual([]);
  });
});
