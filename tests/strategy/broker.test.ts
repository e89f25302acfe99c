// Broker emulator rules, one test each, driven through the Broker API with a minimal ExecContext.
// Every expectation is worked out by hand in the comment above it. Bars are [open, high, low, close];
// mintick 0.01 and pointvalue 1 unless a test says otherwise.

import { describe, expect, it } from "vitest";
import { columnsOf, makeCtx, replay, setBar } from "./harness.js";
import type { SymInfo } from "../../src/core/result.js";
import { createBroker, type Broker } from "../../src/strategy/index.js";

type Row = [number, number, number, number];
type Script = (i: number, b: Broker, ctx: Parameters<Parameters<typeof replay>[2]>[1]) => void;

function run(
  rows: Row[],
  settings: Record<string, unknown>,
  script: Script,
  sym: Partial<SymInfo> = {},
  ext: Record<string, unknown> = {},
) {
  const ctx = makeCtx(columnsOf(rows), { type: "stock", ...sym }, { ext });
  const { result, broker } = replay(ctx, settings, (i, c, b) => script(i, b, c));
  return { result, broker, ctx };
}

/** Runs and records strategy.position_size as seen by the script on each bar (after that bar's fills). */
function positionsOf(rows: Row[], settings: Record<string, unknown>, script: Script, sym: Partial<SymInfo> = {}) {
  const seen: number[] = [];
  const out = run(
    rows,
    settings,
    (i, b, c) => {
      seen.push(b.ledger.positionSize());
      script(i, b, c);
    },
    sym,
  );
  return { ...out, seen };
}

const flat: Row = [100, 100, 100, 100];

describe("market orders", () => {
  it("fill at the next bar's open", () => {
    // Entry placed on bar 0 fills at bar 1's open (101); close placed on bar 1 fills at bar 2's open (102).
    const { result, seen } = positionsOf(
      [
        [100, 101, 99, 100.5],
        [101, 102, 100, 101.5],
        [102, 103, 101, 102.5],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.close({ id: "L" }, ctx);
      },
    );
    expect(seen).toEqual([0, 1, 0]);
    expect(result.trades).toHaveLength(1);
    const t = result.trades[0];
    expect([t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price, t.profit]).toEqual([1, 101, 2, 102, 1]);
    expect(t.exit_id).toBe("Close entry(s) order L");
  });

  it("fill at the same bar's close with process_orders_on_close", () => {
    // Entry on bar 0 fills at bar 0's close 100.5; the close on bar 1 fills at bar 1's close 101.5: profit 1.
    const { result } = run(
      [
        [100, 101, 99, 100.5],
        [101, 102, 100, 101.5],
        [102, 103, 101, 102.5],
      ],
      { process_orders_on_close: true },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.close({ id: "L" }, ctx);
      },
    );
    const t = result.trades[0];
    expect([t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price, t.profit]).toEqual([
      0, 100.5, 1, 101.5, 1,
    ]);
  });

  it("close(immediately = true) fills at the current close during the call", () => {
    // Long filled at bar 1's open 101; close(immediately) on bar 1 exits at bar 1's close 101.5.
    const { result } = run(
      [
        [100, 101, 99, 100],
        [101, 102, 100, 101.5],
        [102, 103, 101, 102],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.close({ id: "L", immediately: true }, ctx);
      },
    );
    expect(result.trades[0].exit_bar_index).toBe(1);
    expect(result.trades[0].exit_price).toBe(101.5);
  });
});

describe("limit and stop orders", () => {
  it("a buy limit fills at its price when the bar reaches it", () => {
    // Limit 99 placed on bar 0; bar 1 opens 100 and trades down to 98.5: fill at 99.
    const { result } = run([[100, 101, 99.5, 100], [100, 100.5, 98.5, 99.5], flat], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", limit: 99 }, ctx);
    });
    expect(result.open_trades[0].entry_price).toBe(99);
    expect(result.open_trades[0].entry_bar_index).toBe(1);
  });

  it("a buy limit crossed by a gap fills at the open", () => {
    // Bar 1 opens at 98, below the 99 limit: the order fills at the better open price 98.
    const { result } = run([[100, 101, 99.5, 100], [98, 99.5, 97, 98.5], flat], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", limit: 99 }, ctx);
    });
    expect(result.open_trades[0].entry_price).toBe(98);
  });

  it("a buy stop fills at its price, or at the open when a gap jumps over it", () => {
    // Stop 101: bar 1 opens 100 and rises to 101.5 -> 101. Second run: bar 1 opens 102 -> 102.
    const reach = run([[100, 100.5, 99.5, 100], [100, 101.5, 99.8, 101], flat], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", stop: 101 }, ctx);
    });
    expect(reach.result.open_trades[0].entry_price).toBe(101);
    const gap = run([[100, 100.5, 99.5, 100], [102, 103, 101.5, 102.5], flat], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", stop: 101 }, ctx);
    });
    expect(gap.result.open_trades[0].entry_price).toBe(102);
  });

  it("order prices are rounded to the tick against the trader", () => {
    // Buy stop 101.0049 -> 101.01 (up); sell stop 98.9951 -> 98.99 (down).
    const { broker } = run([flat], {}, () => {});
    expect(broker.roundPrice(101.0049, 1, true)).toBe(101.01);
    expect(broker.roundPrice(98.9951, -1, true)).toBe(98.99);
    expect(broker.roundPrice(99.0049, 1, false)).toBe(99);
  });

  it("strategy.cancel removes a pending order before it fills", () => {
    // Limit 99 placed on bar 0, cancelled on bar 1 (after bar 1 did not reach it); bar 2 trades at 98: no fill.
    const { result } = run([flat, [100, 100.5, 99.5, 100], [99, 99.5, 98, 98.5]], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", limit: 99 }, ctx);
      if (i === 1) b.cancel("L", ctx);
    });
    expect(result.trades.length + result.open_trades.length).toBe(0);
  });
});

