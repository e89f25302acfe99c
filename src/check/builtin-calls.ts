// Builtin calls: mapping positional and named arguments onto the catalogue's parameter order,
// qualifier checks of arguments, and the result type of a call from the catalogue's return types.

import type { Arg } from "../lang/ast.js";
import type { CatalogFunction } from "../catalog/index.js";
import { CheckError } from "./errors.js";
import { builtinAccept, mismatch, paramDoc } from "./arg-types.js";
import {
  copyType,
  elemOf,
  genericHead,
  keyOf,
  parseTypeText,
  qualName,
  SERIES,
  t,
  typeText,
  type PType,
  type Qual,
} from "./types.js";

/** Where each call argument goes: index into the catalogue's `params` (the impl's `args` order). */
export interface ArgPlacement {
  /** positions[i] = params index of args[i]. */
  positions: number[];
  /** The overload's parameter list that was chosen. */
  list: string[];
  /**
   * v5 only: indexes of named arguments repeating a parameter already given. TradingView v5 compiles
   * such a call with a warning and uses the first value (v6 migration guide, "Cannot repeat parameters");
   * their positions are -1.
   */
  repeated?: number[];
}

/**
 * `argTypes` are the checked types of the arguments (source order) when known: drawing constructors
 * document a chart.point list and a coordinate list, fill() an hline list and a plot list, time() a
 * list with and one without `timezone`; the first list whose documented types the arguments fit is
 * chosen (else the first list the arity allows, and the type check reports the mismatch).
 */
export function placeArgs(
  name: string,
  fn: CatalogFunction,
  args: Arg[],
  version: number,
  argTypes?: PType[],
): ArgPlacement {
  const firstType = argTypes?.[0]?.name;
  const variadic = fn.params.includes("...");
  // counted without per-call arrays: this runs at every builtin call site
  let positional = 0;
  const named: string[] = [];
  for (const a of args) {
    if (a.name) named.push(a.name.name);
    else positional++;
  }
  for (let i = 0; i < args.length; i++) {
    if (args[i]!.name && i < positional)
      throw new CheckError(`Positional arguments of '${name}' must come before named ones`, args[i]!.span);
  }
  if (variadic) {
    const positions = args.map((a, i) => (a.name ? indexOfParam(name, fn.params, a) : i));
    return { positions, list: fn.params };
  }
  let chosen: string[] | undefined;
  const byPoint =
    firstType !== undefined &&
    positional > 0 &&
    fn.lists.length > 1 &&
    fn.lists.some((l) => fn.types[l[0]!] === "chart.point");
  const typed = argTypes !== undefined && fn.lists.length > 1;
  const fitting = typed ? fn.lists.filter((l) => listFits(name, fn, l, args, argTypes!, positional, version)) : [];
  for (const list of fitting.length ? fitting : fn.lists) {
    if (list.length < positional) continue;
    if (byPoint && (fn.types[list[0]!] === "chart.point") !== (firstType === "chart.point")) continue;
    if (!named.every((n) => list.includes(n) || (fn.params.includes(n) && !fn.lists.some((l) => l.includes(n)))))
      continue;
    // a named argument never names a parameter the positional ones already fill
    if (
      named.some((n) => {
        const at = list.indexOf(n);
        return at >= 0 && at < positional;
      })
    )
      continue;
    // a positional tuple literal goes only where the documented type is a tuple (input options)
    let ok = true;
    for (let i = 0; i < positional; i++) {
      const tt = fn.types[list[i]!] ?? "";
      const isTuple = args[i]!.value.kind === "Tuple";
      if (tt.includes("tuple") !== isTuple && (isTuple || tt.includes("tuple"))) ok = false;
    }
    if (ok) {
      chosen = list;
      break;
    }
  }
  if (!chosen) {
    const maxLen = Math.max(...fn.lists.map((l) => l.length));
    if (positional > maxLen)
      throw new CheckError(
        `Too many arguments for '${name}': expected at most ${maxLen}, got ${positional}`,
        args[maxLen]?.span,
      );
    const bad = named.find((n) => !fn.params.includes(n));
    if (bad !== undefined) {
      const a = args.find((x) => x.name?.name === bad)!;
      throw new CheckError(`'${name}' has no parameter '${bad}'`, a.span);
    }
    chosen = fn.lists[0] ?? fn.params;
  }
  const positions: number[] = [];
  let repeated: number[] | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const p = a.name ? indexOfParam(name, fn.params, a) : fn.params.indexOf(chosen[i]!);
    // (a call has a handful of arguments: a scan of the placed ones, no Set)
    if (positions.includes(p)) {
      if (version >= 6) throw new CheckError(`Argument '${fn.params[p]}' of '${name}' is given more than once`, a.span);
      if (a.name) {
        // v5: a warning, and the first value is the one used
        (repeated ??= []).push(i);
        positions.push(-1);
        continue;
      }
    }
    positions.push(p);
  }
  // The catalogue's optional lists are incomplete (plot's title is optional in Pine but not listed),
  // so only a call with no arguments at all to a function whose first parameter is required fails here.
  const first = chosen[0];
  if (args.length === 0 && first && first !== "..." && !fn.optional.includes(first) && !ARITY_OVERLOADED.has(name)) {
    throw new CheckError(`Missing required argument '${first}' of '${name}'`, undefined);
  }
  return repeated ? { positions, list: chosen, repeated } : { positions, list: chosen };
}

