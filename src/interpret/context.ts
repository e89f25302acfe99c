// Builds the ExecContext of a run: bar columns, syminfo, timeframe, logs and the error hook.
import type { ExecContext } from "../catalog/contract.js";
import type { LogRecord } from "../core/result.js";
import { runtimeError } from "./errors.js";
import type { BarColumns } from "../core/bars.js";

export function createContext(
  version: number,
  cols: BarColumns,
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
    inputBar: -1,
    columns: {
      time: cols.time,
      open: cols.open,
      high: cols.high,
      low: cols.low,
      close: cols.close,
      volume: cols.volume,
      copied: cols.copied === true,
    },
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
    runtimeError,
  };
  return ctx;
}
