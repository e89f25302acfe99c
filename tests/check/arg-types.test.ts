// Argument types against parameter types (src/check/arg-types.ts): one describe per rule, each with
// accepted scripts (run in both modes, values computed from the bars) and rejected ones (TradingView's
// CE10123 wording, at the argument's line and column).
import { describe, expect, it } from "vitest";
import { bars, runBoth, v5, v6 } from "../helpers/run-both.js";

const N = 5;
const data = bars(N);
const closes = data.map((b) => b.close);

/** Runs in both modes, requires success, returns the plots by title. */
async function plots(src: string): Promise<Record<string, (number | null)[]>> {
  const r = await runBoth(src, data);
  if (r.error) throw new Error(`${r.error_kind}: ${r.error}`);
  return r.series as Record<string, (number | null)[]>;
}

/** A check error with exactly this message at this line and column. */
async function rejected(src: string, message: string, line: number, column: number): Promise<void> {
  const r = await runBoth(src, data);
  expect(r.error_kind, r.error).toBe("check");
  expect(r.diagnostics?.[0]).toMatchObject({ message, line, column });
}

const idx = data.map((_, i) => i);

describe("drawing ids: a label is not a line", () => {
  it("rejects a label where a line is expected, at the argument", async () => {
    await rejected(
      v6('x = line.get_x1(label.new(bar_index, close, "x"))\nplot(x)'),
      `Cannot call 'line.get_x1' with argument 'id'='label.new(bar_index, close, "x")'. An argument of 'series label' type was used but a 'series line' is expected.`,
      3,
      17,
    );
    await rejected(
      v6("var table t = table.new(position.top_right, 1, 1)\nlabel.delete(t)\nplot(0)"),
      "Cannot call 'label.delete' with argument 'id'='t'. An argument of 'series table' type was used but a 'series label' is expected.",
      4,
      14,
    );
  });
  it("accepts the right id, and na for any drawing id", async () => {
    const s = await plots(
      v6(
        "l = line.new(bar_index, close, bar_index + 1, close)\nplot(line.get_x1(l))\nlabel.delete(na)\nline x = na\nplot(na(line.get_x1(x)) ? 1 : 0)",
      ),
    );
    expect(s.plot_0).toEqual(idx);
    expect(s.plot_1).toEqual(idx.map(() => 1));
  });
  it("rejects a number as a drawing id", async () => {
    await rejected(
      v6("line.delete(1)\nplot(0)"),
      "Cannot call 'line.delete' with argument 'id'='1'. An argument of 'literal int' type was used but a 'series line' is expected.",
      3,
      13,
    );
  });
});

describe("chart.point parameters", () => {
  it("rejects a number where a chart.point is expected", async () => {
    await rejected(
      v6("l = line.new(bar_index, close, bar_index + 1, close)\nline.set_first_point(l, close)\nplot(0)"),
      "Cannot call 'line.set_first_point' with argument 'point'='close'. An argument of 'series float' type was used but a 'chart.point' is expected.",
      4,
      25,
    );
  });
  it("accepts chart points, and picks the coordinate overload from number arguments", async () => {
    const s = await plots(
      v6(
        "p = chart.point.from_index(bar_index, close)\nl = line.new(p, p)\nb = box.new(bar_index, high, bar_index + 2, low)\nplot(l.get_x2() + b.get_right())",
      ),
    );
    expect(s.plot_0).toEqual(idx.map((i) => i + i + 2));
  });
});