describe("intrabar path", () => {
  // Long entered at bar 1's open 100 with a bracket placed on bar 0 (pending until the entry fills).
  const bracket = (sl: number) => (i: number, b: Broker, ctx: Parameters<Script>[2]) => {
    if (i === 0) {
      b.entry({ id: "L", direction: "long" }, ctx);
      b.exit({ id: "X", fromEntry: "L", limit: 100.4, stop: sl }, ctx);
    }
  };

  it("visits the high first when the open is nearer the high", () => {
    // Bar 1: open 100, high 100.5 (0.5 away), low 99 (1 away): 100 -> 100.5 hits the 100.4 target first.
    const { result } = run([flat, [100, 100.5, 99, 99.5], flat], {}, bracket(99.7));
    expect(result.trades[0].exit_price).toBe(100.4);
    expect(result.trades[0].exit_bar_index).toBe(1);
  });

  it("visits the low first when the open is nearer the low (and on a tie)", () => {
    // Bar 1: open 100, high 102, low 99.6: 100 -> 99.6 crosses the 99.7 stop before the target.
    const { result } = run([flat, [100, 102, 99.6, 101], flat], {}, bracket(99.7));
    expect(result.trades[0].exit_price).toBe(99.7);
    // Tie: open 100, high 101, low 99 -> low first -> stop.
    const tie = run([flat, [100, 101, 99, 100], flat], {}, bracket(99.7));
    expect(tie.result.trades[0].exit_price).toBe(99.7);
  });

  it("the bar magnifier walks lower-timeframe bars instead", () => {
    // Chart bar 1 (open 100, high 105, low 95) would go low first (tie) and stop out at 96. Its two
    // sub-bars say the high came first: sub 0 = 100 -> 105 reaches the 104 target.
    const rows: Row[] = [flat, [100, 105, 95, 100], flat];
    const cols = columnsOf(rows);
    const subT = cols.time[1];
    const sub = [
      { time: subT, open: 100, high: 105, low: 99.5, close: 104 },
      { time: subT + 1_800_000, open: 104, high: 104.5, low: 95, close: 100 },
    ];
    const script: Script = (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, ctx);
        b.exit({ id: "X", fromEntry: "L", limit: 104, stop: 96 }, ctx);
      }
    };
    const plain = run(rows, {}, script);
    expect(plain.result.trades[0].exit_price).toBe(96);
    const mag = run(rows, { use_bar_magnifier: true }, script, {}, { magnifierBars: sub });
    expect(mag.result.trades[0].exit_price).toBe(104);
  });
});

describe("slippage and commission", () => {
  it("slippage moves market and stop fills against the trader, never limits", () => {
    // slippage 2 ticks = 0.02. Market buy at open 100 -> 100.02; market sell (close) at open 102 -> 101.98.
    const m = run([flat, [100, 101, 99, 100], [102, 103, 101, 102]], { slippage: 2 }, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      if (i === 1) b.close({ id: "L" }, ctx);
    });
    expect(m.result.trades[0].entry_price).toBeCloseTo(100.02, 10);
    expect(m.result.trades[0].exit_price).toBeCloseTo(101.98, 10);
    // Buy stop 101 reached intrabar -> 101.02; buy limit 99 -> exactly 99.
    const s = run([flat, [100, 101.5, 99.9, 101]], { slippage: 2 }, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", stop: 101 }, ctx);
    });
    expect(s.result.open_trades[0].entry_price).toBeCloseTo(101.02, 10);
    const l = run([flat, [100, 100.5, 98.5, 99]], { slippage: 2 }, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", limit: 99 }, ctx);
    });
    expect(l.result.open_trades[0].entry_price).toBe(99);
  });

  it("slippage applies to an exit's stop leg, not to its take-profit limit (reference: market/stop orders)", () => {
    // Long at 100.02 (market, 2 ticks); bar 2 reaches the take-profit 101 -> exactly 101; another run
    // reaches the stop-loss 99 -> 98.98.
    const exitAt = (bar: Row) =>
      run([flat, [100, 100.1, 99.9, 100], bar], { slippage: 2 }, (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.exit({ id: "X", fromEntry: "L", limit: 101, stop: 99 }, ctx);
      }).result.trades[0];
    expect(exitAt([100, 101.5, 99.95, 101]).exit_price).toBe(101);
    expect(exitAt([100, 100.05, 98.5, 98.8]).exit_price).toBeCloseTo(98.98, 10);
  });

  const roundTrip = (settings: Record<string, unknown>, qty = 1) =>
    run([flat, [100, 101, 99, 100], [102, 103, 101, 102]], settings, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", qty }, ctx);
      if (i === 1) b.close({ id: "L" }, ctx);
    }).result.trades[0];

  it("percent commission is charged on each fill's value", () => {
    // 0.1% of 100 = 0.1 at entry, 0.1% of 102 = 0.102 at exit; profit = 2 - 0.202 = 1.798.
    const t = roundTrip({ commission_type: "percent", commission_value: 0.1 });
    expect(t.commission).toBeCloseTo(0.202, 10);
    expect(t.profit).toBeCloseTo(1.798, 10);
  });

  it("cash_per_contract is charged per contract on both legs", () => {
    // 3 contracts x 2 per contract x 2 legs = 12; profit = 3 x 2 - 12 = -6.
    const t = roundTrip({ commission_type: "cash_per_contract", commission_value: 2 }, 3);
    expect(t.commission).toBeCloseTo(12, 10);
    expect(t.profit).toBeCloseTo(-6, 10);
  });

  it("cash_per_order is charged once per order", () => {
    // 5 per order, two orders: 10; profit = 3 x 2 - 10 = -4.
    const t = roundTrip({ commission_type: "cash_per_order", commission_value: 5 }, 3);
    expect(t.commission).toBeCloseTo(10, 10);
    expect(t.profit).toBeCloseTo(-4, 10);
  });
});

