// Argument decoding shared by the drawing builtins: defaults for omitted arguments, validation of
// the string enums (xloc, extend, yloc), and the coordinate-form overloads of the constructors.
import type { ExecContext } from "../types.js";
import { isPoint, P_INDEX, P_PRICE, P_TIME } from "./objects.js";
import type { PineObject } from "../../core/values.js";

export const XLOC = new Set(["bar_index", "bar_time"]);
export const EXTEND = new Set(["none", "left", "right", "both"]);
export const YLOC = new Set(["price", "abovebar", "belowbar"]);
/** Objects positioned with xloc.bar_index may not lie further ahead of the current bar. */
export const MAX_FUTURE_BARS = 500;

export function num(v: unknown, def: number): number {
  return v === undefined ? def : typeof v === "number" ? v : v === null ? NaN : Number(v);
}

export function int(v: unknown, def: number): number {
  const n = num(v, def);
  return n === n ? Math.trunc(n) : n;
}

/** An omitted or na string argument takes the default. */
export function str(v: unknown, def: string): string {
  return v === undefined || v === null ? def : String(v);
}

export function bool(v: unknown, def: boolean): boolean {
  return v === undefined || v === null ? def : v === true;
}

/** text_size takes a size.* string or a point size (v6). */
export function textSize(v: unknown, def: string | number): string | number {
  if (v === undefined || v === null) return def;
  return typeof v === "number" ? (v === v ? Math.trunc(v) : def) : String(v);
}

function oneOf(ctx: ExecContext, v: unknown, def: string, allowed: Set<string>, what: string): string {
  const s = str(v, def);
  if (!allowed.has(s))
    ctx.runtimeError(
      `Invalid ${what} value '${s}': expected one of ${[...allowed].map((x) => `${what}.${x}`).join(", ")}`,
    );
  return s;
}

export const xlocArg = (ctx: ExecContext, v: unknown): string => oneOf(ctx, v, "bar_index", XLOC, "xloc");
export const extendArg = (ctx: ExecContext, v: unknown): string => oneOf(ctx, v, "none", EXTEND, "extend");
export const ylocArg = (ctx: ExecContext, v: unknown): string => oneOf(ctx, v, "price", YLOC, "yloc");

/** text_formatting: text.format_none, _bold, _italic or their sum ("bolditalic"). */
export function formatting(v: unknown, def = "none"): string {
  if (v === undefined || v === null) return def;
  const s = String(v);
  const bold = s.includes("bold");
  const italic = s.includes("italic");
  return bold && italic ? "bold+italic" : bold ? "bold" : italic ? "italic" : "none";
}

/** The x of a point for an xloc (index for bar_index, time for bar_time). */
export function pointX(p: PineObject, xloc: string): number {
  return (xloc === "bar_time" ? p.fields[P_TIME] : p.fields[P_INDEX]) as number;
}

export function pointPrice(p: PineObject): number {
  return p.fields[P_PRICE] as number;
}

/** Two corners (x1, y1, x2, y2) of a line or box, written by `twoPoints`: no array per call. */
export const corners = { x1: NaN, y1: NaN, x2: NaN, y2: NaN };

/**
 * Resolves the two overloads of line.new/box.new: two chart.points (`p1`/`p2` given) or four
 * coordinates. A point that is na gives na coordinates. The result is in `corners`.
 */
export function twoPoints(
  p1: unknown,
  p2: unknown,
  x1: unknown,
  y1: unknown,
  x2: unknown,
  y2: unknown,
  xloc: string,
): void {
  if (p1 !== undefined || p2 !== undefined) {
    corners.x1 = isPoint(p1) ? pointX(p1, xloc) : NaN;
    corners.y1 = isPoint(p1) ? pointPrice(p1) : NaN;
    corners.x2 = isPoint(p2) ? pointX(p2, xloc) : NaN;
    corners.y2 = isPoint(p2) ? pointPrice(p2) : NaN;
  } else {
    corners.x1 = int(x1, NaN);
    corners.y1 = num(y1, NaN);
    corners.x2 = int(x2, NaN);
    corners.y2 = num(y2, NaN);
  }
}

export function checkX(ctx: ExecContext, x: number, xloc: string): number {
  if (xloc === "bar_index" && x === x && x > ctx.barIndex + MAX_FUTURE_BARS)
    ctx.runtimeError(
      `Objects positioned using xloc.bar_index cannot be drawn further than ${MAX_FUTURE_BARS} bars into the future`,
    );
  return x;
}

