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
    const src = "//@version=6\nindicator('t')\nm = matrix.new<int>(1, 2, 2)\nv = m.mult(array.from(3, 4))\nint k = v.get(0)\nplot(k, 'k')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["k"]).toEqual(data.map(() => 14));
  });
});
