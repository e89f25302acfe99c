// resin check <file>: parses (and later type-checks) a script and prints its diagnostics the way
// compilers do: `file:line:col: error: message`, the source line, a caret line under the span.
// Exit codes (service.md 5): 0 no errors, 1 errors, 2 usage error (no file, unreadable file).

import { readFile } from "node:fs/promises";
import type { Diagnostic } from "../lang/ast.js";
import { checkSource } from "../lang/index.js";

const USAGE = `Usage: resin check <script.pine> [--json]

Parses the script and prints its diagnostics (file:line:col: severity: message).
Exits 0 when there are no errors, 1 when there are, 2 on a usage error.

Options:
  --json     print the diagnostics as a JSON array instead
  -h, --help show this help`;

export async function command(argv: string[]): Promise<number> {
  if (argv.includes("-h") || argv.includes("--help")) {
    console.log(USAGE);
    return 0;
  }
  const json = argv.includes("--json");
  const files = argv.filter((a) => !a.startsWith("-"));
  const unknown = argv.filter((a) => a.startsWith("-") && a !== "--json");
  if (unknown.length) {
    console.error(`resin check: unknown option '${unknown[0]}'\n\n${USAGE}`);
    return 2;
  }
  if (files.length !== 1) {
    console.error(`resin check: ${files.length ? "expecting exactly one script" : "missing script file"}\n\n${USAGE}`);
    return 2;
  }
  const file = files[0]!;
  let source: string;
  try {
    source = await readFile(file, "utf8");
  } catch (e) {
    console.error(`resin check: cannot read '${file}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    return 2;
  }
  const { diagnostics } = checkSource(source);
  if (json) console.log(JSON.stringify(diagnostics, null, 2));
  else if (diagnostics.length) console.log(formatDiagnostics(file, source, diagnostics));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.filter((d) => d.severity === "warning").length;
  if (!json) console.error(`${file}: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`);
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
    const width = d.end_line === d.line ? Math.max(1, d.end_column - d.column) : Math.max(1, text.length - d.column + 1);
    // keep tabs so the caret lines up under the same column in a terminal
    const lead = text.slice(0, d.column - 1).replace(/[^\t]/g, " ");
    out.push(lead + "^".repeat(width));
  }
  return out.join("\n");
}
