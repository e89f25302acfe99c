// polyline.* and linefill.*: the two drawings built from other objects (points, lines).
import type { BuiltinTable, ExecContext } from "../types.js";
import { PineArray } from "../../core/values.js";
import { isPoint, Line, Linefill, P_INDEX, P_PRICE, P_TIME, Polyline } from "./objects.js";
import { bool, int, num, str, xlocArg } from "./args.js";
import { addDrawing, allocId, findLinefill, removeDrawing, storeOf } from "./store.js";
import { accessors } from "./access.js";

/** TradingView's limit of points in one polyline. */
export const MAX_POLYLINE_POINTS = 10_000;

const P = accessors(Polyline);
const F = accessors(Linefill);

function newPolyline(ctx: ExecContext, a: unknown[]): Polyline | null {
  const arr = a[0];
  if (!(arr instanceof PineArray)) return null;
  const values = arr.values as unknown[];
  if (values.length > MAX_POLYLINE_POINTS)
    ctx.runtimeError(
      `polyline.new(): too many points (${values.length}); a polyline has at most ${MAX_POLYLINE_POINTS}`,
    );
  const store = storeOf(ctx);
  const p = new Polyline(allocId(store));
  // the polyline copies the points' coordinates; na elements are skipped
  for (const v of values)
    if (isPoint(v))
      p.points.push({
        time: v.fields[P_TIME] as number,
        index: v.fields[P_INDEX] as number,
        price: v.fields[P_PRICE] as number,
      });
  p.curved = bool(a[1], false);
  p.closed = bool(a[2], false);
  p.xloc = xlocArg(ctx, a[3]);
  p.lineColor = num(a[4], p.lineColor);
  p.fillColor = num(a[5], NaN);
  p.lineStyle = str(a[6], "solid");
  p.lineWidth = int(a[7], 1);
  p.forceOverlay = bool(a[8], false);
  addDrawing(store, p);
  return p;
}

/** One linefill per pair of lines: a new one for the same pair replaces the old one. */
function newLinefill(ctx: ExecContext, a: unknown[]): Linefill | null {
  const l1 = a[0];
  const l2 = a[1];
  if (!(l1 instanceof Line) || !(l2 instanceof Line) || l1.deleted || l2.deleted) return null;
  const store = storeOf(ctx);
  const old = findLinefill(store, l1, l2);
  if (old) removeDrawing(store, old);
  const f = new Linefill(allocId(store), l1, l2);
  f.color = num(a[2], f.color);
  addDrawing(store, f);
  return f;
}

export const polylineFunctions: BuiltinTable = {
  "polyline.new": { name: "polyline.new", impl: (ctx, a) => newPolyline(ctx, a) },
  "polyline.delete": P.deleter("polyline.delete"),
};

export const linefillFunctions: BuiltinTable = {
  "linefill.new": { name: "linefill.new", impl: (ctx, a) => newLinefill(ctx, a) },
  "linefill.delete": F.deleter("linefill.delete"),
  "linefill.get_line1": F.getter("linefill.get_line1", (f) => f.line1, null),
  "linefill.get_line2": F.getter("linefill.get_line2", (f) => f.line2, null),
  "linefill.set_color": F.setter("linefill.set_color", (_c, f, a) => (f.color = num(a[1], NaN))),
};
