// OHLCV input: validation and normalisation into Float64Array columns, CSV/JSON file loading and
// timeframe inference from bar spacing. Bad data is reported as a value ({error, bar}), never thrown.
//
// Accepted shapes: an array of {time, open, high, low, close, volume?}; columnar
// {time: [], open: [], ...} with arrays or typed arrays. time = bar open in ms since the epoch.
// A bar is bad when an OHLC value is missing or not finite, its time is not finite or does not
// increase, or high < low. Volume may be missing: it is then NaN (na), never invented.

import { ownFloat64, scanBars } from "./bar-scan.js";
import { parseDateString } from "./time-parse.js";
import type { ColumnarBars } from "./result.js";

/**
 * Validated bars. Read-only: a column may be the caller's own Float64Array (normalizeBars copies
 * nothing it does not have to), so code that needs to write makes its own copy.
 */
export interface BarColumns {
  length: number;
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /**
   * Set by normalizeBars: the gap (ms) between every two consecutive bars when all gaps are equal,
   * NaN when they are not (or fewer than two bars). barsTimeframe reads it instead of a pass over time.
   */
  spacing?: number;
  /**
   * Set by normalizeBars: true when it made the time and OHLC columns itself (rows, plain arrays,
   * other typed or shared arrays, converted): no caller holds them, so nothing can write into them
   * after the run (the event log then keeps no checksum of them: strategy/events.ts).
   */
  copied?: boolean;
}

export interface BarDataError {
  error: string;
  /** Index of the first bad bar (-1 when the input as a whole is malformed). */
  bar: number;
  /** 1-based line of a CSV file, when the data came from one. */
  line?: number;
}

export function isBarDataError(x: unknown): x is BarDataError {
  return typeof x === "object" && x !== null && typeof (x as BarDataError).error === "string";
}

const PRICE_FIELDS = ["open", "high", "low", "close"] as const;
type Field = "time" | (typeof PRICE_FIELDS)[number] | "volume";

/**
 * A decimal number written as text ("12", "-0.5", "1e3"). JavaScript's Number() also reads "0x10",
 * "0b1", "0o7" and "Infinity", which no price or time file means: those stay unread (NaN), so the bar
 * check names the row instead of a silent 16.
 */
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function toNumber(v: unknown): number {
  if (typeof v === "number") return v;
  if (v instanceof Date) return v.getTime();
  if (typeof v === "string" && DECIMAL.test(v)) return Number(v);
  return NaN;
}

function describe(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v) ?? String(v);
}

function emptyColumns(n: number): BarColumns {
  return {
    length: n,
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
    spacing: NaN,
    copied: true,
  };
}

/** Checks bar i of filled columns (time order against bar i-1, finiteness, high >= low). */
function checkBar(c: BarColumns, i: number, raw: (f: Field) => unknown): BarDataError | null {
  const t = c.time[i]!;
  if (!Number.isFinite(t))
    return {
      error: `bar ${i}: time is ${describe(raw("time"))} (expected a finite number of ms since the epoch)`,
      bar: i,
    };
  for (const f of PRICE_FIELDS) {
    if (!Number.isFinite(c[f][i]!))
      return { error: `bar ${i}: ${f} is ${describe(raw(f))} (expected a finite number)`, bar: i };
  }
  if (i > 0 && !(t > c.time[i - 1]!)) {
    return { error: `bar ${i}: time ${t} does not increase (previous bar's time is ${c.time[i - 1]})`, bar: i };
  }
  if (c.high[i]! < c.low[i]!) return { error: `bar ${i}: high ${c.high[i]} is below low ${c.low[i]}`, bar: i };
  return null;
}

/** Validates and normalises OHLCV input into columns; returns a BarDataError for bad data. */
export function normalizeBars(input: unknown): BarColumns | BarDataError {
  const held = input !== null && typeof input === "object" ? settled.get(input) : undefined;
  if (held !== undefined) return held;
  const cols = Array.isArray(input)
    ? fromRows(input)
    : input && typeof input === "object"
      ? fromColumns(input as Record<string, unknown>)
      : null;
  if (cols !== null) return isBarDataError(cols) ? cols : (secondsAsMs(cols) ?? cols);
  return {
    error:
      "ohlcv must be an array of bars {time, open, high, low, close, volume?} or columns {time: [], open: [], ...}",
    bar: -1,
  };
}

