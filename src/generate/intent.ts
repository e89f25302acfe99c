// The intent model: what a trader asked for, independent of how the script is written. The offline
// grammar (understand.ts) reads it from text, the offline emitter (emit.ts) writes Pine from it, and
// the verifier (verify.ts) checks any backend's script against it (a strategy when one was asked,
// the stop/limit exits, the session filter, the plots by name).

export type PriceField = "close" | "open" | "high" | "low" | "hl2" | "hlc3" | "ohlc4";
export type MovingAverage = "sma" | "ema" | "wma" | "rma" | "hma" | "vwma";
export type Oscillator = "rsi" | "cci" | "mfi" | "wpr" | "roc" | "mom";

/** A series the rules compare: a price, an indicator line, or a constant level. */
export type SeriesRef =
  | { kind: "price"; field: PriceField }
  /**
   * A moving average of `length` bars, or of `length` completed days / weeks when `timeframe` is set
   * ("50 day sma" on an intraday chart).
   */
  | { kind: "ma"; fn: MovingAverage; length: number; source: PriceField; timeframe?: "D" | "W" }
  | { kind: "osc"; fn: Oscillator; length: number; source: PriceField }
  | { kind: "macd"; line: "macd" | "signal" | "hist"; fast: number; slow: number; signal: number }
  | {
      kind: "stoch";
      line: "k" | "d";
      length: number;
      smoothK: number;
      smoothD: number;
      /** Stochastic RSI: the stochastic of an RSI of this length instead of price. */
      rsiLength?: number;
    }
  | { kind: "band"; band: "bb" | "kc"; line: "upper" | "basis" | "lower"; length: number; mult: number }
  /**
   * The highest high / lowest low of the `length` bars before this one (a breakout level), or of the
   * `length` days / weeks before this bar's when `timeframe` is set.
   */
  | { kind: "channel"; line: "upper" | "lower"; length: number; timeframe?: "D" | "W" }
  | { kind: "adx"; line: "adx" | "plus" | "minus"; length: number }
  | { kind: "vwap" }
  /**
   * The opening range: the high / low of the first `minutes` of the day (from the session's open when
   * the request gives a session), reset each day ("15 min opening range breakout", "ORB").
   */
  | { kind: "orb"; line: "upper" | "lower"; minutes: number }
  | { kind: "value"; value: number };

export type Comparison = ">" | "<";

export type Condition =
  | { kind: "cross"; direction: "above" | "below"; a: SeriesRef; b: SeriesRef }
  | { kind: "compare"; op: Comparison; a: SeriesRef; b: SeriesRef }
  /** Bollinger Bands inside Keltner Channels on the previous bar, then the close leaves the bands. */
  | { kind: "squeeze"; direction: "up" | "down"; length: number; bbMult: number; kcMult: number }
  | { kind: "supertrend"; direction: "up" | "down"; factor: number; atrLength: number }
  /** The series rising (above its value one bar back) or falling ("hma slope up", "ema 50 rising"). */
  | { kind: "slope"; direction: "up" | "down"; a: SeriesRef }
  /**
   * The bar's volume above (or below) `mult` times its `length`-bar simple average ("volume spike > 2x
   * 20-bar average", "above average volume"). Side-neutral: no mirror image.
   */
  | { kind: "volume"; op: Comparison; mult: number; length: number }
  /**
   * Heikin Ashi candles of the chart's symbol and timeframe: green (close above open) or red, or the
   * bar they turn ("heikin ashi candles turn green").
   */
  | { kind: "heikin"; color: "green" | "red"; turn: boolean }
  /** Alternatives joined with "or" in one rule ("buy when rsi < 30 or close < lower band"). */
  | { kind: "any"; of: Condition[] }
  /** Conditions joined with "and" inside one alternative ("a and b or c" is "(a and b) or c", as in Pine). */
  | { kind: "all"; of: Condition[] };

/** A stop, target or trailing distance from the entry price. */
export interface Distance {
  unit: "percent" | "atr" | "points";
  value: number;
  /** ATR length when unit is "atr". */
  atrLength?: number;
}

export interface SessionFilter {
  /** "HHMM-HHMM" (TradingView session string without days). */
  hours: string;
  /** IANA zone, or null for the exchange's (syminfo.timezone). */
  timezone: string | null;
  /** TradingView day digits, e.g. "23456" for Monday to Friday; null for every day. */
  days: string | null;
}

export interface DateRange {
  /** ISO dates (YYYY-MM-DD), inclusive start, exclusive end. */
  from: string | null;
  to: string | null;
}

