// Declarations that only appear at the top of a script: functions and methods (single-line or
// with a block body), `type` with fields, `enum` with members, `import`, and `export` in front of
// any of them (or of a `const` variable).

import type {
  Block,
  EnumDecl,
  EnumMember,
  FieldDecl,
  FuncDecl,
  Import,
  Param,
  Qualifier,
  Stmt,
  TypeDecl,
  TypeRef,
} from "./ast.js";
import { Codes } from "./diagnostics.js";
import { parseExpression, parseName } from "./expressions.js";
import { ParseAbort, type Parser } from "./parser.js";
import {
  atLineEnd,
  expectLineEnd,
  isFunctionHeader,
  parseBlock,
  parseStatement,
  parseVarDecl,
  skipUnexpectedIndent,
} from "./statements.js";
import { QUALIFIERS, type Token } from "./tokens.js";
import { parseTypeRef } from "./types.js";

export function parseExport(p: Parser): Stmt {
  const start = p.next();
  p.requireTopLevel("Exports", start);
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

export function parseImport(p: Parser): Import {
  const start = p.next();
  p.requireTopLevel("Imports", start);
  const first = p.peek();
  let lastTok: Token | null = null;
  while (!p.atKind("Newline") && !p.atKind("EOF") && !p.atWord("as") && !p.at(",")) lastTok = p.next();
  const raw = lastTok ? p.source.slice(first.start, lastTok.end).replace(/\s+/g, "") : "";
  const parts = raw.split("/");
  const version = Number(parts[2]);
  if (parts.length !== 3 || !parts[0] || !parts[1] || !/^\d+$/.test(parts[2] ?? ""))
    p.fail(
      Codes.BadImport,
      "Invalid import: expecting 'import <user>/<library>/<version> [as <alias>]'",
      lastTok ? p.spanFrom(first) : p.tokenSpan(start),
    );
  const node: Import = { kind: "Import", namespace: parts[0]!, name: parts[1]!, version, span: p.spanFrom(start) };
  if (p.eatWord("as")) {
    node.alias = parseName(p, "an alias name after 'as'");
    node.span = p.spanFrom(start);
  }
  return node;
}

export function parseFuncDecl(p: Parser, start: Token, isMethod: boolean, exported: boolean): FuncDecl {
  if (isMethod) p.expectWord("method");
  p.requireTopLevel(isMethod ? "Methods" : "Functions", p.peek());
  const name = parseName(p, "a function name");
  p.expect("(");
  const params: Param[] = [];
  while (!p.at(")")) {
    params.push(parseParam(p));
    if (!p.eat(",")) break;
  }
  p.expect(")", params.length ? "')' or ','" : "')'");
  p.expect("=>", "'=>'");
  p.blockDepth++;
  try {
    const singleLine = !p.atKind("Newline");
    const body = singleLine ? parseInlineBody(p) : parseBlock(p);
    return { kind: "FuncDecl", name, params, body, singleLine, isMethod, exported, span: p.spanFrom(start) };
  } finally {
    p.blockDepth--;
  }
}

function parseParam(p: Parser): Param {
  const start = p.peek();
  let qualifier: Qualifier | undefined;
  if (QUALIFIERS.has(start.text) && start.kind === "Ident" && p.atName(1)) qualifier = p.next().text as Qualifier;
  let type: TypeRef | undefined;
  if (p.atName() && (p.atName(1) || p.at("<", 1) || p.at(".", 1) || (p.at("[", 1) && p.at("]", 2))))
    type = parseTypeRef(p);
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
export function parseInlineBody(p: Parser): Block {
  const first = parseStatement(p);
  const body: Stmt[] = [first];
  while (p.at(",") && !atLineEnd(p)) {
    p.next();
    if (atLineEnd(p)) break;
    body.push(parseStatement(p));
  }
  return { kind: "Block", body, span: p.spanFromSpan(first.span) };
}

/** Indented lines under a `type` or `enum` header, one item a line, each recovered on its own. */
/**
 * The indented lines after a header (type fields, enum members, switch arms): one item a line, blank
 * lines skipped, each bad line recovered on its own. `lineEnd` is false for items that end their own
 * line (a switch arm with a block body).
 */
export function parseIndentedLines<T>(p: Parser, expecting: string, parseItem: (p: Parser) => T, lineEnd = true): T[] {
  const items: T[] = [];
  if (!p.atKind("Newline")) p.unexpected("end of line");
  p.next();
  if (!p.atKind("Indent")) p.fail(Codes.ExpectedBlock, expecting, p.tokenSpan(p.peek()));
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
    const chain = p.chain;
    try {
      items.push(parseItem(p));
      if (lineEnd) expectLineEnd(p);
    } catch (e) {
      if (!(e instanceof ParseAbort)) throw e;
      p.depth = depth;
      p.chain = chain;
      p.recover();
    }
  }
  return items;
}

export function parseTypeDecl(p: Parser, start: Token, exported: boolean): TypeDecl {
  p.requireTopLevel("Types", start);
  p.expectWord("type");
  const name = parseName(p, "a type name");
  const fields = parseIndentedLines(p, "Expecting indented field declarations on the next lines", parseField);
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

export function parseEnumDecl(p: Parser, start: Token, exported: boolean): EnumDecl {
  p.requireTopLevel("Enums", start);
  p.expectWord("enum");
  const name = parseName(p, "an enum name");
  const members = parseIndentedLines(p, "Expecting indented enum members on the next lines", parseEnumMember);
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
