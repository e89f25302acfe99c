// The drawing objects a script holds references to (na = null). Plain mutable classes: their fields
// are the whole state, so a snapshot is a shallow copy of the fields (tables copy their cells too).
import { PineObject, packColor } from "../../core/values.js";
import { objectArray } from "../../core/shapes.js";

export type DrawingKind = "line" | "label" | "box" | "table" | "polyline" | "linefill";

export const BLUE = packColor(0x29, 0x62, 0xff);
export const WHITE = packColor(0xff, 0xff, 0xff);
export const BLACK = packColor(0x36, 0x3a, 0x45);

/** chart.point is a builtin reference type with fields time, index, price (in that order). */
export const POINT_TYPE = "chart.point";
export const P_TIME = 0;
export const P_INDEX = 1;
export const P_PRICE = 2;

export function newPoint(time: number, index: number, price: number): PineObject {
  return new PineObject(POINT_TYPE, [time, index, price]);
}

export function isPoint(v: unknown): v is PineObject {
  return v instanceof PineObject && v.typeName === POINT_TYPE;
}

abstract class Drawing {
  /** Deleted explicitly, by garbage collection or (linefills) with one of their lines. */
  deleted = false;
  constructor(
    public readonly kind: DrawingKind,
    public readonly id: number,
  ) {}
}

export class Line extends Drawing {
  x1 = NaN;
  y1 = NaN;
  x2 = NaN;
  y2 = NaN;
  xloc = "bar_index";
  extend = "none";
  color = BLUE;
  style = "solid";
  width = 1;
  forceOverlay = false;
  constructor(id: number) {
    super("line", id);
  }
}

export class Label extends Drawing {
  x = NaN;
  y = NaN;
  text = "";
  xloc = "bar_index";
  yloc = "price";
  color = BLUE;
  style = "label_down";
  textcolor = WHITE;
  size: string | number = "normal";
  textalign = "center";
  tooltip = "";
  fontFamily = "default";
  formatting = "none";
  forceOverlay = false;
  constructor(id: number) {
    super("label", id);
  }
}

export class Box extends Drawing {
  left = NaN;
  top = NaN;
  right = NaN;
  bottom = NaN;
  borderColor = BLUE;
  borderWidth = 1;
  borderStyle = "solid";
  extend = "none";
  xloc = "bar_index";
  bgcolor = BLUE;
  text = "";
  textSize: string | number = "auto";
  textColor = BLACK;
  textHalign = "center";
  textValign = "center";
  textWrap = "none";
  fontFamily = "default";
  formatting = "none";
  forceOverlay = false;
  constructor(id: number) {
    super("box", id);
  }
}

export interface TableCell {
  text: string;
  width: number;
  height: number;
  textColor: number;
  textHalign: string;
  textValign: string;
  textSize: string | number;
  bgcolor: number;
  tooltip: string;
  fontFamily: string;
  formatting: string;
}

export function newCell(): TableCell {
  return {
    text: "",
    width: 0,
    height: 0,
    textColor: BLACK,
    textHalign: "center",
    textValign: "center",
    textSize: "normal",
    bgcolor: NaN,
    tooltip: "",
    fontFamily: "default",
    formatting: "none",
  };
}

export interface CellMerge {
  c0: number;
  r0: number;
  c1: number;
  r1: number;
}

export class Table extends Drawing {
  position = "top_right";
  columns = 0;
  rows = 0;
  bgcolor = NaN;
  frameColor = NaN;
  frameWidth = 0;
  borderColor = NaN;
  borderWidth = 0;
  forceOverlay = false;
  /** Row-major, columns * rows; null until a cell is first written. */
  cells: (TableCell | null)[] = [];
  merges: CellMerge[] = [];
  constructor(id: number) {
    super("table", id);
  }
}

/** A polyline keeps copies of its points: later changes to the chart.point objects do not move it. */
export interface PolyPoint {
  time: number;
  index: number;
  price: number;
}

export class Polyline extends Drawing {
  points: PolyPoint[] = objectArray();
  curved = false;
  closed = false;
  xloc = "bar_index";
  lineColor = BLUE;
  fillColor = NaN;
  lineStyle = "solid";
  lineWidth = 1;
  forceOverlay = false;
  constructor(id: number) {
    super("polyline", id);
  }
}

export class Linefill extends Drawing {
  color = BLUE;
  constructor(
    id: number,
    public line1: Line,
    public line2: Line,
  ) {
    super("linefill", id);
  }
}

export type AnyDrawing = Line | Label | Box | Table | Polyline | Linefill;
