// The TradingView conformance columns of the time cases, computed by calling the builtins directly
// (bar by bar, as the scripts do), before and independently of the Runtime.
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import * as time from "../../src/builtins/time/index.js";
import * as timeframe from "../../src/builtins/timeframe/index.js";
import * as session from "../../src/builtins/session/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { caseBars, caseDir, caseSymInfo, cellMatches, makeCtx, readCsv, site } from "../core/fixture.js";

type Col = (ctx: ExecContext, s: CallSite) => number;
const fn =
  (name: string, ...args: unknown[]): Col =>
  (ctx, s) =>
    time.functions[name]!.impl(ctx, args, s);
const fnT =
  (name: string, dt: number, tz?: string): Col =>
  (ctx, s) =>
    time.functions[name]!.impl(ctx, [ctx.time + dt, tz], s);
const tvar =
  (name: string): Col =>
  (ctx, s) =>
    time.variables[name]!.get(ctx, s);
const b = (v: boolean, enc: number): number => (v ? enc : 0);

const FIVE = 5 * 60 * 1000;
const BUD = "Europe/Budapest";

const CASES: Record<string, { tf: string; cols: Record<string, Col> }> = {
  base_time: {
    tf: "5",
    cols: {
      time: tvar("time"),
      "time+": (ctx) => ctx.time + FIVE,
      dayofmonth: tvar("dayofmonth"),
      dayofmonth_time: fnT("dayofmonth", FIVE),
      dayofmonth_time_tz: fnT("dayofmonth", 2 * FIVE, BUD),
      dayofweek: tvar("dayofweek"),
      dayofweek_time: fnT("dayofweek", FIVE),
      dayofweek_time_tz: fnT("dayofweek", FIVE, BUD),
      hour: tvar("hour"),
      hour_time: fnT("hour", FIVE),
      hour_time_tz: fnT("hour", FIVE, BUD),
      minute: tvar("minute"),
      minute_time: fnT("minute", FIVE),
      minute_time_tz: fnT("minute", FIVE, BUD),
      month: tvar("month"),
      month_time: fnT("month", FIVE),
      month_time_tz: fnT("month", FIVE, BUD),
      second: tvar("second"),
      second_time: fnT("second", FIVE),
      second_time_tz: fnT("second", FIVE, BUD),
      weekofyear: tvar("weekofyear"),
      weekofyear_time: fnT("weekofyear", FIVE),
      weekofyear_time_tz: fnT("weekofyear", FIVE, BUD),
      year: tvar("year"),
      year_time: fnT("year", FIVE),
      year_time_tz: fnT("year", FIVE, BUD),
      "timestamp datetime 1": fn("timestamp", 2016, 1, 19, 9, 30),
      "timestamp datetime 2": fn("timestamp", 2019, 6, 19, 9, 30, 15),
      "timestamp datetime tz 1": (ctx, s) =>
        time.functions.timestamp!.impl(ctx, [ctx.syminfo.timezone, 2016, 1, 19, 9, 30], s),
      "timestamp datetime tz 2": fn("timestamp", "GMT+6", 2016, 1, 19, 9, 30),
      "timestamp datetime tz 3": fn("timestamp", "GMT+3", 2019, 6, 19, 9, 30, 15),
      "timestamp datestr 1": fn("timestamp", "Feb 01 2020 22:10:05"),
      "timestamp datestr 2": fn("timestamp", "2011-10-10T14:48:00"),
      "timestamp datestr 3": fn("timestamp", "04 Dec 1995 00:12:00 GMT+5"),
    },
  },
  timeframe_change: {
    tf: "5",
    cols: Object.fromEntries(
      (
        [
          ["15", 1],
          ["240", 1.5],
          ["D", 2],
          ["2D", 2.2],
          ["W", 2.5],
          ["3W", 2.8],
          ["M", 3],
        ] as const
      ).map(([tf, enc]) => [
        `tf_change_${tf}`,
        (ctx: ExecContext, s: CallSite) => b(timeframe.functions["timeframe.change"]!.impl(ctx, [tf], s), enc),
      ]),
    ),
  },
  timeframe_in_seconds: {
    tf: "30",
    cols: Object.fromEntries(
      ["1", "5", "240", "D", "4D", "W", "5W", "M", "2M"].map((tf) => [
        `in_seconds(${tf})`,
        (ctx: ExecContext, s: CallSite) => timeframe.functions["timeframe.in_seconds"]!.impl(ctx, [tf], s),
      ]),
    ),
  },
  session: {
    tf: "60",
    cols: {
      isfirstbar: (ctx, s) => b(session.variables["session.isfirstbar"]!.get(ctx, s), 1),
      isfirstbar_regular: (ctx, s) => b(session.variables["session.isfirstbar_regular"]!.get(ctx, s), 1.5),
      islastbar: (ctx, s) => b(session.variables["session.islastbar"]!.get(ctx, s), 2),
      islastbar_regular: (ctx, s) => b(session.variables["session.islastbar_regular"]!.get(ctx, s), 2.5),
      ismarket: (ctx, s) => b(session.variables["session.ismarket"]!.get(ctx, s), 3),
    },
  },
  session_24x7: {
    tf: "60",
    cols: {
      isfirstbar: (ctx, s) => b(session.variables["session.isfirstbar"]!.get(ctx, s), 1),
      isfirstbar_regular: (ctx, s) => b(session.variables["session.isfirstbar_regular"]!.get(ctx, s), 1.5),
      islastbar: (ctx, s) => b(session.variables["session.islastbar"]!.get(ctx, s), 2),
      islastbar_regular: (ctx, s) => b(session.variables["session.islastbar_regular"]!.get(ctx, s), 2.5),
    },
  },
};

