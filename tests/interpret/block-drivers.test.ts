// Nested blocks of two or more statements run through copies of a generated driver that calls each
// statement from a call site of its own (drivers.generated.ts blockFlat, Compiler.blockRun), and a
// numeric `for` writes out up to twelve body statements (forFlat), the rest from a loop: where one
// loop called every statement, V8 inlined none of them. Only which call site runs a statement
// changes: bodies of 2 to 16 statements, break/continue after any of them, a block's value and a
// runtime error's line must be what the compile backend gives, on a first run and on later ones
// (kept closures).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { blockDriverBuilds } from "../../src/interpret/compiler.js";
import { bars, breakContinueSweep, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

const SIZES = [2, 5, 11, 12, 13, 16];

/** A function whose `for` body (n counters, a break/continue after counter `at`) also sits in an if block. */
function loopFn(id: string, n: number, at: number, what: string): string {
  const counters = Array.from({ length: n }, (_, k) => `s${k}`);
  const body = (pad: string) =>
    counters.flatMap((c, k) => [
      `${pad}${c} += ${k + 1}`,
      ...(k === at ? [`${pad}if i == 3`, `${pad}    ${what}`] : []),
    ]);
  return [
    `f${id}(x) =>`,
    ...counters.map((c) => `    float ${c} = 0`),
    `    for i = 0 to 5`,
    ...body("        "),
    `    if x > 0`,
    ...counters.map((c, k) => `        ${c} *= ${k + 2}`),
    `    ${counters.map((c, k) => `${c} * ${k + 1}`).join(" + ")}`,
    `plot(f${id}(close - open), "p${id}")`,
  ].join("\n");
}

describe("statements of a block, each from a call site of its own", () => {
  it("bodies of 2 to 16 statements, break and continue after any of them, equal compile", async () => {
    const fns = breakContinueSweep(SIZES, loopFn);
    const src = v6(fns.join("\n"));
    const before = blockDriverBuilds.count;
    const r = await runBoth(src, bars(6));
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(fns.length);
    // every function's body and its if branch are blocks of two or more statements
    expect(blockDriverBuilds.count - before).toBeGreaterThanOrEqual(2 * fns.length);
    // later runs (kept closures) give the same
    await keptRunsMatchCompile(src, bars(6));
  });

  it("a block's value is its last statement's, in an if expression and a function", async () => {
    for (const n of SIZES) {
      const stmts = Array.from({ length: n }, (_, k) => `t${k} = close * ${k + 1}`);
      const src = v6(`g(x) =>
${stmts.map((s) => `    ${s}`).join("\n")}
    x + t${n - 1}
y = if close > open
${stmts.map((s) => `    ${s}`).join("\n")}
    t0 + t${n - 1}
else
    -1.0
plot(g(high), "g")
plot(y, "y")`);
      const r = await runBoth(src, bars(10));
      expect(r.error).toBeUndefined();
    }
  });

  it("a runtime error in any statement of a block has that statement's line, first run and later", async () => {
    for (const n of [5, 13, 15]) {
      for (const at of [0, 4, 11, 12, 14].filter((a) => a < n)) {
        const stmts = Array.from({ length: n }, (_, k) => (k === at ? `s += i == 2 ? a.get(7) : 1` : `s += ${k + 1}`));
        for (const shape of ["for", "if", "fn"]) {
          const head =
            shape === "for"
              ? ["for i = 0 to 3"]
              : shape === "if"
                ? ["i = 2", "if close > 0"]
                : ["h(i) =>", "    float s = 0.0"];
          const tail = shape === "fn" ? ["    s", "plot(h(2))"] : ["plot(s)"];
          // line 1 //@version=6, line 2 the declaration, then `a`, `s` (`z`), the head, the block
          const src = v6(
            [
              "a = array.new_float(2, 0)",
              shape === "fn" ? "z = 0.0" : "var float s = 0.0",
              ...head,
              ...stmts.map((x) => `    ${x}`),
              ...tail,
            ].join("\n"),
          );
          const want = await new Runtime().run(src, bars(5), { mode: "compile" });
          expect(want.error_kind).toBe("runtime");
          const line = 5 + head.length + at;
          expect(want.diagnostics?.[0]?.line, `${shape} ${n} ${at}`).toBe(line);
          const rt = new Runtime();
          for (let run = 0; run < 2; run++) {
            const got = await rt.run(src, bars(5), { mode: "interpret" });
            expect(got.error, `${shape} ${n} ${at}`).toBe(want.error);
            expect(got.error_bar).toBe(want.error_bar);
            expect(got.diagnostics?.[0]?.line, `${shape} ${n} ${at}`).toBe(line);
          }
        }
      }
    }
  });
});
