// The Pine front end: `parse(source)` gives the AST of ast.ts plus diagnostics (it never throws and
// recovers line by line), `unparse(ast)` prints normalised source, `checkSource(source)` is what
// `resin check` runs, `tokenize` serves editors (highlighting). See README.md in this folder.

import type { Diagnostic, ParseResult, Program, Stmt } from "./ast.js";
import { Codes, DiagnosticSink } from "./diagnostics.js";
import { attachDocs, readVersion } from "./docs.js";
import { tokenize } from "./lexer.js";
import { Parser } from "./parser.js";
import { parseStatements } from "./statements.js";

export * from "./ast.js";
export { Codes, DiagnosticSink } from "./diagnostics.js";
export { tokenize, type Comment, type LexResult } from "./lexer.js";
export type { Token, TokenKind } from "./tokens.js";
export { unparse, type UnparseOptions } from "./unparse.js";
export { format } from "./format.js";

export function parse(source: string): ParseResult {
  const sink = new DiagnosticSink();
  const { tokens, comments } = tokenize(source, sink);
  const version = readVersion(comments, sink);
  const p = new Parser(source, tokens, comments, sink);
  let body: Stmt[] = [];
  try {
    body = parseStatements(p, true);
  } catch (e) {
    // Only a stack overflow can get here (nesting is bounded, but the host's stack may be small).
    if (!(e instanceof RangeError)) throw e;
    sink.error(Codes.TooDeep, "The script is nested too deeply to parse", p.tokenSpan(p.peek()));
  }
  const end = tokens[tokens.length - 1]!;
  const ast: Program = {
    kind: "Program",
    version,
    body,
    doc: [],
    span: { start: 0, end: source.length, line: 1, column: 1, endLine: end.endLine, endColumn: end.endCol },
  };
  attachDocs(ast, comments);
  sink.items.sort((a, b) => a.line - b.line || a.column - b.column);
  return { ast, diagnostics: sink.items };
}

/** Hook for `resin check`: today the syntax pass; semantic checks can be chained here later. */
export function checkSource(source: string): { ast: Program; diagnostics: Diagnostic[] } {
  return parse(source);
}
