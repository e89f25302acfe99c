// Language checklist (spec/language.md) as tables: script -> expected plotted values over the
// synthetic bars (closes 101, 102, 101.5, 102.5, 103.5, 103, 104, 105, 104.5, 105.5, ...).
import { describe, expect, it } from "vitest";
import { bars, runBoth, series, v5, v6 } from "../helpers/run-both.js";

const N = 6;
const data = bars(N);
const closes = data.map((b) => b.close);

interface Case {
  name: string;
  src: string;
  /** expected values of the first plot (null = na) */
  want: (number | null | boolean | string)[];
}

const cases: Case[] = [
  { name: "plot(close)", src: v6("plot(close)"), want: closes },
  { name: "history close[1]", src: v6("plot(close[1])"), want: [null, ...closes.slice(0, N - 1)] },
  {
    name: "history of a variable x[2]",
    src: v6("x = close * 2\nplot(x[2])"),
    want: [null, null, ...closes.slice(0, N - 2).map((c) => c * 2)],
  },
  {
    name: "history of an expression (a + b)[1]",
    src: v6("plot((close + open)[1])"),
    want: [null, ...data.slice(0, N - 1).map((b) => b.close + b.open)],
  },
  { name: "dynamic offset x[bar_index]", src: v6("plot(close[bar_index])"), want: data.map(() => 101) },
  { name: "var keeps its value", src: v6("var c = 0\nc += 1\nplot(c)"), want: [1, 2, 3, 4, 5, 6] },
  { name: "plain declaration re-initialises", src: v6("c = 0\nc += 1\nplot(c)"), want: [1, 1, 1, 1, 1, 1] },
  { name: "varip like var on history", src: v6("varip c = 10\nc -= 1\nplot(c)"), want: [9, 8, 7, 6, 5, 4] },
  { name: "v6 int division const/const is fractional", src: v6("plot(5 / 2)"), want: Array(N).fill(2.5) },
  { name: "v5 int division const/const truncates", src: v5("plot(5 / 2)"), want: Array(N).fill(2) },
  { name: "v5 series int / int keeps the fraction", src: v5("plot(bar_index / 2)"), want: [0, 0.5, 1, 1.5, 2, 2.5] },
  { name: "division by zero is na", src: v6("plot(close / (bar_index - bar_index))"), want: Array(N).fill(null) },
  { name: "na arithmetic", src: v6("float x = na\nplot(x + 1)"), want: Array(N).fill(null) },
  {
    name: "na comparison is false",
    src: v6("float x = na\nplot(x > 1 or x < 1 or x == 1 ? 1 : 0)"),
    want: Array(N).fill(0),
  },
  {
    name: "nz and na()",
    src: v6("x = bar_index % 2 == 0 ? close : na\nplot(nz(x, -1) + (na(x) ? 1000 : 0))"),
    want: [101, 999, 101.5, 999, 103.5, 999],
  },
  {
    name: "ternary right-assoc",
    src: v6("plot(bar_index == 0 ? 10 : bar_index == 1 ? 20 : 30)"),
    want: [10, 20, 30, 30, 30, 30],
  },
  {
    name: "if as expression without else is na",
    src: v6("x = if bar_index > 2\n    1\nplot(x)"),
    want: [null, null, null, 1, 1, 1],
  },
  {
    name: "if / else if / else",
    src: v6("x = if bar_index == 0\n    1\nelse if bar_index == 1\n    2\nelse\n    3\nplot(x)"),
    want: [1, 2, 3, 3, 3, 3],
  },
  {
    name: "switch with subject",
    src: v6("x = switch bar_index\n    0 => 10\n    1 => 20\n    => 30\nplot(x)"),
    want: [10, 20, 30, 30, 30, 30],
  },
  {
    name: "switch without subject",
    src: v6("x = switch\n    bar_index < 2 => 1\n    bar_index < 4 => 2\nplot(x)"),
    want: [1, 1, 2, 2, null, null],
  },
  { name: "for loop sums", src: v6("s = 0\nfor i = 1 to 4\n    s += i\nplot(s)"), want: Array(N).fill(10) },
  {
    name: "for loop counts down",
    src: v6("s = 0\nfor i = 3 to 1\n    s := s * 10 + i\nplot(s)"),
    want: Array(N).fill(321),
  },
  { name: "for with step", src: v6("s = 0\nfor i = 0 to 10 by 5\n    s += i\nplot(s)"), want: Array(N).fill(15) },
  {
    name: "break and continue",
    src: v6(
      "s = 0\nfor i = 1 to 10\n    if i == 2\n        continue\n    if i == 5\n        break\n    s += i\nplot(s)",
    ),
    want: Array(N).fill(8),
  },
  { name: "while loop", src: v6("i = 0\nwhile i < 7\n    i += 2\nplot(i)"), want: Array(N).fill(8) },
  { name: "loop as an expression", src: v6("x = for i = 1 to 3\n    i * 2\nplot(x)"), want: Array(N).fill(6) },
  {
    name: "v6 for bound re-evaluated",
    src: v6("n = 3\ns = 0\nfor i = 1 to n\n    s += 1\n    n := 1\nplot(s)"),
    want: Array(N).fill(1),
  },
  {
    name: "v5 for bound evaluated once",
    src: v5("n = 3\ns = 0\nfor i = 1 to n\n    s += 1\n    n := 1\nplot(s)"),
    want: Array(N).fill(3),
  },
  {
    name: "for...in array",
    src: v6("a = array.from(1, 2, 3)\ns = 0\nfor x in a\n    s += x\nplot(s)"),
    want: Array(N).fill(6),
  },
  { name: "function single line", src: v6("f(x, y) => x * y\nplot(f(close, 2))"), want: closes.map((c) => c * 2) },
  {
    name: "function multi-line + default",
    src: v6("f(x, k = 3) =>\n    y = x + k\n    y * 2\nplot(f(1))"),
    want: Array(N).fill(8),
  },
  { name: "function named args", src: v6("f(a, b) => a - b\nplot(f(b = 1, a = 10))"), want: Array(N).fill(9) },
  {
    name: "function returning a tuple",
    src: v6("f() => [1, 2]\n[a, b] = f()\nplot(a * 10 + b)"),
    want: Array(N).fill(12),
  },
  { name: "tuple discard _", src: v6("f() => [1, 2, 3]\n[_, b, _] = f()\nplot(b)"), want: Array(N).fill(2) },
  {
    name: "each call site owns its var",
    src: v6("f() =>\n    var n = 0\n    n += 1\n    n\na = f()\nb = f()\nplot(a + b * 100)"),
    want: [101, 202, 303, 404, 505, 606],
  },
  {
    name: "function skipped on a bar keeps its state",
    src: v6("f() =>\n    var n = 0\n    n += 1\n    n\nx = bar_index % 2 == 0 ? f() : -1\nplot(x)"),
    want: [1, -1, 2, -1, 3, -1],
  },
  {
    name: "history inside a function",
    src: v6("f(x) => x[1]\nplot(f(close))"),
    want: [null, ...closes.slice(0, N - 1)],
  },
  {
    name: "overloads by type",
    src: v6("g(int x) => 1\ng(float x) => 2\ng(string x) => 3\nplot(g(1) * 100 + g(1.5) * 10 + g('a'))"),
    want: Array(N).fill(123),
  },
  {
    name: "UDT new, fields, assignment",
    src: v6("type P\n    float x = 1\n    int n = 0\np = P.new()\np.n += 5\np.x := close\nplot(p.x + p.n)"),
    want: closes.map((c) => c + 5),
  },
  {
    name: "UDT copy is shallow and independent",
    src: v6("type P\n    float x = 1\np = P.new(2)\nq = p.copy()\nq.x := 10\nr = p\nr.x := 3\nplot(p.x * 100 + q.x)"),
    want: Array(N).fill(310),
  },
  {
    name: "UDT var object keeps state",
    src: v6("type C\n    int n = 0\nvar c = C.new()\nc.n += 1\nplot(c.n)"),
    want: [1, 2, 3, 4, 5, 6],
  },
  {
    name: "user method",
    src: v6(
      "type C\n    int n = 0\nmethod inc(C this, int k) =>\n    this.n += k\n    this.n\nvar c = C.new()\nplot(c.inc(2))",
    ),
    want: [2, 4, 6, 8, 10, 12],
  },
  {
    name: "builtin method on array",
    src: v6("a = array.new<float>()\na.push(close)\na.push(1)\nplot(a.size())"),
    want: Array(N).fill(2),
  },
  {
    name: "enum members and equality",
    src: v6(
      "enum Dir\n    up\n    down = 'Down'\nd = bar_index % 2 == 0 ? Dir.up : Dir.down\nplot(d == Dir.up ? 1 : 0)",
    ),
    want: [1, 0, 1, 0, 1, 0],
  },
  { name: "string concatenation", src: v6("s = 'a' + 'b'\nplot(s == 'ab' ? 1 : 0)"), want: Array(N).fill(1) },
  {
    name: "compound assignment ops",
    src: v6("x = 10.0\nx -= 2\nx *= 3\nx /= 4\nx %= 4\nplot(x)"),
    want: Array(N).fill(2),
  },
  { name: "unary minus and not", src: v6("plot(not (bar_index > 1) ? -close : 0)"), want: [-101, -102, 0, 0, 0, 0] },
  {
    name: "bool history before first bar is false (v6)",
    src: v6("b = close > 0\nplot(b[1] ? 1 : 0)"),
    want: [0, 1, 1, 1, 1, 1],
  },
  {
    name: "int() truncates, float() and bool()",
    src: v6("plot(int(-2.7) * 10 + (bool(bar_index) ? 1 : 0))"),
    want: [-20, -19, -19, -19, -19, -19],
  },
  { name: "fixnan", src: v6("plot(fixnan(bar_index % 2 == 0 ? bar_index : na))"), want: [0, 0, 2, 2, 4, 4] },
  { name: "several statements per line with commas", src: v6("a = 1, b = 2\nplot(a + b)"), want: Array(N).fill(3) },
  { name: "bar_index and last_bar_index", src: v6("plot(last_bar_index - bar_index)"), want: [5, 4, 3, 2, 1, 0] },
  {
    name: "barstate.isfirst / islast",
    src: v6("plot(barstate.isfirst ? 1 : barstate.islast ? 2 : 0)"),
    want: [1, 0, 0, 0, 0, 2],
  },
  {
    name: "hl2 hlc3 ohlc4",
    src: v6("plot(hl2 - (high + low) / 2 + ohlc4 - (open + high + low + close) / 4)"),
    want: Array(N).fill(0),
  },
];

