// array.* builtins (v6 semantics: negative indices count from the end; an out-of-range index is a
// runtime error with TradingView's message; an na index is tolerated as logs/array_test_008 shows).
//
// Element types: array.new<T>(), array.from() and friends need the Pine element type (float and int
// arrays print differently: [1.0, 2.0] vs [1, 2]). The backend gives it as `site.typeArgs[0]`
// (e.g. ["float"]) when the checker knows it; without it the type is inferred from the values.

import { PineArray, type PineValue } from "../../core/values.js";
import { elementText } from "../str/format.js";
import { MAX_STRING_LENGTH, stringTooLong } from "../str/limit.js";
import type {
  BuiltinDef,
  BuiltinImpl,
  BuiltinTable,
  CallSite,
  ConstantTable,
  ExecContext,
  VariableTable,
} from "../types.js";
import {
  inferType,
  isNumericElem,
  items,
  looseEquals,
  mutate,
  naOf,
  outOfBounds,
  packedArray,
  PineArraySlice,
  resolveIndex,
  size,
  type Raise,
} from "./core.js";
import * as st from "./stats.js";
import { budgetOf } from "../../core/budget.js";

/**
 * Element truth for array.every/some: bools as they are; int and float elements (the reference's remark)
 * are false when zero and true otherwise, na is false as in bool(na).
 */
function truthy(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  return typeof v === "number" && !Number.isNaN(v) && v !== 0;
}

export { PineArraySlice } from "./core.js";

type Arr = PineArray<any>;
type SiteWithTypes = CallSite & { typeArgs?: string[] };

const isNaNum = (v: unknown): boolean => v == null || (typeof v === "number" && v !== v);

function raiser(ctx: ExecContext): Raise {
  return (m: string) => ctx.runtimeError(m);
}

function arr(ctx: ExecContext, v: unknown, fn: string): Arr {
  if (!(v instanceof PineArray)) ctx.runtimeError(`Cannot call '${fn}' with an array that is na.`);
  return v as Arr;
}

function def(name: string, impl: BuiltinImpl): BuiltinDef {
  return { name, impl };
}

/** A stateless builtin written with positional arguments (BuiltinDef.direct); its impl unpacks the argument array. */
function direct(name: string, fn: (ctx: ExecContext, a0: any, a1: any, a2: any) => any): BuiltinDef {
  return { name, direct: fn, impl: (ctx, a) => fn(ctx, a[0], a[1], a[2]) };
}

function typeArg(site: CallSite, k = 0): string | undefined {
  return (site as SiteWithTypes).typeArgs?.[k];
}

/** TradingView's limit on array elements. */
export const MAX_ARRAY_SIZE = 100_000;

function tooLarge(ctx: ExecContext, n: number): never {
  return ctx.runtimeError(`Array size ${n} exceeds the maximum of ${MAX_ARRAY_SIZE} elements.`);
}

/** Runs after the operations that grow an array. */
function checkGrowth(ctx: ExecContext, x: Arr): void {
  const n = size(x);
  if (n > MAX_ARRAY_SIZE) tooLarge(ctx, n);
}

function newArray(ctx: ExecContext, elemType: string, sizeArg: unknown, init: unknown): Arr {
  const n = sizeArg == null || sizeArg !== sizeArg ? 0 : Math.trunc(sizeArg as number);
  if (n < 0) ctx.runtimeError(`Invalid array size ${sizeArg}. The size must be >= 0.`);
  if (n > MAX_ARRAY_SIZE) tooLarge(ctx, n);
  // building it counts against the run's time budget (src/core/budget.ts): a loop of them stays interruptible
  budgetOf(ctx).spend(n >> 3);
  const fill = init === undefined ? naOf(elemType, ctx.version) : init;
  return new PineArray<PineValue>(elemType, packedArray(n, fill, isNumericElem(elemType)));
}

function newTyped(elemType: string): BuiltinDef {
  return def(`array.new_${elemType}`, (ctx, a) => newArray(ctx, elemType, a[0], a[1]));
}

/** Resolved index for get/set/remove, or -1 for an na index (the caller then does nothing). */
function index(ctx: ExecContext, i: unknown, n: number): number {
  if (isNaNum(i)) return -1;
  return resolveIndex(raiser(ctx), i as number, n, ctx.version >= 6);
}

