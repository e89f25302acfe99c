// Performance-summary arithmetic: period returns and the Sharpe / Sortino ratios.
import { describe, expect, it } from "vitest";
import { EquityTracker, Periods, sharpeSortino } from "../../src/strategy/stats.js";
import type { Broker } from "../../src/strategy/broker.js";
import type { BrokerHost } from "../../src/strategy/host.js";
import type { OpenTrade } from "../../src/strategy/types.js";
import { Ledger } from "../../src/strategy/ledger.js";
import { createBroker } from "../../src/strategy/index.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

describe("sharpeSortino", () => {
  it("uses the sample standard deviation of period returns (TradingView: 1%, 0, 0 -> 0.577)", () => {
    // mean 0.01/3; sample sd = sqrt(((0.02/3)^2 + 2 (0.01/3)^2) / 2) = 0.0057735; SR = 0.57735.
    const { sharpe, sortino } = sharpeSortino([0.01, 0, 0], 0);
    expect(sharpe).toBeCloseTo(0.57735, 5);
    expect(sortino).toBeNull(); // nothing below the risk-free rate
  });

  it("subtracts the risk-free rate per period and needs three periods", () => {
    // rf 12%/yr monthly = 0.01: returns 0.03, 0.01, -0.01 -> mean 0.01 - 0.01 = 0 -> SR 0.
    // Downside: only -0.01 - 0.01 = -0.02 -> dd = sqrt(0.0004 / 3); Sortino = 0.
    expect(sharpeSortino([0.03, 0.01, -0.01], 12).sharpe).toBeCloseTo(0, 12);
    expect(sharpeSortino([0.03, 0.01], 12).sharpe).toBeNull();
  });
});

/** A whole curve's period returns, split bar by bar as the tracker's Periods splits its curve. */
function periodReturns(equity: ArrayLike<number>, times: ArrayLike<number>, initial: number, count: number) {
  const p = new Periods();
  for (let i = 0; i < count; i++) p.bar(times[i], i === 0 ? Number.NaN : equity[i - 1], initial, i === 0);
  return p.returns(count === 0 ? Number.NaN : equity[count - 1], count);
}

// periodReturns' reference: every bar's key compared with the period's
const D = 86_400_000;
const dayKey = (t: number) => Math.floor(t / D);
const monthKey = (t: number) => new Date(t).getUTCFullYear() * 12 + new Date(t).getUTCMonth();
const reference = (equity: number[], times: number[], initial: number) => {
  const monthly = monthKey(times[times.length - 1]) - monthKey(times[0]) >= 3;
  const key = monthly ? monthKey : dayKey;
  const out: number[] = [];
  let start = initial;
  let period = key(times[0]);
  for (let i = 0; i < times.length; i++) {
    const k = key(times[i]);
    if (k !== period) {
      out.push(start !== 0 ? (equity[i - 1] - start) / start : 0);
      start = equity[i - 1];
      period = k;
    }
  }
  out.push(start !== 0 ? (equity[times.length - 1] - start) / start : 0);
  return { returns: out, perYear: monthly ? 12 : 365 };
};

/** A seeded uniform [0, 1). */
const seeded = (seed: number) => {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
};

/**
 * 2-61 bar times on and a hair around day and month ends (fractions of a millisecond, the float
 * step), out of order, NaN, years 0-99 (which Date.UTC reads as 1900-1999), before 1970 and past
 * Date's range.
 */
function awkwardTimes(rnd: () => number): number[] {
  const edges = [
    Date.UTC(2024, 0, 1),
    Date.UTC(2024, 1, 1),
    Date.UTC(2024, 1, 29),
    Date.UTC(1969, 11, 31),
    new Date(0).setUTCFullYear(50, 3, 1),
    Date.UTC(1950, 3, 1),
    8.64e15,
  ];
  const n = 2 + Math.floor(rnd() * 60);
  const base = edges[Math.floor(rnd() * edges.length)];
  const spanDays = rnd() < 0.5 ? 2 : 200;
  const times: number[] = [];
  let t = base - rnd() * spanDays * D * 0.1;
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.05) times.push(Number.NaN);
    else if (r < 0.1) times.push(edges[Math.floor(rnd() * edges.length)] + (rnd() - 0.5) * 2);
    else if (r < 0.15) times.push(t - rnd() * D * 40);
    else {
      t += rnd() * (spanDays / n) * D;
      // snapped near a day's end now and then: on it, a millisecond or a float step before it
      if (rnd() < 0.3) {
        const end = (Math.floor(t / D) + 1) * D;
        const pick = rnd();
        t = pick < 0.33 ? end : pick < 0.66 ? end - 1 : end - end * 2 ** -52;
      }
      times.push(t);
    }
  }
  return times;
}

