// result.series, plots, plot_colors and plot_ohlc are built from the plot store on first read (of
// any of them); until then they are accessors shared by every result (runtime/lazy-plots.ts) that
// JSON, structured clone and spreads read like the plain fields they become.
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import type { RunResult } from "../../src/core/result.js";

const src = `//@version=6
indicator("t", overlay = true)
f = ta.sma(close, 5)
plot(f, "sma", color = close > f ? color.green : color.red)
plot(close - f, "diff")
plotcandle(open, high, low, close, "c", wickcolor = close > open ? color.gray : color.black)
`;

const fields = (r: RunResult) => ({
  series: r.series,
  plots: r.plots,
  plot_colors: r.plot_colors,
  plot_ohlc: r.plot_ohlc,
});

describe("lazy plot fields", () => {
  for (const mode of ["interpret", "compile"] as const) {
    it(`${mode}: reads the same whichever way and whichever field comes first`, async () => {
      const rt = new Runtime();
      const run = () => rt.run(src, syntheticBars(120), { mode });
      const a = await run();
      expect(typeof Object.getOwnPropertyDescriptor(a, "plots")?.get).toBe("function");
      expect(typeof Object.getOwnPropertyDescriptor(a.series, "diff")?.get).toBe("function");
      const direct = fields(a);
      expect(Object.getOwnPropertyDescriptor(a, "plots")?.value).toBe(direct.plots);
      expect(Object.getOwnPropertyDescriptor(a.series, "diff")?.value).toBe(direct.series.diff);
      expect(Object.keys(direct.series)).toEqual(["sma", "diff", "c"]);
      expect(direct.plot_colors?.sma?.length).toBe(120);
      expect(direct.plot_ohlc?.c?.wickcolor?.length).toBe(120);
      const viaJson = JSON.parse(JSON.stringify((await run()) as object)) as RunResult;
      const viaClone = structuredClone(await run());
      const viaSpread = { ...(await run()) };
      const seriesFirst = await run();
      const diffFirst = seriesFirst.series.diff;
      for (const other of [viaJson, viaClone, viaSpread, seriesFirst]) expect(fields(other)).toEqual(direct);
      expect(diffFirst).toEqual(direct.series.diff);
      const written = await run();
      written.plot_colors = {};
      expect(written.plot_colors).toEqual({});
      expect(written.series.sma).toEqual(direct.series.sma);
      expect(written.plot_ohlc).toEqual(direct.plot_ohlc);
    });
  }
});
