// The event log's input-bar test once per broker pass (EventLog.passes): the calls of one script
// execution (a grid's entries and exits, a bracket's two exits) name the input bar the pass's first
// call found; a new pass (the next bar, a realtime tick, a fill recalculation) tests its bar again,
// so a bar seen part-way (written out) is never taken for the input's.
import { describe, expect, it } from "vitest";
import { EventLog, eventMeta, LogSite } from "../../src/strategy/events.js";
import { Broker } from "../../src/strategy/broker.js";

type Host = Parameters<EventLog["logSite"]>[0];

const N = 40;
const col = (f: (i: number) => number) => Float64Array.from({ length: N }, (_, i) => f(i));
const columns = {
  time: col((i) => 60_000 * (i + 1)),
  open: col((i) => 100 + i),
  high: col((i) => 102 + i),
  low: col((i) => 99 + i),
  close: col((i) => 101 + i),
  volume: col(() => 0),
};

/** A host whose time reads are counted (barOf reads the host's time once per input-bar test). */
function countingHost() {
  const h = {
    barIndex: 0,
    t: 0,
    timeReads: 0,
    get time() {
      h.timeReads++;
      return h.t;
    },
    open: 0,
    high: 0,
    low: 0,
    close: 0,
    columns,
    ext: { scriptId: "s", runId: "r" },
  };
  return h;
}

/** A grid's pass: `levels` entries and exits through their own sites (numbers moving with the bar). */
function grid(log: EventLog, h: Host, entries: LogSite[], exits: LogSite[], bar: number): void {
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    e.qty = 500 / (100 + bar);
    e.limit = 100 - i;
    e.stop = Number.NaN;
    log.logSite(h, e, eventMeta("entry", "long"), `G${i}`, null, `G${i}`);
    const x = exits[i];
    x.qty = Number.NaN;
    x.limit = 101 - i;
    x.stop = 90 + bar;
    log.logSite(h, x, eventMeta("exit", "short"), `TP${i}`, null, null);
  }
}

describe("the event log's input-bar test per broker pass", () => {
  it("tests the host's bar once a pass, and again on a new pass (a bar seen part-way is written out); the records are those of a log testing every call", () => {
    const levels = 8;
    const sites = () => Array.from({ length: levels }, () => new LogSite());
    const [ea, xa, eb, xb] = [sites(), sites(), sites(), sites()];
    const withPasses = new EventLog();
    const src = { pass: 0 };
    withPasses.passes = src;
    const plain = new EventLog();
    const ha = countingHost();
    const hb = countingHost();
    const setBar = (h: ReturnType<typeof countingHost>, b: number, partWay: boolean) => {
      h.barIndex = b;
      h.t = columns.time[b];
      h.open = columns.open[b];
      h.high = partWay ? columns.open[b] + 0.5 : columns.high[b];
      h.low = columns.low[b];
      h.close = partWay ? columns.open[b] + 0.25 : columns.close[b];
    };
    for (let b = 0; b < N; b++) {
      // every fifth bar first runs part-way (a fill recalculation's pass), then whole (a new pass)
      for (const partWay of b % 5 === 2 ? [true, false] : [false]) {
        src.pass++;
        setBar(ha, b, partWay);
        setBar(hb, b, partWay);
        const before = ha.timeReads;
        grid(withPasses, ha as unknown as Host, ea, xa, b);
        // one input-bar test a pass (a written-out bar's row reads the time once more)
        expect(ha.timeReads - before, `bar ${b}${partWay ? " part-way" : ""}`).toBe(partWay ? 2 * levels * 2 : 1);
        const plainBefore = hb.timeReads;
        grid(plain, hb as unknown as Host, eb, xb, b);
        expect(hb.timeReads - plainBefore).toBeGreaterThanOrEqual(2 * levels);
      }
    }
    const got = withPasses.toArray();
    expect(got).toEqual(plain.toArray());
    expect(got).toHaveLength((N + N / 5) * 2 * levels);
    // the part-way passes' events carry the bar as it was then, the whole bar's its own
    const partWay = got.find((e) => e.bar_index === 2 && e.ohlc[3] === columns.open[2] + 0.25);
    expect(partWay?.ohlc).toEqual([columns.open[2], columns.open[2] + 0.5, columns.low[2], columns.open[2] + 0.25]);
    expect(got[got.length - 1].ohlc).toEqual([
      columns.open[N - 1],
      columns.high[N - 1],
      columns.low[N - 1],
      columns.close[N - 1],
    ]);
  });

  it("the broker hands its pass counter to its log, and a sealed log lets go of it (a kept result keeps no broker)", () => {
    const host = {
      version: 6,
      barIndex: 0,
      barCount: 1,
      time: 0,
      timeClose: Number.NaN,
      open: 1,
      high: 1,
      low: 1,
      close: 1,
      syminfo: { mintick: 0.01, pointvalue: 1, timezone: "UTC", currency: "USD", type: "crypto" },
      ext: {},
      log() {},
      runtimeError(m: string): never {
        throw new Error(m);
      },
    } as unknown as ConstructorParameters<typeof Broker>[1];
    const broker = new Broker({}, host);
    expect(broker.eventLog.passes).toBe(broker);
    broker.eventLog.seal();
    expect(broker.eventLog.passes).toBeNull();
  });
});
