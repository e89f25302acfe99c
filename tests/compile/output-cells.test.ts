// Output calls written straight into their columns (check/hoist-plan.ts outputCells; the compile
// backend's generated loop, src/compile/codegen.ts, and the interpreter's outputCall in
// src/interpret/compiler.ts): after its first call registered the output, a plot / hline / plotshape /
// plotchar / bgcolor / barcolor / fill call whose other arguments are constants or variables writes its
// cell and per-bar colour itself instead of calling the impl through an argument array. The reference
// is each backend's own general call, which calls the impls on every bar (the same script with one
// argument that keeps the general path), and the two backends against each other; results are
// compared to the last field, numbers with Object.is, also under realtime ticks (the re-runnable
// variant's path). The result's colour and candle columns are built on first read
// (runtime/lazy-plots.ts): whichever field is read first, the result is the same.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { generatedSource } from "../../src/compile/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { runModes } from "../helpers/run-both.js";
import { comparable, firstDifference, program, runPair } from "./parity.js";

const v6 = (body: string, decl = "indicator('t', overlay = true)") => `//@version=6\n${decl}\n${body}\n`;

/** A seeded LCG (Park-Miller) so that a failure names the seed that reproduces it. */
function rng(seed: number): () => number {
  let s = seed % 2147483647 || 1;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const COLORS = ["color.red", "color.green", "na", "color.new(color.blue, 40)", "#ff000080"];

/** A random script of every output kind, colours switching on bar conditions, named arguments in random order. */
function randomScript(seed: number): string {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const cond = () => pick(["close > open", "bar_index % 3 == 0", "up", "ta.rising(close, 2)", "close > close[1]"]);
  const colorExpr = () => (r() < 0.3 ? pick(COLORS) : `${cond()} ? ${pick(COLORS)} : ${pick(COLORS)}`);
  const value = () => pick(["close", "sma", "up ? high : na", "bar_index % 5 == 0 ? na : low", "lvl"]);
  /** `name = value` arguments in a random order, the positional ones first. */
  const call = (fn: string, positional: string[], named: [string, string][]) => {
    const shuffled = named.filter(([k]) => k === "title" || r() < 0.8).sort(() => r() - 0.5);
    return `${fn}(${[...positional, ...shuffled.map(([k, v]) => `${k} = ${v}`)].join(", ")})`;
  };
  return v6(`lvl = input.float(100.0, "Level")
width = input.int(2, "Width")
up = close > open
sma = ta.sma(close, 5)
p1 = ${call(
    "plot",
    [value()],
    [
      ["title", '"p1"'],
      ["color", colorExpr()],
      ["linewidth", "width"],
    ],
  )}
p2 = ${call(
    "plot",
    [],
    [
      ["series", value()],
      ["color", colorExpr()],
      ["title", '"p2"'],
      ["display", "display.all"],
    ],
  )}
h1 = ${call(
    "hline",
    [pick(["lvl", "50", "lvl * 2"])],
    [
      ["title", '"h1"'],
      ["color", pick(COLORS)],
    ],
  )}
${call(
  "plotshape",
  [pick(["up", "close > close[1]"])],
  [
    ["title", '"shape"'],
    ["color", colorExpr()],
    ["style", "shape.triangleup"],
  ],
)}
${call(
  "plotchar",
  [pick(["up ? 1 : na", "bar_index % 4"])],
  [
    ["title", '"char"'],
    ["char", '"x"'],
    ["color", colorExpr()],
  ],
)}
${call("bgcolor", [colorExpr()], [["title", '"bg"']])}
${call("barcolor", [colorExpr()], [["title", '"bar"']])}
${call(
  "fill",
  ["p1", "p2"],
  [
    ["color", colorExpr()],
    ["title", '"fill"'],
  ],
)}
`);
}

async function agrees(src: string, bars = randomWalkBars(700)): Promise<void> {
  const pair = await runPair(src, bars);
  expect(pair.compile.error, src).toBeUndefined();
  expect(pair.compile.mode).toBe("compile");
  expect(pair.difference, src).toBeNull();
}

describe("output calls written into their columns by the generated loop", () => {
  it("take the direct path for every output kind whose other arguments are constants or variables", () => {
    const text = generatedSource(
      program(
        v6(`lvl = input.float(100.0, "Level")
up = close > open
p1 = plot(close, "p1", color = up ? color.red : na, linewidth = 2)
p2 = plot(color = color.green, series = up ? high : na, title = "p2")
hline(lvl, "h1", color = color.gray)
plotshape(up, "shape", color = up ? color.red : color.green)
plotchar(bar_index % 4, "char", "x", color = color.blue)
bgcolor(up ? color.red : na, title = "bg")
barcolor(color.red, title = "bar")
fill(p1, p2, color = up ? color.green : na)`),
      ),
    );
    // (one column local per direct output: p1, p2, h1, shape, char, bg, bar, fill)
    expect(text.match(/P\d+ !== undefined \?/g)?.length).toBe(8);
    // an argument that is neither keeps the general call
    const general = generatedSource(program(v6("plot(close, str.tostring(1), color = color.red)")));
    expect(general).not.toMatch(/P\d+ !== undefined \?/);
  });

  it("equal the interpreter on random scripts (colours per bar, named arguments out of order)", async () => {
    for (let seed = 1; seed <= 12; seed++) await agrees(randomScript(seed));
  });

  it.each(["compile", "interpret"] as const)("equal %s's general call", async (mode) => {
    // the same outputs, each with one argument that keeps the general path (a comparison, which the
    // impls never read)
    for (let seed = 1; seed <= 4; seed++) {
      const src = randomScript(seed);
      const general = src.replace(/title = "(\w+)"/g, 'title = "$1", editable = width > 0');
      expect(generatedSource(program(general))).not.toMatch(/P\d+ !== undefined \?/);
      const rt = new Runtime();
      const bars = randomWalkBars(500);
      const a = await rt.run(src, bars, { mode });
      const b = await rt.run(general, bars, { mode });
      expect(b.mode).toBe(mode);
      const { script_id: _a, ...same } = comparable(a);
      const { script_id: _b, ...general_ } = comparable(b);
      expect(firstDifference(same, general_)).toBeNull();
    }
  });

  it("equal the interpreter under realtime ticks (the re-runnable loop)", async () => {
    const rt = new Runtime("CHART", {});
    const bars = randomWalkBars(80);
    for (const opts of [
      { realtimeTicks: 4 },
      { realtimeBars: 3, realtimeTicks: 3 },
      { realtimeFromBar: 1, realtimeTicks: 2 },
    ])
      for (let seed = 1; seed <= 3; seed++) {
        const r = await runModes(rt, randomScript(seed), bars, opts);
        expect(r.error).toBeUndefined();
      }
  });

  it("build the same result whichever of series, plots, plot_colors and plot_ohlc is read first", async () => {
    const src = `${randomScript(3)}plotcandle(open, high, low, close, "candle", color = close > open ? color.green : color.red, wickcolor = up ? color.gray : na)\n`;
    const bars = randomWalkBars(300);
    const rt = new Runtime();
    const want = JSON.stringify(comparable(await rt.run(src, bars, { mode: "interpret" })));
    for (const first of ["series", "plots", "plot_colors", "plot_ohlc", "json"] as const) {
      for (const mode of ["interpret", "compile"] as const) {
        const r = await rt.run(src, bars, { mode });
        // ("json": the whole result serialised before any lazy field is read by name)
        if (first === "json") expect(JSON.stringify(comparable(r)), `${mode}, json first`).toBe(want);
        else expect(r[first]).toBeDefined();
        expect(Object.keys(r.plot_colors!)).toContain("candle");
        expect(r.plot_ohlc!.candle!.wickcolor).toHaveLength(300);
        expect(JSON.stringify(comparable(r)), `${mode}, ${first} first`).toBe(want);
      }
    }
    // a written field stays written
    const r = await rt.run(src, bars, { mode: "compile" });
    r.plot_colors = {};
    expect(r.plot_colors).toEqual({});
    expect(r.series.p1).toHaveLength(300);
  });
});
