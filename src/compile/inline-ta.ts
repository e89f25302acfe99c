// ta.cross / crossover / crossunder written out in the generated loop (issue 18: the generated code
// near the floor). A call the whole-series passes cannot take (an argument computed bar by bar, a call
// under an `if` or on the right of a lazy `and`) goes through its impl: an argument array, the kernel
// lookup, a WebAssembly call whose state handling copies the site's record to its shadow (~30 ns a
// call). Written out, its state is two locals of the run and a call is two compares.
//
// Only where that is the same computation: in the plain variant's loop function (no bar is executed
// twice, so the kernel's roll-back of a repeated call on one bar never happens), at a call evaluated
// at most once per execution of the bar (not under a loop, whose iterations would call it again on one
// bar, nor in a user function's body), with the kernels present (the impl's missing-kernels error),
// which the plain variant's callers ensure by asking for the hoisting variant only then.
import type { RBlock, RExpr, RStmt } from "../check/ir.js";
import { eachChild, eachStmt, eachStmtChild } from "../check/walk.js";

/** The crosses written out, and their kind as the kernel's cross_next numbers them. */
const CROSS_KIND: Record<string, 0 | 1 | 2> = { "ta.cross": 0, "ta.crossover": 1, "ta.crossunder": 2 };

/** Whether `name` is a builtin written out by `crossText`. */
export function isInlineCross(name: string): boolean {
  return name in CROSS_KIND;
}

/**
 * The calls among `body`'s statements that run at most once per execution of the bar: everything
 * outside loops (their headers included: a `while` condition and a `for` bound are read again on
 * every iteration) and outside user functions' bodies.
 */
export function oncePerBarCalls(body: RBlock): Set<RExpr> {
  const once = new Set<RExpr>();
  const expr = (e: RExpr): undefined => {
    if (e.k === "for" || e.k === "while" || e.k === "forin") return undefined;
    if (e.k === "call") once.add(e);
    if (e.k === "ucall") {
      // its arguments are evaluated once, where it is called; its body is the function's
      for (const a of e.args) expr(a);
      return undefined;
    }
    return eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => eachStmt(b, stmt);
  const stmt = (s: RStmt): undefined => eachStmtChild(s, expr);
  block(body);
  return once;
}

/**
 * The expression of one written-out cross: `x` and `y` are the arguments' code (int/float, in
 * argument order), `t` four temps, `pa`/`pb` the run locals holding the last pair with both values
 * defined (NaN before the first). As cross_next: an na argument gives false and leaves the pair; else
 * over is x > y after a pair with pa <= pb, under x < y after pa >= pb.
 */
export function crossText(
  name: string,
  x: string,
  y: string,
  t: [string, string, string],
  pa: string,
  pb: string,
): string {
  const kind = CROSS_KIND[name];
  const [a, b, r] = t;
  const over = `${a} > ${b} && ${pa} <= ${pb}`;
  const under = `${a} < ${b} && ${pa} >= ${pb}`;
  const hit = kind === 1 ? over : kind === 2 ? under : `(${over}) || (${under})`;
  // (num(): a number argument as it is, anything else na; int/float arguments are numbers already)
  return (
    `(${a} = ${x}, ${b} = ${y}, ${a} = typeof ${a} === "number" ? ${a} : NaN, ${b} = typeof ${b} === "number" ? ${b} : NaN, ` +
    `${a} === ${a} && ${b} === ${b} ? (${r} = ${hit}, ${pa} = ${a}, ${pb} = ${b}, ${r}) : false)`
  );
}