/**
 * Input a host holds read-only for many runs (an optimize thread's copy of a study's bars,
 * server/trial-bars.ts), by the input object: validated once (settleBars), and every later run of
 * the same object gets the same columns back instead of a scan of every bar (~0.05 ms a run at 20k
 * bars, ~2% of an optimize trial). Weak: the entry goes with the input.
 */
const settled = new WeakMap<object, BarColumns>();
/** The time columns of settled input (runtime/bar-close.ts serves their close times without comparing them again). */
const settledTimes = new WeakSet<Float64Array>();

/**
 * normalizeBars(input), remembered for `input`: the caller promises never to write into its
 * columns again (nor into the columns it was given back), so runs over it skip the check. Bad data
 * is not remembered (each run reports it as a run does).
 */
export function settleBars(input: ColumnarBars): BarColumns | BarDataError {
  const cols = normalizeBars(input);
  if (!isBarDataError(cols)) {
    settled.set(input, cols);
    settledTimes.add(cols.time);
  }
  return cols;
}

/** Whether `time` is the time column of settled input (settleBars): nobody writes into it. */
export function isSettledTime(time: Float64Array): boolean {
  return settledTimes.has(time);
}

/**
 * Times are ms since the epoch. Every time between 1e9 and 1e11 reads as 1970-01-12 .. 1973-03-03 in ms
 * but as 2001 .. 5138 in unix seconds: such data is seconds passed where ms are due, refused with the
 * fix rather than charted in 1970 (the file loaders take seconds: parseCsvBars/parseJsonBars).
 */
function secondsAsMs(c: BarColumns): BarDataError | null {
  const t = c.time;
  const n = t.length;
  if (n === 0 || !(t[0]! >= 1e9) || !(t[n - 1]! < SECONDS_BELOW)) return null;
  return {
    error: `bar 0: time ${t[0]} is ${new Date(t[0]!).toISOString()} as ms but ${new Date(t[0]! * 1000).toISOString()} as unix seconds: times are ms since the epoch (multiply unix seconds by 1000)`,
    bar: 0,
  };
}

/**
 * Rows are converted and checked in the same pass, bar by bar: the first bad bar (or non-object
 * row) stops it, so the bars before it are known good and the reported bar is the first bad one.
 */
function fromRows(rows: unknown[]): BarColumns | BarDataError {
  const n = rows.length;
  const c = emptyColumns(n);
  const { time, open, high, low, close, volume } = c;
  let prev = -Infinity;
  let d0 = NaN;
  let even = n > 1;
  let i = 0;
  for (; i < n; i++) {
    const r = rows[i];
    if (!r || typeof r !== "object")
      return {
        error: `bar ${i}: expected an object {time, open, high, low, close, volume?}, got ${describe(r)}`,
        bar: i,
      };
    const o = r as Record<string, unknown>;
    const tv = o.time,
      op = o.open,
      hi = o.high,
      lo = o.low,
      cl = o.close,
      vo = o.volume;
    const t = typeof tv === "number" ? tv : timeValue(tv);
    const a = typeof op === "number" ? op : toNumber(op);
    const h = typeof hi === "number" ? hi : toNumber(hi);
    const l = typeof lo === "number" ? lo : toNumber(lo);
    const x = typeof cl === "number" ? cl : toNumber(cl);
    time[i] = t;
    open[i] = a;
    high[i] = h;
    low[i] = l;
    close[i] = x;
    volume[i] = typeof vo === "number" ? vo : vo === undefined || vo === null ? NaN : toNumber(vo);
    // (all five finite exactly when the sum of x - x is 0, as in scanBars)
    if (!(t - t + (a - a) + (h - h) + (l - l) + (x - x) === 0 && t > prev && h >= l)) break;
    if (i === 1) d0 = t - prev;
    else if (i > 1 && t - prev !== d0) even = false;
    prev = t;
  }
  // (the message is built out here: a closure inside the loop would cost a context per bar)
  if (i < n) {
    const bad = rows[i] as Record<string, unknown>;
    return checkBar(c, i, (f) => bad[f])!;
  }
  c.spacing = even ? d0 : NaN;
  return c;
}

