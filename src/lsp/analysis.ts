// One analysed version of a document: parse, check, the symbol index, the line index. Everything a
// request needs is computed once per text and shared by every feature (completion while typing asks
// many times for the same version); the two indexes only when a request first needs them.

import type { Diagnostic as LspDiagnostic } from "vscode-languageserver-types";
import { registry } from "../builtins/index.js";
import { check } from "../check/index.js";
import type { PType } from "../check/types.js";
import type { Diagnostic, ParseResult } from "../lang/ast.js";
import { parse } from "../lang/index.js";
import { LineIndex, lineColRange } from "./positions.js";
import { SymbolIndex } from "./symbol-index.js";

export interface Analysis {
  text: string;
  readonly lines: LineIndex;
  parsed: ParseResult;
  /** What `resin check` reports: the syntax diagnostics, then (when there is no syntax error) the checker's. */
  diagnostics: Diagnostic[];
  declaredTypes: Map<number, PType>;
  readonly index: SymbolIndex;
}

export function analyze(text: string): Analysis {
  const parsed = parse(text);
  const diagnostics = [...parsed.diagnostics];
  let declaredTypes = new Map<number, PType>();
  // the same rule as `resin check`: semantic checks run on a tree without syntax errors
  if (!diagnostics.some((d) => d.severity === "error")) {
    const checked = safeCheck(parsed);
    diagnostics.push(...checked.diagnostics);
    if (checked.declaredTypes) declaredTypes = checked.declaredTypes;
  } else {
    // a tree with syntax errors is still checked for types to show, never for diagnostics
    const checked = safeCheck(parsed);
    if (checked.declaredTypes) declaredTypes = checked.declaredTypes;
  }
  const types = declaredTypes;
  // built on the first request that needs them, not on each change: publishing diagnostics after a
  // keystroke needs neither the symbol index (a walk of the whole tree) nor the line index
  let index: SymbolIndex | undefined;
  let lines: LineIndex | undefined;
  return {
    text,
    parsed,
    diagnostics,
    declaredTypes,
    get index() {
      index ??= new SymbolIndex(parsed.ast, (offset) => types.get(offset), text);
      return index;
    },
    get lines() {
      lines ??= new LineIndex(text);
      return lines;
    },
  };
}

function safeCheck(parsed: ParseResult): ReturnType<typeof check> {
  try {
    // the editor runs nothing: no compile-eligibility pass on each keystroke
    return check(parsed.ast, registry, [], { diagnosticsOnly: true });
  } catch (e) {
    // a checker fault is a warning, as in `resin check`: the syntax verdict still stands
    const message = `semantic checks could not run: ${e instanceof Error ? e.message : String(e)}`;
    return { diagnostics: [{ severity: "warning", message, line: 1, column: 1, end_line: 1, end_column: 1 }] };
  }
}

/** resin's diagnostics as LSP ones (source "resin", the code where the diagnostic has one). */
export function toLspDiagnostics(a: Analysis): LspDiagnostic[] {
  return a.diagnostics.map((d) => ({
    range: lineColRange(d.line, d.column, d.end_line, d.end_column),
    severity: d.severity === "error" ? 1 : d.severity === "warning" ? 2 : 3,
    message: d.message,
    source: "resin",
    ...(d.code ? { code: d.code } : {}),
  }));
}
