// resin check <file>: parses (and later type-checks) a script and prints its diagnostics the way
// compilers do: `file:line:col: error: message`, the source line, a caret line under the span.
// Exit codes (service.md 5): 0 no errors, 1 errors, 2 usage error (no file, unreadable file).
// Options are declared in index.ts.

import { readFile } from "node:fs/promises";
import type { Diagnostic, Program } from "../lang/ast.js";
import { checkSource } from "../lang/index.js";
import type { CheckOptions } from "./options.js";

export async function execute(file: string, opts: CheckOptions): Promise<number> {
  const json = !!opts.json;
  let source: string;
  try {
    source = await readFile(file, "utf8");
  } catch (e) {
    console.error(`resin check: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 2;
  }
  const { ast, diagnostics } = checkSource(source);
  // Semantic checks (names, types, qualifiers) run on a tree without syntax errors.
  if (!opts.syntaxOnly && !diagnostics.some((d) => d.severity === "error"))
    diagnostics.push(...(await semanticDiagnostics(ast)));
  if (json) console.log(JSON.stringify(diagnostics, null, 2));
  else if (diagnostics.length) console.log(formatDiagnostics(file, source, diagnostics));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  if (!json)
    console.error(
      `${file}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`,
    );
  return errors > 0 ? 1 : 0;
}

/** Compiler-style text: location line, the source line, a caret line under the reported span. */
export function formatDiagnostics(file: string, source: string, diagnostics: Diagnostic[]): string {
  const lines = source.split(/\r?\n/);
  const out: string[] = [];
  for (const d of diagnostics) {
    out.push(`${file}:${d.line}:${d.column}: ${d.severity}: ${d.message}${d.code ? ` [${d.code}]` : ""}`);
    const text = lines[d.line - 1];
    if (text === undefined) continue;
    out.push(text);
    const width =
      d.end_line === d.line ? Math.max(1, d.end_column - d.column) : Math.max(1, text.length - d.column + 1);
    // keep tabs so the caret lines up under the same column in a terminal
    const lead = text.slice(0, d.column - 1).replace(/[^\t]/g, " ");
    out.push(lead + "^".repeat(width));
  }
  return out.join("\n");
}

/** The checker's diagnostics (loaded lazily: it pulls in the builtin catalogue). A checker fault is
 * reported as a warning so `resin check` still gives the syntax verdict. */
async function semanticDiagnostics(ast: Program): Promise<Diagnostic[]> {
  try {
    const [{ check }, { registry }] = await Promise.all([import("../check/index.js"), import("../builtins/index.js")]);
    return check(ast, registry, [], { diagnosticsOnly: true }).diagnostics;
  } catch (e) {
    const message = `semantic checks could not run: ${e instanceof Error ? e.message : String(e)}`;
    return [{ severity: "warning", message, line: 1, column: 1, end_line: 1, end_column: 1 }];
  }
}
