import { describe, expect, it } from "vitest";
import { formatMessage } from "../../src/builtins/str/format.js";
import { callWith, expectedMessages, makeCtx, PineRuntimeError, site } from "./math-helpers/ctx.js";

const f = (p: string, ...a: unknown[]) => formatMessage(p, a as never[]);
const ctx = makeCtx();
const call = (name: string, ...args: unknown[]) => callWith(ctx, name, args);
const newMap = (k: string, v: string) => callWith(ctx, "map.new<type,type>", [], site([k, v]));

describe("map.* unit", () => {
  it("insertion order, put returns the previous value, na for missing keys", () => {
    const m = newMap("string", "float");
    expect(call("map.put", m, "b", 1)).toBeNaN();
    call("map.put", m, "a", 2);
    expect(call("map.put", m, "b", 3)).toBe(1);
    expect(call("map.keys", m).values).toEqual(["b", "a"]);
    expect(call("map.values", m).values).toEqual([3, 2]);
    expect(call("map.get", m, "zz")).toBeNaN();
    expect(call("map.remove", m, "zz")).toBeNaN();
  });
  it("na float keys and colour keys", () => {
    const m = newMap("float", "int");
    call("map.put", m, NaN, 5);
    expect(call("map.get", m, NaN)).toBe(5);
    expect(call("map.contains", m, NaN)).toBe(true);
  });
  it("copy is independent (shallow)", () => {
    const m = newMap("string", "int");
    call("map.put", m, "x", 1);
    const c = call("map.copy", m);
    call("map.put", c, "y", 2);
    expect(call("map.size", m)).toBe(1);
    expect(call("map.size", c)).toBe(2);
  });
  it("na map is a runtime error", () => {
    expect(() => call("map.size", null)).toThrow(PineRuntimeError);
  });
  it("string values default to na (null)", () => {
    expect(call("map.get", newMap("int", "string"), 1)).toBeNull();
  });
});

