// The offline intent grammar: request text -> Intent. The text is lexed (lexicon.ts), cut into
// clauses at punctuation, and each clause goes through passes that consume the tokens they read:
// script kind and title, direction, exits (stop / target / trailing / risk-reward), session hours
// and time zone, date range, position sizing, alerts, plot names, and last the rules (series,
// comparison or cross, action). Whatever no pass consumed and is not a filler word is reported in
// `unrecognized`: the grammar never guesses at words it does not know. Defaults it does apply (an
// indicator length nobody gave) are said in `understood`.

import {
  type Comparison,
  type Condition,
  type Distance,
  emptyIntent,
  type Intent,
  isEvent,
  leaves,
  type MovingAverage,
  mirror,
  mirrorAll,
  type Oscillator,
  type PriceField,
  type SeriesRef,
} from "./intent.js";
import { conditionLabel, distanceLabel, seriesLabel } from "./describe.js";
import { isStopword, lex, type Token } from "./lexicon.js";

/** One clause's tokens and which of them a pass has read. */
class Clause {
  readonly used: boolean[];
  constructor(readonly toks: Token[]) {
    this.used = toks.map(() => false);
  }
  word(i: number): string | undefined {
    const t = this.toks[i];
    return t && t.kind === "word" && !this.used[i] ? t.text : undefined;
  }
  is(i: number, ...words: string[]): boolean {
    const w = this.word(i);
    return w !== undefined && words.includes(w);
  }
  num(i: number): number | undefined {
    const t = this.toks[i];
    return t && t.kind === "num" && !this.used[i] ? t.value : undefined;
  }
  op(i: number, ...ops: string[]): boolean {
    const t = this.toks[i];
    return !!t && t.kind === "op" && !this.used[i] && ops.includes(t.text);
  }
  use(...idx: number[]): void {
    for (const i of idx) if (i >= 0 && i < this.toks.length) this.used[i] = true;
  }
  has(...words: string[]): boolean {
    return this.toks.some((t, i) => t.kind === "word" && !this.used[i] && words.includes(t.text));
  }
  /** Whether the clause says any of `words`, read by a pass already or not. */
  says(...words: string[]): boolean {
    return this.toks.some((t) => t.kind === "word" && words.includes(t.text));
  }
  /** Index of the first free word among `words` at or after `from`, else -1. */
  find(words: string[], from = 0): number {
    for (let i = from; i < this.toks.length; i++) if (this.is(i, ...words)) return i;
    return -1;
  }
}

// ---------------------------------------------------------------- vocabularies

const MA_WORDS: Record<string, MovingAverage> = {
  sma: "sma",
  ema: "ema",
  wma: "wma",
  rma: "rma",
  smma: "rma",
  hma: "hma",
  hull: "hma",
  vwma: "vwma",
  ma: "sma",
  mas: "sma",
};
const OSC_WORDS: Record<string, { fn: Oscillator; length: number }> = {
  rsi: { fn: "rsi", length: 14 },
  cci: { fn: "cci", length: 20 },
  mfi: { fn: "mfi", length: 14 },
  wpr: { fn: "wpr", length: 14 },
  roc: { fn: "roc", length: 9 },
  momentum: { fn: "mom", length: 10 },
  mom: { fn: "mom", length: 10 },
};
const PRICE_WORDS: Record<string, PriceField> = {
  price: "close",
  close: "close",
  closes: "close",
  closing: "close",
  open: "open",
  high: "high",
  low: "low",
  hl2: "hl2",
  hlc3: "hlc3",
  ohlc4: "ohlc4",
};
/** Levels "oversold" / "overbought" mean per oscillator. */
const OVERSOLD: Record<string, number> = { rsi: 30, mfi: 20, cci: -100, wpr: -80, stoch: 20 };

const TIMEZONES: [string[], string][] = [
  [["new", "york"], "America/New_York"],
  [["nyc"], "America/New_York"],
  [["ny"], "America/New_York"],
  [["est"], "America/New_York"],
  [["edt"], "America/New_York"],
  [["et"], "America/New_York"],
  [["eastern"], "America/New_York"],
  [["london"], "Europe/London"],
  [["uk"], "Europe/London"],
  [["chicago"], "America/Chicago"],
  [["cst"], "America/Chicago"],
  [["ct"], "America/Chicago"],
  [["central"], "America/Chicago"],
  [["tokyo"], "Asia/Tokyo"],
  [["jst"], "Asia/Tokyo"],
  [["sydney"], "Australia/Sydney"],
  [["frankfurt"], "Europe/Berlin"],
  [["berlin"], "Europe/Berlin"],
  [["cet"], "Europe/Berlin"],
  [["hong", "kong"], "Asia/Hong_Kong"],
  [["singapore"], "Asia/Singapore"],
  [["utc"], "UTC"],
  [["gmt"], "UTC"],
];

/** Named sessions: hours in the market's own zone. */
const NAMED_SESSIONS: [string[], string, string][] = [
  [["new", "york", "session"], "0930-1600", "America/New_York"],
  [["ny", "session"], "0930-1600", "America/New_York"],
  [["us", "session"], "0930-1600", "America/New_York"],
  [["american", "session"], "0930-1600", "America/New_York"],
  [["rth"], "0930-1600", "America/New_York"],
  [["regular", "trading", "hours"], "0930-1600", "America/New_York"],
  [["london", "session"], "0800-1630", "Europe/London"],
  [["european", "session"], "0800-1630", "Europe/London"],
  [["europe", "session"], "0800-1630", "Europe/London"],
  [["asian", "session"], "0900-1500", "Asia/Tokyo"],
  [["asia", "session"], "0900-1500", "Asia/Tokyo"],
  [["tokyo", "session"], "0900-1500", "Asia/Tokyo"],
  [["sydney", "session"], "1000-1600", "Australia/Sydney"],
];

/** Words that carry no meaning of their own here; left over, they are not reported. */
const FILLER = new Set(
  `when if while then only trade trading with using use based make create write give can you script system bot
   strategy indicator study backtest signal signals line lines period periods length bar bars candle candles
   is are on at so go get out enter entry entries position positions rule rules setup simple basic classic send
   price level levels value values default fast slow crossing cross crosses crossover dip dips algo back
   scalp scalping swing`.split(/\s+/),
);

// ---------------------------------------------------------------- helpers

function findSeq(cl: Clause, seq: string[]): number {
  outer: for (let i = 0; i + seq.length <= cl.toks.length; i++) {
    for (let k = 0; k < seq.length; k++) if (!cl.is(i + k, seq[k]!)) continue outer;
    return i;
  }
  return -1;
}

function consumeSeq(cl: Clause, at: number, n: number): void {
  for (let k = 0; k < n; k++) cl.use(at + k);
}

/** A quantity with its unit right after `i`: "2 %", "1.5 atr", "2 x atr", "50 points", "3 r". */
function quantityAt(cl: Clause, i: number): { d: Distance | "r"; value: number; end: number } | null {
  const v = cl.num(i);
  if (v === undefined || v <= 0) return null;
  let j = i + 1;
  if (cl.op(j, "%") || cl.is(j, "percent", "pct")) return { d: { unit: "percent", value: v }, value: v, end: j };
  if (cl.is(j, "x") && cl.is(j + 1, "atr", "atrs")) j++;
  if (cl.is(j, "atr", "atrs")) {
    const len = cl.num(j + 1);
    const atrLength = len !== undefined && Number.isInteger(len) && len > 1 ? len : 14;
    return { d: { unit: "atr", value: v, atrLength }, value: v, end: len === atrLength ? j + 1 : j };
  }
  if (cl.is(j, "points", "pts", "usd")) return { d: { unit: "points", value: v }, value: v, end: j };
  if (cl.is(j, "r")) return { d: "r", value: v, end: j };
  // "atr stop 2x, target 3x": a multiple of the ATR the clause names
  if (cl.is(j, "times") && cl.says("atr", "atrs"))
    return { d: { unit: "atr", value: v, atrLength: 14 }, value: v, end: j };
  return null;
}

/** "atr 2" / "atr x 2" after an exit keyword: the multiplier comes after the word. */
function atrFirstAt(cl: Clause, i: number): { d: Distance; end: number } | null {
  if (!cl.is(i, "atr", "atrs")) return null;
  let j = i + 1;
  if (cl.is(j, "x")) j++;
  const v = cl.num(j);
  if (v === undefined || v <= 0 || v > 20) return null;
  return { d: { unit: "atr", value: v, atrLength: 14 }, end: j };
}

// ---------------------------------------------------------------- passes

function readTitleAndKind(cl: Clause, intent: Intent, kind: { strategy: boolean; indicator: boolean }): void {
  for (let i = 0; i < cl.toks.length; i++) {
    if (cl.is(i, "called", "named", "title") && cl.toks[i + 1]?.kind === "quote" && !cl.used[i + 1]) {
      // "plot ema as 'Fast'" names a plot, not the script: only a quote right after the script word
      const prev = cl.word(i - 1);
      if (i === 0 || prev === "strategy" || prev === "indicator" || prev === "script" || prev === "study") {
        intent.title = cl.toks[i + 1]!.text;
        cl.use(i, i + 1);
      }
    }
  }
  for (let i = 0; i < cl.toks.length; i++) {
    if (cl.is(i, "strategy", "strat", "backtest", "system", "bot")) {
      kind.strategy = true;
      cl.use(i);
    } else if (cl.is(i, "indicator", "study")) {
      kind.indicator = true;
      cl.use(i);
    }
  }
}

function readDirection(cl: Clause, intent: Intent, said: { direction?: Intent["direction"] }): void {
  const set = (d: Intent["direction"], at: number, n: number, text: string): void => {
    said.direction = d;
    consumeSeq(cl, at, n);
    intent.understood.push(`direction: ${text}`);
  };
  const patterns: [string[], Intent["direction"], string][] = [
    [["long", "only"], "long", "long only"],
    [["only", "long"], "long", "long only"],
    [["short", "only"], "short", "short only"],
    [["only", "short"], "short", "short only"],
    [["long", "and", "short"], "both", "long and short"],
    [["short", "and", "long"], "both", "long and short"],
    [["long", "short"], "both", "long and short"],
    [["long", "/", "short"], "both", "long and short"],
    [["both", "sides"], "both", "long and short"],
    [["both", "side"], "both", "long and short"],
    [["both", "directions"], "both", "long and short"],
    [["both", "direction"], "both", "long and short"],
    [["both", "ways"], "both", "long and short"],
    [["always", "in"], "both", "long and short (always in the market)"],
    [["reversal"], "both", "long and short (reversing)"],
    [["reverse"], "both", "long and short (reversing)"],
    [["stop", "and", "reverse"], "both", "long and short (stop and reverse)"],
  ];
  for (const [seq, d, text] of patterns) {
    // "/" is an op token: match it by hand
    const at = seq.includes("/") ? findSlash(cl) : findSeq(cl, seq);
    if (at >= 0) {
      set(d, at, seq.length, text);
      return;
    }
  }
  // "trade both" / "both" alone as the whole clause; "both are below 20" is not a direction
  const both = cl.find(["both"]);
  if (both >= 0 && (cl.is(both - 1, "trade", "trading") || cl.toks.length === 1))
    set("both", both, 1, "long and short");
}

function findSlash(cl: Clause): number {
  for (let i = 0; i + 2 < cl.toks.length; i++)
    if (cl.is(i, "long") && cl.op(i + 1, "/") && cl.is(i + 2, "short")) return i;
  return -1;
}

interface ExitWords {
  words: string[][];
  slot: "stop" | "target" | "trail";
}
const EXIT_WORDS: ExitWords[] = [
  {
    slot: "trail",
    words: [
      ["trailing", "stop", "loss"],
      ["trailing", "stop"],
      ["trailing", "sl"],
      ["trail", "stop"],
      ["trailstop"],
      ["trailing"],
      ["trail"],
    ],
  },
  {
    slot: "stop",
    words: [["stop", "loss"], ["stoploss"], ["sl"], ["stop"]],
  },
  {
    slot: "target",
    words: [["take", "profit"], ["profit", "target"], ["tp"], ["target"], ["targets"], ["profit"]],
  },
];

/** Exit keywords in the clause, in text order (longest phrase first at each position). */
function exitMentions(cl: Clause): { at: number; seq: string[]; slot: ExitWords["slot"] }[] {
  const out: { at: number; seq: string[]; slot: ExitWords["slot"] }[] = [];
  for (let i = 0; i < cl.toks.length; i++) {
    let best: { at: number; seq: string[]; slot: ExitWords["slot"] } | null = null;
    for (const { slot, words } of EXIT_WORDS)
      for (const seq of words) {
        let ok = true;
        for (let k = 0; k < seq.length && ok; k++) ok = cl.is(i + k, seq[k]!);
        if (ok && (!best || seq.length > best.seq.length)) best = { at: i, seq, slot };
      }
    if (best) {
      out.push(best);
      i += best.seq.length - 1;
    }
  }
  return out;
}

function readExits(cl: Clause, intent: Intent, pendingR: { value: number } | null): { value: number } | null {
  let r = pendingR;
  for (const { at, seq, slot } of exitMentions(cl)) {
    const after = at + seq.length;
    // "2% stop" (a quantity right before wins: "1% sl 2% tp"), else "stop 2%", "stop loss of 2%", "stop at 1.5 atr"
    let q: ReturnType<typeof quantityAt> = null;
    let qAt = -1;
    for (const j of [at - 2, at - 3, at - 4, after, after + 1]) {
      if (j < 0) continue;
      if (j === after + 1 && !cl.is(after, "of", "at", "=", "is", "loss", "with", "to", "below", "above", "under"))
        continue;
      q = quantityAt(cl, j);
      if (q && (j >= after || q.end === at - 1)) {
        qAt = j;
        break;
      }
      q = null;
    }
    const atrFirst = q ? null : (atrFirstAt(cl, after) ?? atrFirstAt(cl, after + 1));
    if (q && q.d === "r") {
      if (slot !== "target") continue;
      r = { value: q.value };
      consumeSeq(cl, at, seq.length);
      cl.use(...range(qAt, q.end));
      continue;
    }
    const d = q ? (q.d as Distance) : atrFirst?.d;
    if (!d) {
      // an exit word with a number but no unit: say so rather than pick percent or points
      const bare = cl.num(after) ?? cl.num(at - 1);
      if (bare !== undefined && slot !== "target") {
        intent.unrecognized.push(`${seq.join(" ")} ${bare}: no unit (write ${bare}% or ${bare} atr)`);
        consumeSeq(cl, at, seq.length);
        cl.use(cl.num(after) !== undefined ? after : at - 1);
      }
      continue;
    }
    if (intent[slot]) continue;
    intent[slot] = d;
    consumeSeq(cl, at, seq.length);
    // "stop below 1 atr": the word between the exit and its distance is read with them
    if (q) cl.use(...range(qAt === after + 1 ? after : qAt, q.end));
    // "atr stop 2x": the unit said before the exit word
    if (q && d.unit === "atr" && cl.is(at - 1, "atr")) cl.use(at - 1);
    if (atrFirst) cl.use(...range(after, atrFirst.end), after);
    const what = slot === "stop" ? "stop loss" : slot === "target" ? "take profit" : "trailing stop";
    intent.understood.push(`${what}: ${distanceLabel(d)} from the entry`);
  }
  // "risk reward 1:2", "rr 2", "2r target", "1:3"
  const ratio = findRatio(cl);
  if (ratio !== null) r = { value: ratio };
  return r;
}

