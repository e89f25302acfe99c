// session.* through the Runtime: a stock with regular and extended hours, forex and 24x7.
import { describe, expect, it } from "vitest";
import { runBoth, v6 } from "../helpers/run-both.js";
import type { Bar, SymInfo } from "../../src/core/result.js";

const BODY = `
plot(session.isfirstbar ? 1 : 0, "first")
plot(session.isfirstbar_regular ? 1 : 0, "firstReg")
plot(session.islastbar ? 1 : 0, "last")
plot(session.islastbar_regular ? 1 : 0, "lastReg")
plot(session.ismarket ? 1 : 0, "market")
plot(session.ispremarket ? 1 : 0, "pre")
plot(session.ispostmarket ? 1 : 0, "post")
plot(session.regular == "regular" and session.extended == "extended" ? 1 : 0, "consts")
`;

function bars(startUtc: number, n: number, step: number): Bar[] {
  return Array.from({ length: n }, (_, i) => ({ time: startUtc + i * step, open: 1, high: 2, low: 0.5, close: 1.5 }));
}

async function run(b: Bar[], syminfo: SymInfo) {
  const r = await runBoth(v6(BODY), b, { runtime: { syminfo } });
  if (r.error) throw new Error(r.error);
  return r.series;
}

const idx = (col: (number | string | boolean | null)[]): number[] =>
  col.map((x, i) => (x === 1 ? i : -1)).filter((i) => i >= 0);

describe("session.*", () => {
  it("stock with pre/post-market hours: hourly bars 04:00..19:00 New York on two days", async () => {
    // 2024-06-03 04:00 EDT = 08:00 UTC; 16 bars a day (04:00..19:00), two days.
    const day1 = bars(Date.UTC(2024, 5, 3, 8), 16, 3_600_000);
    const day2 = bars(Date.UTC(2024, 5, 4, 8), 16, 3_600_000);
    const s = await run([...day1, ...day2], {
      timezone: "America/New_York",
      session: "0930-1600:23456",
      session_premarket: "0400-0930:23456",
      session_postmarket: "1600-2000:23456",
    });
    // Local hour of bar i is 4 + (i % 16). The 09:00 bar holds the 09:30 open.
    expect(idx(s.first!)).toEqual([0, 16]); // the 04:00 bars open the extended day (bar 0 holds the 04:00 open)
    expect(idx(s.firstReg!)).toEqual([5, 21]);
    expect(idx(s.lastReg!)).toEqual([11, 27]); // the 15:00 bar closes at 16:00
    expect(idx(s.last!)).toEqual([15, 31]); // 19:00 bar closes at 20:00
    expect(idx(s.market!)).toEqual([5, 6, 7, 8, 9, 10, 11, 21, 22, 23, 24, 25, 26, 27]);
    expect(idx(s.pre!)).toEqual([0, 1, 2, 3, 4, 16, 17, 18, 19, 20]);
    expect(idx(s.post!)).toEqual([12, 13, 14, 15, 28, 29, 30, 31]);
    expect(s.consts![0]).toBe(1);
  });
  it("24x7 crypto: a new session every UTC midnight", async () => {
    const s = await run(bars(Date.UTC(2024, 0, 1, 20), 10, 3_600_000), { timezone: "UTC", session: "24x7" });
    expect(idx(s.first!)).toEqual([4]);
    expect(idx(s.last!)).toEqual([3]);
    expect(idx(s.market!)).toHaveLength(10);
    expect(idx(s.pre!)).toEqual([]);
  });
  it("forex: the session turns at 17:00 New York", async () => {
    // Monday 2024-06-03 15:00 EDT = 19:00 UTC.
    const s = await run(bars(Date.UTC(2024, 5, 3, 19), 6, 3_600_000), {
      timezone: "America/New_York",
      session: "1700-1700:23456",
    });
    expect(idx(s.last!)).toEqual([1]);
    expect(idx(s.first!)).toEqual([2]);
  });
  it("a malformed symbol session is a data error naming the session, not a silent 24x7", async () => {
    const r = await runBoth(v6(BODY), bars(Date.UTC(2024, 0, 1, 22), 4, 3_600_000), {
      runtime: { syminfo: { timezone: "UTC", session: "not a session" } },
    });
    expect(r.error_kind).toBe("data");
    expect(r.error).toMatch(/session/i);
  });
});

describe("session.* on daily bars", () => {
  it("every daily bar is a whole session", async () => {
    const s = await run(bars(Date.UTC(2024, 0, 1, 5), 4, 86_400_000), {
      timezone: "America/New_York",
      session: "0930-1600:23456",
    });
    expect(idx(s.first!)).toEqual([0, 1, 2, 3]);
    expect(idx(s.lastReg!)).toEqual([0, 1, 2, 3]);
    expect(idx(s.market!)).toEqual([0, 1, 2, 3]);
    expect(idx(s.pre!)).toEqual([]);
  });
});
