// ask and bid. The reference: "The ask price at the time of the current tick ... available only on
// the "1T" timeframe. On other timeframes, the variable's value is na", "only updated on new ticks".
// So: na unless the chart is a "1T" chart, na on its historical bars (no quote is stored with past
// ticks), and on a realtime bar the last quote at or before the tick from RunOptions.dataFeed
// "ASK:<symbol>" / "BID:<symbol>" (close = the quote), na without them (README.md).
import type { BuiltinVariable, ExecContext, VariableTable } from "../types.js";
import type { BarColumns } from "../../core/bars.js";
import { chartSymbol } from "../ticker/index.js";
import { lastAtOrBefore, requestContexts } from "./feed.js";

function quote(ctx: ExecContext, side: "ASK" | "BID"): number {
  if (!ctx.isRealtime || ctx.timeframe.trim().toUpperCase() !== "1T") return NaN;
  const rc = requestContexts(ctx);
  let found: BarColumns | null = null;
  let key = `${side}:${chartSymbol(ctx)}`;
  for (const name of [chartSymbol(ctx), String(ctx.syminfo.ticker ?? "")]) {
    if (name === "") continue;
    found = rc.feedByKey(`${side}:${name}`);
    if (found) {
      key = `${side}:${name}`;
      break;
    }
  }
  // meta.requests says once per run which quotes were used (or missing)
  if (!rc.records.some((r) => r.symbol === key))
    rc.records.push({
      symbol: key,
      timeframe: "",
      source: found ? "dataFeed" : "none",
      bars: found ? found.time.length : 0,
    });
  if (!found) return NaN;
  const j = lastAtOrBefore(found.time, ctx.time);
  return j < 0 ? NaN : found.close[j]!;
}

const v = (name: "ask" | "bid"): BuiltinVariable => ({
  name,
  get: (ctx) => quote(ctx, name === "ask" ? "ASK" : "BID"),
});

export const quoteVariables: VariableTable = { ask: v("ask"), bid: v("bid") };
