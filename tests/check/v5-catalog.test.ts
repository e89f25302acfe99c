// The v5 overlay of the builtin catalogue (src/catalog/v5.ts): which signatures differ by version, the
// transp rewrite the checker applies before argument placement, and the errors v4 names get.
import { describe, expect, it } from "vitest";
import { catalogFunction } from "../../src/catalog/index.js";
import { catalogFunctionFor, rewriteTransp, v4Hint, v5Constant } from "../../src/catalog/v5.js";
import { parse, unparse } from "../../src/lang/index.js";
import type { Arg, Call, ExprStmt, Program } from "../../src/lang/ast.js";
import { runBoth, v5, v6 } from "../helpers/run-both.js";

let program: Program;
function callOf(src: string): Call {
  program = parse(`//@version=5\nindicator('t')\n${src}\n`).ast;
  return (program.body[1] as ExprStmt).expr as Call;
}
/** The source text of `call` with `args` as its arguments. */
function text(call: Call, args: Arg[]): string {
  const stmt = program.body[1] as ExprStmt;
  const body = [program.body[0]!, { ...stmt, expr: { ...call, args } }];
  return unparse({ ...program, body })
    .trim()
    .split("\n")
    .pop()!;
}

describe("catalogFunctionFor", () => {
  it("v5 plot-family offset is series int; v6 keeps the catalogue's simple int; the v6 entry is not modified", () => {
    for (const name of ["plot", "plotshape", "plotchar", "plotarrow", "bgcolor", "barcolor"]) {
      expect(catalogFunctionFor(name, 5)!.fn.types.offset, name).toBe("series int");
      expect(catalogFunctionFor(name, 6)!.fn.types.offset, name).toBe("simple int");
      expect(catalogFunction(name)!.fn.types.offset, name).toBe("simple int");
    }
  });
  it("other functions are the v6 entries in both versions (same object)", () => {
    expect(catalogFunctionFor("ta.sma", 5)!.fn).toBe(catalogFunction("ta.sma")!.fn);
    expect(catalogFunctionFor("array.new", 5)!.key).toBe("array.new<type>");
    expect(catalogFunctionFor("nosuch", 5)).toBeUndefined();
  });
});

describe("v5Constant", () => {
  it("red, teal and yellow have their v5 values in v5 only", () => {
    expect(v5Constant("color.red", 5)).toBe(0xff5252ff);
    expect(v5Constant("color.teal", 5)).toBe(0x00897bff);
    expect(v5Constant("color.yellow", 5)).toBe(0xffeb3bff);
    expect(v5Constant("color.red", 6)).toBeUndefined();
    expect(v5Constant("color.blue", 5)).toBeUndefined();
  });
});

describe("rewriteTransp", () => {
  it("wraps the named or positional colour in color.new(c, transp) and drops transp", () => {
    const a = callOf("plot(close, color = color.red, transp = 40)");
    expect(text(a, rewriteTransp("plot", a.args))).toBe("plot(close, color = color.new(color.red, 40))");
    const b = callOf("plot(close, 'T', up ? color.lime : color.red, transp = t)");
    expect(text(b, rewriteTransp("plot", b.args))).toBe("plot(close, 'T', color.new(up ? color.lime : color.red, t))");
  });
  it("plotarrow wraps both colours; plot without a colour gets its default blue", () => {
    const a = callOf("plotarrow(x, colorup = color.teal, colordown = color.orange, transp = 30)");
    expect(text(a, rewriteTransp("plotarrow", a.args))).toBe(
      "plotarrow(x, colorup = color.new(color.teal, 30), colordown = color.new(color.orange, 30))",
    );
    const b = callOf("plot(close, transp = 60)");
    expect(text(b, rewriteTransp("plot", b.args))).toBe("plot(close, color = color.new(#2962FF, 60))");
  });
  it("a call without transp, or a function without it, is returned as is", () => {
    const a = callOf("plot(close, color = color.red)");
    expect(rewriteTransp("plot", a.args)).toBe(a.args);
    const b = callOf("hline(1, transp = 3)");
    expect(rewriteTransp("hline", b.args)).toBe(b.args);
  });
});

