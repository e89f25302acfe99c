// The event log's hot case (EventLog.logSite): a call site repeating its last call on the next input
// bar, only its moving numbers changed, is checked and counted in logSite itself, with its own test of
// the host's bar; everything else (a first repeat, a new slot or group, a bar written out, a fixed
// number that changed) takes the long way. Both must log exactly what push logs.
import { describe, expect, it, vi } from "vitest";
import { EventLog, eventMeta, LogSite } from "../../src/strategy/events.js";
import { inputBarHost, logLayout } from "./harness.js";

type Host = Parameters<EventLog["push"]>[0];
type Cols = Record<"time" | "open" | "high" | "low" | "close", Float64Array>;

describe("the event log's hot repeat", () => {
  it("random calls through sites log what push logs: bars with 0, -0 and infinities, part-way bars, fixed numbers turning -0 or NaN, brackets, loops, rollbacks", () => {
    let x = 2463534242;
    const rnd = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const n = 3000;
    // mostly ordinary prices, some bars holding 0, -0 or an infinity (the bar test's product is 0 or NaN)
    const price = (i: number) => {
      const r = rnd(40);
      return r === 0 ? 0 : r === 1 ? -0 : r === 2 ? Number.POSITIVE_INFINITY : 100 + (i % 50);
    };
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
    const columns: Cols = {
      time: col((i) => 60_000 * (i + 1)),
      open: col(price),
      high: col(price),
      low: col(price),
      close: col(price),
    };
    const odd = [0, -0, Number.NaN, 1, 2];
    for (const withPasses of [false, true]) {
      const viaSites = new EventLog();
      const viaPush = new EventLog();
      const src = { pass: 0 };
      if (withPasses) viaSites.passes = viaPush.passes = src;
      // sites: two exits (a bracket), an entry placed in a loop of 1-3 levels, a cancel
      const sites = Array.from({ length: 6 }, () => new LogSite());
      let levels = 1;
      let repeats = 0;
      for (let b = 0; b < n; b++) {
        // a part-way pass first now and then (a written-out bar), then the bar itself
        const passes = rnd(9) === 0 ? [true, false] : [false];
        if (rnd(200) === 0) levels = 1 + rnd(3);
        for (const partWay of passes) {
          src.pass++;
          const h = inputBarHost(columns, b);
          if (partWay) h.close = h.open + 0.25;
          const calls: [LogSite, number, string, number, number, number, string | null][] = [];
          // the exits' stop and limit move with the bar; now and then a fixed number changes
          const fixedQty = rnd(150) === 0 ? odd[rnd(odd.length)] : Number.NaN;
          calls.push([sites[0], eventMeta("exit", "short"), "SL", fixedQty, Number.NaN, 90 + (b % 7), null]);
          if (rnd(4) !== 0)
            calls.push([sites[1], eventMeta("exit", "short"), "TP", Number.NaN, 110 + (b % 5), Number.NaN, "tp"]);
          for (let k = 0; k < levels; k++)
            calls.push([sites[2], eventMeta("entry", "long"), `G${k}`, 1, 100 - k - (b % 3), Number.NaN, null]);
          if (rnd(50) === 0)
            calls.push([sites[3], eventMeta("cancel", null), "G0", Number.NaN, Number.NaN, Number.NaN, null]);
          const mark = rnd(100) === 0 ? [viaSites.mark(), viaPush.mark()] : null;
          for (const [site, meta, id, qty, limit, stop, comment] of calls) {
            const before = viaSites.count;
            site.qty = qty;
            site.limit = limit;
            site.stop = stop;
            viaSites.logSite(h as unknown as Host, site, meta, id, null, comment);
            const d = meta % 3;
            const kind = (["entry", "exit", "close", "close_all", "cancel", "cancel_all", "order"] as const)[
              (meta - d) / 3
            ];
            viaPush.push(
              h as unknown as Host,
              kind,
              id,
              d === 1 ? "long" : d === 2 ? "short" : null,
              qty,
              limit,
              stop,
              null,
              comment,
            );
            expect(viaSites.count).toBe(before + 1);
            repeats++;
          }
          if (mark !== null) {
            // a tick rolled back: both logs drop the pass's calls (and the sites' memories go stale)
            viaSites.rollback(mark[0]);
            viaPush.rollback(mark[1]);
          }
        }
      }
      expect(repeats).toBeGreaterThan(n * 2);
      const got = viaSites.toArray();
      const want = viaPush.toArray();
      expect(got.length).toBe(want.length);
      // every number under Object.is (toEqual alone does not tell -0 from 0)
      const flat = (v: unknown): unknown[] =>
        Array.isArray(v) ? v.flatMap(flat) : v && typeof v === "object" ? Object.values(v).flatMap(flat) : [v];
      const fa = flat(got);
      const fb = flat(want);
      expect(fa.length).toBe(fb.length);
      for (let i = 0; i < fa.length; i++) if (!Object.is(fa[i], fb[i])) expect.fail(`value ${i}: ${fa[i]} vs ${fb[i]}`);
      // stored alike: the repeats went to runs, not to new slots
      expect(logLayout(viaSites)).toEqual(logLayout(viaPush));
      expect(logLayout(viaSites)[2]).toBeGreaterThan(n);
    }
  });

  it("a site's repeat on the next input bar is counted in logSite, without barOf's general test (one bar test, with or without a pass memo)", () => {
    const n = 200;
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
    const columns: Cols = {
      time: col((i) => 60_000 * (i + 1)),
      open: col((i) => 100 + i),
      high: col((i) => 102 + i),
      low: col((i) => 99 + i),
      close: col((i) => 101 + i),
    };
    for (const withPasses of [false, true]) {
      const log = new EventLog();
      const src = { pass: 0 };
      if (withPasses) log.passes = src;
      const sl = new LogSite();
      const tp = new LogSite();
      const barOf = vi.spyOn(EventLog.prototype as unknown as { barOf: () => number }, "barOf");
      for (let b = 0; b < n; b++) {
        src.pass++;
        const h = inputBarHost(columns, b) as unknown as Host;
        sl.qty = tp.qty = Number.NaN;
        sl.limit = Number.NaN;
        sl.stop = 90 + b;
        tp.limit = 110 + b;
        tp.stop = Number.NaN;
        log.logSite(h, sl, eventMeta("exit", "short"), "SL", null, null);
        log.logSite(h, tp, eventMeta("exit", "short"), "TP", null, null);
      }
      // the first bar's two calls and the first repeat's two took the long way; none after
      expect(barOf.mock.calls.length).toBe(4);
      barOf.mockRestore();
      const ev = log.toArray();
      expect(ev).toHaveLength(2 * n);
      expect(ev[2 * 150]).toMatchObject({ id: "SL", stop: 240, bar_index: 150, ohlc: [250, 252, 249, 251] });
      expect(ev[2 * 150 + 1]).toMatchObject({ id: "TP", limit: 260, stop: null, bar_index: 150 });
      expect(logLayout(log)).toEqual([2, 1, 2 * (n - 1)]);
    }
  });

  describe("a number that moves every few bars becomes a run of its site's groups", () => {
    const n = 2000;
    const columns: Cols = {
      time: Float64Array.from({ length: n }, (_, i) => 60_000 * (i + 1)),
      open: Float64Array.from({ length: n }, (_, i) => 100 + (i % 13)),
      high: Float64Array.from({ length: n }, (_, i) => 103 + (i % 13)),
      low: Float64Array.from({ length: n }, (_, i) => 98 + (i % 13)),
      close: Float64Array.from({ length: n }, (_, i) => 101 + (i % 13)),
    };
    /** Two stop entries (a breakout's channel high and low) logged through sites and by push; `stepHigh(bar)` and `stepLow(bar)` say when each channel moves. */
    function breakout(stepHigh: (bar: number) => boolean, stepLow: (bar: number) => boolean) {
      const viaSites = new EventLog();
      const viaPush = new EventLog();
      const long = new LogSite();
      const short = new LogSite();
      let hi = 200;
      let lo = 50;
      const placed = vi.spyOn(EventLog.prototype as unknown as { placeSite: () => void }, "placeSite");
      for (let b = 0; b < n; b++) {
        if (stepHigh(b)) hi += 0.25;
        if (stepLow(b)) lo -= 0.25;
        const h = inputBarHost(columns, b) as unknown as Host;
        for (const [site, d, id, stop] of [
          [long, "long", "BL", hi],
          [short, "short", "BS", lo],
        ] as const) {
          site.qty = 1;
          site.limit = Number.NaN;
          site.stop = stop;
          viaSites.logSite(h, site, eventMeta("entry", d), id, "brk", null);
          viaPush.push(h, "entry", id, d, 1, Number.NaN, stop, "brk", null);
        }
      }
      const longWay = placed.mock.calls.length;
      placed.mockRestore();
      expect(viaSites.toArray()).toEqual(viaPush.toArray());
      return { sites: logLayout(viaSites), push: logLayout(viaPush), longWay };
    }

    it("channels stepping every 3 to 7 bars: after two steps a site keeps its stop as a run, the log's records the same", () => {
      const { sites, push, longWay } = breakout(
        (b) => b % 5 === 0 || b % 7 === 3,
        (b) => b % 3 === 1,
      );
      // push starts a group at almost every step; the sites at a few steps, before they learn
      expect(push[1]).toBeGreaterThan(n / 4);
      expect(sites[1]).toBeLessThanOrEqual(8);
      expect(sites[0]).toBeLessThanOrEqual(16);
      // both stops in the runs on (nearly) every row: 8 bytes a row each
      expect(sites[2]).toBeGreaterThan(2 * (n - 20));
      expect(longWay).toBeLessThanOrEqual(16);
    });

    it("a channel stepping every 40 bars stays fixed in its groups: stored as push stores it", () => {
      const { sites, push } = breakout(
        (b) => b % 40 === 0,
        (b) => b % 40 === 20,
      );
      expect(push[1]).toBeGreaterThan(n / 40);
      expect(sites).toEqual(push);
    });
  });
});
