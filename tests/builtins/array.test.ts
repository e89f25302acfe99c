import { describe, expect, it } from "vitest";
import { formatMessage } from "../../src/builtins/str/format.js";
import type { PineArray } from "../../src/core/values.js";
import { callWith, expectedMessages, makeCtx, PineRuntimeError, site } from "./math-helpers/ctx.js";

const f = (p: string, ...a: unknown[]) => formatMessage(p, a as never[]);
const ctx = makeCtx();
const call = (name: string, ...args: unknown[]) => callWith(ctx, name, args);
/** array.from with the element type the checker would infer. */
const from = (type: string, ...vals: unknown[]) => callWith(ctx, "array.from", vals, site([type]));
const ints = (...v: number[]) => from("int", ...v);
const floats = (...v: number[]) => from("float", ...v);
const RED = 0xf23645ff;
const GREEN = 0x4caf50ff;
const ORANGE = 0xff9800ff;

describe("array.* unit", () => {
  it("v6 negative indices and out-of-bounds errors", () => {
    const a = ints(1, 2, 3);
    expect(call("array.get", a, -1)).toBe(3);
    call("array.set", a, -3, 9);
    expect(a.values).toEqual([9, 2, 3]);
    expect(() => call("array.get", a, 3)).toThrow("Index 3 is out of bounds, array size is 3.");
    expect(() => call("array.get", a, -4)).toThrow("Index -4 is out of bounds, array size is 3.");
  });
  it("negative indices are a v6 feature", () => {
    const v5 = makeCtx({ version: 5 });
    const a = callWith(v5, "array.from", [1, 2, 3], site(["int"]));
    expect(() => callWith(v5, "array.get", [a, -1])).toThrow("Index -1 is out of bounds, array size is 3.");
    expect(callWith(v5, "array.get", [a, 2])).toBe(3);
  });
  it("empty-array errors", () => {
    const e = callWith(ctx, "array.new_float", [0]);
    for (const fn of ["first", "last", "pop", "shift"]) {
      expect(() => call(`array.${fn}`, e)).toThrow(`Cannot call \`${fn}()\` if array is empty.`);
    }
  });
  it("slice and fill bounds", () => {
    const a = floats(1, 2, 3, 4, 5);
    expect(() => call("array.slice", a, -3, -1)).toThrow("Index -3 is out of bounds, array size is 5.");
    expect(() => call("array.slice", a, 2, 9)).toThrow("Index 9 is out of bounds, array size is 5.");
    expect(() => call("array.slice", a, 3, 2)).toThrow("Index 'from' should be less than index 'to'.");
    expect(call("array.size", call("array.slice", a, 2, 2))).toBe(0);
    const b = floats(1, 2, 3, 4, 5);
    call("array.fill", b, 9, 2, 2);
    call("array.fill", b, 0, 3, 1);
    call("array.fill", b, 7, 4, 5);
    call("array.fill", b, 8, 1, NaN);
    expect(call("array.sum", b)).toBe(33);
    expect(() => call("array.fill", callWith(ctx, "array.new_float", [0]), 1)).toThrow(
      "Index 0 is out of bounds, array size is 0.",
    );
  });
  it("slice is a view of its source", () => {
    const a = ints(1, 2, 3, 4);
    const s = call("array.slice", a, 1, 3);
    call("array.set", s, 0, 20);
    call("array.push", s, 99);
    expect(a.values).toEqual([1, 20, 3, 99, 4]);
    expect(s.values).toEqual([20, 3, 99]);
    const c = call("array.copy", s);
    call("array.set", c, 0, -1);
    expect(a.values[1]).toBe(20);
  });
  it("replaceRange matches splice", async () => {
    const { replaceRange } = await import("../../src/builtins/array/core.js");
    for (const [start, del, items] of [
      [1, 2, [9]],
      [0, 0, [7, 8]],
      [3, 1, []],
      [2, 0, [5, 5, 5]],
      [0, 5, [1]],
    ] as const) {
      const a = [0, 1, 2, 3, 4];
      const b = a.slice();
      replaceRange(a, start, del, items as readonly number[]);
      b.splice(start, del, ...(items as readonly number[]));
      expect(a).toEqual(b);
    }
    const big = callWith(ctx, "array.new_float", [90_000, 1]);
    const view = call("array.slice", big, 10, 80_010);
    call("array.push", view, 2);
    expect(call("array.size", big)).toBe(90_001);
    expect(call("array.get", big, 80_010)).toBe(2);
  });
  it("tolerant search, exact binary search", () => {
    const a = floats(0, 5);
    expect(call("array.indexof", a, 1e-10)).toBe(0);
    expect(call("array.indexof", a, 1.0000001e-10)).toBe(-1);
    expect(call("array.indexof", a, 5 + 9e-11)).toBe(1);
    expect(call("array.includes", floats(1, NaN), NaN)).toBe(false);
    expect(call("array.binary_search", floats(1, 2, 3), 2 + 1e-11)).toBe(-1);
    expect(call("array.binary_search_leftmost", floats(1, 2, 2, 3), 2)).toBe(1);
    expect(call("array.binary_search_rightmost", floats(1, 2, 2, 3), 2)).toBe(2);
    expect(call("array.binary_search_leftmost", floats(1, 2), 0)).toBe(-1);
    expect(call("array.binary_search_rightmost", floats(1, 2), 5)).toBe(2);
  });
  it("statistics edge cases", () => {
    expect(call("array.stdev", floats(7))).toBe(0);
    expect(call("array.stdev", floats(7), false)).toBeNaN();
    expect(call("array.max", floats(1, 2, 3, 4, 5), 4)).toBe(1);
    expect(call("array.max", callWith(ctx, "array.new_float", [0]), 1)).toBeNaN();
    expect(() => call("array.max", floats(1, 2), 2)).toThrow("Index 2 is out of bounds, array size is 2.");
    expect(() => call("array.percentile_nearest_rank", floats(1), -10)).toThrow(
      "Invalid value of the 'percentage' argument (-10) in the 'array.percentile_nearest_rank' function. It must be in the range [0..100].",
    );
    expect(call("array.median", callWith(ctx, "array.new_float", [0]))).toBeNaN();
  });
  it("size limit", () => {
    expect(() => callWith(ctx, "array.new_float", [100_001])).toThrow(
      "Array size 100001 exceeds the maximum of 100000 elements.",
    );
    const big = callWith(ctx, "array.new_float", [100_000, 0]);
    expect(() => call("array.push", big, 1)).toThrow(PineRuntimeError);
  });
  it("defaults of new_*", () => {
    expect(callWith(ctx, "array.new_int", [2]).values).toEqual([NaN, NaN]);
    expect(callWith(ctx, "array.new_bool", [2]).values).toEqual([false, false]);
    expect(callWith(ctx, "array.new<type>", [2], site(["string"])).values).toEqual([null, null]);
    expect(callWith(ctx, "array.new<type>", [1, 0], site(["float"])).elemType).toBe("float");
  });
  it("sort, sort_indices, every/some, join", () => {
    const s = from("string", "b", "a", "c");
    call("array.sort", s, "descending");
    expect(s.values).toEqual(["c", "b", "a"]);
    expect(call("array.every", from("bool", true, true))).toBe(true);
    expect(call("array.some", from("bool", false, false))).toBe(false);
    // reference remark: int and float arrays work too, zero is false and every other value true
    expect(call("array.every", floats(1, -2.5))).toBe(true);
    expect(call("array.every", floats(1, 0))).toBe(false);
    expect(call("array.some", from("int", 0, 0, 3))).toBe(true);
    expect(call("array.some", floats(0, Number.NaN))).toBe(false);
    expect(call("array.join", floats(1, 2.5), "|")).toBe("1.0|2.5");
  });
});

