import { describe, expect, it } from "vitest";
import {
  barTimeClose,
  formatTimeframe,
  isSessionStart,
  parseTimeframe,
  periodEnd,
  periodStart,
  timeframeChange,
  timeframeFromSeconds,
  timeframeSeconds,
} from "../../src/core/time-frames.js";
import { parseSession, SESSION_24X7 } from "../../src/core/time-sessions.js";
import { getZone, UTC, zonedToUtc } from "../../src/core/tz.js";

const tf = (s: string) => parseTimeframe(s)!;

describe("timeframe strings", () => {
  it("parses and formats (v6 always with a multiplier, v5 without 1)", () => {
    expect(parseTimeframe("D")).toEqual({ unit: "D", mult: 1 });
    expect(parseTimeframe("1D")).toEqual({ unit: "D", mult: 1 });
    expect(parseTimeframe("240")).toEqual({ unit: "m", mult: 240 });
    expect(parseTimeframe("4H")).toEqual({ unit: "m", mult: 240 });
    expect(parseTimeframe("30S")).toEqual({ unit: "S", mult: 30 });
    expect(parseTimeframe("1T")).toEqual({ unit: "T", mult: 1 });
    expect(parseTimeframe("12M")).toEqual({ unit: "M", mult: 12 });
    for (const bad of ["", "0", "-5", "1.5", "X", "D1", "5 m"]) expect(parseTimeframe(bad), bad).toBeNull();
    expect(formatTimeframe(tf("D"), 6)).toBe("1D");
    expect(formatTimeframe(tf("D"), 5)).toBe("D");
    expect(formatTimeframe(tf("W"), 5)).toBe("W");
    expect(formatTimeframe(tf("3M"), 5)).toBe("3M");
    expect(formatTimeframe(tf("60"), 6)).toBe("60");
    expect(formatTimeframe(tf("30S"), 6)).toBe("30S");
  });
  it("in_seconds uses TradingView's month of 2628003 s", () => {
    expect(timeframeSeconds(tf("1"))).toBe(60);
    expect(timeframeSeconds(tf("D"))).toBe(86400);
    expect(timeframeSeconds(tf("5W"))).toBe(5 * 604800);
    expect(timeframeSeconds(tf("M"))).toBe(2628003);
    expect(timeframeSeconds(tf("15S"))).toBe(15);
    expect(timeframeSeconds(tf("1T"))).toBeNaN();
  });
  it("from_seconds follows the reference manual's rules", () => {
    expect(timeframeFromSeconds(1)).toBe("1S");
    expect(timeframeFromSeconds(0.5)).toBe("1S");
    expect(timeframeFromSeconds(3)).toBe("5S");
    expect(timeframeFromSeconds(46)).toBe("1");
    expect(timeframeFromSeconds(60)).toBe("1");
    expect(timeframeFromSeconds(3600)).toBe("60");
    expect(timeframeFromSeconds(3601)).toBe("61");
    expect(timeframeFromSeconds(86400)).toBe("1D");
    expect(timeframeFromSeconds(86400, 5)).toBe("D");
    expect(timeframeFromSeconds(604799)).toBe("7D");
    expect(timeframeFromSeconds(604800)).toBe("1W");
    expect(timeframeFromSeconds(2628003)).toBe("1M");
    expect(timeframeFromSeconds(31_622_401)).toBe("12M");
    expect(timeframeFromSeconds(NaN)).toBeNull();
  });
});

