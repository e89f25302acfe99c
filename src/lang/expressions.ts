// Expressions, from the lowest precedence to the highest (TradingView's operator table):
//   ?: (right-assoc) < or < and < == != < < <= > >= < + - < * / % < unary + - not < postfix
// `not` binds like unary minus, so `not a == b` is `(not a) == b`; write `not (a == b)`.
// Postfix covers member access `a.b`, calls `f(x, name = y)`, generic calls `array.new<float>()`
// and history references `x[n]`. `if`, `switch`, `for` and `while` are expressions too: their
// blocks follow on the next lines (see statements.ts).

import type { Arg, BinaryOp, Call, Expr, Ident, Tuple, TypeRef } from "./ast.js";
import { Codes } from "./diagnostics.js";
import type { Parser } from "./parser.js";
import { parseFor, parseIf, parseSwitch, parseWhile } from "./control.js";
import { RESERVED, type Token } from "./tokens.js";
import { tryParseTypeRef } from "./types.js";

export function parseExpression(p: Parser): Expr {
  p.enter();
  const e = parseTernary(p);
  p.leave();
  return e;
}

function parseTernary(p: Parser): Expr {
  const cond = parseOr(p);
  if (!p.at("?") || p.afterBlock()) return cond;
  p.next();
  const then = parseTernary(p);
  p.expect(":", "':' of the conditional expression");
  const otherwise = parseTernary(p);
  return { kind: "Ternary", cond, then, else: otherwise, span: p.spanFromSpan(cond.span) };
}

function parseOr(p: Parser): Expr {
  let left = parseAnd(p);
  let links = 0;
  while (p.atWord("or") && !p.afterBlock()) {
    p.next();
    p.link();
    links++;
    const right = parseAnd(p);
    left = { kind: "Binary", op: "or", left, right, span: p.spanFromSpan(left.span) };
  }
  p.unlink(links);
  return left;
}

function parseAnd(p: Parser): Expr {
  let left = parseEquality(p);
  let links = 0;
  while (p.atWord("and") && !p.afterBlock()) {
    p.next();
    p.link();
    links++;
    const right = parseEquality(p);
    left = { kind: "Binary", op: "and", left, right, span: p.spanFromSpan(left.span) };
  }
  p.unlink(links);
  return left;
}

function parseBinaryLevel(p: Parser, ops: readonly string[], sub: (p: Parser) => Expr): Expr {
  let left = sub(p);
  let links = 0;
  for (;;) {
    const t = p.peek();
    if (t.kind !== "Punct" || !ops.includes(t.text) || p.afterBlock()) {
      p.unlink(links);
      return left;
    }
    p.next();
    p.link();
    links++;
    const after = p.peek();
    if ((t.text === "<" || t.text === ">") && after.kind === "Punct" && after.text === t.text && after.start === t.end)
      p.fail(Codes.BitwiseOp, `Pine has no bitwise operators ('${t.text}${t.text}')`, {
        ...p.tokenSpan(t),
        end: after.end,
        endColumn: after.endCol,
      });
    const right = sub(p);
    left = { kind: "Binary", op: t.text as BinaryOp, left, right, span: p.spanFromSpan(left.span) };
  }
}

const EQUALITY = ["==", "!="];
const RELATIONAL = ["<", "<=", ">", ">="];
const ADDITIVE = ["+", "-"];
const MULTIPLICATIVE = ["*", "/", "%"];

function parseEquality(p: Parser): Expr {
  return parseBinaryLevel(p, EQUALITY, parseRelational);
}
function parseRelational(p: Parser): Expr {
  return parseBinaryLevel(p, RELATIONAL, parseAdditive);
}
function parseAdditive(p: Parser): Expr {
  return parseBinaryLevel(p, ADDITIVE, parseMultiplicative);
}
function parseMultiplicative(p: Parser): Expr {
  return parseBinaryLevel(p, MULTIPLICATIVE, parseUnary);
}

function parseUnary(p: Parser): Expr {
  if (p.at("-") || p.at("+")) {
    const start = p.next();
    p.enter();
    const operand = parseUnary(p);
    p.leave();
    return { kind: "Unary", op: start.text as "-" | "+", operand, span: p.spanFrom(start) };
  }
  if (p.atWord("not")) {
    const start = p.next();
    p.enter();
    const operand = parseUnary(p);
    p.leave();
    return { kind: "Unary", op: "not", operand, span: p.spanFrom(start) };
  }
  return parsePostfix(p);
}

function parsePostfix(p: Parser): Expr {
  let links = 0;
  const expr = parsePostfixChain(p, () => {
    p.link();
    links++;
  });
  p.unlink(links);
  return expr;
}

