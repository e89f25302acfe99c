// Hand-made bars for broker tests: rows of [open, high, low, close], volume 10, from 2024-01-01 UTC, an hour
// apart unless a step (ms) is given.
import type { Bar } from "../../src/core/result.js";

const H = 3_600_000;

export const hourlyBars = (rows: number[][], step = H): Bar[] =>
  rows.map((r, i) => ({
    time: Date.UTC(2024, 0, 1) + i * step,
    open: r[0]!,
    high: r[1]!,
    low: r[2]!,
    close: r[3]!,
    volume: 10,
  }));

/**
 * Bar 1 opens at 100, nearer its low (95, 5 away) than its high (110, 10 away): the assumed path is
 * 100 -> 95 -> 110 -> 105 (the calc_on_order_fills cases of tests/strategy/recalc.test.ts and
 * tests/compile/fills.test.ts).
 */
export const FILL_PATH = hourlyBars([
  [100, 100, 100, 100],
  [100, 110, 95, 105],
  [105, 105, 105, 105],
  [105, 106, 104, 105],
]);
