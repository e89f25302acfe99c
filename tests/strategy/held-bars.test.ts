// The walk's held bar (src/strategy/walk.ts walkBar): a bar in a position with no order and no exit
// pending, its range inside the margin line's safe interval, is booked in a few compares ahead of
// flatBar, the level extremes and quietRange. Checked against the full walk (fastPath off) on random
// flows that hold positions without exits for stretches: longs, shorts and pyramids, pending stop
// orders and exits now and then, margin calls, commission, NaN bars, v5 and v6, the bar magnifier.

import { describe, expect, it, vi } from "vitest";
import type { ExecContext } from "../../src/builtins/types.js";
import type { Broker } from "../../src/strategy/broker.js";
import { createBroker } from "../../src/strategy/index.js";
import { PathWalker } from "../../src/strategy/walk.js";
import { brokerOutcome, columnsOf, makeCtx, setBar } from "./harness.js";

type Row = [number, number, number, number];

/** A random walk of `n` bars on a drift (margin calls on long stretches), a NaN bar now and then. */
function rowsOf(n: number, seed: number): Row[] {
  let s = seed >>> 0;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const tick = (x: number) => Math.round(x * 100) / 100;
  const drift = seed % 2 === 0 ? -0.04 : 0.03;
  const rows: Row[] = [];
  let c = 100;
  for (let i = 0; i < n; i++) {
    if (rnd() < 0.01) {
      rows.push(rnd() < 0.5 ? [Number.NaN, Number.NaN, Number.NaN, Number.NaN] : [c, Number.NaN, c, c]);
      continue;
    }
    const o = tick(c + (rnd() < 0.05 ? (rnd() - 0.5) * 3 : (rnd() - 0.5) * 0.2));
    const cl = Math.max(1, tick(o + drift + (rnd() - 0.5) * 1.5));
    const wide = rnd() < 0.2 ? 2.5 : 0.5;
    rows.push([o, tick(Math.max(o, cl) + rnd() * wide), Math.max(0.5, tick(Math.min(o, cl) - rnd() * wide)), cl]);
    c = cl;
  }
  return rows;
}

function runHeld(
  seed: number,
  fast: boolean,
  settings: Record<string, unknown>,
  version: number,
  onHeldBar?: (taken: boolean) => void,
): Broker {
  const rows = rowsOf(500, seed);
  const ext = settings.use_bar_magnifier
    ? {
        magnifierBars: rowsOf(2 * rows.length, seed + 500).map(([open, high, low, close], i) => ({
          time: Date.UTC(2024, 0, 1) + i * 1_800_000,
          open,
          high,
          low,
          close,
        })),
      }
    : {};
  const ctx = makeCtx(columnsOf(rows), { type: "stock" }, { ext, version }) as ExecContext;
  const broker = createBroker({ pyramiding: 3, ...settings }, ctx);
  broker.walker.fastPath = fast;
  broker.tracker.fastPath = fast;
  broker.risk.fastPath = fast;
  ctx.broker = broker;
  const quiet = vi.spyOn(PathWalker.prototype as unknown as { quietRange(): number }, "quietRange");
  let s = (seed * 7919) >>> 0;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  for (let i = 0; i < rows.length; i++) {
    setBar(ctx, i);
    const held = broker.ledger.open.length !== 0 && broker.book.orders.length === 0 && broker.book.exits.length === 0;
    const before = quiet.mock.calls.length;
    broker.onBarOpen(ctx);
    if (held && onHeldBar) onHeldBar(quiet.mock.calls.length === before);
    const c = ctx.close;
    const r = rnd();
    if (r < 0.03) broker.entry({ id: "L", direction: "long" }, ctx);
    else if (r < 0.05) broker.entry({ id: "S", direction: "short" }, ctx);
    else if (r < 0.065) broker.entry({ id: "L2", direction: "long", qty: 2 }, ctx);
    else if (r < 0.08) broker.close({ id: "L" }, ctx);
    else if (r < 0.09) broker.close({}, ctx, true);
    else if (r < 0.1) broker.entry({ id: "LS", direction: "long", stop: c + 1.5 }, ctx);
    else if (r < 0.11) broker.cancel("LS", ctx);
    else if (r < 0.12) broker.exit({ id: "XL", fromEntry: "L", stop: c - 2, limit: c + 3 }, ctx);
    else if (r < 0.13) broker.cancel("XL", ctx);
    broker.onBarClose(ctx);
  }
  quiet.mockRestore();
  return broker;
}

describe("the walk's held bars", () => {
  it("a bar held with nothing pending books what the full walk books, and takes no quietRange", () => {
    let taken = 0;
    let checked = 0;
    let marginCalls = 0;
    let trades = 0;
    for (let seed = 1; seed <= 12; seed++) {
      for (const version of [5, 6]) {
        for (const settings of [
          {},
          { commission_type: "percent", commission_value: 0.1 },
          { process_orders_on_close: true },
          { calc_on_every_tick: true },
          { use_bar_magnifier: true },
          // small capital on margin, shorts and longs: margin calls at the open and at the worst price
          {
            initial_capital: 300,
            margin_long: 50,
            margin_short: 50,
            default_qty_type: "percent_of_equity",
            default_qty_value: 150,
          },
        ]) {
          const fast = brokerOutcome(
            runHeld(seed, true, settings, version, (t) => {
              checked++;
              if (t) taken++;
            }),
          );
          const full = brokerOutcome(runHeld(seed, false, settings, version));
          expect(fast).toEqual(full);
          marginCalls += fast.stats.margin_calls as number;
          trades += fast.trades.length;
        }
      }
    }
    expect(trades).toBeGreaterThan(500);
    expect(marginCalls).toBeGreaterThan(0);
    // most held bars take the short way (not those on margin whose range nears the call level, nor
    // NaN bars, calc_on_every_tick's or the magnifier's)
    expect(taken).toBeGreaterThan(20000);
    expect(checked - taken).toBeGreaterThan(100);
  });
});
