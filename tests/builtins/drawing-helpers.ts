// A minimal ExecContext for driving drawing and alert builtins directly, bar by bar.
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { functions, variables } from "../../src/builtins/drawing/index.js";
import { functions as alertFunctions } from "../../src/builtins/alert/index.js";

export class RuntimeErrorForTest extends Error {}

export function makeCtx(bars = 10, ext: Record<string, unknown> = {}): ExecContext {
  const n = bars;
  const time = Float64Array.from({ length: n }, (_, i) => 1_700_000_000_000 + i * 60_000);
  const close = Float64Array.from({ length: n }, (_, i) => 100 + i);
  const ctx: ExecContext = {
    version: 6,
    barIndex: 0,
    barCount: n,
    time: time[0]!,
    timeClose: time[0]! + 60_000,
    open: close[0]! - 0.5,
    high: close[0]! + 1,
    low: close[0]! - 1,
    close: close[0]!,
    volume: 1000,
    columns: {
      time,
      open: close.map((c) => c - 0.5),
      high: close.map((c) => c + 1),
      low: close.map((c) => c - 1),
      close,
      volume: close.map(() => 1000),
    },
    syminfo: {
      mintick: 0.01,
      pointvalue: 1,
      timezone: "UTC",
      currency: "USD",
      type: "crypto",
      ticker: "BTCUSD",
      prefix: "BINANCE",
    },
    timeframe: "1",
    isRealtime: false,
    isNewTick: true,
    isConfirmed: true,
    kernels: null,
    broker: null,
    ext,
    log() {},
    runtimeError(message: string): never {
      throw new RuntimeErrorForTest(message);
    },
  };
  return ctx;
}

/** Moves ctx to bar i of its columns. */
export function atBar(ctx: ExecContext, i: number): void {
  ctx.barIndex = i;
  ctx.time = ctx.columns.time[i]!;
  ctx.timeClose = ctx.time + 60_000;
  ctx.open = ctx.columns.open[i]!;
  ctx.high = ctx.columns.high[i]!;
  ctx.low = ctx.columns.low[i]!;
  ctx.close = ctx.columns.close[i]!;
  ctx.volume = ctx.columns.volume[i]!;
}

let siteIds = 0;
export function site(): CallSite {
  return { state: undefined, id: siteIds++ };
}

/** Calls a drawing/alert builtin with args in catalogue parameter order (undefined = omitted). */
export function call(ctx: ExecContext, name: string, ...args: unknown[]): any {
  const def = functions[name] ?? alertFunctions[name];
  if (!def) throw new Error(`no builtin ${name}`);
  return def.impl(ctx, args, site());
}

/** Calls with named arguments placed into the catalogue's parameter slots. */
export function callNamed(
  ctx: ExecContext,
  name: string,
  params: string[],
  named: Record<string, unknown>,
  s: CallSite = site(),
): any {
  const def = functions[name] ?? alertFunctions[name];
  if (!def) throw new Error(`no builtin ${name}`);
  const args: unknown[] = [];
  for (const [k, v] of Object.entries(named)) {
    const i = params.indexOf(k);
    if (i < 0) throw new Error(`${name} has no parameter ${k}`);
    args[i] = v;
  }
  return def.impl(ctx, args, s);
}

export function variable(ctx: ExecContext, name: string): any {
  return variables[name]!.get(ctx, site());
}
