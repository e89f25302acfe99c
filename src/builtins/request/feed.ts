// Where the bars of a request.* context come from, and how a value of that context lands on a chart
// bar. Sources (service.md 1.1: compiled or interpreted, resin never invents bars):
// - the chart symbol at its own timeframe: "same" (the expression is evaluated in the chart context);
// - RunOptions.dataFeed, key "SYMBOL|TIMEFRAME" (or "SYMBOL" for bars whose spacing is that
//   timeframe); a feed entry of the symbol at a lower timeframe that divides the requested one is
//   resampled;
// - the chart symbol at a higher timeframe without a feed entry: resampleBars of the chart's bars;
// - a non-standard chart type of those bars (ticker.heikinashi, renko, ...): "derived", built by
//   src/core/derived-bars.ts;
// - anything else: "none", na on every bar.

import type { ExecContext } from "../types.js";
import { chartSymbol } from "../ticker/index.js";
import { parseTickerId } from "../ticker/ids.js";
import { objectArray } from "../../core/shapes.js";
import { inferTimeframe, isBarDataError, normalizeBars, type BarColumns } from "../../core/bars.js";
import type { OhlcvInput } from "../../core/result.js";
import {
  formatTimeframe,
  nominalMs,
  parseTimeframe,
  PeriodCalc,
  timeframeSeconds,
  type Timeframe,
} from "../../core/time-frames.js";
import { resampleBars } from "../../core/time-resample.js";
import { deriveBars, DerivedBarsError } from "../../core/derived-bars.js";
import { parseSession, SESSION_24X7 } from "../../core/time-sessions.js";
import { getZone, UTC } from "../../core/tz.js";

export type RequestSource = "same" | "resampled" | "dataFeed" | "derived" | "none";

/** TradingView's limit of unique request.* calls (40 on most plans); here per distinct context. */
export const MAX_CONTEXTS = 40;

/** What result.meta.requests records for each distinct (symbol, timeframe) a run requested. */
export interface RequestRecord {
  symbol: string;
  timeframe: string;
  source: RequestSource;
  bars: number;
  /** Target currency of request.security's `currency` (values converted, or na with `note`). */
  currency?: string;
  /** calc_bars_count in force: only that many of the context's last bars were evaluated. */
  calc_bars_count?: number;
  /** Why a request gave na or used something other than asked (no rate, unknown currency, ...). */
  note?: string;
}

/** A run's wall-clock budget ran out (also inside a request's secondary run): src/core/budget.ts. */
export { RunTimeout } from "../../core/budget.js";

/** The bars of one requested context and, once its secondary run is done, the captured values. */
export interface RequestedContext {
  symbol: string;
  timeframe: string;
  tf: Timeframe;
  source: RequestSource;
  /** Bars of the context (null for "same" and "none"). */
  bars: BarColumns | null;
  /** Close time of each context bar. */
  timeClose: Float64Array | null;
  /** Resampled from the chart: chart bar -> context bar, and context bar -> its last chart bar. */
  index: Int32Array | null;
  lastSource: Int32Array | null;
  /** The requested timeframe is lower than the chart's. */
  lower: boolean;
  /**
   * Captured expression values by security call-site id (set by the secondary run): what each site
   * keeps of its context bars' values (src/interpret/security.ts recordSecondary).
   */
  captures: unknown[] | null;
  /**
   * calc_bars_count in force (0: every bar), fixed by the call that starts the secondary run: a later
   * call with another count gets the first one's bars (the reference's remark on calc_bars_count).
   */
  calcBars: number;
  /** Its meta.requests record. */
  record: RequestRecord | null;
  /** The forming higher-timeframe bar's last partial evaluation (realtime bars), by tick. */
  forming: { key: string; captures: unknown[] } | null;
  /** The currency rate applied to each context bar's prices (request.security's `currency`), else absent. */
  rates?: Float64Array;
}

/** Per-run cache of requested contexts, kept at ctx.ext.requestContexts. */
export class RequestContexts {
  private readonly byKey = new Map<string, RequestedContext>();
  private readonly byResolved = new Map<string, RequestedContext>();
  private readonly feedCache = new Map<string, BarColumns | null>();
  readonly records: RequestRecord[] = objectArray(); // (object elements kind: core/shapes.ts)
  private readonly chartTf: Timeframe;

  constructor(
    private readonly ctx: ExecContext,
    private readonly dataFeed: Record<string, OhlcvInput> | undefined,
  ) {
    this.chartTf = parseTimeframe(ctx.timeframe) ?? { unit: "D", mult: 1 };
  }

