// language.md §8: collections. Tests named "8.NN <the item>", every script through run-both.
import { describe, expect, it } from "vitest";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import { closes, data, fill, first, near, plots, runtimeError } from "./checklist-helpers.js";

describe("language.md §8 collections", () => {
  it("8.01 Arrays: `array.*` functions; `array.from(...)`; `array.new<T>`; arrays of UDTs and drawings", async () => {
    const s = await plots(
      v6(
        "a = array.from(5, 1, 3)\na.push(7)\na.unshift(0)\nb = array.new<float>(2, 1.5)\ntype P\n    float x\nps = array.new<P>()\nps.push(P.new(2))\nps.push(P.new(3))\nls = array.new<label>()\nls.push(label.new(bar_index, close, 'a'))\nplot(a.size() * 100 + a.sum() + a.max() * 1000)\nplot(b.avg() + ps.get(1).x + ls.size())\nplot(a.indexof(3) * 10 + a.lastindexof(7))\nplot(a.slice(1, 3).sum() + a.first() + a.last())",
      ),
    );
    expect(s.plot_0).toEqual(fill(500 + 16 + 7000));
    expect(s.plot_1).toEqual(fill(1.5 + 3 + 1));
    expect(s.plot_2).toEqual(fill(34));
    expect(s.plot_3).toEqual(fill(6 + 0 + 7));
  });
  it("8.02 [v6] Negative indices in `array.get/set/insert/remove` count from the end", async () => {
    const s = await plots(
      v6(
        "a = array.from(1, 2, 3)\nplot(a.get(-1) * 100 + a.get(-3))\nb = array.from(1, 2, 3)\nb.set(-1, 9)\nb.insert(-1, 7)\nx = b.remove(-2)\nplot(x * 1000 + b.get(-1) * 100 + b.size())",
      ),
    );
    expect(s.plot_0).toEqual(fill(301));
    // [1, 2, 9] -> insert(-1, 7) puts 7 before the last: [1, 2, 7, 9] -> remove(-2) takes 7
    expect(s.plot_1).toEqual(fill(7903));
  });
  it("8.02 in v5 a negative index is out of bounds (a runtime error)", async () => {
    await runtimeError(v5("a = array.from(1, 2, 3)\nplot(a.get(-1))"), /Index -1 is out of bounds, array size is 3/, 0);
  });
  it("8.03 Out-of-bounds array access is a runtime error (with the bar index)", async () => {
    await runtimeError(
      v6("a = array.from(1, 2, 3)\nx = bar_index == 2 ? a.get(3) : 0\nplot(x)"),
      /Index 3 is out of bounds, array size is 3/,
      2,
    );
    await runtimeError(v6("a = array.from(1, 2, 3)\nplot(a.get(-4))"), /Index -4 is out of bounds, array size is 3/, 0);
    await runtimeError(v6("a = array.new<float>()\nplot(a.pop())"), /empty|out of bounds/i, 0);
  });
  it("8.04 Matrices: `matrix.*`; linear algebra det, inv, pinv, eigenvalues, eigenvectors, rank, mult, kron, pow", async () => {
    const src = v6(
      "m = matrix.new<float>(2, 2, 0)\nm.set(0, 0, 2)\nm.set(0, 1, 1)\nm.set(1, 0, 1)\nm.set(1, 1, 3)\nev = m.eigenvalues()\nvec = m.eigenvectors()\nplot(m.det())\nplot(m.inv().get(0, 0))\nplot(m.pinv().get(1, 1))\nplot(ev.min())\nplot(ev.max())\nplot(m.rank())\nplot(m.kron(m).get(3, 3))\nplot(m.pow(2).get(0, 0))\nplot(m.mult(m).get(1, 1))\nplot(m.transpose().get(0, 1) + m.rows() + m.columns())\n// A v = lambda v for the first eigenvector\nl = ev.get(0)\nplot(m.get(0, 0) * vec.get(0, 0) + m.get(0, 1) * vec.get(1, 0) - l * vec.get(0, 0))",
    );
    const s = await plots(src);
    near(s.plot_0!, fill(5));
    near(s.plot_1!, fill(0.6));
    near(s.plot_2!, fill(0.4));
    near(s.plot_3!, fill((5 - Math.sqrt(5)) / 2));
    near(s.plot_4!, fill((5 + Math.sqrt(5)) / 2));
    expect(s.plot_5).toEqual(fill(2));
    expect(s.plot_6).toEqual(fill(9));
    expect(s.plot_7).toEqual(fill(5));
    expect(s.plot_8).toEqual(fill(10));
    expect(s.plot_9).toEqual(fill(5));
    for (const v of s.plot_10!) expect(Math.abs(v as number)).toBeLessThan(1e-12);
  });
  it("8.05 Maps: `map.*`; keys and values keep insertion order (re-putting a key keeps its place)", async () => {
    const s = await plots(
      v6(
        "m = map.new<string, int>()\nm.put('b', 2)\nm.put('a', 1)\nm.put('c', 3)\nm.put('b', 20)\nks = ''\nfor k in m.keys()\n    ks += k\nplot(ks == 'bac' ? 1 : 0)\nplot(m.values().get(0))\nplot(m.contains('a') ? m.size() : -1)\nx = m.remove('a')\nplot(x * 10 + m.size())\nc = m.copy()\nm.clear()\nplot(c.size() * 10 + m.size())",
      ),
    );
    expect(s.plot_0).toEqual(fill(1));
    expect(s.plot_1).toEqual(fill(20));
    expect(s.plot_2).toEqual(fill(3));
    expect(s.plot_3).toEqual(fill(12));
    expect(s.plot_4).toEqual(fill(20));
  });
  it("8.06 `map.put_all` copies every pair of the second map (overwriting shared keys)", async () => {
    expect(
      await first(
        v6(
          "m1 = map.new<string, int>()\nm1.put('a', 1)\nm2 = map.new<string, int>()\nm2.put('b', 2)\nm2.put('a', 5)\nm1.put_all(m2)\nplot(m1.get('a') * 100 + m1.size() * 10 + m1.get('b'))",
        ),
      ),
    ).toEqual(fill(522));
  });
  it("8.07 `for...in` iteration over arrays, matrices and maps", async () => {
    const s = await plots(
      v6(
        "t = 0.0\nfor x in array.from(1.0, 2.0)\n    t += x\nm = matrix.new<float>(2, 3, 1.0)\nfor row in m\n    t += row.size() * 10\nk = map.new<int, float>()\nk.put(1, 100)\nk.put(2, 200)\nfor [key, v] in k\n    t += key * v\nplot(t)",
      ),
    );
    expect(s.plot_0).toEqual(fill(3 + 60 + 500));
  });
  it("8.08 `array.sort` with `order.ascending/descending`; `array.sort_indices`; `array.binary_search*`; percentile functions; `array.every/some` (v6)", async () => {
    const s = await plots(
      v6(
        "a = array.from(3.0, 1.0, 2.0)\na.sort(order.descending)\nb = array.from(3.0, 1.0, 2.0)\nidx = b.sort_indices(order.ascending)\nb.sort()\nc = array.from(1.0, 2.0, 4.0, 8.0)\nplot(a.get(0) * 100 + a.get(2))\nplot(idx.get(0) * 100 + idx.get(1) * 10 + idx.get(2) + b.get(0) * 1000)\nplot(c.binary_search(4.0) * 100 + c.binary_search_leftmost(3.0) * 10 + c.binary_search_rightmost(3.0))\nplot(c.percentile_nearest_rank(50))\nplot(c.percentile_linear_interpolation(50))\nplot(c.percentrank(2))\nf = array.from(true, true, false)\ng = array.from(true, true)\nplot((f.every() ? 1 : 0) + (f.some() ? 10 : 0) + (g.every() ? 100 : 0))",
      ),
    );
    expect(s.plot_0).toEqual(fill(301));
    expect(s.plot_1).toEqual(fill(1120));
    // 4 is at 2; 3 is missing: leftmost gives the element to its left (index 1), rightmost the one to its right (2)
    expect(s.plot_2).toEqual(fill(212));
    expect(s.plot_3).toEqual(fill(2));
    expect(s.plot_4).toEqual(fill(3));
    near(s.plot_5!, fill(200 / 3));
    expect(s.plot_6).toEqual(fill(110));
  });
});
