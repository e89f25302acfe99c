// Checker fixes found during integration: each through the public Runtime in both modes, with
// expectations computed by hand from the synthetic bars.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, series, v5, v6 } from "../helpers/run-both.js";

const N = 5;
const data = bars(N);
const first = async (src: string) => Object.values(await series(src, data))[0]!;
type Drawing = Record<string, unknown>;
const ofType = (ds: Drawing[], type: string) => ds.filter((d) => d.type === type);

describe("drawing constructor overloads", () => {
  it("line.new with coordinates and a named extend", async () => {
    const r = await runBoth(
      v6("l = line.new(bar_index, high, bar_index + 1, low, extend = extend.right)\nplot(l.get_x2())"),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual([1, 2, 3, 4, 5]);
    const lines = ofType(r.drawings, "line");
    const last = data[N - 1]!;
    expect(lines[lines.length - 1]).toMatchObject({ x1: N - 1, y1: last.high, x2: N, y2: last.low, extend: "right" });
  });
  it("label.new with coordinates and named text/style", async () => {
    const r = await runBoth(
      v6("label.new(bar_index, high, text = 'x', style = label.style_label_down)\nplot(0)"),
      data,
    );
    expect(r.error).toBeUndefined();
    const labels = ofType(r.drawings, "label");
    expect(labels[labels.length - 1]).toMatchObject({ x: N - 1, y: data[N - 1]!.high, text: "x", style: "label_down" });
  });
  it("box.new with coordinates and a named border_color; the chart.point form still works", async () => {
    const r = await runBoth(
      v6("b = box.new(bar_index, high, bar_index + 2, low, border_color = color.blue)\nplot(b.get_right())"),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual([2, 3, 4, 5, 6]);
    const p = await first(
      v6(
        "b = box.new(chart.point.from_index(bar_index, high), chart.point.from_index(bar_index + 3, low), border_color = color.blue)\nplot(b.get_right())",
      ),
    );
    expect(p).toEqual([3, 4, 5, 6, 7]);
  });
});

describe("chart.point fields", () => {
  it("reads time/index/price and assigns price", async () => {
    const got = await first(
      v6(
        "p = chart.point.new(1000, bar_index, close)\np.price := p.price + 1\nplot(p.price * 1000 + p.index + p.time)",
      ),
    );
    expect(got).toEqual(data.map((b, i) => (b.close + 1) * 1000 + i + 1000));
  });
  it("chart.point.from_index leaves time na; field types are int/int/float", async () => {
    const got = await first(
      v6(
        "p = chart.point.from_index(bar_index * 2, 1.5)\nint i = p.index\nfloat pr = p.price\nplot(na(p.time) ? i + pr : -1)",
      ),
    );
    expect(got).toEqual(data.map((_, i) => i * 2 + 1.5));
  });
});

describe("methods on builtin variables", () => {
  it("label.all.size() and line.all.get(0) dispatch on array<label>/array<line>", async () => {
    // one label and one line per bar, none deleted: on bar i there are i + 1 of each
    const got = await first(
      v6(
        "label.new(bar_index, close)\nline.new(bar_index, close, bar_index + 1, close)\nplot(label.all.size() * 100 + line.all.get(0).get_x1() + line.all.last().get_x1())",
      ),
    );
    expect(got).toEqual(data.map((_, i) => (i + 1) * 100 + 0 + i));
  });
});

describe("v5 when=", () => {
  it("v5: the order call happens only on bars where `when` is true", async () => {
    // entry ordered on bar 1 fills at bar 2's open; the close ordered on bar 3 fills at bar 4's open
    const src = v5(
      "strategy.entry('L', strategy.long, when = bar_index == 1)\nstrategy.close('L', when = bar_index == 3)\nplot(strategy.position_size)",
      "strategy('t')",
    );
    expect(await first(src)).toEqual([0, 0, 1, 1, 0]);
  });
  it("v6: `when` is a check error", async () => {
    const r = await runBoth(v6("strategy.entry('L', strategy.long, when = close > open)", "strategy('t')"), data);
    expect(r.error_kind).toBe("check");
    expect(r.error).toMatch(/'when' parameter was removed in v6/);
  });
});

describe("result types that follow an argument", () => {
  it("ta.valuewhen has the source's type (float, int), ta.change of a bool is bool, array.max of int is int", async () => {
    const src = v6(
      "up = close > open\nfloat v = ta.valuewhen(up, close, 0)\nint i = ta.valuewhen(up, bar_index, 0)\nbool ch = ta.change(up)\nint m = array.from(3, 7, 5).max()\n" +
        "plot(nz(v) * 1000 + nz(i) * 10 + (ch ? 1 : 0) + m * 100000)",
    );
    let lastUp = NaN;
    let lastI = NaN;
    const want = data.map((b, k) => {
      const up = b.close > b.open;
      if (up) [lastUp, lastI] = [b.close, k];
      // v6: the bool before the first bar reads false (968f8a3), so bar 0 changes when `up` is true
      const ch = up !== (k > 0 && data[k - 1]!.close > data[k - 1]!.open);
      return (
        (Number.isNaN(lastUp) ? 0 : lastUp) * 1000 + (Number.isNaN(lastI) ? 0 : lastI) * 10 + (ch ? 1 : 0) + 700000
      );
    });
    const got = await first(src);
    got.forEach((g, k) => {
      expect(g as number).toBeCloseTo(want[k]!, 6);
    });
  });
});

describe("global-only calls", () => {
  it("alertcondition in an if block is a check error; at global scope it is recorded", async () => {
    const bad = await runBoth(
      v6("if close > open\n    alertcondition(close > open, 'up', 'went up')\nplot(close)"),
      data,
    );
    expect(bad.error_kind).toBe("check");
    expect(bad.error).toMatch(/Cannot use 'alertcondition' in local scope/);
    const fn = await runBoth(v6("f() =>\n    alertcondition(close > open, 'up', 'went up')\n    1\nplot(f())"), data);
    expect(fn.error_kind).toBe("check");
    const ok = await runBoth(v6("alertcondition(close > open, 'up', 'went up')\nplot(close)"), data);
    expect(ok.error).toBeUndefined();
    expect(ok.alert_conditions.length).toBe(1);
  });
});

describe("call-site type arguments", () => {
  const logsOf = async (body: string) => (await runBoth(v6(body + "\nplot(0)"), bars(1))).logs.map((l) => l.message);
  it("array.new<float>, array.from of floats and matrix.new<float> print (str.format {0}) whole numbers as floats; int ones as ints", async () => {
    expect(await logsOf("log.info('{0}', array.new<float>(2, 1))")).toEqual(["[1.0, 1.0]"]);
    expect(await logsOf("log.info('{0}', array.from(1.0, 2))")).toEqual(["[1.0, 2.0]"]);
    expect(await logsOf("log.info('{0}', array.from(1, 2))")).toEqual(["[1, 2]"]);
    expect(await logsOf("log.info('{0}', array.new<int>(2, 3))")).toEqual(["[3, 3]"]);
    expect(await logsOf("log.info('{0}', matrix.new<float>(1, 2, 4))")).toEqual(["[[4.0, 4.0]]"]);
  });
});

describe("evaluation order", () => {
  it("binary operators evaluate the left operand first (meta.requests in source order, both modes)", async () => {
    const H = 3_600_000;
    const mk = (base: number) =>
      Array.from({ length: 4 }, (_, i) => ({
        time: i * H,
        open: base + i,
        high: base + i,
        low: base + i,
        close: base + i,
        volume: 1,
      }));
    const chart = mk(10);
    const feed = { dataFeed: { "AAA|60": mk(100), "BBB|60": mk(200) } };
    for (const op of ["/", "-", "*", "+", "<", "!="]) {
      const shown = op === "<" || op === "!=" ? "x ? 1 : 0" : "x";
      const r = await runBoth(
        v6(`x = request.security("AAA", "60", close) ${op} request.security("BBB", "60", close)\nplot(${shown})`),
        chart,
        { ...feed, runtime: { timeframe: "60" } },
      );
      expect(r.error).toBeUndefined();
      expect((r.meta.requests as { symbol: string }[]).map((q) => q.symbol)).toEqual(["AAA", "BBB"]);
    }
    // the values themselves: (100 + i) / (200 + i)
    const r = await runBoth(
      v6(`plot(request.security("AAA", "60", close) / request.security("BBB", "60", close))`),
      chart,
      { ...feed, runtime: { timeframe: "60" } },
    );
    expect(r.series.plot_0).toEqual([0, 1, 2, 3].map((i) => (100 + i) / (200 + i)));
  });
});

describe("division by zero still evaluates the dividend", () => {
  // ta.cum(1) on the left must advance on every bar, also when the divisor is 0 (the result is na)
  const src = v6("plot(ta.cum(1) / (bar_index % 2 == 0 ? 0 : 1))");
  const want = data.map((_, i) => (i % 2 === 0 ? null : i + 1));
  it("interpret", async () => {
    const r = await new Runtime("CHART").run(src, data, { mode: "interpret" });
    expect(r.series.plot_0).toEqual(want);
  });
  it("both modes agree (compile backend)", async () => {
    expect((await runBoth(src, data)).series.plot_0).toEqual(want);
  });
});

describe("math.round result type", () => {
  it("math.round(x) is int, math.round(x, precision) is float", async () => {
    const got = await first(v6("int r = math.round(close)\nfloat r2 = math.round(close, 1)\nplot(r * 1000 + r2)"));
    got.forEach((g, i) => {
      expect(g as number).toBeCloseTo(Math.round(data[i]!.close) * 1000 + Math.round(data[i]!.close * 10) / 10, 9);
    });
  });
});
