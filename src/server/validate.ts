// The one request validator every HTTP host uses (service.md 2): the body must be a JSON object;
// fields are checked in schema order (missing required -> MISSING_FIELD, wrong type -> INVALID_FIELD,
// explicit null on an optional field -> its default); unknown keys are reported afterwards, sorted,
// as UNKNOWN_FIELDS. Every failure is a 400.

import { ApiError } from "./errors.js";
import { cutLongStrings, restoreCut } from "./json-bytes.js";

export type FieldType = "string" | "int" | "number" | "bool" | "array" | "object" | "bars";

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  /** Default for an omitted or null optional field (a function gives a fresh object per request). */
  default?: unknown | (() => unknown);
  /** Inclusive numeric bounds (int, number) or item-count bounds (array). */
  min?: number;
  max?: number;
}

export type Schema = readonly FieldSpec[];

/** Request body cap (service.md 7). */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

const TYPE_NAMES: Record<FieldType, string> = {
  string: "string",
  int: "integer",
  number: "number",
  bool: "boolean",
  array: "array",
  object: "object",
  bars: "array of bars or columns {time, open, high, low, close, volume?} (arrays, or base64 float64 strings)",
};

/** The columns of a columnar `bars` field: the required ones, then volume. */
const BAR_COLUMNS = ["time", "open", "high", "low", "close"] as const;

/** This host stores doubles little-endian (every JS host resin runs on does; the DataView path is the fallback). */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([-0]).buffer)[7] === 0x80;
/** Node's Buffer where there is one: its base64 decoding is native; atob's string of bytes is ~10x slower. */
const NodeBuffer = (globalThis as { Buffer?: { from(s: string, enc: "base64"): Uint8Array } }).Buffer;

/**
 * A column sent as a string: base64 of its values as little-endian IEEE-754 doubles, 8 bytes each.
 * Why: as JSON numbers, a column of full-precision prices costs far more to parse than it does to run
 * over (JSON.parse of 20k bars of generated doubles took about 25 ms of a server's CPU per /optimize
 * study, a trial 5-8 ms); decoding the bytes costs about a millisecond. null when the string is not
 * such a column.
 */
