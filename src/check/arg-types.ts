// Argument types against parameter types: a builtin's documented parameter type (builtins.json, first
// overload's wording) or a user function's declared one. The v6 manual's "Type casting" section: the
// only automatic cast is int -> float (v5 also casts int/float -> bool); na fits every type; drawing
// ids, chart points, collections, UDT objects and enums are never converted. A mismatch is reported in
// TradingView's wording (CE10123): "Cannot call 'f' with argument 'p'='x'. An argument of 'T' type was
// used but a 'U' is expected."

import type * as A from "../lang/ast.js";
import { unparse } from "../lang/unparse.js";
import type { CatalogFunction } from "../catalog/index.js";
import { CheckError } from "./errors.js";
import { DRAWING_TYPES, elemOf, genericHead, keyOf, qualName, type PType } from "./types.js";

/** What a documented parameter type accepts. */
type Accept =
  | { k: "any" }
  /** One of these base types (int, float, bool, color, string, line, chart.point, hline, matrix<int>, ...). */
  | { k: "bases"; bases: string[] }
  /** A collection; `elems` undefined: any element type. */
  | { k: "collection"; head: string; elems?: string[] }
  /** The element (or key) type of the call's first argument, the collection (`array.push` value). */
  | { k: "element"; of: "value" | "key" }
  /** The `<T>` type argument of the call (`array.new<T>` initial value). */
  | { k: "typeArg" }
  /** A member of a user enum (input.enum's defval). */
  | { k: "enum" };

const FUNDAMENTAL = new Set(["int", "float", "bool", "color", "string"]);
/** Base names a documented type may list (`series int/float`, `series line`, `hline`). */
const KNOWN_BASES = new Set([...FUNDAMENTAL, ...DRAWING_TYPES, "hline", "plot", "footprint", "volume_row"]);

/**
 * Parameters whose first-overload wording does not describe the other overloads in a way the return
 * types reveal, so any argument type is fine there: na() and str.tostring() of any value, str.format's
 * values, max_bars_back's variable, input()'s default, matrix.mult by a matrix, an array or a scalar.
 * (The generic `<...>` forms and the unique types such as plot_style are skipped by parseAccept.)
 */
const UNCHECKED = new Set([
  "na:x",
  "str.tostring:value",
  "str.format:arg0",
  "str.format:arg1",
  "max_bars_back:var",
  "input:defval",
  "matrix.mult:id2",
]);

/**
 * Parameter types of the overloads after the first, which builtins.json does not list (from the
 * reference manual's argument lists): fill's plot form, the drawing constructors' coordinate forms,
 * time()'s timezone.
 */
const OTHER_OVERLOADS: Record<string, Record<string, string>> = {
  fill: {
    plot1: "plot",
    plot2: "plot",
    top_value: "series int/float",
    bottom_value: "series int/float",
    top_color: "series color",
    bottom_color: "series color",
  },
  "label.new": { x: "series int", y: "series int/float" },
  "line.new": { x1: "series int", y1: "series int/float", x2: "series int", y2: "series int/float" },
  "box.new": { left: "series int", top: "series int/float", right: "series int", bottom: "series int/float" },
  time: { timezone: "series string" },
  time_close: { timezone: "series string" },
};

/** The documented type of a builtin parameter (first overload, else the table above). */
export function paramDoc(fnKey: string, fn: CatalogFunction, param: string): string | undefined {
  return fn.types[param] ?? OTHER_OVERLOADS[fnKey]?.[param];
}

/**
 * Types a parameter takes besides its documented ones: nz() and fixnan() also take strings (spec/
 * language.md 9: "float/int/color/string"), and in v5 bools too (v5's bool could be na; v6 migration
 * guide: "na(), nz() and fixnan() no longer accept bool arguments").
 */
const EXTRA: Record<string, string[]> = {
  "nz:source": ["string"],
  "nz:replacement": ["string"],
  "fixnan:source": ["string"],
};
const V5_EXTRA: Record<string, string[]> = {
  "nz:source": ["bool"],
  "nz:replacement": ["bool"],
  "fixnan:source": ["bool"],
};

const cache = new Map<string, Accept>();

/** Parses a documented parameter type ("series int/float", "any array type", "array<int/float>"). */
export function parseAccept(doc: string, param: string): Accept {
  const key = doc + "\u0000" + param;
  const hit = cache.get(key);
  if (hit) return hit;
  const a = parseUncached(doc, param);
  cache.set(key, a);
  return a;
}

