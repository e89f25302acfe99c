// Type references in declarations: `float`, `array<float>`, `float[]`, `map<string, int>`,
// `chart.point`, `lib.Type`, and the speculative forms used to tell `float x = ...` (a typed
// declaration) from an expression statement.

import type { TypeRef } from "./ast.js";
import { ParseAbort, type Parser } from "./parser.js";

/** Parses a type reference at the cursor; reports and aborts when there is none. */
export function parseTypeRef(p: Parser): TypeRef {
  const start = p.peek();
  if (!p.atName()) p.unexpected("a type name");
  let name = p.next().text;
  while (p.at(".") && p.atName(1)) {
    p.next();
    name += "." + p.next().text;
  }
  const args: TypeRef[] = [];
  if (p.at("<")) {
    p.next();
    args.push(parseTypeRef(p));
    while (p.eat(",")) args.push(parseTypeRef(p));
    p.expect(">", "'>' closing the type arguments");
  }
  const ref: TypeRef = { kind: "TypeRef", name, args, span: p.spanFrom(start) };
  if (p.at("[") && p.at("]", 1)) {
    p.next();
    p.next();
    ref.legacyArray = true;
    ref.span = p.spanFrom(start);
  }
  return ref;
}

/** Tries to parse a type reference without reporting anything; restores the cursor on failure. */
export function tryParseTypeRef(p: Parser): TypeRef | null {
  const save = p.pos,
    saveLast = p.last;
  const mark = p.sink.items.length;
  try {
    return parseTypeRef(p);
  } catch (e) {
    if (!(e instanceof ParseAbort)) throw e;
    p.pos = save;
    p.last = saveLast;
    p.sink.items.length = mark;
    return null;
  }
}

/** Does a declaration `[type] name =` start here? (`offset` skips a leading `var`, qualifier, ...).
 * Checked by scanning tokens only, so it costs nothing when it says no. */
export function looksLikeTypedDecl(p: Parser, offset = 0): boolean {
  let i = offset;
  if (!p.atName(i)) return false;
  i++;
  while (p.at(".", i) && p.atName(i + 1)) i += 2;
  if (p.at("<", i)) {
    let depth = 0;
    for (;;) {
      const t = p.peek(i);
      if (t.kind === "Punct" && t.text === "<") depth++;
      else if (t.kind === "Punct" && t.text === ">") {
        depth--;
        if (depth === 0) break;
      } else if (!(t.kind === "Ident" || (t.kind === "Punct" && (t.text === "," || t.text === ".")))) return false;
      i++;
    }
    i++;
  }
  if (p.at("[", i) && p.at("]", i + 1)) i += 2;
  if (!p.atName(i)) return false;
  // `float x` with nothing after it is a declaration missing its value (reported by parseVarDecl)
  const after = p.peek(i + 1).kind;
  return p.at("=", i + 1) || p.at(":=", i + 1) || after === "Newline" || after === "EOF";
}

/** A type reference as Pine source: `float`, `array<float>`, `float[]`, `map<string, int>`. */
export function printType(t: TypeRef): string {
  let s = t.name;
  if (t.args.length) s += `<${t.args.map(printType).join(", ")}>`;
  if (t.legacyArray) s += "[]";
  return s;
}
