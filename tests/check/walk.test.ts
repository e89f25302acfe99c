// The shared child walker of the resolved program (src/check/walk.ts): every pass over the program asks
// it for a node's children, so it must reach every node, in evaluation order, and stop when told.
import { describe, expect, it } from "vitest";
import { registry } from "../../src/builtins/index.js";
import { check } from "../../src/check/index.js";
import type { RBlock, RExpr, ResolvedProgram } from "../../src/check/ir.js";
import { eachChild, eachStmt, eachStmtChild } from "../../src/check/walk.js";
import { parse } from "../../src/lang/index.js";

function program(src: string): ResolvedProgram {
  const c = check(parse(src).ast, registry);
  if (!c.program) throw new Error(c.diagnostics.map((d) => d.message).join("; "));
  return c.program;
}

/** The names of the builtin calls a program makes, in the order the walk reaches them. */
function calls(p: ResolvedProgram): string[] {
  const out: string[] = [];
  const expr = (e: RExpr): undefined => {
    if (e.k === "call") out.push(e.name);
    eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => eachStmt(b, (s) => eachStmtChild(s, expr));
  block(p.body);
  return out;
}

// every construct with children: history of an expression, a ternary, if/else, switch, for, for..in,
// while, a user function, a tuple, a UDT with a field assignment, a cast (the math calls take a bar's
// value: of constants alone they would be folded into their values, BuiltinDef.pure)
const SOURCE = `//@version=6
indicator("walk")
type P
    float x = 0
f(v) =>
    math.abs(v)
p = P.new(math.max(close, 2))
p.x := math.min(close, 4)
a = (close + math.sqrt(close))[1]
b = close > open ? math.log(close) : math.exp(open)
if close > 0
    math.floor(close)
else
    math.ceil(close)
switch
    close > 1 => math.round(close)
    => math.sign(open)
for i = 0 to int(math.pow(close, 2))
    math.avg(i, 1)
for v in array.from(1, 2)
    math.tan(v)
while math.random() > 2
    break
[c, d] = [math.sin(close), math.cos(close)]
plot(f(close) + c + d + a + b)
`;

describe("src/check/walk.ts", () => {
  it("reaches every builtin call of every construct, in evaluation order", () => {
    expect(calls(program(SOURCE))).toEqual([
      "math.max",
      "math.min",
      "math.sqrt",
      "math.log",
      "math.exp",
      "math.floor",
      "math.ceil",
      "math.round",
      "math.sign",
      "math.pow",
      "math.avg",
      "array.from",
      "math.tan",
      "math.random",
      "math.sin",
      "math.cos",
      "plot",
      "math.abs", // inside f(close), an argument of plot: a node comes before its children
    ]);
  });

  it("stops at the first callback that returns a value and returns it", () => {
    const p = program(SOURCE);
    let visited = 0;
    const expr = (e: RExpr): string | undefined => {
      visited++;
      if (e.k === "call" && e.name === "math.log") return "found";
      return eachChild(e, expr, block);
    };
    const block = (b: RBlock): string | undefined => eachStmt(b, (s) => eachStmtChild(s, expr));
    expect(block(p.body)).toBe("found");
    const all = calls(p).length;
    expect(visited).toBeGreaterThan(3);
    expect(visited).toBeLessThan(all * 4);
  });
});
