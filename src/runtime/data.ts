// Bar input validation for the Runtime: rows or columns (plain or typed arrays) become Float64Array
// columns; the first bad bar is a data error with its index.
import type { OhlcvInput } from "../core/result.js";

export interface Columns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export class DataError extends Error {
  constructor(
    message: string,
    readonly bar?: number,
  ) {
    super(message);
    this.name = "DataError";
  }
}

const FIELDS = ["time", "open", "high", "low", "close"] as const;

export function toColumns(input: OhlcvInput | unknown): Columns {
  if (Array.isArray(input)) {
    const n = input.length;
    const c = alloc(n);
    for (let i = 0; i < n; i++) {
      const b = input[i] as Record<string, unknown> | null;
      if (!b || typeof b !== "object") throw new DataError(`bar ${i} is not an object`, i);
      for (const f of FIELDS) c[f][i] = num(b[f]);
      c.volume[i] = b.volume === undefined || b.volume === null ? NaN : num(b.volume);
    }
    return validate(c);
  }
  if (input && typeof input === "object") {
    const o = input as Record<string, ArrayLike<unknown> | undefined>;
    for (const f of FIELDS) if (!o[f] || typeof o[f]!.length !== "number") throw new DataError(`columnar bars need a '${f}' column`);
    const n = o.time!.length;
    for (const f of FIELDS) if (o[f]!.length !== n) throw new DataError(`column '${f}' has ${o[f]!.length} values, 'time' has ${n}`);
    const c = alloc(n);
    for (const f of FIELDS) for (let i = 0; i < n; i++) c[f][i] = num(o[f]![i]);
    const vol = o.volume;
    for (let i = 0; i < n; i++) c.volume[i] = vol && vol[i] !== undefined && vol[i] !== null ? num(vol[i]) : NaN;
    return validate(c);
  }
  throw new DataError("ohlcv must be an array of bars or an object of columns");
}

function num(x: unknown): number {
  return typeof x === "number" ? x : typeof x === "string" && x.trim() !== "" ? Number(x) : NaN;
}

function alloc(n: number): Columns {
  return {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
}

function validate(c: Columns): Columns {
  const n = c.time.length;
  for (let i = 0; i < n; i++) {
    for (const f of FIELDS) {
      if (!Number.isFinite(c[f][i]!)) throw new DataError(`bar ${i}: ${f} is missing or not a finite number`, i);
    }
    if (i > 0 && !(c.time[i]! > c.time[i - 1]!)) throw new DataError(`bar ${i}: time does not increase`, i);
    if (c.high[i]! < c.low[i]!) throw new DataError(`bar ${i}: high < low`, i);
  }
  return c;
}

/** The chart timeframe from the spacing of bar times (median), else "D". */
export function inferTimeframe(time: Float64Array): string {
  if (time.length < 2) return "D";
  const diffs: number[] = [];
  for (let i = 1; i < Math.min(time.length, 200); i++) diffs.push(time[i]! - time[i - 1]!);
  diffs.sort((a, b) => a - b);
  const s = Math.round(diffs[diffs.length >> 1]! / 1000);
  if (s <= 0) return "D";
  if (s % 2_592_000 === 0 || (s >= 28 * 86400 && s <= 31 * 86400)) return "M";
  if (s % 604_800 === 0) return s === 604_800 ? "W" : `${s / 604_800}W`;
  if (s % 86_400 === 0) return s === 86_400 ? "D" : `${s / 86_400}D`;
  if (s % 60 === 0) return String(s / 60);
  return `${s}S`;
}

/** Nominal bar length in ms of a timeframe string (for time_close of the last bar). */
export function timeframeMs(tf: string): number {
  const m = /^(\d*)([SDWM]?)$/.exec(tf.trim());
  if (!m) return 60_000;
  const k = m[1] ? Number(m[1]) : 1;
  switch (m[2]) {
    case "S": return k * 1000;
    case "D": return k * 86_400_000;
    case "W": return k * 604_800_000;
    case "M": return k * 2_629_800_000;
    default: return k * 60_000;
  }
}
