// str.format / log.* message formatting: Java MessageFormat patterns as TradingView accepts them.
//
//   {0}                  default text of the argument (numbers: "#,###.###", the User Manual's default)
//   {0,number}           "#,##0.###"      {0,number,integer}  "#,##0"
//   {0,number,currency}  "$#,##0.00"      {0,number,percent}  "#,##0%"
//   {0,number,<pattern>} a DecimalFormat pattern, taken verbatim (" #.#" keeps its leading space)
//   {0,date[,style]} {0,time[,style]}     the argument is a UNIX time in ms
//   'text' is literal, '' is one quote. A lone "}" is literal; an unmatched "{" is an error.
// Arrays print as "[a, b]": int elements as integers, float elements as Java's Double.toString
// ("1.0", "0.07392212709545729"), strings raw.

import { EnumValue, PineArray, PineMatrix, type PineValue } from "../../core/values.js";
import { javaDoubleToString } from "./decimal.js";
import { compileNumberPattern, formatWithPattern, type NumberPattern } from "./numfmt.js";
import { formatTime } from "./time.js";

export class FormatError extends Error {}

// The User Manual (Strings > Formatting strings): "the str.format() function's default numeric
// format (#,###.###) ... uses comma-separated sets of three whole digits".
const DEFAULT_NUMBER = compileNumberPattern("#,##0.###");
const NUMBER = compileNumberPattern("#,##0.###");
const INTEGER = compileNumberPattern("#,##0");
const CURRENCY = compileNumberPattern("\u00a4#,##0.00");
const PERCENT = compileNumberPattern("#,##0%");

/** Text of one array element: what str.format and array.join print. */
export function elementText(v: unknown, elemType: string): string {
  if (v === null || v === undefined) return "NaN";
  if (typeof v === "number") {
    if (v !== v) return "NaN";
    if (elemType === "float") return javaDoubleToString(v);
    if (elemType === "color") return colorText(v);
    return Number.isInteger(v) ? String(v) : javaDoubleToString(v);
  }
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return v;
  if (v instanceof EnumValue) return v.title;
  return objectText(v);
}

function colorText(c: number): string {
  const hex = (c >>> 0).toString(16).toUpperCase().padStart(8, "0");
  return "#" + hex;
}

function objectText(v: unknown): string {
  if (v instanceof PineArray) return arrayText(v, null);
  if (v instanceof PineMatrix) return matrixText(v, null);
  return String(v);
}

export function arrayText(a: PineArray, pattern: NumberPattern | null): string {
  const vals = a.values;
  let out = "[";
  for (let i = 0; i < vals.length; i++) {
    if (i > 0) out += ", ";
    const v = vals[i];
    out += pattern && typeof v === "number" ? formatWithPattern(v, pattern) : elementText(v, a.elemType);
  }
  return out + "]";
}

export function matrixText(m: PineMatrix, pattern: NumberPattern | null): string {
  let out = "[";
  for (let r = 0; r < m.rows; r++) {
    if (r > 0) out += ", ";
    out += "[";
    for (let c = 0; c < m.cols; c++) {
      if (c > 0) out += ", ";
      const v = m.data[r * m.cols + c];
      out += pattern && typeof v === "number" ? formatWithPattern(v, pattern) : elementText(v, m.elemType);
    }
    out += "]";
  }
  return out + "]";
}

/** The {0} text of a value. */
export function defaultText(v: unknown): string {
  if (v === null || v === undefined) return "NaN";
  if (typeof v === "number") return formatWithPattern(v, DEFAULT_NUMBER);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return v;
  if (v instanceof EnumValue) return v.title;
  return objectText(v);
}

function numberStyle(style: string | null): NumberPattern {
  if (style === null) return NUMBER;
  switch (style.trim().toLowerCase()) {
    case "":
      return NUMBER;
    case "integer":
      return INTEGER;
    case "currency":
      return CURRENCY;
    case "percent":
      return PERCENT;
    default:
      return compileNumberPattern(style);
  }
}

const DATE_STYLES: Record<string, string> = {
  short: "M/d/yy",
  medium: "MMM d, yyyy",
  long: "MMMM d, yyyy",
  full: "EEEE, MMMM d, yyyy",
};
const TIME_STYLES: Record<string, string> = {
  short: "h:mm a",
  medium: "h:mm:ss a",
  long: "h:mm:ss a z",
  full: "h:mm:ss a z",
};

function formatArg(v: unknown, type: string | null, style: string | null, timezone: string): string {
  if (type === null || type === "") return defaultText(v);
  if (type === "number") {
    const p = numberStyle(style);
    if (typeof v === "number") return formatWithPattern(v, p);
    if (v instanceof PineArray) return arrayText(v, p);
    if (v instanceof PineMatrix) return matrixText(v, p);
    return defaultText(v);
  }
  if (type === "date" || type === "time") {
    if (typeof v !== "number") return defaultText(v);
    if (v !== v) return "NaN";
    const key = style === null ? "medium" : style.trim().toLowerCase();
    const table = type === "date" ? DATE_STYLES : TIME_STYLES;
    const pattern = table[key === "" ? "medium" : key] ?? style!;
    return formatTime(v, pattern, timezone);
  }
  return defaultText(v);
}

