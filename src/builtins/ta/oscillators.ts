// Momentum and oscillators: change, mom, roc, rsi, cmo, mfi, cci, stoch, wpr, tr, atr, dmi, sar,
// supertrend, cross family, rising/falling, barssince, valuewhen.
import type { BuiltinTable, CallSite, ExecContext } from "../types.js";
import { intArg, kernels, kx, num, truthy, tuple, EPS } from "./common.js";

type S = Record<string, number>;

/** x[len] through a lag kernel (the site's own history of x). */
function lagOf(ctx: ExecContext, site: CallSite, x: number, len: number): number {
  const k = kx(ctx);
  const h = (site.state ??= k.lag_new(len)) as number;
  return k.lag_next(h, ctx.barIndex, x, len);
}

function change(ctx: ExecContext, args: any[], site: CallSite): number | boolean {
  const len = args[1] === undefined ? 1 : intArg(ctx, args[1], "change", "length", 0);
  const v = args[0];
  if (typeof v === "boolean") {
    const cur = v ? 1 : 0;
    const p = lagOf(ctx, site, cur, len);
    // `source != source[length]`: a v6 bool is never na, so before the first bar its history reads
    // false (as `b[1]` does in the language); v5's na history compares as no change.
    if (p !== p) return ctx.version >= 6 && cur === 1;
    return p !== cur;
  }
  const x = num(v);
  return x - lagOf(ctx, site, x, len);
}

function mom(ctx: ExecContext, args: any[], site: CallSite): number {
  const x = num(args[0]);
  return x - lagOf(ctx, site, x, intArg(ctx, args[1], "mom", "length", 0));
}

function roc(ctx: ExecContext, args: any[], site: CallSite): number {
  const x = num(args[0]);
  const p = lagOf(ctx, site, x, intArg(ctx, args[1], "roc", "length", 0));
  return (100 * (x - p)) / p;
}

function rsi(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  let h = site.state as number | undefined;
  if (h === undefined) h = site.state = k.rsi_new(intArg(ctx, args[1], "rsi"));
  return k.rsi_next(h, ctx.barIndex, num(args[0]));
}

/** The reference's f_cmo, with a change within 1e-10 counted as none (ta_test_241). */
function cmo(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "cmo");
  const s = (site.state ??= { p: k.lag_new(1), a: k.sum_new(len), b: k.sum_new(len) }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  let m = x - k.lag_next(s.p, bar, x, 1);
  if (Math.abs(m) <= EPS) m = 0;
  const sm1 = k.sum_next(s.a, bar, m >= 0 ? m : 0, len);
  const sm2 = k.sum_next(s.b, bar, m >= 0 ? 0 : -m, len);
  return (100 * (sm1 - sm2)) / (sm1 + sm2);
}

/** The reference's pine_mfi; a change within 1e-10 counts as none, and no down flow gives 100. */
function mfi(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "mfi");
  const s = (site.state ??= { p: k.lag_new(1), u: k.sum_new(len), d: k.sum_new(len) }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  let c = x - k.lag_next(s.p, bar, x, 1);
  if (Math.abs(c) <= EPS) c = 0;
  const vol = ctx.volume;
  const upper = k.sum_next(s.u, bar, vol * (c <= 0 ? 0 : x), len);
  const lower = k.sum_next(s.d, bar, vol * (c >= 0 ? 0 : x), len);
  if (upper !== upper || lower !== lower) return NaN;
  if (lower === 0) return 100;
  return 100 - 100 / (1 + upper / lower);
}

function cci(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "cci");
  const s = (site.state ??= { m: k.sum_new(len), d: k.sum_new(len) }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  const ma = k.sma_next(s.m, bar, x, len);
  return (x - ma) / (0.015 * k.dev_next(s.d, bar, x, len));
}

/** 100 (source - lowest(low)) / (highest(high) - lowest(low)); an na source repeats the previous
 * value (TradingView's outputs with na holes, tests/ta/tv-na-window.test.ts). */
function stoch(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[3], "stoch");
  const s = (site.state ??= { h: k.hilo_new(len, 0), l: k.hilo_new(len, 1), last: k.win_new(1) }) as S;
  const bar = ctx.barIndex;
  const hh = k.hilo_next(s.h, bar, num(args[1]), len);
  const ll = k.hilo_next(s.l, bar, num(args[2]), len);
  const x = num(args[0]);
  // valuewhen(not na(source), value, 0): the value of the last bar with a source
  return k.vw_next(s.last, bar, x === x ? 1 : 0, (100 * (x - ll)) / (hh - ll), 0);
}

