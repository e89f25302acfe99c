import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  civilFromDays,
  dayOfMonthOf,
  dayOfWeekOf,
  daysFromCivil,
  getZone,
  hourOf,
  minuteOf,
  monthOf,
  secondOf,
  weekOfYearOf,
  yearOf,
  zonedToUtc,
  UTC,
} from "../../src/core/tz.js";

const H = 3_600_000;

describe("getZone", () => {
  it("reads fixed offsets the TradingView way (GMT+6 is ahead of UTC)", () => {
    expect(getZone("UTC")!.offsetMs(0)).toBe(0);
    expect(getZone("Etc/UTC")!.offsetMs(0)).toBe(0);
    expect(getZone("GMT")!.offsetMs(0)).toBe(0);
    expect(getZone("GMT+6")!.offsetMs(0)).toBe(6 * H);
    expect(getZone("UTC-5")!.offsetMs(0)).toBe(-5 * H);
    expect(getZone("UTC+1")!.offsetMs(0)).toBe(H);
    expect(getZone("GMT+05:30")!.offsetMs(0)).toBe(5.5 * H);
    expect(getZone("GMT+0530")!.offsetMs(0)).toBe(5.5 * H);
    expect(getZone("UTC-09:45")!.offsetMs(0)).toBe(-9.75 * H);
    expect(getZone("GMT+6")!.fixed).toBe(true);
  });
  it("rejects names that are no zone", () => {
    expect(getZone("Nowhere/Special")).toBeNull();
    expect(getZone("")).toBeNull();
    expect(getZone("GMT+15")).toBeNull();
    expect(getZone("UTC+5:75")).toBeNull();
    expect(getZone(null)).toBeNull();
  });
  it("follows daylight saving in IANA zones (New York, 2024)", () => {
    const ny = getZone("America/New_York")!;
    const spring = Date.UTC(2024, 2, 10, 7); // 02:00 EST -> 03:00 EDT
    expect(ny.offsetMs(spring - 1000)).toBe(-5 * H);
    expect(ny.offsetMs(spring)).toBe(-4 * H);
    const fall = Date.UTC(2024, 10, 3, 6); // 02:00 EDT -> 01:00 EST
    expect(ny.offsetMs(fall - 1)).toBe(-4 * H);
    expect(ny.offsetMs(fall)).toBe(-5 * H);
    expect(getZone("US/Eastern")!.offsetMs(Date.UTC(2024, 6, 1))).toBe(-4 * H);
    expect(getZone("Asia/Kolkata")!.offsetMs(Date.UTC(2024, 6, 1))).toBe(5.5 * H);
  });
});

/** Civil fields straight from Intl: the independent oracle. */
function intlFields(t: number, tz: string): Record<string, number> {
  const f = new Intl.DateTimeFormat("en-US", {
    timeZone: tz,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  });
  const out: Record<string, number> = {};
  for (const p of f.formatToParts(t)) {
    if (p.type === "weekday") out.dow = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].indexOf(p.value) + 1;
    else if (p.type !== "literal") out[p.type] = +p.value % (p.type === "hour" ? 24 : Infinity);
  }
  return out;
}

