// A JSON array of numbers parsed straight from a body's bytes, with the values JSON.parse gives. A
// number column of 20k bars (`"close":[102.55558426285761, ...]`) is 100k full-precision doubles in a
// columnar /optimize body, and V8's JSON.parse spends ~95 ns on each 17-digit one (~9 ms of the
// server's main thread a study; docs/benchmarks.md, issue 18, sessions 15 and 23). Here each number's
// significant digits (at most 17: what JSON.stringify writes for any double) are read as an exact
// integer m and the value m x 10^-k is rounded exactly:
// - m a double exactly and k <= 22: m / 10^k (or m * 10^k), both operands exact, so IEEE division or
//   multiplication rounds it correctly (Clinger's fast path);
// - m up to 17 digits (then m = s + err exactly, a double-double), 1 <= k <= 22: the quotient
//   q = s / 10^k is within ~1.5 units in the last place of the exact value; corrected once by its
//   residual m - q * 10^k (Dekker's exact product), the result is taken when its own residual puts
//   the exact value less than half a unit from it (with a margin of 1e-7 of that half). Values nearer
//   the half-way point, and every other shape (more digits, larger exponents, a power of two),
//   are read by Number() of their text, which rounds as JSON.parse does.
// Only the strict grammar is taken: `[`, numbers separated by commas, `]`, JSON white space; anything
// else (null, strings, nesting, a malformed number) returns null and the caller leaves the array to
// JSON.parse, which then gives the same value or the same error.

const POW10 = new Float64Array(23);
const POW10_HI = new Float64Array(23);
const POW10_LO = new Float64Array(23);
for (let k = 0; k <= 22; k++) {
  const p = Number(`1e${k}`);
  POW10[k] = p;
  const c = 134217729 * p;
  const hi = c - (c - p);
  POW10_HI[k] = hi;
  POW10_LO[k] = p - hi;
}
const TWO53 = 9007199254740992;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
// (the platform's byte order: which word holds the sign and exponent)
const HI = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;
const LO = 1 - HI;

const latin1 = new TextDecoder("latin1");

