// Statements and blocks: declarations (plain, var/varip, typed, qualified, tuple), assignments,
// control structures (if/switch/for/for-in/while, also used as expressions), functions and methods,
// `type`, `enum`, `import`, `export`, break/continue. Each logical line may hold several statements
// joined by `,`. A failed statement is reported once and skipped (Parser.recover).

import type {
  Assign, AssignOp, Block, DeclMode, EnumDecl, EnumMember, Expr, FieldDecl, For, ForIn, FuncDecl, Ident,
  If, Import, Param, Qualifier, Stmt, Switch, SwitchCase, TupleDecl, TypeDecl, TypeRef, VarDecl, While,
} from "./ast.js";
import { Codes } from "./diagnostics.js";
import { parseExpression, parseName } from "./expressions.js";
import { ParseAbort, type Parser } from "./parser.js";
import { ASSIGN_OPS, QUALIFIERS, RESERVED, TYPE_KEYWORDS, type Token } from "./tokens.js";
import { looksLikeTypedDecl, parseTypeRef } from "./types.js";

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
    try {
      parseStatementLine(p, body);
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
      p.depth = depth;
      p.recover();
    }
  }
  return body;
}

/** A line indented deeper than its block without a reason (no header above it): reported, skipped. */
function skipUnexpectedIndent(p: Parser): void {
  p.next();
  const t = p.peek();
  p.error(Codes.UnexpectedIndent, "Unexpected indentation: this line is indented but does not follow an if, for, while, switch, function or type header",
    p.tokenSpan(t));
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

function atLineEnd(p: Parser): boolean {
  const k = p.peek().kind;
  return k === "Newline" || k === "EOF" || k === "Dedent" || p.tokens[p.pos - 1]?.kind === "Dedent";
}

/** A statement ends at a line break, or right after a block it ended with (`x = if c` + block). */
function expectLineEnd(p: Parser): void {
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
    if (t.text === "else") p.fail(Codes.Mismatched, "'else' without a matching 'if' above it at the same indentation", p.tokenSpan(t));
    if (RESERVED.has(t.text) && (p.at("=", 1) || p.at(":=", 1)))
      p.fail(Codes.ReservedWord, `'${t.text}' is a reserved keyword and cannot be used as a variable name`, p.tokenSpan(t));
    if (p.at("(", 1) && isFunctionHeader(p)) return parseFuncDecl(p, t, false, false);
    if (p.at("=", 1) && p.atName()) return parseVarDecl(p, "plain", t);
    if (looksLikeTypedDecl(p, 0)) return parseVarDecl(p, "plain", t);
  }
  if (t.kind === "Punct" && t.text === "[") {
    const op = tupleTargetOperator(p);
    if (op === "=") return parseTupleDecl(p);
    if (op === ":=") p.fail(Codes.TupleReassign, "Tuples cannot be reassigned with ':='; declare new variables with '[a, b] = ...'", p.tokenSpan(t));
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
function isFunctionHeader(p: Parser): boolean {
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
    p.fail(Codes.BadAssignTarget, `Cannot assign to this expression with '${op}': expecting a variable or an object field`, target.span);
  const value = parseExpression(p);
  return { kind: "Assign", op, target, value, span: p.spanFromSpan(target.span) };
}

/** `[var|varip] [const|simple|series] [type] name = init`; `start` is the first token of the statement. */
function parseVarDecl(p: Parser, mode: DeclMode | "var" | "varip", start: Token, exported = false): VarDecl {
  let qualifier: Qualifier | undefined;
  if (QUALIFIERS.has(p.peek().text) && p.atKind("Ident") && (looksLikeTypedDecl(p, 1) || (p.atName(1) && p.at("=", 2))))
    qualifier = p.next().text as Qualifier;
  let type: TypeRef | undefined;
  if (looksLikeTypedDecl(p, 0)) type = parseTypeRef(p);
  const name = parseName(p, "a variable name");
  if (TYPE_KEYWORDS.has(name.name) && !type)
    p.fail(Codes.ReservedWord, `'${name.name}' is a type keyword and cannot be used as a variable name`, name.span);
  if (p.at(":=")) p.unexpected("'=' (a declaration uses '='; ':=' reassigns an existing variable)");
  p.expect("=", "'='");
  const init = parseExpression(p);
  const decl: VarDecl = { kind: "VarDecl", mode: mode as DeclMode, name, init, span: p.spanFrom(start) };
  if (qualifier) decl.qualifier = qualifier;
  if (type) decl.type = type;
  if (exported) decl.exported = true;
  return decl;
}

function parseExport(p: Parser): Stmt {
  const start = p.next();
  const t = p.peek();
  if (t.kind === "Ident") {
    if (t.text === "type" && p.atName(1)) return parseTypeDecl(p, start, true);
    if (t.text === "enum" && p.atName(1)) return parseEnumDecl(p, start, true);
    if (t.text === "method" && p.atName(1)) return parseFuncDecl(p, start, true, true);
    if (t.text === "const") return parseVarDecl(p, "plain", start, true);
    if (p.at("(", 1) && isFunctionHeader(p)) return parseFuncDecl(p, start, false, true);
  }
  return p.unexpected("a function, method, type, enum or 'const' declaration after 'export'");
}

function parseImport(p: Parser): Import {
  const start = p.next();
  const first = p.peek();
  let lastTok: Token | null = null;
  while (!p.atKind("Newline") && !p.atKind("EOF") && !p.atWord("as") && !p.at(",")) lastTok = p.next();
  const raw = lastTok ? p.source.slice(first.start, lastTok.end).replace(/\s+/g, "") : "";
  const parts = raw.split("/");
  const version = Number(parts[2]);
  if (parts.length !== 3 || !parts[0] || !parts[1] || !/^\d+$/.test(parts[2] ?? ""))
    p.fail(Codes.BadImport, "Invalid import: expecting 'import <user>/<library>/<version> [as <alias>]'", lastTok ? p.spanFrom(first) : p.tokenSpan(start));
  const node: Import = { kind: "Import", namespace: parts[0]!, name: parts[1]!, version, span: p.spanFrom(start) };
  if (p.eatWord("as")) {
    node.alias = parseName(p, "an alias name after 'as'");
    node.span = p.spanFrom(start);
  }
  return node;
}

function parseFuncDecl(p: Parser, start: Token, isMethod: boolean, exported: boolean): FuncDecl {
  if (isMethod) p.expectWord("method");
  if (p.functionDepth > 0) p.error(Codes.NestedFunction, "Functions can only be declared at the top level of a script", p.tokenSpan(p.peek()));
  const name = parseName(p, "a function name");
  p.expect("(");
  const params: Param[] = [];
  while (!p.at(")")) {
    params.push(parseParam(p));
    if (!p.eat(",")) break;
  }
  p.expect(")", params.length ? "')' or ','" : "')'");
  p.expect("=>", "'=>'");
  p.functionDepth++;
  try {
    const singleLine = !p.atKind("Newline");
    const body = singleLine ? parseInlineBody(p) : parseBlock(p);
    return { kind: "FuncDecl", name, params, body, singleLine, isMethod, exported, span: p.spanFrom(start) };
  } finally {
    p.functionDepth--;
  }
}

function parseParam(p: Parser): Param {
  const start = p.peek();
  let qualifier: Qualifier | undefined;
  if (QUALIFIERS.has(start.text) && start.kind === "Ident" && p.atName(1)) qualifier = p.next().text as Qualifier;
  let type: TypeRef | undefined;
  if (p.atName() && (p.atName(1) || p.at("<", 1) || p.at(".", 1) || (p.at("[", 1) && p.at("]", 2)))) type = parseTypeRef(p);
  const name = parseName(p, "a parameter name");
  const param: Param = { kind: "Param", name, span: p.spanFrom(start) };
  if (qualifier) param.qualifier = qualifier;
  if (type) param.type = type;
  if (p.eat("=")) {
    param.default = parseExpression(p);
    param.span = p.spanFrom(start);
  }
  return param;
}

/** The statements written on the same line after `=>`. */
function parseInlineBody(p: Parser): Block {
  const first = parseStatement(p);
  const body: Stmt[] = [first];
  while (p.at(",") && !atLineEnd(p)) {
    p.next();
    if (atLineEnd(p)) break;
    body.push(parseStatement(p));
  }
  return { kind: "Block", body, span: p.spanFromSpan(first.span) };
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
  const body = parseStatements(p, false);
  if (p.atKind("Dedent")) p.next();
  const first = body[0], lastStmt = body[body.length - 1];
  const span = first && lastStmt
    ? { start: first.span.start, end: lastStmt.span.end, line: first.span.line, column: first.span.column, endLine: lastStmt.span.endLine, endColumn: lastStmt.span.endColumn }
    : p.tokenSpan(indent);
  return { kind: "Block", body, span };
}

export function parseIf(p: Parser): If {
  const start = p.next();
  const cond = parseExpression(p);
  const then = parseBlock(p);
  const node: If = { kind: "If", cond, then, span: p.spanFrom(start) };
  if (p.atWord("else") && p.tokens[p.pos - 1]?.kind === "Dedent") {
    p.next();
    node.else = p.atWord("if") ? parseIf(p) : parseBlock(p);
    node.span = p.spanFrom(start);
  }
  return node;
}

export function parseSwitch(p: Parser): Switch {
  const start = p.next();
  const node: Switch = { kind: "Switch", cases: [], span: p.tokenSpan(start) };
  if (!p.atKind("Newline")) node.subject = parseExpression(p);
  if (!p.atKind("Newline")) p.unexpected("end of line");
  p.next();
  if (!p.atKind("Indent")) p.fail(Codes.ExpectedBlock, "Expecting indented 'value => result' lines after 'switch'", p.tokenSpan(p.peek()));
  p.next();
  for (;;) {
    const k = p.peek().kind;
    if (k === "Newline") {
      p.next();
      continue;
    }
    if (k === "Dedent") {
      p.next();
      break;
    }
    if (k === "EOF") break;
    if (k === "Indent") {
      skipUnexpectedIndent(p);
      continue;
    }
    const depth = p.depth;
    try {
      node.cases.push(parseSwitchCase(p));
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
      p.depth = depth;
      p.recover();
    }
  }
  node.span = p.spanFrom(start);
  return node;
}

function parseSwitchCase(p: Parser): SwitchCase {
  const start = p.peek();
  const test = p.at("=>") ? null : parseExpression(p);
  p.expect("=>", "'=>'");
  if (p.atKind("Newline")) {
    const body = parseBlock(p);
    return { kind: "SwitchCase", test, body, span: p.spanFrom(start) };
  }
  const body = parseInlineBody(p);
  expectLineEnd(p);
  return { kind: "SwitchCase", test, body, span: p.spanFromSpan(p.tokenSpan(start)) };
}

export function parseFor(p: Parser): For | ForIn {
  const start = p.next();
  if (p.at("[")) {
    p.next();
    const index = parseName(p, "an index variable name");
    p.expect(",", "','");
    const value = parseName(p, "a value variable name");
    p.expect("]", "']'");
    return parseForInRest(p, start, value, index);
  }
  if (p.atName() && p.atWord("in", 1)) {
    const value = parseName(p, "a variable name");
    return parseForInRest(p, start, value);
  }
  let counterType: TypeRef | undefined;
  if (p.atName() && p.atName(1) && p.at("=", 2)) counterType = parseTypeRef(p);
  const counter = parseName(p, "a loop counter name");
  p.expect("=", "'=' or 'in' (for i = start to end, for x in collection)");
  const from = parseExpression(p);
  if (!p.atWord("to")) p.unexpected("'to'");
  p.next();
  const to = parseExpression(p);
  let step: Expr | undefined;
  if (p.eatWord("by")) step = parseExpression(p);
  const body = parseBlock(p);
  const node: For = { kind: "For", counter, from, to, body, span: p.spanFrom(start) };
  if (counterType) node.counterType = counterType;
  if (step) node.step = step;
  return node;
}

function parseForInRest(p: Parser, start: Token, value: Ident, index?: Ident): ForIn {
  if (!p.atWord("in")) p.unexpected("'in'");
  p.next();
  const iterable = parseExpression(p);
  const body = parseBlock(p);
  const node: ForIn = { kind: "ForIn", value, iterable, body, span: p.spanFrom(start) };
  if (index) node.index = index;
  return node;
}

export function parseWhile(p: Parser): While {
  const start = p.next();
  const cond = parseExpression(p);
  const body = parseBlock(p);
  return { kind: "While", cond, body, span: p.spanFrom(start) };
}

/** Indented lines under a `type` or `enum` header, one item a line, each recovered on its own. */
function parseMemberLines<T>(p: Parser, what: string, parseItem: (p: Parser) => T): T[] {
  const items: T[] = [];
  if (!p.atKind("Newline")) p.unexpected("end of line");
  p.next();
  if (!p.atKind("Indent")) p.fail(Codes.ExpectedBlock, `Expecting indented ${what} on the next lines`, p.tokenSpan(p.peek()));
  p.next();
  for (;;) {
    const k = p.peek().kind;
    if (k === "Newline") {
      p.next();
      continue;
    }
    if (k === "Dedent") {
      p.next();
      break;
    }
    if (k === "EOF") break;
    if (k === "Indent") {
      skipUnexpectedIndent(p);
      continue;
    }
    const depth = p.depth;
    try {
      items.push(parseItem(p));
      expectLineEnd(p);
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
      p.depth = depth;
      p.recover();
    }
  }
  return items;
}

function parseTypeDecl(p: Parser, start: Token, exported: boolean): TypeDecl {
  p.expectWord("type");
  const name = parseName(p, "a type name");
  const fields = parseMemberLines(p, "field declarations", parseField);
  return { kind: "TypeDecl", name, fields, exported, span: p.spanFrom(start) };
}

function parseField(p: Parser): FieldDecl {
  const start = p.peek();
  const varip = p.eatWord("varip");
  const type = parseTypeRef(p);
  const name = parseName(p, "a field name");
  const field: FieldDecl = { kind: "FieldDecl", varip, type, name, span: p.spanFrom(start) };
  if (p.eat("=")) {
    field.default = parseExpression(p);
    field.span = p.spanFrom(start);
  }
  return field;
}

function parseEnumDecl(p: Parser, start: Token, exported: boolean): EnumDecl {
  p.expectWord("enum");
  const name = parseName(p, "an enum name");
  const members = parseMemberLines(p, "enum members", parseEnumMember);
  return { kind: "EnumDecl", name, members, exported, span: p.spanFrom(start) };
}

function parseEnumMember(p: Parser): EnumMember {
  const start = p.peek();
  const name = parseName(p, "an enum member name");
  const member: EnumMember = { kind: "EnumMember", name, span: p.spanFrom(start) };
  if (p.eat("=")) {
    const t = p.peek();
    if (t.kind !== "String") p.unexpected("a string title for the enum member");
    p.next();
    member.title = { kind: "String", value: t.value as string, raw: t.text, span: p.tokenSpan(t) };
    member.span = p.spanFrom(start);
  }
  return member;
}
