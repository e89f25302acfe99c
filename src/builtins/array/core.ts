// Array storage helpers shared by the array.* builtins: slice views, index rules, errors, types.
//
// array.slice returns a VIEW of its source (TradingView: writing into the slice writes into the
// source). PineArray stores a plain JS array, which cannot alias a range of another one, so a slice
// is a PineArraySlice whose `values` is an accessor over the root array: reads copy the range (a
// copy reused while equal to the range),
// mutations in this module go through `mutate()`, which edits a working copy and splices it back.

import { doubleArray, objectArray } from "../../core/shapes.js";
import { PineArray, type PineValue } from "../../core/values.js";

export type Raise = (message: string) => never;

export class PineArraySlice<T = PineValue> extends PineArray<T> {
  /** The last copy of the range handed out by `values`; reused while it still equals the range. */
  cache: T[] | null = null;
  constructor(
    elemType: string,
    public root: PineArray<T>,
    public offset: number,
    public length: number,
  ) {
    super(elemType, []);
    // shared accessor functions: no closures per slice
    Object.defineProperty(this, "values", sliceValues as PropertyDescriptor);
  }
}

/** A fresh copy of the slice's range of its root (what `values` returned before the cache). */
export function copyRange<T>(s: PineArraySlice<T>): T[] {
  const src = s.root.values;
  return src.slice(s.offset, Math.min(src.length, s.offset + s.length));
}

/**
 * Whether `c` holds the same elements as `src[off, off + n)`: same value, NaN equal to NaN, -0 and
 * +0 told apart (Object.is), so a reused copy reads exactly like a fresh one.
 */
function sameRange(c: readonly unknown[], src: readonly unknown[], off: number, n: number): boolean {
  if (c.length !== n) return false;
  for (let i = 0; i < n; i++) {
    const x = c[i];
    const y = src[off + i];
    if (x === y) {
      if (x === 0 && 1 / (x as number) !== 1 / (y as number)) return false;
    } else if (x === x || y === y) return false;
  }
  return true;
}

// Reads of a slice (a for-in loop reads `values` twice per element) reuse the last copy while it
// still equals the range: nothing tells a slice when its root changes (compiled code pushes into
// root.values directly), so the check compares elements, which allocates nothing. A changed range
// gets a NEW copy, never a refill, so an array handed out earlier keeps what it held, as before.
const sliceValues = {
  configurable: true,
  enumerable: true,
  get<T>(this: PineArraySlice<T>): T[] {
    const src = this.root.values;
    const n = Math.max(0, Math.min(src.length, this.offset + this.length) - this.offset);
    const c = this.cache;
    if (c !== null && sameRange(c, src, this.offset, n)) return c;
    return (this.cache = src.slice(this.offset, this.offset + n));
  },
  set<T>(this: PineArraySlice<T>, next: T[]): void {
    replaceRange(this.root.values, this.offset, this.length, next);
    this.length = next.length;
    this.cache = null;
  },
};

/** Element types whose values are numbers (colours are packed numbers): their arrays are kept as doubles. */
export function isNumericElem(elemType: string): boolean {
  return elemType === "float" || elemType === "int" || elemType === "color";
}

/**
 * `n` copies of `x` in a packed array. `new Array(n).fill(x)` gives a holey one for good, and V8
 * boxes every number it reads from a holey double array (a heap number per element that
 * array.avg or array.sum reads, on every bar), where a packed one is read as raw doubles.
 */
export function packedArray<T>(n: number, x: T, numeric = false): T[] {
  // in the elements kind of what it holds from the start, even while empty (core/shapes.ts: each
  // run's fresh array would otherwise deoptimise the compiled loop, which then compiles again)
  const out = (numeric ? doubleArray() : objectArray()) as T[];
  for (let i = 0; i < n; i++) out.push(x);
  return out;
}

