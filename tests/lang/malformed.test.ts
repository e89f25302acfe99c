// Malformed inputs: each must give an error with the expected code, message and 1-based position
// (the script is prefixed with `//@version=6`, so the snippet's first line is line 2).
import { describe, expect, it } from "vitest";
import { parse } from "../../src/lang/index.js";

type Row = [source: string, line: number, column: number, code: string, message: string];

const ROWS: Row[] = [
  ["x = 1 +\n", 2, 8, "P2009", "Mismatched input end of line expecting an expression"],
  ["x = (1 + 2\n", 2, 11, "P2001", "Mismatched input end of line expecting ')'"],
  ["x = 1 + 2)\n", 2, 10, "P2001", "Mismatched input ')' expecting end of line"],
  ["plot(close,, 1)\n", 2, 12, "P2009", "Mismatched input ',' expecting an expression"],
  ["x = 0x1F\n", 2, 5, "P1006", "Hexadecimal literals are not supported in Pine; write the number in decimal"],
  ["x = 1_000\n", 2, 5, "P1007", "Invalid number literal '1_000'"],
  ["/* block */\nx = 1\n", 2, 1, "P1003", "Block comments /* */ are not supported in Pine; use // on each line"],
  ["# comment\nx = 1\n", 2, 1, "P1004", "'#' does not start a comment in Pine; use //"],
  ["c = #12345\n", 2, 5, "P1005", "Invalid color literal '#12345': expecting #RRGGBB or #RRGGBBAA"],
  ["c = #GGHHII\n", 2, 5, "P1005", "Invalid color literal '#GGHHII': expecting #RRGGBB or #RRGGBBAA"],
  ['s = "abc\n', 2, 5, "P1002", "Unterminated string: the closing quote is missing"],
  ["s = '''abc'''\n", 2, 5, "P1009", 'Triple-quoted strings are not supported in Pine; use "..." with \\n escapes'],
  ["x = a & b\n", 2, 7, "P1008", "Pine has no bitwise operators ('&'); use 'and', 'or', 'not' for logic"],
  ["x = a | b\n", 2, 7, "P1008", "Pine has no bitwise operators ('|'); use 'and', 'or', 'not' for logic"],
  ["x = a ^ b\n", 2, 7, "P1008", "Pine has no bitwise operators ('^'); use 'and', 'or', 'not' for logic"],
  ["x = ~a\n", 2, 5, "P1008", "Pine has no bitwise operators ('~'); use 'and', 'or', 'not' for logic"],
  ["x = a << 2\n", 2, 7, "P1008", "Pine has no bitwise operators ('<<')"],
  ["x = a >> 2\n", 2, 7, "P1008", "Pine has no bitwise operators ('>>')"],
  ["x = a && b\n", 2, 7, "P1010", "'&&' is not a Pine operator; use 'and'"],
  ["x = a || b\n", 2, 7, "P1010", "'||' is not a Pine operator; use 'or'"],
  ["x = !a\n", 2, 5, "P1010", "'!' is not a Pine operator; use 'not'"],
  ["x = a @ b\n", 2, 7, "P1001", "Unexpected character '@'"],
  ["if = 1\n", 2, 1, "P2004", "'if' is a reserved keyword and cannot be used as a variable name"],
  ["var = 1\n", 2, 5, "P2001", "Mismatched input '=' expecting a variable name"],
  ["x = if\n", 2, 7, "P2009", "Mismatched input end of line expecting an expression"],
  ["if close > open\nx = 1\n", 3, 1, "P2003", "Expecting an indented block (4 spaces or a tab) on the next line"],
  ["if close > open x := 1\n", 2, 17, "P2001", "Mismatched input 'x' expecting end of line"],
  ["for i = 0 10\n    x = i\n", 2, 11, "P2001", "Mismatched input '10' expecting 'to'"],
  [
    "for i 0 to 10\n    x = i\n",
    2,
    7,
    "P2001",
    "Mismatched input '0' expecting '=' or 'in' (for i = start to end, for x in collection)",
  ],
  ["for [i v] in arr\n    x = i\n", 2, 8, "P2001", "Mismatched input 'v' expecting ','"],
  [
    "for x arr\n    y = x\n",
    2,
    7,
    "P2001",
    "Mismatched input 'arr' expecting '=' or 'in' (for i = start to end, for x in collection)",
  ],
  ["while\n    x = 1\n", 2, 6, "P2009", "Mismatched input end of line expecting an expression"],
  ["switch x\n1 => 2\n", 3, 1, "P2003", "Expecting indented 'value => result' lines after 'switch'"],
  ["f(x =>\n", 2, 5, "P2001", "Mismatched input '=>' expecting ')' or ','"],
  ["f(x) => \n", 3, 1, "P2003", "Expecting an indented block (4 spaces or a tab) on the next line"],
  ["f(1) => x\n", 2, 3, "P2001", "Mismatched input '1' expecting a parameter name"],
  [
    "type\n    float x\n",
    3,
    5,
    "P2002",
    "Unexpected indentation: this line is indented but does not follow an if, for, while, switch, function or type header",
  ],
  ["type Foo\nfloat x\n", 3, 1, "P2003", "Expecting indented field declarations on the next lines"],
  ["type Foo\n    float\n", 3, 10, "P2001", "Mismatched input end of line expecting a field name"],
  ["enum Dir\n    up = 1\n", 3, 10, "P2001", "Mismatched input '1' expecting a string title for the enum member"],
  ["import foo/bar\n", 2, 8, "P2007", "Invalid import: expecting 'import <user>/<library>/<version> [as <alias>]'"],
  [
    "import foo/bar/x as b\n",
    2,
    8,
    "P2007",
    "Invalid import: expecting 'import <user>/<library>/<version> [as <alias>]'",
  ],
  [
    "export x = 1\n",
    2,
    8,
    "P2001",
    "Mismatched input 'x' expecting a function, method, type, enum or 'const' declaration after 'export'",
  ],
  [
    "[a, b] := f()\n",
    2,
    1,
    "P2006",
    "Tuples cannot be reassigned with ':='; declare new variables with '[a, b] = ...'",
  ],
  ["[a, 1] = f()\n", 2, 1, "P2005", "Cannot declare this: the left side of '=' must be a variable name"],
  ["f() = 1\n", 2, 1, "P2005", "Cannot declare this: the left side of '=' must be a variable name"],
  ["x[1] := 2\n", 2, 1, "P2005", "Cannot assign to this expression with ':=': expecting a variable or an object field"],
  ["1 := 2\n", 2, 1, "P2005", "Cannot assign to this expression with ':=': expecting a variable or an object field"],
  [
    "    x = 1\n",
    2,
    5,
    "P2002",
    "Unexpected indentation: this line is indented but does not follow an if, for, while, switch, function or type header",
  ],
  [
    "x = 1\n        y = 2\n",
    3,
    9,
    "P2002",
    "Unexpected indentation: this line is indented but does not follow an if, for, while, switch, function or type header",
  ],
  ["x := := 1\n", 2, 6, "P2009", "Mismatched input ':=' expecting an expression"],
  ["x = a ? b\n", 2, 10, "P2001", "Mismatched input end of line expecting ':' of the conditional expression"],
  ["x = a ? : b\n", 2, 9, "P2009", "Mismatched input ':' expecting an expression"],
  ["x = ta.sma(close 14)\n", 2, 18, "P2001", "Mismatched input '14' expecting ')' or ','"],
  ["x = ta.sma(close, 14\ny = 2\n", 2, 21, "P2001", "Mismatched input end of line expecting ')' or ','"],
  ["x = [1, 2\n", 2, 10, "P2001", "Mismatched input end of line expecting ']' or ','"],
  ["x = close[1\n", 2, 12, "P2001", "Mismatched input end of line expecting ']' closing the history reference"],
  ["x = close.\n", 2, 11, "P2001", "Mismatched input end of line expecting a field or function name after '.'"],
  ["float = 1\n", 2, 1, "P2004", "'float' is a type keyword and cannot be used as a variable name"],
  ["var float = 1\n", 2, 5, "P2004", "'float' is a type keyword and cannot be used as a variable name"],
  ["x = 1 y = 2\n", 2, 7, "P2001", "Mismatched input 'y' expecting end of line"],
  ["x = a not b\n", 2, 7, "P2001", "Mismatched input 'not' expecting end of line"],
  ["x = 1e\n", 2, 5, "P1007", "Invalid number literal '1e'"],
  ["plot(close)\n)\n", 3, 1, "P2009", "Mismatched input ')' expecting an expression"],
  ["else\n    x = 1\n", 2, 1, "P2001", "'else' without a matching 'if' above it at the same indentation"],
  [
    "f(x) =>\n    g(y) =>\n        y\n    g(x)\n",
    3,
    5,
    "P2008",
    "Functions can only be declared at the top level of a script",
  ],
  ["x = 1 +* 2\n", 2, 8, "P2009", "Mismatched input '*' expecting an expression"],
  ["x = ,\n", 2, 5, "P2009", "Mismatched input ',' expecting an expression"],
  ["type Foo\n    float x = \n", 3, 14, "P2009", "Mismatched input end of line expecting an expression"],
  ["enum E\n    a = \n", 3, 8, "P2001", "Mismatched input end of line expecting a string title for the enum member"],
  ["for i = 0 to\n    x = 1\n", 2, 13, "P2009", "Mismatched input end of line expecting an expression"],
  ["for i = 0 to 10 by\n    x = 1\n", 2, 19, "P2009", "Mismatched input end of line expecting an expression"],
  ["x = a ? b : \n", 2, 12, "P2009", "Mismatched input end of line expecting an expression"],
  ["import\n", 2, 1, "P2007", "Invalid import: expecting 'import <user>/<library>/<version> [as <alias>]'"],
  ["var\n", 2, 4, "P2001", "Mismatched input end of line expecting a variable name"],
  ["varip x\n", 2, 8, "P2001", "Mismatched input end of line expecting '='"],
  ["x = true false\n", 2, 10, "P2001", "Mismatched input 'false' expecting end of line"],
  ["x = 3 3\n", 2, 7, "P2001", "Mismatched input '3' expecting end of line"],
  ["if x\n    y = 1\nelse\nz = 2\n", 5, 1, "P2003", "Expecting an indented block (4 spaces or a tab) on the next line"],
  ["while x > 0\n", 3, 1, "P2003", "Expecting an indented block (4 spaces or a tab) on the next line"],
  ["a = 1, , b = 2\n", 2, 8, "P2009", "Mismatched input ',' expecting an expression"],
  ["x = #1234567\n", 2, 5, "P1005", "Invalid color literal '#1234567': expecting #RRGGBB or #RRGGBBAA"],
  ["x = close[]\n", 2, 11, "P2009", "Mismatched input ']' expecting an expression"],
  ["x = f(a = )\n", 2, 11, "P2009", "Mismatched input ')' expecting an expression"],
  [
    "export\n",
    2,
    7,
    "P2001",
    "Mismatched input end of line expecting a function, method, type, enum or 'const' declaration after 'export'",
  ],
  ["[a, b = f()\n", 2, 7, "P2001", "Mismatched input '=' expecting ']' or ','"],
  ["if a\n      x = 1\n", 3, 7, "P2001", "Mismatched input 'x' expecting end of line"],
  ["x = 1\n  y = 2\n", 3, 3, "P2001", "Mismatched input 'y' expecting end of line"],
  ["string s = 'it's'\n", 2, 16, "P2001", "Mismatched input 's' expecting end of line"],
  ["x = 1 = 2\n", 2, 7, "P2001", "Mismatched input '=' expecting end of line"],
  ["x = 10 %\n", 2, 9, "P2009", "Mismatched input end of line expecting an expression"],
  ["x = (\n", 2, 6, "P2009", "Mismatched input end of line expecting an expression"],
  ["plot(close\n", 2, 11, "P2001", "Mismatched input end of line expecting ')' or ','"],
  [
    "if a\n    f(x) => x\n",
    3,
    5,
    "P2008",
    "Functions can only be declared at the top level of a script, not inside a block",
  ],
  ["if a\n    type T\n        int x\n", 3, 5, "P2008", "Types can only be declared at the top level"],
  ["for i = 0 to 1\n    enum E\n        a\n", 3, 5, "P2008", "Enums can only be declared at the top level"],
  ["if a\n    import u/l/1\n", 3, 5, "P2008", "Imports can only be declared at the top level"],
  ["x = switch 1\n    1 => f(y) => y\n", 3, 10, "P2008", "Functions can only be declared at the top level"],
  ["if a\n    export f(float x) => x\n", 3, 5, "P2008", "Exports can only be declared at the top level"],
  ["float x\n", 2, 8, "P2001", "expecting '=' and an initial value (e.g. 'float x = na')"],
  ["var array<float> xs\n", 2, 20, "P2001", "expecting '=' and an initial value (e.g. 'array<float> xs = na')"],
];