export function decodeColumn(s: string): Float64Array | null {
  if (s.length % 4 !== 0) return null;
  // standard base64 only: Buffer also decodes the URL-safe alphabet ('-', '_') where atob throws, so
  // one body would decode on Node and be refused on a host without Buffer (two native scans, no regex)
  if (s.indexOf("-") !== -1 || s.indexOf("_") !== -1) return null;
  // Buffer skips characters outside base64 and atob whitespace, so a string with any of them decodes
  // to fewer bytes than its length promises: that test is the validation (a regular expression over
  // the string cost more than the decoding)
  const expected = (s.length / 4) * 3 - (s.endsWith("==") ? 2 : s.endsWith("=") ? 1 : 0);
  let bytes: Uint8Array;
  if (NodeBuffer) bytes = NodeBuffer.from(s, "base64");
  else {
    let text: string;
    try {
      text = atob(s);
    } catch {
      return null;
    }
    bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  }
  if (bytes.length !== expected || bytes.length % 8 !== 0) return null;
  // a Float64Array needs an 8-aligned buffer of its own: a large Buffer has one (its bytes from 0 to its
  // end); Node's small buffers share a pool, and their bytes are copied out
  const own = (
    bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length
      ? bytes.buffer
      : bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
  ) as ArrayBuffer;
  if (LITTLE_ENDIAN) return new Float64Array(own);
  const view = new DataView(own);
  const out = new Float64Array(bytes.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(i * 8, true);
  return out;
}

/**
 * A `bars` field given as columns (service.md 1: "Also accepted: columnar {time:[], open:[], ...}"):
 * an object of the five price columns and an optional volume column of one length, each an array or
 * a base64 string of float64 values (decodeColumn). Returns the columns with those strings decoded.
 * Their values are checked as a run checks bars (a data error names the first bad bar), not here.
 */
function checkBarColumns(field: string, v: Record<string, unknown>): Record<string, unknown> {
  const unknown = Object.keys(v)
    .filter((k) => k !== "volume" && !(BAR_COLUMNS as readonly string[]).includes(k))
    .sort();
  if (unknown.length)
    throw new ApiError(400, "INVALID_FIELD", `field '${field}' has unknown columns: ${unknown.join(", ")}`, {
      field,
      expected: TYPE_NAMES.bars,
      columns: unknown,
    });
  const out: Record<string, unknown> = { ...v };
  let n = -1;
  for (const column of [...BAR_COLUMNS, "volume"]) {
    let col = v[column];
    if (column === "volume" && (col === undefined || col === null)) continue;
    if (typeof col === "string") {
      col = decodeColumn(col);
      if (!col)
        throw new ApiError(
          400,
          "INVALID_FIELD",
          `field '${field}' column '${column}' is a string but not base64 of little-endian float64 values`,
          { field, expected: TYPE_NAMES.bars, column },
        );
      out[column] = col;
    }
    if (!Array.isArray(col) && !(col instanceof Float64Array))
      throw new ApiError(
        400,
        "INVALID_FIELD",
        `field '${field}' column '${column}' must be an array or a base64 string`,
        {
          field,
          expected: TYPE_NAMES.bars,
          column,
        },
      );
    if (column === "time") n = col.length;
    if (col.length !== n)
      throw new ApiError(
        400,
        "INVALID_FIELD",
        `field '${field}' column '${column}' has ${col.length} values where 'time' has ${n}`,
        { field, expected: TYPE_NAMES.bars, column },
      );
  }
  return out;
}

/** How many bars a `bars` field holds (rows or columns). */
export function barCount(v: unknown): number {
  if (Array.isArray(v)) return v.length;
  const time = (v as { time?: unknown } | null)?.time;
  // (columns sent as base64 strings are decoded by validateBody before anyone counts them)
  return Array.isArray(time) || time instanceof Float64Array ? time.length : 0;
}

function isType(v: unknown, type: FieldType): boolean {
  switch (type) {
    case "string":
      return typeof v === "string";
    case "int":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number" && Number.isFinite(v);
    case "bool":
      return typeof v === "boolean";
    case "array":
      return Array.isArray(v);
    case "object":
      return v !== null && typeof v === "object" && !Array.isArray(v);
    case "bars":
      return v !== null && typeof v === "object";
  }
}

function invalid(field: string, message: string, expected?: string): never {
  throw new ApiError(400, "INVALID_FIELD", message, expected ? { field, expected } : { field });
}

/** Checks a parsed body against a schema and returns the fields with defaults applied. */
export function validateBody(body: unknown, schema: Schema): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw new ApiError(400, "INVALID_BODY", "request body must be a JSON object");
  }
  const raw = body as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const f of schema) {
    const v = raw[f.name];
    if (v === undefined || v === null) {
      if (f.required) throw new ApiError(400, "MISSING_FIELD", `missing required field '${f.name}'`, { field: f.name });
      out[f.name] = typeof f.default === "function" ? (f.default as () => unknown)() : (f.default ?? null);
      continue;
    }
    if (!isType(v, f.type))
      invalid(f.name, `field '${f.name}' must be ${article(TYPE_NAMES[f.type])}`, TYPE_NAMES[f.type]);
    const value = f.type === "bars" && !Array.isArray(v) ? checkBarColumns(f.name, v as Record<string, unknown>) : v;
    if (f.type === "int" || f.type === "number") {
      const n = v as number;
      if (f.min !== undefined && n < f.min)
        invalid(f.name, `field '${f.name}' must be >= ${f.min}`, TYPE_NAMES[f.type]);
      if (f.max !== undefined && n > f.max)
        invalid(f.name, `field '${f.name}' must be <= ${f.max}`, TYPE_NAMES[f.type]);
    }
    if ((f.type === "array" || f.type === "bars") && f.max !== undefined && barCount(value) > f.max) {
      invalid(f.name, `field '${f.name}' has more than ${f.max} items`, TYPE_NAMES[f.type]);
    }
    out[f.name] = value;
  }
  const known = new Set(schema.map((f) => f.name));
  const unknown = Object.keys(raw)
    .filter((k) => !known.has(k))
    .sort();
  if (unknown.length) {
    throw new ApiError(400, "UNKNOWN_FIELDS", `unknown fields: ${unknown.join(", ")}`, { fields: unknown });
  }
  return out;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/** A JSON media type: application/json or any application/*+json, parameters allowed. */
function isJsonType(header: string | null): boolean {
  if (!header) return false;
  const type = (header.split(";")[0] as string).trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * Reads a request body as JSON: 415 UNSUPPORTED_MEDIA_TYPE unless the content type is JSON (a
 * `text/plain` body is what a cross-site form or no-preflight fetch can send, so it is never
 * parsed), 400 INVALID_BODY for an empty or malformed body. The size cap (413 BODY_TOO_LARGE)
 * is the app's body-limit middleware, applied before any route reads. `hostBytes` reads the body's
 * bytes where the host can for less (AppOptions.bodyBytes), which are parsed without their long
 * strings' text (json-bytes.ts: with `columns`, a top-level `data` object's base64 bar columns come
 * back decoded); when it gives null, the Request reads the text.
 */
export async function readJsonBody(
  req: Request,
  hostBytes?: () => Promise<Uint8Array> | null,
  columns = false,
): Promise<unknown> {
  if (!isJsonType(req.headers.get("content-type"))) {
    throw new ApiError(
      415,
      "UNSUPPORTED_MEDIA_TYPE",
      "the request body must be JSON with content-type application/json",
      { expected: "application/json" },
    );
  }
  const reading = hostBytes?.();
  if (!reading) return parseBody(await req.text());
  const bytes = await reading;
  const cut = cutLongStrings(bytes);
  if (!cut) return parseBody(utf8.decode(bytes));
  return restoreCut(parseBody(utf8.decode(cut.rest)), cut, columns);
}

/** A body's text as the Request's text() decodes its bytes (BOM dropped, bad bytes replaced). */
const utf8 = new TextDecoder();

function parseBody(text: string): unknown {
  if (text.trim() === "") throw new ApiError(400, "INVALID_BODY", "request body is empty; expected a JSON object");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "INVALID_BODY", "request body is not valid JSON");
  }
}