function isColumn(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || ArrayBuffer.isView(v);
}

/** A typed array of plain numbers (not BigInt64Array or DataView): copied with one `set`. */
function isNumberArray(v: unknown): v is ArrayLike<number> & ArrayBufferView {
  return (
    ArrayBuffer.isView(v) && !(v instanceof DataView) && !(v instanceof BigInt64Array) && !(v instanceof BigUint64Array)
  );
}

/**
 * One input column as a Float64Array: a Float64Array as it is (ownFloat64: the run never writes
 * into its columns), anything else copied into a new one, converting each value as rows do.
 */
function column(col: ArrayLike<unknown>, n: number, isTime: boolean, missingIsNaN: boolean): Float64Array {
  const own = ownFloat64(col);
  if (own) return own;
  const out = new Float64Array(n);
  if (isNumberArray(col)) {
    out.set(col);
    return out;
  }
  // plain arrays of numbers (the common JSON shape) copy without conversions
  const done = Array.isArray(col) ? copyNumbers(col, out, n) : 0;
  if (done < n) convertValues(col, out, done, n, isTime, missingIsNaN);
  return out;
}

/** Copies arr[0..n) into out while the values are numbers; returns where it stopped. (Its own small
 * function: V8 keeps one optimised loop for it, which a loop shared with the conversions did not.) */
function copyNumbers(arr: unknown[], out: Float64Array, n: number): number {
  let i = 0;
  for (; i < n; i++) {
    const v = arr[i];
    if (typeof v !== "number") break;
    out[i] = v;
  }
  return i;
}

function convertValues(
  col: ArrayLike<unknown>,
  out: Float64Array,
  from: number,
  n: number,
  isTime: boolean,
  missingIsNaN: boolean,
): void {
  for (let i = from; i < n; i++) {
    const v = col[i];
    if (typeof v === "number") out[i] = v;
    else if (missingIsNaN && (v === undefined || v === null)) out[i] = NaN;
    else out[i] = isTime ? timeValue(v) : toNumber(v);
  }
}

/**
 * Time and OHLC as plain arrays of numbers (the JSON shape): copied and checked in one pass, as rows
 * are. null when they are not all plain arrays or a value is not a number: the general path then
 * converts and checks them.
 */
function fromNumberArrays(
  cols: Record<string, unknown>,
  n: number,
  volume: Float64Array,
): BarColumns | BarDataError | null {
  const ta = cols.time,
    oa = cols.open,
    ha = cols.high,
    la = cols.low,
    ca = cols.close;
  if (!Array.isArray(ta) || !Array.isArray(oa) || !Array.isArray(ha) || !Array.isArray(la) || !Array.isArray(ca))
    return null;
  const c: BarColumns = {
    length: n,
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume,
    spacing: NaN,
    copied: true,
  };
  const { time, open, high, low, close } = c;
  let prev = -Infinity;
  let d0 = NaN;
  let even = n > 1;
  let i = 0;
  for (; i < n; i++) {
    const t: unknown = ta[i],
      a: unknown = oa[i],
      h: unknown = ha[i],
      l: unknown = la[i],
      x: unknown = ca[i];
    if (
      typeof t !== "number" ||
      typeof a !== "number" ||
      typeof h !== "number" ||
      typeof l !== "number" ||
      typeof x !== "number"
    )
      return null;
    time[i] = t;
    open[i] = a;
    high[i] = h;
    low[i] = l;
    close[i] = x;
    if (!(t - t + (a - a) + (h - h) + (l - l) + (x - x) === 0 && t > prev && h >= l)) break;
    if (i === 1) d0 = t - prev;
    else if (i > 1 && t - prev !== d0) even = false;
    prev = t;
  }
  // (the message is built out here: a closure inside the loop would cost a context per bar)
  if (i < n) {
    const bad = i;
    return checkBar(c, bad, (f) => (f === "volume" ? undefined : (cols[f] as unknown[])[bad]))!;
  }
  c.spacing = even ? d0 : NaN;
  return c;
}