/** Do the arguments' types fit the documented types of this overload's parameters? */
function listFits(
  name: string,
  fn: CatalogFunction,
  list: string[],
  args: Arg[],
  types: PType[],
  positional: number,
  version: number,
): boolean {
  if (list.length < positional) return false;
  const call = { fnName: name, version, first: types[0], typeArgs: [] };
  for (let i = 0; i < args.length; i++) {
    const param = i < positional ? list[i]! : args[i]!.name!.name;
    if (i >= positional && !list.includes(param)) continue;
    const ty = types[i];
    if (
      ty &&
      mismatch(builtinAccept(name, fn, param, version), ty, call, paramDoc(name, fn, param) ?? "") !== undefined
    )
      return false;
  }
  return true;
}

/** Builtins documented with one list whose implementation also takes a shorter form. */
const ARITY_OVERLOADED = new Set([
  "ta.highest",
  "ta.lowest",
  "ta.highestbars",
  "ta.lowestbars",
  "ta.tr",
  "ta.atr",
  "ta.stoch",
  "ta.vwap",
  "ta.supertrend",
  "ta.dmi",
  "ta.mfi",
  "ta.wpr",
  "ta.obv",
  "ta.cum",
  "ta.barssince",
  "ta.valuewhen",
  "na",
  "nz",
  "fixnan",
  "time",
  "time_close",
  "timestamp",
  "color.new",
  "color.rgb",
  "math.round",
  "str.tostring",
  "request.security",
  "array.new",
  "matrix.new",
  "map.new",
  "input",
  "runtime.error",
]);

function indexOfParam(name: string, params: string[], a: Arg): number {
  const p = params.indexOf(a.name!.name);
  if (p < 0) throw new CheckError(`'${name}' has no parameter '${a.name!.name}'`, a.name!.span);
  return p;
}

/** Parameters of input.* that are `const` in every overload (title, group, inline, ...). */
const INPUT_LABELS = new Set(["title", "tooltip", "inline", "group", "confirm"]);

/** Qualifier check: a series value where the documentation demands a simple/const one. */
export function checkQualifier(
  fnName: string,
  fn: CatalogFunction,
  param: string,
  arg: PType,
  span: Arg["span"],
): void {
  const doc = fn.types[param];
  if (!doc) return;
  // lossy docs of overloaded builtins; input.* labels are const string in every overload
  if ((fn.returns.length !== 1 || fn.lists.length !== 1) && !(fnName.startsWith("input") && INPUT_LABELS.has(param)))
    return;
  if (doc.includes("tuple") || doc.includes("<")) return;
  const want = parseTypeText(doc);
  const limit: Qual | undefined = want.q === 0 ? 0 : want.q === 1 ? 1 : want.q === 2 ? 2 : undefined;
  if (limit === undefined || arg.name === "na") return;
  if (arg.q > limit) {
    throw new CheckError(
      `Cannot call '${fnName}' with argument '${param}'=${typeText(arg)}: expected ${qualName(limit)} ${want.name.split("/")[0]}`,
      span,
    );
  }
}

/**
 * The result type of a builtin call. `argTypes` are in parameter order (undefined for omitted),
 * `typeArgs` are `<...>` type arguments (array.new<float>).
 */
