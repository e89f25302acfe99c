// cachedBarCloseTimes (src/runtime/bar-close.ts): an earlier run's close times are reused only for the
// same time column holding the same values, with the same timeframe, zone and session; anything else
// (a write into the caller's column between runs included) gives barCloseTimes' fresh result. The
// Runtime asks it only for the caller's own Float64Array column (rows and copied columns are new).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { barCloseHits, barCloseTimes, cachedBarCloseTimes } from "../../src/runtime/bar-close.js";
import { Runtime } from "../../src/runtime/index.js";
import { generateBars } from "../../src/cli/bench.js";

const minutes = (n: number, from = 1_700_000_000_000) => Float64Array.from({ length: n }, (_, i) => from + i * 60_000);

describe("cached bar close times", () => {
  it("hands out the same column for the same bars, and barCloseTimes' values", () => {
    const t = minutes(3000);
    const a = cachedBarCloseTimes(t, "60", "America/New_York", "0930-1600");
    const b = cachedBarCloseTimes(t, "60", "America/New_York", "0930-1600");
    expect(b).toBe(a);
    expect(Array.from(b)).toEqual(Array.from(barCloseTimes(t, "60", "America/New_York", "0930-1600")));
  });

  it("computes again after a write into the column, or for another timeframe, zone or session", () => {
    const t = minutes(500);
    const first = cachedBarCloseTimes(t, "1", "UTC", undefined);
    t[200] = t[200]! + 30_000;
    const written = cachedBarCloseTimes(t, "1", "UTC", undefined);
    expect(written).not.toBe(first);
    expect(Array.from(written)).toEqual(Array.from(barCloseTimes(t, "1", "UTC", undefined)));
    let prev = written;
    for (const [tf, tz, ses] of [
      ["5", "UTC", undefined],
      ["5", "Asia/Kolkata", undefined],
      ["5", "Asia/Kolkata", "0915-1530"],
    ] as const) {
      const got = cachedBarCloseTimes(t, tf, tz, ses);
      expect(got).not.toBe(prev);
      expect(Array.from(got)).toEqual(Array.from(barCloseTimes(t, tf, tz, ses)));
      prev = got;
    }
    // the same array again: the same column; a copy of the same values is other bars (the caller's
    // array, not its values, is the key), so a column of its own with the same values
    expect(cachedBarCloseTimes(t, "5", "Asia/Kolkata", "0915-1530")).toBe(prev);
    const copy = t.slice();
    const other = cachedBarCloseTimes(copy, "5", "Asia/Kolkata", "0915-1530");
    expect(other).not.toBe(prev);
    expect(Array.from(other)).toEqual(Array.from(barCloseTimes(copy, "5", "Asia/Kolkata", "0915-1530")));
  });

  it("tells -0 from 0 and matches NaN with NaN, as Object.is does", () => {
    const t = new Float64Array([-120_000, -60_000, 0, 60_000]);
    const a = cachedBarCloseTimes(t, "1", "UTC", undefined);
    t[2] = -0;
    const b = cachedBarCloseTimes(t, "1", "UTC", undefined);
    expect(b).not.toBe(a);
    const u = new Float64Array([0, NaN, 120_000]);
    const c = cachedBarCloseTimes(u, "1", "UTC", undefined);
    expect(cachedBarCloseTimes(u, "1", "UTC", undefined)).toBe(c);
  });

  it("is barCloseTimes after any sequence of writes and runs", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(63), fc.integer({ min: -5, max: 5 }), fc.constantFrom("1", "15", "60", "1D")), {
          maxLength: 12,
        }),
        (steps) => {
          const t = minutes(64);
          for (const [i, d, tf] of steps) {
            if (d !== 0) t[i] = t[i]! + d * 1000;
            expect(Array.from(cachedBarCloseTimes(t, tf, "Europe/London", undefined))).toEqual(
              Array.from(barCloseTimes(t, tf, "Europe/London", undefined)),
            );
          }
        },
      ),
    );
  });

  it("a run over the caller's Float64Array time column again reuses them; rows and copied columns do not", async () => {
    const bars = generateBars(300);
    const src = '//@version=6\nindicator("t")\nplot(time_close, "d")\n';
    const rt = new Runtime("BENCH", { timeframe: "1" });
    const first = await rt.run(src, bars, { mode: "interpret" });
    const hits = barCloseHits.n;
    for (const mode of ["interpret", "compile", "interpret"] as const) {
      const again = await rt.run(src, bars, { mode });
      expect(again.series.d).toEqual(first.series.d);
    }
    expect(barCloseHits.n - hits).toBe(3);
    // rows: columns built for the run, new every run (no cache entry, no copy)
    const t = bars.time as Float64Array;
    const rows = Array.from(t, (time, i) => ({
      time,
      open: bars.open[i]!,
      high: bars.high[i]!,
      low: bars.low[i]!,
      close: bars.close[i]!,
    }));
    // plain number arrays: converted into columns of the run's own
    const plain = { ...bars, time: Array.from(t) };
    for (const input of [rows, rows, plain, plain]) {
      const r = await rt.run(src, input as never, { mode: "interpret" });
      expect(r.series.d).toEqual(first.series.d);
    }
    expect(barCloseHits.n - hits).toBe(3);
  });

  it("a run after a write into the caller's time column sees the new close times", async () => {
    const bars = generateBars(400);
    // the Runtime uses the caller's Float64Array as it is (no copy): a write here is a write to its input
    const time = bars.time as Float64Array;
    const src = '//@version=6\nindicator("t")\nplot(time_close, "d")\n';
    const rt = new Runtime("BENCH", { timeframe: "1" });
    for (const mode of ["interpret", "compile"] as const) {
      const before = await rt.run(src, bars, { mode });
      expect(before.error).toBeUndefined();
      expect(before.series.d![10]).toBe(time[10]! + 60_000);
    }
    // a bar opening 30 s later closes 30 s later (a minute after its open)
    const open = time[10]!;
    time[10] = open + 30_000;
    for (const mode of ["interpret", "compile"] as const) {
      const after = await rt.run(src, bars, { mode });
      expect(after.error).toBeUndefined();
      expect(after.series.d![10]).toBe(open + 90_000);
    }
  });
});
