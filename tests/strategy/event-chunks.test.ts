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
});
