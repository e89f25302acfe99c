// Request text to tokens for the offline grammar: the shorthand traders write is spelled out first
// ("ema20/50" -> ema 20 / 50, "rsi<30" -> rsi < 30, "w/" -> with, "x-over" -> crossover, "9:30-16:00"
// -> one session token, "2019-2022" -> one date-range token), then words that are not in the
// grammar's vocabulary are corrected to the one vocabulary word within a small edit distance
// ("stratgy" -> strategy); a word with no unique close match is left alone, and the grammar reports
// it as not understood.

export type TokenKind = "word" | "num" | "op" | "sep" | "quote" | "hours" | "dates";

export interface Token {
  kind: TokenKind;
  text: string;
  /** num: the value; */
  value?: number;
  /** hours: "HHMM-HHMM"; dates: "from|to" ISO dates (either may be empty). */
  detail?: string;
}

/** Every word the grammar reads (typo correction targets only these). */
export const VOCABULARY = new Set(
  `strategy backtest indicator study script system bot
   strat long short only both sides side direction directions reverse reversal
   buy sell enter entry entries exit exits close closes closing cover go get out take
   stop loss stoploss sl tp profit target targets limit trailing trail trailstop atr atrs percent pct points pts ticks
   risk reward rr ratio
   sma ema wma rma smma hma hull vwma ma mas moving average averages exponential simple weighted
   rsi cci mfi wpr williams roc rate change momentum mom macd signal histogram hist line
   stoch stochastic k d bb bollinger band bands keltner kc channel channels donchian dc
   upper lower middle basis mid squeeze breakout breakouts breakdown break breaks broke
   supertrend adx dmi di plus minus vwap
   price close open high low hl2 hlc3 ohlc4 highs lows highest lowest
   cross crosses crossing crossed crossover crossunder golden death above below over under up down
   greater less than higher lower exceeds drops falls rises moves bounce bounces touches touch
   oversold overbought flip flips turns green red bullish bearish
   session sessions trade trading hours rth between from to until since after before
   new york ny nyc london tokyo sydney chicago frankfurt berlin hong kong singapore utc gmt est edt et eastern cst ct central cet jst exchange time zone timezone
   asia asian european europe american us
   weekdays weekday monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri weekends
   am pm
   equity capital account size sizing position contracts contract shares share lots lot units unit qty quantity cash usd per
   alert alerts notify notification notifications webhook message
   plot plots show display draw named called as title
   filter trend when if while and or with then of on the a an at is are x by for in my me i want
   length period periods bar bars day days daily candle candles week weeks
   make create write give please can you using use based
   fast slow default
   pyramiding pyramid hold holding max maximum rising falling slope slopes sloping no skip except excluding avoid never
   weekend weekends mean reversion sun tues thur thurs sat ways positive negative opposite back
   eod flat overnight intraday times scalp scalping swing
   volume vol spike spikes surge relative rvol avg heavy
   orb opening range minute minutes min mins stacked stack
   half rest remainder remaining scale book breakeven even
   heikin ashi candle candles`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words kept verbatim even though they are not grammar words (never "corrected"). */
const STOPWORDS = new Set(
  `a an the it its this that these those of on in at to for with and or is are be been was were when then than if
   i me my we our you your please pls can could would should will just also some any each every per
   do does using use based into onto off via like want need but u ur`.split(/\s+/),
);

export function isStopword(w: string): boolean {
  return STOPWORDS.has(w);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * Tokens recognised before the text is split (quotes, session hours, date ranges) wait in `slots`;
 * the text holds a marker made of a private-use character and letters, which no later rewrite touches.
 */
class Slots {
  readonly tokens: Token[] = [];
  mark(t: Token): string {
    const letters = String(this.tokens.length).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
    this.tokens.push(t);
    return ` \uE000${letters}\uE000 `;
  }
  read(marker: string): Token | undefined {
    const m = /^\uE000([a-j]+)\uE000$/.exec(marker);
    if (!m) return undefined;
    return this.tokens[Number(m[1]!.replace(/[a-j]/g, (c) => String(c.charCodeAt(0) - 97)))];
  }
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

/** "9", "30", "pm" -> "2130"; null when out of range. */
function clock(h: string, m: string | undefined, ampm: string | undefined): string | null {
  let hour = Number(h);
  const minute = m ? Number(m) : 0;
  if (ampm === "pm" && hour < 12) hour += 12;
  if (ampm === "am" && hour === 12) hour = 0;
  if (hour > 24 || minute > 59) return null;
  return pad2(hour) + pad2(minute);
}

/** Session ranges to one placeholder: "9:30-16:00", "930-1600", "9:30am to 4pm", "between 8am and 11am". */
function sessionRanges(text: string, slots: Slots): string {
  const t = String.raw`(\d{1,2})(?::(\d{2}))?\s*(am|pm)?`;
  const range = new RegExp(String.raw`(?:between\s+|from\s+)?\b${t}\s*(?:-|to|until|till|and)\s*${t}(?![\d:])`, "g");
  return text.replace(range, (whole, h1, m1, ap1, h2, m2, ap2) => {
    // plain "20-50" or "14 and 3" is not a time: a clock needs minutes or am/pm on one side
    if (!(m1 || m2 || ap1 || ap2)) return whole;
    const a = clock(h1, m1, ap1 ?? (ap2 === "pm" && Number(h1) > Number(h2) ? "am" : ap2));
    const b = clock(h2, m2, ap2);
    return a && b ? slots.mark({ kind: "hours", text: whole.trim(), detail: `${a}-${b}` }) : whole;
  });
}

/** "0930-1600" (four digits each side, hours below 25) as a session too. */
function compactSessions(text: string, slots: Slots): string {
  return text.replace(/\b([01]\d|2[0-4])([0-5]\d)\s*-\s*([01]\d|2[0-4])([0-5]\d)\b/g, (w, a, b, c, d) =>
    slots.mark({ kind: "hours", text: w, detail: `${a}${b}-${c}${d}` }),
  );
}

function monthIndex(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3));
}

/**
 * Date ranges to one placeholder: "2019-2022" / "from 2019 to 2022" (whole years), "since 2021",
 * "after 2021-03-01", "before 2023", ISO dates, "jan 2020".
 */
function dateRanges(text: string, slots: Slots): string {
  const monthNames = "jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec";
  const date = String.raw`(\d{4}-\d{2}-\d{2}|(?:${monthNames})[a-z]*\.?\s+\d{4}|(?:19|20)\d{2})`;
  const toIso = (d: string, end: boolean): string => {
    if (/^\d{4}-\d{2}-\d{2}$/.test(d)) return d;
    const m = /^([a-z]+)\.?\s+(\d{4})$/.exec(d);
    if (m) {
      const mi = monthIndex(m[1]!);
      const y = Number(m[2]);
      return end ? (mi === 11 ? `${y + 1}-01-01` : `${y}-${pad2(mi + 2)}-01`) : `${y}-${pad2(mi + 1)}-01`;
    }
    return end ? `${Number(d) + 1}-01-01` : `${d}-01-01`;
  };
  let out = text.replace(
    new RegExp(String.raw`(?:from\s+|between\s+)?\b${date}\s*(?:-|to|until|till|and|through)\s*${date}`, "g"),
    (w, a, b) => slots.mark({ kind: "dates", text: w, detail: `${toIso(a, false)}|${toIso(b, true)}` }),
  );
  out = out.replace(new RegExp(String.raw`\b(since|from|after|starting)\s+${date}`, "g"), (w, _k, a) =>
    slots.mark({ kind: "dates", text: w, detail: `${toIso(a, false)}|` }),
  );
  out = out.replace(new RegExp(String.raw`\b(before|until|till)\s+${date}`, "g"), (w, _k, a) =>
    slots.mark({ kind: "dates", text: w, detail: `|${toIso(a, false)}` }),
  );
  return out;
}

/** Spells out the shorthand; quoted strings were already swapped for placeholders. */
function spellOut(text: string, slots: Slots): string {
  let s = text.toLowerCase();
  s = s
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/≤/g, "<=")
    .replace(/≥/g, ">=");
  s = s.replace(/\bw\/o\b/g, " without ").replace(/\bw\//g, " with ");
  // arrows between a condition and its action ("ema 12 crosses ema 26 -> buy") separate nothing
  s = s.replace(/->|=>|→/g, " ");
  // "takeprofit", "take-profit"; "vice versa" is the opposite rule
  s = s.replace(/\btake-?profit\b/g, " take profit ").replace(/\bvice[- ]versa\b/g, " opposite ");
  // "turns positive" / "goes negative": crosses zero
  s = s.replace(/\b(?:turns?|turning|goes|flips?)\s+(positive|negative)\b/g, (_w, sign) =>
    sign === "positive" ? " crosses above 0 " : " crosses below 0 ",
  );
  // "end of day", "end-of-day", "session end", "end of session", "market close": one word
  s = s
    .replace(/\bend[- ]of[- ](?:the[- ])?(?:day|session|trading day)\b/g, " eod ")
    .replace(/\b(?:session|market|day)\s+(?:end|close)\b/g, " eod ");
  // "long entry rsi<35, long exit rsi>65, short exit ...": the side's own action words
  s = s
    .replace(/\blong\s+(?:entry|entries)\b/g, " buy ")
    .replace(/\blong\s+exits?\b/g, " exit long ")
    .replace(/\bshort\s+(?:entry|entries)\b/g, " short ")
    .replace(/\bshort\s+exits?\b/g, " cover ");
  // "yesterday's high", "previous day's low", "pdh": the completed day before, a one-day window
  s = s
    .replace(/\b(?:yesterday|previous day|prior day|prev day|last day)(?:'?s)?\s+(high|low)\b/g, " 1 day $1 ")
    .replace(/\b(?:last|previous|prior) week(?:'?s)?\s+(high|low)\b/g, " 1 week $1 ")
    .replace(/\bpdh\b/g, " 1 day high ")
    .replace(/\bpdl\b/g, " 1 day low ");
  // "macd crosses signal from below zero": the crossing series was below the level
  s = s.replace(/\bfrom\s+(below|above|under|over)\b/g, " and $1 ");
  // "stop 2x", "target 3x": a multiple (of the ATR the clause names), not a cross
  s = s.replace(
    /\b(stop|sl|tp|target|trail|trailing|profit|loss|stoploss)\s+(\d+(?:\.\d+)?)\s*x\b(?!\s*atr)/g,
    " $1 $2 times ",
  );
  // "crosses back below": the direction is what counts
  s = s.replace(/\bback\s+(?=(?:above|below|over|under|up|down|into|inside)\b)/g, "");
  // "L/S", "l&s": both sides
  s = s.replace(/\bl\s*[/&]\s*s\b/g, " long short ");
  s = s.replace(/\b(?:x|cross)[- ]?over\b/g, " crossover ").replace(/\b(?:x|cross)[- ]?under\b/g, " crossunder ");
  s = s
    .replace(/\bwilliams\s*%?\s*r\b/g, " wpr ")
    .replace(/%\s*r\b/g, " wpr ")
    .replace(/\bwilliams\s+wpr\b/g, " wpr ");
  s = s.replace(/\bzero\b/g, " 0 ");
  // commas inside parentheses separate arguments, not clauses: "supertrend(10, 3)"
  s = s.replace(/\(([^()]*)\)/g, (m) => m.replace(/,/g, " "));
  s = s.replace(/\+\s*di\b|\bdi\s*\+/g, " plus di ").replace(/-\s*di\b|\bdi\s*-(?!\d)/g, " minus di ");
  s = s.replace(/\b(hl2|hlc3|ohlc4)\b/g, (w) => slots.mark({ kind: "word", text: w }));
  s = dateRanges(s, slots);
  s = sessionRanges(s, slots);
  s = compactSessions(s, slots);
  // "1:2" risk-reward
  s = s.replace(/\b(\d+(?:\.\d+)?)\s*:\s*(\d+(?:\.\d+)?)\b/g, " $1 ratio $2 ");
  // glued numbers and words: ema20 -> ema 20, 20ema -> 20 ema, 1.5atr -> 1.5 atr, 2x -> 2 x
  s = s.replace(/([a-z])(\d)/g, "$1 $2").replace(/(\d)([a-z])/g, "$1 $2");
  s = s.replace(/(\d)\s*%/g, "$1 % ");
  s = s.replace(/\$\s*(\d)/g, " usd $1");
  s = s.replace(/(<=|>=|<|>|\/|=)/g, " $1 ");
  // a lone "x" is a cross ("macd x signal", "ema9/21 x"), except as a multiplier before atr ("1.5x atr")
  s = s.replace(/(^|\s)x(?=[\s,;.!?]|$)(?!\s*atrs?\b)/g, "$1cross");
  // "vwap reclaim": the price crosses back above the line; "loses vwap": below
  s = s.replace(/\breclaim(?:s|ed|ing)?\b/g, " crosses above ").replace(/\b(?:loses|lost)\b/g, " crosses below ");
  // "20-day" -> 20 day; "20-50" (after dates and sessions took theirs) -> a pair like 20/50
  s = s.replace(/([a-z0-9])-(?=[a-z])/g, "$1 ").replace(/(\d)\s*-\s*(?=\d)/g, "$1 / ");
  s = s.replace(/&/g, " and ");
  // sentence punctuation separates clauses; a dot between digits is a decimal point
  s = s
    .replace(/(\d)\.(\d)/g, "$1§dot$2")
    .replace(/[,;!?\n]|\.(?!\d)|:(?=\s)|\s-\s|\s+then\s+/g, " | ")
    .replace(/§dot/g, ".");
  s = s.replace(/[()[\]{}:*'"`]/g, " ");
  return s;
}

/** Damerau-Levenshtein distance with an early exit past `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) rows.push([i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    let best = Infinity;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
  }
  return rows[a.length]![b.length]!;
}

const SHORT_TARGETS = new Set([
  "buy",
  "ema",
  "sma",
  "wma",
  "hma",
  "rma",
  "rsi",
  "cci",
  "mfi",
  "wpr",
  "roc",
  "atr",
  "adx",
  "dmi",
]);

/** Short typos no edit distance can tell from other short words. */
const SHORT_TYPOS: Record<string, string> = {
  sel: "sell",
  lng: "long",
  shrt: "short",
  byu: "buy",
  biy: "buy",
  los: "loss",
  lon: "long",
  tgt: "target",
};

/**
 * The unique vocabulary word nearest to `w` (1 edit up to 6 letters, 2 beyond), else null. Of the
 * three-letter words only indicator and action names are targets, from four-letter words with the
 * same first letter ("emaa", "buuy"), so "moon" does not become "mon".
 */
export function correct(w: string): string | null {
  const short = SHORT_TYPOS[w];
  if (short) return short;
  if (w.length < 4) return null;
  const max = w.length > 6 ? 2 : 1;
  let bestD = max + 1;
  let nearest: string[] = [];
  for (const v of VOCABULARY) {
    if (v.length < 3 || (v.length === 3 && !(w.length === 4 && w[0] === v[0] && SHORT_TARGETS.has(v)))) continue;
    const d = editDistance(w, v, max);
    if (d < bestD) {
      nearest = [v];
      bestD = d;
    } else if (d === bestD) nearest.push(v);
  }
  if (nearest.length === 1) return nearest[0]!;
  // a tie is broken by the first letter, which typos rarely change ("emma": ema, not smma)
  const sameStart = nearest.filter((v) => v[0] === w[0]);
  return sameStart.length === 1 ? sameStart[0]! : null;
}

/** A plural or -ing form the vocabulary holds in its base form ("crossovers" -> crossover). */
function stem(w: string): string | null {
  for (const suffix of ["s", "es", "ing", "ed"]) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length);
      if (VOCABULARY.has(base)) return base;
    }
  }
  return null;
}

export interface Lexed {
  tokens: Token[];
  corrections: string[];
}

export function lex(text: string): Lexed {
  const slots = new Slots();
  // quoted titles ("plot ema 20 as 'Fast'") keep their case and spaces
  const unquoted = text
    .replace(/\uE000/g, " ")
    .replace(/"([^"]+)"|(?<![A-Za-z])'([^']+)'(?![A-Za-z])|“([^”]+)”/g, (_w, a, b, c) =>
      slots.mark({ kind: "quote", text: a ?? b ?? c }),
    );
  const spelled = spellOut(unquoted, slots);
  const tokens: Token[] = [];
  const corrections: string[] = [];
  for (const raw of spelled.split(/\s+/)) {
    if (!raw) continue;
    const slot = slots.read(raw);
    if (slot) {
      tokens.push(slot);
      continue;
    }
    if (raw === "|") {
      if (tokens.length && tokens[tokens.length - 1]!.kind !== "sep") tokens.push({ kind: "sep", text: "|" });
      continue;
    }
    if (/^-?\d+(\.\d+)?$/.test(raw)) {
      tokens.push({ kind: "num", text: raw, value: Number(raw) });
      continue;
    }
    if (/^(<=|>=|<|>|\/|=|%|-|\+)$/.test(raw)) {
      tokens.push({ kind: "op", text: raw });
      continue;
    }
    const word = raw.replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, "");
    if (!word) continue;
    if (VOCABULARY.has(word) || STOPWORDS.has(word)) {
      tokens.push({ kind: "word", text: word });
      continue;
    }
    const base = stem(word);
    if (base) {
      tokens.push({ kind: "word", text: base });
      continue;
    }
    const fixed = correct(word);
    if (fixed) corrections.push(`read '${word}' as '${fixed}'`);
    tokens.push({ kind: "word", text: fixed ?? word });
  }
  while (tokens.length && tokens[tokens.length - 1]!.kind === "sep") tokens.pop();
  return { tokens, corrections };
}
