// Order-type probes through whole scripts in both modes: the order types TradingView's order-type
// tests exercise, each on a handful of hand-made bars with the arithmetic in the comment. The broker
// rules themselves have broker-level tests in broker.test.ts; these check the same rules arrive
// through the strategy.* calls' argument plumbing, plus stop-limit orders, which nothing else covers.
// Bars are [open, high, low, close], hourly; mintick 0.01, stock (whole-contract sizing).
// Path rule (manual, "Broker emulator"): open -> nearer extreme -> farther extreme -> close.

import { describe, expect, it } from "vitest";
import type { Bar, RunResult, Trade } from "../../src/core/result.js";
import { runBoth } from "../helpers/run-both.js";

const bars = (rows: number[][]): Bar[] =>
  rows.map((r, i) => ({
    time: Date.UTC(2024, 0, 1) + i * 3_600_000,
    open: r[0]!,
    high: r[1]!,
    low: r[2]!,
    close: r[3]!,
    volume: 10,
  }));
const flat = (p: number) => [p, p, p, p];
const runtime = { timeframe: "60", syminfo: { mintick: 0.01, pointvalue: 1, type: "stock", currency: "USD" } };

async function run(body: string, rows: number[][], decl = ""): Promise<RunResult> {
  const src = `//@version=6\nstrategy("probe"${decl})\n${body}\n`;
  const r = await runBoth(src, bars(rows), { runtime });
  expect(r.error ?? null).toBeNull();
  return r;
}
/** [entry bar, entry price, exit bar, exit price, qty] of each closed trade. */
const closed = (r: RunResult) =>
  r.strategy!.trades.map((t: Trade) => [t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price, t.qty]);
const open = (r: RunResult) => r.strategy!.open_trades.map((t: Trade) => [t.entry_bar_index, t.entry_price, t.qty]);

describe("stop-limit orders", () => {
  const body = `if bar_index == 0
    strategy.entry("B", strategy.long, stop = 102, limit = 101.5)`;

  it("the stop turns the order into a limit that fills when the path comes back to it, on the same bar", async () => {
    // Bar 1: open 100, low 99 is nearer (1 < 3) so 100 -> 99 -> 103 -> 100. On the way up the price
    // reaches 102: the stop triggers and a buy limit at 101.5 is live (the price, 102, is above it).
    // On the way down to the close (103 -> 100) it reaches 101.5: filled there, bar 1.
    const r = await run(body, [flat(100), [100, 103, 99, 100], flat(100)]);
    expect(open(r)).toEqual([[1, 101.5, 1]]);
  });

  it("a limit not reached after the trigger waits, triggered, for a later bar", async () => {
    // Bar 1: 100 -> 99 -> 103 (stop triggers at 102) -> close 102.5: never back to 101.5.
    // Bar 2: open 102.5, high 102.8 nearer (0.3 < 1.5): 102.5 -> 102.8 -> 101 -> 102: the limit at
    // 101.5 is reached on the way down: filled at 101.5, bar 2 (the stop is not needed again).
    const r = await run(body, [flat(100), [100, 103, 99, 102.5], [102.5, 102.8, 101, 102], flat(102)]);
    expect(open(r)).toEqual([[2, 101.5, 1]]);
  });

  it("a limit beyond the stop is marketable at the trigger: filled at the stop price", async () => {
    // Buy stop 102, limit 103. Bar 1: 100 -> 99 -> 104: at 102 the stop triggers and a buy limit at
    // 103 is live while the price is 102, below it: a limit fills at its price or better, so at 102.
    const r = await run(
      `if bar_index == 0
    strategy.entry("B", strategy.long, stop = 102, limit = 103)`,
      [flat(100), [100, 104, 99, 103.5], flat(103)],
    );
    expect(open(r)).toEqual([[1, 102, 1]]);
  });

  it("never fills when the stop is not reached, even if the limit is", async () => {
    // Bars 1-2 trade between 99 and 101.9: the limit price is crossed, the stop (102) never.
    const r = await run(body, [flat(100), [100, 101.9, 99, 101], [101, 101.9, 100, 100.5]]);
    expect(open(r)).toEqual([]);
    expect(closed(r)).toEqual([]);
  });

  it("a sell stop-limit: triggers on the way down, fills on the bounce", async () => {
    // Sell stop 98, limit 98.5. Bar 1: open 100, high 101 nearer (1 < 3): 100 -> 101 -> 97 -> 99.
    // Down to 97 crosses 98 (trigger, sell limit 98.5 live; the price is below it), then up to the
    // close 99 crosses 98.5: sold at 98.5, bar 1.
    const r = await run(
      `if bar_index == 0
    strategy.entry("S", strategy.short, stop = 98, limit = 98.5)`,
      [flat(100), [100, 101, 97, 99], flat(99)],
    );
    expect(r.strategy!.open_trades.map((t) => [t.direction, t.entry_bar_index, t.entry_price])).toEqual([
      ["short", 1, 98.5],
    ]);
  });
});

