// Parser tables: operator precedence, every statement form, generic calls, docs and spans.
import { describe, expect, it } from "vitest";
import { parse, unparse, type Expr, type Program, type Stmt } from "../../src/lang/index.js";
import { messages, shape } from "./helpers.js";

function program(src: string): Program {
  const r = parse("//@version=6\n" + src);
  expect(messages(r)).toEqual([]);
  return r.ast;
}

function firstStmt(src: string): Stmt {
  return program(src).body[0]!;
}

function exprOf(src: string): Expr {
  const s = firstStmt(`x = ${src}`);
  if (s.kind !== "VarDecl") throw new Error(`not a declaration: ${s.kind}`);
  return s.init;
}

/** Fully parenthesised rendering, to check grouping. */
function group(e: Expr): string {
  switch (e.kind) {
    case "Binary":
      return `(${group(e.left)} ${e.op} ${group(e.right)})`;
    case "Unary":
      return `(${e.op === "not" ? "not " : e.op}${group(e.operand)})`;
    case "Ternary":
      return `(${group(e.cond)} ? ${group(e.then)} : ${group(e.else)})`;
    case "Index":
      return `${group(e.object)}[${group(e.index)}]`;
    case "Member":
      return `${group(e.object)}.${e.property.name}`;
    case "Call":
      return `${group(e.callee)}${e.typeArgs ? "<" + e.typeArgs.map((t) => t.name).join(",") + ">" : ""}(${e.args.map((a) => (a.name ? a.name.name + "=" : "") + group(a.value)).join(", ")})`;
    case "Paren":
      return `{${group(e.expr)}}`;
    case "Ident":
      return e.name;
    case "Number":
      return e.raw;
    default:
      return e.kind;
  }
}

// TradingView's table: [] > unary + - not > * / % > + - > < <= > >= > == != > and > or > ?:
describe("operator precedence and associativity", () => {
  it.each([
    ["a + b * c", "(a + (b * c))"],
    ["a - b - c", "((a - b) - c)"],
    ["a % b * c / d", "(((a % b) * c) / d)"],
    ["-a * b", "((-a) * b)"],
    ["-x[1]", "(-x[1])"],
    ["x[1] + -y[2]", "(x[1] + (-y[2]))"],
    ["a < b == c < d", "((a < b) == (c < d))"],
    ["a + 1 > b * 2", "((a + 1) > (b * 2))"],
    ["not a == b", "((not a) == b)"],
    ["not (a == b)", "(not {(a == b)})"],
    ["not a > b", "((not a) > b)"],
    ["not na(x) and y", "((not na(x)) and y)"],
    ["not -a * b", "((not (-a)) * b)"],
    ["not a and b", "((not a) and b)"],
    ["a and not b or c", "((a and (not b)) or c)"],
    ["a or b and c", "(a or (b and c))"],
    ["a and b or c and d", "((a and b) or (c and d))"],
    ["a ? b : c ? d : e", "(a ? b : (c ? d : e))"],
    ["a > b ? c + 1 : d", "((a > b) ? (c + 1) : d)"],
    ["a or b ? c : d", "((a or b) ? c : d)"],
    ["(a + b)[1]", "{(a + b)}[1]"],
    ["f(x)[1]", "f(x)[1]"],
    ["a.b.c(d)[2]", "a.b.c(d)[2]"],
    ["- - a", "(-(-a))"],
    ["+a", "(+a)"],
    ["ta.sma(src = close, length = 14)", "ta.sma(src=close, length=14)"],
  ])("%s", (src, expected) => {
    expect(group(exprOf(src))).toBe(expected);
  });
});

describe("generic calls versus comparisons", () => {
  it.each([
    ["array.new<float>(5, 0.0)", "array.new<float>(5, 0.0)"],
    ["map.new<string, float>()", "map.new<string,float>()"],
    ["matrix.new<int>(2, 2, 0)", "matrix.new<int>(2, 2, 0)"],
    ["array.new<chart.point>()", "array.new<chart.point>()"],
    ["a < b", "(a < b)"],
    ["a < b and c > d", "((a < b) and (c > d))"],
    ["a < b ? c : d", "((a < b) ? c : d)"],
    ["a<b", "(a < b)"],
    ["f(a < b, c > d)", "f((a < b), (c > d))"],
    ["f(a < b, c > (d))", "f((a < b), (c > {d}))"],
    ["x.y < b > (c)", "((x.y < b) > {c})"],
  ])("%s", (src, expected) => {
    expect(group(exprOf(src))).toBe(expected);
  });
});

