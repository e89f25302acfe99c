// Closed trades kept in columns (strategy/closed-trades.ts) and a result whose trades and equity are
// built on first read (strategy/stats.ts): the strategy.closedtrades.* builtins read the same values
// as the rows built from the columns, a finished result keeps the trades and equity of the run's end
// however the broker goes on, and the lazy fields read like plain ones (JSON, structured clone,
// spreads, assignment), and an optimize trial's scored columns (stats.ts scoredTrades, what
// worker/protocol.ts trialReply sends) hold what the built trades would.

import { describe, expect, it } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import type { Trade } from "../../src/core/result.js";
import { createBroker } from "../../src/strategy/index.js";
import { scoredTrades } from "../../src/strategy/stats.js";
import { trialReply } from "../../src/worker/protocol.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

const site: CallSite = { state: undefined, id: 0 };
const call = (name: string, ctx: ExecContext, ...args: unknown[]) => functions[name].impl(ctx, args, site);

/** Each strategy.closedtrades.* builtin and the row field it reads. */
const FIELDS: [string, (t: Trade) => unknown][] = [
  ["commission", (t) => t.commission],
  ["entry_bar_index", (t) => t.entry_bar_index],
  ["entry_comment", (t) => t.entry_comment],
  ["entry_id", (t) => t.entry_id],
  ["entry_price", (t) => t.entry_price],
  ["entry_time", (t) => t.entry_time],
  ["exit_bar_index", (t) => t.exit_bar_index],
  ["exit_comment", (t) => t.exit_comment],
  ["exit_id", (t) => t.exit_id],
  ["exit_price", (t) => t.exit_price],
  ["exit_time", (t) => t.exit_time],
  ["max_drawdown", (t) => Math.abs(t.drawdown)],
  ["max_drawdown_percent", (t) => Math.abs(t.drawdown_percent)],
  ["max_runup", (t) => t.run_up],
  ["max_runup_percent", (t) => t.run_up_percent],
  ["profit", (t) => t.profit],
  ["profit_percent", (t) => t.profit_percent],
  ["size", (t) => (t.direction === "long" ? 1 : -1) * t.qty],
];

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A random walk of `n` bars and a broker with pyramiding, commission and the given trade limit. */
function setup(seed: number, n: number, tradeLimit: number) {
  const rnd = lcg(seed);
  let p = 100;
  const rows: [number, number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const o = p;
    p = Math.max(5, p + (rnd() - 0.5) * 4);
    rows.push([o, Math.max(o, p) + rnd(), Math.min(o, p) - rnd(), p]);
  }
  const ctx = makeCtx(columnsOf(rows), { type: "stock" });
  const broker = createBroker(
    { pyramiding: 3, commission_type: "percent", commission_value: 0.1, trade_limit: tradeLimit },
    ctx,
  );
  ctx.broker = broker;
  return { rnd, ctx, broker };
}

/** One bar of random order flow: entries both ways, partial and whole closes, comments or none. */
function bar(s: ReturnType<typeof setup>, i: number): void {
  const { rnd, ctx, broker } = s;
  setBar(ctx, i);
  broker.onBarOpen(ctx);
  const r = rnd();
  const comment = rnd() < 0.5 ? null : `c${i}`;
  if (r < 0.3)
    broker.entry({ id: rnd() < 0.5 ? "L" : "L2", direction: "long", qty: 1 + Math.floor(rnd() * 3), comment }, ctx);
  else if (r < 0.45) broker.entry({ id: "S", direction: "short", qty: 2, comment }, ctx);
  else if (r < 0.6) broker.close({ id: "L", qtyPercent: 50, comment }, ctx);
  else if (r < 0.7) broker.close({ comment }, ctx, true);
  broker.onBarClose(ctx);
}

/** Trade limits the random flows run under: all kept, a few, one, some. */
const LIMITS = [Infinity, 7, 1, 40] as const;

