// Pine Script highlighting as a CodeMirror StreamLanguage. The keyword tables come from our lexer
// (src/lang/tokens.ts) so highlighting and parsing agree on what a keyword is.

import { StreamLanguage, type StreamParser } from "@codemirror/language";
import { CONTEXTUAL, RESERVED } from "../../../src/lang/tokens.js";

const TYPES = new Set([
  "int",
  "float",
  "bool",
  "string",
  "color",
  "line",
  "label",
  "box",
  "table",
  "linefill",
  "polyline",
  "array",
  "matrix",
  "map",
  "chart.point",
  "void",
]);
const NAMESPACES = new Set([
  "ta",
  "math",
  "str",
  "array",
  "matrix",
  "map",
  "color",
  "input",
  "request",
  "strategy",
  "syminfo",
  "timeframe",
  "barstate",
  "session",
  "ticker",
  "line",
  "label",
  "box",
  "table",
  "polyline",
  "linefill",
  "chart",
  "log",
  "runtime",
  "plot",
  "shape",
  "location",
  "size",
  "position",
  "text",
  "font",
  "xloc",
  "yloc",
  "extend",
  "hline",
  "display",
  "format",
  "scale",
  "currency",
  "dayofweek",
  "alert",
  "order",
  "adjustment",
  "earnings",
  "dividends",
  "splits",
  "barmerge",
  "backadjustment",
  "settlement_as_close",
]);
const BUILTIN_VARS = new Set([
  "open",
  "high",
  "low",
  "close",
  "volume",
  "time",
  "time_close",
  "bar_index",
  "last_bar_index",
  "na",
  "hl2",
  "hlc3",
  "ohlc4",
  "hlcc4",
  "year",
  "month",
  "weekofyear",
  "dayofmonth",
  "dayofweek",
  "hour",
  "minute",
  "second",
  "timenow",
  "time_tradingday",
]);
const DECLARATIONS = new Set(["indicator", "strategy", "library", "study"]);

interface PineState {
  /** The previous token was `.`: the next word is a member name. */
  afterDot: boolean;
}

const parser: StreamParser<PineState> = {
  name: "pine",
  startState: () => ({ afterDot: false }),
  token(stream, state) {
    if (stream.eatSpace()) return null;
    if (stream.match("//@")) {
      stream.skipToEnd();
      return "meta";
    }
    if (stream.match("//")) {
      stream.skipToEnd();
      return "comment";
    }
    const ch = stream.peek()!;
    if (ch === '"' || ch === "'") {
      stream.next();
      let escaped = false;
      while (!stream.eol()) {
        const c = stream.next();
        if (c === ch && !escaped) break;
        escaped = !escaped && c === "\\";
      }
      state.afterDot = false;
      return "string";
    }
    if (stream.match(/^#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?\b/)) return "atom";
    if (stream.match(/^(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/)) {
      state.afterDot = false;
      return "number";
    }
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_]*/) as RegExpMatchArray | null;
    if (word) {
      const w = word[0];
      const member = state.afterDot;
      state.afterDot = false;
      if (member) return stream.peek() === "(" ? "propertyName.function" : "propertyName";
      if (w === "true" || w === "false" || w === "na") return "atom";
      if (RESERVED.has(w) || CONTEXTUAL.has(w)) return "keyword";
      if (TYPES.has(w) && stream.peek() !== "." && stream.peek() !== "(") return "typeName";
      if (NAMESPACES.has(w) && stream.peek() === ".") return "namespace";
      if (DECLARATIONS.has(w)) return "macroName";
      if (stream.peek() === "(") return "variableName.function";
      if (BUILTIN_VARS.has(w)) return "variableName.special";
      return "variableName";
    }
    if (stream.match(/^(:=|==|!=|<=|>=|=>|\+=|-=|\*=|\/=|%=|[-+*/%<>=?:])/)) {
      state.afterDot = false;
      return "operator";
    }
    const c = stream.next();
    state.afterDot = c === ".";
    return c === "(" || c === ")" || c === "[" || c === "]" ? "bracket" : "punctuation";
  },
  languageData: { commentTokens: { line: "//" } },
};

export const pineLanguage = StreamLanguage.define(parser);
