// Checker rules settled by the fifth real-world round (issue 17, tests/realworld/scripts/r5_*): scripts
// TradingView accepts that resin refused or ran wrong. Every case runs in both modes (runBoth).
import { describe, expect, it } from "vitest";
import { bars, runBoth } from "../helpers/run-both.js";

const data = bars(8);

describe("a variable named like a builtin namespace", () => {
  // TradingView resolves `ns.member` to the builtin namespace when `ns.member` is a builtin, while the
  // plain name is the variable: `size = 3` then `size.small`, a parameter `color` then `color.new(...)`.
  it("variables and parameters named size, color, extend, alert, line keep their namespaces", async () => {
    const src =
      "//@version=6\nindicator('t', overlay = true)\nsize = 3\ncolor = close > open ? color.green : color.red\n" +
      "extend = input.bool(true, 'Extend')\nalert = input.bool(true, 'Alert')\n" +
      "var line line = na\nline := line.new(bar_index - 1, close[1], bar_index, close, extend = extend ? extend.right : extend.none)\n" +
      "line.delete(line[1])\nline.set_color(line, color)\n" +
      "if alert and barstate.islast\n    alert('last', alert.freq_once_per_bar)\n" +
      "mk(color, width) =>\n    label.new(bar_index, high, 'x', color = color.new(color, 50), size = size.small)\n    width * size\n" +
      "plot(mk(color.orange, 2), 'w', color = color)\nplot(size, 's')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["w"]).toEqual(data.map(() => 6));
    expect(r.series["s"]).toEqual(data.map(() => 3));
    expect(r.alerts.length).toBe(1);
    // one live line (each bar deletes the previous one) and the labels
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(1);
    expect(r.drawings.filter((d) => d.type === "label").length).toBe(data.length);
  });
  it("a field of the variable's own type comes before the namespace member", async () => {
    const src =
      "//@version=6\nindicator('t')\ntype Sz\n    float small = 7\nsize = Sz.new()\nplot(size.small, 's')\nplot(size.tiny == size.tiny ? 1 : 0, 'ns')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["s"]).toEqual(data.map(() => 7));
    expect(r.series["ns"]).toEqual(data.map(() => 1));
  });
  it("a method call on the variable stays a method call", async () => {
    const src =
      "//@version=6\nindicator('t')\nvar array = array.new<float>()\narray.push(close)\nline = line.new(bar_index, close, bar_index + 1, close)\nline.delete()\n" +
      "plot(array.size(), 'n')\nplot(array.sum(array), 'sum')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["n"]).toEqual(data.map((_, i) => i + 1));
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(0);
  });
  it("value variables named str, math, ta: their namespaces' functions; a no-argument call is a method", async () => {
    const src =
      "//@version=6\nindicator('t')\nstr = 'abc'\nmath = 2.0\nta = close\ns2 = str.tostring(1.5, '#.##') + str.upper(str)\n" +
      "plot(str.length(s2), 'n')\nplot(math.max(math, 3), 'm')\nplot(ta.sma(ta, 1), 't')\nplot(str.length(), 'sl')\n" +
      "type Zone\n    color color = color.red\nz = Zone.new(color.blue)\nf(Zone zone, color color = color.green) => zone.color == color.blue ? 1 : 0\nplot(f(z), 'udt')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["n"]).toEqual(data.map(() => 6));
    expect(r.series["m"]).toEqual(data.map(() => 3));
    expect(r.series["t"]).toEqual(data.map((b) => b.close));
    expect(r.series["sl"]).toEqual(data.map(() => 3));
    expect(r.series["udt"]).toEqual(data.map(() => 1));
  });
  it("an unknown member of a variable is still an error", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\nsize = 3\nplot(size.foo)\n", data);
    expect(r.error).toMatch(/Cannot access field 'foo'/);
  });
});