describe("cash_per_order on a reversal", () => {
  it("one reversing order pays one fee, split between the leg it closes and the leg it opens", () => {
    // Fee 10 per order. Long 1 at 100 (bar 1), reversed to short 1 at 110 (bar 2), closed at 120 (bar 3).
    // Long: +10 gross, fees 10 + 5 = 15 -> -5. Short: -10 gross, fees 5 + 10 = 15 -> -25. Three orders, 30.
    const { result } = run(
      [flat, [100, 100, 100, 100], [110, 110, 110, 110], [120, 120, 120, 120]],
      { commission_type: "cash_per_order", commission_value: 10 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.entry({ id: "S", direction: "short" }, ctx);
        if (i === 2) b.close({}, ctx, true);
      },
    );
    expect(result.trades.map((t) => [t.commission, t.profit])).toEqual([
      [15, -5],
      [15, -25],
    ]);
    expect(result.stats.commission_paid).toBe(30);
  });
});

describe("position rules", () => {
  const rising: Row[] = [flat, [101, 101, 101, 101], [102, 102, 102, 102], [103, 103, 103, 103], [104, 104, 104, 104]];

  it("pyramiding limits same-direction entries", () => {
    // pyramiding 2: entries on bars 0, 1, 2 -> the first two fill (bars 1 and 2), the third is refused.
    const two = run(rising, { pyramiding: 2 }, (i, b, ctx) => {
      if (i <= 2) b.entry({ id: `L${i}`, direction: "long" }, ctx);
    });
    expect(two.result.open_trades.map((t) => t.entry_price)).toEqual([101, 102]);
    // Default pyramiding 0 allows one entry: "B" on bar 1 is refused while "A" is open.
    const one = run(rising, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "A", direction: "long" }, ctx);
      if (i === 1) b.entry({ id: "B", direction: "long" }, ctx);
    });
    expect(one.result.open_trades.map((t) => t.entry_id)).toEqual(["A"]);
  });

  it("pyramiding is checked when an entry is placed, not when it fills", () => {
    // Bar 0 (flat): buy stops A at 103 and B at 102. Bar 2 reaches both: B fills at 102, then A at 103
    // on top of it (both were placed while flat), so two trades are open with pyramiding 0.
    const rows: Row[] = [flat, flat, [101, 104, 100.5, 103.5], flat];
    const both = run(rows, {}, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "A", direction: "long", stop: 103 }, ctx);
        b.entry({ id: "B", direction: "long", stop: 102 }, ctx);
      }
    });
    expect(both.result.open_trades.map((t) => [t.entry_id, t.entry_price])).toEqual([
      ["B", 102],
      ["A", 103],
    ]);
    // Placed while long at the limit, the call places nothing: C never fills, and A (pending from
    // the flat bar) is not replaced by its blocked re-placement at 110.
    const blocked = run(rows, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      if (i === 0) b.entry({ id: "A", direction: "long", stop: 103 }, ctx);
      if (i === 1) b.entry({ id: "C", direction: "long", stop: 102 }, ctx);
      if (i === 1) b.entry({ id: "A", direction: "long", stop: 110 }, ctx);
    });
    expect(blocked.result.open_trades.map((t) => [t.entry_id, t.entry_price])).toEqual([
      ["L", 100],
      ["A", 103],
    ]);
  });

  it("an entry in the opposite direction closes the position and reverses", () => {
    // Long 2 at 101 (bar 1 open); short entry qty 1 on bar 1 fills at 102: the long closes (+2),
    // a short of 1 opens at 102.
    const { result, seen } = positionsOf(rising, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", qty: 2 }, ctx);
      if (i === 1) b.entry({ id: "S", direction: "short", qty: 1 }, ctx);
    });
    expect(seen.slice(0, 3)).toEqual([0, 2, -1]);
    expect(result.trades[0].profit).toBe(2);
    expect(result.trades[0].exit_id).toBe("S");
    expect(result.open_trades[0].direction).toBe("short");
    expect(result.open_trades[0].entry_price).toBe(102);
  });

  it("strategy.order nets against the position instead of reversing it whole", () => {
    // order long 2 (fills 101), then order short 3 (fills 102): closes 2, opens short 1.
    const { seen } = positionsOf(rising, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "a", direction: "long", qty: 2 }, ctx, "order");
      if (i === 1) b.entry({ id: "b", direction: "short", qty: 3 }, ctx, "order");
    });
    expect(seen.slice(0, 3)).toEqual([0, 2, -1]);
  });

  it("strategy.close with qty closes part of the entry", () => {
    // Long 4 at 101; close qty 1 at 102 -> position 3, one closed trade of 1 with profit 1.
    const { result, seen } = positionsOf(rising, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", qty: 4 }, ctx);
      if (i === 1) b.close({ id: "L", qty: 1 }, ctx);
    });
    expect(seen[2]).toBe(3);
    expect(result.trades[0].qty).toBe(1);
    expect(result.trades[0].profit).toBe(1);
  });

  it("several closes on one bar stack, qty_percent of the position when placed", () => {
    // Long 10; on bar 1 close 30%, 30% and 40% -> 3 + 3 + 4, flat after bar 2's open.
    const { result } = run(rising, {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", qty: 10 }, ctx);
      if (i === 1) for (const p of [30, 30, 40]) b.close({ id: "L", qtyPercent: p, comment: `TP${p}` }, ctx);
    });
    expect(result.trades.map((t) => t.qty)).toEqual([3, 3, 4]);
    expect(result.open_trades).toHaveLength(0);
  });

  it("close_entries_rule FIFO closes the oldest entry, ANY the one named by from_entry", () => {
    // A fills at 101 (bar 1), B at 102 (bar 2); exit from_entry B with limit 105 placed on bar 2,
    // bar 3 reaches 106 -> one contract closes at 105: FIFO takes A's, ANY takes B's.
    const rows: Row[] = [flat, [101, 101, 101, 101], [102, 102, 102, 102], [103, 106, 103, 104], flat];
    const script: Script = (i, b, ctx) => {
      if (i === 0) b.entry({ id: "A", direction: "long" }, ctx);
      if (i === 1) b.entry({ id: "B", direction: "long" }, ctx);
      if (i === 2) b.exit({ id: "XB", fromEntry: "B", limit: 105 }, ctx);
    };
    const fifo = run(rows, { pyramiding: 2 }, script);
    expect(fifo.result.trades.map((t) => [t.entry_id, t.exit_price])).toEqual([["A", 105]]);
    const any = run(rows, { pyramiding: 2, close_entries_rule: "ANY" }, script);
    expect(any.result.trades.map((t) => [t.entry_id, t.exit_price])).toEqual([["B", 105]]);
  });
});

