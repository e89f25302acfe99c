// str.* builtins. The algorithms live in format.ts (str.format, also used by log.*), tostring.ts,
// numfmt.ts (DecimalFormat patterns) and time.ts (str.format_time); this file maps Pine calls to them.

import { PineArray, type PineValue } from "../../core/values.js";
import type { BuiltinTable, ConstantTable, ExecContext, VariableTable } from "../types.js";
import { FormatError, formatMessage } from "./format.js";
import { DEFAULT_TIME_FORMAT, formatTime } from "./time.js";
import { numberToString, valueToString } from "./tostring.js";
import { checkedString, MAX_STRING_LENGTH, stringTooLong } from "./limit.js";

export { formatMessage, FormatError, defaultText, elementText } from "./format.js";
export { numberToString, valueToString } from "./tostring.js";
export { formatTime } from "./time.js";
export { checkedString, MAX_STRING_LENGTH, stringTooLong, stringTooLongMessage } from "./limit.js";

const regexCache = new Map<string, RegExp | null>();

function compileRegex(src: string): RegExp | null {
  let re = regexCache.get(src);
  if (re !== undefined) return re;
  try {
    re = new RegExp(src, "u");
  } catch {
    try {
      re = new RegExp(src);
    } catch {
      re = null;
    }
  }
  if (regexCache.size > 256) regexCache.clear();
  regexCache.set(src, re);
  return re;
}

// User Manual: "the value's character sequence can include only ASCII digits, a sign symbol at the
// beginning (+ or -), and a single period for the decimal point" ("$1,234.50" and "1e5" are na).
const NUMBER_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)$/;

export function toNumber(s: string | null): number {
  if (s == null || !NUMBER_RE.test(s)) return NaN;
  return Number(s);
}

/** Java's String.trim: strips every char <= U+0020 at both ends. */
export function javaTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 32) a++;
  while (b > a && s.charCodeAt(b - 1) <= 32) b--;
  return s.slice(a, b);
}

/**
 * Replaces the nth (0-based) non-overlapping occurrence of target. An empty target matches the
 * zero-width boundaries (before every char and at the end), as Java's String.replace does (the
 * User Manual uses str.replace_all(s, "", "\n") that way).
 */
export function replaceNth(source: string, target: string, replacement: string, occurrence: number): string {
  if (target === "") {
    if (!(occurrence >= 0 && occurrence <= source.length)) return source;
    return source.slice(0, occurrence) + replacement + source.slice(occurrence);
  }
  let from = 0;
  for (let k = 0; ; k++) {
    const at = source.indexOf(target, from);
    if (at < 0) return source;
    if (k === occurrence) return source.slice(0, at) + replacement + source.slice(at + target.length);
    from = at + target.length;
  }
}

/** str.format with Pine's error reporting. {n,date}/{n,time} print in UTC (User Manual examples). */
export function formatWithContext(ctx: ExecContext, pattern: string, args: readonly PineValue[]): string {
  try {
    return formatMessage(pattern, args, { timezone: "UTC" });
  } catch (e) {
    if (e instanceof FormatError) ctx.runtimeError(e.message);
    throw e;
  }
}

const s = (v: unknown): string | null => (typeof v === "string" ? v : v == null ? null : String(v));