/**
 * Scaling out: "take half at 2%, rest at 4%", "sell 50% at 1.5 atr and the rest at 3 atr", "close
 * half at 2%, remainder at 4%". The first part becomes `partialTarget`, the rest's distance the
 * target; the rest may sit in the next clause. Read before the exits so "take" is not a take profit.
 */
function readPartialTargets(clauses: Clause[], intent: Intent): void {
  for (let ci = 0; ci < clauses.length; ci++) {
    const cl = clauses[ci]!;
    for (let i = 0; i < cl.toks.length; i++) {
      if (!cl.is(i, "take", "sell", "close", "exit", "scale", "book")) continue;
      let j = i + 1;
      if (cl.is(i, "scale") && cl.is(j, "out")) j++;
      let qty: number | null = null;
      if (cl.is(j, "half")) qty = 50;
      else if (cl.num(j) !== undefined && cl.op(j + 1, "%") && cl.is(j + 2, "at", "@")) {
        qty = cl.num(j)!;
        j++;
      }
      if (qty === null || qty <= 0 || qty >= 100) continue;
      if (!cl.is(j + 1, "at", "@")) continue;
      const first = quantityAt(cl, j + 2);
      if (!first || first.d === "r") continue;
      cl.use(...range(i, first.end));
      intent.partialTarget = { qtyPercent: qty, target: first.d };
      intent.understood.push(`first target: ${qty}% of the position at ${distanceLabel(first.d)} from the entry`);
      // "rest at 4%", "the remainder at 4%", "other half at 4%": here or in the next clause
      for (const c of [cl, clauses[ci + 1]].filter((x): x is Clause => x !== undefined)) {
        for (let k = 0; k < c.toks.length; k++) {
          if (!c.is(k, "rest", "remainder", "remaining", "half")) continue;
          let m = k + 1;
          if (c.is(k, "remaining") && c.is(m, "half", "position")) m++;
          if (!c.is(m, "at", "@")) continue;
          const second = quantityAt(c, m + 1);
          if (!second || second.d === "r") continue;
          const from = c.is(k - 1, "the", "other")
            ? c.is(k - 2, "and")
              ? k - 2
              : k - 1
            : c.is(k - 1, "and")
              ? k - 1
              : k;
          c.use(...range(from, second.end));
          intent.target = second.d;
          intent.understood.push(`take profit: the rest of the position at ${distanceLabel(second.d)} from the entry`);
          return;
        }
      }
      return;
    }
  }
}

/**
 * "move stop to breakeven after 1R", "breakeven after 1%", "move sl to break even at 1.5%": the stop
 * goes to the entry price once the trade has gained that much. Read before the exits so "stop to"
 * is not a stop distance.
 */
function readBreakeven(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    const two = cl.is(i, "break") && cl.is(i + 1, "even");
    if (!cl.is(i, "breakeven", "entry") && !two) continue;
    const end = two ? i + 1 : i;
    // "move stop to" / "stop to" / "sl to" before it (needed for "entry")
    let start = i;
    if (cl.is(start - 1, "to")) start--;
    if (cl.is(start - 1, "stop", "sl", "stoploss")) start--;
    if (cl.is(start - 1, "moves", "move", "trail")) start--;
    if (cl.is(i, "entry") && start > i - 2) continue;
    if (!cl.is(end + 1, "after", "at", "once", "when", "@")) continue;
    const q = quantityAt(cl, end + 2);
    if (!q) continue;
    cl.use(...range(start, q.end));
    intent.breakeven = q.d === "r" ? { unit: "r", value: q.value } : q.d;
    const how = q.d === "r" ? `${q.value}R (${q.value} x the stop's distance)` : distanceLabel(q.d);
    intent.understood.push(`breakeven: the stop moves to the entry price once the trade is ${how} in profit`);
    return;
  }
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = Math.min(a, b); i <= Math.max(a, b); i++) out.push(i);
  return out;
}

function findRatio(cl: Clause): number | null {
  for (let i = 0; i < cl.toks.length; i++) {
    // "1 ratio 2" came from "1:2"
    if (cl.is(i, "ratio") && cl.num(i - 1) !== undefined && cl.num(i + 1) !== undefined) {
      const a = cl.num(i - 1)!;
      const b = cl.num(i + 1)!;
      cl.use(i - 1, i, i + 1);
      for (const w of ["risk", "reward", "to"]) {
        const at = cl.find([w]);
        if (at >= 0) cl.use(at);
      }
      const rr = cl.find(["rr"]);
      if (rr >= 0) cl.use(rr);
      // a target nearer than the stop is rarely meant: "1:2" and "2:1 reward to risk" both read as 2R
      return a > 0 && b > 0 ? Math.max(a, b) / Math.min(a, b) : null;
    }
    if (cl.is(i, "rr") && cl.num(i + 1) !== undefined) {
      const v = cl.num(i + 1)!;
      cl.use(i, i + 1);
      return v;
    }
    // "1.5 rr", "2 rr target"
    if (cl.is(i, "rr") && cl.num(i - 1) !== undefined) {
      const v = cl.num(i - 1)!;
      cl.use(i - 1, i);
      return v;
    }
  }
  return null;
}

function readSession(cl: Clause, intent: Intent): void {
  let hours: string | null = null;
  let tz: string | null = null;
  let named = false;
  for (const [seq, h, zone] of NAMED_SESSIONS) {
    const at = findSeq(cl, seq);
    if (at >= 0) {
      hours = h;
      tz = zone;
      named = true;
      consumeSeq(cl, at, seq.length);
      break;
    }
  }
  for (let i = 0; i < cl.toks.length; i++) {
    const t = cl.toks[i]!;
    if (t.kind === "hours" && !cl.used[i]) {
      hours = t.detail!;
      cl.use(i);
    }
  }
  const excluded = excludedDays(cl);
  const wdAt = cl.find(["weekdays", "weekday"]);
  if (!hours && !intent.session && !excluded && wdAt < 0 && !hasDayRange(cl)) return;
  for (const [seq, zone] of TIMEZONES) {
    const at = findSeq(cl, seq);
    if (at >= 0) {
      if (!named) tz = zone;
      consumeSeq(cl, at, seq.length);
      const tzWord = cl.find(["time", "timezone", "zone"]);
      if (tzWord >= 0) cl.use(tzWord);
      break;
    }
  }
  const ex = cl.find(["exchange"]);
  if (ex >= 0) {
    cl.use(ex);
    const t = cl.find(["time", "timezone"]);
    if (t >= 0) cl.use(t);
  }
  let days: string | null = null;
  const wd = cl.find(["weekdays", "weekday"]);
  const dayRange = findDayRange(cl);
  if (wd >= 0) {
    days = "23456";
    cl.use(wd);
  } else if (dayRange) days = dayRange;
  if (excluded) {
    const from = days ?? intent.session?.days ?? "1234567";
    days = [...from].filter((d) => !excluded.includes(d)).join("");
  }
  for (const w of ["session", "sessions", "hours", "between", "during", "in"]) {
    const at = cl.find([w]);
    if (at >= 0 && w !== "in") cl.use(at);
  }
  if (hours) {
    // days excluded in an earlier clause ("no trades fridays, session 0930-1600") stay excluded
    intent.session = { hours, timezone: tz, days: days ?? intent.session?.days ?? null };
  } else if (intent.session && (tz || days)) {
    // a zone in a later clause ("..., new york time") completes the hours given before
    if (tz) intent.session.timezone = tz;
    if (days) intent.session.days = days;
  } else if (days) {
    // days without hours ("no trades on fridays", "weekdays only"): the whole day on those days
    intent.session = { hours: ALL_DAY, timezone: tz, days };
  } else return;
  saySession(intent);
}

/** A session of whole days (TradingView's "0000-0000"), for a filter on days alone. */
const ALL_DAY = "0000-0000";

/** TradingView day digits: 1 Sunday ... 7 Saturday. */
const DAY_DIGITS: Record<string, string> = {
  sunday: "1",
  sun: "1",
  monday: "2",
  mon: "2",
  tuesday: "3",
  tue: "3",
  tues: "3",
  wednesday: "4",
  wed: "4",
  thursday: "5",
  thu: "5",
  thur: "5",
  thurs: "5",
  friday: "6",
  fri: "6",
  saturday: "7",
  sat: "7",
  weekend: "17",
  weekends: "17",
};
const DAY_NAMES = ["", "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

/** The session said back once, however many clauses made it ("session: ..." replaced). */
function saySession(intent: Intent): void {
  const s = intent.session!;
  const out = [..."1234567"].filter((d) => !s.days?.includes(d));
  const days =
    s.days === null || s.days === "1234567"
      ? ""
      : s.days === "23456"
        ? " Monday to Friday"
        : out.length <= 3
          ? `, every day except ${out.map((d) => DAY_NAMES[Number(d)]).join(" and ")}`
          : ` on ${[...s.days].map((d) => DAY_NAMES[Number(d)]).join(", ")}`;
  const hours = s.hours === ALL_DAY ? "all day" : s.hours;
  intent.understood = intent.understood.filter((u) => !u.startsWith("session: "));
  intent.understood.push(`session: trade only ${hours}${days} (${s.timezone ?? "the exchange's time zone"})`);
}

/**
 * Days a clause rules out: "no trades fridays", "skip mondays and fridays", "no trading on friday",
 * "except fridays", "no weekend trades". Null when it names none; the words are consumed.
 */
function excludedDays(cl: Clause): string | null {
  let out = "";
  for (let i = 0; i < cl.toks.length; i++) {
    if (!cl.is(i, "no", "skip", "except", "excluding", "avoid", "not", "never", "without")) continue;
    const idx = [i];
    let days = "";
    for (let j = i + 1; j < cl.toks.length; j++) {
      const w = cl.word(j);
      if (w && DAY_DIGITS[w]) {
        days += DAY_DIGITS[w];
        idx.push(j);
      } else if (w && ["trade", "trades", "trading", "entries", "entry", "on", "and", "or", "the"].includes(w))
        idx.push(j);
      else if (cl.op(j, "/")) idx.push(j);
      else break;
    }
    if (!days) continue;
    cl.use(...idx);
    out += days;
  }
  return out || null;
}

/** A day range at `i`: "mon-fri", "tue to thu", "monday through friday" (digits inclusive), else null. */
function dayRangeAt(cl: Clause, i: number): { days: string; end: number } | null {
  const a = DAY_DIGITS[cl.word(i) ?? ""];
  if (a?.length !== 1) return null;
  const sep = cl.is(i + 1, "to", "through", "thru") || cl.op(i + 1, "-", "/");
  const bAt = sep ? i + 2 : i + 1;
  const b = DAY_DIGITS[cl.word(bAt) ?? ""];
  if (b?.length !== 1 || b <= a) return null;
  let days = "";
  for (let d = Number(a); d <= Number(b); d++) days += String(d);
  return { days, end: bAt };
}

function hasDayRange(cl: Clause): boolean {
  return cl.toks.some((_t, i) => dayRangeAt(cl, i) !== null);
}

/** The first day range in the clause, consumed ("only trade tue-thu"). */
function findDayRange(cl: Clause): string | null {
  for (let i = 0; i < cl.toks.length; i++) {
    const r = dayRangeAt(cl, i);
    if (!r) continue;
    cl.use(...range(i, r.end));
    return r.days;
  }
  return null;
}

function readDates(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    const t = cl.toks[i]!;
    if (t.kind !== "dates" || cl.used[i]) continue;
    const [from, to] = t.detail!.split("|");
    intent.dateRange = { from: from || null, to: to || null };
    cl.use(i);
    const w = cl.find(["backtest", "trade", "trading", "test", "only", "period", "range", "dates", "date"]);
    if (w >= 0) cl.use(w);
    intent.understood.push(
      `date range: ${from ? `from ${from}` : ""}${from && to ? " " : ""}${to ? `until ${to}` : ""}`,
    );
  }
}

/** "pyramiding 3", "pyramid up to 3", "pyramiding = 2": entries on top of an open position. */
function readPyramiding(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    if (!cl.is(i, "pyramiding", "pyramid")) continue;
    if (cl.is(i - 1, "no")) {
      cl.use(i - 1, i);
      intent.understood.push("pyramiding: none (one entry per position, the default)");
      continue;
    }
    let j = i + 1;
    while (cl.is(j, "of", "up", "to", "max", "maximum") || cl.op(j, "=")) j++;
    // "max 2 pyramiding", "3x pyramiding": the number before
    const before = cl.num(j) === undefined && cl.num(i - 1) !== undefined;
    const n = before ? cl.num(i - 1) : cl.num(j);
    if (n === undefined || !Number.isInteger(n) || n < 0 || n > 100) continue;
    intent.pyramiding = n;
    if (before) cl.use(i - 1, i, ...(cl.is(i - 2, "max", "maximum") ? [i - 2] : []));
    else cl.use(...range(i, cl.is(j + 1, "entries", "entry", "times") ? j + 1 : j));
    intent.understood.push(`pyramiding: up to ${n} entries in the same direction`);
  }
}

/**
 * "exit after 10 bars", "hold for 5 bars", "max 20 bars in trade", "time stop 10 bars", "10 bar time
 * exit": close the position that many bars after its entry. Read before the exits, so the "stop" of
 * "time stop" is not a stop loss.
 */
function readMaxBars(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    const n = cl.num(i);
    if (n === undefined || !Number.isInteger(n) || n < 1 || !cl.is(i + 1, "bars", "bar", "candles", "candle")) continue;
    let lead = i - 1;
    if (cl.is(lead, "for", "of")) lead--;
    let start = -1;
    let end = i + 1;
    if (cl.is(lead, "after", "hold", "holding", "max", "maximum")) start = lead;
    else if (cl.is(lead, "stop", "exit") && cl.is(lead - 1, "time")) start = lead - 1;
    if (cl.is(i + 2, "time") && cl.is(i + 3, "stop", "exit")) {
      end = i + 3;
      if (start < 0) start = i;
    }
    if (start < 0) continue;
    // the verb before: "exit after", "close after", "get out after"
    if (cl.is(start - 1, "exit", "close", "out")) start--;
    if (cl.is(start, "out") && cl.is(start - 1, "get")) start--;
    if (cl.is(end + 1, "in") && cl.is(end + 2, "trade", "position")) end += 2;
    else if (cl.is(end + 1, "in") && cl.is(end + 2, "the") && cl.is(end + 3, "trade", "position")) end += 3;
    cl.use(...range(start, end));
    intent.maxBars = n;
    intent.understood.push(`time exit: close the position ${n} bar${n === 1 ? "" : "s"} after its entry`);
  }
}

/**
 * "flat by eod", "close all positions at the end of the day", "exit at market close", "no overnight
 * positions", "no overnight holds": every position is closed on the last bar of the day.
 */
function readDayEnd(cl: Clause, intent: Intent): void {
  const said = (): void => {
    if (!intent.flatAtDayEnd)
      intent.understood.push("flat at the end of the day: positions close on the day's last bar");
    intent.flatAtDayEnd = true;
  };
  for (let i = 0; i < cl.toks.length; i++) {
    if (cl.is(i, "eod")) {
      let start = i;
      while (
        cl.is(
          start - 1,
          "flat",
          "by",
          "at",
          "before",
          "close",
          "exit",
          "all",
          "position",
          "positions",
          "trades",
          "trade",
          "out",
          "on",
          "the",
          "get",
          "go",
          "every",
        )
      )
        start--;
      // a bare "eod" needs a word saying what to do there ("flat", "close", "exit", "out")
      const verb = range(start, i - 1).some((j) => cl.is(j, "flat", "close", "exit", "out"));
      if (!verb) continue;
      cl.use(...range(start, i));
      said();
    } else if (cl.is(i, "overnight") && cl.is(i - 1, "no", "never")) {
      let end = i;
      while (cl.is(end + 1, "position", "positions", "holds", "hold", "holding", "trades", "trade")) end++;
      cl.use(...range(i - 1, end));
      said();
    }
  }
}

