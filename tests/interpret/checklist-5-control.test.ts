// language.md §5: control flow (all structures are expressions). Tests named "5.NN <the item>", through run-both.
import { describe, expect, it } from "vitest";
import { v5, v6 } from "../helpers/run-both.js";
import { checkError, data, fill, first, plots, runtimeError } from "./checklist-helpers.js";

describe("language.md §5 control flow", () => {
  it("5.01 `if / else if / else`; as an expression the value is the last expression of the executed branch; without `else` it is `na`", async () => {
    const s = await plots(
      v6(
        "x = if bar_index == 0\n    a = 1\n    a * 5\nelse if bar_index == 1\n    7\nelse\n    9\ny = if bar_index > 3\n    1.5\nplot(x)\nplot(y)",
      ),
    );
    expect(s.plot_0).toEqual([5, 7, 9, 9, 9, 9]);
    expect(s.plot_1).toEqual([null, null, null, null, 1.5, 1.5]);
  });
  it("5.02 `switch expr` with `value => block` arms and a default `=> block` arm", async () => {
    const s = await plots(
      v6(
        "x = switch bar_index % 3\n    0 =>\n        a = 10\n        a + 1\n    1 => 20\n    => 30\nplot(x)\ns = switch 'b'\n    'a' => 1\n    'b' => 2\nplot(s)",
      ),
    );
    expect(s.plot_0).toEqual([11, 20, 30, 11, 20, 30]);
    expect(s.plot_1).toEqual(fill(2));
  });
  it("5.03 `switch` without a subject, used as a guard list: `cond => block` (the first true guard wins; none true gives na)", async () => {
    expect(
      await first(v6("x = switch\n    bar_index < 2 => 1\n    bar_index < 4 => 2\n    bar_index < 1 => 3\nplot(x)")),
    ).toEqual([1, 1, 2, 2, null, null]);
  });
  it("5.04 Returning values from `if`/`switch`: `x = if c ...`, `x = switch ...`; all branches must give compatible types", async () => {
    // int and float branches unify to float
    expect(await first(v6("x = if bar_index % 2 == 0\n    1\nelse\n    2.5\nplot(x)"))).toEqual([
      1, 2.5, 1, 2.5, 1, 2.5,
    ]);
    await checkError(
      v6("x = if close > 0\n    1\nelse\n    'a'\nplot(close)"),
      /branches of this if return incompatible types \(const int, const string\)/,
      3,
      5,
    );
    await checkError(
      v6("x = switch bar_index\n    0 => 1\n    => 'a'\nplot(close)"),
      /branches of this switch return incompatible types/,
      3,
      5,
    );
  });
  it("5.05 Tuples returned from `if`/`switch` branches: `[a, b] = if c ...`", async () => {
    const want = data.map((b) => (b.close > b.open ? 3 : 7));
    expect(await first(v6("[a, b] = if close > open\n    [1, 2]\nelse\n    [3, 4]\nplot(a + b)"))).toEqual(want);
    expect(await first(v6("[a, b] = switch\n    close > open => [1, 2]\n    => [3, 4]\nplot(a + b)"))).toEqual(want);
  });
  it("5.06 `for i = start to end [by step]`; counts down when start > end", async () => {
    const s = await plots(
      v6(
        "a = 0\nfor i = 1 to 4\n    a += i\nb = 0\nfor i = 3 to 1\n    b := b * 10 + i\nc = 0\nfor i = 0 to 10 by 5\n    c += i\nd = 0\nfor i = 10 to 0 by 5\n    d := d * 100 + i\nplot(a)\nplot(b)\nplot(c)\nplot(d)",
      ),
    );
    expect(s.plot_0).toEqual(fill(10));
    expect(s.plot_1).toEqual(fill(321));
    expect(s.plot_2).toEqual(fill(15));
    expect(s.plot_3).toEqual(fill(100500));
  });
  it("5.07 [v6] The `for` end bound is re-evaluated before every iteration (v5: evaluated once)", async () => {
    const body = "n = 3\ns = 0\nfor i = 1 to n\n    s += 1\n    n := 1\nplot(s)";
    expect(await first(v6(body))).toEqual(fill(1));
    expect(await first(v5(body))).toEqual(fill(3));
  });
  it("5.08 `for x in array`, `for [i, x] in array`, `for row in matrix`, `for [i, row] in matrix`, `for [k, v] in map`", async () => {
    const src = v6(
      "a = array.from(1, 2, 3)\ns = 0\nfor x in a\n    s += x\nfor [i, x] in a\n    s += i * 100\nm = matrix.new<float>(2, 2, 1.0)\nt = 0.0\nfor row in m\n    t += row.sum()\nfor [i, row] in m\n    t += i * 10\nk = map.new<string, int>()\nk.put('a', 1000)\nk.put('b', 2000)\nu = 0\nkeys = ''\nfor [key, v] in k\n    u += v\n    keys += key\nplot(s)\nplot(t)\nplot(u)\nplot(keys == 'ab' ? 1 : 0)",
    );
    const s = await plots(src);
    expect(s.plot_0).toEqual(fill(306));
    expect(s.plot_1).toEqual(fill(14));
    expect(s.plot_2).toEqual(fill(3000));
    expect(s.plot_3).toEqual(fill(1));
  });
  it("5.09 `while cond` loops", async () => {
    expect(await first(v6("i = 0\nn = 0\nwhile i < bar_index\n    i += 1\n    n += 2\nplot(n)"))).toEqual([
      0, 2, 4, 6, 8, 10,
    ]);
  });
  it("5.10 `break` and `continue` (in for, for...in and while)", async () => {
    const s = await plots(
      v6(
        "s = 0\nfor i = 1 to 10\n    if i == 2\n        continue\n    if i == 5\n        break\n    s += i\nt = 0\nfor x in array.from(1, 2, 3, 4)\n    if x == 3\n        break\n    t += x\nj = 0\nw = 0\nwhile true\n    j += 1\n    if j % 2 == 0\n        continue\n    if j > 7\n        break\n    w += j\nplot(s)\nplot(t)\nplot(w)",
      ),
    );
    expect(s.plot_0).toEqual(fill(8));
    expect(s.plot_1).toEqual(fill(3));
    expect(s.plot_2).toEqual(fill(1 + 3 + 5 + 7));
  });
  it("5.11 A loop used as an expression returns the value of the last iteration's last expression: `x = for ...`", async () => {
    const s = await plots(
      v6(
        "x = for i = 1 to 3\n    i * 2\ni = 0\ny = while i < 3\n    i += 1\n    i * 10\nz = for v in array.from(4, 5)\n    v + 1\nplot(x)\nplot(y)\nplot(z)",
      ),
    );
    expect(s.plot_0).toEqual(fill(6));
    expect(s.plot_1).toEqual(fill(30));
    expect(s.plot_2).toEqual(fill(6));
  });
  it("5.12 Loop runtime limit: 500 ms per bar (runtime error)", async () => {
    const r = await runtimeError(
      v6("i = 0\nif bar_index == 2\n    while true\n        i += 1\nplot(i)"),
      /Loop is too long \(> 500 ms\)/,
      2,
    );
    expect(r.series.plot_0).toEqual([0, 0]);
  }, 20_000);
});
