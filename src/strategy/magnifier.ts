// Which lower-timeframe bars the bar magnifier uses. TradingView picks a lower timeframe for the
// chart's (e.g. 60 minutes for 1D, as the bar_magnifier export shows); resin takes them from the run's
// data feed (RunOptions.dataFeed, keys "SYMBOL" or "SYMBOL|TIMEFRAME"): the entry for the chart symbol
// with the largest timeframe that is strictly lower than the chart's and divides it.

import type { OhlcvInput } from "../core/result.js";

/** Timeframe in seconds ("1S", "15", "60", "D", "3D", "W", "M"); NaN when unreadable. */
export function timeframeSeconds(tf: string): number {
  const m = /^(\d*)([SDWM]?)$/i.exec(tf.trim());
  if (!m) return NaN;
  const n = m[1] === "" ? 1 : Number(m[1]);
  switch (m[2].toUpperCase()) {
    case "S":
      return n;
    case "D":
      return n * 86_400;
    case "W":
      return n * 604_800;
    case "M":
      return n * 2_592_000;
    default:
      return n * 60;
  }
}

/**
 * The magnifier's bars for `symbol` on a `chartTimeframe` chart, or null when the feed has none.
 * The Runtime puts the result at ctx.ext.magnifierBars when strategy(use_bar_magnifier = true).
 */
export function magnifierBarsFrom(
  dataFeed: Record<string, OhlcvInput> | undefined,
  symbol: string,
  chartTimeframe: string,
): OhlcvInput | null {
  if (!dataFeed) return null;
  const chart = timeframeSeconds(chartTimeframe);
  if (!(chart > 0)) return null;
  let best: OhlcvInput | null = null;
  let bestTf = 0;
  for (const key of Object.keys(dataFeed)) {
    const bar = key.lastIndexOf("|");
    if (bar < 0) continue;
    const sym = key.slice(0, bar);
    if (sym !== symbol && sym.split(":").pop() !== symbol.split(":").pop()) continue;
    const tf = timeframeSeconds(key.slice(bar + 1));
    if (!(tf > 0) || tf >= chart || chart % tf !== 0) continue;
    if (tf > bestTf) {
      bestTf = tf;
      best = dataFeed[key];
    }
  }
  return best;
}
