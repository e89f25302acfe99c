// The Pine front end: `parse(source)` gives the AST of ast.ts plus diagnostics (it never throws and
// recovers line by line), `unparse(ast)` prints normalised source, `checkSource(source)` is what
// `resin check` runs, `tokenize` serves editors (highlighting). See README.md in this folder.

import type { Diagnostic, Program } from "./ast.js";
import { parse } from "./parse.js";

export * from "./ast.js";
export { Codes, DiagnosticSink } from "./diagnostics.js";
export { tokenize, type Comment, type LexResult } from "./lexer.js";
export type { Token, TokenKind } from "./tokens.js";
export { unparse, type UnparseOptions } from "./unparse.js";
export { format } from "./format.js";
export { parse } from "./parse.js";

/** Hook for `resin check`: today the syntax pass; semantic checks can be chained here later. */
export function checkSource(source: string): { ast: Program; diagnostics: Diagnostic[] } {
  return parse(source);
}