/** Bounds for slice/fill: from in [0, n), to in [0, n]; na -> 0 / n. */
function rangeBounds(ctx: ExecContext, fromArg: unknown, toArg: unknown, n: number): [number, number] {
  const from = isNaNum(fromArg) ? 0 : Math.trunc(fromArg as number);
  const to = isNaNum(toArg) ? n : Math.trunc(toArg as number);
  if (from < 0 || from >= n) outOfBounds(raiser(ctx), from, n);
  if (to < 0 || to > n) outOfBounds(raiser(ctx), to, n);
  return [from, to];
}

function numbers(ctx: ExecContext, v: unknown, fn: string): number[] {
  return items(arr(ctx, v, fn)) as number[];
}

function emptyError(ctx: ExecContext, fn: string): never {
  return ctx.runtimeError(`Cannot call \`${fn}()\` if array is empty.`);
}

function ascending(x: unknown, y: unknown): number {
  const xn = isNaNum(x);
  const yn = isNaNum(y);
  if (xn || yn) return xn === yn ? 0 : xn ? 1 : -1; // na last
  if (typeof x === "string" && typeof y === "string") return x < y ? -1 : x > y ? 1 : 0;
  return (x as number) - (y as number) || 0;
}

/** Stable ascending order of indices; descending is its reverse (TradingView's tie order). */
export function sortIndices(values: readonly unknown[], descending: boolean): number[] {
  const idx = numericOrder(values) ?? comparedOrder(values);
  if (descending) idx.reverse();
  return idx;
}

function comparedOrder(values: readonly unknown[]): number[] {
  const idx = values.map((_, i) => i);
  idx.sort((i, j) => ascending(values[i], values[j]) || i - j);
  return idx;
}

// Scratch for numericOrder, kept between calls (sorting runs on every bar in many scripts).
let sortedKeys = new Float64Array(64);
let nextSlot = new Int32Array(64);

/**
 * The stable ascending order of an array of numbers and na (null when it holds anything else),
 * without a comparator: the real values sorted numerically, then each index in turn goes to the
 * next free slot of its value's run (found by binary search), so equal values keep index order
 * (-0 and +0 are equal here, as `x - y` makes them); na last in index order.
 */
function numericOrder(values: readonly unknown[]): number[] | null {
  const n = values.length;
  if (sortedKeys.length < n) {
    sortedKeys = new Float64Array(Math.max(n, sortedKeys.length * 2));
    nextSlot = new Int32Array(sortedKeys.length);
  }
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === "number") {
      if (v === v) sortedKeys[m++] = v;
    } else if (v != null) return null;
  }
  const keys = sortedKeys.subarray(0, m);
  st.sortAscending(keys, m);
  for (let k = 0; k < m; k++) nextSlot[k] = k;
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(0);
  let na = m;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v !== v || v == null) {
      out[na++] = i;
      continue;
    }
    // first position of v in keys (the start of its run)
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (keys[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    out[nextSlot[lo]!++] = i;
  }
  return out;
}

/**
 * array.sort of numbers and na in place, as the stable index order would permute them (reals
 * ascending, equal ones in input order; na last in input order; descending the reverse), from
 * the numeric sort of stats.ts. False (nothing done) when the array holds anything else.
 */
function sortNumbers(v: unknown[], descending: boolean): boolean {
  const n = v.length;
  for (let i = 0; i < n; i++) {
    const x = v[i];
    if (typeof x !== "number" && x != null) return false;
  }
  const sorted = st.sortedReals(v as number[]);
  const m = sorted.length;
  if (m < n) {
    // the na elements (NaN or null, as they are) to the end in input order; k >= i, so nothing unread is overwritten
    let k = n - 1;
    for (let i = n - 1; i >= 0; i--) {
      const x = v[i] as number;
      if (x !== x || x == null) v[k--] = x;
    }
  }
  for (let k = 0; k < m; k++) v[k] = sorted[k]!;
  if (descending) v.reverse();
  return true;
}

/** The first index whose element looseEquals `x`, or -1 (a loop: no closure per call). */
function firstIndex(vals: readonly unknown[], x: unknown): number {
  for (let i = 0; i < vals.length; i++) if (looseEquals(vals[i], x)) return i;
  return -1;
}

function isDescending(order: unknown): boolean {
  return order === "descending" || order === "desc" || order === -1 || order === "order.descending";
}

