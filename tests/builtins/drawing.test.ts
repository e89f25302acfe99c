import { describe, expect, it } from "vitest";
import { catalogFunction } from "../../src/catalog/index.js";
import { PineArray, packColor } from "../../src/core/values.js";
import {
  constants,
  createDrawingStore,
  drawingsResult,
  functions,
  type Label,
  type Line,
  restoreDrawings,
  snapshotDrawings,
  variables,
  type DrawingStore,
} from "../../src/builtins/drawing/index.js";
import { atBar, call, callNamed, makeCtx, RuntimeErrorForTest, variable } from "./drawing-helpers.js";

const params = (name: string) => catalogFunction(name)!.fn.params;
const RED = packColor(255, 0, 0);
const store = (ctx: ReturnType<typeof makeCtx>) => ctx.ext.drawings as DrawingStore;

describe("registry coverage", () => {
  it("exports every line/label/box/table/polyline/linefill/chart.point function and *.all variable of the catalogue", async () => {
    const { CATALOG } = await import("../../src/catalog/index.js");
    const ns = ["line.", "label.", "box.", "table.", "polyline.", "linefill.", "chart.point."];
    const wanted = Object.keys(CATALOG.functions).filter((n) => ns.some((p) => n.startsWith(p)));
    expect(wanted.length).toBeGreaterThan(100);
    for (const n of wanted) expect(functions[n], n).toBeDefined();
    for (const n of Object.keys(CATALOG.variables).filter((v) => v.endsWith(".all")))
      expect(variables[n], n).toBeDefined();
    expect(constants["line.style_dashed"]).toBe("dashed");
    expect(constants["label.style_label_up"]).toBe("label_up");
    expect(Object.keys(constants).length).toBe(6 + 21);
  });
});