  /**
   * The context of (symbol, timeframe) as the script wrote them ("" = the chart's); with `currency`,
   * the context's prices converted into that currency (see convert()).
   */
  get(symbol: string | null, timeframe: string | null, currency: string | null = null): RequestedContext {
    const key = `${symbol ?? ""}|${timeframe ?? ""}|${currency ?? ""}`;
    let c = this.byKey.get(key);
    if (!c) {
      let fresh = this.resolve(symbol ?? "", timeframe ?? "");
      let note: string | undefined;
      if (currency !== null && currency !== "") ({ c: fresh, note } = this.convert(fresh, currency));
      // tick bars cannot be built from time bars: only the chart's own ticks or a dataFeed entry at that timeframe
      if (!note && fresh.source === "none" && fresh.tf.unit === "T")
        note = `no '${fresh.timeframe}' tick data: give it in dataFeed as '${fresh.symbol}|${fresh.timeframe}', na`;
      // intrabars cannot be built from the chart's bars either: a lower timeframe needs its own feed entry,
      // and saying so beats na on every bar (request.security) or empty arrays (security_lower_tf)
      else if (!note && fresh.source === "none" && fresh.lower) {
        note = `no '${fresh.timeframe}' bars of '${fresh.symbol}' (lower than the chart's '${this.ctx.timeframe}'; intrabars are not built from chart bars): give them in dataFeed as '${fresh.symbol}|${fresh.timeframe}'; request.security gives na, request.security_lower_tf empty arrays`;
      }
      // two spellings of one context ("" and syminfo.tickerid, "D" and "1D") share one secondary run
      const resolved = `${fresh.symbol}|${fresh.timeframe}|${currency ?? ""}`;
      c = this.byResolved.get(resolved);
      if (!c) {
        if (this.byResolved.size >= MAX_CONTEXTS) {
          return this.ctx.runtimeError(
            `Too many request contexts: a script may request at most ${MAX_CONTEXTS} distinct symbol/timeframe pairs (requested '${fresh.symbol}' at '${fresh.timeframe}')`,
          );
        }
        c = fresh;
        this.byResolved.set(resolved, c);
        const record: RequestRecord = {
          symbol: c.symbol,
          timeframe: c.timeframe,
          source: c.source,
          bars: c.bars ? c.bars.time.length : c.source === "same" ? this.ctx.barCount : 0,
        };
        if (currency) record.currency = currency;
        if (note) record.note = note;
        c.record = record;
        this.records.push(record);
        // once per context, in the run's log too: a lower timeframe without data is a setup mistake
        if (note && c.source === "none" && c.lower) this.ctx.log("warning", note);
      }
      this.byKey.set(key, c);
    }
    return c;
  }

