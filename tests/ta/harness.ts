// Test harness for the ta.* builtins without the interpreter: a minimal ExecContext over OHLCV
// columns, per-expression call sites, and the conformance case loader/comparator.
import { sep } from "node:path";
import { dataExists, readData, TRADINGVIEW } from "../helpers/data.js";
import { createKernels, type Kernels } from "../../src/kernels/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { functions, variables } from "../../src/builtins/ta/index.js";

/** TRADINGVIEW with a trailing separator (callers append "ta/<case>/..."). */
export const CONFORMANCE = TRADINGVIEW + sep;

export interface Columns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
}

export function readCsv(path: string): { headers: string[]; rows: number[][] } {
  const lines = readData(path).replace(/\r/g, "").trim().split("\n");
  const headers = splitCsv(lines[0]);
  const rows = lines.slice(1).map((l) => splitCsv(l).map((c) => (c === "NaN" || c === "" ? NaN : Number(c))));
  return { headers, rows };
}

function splitCsv(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let q = false;
  for (const ch of line) {
    if (ch === '"') q = !q;
    else if (ch === "," && !q) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function loadOhlcv(path: string): Columns {
  const { rows } = readCsv(path);
  const col = (i: number) => Float64Array.from(rows, (r) => r[i]);
  const time = Float64Array.from(rows, (r) => r[0] * 1000);
  return {
    time,
    open: col(1),
    high: col(2),
    low: col(3),
    close: col(4),
    volume: rows[0].length > 5 ? col(5) : new Float64Array(rows.length),
  };
}

export function makeCtx(
  kernels: Kernels,
  cols: Columns,
  opts: { timezone?: string; session?: string; timeframe?: string } = {},
): ExecContext {
  return {
    version: 6,
    barIndex: 0,
    barCount: cols.close.length,
    time: NaN,
    timeClose: NaN,
    open: NaN,
    high: NaN,
    low: NaN,
    close: NaN,
    volume: NaN,
    columns: cols,
    syminfo: {
      mintick: 1e-5,
      pointvalue: 1,
      timezone: opts.timezone ?? "UTC",
      currency: "USD",
      type: "forex",
      session: opts.session ?? "24x7",
    },
    timeframe: opts.timeframe ?? "60",
    isRealtime: false,
    isNewTick: false,
    isConfirmed: true,
    kernels,
    broker: null,
    ext: {},
    log() {},
    runtimeError(message: string): never {
      throw new Error(message);
    },
  };
}

export function setBar(ctx: ExecContext, i: number): void {
  const c = ctx.columns;
  ctx.barIndex = i;
  ctx.time = c.time[i];
  ctx.open = c.open[i];
  ctx.high = c.high[i];
  ctx.low = c.low[i];
  ctx.close = c.close[i];
  ctx.volume = c.volume[i];
}

let nextId = 1;
/** Calls ta builtins with one call site per key (stable across bars). */
export class Sites {
  private sites = new Map<string, CallSite>();
  constructor(public ctx: ExecContext) {}
  site(key: string): CallSite {
    let s = this.sites.get(key);
    if (!s) this.sites.set(key, (s = { state: undefined, id: nextId++ }));
    return s;
  }
  /** ta.<name>(...args) at call site `key`. */
  f(key: string, name: string, ...args: any[]): any {
    const def = functions["ta." + name];
    if (!def) throw new Error("no builtin ta." + name);
    return def.impl(this.ctx, args, this.site(key));
  }
  v(key: string, name: string): any {
    return variables["ta." + name].get(this.ctx, this.site(key));
  }
}

export async function newRun(cols: Columns, opts?: Parameters<typeof makeCtx>[2]): Promise<Sites> {
  return new Sites(makeCtx(await createKernels(), cols, opts));
}

/** TradingView agreement: 1e-9 relative, 1e-12 absolute near zero, na == na. */
export function cellMatches(got: unknown, exp: number): boolean {
  const g = typeof got === "boolean" ? (got ? 1 : 0) : typeof got === "number" ? got : NaN;
  if (exp !== exp) return g !== g;
  if (g !== g) return false;
  return Math.abs(g - exp) <= Math.max(1e-12, 1e-9 * Math.abs(exp));
}

export interface CaseScore {
  name: string;
  matched: number;
  cells: number;
  perColumn: { header: string; matched: number; cells: number; firstMismatch?: string }[];
}

/**
 * Runs `exprs` (one per expected column after time) bar by bar and compares with expected.csv.
 * `naCode` maps a number in the file to na (pivot_point_levels writes na as 1e100).
 */
export async function scoreCase(
  name: string,
  exprs: (s: Sites) => unknown[],
  opts: Parameters<typeof makeCtx>[2] & { naCode?: number } = {},
): Promise<CaseScore> {
  const dir = CONFORMANCE + "ta/" + name + "/";
  const cols = loadOhlcv(dir + "ohlcv.csv");
  const exp = readCsv(dir + "expected.csv");
  const s = await newRun(cols, opts);
  const ncol = exp.headers.length - 1;
  const perColumn = exp.headers
    .slice(1)
    .map((header) => ({ header, matched: 0, cells: 0 }) as CaseScore["perColumn"][number]);
  for (let i = 0; i < cols.close.length; i++) {
    setBar(s.ctx, i);
    const got = exprs(s);
    const row = exp.rows[i];
    if (!row) break;
    for (let c = 0; c < ncol; c++) {
      let e = row[c + 1];
      if (opts.naCode !== undefined && e === opts.naCode) e = NaN;
      const pc = perColumn[c];
      pc.cells++;
      if (cellMatches(got[c], e)) pc.matched++;
      else if (!pc.firstMismatch) pc.firstMismatch = `bar ${i}: got ${String(got[c])}, expected ${e}`;
    }
  }
  const matched = perColumn.reduce((a, p) => a + p.matched, 0);
  const cells = perColumn.reduce((a, p) => a + p.cells, 0);
  return { name, matched, cells, perColumn };
}

export function hasCase(name: string): boolean {
  return dataExists(CONFORMANCE + "ta/" + name + "/expected.csv");
}