describe("line", () => {
  it("creates with coordinates placed on the coordinate list and defaults", () => {
    const ctx = makeCtx();
    const l = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 10, x2: 5, y2: 20 }) as Line;
    expect([l.x1, l.y1, l.x2, l.y2]).toEqual([0, 10, 5, 20]);
    expect(l.xloc).toBe("bar_index");
    expect(l.extend).toBe("none");
    expect(l.style).toBe("solid");
    expect(l.width).toBe(1);
    expect(drawingsResult(store(ctx))[0]).toMatchObject({ type: "line", id: l.id, color: "#2962FF", x1: 0, y2: 20 });
  });

  it("decodes a coordinate call placed on the chart.point list (positional shift, then named)", () => {
    const ctx = makeCtx();
    // line.new(1, 2, 3, 4, color=red, width=3): positional into first_point..extend slots, named in own slots
    const a: unknown[] = [1, 2, 3, 4, RED, undefined, 3];
    const l = functions["line.new"]!.impl(ctx, a, { id: 0, state: undefined }) as Line;
    expect([l.x1, l.y1, l.x2, l.y2, l.color, l.width]).toEqual([1, 2, 3, 4, RED, 3]);
    // line.new(1, 2, 3, 4, xloc.bar_time, extend.right, red, "dashed")
    const b = functions["line.new"]!.impl(ctx, [1, 2, 3, 4, "bar_time", "right", RED, "dashed"], {
      id: 1,
      state: undefined,
    }) as Line;
    expect([b.xloc, b.extend, b.color, b.style]).toEqual(["bar_time", "right", RED, "dashed"]);
  });

  it("takes chart.point arguments by xloc", () => {
    const ctx = makeCtx();
    const p1 = call(ctx, "chart.point.new", 1000, 1, 50);
    const p2 = call(ctx, "chart.point.from_index", 4, 60);
    const l = callNamed(ctx, "line.new", params("line.new"), { first_point: p1, second_point: p2 }) as Line;
    expect([l.x1, l.y1, l.x2, l.y2]).toEqual([1, 50, 4, 60]);
    const t = callNamed(ctx, "line.new", params("line.new"), {
      first_point: p1,
      second_point: p2,
      xloc: "bar_time",
    }) as Line;
    expect([t.x1, t.x2]).toEqual([1000, NaN]);
    call(ctx, "line.set_second_point", l, call(ctx, "chart.point.from_index", 7, 70));
    expect([call(ctx, "line.get_x2", l), call(ctx, "line.get_y2", l)]).toEqual([7, 70]);
  });

  it("get/set round trips and get_price along the extended line", () => {
    const ctx = makeCtx();
    const l = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 10, x2: 2, y2: 20 });
    call(ctx, "line.set_x1", l, 1);
    call(ctx, "line.set_y1", l, 11);
    call(ctx, "line.set_xy2", l, 3, 31);
    call(ctx, "line.set_color", l, RED);
    call(ctx, "line.set_style", l, "dotted");
    call(ctx, "line.set_width", l, 4);
    call(ctx, "line.set_extend", l, "both");
    expect([
      call(ctx, "line.get_x1", l),
      call(ctx, "line.get_y1", l),
      call(ctx, "line.get_x2", l),
      call(ctx, "line.get_y2", l),
    ]).toEqual([1, 11, 3, 31]);
    expect(call(ctx, "line.get_price", l, 2)).toBeCloseTo(21, 12);
    expect(call(ctx, "line.get_price", l, 5)).toBeCloseTo(51, 12);
    expect(drawingsResult(store(ctx))[0]).toMatchObject({
      color: "#FF0000",
      style: "dotted",
      width: 4,
      extend: "both",
    });
    call(ctx, "line.set_xloc", l, 1000, 2000, "bar_time");
    expect(() => call(ctx, "line.get_price", l, 2)).toThrow(RuntimeErrorForTest);
  });

  it("copy is independent; delete keeps the reference readable but drops it from the result and line.all", () => {
    const ctx = makeCtx();
    const l = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 1, y2: 2 });
    const c = call(ctx, "line.copy", l) as Line;
    expect(c).not.toBe(l);
    expect(c.id).not.toBe(l.id);
    call(ctx, "line.set_y1", c, 99);
    expect(call(ctx, "line.get_y1", l)).toBe(1);
    call(ctx, "line.delete", l);
    call(ctx, "line.delete", l); // twice is fine
    call(ctx, "line.set_y1", l, 5); // setter on a deleted line: no-op
    expect(call(ctx, "line.get_y1", l)).toBe(1);
    const all = variable(ctx, "line.all") as PineArray;
    expect(all.values).toEqual([c]);
    expect(drawingsResult(store(ctx)).map((d) => d.id)).toEqual([c.id]);
    // na ids: getters give na, setters and delete do nothing
    expect(call(ctx, "line.get_x1", null)).toBeNaN();
    expect(() => call(ctx, "line.set_x1", null, 3)).not.toThrow();
    expect(call(ctx, "line.copy", null)).toBeNull();
  });

  it("garbage-collects the oldest past max_lines_count; line.all is oldest first", () => {
    const ctx = makeCtx(20, { drawings: createDrawingStore({ max_lines_count: 3 }) });
    const made: Line[] = [];
    for (let i = 0; i < 7; i++) {
      atBar(ctx, i);
      made.push(callNamed(ctx, "line.new", params("line.new"), { x1: i, y1: i, x2: i + 1, y2: i }));
    }
    expect((variable(ctx, "line.all") as PineArray).values).toEqual(made.slice(4));
    expect(made[0]!.deleted).toBe(true);
    expect(drawingsResult(store(ctx)).map((d) => d.x1)).toEqual([4, 5, 6]);
  });

  it("limits: default 50, clamped to 500, polylines to 100", () => {
    expect(createDrawingStore({}).limits.line).toBe(50);
    expect(createDrawingStore({ max_labels_count: 9999 }).limits.label).toBe(500);
    expect(createDrawingStore({ max_polylines_count: 9999 }).limits.polyline).toBe(100);
    // a lazily created store reads the declaration
    const ctx = makeCtx(5, { declaration: { max_boxes_count: 2 } });
    for (let i = 0; i < 4; i++)
      callNamed(ctx, "box.new", params("box.new"), { left: i, top: 2, right: i + 1, bottom: 1 });
    expect((variable(ctx, "box.all") as PineArray).values.length).toBe(2);
  });

  it("refuses bar_index x further than 500 bars ahead and unknown xloc/extend", () => {
    const ctx = makeCtx();
    expect(() => callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 501, y2: 1 })).toThrow(
      /500 bars into the future/,
    );
    expect(() => callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 500, y2: 1 })).not.toThrow();
    expect(() =>
      callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 1, y2: 1, extend: "sideways" }),
    ).toThrow(/extend/);
  });
});

