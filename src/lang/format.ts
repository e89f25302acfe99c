// The formatter: a script printed by `unparse` with every comment and blank-line group kept. A script
// with syntax errors is not formatted (its tree is missing the statements the parser dropped).

import { parse } from "./parse.js";
import { tokenize } from "./lexer.js";
import { DiagnosticSink } from "./diagnostics.js";
import { unparse } from "./unparse.js";

/** The formatted source, or undefined when the script has syntax errors. */
export function format(source: string): string | undefined {
  const parsed = parse(source);
  if (parsed.diagnostics.some((d) => d.severity === "error")) return undefined;
  const { comments } = tokenize(source, new DiagnosticSink());
  return unparse(parsed.ast, { comments });
}
