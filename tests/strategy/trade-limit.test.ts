// The closed-trade limit (TradingView: 9000; v6 trims the oldest trades, v5 stops): the ring that
// keeps the visible trades, its rollback for realtime ticks, and whole runs with a small limit
// (RuntimeOptions.broker.trade_limit) against the same runs without one.

import { describe, expect, it } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { C_PROFIT, ClosedTrades, NUM_COLS, TRADE_LIMIT } from "../../src/strategy/closed-trades.js";
import { createBroker, normaliseSettings } from "../../src/strategy/index.js";
import { bars, runBoth, v5, v6 } from "../helpers/run-both.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

/** The kept trades' numbers, checked against the profit each was closed with (its index). */
function nums(c: ClosedTrades): number[] {
  return c.toArray().map((t) => {
    expect(t.profit).toBe(t.trade_num - 1);
    return t.trade_num;
  });
}

/** Closes trades `from` to `to` - 1 (a row's trade_num is its index + 1; only the numbers matter here). */
function pushAll(c: ClosedTrades, from: number, to: number): void {
  for (let k = from; k < to; k++) {
    const slot = c.add();
    c.nums[slot * NUM_COLS + C_PROFIT] = k;
  }
}

describe("ClosedTrades (the visible closed trades)", () => {
  it("keeps TradingView's 9000 by default", () => {
    expect(TRADE_LIMIT).toBe(9000);
    expect(new ClosedTrades().limit).toBe(9000);
  });

  it("keeps every trade up to the limit, then the newest `limit`, indexed from the run's first trade", () => {
    const c = new ClosedTrades(4);
    pushAll(c, 0, 4);
    expect([c.total, c.firstIndex, c.size]).toEqual([4, 0, 4]);
    expect(nums(c)).toEqual([1, 2, 3, 4]);
    pushAll(c, 4, 11);
    expect([c.total, c.firstIndex, c.size]).toEqual([11, 7, 4]);
    expect(nums(c)).toEqual([8, 9, 10, 11]);
    expect(c.get(6)).toBeUndefined(); // trimmed
    expect(c.get(7)!.trade_num).toBe(8);
    expect(c.get(10)!.trade_num).toBe(11);
    expect(c.get(11)).toBeUndefined(); // not closed yet
    expect(c.get(-1)).toBeUndefined();
    expect(c.get(7.5)).toBeUndefined();
  });

  it("the limit is a host setting (trade_limit), not a strategy() argument: 9000 unless set", () => {
    expect(normaliseSettings({}).tradeLimit).toBe(9000);
    expect(normaliseSettings({ trade_limit: 1_000_000 }).tradeLimit).toBe(1_000_000);
    expect(normaliseSettings({ trade_limit: Infinity }).tradeLimit).toBe(Infinity);
    expect(normaliseSettings({ trade_limit: 0 }).tradeLimit).toBe(1);
    expect(normaliseSettings({ trade_limit: NaN }).tradeLimit).toBe(9000);
  });

  it("an unlimited list never trims", () => {
    const c = new ClosedTrades(Infinity);
    pushAll(c, 0, 50);
    expect([c.total, c.firstIndex, c.size]).toEqual([50, 0, 50]);
    expect(c.get(0)!.trade_num).toBe(1);
  });

  it("rollback drops the trades closed since mark() and puts back the ones they trimmed", () => {
    for (const [before, after] of [
      [2, 1],
      [2, 3],
      [3, 9],
      [6, 2],
      [6, 5],
      [6, 13],
      [0, 10],
    ] as const) {
      const c = new ClosedTrades(4);
      pushAll(c, 0, before);
      const kept = nums(c);
      const mark = c.mark();
      // several ticks roll back to the same mark
      for (let tick = 0; tick < 3; tick++) {
        pushAll(c, before, before + after);
        c.rollback(mark);
        expect(nums(c), `${before} then ${after}, tick ${tick}`).toEqual(kept);
        expect([c.total, c.firstIndex]).toEqual([before, before - kept.length]);
      }
      // and it keeps working as a ring afterwards
      pushAll(c, before, before + 7);
      expect(nums(c)).toEqual(Array.from({ length: 4 }, (_, i) => before + 7 - 3 + i));
    }
  });
});

const site: CallSite = { state: undefined, id: 0 };
const call = (name: string, ctx: ExecContext, ...args: unknown[]) => functions[name].impl(ctx, args, site);

describe("the broker past its trade limit", () => {
  it("restore() after bars that trimmed trades gives back the list, the count and the statistics", () => {
    const rows: [number, number, number, number][] = Array.from({ length: 20 }, (_, i) => [
      100 + i,
      101 + i,
      99 + i,
      100.5 + i,
    ]);
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const broker = createBroker({ trade_limit: 3 }, ctx);
    ctx.broker = broker;
    const bar = (i: number) => {
      setBar(ctx, i);
      broker.onBarOpen(ctx);
      call("strategy.entry", ctx, i % 2 === 0 ? "L" : "S", i % 2 === 0 ? "long" : "short");
      broker.onBarClose(ctx);
    };
    for (let i = 0; i < 8; i++) bar(i);
    const closed = broker.ledger.closed;
    expect([closed.total, closed.firstIndex]).toEqual([6, 3]);
    const before = {
      rows: closed.toArray(),
      net: broker.ledger.netProfit,
      wins: broker.ledger.winTrades,
      pct: broker.ledger.sumPercent,
    };
    const snap = broker.snapshot();
    for (let i = 8; i < 15; i++) bar(i);
    expect(closed.total).toBe(13);
    broker.restore(snap);
    expect([closed.total, closed.firstIndex]).toEqual([6, 3]);
    expect({
      rows: closed.toArray(),
      net: broker.ledger.netProfit,
      wins: broker.ledger.winTrades,
      pct: broker.ledger.sumPercent,
    }).toEqual(before);
  });
});

