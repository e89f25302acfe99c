import { describe, expect, it } from "vitest";
import { parseDateString } from "../../src/core/time-parse.js";
import { getZone } from "../../src/core/tz.js";

describe("parseDateString", () => {
  it("reads ISO 8601 dates, times and offsets (no zone = UTC)", () => {
    expect(parseDateString("2020-02-20")).toBe(Date.UTC(2020, 1, 20));
    expect(parseDateString("2011-10-10T14:48:00")).toBe(Date.UTC(2011, 9, 10, 14, 48));
    expect(parseDateString("2011-10-10T14:48")).toBe(Date.UTC(2011, 9, 10, 14, 48));
    expect(parseDateString("2025-01-01 01:23:45-05:00")).toBe(Date.UTC(2025, 0, 1, 6, 23, 45));
    expect(parseDateString("2025-01-01T01:23:45+0530")).toBe(Date.UTC(2024, 11, 31, 19, 53, 45));
    expect(parseDateString("2025-01-01T01:23:45Z")).toBe(Date.UTC(2025, 0, 1, 1, 23, 45));
    expect(parseDateString("2025-01-01T01:23:45.250Z")).toBe(Date.UTC(2025, 0, 1, 1, 23, 45, 250));
    expect(parseDateString("2024-06-01T12:00:00 America/New_York")).toBe(Date.UTC(2024, 5, 1, 16));
    expect(parseDateString("2024/06/01 12:00")).toBe(Date.UTC(2024, 5, 1, 12));
  });
  it("reads RFC 2822-like dates in either day/month order, with GMT offsets", () => {
    expect(parseDateString("Feb 01 2020 22:10:05")).toBe(Date.UTC(2020, 1, 1, 22, 10, 5));
    expect(parseDateString("04 Dec 1995 00:12:00 GMT+5")).toBe(Date.UTC(1995, 11, 3, 19, 12));
    expect(parseDateString("20 Feb 2020")).toBe(Date.UTC(2020, 1, 20));
    expect(parseDateString("Thu, 20 Feb 2020 15:30:00 +0200")).toBe(Date.UTC(2020, 1, 20, 13, 30));
    expect(parseDateString("20 Aug 2024 00:00:00 +0000")).toBe(Date.UTC(2024, 7, 20));
    expect(parseDateString("Jan 5, 2021 09:30 UTC-5")).toBe(Date.UTC(2021, 0, 5, 14, 30));
    expect(parseDateString("March 3 2021")).toBe(Date.UTC(2021, 2, 3));
  });
  it("uses the default zone when the string has none", () => {
    expect(parseDateString("2024-01-02 09:30", getZone("America/New_York")!)).toBe(Date.UTC(2024, 0, 2, 14, 30));
  });
  it("gives NaN for what is not a date", () => {
    for (const s of [
      "",
      "hello",
      "2020-13-01",
      "2020-02-30x",
      "32 Jan 2020",
      "Feb 2020",
      "2020-01-01T25:00",
      "01 Jan 2020 10:00 Mars/Base",
    ]) {
      expect(parseDateString(s), s).toBeNaN();
    }
  });
});

describe("robustness of the string parsers", () => {
  it("zones, sessions, timeframes and dates never throw on arbitrary text", async () => {
    const fc = (await import("fast-check")).default;
    const { parseSession } = await import("../../src/core/time-sessions.js");
    const { parseTimeframe } = await import("../../src/core/time-frames.js");
    const { getZone: zone } = await import("../../src/core/tz.js");
    fc.assert(
      fc.property(fc.string(), (s) => {
        parseSession(s);
        parseTimeframe(s);
        zone(s);
        expect(typeof parseDateString(s)).toBe("number");
      }),
      { numRuns: 1000 },
    );
  });
});