export interface FormatOptions {
  /** Time zone of {n,date} / {n,time} placeholders (Pine notation); default UTC. */
  timezone?: string;
}

/** One {index,type,style} placeholder of a compiled message pattern. */
interface Placeholder {
  index: number;
  /** Trimmed, lower-case type; null without one. */
  type: string | null;
  style: string | null;
  /** The number pattern of a "number" placeholder, resolved once. */
  number: NumberPattern | null;
}

/**
 * A pattern read once: literal text and placeholders in order (literals already unquoted). A
 * malformed pattern ends with the FormatError of its first malformed placeholder, which formatMessage
 * throws when it gets there (after formatting the placeholders before it, as reading the pattern
 * while formatting did).
 */
type CompiledMessage = (string | Placeholder | FormatError)[];

// Scripts pass the same few patterns every bar: parse each once (bounded like the pattern caches).
const compiledMessages = new Map<string, CompiledMessage>();

/** The pieces read so far, then the error (the pending literal is dropped: nothing is printed). */
function malformed(pieces: CompiledMessage, message: string): CompiledMessage {
  pieces.push(new FormatError(message));
  return pieces;
}

/** Reads a MessageFormat pattern: {index[,type[,style]]}; the style may hold quoted text and nested braces. */
function compileMessage(pattern: string): CompiledMessage {
  const pieces: CompiledMessage = [];
  let lit = "";
  let inQuote = false;
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const ch = pattern[i]!;
    if (ch === "'") {
      if (pattern[i + 1] === "'") {
        lit += "'";
        i += 2;
      } else {
        inQuote = !inQuote;
        i++;
      }
      continue;
    }
    if (inQuote || ch !== "{") {
      lit += ch;
      i++;
      continue;
    }
    const segs: string[] = [""];
    let depth = 0;
    let q = false;
    let j = i + 1;
    let closed = false;
    for (; j < n; j++) {
      const c = pattern[j]!;
      if (segs.length < 3) {
        if (c === "}") {
          closed = true;
          break;
        }
        if (c === ",") {
          segs.push("");
          continue;
        }
        if (c === "{") return malformed(pieces, "Unmatched braces in the pattern.");
        segs[segs.length - 1] += c;
        continue;
      }
      if (c === "'") q = !q;
      else if (!q && c === "{") depth++;
      else if (!q && c === "}") {
        if (depth === 0) {
          closed = true;
          break;
        }
        depth--;
      }
      segs[2] += c;
    }
    if (!closed) return malformed(pieces, "Unmatched braces in the pattern.");
    const indexText = segs[0]!.trim();
    if (!/^\d+$/.test(indexText)) return malformed(pieces, `can't parse argument number: ${segs[0]}`);
    const type = segs.length > 1 ? segs[1]!.trim().toLowerCase() : null;
    const style = segs.length > 2 ? segs[2]! : null;
    if (lit !== "") pieces.push(lit);
    lit = "";
    pieces.push({ index: Number(indexText), type, style, number: type === "number" ? numberStyle(style) : null });
    i = j + 1;
  }
  if (lit !== "") pieces.push(lit);
  return pieces;
}

function formatPlaceholder(v: unknown, ph: Placeholder, timezone: string): string {
  const p = ph.number;
  if (p === null) return formatArg(v, ph.type, ph.style, timezone);
  if (typeof v === "number") return formatWithPattern(v, p);
  if (v instanceof PineArray) return arrayText(v, p);
  if (v instanceof PineMatrix) return matrixText(v, p);
  return defaultText(v);
}

/**
 * Formats a MessageFormat pattern with Pine values. Throws FormatError for a malformed pattern
 * (the builtin turns it into a runtime error). A placeholder without a matching argument is left
 * as "{n}" (as Java does).
 */
export function formatMessage(pattern: string, args: readonly PineValue[], opts: FormatOptions = {}): string {
  const tz = opts.timezone ?? "UTC";
  let pieces = compiledMessages.get(pattern);
  if (pieces === undefined) {
    pieces = compileMessage(pattern);
    if (compiledMessages.size >= 256) compiledMessages.clear();
    compiledMessages.set(pattern, pieces);
  }
  let out = "";
  for (let k = 0; k < pieces.length; k++) {
    const piece = pieces[k]!;
    if (typeof piece === "string") out += piece;
    else if (piece instanceof FormatError) throw new FormatError(piece.message);
    else if (piece.index >= args.length) out += "{" + piece.index + "}";
    else out += formatPlaceholder(args[piece.index], piece, tz);
  }
  return out;
}
