// The chart's times in the symbol's zone (web/src/chart/timezone.ts): offsets with daylight saving,
// the repeated hour kept increasing, UTC and unknown zones unchanged.

import { describe, expect, it } from "vitest";
import { chartTimes, zoneOffsetMs } from "../../web/src/chart/timezone.js";

const H = 3_600_000;

describe("chart times in the symbol's time zone", () => {
  it("moves each bar by its zone's offset at that instant, daylight saving included", () => {
    expect(zoneOffsetMs("America/New_York", Date.UTC(2024, 0, 15, 14, 30))).toBe(-5 * H);
    expect(zoneOffsetMs("America/New_York", Date.UTC(2024, 6, 15, 14, 30))).toBe(-4 * H);
    expect(zoneOffsetMs("Asia/Kolkata", Date.UTC(2024, 0, 1))).toBe(5.5 * H);
    // hourly bars across the March change (2024-03-10 07:00 UTC): 13:30 UTC reads 08:30 EST before, 09:30 EDT after
    const times = Float64Array.from({ length: 72 }, (_, i) => Date.UTC(2024, 2, 9, 0) + i * H);
    const out = chartTimes(times, "America/New_York");
    for (let i = 0; i < times.length; i++)
      expect(out[i]! * 1000 - times[i]!).toBe(zoneOffsetMs("America/New_York", times[i]!));
    expect(new Date(out[13]! * 1000).toISOString()).toBe("2024-03-09T08:00:00.000Z");
    expect(new Date(out[13 + 48]! * 1000).toISOString()).toBe("2024-03-11T09:00:00.000Z");
  });

  it("keeps times increasing through the hour repeated when clocks go back", () => {
    const times = Float64Array.from({ length: 48 }, (_, i) => Date.UTC(2024, 10, 2, 12) + i * H);
    const out = chartTimes(times, "America/New_York");
    for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThan(out[i - 1]!);
  });

  it("leaves UTC and unknown zones as they are", () => {
    const times = Float64Array.from([Date.UTC(2024, 0, 1), Date.UTC(2024, 0, 2)]);
    expect(chartTimes(times, "Etc/UTC")).toEqual([times[0]! / 1000, times[1]! / 1000]);
    expect(chartTimes(times, "Mars/Olympus")).toEqual([times[0]! / 1000, times[1]! / 1000]);
  });
});
