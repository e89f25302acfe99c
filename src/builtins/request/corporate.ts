// earnings.future_* and dividends.future_*: the chart symbol's next earnings report and next
// dividend, from the same RunOptions.dataFeed records request.earnings / request.dividends read
// (README.md, "Next earnings and dividends"). The reference: "only fetched once during the script's
// initial calculation", so each is one value for the whole run: the first record at or after the end
// of the data (the last bar's close). na without the record.
import type { BuiltinVariable, ExecContext, VariableTable } from "../types.js";
import type { BarColumns } from "../../core/bars.js";
import { chartSymbol } from "../ticker/index.js";
import { lastAtOrBefore, requestContexts } from "./feed.js";

interface Next {
  time: number;
  value: number;
}

/** The first record of "<PREFIX>:<symbol>:<field>" at or after the data's end, cached per run. */
function next(ctx: ExecContext, prefix: string, field: string): Next | null {
  const cache = (ctx.ext.futureRecords ??= new Map<string, Next | null>()) as Map<string, Next | null>;
  const id = `${prefix}:${field}`;
  if (cache.has(id)) return cache.get(id)!;
  const rc = requestContexts(ctx);
  const names = [chartSymbol(ctx), String(ctx.syminfo.ticker ?? "")].filter(
    (s, i, a) => s !== "" && a.indexOf(s) === i,
  );
  let bars: BarColumns | null = null;
  let key = `${prefix}:${names[0] ?? ""}:${field}`;
  for (const name of names) {
    bars = rc.feedByKey(`${prefix}:${name}:${field}`);
    if (bars) {
      key = `${prefix}:${name}:${field}`;
      break;
    }
  }
  const closes = ctx.ext.timeCloseColumn as Float64Array | undefined;
  const n = ctx.columns.time.length;
  const end = n === 0 ? -Infinity : closes && closes.length === n ? closes[n - 1]! : ctx.columns.time[n - 1]!;
  let out: Next | null = null;
  if (bars) {
    const j = lastAtOrBefore(bars.time, end - 1e-9) + 1;
    if (j < bars.time.length) out = { time: bars.time[j]!, value: bars.close[j]! };
  }
  if (!rc.records.some((r) => r.symbol === key))
    rc.records.push({
      symbol: key,
      timeframe: "",
      source: bars ? "dataFeed" : "none",
      bars: bars ? bars.time.length : 0,
    });
  cache.set(id, out);
  return out;
}

function v(name: string, prefix: string, field: string, pick: (n: Next) => number): BuiltinVariable {
  return {
    name,
    get: (ctx) => {
      const r = next(ctx, prefix, field);
      return r ? pick(r) : NaN;
    },
  };
}

export const futureVariables: VariableTable = {
  "earnings.future_eps": v("earnings.future_eps", "EARNINGS", "estimate", (r) => r.value),
  "earnings.future_time": v("earnings.future_time", "EARNINGS", "estimate", (r) => r.time),
  "earnings.future_revenue": v("earnings.future_revenue", "EARNINGS", "revenue_estimate", (r) => r.value),
  "earnings.future_period_end_time": v("earnings.future_period_end_time", "EARNINGS", "period_end", (r) => r.value),
  "dividends.future_amount": v("dividends.future_amount", "DIVIDENDS", "gross", (r) => r.value),
  "dividends.future_ex_date": v("dividends.future_ex_date", "DIVIDENDS", "gross", (r) => r.time),
  "dividends.future_pay_date": v("dividends.future_pay_date", "DIVIDENDS", "pay_date", (r) => r.value),
};
