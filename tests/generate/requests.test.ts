// The request table: descriptions phrased the way traders write them (typos and shorthand included),
// each with the properties its script must have, every one checked by running the generated script
// in both modes: trades exist on the sample bars and go the requested ways, stops / targets / trailing
// stops fire at the stated distance on constructed bars, the session and date filters block entries
// outside them, alerts fire, plots carry the requested titles, and what was not understood is said.
import { describe, expect, it } from "vitest";
import type { Bar, Trade } from "../../src/core/result.js";
import { GenerateError, generate } from "../../src/generate/index.js";
import { expectationsOf } from "../../src/generate/intent.js";
import { understand } from "../../src/generate/understand.js";
import { sampleBars } from "../../src/generate/sample-bars.js";
import { runBoth } from "../helpers/run-both.js";
import { allTrades, atrSeries, checkExitDistance, inSession } from "./helpers.js";

type Dist = { unit: "percent" | "atr"; value: number; atrLength?: number };

interface Want {
  /** Default "strategy". */
  kind?: "strategy" | "indicator";
  /** Directions that must trade on the sample bars (and no other). */
  sides?: ("long" | "short")[];
  stop?: Dist;
  target?: Dist;
  trail?: Dist;
  /** Entries only inside the hours ("0000-0000": all day) on the TradingView day digits given (1 Sunday ... 7 Saturday). */
  session?: { hours: string; tz: string; days?: string };
  /** Same-direction entries stack up to this many (and do stack on the sample bars). */
  pyramiding?: number;
  /** Trades close by the time exit this many bars after the entry, none later. */
  maxBars?: number;
  /** Nothing held overnight: trades close on the day's last bar at its close. */
  flatAtDayEnd?: boolean;
  dates?: { from: string | null; to: string | null };
  alerts?: boolean;
  plots?: string[];
  /**
   * Words the grammar cannot place: the request is refused (NOT_UNDERSTOOD) naming them, never
   * answered with a script that leaves them out.
   */
  refused?: RegExp;
  /** Every entry's signal bar has volume above `mult` times its `length`-bar simple average. */
  volume?: { mult: number; length: number };
  /**
   * Opening range breakout over the first `minutes` of each (UTC) day of the sample: every long entry's
   * signal bar opens after the range and closes above its high (shorts below its low), the bar
   * before it not.
   */
  orb?: { minutes: number };
  /**
   * Scaling out (percent distances): on a constructed bar that runs through both targets, the trade
   * splits into `qtyPercent`% closed at the first target and the rest at the second, both from the
   * entry price.
   */
  partial?: { qtyPercent: number; first: number; rest: number };
  /**
   * Breakeven once the trade is `triggerPercent`% in profit: on constructed bars (one reaching the
   * trigger without a target, then one falling through the original stop) the trade closes at its
   * entry price, not at the stop.
   */
  breakeven?: { triggerPercent: number };
  /**
   * Heikin Ashi entries: each long entry's signal bar has a green Heikin Ashi candle (shorts red),
   * computed here from the sample bars; with `turn`, the candle before it is not.
   */
  heikin?: { turn: boolean };
  /** Source the script must contain (the rule the request named). */
  has?: RegExp[];
  /** Source the script must not contain (a misreading). */
  hasNot?: RegExp[];
}

const pct = (value: number): Dist => ({ unit: "percent", value });
const atr = (value: number, atrLength = 14): Dist => ({ unit: "atr", value, atrLength });
const NY = "America/New_York";
const LONG: ("long" | "short")[] = ["long"];
const SHORT: ("long" | "short")[] = ["short"];
const BOTH: ("long" | "short")[] = ["long", "short"];

