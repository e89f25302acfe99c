// str.tostring: numbers with the default "#.##########" pattern, a DecimalFormat pattern, or one of
// the format.* constants; na -> "NaN"; bools "true"/"false"; arrays and matrices element-wise.

import { EnumValue, PineArray, PineMatrix } from "../../core/values.js";
import { roundedParts } from "./decimal.js";
import { compileNumberPattern, formatWithPattern } from "./numfmt.js";

export const DEFAULT_TOSTRING_PATTERN = "#.##########";
const DEFAULT = compileNumberPattern(DEFAULT_TOSTRING_PATTERN);
const VOLUME_BODY = compileNumberPattern("#.###");

// decimalsOf is called with the same mintick on every format.mintick / format.price: the last
// answer is kept (a pure function of one number).
let lastStep = NaN;
let lastDecimals = 0;

/** Decimal places of a tick size (0.01 -> 2, 1e-5 -> 5, 0.025 -> 3, 1 -> 0). */
export function decimalsOf(step: number): number {
  if (step === lastStep) return lastDecimals;
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  const [mant, exp] = step.toExponential().split("e") as [string, string];
  const digits = mant.replace(".", "").replace("-", "").length;
  lastDecimals = Math.max(0, digits - 1 - Number(exp));
  lastStep = step;
  return lastDecimals;
}

/** defaultNumberText's table covers the integers -SMALL_INT..SMALL_INT-1. */
export const SMALL_INT = 1024;
/**
 * The texts of the small integers, String(i) at index i + SMALL_INT: a script building ids and
 * labels from loop indices and counts ("G" + str.tostring(i)) gets the same string without String's
 * conversion and the scans below (strings are immutable, so one text serves every call).
 */
export const SMALL_INT_TEXT: readonly string[] = Array.from({ length: 2 * SMALL_INT }, (_, k) => String(k - SMALL_INT));

/**
 * x with the default pattern "#.##########": when the shortest round-trip text String(x) is plain
 * (no exponent) with at most 10 decimals it is the answer as it stands (no rounding, no trailing
 * zeros, "-" only on a nonzero negative, -0 prints "0"); other values take the pattern path.
 */
export function defaultNumberText(x: number): string {
  // (-0 takes "0", as String(-0) does)
  if ((x | 0) === x && x >= -SMALL_INT && x < SMALL_INT) return SMALL_INT_TEXT[x + SMALL_INT] as string;
  if (x > -1e21 && x < 1e21) {
    const text = String(x);
    if (text.indexOf("e") < 0) {
      const dot = text.indexOf(".");
      if (dot < 0 || text.length - dot <= 11) return text;
    }
  }
  return formatWithPattern(x, DEFAULT);
}

/** format.mintick: rounded to a multiple of mintick (ties up), printed with mintick's decimals. */
export function formatMintick(x: number, mintick: number): string {
  if (x !== x) return "NaN";
  if (!(mintick > 0)) return defaultNumberText(x);
  const q = Math.round(x / mintick);
  const v = q * mintick;
  const d = decimalsOf(mintick);
  const parts = roundedParts(v, d, "half_up");
  const neg = v < 0 && (parts.int !== "0" || /[1-9]/.test(parts.frac));
  return (neg ? "-" : "") + parts.int + (d > 0 ? "." + parts.frac : "");
}

/** format.volume: 5183 -> "5.183K", 2.5e6 -> "2.5M" (K, M, B, T). */
export function formatVolume(x: number): string {
  if (x !== x) return "NaN";
  const a = Math.abs(x);
  if (a >= 1e12) return formatWithPattern(x / 1e12, VOLUME_BODY) + "T";
  if (a >= 1e9) return formatWithPattern(x / 1e9, VOLUME_BODY) + "B";
  if (a >= 1e6) return formatWithPattern(x / 1e6, VOLUME_BODY) + "M";
  if (a >= 1e3) return formatWithPattern(x / 1e3, VOLUME_BODY) + "K";
  return formatWithPattern(x, VOLUME_BODY);
}

/** format.percent: two decimals and a percent sign (the value is not multiplied). */
export function formatPercent(x: number): string {
  if (x !== x) return "NaN";
  const parts = roundedParts(x, 2, "half_up");
  return (x < 0 ? "-" : "") + parts.int + "." + parts.frac + "%";
}

/**
 * A number as str.tostring prints it. `format` is undefined (default pattern), a format.* value
 * ("mintick", "percent", "volume", "price", "inherit") or a DecimalFormat pattern.
 */
export function numberToString(x: number, format?: string | null, mintick = 0.01): string {
  if (x !== x || x == null) return "NaN";
  if (format == null || format === "" || format === "inherit") return defaultNumberText(x);
  switch (format) {
    case "mintick":
    case "price":
      return formatMintick(x, mintick);
    case "percent":
      return formatPercent(x);
    case "volume":
      return formatVolume(x);
    default:
      return formatWithPattern(x, compileNumberPattern(format));
  }
}

/** Any Pine value as str.tostring prints it. */
export function valueToString(v: unknown, format?: string | null, mintick = 0.01): string {
  if (v === null || v === undefined) return "NaN";
  if (typeof v === "number") return numberToString(v, format, mintick);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof EnumValue) return v.title;
  if (v instanceof PineArray) {
    const vals = v.values;
    let out = "[";
    for (let i = 0; i < vals.length; i++) out += (i > 0 ? ", " : "") + valueToString(vals[i], format, mintick);
    return out + "]";
  }
  if (v instanceof PineMatrix) {
    let out = "[";
    for (let r = 0; r < v.rows; r++) {
      out += (r > 0 ? ", " : "") + "[";
      for (let c = 0; c < v.cols; c++)
        out += (c > 0 ? ", " : "") + valueToString(v.data[r * v.cols + c], format, mintick);
      out += "]";
    }
    return out + "]";
  }
  return String(v);
}
