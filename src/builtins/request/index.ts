// request.* builtins. request.security and request.security_lower_tf are compiled specially by the
// interpreter (src/interpret/security.ts runs the script in the requested context); their impls
// here are what a backend without that hook gets: the expression's own value when the request is
// for the chart's own context, na otherwise (never invented values).
//
// The other requests read RunOptions.dataFeed under these keys (values: the `close` column, as a
// step function of time, on the chart bar whose close the feed bar's time falls before; na when
// the key is missing):
//   request.currency_rate(from, to)             "FX:<FROM><TO>"  (1 when from == to)
//   request.dividends(ticker, field)            "DIVIDENDS:<ticker>:<field>"   (field default dividends.gross)
//   request.earnings(ticker, field)             "EARNINGS:<ticker>:<field>"    (field default earnings.actual)
//   request.splits(ticker, field)               "SPLITS:<ticker>:<field>"
//   request.financial(symbol, id, period)       "FINANCIAL:<symbol>:<id>:<period>"
//   request.economic(country, field)            "ECONOMIC:<country>:<field>"
//   request.quandl(ticker, gaps, index)         "QUANDL:<ticker>:<index>"
// request.footprint reads classified trades (footprint.ts); earnings.future_* / dividends.future_*
// the next record (corporate.ts); ask / bid quotes on 1T charts (quotes.ts). request.seed has no data
// source: na.

import type { BuiltinDef, BuiltinTable, ExecContext, CallSite, VariableTable } from "../types.js";
import { lastAtOrBefore, requestContexts } from "./feed.js";
import { requestFootprint } from "./footprint.js";
import { futureVariables } from "./corporate.js";
import { quoteVariables } from "./quotes.js";

function def(name: string, impl: BuiltinDef["impl"], stateful = false): BuiltinDef {
  return { name, impl, stateful };
}

/** Chart-context fallback of request.security (see the header). */
function securityFallback(ctx: ExecContext, args: unknown[]): unknown {
  const c = requestContexts(ctx).get(str(args[0]), str(args[1]));
  if (c.source === "same") return args[2];
  return Array.isArray(args[2]) ? args[2].map(naLike) : naLike(args[2]);
}

function naLike(v: unknown): unknown {
  return typeof v === "number" ? NaN : typeof v === "boolean" ? false : null;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/**
 * The value of a feed series on the current chart bar: the close of the last feed bar opening
 * before the chart bar closes. With gaps on, na unless that feed bar opened inside this chart bar.
 */
function feedValue(ctx: ExecContext, key: string, gaps: unknown): number {
  const bars = requestContexts(ctx).feedByKey(key);
  if (!bars) return NaN;
  const j = lastAtOrBefore(bars.time, ctx.timeClose - 1);
  if (j < 0) return NaN;
  if (gaps === true && bars.time[j]! < ctx.time) return NaN;
  return bars.close[j]!;
}

function recordMissing(ctx: ExecContext, site: CallSite, key: string): void {
  // one meta record per key, so a run tells which request data it lacked
  if (site.state === key) return;
  site.state = key;
  const rc = requestContexts(ctx);
  if (!rc.records.some((r) => r.symbol === key)) {
    const has = rc.feedByKey(key) !== null;
    rc.records.push({
      symbol: key,
      timeframe: "",
      source: has ? "dataFeed" : "none",
      bars: has ? rc.feedByKey(key)!.time.length : 0,
    });
  }
}

function keyed(name: string, key: (a: any[]) => string | null, gapsIndex: number): BuiltinDef {
  return def(
    name,
    (ctx, a, site) => {
      const k = key(a);
      if (k === null) return NaN;
      recordMissing(ctx, site, k);
      return feedValue(ctx, k, a[gapsIndex]);
    },
    true,
  );
}

export const functions: BuiltinTable = {
  "request.security": def("request.security", (ctx, a) => securityFallback(ctx, a), true),
  "request.security_lower_tf": def(
    "request.security_lower_tf",
    (ctx, a) => {
      const c = requestContexts(ctx).get(str(a[0]), str(a[1]));
      return c.source === "same" ? a[2] : null;
    },
    true,
  ),
  "request.currency_rate": def(
    "request.currency_rate",
    (ctx, a, site) => {
      const from = str(a[0]),
        to = str(a[1]);
      if (from === null || to === null) return NaN;
      if (from === to) return 1;
      const k = `FX:${from}${to}`;
      recordMissing(ctx, site, k);
      return feedValue(ctx, k, false);
    },
    true,
  ),
  "request.dividends": keyed(
    "request.dividends",
    (a) => (str(a[0]) === null ? null : `DIVIDENDS:${a[0]}:${str(a[1]) ?? "gross"}`),
    2,
  ),
  "request.earnings": keyed(
    "request.earnings",
    (a) => (str(a[0]) === null ? null : `EARNINGS:${a[0]}:${str(a[1]) ?? "actual"}`),
    2,
  ),
  "request.splits": keyed(
    "request.splits",
    (a) => (str(a[0]) === null || str(a[1]) === null ? null : `SPLITS:${a[0]}:${a[1]}`),
    2,
  ),
  "request.financial": keyed(
    "request.financial",
    (a) => (str(a[0]) === null || str(a[1]) === null ? null : `FINANCIAL:${a[0]}:${a[1]}:${str(a[2]) ?? ""}`),
    3,
  ),
  "request.economic": keyed(
    "request.economic",
    (a) => (str(a[0]) === null || str(a[1]) === null ? null : `ECONOMIC:${a[0]}:${a[1]}`),
    2,
  ),
  "request.quandl": keyed(
    "request.quandl",
    (a) => (str(a[0]) === null ? null : `QUANDL:${a[0]}:${typeof a[2] === "number" ? a[2] : 0}`),
    1,
  ),
  "request.seed": def("request.seed", (_ctx, a) => naLike(a[2])),
  "request.footprint": def("request.footprint", requestFootprint, true),
};

export const variables: VariableTable = { ...futureVariables, ...quoteVariables };
