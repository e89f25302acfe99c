// A program without the output statements a run's caller does not read: for a run read only for its
// strategy's closed trades (an optimize trial, RunOptions.tradesOnly), the top-level plot-family
// statements (plot, plotshape, plotchar, plotarrow, plotbar, plotcandle, bgcolor, barcolor) are left
// out when leaving them out cannot change anything else the run does: their value is unused (a bare
// statement, not `p = plot(...)` that fill() could read) and their arguments can neither fail nor
// change state, so they read variables, builtin variables, constant-offset history and constants,
// with arithmetic, comparisons, conditionals and pure builtins (BuiltinDef.pure: a function of the
// arguments alone that never throws, such as na, nz, color.new, math.abs). Anything else (a user
// function, ta.*, request.*, collections, a dynamic history offset) keeps its statement. Measured: such plots were 5-20% of a trial of a per-bar strategy.

import type { RBlock, RExpr, ResolvedProgram, RStmt } from "./ir.js";

/** Builtins whose calls write only the run's outputs. */
const OUTPUTS = new Set(["plot", "plotshape", "plotchar", "plotarrow", "plotbar", "plotcandle", "bgcolor", "barcolor"]);

const trimmed = new WeakMap<ResolvedProgram, ResolvedProgram>();

/** `prog` with its droppable output statements left out (`prog` itself when there is none). */
export function withoutUnreadOutputs(prog: ResolvedProgram): ResolvedProgram {
  let out = trimmed.get(prog);
  if (out === undefined) {
    const stmts = prog.body.stmts.filter((s) => !droppable(s));
    out = stmts.length === prog.body.stmts.length ? prog : { ...prog, body: { ...prog.body, stmts } as RBlock };
    trimmed.set(prog, out);
  }
  return out;
}

function droppable(s: RStmt): boolean {
  return (
    s.k === "expr" && s.e.k === "call" && OUTPUTS.has(s.e.name) && s.e.args.every((a) => a === undefined || quiet(a))
  );
}

/** Whether evaluating `e` can neither fail nor change any state. */
function quiet(e: RExpr): boolean {
  switch (e.k) {
    case "const":
    case "load":
    case "bvar":
      return true;
    case "hist":
    case "colHist":
      return e.off.k === "const";
    case "unary":
    case "cast":
      return quiet(e.e);
    case "bin":
      // (string concatenation allocates: a run's memory budget counts it)
      return !e.str && quiet(e.l) && quiet(e.r);
    case "and":
    case "or":
      return quiet(e.l) && quiet(e.r);
    case "tern":
      return quiet(e.c) && quiet(e.a) && quiet(e.b);
    case "call":
      return e.def.pure === true && e.args.every((a) => a === undefined || quiet(a));
    default:
      return false;
  }
}
