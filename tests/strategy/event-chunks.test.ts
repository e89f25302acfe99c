// Reused memory between runs (issue 18): event-log chunks and plot columns of collected runs serve
// the next runs. A run that reuses them must give exactly the events and plots of a first run, even
// when the earlier run wrote more events and other values into the same memory. The lean log itself:
// shared bar rows and string tuples give back every record as pushed, rollbacks included.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { Runtime } from "../../src/runtime/index.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { EventLog } from "../../src/strategy/events.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects garbage and lets the finalization callbacks run. */
async function collect(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10));
  }
}

const strategy = (every: number) => `//@version=6
strategy("s")
if bar_index % ${every} == 0
    strategy.entry("L", strategy.long, comment = "e" + str.tostring(bar_index))
strategy.exit("X", "L", stop = close * 0.99, comment = "x")
plot(strategy.position_size * ${every})
plot(close * ${every})
`;

describe("memory reused between runs", () => {
  it("events and plots are the same after chunks and columns of collected runs are reused", async () => {
    const bars = syntheticBars(3000);
    const first = JSON.stringify(await new Runtime().run(strategy(7), bars, { mode: "compile" }));
    for (const mode of ["interpret", "compile"] as const) {
      // a run with other events and values, dropped and collected, then the first script again
      let other: unknown = await new Runtime().run(strategy(3), bars, { mode });
      expect(JSON.stringify(other)).not.toBe(first);
      other = null;
      await collect();
      const again = JSON.parse(JSON.stringify(await new Runtime().run(strategy(7), bars, { mode })));
      const base = JSON.parse(first);
      // (run_id differs from run to run)
      const events = (r: { events: { run_id?: string }[] }) => r.events.map(({ run_id: _r, ...e }) => e);
      expect(events(again), `${mode} events`).toEqual(events(base));
      for (const k of ["series", "strategy"]) expect(again[k], `${mode} ${k}`).toEqual(base[k]);
    }
  }, 60_000);
});

describe("the lean event log", () => {
  type Host = Parameters<EventLog["push"]>[0];
  const host = (bar: number, close: number, runId = "r"): Host =>
    ({
      barIndex: bar,
      time: 1000 * bar,
      open: 1,
      high: 2,
      low: bar === 3 ? -0 : 0.5,
      close,
      ext: { scriptId: "s", runId },
    }) as unknown as Host;
  /** The same calls into a log: re-placed exits, a changing comment, bars with events and ticks. */
  function fill(log: EventLog, from: number, to: number, tickClose = NaN): void {
    for (let bar = from; bar < to; bar++) {
      const close = tickClose === tickClose ? tickClose : 10 + bar;
      log.push(host(bar, close), "exit", "X", "short", NaN, NaN, close - 1, null, null);
      log.push(host(bar, close), "entry", "L", "long", 1, NaN, NaN, "g", bar % 3 === 0 ? `c${bar}` : "c");
      log.push(host(bar, close, bar === 7 ? "other" : "r"), "exit", "X", "short", NaN, close + 1, NaN, null, null);
    }
  }
  it("builds every record as it was pushed (shared bar rows and strings, -0 kept)", () => {
    const log = new EventLog();
    fill(log, 0, 2100);
    const ev = log.toArray();
    expect(ev).toHaveLength(6300);
    expect(ev[3 * 5 + 1]).toEqual({
      kind: "entry",
      id: "L",
      direction: "long",
      qty: 1,
      order_type: "market",
      limit: null,
      stop: null,
      oca_name: "g",
      comment: "c",
      bar_index: 5,
      bar_time: 5000,
      ohlc: [1, 2, 0.5, 15],
      script_id: "s",
      run_id: "r",
    });
    expect(Object.is(ev[9].ohlc[2], -0)).toBe(true);
    expect(ev[3 * 7 + 2].run_id).toBe("other");
    expect(ev[3 * 6 + 1].comment).toBe("c6");
    expect(ev[3 * 2000 + 2]).toMatchObject({ kind: "exit", order_type: "limit", limit: 2011, bar_index: 2000 });
  });
  it("a rollback to a mark, then other events, reads like a log that never had the dropped ones", () => {
    const log = new EventLog();
    fill(log, 0, 1500);
    const mark = log.mark();
    fill(log, 1500, 1530, 99); // a tick's events, rolled back
    log.rollback(mark);
    fill(log, 1500, 1600);
    const fresh = new EventLog();
    fill(fresh, 0, 1600);
    expect(log.toArray()).toEqual(fresh.toArray());
  });
  it("orders re-placed with the same arguments on the next bars (repeats) read back as one record per call, reads and rollbacks between them included", () => {
    // a seeded sequence of calls, checked against the records built straight from the arguments
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const log = new EventLog();
    let expected: unknown[] = [];
    const stops = [NaN, 5, -0, 0, 5.5];
    let bar = 0;
    let close = 10;
    let reads = 0;
    for (let step = 0; step < 6000; step++) {
      const r = rnd(100);
      if (r < 55) {
        // next bar (sometimes the same bar again, sometimes a skipped bar)
        bar += rnd(10) === 0 ? 0 : rnd(10) === 0 ? 2 : 1;
        close = rnd(4) === 0 ? close : 10 + rnd(5);
      }
      const h = host(bar, close);
      const stop = stops[rnd(8) < 6 ? 1 : rnd(stops.length)];
      const kind = rnd(10) < 8 ? "exit" : "entry";
      const comment = rnd(20) === 0 ? "c" : null;
      log.push(h, kind, "X", "short", NaN, NaN, stop, null, comment);
      expected.push({
        kind,
        id: "X",
        direction: "short",
        qty: null,
        order_type: stop === stop ? "stop" : "market",
        limit: null,
        stop: stop === stop ? stop : null,
        oca_name: null,
        comment,
        bar_index: bar,
        bar_time: 1000 * bar,
        ohlc: [1, 2, bar === 3 ? -0 : 0.5, close],
        script_id: "s",
        run_id: "r",
      });
      if (rnd(50) === 0) {
        expect(log.toArray()).toEqual(expected);
        reads++;
      }
      if (rnd(40) === 0) {
        // a tick: events after a mark, maybe read, rolled back
        const mark = log.mark();
        const kept = expected.length;
        for (let k = rnd(4); k >= 0; k--)
          log.push(host(bar + (k & 1), 99), "exit", "X", "short", NaN, NaN, 5, null, null);
        if (rnd(2) === 0) log.toArray();
        log.rollback(mark);
        expected = expected.slice(0, kept);
      }
    }
    const ev = log.toArray();
    expect(reads).toBeGreaterThan(10);
    // many calls were repeats (the log's private slot count: the path under test was taken)
    expect((log as unknown as { slots: number }).slots).toBeLessThan(ev.length * 0.85);
    expect(ev).toHaveLength(expected.length);
    expect(ev).toEqual(expected);
    for (let i = 0; i < ev.length; i++)
      expect(Object.is(ev[i].stop, (expected[i] as { stop: unknown }).stop), `stop ${i}`).toBe(true);
  });
});
