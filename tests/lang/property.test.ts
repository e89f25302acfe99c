// Property tests: whatever the input, parse never throws, always terminates, and every diagnostic
// points inside the source (1-based line within the text, column within that line + 1).
import fc from "fast-check";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse, unparse, type Diagnostic } from "../../src/lang/index.js";
import { pineFiles, read, shape, spanProblems } from "./helpers.js";

const VOCAB = [
  "if",
  "else",
  "for",
  "to",
  "by",
  "in",
  "while",
  "switch",
  "var",
  "varip",
  "const",
  "simple",
  "series",
  "type",
  "enum",
  "method",
  "import",
  "export",
  "as",
  "and",
  "or",
  "not",
  "true",
  "false",
  "na",
  "break",
  "continue",
  "x",
  "y",
  "close",
  "ta.sma",
  "array.new",
  "float",
  "int",
  "array",
  "map",
  "_",
  "this",
  "0",
  "1",
  "14",
  "1.5",
  ".5",
  "1e3",
  "2.",
  "0x1F",
  "1_0",
  '"s"',
  "'t'",
  '"unterminated',
  "'''",
  "#ff0000",
  "#12",
  "#",
  "(",
  ")",
  "[",
  "]",
  "<",
  ">",
  "<=",
  ">=",
  "==",
  "!=",
  "=",
  ":=",
  "+=",
  "-=",
  "*=",
  "/=",
  "%=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "?",
  ":",
  ",",
  ".",
  "=>",
  "&",
  "|",
  "^",
  "~",
  "!",
  "&&",
  "<<",
  "/*",
  "*/",
  "@",
  "$",
  "\\",
  "//",
  "//@version=6",
  "//@function f",
  "\n",
  "\n",
  "\n",
  "\n",
  "\n    ",
  "\n        ",
  "\n  ",
  "\n\t",
  "\r\n",
  " ",
  " ",
  "\t",
  "é",
  "日本",
  "\u0000",
];

function checkDiagnostics(source: string, diagnostics: Diagnostic[]): void {
  const lines = source.split("\n");
  for (const d of diagnostics) {
    expect(d.line).toBeGreaterThanOrEqual(1);
    expect(d.line).toBeLessThanOrEqual(lines.length);
    expect(d.column).toBeGreaterThanOrEqual(1);
    expect(d.column).toBeLessThanOrEqual(lines[d.line - 1]!.length + 1);
    expect(d.end_line).toBeGreaterThanOrEqual(d.line);
    expect(d.end_line).toBeLessThanOrEqual(lines.length);
    if (d.end_line === d.line) expect(d.end_column).toBeGreaterThanOrEqual(d.column);
    expect(d.end_column).toBeLessThanOrEqual(lines[d.end_line - 1]!.length + 1);
    expect(d.message.length).toBeGreaterThan(0);
    expect(d.code).toMatch(/^P\d{4}$/);
  }
}

function checkSource(source: string): void {
  const r = parse(source);
  checkDiagnostics(source, r.diagnostics);
  expect(spanProblems(source, r.ast)).toEqual([]);
  // the recovered tree is printable
  expect(typeof unparse(r.ast)).toBe("string");
}

const corpusDir = fileURLToPath(new URL("../corpus", import.meta.url));
const scripts = pineFiles(corpusDir).slice(0, 60).map(read);

type Edit =
  | { kind: "delete"; at: number; len: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "dupline"; at: number }
  | { kind: "indent"; at: number; by: string };

function applyEdit(src: string, e: Edit): string {
  const at = Math.floor(e.at * src.length);
  switch (e.kind) {
    case "delete":
      return src.slice(0, at) + src.slice(at + e.len);
    case "insert":
      return src.slice(0, at) + e.text + src.slice(at);
    case "dupline": {
      const start = src.lastIndexOf("\n", at - 1) + 1;
      let end = src.indexOf("\n", at);
      if (end < 0) end = src.length;
      return src.slice(0, end) + "\n" + src.slice(start, end) + src.slice(end);
    }
    case "indent": {
      const start = src.lastIndexOf("\n", at - 1) + 1;
      return src.slice(0, start) + e.by + src.slice(start);
    }
  }
}

const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant("delete" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    len: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.constantFrom(...VOCAB),
  }),
  fc.record({ kind: fc.constant("dupline" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant("indent" as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    by: fc.constantFrom(" ", "  ", "    ", "\t", "       "),
  }),
);

describe("parser properties", () => {
  it("random token sequences never throw and diagnostics stay inside the source", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...VOCAB), { maxLength: 80 }),
        fc.array(fc.constantFrom("", " ", "  "), { maxLength: 80 }),
        (toks, gaps) => {
          const source = toks.map((t, i) => t + (gaps[i] ?? " ")).join("");
          checkSource(source);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("random characters never throw", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (source) => checkSource(source)),
      { numRuns: 1000 },
    );
  });

  it("random edits of corpus scripts never throw and diagnostics stay inside the source", () => {
    expect(scripts.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: scripts.length - 1 }),
        fc.array(editArb, { minLength: 1, maxLength: 6 }),
        (which, edits) => {
          let source = scripts[which]!;
          for (const e of edits) source = applyEdit(source, e);
          checkSource(source);
        },
      ),
      { numRuns: 600 },
    );
  });

  it("edited scripts that still parse cleanly also round-trip through unparse", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: scripts.length - 1 }),
        fc.array(editArb, { minLength: 1, maxLength: 3 }),
        (which, edits) => {
          let source = scripts[which]!;
          for (const e of edits) source = applyEdit(source, e);
          const first = parse(source);
          if (first.diagnostics.some((d) => d.severity === "error")) return;
          const second = parse(unparse(first.ast));
          expect(second.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          expect(shape(second.ast)).toBe(shape(first.ast));
        },
      ),
      { numRuns: 800 },
    );
  });

  it("deeply nested input terminates", () => {
    checkSource("x = " + "(".repeat(2000) + "1" + ")".repeat(2000));
    checkSource("x = " + "[".repeat(500));
    checkSource("if a\n" + Array.from({ length: 200 }, (_, i) => "    ".repeat(i + 1) + "if b").join("\n"));
  });
});

describe("nesting limits", () => {
  it("reports very deep nesting instead of overflowing the stack", () => {
    for (const source of [
      "x = " + "(".repeat(20000) + "1",
      "x = " + "-".repeat(20000) + "1",
      "x = " + "not ".repeat(20000) + "a",
      "x = " + "f(".repeat(20000),
    ]) {
      const r = parse(source);
      expect(r.diagnostics.some((d) => d.code === "P2013")).toBe(true);
      checkDiagnostics(source, r.diagnostics);
    }
  });
});
