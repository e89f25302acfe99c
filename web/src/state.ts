// What a reload restores: the script and the data choice (in the URL hash, so a link reproduces
// them) plus engine settings and input overrides (in localStorage). Uploaded data is kept in
// localStorage when it fits.

import type { ChartSymbol } from "./data/symbol.js";
import type { EngineId } from "./engines/types.js";
import type { PackedBars } from "../../src/worker/protocol.js";

export interface AppState {
  source: string;
  /** A bundled sample id, or "upload" for the user's file. */
  dataId: string;
  engine: EngineId;
  httpUrl: string;
  edgeUrl: string;
  edgeKey: string;
  inputs: Record<string, unknown>;
  profiler: boolean;
  /** Symbol descriptions edited in the symbol dialog, by data id. */
  symbols: Record<string, ChartSymbol>;
  /** Properties overrides (strategy() settings) by script title. */
  properties: Record<string, Record<string, unknown>>;
}

const KEY = "resin.app.v1";
const DATA_KEY = "resin.upload.v1";
const MAX_STORED_CHARS = 4_000_000;

function b64encode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function b64decode(s: string): string {
  const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

export function loadState(defaults: AppState): AppState {
  let state = { ...defaults };
  try {
    const saved = localStorage.getItem(KEY);
    if (saved) state = { ...state, ...JSON.parse(saved) };
  } catch {
    /* unreadable storage: start from defaults */
  }
  const hash = new URLSearchParams(location.hash.slice(1));
  try {
    const script = hash.get("script");
    if (script) state.source = b64decode(script);
  } catch {
    /* a mangled link keeps the stored script */
  }
  const data = hash.get("data");
  if (data) state.dataId = data;
  const engine = hash.get("engine");
  if (engine === "browser" || engine === "http" || engine === "edge") state.engine = engine;
  return state;
}

export function saveState(state: AppState): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    /* storage full or disabled: the URL still carries the script */
  }
  const hash = new URLSearchParams({ data: state.dataId, engine: state.engine, script: b64encode(state.source) });
  history.replaceState(null, "", `#${hash.toString()}`);
}

export function saveUpload(name: string, bars: PackedBars): boolean {
  const json = JSON.stringify({
    name,
    columns: Object.fromEntries(
      Object.entries(bars).map(([k, v]) => [k, Array.from(v as Float64Array, (x) => (x === x ? x : null))]),
    ),
  });
  if (json.length > MAX_STORED_CHARS) return false;
  try {
    localStorage.setItem(DATA_KEY, json);
    return true;
  } catch {
    return false;
  }
}

export function loadUpload(): { name: string; bars: PackedBars } | null {
  try {
    const raw = localStorage.getItem(DATA_KEY);
    if (!raw) return null;
    const { name, columns } = JSON.parse(raw) as { name: string; columns: Record<string, (number | null)[]> };
    const col = (k: string) => Float64Array.from(columns[k] ?? [], (x) => (x === null ? NaN : x));
    return {
      name,
      bars: {
        time: col("time"),
        open: col("open"),
        high: col("high"),
        low: col("low"),
        close: col("close"),
        volume: col("volume"),
      },
    };
  } catch {
    return null;
  }
}
