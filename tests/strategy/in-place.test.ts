// Orders re-placed with the same id are updated in place (src/strategy/orders.ts): the book keeps one
// record per order instead of a new object per call. These tests pin what the update must keep and
// what it must change, and check scripts that re-place brackets on every bar against an independent
// bar-by-bar reference written from the README's fill rules.

import { describe, expect, it } from "vitest";
import { columnsOf, makeCtx, replay } from "./harness.js";
import { runBoth } from "../helpers/run-both.js";
import type { Bar } from "../../src/core/result.js";
import type { ExitOrder, PendingOrder } from "../../src/strategy/types.js";
import { newExitOrder, resetExitOrder } from "../../src/strategy/orders.js";

type Row = [number, number, number, number];
const flat: Row = [100, 100, 100, 100];

describe("a re-placed strategy.exit", () => {
  it("is the same record with the new levels, and keeps its place in the queue", () => {
    // Long entered at bar 1's open (100). Exits A then B are placed on bar 0 with the same stop; from
    // bar 1 on the script re-places B before A, moving both stops up one point a bar (96, 97, 98 on
    // bars 1-3). Bar 4 (low 97.5) reaches the 98 placed on bar 3: both stops sit there, and the tie
    // goes to A, placed first on bar 0 (a re-placed exit keeps its queue place).
    const rows: Row[] = [
      flat,
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [100, 101, 99, 100],
      [99, 99.5, 97.5, 98],
      flat,
    ];
    const seen: ExitOrder[][] = [];
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const { result } = replay(ctx, {}, (i, c, b) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, c);
        b.exit({ id: "A", fromEntry: "L", stop: 95 }, c);
        b.exit({ id: "B", fromEntry: "L", stop: 95 }, c);
      } else {
        b.exit({ id: "B", fromEntry: "L", stop: 95 + i }, c);
        b.exit({ id: "A", fromEntry: "L", stop: 95 + i }, c);
      }
      seen.push([...b.pendingExits]);
    });
    expect(result.trades).toHaveLength(1);
    expect(result.trades[0]).toMatchObject({ exit_id: "A", exit_bar_index: 4, exit_price: 98, entry_price: 100 });
    // bars 0-3: the same two records, in their first order, with the levels of the last call
    for (let i = 1; i < 4; i++) {
      expect(seen[i][0]).toBe(seen[0][0]);
      expect(seen[i][1]).toBe(seen[0][1]);
    }
    expect(seen[0].map((e) => e.id)).toEqual(["A", "B"]);
  });

  it("with no level at all leaves the pending exit as it was", () => {
    // Bar 1 re-places X with na levels (a no-op); the stop placed on bar 0 (99) still fills on bar 2.
    const rows: Row[] = [flat, [100, 100.5, 99.5, 100], [100, 100.5, 98, 99], flat];
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const { result } = replay(ctx, {}, (i, c, b) => {
      if (i === 0) {
        b.entry({ id: "L", direction: "long" }, c);
        b.exit({ id: "X", fromEntry: "L", stop: 99 }, c);
      }
      if (i === 1) b.exit({ id: "X", fromEntry: "L", stop: NaN, limit: NaN }, c);
    });
    expect(result.trades[0]).toMatchObject({ exit_id: "X", exit_bar_index: 2, exit_price: 99 });
  });

  it("takes new alert texts without touching the ones a broker snapshot holds", () => {
    const ctx = makeCtx(columnsOf([flat, flat]), { type: "stock" });
    const { broker } = replay(ctx, {}, () => {});
    broker.exit({ id: "X", stop: 99, alertLoss: "first" }, ctx);
    const snap = broker.snapshot();
    broker.exit({ id: "X", stop: 98, alertLoss: "second" }, ctx);
    expect(broker.pendingExits[0].alerts?.loss).toBe("second");
    broker.restore(snap);
    expect(broker.pendingExits[0].alerts?.loss).toBe("first");
    expect(broker.pendingExits[0].stop).toBe(99);
  });
});