/** Value-shape test used by overloadDecoder: which values a coordinate-form parameter accepts. */
export function fitsParam(param: string, v: unknown): boolean {
  switch (param) {
    case "xloc":
      return typeof v === "string" && XLOC.has(v);
    case "extend":
      return typeof v === "string" && EXTEND.has(v);
    case "yloc":
      return typeof v === "string" && YLOC.has(v);
    case "force_overlay":
      return typeof v === "boolean";
    case "size":
    case "text_size":
      return typeof v === "string" || typeof v === "number";
    default:
      return numericParam(param) ? typeof v === "number" : typeof v === "string" || v === null;
  }
}

/** Colours and coordinates take numbers (the parameter names are few: the answer is kept per name, no regex per call). */
const numericParams = new Map<string, boolean>();
function numericParam(param: string): boolean {
  let r = numericParams.get(param);
  if (r === undefined) {
    r = /color/.test(param) || /^(x|y|x1|y1|x2|y2|left|top|right|bottom|width|border_width)$/.test(param);
    numericParams.set(param, r);
  }
  return r;
}

/**
 * Constructors documented with a chart.point form and a coordinate form (line.new(first_point, ...)
 * vs line.new(x1, y1, x2, y2, ...)). `args` is in catalogue parameter order: the point-form list,
 * then the coordinate parameters. A call placed onto the coordinate list has its coordinates in
 * their own slots; a coordinate call placed onto the point-form list (positional count fitting
 * both) has its positional arguments in point-form slots, shifted: positional k went to the slot
 * of pointList[k]. The leading run of slots whose values fit coordList[k] is taken as positional;
 * the first slot that is empty or does not fit ends it, and later slots are named arguments.
 *
 * The decoder for one constructor is made once and gives the arguments by name (`slot`: a name's
 * index; the names not given read undefined) in one of two arrays it keeps and refills on each
 * call, not new records, lists and index searches per call. The caller reads the result before
 * its next call. (the arguments by name, the
 * names not given reading undefined) in one of two objects it keeps and refills on each call, not
 * new records, lists and index searches per call. The caller reads the result before its next call.
 */
export interface OverloadDecoder {
  /** The arguments by name: `decode(args)[slot.xloc]` (undefined when not given). */
  decode(args: unknown[]): unknown[];
  slot: Readonly<Record<string, number>>;
}

export function overloadDecoder(
  params: readonly string[],
  pointList: readonly string[],
  coordList: readonly string[],
  fits: (param: string, v: unknown) => boolean,
): OverloadDecoder {
  const names = [...new Set([...params, ...pointList, ...coordList])];
  const slot: Record<string, number> = {};
  for (let i = 0; i < names.length; i++) slot[names[i]!] = i;
  // values by slot, refilled per call (array stores: no per-call record, no keyed stores by name)
  const out = names.map(() => undefined as unknown);
  const shifted = names.map(() => undefined as unknown);
  const paramSlot = params.map((p) => slot[p]!);
  const coordOnly = coordList.filter((p) => !pointList.includes(p)).map((p) => slot[p]!);
  const pointAt = pointList.map((p) => params.indexOf(p));
  const pointSlot = pointList.map((p) => slot[p]!);
  const coordSlot = coordList.map((p) => slot[p]!);
  const nPairs = Math.min(pointList.length, coordList.length);
  const decode = (args: unknown[]): unknown[] => {
    for (let i = 0; i < out.length; i++) out[i] = undefined;
    for (let i = 0; i < params.length; i++) if (args[i] !== undefined) out[paramSlot[i]!] = args[i];
    for (let i = 0; i < coordOnly.length; i++) if (out[coordOnly[i]!] !== undefined) return out; // placed on the coordinate list
    if (isPoint(args[0]) || args[0] === undefined) return out; // the point form
    if (args[0] === null && pointList.length > 1 && (args[1] === null || isPoint(args[1]))) return out; // na points
    for (let i = 0; i < shifted.length; i++) shifted[i] = undefined;
    let k = 0;
    for (; k < nPairs; k++) {
      const v = args[pointAt[k]!];
      if (v === undefined || !fits(coordList[k]!, v)) break;
      shifted[coordSlot[k]!] = v;
    }
    for (let j = k; j < pointList.length; j++) {
      const v = args[pointAt[j]!];
      if (v !== undefined && shifted[pointSlot[j]!] === undefined) shifted[pointSlot[j]!] = v;
    }
    return shifted;
  };
  return { decode, slot };
}