describe("v4 names in v5/v6 scripts", () => {
  it("study() names v4 and the v5 replacement, at its position", async () => {
    const r = await runBoth("//@version=5\nstudy('old')\nplot(close)\n");
    expect(r.error_kind).toBe("check");
    expect(r.error).toBe("'study()' is Pine v4: use indicator() in //@version=5 and //@version=6 scripts");
    expect([r.diagnostics?.[0]?.line, r.diagnostics?.[0]?.column]).toEqual([2, 1]);
  });
  it("v4 builtins without a namespace point at their v5 names", async () => {
    const r = await runBoth(v5("x = sma(close, 14)\nplot(x)"));
    expect(r.error).toBe("'sma()' is Pine v4: use ta.sma() in //@version=5 and //@version=6 scripts");
    expect([r.diagnostics?.[0]?.line, r.diagnostics?.[0]?.column]).toEqual([3, 5]);
    expect(v4Hint("security")).toMatch(/request\.security\(\)/);
    expect(v4Hint("ta.sma")).toBeUndefined();
  });
  it("a user function named like a v4 builtin is still the user's", async () => {
    const r = await runBoth(v5("sma(s, n) => math.sum(s, n) / n\nplot(sma(close, 2))"));
    expect(r.error).toBeUndefined();
  });
  it("transp in v6 and an unknown parameter in v5 are still refused", async () => {
    expect((await runBoth(v6("bgcolor(color.red, transp = 50)"))).error).toMatch(/'bgcolor' has no parameter 'transp'/);
    expect((await runBoth(v5("hline(1, transp = 50)\nplot(close)"))).error).toMatch(
      /'hline' has no parameter 'transp'/,
    );
  });
});

describe("v4 input(type = ...) forms", () => {
  it("input(type = input.integer) names the v5 input function, at the type parameter", async () => {
    const r = await runBoth(
      v5("len = input(title = 'Length', type = input.integer, defval = 14)\nplot(ta.sma(close, len))"),
    );
    expect(r.error).toBe("'input' has no parameter 'type' since Pine v5: 'type = input.integer' is input.int()");
    expect([r.diagnostics?.[0]?.line, r.diagnostics?.[0]?.column]).toEqual([3, 31]);
    expect((await runBoth(v5("tf = input('D', type = input.resolution)\nplot(close)"))).error).toMatch(
      /'type = input\.resolution' is input\.timeframe\(\)/,
    );
  });
  it("a v4 input type constant used as a value names the v5 input function, at its position", async () => {
    const r = await runBoth(v5("t = input.integer\nplot(close)"));
    expect(r.error).toBe(
      "'input.integer' is Pine v4's input(type = ...) form: call input.int() in //@version=5 and //@version=6 scripts",
    );
    expect([r.diagnostics?.[0]?.line, r.diagnostics?.[0]?.column]).toEqual([3, 5]);
  });
});

describe("v4 arguments of the untyped input()", () => {
  it("minval, options and type name the typed input functions, at the parameter", async () => {
    const a = await runBoth(v5("len = input(14, minval = 1, title = 'Length')\nplot(ta.rsi(close, len))"));
    expect(a.error).toBe(
      "'input' has no parameter 'minval' since Pine v5: it is a parameter of the typed inputs (input.int(), input.float(), ...)",
    );
    expect([a.diagnostics?.[0]?.line, a.diagnostics?.[0]?.column]).toEqual([3, 17]);
    const b = await runBoth(v5("ma = input('SMA', 'MA', options = ['SMA', 'EMA'])\nplot(close)"));
    expect(b.error).toMatch(/'input' has no parameter 'options' since Pine v5: .*input\.string\(\)/);
    const c = await runBoth(v6("len = input(defval = 14, type = input.integer)\nplot(close)"));
    expect(c.error).toBe("'input' has no parameter 'type' since Pine v5: 'type = input.integer' is input.int()");
  });
  it("the v5 forms still run: untyped input with title/tooltip/group, and input.int with minval", async () => {
    const r = await runBoth(
      v5(
        "a = input(14, 'A', tooltip = 't', group = 'g')\nb = input.int(3, 'B', minval = 1, maxval = 10, step = 1)\nplot(a + b)",
      ),
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0![0]).toBe(17);
  });
});