describe("map Pine Logs ground truth (direct calls)", () => {
  it("map_test_001_map_basic", () => {
    const out: string[] = [];
    const log = (p: string, ...a: unknown[]) => out.push(f(p, ...a));
    const m = newMap("string", "int");
    log("map.size(m): {0}", call("map.size", m));
    call("map.put", m, "one", 1);
    call("map.put", m, "two", 2);
    call("map.put", m, "three", 3);
    log("Map contents - one: {0}", call("map.get", m, "one"));
    log("Map contents - two: {0}", call("map.get", m, "two"));
    log("Map contents - three: {0}", call("map.get", m, "three"));
    log("map.size(m): {0}", call("map.size", m));
    log("map.get(m, 'one'): {0}", call("map.get", m, "one"));
    log("map.get(m, 'two'): {0}", call("map.get", m, "two"));
    log("map.get(m, 'three'): {0}", call("map.get", m, "three"));
    log("map.contains(m, 'one'): {0}", call("map.contains", m, "one"));
    log("map.contains(m, 'four'): {0}", call("map.contains", m, "four"));
    const old = call("map.put", m, "one", 100);
    log("Old value for 'one': {0}", old);
    log("New value for 'one': {0}", call("map.get", m, "one"));
    log("map.keys(m): {0}", call("map.keys", m));
    log("map.values(m): {0}", call("map.values", m));
    const m2 = call("map.copy", m);
    log("m2 (copy of m) - one: {0}", call("map.get", m2, "one"));
    log("m2 (copy of m) - three: {0}", call("map.get", m2, "three"));
    call("map.put", m2, "four", 4);
    log("m2 after adding 'four': {0}", call("map.get", m2, "four"));
    log("m2 size after adding 'four': {0}", call("map.size", m2));
    log("original m size: {0}", call("map.size", m));
    log("Removed value: {0}", call("map.remove", m, "two"));
    log("m contains 'two' after removing: {0}", call("map.contains", m, "two"));
    log("map.size(m): {0}", call("map.size", m));
    const removed = call("map.remove", m, "nonexistent");
    log("Removed non-existent value is na: {0}", Number.isNaN(removed));
    const other = newMap("string", "int");
    call("map.put", other, "five", 5);
    call("map.put", other, "six", 6);
    call("map.put_all", m, other);
    log(
      "m after put_all contains 'five': {0} with value: {1}",
      call("map.contains", m, "five"),
      call("map.get", m, "five"),
    );
    log(
      "m after put_all contains 'six': {0} with value: {1}",
      call("map.contains", m, "six"),
      call("map.get", m, "six"),
    );
    log("m size after put_all: {0}", call("map.size", m));
    call("map.clear", m);
    log("m size after clear: {0}", call("map.size", m));
    log("m contains 'one' after clear: {0}", call("map.contains", m, "one"));
    expect(out).toEqual(expectedMessages("map_test_001_map_basic"));
  });

  it("map_test_002_map_types", () => {
    const out: string[] = [];
    const log = (p: string, ...a: unknown[]) => out.push(f(p, ...a));
    const mi = newMap("int", "string");
    call("map.put", mi, 1, "one");
    call("map.put", mi, 2, "two");
    call("map.put", mi, 3, "three");
    log("map_int_keys size: {0}", call("map.size", mi));
    for (const k of [1, 2, 3]) log(`map_int_keys[${k}]: {0}`, call("map.get", mi, k));
    const mf = newMap("string", "float");
    call("map.put", mf, "pi", 3.14159);
    call("map.put", mf, "e", 2.71828);
    call("map.put", mf, "sqrt2", 1.41421);
    log("map_float_vals size: {0}", call("map.size", mf));
    for (const k of ["pi", "e", "sqrt2"]) log(`map_float_vals['${k}']: {0,number,#.#####}`, call("map.get", mf, k));
    const mb = newMap("string", "bool");
    call("map.put", mb, "isTrue", true);
    call("map.put", mb, "isFalse", false);
    log("map_bool_vals size: {0}", call("map.size", mb));
    log("map_bool_vals[isTrue]: {0}", call("map.get", mb, "isTrue"));
    log("map_bool_vals[isFalse]: {0}", call("map.get", mb, "isFalse"));
    const colors: Record<string, number> = { red: 0xf23645ff, green: 0x4caf50ff, blue: 0x2962ffff };
    const mc = newMap("string", "color");
    for (const [k, v] of Object.entries(colors)) call("map.put", mc, k, v);
    for (const k of Object.keys(colors))
      log(`map_color_vals[${k}] == color.${k}: {0}`, call("map.get", mc, k) === colors[k]);
    const inner1 = newMap("string", "int");
    call("map.put", inner1, "a", 1);
    call("map.put", inner1, "b", 2);
    const inner2 = newMap("string", "int");
    call("map.put", inner2, "c", 3);
    call("map.put", inner2, "d", 4);
    const outer = newMap("string", "MapHolder");
    call("map.put", outer, "map1", inner1);
    call("map.put", outer, "map2", inner2);
    log("outer_map keys: {0}", call("map.keys", outer));
    const fromOuter = call("map.get", outer, "map1");
    log("inner_map1 from outer - a: {0}", call("map.get", fromOuter, "a"));
    log("inner_map1 from outer - b: {0}", call("map.get", fromOuter, "b"));
    const arr1 = callWith(ctx, "array.new<type>", [], site(["int"]));
    for (const v of [10, 20, 30]) call("array.push", arr1, v);
    const ma = newMap("string", "ArrayHolder");
    call("map.put", ma, "integers", arr1);
    log("map_with_arrays keys: {0}", call("map.keys", ma));
    const got = call("map.get", ma, "integers");
    log("array from map size: {0}", call("array.size", got));
    for (const i of [0, 1, 2]) log(`array from map[${i}]: {0}`, call("array.get", got, i));
    expect(out).toEqual(expectedMessages("map_test_002_map_types"));
  });
});