describe("array element types", () => {
  it("rejects a value of another type than the array's elements", async () => {
    await rejected(
      v6('a = array.new<int>()\narray.push(a, "a string")\nplot(a.size())'),
      `Cannot call 'array.push' with argument 'value'='"a string"'. An argument of 'literal string' type was used but a 'series int' is expected.`,
      4,
      15,
    );
    // float is not cast to int
    await rejected(
      v6("a = array.new<int>()\na.push(close)\nplot(a.size())"),
      "Cannot call 'array.push' with argument 'value'='close'. An argument of 'series float' type was used but a 'series int' is expected.",
      4,
      8,
    );
  });
  it("rejects numeric reductions of a string array, in function and method form", async () => {
    await rejected(
      v6('a = array.from("x", "y")\nplot(array.sum(a))'),
      "Cannot call 'array.sum' with argument 'id'='a'. An argument of 'array<string>' type was used but a 'array<int/float>' is expected.",
      4,
      16,
    );
    await rejected(
      v6('a = array.from("x", "y")\nplot(a.avg())'),
      "Cannot call 'array.avg' with argument 'id'='a'. An argument of 'array<string>' type was used but a 'array<int/float>' is expected.",
      4,
      6,
    );
  });
  it("accepts int into a float array and generic functions on any element type", async () => {
    const s = await plots(
      v6(
        'a = array.new<float>()\na.push(bar_index)\na.push(close)\ns = array.from("x", "yy")\nplot(a.sum())\nplot(str.length(s.get(1)) + s.size())',
      ),
    );
    expect(s.plot_0).toEqual(closes.map((c, i) => i + c));
    expect(s.plot_1).toEqual(idx.map(() => 4));
  });
  it("array.from's values share one type (int and float mix to float; na fits)", async () => {
    await rejected(
      v6('a = array.from(1, "a")\nplot(a.size())'),
      `Cannot call 'array.from' with argument 'arg1'='"a"'. An argument of 'literal string' type was used but a 'series int' is expected.`,
      3,
      19,
    );
    const s = await plots(v6("a = array.from(bar_index, close, na)\nplot(a.sum())"));
    expect(s.plot_0).toEqual(closes.map((c, i) => i + c));
  });
  it("checks array.new<T>'s initial value against T", async () => {
    await rejected(
      v6('a = array.new<int>(3, "x")\nplot(a.size())'),
      `Cannot call 'array.new' with argument 'initial_value'='"x"'. An argument of 'literal string' type was used but a 'series int' is expected.`,
      3,
      23,
    );
    const s = await plots(v6("a = array.new<float>(3, bar_index)\nplot(a.sum())"));
    expect(s.plot_0).toEqual(idx.map((i) => 3 * i));
  });
});

describe("map keys and values", () => {
  it("rejects a key or a value of the wrong type", async () => {
    await rejected(
      v6("m = map.new<string, float>()\nm.put(1, close)\nplot(m.size())"),
      "Cannot call 'map.put' with argument 'key'='1'. An argument of 'literal int' type was used but a 'series string' is expected.",
      4,
      7,
    );
    await rejected(
      v6('m = map.new<string, float>()\nmap.put(m, "k", "v")\nplot(m.size())'),
      `Cannot call 'map.put' with argument 'value'='"v"'. An argument of 'literal string' type was used but a 'series float' is expected.`,
      4,
      17,
    );
  });
  it("accepts matching keys and values", async () => {
    const s = await plots(v6('m = map.new<string, float>()\nm.put("k", close)\nplot(m.get("k"))'));
    expect(s.plot_0).toEqual(closes);
  });
});

describe("matrix element types", () => {
  it("rejects a value of another type and numeric functions of a string matrix", async () => {
    await rejected(
      v6('m = matrix.new<int>(2, 2, 0)\nm.set(0, 0, "x")\nplot(m.rows())'),
      `Cannot call 'matrix.set' with argument 'value'='"x"'. An argument of 'literal string' type was used but a 'series int' is expected.`,
      4,
      13,
    );
    await rejected(
      v6('m = matrix.new<string>(2, 2, "a")\nplot(m.avg())'),
      "Cannot call 'matrix.avg' with argument 'id'='m'. An argument of 'matrix<string>' type was used but a 'matrix<int/float>' is expected.",
      4,
      6,
    );
  });
  it("accepts float matrices where the first overload documents int ones (matrix.mult, matrix.sum)", async () => {
    const s = await plots(
      v6(
        "m = matrix.new<float>(2, 2, close)\nid = matrix.new<float>(2, 2, 0)\nid.set(0, 0, 1)\nid.set(1, 1, 1)\nplot(m.mult(id).sum(m).get(0, 0))",
      ),
    );
    expect(s.plot_0).toEqual(closes.map((c) => c + c));
  });
});

