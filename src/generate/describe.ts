// Words for intent parts: how the answer's "understood" lines and the generated titles name a
// series, a condition or a distance ("EMA(20)", "RSI(14) < 30", "2% below the entry").

import type { Condition, Distance, SeriesRef } from "./intent.js";

const UPPER: Record<string, string> = {
  sma: "SMA",
  ema: "EMA",
  wma: "WMA",
  rma: "RMA",
  hma: "HMA",
  vwma: "VWMA",
  rsi: "RSI",
  cci: "CCI",
  mfi: "MFI",
  wpr: "Williams %R",
  roc: "ROC",
  mom: "Momentum",
};

export function seriesLabel(s: SeriesRef): string {
  switch (s.kind) {
    case "price":
      return s.field;
    case "ma":
      if (s.timeframe)
        return `${UPPER[s.fn]}(${s.length} ${s.timeframe === "D" ? "days" : "weeks"}${s.source === "close" ? "" : `, ${s.source}`})`;
      return `${UPPER[s.fn]}(${s.length}${s.source === "close" ? "" : `, ${s.source}`})`;
    case "osc":
      return `${UPPER[s.fn]}(${s.length}${s.source === "close" ? "" : `, ${s.source}`})`;
    case "macd":
      return s.line === "macd" ? `MACD(${s.fast}, ${s.slow}, ${s.signal})` : `MACD ${s.line}`;
    case "stoch":
      return `Stoch${s.rsiLength !== undefined ? " RSI" : ""} %${s.line.toUpperCase()}(${s.length})`;
    case "band":
      return `${s.band === "bb" ? "BB" : "KC"}(${s.length}, ${s.mult}) ${s.line}`;
    case "channel":
      return `${s.length}-${s.timeframe === "D" ? "day" : s.timeframe === "W" ? "week" : "bar"} ${s.line === "upper" ? "high" : "low"}`;
    case "adx":
      return s.line === "adx" ? `ADX(${s.length})` : `${s.line === "plus" ? "+DI" : "-DI"}(${s.length})`;
    case "vwap":
      return "VWAP";
    case "orb":
      return `${s.minutes}-minute opening range ${s.line === "upper" ? "high" : "low"}`;
    case "value":
      return String(s.value);
  }
}

export function conditionLabel(c: Condition): string {
  switch (c.kind) {
    case "cross":
      return `${seriesLabel(c.a)} crosses ${c.direction} ${seriesLabel(c.b)}`;
    case "compare":
      return `${seriesLabel(c.a)} ${c.op} ${seriesLabel(c.b)}`;
    case "squeeze":
      return `BB(${c.length}, ${c.bbMult}) squeeze inside KC(${c.length}, ${c.kcMult}) breaks ${c.direction}`;
    case "supertrend":
      return `Supertrend(${c.factor}, ${c.atrLength}) turns ${c.direction}`;
    case "slope":
      return `${seriesLabel(c.a)} ${c.direction === "up" ? "rising" : "falling"}`;
    case "heikin":
      return `Heikin Ashi candle ${c.turn ? "turns" : "is"} ${c.color}`;
    case "volume":
      return `volume ${c.op} ${c.mult === 1 ? "" : `${c.mult} x `}its ${c.length}-bar average`;
    case "any":
      return `(${c.of.map(conditionLabel).join(" or ")})`;
    case "all":
      return `(${c.of.map(conditionLabel).join(" and ")})`;
  }
}

export function distanceLabel(d: Distance): string {
  if (d.unit === "percent") return `${d.value}%`;
  if (d.unit === "atr") return `${d.value} x ATR(${d.atrLength ?? 14})`;
  return `${d.value} points`;
}