describe("closed trades in columns", () => {
  it("strategy.closedtrades.* read what the rows built from the columns hold, trimmed indexes na", () => {
    let checked = 0;
    for (const [k, limit] of LIMITS.entries()) {
      const s = setup(1 + k, 300, limit);
      const closed = s.broker.ledger.closed;
      for (let i = 0; i < 300; i++) {
        bar(s, i);
        const rows = closed.toArray();
        expect(rows.length).toBe(closed.size);
        // every index each 60 bars, else the newest few and the edges
        const from = i % 60 === 59 ? closed.firstIndex - 2 : Math.max(closed.firstIndex - 1, closed.total - 2);
        for (let k = from; k < closed.total + 1; k++) {
          const row = closed.get(k);
          if (k >= closed.firstIndex && k < closed.total) {
            expect(row).toEqual(rows[k - closed.firstIndex]);
            expect(row!.trade_num).toBe(k + 1);
          } else expect(row).toBeUndefined();
          for (const [name, field] of FIELDS) {
            const got = call(`strategy.closedtrades.${name}`, s.ctx, k);
            const na = name.endsWith("_id") || name.endsWith("_comment") ? null : Number.NaN;
            expect(got, `${name}(${k})`).toEqual(row === undefined ? na : field(row));
          }
          checked++;
        }
      }
      expect(closed.total).toBeGreaterThan(limit === Infinity ? 50 : limit);
    }
    expect(checked).toBeGreaterThan(500);
  }, 60_000);

  it("a finished result keeps the run's end: later bars and rolled-back ticks leave its trades and equity as they were", () => {
    for (const limit of [Infinity, 5]) {
      const s = setup(9, 200, limit);
      for (let i = 0; i < 100; i++) bar(s, i);
      const read = s.broker.finish(s.ctx);
      const unread = s.broker.finish(s.ctx);
      const want = { trades: read.trades, equity: read.equity };
      expect(want.trades.length).toBe(s.broker.ledger.closed.size);
      expect(want.equity.length).toBe(100);
      const snap = s.broker.snapshot();
      for (let i = 100; i < 150; i++) bar(s, i);
      s.broker.restore(snap);
      for (let i = 100; i < 200; i++) bar(s, i);
      expect(s.broker.ledger.closed.total).toBeGreaterThan(read.stats.total_closed_trades);
      expect({ trades: unread.trades, equity: unread.equity }).toEqual(want);
      expect({ trades: read.trades, equity: read.equity }).toEqual(want);
    }
  });

  it("the lazy trades and equity read like plain properties", () => {
    const s = setup(5, 120, Infinity);
    for (let i = 0; i < 120; i++) bar(s, i);
    const plain = JSON.parse(JSON.stringify(s.broker.finish(s.ctx)));
    const r = s.broker.finish(s.ctx);
    expect(Object.keys(r)).toEqual(["trades", "open_trades", "stats", "equity"]);
    expect(JSON.parse(JSON.stringify(structuredClone(r)))).toEqual(plain);
    expect(JSON.parse(JSON.stringify({ ...r }))).toEqual(plain);
    expect(Array.isArray(r.trades) && Array.isArray(r.equity)).toBe(true);
    expect(r.trades).toBe(r.trades);
    // once read, a data property
    expect(Object.getOwnPropertyDescriptor(r, "trades")).toMatchObject({ writable: true, enumerable: true });
    const other = s.broker.finish(s.ctx);
    other.trades = [];
    other.equity = [1];
    expect([other.trades, other.equity]).toEqual([[], [1]]);
    expect(Object.keys(other)).toEqual(["trades", "open_trades", "stats", "equity"]);
  });

  it("a trial's scored columns are the built trades' profit and exit bar, trimmed or not, at the run's end", () => {
    /** The columns as built from the trades (what trialReply read before scoredTrades). */
    const fromRows = (trades: Trade[]) => ({
      profit: Float64Array.from(trades, (t) => t.profit),
      exitBar: Float64Array.from(trades, (t) => t.exit_bar_index ?? Number.NaN),
    });
    let compared = 0;
    for (const [k, limit] of LIMITS.entries()) {
      const s = setup(11 + k, 500, limit);
      for (let i = 0; i < 400; i++) {
        bar(s, i);
        if (i % 37 !== 36) continue;
        const unread = s.broker.finish(s.ctx);
        const cols = scoredTrades(unread);
        expect(cols).not.toBeNull();
        // the reply sends the columns (read before another result of the broker settles this one's trades)
        const reply = trialReply({ strategy: unread } as never, 0).reply;
        const want = fromRows(s.broker.finish(s.ctx).trades);
        expect(cols).toEqual(want);
        expect([reply.profit, reply.exit_bar]).toEqual([want.profit, want.exitBar]);
        // a result without them (a clone) sends the same from its trades
        const cloned = trialReply({ strategy: structuredClone(unread) } as never, 0).reply;
        expect([cloned.profit, cloned.exit_bar]).toEqual([want.profit, want.exitBar]);
        compared += want.profit.length;
      }
      // a result the broker went on from keeps the run's end: its columns are left to its trades
      const kept = s.broker.finish(s.ctx);
      const atEnd = scoredTrades(kept);
      expect(atEnd).not.toBeNull();
      const total = s.broker.ledger.closed.total;
      // (bounded by the 500 bars setup made: a flow with no trade closing by then fails here, not hangs)
      for (let i = 400; s.broker.ledger.closed.total === total && i < 500; i++) bar(s, i);
      expect(s.broker.ledger.closed.total).toBeGreaterThan(total);
      expect(scoredTrades(kept)).toBeNull();
      expect(fromRows(kept.trades)).toEqual(atEnd);
      const reply = trialReply({ strategy: kept } as never, 0).reply;
      expect([reply.profit, reply.exit_bar]).toEqual([atEnd!.profit, atEnd!.exitBar]);
    }
    expect(compared).toBeGreaterThan(200);
    // read or written trades are the caller's
    const s = setup(15, 100, Infinity);
    for (let i = 0; i < 100; i++) bar(s, i);
    const read = s.broker.finish(s.ctx);
    expect(read.trades.length).toBeGreaterThan(0);
    expect(scoredTrades(read)).toBeNull();
    const written = s.broker.finish(s.ctx);
    written.trades = [];
    expect(scoredTrades(written)).toBeNull();
    expect(trialReply({ strategy: written } as never, 0).reply.profit).toEqual(new Float64Array(0));
  });
});