  /**
   * The context with its prices in `to` (request.security's `currency`): open, high, low and close of
   * each context bar times the rate of the dataFeed's "FX:<FROM><TO>" series (or 1 / "FX:<TO><FROM>")
   * as request.currency_rate reads it on that bar's close, so an expression built from prices is
   * converted and a literal is not. The source currency is syminfo.currency for the chart's symbol;
   * another symbol's currency is unknown (a feed carries no symbol info), which gives na, as does a
   * missing rate; `note` says why.
   */
  private convert(c: RequestedContext, to: string): { c: RequestedContext; note?: string } {
    if (c.source === "none") return { c };
    const from = c.symbol === chartSymbol(this.ctx) ? String(this.ctx.syminfo.currency ?? "") : "";
    if (from === to) return { c };
    const none = (note: string) => ({
      c: { ...c, source: "none" as const, bars: null, timeClose: null, index: null, lastSource: null },
      note,
    });
    if (from === "") return none(`the currency of '${c.symbol}' is unknown: cannot convert to ${to}, na`);
    const direct = this.feedByKey(`FX:${from}${to}`);
    const inverse = direct ? null : this.feedByKey(`FX:${to}${from}`);
    if (!direct && !inverse)
      return none(`no dataFeed rate "FX:${from}${to}" (or "FX:${to}${from}"): cannot convert to ${to}, na`);
    const bars = c.bars ?? chartColumns(this.ctx);
    const closes = c.timeClose ?? (this.ctx.ext.timeCloseColumn as Float64Array);
    const fx = (direct ?? inverse)!;
    const n = bars.time.length;
    const out: BarColumns = {
      length: n,
      time: bars.time,
      open: new Float64Array(n),
      high: new Float64Array(n),
      low: new Float64Array(n),
      close: new Float64Array(n),
      volume: bars.volume,
    };
    const rates = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const j = lastAtOrBefore(fx.time, closes[k]! - 1);
      const r = j < 0 ? NaN : direct ? fx.close[j]! : 1 / fx.close[j]!;
      rates[k] = r;
      out.open[k] = bars.open[k]! * r;
      out.high[k] = bars.high[k]! * r;
      out.low[k] = bars.low[k]! * r;
      out.close[k] = bars.close[k]! * r;
    }
    // the chart's own context converted: one context bar per chart bar (identity mapping), so realtime
    // ticks re-evaluate the forming bar as for a higher timeframe
    const same = c.source === "same" ? identity(n) : null;
    return { c: { ...c, bars: out, timeClose: closes, rates, ...(same ? { index: same, lastSource: same } : {}) } };
  }

  /**
   * A context evaluated by a secondary run even when it is the chart's own (calc_bars_count on the
   * chart's context: only the last bars may be used, so the inline evaluation will not do).
   */
  materialize(c: RequestedContext): RequestedContext {
    if (c.bars) return c;
    const key = `${c.symbol}|${c.timeframe}|#chart`;
    let m = this.byResolved.get(key);
    if (!m) {
      const n = this.ctx.barCount;
      // one context bar per chart bar: realtime ticks re-evaluate the forming bar (src/interpret/security.ts)
      m = {
        ...c,
        bars: chartColumns(this.ctx),
        timeClose: this.ctx.ext.timeCloseColumn as Float64Array,
        captures: null,
        index: identity(n),
        lastSource: identity(n),
      };
      this.byResolved.set(key, m);
    }
    return m;
  }

  private resolve(symbolText: string, tfText: string): RequestedContext {
    const ctx = this.ctx;
    const tf = tfText.trim() === "" ? this.chartTf : parseTimeframe(tfText);
    if (!tf) return ctx.runtimeError(`Invalid timeframe '${tfText}' in request.*`);
    const chart = chartSymbol(ctx);
    const id = parseTickerId(symbolText === "" ? chart : symbolText);
    if (!id) return ctx.runtimeError(`Invalid symbol '${symbolText}' in request.*`);
    const plain = id.type === undefined && id.session === undefined && id.adjustment === undefined;
    const isChart = plain && sameSymbol(id.symbol, chart);
    const symbol = isChart ? chart : symbolText;
    const timeframe = formatTimeframe(tf, ctx.version);
    const chartSec = timeframeSeconds(this.chartTf);
    const sec = timeframeSeconds(tf);
    const base: RequestedContext = {
      symbol,
      timeframe,
      tf,
      source: "none",
      bars: null,
      timeClose: null,
      index: null,
      lastSource: null,
      lower: sec < chartSec,
      captures: null,
      calcBars: 0,
      record: null,
      forming: null,
    };
    // ticks have no duration (their seconds are NaN): a tick timeframe matches only itself
    const sameTf =
      tf.unit === "T" || this.chartTf.unit === "T"
        ? tf.unit === this.chartTf.unit && tf.mult === this.chartTf.mult
        : sec === chartSec;
    if (isChart && sameTf) return { ...base, source: "same" };
    if (id.type !== undefined) return this.derived(base, id.type, id.params, id.symbol, tf, sameTf, chart);
    // a ticker with modifiers (heikinashi, session, adjustment) is other data: only its own key
    const fed = this.fromFeed(isChart ? [chart, id.ticker] : plain ? [symbolText, id.symbol] : [symbolText], tf);
    if (fed) return { ...base, source: "dataFeed", bars: fed.bars, timeClose: fed.timeClose };
    // a time-based timeframe over a tick chart is resampled from the ticks like any higher timeframe
    if (isChart && (sec > chartSec || (this.chartTf.unit === "T" && tf.unit !== "T"))) {
      const r = this.resample(chartColumns(ctx), tf, nominalMs(this.chartTf));
      return {
        ...base,
        source: "resampled",
        bars: r.bars,
        timeClose: r.timeClose,
        index: r.index,
        lastSource: r.lastSource,
      };
    }
    return base;
  }

  /**
   * A non-standard chart type (ticker.heikinashi, renko, ...): its bars built from the symbol's own bars
   * at the requested timeframe (src/core/derived-bars.ts), the chart's or a feed's; a dataFeed entry
   * under the full ticker id still wins. A type that cannot be built is a runtime error, not na.
   */
  private derived(
    base: RequestedContext,
    type: string,
    params: Record<string, unknown> | undefined,
    symbol: string,
    tf: Timeframe,
    sameTf: boolean,
    chart: string,
  ): RequestedContext {
    const ctx = this.ctx;
    const fed = this.fromFeed([base.symbol], tf);
    if (fed) return { ...base, source: "dataFeed", bars: fed.bars, timeClose: fed.timeClose };
    let src: { bars: BarColumns; timeClose: Float64Array } | null = null;
    if (sameSymbol(symbol, chart)) {
      if (sameTf) src = { bars: chartColumns(ctx), timeClose: ctx.ext.timeCloseColumn as Float64Array };
      else if (timeframeSeconds(tf) > timeframeSeconds(this.chartTf)) {
        const r = this.resample(chartColumns(ctx), tf, nominalMs(this.chartTf));
        src = { bars: r.bars, timeClose: r.timeClose };
      }
    }
    src ??= this.fromFeed([symbol], tf);
    if (!src) return base;
    try {
      const d = deriveBars({ type, params }, src.bars, src.timeClose);
      return { ...base, source: "derived", bars: d.bars, timeClose: d.timeClose };
    } catch (err) {
      if (err instanceof DerivedBarsError) return ctx.runtimeError(err.message);
      throw err;
    }
  }

  /** Bars of `names` at `tf` from the data feed: an exact entry, else a lower one resampled. */
  private fromFeed(names: string[], tf: Timeframe): { bars: BarColumns; timeClose: Float64Array } | null {
    if (!this.dataFeed) return null;
    const want = timeframeSeconds(tf);
    let lowerBest: { bars: BarColumns; sec: number; tf: Timeframe } | null = null;
    for (const key of Object.keys(this.dataFeed)) {
      const bar = key.lastIndexOf("|");
      const sym = bar < 0 ? key : key.slice(0, bar);
      if (!names.some((n) => sameSymbol(sym, n))) continue;
      const bars = this.feedBars(key);
      if (!bars || bars.time.length === 0) continue;
      const ktf = parseTimeframe(bar < 0 ? inferTimeframe(bars.time) : key.slice(bar + 1));
      if (!ktf) continue;
      const sec = timeframeSeconds(ktf);
      if (sec === want || (tf.unit === "T" && ktf.unit === "T" && ktf.mult === tf.mult))
        return { bars, timeClose: this.closeTimes(bars.time, ktf) };
      if (sec < want && want % sec === 0 && (!lowerBest || sec > lowerBest.sec)) lowerBest = { bars, sec, tf: ktf };
    }
    if (!lowerBest) return null;
    const r = this.resample(lowerBest.bars, tf, nominalMs(lowerBest.tf));
    return { bars: r.bars, timeClose: r.timeClose };
  }

  private resample(src: BarColumns, tf: Timeframe, barMs: number) {
    return resampleBars(src, tf, this.zone(), this.session(), barMs);
  }

  // Periods are cut in the chart symbol's time zone and session (a feed carries no symbol info).
  private zone() {
    return getZone(this.ctx.syminfo.timezone) ?? UTC;
  }

  private session() {
    return parseSession(this.ctx.syminfo.session as string | undefined) ?? SESSION_24X7;
  }

  /**
   * When each feed bar closes: the end of its period (a daily bar of a 09:30-16:00 session closes at
   * 16:00, not when the next one opens), else when the next bar opens or one nominal bar later.
   */
  private closeTimes(time: Float64Array, tf: Timeframe): Float64Array {
    const n = time.length;
    const barMs = nominalMs(tf);
    const calc = new PeriodCalc(this.zone(), this.session(), barMs);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const t = time[i]!;
      const fallback = i + 1 < n ? Math.min(time[i + 1]!, t + barMs) : t + barMs;
      calc.start(t, tf, true);
      const end = calc.periodEnd;
      out[i] = end > t && end <= fallback ? end : fallback;
    }
    return out;
  }

  /** A feed entry as columns (normalised once; null when it is not valid bar data). */
  feedBars(key: string): BarColumns | null {
    if (this.feedCache.has(key)) return this.feedCache.get(key)!;
    const cols = normalizeBars(this.dataFeed![key]);
    const out = isBarDataError(cols) ? null : cols;
    if (!out) this.ctx.log("warning", `dataFeed entry '${key}' is not valid bar data: ignored`);
    this.feedCache.set(key, out);
    return out;
  }

  /** A feed entry by exact key (for request.currency_rate, request.financial, ...). */
  feedByKey(key: string): BarColumns | null {
    if (!this.dataFeed || !Object.hasOwn(this.dataFeed, key)) return null;
    return this.feedBars(key);
  }
}