describe("label", () => {
  it("x/y form, defaults, setters and getters", () => {
    const ctx = makeCtx();
    const l = callNamed(ctx, "label.new", params("label.new"), { x: 3, y: 42, text: "hi" }) as Label;
    expect(l.style).toBe("label_down");
    expect(l.size).toBe("normal");
    expect(drawingsResult(store(ctx))[0]).toMatchObject({
      type: "label",
      text: "hi",
      color: "#2962FF",
      textcolor: "#FFFFFF",
      yloc: "price",
    });
    call(ctx, "label.set_xy", l, 4, 43);
    call(ctx, "label.set_text", l, "yo");
    call(ctx, "label.set_yloc", l, "abovebar");
    call(ctx, "label.set_style", l, "label_up");
    call(ctx, "label.set_textcolor", l, RED);
    call(ctx, "label.set_size", l, 20);
    call(ctx, "label.set_textalign", l, "left");
    call(ctx, "label.set_tooltip", l, "tip");
    call(ctx, "label.set_text_font_family", l, "monospace");
    call(ctx, "label.set_text_formatting", l, "bold" + "italic");
    expect([call(ctx, "label.get_x", l), call(ctx, "label.get_y", l), call(ctx, "label.get_text", l)]).toEqual([
      4,
      43,
      "yo",
    ]);
    expect(drawingsResult(store(ctx))[0]).toMatchObject({
      yloc: "abovebar",
      style: "label_up",
      textcolor: "#FF0000",
      size: 20,
      textalign: "left",
      tooltip: "tip",
      text_font_family: "monospace",
      text_formatting: "bold+italic",
    });
  });

  it("positional x, y, text placed on the point list, then a named style", () => {
    const ctx = makeCtx();
    // label.new(bar_index, high, "t", style=label.style_label_up)
    const a: unknown[] = [2, 11, "t", undefined, undefined, "label_up"];
    const l = functions["label.new"]!.impl(ctx, a, { id: 0, state: undefined }) as Label;
    expect([l.x, l.y, l.text, l.style]).toEqual([2, 11, "t", "label_up"]);
  });

  it("point form and chart.point.now", () => {
    const ctx = makeCtx();
    atBar(ctx, 3);
    const p = call(ctx, "chart.point.now");
    const l = callNamed(ctx, "label.new", params("label.new"), { point: p, text: "now" }) as Label;
    expect([l.x, l.y]).toEqual([3, ctx.close]);
    call(ctx, "label.set_point", l, call(ctx, "chart.point.from_time", ctx.time, 7));
    expect([l.x, l.y]).toEqual([NaN, 7]);
  });
});

