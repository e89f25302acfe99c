// ta.supertrend hoisted to a whole-series pass (check/hoist-plan.ts, kernels series_supertrend) when
// its factor and period are constants or inputs: both backends read its two columns, and what reads
// them (ta.change of the direction, a strategy's entries, a coloured plot) equals the per-bar
// interpreter (a profiler run never precomputes) to the last field, with inputs overridden and with
// a period the per-bar call refuses.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../realworld/bars.js";
import { comparable, firstDifference, hoistedNames } from "./parity.js";

const SCRIPT = `//@version=6
strategy("st", overlay = true)
factor = input.float(3.0, "Factor")
atrPeriod = input.int(10, "ATR period")
[st, dir] = ta.supertrend(factor, atrPeriod)
[st2, dir2] = ta.supertrend(1.5, 3)
if ta.change(dir) < 0
    strategy.entry("L", strategy.long)
if ta.change(dir) > 0
    strategy.entry("S", strategy.short)
plot(st, "st", color = dir < 0 ? color.green : color.red)
plot(st2 - st, "d")
plot(dir2, "dir2")
`;

/** Both modes equal the per-bar interpreter (a run whose inputs rule the pass out runs the call per bar, in compile mode too). */
async function agrees(inputs: Record<string, unknown>): Promise<void> {
  const rt = new Runtime();
  const bars = randomWalkBars(800);
  const perBar = await rt.run(SCRIPT, bars, { mode: "interpret", profiler: true, inputs });
  for (const mode of ["compile", "interpret"] as const) {
    const r = await rt.run(SCRIPT, bars, { mode, inputs });
    expect(r.mode).toBe(mode);
    expect(firstDifference(comparable(r), comparable(perBar)), `${mode} ${JSON.stringify(inputs)}`).toBeNull();
  }
}

describe("ta.supertrend hoisted", () => {
  it("is a hoisted call, and ta.change of its direction too", () => {
    const found = hoistedNames(SCRIPT);
    expect(found.filter((n) => n === "ta.supertrend")).toHaveLength(2);
    expect(found.filter((n) => n === "ta.change")).toHaveLength(2);
  });

  it("equals the per-bar interpreter with the defaults and overridden inputs", async () => {
    await agrees({});
    await agrees({ Factor: 0.7, "ATR period": 1 });
    await agrees({ Factor: -2, "ATR period": 50 });
  });

  it("a period the per-bar call refuses runs per bar (in compile mode too) and reports the same", async () => {
    await agrees({ "ATR period": 0 });
  });
});
