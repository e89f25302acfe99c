// Each hand-written floor of bench/floors.mjs computes exactly what resin computes for its bench
// script: every plot value (Object.is: NaN is NaN, -0 is not 0) and every cell of every trade row
// (ids, bars, times, prices, profits, run-ups and drawdowns, each with Object.is), in interpret and in
// compile mode, on the bench's own bars and on a seeded random walk. A floor that computed something
// else, or less, would make `resin bench`'s ratios meaningless.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FLOORS, type Columns, type FloorTrade } from "../../bench/floors.mjs";
import { generateBars } from "../../src/cli/bench.js";
import type { Bar, ColumnarBars, Mode, Trade } from "../../src/core/result.js";
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

/** resin's closed and open trade rows, in the floors' order. */
function resinRows(strategy: { trades: Trade[]; open_trades: Trade[] } | undefined): Trade[] {
  return [...(strategy?.trades ?? []), ...(strategy?.open_trades ?? [])];
}

/** The first trade row where the floor's and resin's differ (a cell by Object.is, or a cell missing), or null. */
function rowDifference(floor: FloorTrade[], resin: Trade[]): object | null {
  if (floor.length !== resin.length) return { rows: { floor: floor.length, resin: resin.length } };
  for (let i = 0; i < resin.length; i++) {
    const got = floor[i] as unknown as Record<string, unknown>;
    const want = resin[i] as unknown as Record<string, unknown>;
    const keys = new Set([...Object.keys(got), ...Object.keys(want)]);
    for (const k of keys) if (!Object.is(got[k], want[k])) return { trade: i, cell: k, floor: got[k], resin: want[k] };
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
            const trades = out as FloorTrade[];
            expect(trades.length).toBeGreaterThan(20); // the bars give the strategy something to do
            expect(rowDifference(trades, resinRows(res.strategy))).toBeNull();
          }
        });
      }
    }
  }
});

/**
 * The bars made rougher for the bracket's rules: each open moved up to 1.5% off the previous close
 * (gaps through the exit levels), one bar in ten with wicks up to 4% (a bar reaching both levels, so
 * the path order decides), high/low widened to hold the open; `grid`: every price rounded to the
 * 0.01 tick (exact touches) and half the wide bars as far from the open to the high as to the low.
 */
function roughened(d: ColumnarBars & Columns, seed: number, grid: boolean): ColumnarBars & Columns {
  let s = seed >>> 0;
  const r = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const tick = (x: number) => (grid ? Math.round(x * 100) / 100 : x);
  const n = d.close.length;
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = tick(d.close[i]!);
    const o = i === 0 ? tick(d.open[0]!) : tick(close[i - 1]! * (1 + (r() - 0.5) * 0.03));
    const spike = r() < 0.1 ? 0.04 : 0.005;
    close[i] = c;
    open[i] = o;
    high[i] = tick(Math.max(d.high[i]!, o, c) * (1 + r() * spike));
    low[i] = tick(Math.min(d.low[i]!, o, c) * (1 - r() * spike));
    if (grid && spike > 0.005 && r() < 0.5) {
      // as many ticks to the high as to the low (the float distances may still differ)
      const w = Math.max(high[i]! - o, o - low[i]!);
      high[i] = tick(o + w);
      low[i] = tick(o - w);
    }
  }
  return { ...d, open, high, low, close };
}

describe("the bracket strategy's floor at other sizes and seeds", () => {
  const floor = FLOORS.find((f) => f.script === "ema_cross_bracket")!;
  const source = readFileSync(join(BENCH, "ema_cross_bracket.pine"), "utf8");
  // the bench's bars at the size `resin bench` reports, other seeds, prices on the tick grid (levels
  // touched exactly), and rough bars (gaps through the levels, bars reaching both)
  const cases: [string, ColumnarBars & Columns][] = [
    ["bench bars, 100k", generateBars(100_000)],
    ["bench bars, seed 1, 20k", generateBars(20_000, 1)],
    ["random walk on the tick grid, seed 3, 20k", columns(randomWalkBars(20_000, { seed: 3 }))],
    ["rough bench bars, seed 5, 20k", roughened(generateBars(20_000, 5), 9, false)],
    ["rough bars on the tick grid, seed 6, 20k", roughened(generateBars(20_000, 6), 11, true)],
  ];
  for (const [name, data] of cases) {
    const trades = floor.run(data) as FloorTrade[];
    for (const mode of ["interpret", "compile"] as Mode[]) {
      it(`${name} [${mode}]`, { timeout: 120_000 }, async () => {
        const res = await new Runtime("BENCH:SYNTH", { timeframe: "1" }).run(source, data, { mode });
        expect(res.error ?? null).toBeNull();
        expect(res.mode).toBe(mode);
        // the first differing cell, not a diff of thousands of rows
        expect(rowDifference(trades, resinRows(res.strategy))).toBeNull();
      });
    }
    it(`${name}: both sides close on both legs, by reversals and inside bars`, () => {
      const by = (id: string, where: "path" | "open") =>
        trades.filter(
          (t) =>
            t.exit_id === id &&
            t.exit_bar_index !== null &&
            (t.exit_price === data.open[t.exit_bar_index]) === (where === "open"),
        );
      // a take-profit leg closes a trade in profit, a stop leg at a loss
      for (const id of ["XL", "XS"]) {
        const path = by(id, "path");
        const win = (t: FloorTrade) => (t.direction === "long" ? 1 : -1) * (t.exit_price! - t.entry_price) > 0;
        expect(path.filter(win).length).toBeGreaterThan(10);
        expect(path.filter((t) => !win(t)).length).toBeGreaterThan(10);
      }
      expect(by("L", "open").length).toBeGreaterThan(10);
      expect(by("S", "open").length).toBeGreaterThan(10);
      if (name.startsWith("rough")) {
        expect(by("XL", "open").length).toBeGreaterThan(10);
        expect(by("XS", "open").length).toBeGreaterThan(10);
      }
    });
  }
});
