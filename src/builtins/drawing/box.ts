// box.*: box.new (chart.point and left/top/right/bottom forms), getters, setters, copy, delete.
import type { BuiltinTable, ExecContext } from "../types.js";
import { catalogFunction } from "../../catalog/index.js";
import { Box, isPoint } from "./objects.js";
import {
  checkX,
  corners,
  overloadDecoder,
  extendArg,
  fitsParam,
  formatting,
  int,
  num,
  pointPrice,
  pointX,
  str,
  bool,
  textSize,
  twoPoints,
  xlocArg,
} from "./args.js";
import { addDrawing, allocId, storeOf } from "./store.js";
import { accessors } from "./access.js";

const NEW = catalogFunction("box.new")!.fn;
const NEW_ARGS = overloadDecoder(NEW.params, NEW.lists[0]!, NEW.lists[1]!, fitsParam);
const S = NEW_ARGS.slot;
const A = accessors(Box);

function newBox(ctx: ExecContext, args: unknown[]): Box {
  const a = NEW_ARGS.decode(args);
  const store = storeOf(ctx);
  const b = new Box(allocId(store));
  b.xloc = xlocArg(ctx, a[S.xloc]);
  twoPoints(a[S.top_left], a[S.bottom_right], a[S.left], a[S.top], a[S.right], a[S.bottom], b.xloc);
  b.left = corners.x1;
  b.top = corners.y1;
  b.right = corners.x2;
  b.bottom = corners.y2;
  checkX(ctx, b.left, b.xloc);
  checkX(ctx, b.right, b.xloc);
  b.borderColor = num(a[S.border_color], b.borderColor);
  b.borderWidth = int(a[S.border_width], 1);
  b.borderStyle = str(a[S.border_style], "solid");
  b.extend = extendArg(ctx, a[S.extend]);
  b.bgcolor = num(a[S.bgcolor], b.bgcolor);
  b.text = str(a[S.text], "");
  b.textSize = textSize(a[S.text_size], "auto");
  b.textColor = num(a[S.text_color], b.textColor);
  b.textHalign = str(a[S.text_halign], "center");
  b.textValign = str(a[S.text_valign], "center");
  b.textWrap = str(a[S.text_wrap], "none");
  b.fontFamily = str(a[S.text_font_family], "default");
  b.forceOverlay = bool(a[S.force_overlay], false);
  b.formatting = formatting(a[S.text_formatting]);
  addDrawing(store, b);
  return b;
}

function setCorner(ctx: ExecContext, b: Box, p: unknown, topLeft: boolean): void {
  const x = checkX(ctx, isPoint(p) ? pointX(p, b.xloc) : NaN, b.xloc);
  const y = isPoint(p) ? pointPrice(p) : NaN;
  if (topLeft) {
    b.left = x;
    b.top = y;
  } else {
    b.right = x;
    b.bottom = y;
  }
}

export const boxFunctions: BuiltinTable = {
  "box.new": { name: "box.new", impl: (ctx, a) => newBox(ctx, a) },
  "box.copy": A.copier("box.copy", (id) => new Box(id)),
  "box.delete": A.deleter("box.delete"),
  "box.get_left": A.getter("box.get_left", (b) => b.left),
  "box.get_top": A.getter("box.get_top", (b) => b.top),
  "box.get_right": A.getter("box.get_right", (b) => b.right),
  "box.get_bottom": A.getter("box.get_bottom", (b) => b.bottom),
  "box.set_left": A.setter("box.set_left", (ctx, b, a) => (b.left = checkX(ctx, int(a[1], NaN), b.xloc))),
  "box.set_top": A.setter("box.set_top", (_c, b, a) => (b.top = num(a[1], NaN))),
  "box.set_right": A.setter("box.set_right", (ctx, b, a) => (b.right = checkX(ctx, int(a[1], NaN), b.xloc))),
  "box.set_bottom": A.setter("box.set_bottom", (_c, b, a) => (b.bottom = num(a[1], NaN))),
  "box.set_lefttop": A.setter("box.set_lefttop", (ctx, b, a) => {
    b.left = checkX(ctx, int(a[1], NaN), b.xloc);
    b.top = num(a[2], NaN);
  }),
  "box.set_rightbottom": A.setter("box.set_rightbottom", (ctx, b, a) => {
    b.right = checkX(ctx, int(a[1], NaN), b.xloc);
    b.bottom = num(a[2], NaN);
  }),
  "box.set_top_left_point": A.setter("box.set_top_left_point", (ctx, b, a) => setCorner(ctx, b, a[1], true)),
  "box.set_bottom_right_point": A.setter("box.set_bottom_right_point", (ctx, b, a) => setCorner(ctx, b, a[1], false)),
  "box.set_xloc": A.setter("box.set_xloc", (ctx, b, a) => {
    b.xloc = xlocArg(ctx, a[3]);
    b.left = checkX(ctx, int(a[1], NaN), b.xloc);
    b.right = checkX(ctx, int(a[2], NaN), b.xloc);
  }),
  "box.set_extend": A.setter("box.set_extend", (ctx, b, a) => (b.extend = extendArg(ctx, a[1]))),
  "box.set_border_color": A.setter("box.set_border_color", (_c, b, a) => (b.borderColor = num(a[1], NaN))),
  "box.set_border_width": A.setter("box.set_border_width", (_c, b, a) => (b.borderWidth = int(a[1], 1))),
  "box.set_border_style": A.setter("box.set_border_style", (_c, b, a) => (b.borderStyle = str(a[1], "solid"))),
  "box.set_bgcolor": A.setter("box.set_bgcolor", (_c, b, a) => (b.bgcolor = num(a[1], NaN))),
  "box.set_text": A.setter("box.set_text", (_c, b, a) => (b.text = str(a[1], ""))),
  "box.set_text_size": A.setter("box.set_text_size", (_c, b, a) => (b.textSize = textSize(a[1], "auto"))),
  "box.set_text_color": A.setter("box.set_text_color", (_c, b, a) => (b.textColor = num(a[1], NaN))),
  "box.set_text_halign": A.setter("box.set_text_halign", (_c, b, a) => (b.textHalign = str(a[1], "center"))),
  "box.set_text_valign": A.setter("box.set_text_valign", (_c, b, a) => (b.textValign = str(a[1], "center"))),
  "box.set_text_wrap": A.setter("box.set_text_wrap", (_c, b, a) => (b.textWrap = str(a[1], "none"))),
  "box.set_text_font_family": A.setter("box.set_text_font_family", (_c, b, a) => (b.fontFamily = str(a[1], "default"))),
  "box.set_text_formatting": A.setter("box.set_text_formatting", (_c, b, a) => (b.formatting = formatting(a[1]))),
};