export function binarySearch(values: readonly number[], v: number, mode: "exact" | "left" | "right"): number {
  let lo = 0;
  let hi = values.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = values[mid]!;
    if (x === v) {
      found = mid;
      if (mode === "exact") return mid;
      if (mode === "left") hi = mid - 1;
      else lo = mid + 1;
    } else if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  if (mode === "exact") return -1;
  if (found >= 0) return found;
  // Not found: lo is the insertion point. Leftmost gives the element before it, rightmost the one after.
  return mode === "left" ? lo - 1 : lo;
}

export function joinArray(a: Arr, sep: string, ctx?: ExecContext): string {
  const vals = items(a);
  const texts = new Array<string>(vals.length);
  let length = vals.length > 0 ? (vals.length - 1) * sep.length : 0;
  for (let i = 0; i < vals.length; i++) length += (texts[i] = elementText(vals[i], a.elemType)).length;
  // TradingView's 40,960-character string limit, checked before the string is built
  if (ctx && length > MAX_STRING_LENGTH) stringTooLong(ctx, length);
  return texts.join(sep);
}

const numericOut = (elemType: string): string => (elemType === "int" ? "int" : "float");

export const functions: BuiltinTable = {
  "array.new<type>": def("array.new<type>", (ctx, a, site) =>
    newArray(ctx, typeArg(site) ?? (a[1] === undefined ? "float" : inferType([a[1]])), a[0], a[1]),
  ),
  "array.new_bool": newTyped("bool"),
  "array.new_box": newTyped("box"),
  "array.new_color": newTyped("color"),
  "array.new_float": newTyped("float"),
  "array.new_int": newTyped("int"),
  "array.new_label": newTyped("label"),
  "array.new_line": newTyped("line"),
  "array.new_linefill": newTyped("linefill"),
  "array.new_string": newTyped("string"),
  "array.new_table": newTyped("table"),
  "array.from": def("array.from", (_c, a, site) => {
    let n = a.length;
    while (n > 0 && a[n - 1] === undefined) n--;
    // copied element by element: a slice of the (holey) argument array would stay holey (packedArray)
    const vals: PineValue[] = [];
    for (let i = 0; i < n; i++) vals.push(a[i] as PineValue);
    return new PineArray<PineValue>(typeArg(site) ?? inferType(vals), vals);
  }),
  "array.size": direct("array.size", (ctx, a0) => size(arr(ctx, a0, "array.size"))),
  "array.get": direct("array.get", (ctx, a0, a1) => {
    const x = arr(ctx, a0, "array.get");
    const vals = items(x);
    const i = index(ctx, a1, vals.length);
    return i < 0 ? naOf(x.elemType, ctx.version) : vals[i];
  }),
  "array.set": direct("array.set", (ctx, a0, a1, a2) => {
    const x = arr(ctx, a0, "array.set");
    const i = index(ctx, a1, size(x));
    if (i >= 0) mutate(x, (v) => (v[i] = a2));
  }),
  "array.push": direct("array.push", (ctx, a0, a1) => {
    const x = arr(ctx, a0, "array.push");
    if (x instanceof PineArraySlice) mutate(x, (v) => v.push(a1));
    else x.values.push(a1);
    if (x.values.length > MAX_ARRAY_SIZE) checkGrowth(ctx, x);
  }),
  "array.unshift": direct("array.unshift", (ctx, a0, a1) => {
    const x = arr(ctx, a0, "array.unshift");
    mutate(x, (v) => v.unshift(a1));
    if (x.values.length > MAX_ARRAY_SIZE) checkGrowth(ctx, x);
    checkGrowth(ctx, x);
  }),
  "array.pop": direct("array.pop", (ctx, a0) => {
    const x = arr(ctx, a0, "array.pop");
    if (size(x) === 0) emptyError(ctx, "pop");
    return mutate(x, (v) => v.pop());
  }),
  "array.shift": direct("array.shift", (ctx, a0) => {
    const x = arr(ctx, a0, "array.shift");
    if (size(x) === 0) emptyError(ctx, "shift");
    return x instanceof PineArraySlice ? mutate(x, (v) => v.shift()) : x.values.shift();
  }),
  "array.first": direct("array.first", (ctx, a0) => {
    const vals = items(arr(ctx, a0, "array.first"));
    if (vals.length === 0) emptyError(ctx, "first");
    return vals[0];
  }),
  "array.last": direct("array.last", (ctx, a0) => {
    const vals = items(arr(ctx, a0, "array.last"));
    if (vals.length === 0) emptyError(ctx, "last");
    return vals[vals.length - 1];
  }),
  "array.insert": def("array.insert", (ctx, a) => {
    const x = arr(ctx, a[0], "array.insert");
    const n = size(x);
    let i: number;
    if (isNaNum(a[1]))
      i = n; // na index appends (logs/array_test_008)
    else {
      i = Math.trunc(a[1] as number);
      if (i < 0 && ctx.version >= 6) i += n;
      if (i < 0 || i > n) outOfBounds(raiser(ctx), a[1] as number, n);
    }
    mutate(x, (v) => v.splice(i, 0, a[2]));
    checkGrowth(ctx, x);
  }),
  "array.remove": def("array.remove", (ctx, a) => {
    const x = arr(ctx, a[0], "array.remove");
    const i = index(ctx, a[1], size(x));
    if (i < 0) return naOf(x.elemType, ctx.version);
    return mutate(x, (v) => v.splice(i, 1)[0]);
  }),
  "array.clear": def("array.clear", (ctx, a) => {
    mutate(arr(ctx, a[0], "array.clear"), (v) => (v.length = 0));
  }),
  "array.reverse": def("array.reverse", (ctx, a) => {
    mutate(arr(ctx, a[0], "array.reverse"), (v) => v.reverse());
  }),
  "array.fill": def("array.fill", (ctx, a) => {
    const x = arr(ctx, a[0], "array.fill");
    const [from, to] = rangeBounds(ctx, a[2], a[3], size(x));
    if (to > from) mutate(x, (v) => v.fill(a[1], from, to));
  }),
  "array.slice": def("array.slice", (ctx, a) => {
    const x = arr(ctx, a[0], "array.slice");
    const n = size(x);
    const [from, to] = rangeBounds(ctx, a[1], a[2], n);
    if (from > to) ctx.runtimeError("Index 'from' should be less than index 'to'.");
    if (x instanceof PineArraySlice) return new PineArraySlice(x.elemType, x.root, x.offset + from, to - from);
    return new PineArraySlice(x.elemType, x, from, to - from);
  }),
  "array.concat": def("array.concat", (ctx, a) => {
    const x = arr(ctx, a[0], "array.concat");
    const add = items(arr(ctx, a[1], "array.concat"));
    if (size(x) + add.length > MAX_ARRAY_SIZE) tooLarge(ctx, size(x) + add.length);
    // (the count read once: array.concat(a, a) pushed onto the array it was reading until V8 aborted
    // the process on an invalid array length)
    const n = add.length;
    mutate(x, (v) => {
      for (let i = 0; i < n; i++) v.push(add[i]!);
    });
    return x;
  }),
  "array.copy": def("array.copy", (ctx, a) => {
    const x = arr(ctx, a[0], "array.copy");
    return new PineArray(x.elemType, items(x).slice());
  }),
  "array.join": def("array.join", (ctx, a) =>
    joinArray(arr(ctx, a[0], "array.join"), a[1] == null ? "" : String(a[1]), ctx),
  ),
  "array.includes": def("array.includes", (ctx, a) => firstIndex(items(arr(ctx, a[0], "array.includes")), a[1]) >= 0),
  "array.indexof": def("array.indexof", (ctx, a) => firstIndex(items(arr(ctx, a[0], "array.indexof")), a[1])),
  "array.lastindexof": def("array.lastindexof", (ctx, a) => {
    const vals = items(arr(ctx, a[0], "array.lastindexof"));
    for (let i = vals.length - 1; i >= 0; i--) if (looseEquals(vals[i], a[1])) return i;
    return -1;
  }),
  "array.binary_search": def("array.binary_search", (ctx, a) =>
    binarySearch(numbers(ctx, a[0], "array.binary_search"), a[1], "exact"),
  ),
  "array.binary_search_leftmost": def("array.binary_search_leftmost", (ctx, a) =>
    binarySearch(numbers(ctx, a[0], "array.binary_search_leftmost"), a[1], "left"),
  ),
  "array.binary_search_rightmost": def("array.binary_search_rightmost", (ctx, a) =>
    binarySearch(numbers(ctx, a[0], "array.binary_search_rightmost"), a[1], "right"),
  ),
  "array.sort": def("array.sort", (ctx, a) => {
    const x = arr(ctx, a[0], "array.sort");
    const desc = isDescending(a[1]);
    budgetOf(ctx).spend(x.values.length * 2);
    mutate(x, (v) => {
      if (sortNumbers(v, desc)) return;
      const order = sortIndices(v, desc);
      const copy = v.slice();
      for (let k = 0; k < order.length; k++) v[k] = copy[order[k]!];
    });
  }),
  "array.sort_indices": def("array.sort_indices", (ctx, a) => {
    const x = arr(ctx, a[0], "array.sort_indices");
    budgetOf(ctx).spend(x.values.length * 2);
    return new PineArray<number>("int", sortIndices(items(x), isDescending(a[1])));
  }),
  "array.every": def("array.every", (ctx, a) => items(arr(ctx, a[0], "array.every")).every(truthy)),
  "array.some": def("array.some", (ctx, a) => items(arr(ctx, a[0], "array.some")).some(truthy)),
  "array.abs": def("array.abs", (ctx, a) => {
    const x = arr(ctx, a[0], "array.abs");
    return new PineArray<number>(
      numericOut(x.elemType),
      (items(x) as number[]).map((v) => Math.abs(v)),
    );
  }),
  "array.sum": direct("array.sum", (ctx, a0) => st.sum(numbers(ctx, a0, "array.sum"))),
  "array.avg": direct("array.avg", (ctx, a0) => st.avg(numbers(ctx, a0, "array.avg"))),
  "array.median": def("array.median", (ctx, a) => st.median(numbers(ctx, a[0], "array.median"))),
  "array.mode": def("array.mode", (ctx, a) => st.mode(numbers(ctx, a[0], "array.mode"))),
  "array.range": def("array.range", (ctx, a) => st.range(numbers(ctx, a[0], "array.range"))),
  "array.max": def("array.max", (ctx, a) => nthImpl(ctx, a, true)),
  "array.min": def("array.min", (ctx, a) => nthImpl(ctx, a, false)),
  "array.variance": def("array.variance", (ctx, a) =>
    st.variance(numbers(ctx, a[0], "array.variance"), a[1] !== false),
  ),
  "array.stdev": def("array.stdev", (ctx, a) => st.stdev(numbers(ctx, a[0], "array.stdev"), a[1] !== false)),
  "array.covariance": def("array.covariance", (ctx, a) =>
    st.covariance(numbers(ctx, a[0], "array.covariance"), numbers(ctx, a[1], "array.covariance"), a[2] !== false),
  ),
  "array.standardize": def(
    "array.standardize",
    (ctx, a) => new PineArray<number>("float", st.standardize(numbers(ctx, a[0], "array.standardize"))),
  ),
  "array.percentile_nearest_rank": def("array.percentile_nearest_rank", (ctx, a) => {
    const vals = numbers(ctx, a[0], "array.percentile_nearest_rank");
    st.checkPercentage(raiser(ctx), a[1], "array.percentile_nearest_rank");
    return st.percentileNearestRank(vals, a[1]);
  }),
  "array.percentile_linear_interpolation": def("array.percentile_linear_interpolation", (ctx, a) => {
    const vals = numbers(ctx, a[0], "array.percentile_linear_interpolation");
    st.checkPercentage(raiser(ctx), a[1], "array.percentile_linear_interpolation");
    return st.percentileLinear(vals, a[1]);
  }),
  "array.percentrank": def("array.percentrank", (ctx, a) => {
    const vals = numbers(ctx, a[0], "array.percentrank");
    if (vals.length === 0) return NaN;
    const i = isNaNum(a[1]) ? 0 : Math.trunc(a[1] as number); // na index reads element 0 (array_test_008)
    if (i < 0 || i >= vals.length) outOfBounds(raiser(ctx), a[1] as number, vals.length);
    return st.percentRank(vals, i);
  }),
};

function nthImpl(ctx: ExecContext, a: any[], largest: boolean): number {
  const fn = largest ? "array.max" : "array.min";
  const vals = numbers(ctx, a[0], fn);
  if (vals.length === 0) return NaN;
  const n = isNaNum(a[1]) ? 0 : Math.trunc(a[1] as number);
  if (n < 0 || n >= vals.length) outOfBounds(raiser(ctx), n, vals.length);
  return st.nth(vals, n, largest);
}

export const variables: VariableTable = {};
export const constants: ConstantTable = {};