function readSizing(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    const v = cl.num(i);
    if (v === undefined || v <= 0) continue;
    // "risk 1% per trade", "2% risk per trade"
    const riskAfter = cl.op(i + 1, "%") && cl.is(i + 2, "risk");
    if ((cl.is(i - 1, "risk", "risking") && cl.op(i + 1, "%")) || riskAfter) {
      intent.sizing = { kind: "risk", value: v };
      cl.use(riskAfter ? i + 2 : i - 1, i, i + 1);
      const per = findSeq(cl, ["per", "trade"]);
      if (per >= 0) consumeSeq(cl, per, 2);
      const eq = cl.find(["equity", "account", "capital"]);
      if (eq >= 0) cl.use(eq);
      intent.understood.push(`position size: risk ${v}% of equity between entry and stop`);
      return;
    }
    // "10% of equity", "10% equity", "use 10 % of capital"
    if (
      cl.op(i + 1, "%") &&
      (cl.is(i + 2, "equity", "capital", "account") ||
        (cl.is(i + 2, "of") && cl.is(i + 3, "equity", "capital", "account")))
    ) {
      intent.sizing = { kind: "percent_of_equity", value: v };
      cl.use(...range(i, cl.is(i + 2, "of") ? i + 3 : i + 2));
      intent.understood.push(`position size: ${v}% of equity`);
      return;
    }
    // "2 contracts", "100 shares", "1 lot"
    if (cl.is(i + 1, "contracts", "contract", "shares", "share", "lots", "lot", "units", "unit")) {
      intent.sizing = { kind: "fixed", value: v };
      cl.use(i, i + 1);
      intent.understood.push(`position size: ${v} ${cl.toks[i + 1]!.text}`);
      return;
    }
    // "$1000 per trade" (lexed as usd 1000)
    if (cl.is(i - 1, "usd") || cl.is(i + 1, "usd")) {
      intent.sizing = { kind: "cash", value: v };
      cl.use(i, cl.is(i - 1, "usd") ? i - 1 : i + 1);
      const per = findSeq(cl, ["per", "trade"]);
      if (per >= 0) consumeSeq(cl, per, 2);
      intent.understood.push(`position size: ${v} in cash per trade`);
      return;
    }
  }
  for (const seq of [["position", "size"], ["size"], ["qty"], ["quantity"]]) {
    const at = findSeq(cl, seq);
    if (at >= 0 && intent.sizing) consumeSeq(cl, at, seq.length);
  }
}

const TIMEFRAME_UNITS: [string[], string, string][] = [
  [["m", "min", "mins", "minute", "minutes"], "minute", ""],
  [["h", "hr", "hrs", "hour", "hours"], "hour", "60"],
  [["d", "day", "days"], "day", "D"],
  [["w", "wk", "week", "weeks"], "week", "W"],
];

/**
 * "sell 15m", "on the 1h chart", "4h timeframe", "on 15 min bars": the chart timeframe the request
 * has in mind. A script runs on its chart's timeframe, so this is said back (open it on that chart),
 * never reported as not understood nor read as a number of the rules ("macd cross 4h" is no level 4).
 * "20 day high" stays a window: a day or week count is a timeframe only before "chart"/"timeframe"/"tf"/"bars".
 */
function readTimeframe(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    const n = cl.num(i);
    if (n === undefined || !Number.isInteger(n) || n <= 0) continue;
    const unit = TIMEFRAME_UNITS.find(([words]) => cl.is(i + 1, ...words));
    if (!unit) continue;
    const tail = cl.is(i + 2, ...TIMEFRAME_TAIL);
    if ((unit[1] === "day" || unit[1] === "week") && !tail) continue;
    cl.use(i, i + 1);
    if (tail) cl.use(i + 2);
    if (cl.is(i - 1, "the") && cl.is(i - 2, "on")) cl.use(i - 2, i - 1);
    else if (cl.is(i - 1, "on")) cl.use(i - 1);
    const tv = unit[1] === "minute" ? String(n) : unit[1] === "hour" ? String(n * 60) : `${n === 1 ? "" : n}${unit[2]}`;
    sayTimeframe(intent, `${n} ${unit[1]}${n === 1 ? "" : "s"}`, tv);
  }
  // "on the daily chart", "hourly timeframe"
  for (let i = 0; i < cl.toks.length; i++) {
    const named = NAMED_TIMEFRAMES[cl.word(i) ?? ""];
    if (!named || !cl.is(i + 1, ...TIMEFRAME_TAIL)) continue;
    cl.use(i, i + 1);
    if (cl.is(i - 1, "the") && cl.is(i - 2, "on")) cl.use(i - 2, i - 1);
    else if (cl.is(i - 1, "on")) cl.use(i - 1);
    sayTimeframe(intent, named[0], named[1]);
  }
}

/** Minutes of the opening range each "orb" / "open(ing) range" token names, read before the chart timeframe. */
const orbMinutes = new WeakMap<Token, number>();

/**
 * "15 min opening range breakout", "ORB 30 minutes", "5m orb": the minutes next to the opening range
 * are its length, not the chart's timeframe; consumed here (before readTimeframe) and kept on the
 * token. 15 when none are given (said back).
 */
function readOpeningRange(cl: Clause, intent: Intent): void {
  const minuteWords = ["m", "min", "mins", "minute", "minutes"];
  for (let i = 0; i < cl.toks.length; i++) {
    const orb = cl.is(i, "orb");
    if (!orb && !(cl.is(i, "open", "opening") && cl.is(i + 1, "range"))) continue;
    const last = orb ? i : i + 1;
    let minutes: number | undefined;
    const before = cl.num(i - 2);
    if (before !== undefined && cl.is(i - 1, ...minuteWords)) {
      minutes = before;
      cl.use(i - 2, i - 1);
    } else {
      const after = cl.num(last + 1);
      if (after !== undefined && Number.isInteger(after) && after > 0 && after <= 240) {
        minutes = after;
        cl.use(last + 1);
        if (cl.is(last + 2, ...minuteWords)) cl.use(last + 2);
      }
    }
    if (minutes === undefined || !Number.isInteger(minutes) || minutes <= 0) {
      minutes = 15;
      intent.understood.push("default: opening range of the first 15 minutes");
    }
    orbMinutes.set(cl.toks[i]!, minutes);
    intent.understood.push(
      `opening range: the first ${minutes} minutes of each day, or of the session when one is given (open it on a chart of ${minutes} minutes or less)`,
    );
  }
}

const TIMEFRAME_TAIL = ["chart", "charts", "timeframe", "tf", "bars", "candles"];
const NAMED_TIMEFRAMES: Record<string, [string, string]> = {
  hourly: ["1 hour", "60"],
  daily: ["1 day", "D"],
  weekly: ["1 week", "W"],
  monthly: ["1 month", "M"],
};

function sayTimeframe(intent: Intent, label: string, tv: string): void {
  intent.understood.push(`timeframe: ${label} (a script runs on its chart's timeframe: open it on a "${tv}" chart)`);
}

/**
 * "14 day rsi": an oscillator's length in days is taken as bars of the chart (days on a daily chart).
 * Said back, never silent, since on an intraday chart it is not 14 days. Consumes nothing. (An
 * average's length in days is taken on the daily timeframe: "50 day sma".)
 */
function noteDayLengths(cl: Clause, intent: Intent): void {
  for (let i = 0; i + 2 < cl.toks.length; i++) {
    const n = cl.num(i);
    if (n === undefined || !cl.is(i + 1, "day", "days")) continue;
    const w = cl.word(i + 2) ?? "";
    if (!(w in OSC_WORDS)) continue;
    intent.understood.push(
      `length: '${n} day' is ${n} bars of the chart (${n} days on a daily chart, not on an intraday one)`,
    );
  }
}

function readAlerts(cl: Clause, intent: Intent): void {
  for (let i = 0; i < cl.toks.length; i++) {
    if (cl.is(i, ...ALERT_WORDS)) {
      cl.use(i);
      if (!intent.alerts) intent.understood.push("alerts: on every entry and exit signal");
      intent.alerts = true;
      const me = cl.find(["me"]);
      if (me >= 0) cl.use(me);
    }
  }
}

// ---------------------------------------------------------------- rules

type Item =
  | {
      kind: "series";
      at: number;
      s: SeriesRef[];
      family?: "bb" | "kc" | "channel" | "orb";
      /** The opening range's minutes, for a family "orb" with no line named. */
      orbMinutes?: number;
      /** Oscillator entry / exit levels given with it ("rsi 30 70"). */
      levels?: [number, number];
      /** A cross word sat between the average and its lengths ("ema cross 12 26"). */
      crossed?: boolean;
    }
  | {
      kind: "op";
      at: number;
      op:
        | "above"
        | "below"
        | "gt"
        | "lt"
        | "breakout"
        | "breakdown"
        | "break"
        | "squeeze"
        | "bounce"
        | "oversold"
        | "overbought"
        | "rising"
        | "falling"
        | "reversion"
        | "opposite"
        /** "stacked" / "aligned": averages in order, read with the comparison chain they follow. */
        | "stacked";
    }
  | { kind: "cross"; at: number; direction: "above" | "below" | null; pair?: SeriesRef[] }
  | { kind: "supertrend"; at: number; factor: number; atrLength: number; down: boolean }
  | { kind: "volume"; at: number; op: Comparison; mult: number; length: number }
  | { kind: "heikin"; at: number; color: "green" | "red" | null; turn: boolean }
  | { kind: "action"; at: number; action: "buy" | "sell" | "short" | "exit" | "cover" }
  | { kind: "value"; at: number; value: number }
  | { kind: "show"; at: number }
  | { kind: "name"; at: number; title: string };

/** The last token of each item, so a comparison chain can tell "b > c" from "b and close above c". */
const itemEnd = new WeakMap<Item, number>();

/** Levels on either side of an oscillator's midpoint: "30 70" for RSI, "-100 100" for CCI; a length may come first. */
function levelPair(
  fn: Oscillator,
  xs: number[],
): { length: number | null; lo: number; hi: number; count: number } | null {
  if (fn !== "rsi" && fn !== "mfi" && fn !== "cci" && fn !== "wpr") return null;
  const mid = fn === "cci" ? 0 : fn === "wpr" ? -50 : 50;
  const around = (a: number | undefined, b: number | undefined): boolean =>
    a !== undefined && b !== undefined && a < mid && b > mid;
  if (xs.length >= 3 && Number.isInteger(xs[0]) && xs[0]! > 1 && around(xs[1], xs[2]))
    return { length: xs[0]!, lo: xs[1]!, hi: xs[2]!, count: 3 };
  if (around(xs[0], xs[1])) return { length: null, lo: xs[0]!, hi: xs[1]!, count: 2 };
  return null;
}

interface BandContext {
  band: "bb" | "kc";
  length: number;
  mult: number;
}

/** Numbers right after `i` (skipping "length", "period", "of"...), up to `max`. */
function numbersAfter(cl: Clause, i: number, max: number): { values: number[]; end: number } {
  const values: number[] = [];
  let j = i + 1;
  let end = i;
  while (values.length < max) {
    if (cl.is(j, "length", "period", "periods", "len", "with")) {
      j++;
      continue;
    }
    const v = cl.num(j);
    if (v === undefined) break;
    // "20 % stop" belongs to the exits, "2 x atr" too
    if (cl.op(j + 1, "%") || cl.is(j + 1, "atr", "x", "r", "contracts", "shares")) break;
    values.push(v);
    end = j;
    j++;
    if (cl.op(j, "/") || cl.is(j, "and") || cl.op(j, ",")) {
      if (cl.num(j + 1) !== undefined && values.length < max) j++;
    }
  }
  return { values, end };
}

/**
 * "20 day high", "highest high of 10 weeks": a length in calendar units, honoured on any chart (the
 * window is taken on that timeframe), never silently read as bars.
 */
function calendarUnit(cl: Clause, i: number): "D" | "W" | undefined {
  return cl.is(i, "day", "days") ? "D" : cl.is(i, "week", "weeks") ? "W" : undefined;
}

/** A number (with "day"/"bar"/"period") right before `i`: "20 ema", "20 day sma", "9 and 21 ema". */
function numbersBefore(cl: Clause, i: number): { values: number[]; start: number } {
  let j = i - 1;
  if (cl.is(j, "day", "bar", "period", "candle", "days", "bars", "week", "weeks")) j--;
  const b = cl.num(j);
  if (b === undefined) return { values: [], start: i };
  if ((cl.op(j - 1, "/") || cl.is(j - 1, "and")) && cl.num(j - 2) !== undefined) {
    return { values: [cl.num(j - 2)!, b], start: j - 2 };
  }
  return { values: [b], start: j };
}

function maWordAt(cl: Clause, i: number): { fn: MovingAverage; end: number } | null {
  if (
    cl.is(i, "exponential", "simple", "weighted", "hull") &&
    cl.is(i + 1, "moving") &&
    cl.is(i + 2, "average", "averages")
  ) {
    const fn = { exponential: "ema", simple: "sma", weighted: "wma", hull: "hma" }[cl.word(i)!] as MovingAverage;
    return { fn, end: i + 2 };
  }
  if (cl.is(i, "moving") && cl.is(i + 1, "average", "averages")) return { fn: "sma", end: i + 1 };
  const w = cl.word(i);
  if (w && MA_WORDS[w]) {
    if (w === "hull" && cl.is(i + 1, "ma")) return { fn: "hma", end: i + 1 };
    return { fn: MA_WORDS[w]!, end: i };
  }
  return null;
}

function sourceAfter(cl: Clause, i: number): { field: PriceField; end: number } | null {
  if (cl.is(i + 1, "of", "on") && cl.word(i + 2) && PRICE_WORDS[cl.word(i + 2)!] && cl.word(i + 2) !== "price")
    return { field: PRICE_WORDS[cl.word(i + 2)!]!, end: i + 2 };
  return null;
}

class RuleReader {
  defaults: string[] = [];
  band: BandContext | null = null;
  macd: { fast: number; slow: number; signal: number } | null = null;
  stoch: { length: number; smoothK: number; smoothD: number; rsiLength?: number } | null = null;
  /** The Supertrend named before, for "exit when it turns red". */
  supertrend: { factor: number; atrLength: number } | null = null;
  /** Heikin Ashi candles were named, for "..., turn red sell". */
  heikin = false;
  /** The RSI a Stochastic RSI is taken of, as a series field. */
  stochOf(): { rsiLength?: number } {
    return this.stoch?.rsiLength ? { rsiLength: this.stoch.rsiLength } : {};
  }

  constructor(readonly intent: Intent) {}

  items(cl: Clause): Item[] {
    const out: Item[] = [];
    for (let i = 0; i < cl.toks.length; i++) {
      if (cl.used[i]) continue;
      const item = this.itemAt(cl, i);
      if (item) {
        out.push(item.item);
        itemEnd.set(item.item, item.end);
        if (item.extra) out.push(item.extra);
        cl.use(...range(item.start, item.end));
        i = item.end;
      }
    }
    return out;
  }

  private defaulted(what: string): void {
    this.defaults.push(what);
  }

