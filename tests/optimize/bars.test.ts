// toBarArray: a study's rows from columns (with or without volume, arrays or Float64Arrays):
// each row with its keys in order, volume only where the columns have it, and the columns remembered.

import { describe, expect, it } from "vitest";
import { sourceColumns, toBarArray } from "../../src/optimize/bars.js";

/** The rows as a study reads them: the five prices, then volume when there is a column of it. */
function reference(c: Record<string, ArrayLike<number> | undefined>): Record<string, number>[] {
  return Array.from({ length: c.time!.length }, (_, i) => {
    const bar: Record<string, number> = {
      time: c.time![i]!,
      open: c.open?.[i] as number,
      high: c.high?.[i] as number,
      low: c.low?.[i] as number,
      close: c.close?.[i] as number,
    };
    if (c.volume) bar.volume = c.volume[i]!;
    return bar;
  });
}

describe("toBarArray", () => {
  it("makes the rows, keys in order, of columns of any kind, with or without volume or a price column", () => {
    const n = 50;
    const col = (k: number) => Array.from({ length: n }, (_, i) => (i % 7 === 3 ? Number.NaN : i * 1.25 + k));
    const full = { time: col(0), open: col(1), high: col(2), low: col(3), close: col(4), volume: col(5) };
    const typed = Object.fromEntries(Object.entries(full).map(([k, v]) => [k, Float64Array.from(v)]));
    const { volume: _v, ...noVolume } = full;
    const { high: _h, ...noHigh } = full;
    for (const c of [full, typed, noVolume, noHigh] as Record<string, ArrayLike<number>>[]) {
      const rows = toBarArray(c);
      const want = reference(c);
      expect(rows).toEqual(want);
      expect(rows.map((r) => Object.keys(r))).toEqual(want.map((r) => Object.keys(r)));
      expect(sourceColumns(rows)).toBe(c);
    }
  });
});