describe("language checklist: values", () => {
  for (const c of cases) {
    it(c.name, async () => {
      const s = await series(c.src, data);
      const first = Object.values(s)[0]!;
      expect(first.length).toBe(N);
      for (let i = 0; i < N; i++) {
        const w = c.want[i]!;
        if (typeof w === "number") expect(first[i] as number).toBeCloseTo(w, 12);
        else expect(first[i]).toBe(w);
      }
    });
  }
});

describe("v6 lazy and/or", () => {
  it("the right operand of and is not evaluated when the left is false (its state does not advance)", async () => {
    const src = v6(
      "f() =>\n    var n = 0\n    n += 1\n    n > 0\nx = bar_index % 2 == 0 and f()\ng() =>\n    var n = 0\n    n += 1\n    n\nc = bar_index % 2 == 0 and f() ? g() : 0\nplot(c)",
    );
    const s = await series(src, data);
    expect(Object.values(s)[0]).toEqual([1, 0, 2, 0, 3, 0]);
  });
});

describe("check errors", () => {
  const errors: [string, string, RegExp][] = [
    ["undeclared identifier", v6("plot(foo)"), /Undeclared identifier 'foo'/],
    [":= on undeclared", v6("x := 1\nplot(close)"), /undeclared variable 'x'/],
    ["redeclaration", v6("x = 1\nx = 2\nplot(x)"), /Redeclaration of variable 'x'/],
    ["same named argument twice (v6)", v6("plot(close, title = 'a', title = 'b')"), /more than once/],
    ["unknown parameter", v6("plot(close, foo = 1)"), /no parameter 'foo'/],
    ["no implicit int -> bool in v6", v6("x = 1\nplot(x ? 1 : 0)"), /must be bool/],
    ["na() on bool in v6", v6("b = close > open\nplot(na(b) ? 1 : 0)"), /bool/],
    ["plot in local scope", v6("if close > 0\n    plot(close)"), /local scope/],
    ["recursion", v6("f(x) => f(x)\nplot(f(1))"), /Recursive/],
    ["modifying a global in a function", v6("g = 0\nf() =>\n    g := 1\n    g\nplot(f())"), /global variable 'g'/],
    [
      "series where const is required",
      v6("plot(close, title = str.tostring(close))"),
      /argument 'title'=series string: expected const string/,
    ],
    ["[] on a literal (v6)", v6("plot(1[1])"), /literal/],
    ["na without type", v6("x = na\nplot(x)"), /without a type/],
    ["missing declaration", "//@version=6\nplot(close)\n", /declaration/],
    ["unknown function", v6("plot(foo.bar(1))"), /foo\.bar/],
    ["na for a unique constant (v6)", v6("plot(close, style = na)"), /na cannot be used for 'style'/],
    ["defaults must come last", v6("f(a = 1, b) => a + b\nplot(f(1, 2))"), /defaults must come last/],
    [
      "collections of collections",
      v6("array<array<float>> a = na\nplot(close)"),
      /Collections cannot contain collections/,
    ],
    ["map key types", v6("map<line, float> m = na\nplot(close)"), /Map keys/],
    ["removed transp parameter (v6)", v6("plot(close, transp = 50)"), /no parameter 'transp'/],
    [
      "series offset in plot (v6)",
      v6("plot(close, offset = bar_index)"),
      /argument 'offset'=series int: expected simple int/,
    ],
  ];
  for (const [name, src, re] of errors) {
    it(name, async () => {
      const r = await runBoth(src, data);
      expect(r.error_kind).toBe("check");
      expect(r.error).toMatch(re);
      expect(r.diagnostics?.[0]?.line).toBeGreaterThan(0);
    });
  }
});

describe("runtime errors", () => {
  it("runtime.error stops with error_kind runtime and the bar index", async () => {
    const r = await runBoth(v6("if bar_index == 3\n    runtime.error('boom')\nplot(close)"), data);
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toBe("boom");
    expect(r.error_bar).toBe(3);
    expect(r.error_bar_time).toBe(data[3]!.time);
    expect(r.count).toBe(3);
  });
  it("an endless loop stops after the 500 ms loop limit", async () => {
    const r = await runBoth(v6("i = 0\nwhile true\n    i += 1\nplot(i)"), data);
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/500 ms/);
    expect(r.error_bar).toBe(0);
  }, 20_000);
});