/** The array's numbers and the index just past its `]`. */
export interface NumberArray {
  values: number[];
  end: number;
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The JSON array of numbers starting at `bytes[start]` (a `[`), or null where it is anything else or
 * not a valid JSON array of numbers (the caller then leaves it to JSON.parse).
 */
export function parseNumberArray(bytes: Uint8Array, start: number, limit = bytes.length): NumberArray | null {
  if (bytes[start] !== 0x5b) return null;
  const values: number[] = [];
  let i = start + 1;
  while (i < limit && isSpace(bytes[i]!)) i++;
  if (bytes[i] === 0x5d) return { values, end: i + 1 };
  for (;;) {
    // one number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
    const from = i;
    let neg = false;
    if (bytes[i] === 0x2d) {
      neg = true;
      i++;
    }
    let c = bytes[i]!;
    if (c < 0x30 || c > 0x39) return null;
    // c1: the first up to 9 significant digits; c2: the next up to 9 (n2 of them); more: Number()
    let c1 = 0;
    let c2 = 0;
    let n1 = 0;
    let n2 = 0;
    let more = false;
    // digits after the point that are significant or follow the first significant one (scale)
    let scale = 0;
    if (c === 0x30) {
      i++;
      c = bytes[i]!;
      if (c >= 0x30 && c <= 0x39) return null; // a leading zero
    } else {
      while (c >= 0x30 && c <= 0x39) {
        if (n1 < 9) {
          c1 = c1 * 10 + (c - 0x30);
          n1++;
        } else if (n2 < 9) {
          c2 = c2 * 10 + (c - 0x30);
          n2++;
        } else more = true;
        c = bytes[++i]!;
      }
    }
    if (c === 0x2e) {
      c = bytes[++i]!;
      if (c < 0x30 || c > 0x39) return null;
      while (c >= 0x30 && c <= 0x39) {
        if (n1 === 0 && c === 0x30) scale++;
        else if (n1 < 9) {
          c1 = c1 * 10 + (c - 0x30);
          n1++;
          scale++;
        } else if (n2 < 9) {
          c2 = c2 * 10 + (c - 0x30);
          n2++;
          scale++;
        } else more = true;
        c = bytes[++i]!;
      }
    }
    let exp = 0;
    let expOk = true;
    if (c === 0x65 || c === 0x45) {
      c = bytes[++i]!;
      let eneg = false;
      if (c === 0x2b || c === 0x2d) {
        eneg = c === 0x2d;
        c = bytes[++i]!;
      }
      if (c < 0x30 || c > 0x39) return null;
      while (c >= 0x30 && c <= 0x39) {
        if (exp < 100000) exp = exp * 10 + (c - 0x30);
        else expOk = false;
        c = bytes[++i]!;
      }
      if (eneg) exp = -exp;
    }
    if (i > limit) return null;
    // value = (c1 * 10^n2 + c2) * 10^(exp - scale), unless `more` digits or an odd exponent
    const v = more || !expOk ? NaN : exact(c1, c2, n2, exp - scale);
    values.push(v === v ? (neg ? -v : v) : Number(latin1.decode(bytes.subarray(from, i))));
    while (i < limit && isSpace(bytes[i]!)) i++;
    c = bytes[i]!;
    if (c === 0x2c) {
      i++;
      while (i < limit && isSpace(bytes[i]!)) i++;
      continue;
    }
    if (c === 0x5d && i < limit) return { values, end: i + 1 };
    return null;
  }
}

/** (c1 * 10^n2 + c2) * 10^e correctly rounded, or NaN where Number() of the text has to say. */
function exact(c1: number, c2: number, n2: number, e: number): number {
  // c1 < 10^9 and 10^n2 = 2^n2 * 5^n2 (n2 <= 9): c1 * 10^n2 is a double exactly
  const a = c1 * POW10[n2]!;
  const s = a + c2;
  // m = s + err exactly (a >= 10^n2 > c2 when n2 > 0; both 0 otherwise)
  const err = c2 - (s - a);
  if (s === 0) return 0;
  if (err === 0 && s <= TWO53) {
    if (e >= 0 && e <= 22) return s * POW10[e]!;
    if (e < 0 && e >= -22) return s / POW10[-e]!;
    return NaN;
  }
  if (e >= 0 || e < -22) return NaN;
  const k = -e;
  const p = POW10[k]!;
  const q = s / p;
  // one correction: q plus the residual's quotient, then checked by its own residual
  const q2 = q + residual(s, err, q, k) / p;
  const r2 = residual(s, err, q2, k);
  f64[0] = q2;
  const hiWord = u32[HI]!;
  // q2 a power of two: the unit below it is half the one above (rare: leave it to Number)
  if ((hiWord & 0xfffff) === 0 && u32[LO] === 0) return NaN;
  const biased = (hiWord >>> 20) & 0x7ff;
  if (biased <= 53) return NaN;
  // half the unit in the last place of q2, times p
  u32[HI] = (biased - 53) << 20;
  u32[LO] = 0;
  const half = f64[0]! * p;
  const ar = r2 < 0 ? -r2 : r2;
  // q2 is the nearest double when the exact value is less than half a unit from it (with a margin
  // far above the residual's own rounding)
  return ar < half * (1 - 1e-7) ? q2 : NaN;
}

/** m - q * 10^k for m = s + err, nearly exact: q * 10^k as Dekker's exact product, s - its high part exact. */
function residual(s: number, err: number, q: number, k: number): number {
  const ph = q * POW10[k]!;
  const cq = 134217729 * q;
  const qh = cq - (cq - q);
  const ql = q - qh;
  const Ph = POW10_HI[k]!;
  const Pl = POW10_LO[k]!;
  const pl = qh * Ph - ph + qh * Pl + ql * Ph + ql * Pl;
  return s - ph - pl + err;
}
