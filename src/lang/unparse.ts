// Prints an AST back as normalised Pine: 4-space indentation, one statement a line, single spaces
// around binary operators, `name = value` arguments. Without `comments` only doc annotations are
// kept; given the lexer's comments (the formatter's mode, `format`), every comment is printed where it
// was (own-line comments above the statement they preceded, end-of-line ones after it) and blank lines
// between groups of statements stay (runs of them become one). For any tree produced by `parse`,
// `parse(unparse(ast))` gives the same tree (spans aside); hand-built trees get the parentheses their
// shape needs.

import type { Block, DocAnnotation, Expr, If, Param, Program, Stmt } from "./ast.js";
import { CommentFeed } from "./comment-feed.js";
import type { Comment } from "./lexer.js";
import { printType } from "./types.js";

const INDENT = "    ";

// Binding strength of each expression form, loosest first (see expressions.ts).
const P_TERNARY = 1,
  P_OR = 2,
  P_AND = 3,
  P_EQ = 5,
  P_REL = 6,
  P_ADD = 7,
  P_MUL = 8,
  P_UNARY = 9,
  P_POSTFIX = 10,
  P_ATOM = 11;

const BINARY_PREC: Record<string, number> = {
  or: P_OR,
  and: P_AND,
  "==": P_EQ,
  "!=": P_EQ,
  "<": P_REL,
  "<=": P_REL,
  ">": P_REL,
  ">=": P_REL,
  "+": P_ADD,
  "-": P_ADD,
  "*": P_MUL,
  "/": P_MUL,
  "%": P_MUL,
};

export interface UnparseOptions {
  /** The source's comments (`tokenize(source).comments`): print them all, keep blank-line groups. */
  comments?: readonly Comment[];
}

/** The comments being placed by the current `unparse` call (printing is synchronous, never re-entered). */
let feed: CommentFeed | null = null;

export function unparse(ast: Program, options: UnparseOptions = {}): string {
  if (options.comments) return unparseWithComments(ast, options.comments);
  const out: string[] = [`//@version=${ast.version}`];
  for (const d of ast.doc) out.push(docLine(d));
  out.push("");
  for (const s of ast.body) printStmt(s, 0, out);
  return out.join("\n") + "\n";
}

/** The formatter's print: the comments themselves carry `//@version` and the doc annotations. */
function unparseWithComments(ast: Program, comments: readonly Comment[]): string {
  const out: string[] = [];
  feed = new CommentFeed(comments, ast);
  try {
    for (const s of ast.body) printStmt(s, 0, out);
    feed.rest(out);
  } finally {
    feed = null;
  }
  return out.join("\n") + "\n";
}

function docLine(d: DocAnnotation): string {
  const parts = [`//@${d.tag}`];
  if (d.name) parts.push(d.name);
  if (d.text) parts.push(d.text);
  return parts.join(" ");
}

function printDocs(doc: DocAnnotation[] | undefined, pad: string, out: string[]): void {
  // with comments, the annotation lines are printed as the comments they are
  if (doc && !feed) for (const d of doc) out.push(pad + docLine(d));
}

function printStmt(s: Stmt, level: number, out: string[]): void {
  if (!feed) {
    printStmtText(s, level, out);
    return;
  }
  const pad = INDENT.repeat(level);
  const f = feed;
  f.before(s.span.line, pad, out);
  const nested = hasBlock(s);
  const { lead, trail } = f.around(s.span.line, nested ? s.span.line : s.span.endLine);
  for (const c of lead) out.push(pad + c);
  f.printed(s.span.line); // the first line, before any block inside it
  const mine: string[] = [];
  printStmtText(s, level, mine);
  if (trail && mine.length) {
    const first = mine[0]!;
    const nl = first.indexOf("\n");
    mine[0] = nl < 0 ? `${first} ${trail}` : `${first.slice(0, nl)} ${trail}${first.slice(nl)}`;
  }
  out.push(...mine);
  f.printed(s.span.endLine);
  if (nested) f.blockTail(level + 1, out);
}

/** Statements whose printed form holds blocks of statements (their comments are placed inside). */
function hasBlock(s: Stmt): boolean {
  switch (s.kind) {
    case "FuncDecl":
      return !s.singleLine;
    case "TypeDecl":
    case "EnumDecl":
      return true;
    case "VarDecl":
    case "TupleDecl":
      return isControl(s.init);
    case "Assign":
      return isControl(s.value);
    case "ExprStmt":
      return isControl(s.expr);
    default:
      return false;
  }
}