describe("a re-placed strategy.entry", () => {
  it("reuses its record, takes a new queue place and the new price", () => {
    // Buy stops A and B at 102 placed on bar 0; A is re-placed on bar 1 at the same price, so it now
    // comes after B. Bar 2 reaches 102: B fills first, then A (pyramiding is checked when an entry is
    // placed, and both were placed while flat). Meanwhile C, re-placed every bar with a falling stop
    // (90, 89), is one record.
    const rows: Row[] = [flat, flat, [100, 103, 99.5, 102.5], flat];
    const seen: PendingOrder[] = [];
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const { result } = replay(ctx, {}, (i, c, b) => {
      if (i === 0) {
        b.entry({ id: "A", direction: "long", stop: 102 }, c);
        b.entry({ id: "B", direction: "long", stop: 102 }, c);
      }
      if (i === 1) b.entry({ id: "A", direction: "long", stop: 102 }, c);
      if (i <= 1) {
        b.entry({ id: "C", direction: "short", stop: 90 - i }, c);
        seen.push(b.pendingOrders.find((o) => o.id === "C")!);
      }
    });
    expect(result.open_trades.map((t) => t.entry_id)).toEqual(["B", "A"]);
    expect(seen[1]).toBe(seen[0]);
    expect(seen[1].stop).toBe(89);
  });
});

/** Integer-priced bars (a seeded walk), so every level the scripts compute sits on the tick grid. */
function walk(n: number): Bar[] {
  let s = 7;
  const r = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  const out: Bar[] = [];
  let p = 1000;
  for (let i = 0; i < n; i++) {
    // opens gap away from the last close now and then, so levels are also crossed at the open
    const o = r() < 0.2 ? p + Math.round((r() - 0.5) * 20) : p;
    p = Math.max(50, o + Math.round((r() - 0.5) * 16));
    const h = Math.max(o, p) + Math.round(r() * 6);
    const l = Math.min(o, p) - Math.round(r() * 6);
    out.push({ time: Date.UTC(2024, 0, 1) + i * 3_600_000, open: o, high: h, low: l, close: p, volume: 1 });
  }
  return out;
}

interface RefTrade {
  entryBar: number;
  entryPrice: number;
  exitBar: number;
  exitPrice: number;
}

/**
 * The README's rules for one long re-entered whenever flat (a market entry placed on every bar fills
 * at the next open; while a trade is open it is dropped at that open) and a stop/limit exit re-placed
 * on every bar: the levels placed on bar i-1 are the ones live on bar i, reached at the open (a gap
 * fills there) or along open -> nearer extreme -> other extreme (a tie goes low first).
 */
function reference(bars: Bar[], levels: (i: number, entryPrice: number) => [stop: number, limit: number]): RefTrade[] {
  const out: RefTrade[] = [];
  let open: { bar: number; price: number } | null = null;
  for (let i = 1; i < bars.length; i++) {
    const { open: o, high: h, low: l } = bars[i];
    if (open === null) open = { bar: i, price: o };
    const [stop, limit] = levels(i - 1, open.price);
    let px = NaN;
    if (o <= stop || o >= limit) px = o;
    else if (h - o < o - l) px = h >= limit ? limit : l <= stop ? stop : NaN;
    else px = l <= stop ? stop : h >= limit ? limit : NaN;
    if (px === px) {
      out.push({ entryBar: open.bar, entryPrice: open.price, exitBar: i, exitPrice: px });
      open = null;
    }
  }
  return out;
}

async function tradesOf(script: string, bars: Bar[]): Promise<RefTrade[]> {
  const res = await runBoth(script, bars, { runtime: { timeframe: "60", syminfo: { mintick: 0.01 } } });
  expect(res.error ?? null).toBeNull();
  return res.strategy!.trades.map((t) => ({
    entryBar: t.entry_bar_index,
    entryPrice: t.entry_price,
    exitBar: t.exit_bar_index!,
    exitPrice: t.exit_price!,
  }));
}