// Entries on a cycle of bars with pyramiding, partial closes, bracket exits and commission: trades
// of both sides, winners and losers, several closed on one bar.
const DECL = "strategy('limit', pyramiding = 2, commission_type = strategy.commission.percent, commission_value = 0.1)";
const BODY = `
k = bar_index % 7
if k == 0
    strategy.entry('L1', strategy.long, qty = 3)
if k == 1
    strategy.entry('L2', strategy.long, qty = 2)
    strategy.exit('XL', 'L1', profit = 80, loss = 60)
if k == 3
    strategy.close('L2', qty = 1)
if k == 4
    strategy.entry('S1', strategy.short, qty = 2)
if k == 6
    strategy.close_all()
plot(strategy.closedtrades, 'closed')
plot(strategy.closedtrades.first_index, 'first')
plot(strategy.netprofit, 'net')
plot(strategy.grossprofit, 'gp')
plot(strategy.grossloss, 'gl')
plot(strategy.wintrades, 'win')
plot(strategy.losstrades, 'loss')
plot(strategy.eventrades, 'even')
plot(strategy.avg_trade, 'avg')
plot(strategy.avg_trade_percent, 'avg pct')
plot(strategy.avg_winning_trade_percent, 'avg win pct')
plot(strategy.avg_losing_trade_percent, 'avg loss pct')
plot(strategy.max_drawdown, 'dd')
plot(strategy.equity, 'equity')
plot(strategy.closedtrades.profit(strategy.closedtrades - 1), 'last profit')
plot(strategy.closedtrades.entry_bar_index(strategy.closedtrades.first_index), 'first entry bar')
plot(strategy.closedtrades.exit_price(strategy.closedtrades.first_index), 'first exit price')
plot(strategy.closedtrades.size(0), 'size 0')
`;

describe("whole runs with a small trade limit", () => {
  const data = bars(300);
  const limit = 10;

  it("list the newest trades and agree with an unlimited run on every statistic", async () => {
    const all = await runBoth(v6(BODY, DECL), data, { runtime: { broker: { trade_limit: Infinity } } });
    const cut = await runBoth(v6(BODY, DECL), data, { runtime: { broker: { trade_limit: limit } } });
    expect(all.error).toBeUndefined();
    expect(cut.error).toBeUndefined();
    const total = all.strategy!.trades.length;
    expect(total).toBeGreaterThan(5 * limit);
    // the visible list is the tail of the full one, numbers included
    expect(cut.strategy!.trades).toEqual(all.strategy!.trades.slice(total - limit));
    expect(cut.strategy!.open_trades).toEqual(all.strategy!.open_trades);
    expect(cut.strategy!.stats).toEqual(all.strategy!.stats);
    expect(cut.strategy!.stats.total_closed_trades).toBe(total);
    expect(cut.strategy!.equity).toEqual(all.strategy!.equity);
    // every running figure is the same; only first_index and lookups below it differ
    for (const key of [
      "closed",
      "net",
      "gp",
      "gl",
      "win",
      "loss",
      "even",
      "avg",
      "avg pct",
      "avg win pct",
      "avg loss pct",
      "dd",
      "equity",
      "last profit",
    ]) {
      expect(cut.series[key], key).toEqual(all.series[key]);
    }
    const closed = all.series.closed as number[];
    expect(all.series.first!.every((v) => v === 0)).toBe(true);
    expect(cut.series.first).toEqual(closed.map((c) => Math.max(0, c - limit)));
    // the oldest visible trade is the one the unlimited run has at that index
    const last = data.length - 1;
    const fi = cut.series.first![last] as number;
    expect(cut.series["first entry bar"]![last]).toBe(all.strategy!.trades[fi]!.entry_bar_index);
    expect(cut.series["first exit price"]![last]).toBe(all.strategy!.trades[fi]!.exit_price);
    // trade 0 is na once trimmed
    const trimmedFrom = closed.findIndex((c) => c > limit);
    expect(cut.series["size 0"]!.slice(0, trimmedFrom)).toEqual(all.series["size 0"]!.slice(0, trimmedFrom));
    expect(cut.series["size 0"]!.slice(trimmedFrom).every((v) => v === null)).toBe(true);
  }, 60_000);

  it("v5 stops with a runtime error on the bar that closes one trade more than the limit", async () => {
    const all = await runBoth(v5(BODY, DECL), data, { runtime: { broker: { trade_limit: Infinity } } });
    const cut = await runBoth(v5(BODY, DECL), data, { runtime: { broker: { trade_limit: limit } } });
    expect(all.error).toBeUndefined();
    const overBar = all.strategy!.trades[limit]!.exit_bar_index!;
    expect(cut.error_kind).toBe("runtime");
    expect(cut.error).toMatch(new RegExp(`more than ${limit} trades`));
    expect(cut.error_bar).toBe(overBar);
    // nothing was trimmed before it stopped
    expect(cut.series.first!.every((v) => v === 0)).toBe(true);
    expect(cut.strategy!.trades).toEqual(all.strategy!.trades.slice(0, cut.strategy!.trades.length));
  }, 60_000);
});
