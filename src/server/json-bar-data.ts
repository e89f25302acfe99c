// A request body's top-level `data` read from its bytes straight into bar columns, where it is bars
// as numbers: rows [{"time": 1, "open": 2, ...}, ...] or number columns {"time": [1, ...], ...}.
// JSON.parse of 20k rows made 20k objects and 120k number values on the server's main thread, about
// 11 ms of an /optimize study's CPU (docs/benchmarks.md, issue 18, session 26), which the study then
// copied into columns and dropped. Here the value's bytes are checked against JSON's grammar and each
// number is converted where it lies, to the double JSON.parse gives:
// - a mantissa below 2^53 and a power of ten up to 22 (prices as markets quote them): one IEEE
//   division or multiplication of two exact doubles, correctly rounded (Clinger's fast path);
// - 16 to 19 significant digits over 10^0 .. 10^-22 (full-precision prices, as JavaScript prints a
//   computed double): exactQuotient, which says when it cannot tell;
// - anything else (more digits, larger exponents, exactQuotient's rare doubts): one JSON.parse of
//   all such numbers together at the end.
// The rest of the body, with a placeholder string where `data` stood, is parsed as before, so the
// body is accepted or refused exactly as JSON.parse would. The columns are the values JSON.parse
// would give, as Float64Arrays (validate.ts takes either form): rows become the same columns,
// a volume column only where every row has one. Anything else (a key written with an escape, a
// string or null value, a key that is not a bar field, rows with different fields) is not cut and
// the whole body takes JSON.parse's way. Hand-written rather than a library: no JSON library reads
// numbers into typed arrays without making the values first, which is the cost cut here.

/** The bar fields, in the order of the column index used below. */
const FIELDS = ["time", "open", "high", "low", "close", "volume"] as const;
type Field = (typeof FIELDS)[number];
/** Rows must have these (time, open, high, low, close): the mask of their field bits. */
const ROW_REQUIRED = 0b11111;

/**
 * Where more than this share of the numbers read (after SLOW_AFTER of them: the rows', or a
 * column's) take the slow way, the body takes JSON.parse's way: a scan and then a JSON.parse of most
 * of the numbers cost more than one JSON.parse of the body (16-20 ms against 11 for 20k rows).
 */
const SLOW_SHARE = 1 / 8;
const SLOW_AFTER = 64;

/** A body value is cut only from this size on: a small body costs nothing to parse. */
export const MIN_DATA_BYTES = 16 * 1024;

