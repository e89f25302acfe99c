// table.*: table.new, cells (table.cell, cell_set_*), merge_cells, clear, table-level setters, delete.
import type { BuiltinTable, ExecContext } from "../types.js";
import { newCell, Table, type TableCell } from "./objects.js";
import { bool, formatting, int, num, str, textSize } from "./args.js";
import { addDrawing, allocId, storeOf } from "./store.js";
import { accessors } from "./access.js";

const A = accessors(Table);
export const POSITIONS = new Set([
  "top_left",
  "top_center",
  "top_right",
  "middle_left",
  "middle_center",
  "middle_right",
  "bottom_left",
  "bottom_center",
  "bottom_right",
]);

/** resin's bound on a table's size (cells are allocated up front). */
export const MAX_TABLE_CELLS = 100_000;

function position(ctx: ExecContext, v: unknown): string {
  const p = str(v, "");
  if (!POSITIONS.has(p)) ctx.runtimeError(`Invalid table position '${p}': expected one of the position.* constants`);
  return p;
}

function newTable(ctx: ExecContext, a: unknown[]): Table {
  const columns = int(a[1], NaN);
  const rows = int(a[2], NaN);
  if (!(columns >= 1) || !(rows >= 1))
    ctx.runtimeError(`table.new() needs at least 1 column and 1 row (got columns=${columns}, rows=${rows})`);
  if (columns * rows > MAX_TABLE_CELLS)
    ctx.runtimeError(`table.new(): ${columns} x ${rows} cells is more than the ${MAX_TABLE_CELLS} a table may hold`);
  const store = storeOf(ctx);
  const t = new Table(allocId(store));
  t.position = position(ctx, a[0]);
  t.columns = columns;
  t.rows = rows;
  t.cells = new Array(columns * rows).fill(null);
  t.bgcolor = num(a[3], NaN);
  t.frameColor = num(a[4], NaN);
  t.frameWidth = int(a[5], 0);
  t.borderColor = num(a[6], NaN);
  t.borderWidth = int(a[7], 0);
  t.forceOverlay = bool(a[8], false);
  addDrawing(store, t);
  return t;
}

function cellIndex(ctx: ExecContext, t: Table, column: unknown, row: unknown, fn: string): number {
  const c = int(column, NaN);
  const r = int(row, NaN);
  if (!(c >= 0 && c < t.columns && r >= 0 && r < t.rows))
    ctx.runtimeError(`${fn}: cell (column ${c}, row ${r}) is outside the table (${t.columns} columns, ${t.rows} rows)`);
  return r * t.columns + c;
}

/** The cell at (column, row), created with defaults when it has never been written. */
function cellAt(ctx: ExecContext, t: Table, column: unknown, row: unknown, fn: string): TableCell {
  const i = cellIndex(ctx, t, column, row, fn);
  return (t.cells[i] ??= newCell());
}

function cellSetter(name: string, f: (cell: TableCell, v: unknown) => void) {
  return A.setter(name, (ctx, t, a) => f(cellAt(ctx, t, a[1], a[2], name), a[3]));
}

function setCell(ctx: ExecContext, t: Table, a: unknown[]): void {
  const cell = newCell();
  cell.text = str(a[3], "");
  cell.width = num(a[4], 0);
  cell.height = num(a[5], 0);
  cell.textColor = num(a[6], cell.textColor);
  cell.textHalign = str(a[7], "center");
  cell.textValign = str(a[8], "center");
  cell.textSize = textSize(a[9], "normal");
  cell.bgcolor = num(a[10], NaN);
  cell.tooltip = str(a[11], "");
  cell.fontFamily = str(a[12], "default");
  cell.formatting = formatting(a[13]);
  t.cells[cellIndex(ctx, t, a[1], a[2], "table.cell")] = cell;
}