describe("box", () => {
  it("coordinates, defaults, setters, corner points, copy", () => {
    const ctx = makeCtx();
    const b = callNamed(ctx, "box.new", params("box.new"), { left: 1, top: 20, right: 4, bottom: 10, text: "zone" });
    expect(drawingsResult(store(ctx))[0]).toMatchObject({
      type: "box",
      left: 1,
      top: 20,
      right: 4,
      bottom: 10,
      border_color: "#2962FF",
      bgcolor: "#2962FF",
      text_color: "#363A45",
      text_size: "auto",
      border_width: 1,
      border_style: "solid",
      text_wrap: "none",
    });
    call(ctx, "box.set_lefttop", b, 2, 25);
    call(ctx, "box.set_rightbottom", b, 5, 5);
    call(ctx, "box.set_bgcolor", b, NaN);
    call(ctx, "box.set_border_style", b, "dashed");
    call(ctx, "box.set_text_halign", b, "left");
    expect([
      call(ctx, "box.get_left", b),
      call(ctx, "box.get_top", b),
      call(ctx, "box.get_right", b),
      call(ctx, "box.get_bottom", b),
    ]).toEqual([2, 25, 5, 5]);
    call(ctx, "box.set_top_left_point", b, call(ctx, "chart.point.from_index", 0, 30));
    expect([call(ctx, "box.get_left", b), call(ctx, "box.get_top", b)]).toEqual([0, 30]);
    const c = call(ctx, "box.copy", b);
    call(ctx, "box.set_top", c, 1);
    expect(call(ctx, "box.get_top", b)).toBe(30);
    expect(drawingsResult(store(ctx))[0]).toMatchObject({ bgcolor: null, border_style: "dashed", text_halign: "left" });
  });

  it("point form", () => {
    const ctx = makeCtx();
    const tl = call(ctx, "chart.point.from_index", 1, 9);
    const br = call(ctx, "chart.point.from_index", 3, 2);
    const b = callNamed(ctx, "box.new", params("box.new"), { top_left: tl, bottom_right: br });
    expect([b.left, b.top, b.right, b.bottom]).toEqual([1, 9, 3, 2]);
  });
});

describe("table", () => {
  it("cells, cell setters, merge, clear and the result record", () => {
    const ctx = makeCtx();
    const t = call(ctx, "table.new", "top_right", 3, 2, RED);
    callNamed(ctx, "table.cell", params("table.cell"), { table_id: t, column: 0, row: 0, text: "A" });
    callNamed(ctx, "table.cell", params("table.cell"), {
      table_id: t,
      column: 2,
      row: 1,
      text: "B",
      bgcolor: RED,
      text_size: "small",
    });
    call(ctx, "table.cell_set_text", t, 1, 0, "C");
    call(ctx, "table.cell_set_bgcolor", t, 1, 0, RED);
    call(ctx, "table.merge_cells", t, 0, 1, 1, 1);
    call(ctx, "table.set_border_width", t, 2);
    let rec = drawingsResult(store(ctx))[0] as any;
    expect(rec).toMatchObject({
      type: "table",
      position: "top_right",
      columns: 3,
      rows: 2,
      bgcolor: "#FF0000",
      border_width: 2,
    });
    expect(rec.cells.map((c: any) => [c.column, c.row, c.text])).toEqual([
      [0, 0, "A"],
      [1, 0, "C"],
      [2, 1, "B"],
    ]);
    expect(rec.cells[2]).toMatchObject({ bgcolor: "#FF0000", text_size: "small", text_color: "#363A45" });
    expect(rec.merged).toEqual([{ start_column: 0, start_row: 1, end_column: 1, end_row: 1 }]);
    call(ctx, "table.clear", t, 0, 0, 1, 0);
    rec = drawingsResult(store(ctx))[0] as any;
    expect(rec.cells.map((c: any) => c.text)).toEqual(["B"]);
    expect(() => call(ctx, "table.cell", t, 3, 0, "x")).toThrow(/outside the table/);
    expect(() => call(ctx, "table.new", "top_right", 0, 2)).toThrow(RuntimeErrorForTest);
    expect(() => call(ctx, "table.new", "nowhere", 1, 1)).toThrow(/position/);
    call(ctx, "table.delete", t);
    expect(drawingsResult(store(ctx))).toEqual([]);
    expect((variable(ctx, "table.all") as PineArray).values).toEqual([]);
  });
});