describe("literals in the AST", () => {
  it("keeps numbers, strings, colours, bools and na", () => {
    const s = firstStmt('plot(1.5e-3, "t", #FF000080, true, na, 7)');
    if (s.kind !== "ExprStmt" || s.expr.kind !== "Call") throw new Error("expected a call");
    expect(s.expr.args.map((a) => a.value)).toMatchObject([
      { kind: "Number", value: 0.0015, isInt: false, raw: "1.5e-3" },
      { kind: "String", value: "t", raw: '"t"' },
      { kind: "Color", r: 255, g: 0, b: 0, a: 128, raw: "#FF000080" },
      { kind: "Bool", value: true },
      { kind: "Na" },
      { kind: "Number", value: 7, isInt: true },
    ]);
  });

  it("na(x) is a call to the builtin", () => {
    expect(exprOf("na(close)")).toMatchObject({ kind: "Call", callee: { kind: "Ident", name: "na" } });
  });
});

describe("declarations and assignments", () => {
  it.each<[string, object]>([
    ["x = 1", { kind: "VarDecl", mode: "plain", name: { name: "x" } }],
    ["var x = 0", { kind: "VarDecl", mode: "var" }],
    ["varip int n = 0", { kind: "VarDecl", mode: "varip", type: { name: "int", args: [] } }],
    ["float f = na", { kind: "VarDecl", mode: "plain", type: { name: "float" }, init: { kind: "Na" } }],
    ["var array<float> a = na", { kind: "VarDecl", mode: "var", type: { name: "array", args: [{ name: "float" }] } }],
    ["float[] b = array.new_float()", { kind: "VarDecl", type: { name: "float", legacyArray: true } }],
    [
      "map<string, int> m = map.new<string, int>()",
      { type: { name: "map", args: [{ name: "string" }, { name: "int" }] } },
    ],
    ["chart.point p = chart.point.now()", { type: { name: "chart.point" } }],
    ["lib.Thing t = na", { type: { name: "lib.Thing" } }],
    ["simple int len = 14", { kind: "VarDecl", qualifier: "simple", type: { name: "int" } }],
    ['const string S = "a"', { kind: "VarDecl", qualifier: "const" }],
    ["export const float X = 1.0", { kind: "VarDecl", exported: true, qualifier: "const" }],
    ["[a, _, c] = f()", { kind: "TupleDecl", names: [{ name: "a" }, { name: "_" }, { name: "c" }] }],
    ["x := 2", { kind: "Assign", op: ":=", target: { kind: "Ident" } }],
    ["obj.f += 1", { kind: "Assign", op: "+=", target: { kind: "Member", property: { name: "f" } } }],
    ["a.b.c %= 3", { kind: "Assign", op: "%=" }],
    ["x -= 1", { kind: "Assign", op: "-=" }],
    ["x *= 2", { kind: "Assign", op: "*=" }],
    ["x /= 2", { kind: "Assign", op: "/=" }],
    ["import user/Lib/3 as L", { kind: "Import", namespace: "user", name: "Lib", version: 3, alias: { name: "L" } }],
    ["import TradingView/ta/7", { kind: "Import", namespace: "TradingView", name: "ta", version: 7 }],
  ])("%s", (src, expected) => {
    expect(firstStmt(src)).toMatchObject(expected);
  });

  it("several statements on one line", () => {
    expect(program("a = 1, b = 2, c := 3").body.map((s) => s.kind)).toEqual(["VarDecl", "VarDecl", "Assign"]);
  });
});

describe("control structures", () => {
  it("if / else if / else chains nest in `else`", () => {
    const e = exprOf("if a\n    1\nelse if b\n    2\nelse\n    3");
    expect(e).toMatchObject({ kind: "If", else: { kind: "If", else: { kind: "Block" } } });
  });

  it("if statement with nested blocks and an expression statement after it", () => {
    const body = program("if a\n    if b\n        x := 1\n    else\n        x := 2\ny = 3").body;
    expect(body.map((s) => s.kind)).toEqual(["ExprStmt", "VarDecl"]);
  });

  it("switch with subject, default arm and block arms", () => {
    const e = exprOf('switch s\n    "a" => 1\n    "b" =>\n        y = 2\n        y * 2\n    => 0');
    if (e.kind !== "Switch") throw new Error("expected switch");
    expect(e.subject).toMatchObject({ kind: "Ident", name: "s" });
    expect(e.cases.map((c) => [c.test?.kind ?? null, c.body.body.length])).toEqual([
      ["String", 1],
      ["String", 2],
      [null, 1],
    ]);
  });

  it("switch without subject", () => {
    expect(exprOf("switch\n    a > b => 1\n    => 2")).toMatchObject({
      kind: "Switch",
      cases: [{ test: { kind: "Binary" } }, { test: null }],
    });
  });

  it.each<[string, object]>([
    ["for i = 0 to 10\n    x += i", { kind: "For", counter: { name: "i" } }],
    ["for i = 10 to 0 by 2\n    x += i", { kind: "For", step: { kind: "Number", value: 2 } }],
    ["for int i = 0 to 9\n    x += i", { kind: "For", counterType: { name: "int" } }],
    ["for v in arr\n    x += v", { kind: "ForIn", value: { name: "v" } }],
    ["for [i, v] in arr\n    x += v", { kind: "ForIn", index: { name: "i" }, value: { name: "v" } }],
    ["while x < 10\n    x += 1\n    if x > 5\n        break\n    continue", { kind: "While" }],
  ])("%s", (src, expected) => {
    const s = firstStmt(src);
    expect(s.kind === "ExprStmt" ? s.expr : s).toMatchObject(expected);
  });

  it("loops and switch as expressions", () => {
    expect(exprOf("for i = 0 to 3\n    i * 2")).toMatchObject({ kind: "For" });
    expect(exprOf("while c\n    1")).toMatchObject({ kind: "While" });
  });

  it("tuple destructuring from an if expression", () => {
    expect(firstStmt("[a, b] = if c\n    [1, 2]\nelse\n    [3, 4]")).toMatchObject({
      kind: "TupleDecl",
      init: { kind: "If" },
    });
  });
});