function parseUncached(doc: string, param: string): Accept {
  const body = doc.replace(/^(const|input|simple|series)\s+/, "").trim();
  const any = /^any (array|matrix|map) type$/.exec(body);
  if (any) return { k: "collection", head: any[1]! };
  if (body === "<type of the array's elements>" || body === "<type of the matrix's elements>")
    return { k: "element", of: "value" };
  if (body === "<type of the map's elements>") return { k: "element", of: param === "key" ? "key" : "value" };
  if (body === "<array_type>" || body === "<matrix_type>") return { k: "typeArg" };
  if (body === "enum") return { k: "enum" };
  const coll = /^(array|matrix)<([^<>]+)>$/.exec(body);
  if (coll) return { k: "collection", head: coll[1]!, elems: coll[2]!.split("/") };
  const parts = body.split("/");
  if (parts.every((p) => KNOWN_BASES.has(p) || /^matrix<[a-z]+>$/.test(p))) return { k: "bases", bases: parts };
  return { k: "any" };
}

/**
 * The accepted type of a builtin parameter. Functions whose overloads return several base types
 * (nz, fixnan, ta.change, math.max, ...) document only the first overload's argument type: a
 * parameter documented with one of those bases takes any of them.
 */
/** Accepted types by catalogue entry and parameter, per dialect (v5 adds casts and overloads). */
const acceptCache = [
  new WeakMap<CatalogFunction, Map<string, Accept>>(),
  new WeakMap<CatalogFunction, Map<string, Accept>>(),
];

export function builtinAccept(fnKey: string, fn: CatalogFunction, param: string, version: number): Accept {
  const byFn = acceptCache[version < 6 ? 0 : 1]!;
  let m = byFn.get(fn);
  if (!m) byFn.set(fn, (m = new Map()));
  let acc = m.get(param);
  if (!acc) m.set(param, (acc = computeAccept(fnKey, fn, param, version)));
  return acc;
}

function computeAccept(fnKey: string, fn: CatalogFunction, param: string, version: number): Accept {
  const doc = paramDoc(fnKey, fn, param);
  if (!doc || UNCHECKED.has(`${fnKey}:${param}`)) return { k: "any" };
  const acc = widenByReturns(fn, parseAccept(doc, param));
  const key = `${fnKey}:${param}`;
  const extra = [...(EXTRA[key] ?? []), ...((version < 6 && V5_EXTRA[key]) || [])];
  return extra.length && acc.k === "bases" ? { k: "bases", bases: [...acc.bases, ...extra] } : acc;
}

function widenByReturns(fn: CatalogFunction, acc: Accept): Accept {
  const rets = returnBases(fn);
  if (rets.length < 2) return acc;
  const poly = (b: string) => rets.includes(elemOf(b) ?? b);
  if (acc.k === "bases" && acc.bases.some(poly)) {
    const widened = acc.bases.flatMap((b) =>
      b.includes("<") && poly(b) ? rets.map((r) => `${genericHead(b)}<${r}>`) : [b],
    );
    return { k: "bases", bases: [...new Set([...widened, ...rets])] };
  }
  if (acc.k === "collection" && acc.elems?.some(poly))
    return { k: "collection", head: acc.head, elems: [...new Set([...acc.elems, ...rets])] };
  return acc;
}

/** The fundamental types a function's overloads return, directly or as collection elements. */
function returnBases(fn: CatalogFunction): string[] {
  const out = new Set<string>();
  for (const r of fn.returns) {
    const body = r.replace(/^(const|input|simple|series)\s+/, "");
    const b = elemOf(body) ?? body;
    if (FUNDAMENTAL.has(b)) out.add(b);
  }
  return [...out];
}

/** Can a value of base type `given` be passed where base `want` is expected (implicit casts only)? */
export function castsTo(given: string, want: string, version: number): boolean {
  if (given === want || given === "na") return true;
  if (given === "int" && want === "float") return true;
  if (version < 6 && (given === "int" || given === "float") && want === "bool") return true;
  return false;
}

export interface ArgCall {
  /** The called function's name as TradingView names it in the message. */
  fnName: string;
  version: number;
  /** Type of the call's first argument (the collection of array.push and friends). */
  first?: PType;
  /** `<...>` type arguments of the call. */
  typeArgs: string[];
  /** Is this type name a user enum? */
  isEnum?: (name: string) => boolean;
}

