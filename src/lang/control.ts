// Control structures, all usable as expressions: if / else if / else, switch (with or without a
// subject), for .. to .. by, for .. in (values, [index, value], map [key, value]) and while. Their
// bodies are indented blocks on the following lines.

import type { Expr, For, ForIn, Ident, If, Switch, SwitchCase, TypeRef, While } from "./ast.js";
import { parseIndentedLines, parseInlineBody } from "./declarations.js";
import { parseExpression, parseName } from "./expressions.js";
import type { Parser } from "./parser.js";
import { parseBlock, expectLineEnd } from "./statements.js";
import type { Token } from "./tokens.js";
import { parseTypeRef } from "./types.js";

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
  p.blockDepth++;
  try {
    node.cases = parseIndentedLines(
      p,
      "Expecting indented 'value => result' lines after 'switch'",
      parseSwitchCase,
      false,
    );
  } finally {
    p.blockDepth--;
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
