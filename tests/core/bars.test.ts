import { describe, expect, it } from "vitest";
import { join } from "node:path";
import {
  inferTimeframe,
  isBarDataError,
  normalizeBars,
  parseCsvBars,
  parseJsonBars,
  type BarColumns,
} from "../../src/core/bars.js";
import { caseBars, caseDir, readText } from "./fixture.js";

const bar = (time: number, o = 10, h = 11, l = 9, c = 10.5, v?: number) => ({
  time,
  open: o,
  high: h,
  low: l,
  close: c,
  ...(v === undefined ? {} : { volume: v }),
});

function ok(x: ReturnType<typeof normalizeBars>): BarColumns {
  if (isBarDataError(x)) throw new Error(x.error);
  return x;
}

describe("normalizeBars", () => {
  it("turns rows into Float64Array columns, volume NaN when missing", () => {
    const c = ok(normalizeBars([bar(1000, 1, 2, 0.5, 1.5, 7), bar(2000)]));
    expect(c.length).toBe(2);
    expect(c.time).toBeInstanceOf(Float64Array);
    expect(Array.from(c.close)).toEqual([1.5, 10.5]);
    expect(c.volume[0]).toBe(7);
    expect(c.volume[1]).toBeNaN();
  });
  it("accepts columns of arrays and typed arrays", () => {
    const c = ok(
      normalizeBars({
        time: new Float64Array([1, 2]),
        open: [1, 2],
        high: [2, 3],
        low: [0, 1],
        close: new Float32Array([1.5, 2.5]),
      }),
    );
    expect(Array.from(c.close)).toEqual([1.5, 2.5]);
    expect(Number.isNaN(c.volume[1])).toBe(true);
  });
  it("says whether it made the time and OHLC columns itself (copied) or uses any of the caller's Float64Arrays", () => {
    const rows = [
      { time: 1, open: 1, high: 2, low: 0, close: 1.5 },
      { time: 2, open: 2, high: 3, low: 1, close: 2.5 },
    ];
    const f64 = (a: number[]) => new Float64Array(a);
    const columns = (time: ArrayLike<number>, close: ArrayLike<number>) => ({
      time,
      open: [1, 2],
      high: [2, 3],
      low: [0, 1],
      close,
      volume: f64([5, 6]),
    });
    expect(ok(normalizeBars(rows)).copied).toBe(true);
    expect(ok(normalizeBars(columns([1, 2], [1.5, 2.5]))).copied).toBe(true);
    expect(ok(normalizeBars(columns(new Float32Array([1, 2]), new Int32Array([1, 2])))).copied).toBe(true);
    // (a Float64Array over a shared buffer is copied: another thread could write it)
    const shared = new Float64Array(new SharedArrayBuffer(16));
    shared.set([1, 2]);
    expect(ok(normalizeBars(columns(shared, [1.5, 2.5]))).copied).toBe(true);
    // one caller's column used as it is (a volume column does not count: events never read it)
    expect(ok(normalizeBars(columns(f64([1, 2]), [1.5, 2.5]))).copied).toBe(false);
    expect(ok(normalizeBars(columns([1, 2], f64([1.5, 2.5])))).copied).toBe(false);
    const own = { time: f64([1, 2]), open: f64([1, 2]), high: f64([2, 3]), low: f64([0, 1]), close: f64([1.5, 2.5]) };
    const c = ok(normalizeBars(own));
    expect(c.copied).toBe(false);
    expect(c.close).toBe(own.close);
    // a BarColumns record passed again is the caller's now
    expect(ok(normalizeBars(ok(normalizeBars(rows)))).copied).toBe(false);
  });

  it("reports the first bad bar and the field, never throws", () => {
    const cases: [unknown, number, RegExp][] = [
      [[bar(1), { time: 2, open: 1, high: 2, low: 0 }], 1, /close is missing/],
      [[bar(1), bar(2, NaN)], 1, /open is NaN/],
      [[bar(1), bar(2, 10, Infinity)], 1, /high is Infinity/],
      [[bar(5), bar(5)], 1, /time 5 does not increase/],
      [[bar(5), bar(4)], 1, /does not increase/],
      [[bar(1, 10, 9, 11)], 0, /high 9 is below low 11/],
      [[bar(1), { ...bar(2), time: "soon" }], 1, /time is "soon"/],
      [[bar(1), null], 1, /expected an object/],
      [
        { time: [1, 2], open: [1], high: [2, 2], low: [0, 0], close: [1, 1] },
        -1,
        /"open" has 1 values but "time" has 2/,
      ],
      [{ time: [1, 2], open: [1, 1], high: [2, 2], low: [0, 0] }, -1, /"close" must be an array/],
      ["bars", -1, /must be an array of bars/],
    ];
    for (const [input, index, msg] of cases) {
      const r = normalizeBars(input);
      expect(isBarDataError(r), JSON.stringify(input)).toBe(true);
      if (isBarDataError(r)) {
        expect(r.bar).toBe(index);
        expect(r.error).toMatch(msg);
      }
    }
  });
  it("typed and plain columns keep every check and message on the fast path", () => {
    const f = (a: number[]) => Float64Array.from(a);
    const cases: [unknown, number, RegExp][] = [
      [
        { time: f([1, 2, 3]), open: f([1, NaN, 1]), high: f([2, 2, 2]), low: f([0, 0, 0]), close: f([1, 1, 1]) },
        1,
        /bar 1: open is NaN/,
      ],
      [
        { time: f([1, 3, 2]), open: f([1, 1, 1]), high: f([2, 2, 2]), low: f([0, 0, 0]), close: f([1, 1, 1]) },
        2,
        /time 2 does not increase/,
      ],
      [
        { time: new Int32Array([1, 2]), open: [1, 1], high: new Float32Array([2, 0]), low: [0, 1], close: [1, 1] },
        1,
        /high 0 is below low 1/,
      ],
      [{ time: [1, 2], open: [1, "x"], high: [2, 2], low: [0, 0], close: [1, 1] }, 1, /open is "x"/],
      [{ time: [1, Infinity], open: [1, 1], high: [2, 2], low: [0, 0], close: [1, 1] }, 1, /time is Infinity/],
      [[bar(1), bar(2, 10, 9, 11), null], 1, /high 9 is below low 11/],
    ];
    for (const [input, index, msg] of cases) {
      const r = normalizeBars(input);
      expect(isBarDataError(r), String(msg)).toBe(true);
      if (isBarDataError(r)) {
        expect(r.bar).toBe(index);
        expect(r.error).toMatch(msg);
      }
    }
    const mixed = ok(
      normalizeBars({
        time: ["1000", 2000],
        open: [1, "2"],
        high: new Float32Array([2, 3]),
        low: [0, 1],
        close: [1, 2],
        volume: [null, 5],
      }),
    );
    expect(Array.from(mixed.time)).toEqual([1000, 2000]);
    expect(Array.from(mixed.open)).toEqual([1, 2]);
    expect(mixed.volume[0]).toBeNaN();
    expect(mixed.volume[1]).toBe(5);
  });
  it("reads ISO time strings and Dates", () => {
    const c = ok(
      normalizeBars([
        { ...bar(0), time: "2024-01-01T00:00:00Z" },
        { ...bar(0), time: new Date(Date.UTC(2024, 0, 2)) },
      ]),
    );
    expect(Array.from(c.time)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
  });
});

describe("parseCsvBars", () => {
  it("reads a conformance file exactly as the test fixture does (unix seconds -> ms)", () => {
    const c = parseCsvBars(readText(join(caseDir("session"), "ohlcv.csv")));
    const want = caseBars("session");
    expect(isBarDataError(c)).toBe(false);
    if (!isBarDataError(c)) {
      expect(c.time).toEqual(want.time);
      expect(c.close).toEqual(want.close);
      expect(c.volume).toEqual(want.volume);
    }
  });
  it("takes columns in any order and case, ms or ISO times, other separators", () => {
    const a = ok(parseCsvBars("Close;Low;High;Open;Timestamp\n1.5;1;2;1.2;1700000000000\n1.6;1;2;1.3;1700000060000\n"));
    expect(Array.from(a.time)).toEqual([1700000000000, 1700000060000]);
    expect(Array.from(a.open)).toEqual([1.2, 1.3]);
    expect(a.volume[0]).toBeNaN();
    const b = ok(
      parseCsvBars(
        'date,open,high,low,close,volume\n"2024-01-01T00:00:00Z",1,2,0.5,1.5,10\n\n2024-01-02,1,2,0.5,1.5,\n',
      ),
    );
    expect(Array.from(b.time)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
    expect(b.volume[1]).toBeNaN();
    const t = ok(parseCsvBars("time\topen\thigh\tlow\tclose\n1700000000\t1\t2\t0\t1\n"));
    expect(t.time[0]).toBe(1700000000000);
  });
  it("names the line of bad data", () => {
    const noHeader = parseCsvBars("1700000000,1,2,0,1\n");
    expect(isBarDataError(noHeader) && noHeader.line).toBe(1);
    expect(isBarDataError(noHeader) && noHeader.error).toMatch(/header lacks time, open, high, low, close/);
    const bad = parseCsvBars("time,open,high,low,close\n1700000000,1,2,0,1\n\n1700000060,1,2,3,1\n");
    expect(isBarDataError(bad)).toBe(true);
    if (isBarDataError(bad)) {
      expect(bad.line).toBe(4);
      expect(bad.bar).toBe(1);
      expect(bad.error).toMatch(/CSV line 4: high 2 is below low 3/);
    }
    const badTime = parseCsvBars("time,open,high,low,close\nyesterday,1,2,0,1\n");
    expect(isBarDataError(badTime) && badTime.error).toMatch(/line 2: time "yesterday"/);
    const missing = parseCsvBars("time,open,high,low,close\n1700000000,1,2,0,\n");
    expect(isBarDataError(missing) && missing.error).toMatch(/line 2: close is NaN/);
    expect(isBarDataError(parseCsvBars(""))).toBe(true);
  });
});

describe("parseJsonBars", () => {
  it("reads objects, [t,o,h,l,c,v] rows, columns and wrapped arrays; seconds detected", () => {
    const a = ok(parseJsonBars(JSON.stringify([bar(1700000000), bar(1700000060)])));
    expect(a.time[0]).toBe(1700000000000);
    const b = ok(parseJsonBars("[[1700000000000,1,2,0,1,5],[1700000060000,1,2,0,1]]"));
    expect(Array.from(b.time)).toEqual([1700000000000, 1700000060000]);
    expect(b.volume[1]).toBeNaN();
    const c = ok(
      parseJsonBars(JSON.stringify({ bars: { time: [1700000000], open: [1], high: [2], low: [0], close: [1] } })),
    );
    expect(c.time[0]).toBe(1700000000000);
    const d = ok(parseJsonBars(JSON.stringify({ data: [bar(1700000000000)] })));
    expect(d.length).toBe(1);
  });
  it("reports bad JSON and bad bars", () => {
    const r = parseJsonBars("{oops");
    expect(isBarDataError(r) && r.error).toMatch(/^JSON bars: /);
    const s = parseJsonBars(JSON.stringify([bar(2), bar(1)]));
    expect(isBarDataError(s) && s.bar).toBe(1);
  });
});

describe("inferTimeframe", () => {
  const series = (start: number, step: number, n: number) => Array.from({ length: n }, (_, i) => start + i * step);
  it("uses the most common spacing", () => {
    expect(inferTimeframe(series(0, 300_000, 50))).toBe("5");
    expect(inferTimeframe(series(0, 3_600_000, 50))).toBe("60");
    expect(inferTimeframe(series(0, 30_000, 50))).toBe("30S");
    expect(inferTimeframe(series(0, 86_400_000, 50))).toBe("D");
    expect(inferTimeframe(series(0, 7 * 86_400_000, 50))).toBe("W");
    expect(inferTimeframe(Array.from({ length: 24 }, (_, i) => Date.UTC(2020, i, 1)))).toBe("M");
    expect(inferTimeframe([0])).toBe("D");
    expect(inferTimeframe([])).toBe("D");
  });
  it("sees through weekend gaps", () => {
    expect(inferTimeframe(caseBars("timeframe_change").time)).toBe("5");
    expect(inferTimeframe(caseBars("session").time)).toBe("60");
    const weekdays = Array.from({ length: 60 }, (_, i) => Date.UTC(2024, 0, 1 + i)).filter(
      (t) => new Date(t).getUTCDay() % 6 !== 0,
    );
    expect(inferTimeframe(weekdays)).toBe("D");
  });
});

describe("robustness", () => {
  it("never throws on arbitrary input, whatever the shape", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(fc.anything(), (x) => {
        const r = normalizeBars(x);
        if (isBarDataError(r)) expect(typeof r.error).toBe("string");
        else expect(r.time).toBeInstanceOf(Float64Array);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string(), (s) => {
        for (const r of [parseCsvBars(s), parseJsonBars(s)]) {
          if (isBarDataError(r)) expect(typeof r.error).toBe("string");
        }
      }),
      { numRuns: 500 },
    );
  });
});
