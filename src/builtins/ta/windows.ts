// Window extremes and order statistics: highest/lowest(+bars), range, max/min, median, mode,
// percentiles, percentrank, rci, pivothigh/pivotlow, pivot_point_levels.
import { PineArray } from "../../core/values.js";
import type { BuiltinTable, CallSite, ExecContext } from "../types.js";
import { intArg, kernels, kx, num, truthy } from "./common.js";

/** kind 0 highest, 1 lowest, 2 highestbars, 3 lowestbars; the one-argument form reads high/low. */
function hilo(kind: 0 | 1 | 2 | 3, fn: string) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    // one-argument form: ta.highest(length) (length first, or named into the length slot)
    const oneArg = args[1] === undefined || args[0] === undefined;
    const len = intArg(ctx, args[1] === undefined ? args[0] : args[1], fn);
    const x = oneArg ? ((kind & 1) === 0 ? ctx.high : ctx.low) : num(args[0]);
    const h = (site.state ??= k.hilo_new(len, kind)) as number;
    return k.hilo_next(h, ctx.barIndex, x, len);
  };
}

function extreme(kind: 0 | 1) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    const h = (site.state ??= k.extreme_new(kind)) as number;
    return k.extreme_next(h, ctx.barIndex, num(args[0]));
  };
}

type OrderKernel = "median_next" | "mode_next" | "rci_next" | "range_next";

/** skip: the window is the last `length` non-na values (the reference says so for median, mode, range). */
function order(fn: string, kernel: OrderKernel, skip: 0 | 1) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    const len = intArg(ctx, args[1], fn);
    const h = (site.state ??= k.order_new(len, skip)) as number;
    return k[kernel](h, ctx.barIndex, num(args[0]), len);
  };
}

function percentile(fn: string, linear: boolean) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    const len = intArg(ctx, args[1], fn);
    const p = num(args[2]);
    if (!(p >= 0 && p <= 100))
      ctx.runtimeError(
        `Invalid value of the 'percentage' argument (${args[2]}) in the '${fn}' function. It must be between 0 and 100.`,
      );
    const h = (site.state ??= k.order_new(len, 0)) as number;
    return linear
      ? k.pli_next(h, ctx.barIndex, num(args[0]), len, p)
      : k.pnr_next(h, ctx.barIndex, num(args[0]), len, p);
  };
}

function percentrank(ctx: ExecContext, args: any[], site: CallSite): number {
  const k = kx(ctx);
  const len = intArg(ctx, args[1], "percentrank");
  const h = (site.state ??= k.win_new(len + 1)) as number;
  return k.prank_next(h, ctx.barIndex, num(args[0]), len);
}

/**
 * ta.pivothigh/pivotlow(source, left, right) or (left, right) on high/low. The catalogue's parameter
 * order is the union [leftbars, rightbars, source], so the source arrives last when it is given.
 */
function pivot(kind: 0 | 1, fn: string) {
  return (ctx: ExecContext, args: any[], site: CallSite): number => {
    const k = kx(ctx);
    const x = args[2] !== undefined ? num(args[2]) : kind === 0 ? ctx.high : ctx.low;
    const left = intArg(ctx, args[0], fn, "leftbars", 0);
    const right = intArg(ctx, args[1], fn, "rightbars", 0);
    const h = (site.state ??= k.win_new(left + right + 2)) as number;
    return k.pivot_next(h, ctx.barIndex, x, left, right, kind);
  };
}

// ---------------------------------------------------------------- pivot point levels
// Levels [P, R1, S1, R2, S2, R3, S3, R4, S4, R5, S5] from the previous anchor period's high, low,
// close (and the current period's open for Woodie). The period accumulators live in kernel memory
// (ppl kernel); the level arithmetic is plain JS on the period values.

const TYPES = ["Traditional", "Fibonacci", "Woodie", "Classic", "DM", "Camarilla"];