  private itemAt(cl: Clause, i: number): { item: Item; start: number; end: number; extra?: Item } | null {
    const t = cl.toks[i]!;
    if (t.kind === "quote") {
      if (cl.is(i - 1, "as", "named", "called", "title"))
        return { item: { kind: "name", at: i, title: t.text }, start: i - 1, end: i };
      return null;
    }
    if (t.kind === "op") {
      if (t.text === "<" || t.text === "<=") return { item: { kind: "op", at: i, op: "lt" }, start: i, end: i };
      if (t.text === ">" || t.text === ">=") return { item: { kind: "op", at: i, op: "gt" }, start: i, end: i };
      return null;
    }
    if (t.kind === "num") {
      // "20 ema" / "9/21 ema": the number belongs to the series that follows
      let j = i + 1;
      while (
        cl.op(j, "/") ||
        cl.is(j, "and") ||
        cl.num(j) !== undefined ||
        cl.is(j, "day", "bar", "period", "candle", "days", "bars")
      )
        j++;
      if (j > i + 1 || cl.word(j)) {
        const s = this.seriesAt(cl, j);
        if (s && s.start <= i) return { item: s.item, start: s.start, end: s.end };
      }
      if (
        cl.is(i + 1, "day", "bar", "period", "candle", "days", "bars", "week") &&
        cl.is(i + 2, "high", "low", "highs", "lows")
      ) {
        return this.channelItem(cl, i, i + 2, t.value!);
      }
      return { item: { kind: "value", at: i, value: t.value! }, start: i, end: i };
    }
    if (t.kind !== "word") return null;
    const w = t.text;
    const vol = this.volumeAt(cl, i);
    if (vol) return vol;
    const orb = this.openingRangeAt(cl, i);
    if (orb) return orb;
    // "heikin ashi candles turn green", "heikin ashi green candle", "ha turns red"
    if (w === "heikin" && cl.is(i + 1, "ashi")) {
      let end = i + 1;
      let color: "green" | "red" | null = null;
      let turn = false;
      for (let j = i + 2; j <= i + 5; j++) {
        if (cl.is(j, "candle", "candles", "bar", "bars", "is", "are")) end = j;
        else if (cl.is(j, "turns", "turn", "turning", "turned", "flips", "flip", "change", "changes")) {
          turn = true;
          end = j;
        } else if (cl.is(j, "green", "bullish", "red", "bearish")) {
          color = cl.is(j, "green", "bullish") ? "green" : "red";
          end = j;
          if (cl.is(j + 1, "candle", "candles")) end = j + 1;
          break;
        } else break;
      }
      this.heikin = true;
      return { item: { kind: "heikin", at: i, color, turn }, start: i, end };
    }
    // "..., turn red sell": the Heikin Ashi candles named before
    if (this.heikin && (w === "turns" || w === "turn" || w === "turning") && cl.is(i + 1, "red", "green")) {
      const color = cl.is(i + 1, "green") ? "green" : "red";
      const end = cl.is(i + 2, "candle", "candles") ? i + 2 : i + 1;
      return { item: { kind: "heikin", at: i, color, turn: true }, start: i, end };
    }
    const s = this.seriesAt(cl, i);
    if (s) return s;
    switch (w) {
      case "crossover":
      case "cross":
      case "crosses":
      case "crossed":
      case "crossing": {
        // "stochastic crossover below 20": a crossover (upward) made below the level, not a cross down
        if (w === "crossover" && cl.is(i + 1, "below", "under") && cl.num(i + 2) !== undefined)
          return { item: { kind: "cross", at: i, direction: "above" }, start: i, end: i };
        if (cl.is(i + 1, "above", "over", "up"))
          return { item: { kind: "cross", at: i, direction: "above" }, start: i, end: i + 1 };
        if (cl.is(i + 1, "below", "under", "down"))
          return { item: { kind: "cross", at: i, direction: "below" }, start: i, end: i + 1 };
        return { item: { kind: "cross", at: i, direction: null }, start: i, end: i };
      }
      case "crossunder":
        return { item: { kind: "cross", at: i, direction: "below" }, start: i, end: i };
      case "golden":
      case "death":
        if (cl.is(i + 1, "cross")) {
          const pair: SeriesRef[] = [
            { kind: "ma", fn: "sma", length: 50, source: "close" },
            { kind: "ma", fn: "sma", length: 200, source: "close" },
          ];
          // "death cross": the same pair crossing down; the word "cross" is read with it
          if (w === "death") return { item: { kind: "cross", at: i, direction: "below", pair }, start: i, end: i + 1 };
          return { item: { kind: "series", at: i, s: pair }, start: i, end: i };
        }
        return null;
      case "break":
      case "breaks":
      case "broke":
      case "moves":
      case "rises":
      case "drops":
      case "falls":
      case "closes":
      case "close": {
        if (cl.is(i + 1, "out") && cl.is(i + 2, "above", "of"))
          return { item: { kind: "cross", at: i, direction: "above" }, start: i, end: i + 2 };
        const up = cl.is(i + 1, "above", "over", "up");
        const down = cl.is(i + 1, "below", "under", "down");
        if (w === "close" && !up && !down) return this.exitAction(cl, i);
        // "a break of the 10-bar low": the direction is the level's
        if (!up && !down && (w === "break" || w === "breaks" || w === "broke"))
          return { item: { kind: "op", at: i, op: "break" }, start: i, end: cl.is(i + 1, "of") ? i + 1 : i };
        if (!up && !down) return null;
        const crossing = w !== "closes" && w !== "close";
        if (crossing)
          return { item: { kind: "cross", at: i, direction: up ? "above" : "below" }, start: i, end: i + 1 };
        return { item: { kind: "op", at: i, op: up ? "above" : "below" }, start: i, end: i + 1 };
      }
      case "above":
      case "over":
      case "exceeds":
        return { item: { kind: "op", at: i, op: "above" }, start: i, end: i };
      case "below":
      case "under":
        return { item: { kind: "op", at: i, op: "below" }, start: i, end: i };
      case "greater":
      case "higher":
        return { item: { kind: "op", at: i, op: "gt" }, start: i, end: cl.is(i + 1, "than") ? i + 1 : i };
      case "less":
      case "lower":
        if (cl.is(i + 1, "than")) return { item: { kind: "op", at: i, op: "lt" }, start: i, end: i + 1 };
        return null;
      // "breakout above the 55 day high": the level is the one after the word
      case "breakout":
      case "breakouts":
        return {
          item: { kind: "op", at: i, op: "breakout" },
          start: i,
          end: cl.is(i + 1, "above", "over", "of") ? i + 1 : i,
        };
      case "breakdown":
        return {
          item: { kind: "op", at: i, op: "breakdown" },
          start: i,
          end: cl.is(i + 1, "below", "under", "of") ? i + 1 : i,
        };
      case "squeeze":
        return { item: { kind: "op", at: i, op: "squeeze" }, start: i, end: cl.is(i + 1, "breakout") ? i + 1 : i };
      case "bounce":
      case "bounces":
        return { item: { kind: "op", at: i, op: "bounce" }, start: i, end: cl.is(i + 1, "off", "from") ? i + 1 : i };
      case "oversold":
        return { item: { kind: "op", at: i, op: "oversold" }, start: i, end: i };
      // "bollinger mean reversion": buy below the lower band (sell above the upper one)
      case "mean":
        if (cl.is(i + 1, "reversion")) return { item: { kind: "op", at: i, op: "reversion" }, start: i, end: i + 1 };
        return null;
      case "reversion":
        return { item: { kind: "op", at: i, op: "reversion" }, start: i, end: i };
      case "stacked":
      case "stack":
        return { item: { kind: "op", at: i, op: "stacked" }, start: i, end: cl.is(i + 1, "bullish", "up") ? i + 1 : i };
      // "ema 12 crosses ema 26 buy, opposite sell": the rule before, mirrored
      case "opposite":
        return { item: { kind: "op", at: i, op: "opposite" }, start: i, end: i };
      // "ema 50 rising", "hma slope up", "sloping down"
      case "rising":
      case "falling":
        return { item: { kind: "op", at: i, op: w }, start: i, end: i };
      case "slope":
      case "slopes":
      case "sloping": {
        const up = cl.is(i + 1, "up", "upward", "upwards", "positive");
        const down = cl.is(i + 1, "down", "downward", "downwards", "negative");
        if (!up && !down) return null;
        return { item: { kind: "op", at: i, op: up ? "rising" : "falling" }, start: i, end: i + 1 };
      }
      // "tp at the middle band", "take profit at the 20 day high": a signal exit at a line
      case "tp":
      case "target":
      case "targets":
        if (cl.is(i + 1, "at", "on", "when"))
          return { item: { kind: "action", at: i, action: "exit" }, start: i, end: i };
        return null;
      case "take":
        if (cl.is(i + 1, "profit") && cl.is(i + 2, "at", "on", "when"))
          return { item: { kind: "action", at: i, action: "exit" }, start: i, end: i + 1 };
        return null;
      case "overbought":
        return { item: { kind: "op", at: i, op: "overbought" }, start: i, end: i };
      case "buy":
      case "long":
      case "longs":
        return {
          item: { kind: "action", at: i, action: "buy" },
          start: cl.is(i - 1, "go", "enter") ? i - 1 : i,
          end: i,
        };
      case "short":
      case "shorts":
        return {
          item: { kind: "action", at: i, action: "short" },
          start: cl.is(i - 1, "go", "enter", "sell") ? i - 1 : i,
          end: i,
        };
      case "sell":
        if (cl.is(i + 1, "short")) return { item: { kind: "action", at: i, action: "short" }, start: i, end: i + 1 };
        return { item: { kind: "action", at: i, action: "sell" }, start: i, end: i };
      case "exit":
      case "exits":
      case "get":
        return this.exitAction(cl, i);
      case "cover":
        return { item: { kind: "action", at: i, action: "cover" }, start: i, end: i };
      case "plot":
      case "plots":
      case "show":
      case "display":
      case "draw":
        return { item: { kind: "show", at: i }, start: i, end: i };
      default:
        return null;
    }
  }

  /** "exit", "exit short", "close long", "get out". */
  /**
   * Volume against its average: "volume spike > 2x 20-bar average", "vol > 1.5x its 20 sma", "above
   * average volume", "high volume", "relative volume > 2" / "rvol > 2". Lengths and multiples nobody
   * gave are said back (20 bars; 2x for a spike, 1.5x for "high", 1x for "above average").
   */
  private volumeAt(cl: Clause, i: number): { item: Item; start: number; end: number } | null {
    let j = i;
    let op: Comparison | null = null;
    let mult: number | null = null;
    let length: number | null = null;
    let avgSaid = false;
    let relative = false;
    let adjective: "high" | "low" | null = null;
    if (cl.is(i, "above", "below") && cl.is(i + 1, "average", "avg") && cl.is(i + 2, "volume", "vol")) {
      op = cl.is(i, "above") ? ">" : "<";
      mult = 1;
      avgSaid = true;
      j = i + 2;
    } else if (cl.is(i, "high", "heavy", "big", "strong", "low", "light") && cl.is(i + 1, "volume", "vol")) {
      adjective = cl.is(i, "low", "light") ? "low" : "high";
      j = i + 1;
    } else if (cl.is(i, "relative") && cl.is(i + 1, "volume", "vol")) {
      relative = true;
      j = i + 1;
    } else if (cl.is(i, "rvol")) relative = true;
    else if (!cl.is(i, "volume", "vol")) return null;
    let end = j;
    let spike = false;
    if (cl.is(end + 1, "spike", "spikes", "surge", "surges")) {
      spike = true;
      end++;
    }
    // the comparison: ">", "above", "over", "greater/higher/more than", "exceeds", "<", "below", "under"
    let k = end + 1;
    if (cl.is(k, "is")) k++;
    let opHere: Comparison | null = null;
    if (cl.op(k, ">")) opHere = ">";
    else if (cl.op(k, "<")) opHere = "<";
    else if (cl.is(k, "above", "over", "exceeds")) opHere = ">";
    else if (cl.is(k, "below", "under")) opHere = "<";
    else if (cl.is(k, "greater", "higher", "more") && cl.is(k + 1, "than")) {
      opHere = ">";
      k++;
    } else if (cl.is(k, "less", "lower") && cl.is(k + 1, "than")) {
      opHere = "<";
      k++;
    }
    if (opHere && op === null) {
      // the multiple ("2x", "1.5 times"), the length ("20-bar", "its 20 sma"), the average word
      let m = k + 1;
      const n = cl.num(m);
      if (n !== undefined && (cl.is(m + 1, "cross", "x", "times") || relative)) {
        mult = n;
        m += relative && !cl.is(m + 1, "cross", "x", "times") ? 1 : 2;
      }
      if (cl.is(m, "the", "its", "of")) m++;
      if (cl.is(m, "the", "its")) m++;
      const len = cl.num(m);
      if (len !== undefined && Number.isInteger(len) && len > 1 && !relative) {
        const unit = cl.is(m + 1, "bar", "bars", "period", "periods", "candle", "candles") ? 1 : 0;
        if (cl.is(m + 1 + unit, "average", "avg", "ma", "sma", "mean")) {
          length = len;
          m += 1 + unit;
        }
      }
      if (cl.is(m, "average", "avg", "ma", "sma", "mean")) {
        avgSaid = true;
        // "average volume", "sma of volume"
        if (cl.is(m + 1, "of") && cl.is(m + 2, "volume", "vol")) m++;
        if (cl.is(m + 1, "volume", "vol")) m++;
        m++;
      }
      if (avgSaid || (relative && mult !== null)) {
        op = opHere;
        end = m - 1;
        if (mult === null) mult = 1;
      }
    }
    if (op === null) {
      if (spike) {
        op = ">";
        mult = 2;
        this.defaulted("volume spike: volume above 2 x its average");
      } else if (adjective) {
        op = adjective === "high" ? ">" : "<";
        mult = adjective === "high" ? 1.5 : 1;
        this.defaulted(`${adjective} volume: volume ${op} ${mult === 1 ? "" : `${mult} x `}its average`);
      } else return null;
    }
    if (length === null) {
      length = 20;
      this.defaulted("volume average: 20 bars");
    }
    return { item: { kind: "volume", at: i, op, mult: mult ?? 1, length }, start: i, end };
  }

  /**
   * The opening range ("opening range high", "orb low"); "ORB" and "opening range breakout" say the
   * breakout too (an op after the series: up through the high, or down through the low when the
   * clause shorts).
   */
  private openingRangeAt(cl: Clause, i: number): { item: Item; start: number; end: number; extra?: Item } | null {
    const minutes = orbMinutes.get(cl.toks[i]!);
    if (minutes === undefined || cl.used[i]) return null;
    let end = cl.is(i, "orb") ? i : i + 1;
    const said = cl.is(end + 1, "high", "highs", "low", "lows")
      ? cl.is(end + 1, "low", "lows")
        ? "lower"
        : "upper"
      : null;
    if (said) end++;
    const breakout = cl.is(i, "orb") && !cl.is(end + 1, "breakout", "breakouts", "breakdown");
    const item: Item = {
      kind: "series",
      at: i,
      s: said ? [{ kind: "orb", line: said, minutes }] : [],
      family: "orb",
      orbMinutes: minutes,
    };
    if (said) return { item, start: i, end };
    return { item, start: i, end, ...(breakout ? { extra: { kind: "op", at: i, op: "breakout" } } : {}) };
  }

  private exitAction(cl: Clause, i: number): { item: Item; start: number; end: number } | null {
    if (cl.is(i + 1, "short", "shorts"))
      return { item: { kind: "action", at: i, action: "cover" }, start: i, end: i + 1 };
    if (cl.is(i + 1, "long", "longs")) return { item: { kind: "action", at: i, action: "exit" }, start: i, end: i + 1 };
    if (cl.word(i) === "get" && !cl.is(i + 1, "out")) return null;
    return { item: { kind: "action", at: i, action: "exit" }, start: i, end: cl.is(i + 1, "out") ? i + 1 : i };
  }

