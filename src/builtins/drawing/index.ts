// Drawings: line, label, box, table, polyline, linefill and chart.point builtins, their *.all
// variables and line.style_* / label.style_* constants, plus the per-run store API the Runtime uses:
// createDrawingStore (put it in ctx.ext.drawings), drawingsResult, snapshotDrawings/restoreDrawings.
// Without a store in ctx.ext.drawings the first drawing call creates one from the declaration's
// max_*_count (ctx.ext.declaration); it exposes toResult() for the Runtime's collection.
import { CATALOG } from "../../catalog/index.js";
import { PineArray } from "../../core/values.js";
import type { BuiltinTable, ConstantTable, VariableTable } from "../types.js";
import type { DrawingKind } from "./objects.js";
import { boxFunctions } from "./box.js";
import { labelFunctions } from "./label.js";
import { lineFunctions } from "./line.js";
import { pointFunctions } from "./point.js";
import { linefillFunctions, polylineFunctions } from "./polyline.js";
import { storeOf } from "./store.js";
import { tableFunctions } from "./table.js";

export { drawingsResult } from "./result.js";
export {
  createDrawingStore,
  emptyDrawingSnapshot,
  noDrawingsAlive,
  restoreDrawings,
  snapshotDrawings,
  storeOf as drawingStoreOf,
  type DrawingLimits,
  type DrawingSnapshot,
  type DrawingStore,
} from "./store.js";
export { Box, Label, Line, Linefill, Polyline, Table, isPoint, newPoint, POINT_TYPE } from "./objects.js";

export const functions: BuiltinTable = {
  ...lineFunctions,
  ...labelFunctions,
  ...boxFunctions,
  ...tableFunctions,
  ...polylineFunctions,
  ...linefillFunctions,
  ...pointFunctions,
};

/** `line.all` etc.: a fresh array of the alive objects, oldest first (the script may modify it). */
function allOf(kind: DrawingKind): VariableTable[string] {
  const name = `${kind}.all`;
  return { name, get: (ctx) => new PineArray(kind, storeOf(ctx).alive[kind].slice()) };
}

export const variables: VariableTable = {
  "line.all": allOf("line"),
  "label.all": allOf("label"),
  "box.all": allOf("box"),
  "table.all": allOf("table"),
  "polyline.all": allOf("polyline"),
  "linefill.all": allOf("linefill"),
};

/** line.style_solid -> "solid", label.style_label_down -> "label_down" (the values the objects keep). */
export const constants: ConstantTable = {};
for (const name of Object.keys(CATALOG.constants)) {
  if (name.startsWith("line.style_") || name.startsWith("label.style_"))
    constants[name] = name.slice(name.indexOf(".style_") + 7);
}
