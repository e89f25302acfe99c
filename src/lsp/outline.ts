// Document symbols (the outline: functions with their parameters and locals, types with fields, enums
// with members, global variables) and workspace symbols across the open documents.

import type { DocumentSymbol, Position, SymbolInformation, SymbolKind } from "vscode-languageserver-types";
import type { Analysis } from "./analysis.js";
import { symbolDetail } from "./describe.js";
import type { PineSymbol } from "./symbol-index.js";

// LSP SymbolKind values
const KIND: Record<PineSymbol["kind"], SymbolKind> = {
  variable: 13,
  parameter: 13,
  function: 12,
  method: 6,
  type: 23,
  field: 8,
  enum: 10,
  enumMember: 22,
  library: 2,
};

export function documentSymbols(a: Analysis): DocumentSymbol[] {
  const top: DocumentSymbol[] = [];
  const children = new Map<PineSymbol, DocumentSymbol[]>();
  const make = (s: PineSymbol): DocumentSymbol => {
    const kids: DocumentSymbol[] = [];
    children.set(s, kids);
    return {
      name: s.name,
      detail: symbolDetail(a.index, s),
      kind: KIND[s.kind],
      range: a.lines.range(s.declSpan),
      selectionRange: a.lines.range(s.nameSpan),
      children: kids,
    };
  };
  const byDecl = new Map<PineSymbol, DocumentSymbol>();
  for (const s of a.index.symbols) {
    const ds = make(s);
    byDecl.set(s, ds);
    const parent = s.container;
    if (parent && children.has(parent)) children.get(parent)!.push(ds);
    else if (!parent && isGlobal(a, s)) top.push(ds);
  }
  return top.sort(
    (x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character,
  );
}

/** Globals: declared at the top level (not inside an if/for block). */
function isGlobal(a: Analysis, s: PineSymbol): boolean {
  if (s.kind !== "variable") return true;
  return a.parsed.ast.body.some((st) => st.span === s.declSpan);
}

export function workspaceSymbols(docs: Iterable<[string, Analysis]>, query: string): SymbolInformation[] {
  const q = query.toLowerCase();
  const out: SymbolInformation[] = [];
  for (const [uri, a] of docs)
    for (const s of a.index.symbols) {
      if (s.kind === "parameter" || (s.kind === "variable" && (s.container || !isGlobal(a, s)))) continue;
      if (q && !s.name.toLowerCase().includes(q)) continue;
      out.push({
        name: s.name,
        kind: KIND[s.kind],
        location: { uri, range: a.lines.range(s.nameSpan) },
        containerName: s.container?.name,
      });
    }
  return out;
}

export type { Position };