describe("functions, methods, types, enums", () => {
  it("single-line function with defaults", () => {
    expect(firstStmt("f(x, len = 14) => x * len")).toMatchObject({
      kind: "FuncDecl",
      singleLine: true,
      isMethod: false,
      exported: false,
      params: [{ name: { name: "x" } }, { name: { name: "len" }, default: { value: 14 } }],
      body: { body: [{ kind: "ExprStmt" }] },
    });
  });

  it("multi-line function with qualified and typed parameters", () => {
    const f = firstStmt(
      "f(series float src, simple int len, array<float> xs, float[] ys) =>\n    a = src\n    a + len",
    );
    expect(f).toMatchObject({
      kind: "FuncDecl",
      singleLine: false,
      params: [
        { qualifier: "series", type: { name: "float" } },
        { qualifier: "simple", type: { name: "int" } },
        { type: { name: "array", args: [{ name: "float" }] } },
        { type: { name: "float", legacyArray: true } },
      ],
    });
    expect(f.kind === "FuncDecl" && f.body.body.length).toBe(2);
  });

  it("methods and exports", () => {
    expect(firstStmt("method m(T this, int n = 1) => this.v + n")).toMatchObject({
      kind: "FuncDecl",
      isMethod: true,
      exported: false,
    });
    expect(firstStmt("export method m(T this) => this.v")).toMatchObject({
      kind: "FuncDecl",
      isMethod: true,
      exported: true,
    });
    expect(firstStmt("export f(float x) => x")).toMatchObject({ kind: "FuncDecl", exported: true });
  });

  it("type with field defaults and varip fields", () => {
    expect(
      firstStmt("export type P\n    float price = na\n    varip int n = 0\n    array<float> xs\n    P next"),
    ).toMatchObject({
      kind: "TypeDecl",
      exported: true,
      name: { name: "P" },
      fields: [
        { varip: false, type: { name: "float" }, name: { name: "price" }, default: { kind: "Na" } },
        { varip: true, name: { name: "n" } },
        { type: { name: "array" }, name: { name: "xs" } },
        { type: { name: "P" }, name: { name: "next" } },
      ],
    });
  });

  it("enum with and without titles", () => {
    expect(firstStmt('enum E\n    a = "Alpha"\n    b')).toMatchObject({
      kind: "EnumDecl",
      exported: false,
      members: [{ name: { name: "a" }, title: { value: "Alpha" } }, { name: { name: "b" } }],
    });
  });

  it("constructor calls with named arguments", () => {
    expect(exprOf("P.new(price = 1, n = 2)")).toMatchObject({
      kind: "Call",
      callee: { kind: "Member", property: { name: "new" } },
      args: [{ name: { name: "price" } }, { name: { name: "n" } }],
    });
  });
});

describe("doc annotations", () => {
  it("attaches //@ lines above declarations and keeps script-level ones on the program", () => {
    const ast = program(
      [
        "//@description A library.",
        "//@strategy_alert_message hi",
        "",
        "//@function Adds.",
        "//@param a First.",
        "//   more about a.",
        "//@param b Second.",
        "//@returns Sum.",
        "add(a, b) => a + b",
        "",
        "//@variable Counter.",
        "var n = 0",
        "",
        "// not attached: separated by a blank line",
        "",
        "k = 1",
      ].join("\n"),
    );
    expect(ast.doc.map((d) => [d.tag, d.text])).toEqual([
      ["description", "A library."],
      ["strategy_alert_message", "hi"],
    ]);
    const f = ast.body[0]!;
    expect(f.kind === "FuncDecl" && f.doc?.map((d) => [d.tag, d.name ?? null, d.text])).toEqual([
      ["function", null, "Adds."],
      ["param", "a", "First. more about a."],
      ["param", "b", "Second."],
      ["returns", null, "Sum."],
    ]);
    const v = ast.body[1]!;
    expect(v.kind === "VarDecl" && v.doc?.map((d) => d.tag)).toEqual(["variable"]);
    expect(ast.body[2]).not.toHaveProperty("doc");
  });

  it("region markers are plain comments", () => {
    expect(program("//#region Inputs\nx = 1\n//#endregion").body).toHaveLength(1);
  });
});