function fromColumns(cols: Record<string, unknown>): BarColumns | BarDataError {
  for (const f of ["time", ...PRICE_FIELDS] as const) {
    if (!isColumn(cols[f]))
      return { error: `columnar ohlcv: "${f}" must be an array (got ${describe(cols[f])})`, bar: -1 };
  }
  const time = cols.time as ArrayLike<unknown>;
  const n = time.length;
  for (const f of [...PRICE_FIELDS, "volume"] as const) {
    const col = cols[f];
    if (f === "volume" && (col === undefined || col === null)) continue;
    if (!isColumn(col)) return { error: `columnar ohlcv: "${f}" must be an array (got ${describe(col)})`, bar: -1 };
    if (col.length !== n)
      return { error: `columnar ohlcv: "${f}" has ${col.length} values but "time" has ${n}`, bar: -1 };
  }
  const vol = cols.volume;
  const volume = isColumn(vol) ? column(vol, n, false, true) : new Float64Array(n).fill(NaN);
  const fused = fromNumberArrays(cols, n, volume);
  if (fused) return fused;
  const c: BarColumns = {
    length: n,
    time: column(time, n, true, false),
    open: column(cols.open as ArrayLike<unknown>, n, false, false),
    high: column(cols.high as ArrayLike<unknown>, n, false, false),
    low: column(cols.low as ArrayLike<unknown>, n, false, false),
    close: column(cols.close as ArrayLike<unknown>, n, false, false),
    volume,
    spacing: NaN,
  };
  const { bad, spacing } = scanBars(c.time, c.open, c.high, c.low, c.close, n);
  if (bad < 0) {
    c.spacing = spacing;
    c.copied =
      c.time !== time && c.open !== cols.open && c.high !== cols.high && c.low !== cols.low && c.close !== cols.close;
    return c;
  }
  return checkBar(c, bad, (f) =>
    f === "volume" ? (vol as ArrayLike<unknown> | undefined)?.[bad] : (cols[f] as ArrayLike<unknown>)[bad],
  )!;
}

/** A time value as ms: numbers as they are, Dates, and ISO-8601 strings. */
function timeValue(v: unknown): number {
  if (typeof v === "string" && !/^\s*-?\d+(\.\d+)?\s*$/.test(v)) return parseDateString(v);
  return toNumber(v);
}

// ---------------------------------------------------------------- files

/**
 * How numeric times of a file are read: "ms" or "s" as told, or "auto": each time below 1e11 (year
 * 5138 in seconds, March 1973 in ms) is seconds, the rest ms, and a file mixing the two is an error
 * naming the first row that differs from the first one (never a silent mix of 1970 and 2023 dates).
 * Hosts expose it (the CLI's `--time-unit`).
 */
export type TimeUnit = "auto" | "s" | "ms";

export interface LoadOptions {
  timeUnit?: TimeUnit;
}

const SECONDS_BELOW = 1e11;

/**
 * Scales numeric times to ms in place per `unit` (times parsed from date strings are already ms);
 * returns the index of the first time whose unit differs from the first numeric time's, or -1.
 */
function timesToMs(times: Float64Array, fromStrings: boolean[], unit: TimeUnit): number {
  let first = -1;
  for (let i = 0; i < times.length; i++) {
    if (fromStrings[i] || !Number.isFinite(times[i]!)) continue;
    if (unit === "auto") {
      const secs = Math.abs(times[i]!) < SECONDS_BELOW;
      if (first < 0) first = secs ? 1 : 0;
      else if ((secs ? 1 : 0) !== first) return i;
    }
  }
  const scale = unit === "s" || (unit === "auto" && first === 1) ? 1000 : 1;
  if (scale !== 1) for (let i = 0; i < times.length; i++) if (!fromStrings[i]) times[i] = times[i]! * scale;
  return -1;
}