describe("Periods (period returns)", () => {
  it("takes monthly returns for runs of three months or more, daily ones for shorter runs", () => {
    // Equity 100 -> 110 (end of Jan) -> 99 (end of Feb) -> 99 (Mar) -> 108.9 (Apr).
    const t = (m: number, d: number) => Date.UTC(2024, m, d);
    const times = [t(0, 5), t(0, 30), t(1, 10), t(1, 28), t(2, 15), t(3, 2), t(3, 20)];
    const equity = [100, 110, 105, 99, 99, 100, 108.9];
    const { returns, perYear } = periodReturns(equity, times, 100, times.length);
    expect(perYear).toBe(12);
    expect(returns.map((r) => Number(r.toFixed(10)))).toEqual([0.1, -0.1, 0, 0.1]);
    const short = periodReturns([100, 101, 99.99], [t(0, 1), t(0, 2), t(0, 3)], 100, 3);
    expect(short.perYear).toBe(365);
    expect(short.returns.map((r) => Number(r.toFixed(10)))).toEqual([0, 0.01, -0.01]);
  });
  it("monthly returns of hourly bars over two years (months read once a day) are a month-by-month split", () => {
    // hourly bars with gaps (weekends, an odd offset), across month and year ends
    const times: number[] = [];
    for (let t = Date.UTC(2022, 10, 28, 3); t < Date.UTC(2024, 11, 3); t += 3_600_000)
      if (new Date(t).getUTCDay() !== 6) times.push(t + (times.length % 7) * 60_000);
    const equity = times.map((_, i) => 1000 + Math.sin(i / 50) * 100 + i / 100);
    const { returns, perYear } = periodReturns(equity, times, 1000, times.length);
    expect(perYear).toBe(12);
    // the reference: each calendar month's last equity against the month before's
    const month = (t: number) => new Date(t).getUTCFullYear() * 12 + new Date(t).getUTCMonth();
    const want: number[] = [];
    let start = 1000;
    for (let i = 0; i < times.length; i++) {
      const last = i === times.length - 1 || month(times[i + 1]) !== month(times[i]);
      if (last) {
        want.push((equity[i] - start) / start);
        start = equity[i];
      }
    }
    expect(want.length).toBe(26);
    expect(returns).toEqual(want);
  });

  it("a bar inside the period's span works out no key: the returns equal a key per bar's, on awkward times", () => {
    const rnd = seeded(99);
    let checked = 0;
    for (let round = 0; round < 300; round++) {
      const times = awkwardTimes(rnd);
      const n = times.length;
      const equity = times.map((_, i) => 1000 + i * 3 - (i % 5) * 7);
      const got = periodReturns(equity, times, 1000, n);
      const want = reference(equity, times, 1000);
      expect(got).toEqual(want);
      checked += want.returns.length;
    }
    expect(checked).toBeGreaterThan(1000);
    // a month of year 50 and the same month of 1950 are different periods
    const y50 = (m: number, d: number) => new Date(0).setUTCFullYear(50, m, d);
    const odd = [y50(3, 1), y50(6, 1), Date.UTC(1950, 6, 5), Date.UTC(1950, 6, 6)];
    const eq = [1000, 1010, 1020, 1030];
    expect(periodReturns(eq, odd, 1000, 4)).toEqual(reference(eq, odd, 1000));
    expect(periodReturns(eq, odd, 1000, 4).returns.length).toBe(3);
  });

  it("a broker's returns, split as its bars come, equal the whole curve's; realtime ticks rolled back leave nothing behind", () => {
    const rnd = seeded(7);
    let checked = 0;
    for (let round = 0; round < 150; round++) {
      const times = awkwardTimes(rnd);
      const rows = times.map((): [number, number, number, number] => {
        const c = 100 + Math.floor(rnd() * 400) / 100;
        return [c, c + 1, c - 1, c];
      });
      const cols = columnsOf(rows);
      cols.time.set(times);
      const ctx = makeCtx(cols, { type: "stock" });
      const broker = createBroker({}, ctx);
      ctx.broker = broker;
      for (let i = 0; i < times.length; i++) {
        setBar(ctx, i);
        broker.onBarOpen(ctx);
        if (rnd() < 0.3) broker.entry({ id: "L", direction: rnd() < 0.5 ? "long" : "short", qty: 1 }, ctx);
        broker.onBarClose(ctx);
        // a realtime tick on another day, rolled back
        if (rnd() < 0.3) {
          const snap = broker.snapshot();
          setBar(ctx, i);
          ctx.time = times[i] + (rnd() - 0.3) * 40 * D;
          ctx.close += 3;
          broker.onBarOpen(ctx);
          broker.onBarClose(ctx);
          broker.restore(snap);
        }
      }
      const equity = broker.tracker.takeEquity();
      const want = reference(equity, times, 1_000_000);
      expect(broker.tracker.periods.returns(equity[equity.length - 1], times.length)).toEqual(want);
      checked += want.returns.length;
    }
    expect(checked).toBeGreaterThan(500);
  });
});