  private channelItem(
    cl: Clause,
    start: number,
    end: number,
    length: number,
  ): { item: Item; start: number; end: number } {
    const hi = cl.is(end, "high", "highs", "highest");
    const line = hi ? "upper" : "lower";
    const timeframe = calendarUnit(cl, start + 1);
    return {
      item: { kind: "series", at: start, s: [{ kind: "channel", line, length, ...(timeframe ? { timeframe } : {}) }] },
      start,
      end,
    };
  }

  /** A series starting at word `i` (numbers before it included): indicator, band line, price. */
  private seriesAt(cl: Clause, i: number): { item: Item; start: number; end: number } | null {
    const w = cl.word(i);
    if (!w) return null;
    const ma = maWordAt(cl, i);
    if (ma) {
      const before = numbersBefore(cl, i);
      let after = numbersAfter(cl, ma.end, 2);
      // "ema cross 12 26", "moving average crossover 10/40"
      const crossed =
        !before.values.length &&
        !after.values.length &&
        cl.is(ma.end + 1, "cross", "crossover", "crosses", "crossing") &&
        numbersAfter(cl, ma.end + 1, 2).values.length === 2;
      if (crossed) after = numbersAfter(cl, ma.end + 1, 2);
      const lengths = (before.values.length ? before.values : after.values).filter(
        (v) => Number.isInteger(v) && v >= 1,
      );
      // "3 ema crossover" counts averages more often than it gives a length of 3: asked, not guessed
      if (before.values.length === 1 && before.values[0]! <= 3)
        this.intent.unrecognized.push(
          `'${before.values[0]} ${cl.word(i) ?? ma.fn}': ${before.values[0]} averages or a length of ${before.values[0]}? give the lengths (e.g. '${ma.fn} 5/10/20')`,
        );
      const end = before.values.length ? ma.end : Math.max(ma.end, after.end);
      const src = sourceAfter(cl, end);
      const source = src?.field ?? "close";
      // "50 day sma", "sma 50 days": completed days (weeks) on any chart, not 50 bars of an intraday one
      const timeframe = before.values.length
        ? calendarUnit(cl, i - 1)
        : after.values.length
          ? calendarUnit(cl, after.end + 1)
          : undefined;
      const unitEnd = !before.values.length && timeframe ? after.end + 1 : end;
      if (lengths.length === 0) {
        lengths.push(20);
        this.defaulted(`${ma.fn.toUpperCase()} length 20 (none given)`);
      }
      const s: SeriesRef[] = lengths
        .slice(0, 2)
        .sort((a, b) => a - b)
        .map((length) => ({ kind: "ma", fn: ma.fn, length, source, ...(timeframe ? { timeframe } : {}) }));
      // "ema 20 and ema 50" keeps two series; "ema 20/50" is a pair
      return {
        item: { kind: "series", at: i, s, ...(crossed ? { crossed } : {}) },
        start: before.values.length ? before.start : i,
        end: src?.end ?? unitEnd,
      };
    }
    const osc = OSC_WORDS[w];
    if (osc) {
      // "rsi 30 70", "rsi 14 30/70": entry and exit levels
      const lv = levelPair(osc.fn, numbersAfter(cl, i, 3).values);
      if (lv && !this.isLevelPosition(cl, i + 1)) {
        const length = lv.length ?? osc.length;
        if (lv.length === null) this.defaulted(`${w.toUpperCase()} length ${osc.length}`);
        return {
          item: {
            kind: "series",
            at: i,
            s: [{ kind: "osc", fn: osc.fn, length, source: "close" }],
            levels: [lv.lo, lv.hi],
          },
          start: i,
          end: numbersAfter(cl, i, lv.count).end,
        };
      }
      const before = numbersBefore(cl, i);
      const after = numbersAfter(cl, i, 1);
      // "rsi 14 < 30": a first number right after is the length only when another value follows the comparison
      let length = before.values[0] ?? osc.length;
      let end = i;
      if (
        !before.values.length &&
        after.values.length &&
        Number.isInteger(after.values[0]) &&
        after.values[0]! > 1 &&
        after.values[0]! <= 200 &&
        !this.isLevelPosition(cl, after.end)
      ) {
        length = after.values[0]!;
        end = after.end;
      } else if (!before.values.length) this.defaulted(`${w.toUpperCase()} length ${osc.length}`);
      const src = sourceAfter(cl, end);
      return {
        item: { kind: "series", at: i, s: [{ kind: "osc", fn: osc.fn, length, source: src?.field ?? "close" }] },
        start: before.values.length ? before.start : i,
        end: src?.end ?? end,
      };
    }
    if (w === "macd") {
      const after = numbersAfter(cl, i, 3);
      const [fast, slow, signal] = after.values.length === 3 ? after.values : [12, 26, 9];
      this.macd = { fast: fast!, slow: slow!, signal: signal! };
      if (after.values.length !== 3) this.defaulted("MACD 12, 26, 9");
      let end = after.values.length === 3 ? after.end : i;
      let line: "macd" | "signal" | "hist" = "macd";
      if (cl.is(end + 1, "histogram", "hist")) {
        line = "hist";
        end++;
      } else if (cl.is(end + 1, "line")) end++;
      else if (cl.is(end + 1, "signal") && !this.crossNear(cl, i)) {
        line = "signal";
        end++;
      }
      return { item: { kind: "series", at: i, s: [{ kind: "macd", line, ...this.macd }] }, start: i, end };
    }
    if ((w === "signal" || w === "histogram" || w === "hist") && this.macd) {
      const line = w === "signal" ? "signal" : "hist";
      return {
        item: { kind: "series", at: i, s: [{ kind: "macd", line, ...this.macd }] },
        start: i,
        end: cl.is(i + 1, "line") ? i + 1 : i,
      };
    }
    if (w === "stoch" || w === "stochastic") {
      // "stoch rsi": one oscillator, the stochastic of the RSI (not an RSI beside a price stochastic)
      const ofRsi = cl.is(i + 1, "rsi");
      const at = ofRsi ? i + 1 : i;
      // "stochastic 5 3 3": length, %K smoothing, %D smoothing
      const three = ofRsi ? null : numbersAfter(cl, at, 3);
      // smoothing is a few bars: "stoch 14 with 20 and 80 lines" gives levels, not smoothing
      const smooth =
        three &&
        three.values.length === 3 &&
        three.values.every((v) => Number.isInteger(v) && v >= 1) &&
        three.values[1]! <= 10 &&
        three.values[2]! <= 10;
      const after = smooth ? three! : numbersAfter(cl, at, 1);
      const length =
        after.values.length && Number.isInteger(after.values[0]) && !this.isLevelPosition(cl, after.end)
          ? after.values[0]!
          : 14;
      const [smoothK, smoothD] = smooth ? [after.values[1]!, after.values[2]!] : [3, 3];
      this.stoch = { length, smoothK, smoothD, ...(ofRsi ? { rsiLength: 14 } : {}) };
      if (ofRsi) this.defaults.push("Stoch RSI: RSI length 14, %K and %D smoothed over 3");
      let end = length === after.values[0] ? after.end : at;
      let line: "k" | "d" = "k";
      if (cl.is(end + 1, "k")) end++;
      else if (cl.is(end + 1, "d")) {
        line = "d";
        end++;
      }
      return {
        item: {
          kind: "series",
          at: i,
          s: [{ kind: "stoch", line, length, smoothK, smoothD, ...this.stochOf() }],
        },
        start: i,
        end,
      };
    }
    if ((w === "k" || w === "d") && this.stoch) {
      return {
        item: {
          kind: "series",
          at: i,
          s: [
            {
              kind: "stoch",
              line: w,
              length: this.stoch.length,
              smoothK: this.stoch.smoothK,
              smoothD: this.stoch.smoothD,
              ...this.stochOf(),
            },
          ],
        },
        start: i,
        end: i,
      };
    }
    const bandWord = w === "bb" || w === "bollinger" ? "bb" : w === "keltner" || w === "kc" ? "kc" : null;
    if (bandWord) {
      let end = i;
      if (cl.is(end + 1, "band", "bands", "channel", "channels")) end++;
      const after = numbersAfter(cl, end, 2);
      const length =
        after.values[0] && Number.isInteger(after.values[0]) && !this.isLevelPosition(cl, after.end)
          ? after.values[0]
          : 20;
      const mult = after.values[1] ?? (bandWord === "bb" ? 2 : 1.5);
      if (after.values[0] === length) end = after.end;
      this.band = { band: bandWord, length, mult };
      let start = i;
      let line = this.lineWord(cl, i - 1);
      if (line) start = i - 1;
      else {
        line = this.lineWord(cl, end + 1);
        if (line) {
          end++;
          if (cl.is(end + 1, "band", "line")) end++;
        }
      }
      if (!line) return { item: { kind: "series", at: i, s: [], family: bandWord }, start, end };
      return { item: { kind: "series", at: i, s: [{ kind: "band", band: bandWord, line, length, mult }] }, start, end };
    }
    if (w === "donchian" || w === "dc") {
      let end = i;
      if (cl.is(end + 1, "channel", "channels")) end++;
      const after = numbersAfter(cl, end, 1);
      const length = after.values[0] && Number.isInteger(after.values[0]) ? after.values[0] : 20;
      if (after.values.length) end = after.end;
      // "donchian 20 low": high and low name the channel's lines too
      const hiLo = (j: number): "upper" | "lower" | null =>
        cl.is(j, "high", "highs") ? "upper" : cl.is(j, "low", "lows") ? "lower" : null;
      const line = this.lineWord(cl, i - 1) ?? this.lineWord(cl, end + 1) ?? hiLo(end + 1);
      if (!line)
        return {
          item: { kind: "series", at: i, s: [{ kind: "channel", line: "upper", length }], family: "channel" },
          start: i,
          end,
        };
      const start = this.lineWord(cl, i - 1) ? i - 1 : i;
      if (start === i) end++;
      return {
        item: { kind: "series", at: i, s: [{ kind: "channel", line: line === "basis" ? "upper" : line, length }] },
        start,
        end,
      };
    }
    if (
      (w === "upper" || w === "lower" || w === "middle" || w === "mid" || w === "basis") &&
      (cl.is(i + 1, "band", "bands", "bb", "line") || (this.band && !cl.word(i + 1)))
    ) {
      const ctx = this.band ?? { band: "bb" as const, length: 20, mult: 2 };
      return {
        item: { kind: "series", at: i, s: [{ kind: "band", line: this.lineWord(cl, i)!, ...ctx }] },
        start: i,
        end: cl.is(i + 1, "band", "bands", "bb", "line") ? i + 1 : i,
      };
    }
    if (w === "highest" || w === "lowest") {
      // "highest high of 20 bars", "highest 20"
      let j = i + 1;
      if (cl.is(j, "high", "low")) j++;
      if (cl.is(j, "of", "in")) j++;
      if (cl.is(j, "last")) j++;
      const n = cl.num(j);
      if (n !== undefined && Number.isInteger(n)) {
        const end = cl.is(j + 1, "bars", "bar", "days", "day", "weeks", "week", "candles", "periods") ? j + 1 : j;
        const timeframe = calendarUnit(cl, j + 1);
        return {
          item: {
            kind: "series",
            at: i,
            s: [
              {
                kind: "channel",
                line: w === "highest" ? "upper" : "lower",
                length: n,
                ...(timeframe ? { timeframe } : {}),
              },
            ],
          },
          start: i,
          end,
        };
      }
    }
    if (w === "adx" || w === "dmi") {
      const after = numbersAfter(cl, i, 1);
      const length =
        after.values[0] && Number.isInteger(after.values[0]) && !this.isLevelPosition(cl, after.end)
          ? after.values[0]
          : 14;
      const end = length === after.values[0] ? after.end : i;
      if (w === "dmi")
        return {
          item: {
            kind: "series",
            at: i,
            s: [
              { kind: "adx", line: "plus", length },
              { kind: "adx", line: "minus", length },
            ],
          },
          start: i,
          end,
        };
      return { item: { kind: "series", at: i, s: [{ kind: "adx", line: "adx", length }] }, start: i, end };
    }
    if ((w === "plus" || w === "minus") && cl.is(i + 1, "di")) {
      return { item: { kind: "series", at: i, s: [{ kind: "adx", line: w, length: 14 }] }, start: i, end: i + 1 };
    }
    if (w === "vwap") return { item: { kind: "series", at: i, s: [{ kind: "vwap" }] }, start: i, end: i };
    if (w === "supertrend") {
      const after = numbersAfter(cl, i, 2);
      const xs = after.values;
      let factor = 3;
      let atrLength = 10;
      if (xs.length === 2) {
        factor = Math.min(xs[0]!, xs[1]!);
        atrLength = Math.round(Math.max(xs[0]!, xs[1]!));
      } else if (xs.length === 1) {
        if (Number.isInteger(xs[0]) && xs[0]! > 5) atrLength = xs[0]!;
        else factor = xs[0]!;
      } else this.defaulted("Supertrend factor 3, ATR length 10");
      let end = xs.length ? after.end : i;
      // "supertrend flip", "supertrend turns green"
      while (
        cl.is(
          end + 1,
          "flip",
          "flips",
          "turns",
          "turning",
          "turned",
          "change",
          "changes",
          "green",
          "bullish",
          "up",
          "red",
          "bearish",
          "down",
        )
      )
        end++;
      let down = false;
      for (let j = i + 1; j <= end; j++) if (cl.is(j, "red", "bearish", "down")) down = true;
      this.supertrend = { factor, atrLength };
      return { item: { kind: "supertrend", at: i, factor, atrLength, down }, start: i, end };
    }
    // "..., exit when it turns red": the Supertrend named before
    if (
      this.supertrend &&
      (w === "turns" || w === "turning" || w === "turned" || w === "flips") &&
      cl.is(i + 1, "red", "green", "bullish", "bearish")
    ) {
      const down = cl.is(i + 1, "red", "bearish");
      return { item: { kind: "supertrend", at: i, ...this.supertrend, down }, start: i, end: i + 1 };
    }
    const price = PRICE_WORDS[w];
    const closeVerb =
      w === "close" &&
      cl.is(
        i + 1,
        "above",
        "below",
        "over",
        "under",
        "long",
        "longs",
        "short",
        "shorts",
        "position",
        "positions",
        "all",
        "trade",
        "out",
      );
    if (price && !closeVerb && w !== "closes") {
      // "high"/"low" after a number is a channel ("20 day high"), handled by the number
      let end = i;
      if (w === "price" && cl.is(i + 1, "close")) end++;
      return { item: { kind: "series", at: i, s: [{ kind: "price", field: price }] }, start: i, end };
    }
    return null;
  }

  /** "upper"/"lower"/"middle" at `i`. */
  private lineWord(cl: Clause, i: number): "upper" | "lower" | "basis" | null {
    if (cl.is(i, "upper")) return "upper";
    if (cl.is(i, "lower")) return "lower";
    if (cl.is(i, "middle", "mid", "basis")) return "basis";
    return null;
  }

  /** A number at `i` is a comparison level rather than a length when a comparison comes right before it. */
  private isLevelPosition(cl: Clause, i: number): boolean {
    return cl.op(i - 1, "<", ">", "<=", ">=") || cl.is(i - 1, "above", "below", "over", "under");
  }

  private crossNear(cl: Clause, i: number): boolean {
    return cl.is(i + 1, "cross", "crosses", "crossover", "crossing", "crossunder");
  }
}

