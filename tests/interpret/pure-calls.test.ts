// The interpreter's written-out pure calls (Compiler.pureNumericCall: na, nz, Math-backed math.*;
// arrayFastPath's array.get) against the builtin impls they stand for, on series with na, -0,
// infinities and negative numbers, and against the compile backend; array.get's out-of-range,
// negative and na indexes and na arrays go through the builtin (same values, same errors).
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";
import { functions as core } from "../../src/builtins/core/index.js";
import { functions as math } from "../../src/builtins/math/index.js";
import type { ExecContext } from "../../src/builtins/types.js";
import type { RunResult } from "../../src/core/result.js";
import { comparable, firstDifference } from "../compile/parity.js";

const data = generateBars(600, 5);

async function both(src: string): Promise<RunResult> {
  const rt = new Runtime();
  const got = await rt.run(src, data, { mode: "interpret" });
  const want = await rt.run(src, data, { mode: "compile" });
  expect(want.mode).toBe("compile");
  expect(firstDifference(comparable(got), comparable(want))).toBeNull();
  return got;
}

function column(r: RunResult, title: string): number[] {
  const p = (r.series as Record<string, ArrayLike<number> | undefined>)[title];
  if (!p) throw new Error(`no plot ${title}`);
  // (a result's series hold na as null)
  return Array.from(p, (v) => (v === null ? NaN : v));
}

const UNARY = [
  "math.abs",
  "math.sqrt",
  "math.log",
  "math.log10",
  "math.exp",
  "math.floor",
  "math.ceil",
  "math.sin",
  "math.cos",
  "math.tan",
  "math.atan",
  "math.asin",
  "math.acos",
];

describe("pure numeric calls written out", () => {
  it("na / nz / math.* equal their impls bit for bit (na, -0, infinities, negatives) and compile", async () => {
    // x: na on some bars, -0 on others, negative, large, infinite (a division by a tiny number)
    const src = `//@version=6
indicator("pure")
k = bar_index % 7
x = k == 0 ? na : k == 1 ? -0.0 : k == 2 ? (open - close) * 1e300 * 1e10 : k == 3 ? 1 / (close - close) : (close - 100) * (k % 2 == 0 ? 1 : -1) / 10
y = bar_index % 5 == 0 ? na : -0.0 + open / 50
plot(x, "x")
plot(y, "y")
plot(nz(x), "nz")
plot(nz(x, y), "nz2")
plot(na(x) ? 1 : 0, "na")
${UNARY.map((f) => `plot(${f}(x), "${f}")`).join("\n")}
float acc = 0.0
for i = 0 to 3
    acc += nz(x[i]) + nz(y[i], -1) + math.abs(nz(x[i] - y[i]))
plot(acc, "acc")
`;
    const r = await both(src);
    const xs = column(r, "x"),
      ys = column(r, "y");
    const ctx = {} as ExecContext;
    const site = { state: undefined, id: 0 };
    const same = (title: string, f: (x: number, y: number) => unknown) => {
      const got = column(r, title);
      got.forEach((v, i) => {
        let w = f(xs[i]!, ys[i]!);
        if (typeof w === "boolean") w = w ? 1 : 0;
        expect(Object.is(v, w), `${title} at ${i}: ${v} vs ${String(w)}`).toBe(true);
      });
    };
    same("nz", (x) => core.nz!.impl(ctx, [x], site));
    same("nz2", (x, y) => core.nz!.impl(ctx, [x, y], site));
    same("na", (x) => core.na!.impl(ctx, [x], site));
    for (const f of UNARY) same(f, (x) => math[f]!.impl(ctx, [x], site));
  });

  it("array.get inside the array (negative ones too) equals compile; outside, the builtin's error on the same bar", async () => {
    const inside = `//@version=6
indicator("get")
var float[] a = array.new_float()
array.push(a, bar_index % 4 == 0 ? na : close - open)
if array.size(a) > 9
    array.shift(a)
n = array.size(a)
float s = 0.0
for i = 0 to n - 1
    s += nz(array.get(a, i))
f = array.get(a, int((bar_index % 10) / 3) % n)
last = array.get(a, -1)
first = array.get(a, -n)
plot(s, "s")
plot(f, "f")
plot(last, "last")
plot(first, "first")
`;
    await both(inside);
    for (const bad of ["n", "-n - 1", "na", "n + 3"]) {
      const src = `//@version=6
indicator("get bad")
var float[] a = array.new_float()
array.push(a, close)
n = array.size(a)
plot(bar_index < 20 ? array.get(a, 0) : array.get(a, ${bad}))
`;
      const r = await both(src);
      if (bad === "na") expect(r.error).toBeUndefined();
      else {
        expect(r.error).toBeDefined();
        expect(r.error_bar).toBe(20);
      }
    }
    // an na array: the builtin's error
    const na = await both(`//@version=6
indicator("get na")
float[] a = bar_index < 3 ? array.from(1.0, 2.0) : na
plot(array.get(a, 0))
`);
    expect(na.error_bar).toBe(3);
  });
});
