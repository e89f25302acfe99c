// Constant evaluation of declaration arguments and `[]` offsets: literals, builtin constants,
// arithmetic, comparisons, `and`/`or`/`not`, ternaries and the math builtins whose result on const
// arguments is const (math.min/max/abs/floor/ceil, int(), float()). Returns undefined when the
// expression is not constant.
import type { Expr } from "../lang/ast.js";
import { packColor } from "../core/values.js";

export function dottedName(e: Expr): string | undefined {
  if (e.kind === "Ident") return e.name;
  if (e.kind === "Member") {
    const o = dottedName(e.object);
    return o === undefined ? undefined : o + "." + e.property.name;
  }
  return undefined;
}

export function constEval(e: Expr, constants: (name: string) => unknown, version: number): unknown {
  switch (e.kind) {
    case "Number":
      return e.value;
    case "String":
      return e.value;
    case "Bool":
      return e.value;
    case "Na":
      return NaN;
    case "Color":
      return packColor(e.r, e.g, e.b, e.a);
    case "Paren":
      return constEval(e.expr, constants, version);
    case "Ident":
    case "Member": {
      const n = dottedName(e);
      return n === undefined ? undefined : constants(n);
    }
    case "Unary": {
      const v = constEval(e.operand, constants, version);
      if (e.op === "not") return typeof v === "boolean" ? !v : undefined;
      if (typeof v !== "number") return undefined;
      return e.op === "-" ? -v : v;
    }
    case "Binary": {
      const l = constEval(e.left, constants, version);
      const r = constEval(e.right, constants, version);
      if (l === undefined || r === undefined) return undefined;
      if (typeof l === "string" && typeof r === "string") {
        if (e.op === "+") return l + r;
        return compare(e.op, l, r);
      }
      if (typeof l === "boolean" && typeof r === "boolean") {
        if (e.op === "and") return l && r;
        if (e.op === "or") return l || r;
        if (e.op === "==") return l === r;
        if (e.op === "!=") return l !== r;
        return undefined;
      }
      if (typeof l !== "number" || typeof r !== "number") return undefined;
      const cmp = compare(e.op, l, r);
      if (cmp !== undefined) return cmp;
      switch (e.op) {
        case "+":
          return l + r;
        case "-":
          return l - r;
        case "*":
          return l * r;
        case "/": {
          const q = l / r;
          return version < 6 && Number.isInteger(l) && Number.isInteger(r) ? Math.trunc(q) : q;
        }
        case "%":
          return l % r;
        default:
          return undefined;
      }
    }
    case "Ternary": {
      const c = constEval(e.cond, constants, version);
      if (typeof c !== "boolean") return undefined;
      return constEval(c ? e.then : e.else, constants, version);
    }
    case "Call": {
      const name = dottedName(e.callee);
      const fn = name === undefined ? undefined : PURE[name];
      if (!fn || e.args.some((a) => a.name)) return undefined;
      const xs: number[] = [];
      for (const a of e.args) {
        const v = constEval(a.value, constants, version);
        if (typeof v !== "number") return undefined;
        xs.push(v);
      }
      return fn(xs);
    }
    case "Tuple": {
      const out: unknown[] = [];
      for (const el of e.elements) {
        const v = constEval(el, constants, version);
        if (v === undefined) return undefined;
        out.push(v);
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** A comparison of two numbers or two strings; undefined for other operators. */
function compare(op: string, l: number | string, r: number | string): boolean | undefined {
  switch (op) {
    case "==":
      return l === r;
    case "!=":
      return l !== r;
    case "<":
      return l < r;
    case "<=":
      return l <= r;
    case ">":
      return l > r;
    case ">=":
      return l >= r;
    default:
      return undefined;
  }
}

/**
 * Builtins whose result is const when every argument is (the reference lists "const int/float" among
 * their returns), by positional arguments. An na argument or result is not constant here.
 */
const PURE: Record<string, (xs: number[]) => number | undefined> = {
  "math.min": (xs) => (xs.length >= 2 && xs.every(Number.isFinite) ? Math.min(...xs) : undefined),
  "math.max": (xs) => (xs.length >= 2 && xs.every(Number.isFinite) ? Math.max(...xs) : undefined),
  "math.abs": (xs) => (xs.length === 1 && Number.isFinite(xs[0]) ? Math.abs(xs[0]!) : undefined),
  "math.floor": (xs) => (xs.length === 1 && Number.isFinite(xs[0]) ? Math.floor(xs[0]!) : undefined),
  "math.ceil": (xs) => (xs.length === 1 && Number.isFinite(xs[0]) ? Math.ceil(xs[0]!) : undefined),
  int: (xs) => (xs.length === 1 && Number.isFinite(xs[0]) ? Math.trunc(xs[0]!) : undefined),
  float: (xs) => (xs.length === 1 && Number.isFinite(xs[0]) ? xs[0] : undefined),
};