function parsePostfixChain(p: Parser, link: () => void): Expr {
  let expr = parsePrimary(p);
  for (;;) {
    if (p.afterBlock()) return expr;
    if (p.at(".")) {
      link();
      p.next();
      const property = parseName(p, "a field or function name after '.'", true);
      expr = { kind: "Member", object: expr, property, span: p.spanFromSpan(expr.span) };
    } else if (p.at("(")) {
      link();
      expr = parseCallRest(p, expr);
    } else if (p.at("<") && expr.kind === "Member" && expr.property.name === "new") {
      // only `array.new<T>`, `matrix.new<T>`, `map.new<K, V>` take type arguments: elsewhere `<` is
      // a comparison, so `f(a < b, c > (d))` stays two comparisons
      const typeArgs = tryParseTypeArgs(p);
      if (!typeArgs) return expr;
      link();
      expr = parseCallRest(p, expr, typeArgs);
    } else if (p.at("[")) {
      link();
      p.next();
      const index = parseExpression(p);
      p.expect("]", "']' closing the history reference");
      expr = { kind: "Index", object: expr, index, span: p.spanFromSpan(expr.span) };
    } else {
      return expr;
    }
  }
}

/** `<float>(` after a callee: a generic call. Anything else leaves the cursor untouched so `<` is
 * read as a comparison. */
function tryParseTypeArgs(p: Parser): TypeRef[] | null {
  const save = p.pos,
    saveLast = p.last;
  p.next();
  const args: TypeRef[] = [];
  let complete = false;
  for (;;) {
    const t = tryParseTypeRef(p);
    if (!t) break;
    args.push(t);
    if (!p.eat(",")) {
      complete = true;
      break;
    }
  }
  if (complete && p.at(">") && p.at("(", 1)) {
    p.next();
    return args;
  }
  p.pos = save;
  p.last = saveLast;
  return null;
}

function parseCallRest(p: Parser, callee: Expr, typeArgs?: TypeRef[]): Call {
  p.expect("(");
  const args: Arg[] = [];
  while (!p.at(")")) {
    args.push(parseArg(p));
    if (!p.eat(",")) break;
  }
  p.expect(")", args.length ? "')' or ','" : "')'");
  const call: Call = { kind: "Call", callee, args, span: p.spanFromSpan(callee.span) };
  if (typeArgs) call.typeArgs = typeArgs;
  return call;
}

function parseArg(p: Parser): Arg {
  const start = p.peek();
  if (start.kind === "Ident" && p.at("=", 1)) {
    const name = parseName(p, "an argument name");
    p.next();
    const value = parseExpression(p);
    return { kind: "Arg", name, value, span: p.spanFrom(start) };
  }
  const value = parseExpression(p);
  return { kind: "Arg", value, span: p.spanFrom(start) };
}

/** An identifier; reserved words are rejected unless `anyWord` (after `.`, any word is a name). */
export function parseName(p: Parser, expected: string, anyWord = false): Ident {
  const t = p.peek();
  if (t.kind !== "Ident") p.unexpected(expected);
  if (!anyWord && RESERVED.has(t.text))
    p.fail(Codes.ReservedWord, `'${t.text}' is a reserved keyword and cannot be used as a name`, p.tokenSpan(t));
  p.next();
  return { kind: "Ident", name: t.text, span: p.tokenSpan(t) };
}

function parsePrimary(p: Parser): Expr {
  const t = p.peek();
  switch (t.kind) {
    case "Number":
      p.next();
      return { kind: "Number", value: t.value as number, isInt: t.isInt === true, raw: t.text, span: p.tokenSpan(t) };
    case "String":
      p.next();
      return { kind: "String", value: t.value as string, raw: t.text, span: p.tokenSpan(t) };
    case "Color":
      p.next();
      return parseColor(p, t);
    case "Ident":
      return parseWordPrimary(p, t);
    case "Punct":
      if (t.text === "(") return parseParen(p);
      if (t.text === "[") return parseTuple(p);
      break;
    default:
      break;
  }
  return p.unexpected("an expression", Codes.ExpectedExpr);
}

function parseWordPrimary(p: Parser, t: Token): Expr {
  switch (t.text) {
    case "true":
    case "false":
      p.next();
      return { kind: "Bool", value: t.text === "true", span: p.tokenSpan(t) };
    case "na":
      if (p.at("(", 1)) break; // na(x) is the builtin function
      p.next();
      return { kind: "Na", span: p.tokenSpan(t) };
    case "if":
      return parseIf(p);
    case "switch":
      return parseSwitch(p);
    case "for":
      return parseFor(p);
    case "while":
      return parseWhile(p);
    default:
      break;
  }
  if (RESERVED.has(t.text)) return p.unexpected("an expression", Codes.ExpectedExpr);
  p.next();
  return { kind: "Ident", name: t.text, span: p.tokenSpan(t) };
}

function parseColor(p: Parser, t: Token): Expr {
  const hex = t.text.slice(1);
  const byte = (i: number) => parseInt(hex.slice(i, i + 2), 16);
  return {
    kind: "Color",
    raw: t.text,
    r: byte(0),
    g: byte(2),
    b: byte(4),
    a: hex.length === 8 ? byte(6) : 255,
    span: p.tokenSpan(t),
  };
}

function parseParen(p: Parser): Expr {
  const start = p.next();
  const expr = parseExpression(p);
  p.expect(")", "')'");
  return { kind: "Paren", expr, span: p.spanFrom(start) };
}

function parseTuple(p: Parser): Tuple {
  const start = p.next();
  const elements: Expr[] = [];
  while (!p.at("]")) {
    elements.push(parseExpression(p));
    if (!p.eat(",")) break;
  }
  p.expect("]", elements.length ? "']' or ','" : "']'");
  return { kind: "Tuple", elements, span: p.spanFrom(start) };
}
