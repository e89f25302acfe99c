// The children of the resolved program's nodes (ir.ts), in one place: every pass that walks the program
// (compile eligibility, the hoist plan's write counts, the interpreter's shadow-slot bound, the code
// generator's statement scan) asks these two functions for a node's direct children and decides itself
// what to do at each node. The switch is exhaustive, so a new IR node kind fails to compile here
// rather than being skipped silently by one of the passes.
import type { RBlock, RExpr, RStmt, VarSlot } from "./ir.js";

/**
 * Visits the direct children of `e` in evaluation order: child expressions through `onExpr`, nested
 * blocks (branches, loop bodies, a user function instance's body after its arguments) through `onBlock`.
 * A callback returning something other than undefined stops the walk, and that value is returned.
 */
export function eachChild<R>(
  e: RExpr,
  onExpr: (x: RExpr) => R | undefined,
  onBlock: (b: RBlock) => R | undefined,
): R | undefined {
  switch (e.k) {
    case "const":
    case "load":
    case "bvar":
      return undefined;
    case "hist":
    case "colHist":
      return onExpr(e.off);
    case "histExpr":
      return onExpr(e.e) ?? onExpr(e.off);
    case "unary":
    case "cast":
      return onExpr(e.e);
    case "bin":
    case "and":
    case "or":
      return onExpr(e.l) ?? onExpr(e.r);
    case "tern":
      return onExpr(e.c) ?? onExpr(e.a) ?? onExpr(e.b);
    case "call":
      return each(e.args, onExpr);
    case "ucall":
      return each(e.args, onExpr) ?? onBlock(e.inst.body);
    case "tuple":
      return each(e.elems, onExpr);
    case "if":
      return onExpr(e.cond) ?? onBlock(e.then) ?? (e.else ? onBlock(e.else) : undefined);
    case "switch": {
      const r = e.subject ? onExpr(e.subject) : undefined;
      if (r !== undefined) return r;
      for (const c of e.cases) {
        const x = (c.test ? onExpr(c.test) : undefined) ?? onBlock(c.body);
        if (x !== undefined) return x;
      }
      return undefined;
    }
    case "for":
      return onExpr(e.from) ?? onExpr(e.to) ?? (e.step ? onExpr(e.step) : undefined) ?? onBlock(e.body);
    case "forin":
      return onExpr(e.iterable) ?? onBlock(e.body);
    case "while":
      return onExpr(e.cond) ?? onBlock(e.body);
    case "field":
    case "copy":
      return onExpr(e.obj);
    case "new":
      return each(e.fields, onExpr);
    default:
      return unknownNode(e);
  }
}

/** Visits the expressions a statement evaluates, in order (a field assignment's object, then its value). */
export function eachStmtChild<R>(s: RStmt, onExpr: (x: RExpr) => R | undefined): R | undefined {
  switch (s.k) {
    case "decl":
    case "tdecl":
      return onExpr(s.init);
    case "assign":
      return onExpr(s.value);
    case "fassign":
      return onExpr(s.obj) ?? onExpr(s.value);
    case "expr":
      return onExpr(s.e);
    case "break":
    case "continue":
      return undefined;
    default:
      return unknownNode(s);
  }
}

/** Visits a block's statements in order, stopping at the first that returns a value. */
export function eachStmt<R>(b: RBlock, onStmt: (s: RStmt) => R | undefined): R | undefined {
  for (const s of b.stmts) {
    const r = onStmt(s);
    if (r !== undefined) return r;
  }
  return undefined;
}

function each<R>(xs: readonly (RExpr | undefined)[], onExpr: (x: RExpr) => R | undefined): R | undefined {
  for (const x of xs) {
    if (x === undefined) continue;
    const r = onExpr(x);
    if (r !== undefined) return r;
  }
  return undefined;
}

function unknownNode(node: never): never {
  throw new Error(`resolved program: unknown node kind '${(node as { k: string }).k}'`);
}

/**
 * Every variable write of a block (declarations, assignments, tuple declarations, loop counters),
 * nested blocks and user-function bodies included (each body once). `onStmt` and `onExpr` see every
 * statement and expression on the way, for a caller that counts more (check/const-vars.ts).
 */
export function walkWrites(
  b: RBlock,
  wrote: (v: VarSlot | null | undefined) => void,
  onStmt?: (s: RStmt) => void,
  onExpr?: (e: RExpr) => void,
): void {
  const seen = new Set<RBlock>();
  const block = (x: RBlock): undefined => {
    if (seen.has(x)) return;
    seen.add(x);
    for (const s of x.stmts) {
      if (s.k === "decl" || s.k === "assign") wrote(s.v);
      else if (s.k === "tdecl") s.vs.forEach(wrote);
      onStmt?.(s);
      eachStmtChild(s, expr);
    }
  };
  const expr = (e: RExpr): undefined => {
    if (e.k === "for") wrote(e.counter);
    else if (e.k === "forin") {
      wrote(e.index);
      wrote(e.value);
    }
    onExpr?.(e);
    eachChild(e, expr, block);
  };
  block(b);
}