/** In-place `arr.splice(start, deleteCount, ...items)` without spreading (arrays reach 100000 items). */
export function replaceRange<T>(arr: T[], start: number, deleteCount: number, items: readonly T[]): void {
  const oldLen = arr.length;
  const del = Math.max(0, Math.min(deleteCount, oldLen - start));
  const delta = items.length - del;
  if (delta > 0) {
    // grown by push, not by assigning `length`: that makes the array holey for good, and V8 then
    // makes every later array of the same allocation site holey too (core/shapes.ts doubleArray's:
    // every numeric array of the process, whose reads then box each double)
    for (let k = 0; k < delta; k++) arr.push(items[0]!);
    for (let i = oldLen - 1; i >= start + del; i--) arr[i + delta] = arr[i]!;
  } else if (delta < 0) {
    for (let i = start + del; i < oldLen; i++) arr[i + delta] = arr[i]!;
    arr.length = oldLen + delta;
  }
  for (let k = 0; k < items.length; k++) arr[start + k] = items[k]!;
}

/** The elements for reading (a copy for slices, possibly the same one as the last read: never mutate it). */
export function items<T>(a: PineArray<T>): T[] {
  return a.values;
}

/** Runs a mutation on the array's elements; for a slice, on a copy that is written back. */
export function mutate<T, R>(a: PineArray<T>, fn: (v: T[]) => R): R {
  if (a instanceof PineArraySlice) {
    // a fresh copy: the cached one may be held by the caller (array.concat(s, s) iterates it)
    const work = copyRange(a);
    const r = fn(work);
    a.values = work;
    return r;
  }
  return fn(a.values);
}

export function size(a: PineArray): number {
  return a instanceof PineArraySlice
    ? Math.max(0, Math.min(a.length, a.root.values.length - a.offset))
    : a.values.length;
}

export function outOfBounds(raise: Raise, index: number, n: number): never {
  return raise(`Index ${index} is out of bounds, array size is ${n}.`);
}

/**
 * Index rule: v6 accepts -n <= i < n (negative counts from the end); earlier versions 0 <= i < n.
 * Returns the resolved index.
 */
export function resolveIndex(raise: Raise, index: number, n: number, allowNegative = true): number {
  const i = Math.trunc(index);
  if (i >= 0 ? i >= n : !allowNegative || -i > n) outOfBounds(raise, index, n);
  return i < 0 ? n + i : i;
}

export function requireArray<T>(raise: Raise, a: PineArray<T> | null | undefined, fn: string): PineArray<T> {
  if (a == null) raise(`Cannot call '${fn}' on an array that is na.`);
  return a as PineArray<T>;
}

/** The na value of an element type. */
export function naOf(elemType: string, version = 6): PineValue {
  switch (elemType) {
    case "int":
    case "float":
    case "color":
      return NaN;
    case "bool":
      return version >= 6 ? false : NaN;
    default:
      return null;
  }
}

export function isNumericType(t: string): boolean {
  return t === "int" || t === "float";
}

/** Element type of a value when the checker did not say (fallback only: ints and floats look alike). */
export function inferType(values: readonly unknown[]): string {
  let sawNumber = false;
  let allInt = true;
  for (const v of values) {
    if (typeof v === "number") {
      sawNumber = true;
      if (v === v && !Number.isInteger(v)) allInt = false;
    } else if (typeof v === "boolean") return "bool";
    else if (typeof v === "string") return "string";
    else if (v !== null && v !== undefined && typeof v === "object") {
      const name = (v as { typeName?: string; constructor: { name: string } }).typeName;
      return name ?? (v as object).constructor.name;
    }
  }
  return sawNumber ? (allInt ? "int" : "float") : "float";
}

/** Tolerant equality used by indexof/lastindexof/includes: numbers within 1e-10, na never matches. */
export function looseEquals(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") {
    if (a !== a || b !== b) return false;
    return a === b || Math.abs(a - b) <= 1e-10;
  }
  return a === b;
}
