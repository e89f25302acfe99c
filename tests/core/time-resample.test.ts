import { describe, expect, it } from "vitest";
import { resampleBars } from "../../src/core/time-resample.js";
import { parseTimeframe } from "../../src/core/time-frames.js";
import { parseSession, SESSION_24X7 } from "../../src/core/time-sessions.js";
import { getZone, UTC } from "../../src/core/tz.js";
import { normalizeBars, isBarDataError, type BarColumns } from "../../src/core/bars.js";
import { caseBars } from "./fixture.js";

const DAY = 86_400_000;

function hourlyBars(n: number): BarColumns {
  const rows = Array.from({ length: n }, (_, i) => {
    const base = 100 + Math.sin(i / 3) * 10;
    return {
      time: Date.UTC(2024, 0, 1, 5) + i * 3_600_000,
      open: base,
      high: base + 1 + (i % 5),
      low: base - 1 - (i % 3),
      close: base + 0.5,
      volume: i % 7 === 0 ? undefined : i,
    };
  });
  const c = normalizeBars(rows);
  if (isBarDataError(c)) throw new Error(c.error);
  return c;
}

describe("resampleBars", () => {
  it("daily bars from hourly 24x7 bars equal a plain group-by-UTC-day", () => {
    const src = hourlyBars(100);
    const r = resampleBars(src, parseTimeframe("D")!, UTC, SESSION_24X7, 3_600_000);
    const groups = new Map<number, number[]>();
    for (let i = 0; i < src.length; i++) {
      const d = Math.floor(src.time[i]! / DAY);
      groups.set(d, [...(groups.get(d) ?? []), i]);
    }
    expect(r.bars.length).toBe(groups.size);
    let k = 0;
    for (const [d, idx] of groups) {
      expect(r.bars.time[k]).toBe(d * DAY);
      expect(r.timeClose[k]).toBe((d + 1) * DAY);
      expect(r.bars.open[k]).toBe(src.open[idx[0]!]);
      expect(r.bars.close[k]).toBe(src.close[idx[idx.length - 1]!]);
      expect(r.bars.high[k]).toBe(Math.max(...idx.map((i) => src.high[i]!)));
      expect(r.bars.low[k]).toBe(Math.min(...idx.map((i) => src.low[i]!)));
      const vols = idx.map((i) => src.volume[i]!).filter((v) => !Number.isNaN(v));
      expect(r.bars.volume[k]).toBe(vols.reduce((a, b) => a + b, 0));
      expect(r.lastSource[k]).toBe(idx[idx.length - 1]);
      for (const i of idx) expect(r.index[i]).toBe(k);
      k++;
    }
  });
  it("forex 5m bars make one daily bar per trading day, opening 17:00 New York", () => {
    const src = caseBars("timeframe_change");
    const ny = getZone("America/New_York")!;
    const r = resampleBars(src, parseTimeframe("D")!, ny, parseSession("1700-1700:23456")!, 300_000);
    expect(r.bars.length).toBe(70); // trading days in the export (2024-10-21 .. 2025-01-28, no 25 Dec / 1 Jan)
    expect(r.bars.time[0]).toBe(Date.UTC(2024, 9, 20, 21)); // Sunday 17:00 EDT
    expect(r.timeClose[0]).toBe(Date.UTC(2024, 9, 21, 21));
    // The 4h bars of the same data: every one starts at 17, 21, 01, 05, 09 or 13 o'clock New York.
    const h4 = resampleBars(src, parseTimeframe("240")!, ny, parseSession("1700-1700:23456")!, 300_000);
    for (let k = 0; k < h4.bars.length; k++) {
      const hour = Number(
        new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", hour: "numeric", hourCycle: "h23" }).format(
          h4.bars.time[k]!,
        ),
      );
      expect([17, 21, 1, 5, 9, 13]).toContain(hour);
    }
  });
  it("all-na volume stays na", () => {
    const c = normalizeBars([
      { time: 0, open: 1, high: 2, low: 0, close: 1 },
      { time: 3_600_000, open: 1, high: 3, low: 0, close: 2 },
    ]);
    if (isBarDataError(c)) throw new Error(c.error);
    const r = resampleBars(c, parseTimeframe("D")!, UTC, SESSION_24X7, 3_600_000);
    expect(r.bars.length).toBe(1);
    expect(r.bars.volume[0]).toBeNaN();
    expect(r.bars.high[0]).toBe(3);
  });
  it("a caller's time column is resampled once per timeframe, and again once its times change", () => {
    const rows = hourlyBars(200);
    // a caller's own columns (not made by normalizeBars for the run): the periods are kept
    const own: BarColumns = { ...rows, copied: false };
    const d = parseTimeframe("D")!;
    const h4 = parseTimeframe("240")!;
    const fresh = (src: BarColumns, tf = d) => resampleBars({ ...src, copied: true }, tf, UTC, SESSION_24X7, 3_600_000);
    const a = resampleBars(own, d, UTC, SESSION_24X7, 3_600_000);
    const b = resampleBars(own, d, UTC, SESSION_24X7, 3_600_000);
    const c = resampleBars(own, h4, UTC, SESSION_24X7, 3_600_000);
    expect(b.index).toBe(a.index); // the kept periods
    expect(c.index).not.toBe(a.index); // another timeframe's own
    expect(b).toEqual(fresh(own));
    expect(c).toEqual(fresh(own, h4));
    // each run's columns are its own: writing into one leaves the next run's as they were
    b.bars.time[0] = 1;
    b.timeClose[0] = 1;
    expect(resampleBars(own, d, UTC, SESSION_24X7, 3_600_000).bars.time[0]).toBe(a.bars.time[0]);
    // the caller shifts its bars by a day: the periods are made again, as for a new column
    for (let i = 0; i < own.time.length; i++) own.time[i] = own.time[i]! + DAY;
    const e = resampleBars(own, d, UTC, SESSION_24X7, 3_600_000);
    expect(e.index).not.toBe(a.index);
    expect(e).toEqual(fresh(own));
    expect(e.bars.time[0]).toBe(a.bars.time[0]! + DAY);
  });
});