describe("UDT objects passed to functions, methods and constructors", () => {
  const types = "type A\n    int x\ntype B\n    int y\n";
  it("rejects another type's object (TradingView's own probe wording)", async () => {
    await rejected(
      v6(`${types}g(A a) => a.x\nb = B.new(1)\nplot(g(b))`),
      "Cannot call 'g' with argument 'a'='b'. An argument of 'B' type was used but a 'A' is expected.",
      9,
      8,
    );
    await rejected(
      v6(`${types}method m(A this, int k) => this.x + k\na = A.new(1)\nplot(a.m(close))`),
      "Cannot call 'm' with argument 'k'='close'. An argument of 'series float' type was used but a 'series int' is expected.",
      9,
      10,
    );
    await rejected(
      v6(`${types}a = A.new("s")\nplot(a.x)`),
      `Cannot call 'A.new' with argument 'x'='"s"'. An argument of 'literal string' type was used but a 'series int' is expected.`,
      7,
      11,
    );
  });
  it("accepts the declared type and na", async () => {
    const s = await plots(v6(`${types}g(A a) => na(a) ? -1 : a.x\nplot(g(A.new(bar_index)))\nplot(g(na))`));
    expect(s.plot_0).toEqual(idx);
    expect(s.plot_1).toEqual(idx.map(() => -1));
  });
});

describe("enums", () => {
  const dir = "enum Dir\n    up\n    down\n";
  it("rejects a string for an enum parameter and an enum for a string one", async () => {
    await rejected(
      v6(`${dir}f(Dir d) => d == Dir.up ? 1 : 0\nplot(f("up"))`),
      `Cannot call 'f' with argument 'd'='"up"'. An argument of 'literal string' type was used but a 'Dir' is expected.`,
      7,
      8,
    );
    await rejected(
      v6(`${dir}label.new(bar_index, close, Dir.up)\nplot(0)`),
      "Cannot call 'label.new' with argument 'text'='Dir.up'. An argument of 'Dir' type was used but a 'series string' is expected.",
      6,
      29,
    );
  });
  it("input.enum's default must be an enum member", async () => {
    await rejected(
      v6(`${dir}d = input.enum("up")\nplot(0)`),
      `Cannot call 'input.enum' with argument 'defval'='"up"'. An argument of 'literal string' type was used but a 'const enum' is expected.`,
      6,
      16,
    );
  });
  it("accepts enum members, input.enum and str.tostring of an enum", async () => {
    const s = await plots(
      v6(
        `${dir}f(Dir d) => d == Dir.up ? 1 : 0\nd = input.enum(Dir.down)\nplot(f(d) + f(Dir.up) * 10 + str.length(str.tostring(Dir.up)))`,
      ),
    );
    expect(s.plot_0).toEqual(idx.map(() => 0 + 10 + 2));
  });
});

describe("strings and numbers", () => {
  it("rejects a string where a number is expected and the reverse", async () => {
    await rejected(
      v6('plot(ta.sma("x", 10))'),
      `Cannot call 'ta.sma' with argument 'source'='"x"'. An argument of 'literal string' type was used but a 'series int/float' is expected.`,
      3,
      13,
    );
    await rejected(
      v6("plot(str.length(close))"),
      "Cannot call 'str.length' with argument 'string'='close'. An argument of 'series float' type was used but a 'const string' is expected.",
      3,
      17,
    );
  });
  it("rejects a float where an int is expected (no float -> int cast)", async () => {
    await rejected(
      v6("plot(ta.sma(close, 10.5))"),
      "Cannot call 'ta.sma' with argument 'length'='10.5'. An argument of 'literal float' type was used but a 'series int' is expected.",
      3,
      20,
    );
    await rejected(
      v6("float LENGTH = 10.0\nplot(ta.sma(close, length = LENGTH))"),
      "Cannot call 'ta.sma' with argument 'length'='LENGTH'. An argument of 'const float' type was used but a 'series int' is expected.",
      4,
      20,
    );
  });
  it("accepts an int where a float is expected", async () => {
    const s = await plots(v6("plot(math.max(bar_index, 1.5))\nplot(ta.sma(bar_index, 1))"));
    expect(s.plot_0).toEqual(idx.map((i) => Math.max(i, 1.5)));
    expect(s.plot_1).toEqual(idx);
  });
});

describe("colours and numbers", () => {
  it("rejects a number where a colour is expected and a colour where a number is", async () => {
    await rejected(
      v6("plot(close, color = 1)"),
      "Cannot call 'plot' with argument 'color'='1'. An argument of 'literal int' type was used but a 'series color' is expected.",
      3,
      13,
    );
    await rejected(
      v6("c = color.new(255, 50)\nplot(close, color = c)"),
      "Cannot call 'color.new' with argument 'color'='255'. An argument of 'literal int' type was used but a 'const color' is expected.",
      3,
      15,
    );
    await rejected(
      v6("plot(color.red)"),
      "Cannot call 'plot' with argument 'series'='color.red'. An argument of 'const color' type was used but a 'series int/float' is expected.",
      3,
      6,
    );
  });
  it("accepts colours, na colours and nz of a colour", async () => {
    const s = await plots(
      v6(
        "c = bar_index % 2 == 0 ? color.red : na\nplot(close, color = nz(c, color.blue))\nplot(color.b(nz(c, color.blue)))",
      ),
    );
    expect(s.plot_0).toEqual(closes);
    expect(s.plot_1.length).toBe(N);
  });
});

