// The event log's runs column grown by the run's pace (EventLog.growRuns): a log that knows its run's
// bars (ctx.barCount) grows the column to what the numbers so far per bar ask for by the last bar, in
// a few steps instead of one doubling (and one copy) after another; the records are the same.
import { describe, expect, it, vi } from "vitest";
import { EventLog, EventStore, eventMeta, LogSite } from "../../src/strategy/events.js";

type Host = Parameters<EventLog["logSite"]>[0];

const N = 20_000;
const col = (f: (i: number) => number) => Float64Array.from({ length: N }, (_, i) => f(i));
const columns = {
  time: col((i) => 60_000 * (i + 1)),
  open: col((i) => 100 + (i % 50)),
  high: col((i) => 102 + (i % 50)),
  low: col((i) => 99 + (i % 50)),
  close: col((i) => 101 + (i % 50)),
  volume: col(() => 0),
};

/** A bracket per side re-placed on every bar (limit and stop moving: four run numbers a bar). */
function bracket(barCount: number | undefined): EventLog {
  const log = new EventLog();
  const sites = [new LogSite(), new LogSite()];
  const h = { barIndex: 0, barCount, time: 0, open: 0, high: 0, low: 0, close: 0, columns, ext: {} };
  for (let b = 0; b < N; b++) {
    h.barIndex = b;
    h.time = columns.time[b];
    h.open = columns.open[b];
    h.high = columns.high[b];
    h.low = columns.low[b];
    h.close = columns.close[b];
    for (let k = 0; k < 2; k++) {
      const s = sites[k];
      s.qty = Number.NaN;
      s.limit = h.close + 1 + k + b / 7;
      s.stop = h.close - 1 - k - b / 11;
      log.logSite(h as unknown as Host, s, eventMeta("exit", k === 0 ? "short" : "long"), `X${k}`, null, null);
    }
  }
  return log;
}

describe("the event log's runs column", () => {
  it("grows by the run's pace when the log knows its bars (a few steps, not one doubling after another); the records are the same", () => {
    const grows = vi.spyOn(EventStore.prototype, "growRuns");
    // (a fresh module's pool: both logs lease new stores of the first capacity)
    const a = bracket(N);
    const pacedGrowths = grows.mock.calls.length;
    grows.mockClear();
    const b = bracket(undefined);
    const doublings = grows.mock.calls.length;
    grows.mockRestore();
    expect(a.toArray()).toEqual(b.toArray());
    expect(a.toArray()).toHaveLength(2 * N);
    // ~4 * N numbers: doubling from the first capacity takes seven steps, the pace two
    expect(doublings).toBeGreaterThanOrEqual(4);
    expect(pacedGrowths).toBeLessThanOrEqual(2);
  });
});