function wpr(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[0], "wpr");
  const s = (site.state ??= { h: k.hilo_new(len, 0), l: k.hilo_new(len, 1) }) as S;
  const bar = ctx.barIndex;
  const hh = k.hilo_next(s.h, bar, ctx.high, len);
  const ll = k.hilo_next(s.l, bar, ctx.low, len);
  return (100 * (ctx.close - hh)) / (hh - ll);
}

export function trueRange(ctx: ExecContext, site: CallSite, handleNa: boolean): number {
  const k = kx(ctx);
  const h = (site.state ??= k.tr_new()) as number;
  return k.tr_next(h, ctx.barIndex, ctx.high, ctx.low, ctx.close, handleNa ? 1 : 0);
}

function atr(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const s = (site.state ??= { t: k.tr_new(), r: k.ema_new(intArg(ctx, args[0], "atr"), 1) }) as S;
  const bar = ctx.barIndex;
  return k.ema_next(s.r, bar, k.tr_next(s.t, bar, ctx.high, ctx.low, ctx.close, 1));
}

/** TradingView's DMI: rma-smoothed directional movement over rma(ta.tr), adx = rma of |+DI - -DI| / sum. */
function dmi(ctx: ExecContext, args: any[], site: CallSite): any[] {
  const k = kx(ctx);
  let s = site.state as S | undefined;
  if (s === undefined) {
    const n = intArg(ctx, args[0], "dmi", "diLength");
    const m = intArg(ctx, args[1], "dmi", "adxSmoothing");
    s = site.state = {
      ph: k.lag_new(1),
      pl: k.lag_new(1),
      t: k.tr_new(),
      rt: k.ema_new(n, 1),
      rp: k.ema_new(n, 1),
      rm: k.ema_new(n, 1),
      fp: k.lag_new(1),
      fm: k.lag_new(1),
      adx: k.ema_new(m, 1),
    };
  }
  const bar = ctx.barIndex;
  const up = ctx.high - k.lag_next(s.ph, bar, ctx.high, 1);
  const down = -(ctx.low - k.lag_next(s.pl, bar, ctx.low, 1));
  const plusDM = up !== up ? NaN : up > down && up > 0 ? up : 0;
  const minusDM = down !== down ? NaN : down > up && down > 0 ? down : 0;
  const trur = k.ema_next(s.rt, bar, k.tr_next(s.t, bar, ctx.high, ctx.low, ctx.close, 0));
  // fixnan(x) = valuewhen(not na(x), x, 0)
  const pr = (100 * k.ema_next(s.rp, bar, plusDM)) / trur;
  const mr = (100 * k.ema_next(s.rm, bar, minusDM)) / trur;
  const p = k.vw_next(s.fp, bar, pr === pr ? 1 : 0, pr, 0);
  const mi = k.vw_next(s.fm, bar, mr === mr ? 1 : 0, mr, 0);
  const sum = p + mi;
  const adx = 100 * k.ema_next(s.adx, bar, Math.abs(p - mi) / (sum === 0 ? 1 : sum));
  const out = tuple(site, 3);
  out[0] = p;
  out[1] = mi;
  out[2] = adx;
  return out;
}

function sar(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const h = (site.state ??= k.sar_new()) as number;
  return k.sar_next(h, ctx.barIndex, ctx.high, ctx.low, ctx.close, num(args[0]), num(args[1]), num(args[2]));
}

/** The manual's pine_supertrend. A series factor is read on the first call only: TradingView's
 * supertrend with factor = bar_index == 0 ? 3 : 2 equals supertrend(3, n) on every bar (checked against
 * TradingView by LuxAlgo/PineTS, ta-signatures-and-formulas "T6"). */
function supertrend(ctx: ExecContext, args: any[], site: CallSite): any[] {
  const kk = kernels(ctx);
  const k = kk.x;
  const s = (site.state ??= { h: k.st_new(intArg(ctx, args[1], "supertrend", "atrPeriod")), factor: num(args[0]) }) as {
    h: number;
    factor: number;
  };
  const out = tuple(site, 2);
  out[0] = k.st_next(s.h, ctx.barIndex, ctx.high, ctx.low, ctx.close, s.factor);
  out[1] = kk.out(0);
  return out;
}

