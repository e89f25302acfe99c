// Property tests: random bars and random order flow must never crash or hang the broker, and the
// books must balance: net profit is the sum of closed trades, the position is the sum of open
// trades, every fill lies inside its bar's range (slippage aside), equity adds up.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { columnsOf, makeCtx, replay } from "./harness.js";

type Op =
  | { k: "entry"; dir: "long" | "short"; qty: number; limit: number; stop: number; id: number }
  | { k: "order"; dir: "long" | "short"; qty: number; id: number }
  | { k: "exit"; id: number; from: number; profit: number; loss: number; trail: number; pct: number }
  | { k: "close"; id: number; pct: number }
  | { k: "close_all" }
  | { k: "cancel"; id: number };

const price = fc.integer({ min: 9000, max: 11000 }).map((x) => x / 100);
const maybe = (arb: fc.Arbitrary<number>) => fc.oneof(arb, fc.constant(NaN));

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    k: fc.constant("entry" as const),
    dir: fc.constantFrom("long" as const, "short" as const),
    qty: maybe(fc.integer({ min: 1, max: 5 })),
    limit: maybe(price),
    stop: maybe(price),
    id: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    k: fc.constant("order" as const),
    dir: fc.constantFrom("long" as const, "short" as const),
    qty: fc.integer({ min: 1, max: 5 }),
    id: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    k: fc.constant("exit" as const),
    id: fc.integer({ min: 0, max: 2 }),
    from: fc.integer({ min: -1, max: 3 }),
    profit: maybe(fc.integer({ min: 1, max: 300 })),
    loss: maybe(fc.integer({ min: 1, max: 300 })),
    trail: maybe(fc.integer({ min: 0, max: 200 })),
    pct: maybe(fc.integer({ min: 10, max: 100 })),
  }),
  fc.record({
    k: fc.constant("close" as const),
    id: fc.integer({ min: 0, max: 3 }),
    pct: maybe(fc.integer({ min: 10, max: 100 })),
  }),
  fc.constant({ k: "close_all" as const }),
  fc.record({ k: fc.constant("cancel" as const), id: fc.integer({ min: 0, max: 3 }) }),
);

const bar = fc
  .tuple(price, fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 1000 }))
  .map(([o, up, down, c]) => {
    const high = o + up / 100;
    const low = o - down / 100;
    return [o, high, low, low + ((high - low) * c) / 1000] as [number, number, number, number];
  });

const settings = fc.record({
  pyramiding: fc.integer({ min: 0, max: 3 }),
  slippage: fc.integer({ min: 0, max: 3 }),
  commission_type: fc.constantFrom("percent", "cash_per_contract", "cash_per_order"),
  commission_value: fc.constantFrom(0, 0.1, 1),
  process_orders_on_close: fc.boolean(),
  close_entries_rule: fc.constantFrom("FIFO", "ANY"),
  margin_long: fc.constantFrom(0, 100, 20),
  margin_short: fc.constantFrom(0, 100, 20),
  default_qty_type: fc.constantFrom("fixed", "percent_of_equity", "cash"),
  default_qty_value: fc.constantFrom(1, 10, 500),
  initial_capital: fc.constantFrom(1000, 100000),
});

describe("broker invariants", () => {
  it("books balance on random order flow", () => {
    let runsWithTrades = 0;
    fc.assert(
      fc.property(
        fc.array(bar, { minLength: 2, maxLength: 40 }),
        fc.array(fc.array(op, { maxLength: 3 }), { maxLength: 40 }),
        settings,
        (rows, plan, set) => {
          const ctx = makeCtx(columnsOf(rows), { type: "forex", mintick: 0.01 });
          const { result, broker } = replay(ctx, set, (i, c, b) => {
            for (const o of plan[i] ?? []) {
              if (o.k === "entry")
                b.entry({ id: `E${o.id}`, direction: o.dir, qty: o.qty, limit: o.limit, stop: o.stop }, c);
              else if (o.k === "order") b.entry({ id: `E${o.id}`, direction: o.dir, qty: o.qty }, c, "order");
              else if (o.k === "exit")
                b.exit(
                  {
                    id: `X${o.id}`,
                    fromEntry: o.from < 0 ? null : `E${o.from}`,
                    profit: o.profit,
                    loss: o.loss,
                    trailPoints: o.trail,
                    trailOffset: o.trail === o.trail ? 5 : NaN,
                    qtyPercent: o.pct,
                  },
                  c,
                );
              else if (o.k === "close") b.close({ id: `E${o.id}`, qtyPercent: o.pct }, c);
              else if (o.k === "close_all") b.close({}, c, true);
              else b.cancel(`E${o.id}`, c);
            }
          });
          if (result.trades.length > 0) runsWithTrades++;
          const slip = set.slippage * 0.01 + 1e-9;
          let net = 0;
          for (const t of result.trades) {
            expect(Number.isFinite(t.profit) && t.qty > 0).toBe(true);
            net += t.profit;
            for (const [p, bi] of [
              [t.entry_price, t.entry_bar_index],
              [t.exit_price as number, t.exit_bar_index as number],
            ] as const) {
              expect(p).toBeGreaterThanOrEqual(rows[bi][2] - slip);
              expect(p).toBeLessThanOrEqual(rows[bi][1] + slip);
            }
          }
          expect(net).toBeCloseTo(result.stats.net_profit, 6);
          let pos = 0;
          for (const t of result.open_trades) pos += (t.direction === "long" ? 1 : -1) * t.qty;
          expect(pos).toBeCloseTo(broker.ledger.positionSize(), 9);
          const last = rows[rows.length - 1][3];
          expect(result.equity[result.equity.length - 1]).toBeCloseTo(
            set.initial_capital + result.stats.net_profit + broker.ledger.openProfit(last),
            6,
          );
          expect(result.equity).toHaveLength(rows.length);
        },
      ),
      { numRuns: 300 },
    );
    // Many generated flows do close trades (the property is not vacuous).
    expect(runsWithTrades).toBeGreaterThan(50);
  });
});

describe("bad input", () => {
  it("na bars, nonsense settings and na arguments neither throw nor trade on garbage", () => {
    // Bar 1 is all na: nothing fills there; the market entry fills at bar 2's open instead.
    const rows: [number, number, number, number][] = [
      [10, 10, 10, 10],
      [NaN, NaN, NaN, NaN],
      [11, 11, 11, 11],
      [12, 12, 12, 12],
    ];
    const ctx = makeCtx(columnsOf(rows), { type: "forex", mintick: 0.01 });
    const weird = {
      initial_capital: "lots",
      pyramiding: -4,
      slippage: NaN,
      commission_type: 42,
      default_qty_type: "strategy.bogus",
    };
    const { result } = replay(ctx, weird, (i, c, b) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, c);
        b.entry({ id: "Z", direction: "long", qty: -3 }, c);
        b.exit({ id: "X", fromEntry: "L", profit: NaN, loss: NaN }, c);
        b.close({ id: "nothing" }, c);
      }
    });
    expect(result.open_trades.map((t) => [t.entry_bar_index, t.entry_price, t.qty])).toEqual([[2, 11, 1]]);
    expect(result.stats.initial_capital).toBe(1_000_000);
  });
});
