// The catalogue of every diagnostic the front end reports. Codes are stable (tests and editors key
// on them); messages are written for a Pine programmer, naming what was found and what was expected.
// Lexer codes are P1xxx, parser codes P2xxx, script-level warnings P3xxx.

import type { Diagnostic, Severity, Span } from "./ast.js";

export const Codes = {
  // ---- lexer
  UnexpectedChar: "P1001",
  UnterminatedString: "P1002",
  BlockComment: "P1003",
  HashComment: "P1004",
  BadColor: "P1005",
  HexLiteral: "P1006",
  BadNumber: "P1007",
  BitwiseOp: "P1008",
  TripleQuote: "P1009",
  CStyleLogic: "P1010",
  BadIndent: "P1011",
  UnbalancedClose: "P1012",
  // ---- parser
  Mismatched: "P2001",
  UnexpectedIndent: "P2002",
  ExpectedBlock: "P2003",
  ReservedWord: "P2004",
  BadAssignTarget: "P2005",
  TupleReassign: "P2006",
  BadImport: "P2007",
  NotTopLevel: "P2008",
  ExpectedExpr: "P2009",
  BadTupleName: "P2010",
  BadParam: "P2011",
  BadDeclaration: "P2012",
  TooDeep: "P2013",
  // ---- script level
  MissingVersion: "P3001",
  BadVersion: "P3002",
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];

/** Collects diagnostics; the lexer and parser report here and keep going. */
export class DiagnosticSink {
  readonly items: Diagnostic[] = [];

  report(severity: Severity, code: Code, message: string, span: Span): void {
    this.items.push({
      severity,
      message,
      line: span.line,
      column: span.column,
      end_line: span.endLine,
      end_column: span.endColumn,
      code,
    });
  }

  error(code: Code, message: string, span: Span): void {
    this.report("error", code, message, span);
  }

  warning(code: Code, message: string, span: Span): void {
    this.report("warning", code, message, span);
  }

  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }
}

/** How a token is named in messages: `'x'`, `end of line`, `end of input`. */
export function describeToken(kind: string, text: string): string {
  switch (kind) {
    case "Newline":
      return "end of line";
    case "EOF":
      return "end of input";
    case "Indent":
      return "indented line";
    case "Dedent":
      return "end of block";
    case "String":
      return `string ${text.length > 20 ? text.slice(0, 20) + "..." : text}`;
    default:
      return `'${text}'`;
  }
}

export function mismatched(found: string, expected: string): string {
  return `Mismatched input ${found} expecting ${expected}`;
}
