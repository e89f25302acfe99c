// Statements and blocks: the statement loop with error recovery, the dispatch on the first tokens
// of a line, declarations of variables (plain, var/varip, typed, qualified, tuple), assignments and
// indented blocks. Control structures live in control.ts, functions/types/enums/imports in
// declarations.ts. Each logical line may hold several statements joined by `,`. A failed statement
// is reported once and skipped (Parser.recover).

import type {
  Assign,
  AssignOp,
  Block,
  DeclMode,
  Expr,
  Ident,
  Qualifier,
  Stmt,
  TupleDecl,
  TypeRef,
  VarDecl,
} from "./ast.js";
import { parseEnumDecl, parseExport, parseFuncDecl, parseImport, parseTypeDecl } from "./declarations.js";
import { Codes } from "./diagnostics.js";
import { parseExpression, parseName } from "./expressions.js";
import { ParseAbort, type Parser } from "./parser.js";
import { ASSIGN_OPS, QUALIFIERS, RESERVED, TYPE_KEYWORDS, type Token } from "./tokens.js";
import { looksLikeTypedDecl, parseTypeRef, printType } from "./types.js";

/** Statements until the end of the current block (a Dedent, left for the caller) or of the input. */
export function parseStatements(p: Parser, topLevel: boolean): Stmt[] {
  const body: Stmt[] = [];
  for (;;) {
    const t = p.peek();
    if (t.kind === "Newline") {
      p.next();
      continue;
    }
    if (t.kind === "EOF") break;
    if (t.kind === "Dedent") {
      if (!topLevel) break;
      p.next();
      continue;
    }
    if (t.kind === "Indent") {
      skipUnexpectedIndent(p);
      continue;
    }
    const depth = p.depth;
    const chain = p.chain;
    try {
      parseStatementLine(p, body);
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
      p.depth = depth;
      p.chain = chain;
      p.recover();
    }
  }
  return body;
}

/** A line indented deeper than its block without a reason (no header above it): reported, skipped. */
export function skipUnexpectedIndent(p: Parser): void {
  const indent = p.next();
  const t = p.peek();
  if (!indent.reported)
    p.error(
      Codes.UnexpectedIndent,
      "Unexpected indentation: this line is indented but does not follow an if, for, while, switch, function or type header",
      p.tokenSpan(t),
    );
  let depth = 1;
  while (depth > 0 && !p.atKind("EOF")) {
    const k = p.next().kind;
    if (k === "Indent") depth++;
    else if (k === "Dedent") depth--;
  }
}

/** One logical line: `stmt`, or `stmt, stmt, ...`, then the end of the line. A statement joins
 * `body` only once what follows it is valid, so a line with an error leaves no half statement. */
function parseStatementLine(p: Parser, body: Stmt[]): void {
  let stmt = parseStatement(p);
  while (p.at(",") && !p.afterBlock()) {
    p.next();
    body.push(stmt);
    if (atLineEnd(p)) {
      expectLineEnd(p);
      return;
    }
    stmt = parseStatement(p);
  }
  expectLineEnd(p);
  body.push(stmt);
}

export function atLineEnd(p: Parser): boolean {
  const k = p.peek().kind;
  return k === "Newline" || k === "EOF" || k === "Dedent" || p.tokens[p.pos - 1]?.kind === "Dedent";
}

/** A statement ends at a line break, or right after a block it ended with (`x = if c` + block). */
export function expectLineEnd(p: Parser): void {
  const k = p.peek().kind;
  if (k === "Newline") {
    p.next();
    return;
  }
  if (k === "EOF" || k === "Dedent" || p.tokens[p.pos - 1]?.kind === "Dedent") return;
  p.unexpected("end of line");
}

export function parseStatement(p: Parser): Stmt {
  const t = p.peek();
  if (t.kind === "Ident") {
    switch (t.text) {
      case "import":
        return parseImport(p);
      case "export":
        return parseExport(p);
      case "var":
      case "varip":
        return parseVarDecl(p, t.text, p.next());
      case "break":
        p.next();
        return { kind: "Break", span: p.tokenSpan(t) };
      case "continue":
        p.next();
        return { kind: "Continue", span: p.tokenSpan(t) };
      case "type":
        if (p.atName(1) && atHeaderEnd(p, 2)) return parseTypeDecl(p, t, false);
        break;
      case "enum":
        if (p.atName(1) && atHeaderEnd(p, 2)) return parseEnumDecl(p, t, false);
        break;
      case "method":
        if (p.atName(1) && p.at("(", 2)) return parseFuncDecl(p, t, true, false);
        break;
      default:
        if (QUALIFIERS.has(t.text) && (looksLikeTypedDecl(p, 1) || (p.atName(1) && p.at("=", 2))))
          return parseVarDecl(p, "plain", t);
        break;
    }
    if (t.text === "else")
      p.fail(Codes.Mismatched, "'else' without a matching 'if' above it at the same indentation", p.tokenSpan(t));
    if (RESERVED.has(t.text) && (p.at("=", 1) || p.at(":=", 1)))
      p.fail(
        Codes.ReservedWord,
        `'${t.text}' is a reserved keyword and cannot be used as a variable name`,
        p.tokenSpan(t),
      );
    if (p.at("(", 1) && isFunctionHeader(p)) return parseFuncDecl(p, t, false, false);
    if (p.at("=", 1) && p.atName()) return parseVarDecl(p, "plain", t);
    if (looksLikeTypedDecl(p, 0)) return parseVarDecl(p, "plain", t);
  }
  if (t.kind === "Punct" && t.text === "[") {
    const op = tupleTargetOperator(p);
    if (op === "=") return parseTupleDecl(p);
    if (op === ":=")
      p.fail(
        Codes.TupleReassign,
        "Tuples cannot be reassigned with ':='; declare new variables with '[a, b] = ...'",
        p.tokenSpan(t),
      );
  }
  const expr = parseExpression(p);
  const op = p.peek();
  if (op.kind === "Punct" && ASSIGN_OPS.has(op.text)) return parseAssign(p, expr);
  if (op.kind === "Punct" && op.text === "=") {
    p.fail(Codes.BadAssignTarget, "Cannot declare this: the left side of '=' must be a variable name", expr.span);
  }
  return { kind: "ExprStmt", expr, span: expr.span };
}

