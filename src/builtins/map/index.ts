// map.* builtins. PineMap wraps a JS Map, which keeps insertion order (as TradingView's maps do)
// and compares keys by SameValueZero, so na float keys (NaN) and colours (numbers) work as keys.
// The key and value types come from `site.typeArgs` (map.new<K, V>) when the backend gives them.

import { PineArray, PineMap, type PineValue } from "../../core/values.js";
import { inferType, naOf } from "../array/core.js";
import type {
  BuiltinDef,
  BuiltinImpl,
  BuiltinTable,
  CallSite,
  ConstantTable,
  ExecContext,
  VariableTable,
} from "../types.js";

/** TradingView's limit on the number of key-value pairs in a map. */
export const MAX_MAP_SIZE = 50_000;

type AnyMap = PineMap<PineValue, PineValue>;

function map(ctx: ExecContext, v: unknown, fn: string): AnyMap {
  if (!(v instanceof PineMap)) ctx.runtimeError(`Cannot call '${fn}' with a map that is na.`);
  return v as AnyMap;
}

function def(name: string, impl: BuiltinImpl): BuiltinDef {
  return { name, impl };
}

function checkSize(ctx: ExecContext, m: AnyMap): void {
  if (m.map.size > MAX_MAP_SIZE) ctx.runtimeError(`Map cannot contain more than ${MAX_MAP_SIZE} key-value pairs.`);
}

/**
 * The na value returned for a missing key. When the backend did not give the value type (""), it
 * is guessed from the values already stored; numeric na (NaN) when the map is empty.
 */
function missing(ctx: ExecContext, m: AnyMap): PineValue {
  if (m.valueType !== "") return naOf(m.valueType, ctx.version);
  for (const v of m.map.values()) return naOf(inferType([v]), ctx.version);
  return NaN;
}

/** Declared type, or the type seen in the values when the backend did not give one. */
function typeOf(declared: string, values: PineValue[]): string {
  return declared !== "" ? declared : inferType(values);
}

/** Keys normalised so that every na number is the same key. */
function key(k: unknown): PineValue {
  return (k === undefined ? null : k) as PineValue;
}

export const functions: BuiltinTable = {
  "map.new<type,type>": def("map.new<type,type>", (_c, _a, site: CallSite) => {
    const t = (site as CallSite & { typeArgs?: string[] }).typeArgs;
    return new PineMap<PineValue, PineValue>(t?.[0] ?? "", t?.[1] ?? "");
  }),
  "map.size": def("map.size", (ctx, a) => map(ctx, a[0], "map.size").map.size),
  "map.contains": def("map.contains", (ctx, a) => map(ctx, a[0], "map.contains").map.has(key(a[1]))),
  "map.get": def("map.get", (ctx, a) => {
    const m = map(ctx, a[0], "map.get");
    const k = key(a[1]);
    return m.map.has(k) ? m.map.get(k) : missing(ctx, m);
  }),
  "map.put": def("map.put", (ctx, a) => {
    const m = map(ctx, a[0], "map.put");
    const k = key(a[1]);
    const prev = m.map.has(k) ? m.map.get(k)! : missing(ctx, m);
    m.map.set(k, a[2] as PineValue);
    checkSize(ctx, m);
    return prev;
  }),
  "map.put_all": def("map.put_all", (ctx, a) => {
    const m = map(ctx, a[0], "map.put_all");
    const other = map(ctx, a[1], "map.put_all");
    for (const [k, v] of other.map) m.map.set(k, v);
    checkSize(ctx, m);
  }),
  "map.remove": def("map.remove", (ctx, a) => {
    const m = map(ctx, a[0], "map.remove");
    const k = key(a[1]);
    if (!m.map.has(k)) return missing(ctx, m);
    const v = m.map.get(k)!;
    m.map.delete(k);
    return v;
  }),
  "map.clear": def("map.clear", (ctx, a) => {
    map(ctx, a[0], "map.clear").map.clear();
  }),
  "map.keys": def("map.keys", (ctx, a) => {
    const m = map(ctx, a[0], "map.keys");
    const keys = Array.from(m.map.keys());
    return new PineArray<PineValue>(typeOf(m.keyType, keys), keys);
  }),
  "map.values": def("map.values", (ctx, a) => {
    const m = map(ctx, a[0], "map.values");
    const values = Array.from(m.map.values());
    return new PineArray<PineValue>(typeOf(m.valueType, values), values);
  }),
  "map.copy": def("map.copy", (ctx, a) => {
    const m = map(ctx, a[0], "map.copy");
    return new PineMap<PineValue, PineValue>(m.keyType, m.valueType, new Map(m.map));
  }),
};

export const variables: VariableTable = {};
export const constants: ConstantTable = {};
