// DecimalFormat-style number patterns ("#.##", "00000.00", "#,##0.00", "0.###E0", "#%", "$#,##0.00;($#)"),
// as str.tostring(x, pattern) and str.format's {0,number,pattern} use them.
//
// Rounding is HALF_UP on the exact binary value (the User Manual: str.tostring(1.25, "#.#") is
// "1.3"). Differences from Java that TradingView shows: an integer part is always printed (0.5 with
// "#.#" gives "0.5", not ".5") and a negative value that rounds to zero has no sign
// (str.tostring(array.from(2.22, 19.6, -0.43), "#") is "[2, 20, 0]").
// Compiled patterns are cached: scripts pass the same few patterns each bar.

import { roundedParts, type RoundingMode } from "./decimal.js";

interface SubPattern {
  prefix: string;
  suffix: string;
}

export interface NumberPattern {
  pos: SubPattern;
  /** null: the negative form is "-" + positive prefix. */
  neg: SubPattern | null;
  minInt: number;
  minFrac: number;
  maxFrac: number;
  /** 0 = no grouping. */
  grouping: number;
  multiplier: number;
  /** Minimum exponent digits; 0 = no exponent. */
  expDigits: number;
  rounding: RoundingMode;
}

const caches: Record<RoundingMode, Map<string, NumberPattern>> = { half_up: new Map(), half_even: new Map() };

/** Reads prefix/suffix text: quotes, %, per-mille and currency signs. */
function readAffix(src: string, i: number, stopAtNumber: boolean, out: { text: string; mult: number }): number {
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "'") {
      if (src[i + 1] === "'") {
        out.text += "'";
        i += 2;
        continue;
      }
      const end = src.indexOf("'", i + 1);
      const stop = end < 0 ? src.length : end;
      out.text += src.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (ch === ";") break;
    if (stopAtNumber && (ch === "#" || ch === "0" || ch === "," || ch === ".")) break;
    if (ch === "%") out.mult = 100;
    else if (ch === "\u2030") out.mult = 1000;
    if (ch === "\u00a4") out.text += "$";
    else out.text += ch;
    i++;
  }
  return i;
}

export function compileNumberPattern(pattern: string, rounding: RoundingMode = "half_up"): NumberPattern {
  const cache = caches[rounding];
  const hit = cache.get(pattern);
  if (hit) return hit;
  const pre = { text: "", mult: 1 };
  let i = readAffix(pattern, 0, true, pre);
  let intPart = "";
  let fracPart = "";
  let inFrac = false;
  let expDigits = 0;
  for (; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "#" || ch === "0" || ch === ",") {
      if (inFrac) {
        if (ch !== ",") fracPart += ch;
      } else intPart += ch;
    } else if (ch === "." && !inFrac) {
      inFrac = true;
    } else if (ch === "E" && pattern[i + 1] === "0") {
      i++;
      while (pattern[i] === "0") {
        expDigits++;
        i++;
      }
      break;
    } else break;
  }
  const suf = { text: "", mult: 1 };
  i = readAffix(pattern, i, false, suf);
  let neg: SubPattern | null = null;
  if (pattern[i] === ";") {
    const npre = { text: "", mult: 1 };
    let j = readAffix(pattern, i + 1, true, npre);
    while (j < pattern.length && "#0,.E".includes(pattern[j]!)) j++;
    const nsuf = { text: "", mult: 1 };
    readAffix(pattern, j, false, nsuf);
    neg = { prefix: npre.text, suffix: nsuf.text };
  }
  const digitsInt = intPart.replace(/,/g, "");
  const lastComma = intPart.lastIndexOf(",");
  const compiled: NumberPattern = {
    pos: { prefix: pre.text, suffix: suf.text },
    neg,
    minInt: Math.max(1, (digitsInt.match(/0/g) ?? []).length),
    minFrac: (fracPart.match(/0/g) ?? []).length,
    maxFrac: fracPart.length,
    grouping: lastComma >= 0 ? intPart.length - lastComma - 1 : 0,
    multiplier: pre.mult !== 1 ? pre.mult : suf.mult,
    expDigits,
    rounding,
  };
  if (cache.size > 256) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

function group(intDigits: string, size: number): string {
  if (size <= 0 || intDigits.length <= size) return intDigits;
  let out = "";
  let first = intDigits.length % size;
  if (first === 0) first = size;
  out = intDigits.slice(0, first);
  for (let k = first; k < intDigits.length; k += size) out += "," + intDigits.slice(k, k + size);
  return out;
}