function printStmtText(s: Stmt, level: number, out: string[]): void {
  const pad = INDENT.repeat(level);
  switch (s.kind) {
    case "FuncDecl": {
      printDocs(s.doc, pad, out);
      const head = `${s.exported ? "export " : ""}${s.isMethod ? "method " : ""}${s.name.name}(${s.params.map(printParam).join(", ")}) =>`;
      if (s.singleLine) out.push(pad + head + " " + inlineBody(s.body, level));
      else {
        out.push(pad + head);
        printBlock(s.body, level + 1, out);
      }
      return;
    }
    case "TypeDecl":
      printDocs(s.doc, pad, out);
      out.push(`${pad}${s.exported ? "export " : ""}type ${s.name.name}`);
      for (const f of s.fields)
        memberLine(
          f.span,
          `${pad}${INDENT}`,
          `${f.varip ? "varip " : ""}${printType(f.type)} ${f.name.name}${f.default ? " = " + expr(f.default, P_TERNARY, level + 1) : ""}`,
          out,
        );
      return;
    case "EnumDecl":
      printDocs(s.doc, pad, out);
      out.push(`${pad}${s.exported ? "export " : ""}enum ${s.name.name}`);
      for (const m of s.members)
        memberLine(m.span, `${pad}${INDENT}`, `${m.name.name}${m.title ? " = " + m.title.raw : ""}`, out);
      return;
    default:
      if (s.kind === "VarDecl") printDocs(s.doc, pad, out);
      out.push(pad + stmtText(s, level));
  }
}

/** A field of a type or a member of an enum, with its comments when they are kept. */
function memberLine(span: Stmt["span"], pad: string, text: string, out: string[]): void {
  if (!feed) {
    out.push(pad + text);
    return;
  }
  feed.before(span.line, pad, out);
  const { lead, trail } = feed.around(span.line, span.endLine);
  for (const c of lead) out.push(pad + c);
  out.push(pad + text + (trail ? ` ${trail}` : ""));
  feed.printed(span.endLine);
}

/** A statement that starts on the current line (control structures continue on following lines). */
function stmtText(s: Stmt, level: number): string {
  switch (s.kind) {
    case "VarDecl": {
      const parts: string[] = [];
      if (s.exported) parts.push("export");
      if (s.mode !== "plain") parts.push(s.mode);
      if (s.qualifier) parts.push(s.qualifier);
      if (s.type) parts.push(printType(s.type));
      parts.push(s.name.name, "=", expr(s.init, P_TERNARY, level));
      return parts.join(" ");
    }
    case "TupleDecl":
      return `[${s.names.map((n) => n.name).join(", ")}] = ${expr(s.init, P_TERNARY, level)}`;
    case "Assign":
      return `${expr(s.target, P_POSTFIX, level)} ${s.op} ${expr(s.value, P_TERNARY, level)}`;
    case "ExprStmt":
      return expr(s.expr, P_TERNARY, level);
    case "Import":
      return `import ${s.namespace}/${s.name}/${s.version}${s.alias ? " as " + s.alias.name : ""}`;
    case "Break":
      return "break";
    case "Continue":
      return "continue";
    default: {
      // declarations inside a single-line body or a switch arm: print them on their own lines
      const lines: string[] = [];
      printStmt(s, level, lines);
      return lines.join("\n").trimStart();
    }
  }
}

function inlineBody(b: Block, level: number): string {
  return b.body.map((s) => stmtText(s, level)).join(", ");
}

function printBlock(b: Block, level: number, out: string[]): void {
  for (const s of b.body) printStmt(s, level, out);
  feed?.blockTail(level, out);
}

/** Block text starting with a line break, for control structures printed inside an expression. */
function blockText(b: Block, level: number): string {
  const lines: string[] = [];
  printBlock(b, level, lines);
  return lines.length ? "\n" + lines.join("\n") : "";
}

function printParam(p: Param): string {
  const parts: string[] = [];
  if (p.qualifier) parts.push(p.qualifier);
  if (p.type) parts.push(printType(p.type));
  parts.push(p.name.name);
  let s = parts.join(" ");
  if (p.default) s += " = " + expr(p.default, P_TERNARY, 0);
  return s;
}

function precOf(e: Expr): number {
  switch (e.kind) {
    case "Ternary":
      return P_TERNARY;
    case "Binary":
      return BINARY_PREC[e.op]!;
    case "Unary":
      return P_UNARY;
    case "Member":
    case "Call":
    case "Index":
      return P_POSTFIX;
    default:
      return P_ATOM;
  }
}

