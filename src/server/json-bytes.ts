// A JSON request body parsed from its bytes (the Node host's socket reader, AppOptions.bodyBytes) with
// its long base64 strings left out of the text. A columnar /optimize body of 20k bars is ~1.3 MB, six
// ~212 KB base64 columns and a few hundred bytes around them: decoded whole and parsed, the server's
// main thread made a 1.3 MB string, scanned it twice (UTF-8 decode, JSON.parse), copied each column
// out of it as a string of its own and collected all of that once a study. Here each long string token
// is found in the bytes (the quotes by a native search) and, where it decodes as a column, cut out as
// its one-byte text (a copy, no UTF-8 decode) with the column kept; the rest is decoded and parsed as
// before, with a placeholder where each token stood, then put back. The value is the one
// `JSON.parse(text)` gives, except that a bar column of `data` (given `columns`) is its Float64Array
// already (validate.ts takes either); a body with nothing to cut (no Buffer, no long column, more
// string tokens than a columnar body has before one) goes the whole-text way.

import { decodeColumn } from "./base64-column.js";

/** Byte strings of this length or more are candidates (a column of 20k bars is ~212 KB; keys and scripts stay in the text). */
export const MIN_CUT_BYTES = 4096;
/** String tokens looked at before giving up on a body that has no long one yet (a body of rows has ~6 a bar). */
const MAX_TOKENS = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;

type NodeBufferClass = {
  from(
    a: ArrayBufferLike,
    offset: number,
    length: number,
  ): Uint8Array & {
    toString(encoding: "latin1", start: number, end: number): string;
  };
};
/** Node's Buffer: its native byte search and one-byte text; without it (workerd) the body is decoded whole. */
const NodeBuffer = (globalThis as unknown as { Buffer?: NodeBufferClass }).Buffer;

/** A per-process placeholder prefix nobody can send (a NUL and a random nonce). */
const MARK = `\u0000resin-cut-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}-`;
const MARK_JSON = JSON.stringify(MARK).slice(1, -1);
const encoder = new TextEncoder();

/** The long string tokens of a body that are bar columns, cut out: their text, and the column each decodes to. */
interface Cut {
  text: string[];
  column: Float64Array[];
  /** The body with a placeholder string in place of each cut token. */
  rest: Uint8Array;
}

/**
 * The body's long string tokens (not keys) that decode as bar columns cut out, or null where nothing
 * was cut (the caller then decodes the whole body). Tokens are found as JSON's lexer finds them: a string starts at a quote
 * outside a string and ends at the next quote not escaped by an odd run of backslashes.
 */
export function cutLongStrings(bytes: Uint8Array): Cut | null {
  if (!NodeBuffer || bytes.length < MIN_CUT_BYTES) return null;
  const buf = NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const n = buf.length;
  const spans: number[] = [];
  const text: string[] = [];
  const column: Float64Array[] = [];
  let tokens = 0;
  let pos = 0;
  for (;;) {
    const open = buf.indexOf(QUOTE, pos);
    if (open < 0) break;
    let close = open;
    for (;;) {
      close = buf.indexOf(QUOTE, close + 1);
      if (close < 0) return null;
      let slashes = 0;
      while (buf[close - 1 - slashes] === BACKSLASH) slashes++;
      if (slashes % 2 === 0) break;
    }
    pos = close + 1;
    if (close - open - 1 >= MIN_CUT_BYTES && !isKey(buf, pos, n)) {
      // only a token that decodes as a bar column is cut: then every byte of it is a base64 character
      // (decodeColumn's length test), so its one-byte text is the text JSON.parse would give
      const s = buf.toString("latin1", open + 1, close);
      const c = decodeColumn(s);
      if (c) {
        spans.push(open + 1, close);
        text.push(s);
        column.push(c);
        continue;
      }
    }
    if (++tokens > MAX_TOKENS && !spans.length) return null;
  }
  if (!spans.length) return null;
  const marks = text.map((_, i) => encoder.encode(`${MARK_JSON}${i}`));
  let size = n;
  for (let i = 0; i < marks.length; i++) size += marks[i]!.length - (spans[2 * i + 1]! - spans[2 * i]!);
  const rest = new Uint8Array(size);
  let from = 0;
  let at = 0;
  for (let i = 0; i < marks.length; i++) {
    rest.set(buf.subarray(from, spans[2 * i]!), at);
    at += spans[2 * i]! - from;
    rest.set(marks[i]!, at);
    at += marks[i]!.length;
    from = spans[2 * i + 1]!;
  }
  rest.set(buf.subarray(from), at);
  return { text, column, rest };
}

/** The token that ended before `pos` is an object's key (a colon follows it, after white space). */
function isKey(buf: Uint8Array, pos: number, n: number): boolean {
  while (pos < n && (buf[pos] === 0x20 || buf[pos] === 0x0a || buf[pos] === 0x0d || buf[pos] === 0x09)) pos++;
  return buf[pos] === COLON;
}

/**
 * Puts the cut tokens back into a value parsed from `cut.rest`: each placeholder string becomes its
 * token's text, except a bar column of the top-level `data` object (`columns`: the route's data field
 * takes columns) that decoded, which becomes its Float64Array.
 */
export function restoreCut(value: unknown, cut: Cut, columns: boolean): unknown {
  if (columns && value !== null && typeof value === "object" && !Array.isArray(value)) {
    const data = (value as Record<string, unknown>).data;
    if (data !== null && typeof data === "object" && !Array.isArray(data)) {
      const d = data as Record<string, unknown>;
      for (const k of BAR_COLUMN_KEYS) {
        const i = cutIndex(d[k]);
        if (i >= 0) d[k] = cut.column[i];
      }
    }
  }
  return put(value, cut.text);
}

const BAR_COLUMN_KEYS = ["time", "open", "high", "low", "close", "volume"] as const;

/** The cut token a placeholder names, or -1. */
function cutIndex(v: unknown): number {
  return typeof v === "string" && v.startsWith(MARK) ? Number(v.slice(MARK.length)) : -1;
}

/** `v` with every placeholder string in it replaced by its token's text (objects and arrays in place). */
function put(v: unknown, text: readonly string[]): unknown {
  if (typeof v === "string") {
    const i = cutIndex(v);
    return i >= 0 ? text[i] : v;
  }
  if (v === null || typeof v !== "object" || v instanceof Float64Array) return v;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === "string" || (x !== null && typeof x === "object")) v[i] = put(x, text);
    }
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    const y = put(x, text);
    // (defined, not assigned: a key "__proto__" that JSON.parse made an own property stays one)
    if (y !== x) Object.defineProperty(o, k, { value: y, writable: true, enumerable: true, configurable: true });
  }
  return o;
}
