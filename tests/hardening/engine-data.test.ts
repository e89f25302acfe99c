// Data honesty (issue 16, part 7): files and rows that used to be read silently wrong get errors
// naming the row, or are read as the caller states (timeUnit).
import { describe, expect, it } from "vitest";
import { isBarDataError, normalizeBars, parseCsvBars, parseJsonBars } from "../../src/core/bars.js";

const S = 1_700_000_000; // 2023-11-14 in unix seconds

describe("time units", () => {
  it("a CSV mixing seconds and milliseconds is an error naming the line", () => {
    const csv = `time,open,high,low,close\n${S},1,2,0,1\n${(S + 60) * 1000},1,2,0,1\n`;
    const r = parseCsvBars(csv);
    expect(isBarDataError(r) && r).toMatchObject({ line: 3, bar: 1 });
    expect(isBarDataError(r) && r.error).toMatch(
      /^CSV line 3: time "1700000060000" reads as unix milliseconds but line 2's "1700000000" as unix seconds/,
    );
  });

  it("an explicit unit reads the file as told, all seconds or all ms", () => {
    const csv = `time,open,high,low,close\n${S},1,2,0,1\n${S + 60},1,2,0,1\n`;
    const auto = parseCsvBars(csv);
    const s = parseCsvBars(csv, { timeUnit: "s" });
    const ms = parseCsvBars(csv, { timeUnit: "ms" });
    expect(!isBarDataError(auto) && auto.time[0]).toBe(S * 1000);
    expect(!isBarDataError(s) && s.time[1]).toBe((S + 60) * 1000);
    // told ms: read as ms (January 1970), the caller's statement, not a guess
    expect(!isBarDataError(ms) && ms.time[0]).toBe(S);
  });

  it("JSON rows mixing units are an error naming the bar; all-seconds rows are converted", () => {
    const mixed = parseJsonBars(
      JSON.stringify([
        [S, 1, 2, 0, 1],
        [(S + 60) * 1000, 1, 2, 0, 1],
      ]),
    );
    expect(isBarDataError(mixed) && mixed.bar).toBe(1);
    const secs = parseJsonBars(JSON.stringify([{ time: S, open: 1, high: 2, low: 0, close: 1 }]));
    expect(!isBarDataError(secs) && secs.time[0]).toBe(S * 1000);
  });

  it("seconds passed as ms rows (the Runtime's and /run's data) are refused with the fix", () => {
    const r = normalizeBars([
      { time: S, open: 1, high: 2, low: 0, close: 1 },
      { time: S + 60, open: 1, high: 2, low: 0, close: 1 },
    ]);
    expect(isBarDataError(r) && r.error).toMatch(
      /^bar 0: time 1700000000 is 1970-01-20T.* as ms but 2023-11-14T.* as unix seconds: times are ms since the epoch/,
    );
    // epoch-based test data (starting at 0) and ms data stay accepted
    expect(
      isBarDataError(
        normalizeBars([
          { time: 0, open: 1, high: 2, low: 0, close: 1 },
          { time: 2e9, open: 1, high: 2, low: 0, close: 1 },
        ]),
      ),
    ).toBe(false);
    expect(isBarDataError(normalizeBars([{ time: S * 1000, open: 1, high: 2, low: 0, close: 1 }]))).toBe(false);
  });
});

describe("numbers and empty files", () => {
  it("hexadecimal and other non-decimal numbers are errors naming the line and field", () => {
    const r = parseCsvBars(`time,open,high,low,close\n${S},0x10,20,1,2\n`);
    expect(isBarDataError(r) && r).toMatchObject({
      error: 'CSV line 2: open "0x10" is not a decimal number',
      line: 2,
      bar: 0,
    });
    const j = normalizeBars([{ time: S * 1000, open: "0x10", high: 20, low: 1, close: 2 }]);
    expect(isBarDataError(j) && j.error).toBe('bar 0: open is "0x10" (expected a finite number)');
    expect(isBarDataError(parseCsvBars(`time,open,high,low,close\n${S},1,Infinity,0,1\n`))).toBe(true);
    const ok = parseCsvBars(`time,open,high,low,close\n${S},1.5e0,+2,.5,1\n`);
    expect(isBarDataError(ok)).toBe(false);
  });

  it("a header-only CSV is an error, not zero bars", () => {
    const r = parseCsvBars("time,open,high,low,close,volume\n\n");
    expect(isBarDataError(r) && r).toMatchObject({ error: "CSV line 1: the file has a header but no bars", line: 1 });
  });
});
