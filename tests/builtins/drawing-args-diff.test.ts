// Differential tests of the drawing constructors' argument decoding and of the store's removal
// against the code they replaced (issue 18: a decoder made once per constructor, refilling two
// kept objects, instead of new records per call; removal by shift / in place instead of
// indexOf + splice). The references are the previous implementations, kept verbatim.

import { describe, expect, it } from "vitest";
import { rng } from "../ta/random.js";
import { catalogFunction } from "../../src/catalog/index.js";
import { EXTEND, fitsParam, overloadDecoder, XLOC, YLOC } from "../../src/builtins/drawing/args.js";
import { isPoint, newPoint } from "../../src/builtins/drawing/objects.js";
import { Label } from "../../src/builtins/drawing/objects.js";
import { addDrawing, createDrawingStore, removeDrawing } from "../../src/builtins/drawing/store.js";

function refFitsParam(param: string, v: unknown): boolean {
  switch (param) {
    case "xloc":
      return typeof v === "string" && XLOC.has(v);
    case "extend":
      return typeof v === "string" && EXTEND.has(v);
    case "yloc":
      return typeof v === "string" && YLOC.has(v);
    case "force_overlay":
      return typeof v === "boolean";
    case "size":
    case "text_size":
      return typeof v === "string" || typeof v === "number";
    default:
      if (/color/.test(param) || /^(x|y|x1|y1|x2|y2|left|top|right|bottom|width|border_width)$/.test(param))
        return typeof v === "number";
      return typeof v === "string" || v === null;
  }
}

function refDecodeOverload(
  args: unknown[],
  params: readonly string[],
  pointList: readonly string[],
  coordList: readonly string[],
  fits: (param: string, v: unknown) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < params.length; i++) if (args[i] !== undefined) out[params[i]!] = args[i];
  const coordOnly = coordList.filter((p) => !pointList.includes(p));
  if (coordOnly.some((p) => out[p] !== undefined)) return out; // placed on the coordinate list
  if (isPoint(args[0]) || args[0] === undefined) return out; // the point form
  if (args[0] === null && pointList.length > 1 && (args[1] === null || isPoint(args[1]))) return out; // na points
  const shifted: Record<string, unknown> = {};
  let k = 0;
  for (; k < pointList.length && k < coordList.length; k++) {
    const v = args[params.indexOf(pointList[k]!)];
    if (v === undefined || !fits(coordList[k]!, v)) break;
    shifted[coordList[k]!] = v;
  }
  for (let j = k; j < pointList.length; j++) {
    const v = args[params.indexOf(pointList[j]!)];
    if (v !== undefined && shifted[pointList[j]!] === undefined) shifted[pointList[j]!] = v;
  }
  return shifted;
}

describe("drawing argument decoding: the same arguments by name as before", () => {
  const r = rng(5);
  const point = newPoint(1_700_000_000_000, 3, 101.5);
  const POOL: unknown[] = [
    undefined,
    undefined,
    undefined,
    null,
    point,
    3,
    101.5,
    NaN,
    -0,
    0xff0000ff,
    "bar_index",
    "bar_time",
    "none",
    "both",
    "price",
    "abovebar",
    "text",
    "size.tiny",
    "tiny",
    true,
    false,
  ];
  it("random arguments for label.new, line.new, box.new", () => {
    for (const name of ["label.new", "line.new", "box.new"]) {
      const NEW = catalogFunction(name)!.fn;
      const { decode, slot } = overloadDecoder(NEW.params, NEW.lists[0]!, NEW.lists[1]!, fitsParam);
      const names = new Set([...NEW.params, ...NEW.lists[0]!, ...NEW.lists[1]!]);
      for (let t = 0; t < 5000; t++) {
        const args: unknown[] = [];
        // a leading run of positional-looking values, then sparse named ones
        const lead = Math.floor(r() * 6);
        for (let i = 0; i < NEW.params.length; i++)
          args.push(
            i < lead
              ? POOL[3 + Math.floor(r() * (POOL.length - 3))]
              : r() < 0.8
                ? undefined
                : POOL[Math.floor(r() * POOL.length)],
          );
        const want = refDecodeOverload(args, NEW.params, NEW.lists[0]!, NEW.lists[1]!, refFitsParam);
        const got = decode(args);
        for (const k of new Set([...names, ...Object.keys(want)]))
          if (!Object.is(got[slot[k]!], want[k]))
            expect({ name, args, k, got: got[slot[k]!] }).toEqual({ name, args, k, got: want[k] });
      }
    }
  });
  it("fitsParam answers as the regex test did for every catalogue parameter", () => {
    const values: unknown[] = [1, "s", null, true, undefined, "bar_time", "both", "abovebar"];
    for (const name of ["label.new", "line.new", "box.new", "table.new", "polyline.new"]) {
      const fn = catalogFunction(name)?.fn;
      if (!fn) continue;
      for (const p of fn.params) for (const v of values) expect(fitsParam(p, v)).toBe(refFitsParam(p, v));
    }
  });
});

describe("drawing store removal keeps the alive order as before", () => {
  it("random creation past the limit and deletions anywhere", () => {
    const r = rng(9);
    const store = createDrawingStore({ max_labels_count: 7 });
    const model: Label[] = [];
    for (let t = 0; t < 3000; t++) {
      if (r() < 0.6) {
        const l = new Label(store.nextId++);
        addDrawing(store, l);
        model.push(l);
        while (model.length > 7) model.splice(0, 1)[0]!.deleted = true;
      } else if (model.length > 0) {
        const i = Math.floor(r() * model.length);
        const l = model[i]!;
        removeDrawing(store, l);
        model.splice(i, 1);
        removeDrawing(store, l); // a second delete does nothing
      }
      expect(store.alive.label).toEqual(model);
    }
  });
});
