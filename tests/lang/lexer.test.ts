// Tokenizer tables: literals, operators, layout tokens (Newline/Indent/Dedent) and line wrapping.
import { describe, expect, it } from "vitest";
import { DiagnosticSink } from "../../src/lang/diagnostics.js";
import { tokenize } from "../../src/lang/lexer.js";

function lex(source: string) {
  const sink = new DiagnosticSink();
  const { tokens, comments } = tokenize(source, sink);
  return { tokens, comments, diagnostics: sink.items };
}

/** Tokens as compact strings: text for real tokens, the kind for layout tokens. */
function kinds(source: string): string[] {
  return lex(source).tokens.map((t) =>
    t.kind === "Punct" || t.kind === "Ident"
      ? t.text
      : t.kind === "Number" || t.kind === "String" || t.kind === "Color"
        ? `${t.kind}:${t.text}`
        : t.kind,
  );
}

describe("literals", () => {
  it.each([
    ["42", 42, true],
    ["1.", 1, false],
    [".5", 0.5, false],
    ["1.5e-3", 0.0015, false],
    [".5e-3", 0.0005, false],
    ["2E10", 2e10, false],
    ["007", 7, true],
  ])("number %s", (src, value, isInt) => {
    const t = lex(src).tokens[0]!;
    expect(t.kind).toBe("Number");
    expect(t.value).toBe(value);
    expect(t.isInt).toBe(isInt);
  });

  it.each([
    [`"abc"`, "abc"],
    [`'abc'`, "abc"],
    [`"a\\"b"`, 'a"b'],
    [`'it\\'s'`, "it's"],
    [`"tab\\there"`, "tab\there"],
    [`"line\\nbreak"`, "line\nbreak"],
    [`"back\\\\slash"`, "back\\slash"],
    [`"\\T"`, "T"],
    [`"mixed 'q'"`, "mixed 'q'"],
    [`""`, ""],
  ])("string %s", (src, value) => {
    const r = lex(src);
    expect(r.diagnostics).toEqual([]);
    expect(r.tokens[0]).toMatchObject({ kind: "String", value });
  });

  it("a string wrapped onto an indented line continues there with one space", () => {
    const r = lex('s = "first part\n     second part"\n');
    expect(r.diagnostics).toEqual([]);
    const s = r.tokens.find((t) => t.kind === "String")!;
    expect(s.value).toBe("first part second part");
    expect(s).toMatchObject({ line: 1, endLine: 2 });
  });

  it.each(["#FF0000", "#ff000080", "#1e88E5"])("colour %s", (src) => {
    expect(lex(src).tokens[0]).toMatchObject({ kind: "Color", text: src });
  });

  it("keywords and identifiers are words", () => {
    expect(kinds("not na and or _x x1")).toEqual(["not", "na", "and", "or", "_x", "x1", "Newline", "EOF"]);
  });

  it("two-character operators", () => {
    expect(kinds("a := b += c -= d *= e /= f %= g == h != i <= j >= k => l")).toEqual([
      "a",
      ":=",
      "b",
      "+=",
      "c",
      "-=",
      "d",
      "*=",
      "e",
      "/=",
      "f",
      "%=",
      "g",
      "==",
      "h",
      "!=",
      "i",
      "<=",
      "j",
      ">=",
      "k",
      "=>",
      "l",
      "Newline",
      "EOF",
    ]);
  });
});

describe("layout", () => {
  it("emits Indent/Dedent for 4-space blocks", () => {
    expect(kinds("if a\n    b\n    if c\n        d\ne")).toEqual([
      "if",
      "a",
      "Newline",
      "Indent",
      "b",
      "Newline",
      "if",
      "c",
      "Newline",
      "Indent",
      "d",
      "Newline",
      "Dedent",
      "Dedent",
      "e",
      "Newline",
      "EOF",
    ]);
  });

  it("a tab is one level", () => {
    expect(kinds("if a\n\tb\nc")).toEqual([
      "if",
      "a",
      "Newline",
      "Indent",
      "b",
      "Newline",
      "Dedent",
      "c",
      "Newline",
      "EOF",
    ]);
  });

  it("a line indented by a non-multiple of 4 continues the previous one", () => {
    expect(kinds("x = a +\n  b\ny = 1")).toEqual([
      "x",
      "=",
      "a",
      "+",
      "b",
      "Newline",
      "y",
      "=",
      "Number:1",
      "Newline",
      "EOF",
    ]);
    expect(kinds("x = a\n     + b")).toEqual(["x", "=", "a", "+", "b", "Newline", "EOF"]);
  });

  it("inside brackets every line continues, even at multiples of 4 or column 1", () => {
    expect(kinds("f(a,\n    b,\nc)\nz")).toEqual([
      "f",
      "(",
      "a",
      ",",
      "b",
      ",",
      "c",
      ")",
      "Newline",
      "z",
      "Newline",
      "EOF",
    ]);
  });

  it("after a trailing operator a deeper multiple-of-4 line continues", () => {
    expect(kinds("x = a and\n    b\n")).toEqual(["x", "=", "a", "and", "b", "Newline", "EOF"]);
    expect(kinds("if a or\n    b\n    c")).toEqual([
      "if",
      "a",
      "or",
      "b",
      "Newline",
      "Indent",
      "c",
      "Newline",
      "Dedent",
      "EOF",
    ]);
  });

  it("blank and comment-only lines do not affect blocks", () => {
    expect(kinds("if a\n\n        // deep comment\n    b\n// c\nd")).toEqual([
      "if",
      "a",
      "Newline",
      "Indent",
      "b",
      "Newline",
      "Dedent",
      "d",
      "Newline",
      "EOF",
    ]);
  });

  it("CRLF line endings", () => {
    expect(kinds("if a\r\n    b\r\nc\r\n")).toEqual([
      "if",
      "a",
      "Newline",
      "Indent",
      "b",
      "Newline",
      "Dedent",
      "c",
      "Newline",
      "EOF",
    ]);
  });

  it("reports a dedent to an unknown level", () => {
    const r = lex("if a\n        b\n    c\n");
    expect(r.diagnostics.map((d) => d.code)).toEqual(["P1011"]);
  });
});

describe("comments", () => {
  it("collects comments with their position and whether they own their line", () => {
    const r = lex("//@version=6\nx = 1 // trailing\n    // indented\n");
    expect(r.comments.map((c) => [c.text, c.line, c.col, c.ownLine])).toEqual([
      ["@version=6", 1, 1, true],
      [" trailing", 2, 7, false],
      [" indented", 3, 5, true],
    ]);
  });
});

describe("token positions", () => {
  it("gives 1-based lines and columns, end exclusive", () => {
    const t = lex("x = 1\n  + foo").tokens.find((k) => k.text === "foo")!;
    expect(t).toMatchObject({ line: 2, col: 5, endLine: 2, endCol: 8, start: 10, end: 13 });
  });
});