function levels(type: string, o: number, h: number, l: number, c: number, curOpen: number, out: number[]): void {
  out.fill(NaN);
  const r = h - l;
  switch (type) {
    case "Traditional": {
      const p = (h + l + c) / 3;
      out[0] = p;
      out[1] = p * 2 - l;
      out[2] = p * 2 - h;
      out[3] = p + r;
      out[4] = p - r;
      out[5] = p * 2 + (h - 2 * l);
      out[6] = p * 2 - (2 * h - l);
      out[7] = p * 3 + (h - 3 * l);
      out[8] = p * 3 - (3 * h - l);
      out[9] = p * 4 + (h - 4 * l);
      out[10] = p * 4 - (4 * h - l);
      break;
    }
    case "Fibonacci": {
      const p = (h + l + c) / 3;
      out[0] = p;
      out[1] = p + 0.382 * r;
      out[2] = p - 0.382 * r;
      out[3] = p + 0.618 * r;
      out[4] = p - 0.618 * r;
      out[5] = p + r;
      out[6] = p - r;
      break;
    }
    case "Woodie": {
      const p = (h + l + 2 * curOpen) / 4;
      out[0] = p;
      out[1] = 2 * p - l;
      out[2] = 2 * p - h;
      out[3] = p + r;
      out[4] = p - r;
      out[5] = h + 2 * (p - l);
      out[6] = l - 2 * (h - p);
      out[7] = out[5] + r;
      out[8] = out[6] - r;
      break;
    }
    case "Classic": {
      const p = (h + l + c) / 3;
      out[0] = p;
      out[1] = 2 * p - l;
      out[2] = 2 * p - h;
      out[3] = p + r;
      out[4] = p - r;
      out[5] = p + 2 * r;
      out[6] = p - 2 * r;
      out[7] = p + 3 * r;
      out[8] = p - 3 * r;
      break;
    }
    case "DM": {
      const x = c < o ? h + 2 * l + c : c > o ? 2 * h + l + c : h + l + 2 * c;
      out[0] = x / 4;
      out[1] = x / 2 - l;
      out[2] = x / 2 - h;
      break;
    }
    case "Camarilla": {
      const p = (h + l + c) / 3;
      out[0] = p;
      out[1] = c + (r * 1.1) / 12;
      out[2] = c - (r * 1.1) / 12;
      out[3] = c + (r * 1.1) / 6;
      out[4] = c - (r * 1.1) / 6;
      out[5] = c + (r * 1.1) / 4;
      out[6] = c - (r * 1.1) / 4;
      out[7] = c + (r * 1.1) / 2;
      out[8] = c - (r * 1.1) / 2;
      out[9] = (h / l) * c;
      out[10] = c - (out[9] - c);
      break;
    }
  }
}

function pivotPointLevels(ctx: ExecContext, args: any[], site: CallSite): PineArray<number> {
  const kk = kernels(ctx);
  const k = kk.x;
  const type = String(args[0]);
  if (!TYPES.includes(type))
    ctx.runtimeError(`Invalid value of the 'type' argument ("${type}") in the 'pivot_point_levels' function.`);
  const developing = truthy(args[2]);
  if (developing && type === "Woodie")
    ctx.runtimeError("The 'developing' parameter cannot be true when 'type' is \"Woodie\".");
  const h = (site.state ??= k.ppl_new()) as number;
  const seen = k.ppl_next(h, ctx.barIndex, ctx.open, ctx.high, ctx.low, ctx.close, truthy(args[1]) ? 1 : 0);
  // A new array per call: arrays are references a script may keep or modify.
  const out = new Array<number>(11).fill(NaN);
  if (developing) levels(type, kk.out(0), kk.out(1), kk.out(2), kk.out(3), kk.out(0), out);
  else if (seen >= 2) levels(type, kk.out(4), kk.out(5), kk.out(6), kk.out(7), kk.out(0), out);
  return new PineArray<number>("float", out);
}

export const windows: BuiltinTable = {
  "ta.highest": { name: "ta.highest", impl: hilo(0, "highest"), stateful: true },
  "ta.lowest": { name: "ta.lowest", impl: hilo(1, "lowest"), stateful: true },
  "ta.highestbars": { name: "ta.highestbars", impl: hilo(2, "highestbars"), stateful: true },
  "ta.lowestbars": { name: "ta.lowestbars", impl: hilo(3, "lowestbars"), stateful: true },
  "ta.range": { name: "ta.range", impl: order("range", "range_next", 1), stateful: true },
  "ta.max": { name: "ta.max", impl: extreme(0), stateful: true },
  "ta.min": { name: "ta.min", impl: extreme(1), stateful: true },
  "ta.median": { name: "ta.median", impl: order("median", "median_next", 1), stateful: true },
  "ta.mode": { name: "ta.mode", impl: order("mode", "mode_next", 1), stateful: true },
  "ta.rci": { name: "ta.rci", impl: order("rci", "rci_next", 0), stateful: true },
  "ta.percentile_linear_interpolation": {
    name: "ta.percentile_linear_interpolation",
    impl: percentile("percentile_linear_interpolation", true),
    stateful: true,
  },
  "ta.percentile_nearest_rank": {
    name: "ta.percentile_nearest_rank",
    impl: percentile("percentile_nearest_rank", false),
    stateful: true,
  },
  "ta.percentrank": { name: "ta.percentrank", impl: percentrank, stateful: true },
  "ta.pivothigh": { name: "ta.pivothigh", impl: pivot(0, "pivothigh"), stateful: true },
  "ta.pivotlow": { name: "ta.pivotlow", impl: pivot(1, "pivotlow"), stateful: true },
  "ta.pivot_point_levels": { name: "ta.pivot_point_levels", impl: pivotPointLevels, stateful: true },
};