/** Formats x with a compiled pattern. NaN -> "NaN", infinities -> "∞" as Java does. */
export function formatWithPattern(x: number, p: NumberPattern): string {
  if (x !== x) return "NaN";
  let negative = x < 0;
  if (!Number.isFinite(x)) return (negative ? "-" : "") + p.pos.prefix + "\u221e" + p.pos.suffix;
  let v = Math.abs(x) * p.multiplier;
  let body: string;
  if (p.expDigits > 0) {
    let e = v === 0 ? 0 : Math.floor(Math.log10(v));
    let mant = v / Math.pow(10, e);
    let parts = roundedParts(mant, p.maxFrac, p.rounding);
    if (parts.int.length > 1) {
      e += 1;
      mant = v / Math.pow(10, e);
      parts = roundedParts(mant, p.maxFrac, p.rounding);
    }
    body =
      fracJoin(parts.int, parts.frac, p) + "E" + (e < 0 ? "-" : "") + String(Math.abs(e)).padStart(p.expDigits, "0");
  } else {
    const plain = plainBody(v, p);
    if (plain !== undefined) body = plain;
    else if (p.rounding === "half_up" && v >= 1e-6 && v < 1e21 && p.maxFrac <= 100) {
      // String(v) is plain here, so plainBody failed on too many decimals: roundedParts would take
      // toFixed's digits (HALF_UP on the exact value); read them directly
      const text = v.toFixed(p.maxFrac);
      const dot = text.indexOf(".");
      const int = dot < 0 ? text : text.slice(0, dot);
      const frac = dot < 0 ? "" : text.slice(dot + 1);
      let end = frac.length;
      while (end > p.minFrac && frac.charCodeAt(end - 1) === 48) end--;
      if (negative && int === "0" && allZeros(frac)) negative = false;
      const grouped = group(int.length < p.minInt ? int.padStart(p.minInt, "0") : int, p.grouping);
      body = end > 0 ? grouped + "." + frac.slice(0, end) : grouped;
    } else {
      const parts = roundedParts(v, p.maxFrac, p.rounding);
      let intDigits = parts.int.replace(/^0+/, "");
      if (intDigits.length < p.minInt) intDigits = intDigits.padStart(p.minInt, "0");
      body = fracJoin(group(intDigits, p.grouping), parts.frac, p);
      if (negative && /^0*$/.test(parts.int + parts.frac)) negative = false;
    }
  }
  if (!negative) return p.pos.prefix + body + p.pos.suffix;
  if (p.neg) return p.neg.prefix + body + p.neg.suffix;
  return "-" + p.pos.prefix + body + p.pos.suffix;
}

/**
 * The body of finite v >= 0 (no exponent pattern) when its shortest round-trip text String(v) is
 * plain and has at most maxFrac decimals: those digits need no rounding (what roundedParts would
 * return, without the padding and re-trimming; an integer part "0" padded to minInt >= 1 is the
 * same text). Undefined otherwise. v > 0 here prints a nonzero digit, so the caller's "negative
 * rounds to zero" case cannot happen on this path.
 */
function plainBody(v: number, p: NumberPattern): string | undefined {
  if (!(v < 1e21) || p.maxFrac > 100) return undefined;
  const text = String(v);
  if (text.indexOf("e") >= 0) return undefined;
  const dot = text.indexOf(".");
  let int = text;
  let frac = "";
  if (dot >= 0) {
    if (text.length - dot - 1 > p.maxFrac) return undefined;
    int = text.slice(0, dot);
    frac = text.slice(dot + 1);
  }
  if (int.length < p.minInt) int = int.padStart(p.minInt, "0");
  if (frac.length < p.minFrac) frac = frac.padEnd(p.minFrac, "0");
  const grouped = group(int, p.grouping);
  return frac.length > 0 ? grouped + "." + frac : grouped;
}

function allZeros(digits: string): boolean {
  for (let i = 0; i < digits.length; i++) if (digits.charCodeAt(i) !== 48) return false;
  return true;
}

function fracJoin(intText: string, frac: string, p: NumberPattern): string {
  let f = frac;
  let end = f.length;
  while (end > p.minFrac && f[end - 1] === "0") end--;
  f = f.slice(0, end);
  return f.length > 0 ? intText + "." + f : intText;
}

/** str.tostring(x, "#.##")-style convenience. */
export function formatNumberPattern(x: number, pattern: string, rounding: RoundingMode = "half_up"): string {
  return formatWithPattern(x, compileNumberPattern(pattern, rounding));
}
