// Reads user data files (CSV or JSON with time,open,high,low,close[,volume]) into packed columns,
// with errors that name the line/bar and the problem. Times may be ms, seconds or ISO dates.

import { packBars, type PackedBars } from "../../../src/worker/protocol.js";

export class DataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataError";
  }
}

const REQUIRED = ["time", "open", "high", "low", "close"] as const;

/** Epoch ms from a number (seconds below 1e11, else ms) or a date string. */
export function parseTime(v: unknown): number {
  if (typeof v === "number") return v < 1e11 ? v * 1000 : v;
  if (typeof v === "string") {
    const s = v.trim();
    if (/^-?\d+(\.\d+)?$/.test(s)) return parseTime(Number(s));
    // a date without zone is read as UTC, like exported chart data
    const iso = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(s) ? s.replace(" ", "T") + (s.length > 10 ? "Z" : "T00:00:00Z") : s;
    const t = Date.parse(iso);
    if (Number.isFinite(t)) return t;
  }
  return NaN;
}

/** Checks what the runtime would reject, so the user sees it at upload time. */
export function validateBars(p: PackedBars): PackedBars {
  const n = p.time.length;
  if (n === 0) throw new DataError("the file has no bars");
  for (let i = 0; i < n; i++) {
    const where = `bar ${i + 1}`;
    if (!Number.isFinite(p.time[i])) throw new DataError(`${where}: time is not a date or epoch number`);
    for (const k of ["open", "high", "low", "close"] as const) {
      if (!Number.isFinite(p[k][i])) throw new DataError(`${where}: ${k} is missing or not a number`);
    }
    if (p.high[i] < p.low[i]) throw new DataError(`${where}: high ${p.high[i]} is below low ${p.low[i]}`);
    if (i > 0 && p.time[i] <= p.time[i - 1]) {
      throw new DataError(`${where}: time ${new Date(p.time[i]).toISOString()} does not increase (previous ${new Date(p.time[i - 1]).toISOString()})`);
    }
  }
  return p;
}

export function parseCsv(text: string): PackedBars {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines.length < 2) throw new DataError("CSV needs a header line and at least one bar");
  const sep = lines[0].includes(";") && !lines[0].includes(",") ? ";" : lines[0].includes("\t") ? "\t" : ",";
  const header = lines[0].split(sep).map((h) => h.trim().toLowerCase().replace(/^"|"$/g, ""));
  const alias: Record<string, string> = { date: "time", datetime: "time", timestamp: "time", o: "open", h: "high", l: "low", c: "close", v: "volume", vol: "volume" };
  const cols = header.map((h) => alias[h] ?? h);
  const missing = REQUIRED.filter((k) => !cols.includes(k));
  if (missing.length) throw new DataError(`CSV header lacks ${missing.join(", ")} (found: ${header.join(", ")})`);
  const idx = (k: string): number => cols.indexOf(k);
  const n = lines.length - 1;
  const p: PackedBars = {
    time: new Float64Array(n),
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n).fill(NaN),
  };
  const vi = idx("volume");
  for (let r = 0; r < n; r++) {
    const cells = lines[r + 1].split(sep).map((c) => c.trim().replace(/^"|"$/g, ""));
    if (cells.length < header.length) throw new DataError(`line ${r + 2}: ${cells.length} fields, the header has ${header.length}`);
    p.time[r] = parseTime(cells[idx("time")]);
    for (const k of ["open", "high", "low", "close"] as const) {
      const s = cells[idx(k)];
      p[k][r] = s === "" ? NaN : Number(s);
      if (!Number.isFinite(p[k][r])) throw new DataError(`line ${r + 2}: ${k} "${s}" is not a number`);
    }
    if (!Number.isFinite(p.time[r])) throw new DataError(`line ${r + 2}: time "${cells[idx("time")]}" is not a date or epoch number`);
    if (vi >= 0 && cells[vi] !== "") p.volume[r] = Number(cells[vi]);
  }
  return validateBars(p);
}

export function parseJson(text: string): PackedBars {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new DataError(`not valid JSON: ${(e as Error).message}`);
  }
  if (data && typeof data === "object" && !Array.isArray(data) && Array.isArray((data as { bars?: unknown }).bars)) data = (data as { bars: unknown }).bars;
  if (Array.isArray(data)) {
    if (data.length === 0) throw new DataError("the JSON array has no bars");
    const rows = data.map((b, i) => {
      if (!b || typeof b !== "object") throw new DataError(`bar ${i + 1}: not an object`);
      const r = b as Record<string, unknown>;
      for (const k of REQUIRED) if (!(k in r)) throw new DataError(`bar ${i + 1}: missing "${k}"`);
      return { time: parseTime(r.time), open: Number(r.open), high: Number(r.high), low: Number(r.low), close: Number(r.close), volume: r.volume == null ? undefined : Number(r.volume) };
    });
    return validateBars(packBars(rows));
  }
  if (data && typeof data === "object") {
    const c = data as Record<string, unknown>;
    for (const k of REQUIRED) if (!Array.isArray(c[k])) throw new DataError(`columnar JSON needs an array "${k}"`);
    const n = (c.time as unknown[]).length;
    for (const k of REQUIRED) if ((c[k] as unknown[]).length !== n) throw new DataError(`column "${k}" has ${(c[k] as unknown[]).length} values, time has ${n}`);
    const time = (c.time as unknown[]).map(parseTime);
    const num = (k: string): number[] => (c[k] as unknown[]).map((v) => (v == null ? NaN : Number(v)));
    return validateBars(packBars({ time, open: num("open"), high: num("high"), low: num("low"), close: num("close"), volume: Array.isArray(c.volume) ? num("volume") : undefined }));
  }
  throw new DataError("JSON must be an array of bars or an object of columns");
}

export function parseDataFile(name: string, text: string): PackedBars {
  const trimmed = text.trimStart();
  if (name.toLowerCase().endsWith(".json") || trimmed.startsWith("[") || trimmed.startsWith("{")) return parseJson(text);
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
