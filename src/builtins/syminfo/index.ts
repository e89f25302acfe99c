// syminfo.* : the chart symbol's description (ctx.syminfo, built by src/core/syminfo.ts). Fields the
// data cannot know (fundamentals, analyst recommendations, price targets) are na unless the user's
// syminfo supplies them; syminfo.session is the session TYPE ("regular"), as in TradingView.

import type { BuiltinTable, ConstantTable, ExecContext, VariableTable } from "../types.js";
import { splitSymbol } from "../ticker/ids.js";
import { chartSymbol } from "../ticker/index.js";

type Kind = "string" | "number";

function given(ctx: ExecContext, key: string, kind: Kind): unknown {
  const v = ctx.syminfo[key];
  if (kind === "string") return typeof v === "string" ? v : undefined;
  return typeof v === "number" ? v : undefined;
}

/** A field read from syminfo, with a fallback when the user's syminfo lacks it. */
function f(key: string, kind: Kind, fallback: (ctx: ExecContext) => unknown): VariableTable[string] {
  const name = `syminfo.${key}`;
  return {
    name,
    get: (ctx) => {
      const v = given(ctx, key, kind);
      return v !== undefined ? v : fallback(ctx);
    },
    perRun: true,
  };
}

const naNum = (): number => NaN;
const naStr = (): null => null;

function mintick(ctx: ExecContext): number {
  const m = ctx.syminfo.mintick;
  return typeof m === "number" && m > 0 ? m : 0.01;
}
function minmove(ctx: ExecContext): number {
  const m = ctx.syminfo.minmove;
  return typeof m === "number" && m > 0 ? m : 1;
}

/**
 * The base currency of a forex/crypto pair when syminfo does not give it: the ticker with the quote
 * currency removed from its end ("BTCUSDT" quoted in USDT -> "BTC"); "" for other instruments, as
 * TradingView returns for "NASDAQ:AAPL".
 */
function baseCurrency(ctx: ExecContext): string {
  const si = ctx.syminfo;
  const type = String(si.type ?? "");
  const ticker = String(si.ticker ?? "");
  const quote = String(si.currency ?? "");
  if (
    (type === "crypto" || type === "forex") &&
    quote !== "" &&
    ticker.length > quote.length &&
    ticker.endsWith(quote)
  ) {
    return ticker.slice(0, ticker.length - quote.length);
  }
  return "";
}

const vars: VariableTable[string][] = [
  f("basecurrency", "string", baseCurrency),
  f("country", "string", naStr),
  f("currency", "string", () => "USD"),
  f("current_contract", "string", naStr),
  f("description", "string", (ctx) => ctx.syminfo.ticker ?? null),
  f("employees", "number", naNum),
  f("expiration_date", "number", naNum),
  f("industry", "string", naStr),
  f("isin", "string", () => ""),
  f("main_tickerid", "string", (ctx) => chartSymbol(ctx)),
  f("mincontract", "number", () => 1),
  f("minmove", "number", minmove),
  f("mintick", "number", mintick),
  f("pointvalue", "number", () => 1),
  f("prefix", "string", () => ""),
  f("pricescale", "number", (ctx) => Math.round(minmove(ctx) / mintick(ctx))),
  f("recommendations_buy", "number", naNum),
  f("recommendations_buy_strong", "number", naNum),
  f("recommendations_date", "number", naNum),
  f("recommendations_hold", "number", naNum),
  f("recommendations_sell", "number", naNum),
  f("recommendations_sell_strong", "number", naNum),
  f("recommendations_total", "number", naNum),
  f("root", "string", (ctx) => ctx.syminfo.ticker ?? null),
  f("sector", "string", naStr),
  // syminfo.session holds the session string in SymInfo; the Pine variable is the session type.
  {
    name: "syminfo.session",
    get: (ctx) => (typeof ctx.syminfo.session_type === "string" ? ctx.syminfo.session_type : "regular"),
    perRun: true,
  },
  f("shareholders", "number", naNum),
  f("shares_outstanding_float", "number", naNum),
  f("shares_outstanding_total", "number", naNum),
  f("target_price_average", "number", naNum),
  f("target_price_date", "number", naNum),
  f("target_price_estimates", "number", naNum),
  f("target_price_high", "number", naNum),
  f("target_price_low", "number", naNum),
  f("target_price_median", "number", naNum),
  f("ticker", "string", () => "CHART"),
  f("tickerid", "string", (ctx) => chartSymbol(ctx)),
  f("timezone", "string", () => "UTC"),
  f("type", "string", () => "crypto"),
  f("volumetype", "string", () => "base"),
];

export const variables: VariableTable = {};
for (const v of vars) variables[v.name] = v;

/** syminfo.prefix(symbol) / syminfo.ticker(symbol): parts of a "PREFIX:TICKER" id. */
function part(which: "prefix" | "ticker") {
  return (ctx: ExecContext, args: any[]): string | null => {
    const s = args[0];
    if (typeof s !== "string") return null;
    let sym = s;
    if (s.startsWith("=")) {
      const m = /"symbol"\s*:\s*"([^"]*)"/.exec(s);
      if (!m) return null;
      sym = m[1]!;
    }
    const p = splitSymbol(sym);
    // A bare ticker equal to the chart's resolves to the chart's prefix.
    if (which === "prefix" && p.prefix === "" && p.ticker === ctx.syminfo.ticker) return ctx.syminfo.prefix ?? "";
    return p[which];
  };
}

export const functions: BuiltinTable = {
  "syminfo.prefix": { name: "syminfo.prefix", impl: part("prefix") },
  "syminfo.ticker": { name: "syminfo.ticker", impl: part("ticker") },
};

export const constants: ConstantTable = {};
