// What a block may change, read off the resolved program before it runs: whether it assigns a given
// variable (a loop's `to` bound that the body never assigns need not be read again after every
// iteration), and whether it may raise break/continue for its loop (else the loop's driver does not
// look at the flag between statements). Both answers may be "yes" where a run would say no, never the
// other way round.

import type { RBlock, RExpr, RStmt, VarSlot } from "../check/ir.js";
import { isNumericSlot } from "./state.js";

/** Whether running the block may assign `v` (`v := ...`, `v += ...`) anywhere inside it, nested blocks included. */
export function blockAssigns(b: RBlock | null | undefined, v: VarSlot): boolean {
  return !!b && b.stmts.some((s) => stmtAssigns(s, v));
}

function stmtAssigns(s: RStmt, v: VarSlot): boolean {
  switch (s.k) {
    case "assign":
      // slots are numbered per store (numeric or not): the same number in the same store is the same variable
      return (s.v.slot === v.slot && isNumericSlot(s.v) === isNumericSlot(v)) || exprAssigns(s.value, v);
    case "fassign":
      return exprAssigns(s.obj, v) || exprAssigns(s.value, v);
    case "decl":
    case "tdecl":
      return exprAssigns(s.init, v);
    case "expr":
      return exprAssigns(s.e, v);
    case "break":
    case "continue":
      return false;
  }
}

/**
 * Assignments live in blocks (if, switch, loops); every other expression is walked for the blocks it
 * may hold. A user function's body cannot assign a variable of its caller's scope (Pine forbids it),
 * so a call is walked through its arguments only.
 */
function exprAssigns(e: RExpr | null | undefined, v: VarSlot): boolean {
  if (!e) return false;
  const any = (xs: (RExpr | null | undefined)[]) => xs.some((x) => exprAssigns(x, v));
  switch (e.k) {
    case "const":
    case "load":
    case "bvar":
      return false;
    case "hist":
    case "colHist":
      return exprAssigns(e.off, v);
    case "histExpr":
      return any([e.e, e.off]);
    case "unary":
    case "cast":
      return exprAssigns(e.e, v);
    case "bin":
    case "and":
    case "or":
      return any([e.l, e.r]);
    case "tern":
      return any([e.c, e.a, e.b]);
    case "call":
    case "ucall":
      return any(e.args);
    case "tuple":
      return any(e.elems);
    case "if":
      return exprAssigns(e.cond, v) || blockAssigns(e.then, v) || blockAssigns(e.else, v);
    case "switch":
      return exprAssigns(e.subject, v) || e.cases.some((c) => exprAssigns(c.test, v) || blockAssigns(c.body, v));
    case "for":
      return any([e.from, e.to, e.step]) || blockAssigns(e.body, v);
    case "forin":
      return exprAssigns(e.iterable, v) || blockAssigns(e.body, v);
    case "while":
      return exprAssigns(e.cond, v) || blockAssigns(e.body, v);
    case "field":
    case "copy":
      return exprAssigns(e.obj, v);
    case "new":
      return any(e.fields);
  }
}

/**
 * Whether running the block may leave a break/continue for the enclosing loop: a break/continue
 * statement in it or in an if/switch branch inside it (a nested loop consumes its own; a user
 * function's body has no loop of ours to break).
 */
export function blockMayCtl(b: RBlock | null | undefined): boolean {
  return !!b && b.stmts.some(stmtMayCtl);
}

function stmtMayCtl(s: RStmt): boolean {
  switch (s.k) {
    case "break":
    case "continue":
      return true;
    case "expr":
      return exprMayCtl(s.e);
    case "decl":
    case "tdecl":
      return exprMayCtl(s.init);
    case "assign":
    case "fassign":
      return exprMayCtl(s.value);
  }
}

/** `if` and `switch` are the expressions holding blocks whose break/continue reaches our loop. */
function exprMayCtl(e: RExpr): boolean {
  if (e.k === "if") return blockMayCtl(e.then) || blockMayCtl(e.else);
  if (e.k === "switch") return e.cases.some((c) => blockMayCtl(c.body));
  return false;
}
