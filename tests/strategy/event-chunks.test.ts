// Reused memory between runs (issue 18): the event store of a finished run and the plot columns of
// collected runs serve the next runs. A run that reuses them must give exactly the events and plots
// of a first run, even when the earlier run wrote more events and other values into the same memory,
// and the earlier run's result must still read its own events. The lean log itself: shared bar rows
// and string tuples give back every record as pushed, rollbacks included.
import { describe, expect, it, vi } from "vitest";
import { collect, gc } from "../helpers/gc.js";
import { Runtime, setCompileBackend, type CompiledRun } from "../../src/runtime/index.js";
import { compileBackend } from "../../src/runtime/backend.js";
import { Broker } from "../../src/strategy/broker.js";
import { syntheticBars } from "../../src/runtime/synthetic.js";
import { EventLog, EventStore, eventMeta, LogSite } from "../../src/strategy/events.js";
import { inputBarHost, logLayout } from "./harness.js";

/**
 * A log written through LogSites reads as the one written by push, and stores it alike: the same
 * events, slots, groups and runs (at least `minRuns`: the repeats went to runs, not to new slots).
 * `learned`: a site learned to keep a number that moves every few bars as a run (LogSite.volatile),
 * which push cannot: fewer slots and groups than push's, more runs.
 */
function expectSameLog(viaSites: EventLog, viaPush: EventLog, minRuns: number, learned = false): void {
  expect(viaSites.toArray()).toEqual(viaPush.toArray());
  const sites = logLayout(viaSites);
  const push = logLayout(viaPush);
  if (learned) {
    expect(sites[0]).toBeLessThan(push[0]);
    expect(sites[1]).toBeLessThan(push[1]);
    expect(sites[2]).toBeGreaterThan(push[2]);
  } else expect(sites).toEqual(push);
  expect(sites[2]).toBeGreaterThan(minRuns);
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

describe("the event store reused across runs", () => {
  const script = (every: number, stop: string) => `//@version=6
strategy("s")
if bar_index % ${every} == 0
    strategy.entry("L", strategy.long, comment = "e" + str.tostring(bar_index % 4))
if bar_index % ${every} == 2
    strategy.close("L")
strategy.exit("X", "L", stop = ${stop})
`;
  const strip = (r: { events: { run_id?: string }[] }) => r.events.map(({ run_id: _r, ...e }) => e);
  /** Every number of two event lists the same under Object.is (toEqual alone does not tell -0 from 0). */
  function sameBits(a: unknown[], b: unknown[]): void {
    expect(a).toEqual(b);
    const flat = (x: unknown): unknown[] =>
      Array.isArray(x) ? x.flatMap(flat) : x && typeof x === "object" ? Object.values(x).flatMap(flat) : [x];
    const fa = flat(a);
    const fb = flat(b);
    expect(fa.length).toBe(fb.length);
    for (let i = 0; i < fa.length; i++) if (!Object.is(fa[i], fb[i])) expect.fail(`value ${i}: ${fa[i]} vs ${fb[i]}`);
  }

  it("a result read after later runs of the same Runtime still has its own events, and theirs have none of it", async () => {
    const bars = syntheticBars(2500);
    // reference events, each from a Runtime of its own, read at once
    const ref = async (src: string, mode: "interpret" | "compile") =>
      strip(await new Runtime().run(src, bars, { mode }));
    const long = script(5, "close * 0.99");
    const short = script(9, "close - 1");
    const want = { long: await ref(long, "compile"), short: await ref(short, "compile") };
    expect(want.long.length).toBeGreaterThan(2500);
    expect(want.short.length).toBeGreaterThan(2500);
    for (const mode of ["interpret", "compile"] as const) {
      const rt = new Runtime();
      // several runs, none read until all are done: each later run takes over an earlier run's store
      const results = [];
      for (const src of [long, short, short, long, short]) results.push(await rt.run(src, bars, { mode }));
      for (const [i, r] of results.entries()) sameBits(strip(r), i === 0 || i === 3 ? want.long : want.short);
      // a result read before the next run (its records built: its store goes on without a copy)
      const a = await rt.run(short, bars, { mode });
      sameBits(strip(a), want.short);
      const b = await rt.run(long, bars, { mode });
      sameBits(strip(b), want.long);
      sameBits(strip(a), want.short);
    }
    // interpret and compile give the same events bit for bit through reused stores
    sameBits(await ref(short, "interpret"), want.short);
  }, 180_000);

  it("rows name the input's bars: a run's events read them from the input columns, and writing into those before reading the events is a clear error, not wrong records", async () => {
    const rows = syntheticBars(800);
    const columns = {
      time: Float64Array.from(rows, (b) => b.time),
      open: Float64Array.from(rows, (b) => b.open),
      high: Float64Array.from(rows, (b) => b.high),
      low: Float64Array.from(rows, (b) => b.low),
      close: Float64Array.from(rows, (b) => b.close),
      volume: Float64Array.from(rows, (b) => b.volume ?? 0),
    };
    const src = script(5, "close * 0.99");
    for (const mode of ["interpret", "compile"] as const) {
      const want = strip(await new Runtime().run(src, rows, { mode }));
      // read at once: the same records as from bar rows; later writes into the input change nothing
      const read = await new Runtime().run(src, columns, { mode });
      sameBits(strip(read), want);
      const unread = await new Runtime().run(src, columns, { mode });
      const kept = columns.high[400];
      columns.high[400] = kept + 1;
      expect(strip(read)[0]).toEqual(want[0]);
      expect(() => unread.events).toThrow(/input bars were modified after the run/);
      columns.high[400] = kept;
      sameBits(strip(unread), want);
      // one caller's Float64Array among plain arrays: its writes are still seen
      const mixed = { ...columns, open: Array.from(columns.open), close: Array.from(columns.close) };
      const unreadMixed = await new Runtime().run(src, mixed, { mode });
      const low = columns.low[400]!;
      columns.low[400] = low - 1;
      expect(() => unreadMixed.events).toThrow(/input bars were modified after the run/);
      columns.low[400] = low;
      sameBits(strip(unreadMixed), want);
      // columns the Runtime made itself (rows, plain arrays) are nobody else's: no checksum, the same records
      const arrays = {
        time: Array.from(columns.time),
        open: Array.from(columns.open),
        high: Array.from(columns.high),
        low: Array.from(columns.low),
        close: Array.from(columns.close),
      };
      const fromRows = await new Runtime().run(src, rows, { mode });
      const fromArrays = await new Runtime().run(src, arrays, { mode });
      rows[400]!.high += 1;
      arrays.high[400]! += 1;
      sameBits(strip(fromRows), want);
      sameBits(strip(fromArrays), want);
      rows[400]!.high -= 1;
    }
  }, 60_000);

  it("the check covers exactly the bars the records read: a write into any of them is the error, a write into a bar no record reads is not", async () => {
    const rows = syntheticBars(600);
    const col = (k: "time" | "open" | "high" | "low" | "close") => Float64Array.from(rows, (b) => b[k] as number);
    const columns = { time: col("time"), open: col("open"), high: col("high"), low: col("low"), close: col("close") };
    // orders on a few bars only, and runs of calls: an exit re-placed while the trade is open
    const src = `//@version=6
strategy("sparse")
if bar_index % 50 == 3
    strategy.entry("L", strategy.long)
if bar_index % 50 == 9
    strategy.close("L", comment = "out")
if strategy.position_size > 0
    strategy.exit("X", "L", stop = low - 5)
`;
    for (const mode of ["interpret", "compile"] as const) {
      const want = strip(await new Runtime().run(src, rows, { mode }));
      const read = new Set(want.map((e) => (e as { bar_index: number }).bar_index));
      expect(read.size).toBeGreaterThan(20);
      expect(read.size).toBeLessThan(300);
      let thrown = 0;
      for (let b = 0; b < rows.length; b++) {
        const r = await new Runtime().run(src, columns, { mode });
        for (const k of ["time", "open", "high", "low", "close"] as const) {
          if (b % 7 !== ["time", "open", "high", "low", "close"].indexOf(k)) continue;
          const kept = columns[k][b]!;
          columns[k][b] = kept + 1;
          if (read.has(b)) {
            expect(() => r.events, `${mode} bar ${b} ${k}`).toThrow(/input bars were modified after the run/);
            thrown++;
          } else sameBits(strip(r), want);
          columns[k][b] = kept;
        }
        if (b > 120) b += 3;
      }
      expect(thrown).toBeGreaterThan(5);
    }
  }, 120_000);

  it("runs awaited back to back in one job (no task in between) keep event memory bounded, and their results read their own events", async () => {
    // a log's holder was a WeakRef's target, which stays alive until the job ends: every run's
    // log and the copy it kept piled up until the loop yielded
    const bars = syntheticBars(20_000);
    const src = script(4, "close * 0.98");
    for (const mode of ["interpret", "compile"] as const) {
      const rt = new Runtime();
      const want = strip(await rt.run(src, bars, { mode }));
      const bytes: number[] = [];
      for (let i = 0; i < 14; i++) {
        await rt.run(src, bars, { mode });
        gc();
        bytes.push(process.memoryUsage().arrayBuffers);
      }
      // (a run's events take ~2.4 MB here: the 8 runs after the 6th grew it by ~19 MB; now it
      // moves between two levels ~2.5 MB apart, as the pool's stores change hands)
      expect(bytes[13]! - bytes[5]!, `${mode}: ${bytes.map((b) => (b / 1e6).toFixed(1)).join(" ")} MB`).toBeLessThan(
        6e6,
      );
      const last = await rt.run(src, bars, { mode });
      await rt.run(src, bars, { mode });
      sameBits(strip(last), want);
    }
  }, 120_000);

  it("runs whose compiled code failed or whose broker's finish threw give their stores back: later runs still reuse the pool and memory stays bounded", async () => {
    // such a run's log was dropped unsealed: it held its pool place (and its input columns) for the
    // life of the process, and after two of them the pool lent nothing
    const bars = syntheticBars(4000);
    const src = script(4, "close * 0.98");
    const want = strip(await new Runtime().run(src, bars, { mode: "interpret" }));
    /** The pool lends a sealed log's store to the next logs (the check of the test below). */
    const poolLends = (): boolean => {
      const host = { barIndex: 0, time: 0, open: 1, high: 2, low: 0, close: 1, ext: { scriptId: "s", runId: "r" } };
      const push = (log: EventLog) =>
        log.push(host as unknown as Parameters<EventLog["push"]>[0], "cancel", "L", null, NaN, NaN, NaN, null, null);
      const first = new EventLog();
      push(first);
      first.seal();
      const store = first.store;
      const second = new EventLog();
      const third = new EventLog();
      push(second);
      push(third);
      second.seal();
      third.seal();
      return second.store === store || third.store === store;
    };
    expect(poolLends(), "before").toBe(true);
    const real = compileBackend()!;
    try {
      // compiled code that fails after its loop logged every bar's events: the interpreter runs it again
      setCompileBackend((...args) => {
        const run = real(...args);
        const failing = Object.create(run) as CompiledRun;
        failing.loop = (from, to, broker) => {
          run.loop(from, to, broker);
          throw new TypeError("boom");
        };
        return failing;
      });
      for (let i = 0; i < 3; i++) {
        const r = await new Runtime().run(src, bars, { mode: "compile" });
        expect(r.compile_fallback_reason).toMatch(/compiled code failed: boom/);
        sameBits(strip(r), want);
      }
    } finally {
      setCompileBackend(real);
    }
    expect(poolLends(), "after runs that fell back").toBe(true);
    const finish = vi.spyOn(Broker.prototype, "finish").mockImplementation(() => {
      throw new Error("finish failed");
    });
    try {
      for (const mode of ["interpret", "compile", "interpret"] as const) {
        const r = await new Runtime().run(src, bars, { mode });
        expect([r.error, r.error_kind]).toEqual(["finish failed", "order"]);
      }
    } finally {
      finish.mockRestore();
    }
    expect(poolLends(), "after runs whose finish threw").toBe(true);
    // then runs back to back: memory stays level and each result reads its own events
    const rt = new Runtime();
    const bytes: number[] = [];
    for (let i = 0; i < 10; i++) {
      await rt.run(src, bars, { mode: "compile" });
      gc();
      bytes.push(process.memoryUsage().arrayBuffers);
    }
    expect(bytes[9]! - bytes[3]!, bytes.map((b) => (b / 1e6).toFixed(1)).join(" ")).toBeLessThan(3e6);
    sameBits(strip(await rt.run(src, bars, { mode: "compile" })), want);
  }, 120_000);

  it("a sealed log's store serves the next log; the sealed one keeps what it had (EventStore.keep)", () => {
    type Host = Parameters<EventLog["push"]>[0];
    const host = (bar: number, close: number): Host =>
      ({
        barIndex: bar,
        time: bar,
        open: 1,
        high: 2,
        low: 0,
        close,
        ext: { scriptId: "s", runId: "r" },
      }) as unknown as Host;
    const first = new EventLog();
    for (let bar = 0; bar < 3000; bar++)
      first.push(host(bar, bar), "exit", "X", "short", NaN, NaN, bar - 1, null, null);
    first.seal();
    const store = first.store;
    // grown past its first capacity by doubling
    expect(store.slotCapacity).toBeGreaterThanOrEqual(3000);
    const second = new EventLog();
    second.push(host(0, 7), "entry", "L", "long", 1, NaN, NaN, null, null);
    // the pool handed the first log's store over (the other pool place may be taken by other tests'
    // logs; push until it is this store or a third log shows the pool never gives it)
    const third = new EventLog();
    third.push(host(0, 8), "entry", "L", "long", 1, NaN, NaN, null, null);
    expect([second.store, third.store]).toContain(store);
    expect(first.store).not.toBe(store);
    const ev = first.toArray();
    expect(ev).toHaveLength(3000);
    expect(ev[2999]).toMatchObject({ kind: "exit", stop: 2998, bar_index: 2999, ohlc: [1, 2, 0, 2999] });
    expect(second.toArray()).toEqual([expect.objectContaining({ kind: "entry", ohlc: [1, 2, 0, 7] })]);
    expect(third.toArray()).toHaveLength(1);
    // logs read in full give their stores up without a copy and still read the same
    second.seal();
    third.seal();
    const fourth = new EventLog();
    const fifth = new EventLog();
    fourth.push(host(1, 9), "cancel", "L", null, NaN, NaN, NaN, null, null);
    fifth.push(host(1, 9), "cancel", "L", null, NaN, NaN, NaN, null, null);
    expect([fourth.store, fifth.store]).toContain(store);
    expect(second.toArray()).toEqual([expect.objectContaining({ kind: "entry", ohlc: [1, 2, 0, 7] })]);
    expect(third.toArray()).toEqual([expect.objectContaining({ kind: "entry", ohlc: [1, 2, 0, 8] })]);
    expect(fourth.toArray()).toEqual([expect.objectContaining({ kind: "cancel", bar_index: 1 })]);
  });

  /** Fills the first `n` entries of every column of `s` with values of their index (see holds). */
  function fill(s: EventStore, n: number): void {
    for (let i = 0; i < n; i++) {
      if (i >= s.slotCapacity) s.growSlots(i);
      s.nums[3 * i + 2] = i / 3;
      s.slotTuple[i] = 100 - i;
      s.runOff[i] = i * 2;
      s.meta[i] = i % 21;
      if (i >= s.groupCapacity) s.growGroups(i);
      s.gFirst[i] = i;
      s.gBar[i] = i - 20;
      s.gRows[i] = i + 1;
      s.gPart[i] = i % 3;
      s.gRunBase[i] = 2 * i;
      s.gRunWidth[i] = i % 2;
      if (i >= s.xrowCapacity) s.growXrows(i);
      s.xrows[6 * i + 5] = 100 - i;
      if (i >= s.runCapacity) s.growRuns(i);
      s.runs[i] = i / 7;
    }
  }
  /** Whether the first `slots` / `groups` / `runs` / `xrows` entries of `x` hold what fill wrote. */
  function holds(x: EventStore, slots: number, groups: number, runs: number, xrows: number): void {
    for (let i = 0; i < slots; i++)
      expect([x.nums[3 * i + 2], x.slotTuple[i], x.runOff[i], x.meta[i]]).toEqual([i / 3, 100 - i, i * 2, i % 21]);
    for (let i = 0; i < groups; i++)
      expect([x.gFirst[i], x.gBar[i], x.gRows[i], x.gPart[i], x.gRunBase[i], x.gRunWidth[i]]).toEqual([
        i,
        i - 20,
        i + 1,
        i % 3,
        2 * i,
        i % 2,
      ]);
    for (let i = 0; i < xrows; i++) expect(x.xrows[6 * i + 5]).toBe(100 - i);
    for (let i = 0; i < runs; i++) expect(x.runs[i]).toBe(i / 7);
  }

  it("a store grows by doubling and keeps what it holds; what a sealed log keeps of it holds the same", () => {
    const s = new EventStore(2, 2, 2, 2);
    fill(s, 40);
    expect(s.slotCapacity).toBe(64);
    expect(s.groupCapacity).toBe(64);
    expect(s.xrowCapacity).toBe(64);
    holds(s, 40, 40, 40, 40);
    const c = s.keep(40, 40, 40, 40);
    holds(c, 40, 40, 40, 40);
    // written-out rows are copied exactly; the store keeps its own
    expect(c.xrowCapacity).toBe(40);
    expect(c.xrows.length).toBe(240);
    holds(s, 0, 0, 0, 40);
  });

  it("a sealed log keeps the store's nearly full columns as they are (the store takes fresh ones, sized for as many again), and an exact copy of the others", () => {
    const s = new EventStore(4096, 4096, 4096, 64);
    fill(s, 4000);
    const [nums, meta, gFirst, runs] = [s.nums, s.meta, s.gFirst, s.runs];
    // 4000 slots of 4096: handed over; 1000 groups of 4096: copied, the store keeps its columns;
    // 3000 runs of 4096: copied, and the store's column made fresh (more than half was used)
    const c = s.keep(4000, 1000, 3000, 10);
    holds(c, 4000, 1000, 3000, 10);
    expect(c.nums).toBe(nums);
    expect(c.meta).toBe(meta);
    expect(c.slotCapacity).toBe(4096);
    expect(s.nums).not.toBe(nums);
    expect(s.slotCapacity).toBeGreaterThanOrEqual(4000);
    expect(s.slotCapacity).toBeLessThan(4250);
    expect(s.nums.length).toBe(3 * s.slotCapacity);
    expect(s.meta[0]).toBe(0);
    expect(c.gFirst).not.toBe(gFirst);
    expect([c.groupCapacity, c.gFirst.length]).toEqual([1000, 1000]);
    expect(s.gFirst).toBe(gFirst);
    expect([c.runCapacity, c.runs.length]).toEqual([3000, 3000]);
    expect(s.runs).not.toBe(runs);
    expect(s.runCapacity).toBeGreaterThanOrEqual(3003);
    expect(s.runCapacity).toBeLessThan(3200);
    // a next run of these counts finds the store's slots and runs nearly full: handed over, no copy
    const [nums2, runs2] = [s.nums, s.runs];
    const d = s.keep(4000, 1000, 3000, 10);
    expect(d.nums).toBe(nums2);
    expect(d.runs).toBe(runs2);
    expect(s.gFirst).toBe(gFirst);
  });
});

describe("the lean event log", () => {
  type Host = Parameters<EventLog["push"]>[0];
  type Args = Parameters<EventLog["push"]>;
  /** Call sites' memories of their logged calls (logSite), by call, and one every call shares. */
  const sites = new Map<string, LogSite>();
  const sharedSite = new LogSite();
  /**
   * A call logged (by `how`) through push (0); staged, with its numbers written into log.call and
   * logCall (1); or through logSite with its numbers in a LogSite, as the broker's calls are: its
   * call's own site (2, as a call site's request keeps one) or one shared by every call (3, as a
   * request without one shares the broker's). The random sequences below take all four, and their
   * records must be the calls'.
   */
  const logVia = (how: number, log: EventLog, ...[h, kind, id, d, qty, limit, stop, oca, comment]: Args) => {
    if (how === 0) return log.push(h, kind, id, d, qty, limit, stop, oca, comment);
    if (how === 1) {
      log.call[0] = qty;
      log.call[1] = limit;
      log.call[2] = stop;
      return log.logCall(h, eventMeta(kind, d), id, oca, comment);
    }
    let site = how === 3 ? sharedSite : sites.get(`${kind} ${id}`);
    if (site === undefined) sites.set(`${kind} ${id}`, (site = new LogSite()));
    site.qty = qty;
    site.limit = limit;
    site.stop = stop;
    log.logSite(h, site, eventMeta(kind, d), id, oca, comment);
  };
  const hostOf = (bar: number, close: number, runId = "r"): Host =>
    ({
      barIndex: bar,
      time: 1000 * bar,
      open: 1,
      high: 2,
      low: bar === 3 ? -0 : 0.5,
      close,
      ext: { scriptId: "s", runId },
    }) as unknown as Host;
  const host = hostOf;
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
    // script_id and run_id are the run's, read at its first event (the Runtime sets them once, before
    // the bars): a host whose ext says otherwise later does not change them
    expect(ev[3 * 7 + 2].run_id).toBe("r");
    expect(ev[3 * 6 + 1].comment).toBe("c6");
    expect(ev[3 * 2000 + 2]).toMatchObject({ kind: "exit", order_type: "limit", limit: 2011, bar_index: 2000 });
  });
  it("an event is on the input's bar only when the host's bar is that bar under Object.is (index, time, prices; -0, 0 and NaN included), else on a written-out row; rollbacks between", () => {
    // random hosts: the same index often, with prices from a small set where 0, -0 and NaN occur,
    // against input columns holding some of them: every record must carry its own host's bar
    // (barOf compares with ===, and with Object.is only when a product of the numbers is 0 or NaN)
    let x = 88172645;
    const rnd = (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
    const values = [1, 2, 0, -0, Number.NaN, 3.5, Number.POSITIVE_INFINITY];
    const n = 400;
    // (no NaN in input columns: normalizeBars lets none in)
    const inColumns = values.filter((v) => v === v);
    const col = () => Float64Array.from({ length: n }, () => inColumns[rnd(inColumns.length)]);
    const columns = { time: col(), open: col(), high: col(), low: col(), close: col(), volume: col() };
    const log = new EventLog();
    let expected: unknown[] = [];
    let bar = 0;
    let host = inputBarHost(columns, 0);
    let onInput = 0;
    for (let step = 0; step < 6000; step++) {
      const r = rnd(10);
      if (r < 3) bar = Math.min(n - 1, bar + 1);
      if (r < 6) {
        // a new host bar: the input's as it is, or the input's with one number changed
        host = inputBarHost(columns, bar);
        if (rnd(3) === 0) {
          const k = (["time", "open", "high", "low", "close"] as const)[rnd(5)];
          host[k] = values[rnd(values.length)];
        } else onInput++;
      }
      const stop = rnd(4);
      log.push(host as unknown as Host, "exit", "X", "short", Number.NaN, Number.NaN, stop, null, null);
      expected.push([host.barIndex, host.time, host.open, host.high, host.low, host.close, stop]);
      if (rnd(60) === 0) {
        const mark = log.mark();
        const kept = expected.length;
        const tick = { ...host, close: 99 };
        log.push(tick as unknown as Host, "exit", "X", "short", Number.NaN, Number.NaN, 1, null, null);
        log.rollback(mark);
        expected = expected.slice(0, kept);
        if (rnd(2) === 0) {
          // the dropped tick's bar again (its written-out row was dropped with it)
          log.push(tick as unknown as Host, "exit", "X", "short", Number.NaN, Number.NaN, 2, null, null);
          expected.push([tick.barIndex, tick.time, tick.open, tick.high, tick.low, tick.close, 2]);
        }
      }
    }
    expect(onInput).toBeGreaterThan(1000);
    const ev = log.toArray();
    expect(ev).toHaveLength(expected.length);
    for (let i = 0; i < ev.length; i++) {
      const e = ev[i];
      const got = [e.bar_index, e.bar_time, ...e.ohlc, e.stop];
      const want = expected[i] as number[];
      for (let j = 0; j < want.length; j++)
        if (!Object.is(got[j], want[j])) expect.fail(`event ${i} value ${j}: ${got[j]} vs ${want[j]}`);
    }
  });
  it("the input columns' checksum sees one changed bit and two bars trading values, in every column, at the ends of the logged bars too", () => {
    const n = 203;
    const columns = {
      time: Float64Array.from({ length: n }, (_, i) => 1000 * i),
      open: Float64Array.from({ length: n }, (_, i) => 10 + i / 7),
      high: Float64Array.from({ length: n }, (_, i) => 11 + i / 7),
      low: Float64Array.from({ length: n }, (_, i) => 9 + i / 7),
      close: Float64Array.from({ length: n }, (_, i) => 10.5 + i / 3),
      volume: new Float64Array(n),
    };
    // events on bars 3..201 (an odd count of bars: the checksum's last pair of words)
    const log = new EventLog();
    for (let b = 3; b <= 201; b++) {
      const h = inputBarHost(columns, b);
      log.push(h as unknown as Host, "exit", "X", "short", Number.NaN, Number.NaN, b, null, null);
    }
    log.seal();
    const words = (c: Float64Array) => new Uint32Array(c.buffer);
    for (const k of ["time", "open", "high", "low", "close"] as const) {
      const c = columns[k];
      for (const b of [3, 4, 100, 200, 201]) {
        for (const word of [0, 1]) {
          const w = words(c);
          w[2 * b + word] ^= 1;
          expect(() => log.toArray(), `${k} bar ${b} word ${word}`).toThrow(/input bars were modified/);
          w[2 * b + word] ^= 1;
        }
        const t = c[b];
        c[b] = c[b - 1];
        c[b - 1] = t;
        if (b > 3) expect(() => log.toArray(), `${k} bars ${b - 1}, ${b} swapped`).toThrow(/input bars were modified/);
        c[b - 1] = c[b];
        c[b] = t;
      }
    }
    // outside the logged bars nothing is read: no error
    columns.close[0] += 1;
    columns.close[202] += 1;
    const ev = log.toArray();
    expect(ev).toHaveLength(199);
    expect(ev[198]).toMatchObject({ bar_index: 201, bar_time: 201000, stop: 201 });
  });
  it("calls through call sites' memories (logSite) store what push stores, the sites' short path taken; two sites making the same call by turns included", () => {
    const a = new LogSite();
    const b = new LogSite();
    const c = new LogSite();
    const viaSites = new EventLog();
    const viaPush = new EventLog();
    const placed = vi.spyOn(EventLog.prototype as unknown as { placeSite: () => void }, "placeSite");
    let calls = 0;
    const call = (site: LogSite, bar: number, id: string, d: "long" | "short", limit: number, stop: number) => {
      const close = 10 + (bar % 7);
      site.qty = NaN;
      site.limit = limit;
      site.stop = stop;
      viaSites.logSite(host(bar, close), site, eventMeta("exit", d), id, null, null);
      viaPush.push(host(bar, close), "exit", id, d, NaN, limit, stop, null, null);
      calls++;
    };
    // two sites taking turns with one exit (an if / else placing it on both branches): `a` writes the
    // slot, `b`'s call is its first repeat, where the stop starts to move; `a`'s memory from before
    // that repeat must not pass for the slot's (its stop is the slot's again on bar 2)
    call(a, 0, "X", "short", NaN, 5);
    call(b, 1, "X", "short", NaN, 6);
    call(a, 2, "X", "short", NaN, 5);
    call(a, 3, "X", "short", NaN, 7);
    // then an exit and a second one on most bars, now and then through the other site or a shared one
    for (let bar = 4; bar < 400; bar++) {
      // a bar in 50 without the calls (new groups after it), the stop moving on most bars
      if (bar % 50 === 49) continue;
      const stop = bar % 9 === 0 ? 5 : 9 + (bar % 7);
      call(bar % 10 === 0 ? b : a, bar, "X", "short", NaN, stop);
      call(bar % 11 === 0 ? a : c, bar, "Y", "long", bar % 13 === 0 ? 4 : NaN, stop);
    }
    // (most calls took the short path: placeSite is the other one)
    expect(placed.mock.calls.length).toBeLessThan(calls * 0.5);
    placed.mockRestore();
    // (Y's limit, 4 on every 13th bar, ends its groups until its site keeps it as a run)
    expectSameLog(viaSites, viaPush, 200, true);
  });
  it("sites called in a loop (a grid's entry and exit per level) store what push stores and take the short path per place in the row", () => {
    const entry = new LogSite();
    const exit = new LogSite();
    const viaSites = new EventLog();
    const viaPush = new EventLog();
    const placed = vi.spyOn(EventLog.prototype as unknown as { placeSite: () => void }, "placeSite");
    let calls = 0;
    let x = 99;
    const rnd = (n: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    let anchor = 100;
    for (let bar = 0; bar < 600; bar++) {
      // the anchor moves now and then (new groups), the level count changes (rows stop part way or
      // grow), a level's exit is skipped now and then, and one exit's stop moves on every bar (a run)
      if (rnd(40) === 0) anchor = 90 + rnd(20);
      const levels = bar % 97 < 90 ? 8 : 5 + rnd(4);
      const h = host(bar, 10 + (bar % 7));
      for (let i = 1; i <= levels; i++) {
        const lvl = anchor * (1 - 0.01 * i);
        // ids built in the loop: fresh strings every bar
        const id = `G${String(i)}`;
        entry.qty = 5;
        entry.limit = lvl;
        entry.stop = NaN;
        viaSites.logSite(h, entry, eventMeta("entry", "long"), id, null, id);
        viaPush.push(h, "entry", id, "long", 5, lvl, NaN, null, id);
        calls++;
        if (i === 3 && rnd(25) === 0) continue;
        const stop = i === 2 ? 50 + bar : NaN;
        exit.qty = NaN;
        exit.limit = lvl * 1.01;
        exit.stop = stop;
        viaSites.logSite(h, exit, eventMeta("exit", "short"), `TP${String(i)}`, null, null);
        viaPush.push(h, "exit", `TP${String(i)}`, "short", NaN, lvl * 1.01, stop, null, null);
        calls++;
      }
    }
    // (most calls took the short path: each site's memory for its place in the row)
    expect(placed.mock.calls.length).toBeLessThan(calls * 0.3);
    placed.mockRestore();
    expectSameLog(viaSites, viaPush, 300);
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
  // two seeded call sequences: the original LCG, whose low bits rarely move only the stop, and a
  // xorshift one that often does (runs of stops)
  const lcg = () => {
    let seed = 7;
    return (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
  };
  const xorshift = () => {
    let x = 2463534242;
    return (n: number) => {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      return (x >>> 0) % n;
    };
  };
  /**
   * Input columns for the hosts below: bars whose close is 10 + bar % 5 are the input's (their rows
   * name the bar), the others (and bar 3, whose low is -0 on the host, 0 in the column) are written out.
   */
  const inputColumns = (n: number) => {
    const col = (f: (i: number) => number) => Float64Array.from({ length: n }, (_, i) => f(i));
    return {
      time: col((i) => 1000 * i),
      open: col(() => 1),
      high: col(() => 2),
      low: col((i) => (i === 3 ? 0 : 0.5)),
      close: col((i) => 10 + (i % 5)),
      volume: col(() => 0),
    };
  };
  it.each([
    ["lcg", lcg, 0, false],
    ["xorshift", xorshift, 100, false],
    ["lcg, input columns", lcg, 0, true],
    ["xorshift, input columns", xorshift, 100, true],
  ] as const)(
    "orders re-placed with the same arguments, or only the stop moved, on the next bars (repeats) read back as one record per call, reads and rollbacks between them included (%s)",
    (_name, gen, minStops, withColumns) => {
      // a seeded sequence of calls, checked against the records built straight from the arguments
      const rnd = gen();
      const columns = withColumns ? inputColumns(5000) : undefined;
      const host = (bar: number, close: number): Host => ({ ...hostOf(bar, close), columns }) as unknown as Host;
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
        logVia(rnd(8) < 6 ? 2 : rnd(3), log, h, kind, "X", "short", NaN, NaN, stop, null, comment);
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
      if (withColumns) {
        // both kinds of bars were taken: slots on input bars and on written-out rows
        const inner = log as unknown as { groups: number; xrowCount: number };
        expect(inner.xrowCount).toBeGreaterThan(20);
        const onInput = log.store.gBar.subarray(0, inner.groups).filter((b) => b >= 0).length;
        expect(onInput).toBeGreaterThan(20);
      }
      // many calls were repeats (the log's private slot count: the path under test was taken)
      // (with input columns a repeat needs the next input bar: skipped bars and bars written out,
      // which most of this sequence's are, start new slots)
      expect((log as unknown as { slots: number }).slots).toBeLessThan(ev.length * (withColumns ? 0.95 : 0.85));
      // and repeats whose stop moved went to runs
      expect((log as unknown as { runCount: number }).runCount).toBeGreaterThanOrEqual(minStops);
      expect(ev).toHaveLength(expected.length);
      expect(ev).toEqual(expected);
      for (let i = 0; i < ev.length; i++)
        expect(Object.is(ev[i].stop, (expected[i] as { stop: unknown }).stop), `stop ${i}`).toBe(true);
    },
  );
  it.each([
    ["lcg", lcg, false],
    ["xorshift", xorshift, false],
    ["lcg, input columns", lcg, true],
    ["xorshift, input columns", xorshift, true],
  ] as const)(
    "several calls a bar repeated on the next bars (a bracket's exits, entries between them, a stop entry sized from the equity, rows cut short, numbers that move, start to move or stop moving, qty included) read back as one record per call, reads and rollbacks between them included (%s)",
    (_name, gen, withColumns) => {
      const rnd = gen();
      const columns = withColumns ? inputColumns(8000) : undefined;
      const host = (bar: number, close: number): Host => ({ ...hostOf(bar, close), columns }) as unknown as Host;
      const log = new EventLog();
      const expected: unknown[] = [];
      const levels = [NaN, 5, -0, 0, 5.5];
      // the calls each bar makes: a bracket's two exits, mostly, with their levels
      let bar = 0;
      let close = 10;
      let dir: "long" | "short" | null = "short";
      let lx = 7;
      let sx = 3;
      // a stop entry re-placed on most bars, its qty (a percent-of-equity size) and stop moving
      let bq = 2;
      let bs = 12;
      let reads = 0;
      const call = (
        h: Host,
        b: number,
        c: number,
        kind: "exit" | "entry",
        id: string,
        d: "long" | "short" | null,
        qty: number,
        limit: number,
        stop: number,
        comment: string | null,
        keep: boolean,
      ) => {
        logVia(rnd(8) < 6 ? 2 : rnd(4), log, h, kind, id, d, qty, limit, stop, null, comment);
        if (!keep) return;
        expected.push({
          kind,
          id,
          direction: d,
          qty: qty === qty ? qty : null,
          order_type:
            limit === limit && stop === stop
              ? "stop_limit"
              : limit === limit
                ? "limit"
                : stop === stop
                  ? "stop"
                  : "market",
          limit: limit === limit ? limit : null,
          stop: stop === stop ? stop : null,
          oca_name: null,
          comment,
          bar_index: b,
          bar_time: 1000 * b,
          ohlc: [1, 2, b === 3 ? -0 : 0.5, c],
          script_id: "s",
          run_id: "r",
        });
      };
      const barCalls = (b: number, c: number, keep: boolean) => {
        const h = host(b, c);
        if (rnd(25) === 0) call(h, b, c, "entry", "L", "long", 1, NaN, NaN, rnd(3) === 0 ? "e" : null, keep);
        if (rnd(30) === 0) dir = dir === null ? "short" : rnd(2) === 0 ? null : "long";
        // moving levels: each moves on most bars, sometimes holds, sometimes takes odd values
        if (rnd(4) !== 0) lx = rnd(6) === 0 ? levels[rnd(levels.length)] : 7 + rnd(50) / 8;
        if (rnd(3) !== 0) sx = rnd(6) === 0 ? levels[rnd(levels.length)] : 3 - rnd(50) / 8;
        call(h, b, c, "exit", "XL", dir, NaN, lx, sx, null, keep);
        // the second exit sometimes missing (a row cut short), sometimes with a comment
        if (rnd(12) !== 0) call(h, b, c, "exit", "XS", dir, NaN, sx, lx, rnd(15) === 0 ? "x" : null, keep);
        // (odd moduli: the lcg's low bits repeat with short periods)
        if (rnd(3) !== 0) bq = rnd(7) === 0 ? levels[rnd(levels.length)] : 1 + rnd(41) / 4;
        if (rnd(3) !== 0) bs = rnd(9) === 0 ? levels[rnd(levels.length)] : 12 + rnd(31) / 8;
        if (rnd(9) !== 0) call(h, b, c, "entry", "B", "long", bq, NaN, bs, null, keep);
        if (rnd(40) === 0) call(h, b, c, "exit", "XT", dir, 2, NaN, sx, null, keep);
      };
      for (let step = 0; step < 4000; step++) {
        // next bar (sometimes the same bar again, sometimes a skipped bar)
        bar += rnd(15) === 0 ? 0 : rnd(15) === 0 ? 2 : 1;
        close = withColumns ? (rnd(6) === 0 ? 99 : 10 + (bar % 5)) : rnd(4) === 0 ? close : 10 + rnd(5);
        barCalls(bar, close, true);
        if (rnd(50) === 0) {
          expect(log.toArray()).toEqual(expected);
          reads++;
        }
        if (rnd(40) === 0) {
          // a tick: calls after a mark, maybe read, rolled back
          const mark = log.mark();
          const saved: [typeof dir, number, number] = [dir, lx, sx];
          for (let k = rnd(3); k >= 0; k--) barCalls(bar + (k & 1), 99, false);
          if (rnd(2) === 0) log.toArray();
          log.rollback(mark);
          [dir, lx, sx] = saved;
        }
      }
      const ev = log.toArray();
      expect(reads).toBeGreaterThan(10);
      const inner = log as unknown as { slots: number; groups: number; runCount: number };
      // groups of several calls repeated row by row (the path under test was taken): fewer slots
      // than calls, numbers in runs, groups of two or more calls over three rows or more
      expect(inner.slots).toBeLessThan(ev.length * 0.8);
      expect(inner.runCount).toBeGreaterThan(ev.length * 0.1);
      let repeatedGroups = 0;
      for (let g = 0; g + 1 < inner.groups; g++)
        if (log.store.gFirst[g + 1] - log.store.gFirst[g] >= 2 && log.store.gRows[g] >= 3) repeatedGroups++;
      expect(repeatedGroups).toBeGreaterThan(20);
      // and slots whose qty runs (the meta bit RUN_QTY, 128: the stop entry's moving size)
      expect(log.store.meta.subarray(0, inner.slots).filter((m) => (m & 128) !== 0).length).toBeGreaterThan(20);
      expect(ev).toHaveLength(expected.length);
      expect(ev).toEqual(expected);
      for (let i = 0; i < ev.length; i++) {
        const want = expected[i] as { stop: unknown; limit: unknown; qty: unknown };
        expect(Object.is(ev[i].qty, want.qty), `qty ${i}`).toBe(true);
        expect(Object.is(ev[i].stop, want.stop), `stop ${i}`).toBe(true);
        expect(Object.is(ev[i].limit, want.limit), `limit ${i}`).toBe(true);
      }
    },
  );
});
