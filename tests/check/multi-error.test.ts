// The checker reports every independent error in one pass (issue 20): it recovers per statement,
// and a name whose declaration failed is not reported again where it is used.
import { describe, expect, it } from "vitest";
import { registry } from "../../src/builtins/index.js";
import { check } from "../../src/check/index.js";
import { parse } from "../../src/lang/index.js";

function errors(src: string): string[] {
  const parsed = parse(src);
  expect(parsed.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return check(parsed.ast, registry).diagnostics.map((d) => `${d.line}:${d.column} ${d.message}`);
}

describe("checker recovery", () => {
  it("reports three independent errors, in source order", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "a = foo + 1",
      "plot(close)",
      'c = close + "x"',
      'd = ta.sma(close, "10")',
    ].join("\n");
    expect(errors(src)).toEqual([
      "3:5 Undeclared identifier 'foo'",
      "5:5 Cannot add series float and const string",
      "6:19 Cannot call 'ta.sma' with argument 'length'='\"10\"'. An argument of 'literal string' type was used but a 'series int' is expected.",
    ]);
  });

  it("does not cascade from a failed declaration to its uses", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "a = foo + 1",
      "b = a * 2",
      "plot(b)",
      "[x, y] = nope()",
      "plot(x + y)",
    ].join("\n");
    expect(errors(src)).toEqual([
      "3:5 Undeclared identifier 'foo'",
      "6:10 Could not find function or function reference 'nope'",
    ]);
  });

  it("reports an error in a function body once, however many call sites instantiate it", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "f(x) =>",
      "    y = x + zzz",
      "    y",
      "plot(f(close))",
      "plot(f(open))",
      "q = f(high) * 2",
    ].join("\n");
    expect(errors(src)).toEqual(["4:13 Undeclared identifier 'zzz'"]);
  });

  it("keeps checking after an error inside a block, without a follow-up error for the block's value", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "v = if close > open",
      "    w = missing1",
      "    w",
      "else",
      "    missing2",
      "plot(v)",
      "plot(missing3)",
    ].join("\n");
    expect(errors(src)).toEqual([
      "4:9 Undeclared identifier 'missing1'",
      "7:5 Undeclared identifier 'missing2'",
      "9:6 Undeclared identifier 'missing3'",
    ]);
  });

  it("reports a missing declaration statement only on an otherwise clean script (else it may be one of the errors)", () => {
    expect(errors(["//@version=5", "study('old')", "plot(nothing)"].join("\n"))).toEqual([
      "2:1 'study()' is Pine v4: use indicator() in //@version=5 and //@version=6 scripts",
      "3:6 Undeclared identifier 'nothing'",
    ]);
    expect(errors(["//@version=6", "plot(close)"].join("\n"))).toEqual([
      "1:1 Script must have one indicator(), strategy() or library() declaration",
    ]);
  });

  it("reports each independent error inside one expression: call arguments, operands, branches, tuple elements", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "a = ta.sma(foo, 10) + ta.ema(bar, 5)",
      "plot(nope1, color = nope2)",
      "b = close > 1 ? miss1 : miss2",
      "c = f2(close) * zz2",
      "[d, e] = [qq1, qq2]",
      'g = math.max(close + "x", ww)',
      "h = not u1 and u2",
      "k = userF(v1, v2)",
      "userF(x, y) => x + y",
    ].join("\n");
    expect(errors(src)).toEqual([
      "3:12 Undeclared identifier 'foo'",
      "3:30 Undeclared identifier 'bar'",
      "4:6 Undeclared identifier 'nope1'",
      "4:21 Undeclared identifier 'nope2'",
      "5:17 Undeclared identifier 'miss1'",
      "5:25 Undeclared identifier 'miss2'",
      "6:5 Could not find function or function reference 'f2'",
      "6:17 Undeclared identifier 'zz2'",
      "7:11 Undeclared identifier 'qq1'",
      "7:16 Undeclared identifier 'qq2'",
      "8:14 Cannot add series float and const string",
      "8:27 Undeclared identifier 'ww'",
      "9:9 Undeclared identifier 'u1'",
      "9:16 Undeclared identifier 'u2'",
      "10:5 Could not find function or function reference 'userF'",
    ]);
  });

  it("reports the same unknown name once per expression, and no follow-up error about the expression", () => {
    const src = [
      "//@version=6",
      'indicator("t")',
      "type P",
      "    float hi",
      "p = P.new(1.0)",
      "x = foo + foo * ta.sma(foo, 3)",
      "y = p.lo - p.lo + nope(1) + nope(2)",
      "z = x + y",
      "plot(foo)",
    ].join("\n");
    expect(errors(src)).toEqual([
      "6:5 Undeclared identifier 'foo'",
      "7:7 Type 'P' has no field 'lo'",
      "7:19 Could not find function or function reference 'nope'",
      // another statement: reported again (each statement is checked on its own)
      "9:6 Undeclared identifier 'foo'",
    ]);
  });

  it("gives the program only when there is no error", () => {
    const ok = check(parse('//@version=6\nindicator("t")\nplot(close)').ast, registry);
    expect(ok.diagnostics).toEqual([]);
    expect(ok.program).toBeDefined();
    const bad = check(parse('//@version=6\nindicator("t")\nplot(a)\nplot(b)').ast, registry);
    expect(bad.program).toBeUndefined();
    expect(bad.diagnostics).toHaveLength(2);
  });
});
