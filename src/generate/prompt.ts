// The LLM backend's prompt: the rules a script must follow to pass resin's verifier, the request,
// and the catalogue entries (parameters with their types, return types) of the builtins the request
// is about, so the model writes calls that check rather than calls it half remembers. Repair rounds
// add the previous script and what resin found wrong with it.

import { CATALOG } from "../catalog/index.js";
import type { ProposalRequest } from "./backend.js";
import type { Intent, SeriesRef } from "./intent.js";
import { ruleLeaves } from "./intent.js";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

const SYSTEM = `You write TradingView Pine Script v6 for resin, which runs Pine outside TradingView.
Reply with exactly one fenced code block (\`\`\`pine ... \`\`\`) holding the whole script and nothing else.
Rules:
- Start with //@version=6. Use strategy() when the request trades (entries, exits, stops, targets), else indicator().
- Entries with strategy.entry; stops, targets and trailing stops with strategy.exit(id, from_entry, stop =, limit =, trail_offset =).
- A trading session is a filter: not na(time(timeframe.period, "HHMM-HHMM", "Area/City")) ANDed into the entry conditions.
- A date range is a filter on time with timestamp().
- Alerts with alert(message, alert.freq_once_per_bar_close) where the signal fires.
- Give every plot() the title the request asks for.
- A length in days or weeks on an intraday chart ("20 day high") reads completed higher-timeframe bars:
  request.security(syminfo.tickerid, "D", ta.highest(high, 20)[1], lookahead = barmerge.lookahead_on), never lookahead on the current bar.
  An average in days ("50 day sma") likewise: timeframe.isintraday ? request.security(syminfo.tickerid, "D", ta.sma(close, 50)[1],
  lookahead = barmerge.lookahead_on) : ta.sma(close, 50), each call on its own line (not inside the ternary).
- "a and b or c" means (a and b) or c, as in Pine ("and" binds tighter than "or"); write the parentheses.
- Days ruled out ("no trades fridays") are a session filter on days: time(timeframe.period, "0000-0000:123457") (1 = Sunday ... 7 = Saturday).
- "exit after N bars": strategy.close_all() once bar_index - strategy.opentrades.entry_bar_index(0) >= N - 1, so the trade closes N bars after its entry.
- "pyramiding N": strategy(..., pyramiding = N).
- "flat by end of day" / "no overnight positions": if session.islastbar, strategy.close_all(immediately = true).
- "slope up"/"rising": the series above its value one bar back (x > x[1]).
- "15 min opening range breakout" / "ORB": var orHigh/orLow reset to the bar's high/low when timeframe.change("D") (or at the session's open when a session is given), widened with math.max/math.min while time < the day's start + 15 * 60000; enter on ta.crossover(close, orHigh), short on ta.crossunder(close, orLow).
- "take half at 2%, rest at 4%": two strategy.exit calls from the same entry, the first with qty_percent = 50 and limit at +2% (and the stop), the second with limit at +4% (and the stop) for the rest.
- "move stop to breakeven after 1%" (or "after 1R", R = the stop's distance): a var bool set once high reaches strategy.position_avg_price * 1.01 while in the position (reset when flat); the exit's stop is position_avg_price when it is set.
- "heikin ashi candles turn green": [haOpen, haClose] = request.security(ticker.heikinashi(syminfo.tickerid), timeframe.period, [open, close]); green is haClose > haOpen, turning green adds haClose[1] <= haOpen[1].
- "ema 8 > 21 > 55 stacked": each pair in order, ema8 > ema21 and ema21 > ema55.
- "volume spike > 2x 20-bar average" / "above average volume": volume > 2 * ta.sma(volume, 20) (volume > ta.sma(volume, 20)), a filter ANDed into the entries.
- Use only the builtins listed below or ones you are sure exist in Pine v6; no libraries, no other symbols.`;

/** Builtin names an intent needs. */
function seriesNames(s: SeriesRef): string[] {
  switch (s.kind) {
    case "ma":
    case "osc":
      return [`ta.${s.fn}`];
    case "macd":
      return ["ta.macd"];
    case "stoch":
      return ["ta.stoch", "ta.sma"];
    case "band":
      return [`ta.${s.band}`];
    case "channel":
      return ["ta.highest", "ta.lowest"];
    case "adx":
      return ["ta.dmi"];
    case "vwap":
      return ["ta.vwap"];
    case "orb":
      return ["timeframe.change", "math.max", "math.min"];
    default:
      return [];
  }
}

