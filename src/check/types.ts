// Pine types as the checker sees them: a base type name plus a qualifier.
//
// Base names: "int", "float", "bool", "color", "string", "na" (typeless na, before context types
// it), "void", "plot", "hline", drawing types ("line", "label", ...), "chart.point",
// collections "array<float>", "matrix<int>", "map<string,float>", user types and enums by name,
// and "tuple" (with `elems`). Qualifiers: const < input < simple < series.

export const CONST = 0;
export const INPUT = 1;
export const SIMPLE = 2;
export const SERIES = 3;
export type Qual = 0 | 1 | 2 | 3;
export const QUAL_NAMES = ["const", "input", "simple", "series"] as const;

export interface PType {
  name: string;
  q: Qual;
  /** Element types of a tuple. */
  elems?: PType[];
  /**
   * An int that may hold a fraction: TradingView types the quotient of two ints int but (in v6, and in
   * v5 unless both are const) keeps its fraction, `14 / 8` is an int 1.75. Consumers that need a whole
   * number (int parameters of builtins, history offsets) truncate it; everything else sees the fraction.
   */
  frac?: boolean;
}

export function t(name: string, q: Qual = SERIES): PType {
  return { name, q };
}

export const NA_T: PType = { name: "na", q: CONST };
export const VOID_T: PType = { name: "void", q: SERIES };

export function isNumeric(name: string): boolean {
  return name === "int" || name === "float";
}

export function qualName(q: Qual): string {
  return QUAL_NAMES[q];
}

export function typeText(ty: PType): string {
  if (ty.name === "tuple") return "[" + (ty.elems ?? []).map(typeText).join(", ") + "]";
  if (ty.name === "na" || ty.name === "void") return ty.name;
  return qualName(ty.q) + " " + ty.name;
}

export function maxQ(a: Qual, b: Qual): Qual {
  return a > b ? a : b;
}

/** Parsed catalogue type texts (only catalogue texts are parsed, so it stays bounded): the checker reads
 *  the same few hundred texts at every call site. */
const PARSED = new Map<string, PType>();

/**
 * Parses "series int", "simple float", "array<float>", "[series float, series float]". Each call gets
 * its own object (callers refine a variable's type in place, `frac`), copied from a cached parse.
 */
export function parseTypeText(s: string): PType {
  let ty = PARSED.get(s);
  if (!ty) {
    ty = parseTypeTextUncached(s);
    PARSED.set(s, ty);
  }
  return copyType(ty);
}

/** A type's own copy (tuple elements included). */
export function copyType(ty: PType): PType {
  return ty.elems ? { name: ty.name, q: ty.q, elems: ty.elems.map(copyType) } : { name: ty.name, q: ty.q };
}

function parseTypeTextUncached(s: string): PType {
  s = s.trim();
  if (s.startsWith("[")) {
    const elems = splitTop(s.slice(1, -1)).map(parseTypeTextUncached);
    return { name: "tuple", q: SERIES, elems };
  }
  const m = /^(const|input|simple|series)\s+(.*)$/.exec(s);
  if (m) return { name: m[2]!.trim(), q: QUAL_NAMES.indexOf(m[1] as "const") as Qual };
  return { name: s, q: SERIES };
}

function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "<" || ch === "[") depth++;
    else if (ch === ">" || ch === "]") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur);
  return out;
}

/** `array<float>` -> "float"; `matrix<int>` -> "int"; `map<string,float>` -> "float" (value). */
export function elemOf(name: string): string | undefined {
  const lt = name.indexOf("<");
  if (lt < 0 || !name.endsWith(">")) return undefined;
  const inner = splitTop(name.slice(lt + 1, -1)).map((x) => x.trim());
  return inner[inner.length - 1];
}

export function keyOf(name: string): string | undefined {
  const lt = name.indexOf("<");
  if (lt < 0) return undefined;
  return splitTop(name.slice(lt + 1, -1))[0]?.trim();
}

/** "array" for "array<float>", the name itself otherwise. */
export function genericHead(name: string): string {
  const lt = name.indexOf("<");
  return lt < 0 ? name : name.slice(0, lt);
}

/** Can a value of type `from` be used where `to` is expected (implicit casts of v5/v6)? */
export function assignable(from: string, to: string, version: number): boolean {
  if (from === to || from === "na") return true;
  if (from === "int" && to === "float") return true;
  if (version < 6 && (from === "int" || from === "float") && to === "bool") return true;
  if (to === "na") return true;
  return false;
}

/** The common type of two branches (if/switch/ternary), or undefined when incompatible. */
export function unify(a: string, b: string, version: number): string | undefined {
  if (a === b) return a;
  if (a === "na") return b;
  if (b === "na") return a;
  if (a === "void") return b;
  if (b === "void") return a;
  if (isNumeric(a) && isNumeric(b)) return "float";
  if (version < 6 && ((a === "bool" && isNumeric(b)) || (b === "bool" && isNumeric(a)))) return "bool";
  return undefined;
}

/** The na value of a type in the value representation of src/core/values.ts. */
export function naOf(name: string, version: number): unknown {
  if (name === "int" || name === "float" || name === "color" || name === "na") return NaN;
  if (name === "bool") return version >= 6 ? false : false;
  return null;
}

export const DRAWING_TYPES = new Set(["line", "label", "box", "table", "linefill", "polyline", "chart.point"]);
