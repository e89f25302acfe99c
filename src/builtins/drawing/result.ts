// The `drawings` array of the run result: every object alive at the end, in creation order, as
// JSON-friendly records (colours "#RRGGBB[AA]" or null, na numbers null, linefills name their lines).
import { colorToString } from "../../core/values.js";
import { Box, Label, Line, type Linefill, Polyline, Table, type AnyDrawing, type DrawingKind } from "./objects.js";

const n = (x: number): number | null => (x === x ? x : null);
const c = (x: number): string | null => colorToString(x);

function record(o: AnyDrawing): Record<string, unknown> {
  if (o instanceof Line) {
    return {
      type: "line",
      id: o.id,
      x1: n(o.x1),
      y1: n(o.y1),
      x2: n(o.x2),
      y2: n(o.y2),
      xloc: o.xloc,
      extend: o.extend,
      color: c(o.color),
      style: o.style,
      width: n(o.width),
      force_overlay: o.forceOverlay,
    };
  }
  if (o instanceof Label) {
    return {
      type: "label",
      id: o.id,
      x: n(o.x),
      y: n(o.y),
      text: o.text,
      xloc: o.xloc,
      yloc: o.yloc,
      color: c(o.color),
      style: o.style,
      textcolor: c(o.textcolor),
      size: o.size,
      textalign: o.textalign,
      tooltip: o.tooltip,
      text_font_family: o.fontFamily,
      text_formatting: o.formatting,
      force_overlay: o.forceOverlay,
    };
  }
  if (o instanceof Box) {
    return {
      type: "box",
      id: o.id,
      left: n(o.left),
      top: n(o.top),
      right: n(o.right),
      bottom: n(o.bottom),
      border_color: c(o.borderColor),
      border_width: n(o.borderWidth),
      border_style: o.borderStyle,
      extend: o.extend,
      xloc: o.xloc,
      bgcolor: c(o.bgcolor),
      text: o.text,
      text_size: o.textSize,
      text_color: c(o.textColor),
      text_halign: o.textHalign,
      text_valign: o.textValign,
      text_wrap: o.textWrap,
      text_font_family: o.fontFamily,
      text_formatting: o.formatting,
      force_overlay: o.forceOverlay,
    };
  }
  if (o instanceof Table) {
    const cells: Record<string, unknown>[] = [];
    for (let i = 0; i < o.cells.length; i++) {
      const cell = o.cells[i];
      if (!cell) continue;
      cells.push({
        column: i % o.columns,
        row: Math.floor(i / o.columns),
        text: cell.text,
        width: n(cell.width),
        height: n(cell.height),
        text_color: c(cell.textColor),
        text_halign: cell.textHalign,
        text_valign: cell.textValign,
        text_size: cell.textSize,
        bgcolor: c(cell.bgcolor),
        tooltip: cell.tooltip,
        text_font_family: cell.fontFamily,
        text_formatting: cell.formatting,
      });
    }
    return {
      type: "table",
      id: o.id,
      position: o.position,
      columns: o.columns,
      rows: o.rows,
      bgcolor: c(o.bgcolor),
      frame_color: c(o.frameColor),
      frame_width: n(o.frameWidth),
      border_color: c(o.borderColor),
      border_width: n(o.borderWidth),
      force_overlay: o.forceOverlay,
      cells,
      merged: o.merges.map((m) => ({ start_column: m.c0, start_row: m.r0, end_column: m.c1, end_row: m.r1 })),
    };
  }
  if (o instanceof Polyline) {
    return {
      type: "polyline",
      id: o.id,
      points: o.points.map((p) => ({ time: n(p.time), index: n(p.index), price: n(p.price) })),
      curved: o.curved,
      closed: o.closed,
      xloc: o.xloc,
      line_color: c(o.lineColor),
      fill_color: c(o.fillColor),
      line_style: o.lineStyle,
      line_width: n(o.lineWidth),
      force_overlay: o.forceOverlay,
    };
  }
  const f = o as Linefill;
  return { type: "linefill", id: f.id, line1: f.line1.id, line2: f.line2.id, color: c(f.color) };
}

/** The live drawings of a store (its `alive` lists), oldest first, as result records. */
export function drawingsResult(store: { alive: Record<DrawingKind, AnyDrawing[]> }): Record<string, unknown>[] {
  const all: AnyDrawing[] = [];
  for (const list of Object.values(store.alive)) all.push(...list);
  all.sort((a, b) => a.id - b.id);
  return all.map(record);
}