describe("strategy.exit", () => {
  it("profit and loss are distances in ticks from the entry price", () => {
    // Entry 100; profit 50 ticks -> 100.50 target, loss 100 ticks -> 99.00 stop. Bar 2 reaches 100.6.
    const { result } = run([flat, [100, 100.3, 99.5, 100.2], [100.2, 100.6, 100.1, 100.4]], {}, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, ctx);
        b.exit({ id: "X", fromEntry: "L", profit: 50, loss: 100 }, ctx);
      }
    });
    expect(result.trades[0].exit_price).toBe(100.5);
    expect(result.trades[0].exit_bar_index).toBe(2);
  });

  it("v6 uses whichever of absolute and relative levels is reached first", () => {
    // limit 101 and profit 50 ticks (100.5): the nearer 100.5 wins in v6.
    const { result } = run([flat, [100, 101.5, 99.9, 101]], {}, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, ctx);
        b.exit({ id: "X", fromEntry: "L", profit: 50, limit: 101 }, ctx);
      }
    });
    expect(result.trades[0].exit_price).toBe(100.5);
  });

  it("qty_percent exits part of the entry", () => {
    // Long 4 at 100; exit 50% at limit 101: 2 close at 101 (profit 2), 2 stay open.
    const { result } = run([flat, [100, 101.5, 99.9, 101], flat], {}, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long", qty: 4 }, ctx);
        b.exit({ id: "X", fromEntry: "L", qtyPercent: 50, limit: 101 }, ctx);
      }
    });
    expect(result.trades.map((t) => [t.qty, t.exit_price, t.profit])).toEqual([[2, 101, 2]]);
    expect(result.open_trades[0].qty).toBe(2);
  });

  it("a sized exit fires its slice once; an unsized sibling takes only the rest", () => {
    // Long 2 at 100, brackets re-issued every bar: TP 50% at 105, SL (no qty) at 95.
    // Rising: TP closes 1 at 105 once, however long price stays above 105.
    const up = run(
      [flat, flat, [101, 106, 100.5, 105], [106, 107, 105.5, 106], [106, 108, 105.5, 107]],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long", qty: 2 }, ctx);
        if (b.ledger.positionSize() > 0 || i === 0) {
          b.exit({ id: "TP", fromEntry: "L", limit: 105, qtyPercent: 50 }, ctx);
          b.exit({ id: "SL", fromEntry: "L", stop: 95 }, ctx);
        }
      },
    );
    expect(up.result.trades.map((t) => [t.exit_id, t.qty, t.exit_price])).toEqual([["TP", 1, 105]]);
    // Falling: SL closes 2 - 1 (reserved by TP) = 1 at 95; one contract stays open.
    const down = run([flat, flat, [99, 99.5, 94, 95], [95, 96, 94.5, 95.5]], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", qty: 2 }, ctx);
      b.exit({ id: "TP", fromEntry: "L", limit: 105, qtyPercent: 50 }, ctx);
      b.exit({ id: "SL", fromEntry: "L", stop: 95 }, ctx);
    });
    expect(down.result.trades.map((t) => [t.exit_id, t.qty, t.exit_price])).toEqual([["SL", 1, 95]]);
    expect(down.result.open_trades[0].qty).toBe(1);
  });

  it("a trailing stop activates at trail_points and trails by trail_offset", () => {
    // Entry 100. trail_points 100 ticks -> activation at 101; trail_offset 50 ticks = 0.5.
    // Bar 2 (open 100.2, low 100.1 first, then high 102): activates, peak 102, stop 101.5; close 101.8.
    // Bar 3 (open 101.9, high 102.3 first -> peak 102.3, stop 101.8, then low 101.0): exit at 101.8.
    const { result } = run(
      [flat, [100, 100.5, 99.8, 100.2], [100.2, 102, 100.1, 101.8], [101.9, 102.3, 101.0, 101.2], flat],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long" }, ctx);
          b.exit({ id: "T", fromEntry: "L", trailPoints: 100, trailOffset: 50 }, ctx);
        }
      },
    );
    expect(result.trades[0].exit_bar_index).toBe(3);
    expect(result.trades[0].exit_price).toBeCloseTo(101.8, 10);
  });
});