/** The per-run cache, created on first use. */
export function requestContexts(ctx: ExecContext): RequestContexts {
  let r = ctx.ext.requestContexts as RequestContexts | undefined;
  if (!r) {
    r = new RequestContexts(ctx, ctx.ext.dataFeed as Record<string, OhlcvInput> | undefined);
    ctx.ext.requestContexts = r;
    ctx.ext.requests = r.records;
  }
  return r;
}

/** Same symbol when equal, or equal tickers where one side has no exchange prefix. */
export function sameSymbol(a: string, b: string): boolean {
  if (a === b) return true;
  const ia = a.indexOf(":"),
    ib = b.indexOf(":");
  if (ia >= 0 && ib >= 0) return false;
  return a.slice(ia + 1) === b.slice(ib + 1);
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

function chartColumns(ctx: ExecContext): BarColumns {
  const c = ctx.columns;
  return {
    length: c.time.length,
    time: c.time,
    open: c.open,
    high: c.high,
    low: c.low,
    close: c.close,
    volume: c.volume,
  };
}

/** Index of the last element <= x in a sorted array (-1 when none). */
export function lastAtOrBefore(a: Float64Array, x: number): number {
  let lo = 0,
    hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Which context bar's value the chart bar `i` shows, or -1 for na. `time`/`timeClose` are the chart
 * bar's open and close, `prevTime` the previous chart bar's open (NaN on the first bar).
 * - lookahead off: the last context bar that has closed by the chart bar's close (a resampled
 *   period is complete at its last chart bar; the data's last, unfinished period is not delivered);
 * - lookahead on: the context bar holding the chart bar (a lower timeframe: firstIntrabarFor);
 * - gaps on: only on the chart bar where that value first arrives, -1 elsewhere.
 */
export function contextBarFor(
  c: RequestedContext,
  i: number,
  time: number,
  timeClose: number,
  prevTime: number,
  gaps: boolean,
  lookahead: boolean,
  lastChartBar: number,
): number {
  if (c.index && c.lastSource) {
    const k = c.index[i]!;
    if (lookahead) {
      if (gaps && i > 0 && c.index[i - 1] === k) return -1;
      return k;
    }
    const done = c.lastSource[k] === i && (i < lastChartBar || timeClose >= c.timeClose![k]!);
    if (gaps) return done ? k : -1;
    return done ? k : k - 1;
  }
  const bars = c.bars!;
  if (lookahead && !c.lower) {
    const j = lastAtOrBefore(bars.time, time);
    if (gaps && j >= 0 && bars.time[j]! <= prevTime) return -1;
    return j;
  }
  const j = lastAtOrBefore(c.timeClose!, timeClose);
  if (gaps && j >= 0 && c.timeClose![j]! <= time) return -1;
  return j;
}

/**
 * A lower timeframe with lookahead on (historical bars): the reference returns the chart bar's *first*
 * intrabar (the FAQ "Other data and timeframes", lower timeframes; lookahead off gives the last one,
 * as contextBarFor does). A chart bar without intrabars: -1 with gaps on, else the value the last
 * chart bar with intrabars showed (its first one), as gaps off carries a value forward.
 * `chartTime` is the chart's bar open times, `i` the chart bar.
 */
export function firstIntrabarFor(
  c: RequestedContext,
  chartTime: Float64Array,
  i: number,
  timeClose: number,
  gaps: boolean,
): number {
  const t = c.bars!.time;
  const time = chartTime[i]!;
  const j = lastAtOrBefore(t, time - 1) + 1;
  if (j < t.length && t[j]! < timeClose) return j;
  if (gaps) return -1;
  // the last intrabar before this chart bar, and the chart bar holding it (none before the chart: na)
  const k = j - 1;
  if (k < 0) return -1;
  const h = lastAtOrBefore(chartTime, t[k]!);
  if (h < 0) return -1;
  return lastAtOrBefore(t, chartTime[h]! - 1) + 1;
}

/** Context bars [from, to) that open inside the chart bar [time, timeClose): the intrabars. */
export function intrabarRange(
  c: RequestedContext,
  time: number,
  timeClose: number,
  out: { from: number; to: number },
): void {
  const t = c.bars!.time;
  out.from = lastAtOrBefore(t, time - 1) + 1;
  out.to = lastAtOrBefore(t, timeClose - 1) + 1;
}
