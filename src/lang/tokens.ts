// Token kinds and the keyword tables shared by the lexer and the parser.

export type TokenKind =
  | "Ident" // identifiers and every word, keywords included (see KEYWORDS)
  | "Number"
  | "String"
  | "Color"
  | "Punct" // operators and punctuation, `text` is the symbol
  | "Newline" // end of a logical line
  | "Indent" // a logical line indented one level deeper than the previous one
  | "Dedent" // a block closes
  | "EOF"
  | "Error"; // an unusable character run (already reported by the lexer)

export interface Token {
  kind: TokenKind;
  text: string;
  /** Numbers: the numeric value; strings: the unescaped text. */
  value?: number | string;
  /** Numbers: written without `.` or exponent. */
  isInt?: boolean;
  /** An Indent the lexer already reported (inconsistent dedent): the parser skips it silently. */
  reported?: boolean;
  start: number;
  end: number;
  line: number;
  col: number;
  endLine: number;
  endCol: number;
}

/** Words that can never name a variable or function. */
export const RESERVED = new Set([
  "and",
  "or",
  "not",
  "if",
  "else",
  "switch",
  "for",
  "while",
  "break",
  "continue",
  "var",
  "varip",
  "import",
  "export",
  "true",
  "false",
]);

/** Words that are keywords only in some positions (`type Foo`, `method m()`, `for i = 0 to 9 by 2`). */
export const CONTEXTUAL = new Set(["type", "enum", "method", "const", "simple", "series", "to", "by", "in", "as"]);

/** Fundamental type names: callable as casts (`float(x)`) but never declarable as variables. `color` is
 * not among them: it is also a builtin namespace, and TradingView accepts `color = close > open ?
 * color.green : color.red` (the checker keeps `color.green` the namespace's). */
export const TYPE_KEYWORDS = new Set(["int", "float", "bool", "string"]);

export const QUALIFIERS = new Set(["const", "simple", "series"]);

export const ASSIGN_OPS = new Set([":=", "+=", "-=", "*=", "/=", "%="]);

/** Tokens after which a line break continues the statement instead of ending it. */
export const TRAILING_CONTINUATION = new Set([
  "+",
  "-",
  "*",
  "/",
  "%",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "?",
  ":",
  ",",
  "=",
  ":=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "(",
  "[",
  ".",
]);
export const TRAILING_CONTINUATION_WORDS = new Set(["and", "or", "not"]);
