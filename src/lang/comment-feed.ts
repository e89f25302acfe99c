// Where the formatter puts comments (unparse's `comments` mode). The printer walks statements in
// source order and asks the feed, before each one, for the comments that came before it in the source;
// the feed hands them out once each, in order, so every comment is printed exactly once. It also keeps
// blank-line groups: a gap of blank lines between two printed items becomes one empty line.

import type { Program } from "./ast.js";
import type { Comment } from "./lexer.js";

const GROUPED = new Set([
  "VarDecl",
  "TupleDecl",
  "Assign",
  "ExprStmt",
  "FuncDecl",
  "TypeDecl",
  "EnumDecl",
  "Import",
  "Break",
  "Continue",
  "FieldDecl",
  "EnumMember",
  "SwitchCase",
]);

export class CommentFeed {
  private next = 0;
  /** Last source line already printed (a statement's last line, or a comment's). */
  private lastLine = 0;
  /** Source lines where a statement, field, enum member or switch arm starts, ascending. */
  private readonly codeLines: number[];

  constructor(
    private readonly comments: readonly Comment[],
    ast: Program,
  ) {
    const lines = new Set<number>();
    collectCodeLines(ast.body, lines);
    this.codeLines = [...lines].sort((a, b) => a - b);
  }

  /** Prints, at `pad`, every comment before source line `line` not printed yet, then a kept blank line. */
  before(line: number, pad: string, out: string[]): void {
    while (this.next < this.comments.length && this.comments[this.next]!.line < line) this.emit(pad, out);
    this.gap(line, out);
  }

  /**
   * The comments on lines `from..to` of a statement: one end-of-line comment stays after it (`trail`);
   * when there are several (a wrapped statement), all go on their own lines above it (`lead`).
   */
  around(from: number, to: number): { lead: string[]; trail?: string } {
    const mine: Comment[] = [];
    while (this.next < this.comments.length && this.comments[this.next]!.line <= to) {
      const c = this.comments[this.next++]!;
      if (c.line >= from) mine.push(c);
    }
    if (mine.length === 1 && !mine[0]!.ownLine) return { lead: [], trail: text(mine[0]!) };
    return { lead: mine.map(text) };
  }

  /** A statement's last source line has been printed. */
  printed(endLine: number): void {
    if (endLine > this.lastLine) this.lastLine = endLine;
  }

  /**
   * At the end of a block printed at `level`: the own-line comments after its last statement that are
   * indented into it and come before the next code line belong to the block.
   */
  blockTail(level: number, out: string[]): void {
    const pad = "    ".repeat(level);
    const bound = this.nextCodeLine(this.lastLine);
    while (this.next < this.comments.length) {
      const c = this.comments[this.next]!;
      if (!c.ownLine || c.line >= bound || c.col - 1 < level * 4) break;
      this.gap(c.line, out);
      this.emit(pad, out);
    }
  }

  /** Whatever is left at the end of the script. */
  rest(out: string[]): void {
    while (this.next < this.comments.length) {
      this.gap(this.comments[this.next]!.line, out);
      this.emit("", out);
    }
  }

  private emit(pad: string, out: string[]): void {
    const c = this.comments[this.next++]!;
    this.gap(c.line, out);
    out.push(pad + text(c));
    if (c.line > this.lastLine) this.lastLine = c.line;
  }

  private gap(line: number, out: string[]): void {
    if (this.lastLine > 0 && line > this.lastLine + 1 && out.length && out[out.length - 1] !== "") out.push("");
  }

  private nextCodeLine(after: number): number {
    for (const l of this.codeLines) if (l > after) return l;
    return Number.POSITIVE_INFINITY;
  }
}

function text(c: Comment): string {
  return `//${c.text.trimEnd()}`;
}

function collectCodeLines(node: unknown, lines: Set<number>): void {
  if (Array.isArray(node)) {
    for (const x of node) collectCodeLines(x, lines);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const n = node as { kind?: string; span?: { line: number } };
  if (n.kind && n.span && GROUPED.has(n.kind)) lines.add(n.span.line);
  for (const [k, v] of Object.entries(node))
    if (k !== "span" && k !== "doc" && typeof v === "object") collectCodeLines(v, lines);
}
