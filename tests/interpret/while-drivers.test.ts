// A statement-level `while` runs through copies of a generated driver (drivers.generated.ts
// whileFlat, Compiler.whileVoid): its condition and up to twelve body statements each called from a
// call site of its own, the rest from a loop; a program's `while` loops take the copies in turn. Only
// which call site runs a statement changes: values, break/continue after any statement, a condition
// calling a user function, a runtime error's line and the loop limit must be what the compile
// backend gives, on a first run and on later ones (kept closures).
import { describe, expect, it } from "vitest";
import { whileDriverBuilds } from "../../src/interpret/compiler.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars, breakContinueSweep, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

const SIZES = [1, 2, 5, 12, 13, 16];

/** A `while` of n counter updates (a break/continue after counter `at` on its third pass), its condition a user function. */
function loopScript(id: string, n: number, at: number, what: string): string {
  const counters = Array.from({ length: n }, (_, k) => `s${id}_${k}`);
  return [
    `ok${id}(i, x) => i < 6 and x > -1e9`,
    ...counters.map((c) => `float ${c} = 0`),
    `int i${id} = 0`,
    `while ok${id}(i${id}, close - open)`,
    `    i${id} += 1`,
    ...counters.flatMap((c, k) => [
      `    ${c} += ${k + 1} * i${id}`,
      ...(k === at ? [`    if i${id} == 3`, `        ${what}`] : []),
    ]),
    `plot(${counters.map((c, k) => `${c} * ${k + 1}`).join(" + ")} + i${id}, "p${id}")`,
  ].join("\n");
}

describe("statement-level while loops through copies of the while driver", () => {
  it("bodies of 1 to 16 statements, break and continue after any of them, equal compile", async () => {
    const parts = breakContinueSweep(SIZES, loopScript);
    const src = v6(parts.join("\n"));
    const before = whileDriverBuilds.count;
    const r = await runBoth(src, bars(6));
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(parts.length);
    // every loop took a copy of the driver
    expect(whileDriverBuilds.count - before).toBeGreaterThanOrEqual(parts.length);
    // later runs (kept closures) give the same
    await keptRunsMatchCompile(src, bars(6));
  });

  it("a while in a function, a nested while, and history reads in the condition", async () => {
    const src = v6(`back(n) =>
    int k = 0
    while k < n and close[k] >= close[k + 1]
        k += 1
    k
int m = 0
int a = 0
while a < 4
    int b = 0
    while b < a
        b += 1
        m += b
    a += 1
plot(back(5), "back")
plot(m, "m")`);
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
  });

  it("a runtime error in a body statement has that statement's line; one in the condition, the loop's", async () => {
    for (const n of [3, 13, 15]) {
      for (const at of [0, 2, 11, 12, 14].filter((a) => a < n)) {
        const stmts = Array.from({ length: n }, (_, k) => (k === at ? `s += i == 2 ? a.get(7) : 1` : `s += ${k + 1}`));
        // line 1 //@version=6, line 2 the declaration, then a, s, i, the while, its body
        const src = v6(
          [
            "a = array.new_float(2, 0)",
            "float s = 0.0",
            "int i = 0",
            "while i < 4",
            "    i += 1",
            ...stmts.map((x) => `    ${x}`),
            "plot(s)",
          ].join("\n"),
        );
        const want = await new Runtime().run(src, bars(5), { mode: "compile" });
        expect(want.error_kind).toBe("runtime");
        const line = 8 + at;
        expect(want.diagnostics?.[0]?.line, `${n} ${at}`).toBe(line);
        const rt = new Runtime();
        for (let run = 0; run < 2; run++) {
          const got = await rt.run(src, bars(5), { mode: "interpret" });
          expect(got.error, `${n} ${at}`).toBe(want.error);
          expect(got.error_bar).toBe(want.error_bar);
          expect(got.diagnostics?.[0]?.line, `${n} ${at}`).toBe(line);
        }
      }
    }
    const src = v6(
      ["a = array.new_float(2, 0)", "int i = 0", "while a.get(i) == 0", "    i += 3", "plot(i)"].join("\n"),
    );
    const want = await new Runtime().run(src, bars(5), { mode: "compile" });
    const got = await new Runtime().run(src, bars(5), { mode: "interpret" });
    expect(want.error_kind).toBe("runtime");
    expect(got.error).toBe(want.error);
    expect(got.diagnostics?.[0]?.line).toBe(want.diagnostics?.[0]?.line);
  });

  for (const mode of ["interpret", "compile"] as const) {
    it(`an endless while stops at the loop limit (${mode})`, async () => {
      const src = v6(`float y = 0.0
int i = 0
while i >= 0
    i += 1
    y += 1
plot(y)`);
      const r = await new Runtime().run(src, bars(3), { mode });
      expect(r.error).toBe("Loop is too long (> 500 ms)");
      expect(r.mode).toBe(mode);
    }, 30_000);
  }
});
