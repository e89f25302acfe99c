import { describe, expect, it } from "vitest";
import { parseSession, Session, SESSION_24X7 } from "../../src/core/time-sessions.js";
import { daysFromCivil } from "../../src/core/tz.js";

const DAY = 86_400_000;
/** Local ms of a wall-clock time. */
const L = (y: number, m: number, d: number, h = 0, mi = 0): number =>
  daysFromCivil(y, m, d) * DAY + (h * 60 + mi) * 60_000;
const dayOf = (y: number, m: number, d: number): number => daysFromCivil(y, m, d);

describe("parseSession", () => {
  it("parses ranges, days and 24x7", () => {
    const s = parseSession("0930-1600:23456")!;
    expect(s.ranges).toEqual([{ start: 570, end: 960, overnight: false, days: 0b0111110 }]);
    expect(SESSION_24X7.is24x7).toBe(true);
    expect(parseSession("24X7")!.is24x7).toBe(true);
    expect(parseSession("0000-0000")!.ranges[0]).toMatchObject({
      start: 0,
      end: 1440,
      overnight: false,
      days: 0b1111111,
    });
    expect(parseSession("1700-1700:23456")!.ranges[0]!.overnight).toBe(true);
    expect(parseSession("1000-1100,1400-1500:23456")!.ranges).toHaveLength(2);
    expect(parseSession("1700-1700:2|1705-1700:3456")!.ranges).toHaveLength(2);
  });
  it("rejects malformed strings", () => {
    for (const s of ["", "abc", "0930-1600:89", "2500-1600", "0960-1000", "0930-1600:2:3", "930-1600", "0930-1600:"]) {
      expect(parseSession(s), s).toBeNull();
    }
  });
});

describe("Session lookups (local wall-clock ms)", () => {
  it("regular day session: start inclusive, end exclusive, weekdays only", () => {
    const s = parseSession("0930-1600:23456")!;
    // 2024-06-03 is a Monday.
    expect(s.locate(L(2024, 6, 3, 9, 30))).toBe(true);
    expect(s.day).toBe(dayOf(2024, 6, 3));
    expect(s.spanStart).toBe(L(2024, 6, 3, 9, 30));
    expect(s.spanEnd).toBe(L(2024, 6, 3, 16));
    expect(s.locate(L(2024, 6, 3, 9, 29))).toBe(false);
    expect(s.locate(L(2024, 6, 3, 16))).toBe(false);
    expect(s.locate(L(2024, 6, 1, 12))).toBe(false); // Saturday
    expect(s.nextStart(L(2024, 6, 1, 12))).toBe(L(2024, 6, 3, 9, 30));
    expect(s.prevEnd(L(2024, 6, 3, 9))).toBe(L(2024, 5, 31, 16));
  });
  it("overnight session: the evening belongs to the next trading day", () => {
    const fx = parseSession("1700-1700:23456")!;
    // Sunday 2024-06-02 18:00 -> Monday's session.
    expect(fx.locate(L(2024, 6, 2, 18))).toBe(true);
    expect(fx.day).toBe(dayOf(2024, 6, 3));
    expect(fx.spanStart).toBe(L(2024, 6, 2, 17));
    expect(fx.locate(L(2024, 6, 3, 16, 59))).toBe(true);
    expect(fx.day).toBe(dayOf(2024, 6, 3));
    expect(fx.locate(L(2024, 6, 3, 17))).toBe(true);
    expect(fx.day).toBe(dayOf(2024, 6, 4));
    expect(fx.locate(L(2024, 6, 7, 17, 30))).toBe(false); // Friday evening: Saturday is no trading day
    expect(fx.locate(L(2024, 6, 2, 12))).toBe(false); // Sunday noon
  });
  it("a bar holds a session opening inside it", () => {
    const s = parseSession("1705-1700:23456")!;
    expect(s.locate(L(2024, 6, 3, 17))).toBe(false);
    expect(s.barDay(L(2024, 6, 3, 17), L(2024, 6, 3, 18))).toBe(true);
    expect(s.day).toBe(dayOf(2024, 6, 4));
  });
  it("several ranges make one trading day", () => {
    const s = parseSession("1000-1100,1400-1500:23456")!;
    expect(s.locate(L(2024, 6, 3, 14, 30))).toBe(true);
    expect([s.rangeStart, s.rangeEnd]).toEqual([L(2024, 6, 3, 14), L(2024, 6, 3, 15)]);
    expect([s.spanStart, s.spanEnd]).toEqual([L(2024, 6, 3, 10), L(2024, 6, 3, 15)]);
    expect(s.locate(L(2024, 6, 3, 12))).toBe(false);
  });
});

describe("Session.locate's remembered range and gap", () => {
  // A fresh Session per query has nothing remembered: every answer comes from the day-by-day search.
  const fresh = (s: Session) => new Session(s.text, s.ranges, s.is24x7);
  // (a miss sets none of the fields: only its answer counts)
  const fields = (s: Session, hit: boolean) =>
    hit ? [hit, s.day, s.rangeStart, s.rangeEnd, s.spanStart, s.spanEnd] : [hit];

  it("answers as the search does, for instants in time order, out of order, repeated and not finite", () => {
    const texts = [
      "0930-1600:23456",
      "1700-1700:23456",
      "1000-1100,1400-1500:23456",
      "1700-1700:2|1705-1700:3456",
      "1800-1600",
      "0000-0000:17",
      "0930-1600,1500-1700",
      "24x7",
      "2300-0100:4",
    ];
    let seed = 12345;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const t0 = L(2024, 3, 1);
    for (const text of texts) {
      const s = parseSession(text)!;
      let t = t0;
      for (let i = 0; i < 3000; i++) {
        const r = rnd();
        // mostly forward by a minute to a few hours (a chart's bars), sometimes back or a repeat
        if (r < 0.7) t += Math.floor(rnd() * 4) * 15 * 60_000;
        else if (r < 0.85) t += Math.floor(rnd() * 3 * DAY);
        else if (r < 0.95) t -= Math.floor(rnd() * DAY);
        const x = r > 0.995 ? [Number.NaN, Infinity, -Infinity][i % 3]! : t;
        const f = fresh(s);
        expect(fields(s, s.locate(x)), `${text} at ${x}`).toEqual(fields(f, f.locate(x)));
        // other lookups between two locates change the scratch fields the remembered answers restore
        if (i % 7 === 0) s.span(Math.floor(x / DAY) + 3);
        if (i % 11 === 0) s.barDay(x + 3_600_000, x + 7_200_000);
        // (a non-finite instant has no next start or previous end: these once never returned)
        if (x !== t) expect([s.nextStart(x), s.prevEnd(x), s.barDay(x, x)]).toEqual([Infinity, -Infinity, false]);
      }
    }
  });
});
