// Folding ranges: every statement or expression spanning several lines (functions, types, enums, if/for/
// while/switch and their branches), and runs of two or more own-line comments.

import type { FoldingRange } from "vscode-languageserver-types";
import { DiagnosticSink, tokenize } from "../lang/index.js";
import type { Analysis } from "./analysis.js";

export function foldingRanges(a: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const seen = new Set<string>();
  const add = (start: number, end: number, kind?: string) => {
    const key = `${start}:${end}`;
    if (end <= start || seen.has(key)) return;
    seen.add(key);
    out.push(kind ? { startLine: start, endLine: end, kind } : { startLine: start, endLine: end });
  };
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const x of node) visit(x);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const n = node as { kind?: string; span?: { line: number; endLine: number } };
    if (n.kind && n.kind !== "Program" && n.kind !== "Block" && n.span && n.span.endLine > n.span.line)
      add(n.span.line - 1, n.span.endLine - 1);
    for (const [k, v] of Object.entries(node)) if (k !== "span" && k !== "doc" && typeof v === "object") visit(v);
  };
  visit(a.parsed.ast.body);
  const comments = tokenize(a.text, new DiagnosticSink()).comments.filter((c) => c.ownLine);
  for (let i = 0; i < comments.length; ) {
    let j = i;
    while (j + 1 < comments.length && comments[j + 1]!.line === comments[j]!.line + 1) j++;
    if (j > i) add(comments[i]!.line - 1, comments[j]!.line - 1, "comment");
    i = j + 1;
  }
  return out.sort((x, y) => x.startLine - y.startLine || y.endLine - x.endLine);
}
