// `==` / `!=` on strings, bools and objects with a variable or a constant on a side
// (compiler.ts equalityInPlace): every pairing of a variable (V), a constant (C) and an expression
// (F), na on either side (na equals nothing, differs from nothing), equal to the compile backend.
import { describe, expect, it } from "vitest";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

describe("equality in place", () => {
  it("every side pairing, strings and objects with na, equals compile", async () => {
    const lines = [
      "string a = bar_index % 3 == 0 ? na : bar_index % 2 == 0 ? 'x' : 'y'",
      "string b = bar_index % 5 == 0 ? na : bar_index % 4 < 2 ? 'x' : 'y'",
      "f() => bar_index % 7 == 0 ? string(na) : bar_index % 3 == 1 ? 'x' : 'y'",
      "var label l1 = label.new(0, 0)",
      "label l2 = bar_index % 2 == 0 ? l1 : na",
      "float s = 0",
    ];
    const pairs = ["a, b", "a, 'x'", "'x', b", "a, f()", "f(), b", "f(), 'y'", "'y', f()"];
    pairs.forEach((p, i) => {
      const [l, r] = p.split(", ");
      lines.push(`s += (${l} == ${r} ? ${2 ** i} : 0) + (${l} != ${r} ? ${3 ** i} : 0)`);
    });
    lines.push("s += (l2 == l1 ? 1000 : 0) + (l1 != l2 ? 2000 : 0)", "plot(s, 's')");
    const r = await runBoth(v6(lines.join("\n")), bars(40));
    expect(r.error).toBeUndefined();
    expect(new Set(r.series.s).size).toBeGreaterThan(3);
  });
});