describe("int / int is typed int (the v6 migration guide's fractional division)", () => {
  // TradingView types the quotient of two ints int in both versions. Its value keeps the fraction in v6
  // (and in v5 unless both operands are const, which v5 truncates); an int parameter (a length, an
  // index), a history offset truncate it, everything else (plots, int variables, arithmetic) sees it.
  const body =
    "length = input.int(9)\nhalf = length / 2\nint seriesOffset = bar_index / 2\nint x = 7 / 2\n" +
    "plot(x, 'x')\nplot(half, 'half')\nplot(seriesOffset, 'so')\n" +
    "plot(ta.wma(close, length / 2), 'wma')\nplot(ta.wma(close, 4), 'wma4')\n" +
    "plot(close[bar_index / 2], 'h')\nplot(close[int(bar_index / 2)], 'h2')\n" +
    "a = array.from(10.0, 20.0, 30.0, 40.0)\nplot(a.get(7 / 2), 'ag')\nplot(math.max(length / 2, 1), 'mx')\n" +
    "int y = 10\ny /= 4\nplot(y, 'y')\nplot(14 / 8 * 8, 'mul')\n";
  it("v6: the value keeps its fraction; lengths, indexes and offsets truncate", async () => {
    const r = await runBoth(`//@version=6\nindicator('t')\n${body}`, data);
    expect(r.error).toBeUndefined();
    expect(r.series["x"]).toEqual(data.map(() => 3.5));
    expect(r.series["half"]).toEqual(data.map(() => 4.5));
    expect(r.series["so"]).toEqual(data.map((_, i) => i / 2));
    expect(r.series["wma"]).toEqual(r.series["wma4"]);
    expect(r.series["h"]).toEqual(r.series["h2"]);
    expect(r.series["ag"]).toEqual(data.map(() => 40));
    expect(r.series["mx"]).toEqual(data.map(() => 4.5));
    expect(r.series["y"]).toEqual(data.map(() => 2.5));
    expect(r.series["mul"]).toEqual(data.map(() => 14));
  });
  it("v5: const / const truncates, an input or series operand keeps the fraction", async () => {
    const r = await runBoth(`//@version=5\nindicator('t')\n${body}`, data);
    expect(r.error).toBeUndefined();
    expect(r.series["x"]).toEqual(data.map(() => 3));
    expect(r.series["half"]).toEqual(data.map(() => 4.5));
    expect(r.series["so"]).toEqual(data.map((_, i) => i / 2));
    expect(r.series["wma"]).toEqual(r.series["wma4"]);
    expect(r.series["h"]).toEqual(r.series["h2"]);
    expect(r.series["ag"]).toEqual(data.map(() => 40));
    expect(r.series["mul"]).toEqual(data.map(() => 8));
  });
  it("an int parameter of a user function keeps the fraction and truncates where an int is needed", async () => {
    const src =
      "//@version=6\nindicator('t')\na = array.from(10.0, 20.0, 30.0, 40.0)\nf(int n) => a.get(n) + n\ng(n) => ta.sma(close, n)\n" +
      "plot(f(7 / 2), 'f')\nplot(g(9 / 2) - ta.sma(close, 4), 'g')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["f"]).toEqual(data.map(() => 43.5));
    expect(r.series["g"]!.slice(3)).toEqual(data.slice(3).map(() => 0));
  });
  it("an int-typed quotient cannot take a float, like any int variable", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\nh = bar_index / 2\nh := close\nplot(h)\n", data);
    expect(r.error).toMatch(/float/);
  });
});

describe("averaging reductions of int collections are int (the reference's overloads)", () => {
  it("array.avg/median/stdev/variance of array<int> are int-typed and keep their fraction; sum/min/max stay whole", async () => {
    const src =
      "//@version=6\nindicator('t')\na = array.from(1, 2, 3, 4)\nint avg = a.avg()\nint med = array.median(a)\nint s = a.sum()\nint mn = a.min()\n" +
      "int v = a.variance()\nint p = a.percentile_linear_interpolation(50)\nm = matrix.new<int>(2, 2, 3)\nint mavg = m.avg()\n" +
      "plot(avg, 'avg')\nplot(med, 'med')\nplot(s, 'sum')\nplot(mn, 'min')\nplot(v, 'var')\nplot(p, 'p50')\nplot(mavg, 'mavg')\nplot(close[a.avg()] - close[2], 'h')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["avg"]).toEqual(data.map(() => 2.5));
    expect(r.series["med"]).toEqual(data.map(() => 2.5));
    expect(r.series["sum"]).toEqual(data.map(() => 10));
    expect(r.series["min"]).toEqual(data.map(() => 1));
    expect(r.series["var"]).toEqual(data.map(() => 1.25));
    expect(r.series["p50"]).toEqual(data.map(() => 2.5));
    expect(r.series["mavg"]).toEqual(data.map(() => 3));
    expect(r.series["h"]!.slice(2)).toEqual(data.slice(2).map(() => 0));
  });
  it("of array<float> they stay float", async () => {
    const r = await runBoth(
      "//@version=6\nindicator('t')\na = array.from(1.0, 2.0)\nint avg = a.avg()\nplot(avg)\n",
      data,
    );
    expect(r.error).toMatch(/float/);
  });
});