/** `e` printed so that it binds at least as tightly as `min`; `level` is the statement's indent level. */
function expr(e: Expr, min: number, level: number): string {
  const s = exprText(e, level);
  return precOf(e) < min ? `(${s})` : s;
}

function exprText(e: Expr, level: number): string {
  switch (e.kind) {
    case "Number":
      return e.raw;
    case "String":
      return e.raw; // a string wrapped over lines keeps its line break and indentation
    case "Bool":
      return e.value ? "true" : "false";
    case "Na":
      return "na";
    case "Color":
      return e.raw;
    case "Ident":
      return e.name;
    case "Member":
      return `${expr(e.object, P_POSTFIX, level)}.${e.property.name}`;
    case "Call": {
      const targs = e.typeArgs ? `<${e.typeArgs.map(printType).join(", ")}>` : "";
      const args = e.args.map((a) => (a.name ? `${a.name.name} = ` : "") + expr(a.value, P_TERNARY, level));
      return `${expr(e.callee, P_POSTFIX, level)}${targs}(${args.join(", ")})`;
    }
    case "Index":
      return `${expr(e.object, P_POSTFIX, level)}[${expr(e.index, P_TERNARY, level)}]`;
    case "Unary":
      if (e.op === "not") return `not ${expr(e.operand, P_UNARY, level)}`;
      return e.op + expr(e.operand, P_UNARY, level);
    case "Binary": {
      const p = BINARY_PREC[e.op]!;
      return `${expr(e.left, p, level)} ${e.op} ${expr(e.right, p + 1, level)}`;
    }
    case "Ternary":
      return `${expr(e.cond, P_OR, level)} ? ${expr(e.then, P_TERNARY, level)} : ${expr(e.else, P_TERNARY, level)}`;
    case "Tuple":
      return `[${e.elements.map((x) => expr(x, P_TERNARY, level)).join(", ")}]`;
    case "Paren":
      return `(${expr(e.expr, P_TERNARY, level)})`;
    case "If":
      return ifText(e, level);
    case "Switch": {
      const pad = INDENT.repeat(level + 1);
      let s = "switch" + (e.subject ? " " + expr(e.subject, P_TERNARY, level) : "");
      for (const c of e.cases) {
        const test = c.test ? expr(c.test, P_TERNARY, level + 1) + " =>" : "=>";
        const only = c.body.body.length === 1 ? c.body.body[0]! : null;
        if (only && isSimple(only)) s += `\n${pad}${test} ${stmtText(only, level + 1)}`;
        else s += `\n${pad}${test}${blockText(c.body, level + 2)}`;
      }
      return s;
    }
    case "For": {
      let s = `for ${e.counterType ? printType(e.counterType) + " " : ""}${e.counter.name} = ${expr(e.from, P_TERNARY, level)} to ${expr(e.to, P_TERNARY, level)}`;
      if (e.step) s += ` by ${expr(e.step, P_TERNARY, level)}`;
      return s + blockText(e.body, level + 1);
    }
    case "ForIn": {
      const target = e.index ? `[${e.index.name}, ${e.value.name}]` : e.value.name;
      return `for ${target} in ${expr(e.iterable, P_TERNARY, level)}${blockText(e.body, level + 1)}`;
    }
    case "While":
      return `while ${expr(e.cond, P_TERNARY, level)}${blockText(e.body, level + 1)}`;
  }
}

function ifText(e: If, level: number): string {
  let s = `if ${expr(e.cond, P_TERNARY, level)}${blockText(e.then, level + 1)}`;
  if (e.else) {
    const pad = INDENT.repeat(level);
    s += `\n${pad}else` + (e.else.kind === "If" ? " " + ifText(e.else, level) : blockText(e.else, level + 1));
  }
  return s;
}

/** Statements that fit on the line of a switch arm. */
function isSimple(s: Stmt): boolean {
  const e =
    s.kind === "ExprStmt"
      ? s.expr
      : s.kind === "VarDecl" || s.kind === "TupleDecl"
        ? s.init
        : s.kind === "Assign"
          ? s.value
          : null;
  if (s.kind === "Break" || s.kind === "Continue") return true;
  return e !== null && !isControl(e);
}

function isControl(e: Expr): boolean {
  return e.kind === "If" || e.kind === "Switch" || e.kind === "For" || e.kind === "ForIn" || e.kind === "While";
}
