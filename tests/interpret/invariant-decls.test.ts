// Run-invariant top-level declarations (src/interpret/invariant.ts): `len = input.int(14)`, `half =
// len / 2` store the same value on every bar and nothing else writes them, so the interpreter runs
// them on the first bar only (Compiler.main). Which declarations qualify, that the runs leave them
// out, and that results (values, history reads, errors and their lines) equal the compile backend's.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";
import { Runtime } from "../../src/runtime/index.js";
import { parse } from "../../src/lang/index.js";
import { check } from "../../src/check/index.js";
import { registry } from "../../src/builtins/index.js";
import { deadDeclarations, invariantStatements } from "../../src/interpret/invariant.js";
import { invariantBuilds } from "../../src/interpret/compiler.js";

/** The names declared by the program's invariant (or dead) top-level statements. */
function invariantNames(body: string, pick = invariantStatements): string[] {
  const checked = check(parse(v6(body)).ast, registry, []);
  const prog = checked.program;
  if (!prog) throw new Error(JSON.stringify(checked.diagnostics));
  const at = pick(prog);
  return prog.body.stmts.flatMap((s, i) => (at.has(i) && s.k === "decl" ? [s.v.name] : []));
}

const BODY = `len = input.int(5, "Length")
mult = input(2.5, "Mult")
src = input(close, "Source")
half = len / 2 + mult
tick = syminfo.mintick * 10
wide = math.max(half, 3) * (len > 4 ? 2 : 1)
name = input.string("EMA", "Type")
isEma = name == "EMA"
b = 0.0
b := b + 1
r = math.random()
s = src * mult
h = half[1]
arr = array.new_float(0)
c = ta.sma(close, len)
plot(len + mult + half + tick + wide + (isEma ? 1 : 0) + b + s + nz(h) + c + array.size(arr))
plot(r > 2 ? 1 : 0)
`;

describe("run-invariant declarations", () => {
  it("are the declarations of inputs, per-run variables and pure operators and calls of them", () => {
    // (not the source input, the reassigned b, math.random, what reads a series, the array, the ta call)
    expect(invariantNames(BODY)).toEqual(["len", "mult", "half", "tick", "wide", "name", "isEma"]);
  });

  it("run on the first bar only, with every value and history read as compiled", async () => {
    const before = invariantBuilds.skipped;
    const r = await runBoth(v6(BODY), bars(60));
    expect(r.error).toBeUndefined();
    expect(invariantBuilds.skipped - before).toBe(7);
    // input overrides apply: the later bars keep the overridden value
    const rt = new Runtime();
    const a = await rt.run(v6(BODY), bars(60), { mode: "interpret", inputs: { Length: 9, Type: "SMA" } });
    const b = await rt.run(v6(BODY), bars(60), { mode: "compile", inputs: { Length: 9, Type: "SMA" } });
    expect(a.series).toEqual(b.series);
    expect(a.series).not.toEqual(r.series);
  });

  it("take an enum input and what is derived from it", async () => {
    const body = `enum Kind
    fast = "Fast"
    slow = "Slow"
kind = input.enum(Kind.fast, "Kind")
isFast = kind == Kind.fast
len = isFast ? 5 : 20
plot(ta.sma(close, 10) + len)
`;
    expect(invariantNames(body)).toEqual(["kind", "isFast", "len"]);
    const r = await runBoth(v6(body), bars(40));
    expect(r.error).toBeUndefined();
    const rt = new Runtime();
    const a = await rt.run(v6(body), bars(40), { mode: "interpret", inputs: { Kind: "Slow" } });
    const b = await rt.run(v6(body), bars(40), { mode: "compile", inputs: { Kind: "Slow" } });
    expect(a.error).toBeUndefined();
    expect(a.series).toEqual(b.series);
    expect(a.series).not.toEqual(r.series);
  });

  it("a runtime error after them has its bar and line, as compiled", async () => {
    const src = v6(`len = input.int(5)
k = len * 2
x = bar_index == 7 ? array.get(array.new_float(0), 0) : close * k
y = x + len
z = y * 2
w = z - 1
v = w + k
u = v / 2
plot(u)
`);
    const want = await new Runtime().run(src, bars(20), { mode: "compile" });
    const rt = new Runtime();
    for (let run = 0; run < 2; run++) {
      const got = await rt.run(src, bars(20), { mode: "interpret" });
      expect(got.error_bar).toBe(7);
      expect(got.error).toBe(want.error);
      expect(got.diagnostics?.[0]?.line).toBe(want.diagnostics?.[0]?.line);
    }
  });

  it("run on every tick of a realtime run (a tick's rollback would empty their slots)", async () => {
    const before = invariantBuilds.skipped;
    const rt = new Runtime();
    const opts = { realtimeBars: 2, realtimeTicks: 3 };
    const a = await rt.run(v6(BODY), bars(30), { mode: "interpret", ...opts });
    expect(invariantBuilds.skipped).toBe(before);
    const b = await rt.run(v6(BODY), bars(30), { mode: "compile", ...opts });
    expect(a.error).toBeUndefined();
    expect(a.series).toEqual(b.series);
  });
});

// a, c, e and g are declared, then set by the next statement that touches them, which reads at most
// their past; b's reassignment reads its value, d's is conditional, f is read by a function first
const DEAD = `f1(x) =>
    x + fv
a = 0.0
b = 0.0
c = 0
d = 0.0
fv = 1.0
e = 0.0
g = 5
y = close * 2
a := nz(a[1]) + y
b := b + 1
c := close > open ? 1 : nz(c[1], 0)
if close > open
    d := 1
z = f1(y)
fv := z
e := e[1] > 0 ? 2 : 1
g := g[bar_index % 2]
plot(a + b + c + d + fv + e + g)
`;

describe("dead declarations", () => {
  it("are constant stores the next statement touching the variable overwrites without reading", () => {
    expect(invariantNames(DEAD, deadDeclarations)).toEqual(["a", "c", "e"]);
  });

  it("run on no bar, with results as compiled", async () => {
    const before = invariantBuilds.dead;
    const r = await runBoth(v6(DEAD), bars(60));
    expect(r.error).toBeUndefined();
    expect(invariantBuilds.dead - before).toBe(3);
  });
});
