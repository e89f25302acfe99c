// Compound assignments fused with their right side (`acc += a * b`: fusedCompound), bar columns at
// a loop-counter offset read in place by the fused operators (`high[i] - low[i]`: colAt) and a
// variable's history at a loop-counter offset read with its common case first (Compiler.hist): each
// must give exactly what the compile backend gives, for every operator pair, na and zero operands,
// offsets that are na, zero, negative, fractional (columns), past the first bar or over the history limit (an
// error on the statement's line), on a first run and on later ones (kept closures).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { fusedBuilds } from "../../src/interpret/compiler.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

async function sameRuns(src: string, n: number): Promise<void> {
  const want = await new Runtime().run(src, bars(n), { mode: "compile" });
  expect(want.error).toBeUndefined();
  const rt = new Runtime();
  for (let run = 0; run < 3; run++) {
    const got = await rt.run(src, bars(n), { mode: "interpret" });
    expect(got.error).toBeUndefined();
    expect(got.series).toEqual(want.series);
  }
}

describe("fused operands", () => {
  it("x op= (a op2 b) on slots, constants and columns at a slot offset equals compile", async () => {
    const lines: string[] = [];
    let k = 0;
    for (const op of ["+=", "-=", "*="])
      for (const op2 of ["+", "-", "*", "/"])
        for (const [l, r] of [
          ["a", "b"],
          ["a", "2.5"],
          ["3", "b"],
          ["a", "0"],
          ["high[i]", "b"],
          ["a", "low[j]"],
          ["high[i]", "low[j]"],
          ["high[i]", "0.5"],
          ["nz(a)", "b"],
        ]) {
          lines.push(`    x${k} ${op} ${l} ${op2} ${r}`);
          k++;
        }
    const src = v6(`float a = bar_index % 3 == 0 ? na : close - open
float b = bar_index % 4 == 0 ? 0.0 : high - low
${Array.from({ length: k }, (_, n) => `var float x${n} = 1.0`).join("\n")}
for i = 0 to 3
    j = i == 2 ? na : i + 1
${lines.join("\n")}
${Array.from({ length: k / 9 }, (_, g) => `plot(${Array.from({ length: 9 }, (_, n) => `x${g * 9 + n} * ${n + 1}`).join(" + ")}, "g${g}")`).join("\n")}
plot(x0 + x10 + x20 + x30 + x40 + x50 + x60 + x70 + x80 + x90 + x100, "some")`);
    const before = { ...fusedBuilds };
    const r = await runBoth(src, bars(30));
    expect(r.error).toBeUndefined();
    expect(fusedBuilds.compound - before.compound).toBeGreaterThanOrEqual(3 * 4 * 7);
    await sameRuns(src, 30);
  });

  it("columns at a slot offset in fused operators: na, zero, negative, fractional and past offsets", async () => {
    const src = v6(`float s = 0.0
float t = 0.0
for i = -1 to 12 by 0.5
    d = high[i] - low[i]
    e = close[i] * 2
    f = 1 / open[i]
    g = high[i] - close * 2
    h = (open + 1) / low[i]
    s := nz(d) + nz(e) + nz(f) + nz(g) + nz(h) + (close[i] < close * 0.97 ? 1 : 0)
    t := t + nz(high[i] + low[i])
k = bar_index % 5 == 0 ? na : bar_index % 7
plot(s, "s")
plot(t, "t")
plot(high[k] - low[k], "hk")
plot(close[k] > open[k] ? 1 : 0, "ck")`);
    const before = fusedBuilds.column;
    const r = await runBoth(src, bars(25));
    expect(r.error).toBeUndefined();
    expect(fusedBuilds.column - before).toBeGreaterThanOrEqual(6);
    await sameRuns(src, 25);
  });

  it("a column offset over the history limit is an error on the statement's line, as compiled", async () => {
    const src = v6(`float s = 0.0
for i = 0 to 2
    s := s + 1
    s += high[i * 6000] - low[i]
plot(s)`);
    const want = await new Runtime().run(src, bars(5), { mode: "compile" });
    expect(want.error_kind).toBe("runtime");
    const rt = new Runtime();
    for (let run = 0; run < 2; run++) {
      const got = await rt.run(src, bars(5), { mode: "interpret" });
      expect(got.error).toBe(want.error);
      expect(got.diagnostics?.[0]?.line).toBe(want.diagnostics?.[0]?.line);
    }
  });

  it("a variable's history at a slot offset: zero, na, past the ring, negative", async () => {
    const src = v6(`f(float src, int n) =>
    float acc = 0.0
    for j = 0 to n
        acc += nz(src[j])
        acc += nz(src[j * 2]) * 0.5
    acc
g = bar_index % 4 == 0 ? na : close
plot(f(g, 6), "f")
plot(f(close - open, 30), "f2")`);
    await runBoth(src, bars(40));
    await sameRuns(src, 40);
    const neg = v6(`float s = 0.0
m = close
for j = 0 to 2
    s += nz(m[j - 1])
plot(s)`);
    const want = await new Runtime().run(neg, bars(5), { mode: "compile" });
    expect(want.error_kind).toBe("runtime");
    const got = await new Runtime().run(neg, bars(5), { mode: "interpret" });
    expect(got.error).toBe(want.error);
    expect(got.diagnostics?.[0]?.line).toBe(want.diagnostics?.[0]?.line);
  });
});

describe("lazy and/or from copies", () => {
  it("many conditions, na operands and right sides not evaluated when the left decides, as compiled", async () => {
    const conds = Array.from({ length: 20 }, (_, k) => {
      const a = `close > open + ${k * 0.01}`;
      const b = k % 3 === 0 ? `hit(${k})` : `na(x[${(k % 4) + 1}]) == false`;
      return `c${k} = ${k % 2 === 0 ? `${a} and ${b}` : `${a} or ${b}`}`;
    });
    const src = v6(`var counts = array.new_int(20, 0)
hit(int k) =>
    counts.set(k, counts.get(k) + 1)
    k % 2 == 0
float x = bar_index % 3 == 0 ? na : close
${conds.join("\n")}
plot(${conds.map((_, k) => `(c${k} ? ${k + 1} : 0)`).join(" + ")}, "sum")
plot(counts.sum(), "hits")
plot(counts.get(0) * 1000 + counts.get(3), "h03")`);
    const before = fusedBuilds.logic;
    const r = await runBoth(src, bars(40));
    expect(r.error).toBeUndefined();
    expect(fusedBuilds.logic - before).toBeGreaterThanOrEqual(20);
    await sameRuns(src, 40);
  });
});
