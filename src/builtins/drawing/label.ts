// label.*: label.new (chart.point and x/y forms), getters, setters, copy, delete.
import type { BuiltinTable, ExecContext } from "../types.js";
import { catalogFunction } from "../../catalog/index.js";
import { isPoint, Label } from "./objects.js";
import {
  checkX,
  overloadDecoder,
  fitsParam,
  formatting,
  int,
  num,
  pointPrice,
  pointX,
  str,
  bool,
  textSize,
  xlocArg,
  ylocArg,
} from "./args.js";
import { addDrawing, allocId, storeOf } from "./store.js";
import { accessors } from "./access.js";

const NEW = catalogFunction("label.new")!.fn;
const NEW_ARGS = overloadDecoder(NEW.params, NEW.lists[0]!, NEW.lists[1]!, fitsParam);
const S = NEW_ARGS.slot;
const A = accessors(Label);

function newLabel(ctx: ExecContext, args: unknown[]): Label {
  const a = NEW_ARGS.decode(args);
  const store = storeOf(ctx);
  const l = new Label(allocId(store));
  l.xloc = xlocArg(ctx, a[S.xloc]);
  if (a[S.point] !== undefined) {
    const p = a[S.point];
    l.x = isPoint(p) ? pointX(p, l.xloc) : NaN;
    l.y = isPoint(p) ? pointPrice(p) : NaN;
  } else {
    l.x = int(a[S.x], NaN);
    l.y = num(a[S.y], NaN);
  }
  checkX(ctx, l.x, l.xloc);
  l.text = str(a[S.text], "");
  l.yloc = ylocArg(ctx, a[S.yloc]);
  l.color = num(a[S.color], l.color);
  l.style = str(a[S.style], l.style);
  l.textcolor = num(a[S.textcolor], l.textcolor);
  l.size = textSize(a[S.size], l.size);
  l.textalign = str(a[S.textalign], l.textalign);
  l.tooltip = str(a[S.tooltip], "");
  l.fontFamily = str(a[S.text_font_family], "default");
  l.forceOverlay = bool(a[S.force_overlay], false);
  l.formatting = formatting(a[S.text_formatting]);
  addDrawing(store, l);
  return l;
}

export const labelFunctions: BuiltinTable = {
  "label.new": { name: "label.new", impl: (ctx, a) => newLabel(ctx, a) },
  "label.copy": A.copier("label.copy", (id) => new Label(id)),
  "label.delete": A.deleter("label.delete"),
  "label.get_x": A.getter("label.get_x", (l) => l.x),
  "label.get_y": A.getter("label.get_y", (l) => l.y),
  "label.get_text": A.getter("label.get_text", (l) => l.text, null),
  "label.set_x": A.setter("label.set_x", (ctx, l, a) => (l.x = checkX(ctx, int(a[1], NaN), l.xloc))),
  "label.set_y": A.setter("label.set_y", (_c, l, a) => (l.y = num(a[1], NaN))),
  "label.set_xy": A.setter("label.set_xy", (ctx, l, a) => {
    l.x = checkX(ctx, int(a[1], NaN), l.xloc);
    l.y = num(a[2], NaN);
  }),
  "label.set_point": A.setter("label.set_point", (ctx, l, a) => {
    const p = a[1];
    l.x = checkX(ctx, isPoint(p) ? pointX(p, l.xloc) : NaN, l.xloc);
    l.y = isPoint(p) ? pointPrice(p) : NaN;
  }),
  "label.set_xloc": A.setter("label.set_xloc", (ctx, l, a) => {
    l.xloc = xlocArg(ctx, a[2]);
    l.x = checkX(ctx, int(a[1], NaN), l.xloc);
  }),
  "label.set_yloc": A.setter("label.set_yloc", (ctx, l, a) => (l.yloc = ylocArg(ctx, a[1]))),
  "label.set_text": A.setter("label.set_text", (_c, l, a) => (l.text = str(a[1], ""))),
  "label.set_color": A.setter("label.set_color", (_c, l, a) => (l.color = num(a[1], NaN))),
  "label.set_style": A.setter("label.set_style", (_c, l, a) => (l.style = str(a[1], "label_down"))),
  "label.set_textcolor": A.setter("label.set_textcolor", (_c, l, a) => (l.textcolor = num(a[1], NaN))),
  "label.set_size": A.setter("label.set_size", (_c, l, a) => (l.size = textSize(a[1], "normal"))),
  "label.set_textalign": A.setter("label.set_textalign", (_c, l, a) => (l.textalign = str(a[1], "center"))),
  "label.set_tooltip": A.setter("label.set_tooltip", (_c, l, a) => (l.tooltip = str(a[1], ""))),
  "label.set_text_font_family": A.setter(
    "label.set_text_font_family",
    (_c, l, a) => (l.fontFamily = str(a[1], "default")),
  ),
  "label.set_text_formatting": A.setter("label.set_text_formatting", (_c, l, a) => (l.formatting = formatting(a[1]))),
};