export const functions: BuiltinTable = {
  "str.contains": {
    name: "str.contains",
    impl: (_c, a) => {
      const src = s(a[0]);
      const sub = s(a[1]);
      return src != null && sub != null && src.includes(sub);
    },
  },
  "str.endswith": {
    name: "str.endswith",
    impl: (_c, a) => {
      const src = s(a[0]);
      const sub = s(a[1]);
      return src != null && sub != null && src.endsWith(sub);
    },
  },
  "str.startswith": {
    name: "str.startswith",
    impl: (_c, a) => {
      const src = s(a[0]);
      const sub = s(a[1]);
      return src != null && sub != null && src.startsWith(sub);
    },
  },
  "str.format": {
    name: "str.format",
    impl: (ctx, a) => {
      const pattern = s(a[0]);
      if (pattern == null) return null;
      return checkedString(ctx, formatWithContext(ctx, pattern, a.slice(1)));
    },
  },
  "str.format_time": {
    name: "str.format_time",
    impl: (ctx, a) => {
      const t = a[0] as number;
      if (t == null || t !== t) return null;
      const fmt = a[1] == null ? DEFAULT_TIME_FORMAT : String(a[1]);
      const tz = a[2] == null ? (ctx.syminfo?.timezone ?? "UTC") : String(a[2]);
      return formatTime(t, fmt, tz);
    },
  },
  "str.length": {
    name: "str.length",
    impl: (_c, a) => {
      const src = s(a[0]);
      return src == null ? NaN : src.length;
    },
  },
  "str.lower": {
    name: "str.lower",
    impl: (ctx, a) => {
      const src = s(a[0]);
      // a few characters grow when their case changes ("ß" -> "SS")
      return src == null ? null : checkedString(ctx, src.toLowerCase());
    },
  },
  "str.upper": {
    name: "str.upper",
    impl: (ctx, a) => {
      const src = s(a[0]);
      return src == null ? null : checkedString(ctx, src.toUpperCase());
    },
  },
  "str.match": {
    name: "str.match",
    impl: (_c, a) => {
      const src = s(a[0]);
      const rx = s(a[1]);
      if (src == null || rx == null) return "";
      const re = compileRegex(rx);
      const m = re ? re.exec(src) : null;
      return m ? m[0] : "";
    },
  },
  "str.pos": {
    name: "str.pos",
    impl: (_c, a) => {
      const src = s(a[0]);
      const sub = s(a[1]);
      if (src == null) return NaN;
      // User Manual (Strings): "If the argument is na or an empty 'string' value, the function returns 0"
      if (sub == null) return 0;
      const at = src.indexOf(sub);
      return at < 0 ? NaN : at;
    },
  },
  "str.repeat": {
    name: "str.repeat",
    impl: (ctx, a) => {
      const src = s(a[0]);
      if (src == null) return null;
      const n = Math.trunc(a[1] as number);
      if (!(n >= 0))
        ctx.runtimeError(
          `Invalid value of the 'repeat' argument (${a[1]}) in the 'str.repeat' function. It must be >= 0.`,
        );
      const sep = s(a[2]) ?? "";
      // the length is known before the string is built (a huge count must not allocate first)
      const length = n === 0 ? 0 : n * src.length + (n - 1) * sep.length;
      if (length > MAX_STRING_LENGTH) stringTooLong(ctx, length);
      return n === 0 ? "" : Array.from({ length: n }, () => src).join(sep);
    },
  },
  "str.replace": {
    name: "str.replace",
    impl: (ctx, a) => {
      const src = s(a[0]);
      if (src == null) return null;
      const occ = a[3] == null || a[3] !== a[3] ? 0 : Math.trunc(a[3] as number);
      return checkedString(ctx, replaceNth(src, s(a[1]) ?? "", s(a[2]) ?? "", occ));
    },
  },
  "str.replace_all": {
    name: "str.replace_all",
    impl: (ctx, a) => {
      const src = s(a[0]);
      if (src == null) return null;
      const target = s(a[1]) ?? "";
      const rep = s(a[2]) ?? "";
      // lengths are known before the string is built (many replacements must not allocate first)
      if (target === "") {
        const length = src.length + (src.length > 0 ? src.length + 1 : 1) * rep.length;
        if (length > MAX_STRING_LENGTH) stringTooLong(ctx, length);
        return rep + src.split("").join(rep) + (src.length > 0 ? rep : "");
      }
      const parts = src.split(target);
      const length = src.length + (parts.length - 1) * (rep.length - target.length);
      if (length > MAX_STRING_LENGTH) stringTooLong(ctx, length);
      return parts.join(rep);
    },
  },
  "str.split": {
    name: "str.split",
    impl: (_c, a) => {
      const src = s(a[0]);
      if (src == null) return new PineArray<string>("string", []);
      const sep = s(a[1]) ?? "";
      return new PineArray<string>("string", sep === "" ? Array.from(src) : src.split(sep));
    },
  },
  "str.substring": {
    name: "str.substring",
    impl: (ctx, a) => {
      const src = s(a[0]);
      if (src == null) return null;
      // User Manual (Strings, "Locating and retrieving substrings"): an na begin_pos is 0; an end_pos
      // that is na or "represents a position outside the string's length" takes every character from
      // begin_pos onward; an invalid begin_pos or an end_pos below begin_pos is a runtime error
      const begin = a[1] == null || a[1] !== a[1] ? 0 : Math.trunc(a[1] as number);
      const end = a[2] == null || a[2] !== a[2] ? src.length : Math.min(Math.trunc(a[2] as number), src.length);
      if (!(begin >= 0 && begin <= src.length) || !(end >= begin)) {
        ctx.runtimeError(
          `The 'begin_pos' (${a[1]}) and 'end_pos' (${a[2] ?? src.length}) arguments of 'str.substring' are out of range for a string of length ${src.length}.`,
        );
      }
      return src.slice(begin, end);
    },
  },
  "str.tonumber": {
    name: "str.tonumber",
    impl: (_c, a) => toNumber(s(a[0])),
  },
  "str.tostring": {
    name: "str.tostring",
    // an array, matrix or long string argument can print past the maximum length; a number in the
    // default format (a loop index, a count) cannot
    impl: (ctx, a) => {
      const v = a[0];
      if (typeof v === "number" && a[1] == null) return numberToString(v);
      return checkedString(ctx, valueToString(v, a[1] == null ? null : String(a[1]), ctx.syminfo?.mintick ?? 0.01));
    },
  },
  "str.trim": {
    name: "str.trim",
    impl: (_c, a) => {
      const src = s(a[0]);
      return src == null ? "" : javaTrim(src);
    },
  },
};

export const variables: VariableTable = {};
export const constants: ConstantTable = {};