describe("v5 order functions take `when` positionally", () => {
  // v5 reference: strategy.close(id, when, comment, ...), strategy.entry(id, direction, qty, limit, stop,
  // oca_name, oca_type, comment, when, ...), strategy.close_all(when, ...), strategy.cancel(id, when)
  it("strategy.close(id, cond, comment) and strategy.entry(..., comment, cond) are when-guarded", async () => {
    const src =
      "//@version=5\nstrategy('t')\nlongCond = bar_index % 4 == 0\nexitCond = bar_index % 4 == 2\n" +
      "strategy.entry('L', strategy.long, 1, na, na, '', strategy.oca.none, 'in', longCond)\nstrategy.close('L', exitCond, 'out')\n" +
      "plot(strategy.position_size, 'pos')\n";
    const big = bars(40);
    const r = await runBoth(src, big);
    expect(r.error).toBeUndefined();
    const trades = r.strategy!.trades;
    expect(trades.length).toBeGreaterThan(3);
    // entries placed on bars 0, 4, 8 ... fill on the next open; exits placed on bars 2, 6, ... fill on the next
    for (const tr of trades) {
      expect(tr.entry_bar_index % 4).toBe(1);
      expect(tr.entry_comment).toBe("in");
      expect(tr.exit_bar_index! % 4).toBe(3);
      expect(tr.exit_comment).toBe("out");
    }
  });
  it("strategy.close_all(cond) and strategy.cancel(id, cond)", async () => {
    const src =
      "//@version=5\nstrategy('t')\nif bar_index % 4 == 0\n    strategy.entry('L', strategy.long)\nstrategy.close_all(bar_index % 4 == 2)\nstrategy.cancel('x', false)\n";
    const r = await runBoth(src, bars(40));
    expect(r.error).toBeUndefined();
    for (const tr of r.strategy!.trades) expect(tr.exit_bar_index! % 4).toBe(3);
  });
});

describe("timestamp(dateString) in RFC 2822 forms", () => {
  // the reference: dateString complies with IETF RFC 2822 or ISO 8601; RFC 2822 section 4.3 reads a
  // two-digit year 00-49 as 20xx and 50-99 as 19xx, and keeps the obsolete zone names (EST, PDT, ...)
  it("two-digit years, zone offsets and names", async () => {
    const src =
      "//@version=6\nindicator('t')\nplot(timestamp('27 MAY 24 00:00 +0300'), 'a')\nplot(timestamp('Mon, 27 May 24 10:00:00 GMT'), 'b')\n" +
      "plot(timestamp('01 Jan 99'), 'c')\nplot(timestamp('Tue, 04 Dec 1995 00:12:00 EST'), 'd')\nplot(timestamp('2024-05-27T00:00:00+03:00'), 'e')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["a"]![0]).toBe(Date.UTC(2024, 4, 26, 21));
    expect(r.series["b"]![0]).toBe(Date.UTC(2024, 4, 27, 10));
    expect(r.series["c"]![0]).toBe(Date.UTC(1999, 0, 1));
    expect(r.series["d"]![0]).toBe(Date.UTC(1995, 11, 4, 5, 12));
    expect(r.series["e"]![0]).toBe(r.series["a"]![0]);
  });
});

describe("qualifier keywords on collection declarations", () => {
  // references (arrays, matrices, maps, drawings, objects) are series in TradingView; a `simple`
  // keyword on their declaration is accepted and changes nothing, `const` stays an error
  it("simple string[] s = array.new<string>(15) runs", async () => {
    const src =
      "//@version=6\nindicator('t')\nsimple string[] s = array.new<string>(15)\nseries float[] f = array.new<float>(3, 1.0)\ns.set(0, 'a')\nplot(s.size() + f.sum(), 'n')\n";
    const r = await runBoth(src, data);
    expect(r.error).toBeUndefined();
    expect(r.series["n"]).toEqual(data.map(() => 18));
  });
  it("const on a collection is refused", async () => {
    const r = await runBoth("//@version=6\nindicator('t')\nconst int[] c = array.from(1, 2)\nplot(c.size())\n", data);
    expect(r.error).toMatch(/declared const/);
  });
});

