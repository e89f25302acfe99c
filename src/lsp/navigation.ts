// Go to definition, find references and rename, for variables, parameters, functions, methods, types,
// fields, enums and their members: all answered from the symbol index's occurrences.

import type { Location, Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import type { PineSymbol } from "./symbol-index.js";

function symbolAt(a: Analysis, pos: Position): PineSymbol | undefined {
  const o = a.index.at(a.lines.offsetAt(pos));
  return o && "symbol" in o ? o.symbol : undefined;
}

export function definition(a: Analysis, uri: string, pos: Position): Location | null {
  const s = symbolAt(a, pos);
  return s ? { uri, range: a.lines.range(s.nameSpan) } : null;
}

export function references(a: Analysis, uri: string, pos: Position, includeDeclaration: boolean): Location[] {
  const s = symbolAt(a, pos);
  if (!s) return [];
  return s.refs
    .filter((r) => includeDeclaration || r !== s.nameSpan)
    .sort((x, y) => x.start - y.start)
    .map((r) => ({ uri, range: a.lines.range(r) }));
}

export function prepareRename(a: Analysis, pos: Position): Range | null {
  const o = a.index.at(a.lines.offsetAt(pos));
  return o && "symbol" in o && o.symbol.kind !== "library" ? a.lines.range(o.span) : null;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The edits renaming the symbol at `pos`; an error message when `newName` is not a valid name. */
export function rename(a: Analysis, uri: string, pos: Position, newName: string): WorkspaceEdit | string | null {
  const s = symbolAt(a, pos);
  if (!s) return null;
  if (!NAME.test(newName)) return `'${newName}' is not a valid Pine identifier`;
  const edits: TextEdit[] = [...new Set(s.refs)]
    .sort((x, y) => x.start - y.start)
    .map((r) => ({ range: a.lines.range(r), newText: newName }));
  return { changes: { [uri]: edits } };
}