describe("records the book dropped", () => {
  it("a reset exit is newExitOrder's record, field for field and in its order", () => {
    const e = newExitOrder() as unknown as Record<string, unknown>;
    for (const k of Object.keys(e)) {
      const v = e[k];
      e[k] = typeof v === "number" ? 7 : typeof v === "boolean" ? !v : typeof v === "string" ? "x" : { k };
    }
    const fresh = newExitOrder() as unknown as Record<string, unknown>;
    const reset = resetExitOrder(e as unknown as ExitOrder) as unknown as Record<string, unknown>;
    expect(Object.keys(reset)).toEqual(Object.keys(fresh));
    for (const k of Object.keys(fresh)) expect(Object.is(reset[k], fresh[k]), k).toBe(true);
  });

  it("serve the next trade: its exit is the pruned exit, its close order the filled entry and its trade the closed one, with the same trades", () => {
    // L enters on bar 1's open and closes on bar 4's (close placed on bar 3); again from bar 6 to 9.
    // The exit X, placed on every bar with a stop no bar reaches, is pruned when the first trade
    // closes and placed anew on bar 4; the entry filled on bar 1 is the record the close of bar 3 uses.
    const rows: Row[] = Array.from({ length: 11 }, (_, i) => [100 + i, 101 + i, 99 + i, 100 + i] as Row);
    const exits: (ExitOrder | undefined)[] = [];
    const orders: (PendingOrder | undefined)[] = [];
    const states: Record<string, unknown>[] = [];
    const trades: unknown[] = [];
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const { result } = replay(ctx, {}, (i, c, b) => {
      if (i === 0 || i === 5) b.entry({ id: "L", direction: "long" }, c);
      if (i === 3 || i === 8) b.close({ id: "L" }, c);
      b.exit({ id: "X", fromEntry: "L", stop: 50 }, c);
      exits.push(b.pendingExits[0]);
      orders.push(b.pendingOrders[0]);
      states.push({ ...b.pendingExits[0] }, { ...b.pendingOrders[0] });
      trades.push(b.ledger.open[0], { ...b.ledger.open[0] });
    });
    expect(result.trades.map((t) => [t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price])).toEqual([
      [1, 101, 4, 104],
      [6, 106, 9, 109],
    ]);
    expect(exits[3]).toBe(exits[0]);
    expect(exits[4]).toBe(exits[0]);
    // (bar 4's exit: placed while flat, so not armed; bar 3's order: the close)
    expect(states[8]).toMatchObject({ id: "X", fromEntry: "L", stop: 50, armed: false, placedBar: 4, seq: 3 });
    expect(orders[3]).toBe(orders[0]);
    expect(states[7]).toMatchObject({ kind: "close", id: "L", market: true, placedBar: 3 });
    // the second trade (bar 6 on) is the first one's record, every field its own
    expect(trades[2 * 7]).toBe(trades[2 * 2]);
    expect(trades[2 * 7 + 1]).toEqual({
      entryId: "L",
      entryComment: null,
      entryBar: 6,
      entryTime: Date.UTC(2024, 0, 1) + 6 * 3_600_000,
      entryPrice: 106,
      side: 1,
      qty: 1,
      initialQty: 1,
      commission: 0,
      bestPrice: 108,
      worstPrice: 105,
      exitFilled: null,
      trailId: null,
      trailExtreme: Number.NaN,
      trail: null,
      seq: 1,
    });
  });
});

describe("brackets re-placed on every bar (both backends, against the reference)", () => {
  const bars = walk(600);

  it("absolute stop and limit that follow the last bar", async () => {
    const script = `//@version=6
strategy("trail by hand")
strategy.entry("L", strategy.long)
strategy.exit("X", "L", stop = low - 2, limit = high + 3)
`;
    const expected = reference(bars, (i) => [bars[i].low - 2, bars[i].high + 3]);
    expect(expected.length).toBeGreaterThan(50);
    expect(expected.some((t) => t.exitPrice === bars[t.exitBar].open)).toBe(true); // gaps through a level
    expect(await tradesOf(script, bars)).toEqual(expected);
  });

  it("profit and loss in ticks that change with the bar (levels from the entry price)", async () => {
    const script = `//@version=6
strategy("ticks by bar")
strategy.entry("L", strategy.long)
strategy.exit("X", "L", loss = 300 + bar_index % 7 * 100, profit = 500 + bar_index % 5 * 100)
`;
    // ticks of 0.01 from an integer entry price: whole hundredths, as the broker's tick grid gives them
    const expected = reference(bars, (i, entry) => [
      (entry * 100 - (300 + (i % 7) * 100)) / 100,
      (entry * 100 + 500 + (i % 5) * 100) / 100,
    ]);
    expect(expected.length).toBeGreaterThan(30);
    expect(expected.some((t) => t.exitPrice === bars[t.exitBar].open)).toBe(true);
    expect(await tradesOf(script, bars)).toEqual(expected);
  });
});
