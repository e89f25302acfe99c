// Whole-series precompute: top-level stateful ta.* calls whose inputs are known before the bar loop
// (OHLCV columns and arithmetic on them, constant lengths) run as ONE WASM pass each
// (src/kernels/series.ts), and the bar loop reads the output column instead of calling the builtin.
// The series kernels are bit-identical to the per-bar state machines the interpreter calls.

import type { RExpr } from "../check/ir.js";
import type { Kernels } from "../kernels/index.js";
import {
  seriesAtr, seriesChange, seriesEma, seriesHighest, seriesLowest, seriesRma, seriesRsi, seriesSma, seriesStdev, seriesTr, seriesWma,
} from "../kernels/series.js";
import type { ExecContext } from "../builtins/types.js";

type Call = Extract<RExpr, { k: "call" }>;

/** Bar variables a pre-pass can evaluate from the columns alone (stateless getters of ctx fields). */
const BAR_VARS = new Set(["open", "high", "low", "close", "volume", "hl2", "hlc3", "ohlc4", "hlcc4"]);
const SOURCE_LENGTH = new Set(["ta.sma", "ta.ema", "ta.rma", "ta.wma", "ta.rsi", "ta.highest", "ta.lowest", "ta.stdev", "ta.change"]);

function constInt(e: RExpr | undefined, min: number): number | null {
  if (!e || e.k !== "const" || typeof e.v !== "number") return null;
  return Number.isInteger(e.v) && e.v >= min ? e.v : null;
}

/** True when `e` is a numeric series computable for every bar before the loop. */
export function isPreKnown(e: RExpr): boolean {
  switch (e.k) {
    case "const":
      return typeof e.v === "number";
    case "bvar":
      return BAR_VARS.has(e.def.name) || e.def.name === "ta.tr";
    case "unary":
      return e.op !== "not" && isPreKnown(e.e);
    case "bin":
      return ["+", "-", "*", "/"].includes(e.op) && !e.str && !e.intDiv && isNumType(e.l) && isNumType(e.r) && isPreKnown(e.l) && isPreKnown(e.r);
    case "call":
      return isHoistableCall(e);
    default:
      return false;
  }
}

function isNumType(e: RExpr): boolean {
  return e.t.name === "int" || e.t.name === "float";
}

/** A ta.* call with a series kernel, pre-known source and a constant valid length. */
export function isHoistableCall(e: Call): boolean {
  const a = e.args;
  if (SOURCE_LENGTH.has(e.name)) {
    if (e.name === "ta.highest" || e.name === "ta.lowest") {
      // one-argument form: the length alone, the source is high/low
      if (a[0] && a[1] === undefined) return constInt(a[0], 1) !== null && a.length <= 2;
    }
    if (a.length > 3 || !a[0] || !isNumType(a[0]) || !isPreKnown(a[0])) return false;
    if (e.name === "ta.change") return (a[1] === undefined || constInt(a[1], 0) !== null) && a[2] === undefined;
    if (constInt(a[1], 1) === null) return false;
    if (e.name === "ta.stdev") return a[2] === undefined || (a[2].k === "const" && typeof a[2].v === "boolean");
    return a[2] === undefined;
  }
  if (e.name === "ta.macd") return a.length === 4 && !!a[0] && isNumType(a[0]) && isPreKnown(a[0]) && [1, 2, 3].every((i) => constInt(a[i], 1) !== null);
  if (e.name === "ta.stoch") return a.length === 4 && [0, 1, 2].every((i) => !!a[i] && isNumType(a[i]!) && isPreKnown(a[i]!)) && constInt(a[3], 1) !== null;
  if (e.name === "ta.atr") return constInt(a[0], 1) !== null && a.length === 1;
  if (e.name === "ta.tr") return a.length <= 1 && (a[0] === undefined || (a[0].k === "const" && typeof a[0].v === "boolean"));
  return false;
}

/** Number of values of a hoistable call's tuple result (0: a single value). */
export function tupleSize(e: Call): number {
  return e.name === "ta.macd" ? 3 : 0;
}

/** The columns of a hoisted tuple call (ta.macd: [macd, signal, histogram], as its impl computes them). */
export function tupleColumns(e: Call, ctx: ExecContext, k: Kernels, memo: Map<RExpr, Float64Array>): Float64Array[] {
  const src = column(e.args[0]!, ctx, k, memo);
  const len = (i: number) => (e.args[i] as { v: number }).v;
  const fast = seriesEma(k, src, len(1));
  const slow = seriesEma(k, src, len(2));
  const n = src.length;
  const m = new Float64Array(n);
  for (let i = 0; i < n; i++) m[i] = fast[i]! - slow[i]!;
  const sig = seriesEma(k, m, len(3));
  const hist = new Float64Array(n);
  for (let i = 0; i < n; i++) hist[i] = m[i]! - sig[i]!;
  return [m, sig, hist];
}