/** The accepted type's text for the message, or undefined when `given` fits. */
export function mismatch(acc: Accept, given: PType, call: ArgCall, doc: string): string | undefined {
  const g = given.name;
  if (g === "na" || acc.k === "any") return undefined;
  switch (acc.k) {
    case "bases": {
      for (const b of acc.bases) {
        if (b.includes("<")) {
          if (genericHead(g) === genericHead(b) && (elemOf(g) === undefined || elemOf(g) === elemOf(b)))
            return undefined;
        } else if (castsTo(g, b, call.version)) return undefined;
      }
      return doc;
    }
    case "collection": {
      if (genericHead(g) !== acc.head) return doc;
      const el = elemOf(g);
      if (!acc.elems || el === undefined || acc.elems.includes(el)) return undefined;
      return doc;
    }
    case "element": {
      const coll = call.first?.name ?? "";
      const want = acc.of === "key" ? keyOf(coll) : elemOf(coll);
      if (!want || !coll.includes("<")) return undefined;
      return valueFits(g, want, call.version) ? undefined : elementText(want);
    }
    case "enum":
      return !call.isEnum || call.isEnum(g) ? undefined : doc;
    case "typeArg": {
      const want = call.typeArgs[0];
      if (!want) return undefined;
      return valueFits(g, want, call.version) ? undefined : elementText(want);
    }
  }
}

/** A value of type `given` stored where a `want` is expected (collection elements, parameters). */
export function valueFits(given: string, want: string, version: number): boolean {
  if (castsTo(given, want, version)) return true;
  // a bare `array`/`matrix`/`map` type (untyped) on either side takes any element type
  return genericHead(given) === genericHead(want) && (!given.includes("<") || !want.includes("<"));
}

function elementText(want: string): string {
  return FUNDAMENTAL.has(want) || DRAWING_TYPES.has(want) ? `series ${want}` : want;
}

/**
 * v5's implicit int/float -> bool cast of a builtin argument: true when the parameter takes only
 * bool and the argument is a number, so the checker inserts the cast (impls compare with `=== true`).
 */
export function needsBoolCast(
  fnKey: string,
  fn: CatalogFunction,
  param: string,
  given: string,
  version: number,
): boolean {
  if (version >= 6 || (given !== "int" && given !== "float")) return false;
  const acc = builtinAccept(fnKey, fn, param, version);
  return acc.k === "bases" && acc.bases.includes("bool") && !acc.bases.includes("int") && !acc.bases.includes("float");
}

/** Checks one builtin argument: CE10123 in TradingView's wording on a mismatch, else undefined. */
export function builtinArgError(
  fnKey: string,
  fn: CatalogFunction,
  param: string,
  given: PType,
  call: ArgCall,
  site: ArgSite,
): CheckError | undefined {
  const acc = builtinAccept(fnKey, fn, param, call.version);
  const want = mismatch(acc, given, call, paramDoc(fnKey, fn, param) ?? "");
  return want === undefined ? undefined : argError(call.fnName, param, given, want, site);
}

/** Where an argument was written: its expression (for the message) and its span (for the position). */
export interface ArgSite {
  node: A.Expr;
  span: A.Span;
}

export function argError(fnName: string, param: string, given: PType, want: string, site: ArgSite): CheckError {
  return new CheckError(
    `Cannot call '${fnName}' with argument '${param}'='${argText(site.node)}'. An argument of '${shownType(given, site.node)}' type was used but a '${want}' is expected.`,
    site.span,
  );
}

const LITERALS = new Set(["Number", "String", "Bool", "Color"]);

/**
 * A type as TradingView's messages show it: literals as "literal int", value types with their
 * qualifier, drawing ids as "series line" (they are always series), other reference types (UDTs,
 * collections, chart.point) by name.
 */
export function shownType(ty: PType, node?: A.Expr): string {
  if (ty.name === "na" || ty.name === "void") return ty.name;
  if (ty.name === "tuple") return "[" + (ty.elems ?? []).map((x) => shownType(x)).join(", ") + "]";
  if (node && LITERALS.has(unparen(node).kind) && FUNDAMENTAL.has(ty.name)) return `literal ${ty.name}`;
  if (DRAWING_TYPES.has(ty.name) && ty.name !== "chart.point") return `series ${ty.name}`;
  if (FUNDAMENTAL.has(ty.name)) return `${qualName(ty.q)} ${ty.name}`;
  return ty.name;
}

function unparen(e: A.Expr): A.Expr {
  while (e.kind === "Paren") e = e.expr;
  return e;
}

/** The argument as written (normalised), shortened for long expressions. */
export function argText(node: A.Expr): string {
  const prog: A.Program = {
    kind: "Program",
    version: 6,
    body: [{ kind: "ExprStmt", expr: node, span: node.span }],
    doc: [],
    span: node.span,
  };
  const lines = unparse(prog)
    .split("\n")
    .filter((l) => l.trim() !== "");
  const text = lines.slice(1).join(" ").replace(/\s+/g, " ").trim();
  return text.length > 60 ? text.slice(0, 57) + "..." : text;
}
