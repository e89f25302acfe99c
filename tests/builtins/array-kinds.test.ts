// Arrays made by array.new* start in the elements kind of what they hold (src/builtins/array/core.ts
// packedArray), also while empty: doubles for numeric element types, objects for every other (lines,
// labels, strings, bools, user types). An empty array starting in the small-integer kind changed kind
// at its first push, so compiled code optimised on an earlier run's (changed) arrays deoptimised on
// every run's fresh ones. V8's own kind checks (natives syntax, enabled for functions compiled after
// the flag is set) tell the kinds.
import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { packedArray } from "../../src/builtins/array/core.js";
import { Runtime } from "../../src/runtime/index.js";
import { createDrawingStore } from "../../src/builtins/drawing/store.js";
import { createAlertStore, evalCondition } from "../../src/builtins/alert/store.js";
import type { ExecContext } from "../../src/builtins/types.js";
import { randomWalkBars } from "../realworld/bars.js";

setFlagsFromString("--allow-natives-syntax");
const kind = new Function(
  "a",
  "return %HasSmiElements(a) ? 'smi' : %HasDoubleElements(a) ? 'double' : %HasObjectElements(a) ? 'object' : 'other'",
) as (a: unknown[]) => string;

const hole = new Function("a", "return %HasHoleyElements(a)") as (a: unknown[]) => boolean;

describe("array elements kinds", () => {
  it("empty and filled arrays start in their values' kind and keep them", () => {
    expect(kind(packedArray(0, NaN, true))).toBe("double");
    expect(kind(packedArray(3, 1, true))).toBe("double");
    expect(kind(packedArray(0, null))).toBe("object");
    expect(kind(packedArray(2, "x"))).toBe("object");
    const a = packedArray<unknown>(0, null);
    a.push({ line: 1 });
    expect(kind(a)).toBe("object");
    expect(packedArray(3, 7, true)).toEqual([7, 7, 7]);
    expect(packedArray(2, null)).toEqual([null, null]);
    expect(packedArray(0, null)).toEqual([]);
  });

  it("numeric matrices and the arrays made from them are packed doubles (not holey)", async () => {
    // new Array(n).fill(x) stays holey; the reductions shared with arrays (array.avg, matrix.avg)
    // then met two elements kinds and boxed every double they read, in every later run of the
    // process (a long-lived server: swing_state allocated 33 MB a run after map_matrix had run)
    const { functions: matrixFunctions } = await import("../../src/builtins/matrix/index.js");
    const { functions: arrayFunctions } = await import("../../src/builtins/array/index.js");
    const ctx = {
      version: 6,
      runtimeError: (m: string) => {
        throw new Error(m);
      },
      ext: {},
    } as unknown as ExecContext;
    const site = { state: undefined, id: 0 } as never;
    const call = (
      t: Record<string, { impl: (c: ExecContext, a: unknown[], s: never) => unknown }>,
      name: string,
      args: unknown[],
    ) => t[name]!.impl(ctx, args, site);
    const m = call(matrixFunctions, "matrix.new<type>", [3, 4, 0]) as { data: unknown[] };
    expect(kind(m.data)).toBe("double");
    expect(hole(m.data)).toBe(false);
    const t = call(matrixFunctions, "matrix.transpose", [m]) as { data: unknown[] };
    expect([kind(t.data), hole(t.data)]).toEqual(["double", false]);
    const sq = call(matrixFunctions, "matrix.new<type>", [2, 2, 1.5]);
    const prod = call(matrixFunctions, "matrix.mult", [sq, sq]) as { data: unknown[] };
    expect([kind(prod.data), hole(prod.data)]).toEqual(["double", false]);
    // a row added in the middle grows the data by push (assigning `length` made it holey, and V8
    // then made every later array of doubleArray's allocation site holey too)
    const grow = call(matrixFunctions, "matrix.new<type>", [2, 2, 0.5]) as { data: unknown[] };
    call(matrixFunctions, "matrix.add_row", [grow, 1]);
    expect([kind(grow.data), hole(grow.data), grow.data.length]).toEqual(["double", false, 6]);
    const fresh = packedArray(2, 1.5, true);
    expect([kind(fresh), hole(fresh)]).toEqual(["double", false]);
    const arr = call(arrayFunctions, "array.from", [1.5, 2.5, 4]);
    const std = call(arrayFunctions, "array.standardize", [arr]) as { values: unknown[] };
    expect([kind(std.values), hole(std.values)]).toEqual(["double", false]);
  });

  it("a run's drawing and alert lists start in the kinds of what they hold", () => {
    const d = createDrawingStore();
    for (const list of Object.values(d.alive)) expect(kind(list)).toBe("object");
    const a = createAlertStore();
    expect([kind(a.alerts), kind(a.conditions), kind(a.pending)]).toEqual(["object", "object", "object"]);
    evalCondition(a, { barIndex: 0, time: 1.7e12 } as ExecContext, 1, false, "t", "m");
    expect(kind(a.conditions[0]!.fired_times)).toBe("double");
  });

  it("array.new<line>, <string>, <bool> and of a user type hold their values as before", async () => {
    const src = `//@version=6
indicator("k", overlay = true)
type P
    float v
var lines = array.new<line>()
var names = array.new<string>()
flags = array.new<bool>()
ps = array.new<P>()
if bar_index % 10 == 0
    lines.push(line.new(bar_index, close, bar_index + 1, open))
    names.push(str.tostring(bar_index))
flags.push(close > open)
ps.push(P.new(close))
plot(lines.size() + names.size() + (flags.get(0) ? 1 : 0) + ps.get(0).v)
`;
    const bars = randomWalkBars(200);
    const rt = new Runtime();
    const a = await rt.run(src, bars, { mode: "interpret" });
    const b = await rt.run(src, bars, { mode: "compile" });
    expect(a.error).toBeUndefined();
    expect(b.mode).toBe("compile");
    expect(b.series).toEqual(a.series);
    expect(a.series.plot_0![199]).toBeCloseTo(
      20 + 20 + (bars[199]!.close > bars[199]!.open ? 1 : 0) + bars[199]!.close,
      9,
    );
  });
});
