// Checker rules settled by the fourth real-world round (tests/realworld/scripts/r4_*): result types
// and qualifiers that scripts written the way traders write them exposed.
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(6);

describe("matrix.mult result type", () => {
  // Reference: matrix.mult(id1, id2) with id2 an array returns an array (the matrix × column vector
  // product); with a matrix or a number it returns a matrix.
  it("matrix × array is an array: .get(i) reads the product, not a matrix cell", async () => {
    const src =
      "//@version=6\nindicator('t')\nm = matrix.new<float>(2, 2, 0.0)\nm.set(0, 0, close)\nm.set(0, 1, 2.0)\nm.set(1, 1, 3.0)\n" +
      "v = m.mult(array.from(1.0, -1.0))\nplot(v.get(0), 'r0')\nplot(v.get(1), 'r1')\nplot(v.size(), 'n')\n" +
      "w = matrix.mult(m, m)\nplot(w.get(1, 1), 'mm')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["r0"]).toEqual(data.map((b) => b.close - 2));
    expect(r.series["r1"]).toEqual(data.map(() => -3));
    expect(r.series["n"]).toEqual(data.map(() => 2));
    expect(r.series["mm"]).toEqual(data.map(() => 9));
  });
  it("int matrix × int array keeps int elements", async () => {
    const src =
      "//@version=6\nindicator('t')\nm = matrix.new<int>(1, 2, 2)\nv = m.mult(array.from(3, 4))\nint k = v.get(0)\nplot(k, 'k')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["k"]).toEqual(data.map(() => 14));
  });
});

describe("history of builtin series read where the reference does not run on every bar", () => {
  // A builtin series (hl2, bar_index, time_close, ta.tr, strategy.position_size, ...) has its whole
  // history however it is read; `hl2[1]` in an `if barstate.islast` block, a loop or a ternary branch
  // read na (or a stale bar) because only the bars on which the reference ran were recorded.
  it("inside an if block that runs on the last bar only", async () => {
    const src =
      "//@version=6\nstrategy('t')\nfloat a = na\nfloat b = na\nfloat c = na\nfloat d = na\nfloat e = na\n" +
      "if barstate.islast\n    a := hlc3[1]\n    b := bar_index[2]\n    c := time_close[1]\n    d := ta.tr[1]\n    e := strategy.position_size[1]\n" +
      "plot(a, 'a')\nplot(b, 'b')\nplot(c, 'c')\nplot(d, 'd')\nplot(e, 'e')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    const last = data.length - 1;
    const p = data[last - 1]!;
    expect(r.series["a"]![last]).toBe((p.high + p.low + p.close) / 3);
    expect(r.series["b"]![last]).toBe(last - 2);
    expect(r.series["c"]![last]).toBe(data[last]!.time);
    const pp = data[last - 2]!;
    expect(r.series["d"]![last]).toBe(
      Math.max(p.high - p.low, Math.abs(p.high - pp.close), Math.abs(p.low - pp.close)),
    );
    expect(r.series["e"]![last]).toBe(0);
  });
  it("in a loop with a dynamic offset and in a ternary branch", async () => {
    const src =
      "//@version=6\nindicator('t')\nfloat s = 0.0\nif barstate.islast\n    for k = 0 to 3\n        s += hl2[k]\n" +
      "t = bar_index % 2 == 0 ? bar_index[1] : -1\nplot(s, 's')\nplot(t, 't')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    const last = data.length - 1;
    let want = 0;
    for (let k = 0; k <= 3; k++) want += (data[last - k]!.high + data[last - k]!.low) / 2;
    expect(r.series["s"]![last]).toBe(want);
    expect(r.series["t"]).toEqual(data.map((_, i) => (i % 2 === 0 ? (i === 0 ? null : i - 1) : -1)));
  });
});

describe("user methods named like builtin methods", () => {
  // A script's `method push(array<float> id, float v, int maxSize)` or `method sum(array<float> a, int n)`
  // overloads the builtin method of that name: calls that fit no user signature are the builtin's.
  it("arr.sum() is the builtin next to a user sum(n), arr.push(x) next to a user push(x, max)", async () => {
    const src =
      "//@version=6\nindicator('t')\nmethod sum(array<float> a, int n) =>\n    float s = 0.0\n    for i = math.max(0, a.size() - n) to a.size() - 1\n        s += a.get(i)\n    s\n" +
      "method push(array<float> a, float v, int maxSize) =>\n    a.push(v)\n    if a.size() > maxSize\n        a.shift()\n    a\n" +
      "var xs = array.new_float()\nxs.push(close, 3)\nplot(xs.sum(2), 'last2')\nplot(xs.sum(), 'all')\nplot(xs.size(), 'n')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    const c = data.map((b) => b.close);
    expect(r.series["n"]).toEqual(c.map((_, i) => Math.min(i + 1, 3)));
    expect(r.series["all"]).toEqual(c.map((_, i) => c.slice(Math.max(0, i - 2), i + 1).reduce((x, y) => x + y, 0)));
    expect(r.series["last2"]).toEqual(c.map((_, i) => c.slice(Math.max(0, i - 1), i + 1).reduce((x, y) => x + y, 0)));
  });
  it("a call fitting neither the user method nor the builtin still fails at check", async () => {
    const src =
      "//@version=6\nindicator('t')\nmethod sum(array<float> a, int n) =>\n    a.get(0) * n\nxs = array.from(1.0)\nplot(xs.sum(1, 2, 3))\n";
    const r = await runBoth(src, data);
    expect(r.error_kind).toBe("check");
  });
});
