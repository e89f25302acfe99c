// line.*: line.new (chart.point and coordinate forms), getters, setters, copy, delete, get_price.
import type { BuiltinTable, ExecContext } from "../types.js";
import { catalogFunction } from "../../catalog/index.js";
import { isPoint, Line } from "./objects.js";
import {
  checkX,
  corners,
  overloadDecoder,
  extendArg,
  fitsParam,
  int,
  num,
  pointPrice,
  pointX,
  str,
  bool,
  twoPoints,
  xlocArg,
} from "./args.js";
import { addDrawing, allocId, storeOf } from "./store.js";
import { accessors } from "./access.js";

const NEW = catalogFunction("line.new")!.fn;
const NEW_ARGS = overloadDecoder(NEW.params, NEW.lists[0]!, NEW.lists[1]!, fitsParam);
const S = NEW_ARGS.slot;

const L = accessors(Line);
const any = L.any;
const getter = L.getter;
const setter = L.setter;

function newLine(ctx: ExecContext, args: unknown[]): Line {
  const a = NEW_ARGS.decode(args);
  const store = storeOf(ctx);
  const l = new Line(allocId(store));
  l.xloc = xlocArg(ctx, a[S.xloc]);
  twoPoints(a[S.first_point], a[S.second_point], a[S.x1], a[S.y1], a[S.x2], a[S.y2], l.xloc);
  l.x1 = corners.x1;
  l.y1 = corners.y1;
  l.x2 = corners.x2;
  l.y2 = corners.y2;
  checkX(ctx, l.x1, l.xloc);
  checkX(ctx, l.x2, l.xloc);
  l.extend = extendArg(ctx, a[S.extend]);
  l.color = num(a[S.color], l.color);
  l.style = str(a[S.style], l.style);
  l.width = int(a[S.width], 1);
  l.forceOverlay = bool(a[S.force_overlay], false);
  addDrawing(store, l);
  return l;
}

function setPoint(ctx: ExecContext, l: Line, p: unknown, first: boolean): void {
  const x = isPoint(p) ? pointX(p, l.xloc) : NaN;
  const y = isPoint(p) ? pointPrice(p) : NaN;
  checkX(ctx, x, l.xloc);
  if (first) {
    l.x1 = x;
    l.y1 = y;
  } else {
    l.x2 = x;
    l.y2 = y;
  }
}

/** Price of the line (extended both ways) at bar index x: only for xloc.bar_index lines. */
function priceAt(ctx: ExecContext, l: Line, x: number): number {
  if (l.xloc !== "bar_index")
    ctx.runtimeError("line.get_price() can only be used with lines created using xloc.bar_index");
  if (x !== x || l.x1 !== l.x1 || l.x2 !== l.x2) return NaN;
  if (l.x2 === l.x1) return l.y1;
  return l.y1 + ((x - l.x1) * (l.y2 - l.y1)) / (l.x2 - l.x1);
}

export const lineFunctions: BuiltinTable = {
  "line.new": { name: "line.new", impl: (ctx, a) => newLine(ctx, a) },
  "line.copy": L.copier("line.copy", (id) => new Line(id)),
  "line.delete": L.deleter("line.delete"),
  "line.get_x1": getter("line.get_x1", (l) => l.x1),
  "line.get_y1": getter("line.get_y1", (l) => l.y1),
  "line.get_x2": getter("line.get_x2", (l) => l.x2),
  "line.get_y2": getter("line.get_y2", (l) => l.y2),
  "line.get_price": {
    name: "line.get_price",
    impl: (ctx, a) => (any(a[0]) === null ? NaN : priceAt(ctx, any(a[0])!, num(a[1], NaN))),
  },
  "line.set_x1": setter("line.set_x1", (ctx, l, a) => (l.x1 = checkX(ctx, int(a[1], NaN), l.xloc))),
  "line.set_y1": setter("line.set_y1", (_c, l, a) => (l.y1 = num(a[1], NaN))),
  "line.set_x2": setter("line.set_x2", (ctx, l, a) => (l.x2 = checkX(ctx, int(a[1], NaN), l.xloc))),
  "line.set_y2": setter("line.set_y2", (_c, l, a) => (l.y2 = num(a[1], NaN))),
  "line.set_xy1": setter("line.set_xy1", (ctx, l, a) => {
    l.x1 = checkX(ctx, int(a[1], NaN), l.xloc);
    l.y1 = num(a[2], NaN);
  }),
  "line.set_xy2": setter("line.set_xy2", (ctx, l, a) => {
    l.x2 = checkX(ctx, int(a[1], NaN), l.xloc);
    l.y2 = num(a[2], NaN);
  }),
  "line.set_xloc": setter("line.set_xloc", (ctx, l, a) => {
    l.xloc = xlocArg(ctx, a[3]);
    l.x1 = checkX(ctx, int(a[1], NaN), l.xloc);
    l.x2 = checkX(ctx, int(a[2], NaN), l.xloc);
  }),
  "line.set_first_point": setter("line.set_first_point", (ctx, l, a) => setPoint(ctx, l, a[1], true)),
  "line.set_second_point": setter("line.set_second_point", (ctx, l, a) => setPoint(ctx, l, a[1], false)),
  "line.set_extend": setter("line.set_extend", (ctx, l, a) => (l.extend = extendArg(ctx, a[1]))),
  "line.set_color": setter("line.set_color", (_c, l, a) => (l.color = num(a[1], NaN))),
  "line.set_style": setter("line.set_style", (_c, l, a) => (l.style = str(a[1], "solid"))),
  "line.set_width": setter("line.set_width", (_c, l, a) => (l.width = int(a[1], 1))),
};