export function builtinsFor(text: string, intent: Intent, previous?: string): string[] {
  const names = new Set<string>();
  const series: SeriesRef[] = [...intent.shown, ...intent.namedPlots.map((p) => p.series)];
  for (const c of ruleLeaves(intent)) {
    if (c.kind === "cross" || c.kind === "compare") series.push(c.a, c.b);
    if (c.kind === "slope") series.push(c.a);
    if (c.kind === "cross") names.add(c.direction === "above" ? "ta.crossover" : "ta.crossunder");
    if (c.kind === "squeeze") names.add("ta.bb").add("ta.kc");
    if (c.kind === "supertrend") names.add("ta.supertrend");
    if (c.kind === "heikin") names.add("request.security").add("ticker.heikinashi");
    if (c.kind === "volume") names.add("ta.sma").add("volume");
  }
  for (const s of series) for (const n of seriesNames(s)) names.add(n);
  if (intent.script === "strategy") names.add("strategy").add("strategy.entry").add("strategy.close");
  else names.add("indicator").add("plotshape").add("alertcondition");
  if (intent.stop || intent.target || intent.trail || intent.partialTarget || intent.breakeven)
    names.add("strategy.exit");
  if ([intent.stop, intent.target, intent.trail].some((d) => d?.unit === "atr")) names.add("ta.atr");
  if (intent.session) names.add("time").add("input.session");
  if (series.some((s) => (s.kind === "ma" || s.kind === "channel") && s.timeframe)) names.add("request.security");
  if (intent.maxBars !== null) names.add("strategy.close_all").add("strategy.opentrades.entry_bar_index");
  if (intent.flatAtDayEnd) names.add("strategy.close_all");
  if (intent.dateRange) names.add("timestamp");
  if (intent.alerts) names.add("alert");
  names.add("plot");
  // builtins the request or the previous script names by their last segment ("supertrend", "ta.rsi")
  const mentioned: string[] = text.toLowerCase().match(/[a-z_][a-z0-9_.]*/g) ?? [];
  const called: string[] = previous?.match(/\b[a-z_][a-z0-9_.]*(?=\()/g) ?? [];
  const words = new Set([...mentioned, ...called]);
  for (const name of Object.keys(CATALOG.functions)) {
    const last = name.split(".").pop()!;
    if (words.has(name) || (name.startsWith("ta.") && words.has(last))) names.add(name);
  }
  return [...names].filter((n) => CATALOG.functions[n]).sort();
}

/** One catalogue entry as a line: `ta.rsi(source: series int/float, length: simple int) -> series float`. */
export function catalogueLine(name: string): string {
  const fn = CATALOG.functions[name]!;
  const list = fn.lists[fn.lists.length - 1] ?? fn.params;
  const params = list.map((p) => `${p}${fn.optional.includes(p) ? "?" : ""}: ${fn.types[p] ?? "any"}`);
  return `${name}(${params.join(", ")}) -> ${fn.returns.join(" | ")}`;
}

export function buildMessages(request: ProposalRequest): ChatMessage[] {
  const names = builtinsFor(request.text, request.intent, request.previous?.script);
  const catalogue = names.map(catalogueLine).join("\n");
  const messages: ChatMessage[] = [
    { role: "system", content: `${SYSTEM}\n\nBuiltins (resin's catalogue):\n${catalogue}` },
    { role: "user", content: request.text },
  ];
  if (request.previous) {
    messages.push({ role: "assistant", content: `\`\`\`pine\n${request.previous.script}\`\`\`` });
    messages.push({
      role: "user",
      content: `resin checked and ran that script and found:\n${request.previous.feedback.map((f) => `- ${f}`).join("\n")}\nFix every point and reply with the whole corrected script.`,
    });
  }
  return messages;
}

/** The script in a completion: the first fenced block, else the text itself when it is a script. */
export function extractScript(content: string): string | null {
  const fenced = /```[a-zA-Z]*[ \t]*\r?\n([\s\S]*?)```/.exec(content);
  if (fenced) return `${fenced[1]!.trimEnd()}\n`;
  if (/\/\/@version=\d/.test(content)) return `${content.trim()}\n`;
  return null;
}
