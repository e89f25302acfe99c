// Builds the ExecContext of a run: bar columns, syminfo, timeframe, logs and the error hook.
import type { ExecContext } from "../builtins/types.js";
import type { LogRecord, SymInfo } from "../core/result.js";
import { PineRuntimeError } from "../interpret/errors.js";
import type { Columns } from "./data.js";

export const DEFAULT_SYMINFO = {
  mintick: 0.01,
  pointvalue: 1,
  currency: "USD",
  timezone: "UTC",
  type: "crypto",
  session: "24x7",
};

export function resolveSyminfo(symbol: string, given: SymInfo | undefined): ExecContext["syminfo"] {
  const colon = symbol.indexOf(":");
  const prefix = colon >= 0 ? symbol.slice(0, colon) : "";
  const ticker = colon >= 0 ? symbol.slice(colon + 1) : symbol;
  return { ...DEFAULT_SYMINFO, prefix, ticker, description: ticker, ...(given ?? {}) } as ExecContext["syminfo"];
}

export function createContext(
  version: number,
  cols: Columns,
  syminfo: ExecContext["syminfo"],
  timeframe: string,
  logs: LogRecord[],
): ExecContext {
  const ctx: ExecContext = {
    version,
    barIndex: 0,
    barCount: cols.time.length,
    time: NaN,
    timeClose: NaN,
    open: NaN,
    high: NaN,
    low: NaN,
    close: NaN,
    volume: NaN,
    columns: cols,
    syminfo,
    timeframe,
    isRealtime: false,
    isNewTick: true,
    isConfirmed: true,
    kernels: null,
    broker: null,
    ext: {},
    log(level, message) {
      logs.push({ level, message, bar_index: ctx.barIndex, time: ctx.time });
    },
    runtimeError(message: string): never {
      throw new PineRuntimeError(message);
    },
  };
  return ctx;
}
