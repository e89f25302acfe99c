// Moving averages and window statistics: sma, ema, rma, wma, hma, vwma, swma, alma, linreg, variance,
// stdev, dev, cum, bb, bbw, kc, kcw, macd, tsi, correlation.
import type { BuiltinTable, CallSite, ExecContext } from "../types.js";
import { intArg, kx, num, tuple, EPS } from "./common.js";

type S = Record<string, number>;

function sma(ctx: ExecContext, args: any[], site: CallSite): number {
  const len = intArg(ctx, args[1], "sma");
  const k = kx(ctx);
  const h = (site.state ??= k.sum_new(len)) as number;
  return k.sma_next(h, ctx.barIndex, num(args[0]), len);
}

function emaLike(kind: 0 | 1, fn: string) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    let h = site.state as number | undefined;
    if (h === undefined) h = site.state = k.ema_new(intArg(ctx, args[1], fn), kind);
    return k.ema_next(h, ctx.barIndex, num(args[0]));
  };
}

function wma(ctx: ExecContext, args: any[], site: CallSite): number {
  const len = intArg(ctx, args[1], "wma");
  const k = kx(ctx);
  const h = (site.state ??= k.wma_new(len)) as number;
  return k.wma_next(h, ctx.barIndex, num(args[0]), len);
}

function hma(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "hma");
  const half = Math.floor(len / 2);
  const sq = Math.floor(Math.sqrt(len));
  if (half < 1)
    ctx.runtimeError(`Invalid value of the 'length' argument (${len}) in the 'hma' function. It must be > 1.`);
  const s = (site.state ??= { a: k.wma_new(half), b: k.wma_new(len), c: k.wma_new(sq) }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  const a = k.wma_next(s.a, bar, x, half);
  const b = k.wma_next(s.b, bar, x, len);
  return k.wma_next(s.c, bar, 2 * a - b, sq);
}

function vwma(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "vwma");
  const s = (site.state ??= { a: k.sum_new(len), b: k.sum_new(len) }) as S;
  const bar = ctx.barIndex;
  const v = ctx.volume;
  return k.sma_next(s.a, bar, num(args[0]) * v, len) / k.sma_next(s.b, bar, v, len);
}

function swma(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const h = (site.state ??= k.win_new(4)) as number;
  return k.swma_next(h, ctx.barIndex, num(args[0]));
}

function alma(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "alma");
  const h = (site.state ??= k.win_new(len)) as number;
  return k.alma_next(h, ctx.barIndex, num(args[0]), len, num(args[2]), num(args[3]), args[4] === true ? 1 : 0);
}

function cog(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "cog");
  const h = (site.state ??= k.win_new(len)) as number;
  return k.cog_next(h, ctx.barIndex, num(args[0]), len);
}

function linreg(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "linreg");
  const h = (site.state ??= k.win_new(len)) as number;
  const off = Math.trunc(num(args[2]));
  return k.linreg_next(h, ctx.barIndex, num(args[0]), len, off === off ? off : 0);
}

function variance(ctx: ExecContext, args: any[], site: CallSite, fn: string): number {
  const len = intArg(ctx, args[1], fn);
  const k = kx(ctx);
  const h = (site.state ??= k.var_new(len)) as number;
  return k.var_next(h, ctx.barIndex, num(args[0]), len, args[2] === false ? 0 : 1);
}

function dev(ctx: ExecContext, args: any[], site: CallSite): number {
  const len = intArg(ctx, args[1], "dev");
  const k = kx(ctx);
  const h = (site.state ??= k.sum_new(len)) as number;
  return k.dev_next(h, ctx.barIndex, num(args[0]), len);
}

function cum(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const h = (site.state ??= k.cum_new()) as number;
  return k.cum_next(h, ctx.barIndex, num(args[0]));
}

/** [basis, basis + mult*stdev, basis - mult*stdev] (ta.bb) and the width (ta.bbw); the stdev is the
 * two-pass one (ta/bb), while ta.stdev is E[x^2]-mean^2 (logs/ta_test_243). */
// bands()/keltner() leave their two results here (no per-bar tuple allocation).
let resBasis = NaN;
let resWidth = NaN;

function bands(ctx: ExecContext, args: any[], site: CallSite, fn: string): void {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], fn);
  const s = (site.state ??= { m: k.sum_new(len), v: k.sum_new(len) }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  const basis = k.sma_next(s.m, bar, x, len);
  resBasis = basis;
  resWidth = num(args[2]) * k.stdev2_next(s.v, bar, x, len);
}

/** [middle, upper, lower] from the last bands()/keltner() step. */
function bandTuple(site: CallSite): any[] {
  const out = tuple(site, 3);
  out[0] = resBasis;
  out[1] = resBasis + resWidth;
  out[2] = resBasis - resWidth;
  return out;
}

/** (upper - lower) / middle from the last bands()/keltner() step. */
function bandWidth(): number {
  return (resBasis + resWidth - (resBasis - resWidth)) / resBasis;
}

function bb(ctx: ExecContext, args: any[], site: CallSite): any[] {
  bands(ctx, args, site, "bb");
  return bandTuple(site);
}

function bbw(ctx: ExecContext, args: any[], site: CallSite): number {
  bands(ctx, args, site, "bbw");
  // TradingView returns the width in percent (ta/bb), unlike the reference snippet
  return bandWidth() * 100;
}