/** Computes every column of a case; returns matched/total and the first mismatches. */
function score(name: string): { matched: number; total: number; misses: string[] } {
  const spec = CASES[name]!;
  const bars = caseBars(name);
  const { syminfo } = caseSymInfo(name);
  const ctx = makeCtx(bars, syminfo, spec.tf);
  const { header, rows } = readCsv(join(caseDir(name), "expected.csv"));
  // expected.csv: first column = bar time (s); plot columns follow in script order.
  const plotHeaders = header.slice(1);
  const cols = Object.entries(spec.cols);
  expect(plotHeaders).toEqual(cols.map(([h]) => h));
  const sites = cols.map((_, i) => site(i));
  let matched = 0;
  let total = 0;
  const misses: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    ctx.at(i);
    expect(ctx.time).toBe(+rows[i]![0]! * 1000);
    cols.forEach(([h, col], j) => {
      const want = Number(rows[i]![j + 1]);
      const got = col(ctx, sites[j]!);
      total++;
      if (cellMatches(got, want)) matched++;
      else if (misses.length < 10) misses.push(`bar ${i} ${h}: got ${got}, want ${want}`);
    });
  }
  return { matched, total, misses };
}

describe("time conformance columns (builtins called directly)", () => {
  for (const name of Object.keys(CASES)) {
    it(name, () => {
      const r = score(name);
      console.log(`${name}: ${r.matched}/${r.total} cells`);
      expect(r.misses).toEqual([]);
      expect(r.matched).toBe(r.total);
    });
  }
});

describe("helpers for other modules", () => {
  it('anchor TradingView\'s vwap export: session start and timeframe.change("240"/"360")', async () => {
    const { periodChanged, isNewSession } = await import("../../src/builtins/time/helpers.js");
    const bars = caseBars("vwap");
    const ctx = makeCtx(bars, caseSymInfo("vwap").syminfo, "15");
    const { rows } = readCsv(join(caseDir("vwap"), "expected.csv"));
    // vwap of close (hlc3 is not the source here) with the given anchor; column index in expected.csv.
    const check = (anchor: () => boolean, col: number, naUntilAnchor: boolean): number => {
      let sv = 0;
      let v = 0;
      let started = !naUntilAnchor;
      let matched = 0;
      for (let i = 0; i < bars.length; i++) {
        ctx.at(i);
        if (anchor()) {
          sv = 0;
          v = 0;
          started = true;
        }
        sv += bars.close[i]! * bars.volume[i]!;
        v += bars.volume[i]!;
        if (cellMatches(started ? sv / v : NaN, Number(rows[i]![col]))) matched++;
      }
      return matched;
    };
    expect(check(() => isNewSession(ctx), 1, false)).toBe(bars.length);
    expect(check(() => periodChanged(ctx, "240"), 2, true)).toBe(bars.length);
    expect(check(() => periodChanged(ctx, "360"), 3, true)).toBe(bars.length);
  });
});
