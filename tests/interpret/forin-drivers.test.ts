// A statement-level `for ... in` runs through copies of a generated driver (drivers.generated.ts
// forInFlat, Compiler.forInVoid): over an array, up to twelve body statements each called from a call
// site of its own, the rest from a loop; a matrix's rows and a map's entries through the body as one
// block; a program's loops take the copies in turn. Only which call site runs a statement changes:
// values, break/continue after any statement, the index variable, a runtime error's line and the loop
// limit must be what the compile backend gives, on a first run and on later ones (kept closures).
import { describe, expect, it } from "vitest";
import { forInDriverBuilds } from "../../src/interpret/compiler.js";
import { Runtime } from "../../src/runtime/index.js";
import { bars, breakContinueSweep, keptRunsMatchCompile, runBoth, v6 } from "../helpers/run-both.js";

const SIZES = [1, 2, 5, 12, 13, 16];

/** A for-in over a 6-element array of n counter updates (a break/continue after counter `at` at index 3). */
function loopScript(id: string, n: number, at: number, what: string): string {
  const counters = Array.from({ length: n }, (_, k) => `s${id}_${k}`);
  return [
    `a${id} = array.from(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)`,
    ...counters.map((c) => `float ${c} = 0`),
    `int c${id} = 0`,
    `for [j${id}, x${id}] in a${id}`,
    `    c${id} += 1`,
    ...counters.flatMap((c, k) => [
      `    ${c} += ${k + 1} * x${id} + j${id} + close - open`,
      ...(k === at ? [`    if j${id} == 3`, `        ${what}`] : []),
    ]),
    `plot(${counters.map((c, k) => `${c} * ${k + 1}`).join(" + ")} + c${id}, "p${id}")`,
  ].join("\n");
}

describe("statement-level for-in loops through copies of the for-in driver", () => {
  it("array bodies of 1 to 16 statements, break and continue after any of them, equal compile", async () => {
    const parts = breakContinueSweep(SIZES, loopScript);
    const src = v6(parts.join("\n"));
    const before = forInDriverBuilds.count;
    const r = await runBoth(src, bars(6));
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(parts.length);
    // every loop took a copy of the driver
    expect(forInDriverBuilds.count - before).toBeGreaterThanOrEqual(parts.length);
    // later runs (kept closures) give the same
    await keptRunsMatchCompile(src, bars(6));
  });

  it("matrix rows, map entries, an na array, nested loops and a loop in a function, equal compile", async () => {
    const src = v6(`m = matrix.new<float>(3, 2, 1.0)
m.set(1, 1, close)
mp = map.new<string, float>()
mp.put("a", open)
mp.put("b", high)
mp.put("c", low)
array<float> none = na
f(arr) =>
    float t = 0.0
    for x in arr
        t += x
        if x > 1e12
            break
    t
float sm = 0.0
float sk = 0.0
int n = 0
for [i, row] in m
    for v in row
        sm += v * (i + 1)
        n += 1
    if i == 1
        continue
    sm += 1
for [k, v] in mp
    if k == "c"
        break
    sk += v
for v in none
    sk += v
plot(sm, "sm")
plot(sk, "sk")
plot(n, "n")
plot(f(array.from(close, open, 3.0)), "f")`);
    const r = await runBoth(src, bars(20));
    expect(r.error).toBeUndefined();
    expect(Object.keys(r.series).length).toBe(4);
  });

  it("a runtime error in a body statement has that statement's line, in both modes", async () => {
    for (const n of [3, 13, 15]) {
      for (const at of [0, 2, 11, 12, 14].filter((a) => a < n)) {
        const stmts = Array.from({ length: n }, (_, k) => (k === at ? `s += x == 2 ? b.get(7) : 1` : `s += ${k + 1}`));
        // line 1 //@version=6, then b, a, s, the loop, its body
        const src = v6(
          [
            "b = array.new_float(2, 0)",
            "a = array.from(1, 2, 3)",
            "float s = 0.0",
            "for x in a",
            ...stmts.map((x) => `    ${x}`),
            "plot(s)",
          ].join("\n"),
        );
        const want = await new Runtime().run(src, bars(5), { mode: "compile" });
        expect(want.error_kind).toBe("runtime");
        const line = 7 + at;
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
  });
});
