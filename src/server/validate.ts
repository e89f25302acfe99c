// The one request validator every HTTP host uses (service.md 2): the body must be a JSON object;
// fields are checked in schema order (missing required -> MISSING_FIELD, wrong type -> INVALID_FIELD,
// explicit null on an optional field -> its default); unknown keys are reported afterwards, sorted,
// as UNKNOWN_FIELDS. Every failure is a 400.

import { ApiError } from "./errors.js";
import { decodeColumn } from "./base64-column.js";
import { cutBarData, restoreBarData } from "./json-bar-data.js";
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
 * back decoded) and, with `columns`, a top-level `data` of bars as numbers (rows or number columns)
 * read straight into Float64Array columns (json-bar-data.ts); when it gives null, the Request reads
 * the text.
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
  // (bars as numbers in `data` read straight into columns: json-bar-data.ts)
  const data = columns ? cutBarData(bytes) : null;
  const body = data ? data.rest : bytes;
  const cut = cutLongStrings(body);
  const value = cut ? restoreCut(parseBody(utf8.decode(cut.rest)), cut, columns) : parseBody(utf8.decode(body));
  return data ? restoreBarData(value, data) : value;
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