interface RawRule {
  cond: Condition;
  action: "buy" | "sell" | "short" | "exit" | "cover" | null;
  filterWord: boolean;
}

/** Turns one clause's items into conditions. `subject` carries the last left-hand series across clauses ("rsi<30 buy, >70 sell"). */
/** Conditions whose direction the request did not say ("ema 9/21 cross"): a short-only script takes their mirror. */
const implicitDirection = new WeakSet<Condition>();

function implicit<T extends Condition>(c: T): T {
  implicitDirection.add(c);
  return c;
}

interface RuleState {
  /** The last left-hand series ("rsi<30 buy, >70 sell"). */
  subject: SeriesRef | null;
  /** The last cross ("..., sell when it crosses below"). */
  lastCross: { a: SeriesRef; b: SeriesRef } | null;
  /** The last oscillator mentioned, for "oversold 30" in a later clause. */
  oscillator?: SeriesRef;
  /** Rules read from oscillator levels ("rsi 30 70"), each with its own action. */
  levelRules: { cond: Condition; action: "buy" | "sell" }[];
  /** The conditions of the last clause that had any ("..., opposite -> sell"). */
  lastConds: Condition[];
}

function assemble(
  items: Item[],
  reader: RuleReader,
  state: RuleState,
  intent: Intent,
  filterWord: boolean,
  /** The clause says "level(s)"/"line(s)": numbers left over next to an oscillator are levels to draw. */
  levelWord = false,
): Condition[] {
  const conds: Condition[] = [];
  const usedItems = new Set<number>();
  for (const it of items)
    if (it.kind === "series" && (it.s[0]?.kind === "osc" || it.s[0]?.kind === "stoch")) state.oscillator = it.s[0];
  const seriesBefore = (k: number): SeriesRef[] | null => {
    for (let j = k - 1; j >= 0; j--) {
      const it = items[j]!;
      if (it.kind === "series" && !usedItems.has(j)) {
        usedItems.add(j);
        return it.s.length ? it.s : familyDefault(it.family, "upper", reader);
      }
      if (it.kind === "cross" || it.kind === "op") break;
    }
    return null;
  };
  const familyOf = (k: number, dir: -1 | 1): Item | null => {
    for (let j = k + dir; j >= 0 && j < items.length; j += dir) {
      const it = items[j]!;
      if (it.kind === "series" && !usedItems.has(j)) return it;
      if (it.kind === "cross" || it.kind === "op") return null;
    }
    return null;
  };
  const seriesAfter = (k: number, line: "upper" | "lower"): SeriesRef | null => {
    for (let j = k + 1; j < items.length; j++) {
      const it = items[j]!;
      if ((it.kind === "series" || it.kind === "value") && !usedItems.has(j)) {
        usedItems.add(j);
        if (it.kind === "value") return { kind: "value", value: it.value };
        const s = it.s.length ? it.s : familyDefault(it.family, line, reader);
        return s[0] ?? null;
      }
      if (it.kind === "cross" || it.kind === "op") return null;
    }
    return null;
  };
  const close: SeriesRef = { kind: "price", field: "close" };
  /** The right side of the last comparison and its item, for a chain ("a > b > c"). */
  let chain: { at: number; s: SeriesRef } | null = null;
  const stackedWord = items.some((x) => x.kind === "op" && x.op === "stacked");

  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.kind === "supertrend") {
      usedItems.add(k);
      const bear = items.some((x) => x.kind === "action" && (x.action === "short" || x.action === "sell"));
      const down = it.down || (bear && !items.some((x) => x.kind === "action" && x.action === "buy"));
      const c: Condition = {
        kind: "supertrend",
        direction: down ? "down" : "up",
        factor: it.factor,
        atrLength: it.atrLength,
      };
      conds.push(bear || it.down ? c : implicit(c));
      continue;
    }
    if (it.kind === "heikin") {
      usedItems.add(k);
      const bear = items.some((x) => x.kind === "action" && (x.action === "short" || x.action === "sell"));
      if (it.color === null) {
        intent.unrecognized.push("Heikin Ashi with no colour (say 'heikin ashi turns green')");
        continue;
      }
      const c: Condition = { kind: "heikin", color: it.color, turn: it.turn };
      conds.push(it.color === "green" && !bear ? implicit(c) : c);
      continue;
    }
    if (it.kind === "volume") {
      usedItems.add(k);
      conds.push({ kind: "volume", op: it.op, mult: it.mult, length: it.length });
      continue;
    }
    if (it.kind === "cross" && it.pair) {
      // a death cross: the golden pair crossing down, a sell unless the clause says otherwise
      usedItems.add(k);
      const cond: Condition = { kind: "cross", direction: "below", a: it.pair[0]!, b: it.pair[1]! };
      if (items.some((x) => x.kind === "action")) conds.push(cond);
      else state.levelRules.push({ cond, action: "sell" });
      continue;
    }
    if (it.kind === "cross") {
      usedItems.add(k);
      const fam = familyOf(k, 1) ?? familyOf(k, -1);
      const leftItem = familyOf(k, -1);
      let left = seriesBefore(k);
      const dir = it.direction ?? "above";
      const mark = <T extends Condition>(c: T): T => (it.direction === null ? implicit(c) : c);
      // a pair ("ema 20/50 crossover"): the shorter crosses the longer
      if (left && left.length === 2) {
        const [a, b] = left;
        conds.push(mark({ kind: "cross", direction: dir, a: a!, b: b! }));
        state.lastCross = { a: a!, b: b! };
        state.subject = a!;
        continue;
      }
      const leftFamily = leftItem?.kind === "series" && leftItem.s.length === 0 && leftItem.family;
      let right = seriesAfter(k, dir === "above" ? "upper" : "lower");
      // "macd crossover ... with a 200 ema filter": a MACD or %K line crosses its own signal line
      const partnerOf = (l: SeriesRef | undefined): SeriesRef | null =>
        l?.kind === "macd" && l.line === "macd"
          ? { ...l, line: "signal" }
          : l?.kind === "stoch" && l.line === "k"
            ? { ...l, line: "d" }
            : null;
      const partner = partnerOf(left?.[0]);
      if (partner && right && right.kind !== partner.kind && right.kind !== "value") {
        for (let j = k + 1; j < items.length; j++) {
          const x = items[j]!;
          if (x.kind === "series" && x.s[0] === right) usedItems.delete(j);
        }
        right = partner;
      }
      // "fast ema 5 slow ema 13 crossover": two single averages before the cross
      if (left?.length === 1 && left[0]!.kind === "ma" && !right) {
        const other = seriesBefore(k);
        if (other?.length === 1 && other[0]!.kind === "ma") {
          const [a, b] = [other[0]!, left[0]!].sort(
            (x, y) => (x as { length: number }).length - (y as { length: number }).length,
          );
          conds.push(mark({ kind: "cross", direction: dir, a: a!, b: b! }));
          state.lastCross = { a: a!, b: b! };
          state.subject = a!;
          continue;
        }
      }
      // "..., sell when it crosses below": the previous cross, the other way
      if (!right && (!left || (state.subject && left[0] === state.subject)) && state.lastCross) {
        conds.push({ kind: "cross", direction: dir, ...state.lastCross });
        continue;
      }
      if (left && !right) {
        // "macd cross" -> signal, "stoch cross" -> %D, "+di cross" -> -DI
        const l = left[0]!;
        if (l.kind === "macd" && l.line === "macd") right = { ...l, line: "signal" };
        else if (l.kind === "stoch" && l.line === "k") right = { ...l, line: "d" };
        else if (l.kind === "adx" && l.line === "plus") right = { ...l, line: "minus" };
        // "vwap crossover", "ema 200 cross": the price crosses the line
        else if (l.kind === "ma" || l.kind === "vwap" || l.kind === "band" || l.kind === "channel") {
          right = l;
          left = [close];
        } else if (leftFamily) {
          right = familyDefault(leftFamily, dir === "above" ? "upper" : "lower", reader)[0]!;
          left = [close];
        }
      }
      // "the 50 crosses above the 200": two bare lengths are simple moving averages (said back)
      const bare =
        k > 0 && items[k - 1]!.kind === "value" && !usedItems.has(k - 1) ? (items[k - 1] as { value: number }) : null;
      const isLength = (v: number): boolean => Number.isInteger(v) && v >= 2 && v <= 1000;
      if (
        !left &&
        bare &&
        right?.kind === "value" &&
        isLength(bare.value) &&
        isLength(right.value) &&
        !(state.subject && isOscillator(state.subject))
      ) {
        usedItems.add(k - 1);
        const a: SeriesRef = { kind: "ma", fn: "sma", length: Math.min(bare.value, right.value), source: "close" };
        const b: SeriesRef = { kind: "ma", fn: "sma", length: Math.max(bare.value, right.value), source: "close" };
        reader.defaults.push(
          `'the ${bare.value} crosses the ${right.value}' read as SMA(${bare.value}) and SMA(${right.value})`,
        );
        const first = bare.value < right.value ? a : b;
        const second = first === a ? b : a;
        conds.push(mark({ kind: "cross", direction: dir, a: first, b: second }));
        state.lastCross = { a: first, b: second };
        state.subject = first;
        continue;
      }
      // a level with nothing named before it belongs to the rule's series, else to the oscillator the
      // request named ("rsi 14 strategy, buy under 30"), else to the price
      const levelOwner = state.subject ?? state.oscillator ?? null;
      if (!left) left = levelOwner && right?.kind === "value" ? [levelOwner] : [close];
      if (!right && fam?.kind === "series" && fam.s.length === 0)
        right = familyDefault(fam.family, dir === "above" ? "upper" : "lower", reader)[0]!;
      if (!right) {
        intent.unrecognized.push(`a cross of ${seriesLabel(left[0]!)} with nothing named to cross`);
        continue;
      }
      conds.push(mark({ kind: "cross", direction: dir, a: left[0]!, b: right }));
      state.lastCross = { a: left[0]!, b: right };
      state.subject = left[0]!;
      continue;
    }
    if (it.kind !== "op") continue;
    usedItems.add(k);
    switch (it.op) {
      case "above":
      case "below":
      case "gt":
      case "lt": {
        const op: Comparison = it.op === "above" || it.op === "gt" ? ">" : "<";
        const rightAt = k + 1;
        let right = seriesAfter(k, op === ">" ? "upper" : "lower");
        let left = seriesBefore(k)?.[0] ?? null;
        // a chain ("ema 8 > ema 21 > ema 55", "ema 8 > 21 > 55 stacked"): the last comparison's right
        // side is this one's left; bare lengths in a chain of averages are averages of the same kind
        const chained =
          !left &&
          chain !== null &&
          chain.at === k - 1 &&
          chain.s.kind !== "value" &&
          itemEnd.get(items[k - 1]!) === it.at - 1;
        if (chained) left = chain!.s;
        const next = items[k + 2];
        const chainGoesOn = next?.kind === "op" && ["gt", "lt", "above", "below"].includes(next.op);
        if (
          left?.kind === "ma" &&
          right?.kind === "value" &&
          Number.isInteger(right.value) &&
          right.value >= 2 &&
          (chained || chainGoesOn || stackedWord)
        )
          right = { ...left, length: right.value };
        chain = right ? { at: rightAt, s: right } : null;
        // "buy when close crosses the 50 ema, sell when below": the pair of the last cross
        if (!right && !left && state.lastCross) {
          conds.push({ kind: "compare", op, a: state.lastCross.a, b: state.lastCross.b });
          continue;
        }
        if (!right) {
          intent.unrecognized.push(`'${it.op === "gt" ? ">" : it.op === "lt" ? "<" : it.op}' with nothing after it`);
          continue;
        }
        const owner = state.subject ?? state.oscillator ?? null;
        if (!left) left = right.kind === "value" && owner ? owner : close;
        conds.push({ kind: "compare", op, a: left, b: right });
        state.subject = left;
        break;
      }
      case "stacked":
        // the chain said it ("ema 8 > 21 > 55 stacked"); alone it names no order
        if (!conds.some((c) => c.kind === "compare" && c.a.kind === "ma" && c.b.kind === "ma"))
          intent.unrecognized.push("'stacked' without the averages in order (say 'ema 8 > 21 > 55 stacked')");
        break;
      case "breakout":
      case "breakdown": {
        const up = it.op === "breakout";
        const fam = familyOf(k, -1) ?? familyOf(k, 1);
        let level: SeriesRef;
        if (fam?.kind === "series" && fam.s.length === 0)
          level = familyDefault(fam.family, up ? "upper" : "lower", reader, fam.orbMinutes)[0]!;
        else if (
          fam?.kind === "series" &&
          (fam.s[0]!.kind === "channel" || fam.s[0]!.kind === "band" || fam.s[0]!.kind === "orb")
        ) {
          const s = fam.s[0]!;
          level = s.kind === "channel" || s.kind === "orb" ? { ...s, line: up ? "upper" : "lower" } : s;
        } else {
          level = { kind: "channel", line: up ? "upper" : "lower", length: 20 };
          if (!fam) reader.defaults.push("breakout of the 20-bar high/low (no length given)");
        }
        if (fam) usedItems.add(items.indexOf(fam));
        // "donchian breakout 55", "breakout 20": the window's length right after the word
        const next = items[k + 1];
        if (
          level.kind === "channel" &&
          next?.kind === "value" &&
          !usedItems.has(k + 1) &&
          Number.isInteger(next.value) &&
          next.value >= 2
        ) {
          usedItems.add(k + 1);
          level = { ...level, length: next.value };
          reader.defaults = reader.defaults.filter((d) => !d.startsWith("breakout of the 20-bar"));
        }
        conds.push({ kind: "cross", direction: up ? "above" : "below", a: close, b: level });
        break;
      }
      case "break": {
        const fam = familyOf(k, 1) ?? familyOf(k, -1);
        const s =
          fam?.kind === "series"
            ? (fam.s[0] ??
              (fam.family === "orb" ? familyDefault("orb", "upper", reader, fam.orbMinutes)[0] : undefined))
            : undefined;
        if (!s || (s.kind !== "channel" && s.kind !== "band" && s.kind !== "orb")) {
          intent.unrecognized.push("a break of nothing named (say 'the 20-bar high')");
          continue;
        }
        usedItems.add(items.indexOf(fam!));
        conds.push({ kind: "cross", direction: s.line === "lower" ? "below" : "above", a: close, b: s });
        break;
      }
      case "squeeze": {
        const ctx = reader.band ?? { band: "bb", length: 20, mult: 2 };
        const fam = familyOf(k, -1) ?? familyOf(k, 1);
        if (fam) usedItems.add(items.indexOf(fam));
        const bear = items.some((x) => x.kind === "action" && (x.action === "short" || x.action === "sell"));
        const c: Condition = {
          kind: "squeeze",
          direction: bear ? "down" : "up",
          length: ctx.length,
          bbMult: ctx.band === "bb" ? ctx.mult : 2,
          kcMult: 1.5,
        };
        conds.push(bear ? c : implicit(c));
        break;
      }
      case "bounce": {
        const level = seriesAfter(k, "lower") ?? seriesBefore(k)?.[0] ?? null;
        if (!level) {
          intent.unrecognized.push("a bounce off nothing named");
          continue;
        }
        const fromAbove = level.kind === "band" && level.line === "upper";
        conds.push({ kind: "cross", direction: fromAbove ? "below" : "above", a: close, b: level });
        break;
      }
      case "reversion": {
        const fam = familyOf(k, -1) ?? familyOf(k, 1);
        const band =
          fam?.kind === "series" && (fam.family === "bb" || fam.family === "kc" || fam.s[0]?.kind === "band")
            ? fam
            : null;
        if (!band) {
          intent.unrecognized.push(
            "mean reversion to nothing named (say 'bollinger mean reversion' or 'buy below the lower band')",
          );
          continue;
        }
        usedItems.add(items.indexOf(band));
        const bear = items.some((x) => x.kind === "action" && (x.action === "short" || x.action === "sell"));
        const line = familyDefault(band.family ?? "bb", bear ? "upper" : "lower", reader)[0]!;
        const c: Condition = { kind: "compare", op: bear ? ">" : "<", a: close, b: line };
        conds.push(bear ? c : implicit(c));
        break;
      }
      case "opposite": {
        const m = state.lastConds.length ? mirrorAll(state.lastConds) : null;
        if (!m) {
          intent.unrecognized.push("'opposite' of no rule before it");
          continue;
        }
        conds.push(...m);
        break;
      }
      case "rising":
      case "falling": {
        // "hull 20 rising buy, falling sell": the series of the rule before
        const s = seriesBefore(k)?.[0] ?? seriesAfter(k, "upper") ?? state.subject;
        if (!s || s.kind === "value") {
          intent.unrecognized.push(`'${it.op}' of nothing named`);
          continue;
        }
        conds.push({ kind: "slope", direction: it.op === "rising" ? "up" : "down", a: s });
        state.subject = s;
        break;
      }
      case "oversold":
      case "overbought": {
        const before = seriesBefore(k)?.[0];
        const isOsc = (x: SeriesRef | null | undefined): x is SeriesRef => x?.kind === "osc" || x?.kind === "stoch";
        const s: SeriesRef = isOsc(before)
          ? before
          : isOsc(state.subject)
            ? state.subject
            : (state.oscillator ?? { kind: "osc", fn: "rsi", length: 14, source: "close" });
        const key = s.kind === "osc" ? s.fn : s.kind === "stoch" ? "stoch" : null;
        const lo = key ? OVERSOLD[key] : undefined;
        if (lo === undefined) {
          intent.unrecognized.push(`${it.op} for ${seriesLabel(s)} (no standard level)`);
          continue;
        }
        // "oversold 30", "overbought at 70": the level given right after
        const given = items[k + 1]?.kind === "value" ? (items[k + 1] as { value: number }).value : undefined;
        if (given !== undefined) usedItems.add(k + 1);
        const level =
          given ??
          (it.op === "oversold"
            ? lo
            : (mirror({ kind: "compare", op: "<", a: s, b: { kind: "value", value: lo } }) as { b: { value: number } })
                .b.value);
        const cond: Condition = {
          kind: "compare",
          op: it.op === "oversold" ? "<" : ">",
          a: s,
          b: { kind: "value", value: level },
        };
        // with no action in the clause, oversold is a buy and overbought a sell
        if (items.some((x) => x.kind === "action")) conds.push(cond);
        else state.levelRules.push({ cond, action: it.op === "oversold" ? "buy" : "sell" });
        state.subject = s;
        break;
      }
    }
  }
  // "buy at the lower band", "exit on the 10-day low", "cover at the middle band": the close reaching the line
  const action = (items.find((x) => x.kind === "action") as { action: string } | undefined)?.action;
  if (conds.length === 0 && action) {
    const lines = items.filter(
      (x, k): x is Extract<Item, { kind: "series" }> =>
        x.kind === "series" &&
        !usedItems.has(k) &&
        x.s.length === 1 &&
        (x.s[0]!.kind === "band" || x.s[0]!.kind === "channel"),
    );
    if (lines.length === 1) {
      const s = lines[0]!.s[0] as Extract<SeriesRef, { kind: "band" | "channel" }>;
      usedItems.add(items.indexOf(lines[0]!));
      const op: Comparison =
        s.line === "upper" ? ">" : s.line === "lower" ? "<" : action === "sell" || action === "exit" ? ">" : "<";
      conds.push({ kind: "compare", op, a: close, b: s });
    }
  }
  // "shorts when rsi goes above 75 and covers at 50", "buy at 30": the oscillator reaching a level,
  // from above for buy/cover, from below for sell/short/exit
  const owner = state.subject ?? state.oscillator;
  if (conds.length === 0 && action && owner && isOscillator(owner)) {
    const k = items.findIndex((x, j) => x.kind === "value" && !usedItems.has(j));
    if (k >= 0) {
      usedItems.add(k);
      const op: Comparison = action === "buy" || action === "cover" ? "<" : ">";
      conds.push({ kind: "compare", op, a: owner, b: { kind: "value", value: (items[k] as { value: number }).value } });
    }
  }
  // "with a 200 ema trend filter": the close on the right side of a lone average
  if (!action && filterWord) {
    const k = items.findIndex(
      (x, j) => x.kind === "series" && !usedItems.has(j) && x.s.length === 1 && x.s[0]!.kind === "ma",
    );
    if (k >= 0) {
      usedItems.add(k);
      conds.push({ kind: "compare", op: ">", a: close, b: (items[k] as { s: SeriesRef[] }).s[0]! });
    }
  }
  // a moving-average pair with no operator: a crossover ("ema 20/50 strategy")
  if (conds.length === 0) {
    for (let k = 0; k < items.length; k++) {
      const it = items[k]!;
      if (
        it.kind === "series" &&
        it.s.length === 2 &&
        it.s[0]!.kind === "ma" &&
        !usedItems.has(k) &&
        !items.some((x) => x.kind === "show")
      ) {
        usedItems.add(k);
        conds.push(implicit({ kind: "cross", direction: "above", a: it.s[0]!, b: it.s[1]! }));
        state.lastCross = { a: it.s[0]!, b: it.s[1]! };
        if (!it.crossed)
          reader.defaults.push(`${seriesLabel(it.s[0]!)} / ${seriesLabel(it.s[1]!)} read as a crossover`);
      }
    }
  }
  // "rsi 30 70": buy below the low level, sell above the high one
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.kind !== "series" || !it.levels || usedItems.has(k)) continue;
    usedItems.add(k);
    const s = it.s[0]!;
    state.levelRules.push({
      cond: { kind: "compare", op: "<", a: s, b: { kind: "value", value: it.levels[0] } },
      action: "buy",
    });
    state.levelRules.push({
      cond: { kind: "compare", op: ">", a: s, b: { kind: "value", value: it.levels[1] } },
      action: "sell",
    });
    state.subject = s;
  }
  // series left without a rule: shown when asked ("plot rsi"), named when a title follows
  const show = items.some((x) => x.kind === "show");
  for (let k = 0; k < items.length; k++) {
    const it = items[k]!;
    if (it.kind === "name") {
      const prev = items
        .slice(0, k)
        .reverse()
        .find((x) => x.kind === "series" && x.s.length > 0) as Extract<Item, { kind: "series" }> | undefined;
      if (prev) intent.namedPlots.push({ series: prev.s[prev.s.length - 1]!, title: it.title });
      else intent.unrecognized.push(`the title '${it.title}' (no series before it to name)`);
      continue;
    }
    if (it.kind !== "series" || usedItems.has(k)) continue;
    const ss = it.s.length
      ? it.s
      : familyDefault(it.family, "upper", reader).concat(familyDefault(it.family, "lower", reader));
    if (show || conds.length === 0) intent.shown.push(...ss);
    else if (!it.s.length || it.s[0]!.kind !== "price") intent.shown.push(...ss);
  }
  const oscillatorHere = items.some((x) => x.kind === "series" && (x.s[0]?.kind === "osc" || x.s[0]?.kind === "stoch"));
  items.forEach((it, k) => {
    if (it.kind !== "value" || usedItems.has(k)) return;
    // a number next to the rules that none of them uses is not dropped silently
    if (conds.length) {
      intent.unrecognized.push(`${it.value} (a number no rule uses)`);
      return;
    }
    if (levelWord && oscillatorHere) {
      if (!intent.levels.includes(it.value)) {
        intent.levels.push(it.value);
        intent.understood.push(`level ${it.value} drawn`);
      }
    } else if (!show) intent.unrecognized.push(String(it.value));
  });
  return conds;
}

