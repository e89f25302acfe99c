// A switch with a subject whose cases are all constants (enum members, numbers, strings) compares
// the subject with the cases' values in place (Compiler.switchExpr), no test closure called per case:
// the first equal case's body, else the default (=>), else na; an na subject and an na case never
// match. Same results as compile.
import { describe, expect, it } from "vitest";
import { switchBuilds } from "../../src/interpret/compiler.js";
import { bars, keptRunsMatchCompile, runBoth, v5, v6 } from "../helpers/run-both.js";

describe("switch on constant cases", () => {
  it("enum members in a function called per bar, the subject an input, equal compile", async () => {
    const src = v6(`enum K
    a = "A"
    b = "B"
    c = "C"
k = input.enum(K.b, "k")
f(float x, K w) =>
    switch w
        K.a => x + 1
        K.b => x * 2
        K.c => x - 1
g(int i) =>
    switch i % 4 == 0 ? K.c : i % 4 == 1 ? K.a : K.b
        K.a => 1
        K.c => 3
        => 9
plot(f(close, k), "f")
plot(g(bar_index), "g")`);
    const before = switchBuilds.constant;
    const r = await runBoth(src, bars(12));
    expect(r.error).toBeUndefined();
    expect(switchBuilds.constant - before).toBe(2);
    expect(r.series.g!.slice(0, 4)).toEqual([3, 1, 9, 9]);
    await keptRunsMatchCompile(src, bars(12));
  });

  for (const [dialect, wrap] of [
    ["v6", v6],
    ["v5", v5],
  ] as const)
    it(`numbers, strings, na subjects and na cases, with and without a default (${dialect}), equal compile`, async () => {
      const src = wrap(`int m = bar_index % 5
float s = m == 3 ? na : m
a = switch s
    0 => 10
    1 => 11
    na => 12
    2 => 13
b = switch s
    4 => 1
    => -1
string t = m == 0 ? "x" : m == 1 ? "y" : "z"
c = switch t
    "x" => 1.5
    "y" => 2.5
plot(a, "a")
plot(b, "b")
plot(c, "c")`);
      const before = switchBuilds.constant;
      const r = await runBoth(src, bars(15));
      expect(r.error).toBeUndefined();
      expect(switchBuilds.constant - before).toBe(3);
      expect(r.series.b!.slice(0, 5)).toEqual([-1, -1, -1, -1, 1]);
      await keptRunsMatchCompile(src, bars(15));
    });

  it("a case that is not a constant keeps the general form", async () => {
    const before = switchBuilds.constant;
    await runBoth(
      v6(`float lim = bar_index
x = switch bar_index % 3
    lim => 1
    1 => 2
    => 3
plot(x, "x")`),
      bars(10),
    );
    expect(switchBuilds.constant - before).toBe(0);
  });
});