export type Sizing =
  | { kind: "percent_of_equity"; value: number }
  | { kind: "fixed"; value: number }
  | { kind: "cash"; value: number }
  /** Risk this percent of equity between entry and stop (needs a stop). */
  | { kind: "risk"; value: number };

export type Direction = "long" | "short" | "both";

export interface Intent {
  script: "strategy" | "indicator";
  title: string;
  direction: Direction;
  /** Entry conditions per side, all required (filters come on top). */
  longEntry: Condition[];
  shortEntry: Condition[];
  /** Signal exits per side, all required (besides the stop/target/trail). */
  longExit: Condition[];
  shortExit: Condition[];
  /** Conditions every long entry must also meet; shorts get their mirror images. */
  filters: Condition[];
  stop: Distance | null;
  target: Distance | null;
  trail: Distance | null;
  /**
   * A first target for part of the position ("take half at 2%, rest at 4%"): `qtyPercent` of it exits
   * at `target`; the rest at `target` above (or the other exits).
   */
  partialTarget: { qtyPercent: number; target: Distance } | null;
  /**
   * Move the stop to the entry price once the price has gone this far in the trade's favour ("move
   * stop to breakeven after 1%"); `r` is a multiple of the stop's distance ("after 1R").
   */
  breakeven: Distance | { unit: "r"; value: number } | null;
  session: SessionFilter | null;
  dateRange: DateRange | null;
  sizing: Sizing | null;
  /** strategy(pyramiding = n): entries in the same direction allowed on top of an open position. */
  pyramiding: number | null;
  /** Close a position this many bars after its entry ("exit after 10 bars"). */
  maxBars: number | null;
  /** Flat at the end of each day ("flat by eod", "no overnight positions"): closed on the session's last bar. */
  flatAtDayEnd: boolean;
  alerts: boolean;
  /**
   * Conditions the request asked to be alerted on, apart from any trade ("alert when rsi crosses
   * below 30 or above 70"): one alert each, so two of them fire on either (a disjunction), never a
   * trade rule.
   */
  alertRules: Condition[];
  /** Plot titles the request named explicitly ("plot the 20 ema as Fast"): series -> title. */
  namedPlots: { series: SeriesRef; title: string }[];
  /** Standalone series the request asked to show without a rule ("show rsi 14"). */
  shown: SeriesRef[];
  /** Horizontal levels the request asked to draw without a rule ("rsi indicator with 30/70 levels"). */
  levels: number[];
  /** What was read, one line each, for the answer ("stop: 2% below the entry"). */
  understood: string[];
  /** Words corrected on the way ("stratgy" -> "strategy"). */
  corrections: string[];
  /** Fragments the grammar could not read: reported, never guessed at. */
  unrecognized: string[];
}

export function emptyIntent(): Intent {
  return {
    script: "indicator",
    title: "",
    direction: "long",
    longEntry: [],
    shortEntry: [],
    longExit: [],
    shortExit: [],
    filters: [],
    stop: null,
    target: null,
    trail: null,
    partialTarget: null,
    breakeven: null,
    session: null,
    dateRange: null,
    sizing: null,
    pyramiding: null,
    maxBars: null,
    flatAtDayEnd: false,
    alerts: false,
    alertRules: [],
    namedPlots: [],
    shown: [],
    levels: [],
    understood: [],
    corrections: [],
    unrecognized: [],
  };
}

/** Whether a series of the intent has a window in days or weeks ("20 day high"). */
function hasCalendarWindow(intent: Intent): boolean {
  const series = ruleLeaves(intent).flatMap((c) =>
    c.kind === "cross" || c.kind === "compare" ? [c.a, c.b] : c.kind === "slope" ? [c.a] : [],
  );
  series.push(...intent.shown, ...intent.namedPlots.map((p) => p.series));
  return series.some((s) => (s.kind === "channel" || s.kind === "ma") && s.timeframe !== undefined);
}

/** The expected properties a script must show for an intent (what the verifier checks). */
export interface Expectations {
  strategy: boolean;
  stop: boolean;
  target: boolean;
  trail: boolean;
  session: boolean;
  /** The requested date range (sample bars are placed inside it), or null. */
  dateRange: DateRange | null;
  alerts: boolean;
  plotTitles: string[];
  /**
   * The sample bars' interval: with a window in days/weeks, daily (a filter on days alone works on
   * them too) or hourly when a session's hours need intraday bars; else quarter hours.
   */
  sampleTimeframe: "15" | "60" | "D";
  /** strategy(pyramiding = n) asked for. */
  pyramiding: number | null;
  /** No trade held longer than this many bars. */
  maxBars: number | null;
  /** No trade held overnight (entry and exit on the same day of the sample bars, which are UTC). */
  flatAtDayEnd: boolean;
}