/** The OHLCV fields a pre-pass getter may read. */
interface BarScratch { open: number; high: number; low: number; close: number; volume: number }

/** Computes the column of a pre-known expression (the same operations, in the same order, as the loop). */
export function column(e: RExpr, ctx: ExecContext, k: Kernels, memo: Map<RExpr, Float64Array>): Float64Array {
  const done = memo.get(e);
  if (done) return done;
  const c = ctx.columns;
  const n = c.close.length;
  let out: Float64Array;
  if (e.k === "call") out = callColumn(e, ctx, k, memo);
  else if (e.k === "bvar" && e.def.name === "ta.tr") out = seriesTr(k, c.high, c.low, c.close, false);
  else if (e.k === "bvar" && e.def.name in c) out = c[e.def.name as "close"];
  else {
    out = new Float64Array(n);
    const f = scalar(e, ctx, k, memo);
    for (let i = 0; i < n; i++) out[i] = f(i);
  }
  memo.set(e, out);
  return out;
}

type At = (i: number) => number;

function scalar(e: RExpr, ctx: ExecContext, k: Kernels, memo: Map<RExpr, Float64Array>): At {
  switch (e.k) {
    case "const": {
      const v = e.v as number;
      return () => v;
    }
    case "bvar": {
      if (e.def.name === "ta.tr" || e.def.name in ctx.columns) {
        const col = column(e, ctx, k, memo);
        return (i) => col[i]!;
      }
      const c = ctx.columns;
      const bar: BarScratch = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
      const get = e.def.get;
      return (i) => {
        bar.open = c.open[i]!; bar.high = c.high[i]!; bar.low = c.low[i]!; bar.close = c.close[i]!; bar.volume = c.volume[i]!;
        return get(bar as unknown as ExecContext, { state: undefined, id: -1 }) as number;
      };
    }
    case "unary": {
      const x = scalar(e.e, ctx, k, memo);
      return e.op === "-" ? (i) => -x(i) : x;
    }
    case "bin": {
      const l = scalar(e.l, ctx, k, memo), r = scalar(e.r, ctx, k, memo);
      switch (e.op) {
        case "+": return (i) => l(i) + r(i);
        case "-": return (i) => l(i) - r(i);
        case "*": return (i) => l(i) * r(i);
        default: return (i) => { const d = r(i); return d === 0 ? NaN : l(i) / d; };
      }
    }
    case "call": {
      const col = column(e, ctx, k, memo);
      return (i) => col[i]!;
    }
    default:
      throw new Error(`internal: '${e.k}' is not pre-known`);
  }
}

function callColumn(e: Call, ctx: ExecContext, k: Kernels, memo: Map<RExpr, Float64Array>): Float64Array {
  const a = e.args;
  const c = ctx.columns;
  const len = (i: number) => (a[i] as { v: number }).v;
  switch (e.name) {
    case "ta.atr": return seriesAtr(k, c.high, c.low, c.close, len(0));
    case "ta.tr": return seriesTr(k, c.high, c.low, c.close, a[0] !== undefined && (a[0] as { v: unknown }).v === true);
    case "ta.highest":
    case "ta.lowest": {
      const one = a[1] === undefined;
      const src = one ? (e.name === "ta.highest" ? c.high : c.low) : column(a[0]!, ctx, k, memo);
      const L = one ? len(0) : len(1);
      return e.name === "ta.highest" ? seriesHighest(k, src, L) : seriesLowest(k, src, L);
    }
  }
  if (e.name === "ta.stoch") {
    // (100 * (source - lowest(low))) / (highest(high) - lowest(low)), as the per-bar impl
    const x = column(a[0]!, ctx, k, memo);
    const hh = seriesHighest(k, column(a[1]!, ctx, k, memo), len(3));
    const ll = seriesLowest(k, column(a[2]!, ctx, k, memo), len(3));
    const out = new Float64Array(x.length);
    for (let i = 0; i < x.length; i++) out[i] = (100 * (x[i]! - ll[i]!)) / (hh[i]! - ll[i]!);
    return out;
  }
  const src = column(a[0]!, ctx, k, memo);
  switch (e.name) {
    case "ta.sma": return seriesSma(k, src, len(1));
    case "ta.ema": return seriesEma(k, src, len(1));
    case "ta.rma": return seriesRma(k, src, len(1));
    case "ta.wma": return seriesWma(k, src, len(1));
    case "ta.rsi": return seriesRsi(k, src, len(1));
    case "ta.stdev": return seriesStdev(k, src, len(1), !(a[2] !== undefined && (a[2] as { v: unknown }).v === false));
    case "ta.change": return seriesChange(k, src, a[1] === undefined ? 1 : len(1));
  }
  throw new Error(`internal: no series kernel for ${e.name}`);
}