export function resultType(
  name: string,
  fn: CatalogFunction,
  argTypes: (PType | undefined)[],
  typeArgs: string[],
): PType {
  const first = argTypes[0];
  const rets = returnTypes(fn);
  if (rets.length === 0) return t("void");
  if (rets.length === 1 && rets[0]!.name === "tuple") return copyType(rets[0]!);
  const tuple = rets.find((r) => r.name === "tuple");
  if (tuple) {
    // ta.vwap: the tuple form is the overload with the extra parameter (stdev_mult)
    const base = new Set(fn.lists[0] ?? []);
    const extended = argTypes.some((a, i) => a !== undefined && !base.has(fn.params[i]!));
    if (extended) return copyType(tuple);
    return copyType(rets.find((r) => r.name !== "tuple")!);
  }
  const generic = genericResult(name, rets[0]!.name, first, argTypes, typeArgs);
  if (generic) return { name: generic, q: rets.length === 1 ? rets[0]!.q : SERIES };
  // one documented return (most builtins): its type, without the overload search below
  if (rets.length === 1) return { name: rets[0]!.name, q: rets[0]!.q };
  // several documented returns (math.max, array.max...): one pass over the arguments and the returns,
  // no intermediate arrays (this runs at every such call site)
  let maxArgQ: Qual = 0;
  let numericArg = false;
  let floatArg = false;
  for (const a of argTypes) {
    if (!a) continue;
    if (a.q > maxArgQ) maxArgQ = a.q;
    if (a.name === "int" || a.name === "float" || a.name === "na") numericArg = true;
    if (a.name === "float") floatArg = true;
  }
  // choose a base: the followed argument's base when a return type has it, else float, else the first
  let base = rets[0]!.name;
  if (rets.some((r) => r.name !== base)) {
    const src = argTypes[RESULT_FOLLOWS[name] ?? 0];
    const srcBase =
      src && ELEMENT_TYPED.has(name)
        ? genericHead(first?.name ?? "") === "array" && rets.some((r) => r.name.startsWith("array<"))
          ? `array<${elemOf(src.name)}>`
          : elemOf(src.name)
        : src?.name;
    if (srcBase && hasReturn(rets, srcBase)) base = srcBase;
    else if (numericArg && hasReturn(rets, "float")) base = "float";
    if (base === "int" && floatArg) base = hasReturn(rets, "float") ? "float" : base;
  }
  // the qualifier: the base's only one, else the least one at or above the arguments', else the greatest
  let count = 0;
  let only: Qual = 0;
  let leastAbove = -1;
  let greatest = -1;
  for (const r of rets) {
    if (r.name !== base) continue;
    count++;
    only = r.q;
    if (r.q >= maxArgQ && (leastAbove < 0 || r.q < leastAbove)) leastAbove = r.q;
    if (r.q > greatest) greatest = r.q;
  }
  const q = (count === 1 ? only : leastAbove >= 0 ? leastAbove : greatest) as Qual;
  return { name: base, q };
}

function hasReturn(rets: readonly PType[], name: string): boolean {
  for (const r of rets) if (r.name === name) return true;
  return false;
}

/** Each catalogue function's parsed return types (read-only: results are copied out of it). */
const RETURNS = new WeakMap<CatalogFunction, PType[]>();
function returnTypes(fn: CatalogFunction): PType[] {
  let rets = RETURNS.get(fn);
  if (!rets) {
    rets = fn.returns.map(parseTypeText);
    RETURNS.set(fn, rets);
  }
  return rets;
}

/** Builtins whose result type follows an argument other than the first (its parameter index). */
const RESULT_FOLLOWS: Record<string, number> = { "ta.valuewhen": 1 };
/**
 * Collection reductions whose result is int for int elements (array.max of array<int> is int): the
 * reference's overloads. The averaging ones (FRACTIONAL_REDUCTIONS) are int-typed values that keep
 * their fraction, like the quotient of two ints.
 */
const ELEMENT_TYPED = new Set([
  "array.max",
  "array.min",
  "array.mode",
  "array.range",
  "array.sum",
  "array.percentile_nearest_rank",
  "array.abs",
  "array.avg",
  "array.median",
  "array.stdev",
  "array.variance",
  "array.percentile_linear_interpolation",
  "array.percentrank",
  "matrix.max",
  "matrix.min",
  "matrix.mode",
  "matrix.avg",
  "matrix.median",
  "matrix.trace",
  "matrix.det",
]);
export const FRACTIONAL_REDUCTIONS = new Set([
  "array.avg",
  "array.median",
  "array.stdev",
  "array.variance",
  "array.percentile_linear_interpolation",
  "array.percentrank",
  "matrix.avg",
  "matrix.median",
  "matrix.det",
]);

function genericResult(
  name: string,
  ret: string,
  first: PType | undefined,
  argTypes: (PType | undefined)[],
  typeArgs: string[],
): string | undefined {
  const fa = first?.name ?? "";
  if (name === "array.from")
    return argTypes.length ? `array<${argTypes[0]?.name === "na" ? "float" : argTypes[0]!.name}>` : undefined;
  if (ret === "array<type>" || ret === "matrix<type>" || ret === "array<enum>") {
    const head = ret.slice(0, ret.indexOf("<"));
    if (typeArgs.length) return `${head}<${typeArgs[0]}>`;
    if (fa.startsWith("array<") || fa.startsWith("matrix<")) return `${head}<${elemOf(fa)}>`;
    if (name.startsWith("array.new_")) return `array<${name.slice(10)}>`;
    return undefined;
  }
  if (ret === "map<keyType, valueType>") {
    if (typeArgs.length === 2) return `map<${typeArgs[0]},${typeArgs[1]}>`;
    if (fa.startsWith("map<")) return fa;
    return undefined;
  }
  if (
    ret === "<matrix_type>" ||
    ret === "<type>" ||
    ret === "type" ||
    ret === "<array_type>" ||
    ret === "<value_type>"
  ) {
    return elemOf(fa) ?? undefined;
  }
  if (name.startsWith("map.keys")) return `array<${keyOf(fa)}>`;
  return undefined;
}