/** Keltner: ema basis and ema of the range (ta.tr, i.e. tr(false), or high - low). */
function keltner(ctx: ExecContext, args: any[], site: CallSite, fn: string): void {
  const k = kx(ctx);
  let s = site.state as S | undefined;
  if (s === undefined) {
    const len = intArg(ctx, args[1], fn);
    s = site.state = { b: k.ema_new(len, 0), r: k.ema_new(len, 0), t: k.tr_new() };
  }
  const bar = ctx.barIndex;
  const useTr = args[3] !== false;
  const tr = k.tr_next(s.t, bar, ctx.high, ctx.low, ctx.close, 0);
  const span = useTr ? tr : ctx.high - ctx.low;
  resBasis = k.ema_next(s.b, bar, num(args[0]));
  resWidth = k.ema_next(s.r, bar, span) * num(args[2]);
}

function kc(ctx: ExecContext, args: any[], site: CallSite): any[] {
  keltner(ctx, args, site, "kc");
  return bandTuple(site);
}

function kcw(ctx: ExecContext, args: any[], site: CallSite): number {
  keltner(ctx, args, site, "kcw");
  return bandWidth();
}

function macd(ctx: ExecContext, args: any[], site: CallSite): any[] {
  const k = kx(ctx);
  const s = (site.state ??= {
    f: k.ema_new(intArg(ctx, args[1], "macd", "fastlen"), 0),
    l: k.ema_new(intArg(ctx, args[2], "macd", "slowlen"), 0),
    g: k.ema_new(intArg(ctx, args[3], "macd", "siglen"), 0),
  }) as S;
  const bar = ctx.barIndex;
  const x = num(args[0]);
  const m = k.ema_next(s.f, bar, x) - k.ema_next(s.l, bar, x);
  const sig = k.ema_next(s.g, bar, m);
  const out = tuple(site, 3);
  out[0] = m;
  out[1] = sig;
  out[2] = m - sig;
  return out;
}

/** True strength index: double-smoothed momentum over double-smoothed absolute momentum. */
function tsi(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  let s = site.state as S | undefined;
  if (s === undefined) {
    const sh = intArg(ctx, args[1], "tsi", "short_length");
    const lo = intArg(ctx, args[2], "tsi", "long_length");
    s = site.state = {
      p: k.lag_new(1),
      a1: k.ema_new(lo, 0),
      a2: k.ema_new(sh, 0),
      b1: k.ema_new(lo, 0),
      b2: k.ema_new(sh, 0),
    };
  }
  const bar = ctx.barIndex;
  const x = num(args[0]);
  const pc = x - k.lag_next(s.p, bar, x, 1);
  const a = k.ema_next(s.a2, bar, k.ema_next(s.a1, bar, pc));
  const b = k.ema_next(s.b2, bar, k.ema_next(s.b1, bar, Math.abs(pc)));
  return a / b;
}

/**
 * Pearson correlation from the moving means and biased variances of each source, every one over
 * its own last `length` non-na values (ta_test_244 pins this, na gaps included); 0 when the
 * denominator is zero within 1e-10.
 */
function correlation(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[2], "correlation");
  const s = (site.state ??= {
    x: k.sum_new(len),
    y: k.sum_new(len),
    xy: k.sum_new(len),
    vx: k.var_new(len),
    vy: k.var_new(len),
  }) as S;
  const bar = ctx.barIndex;
  const a = num(args[0]);
  const b = num(args[1]);
  const mx = k.sma_next(s.x, bar, a, len);
  const my = k.sma_next(s.y, bar, b, len);
  const mxy = k.sma_next(s.xy, bar, a * b, len);
  const vx = k.var_next(s.vx, bar, a, len, 1);
  const vy = k.var_next(s.vy, bar, b, len, 1);
  const den = Math.sqrt(vx * vy);
  if (den !== den || mxy !== mxy || mx !== mx || my !== my) return NaN;
  if (den <= EPS) return 0;
  return (mxy - mx * my) / den;
}

export const averages: BuiltinTable = {
  "ta.sma": { name: "ta.sma", impl: sma, stateful: true },
  "ta.ema": { name: "ta.ema", impl: emaLike(0, "ema"), stateful: true },
  "ta.rma": { name: "ta.rma", impl: emaLike(1, "rma"), stateful: true },
  "ta.wma": { name: "ta.wma", impl: wma, stateful: true },
  "ta.hma": { name: "ta.hma", impl: hma, stateful: true },
  "ta.vwma": { name: "ta.vwma", impl: vwma, stateful: true },
  "ta.swma": { name: "ta.swma", impl: swma, stateful: true },
  "ta.alma": { name: "ta.alma", impl: alma, stateful: true },
  "ta.cog": { name: "ta.cog", impl: cog, stateful: true },
  "ta.linreg": { name: "ta.linreg", impl: linreg, stateful: true },
  "ta.variance": { name: "ta.variance", impl: (c, a, s) => variance(c, a, s, "variance"), stateful: true },
  "ta.stdev": { name: "ta.stdev", impl: (c, a, s) => Math.sqrt(variance(c, a, s, "stdev")), stateful: true },
  "ta.dev": { name: "ta.dev", impl: dev, stateful: true },
  "ta.cum": { name: "ta.cum", impl: cum, stateful: true },
  "ta.bb": { name: "ta.bb", impl: bb, stateful: true, returnsTuple: 3 },
  "ta.bbw": { name: "ta.bbw", impl: bbw, stateful: true },
  "ta.kc": { name: "ta.kc", impl: kc, stateful: true, returnsTuple: 3 },
  "ta.kcw": { name: "ta.kcw", impl: kcw, stateful: true },
  "ta.macd": { name: "ta.macd", impl: macd, stateful: true, returnsTuple: 3 },
  "ta.tsi": { name: "ta.tsi", impl: tsi, stateful: true },
  "ta.correlation": { name: "ta.correlation", impl: correlation, stateful: true },
};