describe("runtime errors keep TradingView's message, the line and the bar", () => {
  const cases: [string, string, number, number][] = [
    [
      "a = array.new<float>()\nif bar_index == 5\n    x = a.first()\nplot(close)",
      "Cannot call `first()` if array is empty.",
      5,
      5,
    ],
    [
      "var a = array.new<float>()\na.push(close)\nv = a.get(bar_index + 1)\nplot(v)",
      "Index 1 is out of bounds, array size is 1.",
      5,
      0,
    ],
    [
      "m = matrix.new<float>(2, 2, 0)\ng(i) => m.get(i, 0)\nplot(g(bar_index))",
      "Row index 2 is out of bounds, the matrix has 2 rows.",
      4,
      2,
    ],
    [
      "var a = array.new<int>()\nif bar_index == 3\n    a.pop()\nplot(close)",
      "Cannot call `pop()` if array is empty.",
      5,
      3,
    ],
  ];
  for (const [body, message, line, bar] of cases) {
    it(message, async () => {
      const r = await runBoth(`//@version=6\nindicator('t')\n${body}\n`, data);
      expect(r.error_kind).toBe("runtime");
      expect(r.error).toBe(message);
      expect(r.error_bar).toBe(bar);
      expect(r.diagnostics?.[0]?.line).toBe(line);
    });
  }
});

describe("request.security of derived chart types (src/core/derived-bars.ts)", () => {
  const big = bars(60);
  it("ticker.heikinashi of the chart symbol gives Heikin Ashi bars on every bar", async () => {
    const src =
      "//@version=6\nindicator('t')\n[o, c] = request.security(ticker.heikinashi(syminfo.tickerid), timeframe.period, [open, close])\n" +
      "haC = (open + high + low + close) / 4\nvar float haO = na\nhaO := na(haO[1]) ? (open + close) / 2 : (haO[1] + haC[1]) / 2\n" +
      "plot(c, 'c')\nplot(haC, 'haC')\nplot(o, 'o')\nplot(haO, 'haO')\n";
    const r = await runBoth(src, big);
    expect(r.error).toBeUndefined();
    expect(r.series["c"]).toEqual(r.series["haC"]);
    expect(r.series["o"]).toEqual(r.series["haO"]);
    expect((r.meta.requests as { source: string }[])[0]!.source).toBe("derived");
  });
  it("at a higher timeframe the Heikin Ashi bars are built from the resampled bars", async () => {
    const src =
      "//@version=6\nindicator('t')\nc5 = request.security(ticker.heikinashi(syminfo.tickerid), '5', close)\n" +
      "p5 = request.security(syminfo.tickerid, '5', (open + high + low + close) / 4)\nplot(c5, 'c5')\nplot(p5, 'p5')\n";
    const r = await runBoth(src, big, { runtime: { timeframe: "1" } });
    expect(r.error).toBeUndefined();
    expect(r.series["c5"]).toEqual(r.series["p5"]);
    expect(r.series["c5"]!.filter((v) => typeof v === "number").length).toBeGreaterThan(40);
  });
  it("renko and line break values exist once a brick or line formed", async () => {
    const src =
      "//@version=6\nindicator('t')\nrk = request.security(ticker.renko(syminfo.tickerid, 'Traditional', 1), timeframe.period, close)\n" +
      "lb = request.security(ticker.linebreak(syminfo.tickerid, 3), timeframe.period, close)\nplot(rk, 'rk')\nplot(lb, 'lb')\n";
    const r = await runBoth(src, big);
    expect(r.error).toBeUndefined();
    const last = big.length - 1;
    expect(typeof r.series["rk"]![last]).toBe("number");
    expect(typeof r.series["lb"]![last]).toBe("number");
    // a renko close sits on the box grid that starts at the first close
    expect(Number.isInteger((r.series["rk"]![last] as number) - big[0]!.close)).toBe(true);
  });
  it("a derived type that cannot be built is a runtime error, not na", async () => {
    const src =
      "//@version=6\nindicator('t')\nrk = request.security(ticker.renko(syminfo.tickerid, 'Traditional', 1, false, 'OHLC'), timeframe.period, close)\nplot(rk)\n";
    const r = await runBoth(src, big);
    expect(r.error_kind).toBe("runtime");
    expect(r.error).toMatch(/ticker.renko: source "OHLC"/);
  });
});