describe("civil fields", () => {
  const zones = [
    "UTC",
    "America/New_York",
    "Europe/Budapest",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "America/St_Johns",
    "Pacific/Chatham",
  ];
  it("match Intl for any instant 1971..2037 in zones with odd offsets and DST", () => {
    fc.assert(
      fc.property(fc.integer({ min: 31_536_000_000, max: 2_145_916_800_000 }), fc.constantFrom(...zones), (t, tz) => {
        const z = getZone(tz)!;
        const want = intlFields(t, tz);
        expect([
          yearOf(t, z),
          monthOf(t, z),
          dayOfMonthOf(t, z),
          hourOf(t, z),
          minuteOf(t, z),
          secondOf(t, z),
          dayOfWeekOf(t, z),
        ]).toEqual([want.year, want.month, want.day, want.hour, want.minute, want.second, want.dow]);
      }),
      { numRuns: 3000 },
    );
  });
  it("day numbers round-trip with Date.UTC", () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_000, max: 2_900_000 }), (day) => {
        const ymd = civilFromDays(day);
        const y = Math.floor(ymd / 10000),
          m = Math.floor(ymd / 100) % 100,
          d = ymd % 100;
        const date = new Date(day * 86_400_000);
        expect([y, m, d]).toEqual([date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]);
        expect(daysFromCivil(y, m, d)).toBe(day);
      }),
    );
  });
  it("weekofyear is the ISO-8601 week (Monday start, week 1 holds the first Thursday)", () => {
    const w = (y: number, m: number, d: number): number => weekOfYearOf(Date.UTC(y, m - 1, d, 12), UTC);
    expect(w(2021, 1, 3)).toBe(53); // Sunday, still 2020-W53
    expect(w(2021, 1, 4)).toBe(1);
    expect(w(2024, 12, 29)).toBe(52);
    expect(w(2024, 12, 30)).toBe(1); // 2025-W01 starts Monday 30 Dec
    expect(w(2026, 12, 31)).toBe(53);
    expect(w(2027, 1, 1)).toBe(53);
    expect(w(2027, 1, 4)).toBe(1);
  });
  it("dayofweek numbers Sunday 1 .. Saturday 7", () => {
    expect(dayOfWeekOf(Date.UTC(2025, 0, 5), UTC)).toBe(1); // Sunday
    expect(dayOfWeekOf(Date.UTC(2025, 0, 11), UTC)).toBe(7); // Saturday
  });
});

describe("zonedToUtc", () => {
  const ny = getZone("America/New_York")!;
  it("converts wall-clock times", () => {
    expect(zonedToUtc(ny, 2024, 7, 1, 9, 30)).toBe(Date.UTC(2024, 6, 1, 13, 30));
    expect(zonedToUtc(ny, 2024, 1, 2, 9, 30)).toBe(Date.UTC(2024, 0, 2, 14, 30));
    expect(zonedToUtc(getZone("GMT+6")!, 2016, 1, 19, 9, 30)).toBe(Date.UTC(2016, 0, 19, 3, 30));
    expect(zonedToUtc(getZone("Asia/Kolkata")!, 2024, 1, 1)).toBe(Date.UTC(2023, 11, 31, 18, 30));
  });
  it("moves a time in a DST gap forward and picks the earlier of two in an overlap", () => {
    expect(zonedToUtc(ny, 2024, 3, 10, 2, 30)).toBe(Date.UTC(2024, 2, 10, 7, 30)); // = 03:30 EDT
    expect(zonedToUtc(ny, 2024, 11, 3, 1, 30)).toBe(Date.UTC(2024, 10, 3, 5, 30)); // 01:30 EDT
    expect(zonedToUtc(ny, 2024, 11, 3, 2, 30)).toBe(Date.UTC(2024, 10, 3, 7, 30)); // after the overlap
  });
  it("lets fields overflow like Date.UTC", () => {
    expect(zonedToUtc(UTC, 2020, 13, 1)).toBe(Date.UTC(2021, 0, 1));
    expect(zonedToUtc(UTC, 2020, 1, 1, 25, 61, 61)).toBe(Date.UTC(2020, 0, 1, 25, 61, 61));
    expect(zonedToUtc(UTC, 2020, 0, 1)).toBe(Date.UTC(2019, 11, 1));
  });
  it("inverts the civil fields for any instant in an IANA zone (outside overlaps)", () => {
    const z = getZone("Europe/Budapest")!;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000 }).map((s) => s * 1000),
        (t) => {
          const back = zonedToUtc(
            z,
            yearOf(t, z),
            monthOf(t, z),
            dayOfMonthOf(t, z),
            hourOf(t, z),
            minuteOf(t, z),
            secondOf(t, z),
          );
          // In a fall-back overlap the earlier instant is chosen: one hour earlier at most.
          expect(back === t || back === t - H).toBe(true);
        },
      ),
    );
  });
});
