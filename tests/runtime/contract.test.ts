// The evaluate contract of service.md 1 / 1.2 through the public Runtime: result keys, mode
// resolution, ids, data errors, inputs, timeout, profiler, plot family and logs.
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { Runtime } from "../../src/runtime/index.js";
import { bars, runBoth, v6 } from "../helpers/run-both.js";

const data = bars(10);
const plotClose = v6("plot(close)");

const RESULT_KEYS = [
  "mode",
  "count",
  "series",
  "plots",
  "plot_meta",
  "events",
  "drawings",
  "alerts",
  "alert_conditions",
  "inputs",
  "logs",
  "profile",
  "overlay",
  "script_name",
  "script_type",
  "script_id",
  "run_id",
  "meta",
];

describe("result shape", () => {
  it("has every key of service.md 1.2", async () => {
    const r = await runBoth(plotClose, data);
    for (const k of RESULT_KEYS) expect(r, k).toHaveProperty(k);
    expect(r.count).toBe(10);
    expect(r.plots).toEqual(data.map((b) => b.close));
    expect(r.series.plot_0).toEqual(r.plots);
    expect(r.profile.phases).toHaveProperty("parse_ms");
    expect(r.profile.phases).toHaveProperty("check_ms");
    expect(r.profile.phases).toHaveProperty("eval_ms");
    expect(r.profile.bars).toBe(10);
    expect(r.profile.lines).toBeUndefined();
    expect(r.error).toBeUndefined();
    expect(r.script_type).toBe("indicator");
    expect(r.script_name).toBe("t");
    expect(r.meta).toEqual({ title: "t" });
  });

  it("script_id is the first 16 hex of sha256(source); run_id is new per run", async () => {
    const rt = new Runtime();
    const a = await rt.run(plotClose, data);
    const b = await rt.run(plotClose, data);
    expect(a.script_id).toBe(createHash("sha256").update(plotClose).digest("hex").slice(0, 16));
    expect(a.run_id).toMatch(/^[0-9a-f]{16}$/);
    expect(a.run_id).not.toBe(b.run_id);
  });

  it("declaration arguments: overlay, strategy type, meta", async () => {
    const r = await runBoth("//@version=6\nstrategy('S', overlay = true, initial_capital = 5000)\nplot(close)\n", data);
    expect(r.script_type).toBe("strategy");
    expect(r.overlay).toBe(true);
    expect(r.meta.initial_capital).toBe(5000);
    expect(r.strategy).toBeDefined();
    expect(r.plot_meta.plot_0!.pane).toBe("overlay");
  });
});

describe("mode resolution", () => {
  const saved = process.env.SVC_RUNTIME_MODE;
  afterEach(() => {
    if (saved === undefined) delete process.env.SVC_RUNTIME_MODE;
    else process.env.SVC_RUNTIME_MODE = saved;
  });
  it("defaults to interpret", async () => {
    delete process.env.SVC_RUNTIME_MODE;
    const r = await new Runtime().run(plotClose, data);
    expect(r.mode).toBe("interpret");
    expect(r.auto_backend).toBeUndefined();
  });
  it("auto runs the compile backend when the script compiles", async () => {
    const r = await new Runtime().run(plotClose, data, { mode: "auto" });
    expect(r.mode).toBe("compile");
    expect(r.auto_backend).toBe("compile");
    expect(r.compile_fallback_reason).toBeUndefined();
    expect(r.plots).toEqual(data.map((b) => b.close));
  });
  it("reads SVC_RUNTIME_MODE when no mode is given", async () => {
    process.env.SVC_RUNTIME_MODE = "auto";
    const r = await new Runtime().run(plotClose, data);
    expect(r.auto_backend).toBe("compile");
    process.env.SVC_RUNTIME_MODE = "compile";
    expect((await new Runtime().run(plotClose, data)).mode).toBe("compile");
  });
  it("an invalid mode is error_kind mode naming the three modes", async () => {
    const r = await new Runtime().run(plotClose, data, { mode: "turbo" });
    expect(r.error_kind).toBe("mode");
    expect(r.error).toMatch(/interpret.*compile.*auto/);
    process.env.SVC_RUNTIME_MODE = "bogus";
    const e = await new Runtime().run(plotClose, data);
    expect(e.error_kind).toBe("mode");
  });
});

