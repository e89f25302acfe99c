// Offsets and LSP positions (0-based line and UTF-16 character, the protocol's default encoding; the
// lexer's offsets and columns are UTF-16 too).

import type { Position, Range } from "vscode-languageserver-types";
import type { Span } from "../lang/ast.js";

export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  offsetAt(p: Position): number {
    if (p.line >= this.starts.length) return this.text.length;
    const start = this.starts[Math.max(0, p.line)]!;
    const end = p.line + 1 < this.starts.length ? this.starts[p.line + 1]! - 1 : this.text.length;
    return Math.min(start + Math.max(0, p.character), end);
  }

  positionAt(offset: number): Position {
    offset = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: offset - this.starts[lo]! };
  }

  range(span: { start: number; end: number }): Range {
    return { start: this.positionAt(span.start), end: this.positionAt(span.end) };
  }

  lineText(line: number): string {
    const start = this.starts[line] ?? this.text.length;
    const end = line + 1 < this.starts.length ? this.starts[line + 1]! - 1 : this.text.length;
    return this.text.slice(start, end).replace(/\r$/, "");
  }

  lineStart(line: number): number {
    return this.starts[Math.min(line, this.starts.length - 1)]!;
  }
}

/** A diagnostic's 1-based line/column span as an LSP range. */
export function lineColRange(line: number, column: number, endLine: number, endColumn: number): Range {
  return {
    start: { line: line - 1, character: column - 1 },
    end: { line: endLine - 1, character: endColumn - 1 },
  };
}

export function spanRange(lines: LineIndex, span: Span): Range {
  return lines.range(span);
}
