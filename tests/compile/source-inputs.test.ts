// ta.* over a source input (`src = input.source(close, "Source")`, `src = input(hl2)`), hoisted to a
// whole-series pass over the run's chosen source (check/hoist-plan.ts sources, the precompute's
// source column): every source name as an override, arithmetic on the source, a refused override.
// The reference is the per-bar interpreter (a profiler run never precomputes); the compile backend
// and the hoisting interpreter must equal it to the last field, numbers with Object.is.
import { describe, expect, it } from "vitest";
import { HoistPlan } from "../../src/check/hoist-plan.js";
import { generatedSource } from "../../src/compile/index.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { comparable, firstDifference, program } from "./parity.js";

const v6 = (body: string) => `//@version=6\nindicator("src")\n${body}\n`;

const SCRIPT = v6(`len = input.int(14, "Length", minval = 1)
src = input.source(close, "Source")
alt = input(hl2, "Alt")
r = ta.rsi(src, len)
m = ta.sma(src * 2 - alt, 10)
e = ta.ema(alt, len)
hi = ta.highest(src, 5)
plot(r, "rsi", color = r > 50 ? color.green : color.red)
plot(m, "m")
plot(e, "e")
plot(hi, "hi")
plot(src, "src")`);

const SOURCES = ["close", "open", "high", "low", "hl2", "hlc3", "ohlc4", "hlcc4", "volume"];

async function agrees(src: string, inputs: Record<string, unknown>): Promise<void> {
  const rt = new Runtime();
  const bars = randomWalkBars(600);
  const perBar = await rt.run(src, bars, { mode: "interpret", profiler: true, inputs });
  for (const mode of ["compile", "interpret"] as const) {
    const r = await rt.run(src, bars, { mode, inputs });
    expect(r.mode).toBe(mode);
    expect(firstDifference(comparable(r), comparable(perBar)), `${mode} ${JSON.stringify(inputs)}`).toBeNull();
  }
}

describe("ta.* over a source input", () => {
  it("are hoisted: the source variables are pre-known, the calls read columns", () => {
    const prog = program(SCRIPT);
    expect(new HoistPlan(prog).sources.size).toBe(2);
    const text = generatedSource(prog);
    // (no per-bar call of ta.rsi, ta.sma, ta.ema or ta.highest: five hoisted columns read by bar)
    expect(text.match(/K\d+\[b_bar\]/g)?.length).toBe(4);
  });

  it("a source variable written again is not", async () => {
    const src = v6(`src = input.source(close, "Source")\nif bar_index % 3 == 0\n    src := open\nplot(ta.sma(src, 3))`);
    expect(new HoistPlan(program(src)).sources.size).toBe(0);
    await agrees(src, { Source: "hl2" });
  });

  it("equal the per-bar interpreter with the defaults and every source as an override", async () => {
    await agrees(SCRIPT, {});
    for (const s of SOURCES) await agrees(SCRIPT, { Source: s, Alt: SOURCES[(SOURCES.indexOf(s) + 3) % 9] });
  });

  it("a refused override is reported as the per-bar call reports it", async () => {
    const rt = new Runtime();
    const bars = randomWalkBars(50);
    const want = await rt.run(SCRIPT, bars, { mode: "interpret", profiler: true, inputs: { Source: "vwap" } });
    expect(want.error).toBeDefined();
    for (const mode of ["compile", "interpret"] as const) {
      const r = await rt.run(SCRIPT, bars, { mode, inputs: { Source: "vwap" } });
      expect(r.error).toEqual(want.error);
    }
  });
});