/** Normalised rectangle of a cell range, validated against the table. */
function range(
  ctx: ExecContext,
  t: Table,
  a: unknown[],
  fn: string,
  endOptional: boolean,
): { c0: number; r0: number; c1: number; r1: number } {
  const c0 = int(a[1], NaN);
  const r0 = int(a[2], NaN);
  const c1 = endOptional && (a[3] === undefined || a[3] !== a[3]) ? c0 : int(a[3], NaN);
  const r1 = endOptional && (a[4] === undefined || a[4] !== a[4]) ? r0 : int(a[4], NaN);
  cellIndex(ctx, t, c0, r0, fn);
  cellIndex(ctx, t, c1, r1, fn);
  return { c0: Math.min(c0, c1), r0: Math.min(r0, r1), c1: Math.max(c0, c1), r1: Math.max(r0, r1) };
}

function overlaps(
  a: { c0: number; r0: number; c1: number; r1: number },
  b: { c0: number; r0: number; c1: number; r1: number },
): boolean {
  return a.c0 <= b.c1 && b.c0 <= a.c1 && a.r0 <= b.r1 && b.r0 <= a.r1;
}

export const tableFunctions: BuiltinTable = {
  "table.new": { name: "table.new", impl: (ctx, a) => newTable(ctx, a) },
  "table.delete": A.deleter("table.delete"),
  "table.cell": A.setter("table.cell", (ctx, t, a) => setCell(ctx, t, a)),
  "table.cell_set_text": cellSetter("table.cell_set_text", (c, v) => (c.text = str(v, ""))),
  "table.cell_set_width": cellSetter("table.cell_set_width", (c, v) => (c.width = num(v, 0))),
  "table.cell_set_height": cellSetter("table.cell_set_height", (c, v) => (c.height = num(v, 0))),
  "table.cell_set_text_color": cellSetter("table.cell_set_text_color", (c, v) => (c.textColor = num(v, NaN))),
  "table.cell_set_text_halign": cellSetter("table.cell_set_text_halign", (c, v) => (c.textHalign = str(v, "center"))),
  "table.cell_set_text_valign": cellSetter("table.cell_set_text_valign", (c, v) => (c.textValign = str(v, "center"))),
  "table.cell_set_text_size": cellSetter("table.cell_set_text_size", (c, v) => (c.textSize = textSize(v, "normal"))),
  "table.cell_set_bgcolor": cellSetter("table.cell_set_bgcolor", (c, v) => (c.bgcolor = num(v, NaN))),
  "table.cell_set_tooltip": cellSetter("table.cell_set_tooltip", (c, v) => (c.tooltip = str(v, ""))),
  "table.cell_set_text_font_family": cellSetter(
    "table.cell_set_text_font_family",
    (c, v) => (c.fontFamily = str(v, "default")),
  ),
  "table.cell_set_text_formatting": cellSetter(
    "table.cell_set_text_formatting",
    (c, v) => (c.formatting = formatting(v)),
  ),
  "table.clear": A.setter("table.clear", (ctx, t, a) => {
    const r = range(ctx, t, a, "table.clear", true);
    for (let row = r.r0; row <= r.r1; row++)
      for (let col = r.c0; col <= r.c1; col++) t.cells[row * t.columns + col] = null;
    t.merges = t.merges.filter((m) => !overlaps(m, r));
  }),
  "table.merge_cells": A.setter("table.merge_cells", (ctx, t, a) => {
    const r = range(ctx, t, a, "table.merge_cells", false);
    // a new merge replaces the merges it overlaps
    t.merges = t.merges.filter((m) => !overlaps(m, r));
    t.merges.push(r);
  }),
  "table.set_position": A.setter("table.set_position", (ctx, t, a) => (t.position = position(ctx, a[1]))),
  "table.set_bgcolor": A.setter("table.set_bgcolor", (_c, t, a) => (t.bgcolor = num(a[1], NaN))),
  "table.set_frame_color": A.setter("table.set_frame_color", (_c, t, a) => (t.frameColor = num(a[1], NaN))),
  "table.set_frame_width": A.setter("table.set_frame_width", (_c, t, a) => (t.frameWidth = int(a[1], 0))),
  "table.set_border_color": A.setter("table.set_border_color", (_c, t, a) => (t.borderColor = num(a[1], NaN))),
  "table.set_border_width": A.setter("table.set_border_width", (_c, t, a) => (t.borderWidth = int(a[1], 0))),
};
