// request.footprint(ticks_per_row, va_percent, imbalance_percent): the current bar's volume footprint
// (src/builtins/footprint/objects.ts) from classified trades of the chart's symbol in
// RunOptions.dataFeed (README.md, "request.footprint"): "TRADES:<symbol>:buy" and
// "TRADES:<symbol>:sell", one bar-shaped row per print (close = price, volume = size). The prints of a
// chart bar are those with bar time <= time < bar close. na when the feed has no such entries or the
// bar has no print: resin never classifies volume itself.
import type { CallSite, ExecContext } from "../types.js";
import type { BarColumns } from "../../core/bars.js";
import { buildFootprint, type Footprint } from "../footprint/objects.js";
import { chartSymbol } from "../ticker/index.js";
import { lastAtOrBefore, requestContexts } from "./feed.js";

interface SiteState {
  bar: number;
  value: Footprint | null;
}

/** The chart symbol's buy and sell prints, or null when the feed has neither. */
function trades(ctx: ExecContext): { buy: BarColumns | null; sell: BarColumns | null } | null {
  const cached = ctx.ext.footprintTrades as { buy: BarColumns | null; sell: BarColumns | null } | null | undefined;
  if (cached !== undefined) return cached;
  const rc = requestContexts(ctx);
  const names = [chartSymbol(ctx), String(ctx.syminfo.ticker ?? "")].filter(
    (s, i, a) => s !== "" && a.indexOf(s) === i,
  );
  let out: { buy: BarColumns | null; sell: BarColumns | null } | null = null;
  for (const name of names) {
    const buy = rc.feedByKey(`TRADES:${name}:buy`);
    const sell = rc.feedByKey(`TRADES:${name}:sell`);
    if (buy || sell) {
      out = { buy, sell };
      break;
    }
  }
  rc.records.push({
    symbol: `TRADES:${names[0] ?? ""}`,
    timeframe: "",
    source: out ? "dataFeed" : "none",
    bars: out ? (out.buy?.time.length ?? 0) + (out.sell?.time.length ?? 0) : 0,
    ...(out ? {} : { note: "request.footprint: no TRADES:<symbol>:buy/sell prints in dataFeed, na" }),
  });
  ctx.ext.footprintTrades = out;
  return out;
}

/** Prints [from, to) of one side inside the current chart bar. */
function inBar(ctx: ExecContext, side: BarColumns | null): { price: Float64Array; size: Float64Array } {
  if (!side) return { price: new Float64Array(0), size: new Float64Array(0) };
  const from = lastAtOrBefore(side.time, ctx.time - 1e-9) + 1;
  const to = lastAtOrBefore(side.time, ctx.timeClose - 1e-9) + 1;
  return { price: side.close.subarray(from, to), size: side.volume.subarray(from, to) };
}

export function requestFootprint(ctx: ExecContext, a: unknown[], site: CallSite): Footprint | null {
  // "A single script cannot include more than one request.footprint() call" (Reference Manual)
  const owner = ctx.ext.footprintSite as number | undefined;
  if (owner === undefined) ctx.ext.footprintSite = site.id;
  else if (owner !== site.id)
    return ctx.runtimeError("A single script cannot include more than one request.footprint() call");
  const ticks = a[0];
  if (typeof ticks !== "number" || ticks !== ticks || ticks < 1)
    return ctx.runtimeError(
      `request.footprint: ticks_per_row must be a positive integer, got ${ticks === null || ticks !== ticks ? "na" : String(ticks)}`,
    );
  const va = typeof a[1] === "number" ? a[1] : 70;
  const imbalance = typeof a[2] === "number" ? a[2] : 300;
  if (va < 0 || imbalance < 0)
    return ctx.runtimeError("request.footprint: va_percent and imbalance_percent cannot be negative");
  let st = site.state as SiteState | undefined;
  if (st && st.bar === ctx.barIndex) return st.value;
  const t = trades(ctx);
  let value: Footprint | null = null;
  if (t) {
    const buy = inBar(ctx, t.buy);
    const sell = inBar(ctx, t.sell);
    const built = buildFootprint(
      { buyPrice: buy.price, buySize: buy.size, sellPrice: sell.price, sellSize: sell.size },
      Math.trunc(ticks) * ctx.syminfo.mintick,
      va,
      imbalance,
    );
    if (typeof built === "string") return ctx.runtimeError(`request.footprint: ${built}`);
    value = built;
  }
  if (!st) st = site.state = { bar: ctx.barIndex, value };
  st.bar = ctx.barIndex;
  st.value = value;
  return value;
}