/** Exact powers of ten (10^0 .. 10^22: every one is a double). */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));
/** The largest mantissa a double holds exactly (2^53 - 1). */
const MAX_EXACT = 2 ** 53 - 1;

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** A per-process placeholder nobody can send (a NUL and a random nonce), standing where `data` was. */
export const DATA_MARK = `\u0000resin-data-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
const MARK_BYTES = new TextEncoder().encode(JSON.stringify(DATA_MARK));

export interface BarDataCut {
  /** `data` as columns: each field the value had, as a Float64Array. */
  columns: Partial<Record<Field, Float64Array>>;
  /** The body with the placeholder string in place of `data`'s value. */
  rest: Uint8Array;
}

/** Each field's name as bytes, by field index. */
const FIELD_BYTES = FIELDS.map((name) => Uint8Array.from(name, (ch) => ch.charCodeAt(0)));

/**
 * The field a key's bytes name (without escapes), or -1: picked by its first byte (every field's
 * is its own: t o h l c v), then compared whole (a loop over every field's name for each of a body's
 * 120k keys cost ~1.5 ms of a 20k-row read).
 */
function fieldAt(b: Uint8Array, start: number, end: number): number {
  let f: number;
  switch (b[start]) {
    case 0x74:
      f = 0;
      break;
    case 0x6f:
      f = 1;
      break;
    case 0x68:
      f = 2;
      break;
    case 0x6c:
      f = 3;
      break;
    case 0x63:
      f = 4;
      break;
    case 0x76:
      f = 5;
      break;
    default:
      return -1;
  }
  const name = FIELD_BYTES[f] as Uint8Array;
  if (end - start !== name.length) return -1;
  for (let i = 1; i < name.length; i++) if (b[start + i] !== name[i]) return -1;
  return f;
}

/** The significant digits of the number being read, hi and lo (Reader.digits, quotientInto). */
const mantissa = new Float64Array(2);

const SPLIT = 134217729; // 2^27 + 1: Veltkamp's splitter of a double into two 26-bit halves
const bits = new Float64Array(1);
const words = new Uint32Array(bits.buffer);
/** Word order of a double in `words` (the high word's index). */
const HIGH = new Uint8Array(new Float64Array([-0]).buffer)[7] === 0x80 ? 1 : 0;

/** a * b - round(a * b), exactly (Dekker's product: no fused multiply-add in JavaScript). */
function productError(a: number, b: number, ab: number): number {
  let c = SPLIT * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLIT * b;
  const bh = c - (c - b);
  const bl = b - bh;
  return ah * bh - ab + ah * bl + al * bh + al * bl;
}

/**
 * (hi * 10^k + lo) / p rounded to the nearest double (ties to even) as JSON.parse rounds it, for a
 * mantissa of 16-19 digits (hi < 10^15, lo < 10^k, k <= 4) past 2^53, where Clinger's one division
 * would round twice, and p = 10^f, f <= 22 (a price's 17 significant digits); NaN where this
 * cannot tell (the quotient within 2^-30 of a half-unit from the double found, or at a power of
 * two), which the caller converts the slow way. The mantissa is held exactly as a sum of two doubles
 * (Dekker's product and Knuth's sum); a quotient is taken when its residual M - q * p (exact but for a
 * rounding far below the margin) is within half a unit of q in the last place, scaled by p: the
 * rounded quotient, else that one corrected once by its residual.
 */
export function exactQuotient(hi: number, k: number, lo: number, p: number): number {
  const f = POW10.indexOf(p);
  if (f < 0) return Number.NaN;
  mantissa[0] = hi;
  mantissa[1] = lo;
  quotientInto(k, f);
  return quotient[0] as number;
}

/**
 * exactQuotient's double for the mantissa in `mantissa` and p = 10^f, written to quotient[0]: its
 * doubles neither passed nor returned (a double passed to or returned from a call V8 does not inline
 * is boxed, a heap number or three per price: ~2.5 MB of garbage for 20k rows of full precision).
 */
function quotientInto(k: number, f: number): void {
  const hi = mantissa[0] as number;
  const lo = mantissa[1] as number;
  const p = POW10[f] as number;
  const t = POW10[k] as number;
  const prod = hi * t;
  const prodErr = productError(hi, t, prod);
  const mh = prod + lo;
  const z = mh - prod;
  const ml = prod - (mh - z) + (lo - z) + prodErr;
  // the rounded quotient is most often the nearest double already; else one correction by its residual
  let q = mh / p;
  let qp = q * p;
  let r = mh - qp - productError(q, p, qp) + ml;
  if (Math.abs(r) < halfUnit(q) * p) {
    quotient[0] = q;
    return;
  }
  q += r / p;
  qp = q * p;
  r = mh - qp - productError(q, p, qp) + ml;
  quotient[0] = Math.abs(r) < halfUnit(q) * p ? q : Number.NaN;
}

/** quotientInto's result. */
const quotient = new Float64Array(1);

/**
 * Half of q's unit in the last place less a margin of 2^-30 of it (the residual's own rounding is far
 * below that), for a positive normal q that is not a power of two; NaN otherwise (no comparison holds).
 */
function halfUnit(q: number): number {
  bits[0] = q;
  const high = words[HIGH] as number;
  const exponent = (high >>> 20) & 0x7ff;
  if (exponent <= 53 || exponent === 0x7ff || ((high & 0xfffff) === 0 && words[1 - HIGH] === 0)) return Number.NaN;
  words[HIGH] = (exponent - 52) << 20;
  words[1 - HIGH] = 0;
  return bits[0] * 0.5 * (1 - 2 ** -30);
}

/** A growing column (rows' count is known only at the end). */
class Column {
  values = new Float64Array(1024);
  /**
   * The values, room made for index `at` (the caller stores the number itself: a double passed to a
   * call V8 does not inline is boxed, a heap number per value read).
   */
  room(at: number): Float64Array {
    if (at >= this.values.length) {
      const grown = new Float64Array(Math.max(this.values.length * 2, at + 1));
      grown.set(this.values);
      this.values = grown;
    }
    return this.values;
  }
}

/**
 * The columns a body is read into, one per field, kept from body to body (reading is synchronous: no
 * two bodies share them at once): a body then allocates only its result, one exact copy per column,
 * where growing fresh columns made ~0.5 MB of garbage buffers per 20k-bar column, memory outside the
 * heap that counts toward the main thread's next full collection.
 */
const scratch: Column[] = FIELDS.map(() => new Column());
/** A scratch column grown past this many values (8 MB) is not kept after its body. */
const SCRATCH_KEEP = 1 << 20;

/** Lets go of the scratch columns that grew large (after every body, read or not). */
function trimScratch(): void {
  for (const col of scratch) if (col.values.length > SCRATCH_KEEP) col.values = new Float64Array(1024);
}

/**
 * The reader's state: a position in the bytes, and the numbers too long for the fast path (where
 * each goes: column and index, and its bytes), converted together at the end.
 */
class Reader {
  pos = 0;
  /** Where the last key's bytes start (key). */
  keyStart = 0;
  /** Where each slow number goes: its column's index and its place, two entries a number. */
  readonly slowAt: number[] = [];
  /** The slow numbers' bytes after an opening bracket, each followed by a comma (made at the first). */
  slowText: Uint8Array | null = null;
  slowLength = 1;
  /**
   * The number being read's significant digits (digits): hi and lo in `mantissa` (fields holding
   * doubles were a heap number per store, ~2.5 MB of garbage a 20k-row body), the count of lo's.
   */
  k = 0;
  long = false;
  /** Numbers read, and how many of them slow, since the count began (see SLOW_SHARE). */
  count = 0;
  slow = 0;
  constructor(readonly b: Uint8Array) {}

  /** Skips JSON white space; the byte after it (undefined past the end, which no test matches). */
  ws(): number {
    const b = this.b;
    let p = this.pos;
    let c = b[p] as number;
    while (c === SPACE || c === LF || c === CR || c === TAB) c = b[++p] as number;
    this.pos = p;
    return c;
  }

  /**
   * The object key at `pos` (after white space) and its colon read: the index of the key's closing
   * quote (its bytes start at keyStart), `pos` after the colon; -1 when there is none, it has an
   * escape (never cut) or no colon follows.
   */
  key(): number {
    if (this.ws() !== QUOTE) return -1;
    const end = this.keyEnd();
    if (end < 0) return -1;
    this.keyStart = this.pos + 1;
    this.pos = end + 1;
    if (this.ws() !== COLON) return -1;
    this.pos++;
    return end;
  }

  /** The byte after white space, consumed: the separator or closing bracket that should be there. */
  next(): number {
    const c = this.ws();
    this.pos++;
    return c;
  }

  /** A key's end quote from its start quote at `pos`, or -1 when it has an escape (never cut). */
  private keyEnd(): number {
    const b = this.b;
    let p = this.pos + 1;
    for (;;) {
      const c = b[p];
      if (c === undefined || c === BACKSLASH) return -1;
      if (c === QUOTE) return p;
      p++;
    }
  }

  /**
   * The digits from `p` (one at least) added to the number's significant digits (from the first that
   * is not 0): the first 15 in `hi` (leading zeros leave it 0; below 10^14 it takes one more), the
   * next (k of them, at most 4) in `lo`, so that the mantissa is hi * 10^k + lo exactly; more is
   * `long`. The position after them.
   */
  private digits(p: number): number {
    const b = this.b;
    let hi = mantissa[0] as number;
    let lo = mantissa[1] as number;
    let { k, long } = this;
    let c = b[p] as number;
    do {
      if (hi < 1e14) hi = hi * 10 + (c - ZERO);
      else if (k < 4) {
        lo = lo * 10 + (c - ZERO);
        k++;
      } else long = true;
      c = b[++p] as number;
    } while (c >= ZERO && c <= NINE);
    mantissa[0] = hi;
    mantissa[1] = lo;
    this.k = k;
    this.long = long;
    return p;
  }

  /**
   * A JSON number at `pos` (the whole grammar: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?) into field f's
   * scratch column at `at`: its value now when it is exact, else remembered for `finish`. False when the
   * bytes there are not a number, or when too many numbers are slow (SLOW_SHARE).
   */
  number(f: number, at: number): boolean {
    const b = this.b;
    const start = this.pos;
    let p = start;
    let c = b[p] as number;
    const neg = c === MINUS;
    if (neg) c = b[++p] as number;
    mantissa[0] = 0;
    mantissa[1] = 0;
    this.k = 0;
    this.long = false;
    if (c === ZERO) c = b[++p] as number;
    else if (c > ZERO && c <= NINE) {
      p = this.digits(p);
      c = b[p] as number;
    } else return false;
    let e = 0;
    if (c === DOT) {
      const fractionStart = ++p;
      c = b[p] as number;
      if (!(c >= ZERO && c <= NINE)) return false;
      p = this.digits(p);
      e = fractionStart - p;
      c = b[p] as number;
    }
    if (c === LOWER_E || c === UPPER_E) {
      c = b[++p] as number;
      let eneg = false;
      if (c === PLUS || c === MINUS) {
        eneg = c === MINUS;
        c = b[++p] as number;
      }
      if (!(c >= ZERO && c <= NINE)) return false;
      let x = 0;
      do {
        if (x < 1e6) x = x * 10 + (c - ZERO);
        c = b[++p] as number;
      } while (c >= ZERO && c <= NINE);
      e += eneg ? -x : x;
    }
    this.pos = p;
    this.count++;
    const hi = mantissa[0] as number;
    const lo = mantissa[1] as number;
    const { k, long } = this;
    // the mantissa when it is below 2^53 (then the sum is exact: a rounded one would be past it)
    const m = k === 0 ? hi : hi * (POW10[k] as number) + lo;
    let v = Number.NaN;
    if (!long && e >= -22 && e <= 22) {
      if (m <= MAX_EXACT) v = e < 0 ? m / (POW10[-e] as number) : m * (POW10[e] as number);
      else if (e <= 0) {
        quotientInto(k, 0 - e);
        v = quotient[0] as number;
      }
    }
    const values = (scratch[f] as Column).room(at);
    if (v === v) values[at] = neg ? -v : v;
    else {
      if (++this.slow > this.count * SLOW_SHARE && this.count >= SLOW_AFTER) return false;
      values[at] = 0;
      this.slowAt.push(f, at);
      let text = this.slowText;
      let w = this.slowLength;
      if (text === null || w + (p - start) + 1 > text.length) {
        // (grown as needed: a body-sized buffer made for the first slow number of a body that then
        // turns out to be full precision was megabytes of external memory to collect)
        const grown = new Uint8Array(Math.max(4096, 2 * (w + (p - start) + 1)));
        if (text === null) grown[0] = OPEN_BRACKET;
        else grown.set(text.subarray(0, w));
        text = this.slowText = grown;
      }
      // (byte by byte: a subarray per number cost more than the copy)
      for (let i = start; i < p; i++) text[w++] = b[i] as number;
      text[w++] = COMMA;
      this.slowLength = w;
    }
    return true;
  }

  /** The remembered numbers converted as JSON.parse converts them (one parse of them all) into their columns. */
  finish(): void {
    const text = this.slowText;
    if (text === null) return;
    // (the last comma becomes the closing bracket)
    text[this.slowLength - 1] = CLOSE_BRACKET;
    const values = JSON.parse(ascii.decode(text.subarray(0, this.slowLength))) as number[];
    const where = this.slowAt;
    for (let i = 0; i < values.length; i++)
      (scratch[where[2 * i] as number] as Column).values[where[2 * i + 1] as number] = values[i] as number;
  }
}

const ascii = new TextDecoder();

/**
 * Rows at `r.pos` (an array of objects whose keys are bar fields and values numbers, every row with
 * the same fields, time to close among them) into columns, or null.
 */
function readRows(r: Reader): Partial<Record<Field, Float64Array>> | null {
  const b = r.b;
  r.pos++;
  if (r.ws() === CLOSE_BRACKET) return null;
  let fields = -1;
  let n = 0;
  for (;;) {
    if (r.ws() !== OPEN_BRACE) return null;
    r.pos++;
    let seen = 0;
    for (;;) {
      const end = r.key();
      if (end < 0) return null;
      const f = fieldAt(b, r.keyStart, end);
      if (f < 0 || seen & (1 << f)) return null;
      seen |= 1 << f;
      r.ws();
      if (!r.number(f, n)) return null;
      const c = r.next();
      if (c === COMMA) continue;
      if (c === CLOSE_BRACE) break;
      return null;
    }
    if (fields < 0) {
      if ((seen & ROW_REQUIRED) !== ROW_REQUIRED) return null;
      fields = seen;
    } else if (seen !== fields) return null;
    n++;
    const c = r.next();
    if (c === COMMA) continue;
    if (c === CLOSE_BRACKET) break;
    return null;
  }
  r.finish();
  return takeColumns(FIELDS.map((_, f) => (fields & (1 << f) ? n : -1)));
}

/** Columns at `r.pos` (an object whose keys are bar fields and values arrays of numbers), or null. */
function readColumns(r: Reader): Partial<Record<Field, Float64Array>> | null {
  const b = r.b;
  r.pos++;
  // each field's length, -1 for a field the value does not have
  const lengths: number[] = FIELDS.map(() => -1);
  if (r.ws() === CLOSE_BRACE) return null;
  for (;;) {
    const end = r.key();
    if (end < 0) return null;
    const f = fieldAt(b, r.keyStart, end);
    if (f < 0 || (lengths[f] as number) >= 0) return null;
    // (each column's share of slow numbers on its own: times are all fast)
    r.count = 0;
    r.slow = 0;
    if (r.ws() !== OPEN_BRACKET) return null;
    r.pos++;
    let n = 0;
    if (r.ws() === CLOSE_BRACKET) r.pos++;
    else
      for (;;) {
        r.ws();
        if (!r.number(f, n)) return null;
        n++;
        const c = r.next();
        if (c === COMMA) continue;
        if (c === CLOSE_BRACKET) break;
        return null;
      }
    lengths[f] = n;
    const c = r.next();
    if (c === COMMA) continue;
    if (c === CLOSE_BRACE) break;
    return null;
  }
  r.finish();
  return takeColumns(lengths);
}

/**
 * The scratch columns as the value's columns, each a Float64Array of its own: field f's first
 * lengths[f] values (-1: the value has no such field).
 */
function takeColumns(lengths: readonly number[]): Partial<Record<Field, Float64Array>> {
  const out: Partial<Record<Field, Float64Array>> = {};
  for (let f = 0; f < FIELDS.length; f++) {
    const n = lengths[f] as number;
    if (n >= 0) out[FIELDS[f] as Field] = (scratch[f] as Column).values.slice(0, n);
  }
  return out;
}

/**
 * The end of the JSON value at `r.pos` (not checked: the rest of the body goes through JSON.parse,
 * which refuses what is wrong), strings found as JSON's lexer finds them; -1 at the end of the bytes.
 */
function skipValue(r: Reader): number {
  const b = r.b;
  let p = r.pos;
  let depth = 0;
  for (; p < b.length; p++) {
    const c = b[p];
    if (c === QUOTE) {
      for (p++; p < b.length && b[p] !== QUOTE; p++) if (b[p] === BACKSLASH) p++;
      if (p >= b.length) return -1;
      if (depth === 0) return p + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return p;
      if (--depth === 0) return p + 1;
    } else if (depth === 0 && (c === COMMA || c === SPACE || c === LF || c === CR || c === TAB)) return p;
  }
  return depth === 0 ? p : -1;
}

/**
 * The body's top-level `data` read into columns with the placeholder in its place (BarDataCut), or
 * null where it is not bars as numbers (or the body is too small to bother).
 */
export function cutBarData(bytes: Uint8Array): BarDataCut | null {
  if (bytes.length < MIN_DATA_BYTES) return null;
  const r = new Reader(bytes);
  if (r.ws() !== OPEN_BRACE) return null;
  r.pos++;
  for (;;) {
    const end = r.key();
    if (end < 0) return null;
    const k = r.keyStart;
    const isData =
      end - k === 4 && bytes[k] === 0x64 && bytes[k + 1] === 0x61 && bytes[k + 2] === 0x74 && bytes[k + 3] === 0x61;
    const c = r.ws();
    const start = r.pos;
    if (isData) {
      const columns = c === OPEN_BRACKET ? readRows(r) : c === OPEN_BRACE ? readColumns(r) : null;
      trimScratch();
      if (!columns) return null;
      const rest = new Uint8Array(bytes.length - (r.pos - start) + MARK_BYTES.length);
      rest.set(bytes.subarray(0, start), 0);
      rest.set(MARK_BYTES, start);
      rest.set(bytes.subarray(r.pos), start + MARK_BYTES.length);
      return { columns, rest };
    }
    const next = skipValue(r);
    if (next < 0) return null;
    r.pos = next;
    if (r.next() !== COMMA) return null;
  }
}

/** `value` (the rest's parse) with `data` back: the columns where the placeholder is the body's `data`. */
export function restoreBarData(value: unknown, cut: BarDataCut): unknown {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (o.data === DATA_MARK) o.data = cut.columns;
  }
  return value;
}
