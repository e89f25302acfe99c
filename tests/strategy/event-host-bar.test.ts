// The host's word for its bar (BrokerHost.inputBar): the bar loops say "my bar is input bar b as it
// is" after writing it, and every writer of a partial or tick bar (calc_on_order_fills' executions,
// realtime ticks, calc_on_every_tick) says it is not; the order-event log takes the word (while it
// equals barIndex) instead of comparing the host's time and prices with the input columns. A writer
// that did not say so would have a partial bar logged as the input bar, silently: so strategies with
// fills inside bars, ticks and realtime bars run with the word taken and checked ("verify": throws on
// a wrong word) and without it ("off": the compare), in both modes, and every event must agree.
import { afterEach, describe, expect, it } from "vitest";
import { generateBars } from "../../src/cli/bench.js";
import type { RunOptions, RunResult } from "../../src/core/result.js";
import { Runtime } from "../../src/runtime/index.js";
import { EventLog, LogSite, eventMeta, setHostBarTrust } from "../../src/strategy/events.js";
import { inputBarHost } from "./harness.js";

type Host = Parameters<EventLog["push"]>[0];
type Cols = Record<"time" | "open" | "high" | "low" | "close", Float64Array>;

afterEach(() => setHostBarTrust("on"));

const columns = (): Cols => ({
  time: Float64Array.of(1000, 2000, 3000, 4000),
  open: Float64Array.of(10, 11, 12, 13),
  high: Float64Array.of(12, 13, 14, 15),
  low: Float64Array.of(9, 10, 11, 12),
  close: Float64Array.of(11, 12, 13, 14),
});

/** A host on bar `b` whose close is `close` (the input bar's, or a bar so far's), saying `inputBar`. */
const host = (cols: Cols, b: number, close: number, inputBar: number | undefined) =>
  ({ ...inputBarHost(cols, b), close, inputBar }) as unknown as Host;

/** The closes a log's events read, after an exit re-placed on bars 0-3, bar 2 seen with close 99. */
function closes(trust: "on" | "off" | "verify", said: (b: number) => number | undefined): number[] {
  setHostBarTrust(trust);
  const cols = columns();
  const log = new EventLog();
  const site = new LogSite();
  const h = host(cols, 0, 0, 0);
  for (let b = 0; b < 4; b++) {
    Object.assign(h, host(cols, b, b === 2 ? 99 : cols.close[b], said(b)));
    site.qty = Number.NaN;
    site.limit = Number.NaN;
    site.stop = 5 + b;
    log.logSite(h, site, eventMeta("exit", "short"), "x", null, null);
  }
  return log.toArray().map((e) => e.ohlc[3]);
}

describe("the host's word for its bar (BrokerHost.inputBar)", () => {
  it("is taken while it equals barIndex, without the price compare; a stale or absent word is not", () => {
    // the host says bar 2 is input bar 2 as it is while its close is not: the log takes the word
    expect(closes("on", (b) => b)).toEqual([11, 12, 13, 14]);
    // without the word, or with one for another bar, the log compares and writes the bar out
    expect(closes("off", (b) => b)).toEqual([11, 12, 99, 14]);
    expect(closes("on", () => undefined)).toEqual([11, 12, 99, 14]);
    expect(closes("on", (b) => b - 1)).toEqual([11, 12, 99, 14]);
    expect(closes("on", (b) => (b === 2 ? -1 : b))).toEqual([11, 12, 99, 14]);
  });

  it("verify: a wrong word throws", () => {
    expect(() => closes("verify", (b) => b)).toThrow(/inputBar/);
    expect(closes("verify", (b) => (b === 2 ? -1 : b))).toEqual([11, 12, 99, 14]);
  });

  const data = generateBars(600, 7);
  // an exit re-placed on every bar (a trailing stop and a limit), entries on crosses, fills inside bars
  const script = (settings: string) => `//@version=6
strategy("host bar", overlay = true${settings}, pyramiding = 2)
fast = ta.ema(close, 5)
slow = ta.ema(close, 13)
atr = ta.atr(10)
if ta.crossover(fast, slow)
    strategy.entry("L", strategy.long)
if ta.crossunder(fast, slow)
    strategy.entry("S", strategy.short)
strategy.exit("xl", "L", stop = close - atr, limit = close + 1.5 * atr)
strategy.exit("xs", "S", stop = close + atr, limit = close - 1.5 * atr)
if bar_index % 7 == 0
    strategy.order("O", strategy.long, 1, limit = low - atr)
if bar_index % 7 == 3
    strategy.cancel("O")
`;
  const cases: [string, string, RunOptions][] = [
    ["calc_on_order_fills", ", calc_on_order_fills = true", {}],
    [
      "calc_on_order_fills, process_orders_on_close",
      ", calc_on_order_fills = true, process_orders_on_close = true",
      {},
    ],
    ["calc_on_every_tick, realtime bars", ", calc_on_every_tick = true", { realtimeBars: 80, realtimeTicks: 4 }],
    [
      "calc_on_every_tick and calc_on_order_fills, realtime bars",
      ", calc_on_every_tick = true, calc_on_order_fills = true",
      { realtimeBars: 80, realtimeTicks: 5 },
    ],
    ["realtime bars (the closing tick)", "", { realtimeBars: 80, realtimeTicks: 3 }],
    ["the last bar realtime", ", calc_on_order_fills = true", { realtimeLastBar: true, realtimeTicks: 6 }],
  ];
  const run = async (src: string, opts: RunOptions, mode: "compile" | "interpret", trust: "off" | "verify") => {
    setHostBarTrust(trust);
    const r: RunResult = await new Runtime("CHART", {}).run(src, data, { ...opts, mode });
    expect(r.error).toBeUndefined();
    expect(r.mode).toBe(mode);
    return r;
  };
  for (const [name, settings, opts] of cases)
    it(`${name}: every event as without the word, in both modes, and every word taken is right`, async () => {
      const src = script(settings);
      for (const mode of ["compile", "interpret"] as const) {
        const off = await run(src, opts, mode, "off");
        const on = await run(src, opts, mode, "verify");
        const strip = (r: RunResult) => r.events.map(({ run_id: _r, ...e }) => e);
        expect(off.events.length).toBeGreaterThan(600);
        expect(strip(on)).toEqual(strip(off));
        expect(on.strategy?.trades).toEqual(off.strategy?.trades);
        // events that saw a bar so far (a fill's execution or a tick): their close is not the bar's
        const partial = off.events.filter((e) => !Object.is(e.ohlc[3], data.close[e.bar_index]));
        // (a realtime bar's strategy runs on its closing tick, the whole bar, unless every tick)
        if (settings !== "") expect(partial.length).toBeGreaterThan(0);
        else expect(partial).toEqual([]);
      }
    });
});