function familyDefault(
  family: "bb" | "kc" | "channel" | "orb" | undefined,
  line: "upper" | "lower",
  reader: RuleReader,
  orbMinutes = 15,
): SeriesRef[] {
  if (family === "channel") return [{ kind: "channel", line, length: 20 }];
  if (family === "orb") return [{ kind: "orb", line, minutes: orbMinutes }];
  const ctx = reader.band ?? { band: family === "kc" ? ("kc" as const) : ("bb" as const), length: 20, mult: 2 };
  return [{ kind: "band", band: ctx.band, line, length: ctx.length, mult: ctx.mult }];
}

// ---------------------------------------------------------------- the whole request

const ACTIONS = new Set(["buy", "sell", "short", "long", "exit", "cover"]);
const SIDES = new Set(["long", "short"]);
/** Direction words that say nothing of a rule's condition ("long only donchian 55 breakout"). */
const SIDE_WORDS = new Set(["long", "short", "only", "both", "longs", "shorts"]);

/** Positions of action words that are rules' actions, not direction phrases ("long only", "long and short"). */
function actionPositions(c: Token[]): number[] {
  const w = (i: number): string | undefined => (c[i]?.kind === "word" ? c[i]!.text : undefined);
  const out: number[] = [];
  for (let i = 0; i < c.length; i++) {
    const t = w(i);
    if (!t || !ACTIONS.has(t)) continue;
    if (SIDES.has(t) && (w(i + 1) === "only" || w(i - 1) === "only")) continue;
    // "exit long", "close short": the side of the exit, not a rule of its own
    if (SIDES.has(t) && (w(i - 1) === "exit" || w(i - 1) === "close")) continue;
    if (
      SIDES.has(t) &&
      ((w(i + 1) === "and" && SIDES.has(w(i + 2) ?? "")) || (w(i - 1) === "and" && SIDES.has(w(i - 2) ?? "")))
    )
      continue;
    if (
      SIDES.has(t) &&
      (SIDES.has(w(i + 1) ?? "") || SIDES.has(w(i - 1) ?? "") || c[i + 1]?.text === "/" || c[i - 1]?.text === "/")
    )
      continue;
    out.push(i);
  }
  return out;
}

/**
 * Clauses: split at punctuation, and where one clause holds two rules: "buy when rsi < 30 sell when
 * rsi > 70" (action first: split before each later action) or "mfi below 20 buy above 80 sell"
 * (action last: split after each action but the last).
 */
function clausesOf(tokens: Token[]): Token[][] {
  const out: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === "sep") out.push([]);
    else out[out.length - 1]!.push(t);
  }
  const LEAD = new Set(["and", "then", "go", "enter"]);
  const split: Token[][] = [];
  for (const c of out) {
    const acts = actionPositions(c);
    if (acts.length < 2) {
      // "donchian 55 breakout exit donchian 20 low": a closing action between two conditions starts
      // the second rule (the first one, with no action, is the entry)
      const a = acts[0];
      const word = (t: Token | undefined): string | undefined => (t?.kind === "word" ? t.text : undefined);
      const ruleWord = (t: Token): boolean =>
        t.kind === "num" ||
        (t.kind === "word" && !isStopword(t.text) && !FILLER.has(t.text) && !SIDE_WORDS.has(t.text));
      if (
        a !== undefined &&
        ["exit", "cover", "sell"].includes(word(c[a])!) &&
        c.slice(0, a).some(ruleWord) &&
        c.slice(a + 1).some(ruleWord) &&
        !["long", "longs", "short", "shorts"].includes(word(c[a + 1]) ?? "")
      ) {
        split.push(c.slice(0, a), c.slice(a));
        continue;
      }
      split.push(c);
      continue;
    }
    let first = 0;
    while (first < c.length && c[first]!.kind === "word" && LEAD.has(c[first]!.text)) first++;
    // "buy when ...", "write a strategy that buys when ...": an action followed by its condition
    const actionFirst =
      acts[0] === first ||
      (c[acts[0]! + 1]?.kind === "word" && ["when", "if", "on", "once", "at", "as"].includes(c[acts[0]! + 1]!.text));
    const cuts: number[] = [];
    if (actionFirst) {
      for (const a of acts.slice(1)) {
        let cut = a;
        while (cut > 0 && c[cut - 1]!.kind === "word" && LEAD.has(c[cut - 1]!.text)) cut--;
        cuts.push(cut);
      }
    } else for (const a of acts.slice(0, -1)) cuts.push(a + 1);
    let start = 0;
    for (const cut of cuts) {
      split.push(c.slice(start, cut));
      start = cut;
    }
    split.push(c.slice(start));
  }
  // "rsi < 30 and close > sma 200, or macd crosses up": a clause opening with "or" is an alternative
  // of the rule before it, not a rule of its own
  const merged: Token[][] = [];
  for (const c of split) {
    if (!c.length) continue;
    const prev = merged[merged.length - 1];
    if (prev && c[0]!.kind === "word" && c[0]!.text === "or") prev.push(...c);
    else merged.push(c);
  }
  return merged;
}