describe("limit entries", () => {
  it("fill at the limit where the path reaches it, at the open when a gap passes it", async () => {
    // Bar 0 places buy limit 99. Bar 1: open 100, high 100.5 nearer: 100 -> 100.5 -> 98.5: buys at 99.
    // Bar 1 places sell limit 101 (a reversal). Bar 2 opens at 102, already above 101: sells at
    // the open 102 (a better price): the long closes at 102, a short opens at 102.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long, limit = 99)
if bar_index == 1
    strategy.entry("S", strategy.short, limit = 101)`,
      [flat(100), [100, 100.5, 98.5, 99.5], [102, 102, 101.5, 101.8]],
    );
    expect(closed(r)).toEqual([[1, 99, 2, 102, 1]]);
    expect(open(r)).toEqual([[2, 102, 1]]);
  });
});

describe("strategy.cancel of a pending stop", () => {
  const rows = [flat(100), [100, 104, 99, 101], [101, 106, 100, 105], flat(105)];
  it("a cancelled stop does not fill when the price reaches it later; uncancelled it does", async () => {
    // Buy stop 105 placed on bar 0; bar 1 tops at 104. Cancelled on bar 1: bar 2's 106 fills nothing.
    // Without the cancel: bar 2 (101 -> 100 -> 106) crosses 105: bought at 105.
    const order = `if bar_index == 0
    strategy.entry("B", strategy.long, stop = 105)`;
    expect(open(await run(`${order}\nif bar_index == 1\n    strategy.cancel("B")`, rows))).toEqual([]);
    expect(open(await run(order, rows))).toEqual([[2, 105, 1]]);
  });
});

describe("strategy.exit", () => {
  it("profit / loss in ticks from the entry price", async () => {
    // Entry at bar 1's open 100: take-profit 100 + 150 * 0.01 = 101.5, stop 100 - 100 * 0.01 = 99.
    // Bar 2: 100.5 -> 100.2 -> 101.7 (low nearer): 101.5 reached: sold at 101.5.
    // Re-entry placed on bar 3 fills at bar 4's open 100; bar 4: 100 -> 100.2 -> 98.5: stop at 99.
    const r = await run(
      `if bar_index == 0 or bar_index == 3
    strategy.entry("L", strategy.long)
strategy.exit("X", "L", profit = 150, loss = 100)`,
      [
        flat(100),
        [100, 100.8, 99.5, 100.5],
        [100.5, 101.7, 100.2, 101],
        [101, 101, 100, 100],
        [100, 100.2, 98.5, 99],
        flat(99),
      ],
    );
    expect(closed(r)).toEqual([
      [1, 100, 2, 101.5, 1],
      [4, 100, 4, 99, 1],
    ]);
  });

  it("trail_points activates the trailing stop, trail_offset trails it", async () => {
    // Entry at 100 (bar 1). Activation at 100 + 100 ticks = 101, then stop = peak - 50 ticks.
    // Bar 2: 100.2 -> 100.1 -> 101.6 -> 101.4: activates, peak 101.6, stop 101.1; close above it.
    // Bar 3: open 101.4, low 100.9 nearer (0.5 < 0.6): on the way down 101.1 is reached: sold at 101.1.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long)
strategy.exit("T", "L", trail_points = 100, trail_offset = 50)`,
      [flat(100), [100, 100.5, 99.8, 100.2], [100.2, 101.6, 100.1, 101.4], [101.4, 102, 100.9, 101], flat(101)],
    );
    expect(closed(r)).toEqual([[1, 100, 3, 101.1, 1]]);
  });

  it("qty_percent exits part of the entry; an unsized exit takes the rest", async () => {
    // Long 10 at 100. X1: 50% = 5 contracts at 101 (100 ticks); X2: the other 5 at 102.
    // Bar 2 (low nearer) reaches 101.2: X1 sells 5 at 101. Bar 3 reaches 102.5: X2 sells 5 at 102.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long, qty = 10)
strategy.exit("X1", "L", qty_percent = 50, profit = 100)
strategy.exit("X2", "L", profit = 200)`,
      [flat(100), [100, 100.5, 99.5, 100.2], [100.2, 101.2, 100.1, 101], [101, 102.5, 100.9, 102], flat(102)],
    );
    expect(closed(r)).toEqual([
      [1, 100, 2, 101, 5],
      [1, 100, 3, 102, 5],
    ]);
    expect(r.strategy!.trades.map((t) => t.profit)).toEqual([5, 10]);
  });
});

describe("strategy.close", () => {
  it("qty and qty_percent close part of the position at the next open", async () => {
    // Long 10 at bar 1's open 101. Bar 1: close qty 4 -> sold at bar 2's open 102 (6 left).
    // Bar 2: close 50% of the 6 -> 3 sold at bar 3's open 103; 3 stay open.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long, qty = 10)
if bar_index == 1
    strategy.close("L", qty = 4)
if bar_index == 2
    strategy.close("L", qty_percent = 50)`,
      [flat(100), flat(101), flat(102), flat(103), flat(104)],
    );
    expect(closed(r)).toEqual([
      [1, 101, 2, 102, 4],
      [1, 101, 3, 103, 3],
    ]);
    expect(open(r)).toEqual([[1, 101, 3]]);
  });

  it("immediately = true fills at the current bar's close", async () => {
    // Entry at bar 1's open 101; strategy.close(immediately) on bar 1 sells at bar 1's close 101.7.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long)
if bar_index == 1
    strategy.close("L", immediately = true)`,
      [flat(100), [101, 102, 100.5, 101.7], flat(103)],
    );
    expect(closed(r)).toEqual([[1, 101, 1, 101.7, 1]]);
  });
});

describe("position rules", () => {
  it("pyramiding = 2 takes two entries in one direction and drops the third", async () => {
    // Entries on bars 0, 1, 2 fill at the next opens 101, 102 and (blocked) 103.
    const r = await run(
      `if bar_index <= 2
    strategy.entry("L", strategy.long)`,
      [flat(100), flat(101), flat(102), flat(103), flat(104)],
      ", pyramiding = 2",
    );
    expect(open(r)).toEqual([
      [1, 101, 1],
      [2, 102, 1],
    ]);
  });

  it("close_entries_rule ANY lets an exit close the entry it names, not the oldest", async () => {
    // A at 101 (bar 1), B at 102 (bar 2); exit from B with limit 105 placed on bar 2; bar 3 reaches
    // 106: B's contract sells at 105 and A stays open. (FIFO would close A's: broker.test.ts.)
    const r = await run(
      `if bar_index == 0
    strategy.entry("A", strategy.long)
if bar_index == 1
    strategy.entry("B", strategy.long)
if bar_index == 2
    strategy.exit("XB", "B", limit = 105)`,
      [flat(100), flat(101), flat(102), [103, 106, 103, 104], flat(104)],
      ', pyramiding = 2, close_entries_rule = "ANY"',
    );
    expect(r.strategy!.trades.map((t) => [t.entry_id, t.exit_price])).toEqual([["B", 105]]);
    expect(r.strategy!.open_trades.map((t) => t.entry_id)).toEqual(["A"]);
  });

  it("process_orders_on_close fills market orders at the close of the bar that places them", async () => {
    // Entry on bar 0 fills at bar 0's close 100.5; the close on bar 2 at bar 2's close 102.5.
    const r = await run(
      `if bar_index == 0
    strategy.entry("L", strategy.long)
if bar_index == 2
    strategy.close("L")`,
      [[100, 101, 99, 100.5], [101, 102, 100, 101.5], [102, 103, 101, 102.5], flat(103)],
      ", process_orders_on_close = true",
    );
    expect(closed(r)).toEqual([[0, 100.5, 2, 102.5, 1]]);
  });
});

describe("sizing", () => {
  const rows = [flat(100), flat(101), flat(102)];
  it("percent_of_equity: equity x percent / the close of the order's bar, whole contracts", async () => {
    // 10,000 x 10% / 100 (bar 0's close) = 10 contracts, filled at bar 1's open 101.
    const r = await run(
      `if bar_index == 0\n    strategy.entry("L", strategy.long)`,
      rows,
      ", initial_capital = 10000, default_qty_type = strategy.percent_of_equity, default_qty_value = 10",
    );
    expect(open(r)).toEqual([[1, 101, 10]]);
  });

  it("cash: value / the close of the order's bar, floored to whole contracts", async () => {
    // 1,050 / 100 = 10.5 -> 10 contracts.
    const r = await run(
      `if bar_index == 0\n    strategy.entry("L", strategy.long)`,
      rows,
      ", default_qty_type = strategy.cash, default_qty_value = 1050",
    );
    expect(open(r)).toEqual([[1, 101, 10]]);
  });
});

describe("commission kinds", () => {
  // Long 10 at bar 1's open 100, closed at bar 2's open 110: gross profit 10 x 10 = 100.
  const body = `if bar_index == 0
    strategy.entry("L", strategy.long, qty = 10)
if bar_index == 1
    strategy.close("L")`;
  const rows = [flat(100), flat(100), flat(110), flat(110)];
  const cases: [string, number][] = [
    // 0.1% of each fill's value: 0.001 x 1000 + 0.001 x 1100 = 1 + 1.1 = 2.1
    ["strategy.commission.percent, commission_value = 0.1", 2.1],
    // 0.5 per contract per fill: 10 x 0.5 x 2 = 10
    ["strategy.commission.cash_per_contract, commission_value = 0.5", 10],
    // 3 per order: entry and exit = 6
    ["strategy.commission.cash_per_order, commission_value = 3", 6],
  ];
  for (const [decl, fee] of cases) {
    it(decl.split(",")[0], async () => {
      const r = await run(body, rows, `, commission_type = ${decl}`);
      const t = r.strategy!.trades[0];
      expect(t.commission).toBeCloseTo(fee, 9);
      expect(t.profit).toBeCloseTo(100 - fee, 9);
    });
  }
});
