// What a block may change, read off the resolved program before it runs: whether it assigns a given
// variable (a loop's `to` bound that the body never assigns need not be read again after every
// iteration), and whether it may raise break/continue for its loop (else the loop's driver does not
// look at the flag between statements). Both answers may be "yes" where a run would say no, never the
// other way round.

import type { RBlock, RExpr, RStmt, VarSlot } from "../check/ir.js";
import { eachChild, eachStmt, eachStmtChild } from "../check/walk.js";
import { isNumericSlot } from "./state.js";

/** Whether running the block may assign `v` (`v := ...`, `v += ...`) anywhere inside it, nested blocks included. */
export function blockAssigns(b: RBlock | null | undefined, v: VarSlot): boolean {
  return !!b && eachStmt(b, (s) => stmtAssigns(s, v) || undefined) === true;
}

function stmtAssigns(s: RStmt, v: VarSlot): boolean {
  // slots are numbered per store (numeric or not): the same number in the same store is the same variable
  if (s.k === "assign" && s.v.slot === v.slot && isNumericSlot(s.v) === isNumericSlot(v)) return true;
  return eachStmtChild(s, (x) => exprAssigns(x, v) || undefined) === true;
}

/**
 * Assignments live in blocks (if, switch, loops), walked through check/walk.ts. A user function's
 * body cannot assign a variable of its caller's scope (Pine forbids it), so a call is walked through
 * its arguments only.
 */
function exprAssigns(e: RExpr, v: VarSlot): boolean {
  if (e.k === "ucall") return e.args.some((a) => a !== undefined && exprAssigns(a, v));
  return (
    eachChild(
      e,
      (x) => exprAssigns(x, v) || undefined,
      (b) => blockAssigns(b, v) || undefined,
    ) === true
  );
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