function mixedUnits(where: string, raw: unknown, firstWhere: string, firstRaw: unknown): string {
  const unit = (v: unknown) => (Math.abs(Number(v)) < SECONDS_BELOW ? "seconds" : "milliseconds");
  return `${where}: time ${describe(raw)} reads as unix ${unit(raw)} but ${firstWhere}'s ${describe(firstRaw)} as unix ${unit(firstRaw)}: the file mixes time units; convert it to one, or state the unit (time unit "s" or "ms")`;
}

const ALIASES: Record<string, Field> = {
  time: "time",
  timestamp: "time",
  date: "time",
  datetime: "time",
  open_time: "time",
  t: "time",
  open: "open",
  o: "open",
  high: "high",
  h: "high",
  low: "low",
  l: "low",
  close: "close",
  c: "close",
  volume: "volume",
  vol: "volume",
  v: "volume",
};

/** One CSV line split at `sep`, with RFC 4180 quoting ("a,b" and doubled quotes). */
export function splitCsvLine(line: string, sep = ","): string[] {
  if (!line.includes('"')) return line.split(sep);
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/**
 * Parses CSV bars. A header row is required, naming time, open, high, low, close and optionally
 * volume in any order and case (aliases: timestamp/date/datetime, o/h/l/c/v, vol); other columns are
 * ignored. Separators: comma, semicolon or tab. Times are unix seconds or ms (detected) or ISO-8601
 * strings. Errors name the file line.
 */
export function parseCsvBars(text: string, opts: LoadOptions = {}): BarColumns | BarDataError {
  const lines = text.split(/\r\n|\n|\r/);
  let h = 0;
  while (h < lines.length && lines[h]!.trim() === "") h++;
  if (h >= lines.length)
    return { error: "CSV is empty: expected a header line such as time,open,high,low,close,volume", bar: -1, line: 1 };
  const headerLine = lines[h]!.replace(/^\uFEFF/, "");
  const sep = headerLine.includes("\t") ? "\t" : headerLine.includes(";") && !headerLine.includes(",") ? ";" : ",";
  const header = splitCsvLine(headerLine, sep).map((s) => s.trim().toLowerCase());
  const index: Partial<Record<Field, number>> = {};
  header.forEach((name, i) => {
    const f = ALIASES[name];
    if (f !== undefined && index[f] === undefined) index[f] = i;
  });
  const missing = (["time", ...PRICE_FIELDS] as const).filter((f) => index[f] === undefined);
  if (missing.length) {
    return {
      error: `CSV line ${h + 1}: header lacks ${missing.join(", ")} (found: ${header.join(", ")}); a header row naming time, open, high, low, close[, volume] is required`,
      bar: -1,
      line: h + 1,
    };
  }
  const rowsLines: number[] = [];
  const cells: string[][] = [];
  for (let i = h + 1; i < lines.length; i++) {
    if (lines[i]!.trim() === "") continue;
    const row = splitCsvLine(lines[i]!, sep);
    if (row.length < header.length && row.length <= Math.max(...Object.values(index))) {
      return {
        error: `CSV line ${i + 1}: expected ${header.length} fields, found ${row.length}`,
        bar: cells.length,
        line: i + 1,
      };
    }
    cells.push(row);
    rowsLines.push(i + 1);
  }
  const n = cells.length;
  if (n === 0) return { error: `CSV line ${h + 1}: the file has a header but no bars`, bar: -1, line: h + 1 };
  const time = new Float64Array(n);
  const fromStrings: boolean[] = new Array<boolean>(n).fill(false);
  for (let i = 0; i < n; i++) {
    const raw = cells[i]![index.time!]!.trim();
    if (/^-?\d+(\.\d+)?$/.test(raw)) time[i] = Number(raw);
    else {
      time[i] = parseDateString(raw);
      fromStrings[i] = true;
      if (time[i] !== time[i])
        return {
          error: `CSV line ${rowsLines[i]}: time "${raw}" is neither unix seconds/ms nor an ISO-8601 date`,
          bar: i,
          line: rowsLines[i]!,
        };
    }
  }
  const raws = cells.map((r) => r[index.time!]!.trim());
  const mixed = timesToMs(time, fromStrings, opts.timeUnit ?? "auto");
  if (mixed >= 0) {
    const first = fromStrings.findIndex((str, i) => !str && Number.isFinite(time[i]!));
    return {
      error: mixedUnits(`CSV line ${rowsLines[mixed]}`, raws[mixed], `line ${rowsLines[first]}`, raws[first]),
      bar: mixed,
      line: rowsLines[mixed]!,
    };
  }
  let bad: BarDataError | null = null;
  const col = (f: Field): number[] => {
    const k = index[f];
    return cells.map((r, i) => {
      const s = k === undefined ? "" : (r[k] ?? "").trim();
      if (s === "" || /^(nan|na|null)$/i.test(s)) return NaN;
      if (!DECIMAL.test(s)) {
        bad ??= { error: `CSV line ${rowsLines[i]}: ${f} "${s}" is not a decimal number`, bar: i, line: rowsLines[i]! };
        return NaN;
      }
      return Number(s);
    });
  };
  const result = fromColumns({
    time,
    open: col("open"),
    high: col("high"),
    low: col("low"),
    close: col("close"),
    volume: index.volume === undefined ? undefined : col("volume"),
  });
  if (bad) return bad;
  if (isBarDataError(result) && result.bar >= 0) {
    const line = rowsLines[result.bar]!;
    const raw = cells[result.bar]!;
    return {
      error: `CSV line ${line}: ${result.error.replace(/^bar \d+: /, "")} (row: ${raw.join(sep)})`,
      bar: result.bar,
      line,
    };
  }
  return result;
}

/**
 * Parses JSON bars: an array of bar objects, an array of [time, open, high, low, close, volume?]
 * rows, columns {time: [], ...}, or any of these under a "bars", "data" or "ohlcv" key. Times in
 * unix seconds are detected and converted to ms.
 */
export function parseJsonBars(text: string, opts: LoadOptions = {}): BarColumns | BarDataError {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return { error: `JSON bars: ${(e as Error).message}`, bar: -1 };
  }
  return barsFromJson(doc, opts);
}

