// Each hand-written floor of bench/floors.mjs computes exactly what resin computes for its bench
// script: every plot value (Object.is: NaN is NaN, -0 is not 0) and every trade (bars and prices), in
// interpret and in compile mode, on the bench's own bars and on a seeded random walk. A floor that
// computed something else would make `resin bench`'s ratios meaningless.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FLOORS, type Columns, type FloorTrade } from "../../bench/floors.mjs";
import { generateBars } from "../../src/cli/bench.js";
import type { Bar, ColumnarBars, Mode } from "../../src/core/result.js";
import { Runtime } from "../../src/runtime/index.js";
import { randomWalkBars } from "../../src/runtime/synthetic.js";
import { BENCH } from "../helpers/data.js";

function columns(bars: Bar[]): ColumnarBars & Columns {
  const col = (k: "time" | "open" | "high" | "low" | "close" | "volume") => Float64Array.from(bars, (b) => b[k] ?? NaN);
  return {
    time: col("time"),
    open: col("open"),
    high: col("high"),
    low: col("low"),
    close: col("close"),
    volume: col("volume"),
  };
}

const DATA: [string, ColumnarBars & Columns][] = [
  ["bench bars", generateBars(3000)],
  ["random walk", columns(randomWalkBars(3000, { seed: 7 }))],
];

/** The first plot cell where the two differ, or null. */
function plotDifference(names: string[], got: Float64Array[], want: ArrayLike<unknown>[]): string | null {
  for (let c = 0; c < want.length; c++) {
    for (let i = 0; i < want[c]!.length; i++) {
      const w = want[c]![i] === null ? NaN : Number(want[c]![i]);
      if (!Object.is(got[c]![i], w)) return `${names[c]} bar ${i}: floor ${got[c]![i]}, resin ${w}`;
    }
  }
  return null;
}

describe("bench floors compute what resin computes", () => {
  for (const floor of FLOORS) {
    const source = readFileSync(join(BENCH, `${floor.script}.pine`), "utf8");
    for (const [dataName, data] of DATA) {
      for (const mode of ["interpret", "compile"] as Mode[]) {
        it(`${floor.script} on ${dataName} [${mode}]`, async () => {
          const res = await new Runtime("BENCH:SYNTH", { timeframe: "1" }).run(source, data, { mode });
          expect(res.error ?? null).toBeNull();
          expect(res.mode).toBe(mode);
          const out = floor.run(data);
          if (floor.kind === "plots") {
            const names = Object.keys(res.series);
            const plots = out as Float64Array[];
            expect(names).toHaveLength(plots.length);
            expect(plotDifference(names, plots, Object.values(res.series) as ArrayLike<unknown>[])).toBeNull();
          } else {
            const want = (res.strategy?.trades ?? []).map((t) => ({
              entryBar: t.entry_bar_index,
              entryPrice: t.entry_price,
              exitBar: t.exit_bar_index,
              exitPrice: t.exit_price,
            }));
            const open = (res.strategy?.open_trades ?? []).map((t) => ({
              entryBar: t.entry_bar_index,
              entryPrice: t.entry_price,
              exitBar: null,
              exitPrice: null,
            }));
            const trades = out as FloorTrade[];
            expect(trades.length).toBeGreaterThan(20); // the bars give the strategy something to do
            expect(trades).toEqual([...want, ...open]);
          }
        });
      }
    }
  }
});
