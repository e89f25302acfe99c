// Small builders of resolved-program values shared by the checker's modules (checker.ts, statements.ts),
// here so statements.ts needs nothing of checker.ts at run time (it takes the Checker as a parameter).
import type { RExpr } from "./ir.js";

/** `r` converted to bool (an explicit cast node; the backends read its `to`). */
export function toBool(r: RExpr): RExpr {
  return { k: "cast", to: "bool", e: r, t: { name: "bool", q: r.t.q } };
}

/** The na value of a type, as a constant folds it: NaN for numbers and colours, false for bool, else null. */
export function naValue(name: string): unknown {
  if (name === "int" || name === "float" || name === "color") return NaN;
  if (name === "bool") return false;
  return null;
}
