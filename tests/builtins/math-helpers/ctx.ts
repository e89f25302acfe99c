// A minimal ExecContext and call helpers for unit tests of the libs builtins (math, str, array,
// matrix, map, color): each `call` is its own call site unless a site is passed.
import type { BuiltinTable, CallSite, ExecContext } from "../../../src/builtins/types.js";
import { functions as math } from "../../../src/builtins/math/index.js";
import { functions as str } from "../../../src/builtins/str/index.js";
import { functions as array } from "../../../src/builtins/array/index.js";
import { functions as matrix } from "../../../src/builtins/matrix/index.js";
import { functions as map } from "../../../src/builtins/map/index.js";
import { functions as color } from "../../../src/builtins/color/index.js";

export class PineRuntimeError extends Error {}

export function makeCtx(over: Partial<ExecContext> = {}): ExecContext & { logs: string[] } {
  const logs: string[] = [];
  const ctx = {
    version: 6,
    barIndex: 0,
    barCount: 1,
    time: 0,
    timeClose: 0,
    open: 1,
    high: 2,
    low: 0.5,
    close: 1.1,
    volume: 10,
    columns: {} as ExecContext["columns"],
    syminfo: { mintick: 1e-5, pointvalue: 1, timezone: "UTC", currency: "USD", type: "crypto" },
    timeframe: "60",
    isRealtime: false,
    isNewTick: true,
    isConfirmed: true,
    kernels: null,
    broker: null,
    ext: {},
    logs,
    log(_level: string, message: string) {
      logs.push(message);
    },
    runtimeError(message: string): never {
      throw new PineRuntimeError(message);
    },
    ...over,
  };
  return ctx as ExecContext & { logs: string[] };
}

const ALL: BuiltinTable = { ...math, ...str, ...array, ...matrix, ...map, ...color };

let nextId = 1;
export function site(typeArgs?: string[]): CallSite & { typeArgs?: string[] } {
  return { state: undefined, id: nextId++, typeArgs };
}

/** Calls a builtin by Pine name with a fresh call site (or the given one). */
export function callWith(ctx: ExecContext, name: string, args: unknown[], s: CallSite = site()): any {
  const def = ALL[name];
  if (!def) throw new Error(`no builtin ${name}`);
  return def.impl(ctx, args, s);
}

export function caller(ctx: ExecContext = makeCtx()) {
  return (name: string, ...args: unknown[]) => callWith(ctx, name, args);
}

import { resolve } from "node:path";
import { readData, tradingview } from "../../helpers/data.js";

/** Root of the TradingView Pine Logs conformance cases. */
export const LOGS_DIR = tradingview("logs");

/** The expected messages of a Pine Logs case, in order. */
export function expectedMessages(caseName: string): string[] {
  const rows = JSON.parse(readData(resolve(LOGS_DIR, caseName, "expected.json"))) as { message: string }[];
  return rows.map((r) => r.message);
}