export function expectationsOf(intent: Intent): Expectations {
  return {
    strategy: intent.script === "strategy",
    stop: intent.stop !== null,
    target: intent.target !== null,
    trail: intent.trail !== null,
    session: intent.session !== null,
    dateRange: intent.dateRange,
    alerts: intent.alerts,
    plotTitles: intent.namedPlots.map((p) => p.title),
    sampleTimeframe: !hasCalendarWindow(intent)
      ? "15"
      : !intent.session || intent.session.hours === "0000-0000"
        ? "D"
        : "60",
    pyramiding: intent.pyramiding,
    maxBars: intent.maxBars,
    flatAtDayEnd: intent.flatAtDayEnd,
  };
}

/** The mirror image of a series comparison level for the other side (RSI 30 <-> 70, CCI -100 <-> 100). */
function mirrorLevel(s: SeriesRef, level: number): number {
  if (s.kind === "osc" && (s.fn === "rsi" || s.fn === "mfi")) return 100 - level;
  if (s.kind === "stoch") return 100 - level;
  if (s.kind === "osc" && s.fn === "wpr") return -100 - level;
  return -level;
}

function mirrorSeries(s: SeriesRef): SeriesRef {
  if (s.kind === "band" && s.line !== "basis") return { ...s, line: s.line === "upper" ? "lower" : "upper" };
  if (s.kind === "channel" || s.kind === "orb") return { ...s, line: s.line === "upper" ? "lower" : "upper" };
  if (s.kind === "adx" && s.line !== "adx") return { ...s, line: s.line === "plus" ? "minus" : "plus" };
  return s;
}

/**
 * The opposite signal (for the other side's entry or a signal exit): crosses swap direction, levels
 * reflect around an oscillator's midpoint, bands and channels swap upper and lower. Null when a
 * condition has no meaningful opposite (an ADX strength filter).
 */
export function mirror(c: Condition): Condition | null {
  switch (c.kind) {
    case "cross":
      return {
        ...c,
        direction: c.direction === "above" ? "below" : "above",
        a: mirrorSeries(c.a),
        b: c.b.kind === "value" ? { kind: "value", value: mirrorLevel(c.a, c.b.value) } : mirrorSeries(c.b),
      };
    case "compare":
      if (c.a.kind === "adx" && c.a.line === "adx") return null;
      return {
        ...c,
        op: c.op === ">" ? "<" : ">",
        a: mirrorSeries(c.a),
        b: c.b.kind === "value" ? { kind: "value", value: mirrorLevel(c.a, c.b.value) } : mirrorSeries(c.b),
      };
    case "squeeze":
    case "supertrend":
      return { ...c, direction: c.direction === "up" ? "down" : "up" };
    case "slope":
      return { ...c, direction: c.direction === "up" ? "down" : "up", a: mirrorSeries(c.a) };
    case "heikin":
      return { ...c, color: c.color === "green" ? "red" : "green" };
    case "volume":
      // no opposite: low volume is not a sell signal (as a filter it stays itself, see resolveRoles)
      return null;
    case "any":
    case "all": {
      const of = mirrorAll(c.of);
      return of ? { kind: c.kind, of } : null;
    }
  }
}

/** The plain conditions inside a list, alternatives ("any") and their "and" groups ("all") opened up. */
export function leaves(cs: Condition[]): Condition[] {
  return cs.flatMap((c) => (c.kind === "any" || c.kind === "all" ? leaves(c.of) : [c]));
}

/** The plain conditions of every rule of the intent: entries, exits, filters and alerts. */
export function ruleLeaves(intent: Intent): Condition[] {
  return leaves([
    ...intent.longEntry,
    ...intent.shortEntry,
    ...intent.longExit,
    ...intent.shortExit,
    ...intent.filters,
    ...intent.alertRules,
  ]);
}

/** Is this condition an event (fires on one bar) rather than a state (true for a stretch of bars)? */
export function isEvent(c: Condition): boolean {
  return c.kind === "any" || c.kind === "all"
    ? c.of.some(isEvent)
    : c.kind !== "compare" && c.kind !== "slope" && c.kind !== "volume" && !(c.kind === "heikin" && !c.turn);
}

/** Every condition mirrored, or null when one of them has no opposite. */
export function mirrorAll(cs: Condition[]): Condition[] | null {
  const out: Condition[] = [];
  for (const c of cs) {
    const m = mirror(c);
    if (!m) return null;
    out.push(m);
  }
  return out;
}
