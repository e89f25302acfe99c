// barCloseTimes' one-pass paths (intraday bars in a fixed-offset zone: around the clock, or one
// session range) give exactly barTimeClose's close for every bar, in and out of time order.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { barCloseTimes } from "../../src/runtime/bar-close.js";
import { barTimeClose } from "../../src/core/time-frames.js";
import { getZone } from "../../src/core/tz.js";
import { parseSession } from "../../src/core/time-sessions.js";

const ZONES = [
  "UTC",
  "GMT+6",
  "UTC-05:30",
  "GMT+05:30",
  "UTC+14",
  "America/New_York",
  "Europe/London",
  "Australia/Sydney",
  "Asia/Kolkata",
];
const SESSIONS = [
  "24x7",
  "0930-1600",
  "0000-0000",
  "0800-2400",
  "1200-1300:23456",
  "1700-1700:23456",
  "1800-1600",
  "0130-0330",
  "0930-1600:23456",
  // several ranges: apart, touching, overlapping (the per-bar lookup), overnight next to a day range
  "0930-1130,1300-1500",
  "0930-1130,1300-1500:23456",
  "1700-1600:23456|0900-1000:1",
  "0000-1200,1200-2400",
  "0000-1200,0600-1800",
  "0600-1800,0000-1200",
  "2200-0200,0100-0300",
  "1800-1700:2|0900-1000:1",
];
const TIMEFRAMES = ["1", "7", "45", "60", "240", "1S", "30S", "720"];

function expectPerBar(times: Float64Array, tf: string, zone: string, session: string): void {
  const got = barCloseTimes(times, tf, zone, session);
  const z = getZone(zone)!;
  const s = parseSession(session)!;
  const want = Array.from(times, (t) => barTimeClose(t, tf, z, s));
  expect(Array.from(got)).toEqual(want);
}

describe("barCloseTimes fast paths", () => {
  it("knows which sessions have overlapping ranges", () => {
    const disjoint = (t: string) => parseSession(t)!.disjoint;
    for (const t of [
      "24x7",
      "0930-1600",
      "1700-1700:23456",
      "0930-1130,1300-1500",
      "1700-1600:23456|0900-1000:1",
      "0000-1200,1200-2400",
    ])
      expect(disjoint(t), t).toBe(true);
    // Tuesday's trading day opens Monday 18:00: Monday 09:00-10:00 is apart, Monday 19:00-20:00 inside
    expect(disjoint("1800-1700:3|0900-1000:2")).toBe(true);
    for (const t of ["0000-1200,0600-1800", "2200-0200,0100-0300", "1800-1700:3|1900-2000:2", "1700-1700|0900-1000"])
      expect(disjoint(t), t).toBe(false);
  });
  it("equal barTimeClose bar by bar (random times, zones, sessions, timeframes)", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }), { minLength: 1, maxLength: 40 }),
          // dense: a few days, so several bars share a session range (in and out of order)
          fc.array(fc.integer({ min: 1_710_000_000, max: 1_710_300_000 }), { minLength: 1, maxLength: 60 }),
        ),
        fc.boolean(),
        fc.constantFrom(...ZONES),
        fc.constantFrom(...SESSIONS),
        fc.constantFrom(...TIMEFRAMES),
        fc.constantFrom(1, 1000, 60_000),
        (secs, sorted, zone, session, tf, unit) => {
          const t = secs.map((x) => x * unit);
          if (sorted) t.sort((a, b) => a - b);
          expectPerBar(Float64Array.from(t), tf, zone, session);
        },
      ),
      { numRuns: 1500 },
    );
  });
  it("bars that cross local midnight are cut there, also a day's last bar and fractional times", () => {
    const day = Date.UTC(2024, 0, 2);
    for (const zone of ZONES) {
      const off = getZone(zone)!.offsetMs(0);
      // 7-minute bars around local midnight, and times a fraction of a ms before it
      const times = Float64Array.from(
        [-21, -14, -7, 0, 7, 14]
          .map((m) => day - off + m * 60_000)
          .concat([day - off - 0.25, day - off + 0.5])
          .sort((a, b) => a - b),
      );
      expectPerBar(times, "7", zone, "24x7");
      expectPerBar(times, "7", zone, "0930-1600");
    }
  });
  it("minute bars through daylight-saving switches, sessions holding the skipped or repeated hour", () => {
    // New York: 2024-03-10 02:00 -> 03:00 and 2024-11-03 02:00 -> 01:00; Sydney: 2024-04-07, 2024-10-06
    for (const [zone, day] of [
      ["America/New_York", Date.UTC(2024, 2, 10)],
      ["America/New_York", Date.UTC(2024, 10, 3)],
      ["Australia/Sydney", Date.UTC(2024, 3, 6)],
      ["Australia/Sydney", Date.UTC(2024, 9, 5)],
    ] as const) {
      const times = Float64Array.from({ length: 3 * 24 * 12 }, (_, i) => day - 86_400_000 + i * 5 * 60_000);
      for (const session of [
        "0130-0330",
        "0000-0000",
        "1700-1700:1234567",
        "0200-0300",
        "24x7",
        "0100-0200,0230-0400",
        "2200-0200,0100-0300",
        "0600-1800,0000-1200",
        "1800-1700:1234567|0900-1000",
      ]) {
        for (const tf of ["5", "60", "45"]) expectPerBar(times, tf, zone, session);
      }
    }
  });
  it("a non-finite time gets the nominal close, and an infinite one does not hang the session lookup", () => {
    const got = barCloseTimes(Float64Array.of(60_000, NaN, Infinity, -Infinity, 180_000), "1", "UTC", "24x7");
    expect(Array.from(got)).toEqual([120_000, NaN, Infinity, -Infinity, 240_000]);
    const one = barCloseTimes(Float64Array.of(Infinity, 60_000), "1", "UTC", "0930-1600");
    expect(Array.from(one)).toEqual([Infinity, 120_000]);
  });
});
