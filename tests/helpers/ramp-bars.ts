// One-minute bars that climb by 1 a bar: valid rows for host tests (server, pool, CLI) whose checks do
// not depend on the prices.
import type { Bar } from "../../src/core/result.js";

export function rampBars(n: number): Bar[] {
  return Array.from({ length: n }, (_, i) => ({
    time: 1_700_000_000_000 + i * 60_000,
    open: 100 + i,
    high: 102 + i,
    low: 99 + i,
    close: 101 + i,
    volume: 1,
  }));
}
