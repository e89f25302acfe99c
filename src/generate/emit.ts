// Intent -> Pine v6 source through our own AST: the script is built as statements in sections
// (inputs, indicators, filters, signals, orders, plots), each section printed by `unparse` and the
// sections joined with a blank line and a one-line comment, so it reads like a person wrote it.
// Parameters a trader would tune (lengths, levels, stop and target distances, session, dates) are
// inputs with bounds, so `resin optimize` can search them.

import type { Expr, Stmt } from "../lang/ast.js";
import { unparse } from "../lang/unparse.js";
import type { Condition, Distance, Intent, SeriesRef } from "./intent.js";
import { conditionLabel } from "./describe.js";
import { mirror, ruleLeaves } from "./intent.js";
import {
  and,
  assign,
  bin,
  bool,
  history,
  paren,
  program,
  call,
  decl,
  dotted,
  exprStmt,
  ident,
  ifStmt,
  na,
  not,
  num,
  str,
  ternary,
  tuple,
  tupleDecl,
} from "./pine-ast.js";

interface Section {
  title: string;
  body: Stmt[];
}

/** Which series sit on the price scale (overlay) and which in their own pane. */
function onPriceScale(s: SeriesRef): boolean {
  return (
    s.kind === "price" ||
    s.kind === "ma" ||
    s.kind === "band" ||
    s.kind === "channel" ||
    s.kind === "vwap" ||
    s.kind === "orb"
  );
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

class ScriptBuilder {
  readonly inputs: Stmt[] = [];
  readonly indicators: Stmt[] = [];
  readonly filters: Stmt[] = [];
  readonly signals: Stmt[] = [];
  readonly orders: Stmt[] = [];
  readonly plots: Stmt[] = [];
  /** Series key -> the variable holding it. */
  private readonly vars = new Map<string, Expr>();
  private readonly inputNames = new Map<string, string>();
  private readonly names = new Set<string>();
  /** Series to plot, in first-use order, with their titles. */
  readonly plotted: { s: SeriesRef; expr: Expr; title: string }[] = [];

  constructor(private readonly intent: Intent) {}

  /** A fresh variable name (`ema20`, `ema20_2` only if a different series wanted the same). */
  name(base: string): string {
    let n = base;
    for (let i = 2; this.names.has(n); i++) n = `${base}${i}`;
    this.names.add(n);
    return n;
  }

  /** An input.int / input.float, one per distinct (title): the same length asked twice shares it. */
  intInput(name: string, value: number, title: string, minval = 1): Expr {
    return this.input("input.int", name, num(value, true), title, { minval: num(minval, true) });
  }

  floatInput(
    name: string,
    value: number,
    title: string,
    bounds: { minval?: number; maxval?: number; step?: number } = {},
  ): Expr {
    const named: Record<string, Expr | undefined> = {};
    if (bounds.minval !== undefined) named.minval = num(bounds.minval, false);
    if (bounds.maxval !== undefined) named.maxval = num(bounds.maxval, false);
    if (bounds.step !== undefined) named.step = num(bounds.step, false);
    return this.input("input.float", name, num(value, false), title, named);
  }

  input(fn: string, name: string, defval: Expr, title: string, named: Record<string, Expr | undefined> = {}): Expr {
    const hit = this.inputNames.get(title);
    if (hit) return ident(hit);
    const v = this.name(name);
    this.inputNames.set(title, v);
    this.inputs.push(decl(v, call(fn, [defval, str(title)], named)));
    return ident(v);
  }

  private source(field: string): Expr {
    return ident(field);
  }

  /** The expression of a series, declaring its indicator (and inputs) on first use. */
  series(s: SeriesRef): Expr {
    if (s.kind === "value") return num(s.value);
    if (s.kind === "price") return this.source(s.field);
    const key = JSON.stringify(s);
    const hit = this.vars.get(key);
    if (hit) return hit;
    const e = this.declare(s);
    this.vars.set(key, e);
    return e;
  }

  /** The session filter's variable, when the request gives one (the opening range starts at its open). */
  sessionVar: Expr | undefined;

  /**
   * The opening range: var high / low set on the day's first bar (the session's first bar when there is
   * a session) and widened while the bar opens within the first `minutes`. During the range the close
   * cannot cross it (close <= high <= range high), so a breakout fires only after the range is set.
   */
  private openingRange(s: Extract<SeriesRef, { kind: "orb" }>): Expr {
    const key = `orb:${s.minutes}`;
    let lines = this.vars.get(`${key}:upper`);
    if (!lines) {
      const minutes = this.intInput("orMinutes", s.minutes, "Opening range (minutes)");
      const out = this.sessionVar ? this.filters : this.indicators;
      const start = this.name("orNewDay");
      out.push(
        decl(
          start,
          this.sessionVar
            ? and(this.sessionVar, not(history(this.sessionVar, 1)))!
            : call("timeframe.change", [str("D")]),
        ),
      );
      const [t0, hi, lo] = [this.name("orStart"), this.name("orHigh"), this.name("orLow")];
      out.push(decl(t0, na, "var", "int"), decl(hi, na, "var", "float"), decl(lo, na, "var", "float"));
      out.push(
        ifStmt(
          ident(start),
          [assign(t0, ident("time")), assign(hi, ident("high")), assign(lo, ident("low"))],
          [
            ifStmt(bin("<", ident("time"), bin("+", ident(t0), bin("*", minutes, num(60_000, true)))), [
              assign(hi, call("math.max", [ident(hi), ident("high")])),
              assign(lo, call("math.min", [ident(lo), ident("low")])),
            ]),
          ],
        ),
      );
      this.vars.set(`${key}:upper`, ident(hi));
      this.vars.set(`${key}:lower`, ident(lo));
      this.plotted.push({ s: { ...s, line: "upper" }, expr: ident(hi), title: "Opening range high" });
      this.plotted.push({ s: { ...s, line: "lower" }, expr: ident(lo), title: "Opening range low" });
      lines = ident(hi);
    }
    return this.vars.get(`${key}:${s.line}`)!;
  }

  private declare(s: Exclude<SeriesRef, { kind: "value" | "price" }>): Expr {
    switch (s.kind) {
      case "orb":
        return this.openingRange(s);
      case "ma": {
        const up = s.fn.toUpperCase();
        if (s.timeframe) return this.calendarAverage(s, s.timeframe);
        const len = this.intInput(`${s.fn}${s.length}Length`, s.length, `${up} ${s.length} length`);
        const v = this.name(`${s.fn}${s.length}`);
        this.indicators.push(decl(v, call(`ta.${s.fn}`, [this.source(s.source), len])));
        this.plot(s, ident(v), `${up} ${s.length}`);
        return ident(v);
      }
      case "osc": {
        const up = s.fn === "wpr" ? "Williams %R" : s.fn === "mom" ? "Momentum" : s.fn.toUpperCase();
        const len = this.intInput(`${s.fn}Length`, s.length, `${up} length`);
        const v = this.name(`${s.fn}Value`);
        const init =
          s.fn === "wpr"
            ? call("ta.wpr", [len])
            : s.fn === "mfi"
              ? call("ta.mfi", [s.source === "close" ? ident("hlc3") : this.source(s.source), len])
              : call(`ta.${s.fn}`, [this.source(s.source), len]);
        this.indicators.push(decl(v, init));
        this.plot(s, ident(v), `${up} ${s.length}`);
        return ident(v);
      }
      case "macd": {
        const key = JSON.stringify({ k: "macd", f: s.fast, s: s.slow, g: s.signal });
        let lines = this.vars.get(key) as unknown as Record<string, Expr> | undefined;
        if (!lines) {
          const f = this.intInput("macdFast", s.fast, "MACD fast length");
          const sl = this.intInput("macdSlow", s.slow, "MACD slow length");
          const g = this.intInput("macdSignal", s.signal, "MACD signal length");
          const names = [this.name("macdLine"), this.name("signalLine"), this.name("histLine")];
          this.indicators.push(tupleDecl(names, call("ta.macd", [ident("close"), f, sl, g])));
          lines = { macd: ident(names[0]!), signal: ident(names[1]!), hist: ident(names[2]!) };
          this.vars.set(key, lines as unknown as Expr);
        }
        const e = lines[s.line]!;
        this.plot(s, e, s.line === "macd" ? "MACD" : s.line === "signal" ? "Signal" : "Histogram");
        return e;
      }
      case "stoch": {
        const key = JSON.stringify({ k: "stoch", l: s.length, r: s.rsiLength, sk: s.smoothK, sd: s.smoothD });
        let lines = this.vars.get(key) as unknown as Record<string, Expr> | undefined;
        if (!lines) {
          const len = this.intInput("stochLength", s.length, "Stochastic length");
          // Stochastic RSI: the RSI's own high, low and close over the window
          let src: [Expr, Expr, Expr] = [ident("close"), ident("high"), ident("low")];
          if (s.rsiLength !== undefined) {
            const rsiLen = this.intInput("rsiLength", s.rsiLength, "RSI length");
            const r = this.name("rsiValue");
            this.indicators.push(decl(r, call("ta.rsi", [ident("close"), rsiLen])));
            src = [ident(r), ident(r), ident(r)];
          }
          const k = this.name(s.rsiLength !== undefined ? "stochRsiK" : "stochK");
          const d = this.name(s.rsiLength !== undefined ? "stochRsiD" : "stochD");
          this.indicators.push(decl(k, call("ta.sma", [call("ta.stoch", [...src, len]), num(s.smoothK, true)])));
          this.indicators.push(decl(d, call("ta.sma", [ident(k), num(s.smoothD, true)])));
          lines = { k: ident(k), d: ident(d) };
          this.vars.set(key, lines as unknown as Expr);
        }
        const e = lines[s.line]!;
        this.plot(s, e, s.line === "k" ? "%K" : "%D");
        return e;
      }
      case "band": {
        const lines = this.bandLines(s.band, s.length, s.mult);
        const e = lines[s.line]!;
        this.plot(s, e, `${s.band === "bb" ? "BB" : "KC"} ${s.line === "basis" ? "Basis" : cap(s.line)}`);
        return e;
      }
      case "channel": {
        const unit = s.timeframe === "D" ? "day" : s.timeframe === "W" ? "week" : "bar";
        const len = this.intInput(`channel${s.length}Length`, s.length, `Breakout lookback ${s.length} (${unit}s)`);
        const upper = s.line === "upper";
        const v = this.name(`${upper ? "highest" : "lowest"}${s.length}${s.timeframe ? cap(unit) : ""}`);
        // the level of the bars before this one, so a close beyond it is a breakout
        let init = history(call(upper ? "ta.highest" : "ta.lowest", [ident(upper ? "high" : "low"), len]), 1);
        // a window in days/weeks is taken on that timeframe: the completed days before today (offset 1
        // with lookahead on, the non-repainting form), so an intraday chart gets 20 days, not 20 bars
        if (s.timeframe)
          init = call("request.security", [dotted("syminfo.tickerid"), str(s.timeframe), init], {
            lookahead: dotted("barmerge.lookahead_on"),
          });
        this.indicators.push(decl(v, init));
        this.plot(s, ident(v), `${s.length}-${unit} ${upper ? "high" : "low"}`);
        return ident(v);
      }
      case "adx": {
        const key = JSON.stringify({ k: "dmi", l: s.length });
        let lines = this.vars.get(key) as unknown as Record<string, Expr> | undefined;
        if (!lines) {
          const len = this.intInput("dmiLength", s.length, "DMI length");
          const names = [this.name("diPlus"), this.name("diMinus"), this.name("adx")];
          this.indicators.push(tupleDecl(names, call("ta.dmi", [len, len])));
          lines = { plus: ident(names[0]!), minus: ident(names[1]!), adx: ident(names[2]!) };
          this.vars.set(key, lines as unknown as Expr);
        }
        const e = lines[s.line]!;
        this.plot(s, e, s.line === "adx" ? "ADX" : s.line === "plus" ? "+DI" : "-DI");
        return e;
      }
      case "vwap": {
        const v = this.name("vwapValue");
        this.indicators.push(decl(v, call("ta.vwap", [ident("hlc3")])));
        this.plot(s, ident(v), "VWAP");
        return ident(v);
      }
    }
  }

  /**
   * "50 day sma": on an intraday chart, the average of the `length` completed days before the bar's
   * day (request.security with the value one day back and lookahead on: the non-repainting form, the
   * line steps once a day); on a chart of that timeframe or above, the chart's own bars.
   */
  private calendarAverage(s: Extract<SeriesRef, { kind: "ma" }>, tf: "D" | "W"): Expr {
    const up = s.fn.toUpperCase();
    const unit = tf === "D" ? "day" : "week";
    const len = this.intInput(`${s.fn}${s.length}${cap(unit)}Length`, s.length, `${up} ${s.length} length (${unit}s)`);
    const src = this.source(s.source);
    const onChart = this.name(`${s.fn}${s.length}OnChart`);
    this.indicators.push(decl(onChart, call(`ta.${s.fn}`, [src, len])));
    const higher = this.name(`${s.fn}${s.length}${tf === "D" ? "Daily" : "Weekly"}`);
    this.indicators.push(
      decl(
        higher,
        call("request.security", [dotted("syminfo.tickerid"), str(tf), history(call(`ta.${s.fn}`, [src, len]), 1)], {
          lookahead: dotted("barmerge.lookahead_on"),
        }),
      ),
    );
    const below =
      tf === "D"
        ? dotted("timeframe.isintraday")
        : bin("or", dotted("timeframe.isintraday"), dotted("timeframe.isdaily"));
    const v = this.name(`${s.fn}${s.length}${cap(unit)}`);
    this.indicators.push(decl(v, ternary(below, ident(higher), ident(onChart))));
    this.plot(s, ident(v), `${up} ${s.length} ${unit}s`);
    return ident(v);
  }

  bandLines(band: "bb" | "kc", length: number, mult: number): Record<"upper" | "basis" | "lower", Expr> {
    const key = JSON.stringify({ k: band, length, mult });
    const hit = this.vars.get(key) as unknown as Record<"upper" | "basis" | "lower", Expr> | undefined;
    if (hit) return hit;
    const up = band.toUpperCase();
    const len = this.intInput(`${band}Length`, length, `${up} length`);
    const m = this.floatInput(`${band}Mult`, mult, `${up} multiplier`, { minval: 0.1, step: 0.1 });
    const names = [this.name(`${band}Basis`), this.name(`${band}Upper`), this.name(`${band}Lower`)];
    this.indicators.push(tupleDecl(names, call(`ta.${band}`, [ident("close"), len, m])));
    const lines = { basis: ident(names[0]!), upper: ident(names[1]!), lower: ident(names[2]!) };
    this.vars.set(key, lines as unknown as Expr);
    return lines;
  }

  private plot(s: SeriesRef, expr: Expr, title: string): void {
    const named = this.intent.namedPlots.find((p) => JSON.stringify(p.series) === JSON.stringify(s));
    this.plotted.push({ s, expr, title: named?.title ?? title });
  }

  atr(length: number): Expr {
    const key = `atr${length}`;
    const hit = this.vars.get(key);
    if (hit) return hit;
    const len = this.intInput("atrLength", length, "ATR length");
    const v = this.name("atrValue");
    this.indicators.push(decl(v, call("ta.atr", [len])));
    this.vars.set(key, ident(v));
    return ident(v);
  }

  condition(c: Condition): Expr {
    switch (c.kind) {
      case "cross":
        return call(c.direction === "above" ? "ta.crossover" : "ta.crossunder", [this.series(c.a), this.series(c.b)]);
      case "compare":
        return bin(c.op, this.series(c.a), this.series(c.b));
      case "any":
        // alternatives: parenthesised, since the signal joins them with its other conditions by "and"
        return paren(c.of.map((x) => this.condition(x)).reduce((x, y) => bin("or", x, y)));
      case "all":
        // an "and" group inside alternatives: "and" binds tighter than "or" in Pine, the parentheses say so
        return paren(and(...c.of.map((x) => this.condition(x)))!);
      case "slope": {
        const e = this.series(c.a);
        return bin(c.direction === "up" ? ">" : "<", e, history(e, 1));
      }
      case "heikin": {
        // the chart symbol's Heikin Ashi candles on the chart's timeframe
        let ha = this.vars.get("heikin");
        if (!ha) {
          const names = [this.name("haOpen"), this.name("haClose")];
          this.indicators.push(
            tupleDecl(
              names,
              call("request.security", [
                call("ticker.heikinashi", [dotted("syminfo.tickerid")]),
                dotted("timeframe.period"),
                tuple([ident("open"), ident("close")]),
              ]),
            ),
          );
          ha = ident(names[0]!);
          this.vars.set("heikin", ha);
          this.vars.set("heikinClose", ident(names[1]!));
        }
        const o = ha;
        const cl = this.vars.get("heikinClose")!;
        const green = c.color === "green";
        const now = bin(green ? ">" : "<", cl, o);
        if (!c.turn) return now;
        return and(now, bin(green ? "<=" : ">=", history(cl, 1), history(o, 1)))!;
      }
      case "volume": {
        // one average per length; the multiple is an input so a trader can tune the spike size
        const key = `volumeAvg:${c.length}`;
        let avg = this.vars.get(key);
        if (!avg) {
          const len = this.intInput("volumeLength", c.length, "Volume average length");
          const v = this.name("volumeAvg");
          this.indicators.push(decl(v, call("ta.sma", [ident("volume"), len])));
          avg = ident(v);
          this.vars.set(key, avg);
        }
        if (c.mult === 1) return bin(c.op, ident("volume"), avg);
        const m = this.floatInput("volumeMult", c.mult, "Volume multiple of its average", { minval: 0.1, step: 0.1 });
        return bin(c.op, ident("volume"), bin("*", m, avg));
      }
      case "squeeze": {
        const bb = this.bandLines("bb", c.length, c.bbMult);
        const kc = this.bandLines("kc", c.length, c.kcMult);
        let sq = this.vars.get("squeeze");
        if (!sq) {
          const v = this.name("squeezeOn");
          this.indicators.push(decl(v, and(bin("<", bb.upper, kc.upper), bin(">", bb.lower, kc.lower))!));
          sq = ident(v);
          this.vars.set("squeeze", sq);
          this.plotted.push({
            s: { kind: "band", band: "bb", line: "upper", length: c.length, mult: c.bbMult },
            expr: bb.upper,
            title: "BB Upper",
          });
          this.plotted.push({
            s: { kind: "band", band: "bb", line: "lower", length: c.length, mult: c.bbMult },
            expr: bb.lower,
            title: "BB Lower",
          });
        }
        const prev = history(sq, 1);
        return and(
          prev,
          c.direction === "up" ? bin(">", ident("close"), bb.upper) : bin("<", ident("close"), bb.lower),
        )!;
      }
      case "supertrend": {
        let dir = this.vars.get("supertrendDirection");
        if (!dir) {
          const f = this.floatInput("supertrendFactor", c.factor, "Supertrend factor", { minval: 0.1, step: 0.1 });
          const len = this.intInput("supertrendAtrLength", c.atrLength, "Supertrend ATR length");
          const names = [this.name("supertrend"), this.name("supertrendDirection")];
          this.indicators.push(tupleDecl(names, call("ta.supertrend", [f, len])));
          dir = ident(names[1]!);
          this.vars.set("supertrendDirection", dir);
          this.plotted.push({ s: { kind: "vwap" }, expr: ident(names[0]!), title: "Supertrend" });
        }
        // direction < 0 is an uptrend in ta.supertrend
        const prev = history(dir, 1);
        return c.direction === "up"
          ? and(bin("<", dir, num(0, true)), bin(">=", prev, num(0, true)))!
          : and(bin(">", dir, num(0, true)), bin("<=", prev, num(0, true)))!;
      }
    }
  }
}

interface ExitLevels {
  stop?: Expr;
  limit?: Expr;
  trail?: Record<string, Expr>;
  partial?: { qty: Expr; limit: Expr };
  /** Statements the exit needs first (the breakeven flag). */
  setup?: Stmt[];
}

/** The exit prices of a side: stop and target levels from the average entry price. */
function exitLevels(b: ScriptBuilder, intent: Intent, side: "long" | "short", entryAtr: () => Expr): ExitLevels {
  const sign = side === "long" ? -1 : 1;
  const avg = dotted("strategy.position_avg_price");
  const level = (d: Distance, input: Expr, away: 1 | -1): Expr => {
    if (d.unit === "percent") {
      const f = bin(away > 0 ? "+" : "-", num(1, true), bin("/", input, num(100, true)));
      return bin("*", avg, f);
    }
    const dist = d.unit === "atr" ? bin("*", input, entryAtr()) : input;
    return bin(away > 0 ? "+" : "-", avg, dist);
  };
  const out: ExitLevels = {};
  if (intent.partialTarget) {
    const p = intent.partialTarget;
    const qty = b.floatInput("firstTargetQty", p.qtyPercent, "First target: % of the position", {
      minval: 1,
      maxval: 99,
      step: 1,
    });
    out.partial = { qty, limit: level(p.target, distanceInput(b, "firstTarget", p.target), -sign as 1 | -1) };
  }
  if (intent.stop) out.stop = level(intent.stop, distanceInput(b, "stop", intent.stop), sign as 1 | -1);
  if (intent.breakeven) {
    // the stop moves to the entry price once the bar's best price has reached the trigger; the flag
    // resets when the side is flat, and the exit re-issued on the next bar carries the new stop
    const be = intent.breakeven;
    let trigger: Expr;
    if (be.unit === "r") {
      const r = b.floatInput("breakevenR", be.value, "Breakeven after (x R)", { minval: 0.1, step: 0.1 });
      trigger = bin(side === "long" ? "+" : "-", avg, bin("*", r, call("math.abs", [bin("-", avg, out.stop ?? avg)])));
    } else trigger = level(be, distanceInput(b, "breakeven", be), -sign as 1 | -1);
    const flag = b.name(`${side}AtBreakeven`);
    const flat = bin(side === "long" ? "<=" : ">=", dotted("strategy.position_size"), num(0, true));
    const reached = bin(side === "long" ? ">=" : "<=", ident(side === "long" ? "high" : "low"), trigger);
    out.setup = [
      decl(flag, bool(false), "var"),
      ifStmt(flat, [assign(flag, bool(false))], [ifStmt(reached, [assign(flag, bool(true))])]),
    ];
    out.stop = ternary(ident(flag), avg, out.stop ?? na);
  }
  if (intent.target) out.limit = level(intent.target, distanceInput(b, "target", intent.target), -sign as 1 | -1);
  if (intent.trail) {
    const d = intent.trail;
    const input = distanceInput(b, "trail", d);
    const points: Expr =
      d.unit === "percent"
        ? bin("/", bin("*", ident("close"), bin("/", input, num(100, true))), dotted("syminfo.mintick"))
        : d.unit === "atr"
          ? bin("/", bin("*", input, entryAtr()), dotted("syminfo.mintick"))
          : bin("/", input, dotted("syminfo.mintick"));
    // the trail starts at the entry price and follows the best price by the distance
    out.trail = { trail_price: avg, trail_offset: points };
  }
  return out;
}

function distanceInput(
  b: ScriptBuilder,
  slot: "stop" | "target" | "trail" | "firstTarget" | "breakeven",
  d: Distance,
): Expr {
  const what =
    slot === "stop"
      ? "Stop loss"
      : slot === "target"
        ? "Take profit"
        : slot === "firstTarget"
          ? "First target"
          : slot === "breakeven"
            ? "Breakeven after"
            : "Trailing stop";
  if (d.unit === "percent")
    return b.floatInput(`${slot}Percent`, d.value, `${what} %`, { minval: 0.1, maxval: 100, step: 0.1 });
  if (d.unit === "atr") return b.floatInput(`${slot}Atr`, d.value, `${what} (x ATR)`, { minval: 0.1, step: 0.1 });
  return b.floatInput(`${slot}Points`, d.value, `${what} (price points)`, { minval: 0 });
}

function sizingArgs(intent: Intent): Record<string, Expr> {
  const s = intent.sizing;
  if (!s || s.kind === "risk")
    return { default_qty_type: dotted("strategy.percent_of_equity"), default_qty_value: num(s ? 100 : 10, true) };
  if (s.kind === "percent_of_equity")
    return { default_qty_type: dotted("strategy.percent_of_equity"), default_qty_value: num(s.value) };
  if (s.kind === "fixed") return { default_qty_type: dotted("strategy.fixed"), default_qty_value: num(s.value) };
  return { default_qty_type: dotted("strategy.cash"), default_qty_value: num(s.value) };
}

/** The whole script for an intent (strategy or indicator). */
export function emit(intent: Intent): string {
  const b = new ScriptBuilder(intent);
  const strategy = intent.script === "strategy";
  const longSide = intent.direction !== "short" && intent.longEntry.length > 0;
  const shortSide = intent.direction !== "long" && intent.shortEntry.length > 0;

  // filters
  let sessionOk: Expr | undefined;
  if (intent.session) {
    const s = intent.session;
    const hours = b.input("input.session", "sessionHours", str(s.hours), "Trading session");
    const spec = s.days ? bin("+", hours, str(`:${s.days}`)) : hours;
    const args = [dotted("timeframe.period"), spec];
    if (s.timezone) args.push(str(s.timezone));
    const v = b.name("inSession");
    b.filters.push(decl(v, not(call("na", [call("time", args)]))));
    sessionOk = ident(v);
    b.sessionVar = sessionOk;
  }
  let datesOk: Expr | undefined;
  if (intent.dateRange) {
    const parts: Expr[] = [];
    if (intent.dateRange.from) {
      const from = b.input(
        "input.time",
        "startDate",
        call("timestamp", [str(`${intent.dateRange.from} 00:00 +0000`)]),
        "Start date",
      );
      parts.push(bin(">=", ident("time"), from));
    }
    if (intent.dateRange.to) {
      const to = b.input(
        "input.time",
        "endDate",
        call("timestamp", [str(`${intent.dateRange.to} 00:00 +0000`)]),
        "End date",
      );
      parts.push(bin("<", ident("time"), to));
    }
    const v = b.name("inDateRange");
    b.filters.push(decl(v, and(...parts)!));
    datesOk = ident(v);
  }
  const longFilters = intent.filters.map((f) => b.condition(f));
  const shortFilters = intent.filters.map((f) => b.condition(mirror(f) ?? f));

  // signals
  const signal = (name: string, conds: Condition[], extra: (Expr | undefined)[]): Expr | undefined => {
    if (!conds.length) return undefined;
    const e = and(...conds.map((c) => b.condition(c)), ...extra)!;
    const v = b.name(name);
    b.signals.push(decl(v, e));
    return ident(v);
  };
  const longEntry = longSide
    ? signal("longCondition", intent.longEntry, [...longFilters, sessionOk, datesOk])
    : undefined;
  const shortEntry = shortSide
    ? signal("shortCondition", intent.shortEntry, [...shortFilters, sessionOk, datesOk])
    : undefined;
  const longExit = longSide ? signal("longExitCondition", intent.longExit, []) : undefined;
  const shortExit = shortSide ? signal("shortExitCondition", intent.shortExit, []) : undefined;

  const alertCall = (message: string): Stmt =>
    exprStmt(call("alert", [str(message), dotted("alert.freq_once_per_bar_close")]));

  if (strategy) {
    // ATR distances are measured when the entry signal opens the position, so the stop does not move
    const atrLen = [intent.stop, intent.target, intent.trail].find((d) => d?.unit === "atr")?.atrLength;
    let entryAtr: Expr | undefined;
    const getAtr = (): Expr => {
      if (!entryAtr) throw new Error("entry ATR used without an ATR distance");
      return entryAtr;
    };
    if (atrLen !== undefined) {
      const atr = b.atr(atrLen);
      const v = b.name("entryAtr");
      b.signals.push(decl(v, na, "var", "float"));
      // a signal that opens a position (from flat, or reversing the other side) takes the ATR of its
      // bar; one that adds to the open position (pyramiding) keeps the first entry's
      const opens: Expr[] = [];
      if (longEntry) opens.push(and(longEntry, bin("<=", dotted("strategy.position_size"), num(0, true)))!);
      if (shortEntry) opens.push(and(shortEntry, bin(">=", dotted("strategy.position_size"), num(0, true)))!);
      if (opens.length) {
        const cond = opens.length === 1 ? opens[0]! : opens.map((x) => paren(x)).reduce((x, y) => bin("or", x, y));
        b.signals.push(ifStmt(cond, [assign(v, atr)]));
      }
      entryAtr = ident(v);
    }
    let riskQty: ((side: "long" | "short") => Expr) | undefined;
    // the risk is measured to the stop, or to a trailing stop's first level when there is no fixed stop
    const riskStop = intent.stop
      ? { slot: "stop" as const, d: intent.stop }
      : intent.trail
        ? { slot: "trail" as const, d: intent.trail }
        : null;
    if (intent.sizing?.kind === "risk" && riskStop) {
      const stop = riskStop.d;
      const riskIn = b.floatInput("riskPercent", intent.sizing.value, "Risk per trade %", {
        minval: 0.1,
        maxval: 100,
        step: 0.1,
      });
      const stopIn = distanceInput(b, riskStop.slot, stop);
      const dist: Expr =
        stop.unit === "percent"
          ? bin("*", ident("close"), bin("/", stopIn, num(100, true)))
          : stop.unit === "atr"
            ? bin("*", stopIn, b.atr(stop.atrLength ?? 14))
            : stopIn;
      const v = b.name("riskQty");
      // never more than the equity buys outright (a tight stop would otherwise ask for an order margin rejects)
      const byRisk = bin("/", bin("*", dotted("strategy.equity"), bin("/", riskIn, num(100, true))), dist);
      b.signals.push(decl(v, call("math.min", [byRisk, bin("/", dotted("strategy.equity"), ident("close"))])));
      riskQty = () => ident(v);
    }
    const sides: ["long" | "short", Expr | undefined, Expr | undefined][] = [
      ["long", longEntry, longExit],
      ["short", shortEntry, shortExit],
    ];
    for (const [side, entry, exit] of sides) {
      if (!entry) continue;
      const id = cap(side);
      const body: Stmt[] = [
        exprStmt(call("strategy.entry", [str(id), dotted(`strategy.${side}`)], { qty: riskQty?.(side) })),
      ];
      if (intent.alerts) body.push(alertCall(`${id} entry`));
      b.orders.push(ifStmt(entry, body));
      if (intent.stop || intent.target || intent.trail || intent.partialTarget || intent.breakeven) {
        const lv = exitLevels(b, intent, side, getAtr);
        if (lv.setup) b.orders.push(...lv.setup);
        const inPos = bin(side === "long" ? ">" : "<", dotted("strategy.position_size"), num(0, true));
        // scaling out: the first exit takes its share of the position at the first target (with the
        // stop for that share); the second exit below covers the rest
        const partial = lv.partial
          ? [
              exprStmt(
                call("strategy.exit", [str(`${id} first target`), str(id)], {
                  qty_percent: lv.partial.qty,
                  stop: lv.stop,
                  limit: lv.partial.limit,
                }),
              ),
            ]
          : [];
        b.orders.push(
          ifStmt(inPos, [
            ...partial,
            exprStmt(
              call("strategy.exit", [str(`${id} exit`), str(id)], {
                stop: lv.stop,
                limit: lv.limit,
                ...(lv.trail ?? {}),
              }),
            ),
          ]),
        );
      }
      if (exit) {
        const body2: Stmt[] = [exprStmt(call("strategy.close", [str(id)], { comment: str("Exit signal") }))];
        if (intent.alerts) body2.push(alertCall(`${id} exit`));
        b.orders.push(ifStmt(exit, body2));
      }
    }
    if (intent.flatAtDayEnd && (longEntry || shortEntry)) {
      // flat by the end of the day: the session's last bar closes everything at its own close
      b.orders.push(
        ifStmt(dotted("session.islastbar"), [
          exprStmt(call("strategy.close_all", [], { comment: str("End of day"), immediately: bool(true) })),
        ]),
      );
    }
    if (intent.maxBars !== null && (longEntry || shortEntry)) {
      // "exit after 10 bars": the close order goes in on the bar before, so it fills at the open 10 bars after the entry's
      const n = b.intInput("maxBarsInTrade", intent.maxBars, "Exit after bars");
      const held = bin("-", ident("bar_index"), call("strategy.opentrades.entry_bar_index", [num(0, true)]));
      b.orders.push(
        ifStmt(
          and(bin("!=", dotted("strategy.position_size"), num(0, true)), bin(">=", held, bin("-", n, num(1, true))))!,
          [exprStmt(call("strategy.close_all", [], { comment: str("Time exit") }))],
        ),
      );
    }
  } else {
    for (const [id, e] of [
      ["Long", longEntry],
      ["Short", shortEntry],
      ["Long exit", longExit],
      ["Short exit", shortExit],
    ] as const) {
      if (!e) continue;
      const up = id === "Long" || id === "Short exit";
      b.plots.push(
        exprStmt(
          call("plotshape", [e], {
            title: str(`${id} signal`),
            style: dotted(up ? "shape.triangleup" : "shape.triangledown"),
            location: dotted(up ? "location.belowbar" : "location.abovebar"),
            color: dotted(up ? "color.green" : "color.red"),
          }),
        ),
      );
      b.plots.push(
        exprStmt(
          call("alertcondition", [e], { title: str(`${id} signal`), message: str(`${id} signal on {{ticker}}`) }),
        ),
      );
      if (intent.alerts) b.orders.push(ifStmt(e, [alertCall(`${id} signal`)]));
    }
  }

  // alerts asked for apart from any trade: one alertcondition (and alert()) each, so alternatives
  // ("crosses below 30 or above 70") fire on either
  intent.alertRules.forEach((c, i) => {
    const v = b.name(intent.alertRules.length > 1 ? `alert${i + 1}Condition` : "alertCondition");
    b.signals.push(decl(v, b.condition(c)));
    const label = conditionLabel(c);
    b.plots.push(
      exprStmt(call("alertcondition", [ident(v)], { title: str(label), message: str(`${label} on {{ticker}}`) })),
    );
    b.orders.push(ifStmt(ident(v), [alertCall(label)]));
  });

  // shown series (and plots the request named) are declared even without a rule
  for (const s of intent.shown) b.series(s);
  for (const p of intent.namedPlots) b.series(p.series);

  const plotted = b.plotted;
  const ownPane = plotted.some((p) => !onPriceScale(p.s));
  const overlay = !ownPane;
  const colors = ["color.blue", "color.orange", "color.purple", "color.teal", "color.red", "color.green", "color.gray"];
  const seen = new Set<string>();
  let ci = 0;
  const plotStmts: Stmt[] = [];
  for (const p of plotted) {
    // an own-pane script does not draw price-scale lines (they would flatten the oscillator) unless asked by name
    const key = JSON.stringify(p.s);
    const asked =
      intent.namedPlots.some((n) => n.title === p.title) || intent.shown.some((s) => JSON.stringify(s) === key);
    if (ownPane && onPriceScale(p.s) && !asked) continue;
    if (seen.has(p.title)) continue;
    seen.add(p.title);
    plotStmts.push(exprStmt(call("plot", [p.expr, str(p.title)], { color: dotted(colors[ci++ % colors.length]!) })));
  }
  // oscillator levels the rules compare with, and those the request asked to draw
  const levels = new Set<number>(intent.levels);
  for (const c of ruleLeaves(intent))
    if ((c.kind === "compare" || c.kind === "cross") && c.b.kind === "value" && !onPriceScale(c.a))
      levels.add(c.b.value);
  for (const l of [...levels].sort((x, y) => x - y))
    plotStmts.push(exprStmt(call("hline", [num(l), str(`Level ${l}`)], { color: dotted("color.gray") })));
  b.plots.unshift(...plotStmts);

  const declArgs: Record<string, Expr | undefined> = { overlay: bool(overlay) };
  const header = strategy
    ? call("strategy", [str(intent.title)], {
        ...declArgs,
        ...sizingArgs(intent),
        initial_capital: num(10000, true),
        pyramiding: intent.pyramiding !== null ? num(intent.pyramiding, true) : undefined,
      })
    : call("indicator", [str(intent.title)], declArgs);

  const sections: Section[] = [
    { title: "", body: [exprStmt(header)] },
    { title: "Inputs", body: b.inputs },
    { title: "Indicators", body: b.indicators },
    { title: "Filters", body: b.filters },
    { title: "Signals", body: b.signals },
    { title: strategy ? "Orders" : "Alerts", body: b.orders },
    { title: "Plots", body: b.plots },
  ];
  return render(sections);
}

/** Each section printed by unparse, joined with a blank line and its title as a comment. */
function render(sections: Section[]): string {
  const out: string[] = ["//@version=6"];
  for (const s of sections) {
    if (!s.body.length) continue;
    const text = unparse(program(s.body)).split("\n").slice(2).join("\n").trimEnd();
    out.push(s.title ? `\n// ${s.title}\n${text}` : text);
  }
  return `${out.join("\n")}\n`;
}