describe("periods", () => {
  const ny = getZone("America/New_York")!;
  const spy = parseSession("0930-1600:23456")!;
  const at = (y: number, m: number, d: number, h = 0, mi = 0) => zonedToUtc(ny, y, m, d, h, mi);

  it("anchor intraday periods at the session open (stocks: 09:30)", () => {
    expect(periodStart(at(2024, 6, 4, 10, 45), tf("60"), ny, spy, 900_000)).toBe(at(2024, 6, 4, 10, 30));
    expect(periodStart(at(2024, 6, 4, 9, 30), tf("60"), ny, spy, 900_000)).toBe(at(2024, 6, 4, 9, 30));
    expect(periodEnd(at(2024, 6, 4, 15, 45), tf("60"), ny, spy, 900_000)).toBe(at(2024, 6, 4, 16)); // cut at the close
  });
  it("days, weeks and months go by trading day", () => {
    expect(periodStart(at(2024, 6, 4, 15), tf("D"), ny, spy)).toBe(at(2024, 6, 4, 9, 30));
    expect(periodEnd(at(2024, 6, 4, 15), tf("D"), ny, spy)).toBe(at(2024, 6, 4, 16));
    expect(periodStart(at(2024, 6, 5, 11), tf("W"), ny, spy)).toBe(at(2024, 6, 3, 9, 30));
    expect(periodEnd(at(2024, 6, 5, 11), tf("W"), ny, spy)).toBe(at(2024, 6, 7, 16));
    // June 2024 starts on a Saturday: the month opens Monday 3 June.
    expect(periodStart(at(2024, 6, 20, 11), tf("M"), ny, spy)).toBe(at(2024, 6, 3, 9, 30));
    expect(periodEnd(at(2024, 6, 20, 11), tf("M"), ny, spy)).toBe(at(2024, 6, 28, 16));
  });
  it("crypto (24x7 UTC): calendar alignment", () => {
    const t = Date.UTC(2024, 4, 15, 13, 37);
    expect(periodStart(t, tf("240"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 4, 15, 12));
    expect(periodStart(t, tf("D"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 4, 15));
    expect(periodStart(t, tf("W"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 4, 13)); // Monday
    expect(periodStart(t, tf("3M"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 3, 1));
    expect(periodStart(t, tf("12M"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 0, 1));
    expect(periodEnd(t, tf("M"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 5, 1));
    expect(periodStart(t, tf("1T"), UTC, SESSION_24X7)).toBeNaN();
  });
  it("forex (overnight 1700-1700): days open at 17:00 the evening before", () => {
    const fx = parseSession("1700-1700:23456")!;
    // Sunday 2024-06-02 18:00 New York belongs to Monday.
    expect(periodStart(at(2024, 6, 2, 18), tf("D"), ny, fx, 300_000)).toBe(at(2024, 6, 2, 17));
    expect(periodStart(at(2024, 6, 3, 22, 5), tf("240"), ny, fx, 300_000)).toBe(at(2024, 6, 3, 21));
    expect(timeframeChange(at(2024, 6, 3, 16, 55), at(2024, 6, 3, 17), tf("D"), ny, fx, 300_000)).toBe(true);
    expect(timeframeChange(at(2024, 6, 3, 17), at(2024, 6, 3, 17, 5), tf("D"), ny, fx, 300_000)).toBe(false);
    expect(timeframeChange(NaN, at(2024, 6, 3, 17), tf("D"), ny, fx, 300_000)).toBe(false);
  });
  it("session starts", () => {
    expect(isSessionStart(at(2024, 6, 3, 15, 45), at(2024, 6, 4, 9, 30), ny, spy, 900_000)).toBe(true);
    expect(isSessionStart(at(2024, 6, 4, 9, 30), at(2024, 6, 4, 9, 45), ny, spy, 900_000)).toBe(false);
    expect(isSessionStart(NaN, at(2024, 6, 4, 9, 30), ny, spy, 900_000)).toBe(true);
    expect(isSessionStart(NaN, at(2024, 6, 4, 10), ny, spy, 900_000)).toBe(false);
  });
  it("bar close times", () => {
    expect(barTimeClose(at(2024, 6, 4, 15, 30), tf("60"), ny, spy)).toBe(at(2024, 6, 4, 16));
    expect(barTimeClose(at(2024, 6, 4, 9, 30), tf("60"), ny, spy)).toBe(at(2024, 6, 4, 10, 30));
    expect(barTimeClose(at(2024, 6, 4, 9, 30), tf("D"), ny, spy)).toBe(at(2024, 6, 4, 16));
    expect(barTimeClose(Date.UTC(2024, 0, 1), tf("D"), UTC, SESSION_24X7)).toBe(Date.UTC(2024, 0, 2));
  });
});

describe("string arguments of the helpers", () => {
  it("accept timeframe, zone and session text", () => {
    const t = Date.UTC(2024, 5, 4, 15); // 11:00 New York
    expect(periodStart(t, "D", "America/New_York", "0930-1600:23456")).toBe(Date.UTC(2024, 5, 4, 13, 30));
    expect(periodStart(t, "240")).toBe(Date.UTC(2024, 5, 4, 12));
    expect(timeframeChange(t - 3_600_000, t, "240")).toBe(false); // 14:00 and 15:00 UTC share 12:00-16:00
    expect(timeframeChange(t - 4 * 3_600_000, t, "240")).toBe(true);
    expect(() => periodStart(t, "bogus")).toThrow(RangeError);
    expect(() => periodStart(t, "D", "Mars/Olympus")).toThrow(/time zone/);
  });
});