describe("malformed input table", () => {
  it("has at least 60 rows", () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(ROWS)("%j", (source, line, column, code, message) => {
    const { diagnostics } = parse("//@version=6\n" + source);
    const errors = diagnostics.filter((d) => d.severity === "error");
    expect(errors.length).toBeGreaterThan(0);
    const hit = errors.find((d) => d.code === code && d.line === line && d.column === column);
    expect(hit, JSON.stringify(errors)).toBeDefined();
    expect(hit!.message).toContain(message);
    expect(hit!.end_line > hit!.line || hit!.end_column >= hit!.column).toBe(true);
  });
});

describe("script-level diagnostics", () => {
  it("warns when //@version is missing and reads the script as v6", () => {
    const r = parse('indicator("x")\nplot(close)\n');
    expect(r.ast.version).toBe(6);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ severity: "warning", code: "P3001", line: 1, column: 1 }),
    ]);
  });

  it("rejects versions other than 5 and 6", () => {
    const r = parse('//@version=4\nstudy("x")\n');
    expect(r.ast.version).toBe(4);
    expect(r.diagnostics[0]).toMatchObject({ severity: "error", code: "P3002", line: 1, column: 1 });
    expect(r.diagnostics[0]!.message).toContain("//@version=5 or //@version=6");
  });

  it("reads //@version=5", () => {
    const r = parse("//@version=5\nindicator('x')\n");
    expect(r.ast.version).toBe(5);
    expect(r.diagnostics).toEqual([]);
  });
});

