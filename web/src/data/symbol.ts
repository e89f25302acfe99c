// The chart's symbol description (what TradingView's symbol info shows): ticker, time zone, session,
// tick size, currency and type. Runs get it as RuntimeOptions.syminfo (syminfo.* in the script, the
// broker's tick rounding); the chart and report format prices with its tick size. Bundled samples and
// uploads start from a guess (the tick from the prices' decimals), which the symbol dialog edits.

import type { SymInfo } from "../../../src/core/result.js";
import type { PackedBars } from "../../../src/worker/protocol.js";

export interface ChartSymbol {
  ticker: string;
  timezone: string;
  session: string;
  mintick: number;
  currency: string;
  type: string;
}

/** Decimals of a number as written (at most 10): 1.13744 -> 5. */
function decimalsOf(v: number): number {
  for (let d = 0; d <= 10; d++) {
    const s = v * 10 ** d;
    if (Math.abs(s - Math.round(s)) < 1e-7 * Math.max(1, Math.abs(s))) return d;
  }
  return 10;
}

/** Decimals a price shows for a tick size (0.01 -> 2, 0.25 -> 2, 1e-5 -> 5). */
export function priceDecimals(mintick: number): number {
  return mintick > 0 ? decimalsOf(mintick) : 2;
}

/** The tick size the prices themselves suggest: the most decimals among the first bars' prices. */
export function guessMintick(bars: PackedBars): number {
  let d = 0;
  const n = Math.min(bars.close.length, 500);
  for (const col of [bars.open, bars.high, bars.low, bars.close])
    for (let i = 0; i < n; i++) {
      const v = col[i];
      if (v === v) d = Math.max(d, decimalsOf(v));
    }
  return Number((10 ** -Math.min(d, 8)).toFixed(Math.min(d, 8)));
}

/** A first description of `symbol` ("PREFIX:TICKER") for these bars. */
export function guessSymbol(symbol: string, bars: PackedBars): ChartSymbol {
  const ticker = symbol.includes(":") ? symbol.slice(symbol.indexOf(":") + 1) : symbol;
  const fx = /^[A-Z]{6}$/.test(ticker) && !/BTC|ETH|USDT/.test(ticker);
  return {
    ticker: symbol,
    timezone: "Etc/UTC",
    session: "24x7",
    mintick: guessMintick(bars),
    currency: /USD/.test(ticker) || ticker === "CHART" ? "USD" : ticker.slice(3, 6) || "USD",
    type: fx ? "forex" : /BTC|ETH/.test(ticker) ? "crypto" : "stock",
  };
}

/** The runtime's syminfo for a chart symbol (the ticker is passed as the run's symbol). */
export function toSymInfo(s: ChartSymbol): SymInfo {
  return {
    mintick: s.mintick,
    pricescale: Math.round(1 / s.mintick),
    minmove: 1,
    timezone: s.timezone,
    session: s.session,
    currency: s.currency,
    type: s.type,
  };
}

/** A problem with a symbol edited by the user (null when it is usable). */
export function symbolProblem(s: ChartSymbol): string | null {
  if (!(s.mintick > 0) || !Number.isFinite(s.mintick)) return "the tick size must be a number above 0";
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: s.timezone });
  } catch {
    return `unknown time zone "${s.timezone}" (an IANA name such as America/New_York or Etc/UTC)`;
  }
  if (!s.ticker.trim()) return "the ticker is empty";
  return null;
}
