// Constant evaluation of declaration arguments and `[]` offsets: literals, builtin constants and
// arithmetic on them. Returns undefined when the expression is not constant.
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
      if (typeof l === "string" && typeof r === "string" && e.op === "+") return l + r;
      if (typeof l !== "number" || typeof r !== "number") return undefined;
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