describe("array Pine Logs ground truth (direct calls)", () => {
  it("array_test_001_array_basic", () => {
    const ab = callWith(ctx, "array.new_bool", [5, false]);
    const ac = callWith(ctx, "array.new_color", [5, RED]);
    const af = callWith(ctx, "array.new_float", [5, 0.0]);
    const ai = callWith(ctx, "array.new_int", [5, 0]);
    const as = callWith(ctx, "array.new_string", [5, "s"]);
    call("array.set", ab, 0, true);
    call("array.set", ac, 0, GREEN);
    call("array.set", ac, -2, ORANGE);
    call("array.set", af, 0, 1.0);
    call("array.set", af, -2, 2.0);
    call("array.set", ai, 0, 1);
    call("array.set", ai, -2, 2);
    call("array.set", as, 0, "s0");
    call("array.set", as, -2, "s2");
    const got = [
      f("ab: {0}", ab),
      f("ac[3]: {0}", call("array.get", ac, 3) === ORANGE),
      f("ac[0]: {0}", call("array.get", ac, 0) === GREEN),
    ];
    got.push(f("af: {0}", af), f("ai: {0}", ai), f("as_: {0}", as));
    const a = ints(-1, -2, -3, -4, -5);
    got.push(f("a: {0}", a), f("array.size(a): {0}", call("array.size", a)));
    call("array.push", a, 6);
    got.push(f("array.pop(a, 0): {0}", call("array.pop", a)), f("array.size(a): {0}", call("array.size", a)));
    call("array.clear", a);
    got.push(f("array.size(a): {0}", call("array.size", a)));
    expect(got).toEqual(expectedMessages("array_test_001_array_basic"));
  });

  // array_test_002 (int) and array_test_003 (float) run the same script on different arrays.
  function functionsCase(make: (...v: number[]) => PineArray, v: Record<string, number[] | number>): string[] {
    const out: string[] = [];
    const log = (p: string, ...a: unknown[]) => out.push(f(p, ...a));
    let a = make(...(v.a0 as number[]));
    log("array.abs(a): {0}", call("array.abs", a));
    log("array.avg(a): {0}", call("array.avg", a));
    a = make(...(v.a1 as number[]));
    log("array.binary_search(a, 4): {0}", call("array.binary_search", a, 4));
    log("array.binary_search(a, 3): {0}", call("array.binary_search", a, 3));
    log("array.binary_search_leftmost(a, 3): {0}", call("array.binary_search_leftmost", a, 3));
    log("array.binary_search_rightmost(a, 3): {0}", call("array.binary_search_rightmost", a, 3));
    const b = make(...(v.b as number[]));
    log("array.concat(a, b): {0}; a: {1}; b: {2}", call("array.concat", a, b), a, b);
    const c = call("array.copy", a);
    log("c: {0}", c);
    log("array.covariance(a, b): {0,number,#.###############}", call("array.covariance", a, c));
    log("array.covariance(a, b, biased=false): {0,number,#.###############}", call("array.covariance", a, c, false));
    call("array.insert", a, 0, 0);
    call("array.fill", c, 0, 1, 3);
    log("c: {0}", c);
    log("array.first(a): {0}", call("array.first", a));
    log("array.includes(a, 4): {0}", call("array.includes", a, v.needle));
    log("array.indexof(a, 4): {0}", call("array.indexof", a, v.needle));
    log("array.join(a, '', ''): {0}", call("array.join", a, ", "));
    log("array.last(a): {0}", call("array.last", a));
    log("array.lastindexof(a, 4): {0}", call("array.lastindexof", a, 4));
    log("array.max(a): {0}", call("array.max", a));
    log("array.min(a): {0}", call("array.min", a));
    log("array.median(a): {0}", call("array.median", a));
    log("array.mode(a): {0}", call("array.mode", a));
    log(`array.percentrank(a, ${v.prank}): {0}`, call("array.percentrank", a, v.prank));
    for (const p of [0.5, 50, 70])
      log(`array.percentile_linear_interpolation(a, ${p}): {0}`, call("array.percentile_linear_interpolation", a, p));
    for (const p of [0.5, 50, 70])
      log(`array.percentile_nearest_rank(a, ${p}): {0}`, call("array.percentile_nearest_rank", a, p));
    log("array.range(a): {0}", call("array.range", a));
    call("array.remove", a, 4);
    log("array.remove(a, 4): {0}", a);
    call("array.reverse", c);
    log("array.reverse(c): {0}", c);
    log("array.shift(a): {0}", call("array.shift", a));
    log("array.size(a): {0}", call("array.size", a));
    const sa = call("array.slice", a, 1, 3);
    log("array.slice(a, 1, 3): {0}", sa);
    log("array.size(sa): {0}", call("array.size", sa));
    call("array.set", sa, 1, v.eleven);
    log("array.set(sa, 1, 11): {0}; a: {1}", sa, a);
    call("array.sort", a, "descending");
    log("array.sort(a, order.descending): {0}", a);
    call("array.sort", a, "ascending");
    log("array.sort(a, order.ascending): {0}", a);
    log("array.sort_indices(c): {0}", call("array.sort_indices", c));
    log("array.sort_indices(c, order.descending): {0}", call("array.sort_indices", c, "descending"));
    log("array.standardize(a): {0}", call("array.standardize", a));
    if (v.extraStandardize)
      log("array.standardize(a): {0}", call("array.standardize", floats(1.1, 2.2, 3.3, 4.4, 5.5)));
    log("array.stdev(a): {0,number,#.#############}", call("array.stdev", a));
    log("array.stdev(a, biased=false): {0,number,#.#############}", call("array.stdev", a, false));
    log("array.sum(a): {0}", call("array.sum", a));
    call("array.unshift", a, 0);
    log("array.unshift(a, 0): {0}", a);
    log("array.variance(a): {0,number,#.#############}", call("array.variance", a));
    log("array.variance(a, biased=false): {0,number,#.#############}", call("array.variance", a, false));
    return out;
  }

  it("array_test_002_array_functions", () => {
    const got = functionsCase(ints, {
      a0: [-1, -2, -3, -4, -5],
      a1: [1, 2, 4, 5, 6],
      b: [7, 8, 9, 10],
      needle: 4,
      prank: 4,
      eleven: 11,
      extraStandardize: 1,
    });
    expect(got).toEqual(expectedMessages("array_test_002_array_functions"));
  });

  it("array_test_003_array_functions_float", () => {
    const got = functionsCase(floats, {
      a0: [-1.5, -2.1, -3.4, -4.3, -5.6],
      a1: [1.1, 2.2, 4.4, 5.5, 6.6],
      b: [7.7, 8.8, 9.9, 10.1],
      needle: 4.4,
      prank: 1,
      eleven: 11.2,
      extraStandardize: 0,
    });
    expect(got).toEqual(expectedMessages("array_test_003_array_functions_float"));
  });

  it("array_test_005_array_na_functions", () => {
    const out: string[] = [];
    const log = (p: string, x: unknown) => out.push(f(p, x));
    const a = floats(1, NaN, 3, NaN, 5);
    log("avg: {0}", call("array.avg", a));
    log("sum: {0}", call("array.sum", a));
    log("min: {0}", call("array.min", a));
    log("max: {0}", call("array.max", a));
    log("range: {0}", call("array.range", a));
    log("median: {0}", call("array.median", a));
    log("variance: {0,number,#.############}", call("array.variance", a));
    log("variance_unbiased: {0,number,#.############}", call("array.variance", a, false));
    log("stdev: {0,number,#.############}", call("array.stdev", a));
    log("stdev_unbiased: {0,number,#.############}", call("array.stdev", a, false));
    log("mode: {0}", call("array.mode", floats(4, NaN, 4, 7, NaN)));
    const c1 = floats(1, NaN, 3, 5);
    const c2 = floats(2, 4, NaN, 6);
    log("cov: {0,number,#.############}", call("array.covariance", c1, c2));
    log("cov_unbiased: {0,number,#.############}", call("array.covariance", c1, c2, false));
    const s = floats(NaN, 6, NaN);
    log("s_avg: {0}", call("array.avg", s));
    log("s_stdev: {0}", call("array.stdev", s));
    log("s_variance: {0}", call("array.variance", s));
    const z = floats(NaN, NaN);
    log("z_avg: {0}", call("array.avg", z));
    log("z_sum: {0}", call("array.sum", z));
    log("z_min: {0}", call("array.min", z));
    expect(out).toEqual(expectedMessages("array_test_005_array_na_functions"));
  });

  it("array_test_006_array_na_percentile", () => {
    const out: string[] = [];
    const a = floats(10, NaN, 20, 30, NaN, 40);
    for (const p of [0, 25, 50, 60, 75, 100]) out.push(f(`pnr${p}: {0}`, call("array.percentile_nearest_rank", a, p)));
    for (const [label, i] of [
      ["prank0", 0],
      ["prank1na", 1],
      ["prank2", 2],
      ["prank5", 5],
    ] as const)
      out.push(f(`${label}: {0}`, call("array.percentrank", a, i)));
    for (const p of [0, 10, 25, 50, 75, 100])
      out.push(f(`pli_na${p}: {0}`, call("array.percentile_linear_interpolation", a, p)));
    const b = floats(0.0, 1.1, 2.2, 4.4, 5.5, 6.6, 7.7, 8.8, 9.9, 10.1);
    for (const p of [10, 15, 25, 50, 75, 90])
      out.push(f(`pli_c${p}: {0}`, call("array.percentile_linear_interpolation", b, p)));
    expect(out).toEqual(expectedMessages("array_test_006_array_na_percentile"));
  });

  it("array_test_007_tolerant_search", () => {
    const base = 100.0;
    const dsub = 1e-12;
    const dsup = 1e-8;
    const dup = floats(base, base + 1.0, base, base + 2.0);
    const sorted = floats(base, base + 1.0, base + 2.0);
    const pct = floats(base, base + dsub, base + 5.0);
    const got = f(
      "idx {0} lastidx {1} lastidx_sup {2} includes {3} bsearch {4} pnr {5}",
      call("array.indexof", dup, base + dsub),
      call("array.lastindexof", dup, base + dsub),
      call("array.lastindexof", dup, base + dsup),
      call("array.includes", dup, base + dsub),
      call("array.binary_search", sorted, base + dsub),
      (call("array.percentile_nearest_rank", pct, 50) - base) * 1e12,
    );
    expect([got]).toEqual(expectedMessages("array_test_007_tolerant_search"));
  });

  it("array_test_008_array_na_index", () => {
    const nai = NaN;
    const out: string[] = [];
    const a = () => ints(10, 20, 30, 40);
    const j = (x: PineArray) => call("array.join", x, ",");
    const a1 = a();
    out.push(f("get: {0} arr: {1}", call("array.get", a1, nai), j(a1)));
    const a2 = a();
    call("array.set", a2, nai, 99);
    out.push(f("set_arr: {0} size: {1}", j(a2), call("array.size", a2)));
    const a3 = a();
    out.push(f("remove: {0} arr: {1}", call("array.remove", a3, nai), j(a3)));
    const a4 = a();
    call("array.insert", a4, nai, 77);
    out.push(f("insert_arr: {0}", j(a4)));
    const sl1 = call("array.slice", a(), nai, 2);
    out.push(f("slice_nafrom: {0} size: {1}", j(sl1), call("array.size", sl1)));
    const sl2 = call("array.slice", a(), 1, nai);
    out.push(f("slice_nato: {0} size: {1}", j(sl2), call("array.size", sl2)));
    const sl3 = call("array.slice", a(), nai, nai);
    out.push(f("slice_bothna: {0} size: {1}", j(sl3), call("array.size", sl3)));
    const a8 = a();
    call("array.fill", a8, 5, nai, 2);
    out.push(f("fill_nafrom: {0}", j(a8)));
    const a9 = a();
    call("array.fill", a9, 5, 1, nai);
    out.push(f("fill_nato: {0}", j(a9)));
    const b1 = a();
    out.push(
      f(
        "percentrank: {0} max: {1} min: {2}",
        call("array.percentrank", b1, nai),
        call("array.max", b1, nai),
        call("array.min", b1, nai),
      ),
    );
    out.push("still_running: true");
    const e = () => callWith(ctx, "array.new_int", []);
    const e1 = e();
    out.push(f("empty_get: {0} size: {1}", call("array.get", e1, nai), call("array.size", e1)));
    const e2 = e();
    call("array.set", e2, nai, 9);
    out.push(f("empty_set_size: {0}", call("array.size", e2)));
    const e3 = e();
    out.push(f("empty_remove: {0} size: {1}", call("array.remove", e3, nai), call("array.size", e3)));
    const e4 = e();
    call("array.insert", e4, nai, 77);
    out.push(f("empty_insert: {0} size: {1}", j(e4), call("array.size", e4)));
    out.push("still_running: true");
    expect(out).toEqual(expectedMessages("array_test_008_array_na_index"));
  });

  it("runtime errors are Pine runtime errors", () => {
    expect(() => call("array.get", null, 0)).toThrow(PineRuntimeError);
  });
});
