// Inlay hints: the inferred type (with its qualifier) before the name of a declaration written without
// a type (`fast = ta.sma(close, 10)` shows `series float fast`), and of tuple names.

import type { InlayHint, Range } from "vscode-languageserver-types";
import { typeText } from "../check/types.js";
import type * as A from "../lang/ast.js";
import type { Analysis } from "./analysis.js";

export function inlayHints(a: Analysis, range: Range): InlayHint[] {
  const from = a.lines.offsetAt(range.start);
  const to = a.lines.offsetAt(range.end);
  const out: InlayHint[] = [];
  for (const s of a.index.symbols) {
    if (s.kind !== "variable" || s.writtenType || !s.inferred) continue;
    const node = s.node as A.Stmt | A.Ident;
    if (node.kind !== "VarDecl" && node.kind !== "TupleDecl") continue;
    if (s.nameSpan.start < from || s.nameSpan.start > to) continue;
    out.push({
      position: a.lines.positionAt(s.nameSpan.start),
      label: `${typeText(s.inferred)} `,
      kind: 1,
      paddingRight: false,
    });
  }
  return out;
}