describe("errors never throw", () => {
  it("parse error", async () => {
    const r = await new Runtime().run("//@version=6\nindicator('x')\nplot(close\n", data);
    expect(r.error_kind).toBe("parse");
    expect(r.diagnostics?.length).toBeGreaterThan(0);
  });
  it("data errors name the first bad bar", async () => {
    const bad = bars(5);
    bad[3] = { ...bad[3]!, high: bad[3]!.low - 1 };
    const r = await new Runtime().run(plotClose, bad);
    expect(r.error_kind).toBe("data");
    expect(r.error_bar).toBe(3);
    const r2 = await new Runtime().run(plotClose, "nope" as never);
    expect(r2.error_kind).toBe("data");
  });
  it("columnar and typed-array input", async () => {
    const cols = {
      time: Float64Array.from(data, (b) => b.time),
      open: data.map((b) => b.open),
      high: data.map((b) => b.high),
      low: data.map((b) => b.low),
      close: Float64Array.from(data, (b) => b.close),
    };
    const r = await new Runtime().run(v6("plot(na(volume) ? 1 : 0)\nplot(close)"), cols);
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0).toEqual(Array(10).fill(1));
    expect(r.series.plot_1).toEqual(data.map((b) => b.close));
  });
});

describe("inputs", () => {
  const src = v6(
    "len = input.int(3, 'Length', minval = 1, maxval = 10)\nsrc = input.source(close, 'Source')\nmode = input.string('a', 'Mode', options = ['a', 'b'])\nflag = input.bool(false, 'Flag')\nc = input.color(#FF0000, 'Col')\nplot(len)\nplot(src)\nplot(mode == 'b' ? 1 : 0)\nplot(flag ? 1 : 0)",
  );
  it("are reported with their declaration", async () => {
    const r = await runBoth(src, data);
    expect(r.inputs.map((i) => [i.id, i.type, i.title, i.default, i.value])).toEqual([
      ["in_0", "int", "Length", 3, 3],
      ["in_1", "source", "Source", "close", "close"],
      ["in_2", "string", "Mode", "a", "a"],
      ["in_3", "bool", "Flag", false, false],
      ["in_4", "color", "Col", "#FF0000", "#FF0000"],
    ]);
    expect(r.inputs[0]).toMatchObject({ min: 1, max: 10 });
    expect(r.inputs[2]!.options).toEqual(["a", "b"]);
  });
  it("overrides by title and by variable name, clamped, source switched", async () => {
    const r = await runBoth(src, data, { inputs: { Length: 50, src: "open", Mode: "b", flag: true } });
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0![0]).toBe(10);
    expect(r.series.plot_1).toEqual(data.map((b) => b.open));
    expect(r.series.plot_2![0]).toBe(1);
    expect(r.series.plot_3![0]).toBe(1);
    expect(r.inputs[0]!.value).toBe(10);
  });
  it("constructor inputs are defaults that run options override", async () => {
    const rt = new Runtime("CHART", { inputs: { Length: 4, Flag: true } });
    const r = await rt.run(src, data, { inputs: { Length: 5 } });
    expect(r.series.plot_0![0]).toBe(5);
    expect(r.series.plot_3![0]).toBe(1);
  });
  it("a wrong-typed override or an option outside `options` is a check error", async () => {
    const a = await new Runtime().run(src, data, { inputs: { Length: "x" } });
    expect(a.error_kind).toBe("check");
    expect(a.error).toMatch(/Length/);
    const b = await new Runtime().run(src, data, { inputs: { Mode: "z" } });
    expect(b.error_kind).toBe("check");
    const c = await new Runtime().run(src, data, { inputs: { Flag: 1 } });
    expect(c.error_kind).toBe("check");
  });
});

