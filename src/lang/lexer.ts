// The tokenizer: turns Pine source into tokens, including the layout tokens Newline / Indent /
// Dedent that encode Pine's indentation blocks and line wrapping. It never throws: bad input is
// reported to the sink and skipped, so the parser always receives a well-formed token stream.
//
// Layout rules (spec/language.md section 1):
// - a block level is 4 spaces or one tab (a tab advances to the next multiple of 4);
// - a line indented by a non-multiple of 4 continues the previous line;
// - inside ( ) or [ ] every line continues the previous one;
// - a line indented deeper than the current block continues the previous line when that line
//   ended with a binary operator, `?`, `:`, `,` or `=` (how traders wrap long expressions).

import { Codes, type DiagnosticSink } from "./diagnostics.js";
import type { Span } from "./ast.js";
import { TRAILING_CONTINUATION, TRAILING_CONTINUATION_WORDS, type Token, type TokenKind } from "./tokens.js";

export interface Comment {
  /** The text after `//`. */
  text: string;
  start: number;
  end: number;
  line: number;
  col: number;
  /** Nothing but whitespace before it on its line. */
  ownLine: boolean;
}

export interface LexResult {
  tokens: Token[];
  comments: Comment[];
}

const CH_NL = 10,
  CH_CR = 13,
  CH_SPACE = 32,
  CH_TAB = 9;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHex(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c > 127 && isUnicodeLetter(c));
}
function isIdentPart(c: number): boolean {
  return isIdentStart(c) || isDigit(c);
}
const LETTER = /\p{L}/u;
function isUnicodeLetter(c: number): boolean {
  return LETTER.test(String.fromCharCode(c));
}

const TWO_CHAR = new Set([":=", "+=", "-=", "*=", "/=", "%=", "==", "!=", "<=", ">=", "=>"]);
const ONE_CHAR = new Set(["+", "-", "*", "/", "%", "<", ">", "=", "?", ":", ",", ".", "(", ")", "[", "]"]);

class Lexer {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private parenDepth = 0;
  private readonly indents: number[] = [0];
  /** Tokens have been emitted for the current logical line. */
  private pendingLine = false;
  private lastReal: Token | null = null;
  readonly tokens: Token[] = [];
  readonly comments: Comment[] = [];

  constructor(
    private readonly src: string,
    private readonly sink: DiagnosticSink,
  ) {}

  run(): LexResult {
    const src = this.src;
    let atLineStart = true;
    while (this.pos < src.length) {
      if (atLineStart) {
        atLineStart = false;
        // Blank and comment-only lines leave pos on their line break, consumed below.
        if (!this.beginLine()) continue;
      }
      const c = src.charCodeAt(this.pos);
      if (c === CH_NL) {
        this.newline();
        atLineStart = true;
      } else if (c === CH_SPACE || c === CH_TAB || c === CH_CR || c === 0xfeff || c === 12) {
        this.pos++;
      } else if (c === 47 /* / */ && src.charCodeAt(this.pos + 1) === 47) {
        this.readComment(false);
      } else {
        this.readToken(c);
      }
    }
    if (this.pendingLine) this.emitLayout("Newline", this.lastReal!.end);
    while (this.indents.length > 1) {
      this.indents.pop();
      this.emitLayout("Dedent", this.src.length);
    }
    this.emitLayout("EOF", this.src.length);
    return { tokens: this.tokens, comments: this.comments };
  }

  private newline(): void {
    this.pos++;
    this.line++;
    this.lineStart = this.pos;
  }