describe("polyline and linefill", () => {
  it("polyline copies its points; GC at max_polylines_count", () => {
    const ctx = makeCtx(5, { drawings: createDrawingStore({ max_polylines_count: 2 }) });
    const pts = [call(ctx, "chart.point.from_index", 0, 1), null, call(ctx, "chart.point.from_index", 2, 3)];
    const arr = new PineArray("chart.point", pts);
    const p = callNamed(ctx, "polyline.new", params("polyline.new"), {
      points: arr,
      curved: true,
      closed: true,
      fill_color: RED,
    });
    (pts[0] as any).fields[2] = 100; // moving the point later does not move the polyline
    expect(drawingsResult(store(ctx))[0]).toMatchObject({
      type: "polyline",
      curved: true,
      closed: true,
      fill_color: "#FF0000",
      line_color: "#2962FF",
      points: [
        { time: null, index: 0, price: 1 },
        { time: null, index: 2, price: 3 },
      ],
    });
    callNamed(ctx, "polyline.new", params("polyline.new"), { points: arr });
    callNamed(ctx, "polyline.new", params("polyline.new"), { points: arr });
    expect(p.deleted).toBe(true);
    expect((variable(ctx, "polyline.all") as PineArray).values.length).toBe(2);
  });

  it("linefill: get_line1/2, one per pair, removed with its lines", () => {
    const ctx = makeCtx();
    const a = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 1, y2: 1 });
    const b = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 2, x2: 1, y2: 2 });
    const f = call(ctx, "linefill.new", a, b, RED);
    expect(call(ctx, "linefill.get_line1", f)).toBe(a);
    expect(call(ctx, "linefill.get_line2", f)).toBe(b);
    const g = call(ctx, "linefill.new", b, a, RED);
    expect(f.deleted).toBe(true);
    expect((variable(ctx, "linefill.all") as PineArray).values).toEqual([g]);
    call(ctx, "linefill.set_color", g, packColor(0, 255, 0));
    expect(drawingsResult(store(ctx)).find((d) => d.type === "linefill")).toMatchObject({
      line1: b.id,
      line2: a.id,
      color: "#00FF00",
    });
    call(ctx, "line.delete", a);
    expect(g.deleted).toBe(true);
    expect((variable(ctx, "linefill.all") as PineArray).values).toEqual([]);
  });
});

describe("chart.point", () => {
  it("new / from_index / from_time / now / copy", () => {
    const ctx = makeCtx();
    atBar(ctx, 2);
    expect(call(ctx, "chart.point.new", 5, 6, 7).fields).toEqual([5, 6, 7]);
    expect(call(ctx, "chart.point.from_index", 6, 7).fields).toEqual([NaN, 6, 7]);
    expect(call(ctx, "chart.point.from_time", 5, 7).fields).toEqual([5, NaN, 7]);
    expect(call(ctx, "chart.point.now", 9).fields).toEqual([ctx.time, 2, 9]);
    expect(call(ctx, "chart.point.now").fields).toEqual([ctx.time, 2, ctx.close]);
    const p = call(ctx, "chart.point.new", 1, 2, 3);
    const c = call(ctx, "chart.point.copy", p);
    c.fields[2] = 4;
    expect(p.fields[2]).toBe(3);
    expect(call(ctx, "chart.point.copy", null)).toBeNull();
  });
});

describe("snapshot / restore (realtime rollback)", () => {
  it("undoes creations, deletions and property changes of a tick, repeatably", () => {
    const ctx = makeCtx();
    const l = callNamed(ctx, "line.new", params("line.new"), { x1: 0, y1: 1, x2: 1, y2: 1 });
    const t = call(ctx, "table.new", "top_right", 1, 1);
    call(ctx, "table.cell", t, 0, 0, "before");
    const snap = snapshotDrawings(store(ctx));
    const before = JSON.stringify(drawingsResult(store(ctx)));
    for (let tick = 0; tick < 2; tick++) {
      call(ctx, "line.set_y1", l, 50);
      call(ctx, "table.cell_set_text", t, 0, 0, "tick");
      const extra = callNamed(ctx, "label.new", params("label.new"), { x: 1, y: 1 });
      call(ctx, "line.delete", l);
      restoreDrawings(store(ctx), snap);
      expect(extra.deleted).toBe(true);
      expect(l.deleted).toBe(false);
      expect(call(ctx, "line.get_y1", l)).toBe(1);
      expect(JSON.stringify(drawingsResult(store(ctx)))).toBe(before);
    }
    // ids continue from the snapshot
    expect(callNamed(ctx, "label.new", params("label.new"), { x: 1, y: 1 }).id).toBe(3);
  });
});
