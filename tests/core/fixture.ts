// Test helpers: conformance files and a minimal ExecContext to call builtins bar by bar.
import { join } from "node:path";
import { readData, TRADINGVIEW } from "../helpers/data.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { normalizeBars, isBarDataError, type BarColumns } from "../../src/core/bars.js";
import { resolveSymInfo, parseSymInfoToml } from "../../src/core/syminfo.js";
import type { SymInfo } from "../../src/core/result.js";
import { barTimeClose, parseTimeframe } from "../../src/core/time-frames.js";
import { getZone } from "../../src/core/tz.js";
import { parseSession, SESSION_24X7 } from "../../src/core/time-sessions.js";

export const CONFORMANCE = TRADINGVIEW;

export function caseDir(name: string): string {
  return join(CONFORMANCE, "ta", name);
}

/** CSV as header + rows of strings. */
export function readCsv(path: string): { header: string[]; rows: string[][] } {
  const lines = readData(path)
    .split(/\r?\n/)
    .filter((l) => l.trim() !== "");
  return { header: lines[0]!.split(","), rows: lines.slice(1).map((l) => l.split(",")) };
}

export function readText(path: string): string {
  return readData(path);
}

/** The OHLCV of a conformance case as columns (times converted from seconds to ms). */
export function caseBars(name: string): BarColumns {
  const { header, rows } = readCsv(join(caseDir(name), "ohlcv.csv"));
  const idx = (k: string): number => header.indexOf(k);
  const bars = rows.map((r) => ({
    time: +r[idx("time")]! * 1000,
    open: +r[idx("open")]!,
    high: +r[idx("high")]!,
    low: +r[idx("low")]!,
    close: +r[idx("close")]!,
    volume: +r[idx("volume")]!,
  }));
  const c = normalizeBars(bars);
  if (isBarDataError(c)) throw new Error(c.error);
  return c;
}

/** Syminfo of a case: its symbol.toml, else the conformance default (UTC, 24x7, mintick 1e-5). */
export function caseSymInfo(name: string): { syminfo: SymInfo; timeframe?: string } {
  let text: string | null = null;
  try {
    text = readText(join(caseDir(name), "symbol.toml"));
  } catch {
    return { syminfo: { mintick: 1e-5, timezone: "UTC", session: "24x7" } };
  }
  const r = parseSymInfoToml(text);
  if ("error" in r) throw new Error(r.error);
  return r;
}

export interface TestCtx extends ExecContext {
  /** Moves the context to bar i. */
  at(i: number): TestCtx;
}

export function makeCtx(bars: BarColumns, syminfo: SymInfo = {}, timeframe = "D", version = 6): TestCtx {
  const si = resolveSymInfo(
    typeof syminfo.prefix === "string" ? `${syminfo.prefix}:${syminfo.ticker ?? ""}` : "CHART",
    syminfo,
  );
  const zone = getZone(si.timezone)!;
  const session = parseSession(si.session ?? "24x7") ?? SESSION_24X7;
  const tf = parseTimeframe(timeframe)!;
  const ctx: TestCtx = {
    version,
    barIndex: 0,
    barCount: bars.length,
    time: NaN,
    timeClose: NaN,
    open: NaN,
    high: NaN,
    low: NaN,
    close: NaN,
    volume: NaN,
    columns: bars,
    syminfo: si,
    timeframe,
    isRealtime: false,
    isNewTick: true,
    isConfirmed: true,
    kernels: null,
    broker: null,
    ext: {},
    log() {},
    runtimeError(message: string): never {
      throw new Error(message);
    },
    at(i: number) {
      ctx.barIndex = i;
      ctx.time = bars.time[i]!;
      ctx.timeClose = barTimeClose(ctx.time, tf, zone, session);
      ctx.open = bars.open[i]!;
      ctx.high = bars.high[i]!;
      ctx.low = bars.low[i]!;
      ctx.close = bars.close[i]!;
      ctx.volume = bars.volume[i]!;
      return ctx;
    },
  };
  return ctx;
}

export function site(id = 0): CallSite {
  return { state: undefined, id };
}

/** 1e-9 relative (1e-12 absolute near zero); na must be na. */
export function cellMatches(got: number, want: number): boolean {
  if (want !== want) return got !== got;
  if (got !== got) return false;
  return Math.abs(got - want) <= Math.max(1e-12, 1e-9 * Math.abs(want));
}
