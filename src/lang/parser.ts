// The parser state shared by the grammar modules (expressions, statements, types), in the manner
// of acorn's `Parser`: the token array, the cursor, span helpers, error reporting and recovery.
// Grammar functions are plain functions `parseX(p)` in their own files.

import type { Span } from "./ast.js";
import { type Code, Codes, type DiagnosticSink, describeToken, mismatched } from "./diagnostics.js";
import type { Comment } from "./lexer.js";
import { RESERVED, type Token } from "./tokens.js";

/** Expression nesting (parentheses, calls, unary operators, ternaries) a script may use. */
export const MAX_DEPTH = 400;
/**
 * Links of operator and postfix chains open at once (`1 + 1 + ...`, `a[1][1]...`, `a.b.c`): each link
 * nests the tree one level deeper for the checker and both backends, which walk it recursively, so the
 * chains are bounded too (src/lang/README.md, docs/compatibility.md).
 */
export const MAX_CHAIN = 1000;

/** Thrown to abandon the current statement; the statement loop catches it and resynchronises. */
export class ParseAbort extends Error {
  constructor() {
    super("parse aborted");
  }
}

export class Parser {
  pos = 0;
  /** The last real (non-layout) token consumed: spans end there. */
  last: Token;
  /** Nesting of local blocks (and inline function bodies): declarations that belong at the top
   * of a script (functions, types, enums, imports) are rejected inside them. */
  blockDepth = 0;
  /** Nesting of expressions, bounded so hostile input cannot overflow the stack. */
  depth = 0;
  /** Links of the operator/postfix chains being parsed (see MAX_CHAIN). */
  chain = 0;

  constructor(
    readonly source: string,
    readonly tokens: Token[],
    readonly comments: Comment[],
    readonly sink: DiagnosticSink,
  ) {
    this.last = tokens[0]!;
  }

  peek(offset = 0): Token {
    const i = this.pos + offset;
    return this.tokens[i < this.tokens.length ? i : this.tokens.length - 1]!;
  }

  next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.kind !== "EOF") this.pos++;
    if (t.kind !== "Newline" && t.kind !== "Indent" && t.kind !== "Dedent" && t.kind !== "EOF") this.last = t;
    return t;
  }

  /** Enters one level of expression nesting; fails past MAX_DEPTH. Pair with `leave()`. */
  enter(): void {
    if (++this.depth > MAX_DEPTH) {
      this.depth = 0;
      this.fail(
        Codes.TooDeep,
        `Expression nested too deeply (more than ${MAX_DEPTH} levels)`,
        this.tokenSpan(this.peek()),
      );
    }
  }

  leave(): void {
    if (this.depth > 0) this.depth--;
  }

  /** One more link of an operator or postfix chain; fails past MAX_CHAIN. Pair with `unlink(links)`. */
  link(): void {
    if (++this.chain > MAX_CHAIN) {
      this.chain = 0;
      this.fail(
        Codes.TooDeep,
        `Expression too long: more than ${MAX_CHAIN} chained operators or [] / . / () suffixes; split it into variables`,
        this.tokenSpan(this.peek()),
      );
    }
  }

  /** Closes the links a finished chain opened. */
  unlink(links: number): void {
    this.chain = Math.max(0, this.chain - links);
  }

  /** Reports (without abandoning the statement) a top-level-only declaration inside a block. */
  requireTopLevel(what: string, at: Token): void {
    if (this.blockDepth > 0)
      this.error(
        Codes.NotTopLevel,
        `${what} can only be declared at the top level of a script, not inside a block`,
        this.tokenSpan(at),
      );
  }

  /** The previous token closed a block: an `if`/`switch`/loop expression just ended, and with it
   * the expression (nothing can follow it on the next line but a new statement). */
  afterBlock(): boolean {
    return this.pos > 0 && this.tokens[this.pos - 1]!.kind === "Dedent";
  }

  /** The current token is the punctuation `text`. */
  at(text: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "Punct" && t.text === text;
  }

  /** The current token is the word `word` (a keyword or contextual keyword). */
  atWord(word: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "Ident" && t.text === word;
  }

  atKind(kind: Token["kind"], offset = 0): boolean {
    return this.peek(offset).kind === kind;
  }

  /** An identifier usable as a name (not a reserved word). */
  atName(offset = 0): boolean {
    const t = this.peek(offset);
    return t.kind === "Ident" && !RESERVED.has(t.text);
  }

  eat(text: string): boolean {
    if (this.at(text)) {
      this.next();
      return true;
    }
    return false;
  }

  eatWord(word: string): boolean {
    if (this.atWord(word)) {
      this.next();
      return true;
    }
    return false;
  }

  expect(text: string, what = `'${text}'`): Token {
    if (this.at(text)) return this.next();
    return this.unexpected(what);
  }

  expectWord(word: string): Token {
    if (this.atWord(word)) return this.next();
    return this.unexpected(`'${word}'`);
  }

  /** Reports "Mismatched input X expecting Y" at the current token and abandons the statement. */
  unexpected(expected: string, code: Code = Codes.Mismatched): never {
    const t = this.peek();
    // The lexer already reported its error tokens; one message per problem is enough.
    if (t.kind !== "Error") this.fail(code, mismatched(describeToken(t.kind, t.text), expected), this.tokenSpan(t));
    throw new ParseAbort();
  }

  fail(code: Code, message: string, span: Span): never {
    this.sink.error(code, message, span);
    throw new ParseAbort();
  }

  error(code: Code, message: string, span: Span): void {
    this.sink.error(code, message, span);
  }

  tokenSpan(t: Token): Span {
    return { start: t.start, end: t.end, line: t.line, column: t.col, endLine: t.endLine, endColumn: t.endCol };
  }

  /** The span from token `start` to the last consumed token. */
  spanFrom(start: Token): Span {
    const end = this.last.end >= start.start ? this.last : start;
    return {
      start: start.start,
      end: end.end,
      line: start.line,
      column: start.col,
      endLine: end.endLine,
      endColumn: end.endCol,
    };
  }

  /** The span from an existing span's start to the last consumed token. */
  spanFromSpan(s: Span): Span {
    const end = this.last;
    return {
      start: s.start,
      end: end.end,
      line: s.line,
      column: s.column,
      endLine: end.endLine,
      endColumn: end.endCol,
    };
  }

  /** After an error: skips to the end of the current logical line, including any block nested under
   * it, so the next statement at the same or a lower indent is parsed normally. */
  recover(): void {
    let depth = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind === "EOF") return;
      if (t.kind === "Newline" && depth === 0) {
        this.next();
        if (!this.atKind("Indent")) return;
        continue;
      }
      if (t.kind === "Dedent") {
        if (depth === 0) return;
        this.next();
        depth--;
        // back at our level: an `else` still belongs to the abandoned statement
        if (depth === 0 && !this.atWord("else")) return;
        continue;
      }
      if (t.kind === "Indent") depth++;
      this.next();
    }
  }
}
