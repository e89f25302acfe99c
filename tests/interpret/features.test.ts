// More language features: collections, UDTs, enums, methods, tuples from if/switch, v5 rules.
import { describe, expect, it } from "vitest";
import { bars, runBoth, series, v5, v6 } from "../helpers/run-both.js";

const N = 6;
const data = bars(N);
const closes = data.map((b) => b.close);
const first = async (src: string, opts = {}) => Object.values(await series(src, data, opts))[0]!;

describe("collections and objects", () => {
  it("typed array declarations, legacy float[], var arrays, for [i, x] in", async () => {
    const got = await first(
      v6(
        "array<float> a = array.new<float>()\nfloat[] b = array.new_float(0)\nvar c = array.new_float()\na.push(close)\nb.push(1)\nc.push(2)\ns = 0.0\nfor [i, x] in c\n    s += x * i\nplot(s * 1000 + a.get(0) * 10 + b.size())",
      ),
    );
    // c grows by one element (2) per bar: s = 2 * (0 + 1 + ... + bar)
    const want = closes.map((c, i) => 2 * ((i * (i + 1)) / 2) * 1000 + c * 10 + 1);
    got.forEach((g, i) => {
      expect(g as number).toBeCloseTo(want[i]!, 9);
    });
  });
  it("maps with put/get and for [k, v] in", async () => {
    expect(
      await first(
        v6(
          "m = map.new<string, int>()\nm.put('a', 1)\nm.put('b', 2)\nt = 0\nfor [k, v] in m\n    t += v\nplot(t * 10 + m.get('b'))",
        ),
      ),
    ).toEqual(Array(N).fill(32));
  });
  it("matrix methods", async () => {
    expect(
      await first(
        v6("m = matrix.new<float>(2, 3, 1.0)\nm.set(0, 0, 5)\nplot(m.get(0, 0) * 100 + m.rows() * 10 + m.columns())"),
      ),
    ).toEqual(Array(N).fill(523));
  });
  it("UDT with collection field and recursive field", async () => {
    expect(
      await first(
        v6(
          "type T\n    array<float> xs\ntype Node\n    float v = na\n    Node next = na\nt = T.new(array.new<float>())\nt.xs.push(1)\nt.xs.push(2)\nn = Node.new(1, Node.new(7))\nplot(t.xs.size() * 10 + n.next.v)",
        ),
      ),
    ).toEqual(Array(N).fill(27));
  });
  it("history of a UDT variable: (p[1]).x", async () => {
    const got = await first(v6("type P\n    float x\np = P.new(close)\nq = bar_index > 0 ? (p[1]).x : -1.0\nplot(q)"));
    expect(got).toEqual([-1, ...closes.slice(0, N - 1)]);
  });
  it("user method on a builtin type and a generic-typed parameter", async () => {
    const got = await first(
      v6(
        "method double(float x) => x * 2\nf(array<float> a) => a.size()\nx = close\nplot(x.double() + f(array.from(1.0, 2.0)))",
      ),
    );
    expect(got).toEqual(closes.map((c) => c * 2 + 2));
  });
});

describe("tuples and enums", () => {
  it("tuples returned from if and switch", async () => {
    const want = data.map((b) => (b.close > b.open ? 3 : 7));
    expect(await first(v6("[a, b] = if close > open\n    [1, 2]\nelse\n    [3, 4]\nplot(a + b)"))).toEqual(want);
    expect(await first(v6("[a, b] = switch\n    close > open => [1, 2]\n    => [3, 4]\nplot(a + b)"))).toEqual(want);
  });
  it("input.enum with overrides by member name or title", async () => {
    const src = v6(
      "enum Dir\n    up = 'Up'\n    down = 'Down'\nd = input.enum(Dir.up, 'Dir')\nplot(d == Dir.down ? 1 : 0)",
    );
    expect(await first(src)).toEqual(Array(N).fill(0));
    expect(await first(src, { inputs: { Dir: "down" } })).toEqual(Array(N).fill(1));
    expect(await first(src, { inputs: { Dir: "Down" } })).toEqual(Array(N).fill(1));
    const r = await runBoth(src, data, { inputs: { Dir: "sideways" } });
    expect(r.error_kind).toBe("check");
  });
  it("switch on strings with a default arm", async () => {
    expect(
      await first(v6("s = close > open ? 'up' : 'dn'\nv = switch s\n    'up' => 1\n    'dn' => -1\n    => 0\nplot(v)")),
    ).toEqual(data.map((b) => (b.close > b.open ? 1 : -1)));
  });
});

describe("v5 rules", () => {
  it("numeric conditions are truthy in v5", async () => {
    expect(await first(v5("x = bar_index % 2\nplot(x ? 1 : 0)"))).toEqual([0, 1, 0, 1, 0, 1]);
  });
  it("v5 and/or evaluate both sides (the right side's state advances)", async () => {
    const src = (v: (s: string) => string) =>
      v(
        "f() =>\n    var n = 0\n    n += 1\n    n > 0\ng() =>\n    var n = 0\n    n += 1\n    n\nc = bar_index % 2 == 0 and f() ? g() : 0\nk = bar_index % 2 == 0 or f()\nplot(c)",
      );
    expect(await first(src(v5))).toEqual([1, 0, 2, 0, 3, 0]);
  });
  it("v5 integer division of const ints truncates, v6 does not", async () => {
    expect(await first(v5("plot(7 / 2 + -7 / 2)"))).toEqual(Array(N).fill(0));
    expect(await first(v6("plot(7 / 2)"))).toEqual(Array(N).fill(3.5));
  });
});

describe("functions and history", () => {
  it("a user function with a loop over src[i]", async () => {
    const got = await first(
      v6("f(src, len) =>\n    s = 0.0\n    for i = 0 to len - 1\n        s += src[i]\n    s / len\nplot(f(close, 3))"),
    );
    closes.forEach((_, i) => {
      if (i < 2) expect(got[i]).toBeNull();
      else expect(got[i] as number).toBeCloseTo((closes[i]! + closes[i - 1]! + closes[i - 2]!) / 3, 12);
    });
  });
  it("history of a builtin call: ta.sma(close, 2)[1]", async () => {
    const got = await first(v6("plot(ta.sma(close, 2)[1])"));
    expect(got.slice(0, 2)).toEqual([null, null]);
    for (let i = 2; i < N; i++) expect(got[i] as number).toBeCloseTo((closes[i - 1]! + closes[i - 2]!) / 2, 12);
  });
  it("max_bars_back extends a dynamic history", async () => {
    const got = await first(v6("max_bars_back(close, 10)\nk = bar_index\nplot(close[k])"));
    expect(got).toEqual(Array(N).fill(closes[0]));
  });
});

describe("function-scope series", () => {
  it("history inside a function advances per call: a skipped bar is not recorded", async () => {
    // f is called on even bars only: x[1] inside f is the value of the previous call
    const got = await first(v6("f(x) => x[1]\nv = bar_index % 2 == 0 ? f(close) : -1.0\nplot(v)"));
    expect(got).toEqual([null, -1, closes[0], -1, closes[2], -1]);
  });
  it("a call inside a loop advances the history on every iteration", async () => {
    const got = await first(v6("f(x) => x - nz(x[1])\ns = 0.0\nfor i = 1 to 3\n    s := f(i)\nplot(s)"));
    // iterations feed 1, 2, 3 every bar: the last call sees 3 - 2
    expect(got).toEqual(Array(N).fill(1));
  });
});
