// language.md §7: user-defined types and enums. Tests named "7.NN <the item>", through run-both.
import { describe, expect, it } from "vitest";
import { runBoth, v6 } from "../helpers/run-both.js";
import { checkError, closes, data, fill, first, plots, runtimeErrorAt } from "./checklist-helpers.js";

describe("language.md §7 user-defined types and enums", () => {
  it("7.01 `type Name` followed by indented field declarations `float price = na`, `int n = 0`, `array<float> xs`; fields may have defaults", async () => {
    const s = await plots(
      v6(
        "type Bar\n    float price = na\n    int n = 0\n    array<float> xs\n    string tag = 'x'\nb = Bar.new()\nplot(na(b.price) ? 1 : 0)\nplot(b.n)\nplot(na(b.xs) ? 1 : 0)\nplot(str.length(b.tag))",
      ),
    );
    expect(s.plot_0).toEqual(fill(1));
    expect(s.plot_1).toEqual(fill(0));
    expect(s.plot_2).toEqual(fill(1));
    expect(s.plot_3).toEqual(fill(1));
  });
  it("7.02 Constructor `Name.new(...)`: positional or named args; omitted fields take their defaults or `na`", async () => {
    const s = await plots(
      v6(
        "type T\n    float a = 1\n    int b\n    string s = 'xy'\np = T.new(5, 2)\nq = T.new(b = 3)\nplot(p.a * 100 + p.b * 10 + str.length(p.s))\nplot(q.a * 100 + q.b * 10 + str.length(q.s))\nplot(na(T.new().b) ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(fill(522));
    expect(s.plot_1).toEqual(fill(132));
    expect(s.plot_2).toEqual(fill(1));
  });
  it("7.03 Field access `obj.f` and field assignment `obj.f := v`", async () => {
    expect(await first(v6("type P\n    float x = 0\np = P.new()\np.x := close\nplot(p.x)"))).toEqual(closes);
    await checkError(v6("type P\n    float x = 0\np = P.new()\np.y := 1\nplot(close)"), /y/, 6);
  });
  it("7.04 Compound assignment on fields: `obj.f += 1`", async () => {
    expect(
      await first(
        v6(
          "type C\n    int n = 1\n    string s = 'a'\nvar c = C.new()\nc.n += 1\nc.n *= 2\nc.s += 'b'\nplot(c.n * 100 + str.length(c.s))",
        ),
      ),
    ).toEqual([402, 1003, 2204, 4605, 9406, 19007]); // n = (n + 1) * 2 each bar
  });
  it("7.05 Objects are references (assignment aliases the object). `obj.copy()` makes a shallow copy", async () => {
    const s = await plots(
      v6(
        "type P\n    float x = 1\n    array<float> xs\np = P.new(2, array.from(1.0))\nr = p\nr.x := 3\nq = p.copy()\nq.x := 10\nq.xs.push(2)\nplot(p.x * 100 + q.x)\nplot(p.xs.size())",
      ),
    );
    expect(s.plot_0).toEqual(fill(310));
    // shallow: the copy shares the array
    expect(s.plot_1).toEqual(fill(2));
  });
  it("7.06 `na` objects and `na(obj)`; reading or assigning a field of an na object is a runtime error (with its position)", async () => {
    const s = await plots(
      v6(
        "type P\n    float x = 1\nP p = na\nq = bar_index > 2 ? P.new() : na\nplot(na(p) ? 1 : 0)\nplot(na(q) ? 0 : q.x)",
      ),
    );
    expect(s.plot_0).toEqual(fill(1));
    expect(s.plot_1).toEqual([0, 0, 0, 1, 1, 1]);
    await runtimeErrorAt(
      v6("type P\n    float x = 1\nP p = na\nplot(bar_index == 2 ? p.x : 0)"),
      /Cannot access a field of an na object/,
      2,
      6,
      1,
    );
    await runtimeErrorAt(
      v6("type P\n    float x = 1\nP p = na\nq = bar_index > 0 ? p : na\nif bar_index == 1\n    q.x := 3\nplot(close)"),
      /Cannot assign a field of an na object/,
      1,
      8,
      5,
    );
  });
  it("7.07 UDT fields of other UDTs or collections", async () => {
    expect(
      await first(
        v6(
          "type In\n    float v = 2\ntype Out\n    In inner\n    array<float> xs\n    map<string, int> m\no = Out.new(In.new(), array.from(1.0, 2.0), map.new<string, int>())\no.m.put('k', 7)\no.inner.v += 1\nplot(o.inner.v * 100 + o.xs.sum() * 10 + o.m.get('k'))",
        ),
      ),
    ).toEqual(fill(337));
  });
  it("7.08 Recursive UDTs: a field of the same type", async () => {
    expect(
      await first(
        v6(
          "type Node\n    float v = na\n    Node next = na\nn = Node.new(1, Node.new(2, Node.new(3)))\ns = 0.0\ncur = n\nwhile not na(cur)\n    s += cur.v\n    cur := cur.next\nplot(s)",
        ),
      ),
    ).toEqual(fill(6));
  });
  it('7.09 `enum Name` with members `a` or `a = "Title"`; access as `Name.a`', async () => {
    expect(
      await first(
        v6(
          "enum Dir\n    up\n    down = 'Going down'\nd = bar_index % 2 == 0 ? Dir.up : Dir.down\nplot(d == Dir.up ? 1 : 0)",
        ),
      ),
    ).toEqual([1, 0, 1, 0, 1, 0]);
    await checkError(v6("enum Dir\n    up\nplot(Dir.left == Dir.up ? 1 : 0)"), /left/, 5);
  });
  it("7.10 Enum equality; enums as map keys", async () => {
    const s = await plots(
      v6(
        "enum Side\n    buy\n    sell\nm = map.new<Side, int>()\nm.put(Side.buy, 1)\nm.put(Side.sell, 2)\nm.put(Side.buy, 3)\nplot(m.get(Side.buy) * 10 + m.get(Side.sell))\nplot(Side.buy != Side.sell ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(fill(32));
    expect(s.plot_1).toEqual(fill(1));
    await checkError(v6("enum A\n    x\nenum B\n    x\nplot(A.x == B.x ? 1 : 0)"), /Cannot apply|compare|==/, 7);
  });
  it("7.11 `input.enum()` for enum inputs (default, override by member name or title, unknown value refused)", async () => {
    const src = v6(
      "enum Dir\n    up = 'Up'\n    down = 'Down'\nd = input.enum(Dir.up, 'Dir')\nplot(d == Dir.down ? 1 : 0)",
    );
    const r = await runBoth(src, data);
    expect(r.series.plot_0).toEqual(fill(0));
    expect(r.inputs[0]).toMatchObject({ type: "enum", title: "Dir", default: "up", value: "up" });
    expect(await first(src, { inputs: { Dir: "down" } })).toEqual(fill(1));
    expect(await first(src, { inputs: { Dir: "Down" } })).toEqual(fill(1));
    const bad = await runBoth(src, data, { inputs: { Dir: "sideways" } });
    expect(bad.error_kind).toBe("check");
    expect(bad.error).toMatch(/sideways/);
  });
  it("7.12 `str.tostring(enumVal)` returns the member's title (the member name when it has no title)", async () => {
    const s = await plots(
      v6(
        "enum E\n    a\n    b = 'Bee'\nplot(str.tostring(E.b) == 'Bee' ? 1 : 0)\nplot(str.tostring(E.a) == 'a' ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(fill(1));
    expect(s.plot_1).toEqual(fill(1));
  });
  it("7.13 Enums exportable from libraries", async () => {
    const lib =
      "//@version=6\nlibrary('En')\nexport enum Mode\n    fast = 'Fast'\n    slow = 'Slow'\nexport speed(Mode m) => m == Mode.fast ? 2 : 1\n";
    const r = await runBoth(
      v6(
        "import user/En/1 as en\nm = en.Mode.slow\nplot(en.speed(m) * 10 + en.speed(en.Mode.fast))\nplot(str.tostring(m) == 'Slow' ? 1 : 0)",
      ),
      data,
      { libraries: [{ namespace: "user", name: "En", version: 1, source: lib }] },
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(fill(12));
    expect(r.series.plot_1).toEqual(fill(1));
  });
});
