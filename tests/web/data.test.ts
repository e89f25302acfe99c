import { describe, expect, it } from "vitest";
import { DataError, contentKey, parseCsv, parseDataFile, parseJson } from "../../web/src/data/parse.js";

describe("data files", () => {
  it("reads CSV with ISO dates, keeps missing volume as na", () => {
    const p = parseCsv("Date,Open,High,Low,Close,Volume\n2024-01-01,1,2,0.5,1.5,10\n2024-01-02,1.5,2,1,1.8,\n");
    expect(Array.from(p.time)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
    expect(p.close[1]).toBe(1.8);
    expect(p.volume[0]).toBe(10);
    expect(Number.isNaN(p.volume[1])).toBe(true);
  });

  it("names the problem and the place for bad files", () => {
    expect(() => parseCsv("time,open,high,low\n1,2,3,4\n")).toThrow(/header lacks close/);
    expect(() => parseCsv("time,open,high,low,close\n2024-01-01,1,0.4,0.9,1\n")).toThrow(
      /line 2: high 0.4 is below low 0.9/,
    );
    expect(() => parseCsv("time,open,high,low,close\n2024-01-02,1,2,0,1\n2024-01-01,1,2,0,1\n")).toThrow(
      /line 3: time .* does not increase/,
    );
    expect(() => parseCsv("time,open,high,low,close\n")).toThrow(DataError);
    expect(() => parseJson("{oops")).toThrow(DataError);
    expect(() => parseJson('[{"time":1,"open":1,"high":2,"low":0}]')).toThrow(/close/);
  });

  it("reads row and columnar JSON and keys content", () => {
    const rows = parseDataFile(
      "a.json",
      JSON.stringify([
        { time: 1000, open: 1, high: 2, low: 0, close: 1 },
        { time: 2000, open: 1, high: 2, low: 0, close: 2 },
      ]),
    );
    const cols = parseDataFile(
      "b.txt",
      JSON.stringify({ time: [1000, 2000], open: [1, 1], high: [2, 2], low: [0, 0], close: [1, 2] }),
    );
    expect(Array.from(rows.close)).toEqual([1, 2]);
    expect(Array.from(cols.close)).toEqual([1, 2]);
    expect(contentKey(rows)).toBe(contentKey(cols));
    cols.close[1] = 3;
    expect(contentKey(rows)).not.toBe(contentKey(cols));
  });
});
