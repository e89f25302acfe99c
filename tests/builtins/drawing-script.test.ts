// Drawings through the public Runtime (interpret and compile must agree): scripts that draw, modify
// and delete objects, and what result.drawings holds at the end.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import type { RunResult } from "../../src/core/result.js";

async function ok(source: string, n = 20, opts = {}): Promise<RunResult> {
  const r = await runBoth(source, bars(n), opts);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r;
}
const ofType = (r: RunResult, t: string) => r.drawings.filter((d) => d.type === t);

describe("drawings through the Runtime", () => {
  it("a line per bar with max_lines_count=5 leaves the last 5 lines", async () => {
    const r = await ok(
      v6(
        "line.new(bar_index - 1, low, bar_index, high)\nplot(array.size(line.all))",
        "indicator('t', max_lines_count = 5)",
      ),
    );
    const lines = ofType(r, "line");
    expect(lines.map((l) => l.x2)).toEqual([15, 16, 17, 18, 19]);
    expect(r.plots.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 5, 5]);
  });

  it("default limit is 50 labels; deleted objects leave the result", async () => {
    const r = await ok(
      v6(
        "l = label.new(bar_index, high, str.tostring(bar_index))\nif bar_index % 2 == 0\n    label.delete(l)\nplot(close)",
      ),
      120,
    );
    const labels = ofType(r, "label");
    expect(labels.length).toBe(50);
    expect(labels.every((l) => Number(l.text) % 2 === 1)).toBe(true);
    expect(labels[labels.length - 1]!.text).toBe("119");
  });

  it("a var line moved with methods; getters read back", async () => {
    const r = await ok(
      v6(
        "var line l = line.new(0, close, 1, close)\nl.set_x2(bar_index)\nl.set_y2(close)\nl.set_color(color.red)\nplot(l.get_x2())\nplot(l.get_price(bar_index))",
      ),
    );
    expect(ofType(r, "line")).toEqual([expect.objectContaining({ x1: 0, x2: 19, color: "#F23645" })]);
    expect(r.series[Object.keys(r.series)[0]!]!.slice(-1)).toEqual([19]);
    expect(r.series[Object.keys(r.series)[1]!]![19]).toBeCloseTo(Number(ofType(r, "line")[0]!.y2), 9);
  });

  it("table cells, box, linefill and polyline from chart.points", async () => {
    const src = [
      "var t = table.new(position.top_right, 2, 2, bgcolor = color.white)",
      "var pts = array.new<chart.point>()",
      "pts.push(chart.point.from_index(bar_index, close))",
      "if barstate.islast",
      "    t.cell(0, 0, 'a')",
      "    table.cell(t, 1, 1, 'b')",
      "    table.cell_set_bgcolor(t, 1, 1, color.red)",
      "    box.new(bar_index - 5, high, bar_index, low)",
      "    l1 = line.new(bar_index - 5, high, bar_index, high)",
      "    l2 = line.new(bar_index - 5, low, bar_index, low)",
      "    linefill.new(l1, l2, color.green)",
      "    polyline.new(pts)",
      "plot(close)",
    ].join("\n");
    const r = await ok(v6(src));
    expect(r.drawings.map((d) => d.type)).toEqual(["table", "box", "line", "line", "linefill", "polyline"]);
    const table = ofType(r, "table")[0] as any;
    expect(table.cells.map((c: any) => [c.column, c.row, c.text, c.bgcolor])).toEqual([
      [0, 0, "a", null],
      [1, 1, "b", "#F23645"],
    ]);
    const [l1, l2] = ofType(r, "line");
    expect(ofType(r, "linefill")[0]).toMatchObject({ line1: l1!.id, line2: l2!.id });
    expect((ofType(r, "polyline")[0] as any).points.length).toBe(20);
  });

  it("realtime ticks do not multiply drawings: each tick is rolled back", async () => {
    const r = await ok(v6("label.new(bar_index, close, str.tostring(close))\nplot(close)"), 6, {
      realtimeLastBar: true,
      realtimeTicks: 4,
    });
    const labels = ofType(r, "label");
    expect(labels.length).toBe(6);
    // the label of the realtime bar carries the last tick's (the bar's) close
    expect(labels[5]!.y).toBe(bars(6)[5]!.close);
  });

  it("runtime error for a bar_index x more than 500 bars ahead", async () => {
    const r = await runBoth(v6("line.new(bar_index, close, bar_index + 501, close)\nplot(close)"), bars(3));
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/500 bars into the future/);
  });

  it("deleting while iterating label.all, and a rolling array of lines", async () => {
    const a = await ok(
      v6(
        "label.new(bar_index, high, 'a')\nif barstate.islast\n    for l in label.all\n        if l.get_x() < 18\n            l.delete()\nplot(array.size(label.all))",
      ),
    );
    expect(ofType(a, "label").map((l) => l.x)).toEqual([18, 19]);
    expect(a.plots.slice(-2)).toEqual([19, 2]);
    const b = await ok(
      v6(
        "var lines = array.new<line>()\nlines.push(line.new(bar_index, low, bar_index, high))\nif lines.size() > 3\n    lines.shift().delete()\nplot(array.size(line.all))",
      ),
    );
    expect(ofType(b, "line").map((l) => l.x1)).toEqual([17, 18, 19]);
  });

  it("chart.point overloads and full positional coordinate calls", async () => {
    const src = [
      "if barstate.islast",
      "    p1 = chart.point.from_index(bar_index - 3, low)",
      "    p2 = chart.point.now(high)",
      "    line.new(p1, p2, color = color.red)",
      "    label.new(p2, 't')",
      "    box.new(p1, p2)",
      "    line.new(bar_index, high, bar_index - 1, low, xloc.bar_index, extend.both, color.red, line.style_dashed, 3)",
      "plot(close)",
    ].join("\n");
    const r = await ok(v6(src));
    const data = bars(20);
    const [l1, l2] = ofType(r, "line");
    expect(l1).toMatchObject({ x1: 16, y1: data[19]!.low, x2: 19, y2: data[19]!.high, color: "#F23645" });
    expect(ofType(r, "label")[0]).toMatchObject({ x: 19, y: data[19]!.high, text: "t" });
    expect(ofType(r, "box")[0]).toMatchObject({ left: 16, top: data[19]!.low, right: 19, bottom: data[19]!.high });
    expect(l2).toMatchObject({ x1: 19, x2: 18, extend: "both", style: "dashed", width: 3, color: "#F23645" });
  });
});