describe("strategy.exit, more", () => {
  it("a trailing stop rides the activation bar's path and fills on its pullback", () => {
    // Entry 50. trail_price 51, offset 20 ticks (0.20). Bar 2: open 50.3, low 50.2 first, then high 52
    // (activates at 51, peak 52, stop 51.80), then the close 51.1 falls through 51.80 -> exit 51.80.
    const { result } = run(
      [
        [50, 50, 50, 50],
        [50, 50.2, 49.9, 50.1],
        [50.3, 52, 50.2, 51.1],
        [51, 51, 51, 51],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long" }, ctx);
          b.exit({ id: "T", fromEntry: "L", trailPrice: 51, trailOffset: 20 }, ctx);
        }
      },
    );
    expect(result.trades[0].exit_bar_index).toBe(2);
    expect(result.trades[0].exit_price).toBeCloseTo(51.8, 10);
  });

  it("a zero-offset trailing stop fills at a gap open above its activation", () => {
    // Entry 50, trail_points 10 ticks (50.10), offset 0. Bar 1 stays below 50.10. Bar 2 opens at
    // 50.45, past the activation: the stop is born on the open and fills there.
    const { result } = run(
      [
        [50, 50, 50, 50],
        [50, 50.05, 50, 50.05],
        [50.45, 50.9, 50.45, 50.8],
        [51, 51, 51, 51],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long" }, ctx);
          b.exit({ id: "T", fromEntry: "L", trailPoints: 10, trailOffset: 0 }, ctx);
        }
      },
    );
    expect(result.trades[0].exit_bar_index).toBe(2);
    expect(result.trades[0].exit_price).toBe(50.45);
  });

  it("a trailing stop without trail_offset fires at its activation price (TradingView: offset 0)", () => {
    // Entry 50 at bar 1's open, trail_points 10 ticks: bar 1 climbs through 50.10 -> exit 50.10 on
    // the entry bar (PineForge bracket-trail-points-no-offset exports).
    const { result } = run(
      [
        [50, 50, 50, 50],
        [50, 50.4, 50, 50.4],
        [50.45, 50.9, 50.45, 50.8],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long" }, ctx);
          b.exit({ id: "T", fromEntry: "L", trailPoints: 10 }, ctx);
        }
      },
    );
    expect(result.trades[0].exit_bar_index).toBe(1);
    expect(result.trades[0].exit_price).toBe(50.1);
  });

  it("a take-profit reached on the way up beats the trailing stop's later pullback", () => {
    // Entry 50; limit 50.8; trail from 50.2 with offset 30 ticks. Bar 2: open 50, low 49.9, high 51.5,
    // close 50.6: the rising leg crosses 50.8 first -> exit 50.8 (not 51.5 - 0.3 = 51.2).
    const { result } = run(
      [
        [50, 50, 50, 50],
        [50, 50.1, 49.95, 50],
        [50, 51.5, 49.9, 50.6],
        [50, 50, 50, 50],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long" }, ctx);
          b.exit({ id: "X", fromEntry: "L", limit: 50.8, trailPrice: 50.2, trailOffset: 30 }, ctx);
        }
      },
    );
    expect(result.trades[0].exit_price).toBe(50.8);
  });

  it("two exits of one entry fill in the order the path reaches them", () => {
    // Long 2 at 60; exit A qty 1 stop 58, exit B qty 1 stop 55. Bar 2 opens 59 and falls to 54:
    // A (58) closes first, then B (55).
    const { result } = run(
      [
        [60, 60, 60, 60],
        [60, 60.5, 59.5, 60],
        [59, 59.5, 54, 56],
        [56, 56, 56, 56],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long", qty: 2 }, ctx);
        if (i === 1) {
          b.exit({ id: "A", fromEntry: "L", qty: 1, stop: 58 }, ctx);
          b.exit({ id: "B", fromEntry: "L", qty: 1, stop: 55 }, ctx);
        }
      },
    );
    expect(result.trades.map((t) => [t.exit_id, t.exit_price, t.qty])).toEqual([
      ["A", 58, 1],
      ["B", 55, 1],
    ]);
  });

  it("one exit covers every pyramided entry with its id", () => {
    // pyramiding 2: "L" fills at 70 (bar 1) and again at 71 (bar 3); exit stop 69 re-issued each bar.
    // Bar 4 falls to 68: both trades close at 69.
    const { result } = run(
      [
        [70, 70, 70, 70],
        [70, 70.4, 70, 70.3],
        [70.3, 71, 70.2, 71],
        [71, 71.2, 70.8, 71],
        [71, 71.1, 68, 68.5],
        [68, 68, 68, 68],
      ],
      { pyramiding: 2 },
      (i, b, ctx) => {
        if (i === 0 || i === 2) b.entry({ id: "L", direction: "long" }, ctx);
        if (b.ledger.positionSize() > 0) b.exit({ id: "X", fromEntry: "L", stop: 69 }, ctx);
      },
    );
    expect(result.trades.map((t) => [t.entry_price, t.exit_price, t.exit_bar_index])).toEqual([
      [70, 69, 4],
      [71, 69, 4],
    ]);
  });
});

describe("exit binding", () => {
  it("an exit with every level na is a no-op, not a market close", () => {
    // Levels from position_avg_price are na while flat; the bracket becomes real once the entry
    // (filled at bar 1's open 100) is open: limit 110 reached on bar 3.
    const { result } = run([flat, flat, [100, 105, 99, 104], [108, 112, 107, 111], flat], {}, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "E", direction: "long" }, ctx);
      const avg = b.ledger.avgPrice();
      b.exit({ id: "X", fromEntry: "E", stop: avg - 5, limit: avg + 10 }, ctx);
    });
    expect(result.trades.map((t) => [t.exit_bar_index, t.exit_price])).toEqual([[3, 110]]);
  });

  it("an exit without from_entry covers the open position, not the new leg of a reversal", () => {
    // exit(loss = 100 ticks) issued every bar. Long opened from flat on bar 2 (signal bar 1) stops out
    // on its own fill bar (low 98 < 99). Long L2 opens at bar 5; the short reversal fills at bar 7's
    // open 100 and survives that bar's 102 high (its bracket is issued at bar 7's close), then stops
    // at 101 on bar 8.
    const rows: Row[] = [
      flat,
      flat,
      [100, 100, 98, 100],
      flat,
      flat,
      flat,
      flat,
      [100, 102, 100, 100],
      [100, 102, 100, 100],
      flat,
    ];
    const { result } = run(rows, {}, (i, b, ctx) => {
      if (i === 1) b.entry({ id: "L1", direction: "long" }, ctx);
      if (i === 4) b.entry({ id: "L2", direction: "long" }, ctx);
      if (i === 6) b.entry({ id: "S", direction: "short" }, ctx);
      b.exit({ id: "x", loss: 100 }, ctx);
    });
    expect(result.trades.map((t) => [t.entry_id, t.exit_id, t.exit_bar_index, t.exit_price])).toEqual([
      ["L1", "x", 2, 99],
      ["L2", "S", 7, 100],
      ["S", "x", 8, 101],
    ]);
  });
});

