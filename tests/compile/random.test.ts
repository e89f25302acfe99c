// Randomly generated scripts (fast-check) run in interpret and compile mode must agree bit for bit:
// arithmetic with na, -0, division by zero, int division, comparisons, ternaries, var state,
// histories with constant and computed offsets, if/else and loops with break/continue, stateful
// ta.* calls inside and outside branches (hoisted or not), user functions.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { runPair } from "./parity.js";
import { cmp, randomExpr as expr, randomScript } from "../helpers/random-script.js";

const statement = fc.oneof(
  fc.tuple(fc.constantFrom("a", "b", "c"), expr(3)).map(([v, e]) => `${v} := ${e}`),
  fc
    .tuple(expr(2), fc.constantFrom("a", "b"), expr(3), expr(2))
    .map(([c, v, e, x]) => `if ${c} > 0\n    ${v} := ${e}\nelse\n    ${v} := ${x}`),
  fc
    .tuple(fc.integer({ min: 0, max: 5 }), expr(2), fc.constantFrom("break", "continue"))
    .map(([n, e, k]) => `for i = 0 to ${n}\n    if i * ${e} > 3\n        ${k}\n    c := c + i`),
  fc.tuple(expr(3)).map(([e]) => `plot(${e})`),
);

const script = fc.array(statement, { minLength: 1, maxLength: 6 }).map(randomScript);

describe("random scripts", () => {
  it("interpret and compile agree bit for bit", async () => {
    const data = syntheticBars(120);
    let compiled = 0;
    await fc.assert(
      fc.asyncProperty(script, async (src) => {
        const p = await runPair(src, data);
        if (p.interpret.error_kind === "check") return; // an ill-typed draw
        if (p.compile.mode === "compile") compiled++;
        expect(p.difference, src).toBeNull();
      }),
      { numRuns: 150, seed: 20261121 },
    );
    expect(compiled).toBeGreaterThan(50);
  }, 120_000);

  it("agree on bools, strings, switch, while, arrays and tuples too", async () => {
    const data = syntheticBars(80);
    const cond = fc.tuple(expr(2), fc.constantFrom(...cmp), expr(2)).map(([l, o, r]) => `${l} ${o} ${r}`);
    const stmt2 = fc.oneof(
      cond.map((c) => `flag := ${c}`),
      fc
        .tuple(cond, fc.string({ maxLength: 3 }))
        .map(([c, t]) => `s := ${c} ? s + ${JSON.stringify(t.replace(/[^a-z]/g, "x"))} : str.tostring(bar_index % 7)`),
      fc.tuple(expr(2), expr(2)).map(([x, y]) => `k = switch bar_index % 3\n    0 => ${x}\n    1 => ${y}\nc := nz(k)`),
      fc
        .integer({ min: 1, max: 6 })
        .map(
          (n) => `w = 0\nwhile w < ${n}\n    w += 1\n    if w == 3\n        continue\n    arr.push(w * close)\nc := w`,
        ),
      fc.constantFrom(
        "if arr.size() > 4\n    arr.shift()",
        "c := arr.size() > 0 ? arr.avg() : na",
        "[m, sg, h] = ta.macd(close, 3, 6, 2)\nc := m - sg + h",
        "for [i, v] in arr\n    if v > 100\n        break\n    c := c + v * i",
      ),
    );
    const script2 = fc
      .array(stmt2, { minLength: 1, maxLength: 6 })
      .map(
        (stmts) =>
          `//@version=6\nindicator("r2")\nvar arr = array.new<float>()\nbool flag = false\nvar string s = ""\nfloat c = 0.0\nfloat a = 0.0\nfloat b = close\n${stmts.join("\n")}\nplot(c)\nplot(flag ? 1 : 0)\nplot(str.length(s))\nplot(arr.size())\n`,
      );
    let compiled = 0;
    await fc.assert(
      fc.asyncProperty(script2, async (src) => {
        const p = await runPair(src, data);
        if (p.interpret.error_kind === "check") return;
        if (p.compile.mode === "compile") compiled++;
        expect(p.difference, src).toBeNull();
      }),
      { numRuns: 100, seed: 7 },
    );
    expect(compiled).toBeGreaterThan(30);
  }, 120_000);
});
