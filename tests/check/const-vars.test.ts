// src/check/const-vars.ts: the reads of a variable declared from a constant and written by nothing
// else become that constant (and pure builtins of constants they leave fold), in both backends; a
// variable written again, a history read, a loop counter, a function parameter, varip and a value the
// variable would convert keep their reads. Results stay the same in both modes, the history read's na
// on the first bar included.
import { describe, expect, it } from "vitest";
import { registry } from "../../src/builtins/index.js";
import { check } from "../../src/check/index.js";
import type { RBlock, RExpr, ResolvedProgram } from "../../src/check/ir.js";
import { eachChild, eachStmt, eachStmtChild } from "../../src/check/walk.js";
import { parse } from "../../src/lang/index.js";
import { runPair } from "../compile/parity.js";
import { randomWalkBars } from "../realworld/bars.js";

function program(src: string): ResolvedProgram {
  const c = check(parse(src).ast, registry);
  if (!c.program) throw new Error(c.diagnostics.map((d) => d.message).join("; "));
  return c.program;
}

/** The names of the variables whose plain reads are left, in walk order. */
function loads(p: ResolvedProgram): string[] {
  const out: string[] = [];
  const expr = (e: RExpr): undefined => {
    if (e.k === "load") out.push(e.v.name);
    return eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => eachStmt(b, (s) => eachStmtChild(s, expr));
  block(p.body);
  return out;
}

const SRC = `//@version=6
indicator("c")
var color up = color.blue
var color dn = color.red
mult = 2.0
var string tag = "t"
var bool on = true
var int count = 0
count += 1
var float moved = 1.0
if close > open
    moved := 2.0
varip float tick = 3.0
f(x) =>
    k = 0.5
    x * k
s = 0.0
for i = 0 to 2
    s += i * mult
c = close > open ? color.new(up, 40) : color.new(dn, 40)
plot(close * mult + s + f(close) + moved + tick + count, "v", color = color.new(up, 20))
plot(mult[1], "hist")
plot(on ? str.length(tag) : 0, "len", color = c)
`;

describe("constant variables", () => {
  it("read as their constant, pure calls of them folded; other variables keep their reads", () => {
    const p = program(SRC);
    const left = new Set(loads(p));
    for (const name of ["up", "dn", "mult", "tag", "on", "k"]) expect(left.has(name), name).toBe(false);
    for (const name of ["count", "moved", "tick", "s", "i", "x", "c"]) expect(left.has(name), name).toBe(true);
    // the plot's colour is a constant now: color.new(up, 20) folded
    const plot = p.body.stmts.find((s) => s.k === "expr" && s.e.k === "call" && s.e.name === "plot");
    expect(plot?.k === "expr" && plot.e.k === "call" && plot.e.args[2]?.k).toBe("const");
  });

  it("give the same results in both modes, a history read na on the first bar", async () => {
    const p = await runPair(SRC, randomWalkBars(300));
    expect(p.compile.mode).toBe("compile");
    expect(p.interpret.error).toBeUndefined();
    expect(p.difference).toBeNull();
    const hist = p.interpret.series.hist as ArrayLike<number | null>;
    expect(hist[0]).toBeNull();
    expect(hist[1]).toBe(2);
  });

  it("math.* and nz/na of constants fold into their values (BuiltinDef.pure), the same in both modes", async () => {
    const src = `//@version=6
indicator("m")
len = math.max(10, 14)
r = math.round(2.5)
z = nz(na, 3.0)
isNa = na(1.0)
p = math.pow(2, 0.5)
avg = math.avg(1, 2, 4)
s = math.acos(2)
plot(close * len + r + z + p + avg, "v")
plot(isNa ? 1 : 0, "na")
plot(s, "acos")
`;
    const calls: string[] = [];
    const expr = (e: RExpr): undefined => {
      if (e.k === "call") calls.push(e.name);
      return eachChild(e, expr, block);
    };
    const block = (b: RBlock): undefined => eachStmt(b, (st) => eachStmtChild(st, expr));
    block(program(src).body);
    expect(calls.filter((n) => n !== "plot")).toEqual([]);
    const pair = await runPair(src, randomWalkBars(50));
    expect(pair.difference).toBeNull();
    const v = pair.interpret.series.v as ArrayLike<number>;
    const close0 = randomWalkBars(50)[0]!.close;
    expect(v[0]).toBe(close0 * 14 + 3 + 3 + Math.SQRT2 + 7 / 3);
    expect((pair.interpret.series.na as ArrayLike<number>)[0]).toBe(0);
    expect((pair.interpret.series.acos as ArrayLike<number | null>)[0]).toBeNull();
  });
});