describe("timeout and profiler", () => {
  it("a timed-out run returns the partial result", async () => {
    // a cheap first run warms the program cache, so the budget goes to bars, not to parse and check on a
    // loaded machine; 100k iterations a bar make 30,000 bars far longer than the budget (3,000 took
    // ~0.37 s compiled on an idle machine, under it)
    const slow = v6("s = 0.0\nfor i = 0 to 100000\n    s += i\nplot(s)");
    const rt = new Runtime();
    await rt.run(slow, bars(2));
    const r = await rt.run(slow, bars(30_000), { timeoutSeconds: 0.5 });
    expect(r.timed_out).toBe(true);
    expect(r.count).toBeGreaterThan(0);
    expect(r.count).toBeLessThan(30_000);
    expect(r.series.plot_0!.length).toBe(r.count);
    expect(r.error).toBeUndefined();
  });
  it("profiler reports per-line timings", async () => {
    const r = await new Runtime().run(v6("a = close * 2\nplot(a)"), data, { profiler: true });
    const lines = r.profile.lines!;
    expect(lines.map((l) => l.line)).toEqual([3, 4]);
    expect(lines.every((l) => l.execs === 10 && l.ms >= 0)).toBe(true);
    expect(lines.reduce((s, l) => s + l.pct, 0)).toBeCloseTo(100, 6);
  });
});

describe("plot family", () => {
  it("titles, duplicates, kinds, cells and meta", async () => {
    const src = v6(
      "p1 = plot(close, 'c', color = color.red, linewidth = 2, style = plot.style_histogram)\nplot(open, 'c')\nplotshape(close > open, 'up', shape.triangleup, location.belowbar, size = size.small)\nplotchar(bar_index == 1, 'ch', '*')\nh = hline(100, 'lvl')\nbgcolor(bar_index % 2 == 0 ? #00FF0080 : na)\nbarcolor(color.blue)\nplotarrow(close - open, 'arr')\nplotcandle(open, high, low, close, 'cd')\nplotbar(open, high, low, close, 'br')\np2 = plot(high, 'h')\nfill(p1, p2, color = color.gray, title = 'f')",
      "indicator('t', overlay = false)",
    );
    const r = await runBoth(src, bars(4));
    expect(Object.keys(r.series)).toEqual([
      "c",
      "c_2",
      "up",
      "ch",
      "lvl",
      "plot_0",
      "plot_1",
      "arr",
      "cd",
      "br",
      "h",
      "f",
    ]);
    expect(r.plot_meta.c).toMatchObject({
      kind: "plot",
      index: 0,
      color: "#F23645",
      linewidth: 2,
      style: "histogram",
      pane: "own",
    });
    expect(r.series.up).toEqual([true, true, null, true]);
    expect(r.series.ch).toEqual([null, true, null, null]);
    expect(r.plot_meta.up).toMatchObject({
      kind: "plotshape",
      style: "triangleup",
      location: "belowbar",
      size: "small",
    });
    expect(r.plot_meta.ch).toMatchObject({ kind: "plotchar", char: "*" });
    expect(r.series.lvl).toEqual([100, 100, 100, 100]);
    expect(r.plot_meta.lvl).toMatchObject({ kind: "hline", price: 100 });
    expect(r.series.plot_0).toEqual(["#00FF0080", null, "#00FF0080", null]);
    expect(r.plot_meta.plot_0!.kind).toBe("bgcolor");
    expect(r.plot_meta.plot_1!.kind).toBe("barcolor");
    expect(r.plot_meta.f).toMatchObject({ kind: "fill", plot1: "c", plot2: "h" });
  });
});

describe("logs", () => {
  it("log.* lines with level, bar_index and time, formatted with arguments", async () => {
    const r = await runBoth(
      v6(
        "if bar_index < 2\n    log.info('bar {0}', bar_index)\nif bar_index == 2\n    log.warning('w')\n    log.error('e')\nplot(close)",
      ),
      data,
    );
    expect(r.logs).toEqual([
      { level: "info", message: "bar 0", bar_index: 0, time: data[0]!.time },
      { level: "info", message: "bar 1", bar_index: 1, time: data[1]!.time },
      { level: "warning", message: "w", bar_index: 2, time: data[2]!.time },
      { level: "error", message: "e", bar_index: 2, time: data[2]!.time },
    ]);
  });
});