describe("OCA groups", () => {
  it("cancel: the first fill cancels the rest of the group", () => {
    // Long stop 101 and short stop 99 in one cancel group. Bar 1 (open 100, low 99.5 first, high 101.5)
    // fills the long at 101 and cancels the short; bar 2 trades down to 98 without a short fill.
    const { result } = run([flat, [100, 101.5, 99.5, 100], [100, 100.2, 98, 98.5]], {}, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long", stop: 101, ocaName: "g", ocaType: "cancel" }, ctx);
        b.entry({ id: "S", direction: "short", stop: 99, ocaName: "g", ocaType: "cancel" }, ctx);
      }
    });
    expect(result.trades).toHaveLength(0);
    expect(result.open_trades.map((t) => [t.entry_id, t.entry_price])).toEqual([["L", 101]]);
  });

  it("reduce: a fill reduces the others by the filled quantity", () => {
    // Buy limit 99 qty 2 and buy limit 98 qty 3 in one reduce group (pyramiding 2). Bar 1 falls to 97.5:
    // the first fills 2 at 99, the second is cut to 1 and fills at 98 -> position 3.
    const { result } = run([flat, [100, 100.2, 97.5, 98]], { pyramiding: 2 }, (i, b, ctx) => {
      if (i === 0) {
        b.entry({ id: "A", direction: "long", qty: 2, limit: 99, ocaName: "r", ocaType: "reduce" }, ctx);
        b.entry({ id: "B", direction: "long", qty: 3, limit: 98, ocaName: "r", ocaType: "reduce" }, ctx);
      }
    });
    expect(result.open_trades.map((t) => [t.entry_id, t.qty, t.entry_price])).toEqual([
      ["A", 2, 99],
      ["B", 1, 98],
    ]);
  });
});

describe("sizing", () => {
  it("percent_of_equity sizes on equity and the close of the order's bar, net of percent commission", () => {
    // 10% of 10,000 = 1,000 at close 100 -> 10 (qty step 0.1 for forex). With 0.1% commission:
    // 1000 / (100 x 1.001) = 9.99001 -> 9.9.
    const plain = run(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { initial_capital: 10000, default_qty_type: "percent_of_equity", default_qty_value: 10 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "forex" },
    );
    expect(plain.result.open_trades[0].qty).toBe(10);
    const comm = run(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      {
        initial_capital: 10000,
        default_qty_type: "strategy.percent_of_equity",
        default_qty_value: 10,
        commission_value: 0.1,
      },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "forex" },
    );
    expect(comm.result.open_trades[0].qty).toBe(9.9);
    // Crypto keeps six decimals: 1000 / 100.1 = 9.99000999 -> 9.990009.
    const crypto = run(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { initial_capital: 10000, default_qty_type: "percent_of_equity", default_qty_value: 10, commission_value: 0.1 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "crypto" },
    );
    expect(crypto.result.open_trades[0].qty).toBe(9.990009);
  });

  it("cash sizes as value / close", () => {
    // 550 at close 100 -> 5.5.
    const { result } = run(
      [
        [100, 100, 100, 100],
        [101, 101, 101, 101],
      ],
      { default_qty_type: "cash", default_qty_value: 550 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "crypto" },
    );
    expect(result.open_trades[0].qty).toBe(5.5);
  });

  it("futures P&L is multiplied by the point value", () => {
    // pointvalue 50: long 1 at 101, closed at 102 -> 50.
    const { result } = run(
      [flat, [101, 101, 101, 101], [102, 102, 102, 102]],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.close({ id: "L" }, ctx);
      },
      { type: "futures", pointvalue: 50 },
    );
    expect(result.trades[0].profit).toBe(50);
  });
});

describe("margin", () => {
  it("a margin call liquidates four times the quantity that covers the shortfall", () => {
    // Capital 1000, margin_long 50%, long 15 at 100. Bar 2's low 60: equity = 1000 - 40 x 15 = 400,
    // required margin = 15 x 60 x 0.5 = 450, shortfall 50; each unit frees 60 x 0.5 = 30 -> 1.67 units,
    // truncated to the qty step (1 for a stock) = 1, times 4 = 4 units sold at 60.
    const { result } = run(
      [flat, [100, 100, 100, 100], [90, 90, 60, 70], [70, 70, 70, 70]],
      { initial_capital: 1000, margin_long: 50 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long", qty: 15 }, ctx);
      },
    );
    expect(result.trades.map((t) => [t.qty, t.exit_price, t.exit_id])).toEqual([[4, 60, "Margin call"]]);
    expect(result.open_trades[0].qty).toBe(11);
    expect(result.stats.margin_calls).toBe(1);
  });
});

