// Formatting (src/lang/format.ts: unparse with every comment kept) of the whole document, and of a
// range: the top-level statements the range touches are replaced by their formatted text, found by
// matching statements between the original and the formatted script (same count, same order: the
// formatter keeps the tree).

import type { Range, TextEdit } from "vscode-languageserver-types";
import { format, parse } from "../lang/index.js";
import type { Analysis } from "./analysis.js";
import { LineIndex } from "./positions.js";

export function formatDocument(a: Analysis): TextEdit[] {
  const out = format(a.text);
  if (out === undefined || out === a.text) return [];
  return [{ range: { start: { line: 0, character: 0 }, end: a.lines.positionAt(a.text.length) }, newText: out }];
}

export function formatRange(a: Analysis, range: Range): TextEdit[] {
  const out = format(a.text);
  if (out === undefined || out === a.text) return [];
  const before = a.parsed.ast.body;
  const after = parse(out).ast.body;
  if (before.length !== after.length || !before.length) return formatDocument(a);
  const from = range.start.line + 1;
  const to = range.end.line + 1;
  const touched = before.map((_s, i) => i).filter((i) => before[i]!.span.endLine >= from && before[i]!.span.line <= to);
  if (!touched.length) return [];
  const first = touched[0]!;
  const last = touched[touched.length - 1]!;
  // whole lines: from the first touched statement's line to the last one's end line
  const outLines = new LineIndex(out);
  const newStart = outLines.lineStart(after[first]!.span.line - 1);
  const newEnd = outLines.offsetAt({ line: after[last]!.span.endLine - 1, character: Number.MAX_SAFE_INTEGER });
  const oldStart = a.lines.lineStart(before[first]!.span.line - 1);
  const oldEnd = a.lines.offsetAt({ line: before[last]!.span.endLine - 1, character: Number.MAX_SAFE_INTEGER });
  const newText = out.slice(newStart, newEnd);
  if (newText === a.text.slice(oldStart, oldEnd)) return [];
  return [{ range: a.lines.range({ start: oldStart, end: oldEnd }), newText }];
}