describe("realtime ticks", () => {
  const src = v6(
    "var c = 0\nc += 1\nvarip v = 0\nv += 1\nplot(c)\nplot(v)\nplot(barstate.isrealtime ? 1 : 0)\nplot(close)\nplot(high - low)",
  );
  it("rolls var back before each tick, keeps varip, commits the last tick", async () => {
    const r = await runBoth(src, data, { realtimeLastBar: true, realtimeTicks: 3 });
    expect(r.error).toBeUndefined();
    expect(r.series.plot_0![9]).toBe(10);
    expect(r.series.plot_1![9]).toBe(12);
    expect(r.series.plot_2).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(r.series.plot_3![9]).toBe(data[9]!.close);
    expect(r.series.plot_4![9]).toBeCloseTo(data[9]!.high - data[9]!.low, 12);
  });
  it("realtimeBars and realtimeFromBar choose the window", async () => {
    const a = await runBoth(src, data, { realtimeBars: 3, realtimeTicks: 2 });
    expect(a.series.plot_2).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(a.series.plot_1![9]).toBe(13);
    const b = await runBoth(src, data, { realtimeFromBar: -5 });
    expect(b.series.plot_2).toEqual(Array(10).fill(1));
  });
});

describe("auto fallback reasons", () => {
  it("names the interpret-only option; input overrides are not one", async () => {
    const rt = new Runtime();
    const a = await rt.run(v6("x = input.int(1, 'X')\nplot(x)"), data, { mode: "auto", inputs: { X: 2 } });
    expect(a.mode).toBe("compile");
    expect(a.auto_backend).toBe("compile");
    expect(a.compile_fallback_reason).toBeUndefined();
    expect(a.series.plot_0![0]).toBe(2);
    // (nor realtime options, since issue 18: the compiled bar body runs each tick)
    const b = await rt.run(plotClose, data, { mode: "auto", realtimeLastBar: true });
    expect(b.auto_backend).toBe("compile");
    expect(b.compile_fallback_reason).toBeUndefined();
    expect((await rt.run(plotClose, data, { mode: "auto", profiler: true })).compile_fallback_reason).toBe(
      "the profiler requires interpret",
    );
  });
});

describe("realtime ticks with a strategy", () => {
  it("only the last tick's orders count (the broker is rolled back between ticks)", async () => {
    const src =
      "//@version=6\nstrategy('s')\nif bar_index % 2 == 1\n    strategy.entry('L', strategy.long)\nelse\n    strategy.close('L')\nplot(strategy.position_size)\n";
    const hist = await runBoth(src, data);
    const rt = await runBoth(src, data, { realtimeBars: 3, realtimeTicks: 4 });
    expect(rt.error).toBeUndefined();
    expect(rt.events.length).toBe(hist.events.length);
    expect(rt.strategy!.trades.length).toBe(hist.strategy!.trades.length);
  });
});

describe("drawings in the result", () => {
  it("objects alive at the end, limited by max_*_count, rolled back between realtime ticks", async () => {
    const r = await runBoth(
      v6(
        "if barstate.islast\n    label.new(bar_index, high, 'hi')\nline.new(bar_index - 1, low, bar_index, high)\nplot(close)",
        "indicator('d', max_lines_count = 3)",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    expect(r.drawings.filter((d) => d.type === "line").length).toBe(3);
    expect(r.drawings.filter((d) => d.type === "label").map((d) => d.text)).toEqual(["hi"]);
    const rt = await runBoth(v6("label.new(bar_index, high, 'x')\nplot(close)"), bars(5), {
      realtimeLastBar: true,
      realtimeTicks: 3,
    });
    expect(rt.drawings.length).toBe(5);
  });
});

describe("alerts in the result", () => {
  it("alert() and alertcondition() records", async () => {
    const r = await runBoth(
      v6(
        "if bar_index == 2\n    alert('hello ' + str.tostring(bar_index), alert.freq_once_per_bar)\nalertcondition(bar_index % 4 == 0, 'Every 4', 'tick')\nplot(close)",
      ),
      data,
    );
    expect(r.error).toBeUndefined();
    const a = r.alerts.filter((x) => x.source === "alert");
    expect(a).toEqual([
      { message: "hello 2", freq: "once_per_bar", bar_index: 2, time: data[2]!.time, source: "alert" },
    ]);
    expect(r.alert_conditions).toHaveLength(1);
    expect(r.alert_conditions[0]).toMatchObject({ title: "Every 4", fired_bars: [0, 4, 8] });
  });
});

describe("varip first reached on a realtime tick", () => {
  it("is initialised once, not again after the rollback of the next tick", async () => {
    const src = v6("varip n = 0\nif barstate.isrealtime\n    varip t = 100\n    t += 1\n    n := t\nplot(n)");
    const r = await runBoth(src, data, { realtimeLastBar: true, realtimeTicks: 3 });
    expect(r.series.plot_0![9]).toBe(103);
  });
});
