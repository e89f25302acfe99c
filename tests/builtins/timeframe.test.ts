// timeframe.* through the Runtime.
import { describe, expect, it } from "vitest";
import { runBoth, v5, v6 } from "../helpers/run-both.js";
import type { Bar } from "../../src/core/result.js";

const bars = (n: number, step: number, start = Date.UTC(2024, 0, 1)): Bar[] =>
  Array.from({ length: n }, (_, i) => ({ time: start + i * step, open: 1, high: 2, low: 0.5, close: 1.5 }));

const PROPS = `
plot(timeframe.multiplier, "mult")
plot(timeframe.isintraday ? 1 : 0, "intra")
plot(timeframe.isdaily ? 1 : 0, "daily")
plot(timeframe.isdwm ? 1 : 0, "dwm")
plot(timeframe.isminutes ? 1 : 0, "min")
plot(timeframe.isseconds ? 1 : 0, "sec")
plot(timeframe.in_seconds(), "ins")
plot(timeframe.period == "1D" ? 1 : timeframe.period == "D" ? 2 : timeframe.period == "60" ? 3 : 0, "period")
`;

describe("timeframe.*", () => {
  it("describes an inferred hourly chart", async () => {
    const r = await runBoth(v6(PROPS), bars(5, 3_600_000));
    const s = r.series;
    expect([s.mult![0], s.intra![0], s.daily![0], s.dwm![0], s.min![0], s.sec![0], s.ins![0], s.period![0]]).toEqual([
      60, 1, 0, 0, 1, 0, 3600, 3,
    ]);
  });
  it('timeframe.period is "1D" in v6 and "D" in v5', async () => {
    const six = await runBoth(v6(PROPS), bars(5, 86_400_000));
    expect(six.series.period![0]).toBe(1);
    expect(six.series.daily![0]).toBe(1);
    expect(six.series.dwm![0]).toBe(1);
    const five = await runBoth(v5(PROPS), bars(5, 86_400_000));
    expect(five.series.period![0]).toBe(2);
  });
  it("the Runtime's timeframe option wins over inference", async () => {
    const r = await runBoth(v6(PROPS), bars(5, 3_600_000), { runtime: { timeframe: "240" } });
    expect(r.series.mult![0]).toBe(240);
  });
  it("from_seconds / in_seconds round trip", async () => {
    const r = await runBoth(
      v6(
        `plot(timeframe.from_seconds(timeframe.in_seconds("2W")) == "2W" ? 1 : 0, "a")\nplot(timeframe.from_seconds(3) == "5S" ? 1 : 0, "b")\nplot(timeframe.in_seconds("M"), "m")`,
      ),
      bars(2, 60_000),
    );
    expect([r.series.a![0], r.series.b![0], r.series.m![0]]).toEqual([1, 1, 2628003]);
  });
  it("timeframe.change marks the first bar of each period, not the first bar of the data", async () => {
    const r = await runBoth(
      v6(`plot(timeframe.change("D") ? 1 : 0, "d")\nplot(timeframe.change("240") ? 1 : 0, "h4")`),
      bars(50, 3_600_000, Date.UTC(2024, 0, 1, 22)),
    );
    const d = r.series.d!;
    const want = Array.from({ length: 50 }, (_, i) => (i > 0 && (22 + i) % 24 === 0 ? 1 : 0));
    expect(d).toEqual(want);
    const h4 = r.series.h4!;
    expect(h4).toEqual(Array.from({ length: 50 }, (_, i) => (i > 0 && (22 + i) % 4 === 0 ? 1 : 0)));
  });
  it("timeframe.change inside a condition still compares with the previous bar", async () => {
    const r = await runBoth(
      v6(`c = false\nif bar_index % 2 == 0\n    c := timeframe.change("D")\nplot(c ? 1 : 0, "c")`),
      bars(30, 3_600_000, Date.UTC(2024, 0, 1, 20)),
    );
    // New days start at bars 4 (00:00) and 28 (00:00): both even, so seen.
    expect(r.series.c!.map((x, i) => (x === 1 ? i : -1)).filter((i) => i >= 0)).toEqual([4, 28]);
  });
});