describe("spans", () => {
  it("covers each node exactly, 1-based, end exclusive", () => {
    const src = "//@version=6\nvalue = ta.sma(close, 14) +\n     high[1]\n";
    const s = parse(src).ast.body[0]!;
    expect(s.span).toMatchObject({ line: 2, column: 1, endLine: 3, endColumn: 13 });
    if (s.kind !== "VarDecl" || s.init.kind !== "Binary") throw new Error("shape");
    expect(src.slice(s.init.span.start, s.init.span.end)).toBe("ta.sma(close, 14) +\n     high[1]");
    expect(src.slice(s.init.left.span.start, s.init.left.span.end)).toBe("ta.sma(close, 14)");
    expect(s.init.right.span).toMatchObject({ line: 3, column: 6, endLine: 3, endColumn: 13 });
    expect(s.name.span).toMatchObject({ line: 2, column: 1, endColumn: 6 });
  });

  it("blocks span their statements", () => {
    const src = "//@version=6\nif a\n    b = 1\n    c = 2\n";
    const s = parse(src).ast.body[0]!;
    if (s.kind !== "ExprStmt" || s.expr.kind !== "If") throw new Error("shape");
    expect(s.expr.then.span).toMatchObject({ line: 3, column: 5, endLine: 4, endColumn: 10 });
    expect(s.span).toMatchObject({ line: 2, column: 1, endLine: 4, endColumn: 10 });
  });

  it("every node's source slice starts and ends inside the script", () => {
    const src = "//@version=6\nf(x) =>\n    [x, x * 2]\n[a, b] = f(close)\nplot(a + b)\n";
    const walk = (v: unknown): void => {
      if (!v || typeof v !== "object") return;
      const n = v as { span?: { start: number; end: number } };
      if (n.span) {
        expect(n.span.start).toBeGreaterThanOrEqual(0);
        expect(n.span.end).toBeLessThanOrEqual(src.length);
        expect(n.span.end).toBeGreaterThanOrEqual(n.span.start);
      }
      for (const child of Object.values(v)) walk(child);
    };
    walk(parse(src).ast);
  });
});

describe("unparse", () => {
  it("normalises spacing and wrapping", () => {
    const r = parse("//@version=6\nindicator( 'x' ,overlay=true )\na=close+\n  open\nif(a>1)\n    a:=a*2\n");
    expect(unparse(r.ast)).toBe(
      "//@version=6\n\nindicator('x', overlay = true)\na = close + open\nif (a > 1)\n    a := a * 2\n",
    );
  });

  it("keeps a string wrapped over two lines so it reads back the same", () => {
    const src = '//@version=6\nif true\n    label.new(bar_index, high, "first part\n         second part")\n';
    const first = parse(src);
    expect(messages(first)).toEqual([]);
    const printed = unparse(first.ast);
    expect(printed).toContain('"first part\n         second part"');
    expect(shape(parse(printed).ast)).toBe(shape(first.ast));
  });

  it("adds the parentheses a hand-built tree needs", () => {
    const r = parse("//@version=6\nx = a * b\n");
    const s = r.ast.body[0]!;
    if (s.kind !== "VarDecl" || s.init.kind !== "Binary") throw new Error("shape");
    s.init.left = {
      kind: "Binary",
      op: "+",
      left: { kind: "Ident", name: "p", span: s.span },
      right: { kind: "Ident", name: "q", span: s.span },
      span: s.span,
    };
    expect(unparse(r.ast)).toContain("x = (p + q) * b");
  });

  it("prints docs, exports, types and enums so they parse back the same", () => {
    const src =
      '//@version=6\n//@description d\nlibrary("L")\n//@type T\nexport type T\n    varip int n = 0\nexport enum E\n    a = "A"\n    b\n//@function f\nexport method f(T this, simple int k = 2) =>\n    this.n += k\n    this\n';
    const first = parse(src);
    const second = parse(unparse(first.ast));
    expect(messages(second)).toEqual([]);
    expect(shape(second.ast)).toBe(shape(first.ast));
  });
});