function atHeaderEnd(p: Parser, offset: number): boolean {
  const k = p.peek(offset).kind;
  return k === "Newline" || k === "EOF";
}

/** `name(...) =>`: scans to the matching parenthesis without consuming anything. */
export function isFunctionHeader(p: Parser): boolean {
  let depth = 0;
  for (let i = 1; ; i++) {
    const t = p.peek(i);
    if (t.kind === "EOF" || t.kind === "Newline") return false;
    if (t.kind !== "Punct") continue;
    if (t.text === "(" || t.text === "[") depth++;
    else if (t.text === ")" || t.text === "]") {
      depth--;
      if (depth === 0) return p.at("=>", i + 1);
    }
  }
}

/** For a line starting with `[`: the operator after the matching `]` when the bracket holds only
 * names (a tuple declaration target), else null. */
function tupleTargetOperator(p: Parser): string | null {
  for (let i = 1; ; i++) {
    const t = p.peek(i);
    if (t.kind === "Punct" && t.text === "]") {
      const after = p.peek(i + 1);
      return after.kind === "Punct" ? after.text : null;
    }
    if (!(t.kind === "Ident" || (t.kind === "Punct" && t.text === ","))) return null;
  }
}

function parseTupleDecl(p: Parser): TupleDecl {
  const start = p.next();
  const names: Ident[] = [];
  while (!p.at("]")) {
    names.push(parseName(p, "a variable name or '_'"));
    if (!p.eat(",")) break;
  }
  p.expect("]", "']'");
  if (names.length === 0) p.fail(Codes.BadTupleName, "A tuple declaration needs at least one name", p.spanFrom(start));
  p.expect("=");
  const init = parseExpression(p);
  return { kind: "TupleDecl", names, init, span: p.spanFrom(start) };
}

function parseAssign(p: Parser, target: Expr): Assign {
  const op = p.next().text as AssignOp;
  if (target.kind !== "Ident" && target.kind !== "Member")
    p.fail(
      Codes.BadAssignTarget,
      `Cannot assign to this expression with '${op}': expecting a variable or an object field`,
      target.span,
    );
  const value = parseExpression(p);
  return { kind: "Assign", op, target, value, span: p.spanFromSpan(target.span) };
}

/** `[var|varip] [const|simple|series] [type] name = init`; `start` is the first token of the statement. */
export function parseVarDecl(p: Parser, mode: DeclMode, start: Token, exported = false): VarDecl {
  let qualifier: Qualifier | undefined;
  if (QUALIFIERS.has(p.peek().text) && p.atKind("Ident") && (looksLikeTypedDecl(p, 1) || (p.atName(1) && p.at("=", 2))))
    qualifier = p.next().text as Qualifier;
  let type: TypeRef | undefined;
  if (looksLikeTypedDecl(p, 0)) type = parseTypeRef(p);
  const name = parseName(p, "a variable name");
  if (TYPE_KEYWORDS.has(name.name) && !type)
    p.fail(Codes.ReservedWord, `'${name.name}' is a type keyword and cannot be used as a variable name`, name.span);
  if (p.at(":=")) p.unexpected("'=' (a declaration uses '='; ':=' reassigns an existing variable)");
  p.expect("=", type ? `'=' and an initial value (e.g. '${printType(type)} ${name.name} = na')` : "'='");
  const init = parseExpression(p);
  const decl: VarDecl = { kind: "VarDecl", mode, name, init, span: p.spanFrom(start) };
  if (qualifier) decl.qualifier = qualifier;
  if (type) decl.type = type;
  if (exported) decl.exported = true;
  return decl;
}

/** A line break, then an indented block. */
export function parseBlock(p: Parser): Block {
  if (!p.atKind("Newline")) p.unexpected("end of line");
  p.next();
  if (!p.atKind("Indent")) {
    const t = p.peek();
    p.fail(Codes.ExpectedBlock, "Expecting an indented block (4 spaces or a tab) on the next line", p.tokenSpan(t));
  }
  const indent = p.next();
  p.blockDepth++;
  let body: Stmt[];
  try {
    body = parseStatements(p, false);
  } finally {
    p.blockDepth--;
  }
  if (p.atKind("Dedent")) p.next();
  const first = body[0],
    lastStmt = body[body.length - 1];
  const span =
    first && lastStmt
      ? {
          start: first.span.start,
          end: lastStmt.span.end,
          line: first.span.line,
          column: first.span.column,
          endLine: lastStmt.span.endLine,
          endColumn: lastStmt.span.endColumn,
        }
      : p.tokenSpan(indent);
  return { kind: "Block", body, span };
}