function crossFn(kind: 0 | 1 | 2) {
  return (ctx: ExecContext, args: any[], site: CallSite): boolean => {
    const k = kx(ctx);
    const h = (site.state ??= k.cross_new()) as number;
    return k.cross_next(h, ctx.barIndex, num(args[0]), num(args[1]), kind) === 1;
  };
}

function riseFn(dir: 1 | -1, fn: string) {
  return (ctx: ExecContext, args: any[], site: CallSite): boolean => {
    const k = kx(ctx);
    const len = intArg(ctx, args[1], fn);
    // a run counter (previous value and run length: cross_new's two scalars), see rise_next
    const h = (site.state ??= k.cross_new()) as number;
    return k.rise_next(h, ctx.barIndex, num(args[0]), len, dir) === 1;
  };
}

function barssince(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const h = (site.state ??= k.bs_new()) as number;
  return k.bs_next(h, ctx.barIndex, truthy(args[0]) ? 1 : 0);
}

/**
 * Numbers, colours and bools go through the kernel ring. Strings and objects live in a JS ring of
 * occ + 2 slots indexed by the occurrence count, which itself is kernel state: a kernel rollback
 * (repeated call on a bar, realtime restore) rewinds the count, and the slots it can read were never
 * overwritten since (a slot is reused only occ + 2 occurrences later).
 */
interface ObjWhen {
  count: number; // cum kernel: occurrences so far (na before the first)
  slots: unknown[];
}

function valuewhen(ctx: ExecContext, args: any[], site: CallSite): any {
  const occ = intArg(ctx, args[2], "valuewhen", "occurrence", 0);
  const cond = truthy(args[0]);
  const v = args[1];
  const k = kx(ctx);
  let s = site.state as { h: number; bool: boolean } | ObjWhen | undefined;
  if (s === undefined) {
    s = site.state =
      typeof v === "number" || typeof v === "boolean"
        ? { h: k.win_new(occ + 2), bool: typeof v === "boolean" }
        : { count: k.cum_new(), slots: new Array(occ + 2).fill(null) };
  }
  if ("h" in s) {
    const r = k.vw_next(s.h, ctx.barIndex, cond ? 1 : 0, num(v), occ);
    return s.bool ? r === 1 : r;
  }
  const n = k.cum_next(s.count, ctx.barIndex, cond ? 1 : 0);
  const cap = s.slots.length;
  if (cond) s.slots[(n - 1) % cap] = v === undefined ? null : v;
  const seq = n - 1 - occ;
  return seq >= 0 ? s.slots[seq % cap] : null;
}

export const oscillators: BuiltinTable = {
  "ta.change": { name: "ta.change", impl: change, stateful: true },
  "ta.mom": { name: "ta.mom", impl: mom, stateful: true },
  "ta.roc": { name: "ta.roc", impl: roc, stateful: true },
  "ta.rsi": { name: "ta.rsi", impl: rsi, stateful: true },
  "ta.cmo": { name: "ta.cmo", impl: cmo, stateful: true },
  "ta.mfi": { name: "ta.mfi", impl: mfi, stateful: true },
  "ta.cci": { name: "ta.cci", impl: cci, stateful: true },
  "ta.stoch": { name: "ta.stoch", impl: stoch, stateful: true },
  "ta.wpr": { name: "ta.wpr", impl: wpr, stateful: true },
  "ta.tr": { name: "ta.tr", impl: (c, a, s) => trueRange(c, s, a[0] === true), stateful: true },
  "ta.atr": { name: "ta.atr", impl: atr, stateful: true },
  "ta.dmi": { name: "ta.dmi", impl: dmi, stateful: true, returnsTuple: 3 },
  "ta.sar": { name: "ta.sar", impl: sar, stateful: true },
  "ta.supertrend": { name: "ta.supertrend", impl: supertrend, stateful: true, returnsTuple: 2 },
  "ta.cross": { name: "ta.cross", impl: crossFn(0), stateful: true },
  "ta.crossover": { name: "ta.crossover", impl: crossFn(1), stateful: true },
  "ta.crossunder": { name: "ta.crossunder", impl: crossFn(2), stateful: true },
  "ta.rising": { name: "ta.rising", impl: riseFn(1, "rising"), stateful: true },
  "ta.falling": { name: "ta.falling", impl: riseFn(-1, "falling"), stateful: true },
  "ta.barssince": { name: "ta.barssince", impl: barssince, stateful: true },
  "ta.valuewhen": { name: "ta.valuewhen", impl: valuewhen, stateful: true },
};