describe("recovery", () => {
  it("reports several errors in one pass and keeps the good statements", () => {
    const src = [
      "//@version=6",
      'indicator("multi")',
      "a = 1 +",
      "b = 2",
      "c = (3",
      "if close > open",
      "    d = 4 5",
      "    e = 5",
      "f = 6 & 7",
      "plot(b)",
    ].join("\n");
    const r = parse(src);
    const lines = r.diagnostics.map((d) => d.line);
    expect(lines).toEqual([3, 5, 7, 9]);
    const names = r.ast.body.flatMap((s) => (s.kind === "VarDecl" ? [s.name.name] : []));
    expect(names).toEqual(["b"]);
    const ifStmt = r.ast.body.find((s) => s.kind === "ExprStmt" && s.expr.kind === "If");
    expect(ifStmt).toBeDefined();
    if (ifStmt?.kind === "ExprStmt" && ifStmt.expr.kind === "If") {
      expect(ifStmt.expr.then.body.map((s) => (s.kind === "VarDecl" ? s.name.name : s.kind))).toEqual(["e"]);
    }
    expect(r.ast.body[r.ast.body.length - 1]).toMatchObject({ kind: "ExprStmt", expr: { kind: "Call" } });
  });

  it("skips the whole block of a broken header, including its else", () => {
    const src = "//@version=6\nif close > open)\n    x = 1\nelse\n    x = 2\ny = 3\n";
    const r = parse(src);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.ast.body).toHaveLength(1);
    expect(r.ast.body[0]).toMatchObject({ kind: "VarDecl", name: { name: "y" } });
  });

  it("recovers inside switch arms and type bodies", () => {
    const src = [
      "//@version=6",
      "type T",
      "    float a = 1",
      "    float = 2",
      "    int c",
      "x = switch 1",
      "    1 => 10",
      "    2 => 20 20",
      "    => 0",
    ].join("\n");
    const r = parse(src);
    expect(r.diagnostics.map((d) => d.line)).toEqual([4, 8]);
    const t = r.ast.body[0];
    expect(t?.kind === "TypeDecl" && t.fields.map((f) => f.name.name)).toEqual(["a", "c"]);
    const x = r.ast.body[1];
    expect(x?.kind === "VarDecl" && x.init.kind === "Switch" && x.init.cases.length).toBe(2);
  });
});