/** parseJsonBars on an already parsed JSON value (e.g. one entry of a data-feed file). */
export function barsFromJson(doc: unknown, opts: LoadOptions = {}): BarColumns | BarDataError {
  if (doc && typeof doc === "object" && !Array.isArray(doc)) {
    const o = doc as Record<string, unknown>;
    for (const k of ["bars", "data", "ohlcv"])
      if (o[k] !== undefined && !("time" in o)) return fromJsonValue(o[k], opts.timeUnit ?? "auto");
  }
  return fromJsonValue(doc, opts.timeUnit ?? "auto");
}

function fromJsonValue(doc: unknown, unit: TimeUnit): BarColumns | BarDataError {
  let input: unknown = doc;
  if (Array.isArray(doc) && doc.length > 0 && Array.isArray(doc[0])) {
    input = doc.map((r: unknown) => {
      const a = Array.isArray(r) ? r : [];
      return { time: a[0], open: a[1], high: a[2], low: a[3], close: a[4], volume: a[5] };
    });
  }
  // Convert unix seconds before validation so the error messages show the times used.
  if (Array.isArray(input)) {
    const times = input.map((r) => (r && typeof r === "object" ? (r as Record<string, unknown>).time : undefined));
    const scale = secondsScale(times, unit);
    if (typeof scale !== "number") return scale;
    if (scale !== 1)
      input = input.map((r) =>
        r && typeof r === "object"
          ? { ...(r as object), time: scaleTime((r as Record<string, unknown>).time, scale) }
          : r,
      );
  } else if (input && typeof input === "object") {
    const cols = input as Record<string, unknown>;
    if (isColumn(cols.time)) {
      const times = Array.from(cols.time as ArrayLike<unknown>);
      const scale = secondsScale(times, unit);
      if (typeof scale !== "number") return scale;
      if (scale !== 1) input = { ...cols, time: times.map((t) => scaleTime(t, scale)) };
    }
  }
  return normalizeBars(input);
}