/** Reads a request. Never throws: an empty or unreadable request gives an intent with no rules. */
export function understand(text: string): Intent {
  const intent = emptyIntent();
  const { tokens, corrections } = lex(text);
  intent.corrections = corrections;
  const clauses = clausesOf(tokens).map((t) => new Clause(t));
  const kind = { strategy: false, indicator: false };
  const said: { direction?: Intent["direction"] } = {};
  let rr: { value: number } | null = null;
  readPartialTargets(clauses, intent);
  for (const cl of clauses) {
    readBreakeven(cl, intent);
    // "only take trades when ...", "take longs above the 200 ema": "take" says trade, not a take profit
    for (let i = 0; i < cl.toks.length; i++)
      if (cl.is(i, "take") && cl.is(i + 1, "trade", "trades", "longs", "shorts", "entries", "positions")) cl.use(i);
  }
  for (const cl of clauses) {
    readTitleAndKind(cl, intent, kind);
    readDates(cl, intent);
    readSession(cl, intent);
    readPyramiding(cl, intent);
    readMaxBars(cl, intent);
    readDayEnd(cl, intent);
    readSizing(cl, intent);
    readOpeningRange(cl, intent);
    readTimeframe(cl, intent);
    noteDayLengths(cl, intent);
    rr = readExits(cl, intent, rr);
    readDirection(cl, intent, said);
    readAlerts(cl, intent);
  }
  if (intent.breakeven?.unit === "r" && !intent.stop) {
    intent.unrecognized.push(`breakeven after ${intent.breakeven.value}R without a stop to measure R from`);
    intent.breakeven = null;
  }
  if (rr && !intent.target) {
    if (intent.stop) {
      intent.target = { ...intent.stop, value: round(intent.stop.value * rr.value) };
      intent.understood.push(`take profit: ${rr.value}R = ${distanceLabel(intent.target)} from the entry`);
    } else intent.unrecognized.push(`a ${rr.value}R target without a stop to measure R from`);
  }

  const reader = new RuleReader(intent);
  const rules: RawRule[] = [];
  const state: RuleState = { subject: null, lastCross: null, levelRules: [], lastConds: [] };
  // "buy the dip: rsi below 25": an action alone in its clause is the action of the next clause's
  // conditions (when that clause names none of its own)
  let pending: { action: Extract<Item, { kind: "action" }>; text: string } | null = null;
  const reportPending = (): void => {
    if (pending) intent.unrecognized.push(`'${pending.action.action}' without a condition in "${pending.text}"`);
    pending = null;
  };
  clauses.forEach((cl, ci) => {
    const filterWord = cl.has("only", "filter", "trend", "while") || cl.has("if");
    const items = reader.items(cl);
    const carried = pending !== null && !items.some((x) => x.kind === "action");
    if (carried) items.unshift({ ...pending!.action, at: -1 });
    const carriedFrom = carried ? pending!.text : null;
    if (!carried) reportPending();
    pending = null;
    // "a and b or c": the conditions between two "or"s are one alternative (Pine's precedence: "and"
    // binds tighter than "or"); the clause's action applies to every alternative
    const groups = orGroups(cl, items);
    const groupConds = groups.map((g) =>
      assemble(g, reader, state, intent, filterWord, cl.has("level", "levels", "line", "lines")),
    );
    const conds = groupConds.flat();
    const action =
      (items.find((x) => x.kind === "action") as Extract<Item, { kind: "action" }> | undefined)?.action ?? null;
    if (!conds.length && action) {
      const own = items.find((x) => x.kind === "action") as Extract<Item, { kind: "action" }>;
      if (!carried && ci + 1 < clauses.length && items.every((x) => x.kind === "action"))
        pending = { action: own, text: clauseText(cl) };
      else intent.unrecognized.push(`'${action}' without a condition in "${carriedFrom ?? clauseText(cl)}"`);
    }
    const levelRules = state.levelRules.splice(0);
    if (cl.says("or")) distributeCross(conds);
    // the groups again, with the crosses "or" carried over
    let at = 0;
    const alternatives = groupConds
      .map((g) => conds.slice(at, (at += g.length)))
      .filter((g) => g.length > 0)
      .map((g): Condition => (g.length === 1 ? g[0]! : { kind: "all", of: g }));
    // Trade rules need trade wording (buy/sell/long/short/enter/exit). A clause without it that asks
    // for an alert ("alert when rsi crosses below 30 or above 70") gives one alert per condition, so
    // its conditions are alternatives; one that asks for levels or lines ("plot rsi with overbought
    // 70 and oversold 30 lines") draws its oscillator levels.
    const tradeWording = action !== null || cl.says(...TRADE_WORDS);
    if (!tradeWording && cl.says(...ALERT_WORDS)) {
      for (const cond of [...conds, ...levelRules.map((r) => r.cond)]) addAlertRule(intent, cond);
    } else if (!tradeWording && cl.says("level", "levels", "line", "lines")) {
      for (const cond of [...conds, ...levelRules.map((r) => r.cond)]) {
        if (cond.kind === "compare" && cond.b.kind === "value" && isOscillator(cond.a)) addLevel(intent, cond);
        else rules.push({ cond, action, filterWord });
      }
    } else {
      // "buy when rsi < 30 or close < lower band": one rule with alternatives, not all of them required
      if (alternatives.length > 1) {
        const any: Condition = { kind: "any", of: alternatives };
        if (alternatives.some((a) => a.kind === "all"))
          intent.understood.push(`precedence: 'and' binds tighter than 'or' (as in Pine): ${conditionLabel(any)}`);
        conds.splice(0, conds.length, any);
      }
      for (const cond of conds) rules.push({ cond, action, filterWord });
      for (const lr of levelRules) rules.push({ cond: lr.cond, action: lr.action, filterWord: false });
      if (conds.length) state.lastConds = [...conds];
    }
    for (const w of ["only", "filter", "trend", "when", "if", "while"]) {
      const at = cl.find([w]);
      if (at >= 0 && conds.length) cl.use(at);
    }
  });
  reportPending();
  resolveRoles(intent, rules, said.direction, kind);
  for (const d of reader.defaults) intent.understood.push(`default: ${d}`);
  for (const cl of clauses) reportLeftovers(cl, intent);
  if (!intent.title) intent.title = titleOf(intent);
  return intent;
}

/**
 * The clause's items cut at each "or" (alternatives); action items go with every group, since "rsi
 * oversold or macd cross, buy" buys on either. One group when the clause has no "or".
 */
function orGroups(cl: Clause, items: Item[]): Item[][] {
  const ors: number[] = [];
  cl.toks.forEach((t, i) => {
    if (t.kind === "word" && t.text === "or" && !cl.used[i]) ors.push(i);
  });
  if (!ors.length) return [items];
  const groups: Item[][] = ors.map(() => []).concat([[]]);
  const actions = items.filter((x) => x.kind === "action");
  for (const it of items) {
    if (it.kind === "action") continue;
    groups[ors.filter((o) => o < it.at).length]!.push(it);
  }
  return groups.filter((g) => g.length > 0).map((g) => [...g, ...actions].sort((a, b) => a.at - b.at));
}

/**
 * "crosses below 30 or above 70": the verb carries over the "or", so a bare comparison of the series
 * that just crossed is a cross too (read alone it would be a state, "rsi > 70").
 */
function distributeCross(conds: Condition[]): void {
  let last: Extract<Condition, { kind: "cross" }> | null = null;
  for (let i = 0; i < conds.length; i++) {
    const c = conds[i]!;
    if (c.kind === "cross") last = c;
    else if (last && c.kind === "compare" && JSON.stringify(c.a) === JSON.stringify(last.a))
      conds[i] = { kind: "cross", direction: c.op === ">" ? "above" : "below", a: c.a, b: c.b };
  }
}

/** Words that make a clause's conditions trade rules rather than alerts or levels to draw. */
const TRADE_WORDS = [
  "buy",
  "sell",
  "long",
  "longs",
  "short",
  "shorts",
  "enter",
  "entry",
  "exit",
  "cover",
  "trade",
  "strategy",
];

const ALERT_WORDS = ["alert", "alerts", "notify", "notification", "notifications", "webhook"];

function isOscillator(s: SeriesRef): boolean {
  return s.kind === "osc" || s.kind === "stoch";
}

function addAlertRule(intent: Intent, cond: Condition): void {
  const key = JSON.stringify(cond);
  if (intent.alertRules.some((c) => JSON.stringify(c) === key)) return;
  intent.alertRules.push(cond);
  intent.understood.push(`alert: ${conditionLabel(cond)}`);
  // the oscillator alerted on is drawn, so the alert can be seen
  const a = cond.kind === "cross" || cond.kind === "compare" ? cond.a : null;
  if (a && isOscillator(a) && !intent.shown.some((s) => JSON.stringify(s) === JSON.stringify(a))) intent.shown.push(a);
}

/** An oscillator level named without a trade ("overbought 70", "30/70 levels"): drawn, the oscillator shown. */
function addLevel(intent: Intent, cond: Extract<Condition, { kind: "compare" }>): void {
  if (cond.b.kind !== "value") return;
  const value = cond.b.value;
  if (!intent.levels.includes(value)) {
    intent.levels.push(value);
    intent.understood.push(`level ${value} drawn`);
  }
  const key = JSON.stringify(cond.a);
  if (!intent.shown.some((s) => JSON.stringify(s) === key)) intent.shown.push(cond.a);
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function clauseText(cl: Clause): string {
  return cl.toks.map((t) => t.text).join(" ");
}

function resolveRoles(
  intent: Intent,
  rules: RawRule[],
  said: Intent["direction"] | undefined,
  kind: { strategy: boolean; indicator: boolean },
): void {
  const hasEvent = rules.some((r) => isEvent(r.cond));
  const wantsShort = rules.some((r) => r.action === "short");
  const wantsLong = rules.some((r) => r.action === "buy");
  const direction: Intent["direction"] = said ?? (wantsShort && wantsLong ? "both" : wantsShort ? "short" : "long");
  intent.direction = direction;
  for (const r of rules) {
    // volume confirms another rule's entries ("ema cross, volume > 2x average"): a filter, so the
    // opposite-signal exit is not made to wait for a volume spike too
    if (
      r.cond.kind === "volume" &&
      r.action !== "sell" &&
      r.action !== "exit" &&
      r.action !== "cover" &&
      rules.some((x) => x.cond.kind !== "volume")
    ) {
      intent.filters.push(r.cond);
      continue;
    }
    // a state with no action next to an event rule is a filter ("... above the 200 ema")
    if (
      !r.action &&
      !isEvent(r.cond) &&
      (hasEvent || r.filterWord) &&
      rules.some((x) => x !== r && (isEvent(x.cond) || x.action))
    ) {
      intent.filters.push(direction === "short" ? (mirror(r.cond) ?? r.cond) : r.cond);
      continue;
    }
    const a = r.action;
    if (direction === "short") {
      if (a === null && implicitDirection.has(r.cond)) intent.shortEntry.push(mirror(r.cond) ?? r.cond);
      else if (a === "short" || a === "sell" || a === null) intent.shortEntry.push(r.cond);
      else intent.shortExit.push(r.cond);
    } else if (direction === "long") {
      if (a === "buy" || a === null) intent.longEntry.push(r.cond);
      else if (a === "short")
        intent.unrecognized.push(`a short rule (${conditionLabel(r.cond)}) in a long-only request`);
      else if (a === "cover")
        intent.unrecognized.push(`a rule to cover shorts (${conditionLabel(r.cond)}) in a long-only request`);
      else intent.longExit.push(r.cond);
    } else {
      if (a === "buy" || a === null) intent.longEntry.push(r.cond);
      else if (a === "short" || a === "sell") intent.shortEntry.push(r.cond);
      else if (a === "cover") intent.shortExit.push(r.cond);
      else intent.longExit.push(r.cond);
    }
  }
  // the same condition said twice ("bollinger mean reversion, buy below the lower band") is one
  const unique = (cs: Condition[]): Condition[] =>
    cs.filter((c, i) => cs.findIndex((d) => canonical(d) === canonical(c)) === i);
  intent.longEntry = unique(intent.longEntry);
  intent.shortEntry = unique(intent.shortEntry);
  intent.longExit = unique(intent.longExit);
  intent.shortExit = unique(intent.shortExit);
  // the other side's signal is the mirror image where the request gave one side only
  const exitsGiven = intent.stop || intent.target || intent.trail || intent.maxBars !== null;
  if (direction === "both") {
    if (!intent.shortEntry.length && intent.longEntry.length) intent.shortEntry = mirrorAll(intent.longEntry) ?? [];
    if (!intent.longEntry.length && intent.shortEntry.length) intent.longEntry = mirrorAll(intent.shortEntry) ?? [];
  } else if (direction === "long" && !intent.longExit.length && !exitsGiven && intent.longEntry.length) {
    const m = mirrorAll(intent.longEntry);
    if (m) {
      intent.longExit = m;
      intent.understood.push("exit: the opposite signal (no stop or target given)");
    }
  } else if (direction === "short" && !intent.shortExit.length && !exitsGiven && intent.shortEntry.length) {
    const m = mirrorAll(intent.shortEntry);
    if (m) {
      intent.shortExit = m;
      intent.understood.push("exit: the opposite signal (no stop or target given)");
    }
  }
  const entries = [...intent.longEntry, ...intent.shortEntry];
  if (entries.length && leaves(entries).every((c) => c.kind === "volume") && !rules.some((r) => r.action))
    intent.unrecognized.push(
      `${conditionLabel(entries[0]!)} alone says no direction: pair it with an entry ("ema 9/21 cross with volume > 2x average")`,
    );
  const trades = intent.longEntry.length + intent.shortEntry.length > 0;
  const tradeWords =
    intent.stop ||
    intent.target ||
    intent.trail ||
    intent.partialTarget ||
    intent.sizing ||
    said ||
    rules.some((r) => r.action);
  intent.script = kind.strategy || (!kind.indicator && (tradeWords || trades)) ? "strategy" : "indicator";
  if (intent.script === "strategy" && !trades)
    intent.unrecognized.push("no entry rule: say when to buy or sell (e.g. 'buy when rsi < 30')");
  if (intent.script === "strategy" && !intent.sizing)
    intent.understood.push("default: 10% of equity per trade (no size given)");
  if (intent.script === "strategy")
    intent.understood.unshift(`script: strategy, ${direction === "both" ? "long and short" : `${direction} only`}`);
  else intent.understood.unshift("script: indicator");
  for (const c of intent.longEntry) intent.understood.push(`long entry: ${conditionLabel(c)}`);
  for (const c of intent.shortEntry) intent.understood.push(`short entry: ${conditionLabel(c)}`);
  for (const c of intent.longExit) intent.understood.push(`long exit: ${conditionLabel(c)}`);
  for (const c of intent.shortExit) intent.understood.push(`short exit: ${conditionLabel(c)}`);
  for (const c of intent.filters) intent.understood.push(`filter: ${conditionLabel(c)}`);
  for (const p of intent.namedPlots) intent.understood.push(`plot: ${seriesLabel(p.series)} titled "${p.title}"`);
  if (intent.sizing?.kind === "risk" && !intent.stop && intent.trail)
    intent.understood.push("position size: the risk is measured to the trailing stop's first level");
  else if (intent.sizing?.kind === "risk" && !intent.stop) {
    intent.unrecognized.push(`risk ${intent.sizing.value}% per trade without a stop to size from`);
    intent.sizing = null;
  }
}

/** A condition as text with its keys sorted, so two spellings of one condition compare equal. */
function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(",")}]`;
  if (x && typeof x === "object")
    return `{${Object.keys(x)
      .sort()
      .map((k) => `${k}:${canonical((x as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(x);
}

function reportLeftovers(cl: Clause, intent: Intent): void {
  let run: string[] = [];
  const flush = (): void => {
    if (run.length) intent.unrecognized.push(run.join(" "));
    run = [];
  };
  for (let i = 0; i < cl.toks.length; i++) {
    const t = cl.toks[i]!;
    if (cl.used[i]) {
      flush();
      continue;
    }
    const meaningless =
      (t.kind === "word" && (isStopword(t.text) || FILLER.has(t.text))) || (t.kind === "op" && t.text !== "%");
    if (meaningless) {
      flush();
      continue;
    }
    if (t.kind === "num" && intent.unrecognized.includes(t.text)) continue;
    run.push(t.kind === "hours" || t.kind === "dates" ? t.text : t.text);
  }
  flush();
}

function titleOf(intent: Intent): string {
  // alternatives are named after the first one
  const first = leaves([intent.longEntry[0] ?? intent.shortEntry[0]].filter((c) => c !== undefined))[0];
  let name: string;
  if (!first) name = intent.shown.length ? intent.shown.map(seriesLabel).join(" + ") : "Generated";
  else if (first.kind === "cross" && first.a.kind === "ma" && first.b.kind === "ma")
    name = `${first.a.fn === first.b.fn ? first.a.fn.toUpperCase() : `${first.a.fn.toUpperCase()}/${first.b.fn.toUpperCase()}`} ${first.a.length}/${first.b.length} Cross`;
  else if (first.kind === "squeeze") name = "BB Squeeze Breakout";
  else if (first.kind === "cross" && first.a.kind === "macd") name = "MACD Cross";
  else if (first.kind === "cross" && first.a.kind === "stoch") name = "Stochastic Cross";
  else if (first.kind === "supertrend") name = "Supertrend Flip";
  else if (first.kind === "heikin") name = "Heikin Ashi";
  else if (first.kind === "cross" && first.b.kind === "orb") name = `${first.b.minutes}-Minute Opening Range Breakout`;
  else if (first.kind === "cross" && first.b.kind === "channel")
    name = `${first.b.length}-${first.b.timeframe === "D" ? "Day" : first.b.timeframe === "W" ? "Week" : "Bar"} Breakout`;
  else if ((first.kind === "compare" || first.kind === "cross") && first.a.kind === "osc" && first.b.kind === "value")
    name = `${first.a.fn.toUpperCase()} ${first.b.value}`;
  else name = conditionLabel(first);
  return intent.script === "strategy" ? `${name} Strategy` : name;
}

export { conditionLabel, seriesLabel };
