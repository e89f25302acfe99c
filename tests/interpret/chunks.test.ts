// A long program's top-level statements run in chunks (Compiler.chunked, drivers.generated.ts
// chunkFlat) from its second run on (its first runs them through seqFlat) and a fused operator with
// a sub-closure operand comes from one of several identical copies (fused.generated.ts): both only
// change which closure object runs what. Long random programs must equal the compile backend run
// after run, and a runtime error in any statement must be reported on the same bar and line, on a
// first run and on a later one.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { keptStats } from "../../src/interpret/memo.js";
import { comparable, firstDifference } from "../compile/parity.js";
import { randomExpr as expr, randomScript } from "../helpers/random-script.js";

const statement = fc.oneof(
  fc.tuple(fc.constantFrom("a", "b", "c"), expr(3)).map(([v, e]) => `${v} := ${e}`),
  fc.tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("+=", "-="), expr(2)).map(([v, o, e]) => `${v} ${o} ${e}`),
  fc.tuple(expr(2), fc.constantFrom("a", "b"), expr(3)).map(([c, v, e]) => `if ${c} > 0\n    ${v} := ${e}`),
);
// 8 to 40 statements: from 8 on, the program runs in chunks
const script = fc.array(statement, { minLength: 8, maxLength: 40 }).map(randomScript);

describe("a long program's statements in chunks", () => {
  it("equal compile, run after run over bars of other lengths", async () => {
    await fc.assert(
      fc.asyncProperty(script, async (src) => {
        const rt = new Runtime();
        for (const n of [80, 50, 80]) {
          const data = syntheticBars(n);
          const got = await rt.run(src, data, { mode: "interpret" });
          if (got.error_kind === "check") return; // an ill-typed draw
          const want = await new Runtime().run(src, data, { mode: "compile" });
          expect(firstDifference(comparable(got), comparable(want)), src).toBeNull();
        }
      }),
      { numRuns: 40, seed: 20261129 },
    );
  }, 120_000);

  it("a runtime error in any statement has its line and bar, as compiled", async () => {
    const body = Array.from({ length: 23 }, (_, i) => `x${i} = close * ${i + 1} - open`);
    for (const at of [0, 5, 6, 11, 17, 22]) {
      const lines = [...body];
      lines[at] = `x${at} = bar_index == 7 ? array.get(array.new_float(0), 0) : close`;
      const src = `//@version=6\nindicator("e")\n${lines.join("\n")}\nplot(x${at})\n`;
      const data = syntheticBars(20);
      const want = await new Runtime().run(src, data, { mode: "compile" });
      const rt = new Runtime();
      // (the first run through seqFlat, the second through the chunks)
      for (let run = 0; run < 2; run++) {
        const got = await rt.run(src, data, { mode: "interpret" });
        expect(got.error).toBeDefined();
        expect(got.error_bar).toBe(7);
        // line 1 is //@version=6, line 2 the declaration: the body starts on line 3
        expect(got.diagnostics?.[0]?.line).toBe(at + 3);
        expect(got.error).toBe(want.error);
        expect(got.diagnostics?.[0]?.line).toBe(want.diagnostics?.[0]?.line);
      }
    }
  });

  it("a program's first run keeps no chunk; its second makes them and its third reuses them", async () => {
    const body = Array.from({ length: 23 }, (_, i) => `x${i} = close * ${i + 1} - open`);
    const src = `//@version=6\nindicator("c")\n${body.join("\n")}\nplot(x22)\n`;
    const data = syntheticBars(30);
    const rt = new Runtime();
    const made: number[] = [];
    for (let run = 0; run < 3; run++) {
      const before = keptStats.made;
      await rt.run(src, data, { mode: "interpret" });
      made.push(keptStats.made - before);
    }
    // the statements' closures on the first run, the five or more chunks on the second, none after
    expect(made[0]).toBeGreaterThan(23);
    expect(made[1]).toBeGreaterThanOrEqual(5);
    expect(made[1]).toBeLessThan(made[0]!);
    expect(made[2]).toBe(0);
  });
});