/** TradingView's day digit (1 Sunday ... 7 Saturday) of a UTC ms time in a zone. */
function dayDigit(timeMs: number, tz: string): string {
  const wd = new Intl.DateTimeFormat("en-US", { timeZone: tz, weekday: "short" }).format(new Date(timeMs));
  return String(["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(wd) + 1);
}

const TABLE: [string, Want][] = [
  // the issue's own examples
  [
    "EMA 20/50 crossover strategy, long only, 2% stop loss, 4% take profit, only trade 9:30–16:00 New York",
    {
      sides: LONG,
      stop: pct(2),
      target: pct(4),
      session: { hours: "0930-1600", tz: NY },
      has: [/ta\.crossover\(ema20, ema50\)/],
    },
  ],
  ["rsi<30 buy, >70 sell", { sides: LONG, has: [/ta\.rsi\(close, rsiLength\)/, /rsiValue < 30/, /rsiValue > 70/] }],
  ["bb squeeze breakout w/ 1.5 atr stop", { sides: LONG, stop: atr(1.5), has: [/ta\.bb\(/, /ta\.kc\(/] }],
  ["ema20/50 x-over", { sides: LONG, has: [/ta\.crossover\(ema20, ema50\)/, /ta\.crossunder\(ema20, ema50\)/] }],
  // moving averages
  ["sma 10/30 cross long and short", { sides: BOTH, has: [/ta\.sma/] }],
  ["golden cross strat, long only", { sides: LONG, has: [/sma50/, /sma200/] }],
  [
    "9 and 21 ema crossover both directions 1% sl 2% tp",
    { sides: BOTH, stop: pct(1), target: pct(2), has: [/ema9/, /ema21/] },
  ],
  [
    "buy when price crosses above the 50 sma, sell when it crosses below",
    { sides: LONG, has: [/ta\.crossover\(close, sma50\)/, /ta\.crossunder\(close, sma50\)/] },
  ],
  ["hull ma 16/48 cross, longs only, trailing stop 2%", { sides: LONG, trail: pct(2), has: [/ta\.hma/] }],
  ["wma 5/20 crosover w/ 2 atr stop and 3 atr target", { sides: LONG, stop: atr(2), target: atr(3), has: [/ta\.wma/] }],
  ["ema 8 / 21 xover strategy short only", { sides: SHORT, has: [/shortCondition = ta\.crossunder\(ema8, ema21\)/] }],
  ["vwma 10 30 cross, alerts on", { sides: LONG, alerts: true, has: [/ta\.vwma/] }],
  ["ema cross 12 26 with 3% stoploss", { sides: LONG, stop: pct(3), has: [/ema12/, /ema26/] }],
  ["moving average crossover 10/40 long short", { sides: BOTH, has: [/ta\.sma/] }],
  ["ema20/50 cross, only long above 200 ema", { sides: LONG, has: [/close > ema200/] }],
  ["fast ema 5 slow ema 13 crossover, tp 1.5%, sl 0.75%", { sides: LONG, stop: pct(0.75), target: pct(1.5) }],
  // a chart timeframe named in the request is said back, not left unread nor taken as a rule's number
  ["rsi<30 buy >70 sell 15m", { sides: LONG, has: [/rsiValue < 30/, /rsiValue > 70/] }],
  ["ema 9/21 cross on the 1h chart", { sides: LONG, has: [/ta\.crossover\(ema9, ema21\)/] }],
  ["macd cross 4h timeframe, long only", { sides: LONG, has: [/ta\.macd/], hasNot: [/, 4\)/] }],
  // "or" between a rule's conditions: alternatives, either one enters
  [
    "buy when rsi < 30 or close crosses below the lower band, sell when rsi > 70",
    { sides: LONG, has: [/longCondition = \(rsiValue < 30 or ta\.crossunder\(close, bbLower\)\)/] },
  ],
  [
    "go long if price crosses above the 50 ema or macd crosses above signal, 2% stop",
    { sides: LONG, stop: pct(2), has: [/\(ta\.crossover\(close, ema50\) or ta\.crossover\(macdLine, signalLine\)\)/] },
  ],
  // RSI and oscillators
  ["rsi 14 below 30 go long, above 70 go short", { sides: BOTH, has: [/rsiValue < 30/, /rsiValue > 70/] }],
  ["RSI oversold buy, overbought sell, 2% stop", { sides: LONG, stop: pct(2) }],
  [
    "buy when rsi crosses above 30, exit when rsi crosses below 70",
    { sides: LONG, has: [/ta\.crossover\(rsiValue, 30\)/, /ta\.crossunder\(rsiValue, 70\)/] },
  ],
  [
    "rsi(7) < 20 long, tp 3% sl 1.5%",
    { sides: LONG, stop: pct(1.5), target: pct(3), has: [/input\.int\(7, "RSI length"/] },
  ],
  ["short when rsi > 80, cover when rsi < 50", { sides: SHORT, has: [/rsiValue > 80/, /rsiValue < 50/] }],
  ["cci < -100 buy, cci > 100 sell", { sides: LONG, has: [/ta\.cci/] }],
  ["stoch k crosses d below 20 buy", { sides: LONG, has: [/ta\.stoch/] }],
  ["stochastic cross strategy long and short", { sides: BOTH, has: [/ta\.crossover\(stochK, stochD\)/] }],
  ["mfi below 20 buy above 80 sell", { sides: LONG, has: [/ta\.mfi\(hlc3/] }],
  ["williams %r < -80 long, > -20 exit", { sides: LONG, has: [/ta\.wpr/] }],
  ["rsi2 < 10 buy w/ 5% trailing", { sides: LONG, trail: pct(5), has: [/input\.int\(2, "RSI length"/] }],
  ["rsi < 30 and price above 200 sma buy", { sides: LONG, has: [/rsiValue < 30 and close > sma200/] }],
  // MACD
  ["macd cross long and short with 3% trailing stop, alerts", { sides: BOTH, trail: pct(3), alerts: true }],
  ["macd crosses signal line buy, crosses under sell", { sides: LONG, has: [/ta\.macd/] }],
  ["macd histogram > 0 long only, sl 2%", { sides: LONG, stop: pct(2), has: [/histLine > 0/] }],
  ["MACD 8 21 5 crossover strategy", { sides: LONG, has: [/input\.int\(8, "MACD fast length"/] }],
  // bands, channels, breakouts
  [
    "buy when price closes below lower bollinger band, sell when it closes above upper band",
    { sides: LONG, has: [/close < bbLower/, /close > bbUpper/] },
  ],
  [
    "bollinger band bounce off lower band, 2% sl 3% tp",
    { sides: LONG, stop: pct(2), target: pct(3), has: [/ta\.crossover\(close, bbLower\)/] },
  ],
  [
    "20 day high breakout, 2 atr stop",
    {
      sides: LONG,
      stop: atr(2),
      has: [/request\.security\(syminfo\.tickerid, "D", ta\.highest\(high, channel20Length\)\[1\], lookahead/],
    },
  ],
  [
    "buy a break of the 10 day high, exit on the 10 day low",
    { sides: LONG, has: [/request\.security\(syminfo\.tickerid, "D", ta\.lowest\(low, channel10Length\)\[1\]/] },
  ],
  [
    "short when price breaks below the 4 week low, 3% stop",
    { sides: SHORT, stop: pct(3), has: [/request\.security\(syminfo\.tickerid, "W", ta\.lowest/] },
  ],
  ["donchian breakout 55, long and short", { sides: BOTH, has: [/highest55 = ta\.highest/, /lowest55 = ta\.lowest/] }],
  ["breakout of the 20 bar high w/ 1.5 atr trailing stop", { sides: LONG, trail: atr(1.5) }],
  [
    "keltner channel breakout long only 2% stop 6% target",
    { sides: LONG, stop: pct(2), target: pct(6), has: [/ta\.kc/] },
  ],
  ["bb squeeze breakout long short", { sides: BOTH, has: [/squeezeOn\[1\]/] }],
  ["price crosses above vwap buy, below vwap sell", { sides: LONG, has: [/ta\.vwap/] }],
  ["supertrend flip strategy long and short", { sides: BOTH, has: [/ta\.supertrend/] }],
  ["supertrend 10 3 buy only, 2% sl", { sides: LONG, stop: pct(2) }],
  ["+di crosses above -di buy when adx > 20", { sides: LONG, has: [/ta\.dmi/, /adx > 20/] }],
  // sessions, time zones and dates
  [
    "ema 9/21 cross, long only, trade london session only",
    { sides: LONG, session: { hours: "0800-1630", tz: "Europe/London" } },
  ],
  ["rsi<30 buy >70 sell only between 8am and 11am est", { sides: LONG, session: { hours: "0800-1100", tz: NY } }],
  [
    "sma 10/30 cross, 1% stop, session 0930-1600 new york time",
    { sides: LONG, stop: pct(1), session: { hours: "0930-1600", tz: NY } },
  ],
  ["macd cross both sides, asian session", { sides: BOTH, session: { hours: "0900-1500", tz: "Asia/Tokyo" } }],
  ["ema 5/20 cross only trade 14:00-20:00 utc", { sides: LONG, session: { hours: "1400-2000", tz: "UTC" } }],
  ["stoch cross buy, trade 9:30am to 4pm ny, weekdays", { sides: LONG, session: { hours: "0930-1600", tz: NY } }],
  [
    "ema 20/50 cross backtest 2024-01-10 to 2024-02-20",
    { sides: LONG, dates: { from: "2024-01-10", to: "2024-02-20" } },
  ],
  ["rsi < 30 buy, > 70 sell, since 2023-06-01", { sides: LONG, dates: { from: "2023-06-01", to: null } }],
  // sizing, alerts, plots
  ["ema 10/30 cross, risk 1% per trade, 2% stop", { sides: LONG, stop: pct(2), has: [/riskQty/] }],
  ["sma 20/50 cross, 25% of equity per trade", { sides: LONG, has: [/default_qty_value = 25/] }],
  ["rsi 30 70 strategy with 2 contracts", { sides: LONG, has: [/strategy\.fixed/] }],
  ["ema 12/26 cross, 1:2 risk reward, 1% stop", { sides: LONG, stop: pct(1), target: pct(2) }],
  ["sma 10/50 cross, notify me on entries", { sides: LONG, alerts: true }],
  ["rsi < 25 buy and send alerts", { sides: LONG, alerts: true }],
  ["ema 20/50 cross, plot the 20 ema as 'Fast' and the 50 ema as 'Slow'", { sides: LONG, plots: ["Fast", "Slow"] }],
  ["plot rsi 14 named 'Momentum'", { kind: "indicator", plots: ["Momentum"] }],
  ["show ema 21 and ema 55", { kind: "indicator", plots: ["EMA 21", "EMA 55"] }],
  ["indicator: rsi crosses above 30 with alerts", { kind: "indicator", alerts: true, plots: ["RSI 14"] }],
  ["rsi 14 indicator with 30/70 levels", { kind: "indicator", plots: ["RSI 14"], has: [/hline\(30, /, /hline\(70, /] }],
  ["stoch 14 with 20 and 80 lines", { kind: "indicator", has: [/hline\(20, /, /hline\(80, /] }],
  ["bollinger bands 20 2 indicator", { kind: "indicator", plots: ["BB Upper", "BB Lower"] }],
  // levels and alerts without trade wording are an indicator: lines drawn, one alert per condition
  [
    "plot rsi 14 with overbought 70 and oversold 30 lines",
    { kind: "indicator", plots: ["RSI 14"], has: [/hline\(30, /, /hline\(70, /] },
  ],
  ["show mfi with 20/80 levels", { kind: "indicator", has: [/ta\.mfi/, /hline\(20, /, /hline\(80, /] }],
  [
    "rsi 14 with 30/70 levels, alert when rsi crosses below 30",
    { kind: "indicator", alerts: true, has: [/hline\(70, /, /alertcondition\(alertCondition,/] },
  ],
  [
    "alert when rsi crosses below 30 or above 70",
    {
      kind: "indicator",
      alerts: true,
      has: [/alert1Condition = ta\.crossunder\(rsiValue, 30\)/, /alert2Condition = ta\.crossover\(rsiValue, 70\)/],
    },
  ],
  [
    "rsi 14 30/70 indicator with alerts",
    { kind: "indicator", alerts: true, plots: ["RSI 14"], has: [/hline\(30, /, /hline\(70, /, /alertcondition\(/] },
  ],
  [
    "notify me when mfi crosses above 80 or below 20",
    { kind: "indicator", alerts: true, has: [/ta\.crossover\(mfiValue, 80\)/, /ta\.crossunder\(mfiValue, 20\)/] },
  ],
  [
    "rsi indicator: alert when rsi crosses below 30, alert when rsi crosses above 70",
    { kind: "indicator", alerts: true, has: [/alertcondition\(alert1Condition,/, /alertcondition\(alert2Condition,/] },
  ],
  [
    "cci 20, alert me if cci crosses above 100; alert me if it crosses below -100",
    { kind: "indicator", alerts: true, has: [/ta\.crossover\(cciValue, 100\)/, /ta\.crossunder\(cciValue, -100\)/] },
  ],
  // Stochastic RSI is one oscillator: the stochastic of the RSI
  [
    "stoch rsi < 20 buy >80 sell",
    { sides: LONG, has: [/ta\.stoch\(rsiValue, rsiValue, rsiValue, stochLength\)/, /stochRsiK < 20/] },
  ],
  [
    "stochastic rsi k crosses d, long and short",
    { sides: BOTH, has: [/ta\.stoch\(rsiValue, rsiValue, rsiValue/, /ta\.crossover\(stochRsiK, stochRsiD\)/] },
  ],
  [
    "buy when stoch rsi crosses above 20, sell when it crosses below 80",
    { sides: LONG, has: [/ta\.crossover\(stochRsiK, 20\)/, /ta\.crossunder\(stochRsiK, 80\)/] },
  ],
  // more phrasings
  [
    "hma 9/21 cross short only, tp 3% sl 1.5%",
    { sides: SHORT, stop: pct(1.5), target: pct(3), has: [/shortCondition = ta\.crossunder\(hma9, hma21\)/] },
  ],
  [
    "golden cross / death cross, long only",
    { sides: LONG, has: [/longExitCondition = ta\.crossunder\(sma50, sma200\)/] },
  ],
  [
    "simple rsi strategy, oversold 25 overbought 75, long only",
    { sides: LONG, has: [/rsiValue < 25/, /rsiValue > 75/] },
  ],
  [
    "MACD crossover strategy with 200 EMA trend filter, both sides, 2:1 reward to risk with 1 ATR stop",
    { sides: BOTH, stop: atr(1), target: atr(2), has: [/ta\.crossover\(macdLine, signalLine\) and close > ema200/] },
  ],
  [
    "Enter long on a break of the 10-bar high, exit on a break of the 10-bar low",
    { sides: LONG, has: [/ta\.crossunder\(close, lowest10\)/] },
  ],
  [
    "short when price breaks below the lower bollinger band, cover at the middle band",
    { sides: SHORT, has: [/shortExitCondition = close < bbBasis/] },
  ],
  [
    "write a strategy that buys when cci crosses above -100 and sells when cci crosses below 100",
    { sides: LONG, has: [/ta\.crossover\(cciValue, -100\)/] },
  ],
  ["supertrend (10, 3) long and short w/ alerts", { sides: BOTH, alerts: true }],
  [
    "vwap crossover long and short with 0.5% stop and 1% target between 9:30 and 16:00 ET",
    { sides: BOTH, stop: pct(0.5), target: pct(1), session: { hours: "0930-1600", tz: NY } },
  ],
  [
    "donchian channel 20 breakout, risk 2% per trade with a 2 atr stop",
    { sides: LONG, stop: atr(2), has: [/riskQty = math\.min/] },
  ],
  // typos and things not understood
  ["emaa 20/50 crosover stratgey, lnog only, 2% stpo", { sides: LONG, stop: pct(2) }],
  ["rsi<30 buuy, >70 sel, 1% stoplos", { sides: LONG, stop: pct(1) }],
  ["ema 20/50 cross, skip fomc days", { refused: /fomc/ }],
  ["rsi < 30 buy, stop 2", { refused: /stop 2: no unit/ }],
  ["sma 50/200 cross with ichimoku cloud filter", { refused: /ichimoku/ }],
  // a second round of phrasings written the way traders type (issue 23's robustness pass): shorthand,
  // typos, "x" for a cross, L/S, days excluded, time exits, pyramiding, "and" inside "or"
  [
    "rsi(14) < 30 buy, rsi(14) > 70 sell, sl 2%",
    { sides: LONG, stop: pct(2), has: [/rsiValue < 30/, /rsiValue > 70/] },
  ],
  [
    "close > 200sma and rsi < 40 go long, tp 3%, sl 1.5%",
    { sides: LONG, stop: pct(1.5), target: pct(3), has: [/close > sma200 and rsiValue < 40/] },
  ],
  [
    "ema9/21 crosover stratgy L/S, sl 1.5x atr, tp 3x atr",
    { sides: BOTH, stop: atr(1.5), target: atr(3), has: [/ta\.crossover\(ema9, ema21\)/] },
  ],
  [
    "macd x signal long only, trail 2 atr",
    { sides: LONG, trail: atr(2), has: [/ta\.crossover\(macdLine, signalLine\)/] },
  ],
  ["vwap reclaim long, stoploss 1%", { sides: LONG, stop: pct(1), has: [/ta\.crossover\(close, vwapValue\)/] }],
  [
    "supertrend flip L/S, session 0930-1600 NY",
    { sides: BOTH, session: { hours: "0930-1600", tz: NY }, has: [/ta\.supertrend/] },
  ],
  [
    "donchian 20 breakout, trail 2 atr, pyramiding 3",
    { sides: LONG, trail: atr(2), pyramiding: 3, has: [/pyramiding = 3/] },
  ],
  [
    "ema 20/50 cross, no trades fridays",
    { sides: LONG, session: { hours: "0000-0000", tz: "UTC", days: "123457" }, has: [/"0000-0000"/, /":123457"/] },
  ],
  ["sma 10/30 cross, risk 1% per trade, sl 2 atr", { sides: LONG, stop: atr(2), has: [/riskQty/] }],
  ["rsi 2 < 10 buy, exit after 10 bars", { sides: LONG, maxBars: 10, hasNot: [/rsiValue > 90/] }],
  [
    "rsi < 30 and close > sma 200 or macd crosses above signal buy, sl 2%",
    {
      sides: LONG,
      stop: pct(2),
      has: [/longCondition = \(\(rsiValue < 30 and close > sma200\) or ta\.crossover\(macdLine, signalLine\)\)/],
    },
  ],
  [
    "ema 9 above ema 21 and rsi > 50 buy or macd x signal buy, 2% stop",
    {
      sides: LONG,
      stop: pct(2),
      has: [/longCondition = \(\(ema9 > ema21 and rsiValue > 50\) or ta\.crossover\(macdLine, signalLine\)\)/],
    },
  ],
  ["buy the dip: rsi below 25, take profit 5%, stop loss 2.5%", { sides: LONG, stop: pct(2.5), target: pct(5) }],
  [
    "macd histogram crosses above zero go long, crosses below zero go short",
    { sides: BOTH, has: [/ta\.crossover\(histLine, 0\)/] },
  ],
  ["stoch 14 k x d under 20 buy, over 80 sell", { sides: LONG, has: [/ta\.crossover\(stochK, stochD\)/] }],
  [
    "close above upper bb short, close below lower bb long",
    { sides: BOTH, has: [/close < bbLower/, /close > bbUpper/] },
  ],
  ["keltner breakout 1.5x atr stop 3x atr target", { sides: LONG, stop: atr(1.5), target: atr(3), has: [/ta\.kc/] }],
  [
    "price > vwap and ema 9 > ema 21 buy, tp 1%, sl 0.5%, rth only",
    { sides: LONG, stop: pct(0.5), target: pct(1), session: { hours: "0930-1600", tz: NY } },
  ],
  ["golden cross buy, death cross sell, 10% trailing stop", { sides: LONG, trail: pct(10) }],
  [
    "cci(20) crosses above -100 long, crosses below 100 short",
    { sides: BOTH, has: [/ta\.crossover\(cciValue, -100\)/] },
  ],
  ["adx > 25 and +di > -di buy, 2 atr sl", { sides: LONG, stop: atr(2), has: [/adx > 25 and diPlus > diMinus/] }],
  ["hma 55 slope up buy", { sides: LONG, has: [/hma55 > hma55\[1\]/, /hma55 < hma55\[1\]/] }],
  ["mfi < 20 long, mfi > 80 exit, 5 contracts", { sides: LONG, has: [/strategy\.fixed/, /mfiValue > 80/] }],
  ["williams %r oversold buy overbought sell", { sides: LONG, has: [/wprValue < -80/, /wprValue > -20/] }],
  ["200 ema filter, rsi 30/70 strat, long only", { sides: LONG, has: [/rsiValue < 30 and close > ema200/] }],
  ["short only: rsi > 75 short, rsi < 50 cover, sl 3%", { sides: SHORT, stop: pct(3) }],
  [
    "ema 50 cross above ema 200 long, trail 3%, risk 2% per trade",
    { sides: LONG, trail: pct(3), has: [/riskQty/, /trailPercent/] },
  ],
  [
    "breakout above 55 day high, exit on 20 day low",
    { sides: LONG, has: [/ta\.crossover\(close, highest55Day\)/, /close < lowest20Day/] },
  ],
  [
    "rsi under 30 buy, over 70 sell, mon-fri 0800-1200 london",
    { sides: LONG, session: { hours: "0800-1200", tz: "Europe/London", days: "23456" } },
  ],
  ["ema 8/21 crosover, tp 2 % , stoplos 1 %, long & short", { sides: BOTH, stop: pct(1), target: pct(2) }],
  [
    "sma 5 crosses sma 20 buy sma 5 crosses under sma 20 sell 1h chart",
    { sides: LONG, has: [/ta\.crossunder\(sma5, sma20\)/] },
  ],
  ["macd 12/26/9 cross, 1.5 atr stop, 3 atr tp, both sides", { sides: BOTH, stop: atr(1.5), target: atr(3) }],
  [
    "vwap cross, 0.3% sl, 0.6% tp, 9:30-11:30 et",
    { sides: LONG, stop: pct(0.3), target: pct(0.6), session: { hours: "0930-1130", tz: NY } },
  ],
  ["supertrend(10,3) buy, 2x atr trailing stop", { sides: LONG, trail: atr(2) }],
  [
    "rsi 14 crosses above 50 long, crosses below 50 short, 1:3 rr w/ 1% stop",
    { sides: BOTH, stop: pct(1), target: pct(3) },
  ],
  ["4 week high breakout, 2 atr stop, long only", { sides: LONG, stop: atr(2), has: [/"W", ta\.highest/] }],
  [
    "20 day sma cross 50 day sma, long only",
    { sides: LONG, has: [/request\.security\(syminfo\.tickerid, "D", ta\.sma\(close, sma50DayLength\)\[1\]/] },
  ],
  [
    "buy when close crosses 50 day ema, sell when below, 1% stop",
    { sides: LONG, stop: pct(1), has: [/ta\.crossover\(close, ema50Day\)/, /close < ema50Day/] },
  ],
  ["stratgy: ema 10/20 x, tp 1.5%, sl 1%", { sides: LONG, stop: pct(1), target: pct(1.5) }],
  [
    "long when ema 12 crosses over ema 26, short when it crosses under, tp 2% sl 1%",
    { sides: BOTH, stop: pct(1), target: pct(2) },
  ],
  ["20 ema / 50 ema cross long only w/ 2% tp and 1% sl", { sides: LONG, stop: pct(1), target: pct(2) }],
  [
    "bollinger 20 2.5 mean reversion long, tp at middle band",
    {
      sides: LONG,
      has: [
        /longCondition = close < bbLower/,
        /longExitCondition = close > bbBasis/,
        /ta\.bb\(close, bbLength, bbMult\)/,
      ],
    },
  ],
  ["bb mean reversion short only, 1% sl", { sides: SHORT, stop: pct(1), has: [/shortCondition = close > bbUpper/] }],
  ["rsi mean reversion", { refused: /mean reversion to nothing named/ }],
  ["ema 21 pullback long, stop below 1 atr", { refused: /pullback/ }],
  [
    "long when rsi crosses up 30, short when it crosses down 70, sl 2%, tp 4%",
    {
      sides: BOTH,
      stop: pct(2),
      target: pct(4),
      has: [/ta\.crossover\(rsiValue, 30\)/, /ta\.crossunder\(rsiValue, 70\)/],
    },
  ],
  [
    "buy if 9ema > 21ema and close above vwap, sell if 9ema < 21ema",
    { sides: LONG, has: [/ema9 > ema21 and close > vwapValue/, /longExitCondition = ema9 < ema21/] },
  ],
  [
    "enter long when price closes above 20 ema and macd > 0, exit when price closes below 20 ema",
    { sides: LONG, has: [/close > ema20 and macdLine > 0/, /longExitCondition = close < ema20/] },
  ],
  [
    "short when rsi > 70 and price below 200 ema, cover when rsi < 30, sl 1.5%",
    { sides: SHORT, stop: pct(1.5), has: [/shortCondition = rsiValue > 70 and close < ema200/] },
  ],
  [
    "sma cross 10 and 50, long only, stoploss 3 percent, takeprofit 6 percent",
    { sides: LONG, stop: pct(3), target: pct(6), has: [/ta\.crossover\(sma10, sma50\)/] },
  ],
  [
    "EMA(12) crosses EMA(26) -> buy; opposite -> sell",
    {
      sides: LONG,
      has: [/longCondition = ta\.crossover\(ema12, ema26\)/, /longExitCondition = ta\.crossunder\(ema12, ema26\)/],
    },
  ],
  [
    "rsi14 < 30 = buy, rsi14 > 70 = sell, trade 10:00-15:00 ET only",
    { sides: LONG, session: { hours: "1000-1500", tz: NY }, has: [/rsiValue < 30/] },
  ],
  [
    "bollinger mean reversion, buy below lower band, sell above upper band",
    { sides: LONG, has: [/longCondition = close < bbLower\n/, /longExitCondition = close > bbUpper/] },
  ],
  [
    "macd cross w/ 200ema filter, 2R target, 1 ATR stop, L/S",
    { sides: BOTH, stop: atr(1), target: atr(2), has: [/ta\.crossover\(macdLine, signalLine\) and close > ema200/] },
  ],
  [
    "adx above 20 and ema 10/30 crossover, tp 2%, sl 1%",
    { sides: LONG, stop: pct(1), target: pct(2), has: [/ta\.crossover\(ema10, ema30\) and adx > 20/] },
  ],
  [
    "go short on death cross, cover on golden cross",
    {
      sides: SHORT,
      has: [/shortCondition = ta\.crossunder\(sma50, sma200\)/, /shortExitCondition = ta\.crossover\(sma50, sma200\)/],
    },
  ],
  [
    "breakout strategy: buy 20 bar high, sell 10 bar low, 2% risk per trade, 2 atr stop",
    { sides: LONG, stop: atr(2), has: [/riskQty/, /ta\.crossover\(close, highest20\)/] },
  ],
  [
    "stoch rsi oversold buy, overbought sell, only mondays to fridays",
    { sides: LONG, session: { hours: "0000-0000", tz: "UTC", days: "23456" }, has: [/stochRsiK < 20/] },
  ],
  [
    "rsi(2) below 5 buy, exit when close above 5 sma",
    { sides: LONG, has: [/rsiValue < 5/, /longExitCondition = close > sma5/] },
  ],
  [
    "hull 20 rising buy, falling sell",
    { sides: LONG, has: [/hma20 > hma20\[1\]/, /longExitCondition = hma20 < hma20\[1\]/] },
  ],
  [
    "ema9 crossover ema21 strategy with 1% trailing stop, session 0930-1100 new york, no trades on monday",
    { sides: LONG, trail: pct(1), session: { hours: "0930-1100", tz: NY, days: "134567" } },
  ],
  ["supertrend buy signal, exit after 20 bars or 3% stop", { sides: LONG, stop: pct(3), maxBars: 20 }],
  [
    "price crosses above upper keltner channel go long, tp 2x atr, sl 1x atr",
    { sides: LONG, stop: atr(1), target: atr(2), has: [/ta\.crossover\(close, kcUpper\)/] },
  ],
  ["vwap bounce long only, 0.5% sl", { sides: LONG, stop: pct(0.5), has: [/ta\.crossover\(close, vwapValue\)/] }],
  [
    "long only: ema 50 > ema 200 and rsi crosses above 40, trailing stop 3 atr, max 2 pyramiding",
    {
      sides: LONG,
      trail: atr(3),
      pyramiding: 2,
      has: [/pyramiding = 2/, /ta\.crossover\(rsiValue, 40\) and ema50 > ema200/],
    },
  ],
  [
    "close above 50 day high buy, close below 20 day low exit",
    { sides: LONG, has: [/close > highest50Day/, /close < lowest20Day/] },
  ],
  ["cci 14 < -150 buy, cci 14 > 150 sell, both ways", { sides: BOTH, has: [/cciValue < -150/, /cciValue > 150/] }],
  // a third round: bare lengths, end of day, closing actions between two rules, counts of averages
  [
    "buy when the 50 crosses above the 200, sell when it crosses back below",
    {
      sides: LONG,
      has: [/longCondition = ta\.crossover\(sma50, sma200\)/, /longExitCondition = ta\.crossunder\(sma50, sma200\)/],
    },
  ],
  [
    "long only donchian 55 breakout exit donchian 20 low",
    { sides: LONG, has: [/ta\.crossover\(close, highest55\)/, /longExitCondition = close < lowest20/] },
  ],
  [
    "bolinger band breakout strategey with stop los 2%",
    { sides: LONG, stop: pct(2), has: [/ta\.crossover\(close, bbUpper\)/] },
  ],
  ["flat by end of day, ema 9/21 cross, 5m chart", { sides: LONG, flatAtDayEnd: true, has: [/session\.islastbar/] }],
  ["rsi < 30 buy, > 70 sell, no overnight positions", { sides: LONG, flatAtDayEnd: true }],
  ["ema 9/21 cross, close all positions at market close, 1% stop", { sides: LONG, stop: pct(1), flatAtDayEnd: true }],
  ["3 ema crossover, 1.5 atr trailing", { refused: /'3 ema': 3 averages or a length of 3\?/ }],
  ["ema 20 50 200 stack long", { refused: /stack/ }],
  ["rsi divergence buy", { refused: /divergence/ }],
  [
    "long when close > ema(200) & rsi(2) < 10, exit when rsi(2) > 70",
    { sides: LONG, has: [/longCondition = close > ema200 and rsiValue < 10/, /rsiValue > 70/] },
  ],
  [
    "macd crossover buy, sell on macd crossunder, 2 percent stop loss",
    { sides: LONG, stop: pct(2), has: [/ta\.crossunder\(macdLine, signalLine\)/] },
  ],
  [
    "short when price closes below the 20 bar low, stop at 2 atr, target 4 atr",
    { sides: SHORT, stop: atr(2), target: atr(4), has: [/close < lowest20/] },
  ],
  [
    "buy on the close above the upper bollinger band, exit on close below middle band",
    { sides: LONG, has: [/close > bbUpper/, /longExitCondition = close < bbBasis/] },
  ],
  ["dmi crossover strategy long short", { sides: BOTH, has: [/ta\.crossover\(diPlus, diMinus\)/] }],
  [
    "sma 200 filter long only, buy when stoch %k crosses above %d below 20",
    { sides: LONG, has: [/ta\.crossover\(stochK, stochD\) and stochK < 20 and close > sma200/] },
  ],
  [
    "trade only between 2am and 5am london, ema 5/13 cross",
    { sides: LONG, session: { hours: "0200-0500", tz: "Europe/London" } },
  ],
  ["ema 10/20 cross, tp 1r sl 1%", { sides: LONG, stop: pct(1), target: pct(1) }],
  ["rsi < 30 buy 100 shares, rsi > 70 sell", { sides: LONG, has: [/default_qty_value = 100/] }],
  [
    "vwap crossover, risk 0.5% per trade, 1 atr stop, 2 atr target, ny session",
    { sides: LONG, stop: atr(1), target: atr(2), session: { hours: "0930-1600", tz: NY }, has: [/riskQty/] },
  ],
  ["short the rsi > 80, cover rsi < 60, 2 atr stop, only short", { sides: SHORT, stop: atr(2) }],
  ["buy when close crosses above 10 day high, trailing stop 2.5 atr(20)", { sides: LONG, trail: atr(2.5, 20) }],
  // a fourth round: sentences, "covers at 50", "atr stop 2x", "from below zero", "long entry/exit",
  // "yesterday's high", "it turns red", a level whose series was named in another clause
  [
    "Create a long-only strategy: enter when the 8 EMA crosses above the 34 EMA, exit when it crosses below. Use a 1.5% stop.",
    {
      sides: LONG,
      stop: pct(1.5),
      has: [/ta\.crossover\(ema8, ema34\)/, /longExitCondition = ta\.crossunder\(ema8, ema34\)/],
    },
  ],
  [
    "can u make me a strat that shorts when rsi goes above 75 and covers at 50",
    { sides: SHORT, has: [/shortCondition = rsiValue > 75/, /shortExitCondition = rsiValue < 50/] },
  ],
  ["EMA crossover 9/21 with ATR stop 2x and target 3x", { sides: LONG, stop: atr(2), target: atr(3) }],
  [
    "buy signal: macd line crosses signal line from below zero",
    { sides: LONG, has: [/longCondition = ta\.crossover\(macdLine, signalLine\) and macdLine < 0/] },
  ],
  [
    "long entry rsi<35, long exit rsi>65, short entry rsi>65, short exit rsi<35",
    {
      sides: BOTH,
      has: [
        /longCondition = rsiValue < 35/,
        /shortCondition = rsiValue > 65/,
        /longExitCondition = rsiValue > 65/,
        /shortExitCondition = rsiValue < 35/,
      ],
    },
  ],
  [
    "buy 1 contract when close breaks above yesterday's high",
    { sides: LONG, has: [/request\.security\(syminfo\.tickerid, "D", ta\.highest\(high, channel1Length\)\[1\]/] },
  ],
  [
    "rsi 14 strategy, buy under 30 sell over 70, stop 1.5 atr, take profit 3 atr, london session",
    {
      sides: LONG,
      stop: atr(1.5),
      target: atr(3),
      session: { hours: "0800-1630", tz: "Europe/London" },
      has: [/rsiValue < 30/],
      hasNot: [/close < 30/],
    },
  ],
  [
    "golden cross with 5% stop and 15% target, long only, from 2020 to 2023",
    { sides: LONG, stop: pct(5), target: pct(15), dates: { from: "2020-01-01", to: "2024-01-01" } },
  ],
  [
    "SMA 20/50 cross strategy trading only on weekdays between 9:30 and 15:30 EST",
    { sides: LONG, session: { hours: "0930-1530", tz: NY, days: "23456" } },
  ],
  [
    "go long on supertrend (7, 2) turning green, exit when it turns red",
    {
      sides: LONG,
      has: [
        /ta\.supertrend\(supertrendFactor, supertrendAtrLength\)/,
        /input\.float\(2\.0, "Supertrend factor"/,
        /longExitCondition = supertrendDirection > 0/,
      ],
    },
  ],
  [
    "ema 9/21 cross but only long when price above vwap",
    { sides: LONG, has: [/ta\.crossover\(ema9, ema21\) and close > vwapValue/] },
  ],
  [
    "kc squeeze breakout short only, 2 atr sl",
    { sides: SHORT, stop: atr(2), has: [/squeezeOn\[1\] and close < bbLower/] },
  ],
  [
    "long when macd > signal and adx > 25, exit when macd < signal",
    {
      sides: LONG,
      has: [/longCondition = macdLine > signalLine and adx > 25/, /longExitCondition = macdLine < signalLine/],
    },
  ],
  ["ema 5/8/13 ribbon", { refused: /ribbon/ }],
  // rare entries: no trade on the first random walk, verified on the next one that trades
  [
    "i want a strategy that goes long when price is above the 20-day moving average and rsi is under 40",
    { sides: LONG, has: [/close > sma20Day and rsiValue < 40/] },
  ],
  // a fifth round: typos tied between two words, a colon between a label and its rule
  [
    "emma 12/26 corss, lon only, stpo 2 %, tarket 5 %",
    { sides: LONG, stop: pct(2), target: pct(5), has: [/ta\.crossover\(ema12, ema26\)/] },
  ],
  ["buy when rsi(14) dips below 30 and then crosses back above it", { refused: /a cross of close with nothing named/ }],
  [
    "smma 21/55 crossover both sides w/ 3% trail",
    { sides: BOTH, trail: pct(3), has: [/ta\.rma\(close, rma21Length\)/] },
  ],
  [
    "vwap + ema 9 scalp: long above vwap when ema 9 crosses up, 0.25% tp, 0.15% sl",
    {
      sides: LONG,
      stop: pct(0.15),
      target: pct(0.25),
      has: [/longCondition = close > vwapValue and ta\.crossover\(close, ema9\)/],
    },
  ],
  ["$500 per trade, sma 10/20 cross", { sides: LONG, has: [/strategy\.cash/, /default_qty_value = 500/] }],
  [
    "ema 13/48 cross, since jan 2024, 2 atr stop",
    { sides: LONG, stop: atr(2), dates: { from: "2024-01-01", to: null } },
  ],
  ["tp 4% sl 2% rsi < 25 buy", { sides: LONG, stop: pct(2), target: pct(4) }],
  [
    "short when bb upper band is crossed down, cover at lower band",
    {
      sides: SHORT,
      has: [/shortCondition = ta\.crossunder\(close, bbUpper\)/, /shortExitCondition = close < bbLower/],
    },
  ],
  ["williams r < -90 long, trail 2%", { sides: LONG, trail: pct(2), has: [/wprValue < -90/] }],
  [
    "risk 1.5% of equity per trade with 2 atr stop on ema 21/50 cross",
    { sides: LONG, stop: atr(2), has: [/riskQty/, /input\.float\(1\.5, "Risk per trade %"/] },
  ],
  [
    "buy breakout of 30 day high, sell breakdown of 15 day low, long only",
    { sides: LONG, has: [/ta\.crossover\(close, highest30Day\)/, /ta\.crossunder\(close, lowest15Day\)/] },
  ],
  [
    "mfi(10) crosses above 20 buy, crosses below 80 sell",
    { sides: LONG, has: [/ta\.crossover\(mfiValue, 20\)/, /ta\.crossunder\(mfiValue, 80\)/] },
  ],
  // windows in days with a session filter: hourly sample bars (166 days), daily ones for days alone
  [
    "20 day sma cross 50 day sma, long only, exit after 10 bars, no trades fridays",
    { sides: LONG, maxBars: 10, session: { hours: "0000-0000", tz: "UTC", days: "123457" }, has: [/sma50Day/] },
  ],
  [
    "50 day high breakout, session 0930-1600 ny, 2% stop",
    { sides: LONG, stop: pct(2), session: { hours: "0930-1600", tz: NY }, has: [/"D", ta\.highest/] },
  ],
  [
    "buy when close crosses above the 50 day ema, trade 10:00-15:00 et, 1.5% stop",
    { sides: LONG, stop: pct(1.5), session: { hours: "1000-1500", tz: NY }, has: [/ta\.crossover\(close, ema50Day\)/] },
  ],
  // a sixth round: stochastic smoothing, day ranges, "1.5 rr", "max 5 bars"
  [
    "stochastic 5 3 3 crossover below 20 long, above 80 short",
    {
      sides: BOTH,
      has: [/input\.int\(5, "Stochastic length"/, /longCondition = ta\.crossover\(stochK, stochD\) and stochK < 20/],
    },
  ],
  [
    "price above 200 day ma and rsi(2) < 5 buy, exit when close > 5 day ma",
    { sides: LONG, has: [/close > sma200Day and rsiValue < 5/, /longExitCondition = close > sma5Day/] },
  ],
  [
    "ema 50 slope down and rsi > 60 short, cover rsi < 40",
    {
      sides: SHORT,
      has: [/shortCondition = ema50 < ema50\[1\] and rsiValue > 60/, /shortExitCondition = rsiValue < 40/],
    },
  ],
  ["rsi 7 < 20 buy w/ tp 2% & sl 1%, max 5 bars", { sides: LONG, stop: pct(1), target: pct(2), maxBars: 5 }],
  [
    "on 4h: macd cross up buy, cross down sell, trailing 2 atr",
    { sides: LONG, trail: atr(2), has: [/ta\.crossunder\(macdLine, signalLine\)/] },
  ],
  ["sma 9/18 crossover, only trade tue-thu", { sides: LONG, session: { hours: "0000-0000", tz: "UTC", days: "345" } }],
  ["ema 21 cross with 1% stop and 1.5 rr", { sides: LONG, stop: pct(1), target: pct(1.5) }],
  ["heikin ashi green candle buy", { sides: LONG, heikin: { turn: false } }],
  [
    "long if close > open and volume > 20 sma of volume",
    { sides: LONG, volume: { mult: 1, length: 20 }, has: [/close > open and volume > volumeAvg/] },
  ],
  ["break of 15m opening range high long", { sides: LONG, orb: { minutes: 15 } }],
  [
    "macd hist turns positive buy, turns negative sell",
    { sides: LONG, has: [/ta\.crossover\(histLine, 0\)/, /ta\.crossunder\(histLine, 0\)/] },
  ],
  // volume against its average: a filter on the entries, never a direction of its own
  [
    "ema 20/50 cross, volume above average",
    { sides: LONG, volume: { mult: 1, length: 20 }, has: [/volumeAvg = ta\.sma\(volume, volumeLength\)/] },
  ],
  [
    "buy when rsi < 30 and volume > 1.5x 20 bar average",
    { sides: LONG, volume: { mult: 1.5, length: 20 }, has: [/rsiValue < 30 and volume > volumeMult \* volumeAvg/] },
  ],
  [
    "ema 9/21 crossover with volume spike filter, 2% stop",
    { sides: LONG, stop: pct(2), volume: { mult: 2, length: 20 } },
  ],
  ["breakout of 20 bar high on high volume", { sides: LONG, volume: { mult: 1.5, length: 20 } }],
  ["rvol > 2 and price crosses above vwap buy", { sides: LONG, volume: { mult: 2, length: 20 } }],
  [
    "only trade when volume above average, ema 20/50 cross long and short",
    { sides: BOTH, volume: { mult: 1, length: 20 } },
  ],
  ["macd cross long only, only take trades on above average volume", { sides: LONG, volume: { mult: 1, length: 20 } }],
  ["sma 10/30 cross, vol > 1.5x its 50 sma", { sides: LONG, volume: { mult: 1.5, length: 50 } }],
  ["volume spike > 2x 20-bar average", { refused: /alone says no direction/ }],
  ["alert when volume > 2x average", { kind: "indicator", alerts: true, has: [/volume > volumeMult \* volumeAvg/] }],
  // the opening range: the first minutes of each day (of the session when one is given)
  [
    "15 min opening range breakout",
    { sides: LONG, orb: { minutes: 15 }, has: [/ta\.crossover\(close, orHigh\)/, /ta\.crossunder\(close, orLow\)/] },
  ],
  ["ORB long and short", { sides: BOTH, orb: { minutes: 15 }, plots: ["Opening range high", "Opening range low"] }],
  ["orb 30 minutes, 2% tp 1% sl", { sides: LONG, stop: pct(1), target: pct(2), orb: { minutes: 30 } }],
  [
    "30 minute opening range breakout with 1% stop, 9:30-16:00 ny",
    {
      sides: LONG,
      stop: pct(1),
      session: { hours: "0930-1600", tz: NY },
      has: [/orNewDay = inSession and not inSession\[1\]/],
    },
  ],
  // comparison chains: each side's right is the next one's left; bare lengths in a chain of averages
  ["ema 8 > 21 > 55 stacked", { sides: LONG, has: [/longCondition = ema8 > ema21 and ema21 > ema55/] }],
  ["ema 8 > ema 21 > ema 55", { sides: LONG, has: [/longCondition = ema8 > ema21 and ema21 > ema55/] }],
  [
    "buy when ema 8 > ema 21 > ema 50 and rsi crosses above 50, 2% stop",
    {
      sides: LONG,
      stop: pct(2),
      has: [/longCondition = ema8 > ema21 and ema21 > ema50 and ta\.crossover\(rsiValue, 50\)/],
    },
  ],
  ["emas stacked, buy when rsi < 30", { refused: /'stacked' without the averages in order/ }],
  // scaling out: part of the position at a first target, the rest at the second
  [
    "ema 9/21 cross, take half at 2%, rest at 4%, 1% stop",
    { sides: LONG, stop: pct(1), partial: { qtyPercent: 50, first: 2, rest: 4 } },
  ],
  [
    "rsi < 30 buy, sell 50% at 1.5 atr and the rest at 3 atr, 1 atr stop",
    { sides: LONG, stop: atr(1), has: [/qty_percent = firstTargetQty/, /firstTargetAtr/, /targetAtr/] },
  ],
  [
    "sma 10/30 cross long and short, close 30% at 1%, remainder at 3%",
    { sides: BOTH, partial: { qtyPercent: 30, first: 1, rest: 3 } },
  ],
  // breakeven: the stop moves to the entry price once the trade is that far in profit
  [
    "ema 9/21 cross, 2% stop, move stop to breakeven after 1R",
    { sides: LONG, stop: pct(2), breakeven: { triggerPercent: 2 } },
  ],
  [
    "rsi < 30 buy, breakeven after 1%, 2% stop, 4% tp",
    { sides: LONG, stop: pct(2), target: pct(4), breakeven: { triggerPercent: 1 } },
  ],
  [
    "macd cross long and short, 1.5% sl, move sl to break even at 1%",
    { sides: BOTH, stop: pct(1.5), breakeven: { triggerPercent: 1 } },
  ],
  ["ema 9/21 cross, move stop to breakeven after 1R", { refused: /breakeven after 1R without a stop/ }],
  // Heikin Ashi candles of the chart's symbol (ticker.heikinashi through request.security)
  ["heikin ashi candles turn green buy, turn red sell", { sides: LONG, heikin: { turn: true } }],
  [
    "heikin ashi turns green long, turns red short, 1.5% stop",
    { sides: BOTH, stop: pct(1.5), heikin: { turn: true }, has: [/ticker\.heikinashi\(syminfo\.tickerid\)/] },
  ],
  ["ema 20/50 cross, only when heikin ashi candles are green, 2% stop", { sides: LONG, stop: pct(2) }],
];

/** The expected exit price of a trade for a distance (ATR read at the signal bar, as the script does). */
async function levelOf(kind: "stop" | "target" | "trail", d: Dist, t: Trade, bars: Bar[]): Promise<number> {
  const long = t.direction === "long";
  const f = t.entry_bar_index;
  let dist: number;
  if (d.unit === "percent")
    dist = kind === "trail" ? (bars[f]!.close * d.value) / 100 : (t.entry_price * d.value) / 100;
  else dist = d.value * ((await atrSeries(bars, d.atrLength ?? 14))[f - 1] as number);
  if (kind === "trail") {
    const open = long ? Math.max(bars[f]!.close, t.entry_price) : Math.min(bars[f]!.close, t.entry_price);
    return long ? open - dist : open + dist;
  }
  const away = kind === "target" ? 1 : -1;
  return long ? t.entry_price + away * dist : t.entry_price - away * dist;
}

async function exitChecked(
  script: string,
  sample: Bar[],
  run: Awaited<ReturnType<typeof runBoth>>,
  kind: "stop" | "target" | "trail",
  d: Dist,
): Promise<number> {
  // levelOf is async (the ATR comes from a run): compute the levels first, then check
  const levels = new Map<number, number>();
  for (const t of allTrades(run).slice(0, 8))
    levels.set(t.entry_bar_index, await levelOf(kind, d, t, sample.slice(0, t.entry_bar_index + 1)));
  return checkExitDistance(script, sample, run, kind, (t) => levels.get(t.entry_bar_index)!);
}

describe("resin generate: the request table", () => {
  it("has at least 60 requests", () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(60);
  });

  for (const [text, want] of TABLE) {
    it(text, async () => {
      if (want.refused) {
        const err = await generate(text).then(
          () => null,
          (e: unknown) => e,
        );
        expect(err).toBeInstanceOf(GenerateError);
        expect((err as GenerateError).code).toBe("NOT_UNDERSTOOD");
        expect((err as GenerateError).details.not_understood?.join(" | ")).toMatch(want.refused);
        expect((err as GenerateError).message).toMatch(want.refused);
        return;
      }
      const answer = await generate(text);
      const script = answer.script;
      expect(answer.verified.every((c) => c.ok)).toBe(true);
      for (const re of want.has ?? []) expect(script).toMatch(re);
      for (const re of want.hasNot ?? []) expect(script).not.toMatch(re);
      expect(answer.not_understood, "nothing left unread").toEqual([]);

      // with a date range, the sample starts two weeks before it so the filter has bars to block
      const from = want.dates?.from ? Date.parse(`${want.dates.from}T00:00:00Z`) : null;
      // windows in days are verified on daily bars, like the verifier does
      const tf = expectationsOf(understand(text)).sampleTimeframe;
      const sample = from
        ? sampleBars(
            { from: new Date(from - 14 * 86_400_000).toISOString().slice(0, 10), to: null },
            answer.run.sample_seed ?? undefined,
            tf,
          )
        : sampleBars(null, answer.run.sample_seed ?? undefined, tf);
      const r = await runBoth(script, sample);
      expect(r.error).toBeUndefined();
      const kind = want.kind ?? "strategy";
      expect(r.script_type).toBe(kind);
      const trades = allTrades(r);
      if (kind === "strategy") {
        expect(trades.length, "trades on the sample bars").toBeGreaterThan(0);
        if (want.sides) expect([...new Set(trades.map((t) => t.direction))].sort()).toEqual([...want.sides].sort());
      }
      for (const slot of ["stop", "target", "trail"] as const) {
        const d = want[slot];
        if (d)
          expect(await exitChecked(script, sample, r, slot, d), `${slot} checked on constructed bars`).toBeGreaterThan(
            0,
          );
      }
      if (want.session) {
        // every entry's signal bar (the bar before the fill) is in the session, and the sample has bars outside it
        const { hours, tz, days } = want.session;
        const open = (t: number): boolean =>
          (hours === "0000-0000" || inSession(t, hours, tz)) && (!days || days.includes(dayDigit(t, tz)));
        expect(sample.some((b) => !open(b.time))).toBe(true);
        for (const t of trades)
          expect(open(sample[t.entry_bar_index - 1]!.time), `entry at bar ${t.entry_bar_index}`).toBe(true);
      }
      if (want.volume) {
        // the signal bar (the bar before the fill) has volume above the multiple of its average
        const { mult, length } = want.volume;
        for (const t of trades) {
          const k = t.entry_bar_index - 1;
          const win = sample.slice(k - length + 1, k + 1);
          expect(win.length, `a full window before bar ${k}`).toBe(length);
          const avg = win.reduce((a, b) => a + (b.volume ?? 0), 0) / length;
          expect(sample[k]!.volume, `volume at the signal bar ${k}`).toBeGreaterThan(mult * avg);
        }
      }
      if (want.orb) {
        const ms = want.orb.minutes * 60_000;
        const day = (t: number): number => Math.floor(t / 86_400_000);
        const rangeOf = (k: number): { hi: number; lo: number; end: number } => {
          let s = k;
          while (s > 0 && day(sample[s - 1]!.time) === day(sample[k]!.time)) s--;
          const end = sample[s]!.time + ms;
          const inRange = sample.slice(s, k + 1).filter((b) => b.time < end);
          return {
            hi: Math.max(...inRange.map((b) => b.high)),
            lo: Math.min(...inRange.map((b) => b.low)),
            end,
          };
        };
        for (const t of trades) {
          const k = t.entry_bar_index - 1;
          const r = rangeOf(k);
          expect(sample[k]!.time, `signal bar ${k} after the range`).toBeGreaterThanOrEqual(r.end);
          if (t.direction === "long") {
            expect(sample[k]!.close, `bar ${k} closes above the range high`).toBeGreaterThan(r.hi);
            expect(sample[k - 1]!.close, `bar ${k - 1} not above it yet`).toBeLessThanOrEqual(r.hi);
          } else {
            expect(sample[k]!.close, `bar ${k} closes below the range low`).toBeLessThan(r.lo);
            expect(sample[k - 1]!.close, `bar ${k - 1} not below it yet`).toBeGreaterThanOrEqual(r.lo);
          }
        }
      }
      if (want.partial) {
        const { qtyPercent, first, rest } = want.partial;
        let checked = 0;
        for (const t of trades.slice(0, 8)) {
          const f = t.entry_bar_index;
          if (f < 2 || f + 1 >= sample.length) continue;
          const bars = sample.slice(0, f + 1);
          const c = bars[f]!.close;
          const long = t.direction === "long";
          const at = (p: number): number => t.entry_price * (long ? 1 + p / 100 : 1 - p / 100);
          if (long ? !(at(first) > c) : !(at(first) < c)) continue;
          const far = long ? at(rest) + 0.03 * c : at(rest) - 0.03 * c;
          const next: Bar = {
            time: bars[f]!.time + (bars[f]!.time - bars[f - 1]!.time),
            open: c,
            high: long ? far : c,
            low: long ? c : far,
            close: far,
            volume: 1000,
          };
          const run = await runBoth(script, [...bars, next]);
          const parts = allTrades(run).filter((x) => x.entry_bar_index === f && x.direction === t.direction);
          // a reversal on the new bar would close at its open: then this trade says nothing
          if (parts.some((x) => x.exit_price === c)) continue;
          expect(parts.length, `trade filled at bar ${f} closes in two parts`).toBe(2);
          const [p1, p2] = parts.sort((x, y) => (long ? x.exit_price! - y.exit_price! : y.exit_price! - x.exit_price!));
          expect(p1!.exit_bar_index).toBe(f + 1);
          expect(p2!.exit_bar_index).toBe(f + 1);
          expect(Math.abs(p1!.exit_price! - at(first)), "first target").toBeLessThanOrEqual(2 * 0.01 + 1e-9);
          expect(Math.abs(p2!.exit_price! - at(rest)), "the rest's target").toBeLessThanOrEqual(2 * 0.01 + 1e-9);
          const share = (100 * p1!.qty) / (p1!.qty + p2!.qty);
          expect(Math.abs(share - qtyPercent), `first part ${share}% of the position`).toBeLessThanOrEqual(1);
          if (++checked >= 2) break;
        }
        expect(checked, "scale-outs checked on constructed bars").toBeGreaterThan(0);
      }
      if (want.breakeven) {
        const trig = want.breakeven.triggerPercent / 100;
        let checked = 0;
        for (const t of trades.slice(0, 10)) {
          const f = t.entry_bar_index;
          if (f < 2 || f + 1 >= sample.length) continue;
          const bars = sample.slice(0, f + 1);
          const long = t.direction === "long";
          const e = t.entry_price;
          const step = bars[f]!.time - bars[f - 1]!.time;
          const c = bars[f]!.close;
          // bar A: from the last close up to just past the trigger, closing a little in profit
          const peak = long ? e * (1 + trig * 1.1) : e * (1 - trig * 1.1);
          const closeA = long ? e * (1 + trig * 0.3) : e * (1 - trig * 0.3);
          if (long ? !(c < peak && c > e * (1 - trig)) : !(c > peak && c < e * (1 + trig))) continue;
          const a: Bar = {
            time: bars[f]!.time + step,
            open: c,
            high: long ? peak : Math.max(c, closeA),
            low: long ? Math.min(c, closeA) : peak,
            close: closeA,
            volume: 1000,
          };
          // bar B: falls far through the original stop
          const far = long ? e * 0.9 : e * 1.1;
          const bb: Bar = {
            time: a.time + step,
            open: closeA,
            high: long ? closeA : far,
            low: long ? far : closeA,
            close: far,
            volume: 1000,
          };
          const run = await runBoth(script, [...bars, a, bb]);
          const same = allTrades(run).find((x) => x.entry_bar_index === f && x.direction === t.direction);
          // an exit on bar A or at bar B's open (a signal) says nothing about the moved stop
          if (!same || same.exit_bar_index !== f + 2 || same.exit_price === closeA) continue;
          expect(Math.abs(same.exit_price! - e), `trade filled at bar ${f} stopped at its entry`).toBeLessThanOrEqual(
            2 * 0.01 + 1e-9,
          );
          if (++checked >= 2) break;
        }
        expect(checked, "breakeven stops checked on constructed bars").toBeGreaterThan(0);
      }
      if (want.heikin) {
        // Heikin Ashi: close = ohlc4, open = the previous candle's (open + close) / 2
        const haO: number[] = [];
        const haC: number[] = [];
        sample.forEach((b, i) => {
          haC.push((b.open + b.high + b.low + b.close) / 4);
          haO.push(i === 0 ? (b.open + b.close) / 2 : (haO[i - 1]! + haC[i - 1]!) / 2);
        });
        for (const t of trades) {
          const k = t.entry_bar_index - 1;
          const green = (i: number): boolean => haC[i]! > haO[i]!;
          const red = (i: number): boolean => haC[i]! < haO[i]!;
          const want1 = t.direction === "long" ? green : red;
          expect(want1(k), `Heikin Ashi colour at the signal bar ${k}`).toBe(true);
          if (want.heikin.turn) expect(want1(k - 1), `the candle before bar ${k}`).toBe(false);
        }
      }
      if (want.pyramiding) {
        // the most same-direction trades open at once: more than one (entries did stack), at most the limit
        let most = 0;
        for (const t of trades) {
          const open = trades.filter(
            (u) =>
              u.direction === t.direction &&
              u.entry_bar_index <= t.entry_bar_index &&
              (u.exit_bar_index === null || u.exit_bar_index > t.entry_bar_index),
          ).length;
          most = Math.max(most, open);
        }
        expect(most, "open entries at once").toBeGreaterThan(1);
        expect(most, "open entries at once").toBeLessThanOrEqual(want.pyramiding);
      }
      if (want.flatAtDayEnd) {
        const day = (t: number): number => Math.floor(t / 86_400_000);
        const closed = r.strategy!.trades;
        for (const t of closed)
          expect(day(t.exit_time!), `trade entered at bar ${t.entry_bar_index}`).toBe(day(t.entry_time));
        const eod = closed.filter((t) => t.exit_comment === "End of day");
        expect(eod.length, "trades closed at the end of the day").toBeGreaterThan(0);
        for (const t of eod) {
          const x = t.exit_bar_index!;
          expect(day(sample[x + 1]?.time ?? Infinity), "the exit bar is the day's last").not.toBe(day(sample[x]!.time));
          expect(t.exit_price).toBe(sample[x]!.close);
        }
      }
      if (want.maxBars) {
        const closed = r.strategy!.trades;
        for (const t of closed) expect(t.exit_bar_index! - t.entry_bar_index).toBeLessThanOrEqual(want.maxBars);
        const timed = closed.filter((t) => t.exit_comment === "Time exit");
        expect(timed.length, "trades closed by the time exit").toBeGreaterThan(0);
        for (const t of timed) expect(t.exit_bar_index! - t.entry_bar_index).toBe(want.maxBars);
      }
      if (want.dates) {
        const to = want.dates.to ? Date.parse(`${want.dates.to}T00:00:00Z`) : Infinity;
        for (const t of trades) {
          const signal = sample[t.entry_bar_index - 1]!.time;
          expect(
            signal >= (from ?? -Infinity) && signal < to,
            `entry at bar ${t.entry_bar_index} inside the dates`,
          ).toBe(true);
        }
      }
      if (want.alerts) {
        if (kind === "strategy") expect(r.alerts.length).toBeGreaterThan(0);
        else expect(r.alert_conditions.length + r.alerts.length).toBeGreaterThan(0);
      }
      const titles = Object.values(r.plot_meta).map((m) => m.title);
      for (const p of want.plots ?? []) expect(titles).toContain(p);
    });
  }
});
