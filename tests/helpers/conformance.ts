// Loading TradingView conformance cases from tests/conformance/data (see tests/helpers/data.ts)
// and scoring a run against the exported values: every cell within 1e-9 relative (1e-12 absolute
// near zero), na must be na.
import { join } from "node:path";
import { dataExists, readData, TRADINGVIEW } from "./data.js";
import type { Bar, RunResult, SymInfo } from "../../src/core/result.js";
import { parseSymInfoToml } from "../../src/core/syminfo.js";
import { splitCsvLine } from "../../src/core/bars.js";

// the CSV splitter of src/core/bars.ts (quoted fields), shared with the cases' own readers
export { splitCsvLine };

export const CONFORMANCE = TRADINGVIEW;

export interface TaCase {
  name: string;
  script: string;
  bars: Bar[];
  headers: string[];
  /** expected[col][bar], NaN = na */
  expected: number[][];
  syminfo: SymInfo;
}

function rows(text: string): string[][] {
  return text
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "")
    .map((l) => splitCsvLine(l));
}

export function loadTaCase(name: string): TaCase {
  const dir = join(CONFORMANCE, "ta", name);
  const script = readData(join(dir, "script.pine"));
  const ohlcv = rows(readData(join(dir, "ohlcv.csv")));
  const bars: Bar[] = ohlcv.slice(1).map((r) => ({
    time: Number(r[0]) * 1000,
    open: Number(r[1]),
    high: Number(r[2]),
    low: Number(r[3]),
    close: Number(r[4]),
    volume: r[5] === undefined || r[5] === "" ? undefined : Number(r[5]),
  }));
  const exp = rows(readData(join(dir, "expected.csv")));
  const headers = exp[0]!.slice(1);
  const expected = headers.map((_, c) => exp.slice(1).map((r) => Number(r[c + 1])));
  let syminfo: SymInfo = { mintick: 1e-5, timezone: "UTC", session: "24x7" };
  const toml = join(dir, "symbol.toml");
  if (dataExists(toml)) {
    const loaded = parseSymInfoToml(readData(toml));
    if ("syminfo" in loaded) syminfo = { ...syminfo, ...loaded.syminfo };
  }
  return { name, script, bars, headers, expected, syminfo };
}

export interface Score {
  matched: number;
  cells: number;
  firstMismatch?: string;
}

export function close(a: number, b: number): boolean {
  if (Number.isNaN(b)) return Number.isNaN(a);
  if (Number.isNaN(a)) return false;
  if (a === b) return true;
  const diff = Math.abs(a - b);
  return diff <= 1e-12 || diff <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
}

/** Compares the run's series (in plot order) with the expected columns. */
export function score(c: TaCase, r: RunResult): Score {
  const cols = Object.values(r.series);
  let matched = 0;
  let cells = 0;
  let firstMismatch: string | undefined;
  c.expected.forEach((want, ci) => {
    const got = cols[ci];
    for (let i = 0; i < want.length; i++) {
      cells++;
      const g = got?.[i];
      const gv = g === null || g === undefined ? NaN : typeof g === "boolean" ? (g ? 1 : 0) : Number(g);
      if (close(gv, want[i]!)) matched++;
      else firstMismatch ??= `${c.headers[ci]} bar ${i}: got ${gv}, want ${want[i]}`;
    }
  });
  return { matched, cells, firstMismatch };
}
