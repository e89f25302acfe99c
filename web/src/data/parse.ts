// User data files (CSV or JSON with time,open,high,low,close[,volume]) into packed columns. The
// parsing and validation are the runtime's own (src/core/bars.ts), so an upload is rejected for
// exactly what a run would reject, with the same message naming the line or bar.

import {
  isBarDataError,
  parseCsvBars,
  parseJsonBars,
  type BarColumns,
  type BarDataError,
} from "../../../src/core/bars.js";
import type { PackedBars } from "../../../src/worker/protocol.js";

export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataError";
  }
}

function unwrap(r: BarColumns | BarDataError): PackedBars {
  if (isBarDataError(r)) throw new DataError(r.error);
  if (r.length === 0) throw new DataError("the file has no bars");
  return { time: r.time, open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume };
}

export function parseCsv(text: string): PackedBars {
  return unwrap(parseCsvBars(text));
}

export function parseJson(text: string): PackedBars {
  return unwrap(parseJsonBars(text));
}

/** JSON by extension or by its first character, CSV otherwise. */
export function parseDataFile(name: string, text: string): PackedBars {
  const head = text.trimStart();
  if (name.toLowerCase().endsWith(".json") || head.startsWith("[") || head.startsWith("{")) return parseJson(text);
  return parseCsv(text);
}

/** A content key: FNV-1a over the time and close columns (workers cache bars by it). */
export function contentKey(p: PackedBars): string {
  let h = 0x811c9dc5;
  const mix = (a: Float64Array) => {
    const u = new Uint32Array(a.buffer, a.byteOffset, a.length * 2);
    for (let i = 0; i < u.length; i++) h = Math.imul(h ^ u[i], 0x01000193) >>> 0;
  };
  mix(p.time);
  mix(p.close);
  return `${p.time.length}-${h.toString(16)}`;
}