  /** At the start of a physical line: skips blank and comment-only lines (returns false), otherwise
   * decides whether the line continues the previous logical line or starts a new one. */
  private beginLine(): boolean {
    const src = this.src;
    let i = this.pos;
    let width = 0;
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === CH_SPACE) width++;
      else if (c === CH_TAB) width = (width & ~3) + 4;
      else if (c === CH_CR || c === 0xfeff || c === 12) {
        /* ignored */
      } else break;
      i++;
    }
    this.pos = i;
    if (i >= src.length) return false;
    const c = src.charCodeAt(i);
    if (c === CH_NL) return false; // blank line: the main loop consumes the break
    if (c === 47 && src.charCodeAt(i + 1) === 47) {
      this.readComment(true);
      return false;
    }
    if (this.pendingLine) {
      const top = this.indents[this.indents.length - 1]!;
      if (this.parenDepth > 0 && this.abandonsBrackets(i, width, top)) this.parenDepth = 0;
      if (this.parenDepth > 0 || width % 4 !== 0 || (width > top && this.endsWithContinuation())) return true;
      this.emitLayout("Newline", this.lastReal!.end);
    }
    this.layoutNewLine(width);
    return true;
  }

  /** An unclosed `(` or `[` would glue the rest of the file into one line. A line at block
   * indentation that starts with a word, after a line that did not end with `,`, `(` or an
   * operator, can only be a new statement: the bracket was left open, and the parser will say so
   * at the end of the previous line instead of far below. */
  private abandonsBrackets(at: number, width: number, top: number): boolean {
    if (width > top || width % 4 !== 0 || this.endsWithContinuation()) return false;
    if (!isIdentStart(this.src.charCodeAt(at))) return false;
    let end = at + 1;
    while (isIdentPart(this.src.charCodeAt(end))) end++;
    const word = this.src.slice(at, end);
    return word !== "and" && word !== "or" && word !== "not";
  }

  private endsWithContinuation(): boolean {
    const t = this.lastReal;
    if (!t) return false;
    if (t.kind === "Punct") return TRAILING_CONTINUATION.has(t.text);
    return t.kind === "Ident" && TRAILING_CONTINUATION_WORDS.has(t.text);
  }

  private layoutNewLine(width: number): void {
    let top = this.indents[this.indents.length - 1]!;
    if (width > top) {
      this.indents.push(width);
      this.emitLayout("Indent", this.pos);
      return;
    }
    while (width < top) {
      this.indents.pop();
      this.emitLayout("Dedent", this.pos);
      top = this.indents[this.indents.length - 1]!;
    }
    if (width !== top) {
      this.sink.error(
        Codes.BadIndent,
        "Indentation does not match any enclosing block (use 4 spaces or a tab per level)",
        this.span(this.lineStart, this.pos),
      );
      this.indents.push(width);
      this.emitLayout("Indent", this.pos);
      this.tokens[this.tokens.length - 1]!.reported = true;
    }
  }

  private readComment(ownLine: boolean): void {
    const start = this.pos;
    let end = this.src.indexOf("\n", start);
    if (end < 0) end = this.src.length;
    let textEnd = end;
    if (this.src.charCodeAt(textEnd - 1) === CH_CR) textEnd--;
    this.comments.push({
      text: this.src.slice(start + 2, textEnd),
      start,
      end: textEnd,
      line: this.line,
      col: start - this.lineStart + 1,
      ownLine,
    });
    this.pos = end;
  }

  private readToken(c: number): void {
    if (isDigit(c) || (c === 46 && isDigit(this.src.charCodeAt(this.pos + 1)))) {
      this.readNumber();
      return;
    }
    if (isIdentStart(c)) {
      this.readWord();
      return;
    }
    if (c === 34 || c === 39) {
      this.readString(c);
      return;
    }
    if (c === 35) {
      this.readHash();
      return;
    }
    this.readPunct(c);
  }

  private readNumber(): void {
    const src = this.src;
    const start = this.pos;
    let i = start;
    if (src.charCodeAt(i) === 48 && (src[i + 1] === "x" || src[i + 1] === "X")) {
      i += 2;
      while (isHex(src.charCodeAt(i))) i++;
      this.pos = i;
      this.sink.error(
        Codes.HexLiteral,
        "Hexadecimal literals are not supported in Pine; write the number in decimal",
        this.span(start, i),
      );
      this.emit("Error", start, i);
      return;
    }
    let isInt = true;
    while (isDigit(src.charCodeAt(i))) i++;
    if (src.charCodeAt(i) === 46 /* . */) {
      isInt = false;
      i++;
      while (isDigit(src.charCodeAt(i))) i++;
    }
    const e = src.charCodeAt(i);
    if (e === 101 || e === 69) {
      let j = i + 1;
      const sgn = src.charCodeAt(j);
      if (sgn === 43 || sgn === 45) j++;
      if (isDigit(src.charCodeAt(j))) {
        isInt = false;
        while (isDigit(src.charCodeAt(j))) j++;
        i = j;
      }
    }
    if (isIdentPart(src.charCodeAt(i))) {
      while (isIdentPart(src.charCodeAt(i))) i++;
      this.pos = i;
      this.sink.error(Codes.BadNumber, `Invalid number literal '${src.slice(start, i)}'`, this.span(start, i));
      this.emit("Error", start, i);
      return;
    }
    this.pos = i;
    const tok = this.emit("Number", start, i);
    tok.value = Number(src.slice(start, i));
    tok.isInt = isInt;
  }

  private readWord(): void {
    const src = this.src;
    const start = this.pos;
    let i = start + 1;
    while (i < src.length && isIdentPart(src.charCodeAt(i))) i++;
    this.pos = i;
    this.emit("Ident", start, i);
  }

  private readString(quote: number): void {
    const src = this.src;
    const start = this.pos;
    const startLine = this.line,
      startLineStart = this.lineStart;
    if (src.charCodeAt(start + 1) === quote && src.charCodeAt(start + 2) === quote) {
      this.readTripleQuoted(quote);
      return;
    }
    let i = start + 1;
    let value = "";
    let segment = i;
    for (;;) {
      if (i >= src.length) {
        this.unterminated(start, i, startLine, startLineStart);
        return;
      }
      const c = src.charCodeAt(i);
      if (c === quote) {
        value += src.slice(segment, i);
        i++;
        break;
      }
      if (c === 92 /* \ */) {
        value += src.slice(segment, i);
        const n = src[i + 1];
        if (n === undefined || n === "\n") {
          i++;
          segment = i;
          continue;
        }
        value += n === "n" ? "\n" : n === "t" ? "\t" : n;
        i += 2;
        segment = i;
        continue;
      }
      if (c === CH_NL || (c === CH_CR && src.charCodeAt(i + 1) === CH_NL)) {
        // A string wrapped onto an indented next line continues there; the break counts as one space.
        const j = i + (c === CH_CR && src.charCodeAt(i + 1) === CH_NL ? 2 : 1);
        let k = j;
        while (src.charCodeAt(k) === CH_SPACE || src.charCodeAt(k) === CH_TAB) k++;
        if (k === j || k >= src.length || src.charCodeAt(k) === CH_NL) {
          this.unterminated(start, i, startLine, startLineStart);
          return;
        }
        value += src.slice(segment, i) + " ";
        this.line++;
        this.lineStart = j;
        i = k;
        segment = i;
        continue;
      }
      i++;
    }
    this.pos = i;
    const tok = this.emitFrom("String", start, i, startLine, startLineStart);
    tok.value = value;
  }

  private unterminated(start: number, end: number, startLine: number, startLineStart: number): void {
    this.pos = end;
    const tok = this.emitFrom("Error", start, end, startLine, startLineStart);
    this.sink.error(Codes.UnterminatedString, "Unterminated string: the closing quote is missing", {
      start,
      end,
      line: tok.line,
      column: tok.col,
      endLine: tok.endLine,
      endColumn: tok.endCol,
    });
  }

  private readTripleQuoted(quote: number): void {
    const start = this.pos;
    const q = String.fromCharCode(quote).repeat(3);
    const close = this.src.indexOf(q, start + 3);
    const end = close < 0 ? this.src.length : close + 3;
    const startLine = this.line,
      startLineStart = this.lineStart;
    this.advanceLines(start, end);
    this.pos = end;
    const tok = this.emitFrom("Error", start, end, startLine, startLineStart);
    this.sink.error(Codes.TripleQuote, 'Triple-quoted strings are not supported in Pine; use "..." with \\n escapes', {
      start,
      end: Math.min(end, start + 3),
      line: tok.line,
      column: tok.col,
      endLine: tok.line,
      endColumn: tok.col + 3,
    });
  }

  /** Keeps line bookkeeping right when a token or skipped region spans line breaks. */
  private advanceLines(from: number, to: number): void {
    for (let i = from; i < to; i++) {
      if (this.src.charCodeAt(i) === CH_NL) {
        this.line++;
        this.lineStart = i + 1;
      }
    }
  }

  private readHash(): void {
    const src = this.src;
    const start = this.pos;
    let i = start + 1;
    while (isHex(src.charCodeAt(i))) i++;
    const n = i - start - 1;
    const startsLine = src.slice(this.lineStart, start).trim() === "";
    if (
      (n === 0 && !isIdentPart(src.charCodeAt(i))) ||
      (startsLine && (n === 0 || isIdentPart(src.charCodeAt(i)) || src.charCodeAt(i) === CH_SPACE))
    ) {
      let end = src.indexOf("\n", start);
      if (end < 0) end = src.length;
      this.sink.error(Codes.HashComment, "'#' does not start a comment in Pine; use //", this.span(start, start + 1));
      this.pos = end;
      return;
    }
    if ((n !== 6 && n !== 8) || isIdentPart(src.charCodeAt(i))) {
      while (isIdentPart(src.charCodeAt(i))) i++;
      this.pos = i;
      this.sink.error(
        Codes.BadColor,
        `Invalid color literal '${src.slice(start, i)}': expecting #RRGGBB or #RRGGBBAA`,
        this.span(start, i),
      );
      this.emit("Error", start, i);
      return;
    }
    this.pos = i;
    this.emit("Color", start, i);
  }

  private readPunct(c: number): void {
    const src = this.src;
    const start = this.pos;
    const c2 = src.charCodeAt(start + 1);
    // only `=`, `>`, `*`, `&`, `|` can end a two-character symbol: skip the slice otherwise
    const two = c2 === 61 || c2 === 62 || c2 === 42 || c2 === 38 || c2 === 124 ? src.slice(start, start + 2) : "";
    if (two === "/*") {
      const close = src.indexOf("*/", start + 2);
      const end = close < 0 ? src.length : close + 2;
      this.sink.error(
        Codes.BlockComment,
        "Block comments /* */ are not supported in Pine; use // on each line",
        this.span(start, start + 2),
      );
      this.advanceLines(start, end);
      this.pos = end;
      return;
    }
    // `<<` and `>>` are two tokens: `>>` closes nested type arguments; the parser rejects shifts.
    if (two === "&&" || two === "||") {
      this.pos = start + 2;
      this.sink.error(
        Codes.CStyleLogic,
        `'${two}' is not a Pine operator; use '${two === "&&" ? "and" : "or"}'`,
        this.span(start, start + 2),
      );
      this.emit("Error", start, start + 2);
      return;
    }
    if (TWO_CHAR.has(two)) {
      this.pos = start + 2;
      this.emit("Punct", start, start + 2);
      return;
    }
    const one = src[start]!;
    this.pos = start + 1;
    if (ONE_CHAR.has(one)) {
      if (c === 40 || c === 91) this.parenDepth++;
      else if ((c === 41 || c === 93) && this.parenDepth > 0) this.parenDepth--;
      this.emit("Punct", start, start + 1);
      return;
    }
    if (one === "&" || one === "|" || one === "^" || one === "~") {
      this.sink.error(
        Codes.BitwiseOp,
        `Pine has no bitwise operators ('${one}'); use 'and', 'or', 'not' for logic`,
        this.span(start, start + 1),
      );
    } else if (one === "!") {
      this.sink.error(Codes.CStyleLogic, "'!' is not a Pine operator; use 'not'", this.span(start, start + 1));
    } else {
      const cp = src.codePointAt(start)!;
      const ch = String.fromCodePoint(cp);
      this.pos = start + ch.length;
      const shown =
        cp <= 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp === 0x200b
          ? `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`
          : `'${ch}'`;
      this.sink.error(Codes.UnexpectedChar, `Unexpected character ${shown}`, this.span(start, this.pos));
    }
    this.emit("Error", start, this.pos);
  }

  private emit(kind: TokenKind, start: number, end: number): Token {
    return this.emitFrom(kind, start, end, this.line, this.lineStart);
  }

  /** Emits a real token that started on `startLine` (strings can span lines). */
  private emitFrom(kind: TokenKind, start: number, end: number, startLine: number, startLineStart: number): Token {
    const tok: Token = {
      kind,
      text: this.src.slice(start, end),
      value: undefined,
      isInt: false,
      start,
      end,
      line: startLine,
      col: start - startLineStart + 1,
      endLine: this.line,
      endCol: end - this.lineStart + 1,
    };
    this.tokens.push(tok);
    this.lastReal = tok;
    this.pendingLine = true;
    return tok;
  }

  /** Layout tokens are zero-width, placed at `at`. */
  private emitLayout(kind: TokenKind, at: number): void {
    const { line, col } = this.locate(at);
    this.tokens.push({
      kind,
      text: "",
      value: undefined,
      isInt: false,
      start: at,
      end: at,
      line,
      col,
      endLine: line,
      endCol: col,
    });
    if (kind === "Newline") this.pendingLine = false;
  }

  private locate(at: number): { line: number; col: number } {
    if (at >= this.lineStart) return { line: this.line, col: at - this.lineStart + 1 };
    // The end of the previous logical line: found from the last real token.
    const t = this.lastReal;
    if (t && at === t.end) return { line: t.endLine, col: t.endCol };
    return { line: this.line, col: 1 };
  }

  private span(start: number, end: number): Span {
    const col = start - this.lineStart + 1;
    return { start, end, line: this.line, column: col, endLine: this.line, endColumn: col + (end - start) };
  }
}

/** Tokenizes `source`; problems go to `sink`, never thrown. */
export function tokenize(source: string, sink: DiagnosticSink): LexResult {
  return new Lexer(source, sink).run();
}