describe("bools and numbers", () => {
  it("v6 rejects a number where a bool is expected", async () => {
    await rejected(
      v6("plot(ta.tr(1))"),
      "Cannot call 'ta.tr' with argument 'handle_na'='1'. An argument of 'literal int' type was used but a 'simple bool' is expected.",
      3,
      12,
    );
    await rejected(
      v6("alertcondition(close)\nplot(0)"),
      "Cannot call 'alertcondition' with argument 'condition'='close'. An argument of 'series float' type was used but a 'series bool' is expected.",
      3,
      16,
    );
  });
  it("v5 casts int/float to bool implicitly", async () => {
    const r = await runBoth(v5("alertcondition(close)\nplot(ta.tr(1))"), data);
    expect(r.error).toBeUndefined();
    const tr = r.series.plot_0 as number[];
    expect(tr[0]).toBe(data[0]!.high - data[0]!.low);
  });
  it("a bool is not a number in either version", async () => {
    await rejected(
      v6("plot(close > open)"),
      "Cannot call 'plot' with argument 'series'='close > open'. An argument of 'series bool' type was used but a 'series int/float' is expected.",
      3,
      6,
    );
    await rejected(
      v5("plot(close > open)"),
      "Cannot call 'plot' with argument 'series'='close > open'. An argument of 'series bool' type was used but a 'series int/float' is expected.",
      3,
      6,
    );
  });
});

describe("na() and nz() of every kind", () => {
  it("nz and fixnan take strings; v5 also bools; na() takes anything", async () => {
    const s = await plots(v6('s = nz(string(na), "zz")\nl = label(na)\nplot(str.length(s) + (na(l) ? 10 : 0))'));
    expect(s.plot_0).toEqual(idx.map(() => 12));
    const r = await runBoth(v5("b = bar_index > 1 ? true : na\nplot(nz(b, false) ? 1 : 0)"), data);
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(idx.map((i) => (i > 1 ? 1 : 0)));
  });
});

describe("overloads chosen by argument types", () => {
  it("fill() between plots and between hlines", async () => {
    const r = await runBoth(
      v6("p1 = plot(high)\np2 = plot(low)\nfill(p1, p2)\nh1 = hline(1)\nh2 = hline(2)\nfill(h1, h2)"),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(data.map((b) => b.high));
  });
  it("fill() of a plot and an hline fits no overload", async () => {
    await rejected(
      v6("p1 = plot(high)\nh1 = hline(1)\nfill(p1, h1)"),
      "Cannot call 'fill' with argument 'hline1'='p1'. An argument of 'plot' type was used but a 'hline' is expected.",
      5,
      6,
    );
  });
  it("time(timeframe, session, timezone) takes the overload with a timezone", async () => {
    const s = await plots(v6('plot(na(time(timeframe.period, "0000-2400", "UTC")) ? 0 : 1)'));
    expect(s.plot_0).toEqual(idx.map(() => 1));
  });
});

describe("undetermined types (TradingView's generic check of untyped functions)", () => {
  it("an untyped parameter's float passed as an int length is not reported (v5 Hull Suite)", async () => {
    const s = await plots(
      v5(
        "hma(_src, _length) =>\n    ta.wma(2 * ta.wma(_src, _length / 2) - ta.wma(_src, _length), math.round(math.sqrt(_length)))\nplot(hma(close, 4))",
      ),
    );
    expect(s.plot_0!.length).toBe(N);
  });
  it("a typed parameter's int quotient is an int length, truncated (issue 17: int / int is typed int)", async () => {
    // TradingView's own v6 HMA passes `length / 2` as ta.wma's length; 5 / 2 is an int 2.5 that the
    // length truncates to 2
    const s = await plots(v6("f(int len) => ta.wma(close, len / 2)\nplot(f(5))\nplot(ta.wma(close, 2))"));
    expect(s.plot_0).toEqual(s.plot_1);
  });
});
