// parse(source): tokens, the version comment, the statements (recovering line by line), doc comments
// attached, diagnostics in source order. Its own module so that the front end's other entries (format.ts)
// can use it without importing index.ts, which re-exports them all.
import type { ParseResult, Program, Stmt } from "./ast.js";
import { Codes, DiagnosticSink } from "./diagnostics.js";
import { attachDocs, readVersion } from "./docs.js";
import { tokenize } from "./lexer.js";
import { Parser } from "./parser.js";
import { parseStatements } from "./statements.js";

/** The AST of `source` and every diagnostic; never throws. */
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
