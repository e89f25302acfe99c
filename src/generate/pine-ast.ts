// Builders for the nodes of src/lang/ast.ts, so the offline backend writes Pine as a tree and lets
// `unparse` do the printing (parenthesisation, spacing, indentation). Built nodes carry an empty
// span: they never came from source text, and the verify step re-parses the printed script anyway.

import type {
  Arg,
  BinaryOp,
  Block,
  Call,
  Expr,
  ExprStmt,
  Ident,
  If,
  Member,
  NumberLit,
  Stmt,
  StringLit,
  VarDecl,
} from "../lang/ast.js";

const NO_SPAN = { start: 0, end: 0, line: 0, column: 0, endLine: 0, endColumn: 0 };

export function ident(name: string): Ident {
  return { kind: "Ident", name, span: NO_SPAN };
}

/** `a.b.c` from a dotted name. */
export function dotted(name: string): Ident | Member {
  const parts = name.split(".");
  let e: Ident | Member = ident(parts[0]!);
  for (const p of parts.slice(1)) e = { kind: "Member", object: e, property: ident(p), span: NO_SPAN };
  return e;
}

/** A number literal printed the way a person writes it (`2.0` stays a float where Pine needs one). */
export function num(value: number, isInt = Number.isInteger(value)): NumberLit {
  const raw = isInt ? String(value) : Number.isInteger(value) ? value.toFixed(1) : String(value);
  return { kind: "Number", value, isInt, raw, span: NO_SPAN };
}

export function str(value: string): StringLit {
  return { kind: "String", value, raw: JSON.stringify(value), span: NO_SPAN };
}

export function bool(value: boolean): Expr {
  return { kind: "Bool", value, span: NO_SPAN };
}

export const na: Expr = { kind: "Na", span: NO_SPAN };

/** Positional arguments first, then named ones in the order given. */
export function call(name: string, positional: Expr[] = [], named: Record<string, Expr | undefined> = {}): Call {
  const args: Arg[] = positional.map((value) => ({ kind: "Arg", value, span: NO_SPAN }));
  for (const [k, value] of Object.entries(named))
    if (value !== undefined) args.push({ kind: "Arg", name: ident(k), value, span: NO_SPAN });
  return { kind: "Call", callee: dotted(name), args, span: NO_SPAN };
}

export function bin(op: BinaryOp, left: Expr, right: Expr): Expr {
  return { kind: "Binary", op, left, right, span: NO_SPAN };
}

/** Left-nested `a and b and c` (undefined items skipped); undefined when nothing is left. */
export function and(...items: (Expr | undefined)[]): Expr | undefined {
  const xs = items.filter((x): x is Expr => x !== undefined);
  return xs.length === 0 ? undefined : xs.reduce((a, b) => bin("and", a, b));
}

export function not(operand: Expr): Expr {
  return { kind: "Unary", op: "not", operand, span: NO_SPAN };
}

export function neg(operand: Expr): Expr {
  return { kind: "Unary", op: "-", operand, span: NO_SPAN };
}

export function ternary(cond: Expr, then: Expr, otherwise: Expr): Expr {
  return { kind: "Ternary", cond, then, else: otherwise, span: NO_SPAN };
}

export function tuple(elements: Expr[]): Expr {
  return { kind: "Tuple", elements, span: NO_SPAN };
}

export function decl(name: string, init: Expr, mode: VarDecl["mode"] = "plain", type?: string): VarDecl {
  return {
    kind: "VarDecl",
    mode,
    name: ident(name),
    init,
    span: NO_SPAN,
    ...(type ? { type: { kind: "TypeRef", name: type, args: [], span: NO_SPAN } } : {}),
  };
}

export function tupleDecl(names: string[], init: Expr): Stmt {
  return { kind: "TupleDecl", names: names.map(ident), init, span: NO_SPAN };
}

export function assign(name: string, value: Expr): Stmt {
  return { kind: "Assign", op: ":=", target: ident(name), value, span: NO_SPAN };
}

export function exprStmt(expr: Expr): ExprStmt {
  return { kind: "ExprStmt", expr, span: NO_SPAN };
}

function block(body: Stmt[]): Block {
  return { kind: "Block", body, span: NO_SPAN };
}

export function ifStmt(cond: Expr, then: Stmt[], otherwise?: Stmt[]): ExprStmt {
  const e: If = {
    kind: "If",
    cond,
    then: block(then),
    span: NO_SPAN,
    ...(otherwise ? { else: block(otherwise) } : {}),
  };
  return exprStmt(e);
}

/** `x[n]`: the value `n` bars ago. */
export function history(object: Expr, n: number): Expr {
  return { kind: "Index", object, index: num(n, true), span: NO_SPAN };
}

export function paren(expr: Expr): Expr {
  return { kind: "Paren", expr, span: NO_SPAN };
}

export function program(body: Stmt[]): import("../lang/ast.js").Program {
  return { kind: "Program", version: 6, body, doc: [], span: NO_SPAN };
}
