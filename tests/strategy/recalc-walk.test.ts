// calc_on_order_fills and the walk's fast paths (src/strategy/walk.ts): a bar whose range reaches no
// pending level runs no execution (the script runs again only after a fill), so it takes the quiet
// bar as without calc_on_order_fills; on the other bars a segment or a vertex strictly inside the
// level extremes skips the scan, and the extremes are worked out again after each execution (which
// may place orders anywhere, market ones filling at the next vertex). Checked against the full walk
// (fastPath off) on random flows whose executions (ctx.ext.fillRecalc, here a seeded stand-in for the
// script) place, move and cancel stop, limit and market orders, brackets and trails.

import { describe, expect, it, vi } from "vitest";
import type { ExecContext } from "../../src/builtins/types.js";
import type { Broker } from "../../src/strategy/broker.js";
import { createBroker } from "../../src/strategy/index.js";
import { PathWalker } from "../../src/strategy/walk.js";
import { brokerOutcome, columnsOf, makeCtx, setBar } from "./harness.js";

type Row = [number, number, number, number];

/** A seeded random walk of `n` bars on a 0.01 grid, gaps and wide bars now and then. */
function rowsOf(n: number, seed: number): Row[] {
  let s = seed >>> 0;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const tick = (x: number) => Math.round(x * 100) / 100;
  const rows: Row[] = [];
  let c = 100;
  // (a drift: positions held without exits on long stretches, margin calls)
  const drift = seed % 2 === 0 ? -0.04 : 0.03;
  for (let i = 0; i < n; i++) {
    const o = tick(c + (rnd() < 0.08 ? (rnd() - 0.5) * 6 : (rnd() - 0.5) * 0.2));
    const cl = Math.max(1, tick(o + drift + (rnd() - 0.5) * 1.5));
    const wide = rnd() < 0.2 ? 2.5 : 0.5;
    rows.push([o, tick(Math.max(o, cl) + rnd() * wide), Math.max(0.5, tick(Math.min(o, cl) - rnd() * wide)), cl]);
    c = cl;
  }
  return rows;
}

interface Flow {
  broker: Broker;
  /** Every execution after fills: the bar, and the bar so far it saw. */
  runs: number[][];
}

function runFlow(seed: number, fast: boolean, settings: Record<string, unknown>): Flow {
  const rows = rowsOf(400, seed);
  const runs: number[][] = [];
  let s = (seed * 7919) >>> 0;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const trail = seed % 3 === 0;
  const ext: Record<string, unknown> = {};
  if (settings.use_bar_magnifier)
    ext.magnifierBars = rowsOf(4 * rows.length, seed + 900).map(([open, high, low, close], i) => ({
      time: Date.UTC(2024, 0, 1) + i * 900_000,
      open,
      high,
      low,
      close,
    }));
  const ctx = makeCtx(columnsOf(rows), { type: "stock" }, { ext }) as ExecContext;
  const broker = createBroker({ pyramiding: 3, calc_on_order_fills: true, ...settings }, ctx);
  broker.walker.fastPath = fast;
  broker.tracker.fastPath = fast;
  broker.risk.fastPath = fast;
  ctx.broker = broker;
  // the script's execution after fills: the bar so far as its prices, orders live for the rest of the bar
  ctx.ext.fillRecalc = {
    run: (high: number, low: number, close: number) => {
      runs.push([ctx.barIndex, high, low, close]);
      const saved = [ctx.high, ctx.low, ctx.close];
      [ctx.high, ctx.low, ctx.close] = [high, low, close];
      const r = rnd();
      if (r < 0.2) broker.entry({ id: "R", direction: "long", stop: close + 0.3 + rnd() }, ctx);
      else if (r < 0.3) broker.entry({ id: "RS", direction: "short", limit: close + 0.2 + rnd() }, ctx);
      else if (r < 0.4) broker.entry({ id: "M", direction: rnd() < 0.5 ? "long" : "short" }, ctx);
      else if (r < 0.5) broker.exit({ id: "XR", fromEntry: "R", stop: close - 0.8, limit: close + 1.2 }, ctx);
      else if (r < 0.55) broker.cancel("R", ctx);
      else if (r < 0.6) broker.close({ id: "L" }, ctx);
      else if (r < 0.63) broker.entry({ id: "RB", direction: "long", stop: close - 0.5 }, ctx);
      [ctx.high, ctx.low, ctx.close] = saved;
    },
  };
  for (let i = 0; i < rows.length; i++) {
    setBar(ctx, i);
    broker.onBarOpen(ctx);
    const c = ctx.close;
    const r = rnd();
    if (r < 0.04) broker.entry({ id: "L", direction: "long" }, ctx);
    else if (r < 0.12) broker.entry({ id: "L", direction: "long", limit: c - 0.6 - rnd() }, ctx);
    else if (r < 0.2) broker.entry({ id: "S", direction: "short", stop: c - 0.8 - rnd() }, ctx);
    else if (r < 0.23) broker.close({}, ctx, true);
    else if (r < 0.25) broker.cancel("S", ctx);
    broker.exit({ id: "XL", fromEntry: "L", stop: c - 2.2, limit: c + 2.4 }, ctx);
    if (trail) broker.exit({ id: "XS", fromEntry: "S", trailPoints: 80, trailOffset: 40, loss: 250 }, ctx);
    else broker.exit({ id: "XS", fromEntry: "S", stop: c + 2.1, limit: c - 2.6 }, ctx);
    broker.onBarClose(ctx);
  }
  return { broker, runs };
}

/** brokerOutcome and the pending orders. */
function outcome(b: Broker) {
  return { ...brokerOutcome(b), orders: b.book.orders.map((o) => ({ ...o })) };
}

describe("calc_on_order_fills on the walk's fast paths", () => {
  it("books what the full walk books, with the same executions, and scans far less", () => {
    const scans = vi.spyOn(PathWalker.prototype as unknown as { scan(atPoint: boolean): void }, "scan");
    let runs = 0;
    let trades = 0;
    let fastScans = 0;
    let fullScans = 0;
    let margin = 0;
    for (let seed = 1; seed <= 12; seed++) {
      for (const settings of [
        {},
        { process_orders_on_close: true },
        { backtest_fill_limits_assumption: 3 },
        { use_bar_magnifier: true },
        { max_intraday_filled_orders: 2 },
        // small capital on margin: margin calls at the open and on the path (which run no execution)
        {
          initial_capital: 400,
          margin_long: 50,
          margin_short: 50,
          default_qty_type: "percent_of_equity",
          default_qty_value: 195,
        },
      ]) {
        const n0 = scans.mock.calls.length;
        const fast = runFlow(seed, true, settings);
        const n1 = scans.mock.calls.length;
        const full = runFlow(seed, false, settings);
        fastScans += n1 - n0;
        fullScans += scans.mock.calls.length - n1;
        expect(fast.runs).toEqual(full.runs);
        expect(outcome(fast.broker)).toEqual(outcome(full.broker));
        runs += fast.runs.length;
        trades += fast.broker.ledger.closed.total;
        margin += fast.broker.risk.marginCalls;
      }
    }
    scans.mockRestore();
    expect(runs).toBeGreaterThan(3000);
    expect(trades).toBeGreaterThan(1000);
    expect(margin).toBeGreaterThan(20);
    expect(fastScans * 3).toBeLessThan(fullScans);
  });
});