describe("strategy.risk rules", () => {
  // Hourly bars from 2024-01-01 00:00 UTC, flat at 100 unless changed.
  const day = (changes: Record<number, Row>, n = 27): Row[] => Array.from({ length: n }, (_, i) => changes[i] ?? flat);

  it("max_intraday_loss closes the position and blocks entries until the next day", () => {
    // Long 10 at 100 (bar 1 open); bar 1 closes at 99.4: the day's loss 6 >= 5 (cash) -> closed at
    // 99.4 on bar 1. The entry on bar 2 is refused (same day); the one on bar 24 (next day) fills at bar 25.
    const { result } = run(day({ 1: [100, 100, 99.4, 99.4] }), {}, (i, b, ctx) => {
      if (i === 0) {
        b.risk.maxIntradayLoss = 5;
        b.risk.maxIntradayLossType = "cash";
      }
      if (i === 0 || i === 2 || i === 24) b.entry({ id: `L${i}`, direction: "long", qty: 10 }, ctx);
    });
    expect(result.trades.map((t) => [t.entry_bar_index, t.exit_bar_index, t.exit_price, t.profit])).toEqual([
      [1, 1, 99.4, expect.closeTo(-6, 9)],
    ]);
    expect(result.open_trades.map((t) => [t.entry_id, t.entry_bar_index])).toEqual([["L24", 25]]);
  });

  it("max_drawdown stops the strategy for good", () => {
    // Capital 1000, 1% of the peak = 10. Long 10 at 100, bar 1 closes at 98.9: drawdown 11 -> closed,
    // and the entry on bar 3 never fills.
    const { result } = run(day({ 1: [100, 100, 98.9, 98.9] }, 6), { initial_capital: 1000 }, (i, b, ctx) => {
      if (i === 0) {
        b.risk.maxDrawdownValue = 1;
        b.risk.maxDrawdownType = "percent_of_equity";
        b.entry({ id: "L", direction: "long", qty: 10 }, ctx);
      }
      if (i === 3) b.entry({ id: "M", direction: "long", qty: 1 }, ctx);
    });
    expect(result.trades.map((t) => [t.exit_bar_index, t.exit_price])).toEqual([[1, 98.9]]);
    expect(result.open_trades).toHaveLength(0);
  });

  it("max_intraday_filled_orders halts the day after that many fills", () => {
    // Limit 2 fills a day: entry (bar 1) and close (bar 2) make 2; the entry placed on bar 2 is
    // cancelled at bar 2's close and nothing more fills that day.
    const { result } = run(day({}, 6), {}, (i, b, ctx) => {
      if (i === 0) {
        b.risk.maxIntradayFilledOrders = 2;
        b.entry({ id: "A", direction: "long" }, ctx);
      }
      if (i === 1) b.close({ id: "A" }, ctx);
      if (i === 2) b.entry({ id: "B", direction: "long" }, ctx);
    });
    expect(result.trades.map((t) => t.entry_id)).toEqual(["A"]);
    expect(result.open_trades).toHaveLength(0);
  });
});

describe("margin defaults", () => {
  it("v6 strategies default to 100% margin, v5 ones to none", () => {
    const v6 = makeCtx(columnsOf([flat]), { type: "stock" }, { version: 6 });
    const v5 = makeCtx(columnsOf([flat]), { type: "stock" }, { version: 5 });
    expect([createBroker({}, v6).settings.marginLong, createBroker({}, v5).settings.marginShort]).toEqual([100, 0]);
    expect(createBroker({ margin_long: 20 }, v5).settings.marginLong).toBe(20);
  });
});

describe("margin at the fill", () => {
  it("a fresh entry the equity cannot margin at its fill price is rejected", () => {
    // 100% of equity 1000 at close 10 -> 100 contracts; bar 1 opens at 10.01: 100 x 10.01 = 1001 > 1000.
    const { result } = run(
      [
        [10, 10, 10, 10],
        [10.01, 10.01, 9.9, 10],
        [10, 10, 10, 10],
      ],
      { initial_capital: 1000, default_qty_type: "percent_of_equity", default_qty_value: 100 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
    );
    expect(result.trades.length + result.open_trades.length).toBe(0);
  });

  it("the new leg of a reversal fills and a margin call at the open trims it", () => {
    // Short 100 at 10 (bar 1 open), flat price. Long entry (100% of equity 1000 at close 10 -> 100)
    // reverses at bar 3's open 10.01: the short closes at 10.01 (-1), equity 999; the long of 100
    // needs 1001: shortfall 2, cover 2 / 10.01 = 0.1998 -> 0.1 (step 0.1 for forex) x 4 = 0.4 sold at 10.01.
    const { result } = run(
      [
        [10, 10, 10, 10],
        [10, 10, 10, 10],
        [10, 10, 10, 10],
        [10.01, 10.01, 10.01, 10.01],
        [10.01, 10.01, 10.01, 10.01],
      ],
      { initial_capital: 1000, default_qty_type: "percent_of_equity", default_qty_value: 100 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "S", direction: "short" }, ctx);
        if (i === 2) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "forex" },
    );
    expect(result.trades.map((t) => [t.entry_id, t.exit_id, t.qty, t.exit_price])).toEqual([
      ["S", "L", 100, 10.01],
      ["L", "Margin call", 0.4, 10.01],
    ]);
    expect(result.open_trades[0].qty).toBeCloseTo(99.6, 10);
  });
});