describe("EquityTracker.takeEquity", () => {
  // a flat account: each bar's equity is the initial capital plus the net profit booked so far
  const account = (netProfit: number) =>
    ({ ledger: { open: [], netProfit, pointValue: 1 }, settings: { initialCapital: 1000 } }) as unknown as Broker;
  const bar = (time: number) => ({ close: 1, low: 1, high: 1, time }) as BrokerHost;

  it("hands out the curve cut to the bars run, and writes later bars to a copy", () => {
    const tracker = new EquityTracker(1000, 100);
    for (let i = 0; i < 5; i++) tracker.onBar(account(i), bar(i * 60_000));
    const first = tracker.takeEquity();
    expect(first).toEqual([1000, 1001, 1002, 1003, 1004]);
    // a bar after the hand-out (finish called, the run goes on) leaves the first result as it was
    tracker.onBar(account(5), bar(5 * 60_000));
    expect(first).toEqual([1000, 1001, 1002, 1003, 1004]);
    expect(tracker.takeEquity()).toEqual([1000, 1001, 1002, 1003, 1004, 1005]);
  });

  it("grows past its first capacity and starts small on a bad bar count", () => {
    for (const capacity of [16, Number.NaN, -5, 2 ** 40]) {
      const tracker = new EquityTracker(1000, capacity);
      for (let i = 0; i < 40; i++) tracker.onBar(account(i), bar(i));
      const equity = tracker.takeEquity();
      expect(equity.length).toBe(40);
      expect(equity[39]).toBe(1039);
    }
  });
});

describe("EquityTracker excursions", () => {
  it("divides a drawdown or run-up percentage out only when it may be a new maximum: every figure as the full valuation's, on random accounts", () => {
    // two trackers over the same bars, one with its shortcuts (the flat repeat, the percentages
    // left undivided) and one without; open trades of random sides, sizes and commissions, booked
    // equity near zero and below it, bars with na prices
    let s = 90210;
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let divided = 0;
    // (trades made by a ledger of their own, read by the trackers through a stand-in broker)
    const scratch = new Ledger(1);
    for (let round = 0; round < 200; round++) {
      const initial = [1000, 1, 1e-3, 5e6][round % 4];
      const fast = new EquityTracker(initial, 64);
      const full = new EquityTracker(initial, 64);
      full.fastPath = false;
      let netProfit = 0;
      let open: OpenTrade[] = [];
      let price = 100;
      for (let i = 0; i < 300; i++) {
        const r = rnd();
        if (r < 0.05) open = [];
        else if (r < 0.1)
          open = [
            ...open,
            scratch.openTrade("L", null, rnd() < 0.5 ? 1 : -1, rnd() * 3, price, rnd() < 0.3 ? rnd() : 0, 0, 0),
          ];
        else if (r < 0.14) netProfit += (rnd() - 0.55) * initial * 0.5;
        price = Math.max(0.01, price * (1 + (rnd() - 0.5) * 0.05));
        const na = rnd() < 0.02;
        const ctx = {
          close: price,
          low: na ? Number.NaN : price * (1 - rnd() * 0.02),
          high: price * (1 + rnd() * 0.02),
          time: Date.UTC(2024, 0, 1) + i * 3_600_000,
        } as BrokerHost;
        const broker = {
          ledger: { open, netProfit, pointValue: 1 },
          settings: { initialCapital: initial },
        } as unknown as Broker;
        const before = fast.maxDrawdownPercent + fast.maxRunupPercent;
        fast.bar(broker, ctx);
        full.bar(broker, ctx);
        if (fast.maxDrawdownPercent + fast.maxRunupPercent !== before) divided++;
        for (const k of [
          "peakEquity",
          "troughEquity",
          "maxDrawdown",
          "maxDrawdownPercent",
          "maxRunup",
          "maxRunupPercent",
        ] as const)
          expect(Object.is(fast[k], full[k])).toBe(true);
      }
      expect(fast.takeEquity()).toEqual(full.takeEquity());
    }
    expect(divided).toBeGreaterThan(500);
  });
});
