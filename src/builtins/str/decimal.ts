// Exact decimal rounding of doubles and Java-style number text.
//
// TradingView formats numbers with Java's DecimalFormat rules: rounding works on the exact binary
// value of the double (so 0.125 is a true tie but 1.005 is below the tie), with HALF_EVEN by
// default. Doing that with toFixed() would round ties away from zero and misread some values,
// so digits past the shortest round-trip form are computed here with BigInt arithmetic. The common
// case (String(x) already has few enough decimals) is a split of String(x): scripts format every bar.

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** x = mant * 2^exp exactly, for finite x >= 0. */
function decompose(x: number): { mant: bigint; exp: number } {
  F64[0] = x;
  const hi = U32[LITTLE ? 1 : 0]!;
  const lo = U32[LITTLE ? 0 : 1]!;
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074;
  else {
    mant |= 1n << 52n;
    exp = biased - 1075;
  }
  return { mant, exp };
}

export type RoundingMode = "half_even" | "half_up";

/**
 * The digits of round(|x| * 10^fractionDigits) as a decimal integer string, rounding the exact
 * value of x with `mode` ("half_up" = ties away from zero). x must be finite.
 */
export function scaledDigits(x: number, fractionDigits: number, mode: RoundingMode = "half_even"): string {
  const ax = Math.abs(x);
  if (ax === 0) return "0";
  const { mant, exp } = decompose(ax);
  const pow10 = 10n ** BigInt(fractionDigits);
  if (exp >= 0) return (mant * (1n << BigInt(exp)) * pow10).toString();
  const num = mant * pow10;
  const den = 1n << BigInt(-exp);
  let q = num / den;
  const twice = (num - q * den) * 2n;
  if (twice > den || (twice === den && (mode === "half_up" || (q & 1n) === 1n))) q += 1n;
  return q.toString();
}

const ZEROS = "0".repeat(101);

/**
 * The shortest round-trip decimal form of finite |x| split into integer and fraction digits, when it
 * has at most `fd` fraction digits (else undefined). Java's DecimalFormat starts from these digits
 * (Double.toString's), so 1234567.891 with 10 decimals prints "1234567.891", not the binary noise
 * "1234567.8910000001" that rounding the exact value gives; rounding only happens past them.
 * fd <= 100.
 */
function shortestParts(ax: number, fd: number): { int: string; frac: string } | undefined {
  if (ax === 0) return { int: "0", frac: ZEROS.slice(0, fd) };
  // String() prints the same shortest digits as toExponential(), in plain notation for
  // 1e-7 <= ax < 1e21 (integers past 2^53 padded with zeros): split that text directly
  const text = String(ax);
  if (text.indexOf("e") < 0) {
    const dot = text.indexOf(".");
    if (dot < 0) return { int: text, frac: ZEROS.slice(0, fd) };
    const fracLen = text.length - dot - 1;
    if (fracLen > fd) return undefined;
    return { int: text.slice(0, dot), frac: text.slice(dot + 1) + ZEROS.slice(0, fd - fracLen) };
  }
  const [mant, expStr] = ax.toExponential().split("e") as [string, string];
  const e = Number(expStr);
  const digits = mant.replace(".", "");
  const fracLen = Math.max(0, digits.length - 1 - e);
  if (fracLen > fd) return undefined;
  let int: string;
  let frac: string;
  if (e >= 0) {
    int = digits.slice(0, e + 1).padEnd(e + 1, "0");
    frac = digits.slice(e + 1);
  } else {
    int = "0";
    frac = "0".repeat(-e - 1) + digits;
  }
  return { int, frac: frac.padEnd(fd, "0") };
}

/** Splits scaledDigits into integer and fraction digit strings (fraction has exactly `fd` digits). */
export function roundedParts(x: number, fd: number, mode: RoundingMode = "half_even"): { int: string; frac: string } {
  const ax = Math.abs(x);
  if (ax < 1e21 && fd <= 100) {
    const exact = shortestParts(ax, fd);
    if (exact) return exact;
  }
  if (mode === "half_up" && ax < 1e21 && fd <= 100) {
    // Number.prototype.toFixed rounds the exact value and picks the larger candidate on a tie,
    // which is HALF_UP for a non-negative number: the fast path (no BigInt).
    const text = ax.toFixed(fd);
    const dot = text.indexOf(".");
    return dot < 0 ? { int: text, frac: "" } : { int: text.slice(0, dot), frac: text.slice(dot + 1) };
  }
  const digits = scaledDigits(x, fd, mode);
  if (fd === 0) return { int: digits, frac: "" };
  const padded = digits.padStart(fd + 1, "0");
  return { int: padded.slice(0, padded.length - fd), frac: padded.slice(padded.length - fd) };
}

/**
 * Java's Double.toString layout (shortest round-trip digits): "1.0", "0.001", "1.234E-5", "1.0E7".
 * Used for the elements of float arrays in str.format / log messages.
 */
export function javaDoubleToString(x: number): string {
  if (x !== x) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const ax = Math.abs(x);
  if (ax >= 1e-3 && ax < 1e7) {
    // String() has the same shortest digits in plain notation here; Java adds ".0" to an integer
    const text = String(ax);
    return sign + (text.indexOf(".") < 0 ? text + ".0" : text);
  }
  const [mant, expStr] = ax.toExponential().split("e") as [string, string];
  const digits = mant.replace(".", "");
  const frac = digits.slice(1);
  return sign + digits[0] + "." + (frac === "" ? "0" : frac) + "E" + Number(expStr);
}
