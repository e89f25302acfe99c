// Column-plot programs (bench10's shape: precomputable declarations and plots of precomputable
// values, nothing else) run their first bar through the generated loop, which registers the plots,
// and copy every later bar's values in bulk. The reference is the per-bar interpreter (a profiler
// run never precomputes), compared with Object.is on every value.
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { Runtime } from "../../src/runtime/index.js";
import { BENCH10 } from "../helpers/data.js";
import { generatedSource } from "../../src/compile/index.js";
import { bulkBuilds } from "../../src/interpret/hoisting.js";
import { randomWalkBars } from "../realworld/bars.js";
import { comparable, firstDifference, program, runPair } from "./parity.js";
import type { Bar } from "../../src/core/result.js";

const v6 = (body: string, decl = "indicator('t')") => `//@version=6\n${decl}\n${body}\n`;
const bench10 = readFileSync(BENCH10, "utf8");

/** Runs `src` in compile mode and checks it against the per-bar interpreter and the hoisting interpreter. */
async function agrees(src: string, bars: Bar[]): Promise<void> {
  const rt = new Runtime();
  const bulk0 = bulkBuilds.n;
  const pair = await runPair(src, bars, {}, rt);
  // the hoisting interpreter copies a column-plot program's values in bulk too
  expect(bulkBuilds.n - bulk0).toBe(isBulk(src) && bars.length > 0 ? 1 : 0);
  expect(pair.compile.error).toBeUndefined();
  expect(pair.compile.mode).toBe("compile");
  expect(pair.difference).toBeNull();
  const perBar = await rt.run(src, bars, { mode: "interpret", profiler: true });
  expect(perBar.error).toBeUndefined();
  expect(firstDifference(pair.compile.series, perBar.series)).toBeNull();
  expect(firstDifference(pair.compile.plot_meta, perBar.plot_meta)).toBeNull();
}

const isBulk = (src: string) => generatedSource(program(src)).includes("R.bulk(");

describe("column-plot programs", () => {
  it("bench10 takes the bulk path and matches the per-bar interpreter", async () => {
    expect(isBulk(bench10)).toBe(true);
    await agrees(bench10, randomWalkBars(1500));
  });

  it("tuple variables, ternaries over comparisons and crosses, arithmetic of columns", async () => {
    const src = v6(`[m, s, h] = ta.macd(close, 12, 26, 9)
[mid, up, lo] = ta.bb(close, 20, 2)
f = ta.sma(close, 10)
g = ta.ema(close, 30)
up2 = close > open ? 1 : -1
pick = f >= g ? high - low : na
x = ta.crossunder(f, g) ? f : g
sm = ta.sma(h, 5)
plot(m)
plot(up - lo, "width")
plot(up2)
plot(pick, "pick")
plot(x)
plot(sm)
plot(hl2)
plot(7)`);
    expect(isBulk(src)).toBe(true);
    await agrees(src, randomWalkBars(900));
  });

  it("bars with gaps in volume and one, two or no bars at all", async () => {
    const src = v6(`v = ta.sma(volume, 3)
plot(v)
plot(close < open ? volume : 0)`);
    const bars = randomWalkBars(300).map((b, i) => (i % 7 === 3 ? { ...b, volume: undefined } : b)) as Bar[];
    await agrees(src, bars);
    await agrees(src, bars.slice(0, 1));
    await agrees(src, bars.slice(0, 2));
    const rt = new Runtime();
    const none = await runPair(src, [], {}, rt);
    expect(none.difference).toBeNull();
  });

  it("a branch with a stateful call, history, or any other statement keeps the per-bar loop", () => {
    expect(isBulk(v6(`plot(close > open ? ta.sma(close, 5) : 0)`))).toBe(false);
    expect(isBulk(v6(`f = ta.sma(close, 5)\nplot(f[1])`))).toBe(false);
    expect(isBulk(v6(`f = ta.sma(close, 5)\nplot(f)\nplotshape(f > close)`))).toBe(false);
    expect(isBulk(v6(`f = ta.sma(close, 5)\nf := f * 2\nplot(f)`))).toBe(false);
    expect(isBulk(v6(`plot(ta.sma(close, 5), color = close > open ? color.red : color.blue)`))).toBe(false);
  });

  it("a ternary branch with a stateful call stays per bar and still agrees", async () => {
    const src = v6(`f = ta.sma(close, 5)
plot(close > open ? ta.ema(close, 8) : f)`);
    await agrees(src, randomWalkBars(400));
  });

  it("plots with offsets and display arguments, and an indicator on another timeframe", async () => {
    await agrees(
      v6(`f = ta.sma(close, 5)
plot(f, offset = 3)
plot(close > open ? 1 : 0, display = display.none)
plot(f, "neg", offset = -2)`),
      randomWalkBars(600),
    );
    await agrees(
      v6(`f = ta.sma(close, 5)\nplot(f)`, `indicator("t", timeframe = "60", timeframe_gaps = true)`),
      randomWalkBars(600),
    );
  });

  it("a run with a time budget gives the same values", async () => {
    const rt = new Runtime();
    const bars = randomWalkBars(500);
    const a = await rt.run(bench10, bars, { mode: "compile", timeoutSeconds: 60 });
    const b = await rt.run(bench10, bars, { mode: "interpret", profiler: true });
    expect(firstDifference(comparable(a).series, comparable(b).series)).toBeNull();
    expect(a.count).toBe(500);
  });
});
