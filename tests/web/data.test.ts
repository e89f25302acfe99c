import { describe, expect, it } from "vitest";
import { DataError, contentKey, parseCsv, parseDataFile, parseJson, parseTime } from "../../web/src/data/parse.js";

describe("data files", () => {
  it("reads CSV with ISO, second and millisecond times", () => {
    const p = parseCsv("Date,Open,High,Low,Close,Volume\n2024-01-01,1,2,0.5,1.5,10\n2024-01-02 00:00,1.5,2,1,1.8,\n");
    expect(Array.from(p.time)).toEqual([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
    expect(p.close[1]).toBe(1.8);
    expect(p.volume[0]).toBe(10);
    expect(Number.isNaN(p.volume[1])).toBe(true); // missing volume is na, not 0
    expect(parseTime(1700000000)).toBe(1700000000000);
    expect(parseTime("1700000000000")).toBe(1700000000000);
  });

  it("names the problem and the place for bad files", () => {
    expect(() => parseCsv("time,open,high,low\n1,2,3,4\n")).toThrow(/lacks close/);
    expect(() => parseCsv("time,open,high,low,close\n1,2,3,1,x\n")).toThrow(/line 2: close "x" is not a number/);
    expect(() => parseCsv("time,open,high,low,close\n2024-01-02,1,2,0,1\n2024-01-01,1,2,0,1\n")).toThrow(/bar 2: time .* does not increase/);
    expect(() => parseCsv("time,open,high,low,close\n2024-01-01,1,0.4,0.9,1\n")).toThrow(/high 0.4 is below low 0.9/);
    expect(() => parseJson("{oops")).toThrow(DataError);
    expect(() => parseJson("[]")).toThrow(/no bars/);
    expect(() => parseJson('[{"time":1,"open":1,"high":2,"low":0}]')).toThrow(/bar 1: missing "close"/);
  });

  it("reads row and columnar JSON and keys content", () => {
    const rows = parseDataFile("a.json", JSON.stringify([{ time: 1000, open: 1, high: 2, low: 0, close: 1 }, { time: 2000, open: 1, high: 2, low: 0, close: 2 }]));
    const cols = parseDataFile("b.json", JSON.stringify({ time: [1000, 2000], open: [1, 1], high: [2, 2], low: [0, 0], close: [1, 2] }));
    expect(Array.from(rows.close)).toEqual([1, 2]);
    expect(Array.from(cols.close)).toEqual([1, 2]);
    expect(contentKey(rows)).toBe(contentKey(cols));
    cols.close[1] = 3;
    expect(contentKey(rows)).not.toBe(contentKey(cols));
  });
});