/** The factor to ms of a JSON file's numeric times (see TimeUnit), or the error of a file mixing units. */
function secondsScale(times: unknown[], unit: TimeUnit): number | BarDataError {
  if (unit !== "auto") return unit === "s" ? 1000 : 1;
  let first = -1;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (typeof t !== "number" || !Number.isFinite(t) || t === 0) continue;
    if (first < 0) first = i;
    else if (Math.abs(t) < SECONDS_BELOW !== Math.abs(times[first] as number) < SECONDS_BELOW)
      return { error: mixedUnits(`bar ${i}`, t, `bar ${first}`, times[first]), bar: i };
  }
  return first >= 0 && Math.abs(times[first] as number) < SECONDS_BELOW ? 1000 : 1;
}

function scaleTime(t: unknown, scale: number): unknown {
  return typeof t === "number" ? t * scale : t;
}

// ---------------------------------------------------------------- timeframe inference

const MIN = 60_000;
const DAY = 86_400_000;

/**
 * The chart timeframe suggested by bar spacing: the most common gap between consecutive bars,
 * written as TradingView does ("30S", "1", "5", "60", "240", "D", "2D", "W", "M", "3M", ...).
 * "D" when there are fewer than two bars or no clear spacing.
 */
export function inferTimeframe(times: ArrayLike<number>): string {
  // evenly spaced bars (the common case): that spacing, without counting every gap
  const d0 = times.length > 1 ? times[1]! - times[0]! : 0;
  if (d0 > 0 && Number.isFinite(d0)) {
    let i = 2;
    while (i < times.length && times[i]! - times[i - 1]! === d0) i++;
    if (i >= times.length) return timeframeOfSpacing(d0);
  }
  // gaps counted a run of equal gaps at a time (a session of 1-minute bars is one run): the same
  // counts as one Map update per gap, at a Map update per run
  const counts = new Map<number, number>();
  let cur = NaN;
  let run = 0;
  for (let i = 1; i < times.length; i++) {
    const d = times[i]! - times[i - 1]!;
    if (d === cur) {
      run++;
      continue;
    }
    if (run > 0) counts.set(cur, (counts.get(cur) ?? 0) + run);
    const counted = d > 0 && Number.isFinite(d);
    cur = counted ? d : NaN;
    run = counted ? 1 : 0;
  }
  if (run > 0) counts.set(cur, (counts.get(cur) ?? 0) + run);
  // the most common gap, the smallest of equally common ones (so the counting order does not matter)
  let best = 0;
  let bestCount = 0;
  for (const [d, c] of counts) {
    if (c > bestCount || (c === bestCount && d < best)) {
      best = d;
      bestCount = c;
    }
  }
  return timeframeOfSpacing(best);
}

/**
 * inferTimeframe(cols.time) for columns from normalizeBars, without a pass over time when it found
 * the bars evenly spaced (then the most common gap is that spacing, which is all inferTimeframe uses).
 */
export function barsTimeframe(cols: BarColumns): string {
  const s = cols.spacing;
  return s !== undefined && s > 0 && Number.isFinite(s) ? timeframeOfSpacing(s) : inferTimeframe(cols.time);
}

/** The timeframe name of the most common bar spacing `best` (ms; 0 when there is none). */
function timeframeOfSpacing(best: number): string {
  if (best === 0) return "D";
  if (best < MIN) return best % 1000 === 0 ? `${best / 1000}S` : "D";
  if (best < DAY) return best % MIN === 0 ? String(best / MIN) : "D";
  // Calendar months are 28..31 days apart; quarters 89..92; years 365/366.
  const days = best / DAY;
  if (days >= 28 && days <= 31) return "M";
  if (days >= 89 && days <= 92) return "3M";
  if (days >= 181 && days <= 184) return "6M";
  if (days >= 365 && days <= 366) return "12M";
  if (best % DAY !== 0) return "D";
  if (days % 7 === 0) return days === 7 ? "W" : `${days / 7}W`;
  return days === 1 ? "D" : `${days}D`;
}
