// Ticker ids. A plain id is "PREFIX:TICKER" (or just "TICKER"); an id with modifiers (session,
// adjustment, chart type, ...) is "=" followed by a JSON object whose "symbol" holds the plain id,
// e.g. ={"symbol":"NASDAQ:AAPL","session":"extended"}. request.* reads them back with parseTickerId.

export interface TickerId {
  /** The plain "PREFIX:TICKER" (or "TICKER") part. */
  symbol: string;
  prefix: string;
  ticker: string;
  session?: string;
  adjustment?: string;
  backadjustment?: string;
  settlement_as_close?: string;
  /** Non-standard chart type: "heikinashi", "renko", "linebreak", "kagi", "pointfigure". */
  type?: string;
  /** Parameters of the chart type (style, param, reversal, ...). */
  params?: Record<string, unknown>;
}

/** Splits "PREFIX:TICKER" into its parts (prefix "" when there is none). */
export function splitSymbol(symbol: string): { prefix: string; ticker: string } {
  const i = symbol.indexOf(":");
  return i < 0 ? { prefix: "", ticker: symbol } : { prefix: symbol.slice(0, i), ticker: symbol.slice(i + 1) };
}

/** Reads a ticker id (plain or with modifiers); null when it is not one. */
export function parseTickerId(id: string): TickerId | null {
  const s = id.trim();
  if (s.startsWith("=")) {
    let obj: unknown;
    try {
      obj = JSON.parse(s.slice(1));
    } catch {
      return null;
    }
    if (!obj || typeof obj !== "object" || typeof (obj as { symbol?: unknown }).symbol !== "string") return null;
    const o = obj as TickerId;
    const inner = parseTickerId(o.symbol);
    if (!inner) return null;
    return { ...o, symbol: inner.symbol, prefix: inner.prefix, ticker: inner.ticker };
  }
  if (s === "") return null;
  return { symbol: s, ...splitSymbol(s) };
}

/** Writes a ticker id: plain when there are no modifiers. */
export function formatTickerId(t: TickerId): string {
  const mods: Record<string, unknown> = {};
  let any = false;
  for (const k of ["session", "adjustment", "backadjustment", "settlement_as_close", "type", "params"] as const) {
    const v = t[k];
    if (v !== undefined && v !== null && v !== "") {
      mods[k] = v;
      any = true;
    }
  }
  if (!any) return t.symbol;
  return "=" + JSON.stringify({ symbol: t.symbol, ...mods });
}