describe("results", () => {
  it("records every order call as an event and keeps per-bar equity and stats", () => {
    // Long 1 at 101 closed at 102 (+1), short 1 at 103 closed at 104 (-1).
    const rows: Row[] = [flat, [101, 101, 101, 101], [102, 102, 102, 102], [103, 103, 103, 103], [104, 104, 104, 104]];
    const { result, broker } = run(rows, { initial_capital: 1000 }, (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long", comment: "go" }, ctx);
      if (i === 1) b.close({ id: "L" }, ctx);
      if (i === 2) b.entry({ id: "S", direction: "short", limit: 102.5 }, ctx);
      if (i === 3) b.close({ id: "S" }, ctx);
    });
    const e = broker.events[0];
    expect([e.kind, e.id, e.direction, e.qty, e.order_type, e.comment, e.bar_index, e.script_id, e.run_id]).toEqual([
      "entry",
      "L",
      "long",
      1,
      "market",
      "go",
      0,
      "test-script",
      "test-run",
    ]);
    expect(broker.events[2].order_type).toBe("limit");
    expect(broker.events[2].limit).toBe(102.5);
    expect(result.trades.map((t) => t.profit)).toEqual([1, -1]);
    expect(result.equity).toHaveLength(rows.length);
    expect(result.equity[4]).toBe(1000);
    expect(result.stats.net_profit).toBe(0);
    expect(result.stats.num_winning_trades).toBe(1);
    expect(result.stats.num_losing_trades).toBe(1);
    expect(result.stats.percent_profitable).toBe(50);
    expect(result.stats.profit_factor).toBe(1);
    expect(result.trades[0].entry_comment).toBe("go");
  });

  it("measures drawdown and run-up from booked equity to the bar's low and high", () => {
    // Capital 1000, 0.1% commission. Long 1 fills at bar 1's open 100 (fee 0.1): booked equity 999.9.
    // Bar 1 low 99: equity 1000 - 1 - 0.1 = 998.9, drawdown from the 1000 peak = 1.1 (0.11%).
    // Bar 1 high 110: equity 1009.9, run-up from the 999.9 trough = 10, percent of the top 1009.9.
    // Closed at bar 2's open 105 (fee 0.105): profit 4.795, percent of the entry cost 100.1.
    const { result, broker } = run(
      [
        [100, 100, 100, 100],
        [100, 110, 99, 105],
        [105, 105, 105, 105],
      ],
      { initial_capital: 1000, commission_value: 0.1 },
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
        if (i === 1) b.close({ id: "L" }, ctx);
      },
    );
    expect(broker.tracker.maxDrawdown).toBeCloseTo(1.1, 10);
    expect(broker.tracker.maxDrawdownPercent).toBeCloseTo(0.11, 10);
    expect(broker.tracker.maxRunup).toBeCloseTo(10, 10);
    expect(broker.tracker.maxRunupPercent).toBeCloseTo((10 / 1009.9) * 100, 10);
    expect(result.trades[0].profit).toBeCloseTo(4.795, 10);
    expect(result.trades[0].profit_percent).toBeCloseTo((4.795 / 100.1) * 100, 10);
  });

  it("snapshot / restore put the account back as it was (realtime ticks)", () => {
    // Long 1 filled at bar 1; snapshot after bar 1; bar 2 run twice (a tick, then the confirmed bar):
    // the result equals a run without the extra tick.
    const rows: Row[] = [flat, [101, 101, 101, 101], [102, 103, 101, 102], [104, 104, 104, 104]];
    const script: Script = (i, b, ctx) => {
      if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      if (i === 2) b.close({ id: "L" }, ctx);
    };
    const plain = run(rows, {}, script).result;
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const broker = createBroker({}, ctx);
    ctx.broker = broker;
    const step = (i: number) => {
      setBar(ctx, i);
      broker.onBarOpen(ctx);
      script(i, broker, ctx);
      broker.onBarClose(ctx);
    };
    step(0);
    step(1);
    const snap = broker.snapshot();
    step(2); // a realtime tick of bar 2
    broker.restore(snap);
    step(2); // the confirmed bar 2
    step(3);
    expect(broker.finish(ctx)).toEqual(plain);
    expect(broker.events).toHaveLength(2);
  });
});

describe("PineForge broker rules (TradingView exports)", () => {
  it("percent_of_equity with a cash-per-order commission sizes (equity x pct - fee) / price, floored to the step", () => {
    // equity 1000, 10% = 100, minus the 1.5 fee = 98.5 at the close 10 -> 9.85
    const settings = {
      initial_capital: 1000,
      default_qty_type: "percent_of_equity",
      default_qty_value: 10,
      commission_type: "cash_per_order",
      commission_value: 1.5,
    };
    const { result } = run(
      [
        [10, 10, 10, 10],
        [10, 10, 10, 10],
        [10, 10, 10, 10],
      ],
      settings,
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long" }, ctx);
      },
      { type: "crypto", mincontract: 0.0001 } as Partial<SymInfo>,
    );
    expect(result.open_trades[0].qty).toBeCloseTo(9.85, 10);
  });

  it("strategy.close of an entry that has not filled yet is ignored", () => {
    const { result } = run(
      [
        [10, 10, 10, 10],
        [11, 11, 11, 11],
        [12, 12, 12, 12],
        [13, 13, 13, 13],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) {
          b.entry({ id: "L", direction: "long", qty: 1 }, ctx);
          b.close({ id: "L" }, ctx);
        }
      },
    );
    expect(result.trades).toHaveLength(0);
    expect(result.open_trades).toHaveLength(1);
    expect(result.open_trades[0].entry_price).toBe(11);
  });

  it("a reversing entry is sized at placement: entry-then-close flattens and opens qty + the position held", () => {
    // short 1 from bar 1; bar 1 places a long stop entry already below the price (1 + 1 held = 2)
    // and then closes the short: at bar 2's open the market close flattens first and the stop opens
    // 2 long (PineForge order-deferred-flip: flips grow 1, 2, 3)
    const { result } = run(
      [
        [10, 10, 10, 10],
        [11, 11, 11, 11],
        [12, 12, 12, 12],
        [13, 13, 13, 13],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "S", direction: "short", qty: 1 }, ctx);
        if (i === 1) {
          b.entry({ id: "L", direction: "long", qty: 1, stop: 5 }, ctx);
          b.close({ id: "S" }, ctx);
        }
      },
    );
    expect(result.trades.map((t) => t.qty)).toEqual([1]);
    expect(result.open_trades[0].qty).toBe(2);
  });

  it("close-then-entry on one bar only opens the entry's qty", () => {
    const { result } = run(
      [
        [10, 10, 10, 10],
        [11, 11, 11, 11],
        [12, 12, 12, 12],
        [13, 13, 13, 13],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "S", direction: "short", qty: 1 }, ctx);
        if (i === 1) {
          b.close({ id: "S" }, ctx);
          b.entry({ id: "L", direction: "long", qty: 1 }, ctx);
        }
      },
    );
    expect(result.open_trades[0].qty).toBe(1);
  });

  it("an exit goes with the trades it was placed for, even if they close before the path checks it", () => {
    // long from bar 1; bar 1 places exit X (stop 5) and closes L; L fills again at bar 3 and must not
    // be closed by the old exit at its entry price
    const { result } = run(
      [
        [10, 10, 10, 10],
        [11, 11, 11, 11],
        [12, 12, 12, 12],
        [13, 13, 13, 13],
        [14, 14, 4, 14],
        [15, 15, 15, 15],
      ],
      {},
      (i, b, ctx) => {
        if (i === 0) b.entry({ id: "L", direction: "long", qty: 1 }, ctx);
        if (i === 1) {
          b.exit({ id: "X", fromEntry: "L", limit: 11 }, ctx);
          b.close({ id: "L" }, ctx);
        }
        if (i === 2) b.entry({ id: "L", direction: "long", qty: 1 }, ctx);
      },
    );
    expect(result.trades).toHaveLength(1);
    expect(result.open_trades[0].entry_price).toBe(13);
  });
});
