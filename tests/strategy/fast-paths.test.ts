// The broker's fast paths (src/strategy/README.md, "Hot path"): a bar whose range reaches no pending
// level skips the path walk, a flat bar at an unchanged equity skips the drawdown / run-up valuation, an exit re-placed with the same levels keeps its cached levels, and a
// run that records no events (record_events: false, optimize trials and lean runs) books the same
// trades. Each is checked against the slow path on the same bars and orders.

import { describe, expect, it, vi } from "vitest";
import { functions } from "../../src/builtins/strategy/index.js";
import type { CallSite, ExecContext } from "../../src/builtins/types.js";
import { createBroker } from "../../src/strategy/index.js";
import type { Broker } from "../../src/strategy/broker.js";
import { newExitOrder, newPendingOrder, relevelExit, writeExit } from "../../src/strategy/orders.js";
import { OrderBook } from "../../src/strategy/book.js";
import {
  roundToTick,
  stopLossLevel,
  takeProfitLevel,
  trailActivation,
  writeExitLevels,
} from "../../src/strategy/levels.js";
import type { EntryRequest, ExitOrder, ExitRequest, OpenTrade, PendingOrder, Side } from "../../src/strategy/types.js";
import {
  EXIT_OTHER_NUMBER_PARAMS,
  EXIT_TEXT_PARAMS,
  EXIT_ARG_ALL,
  EXIT_ARG_LIMIT,
  EXIT_ARG_OTHER_NUMBERS,
  EXIT_ARG_STOP,
  EXIT_ARG_TEXTS,
  LV_ACT,
  LV_SL,
  LV_TP,
} from "../../src/strategy/types.js";
import { runBoth, v6 } from "../helpers/run-both.js";
import { brokerOutcome, columnsOf, makeCtx, randomMarginCase, setBar } from "./harness.js";
import { PathWalker, setTrailExtreme, trailExtreme } from "../../src/strategy/walk.js";
import { Ledger } from "../../src/strategy/ledger.js";
import type { Bar } from "../../src/core/result.js";

/** The text arguments a re-placement moves to another string (disable_alert is a flag, moved apart). */
const EXIT_STRING_PARAMS = EXIT_TEXT_PARAMS.filter((n) => n !== "disableAlert");

const site: CallSite = { state: undefined, id: 0 };
const call = (name: string, ctx: ExecContext, ...args: unknown[]) => functions[name].impl(ctx, args, site);

/** strategy.exit's per-site request fields, in the order codegen numbers its `varying` bits. */
function exitFields() {
  const sr = functions["strategy.exit"].siteRequest;
  if (!sr) throw new Error("strategy.exit has no siteRequest");
  return sr.fields;
}

/** A seeded generator of integers in [0, n). */
function seeded(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/**
 * One re-placement of an exit: writeExit on `slow`; on `quick` relevelExit, or writeExit where it
 * declines (and on the first call); the two compared field for field. True when relevelExit took it.
 */
function replaceBoth(
  slow: ExitOrder,
  quick: ExitOrder,
  r: ExitRequest,
  step: number,
  bind: 1 | -1 | 0,
  intrabar: boolean,
): boolean {
  const before = { ...quick };
  writeExit(slow, r, "L", step, bind, intrabar);
  const fast = step !== 0 && relevelExit(quick, r, step, bind, intrabar);
  if (!fast) writeExit(quick, r, "L", step, bind, intrabar);
  expectSameExit(quick, slow, step);
  // both as an exit written from scratch leaves them, with exactly the levels whose arguments moved stale
  const fresh = newExitOrder();
  writeExit(fresh, r, "L", step, bind, intrabar);
  fresh.lvStale = quick.lvStale;
  expectSameExit(quick, fresh, step);
  const moved = (...ks: (keyof ExitOrder)[]) => ks.some((k) => !Object.is(before[k], quick[k]));
  expect(quick.lvStale, `lvStale at step ${step}`).toBe(
    (moved("profit", "limit") ? LV_TP : 0) |
      (moved("loss", "stop") ? LV_SL : 0) |
      (moved("trailPrice", "trailPoints") ? LV_ACT : 0),
  );
  // as the broker's level cache would: levels worked out, nothing stale
  slow.lvStale = 0;
  quick.lvStale = 0;
  return fast;
}

/** An exit written by a fast path is field for field the one writeExit wrote (alert texts by value). */
function expectSameExit(quick: ExitOrder, slow: ExitOrder, step: number): void {
  for (const k of Object.keys(slow) as (keyof ExitOrder)[])
    expect(
      Object.is(quick[k], slow[k]) || (k === "alerts" && JSON.stringify(quick[k]) === JSON.stringify(slow[k])),
      `${k} at step ${step}`,
    ).toBe(true);
}

/** Pushes `n` pending orders of random kinds with ids A, B or C onto the book. */
function pushRandomOrders(book: OrderBook, rnd: (n: number) => number, n: number): void {
  const kinds = ["entry", "order", "close", "close_all"] as const;
  for (let i = 0; i < n; i++) {
    const o = newPendingOrder();
    o.kind = kinds[rnd(4)];
    o.id = ["A", "B", "C"][rnd(3)];
    book.orders.push(o);
  }
}

/** A seeded random walk of bars on a 0.01 grid, with gaps and wide bars now and then. */
function walkRows(n: number, seed: number): [number, number, number, number][] {
  let s = seed >>> 0;
  const rnd = () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const tick = (x: number) => Math.round(x * 100) / 100;
  const rows: [number, number, number, number][] = [];
  let c = 100;
  for (let i = 0; i < n; i++) {
    const o = tick(c + (rnd() < 0.1 ? (rnd() - 0.5) * 4 : (rnd() - 0.5) * 0.2));
    const cl = tick(o + (rnd() - 0.5) * 2);
    const wide = rnd() < 0.2 ? 3 : 0.6;
    const h = tick(Math.max(o, cl) + rnd() * wide);
    const l = tick(Math.min(o, cl) - rnd() * wide);
    rows.push([o, h, l, cl]);
    c = cl;
  }
  return rows;
}

/** Four 15-minute sub-bars per hourly bar of walkRows(n, seed): the bar magnifier's feed. */
function magnifierBars(n: number, seed: number): Bar[] {
  return walkRows(4 * n, seed + 1000).map(([open, high, low, close], i) => ({
    time: Date.UTC(2024, 0, 1) + i * 900_000,
    open,
    high,
    low,
    close,
  }));
}

/**
 * Random order flow: market, stop and limit entries both ways, brackets by price and by ticks
 * (re-placed unchanged or moved), partial exits, trailing exits on most seeds (a short's by points,
 * a long's zero-offset one beside its bracket, a short's whose activation price and offset move
 * on every bar), closes and cancels; with `use_bar_magnifier`, four sub-bars a bar.
 */
function runFlow(seed: number, fast: boolean, settings: Record<string, unknown> = {}): Broker {
  const rows = walkRows(400, seed);
  const ext = settings.use_bar_magnifier ? { magnifierBars: magnifierBars(rows.length, seed) } : {};
  const ctx = makeCtx(columnsOf(rows), { type: "stock" }, { ext });
  const trail = seed % 4;
  const broker = createBroker({ pyramiding: trail === 3 ? 3 : 2, ...settings }, ctx);
  broker.walker.fastPath = fast;
  broker.tracker.fastPath = fast;
  broker.risk.fastPath = fast;
  ctx.broker = broker;
  let s = (seed * 7919) >>> 0;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
  let keep = NaN;
  for (let i = 0; i < rows.length; i++) {
    setBar(ctx, i);
    broker.onBarOpen(ctx);
    const c = ctx.close;
    const r = rnd();
    if (r < 0.08) call("strategy.entry", ctx, "L", "long");
    else if (r < 0.14) call("strategy.entry", ctx, "S", "short", NaN, NaN, c - 1.5);
    else if (r < 0.2) call("strategy.entry", ctx, "L", "long", NaN, c - 1.2);
    else if (r < 0.24) call("strategy.entry", ctx, "L2", "long", NaN, NaN, c + 1.1);
    else if (r < 0.27) call("strategy.close", ctx, "L");
    else if (r < 0.29) call("strategy.cancel", ctx, "S");
    // the same stop level on most bars (an unchanged re-placement), moved now and then
    if (keep !== keep || rnd() < 0.2) keep = c - 1.7 - rnd();
    call("strategy.exit", ctx, "XL", "L", NaN, NaN, NaN, c + 2.5, NaN, keep);
    if (trail === 1) {
      call("strategy.exit", ctx, "XL2", "L2", NaN, 50, 80, NaN, 120, NaN, NaN, 30, 0);
      // two trailing exits on one trade: the second one's state goes past the trade's own fields
      call("strategy.exit", ctx, "XLT1", "L", NaN, 40, NaN, NaN, NaN, NaN, NaN, 20, 15);
      call("strategy.exit", ctx, "XLT2", "L", NaN, 30, NaN, NaN, NaN, NaN, NaN, 35, 5);
    } else call("strategy.exit", ctx, "XL2", "L2", NaN, 50, 80, NaN, 120);
    if (trail === 3) {
      // pyramided trades (longs and shorts) under exits without from_entry, a partial one beside
      // one for the rest, whose trail points and offsets (wider than most bars) move on every bar
      const pts = 60 + Math.floor(rnd() * 120);
      call("strategy.exit", ctx, "XP1", null, NaN, 50, NaN, NaN, 4 * pts, NaN, NaN, pts, pts);
      call("strategy.exit", ctx, "XP2", null, NaN, NaN, NaN, NaN, 4 * pts, NaN, NaN, 2 * pts, Math.floor(1.5 * pts));
    }
    if (trail === 0) call("strategy.exit", ctx, "XS", "S", NaN, NaN, NaN, NaN, 150, NaN, NaN, 60, 40);
    else if (trail === 2)
      call("strategy.exit", ctx, "XS", "S", NaN, NaN, NaN, NaN, 200, NaN, c - 0.4, NaN, 10 + Math.floor(rnd() * 30));
    else call("strategy.exit", ctx, "XS", "S", NaN, NaN, 200, NaN, NaN, c + 1.9);
    // the book's count of market orders (the walk's "nothing fills at the open" test) is theirs
    expect(broker.book.market).toBe(marketOrders(broker));
    broker.onBarClose(ctx);
    expect(broker.book.market).toBe(marketOrders(broker));
  }
  return broker;
}

function marketOrders(broker: Broker): number {
  return broker.pendingOrders.filter((o) => o.market).length;
}

/** An open trade of 1 contract from entry "L" (no fills of exits, no trail activated). */
function openTrade(entryPrice: number, side: Side, seq: number): OpenTrade {
  return {
    entryId: "L",
    entryComment: null,
    entryBar: 0,
    entryTime: 0,
    entryPrice,
    side,
    qty: 1,
    initialQty: 1,
    commission: 0,
    bestPrice: 100,
    worstPrice: 100,
    exitFilled: null,
    trailId: null,
    trailExtreme: Number.NaN,
    trail: null,
    seq,
  };
}

describe("broker fast paths", () => {
  it("a bar whose range reaches no pending level books exactly what the full walk books; so does a flat bar at an unchanged equity", () => {
    let trades = 0;
    let marginCalls = 0;
    // bars with the equity of the bar before (flat ones, the tracker's shortcut; an open position's
    // equity moves with the close)
    let unchanged = 0;
    // bars on which only trails moved (PathWalker.moveTrails: no scan of the path's segments)
    const trailOnly = vi.spyOn(PathWalker.prototype as unknown as { moveTrails(): void }, "moveTrails");
    for (let seed = 1; seed <= 24; seed++) {
      for (const settings of [
        {},
        { process_orders_on_close: true },
        { backtest_fill_limits_assumption: 2 },
        { max_intraday_filled_orders: 3 },
        { use_bar_magnifier: true },
        // small capital on margin: margin calls at the open and at the bar's worst price
        {
          initial_capital: 300,
          margin_long: 50,
          margin_short: 50,
          default_qty_type: "percent_of_equity",
          default_qty_value: 150,
        },
      ]) {
        const fast = brokerOutcome(runFlow(seed, true, settings));
        const full = brokerOutcome(runFlow(seed, false, settings));
        expect(fast).toEqual(full);
        trades += fast.trades.length;
        marginCalls += fast.stats.margin_calls as number;
        for (let i = 1; i < fast.equity.length; i++) if (fast.equity[i] === fast.equity[i - 1]) unchanged++;
      }
    }
    expect(trades).toBeGreaterThan(1000);
    expect(marginCalls).toBeGreaterThan(0);
    expect(unchanged).toBeGreaterThan(1000);
    expect(trailOnly.mock.calls.length).toBeGreaterThan(100);
    trailOnly.mockRestore();
  });

  it("the margin check's price line skips only prices the exact check passes, right next to the call level too", () => {
    // brokers in the same state, one with the price line and one with the exact check only: the
    // same calls, at random prices and at prices a few float steps around the call level
    const ctx = makeCtx(columnsOf(walkRows(3, 1)), { type: "stock" });
    let s = 4242;
    const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32;
    let skipped = 0;
    let calls = 0;
    let near = 0;
    for (let round = 0; round < 300; round++) {
      // capital around the position's value: calls at prices near the entries; the call level in doubles
      const { make, pick, level } = randomMarginCase(rnd, ctx);
      const prices = [pick([1, 10, 60, 100, 150, 400]) * (0.5 + rnd())];
      if (level > 0 && Number.isFinite(level)) {
        near++;
        // float steps, and across the exact check's own 1e-9 tolerance
        for (let k = -4; k <= 4; k++)
          prices.push(
            level * (1 + k * 2 ** -52),
            level * (1 + k * 1e-12),
            level * (1 + k * 1e-9),
            level * (1 + k * 1e-3),
          );
      }
      for (const p of prices) {
        const fast = make(true);
        const full = make(false);
        fast.risk.checkMargin(p, fast);
        full.risk.checkMargin(p, full);
        expect(fast.risk.marginCalls, `price ${p}`).toBe(full.risk.marginCalls);
        expect(fast.ledger.open.map((t) => t.qty)).toEqual(full.ledger.open.map((t) => t.qty));
        if (full.risk.marginCalls === 0) skipped++;
        calls += full.risk.marginCalls;
      }
    }
    expect(near).toBeGreaterThan(100);
    expect(calls).toBeGreaterThan(300);
    expect(skipped).toBeGreaterThan(1000);
  });

  it("an exit re-placed with the same levels keeps its cached levels; a changed level marks only itself stale", () => {
    const e = newExitOrder();
    const req = { id: "X", fromEntry: "L", stop: 99.5, limit: 101.25 };
    writeExit(e, req, "L", 1, 0, false);
    expect(e.lvStale).toBe(LV_TP | LV_SL);
    // as Broker.levelsFor leaves it
    e.lvPrice = 100;
    e.lvSide = 1;
    e.lvSl = 99.5;
    e.lvStale = 0;
    writeExit(e, { ...req, comment: "again" }, "L", 2, 0, false);
    expect(e.lvPrice).toBe(100);
    expect(e.lvStale).toBe(0);
    expect(e.comment).toBe("again");
    expect(e.placedBar).toBe(2);
    writeExit(e, { ...req, stop: 99.4 }, "L", 3, 0, false);
    expect(e.lvPrice).toBe(100);
    expect(e.lvStale).toBe(LV_SL);
    expect(e.stop).toBe(99.4);
    writeExit(e, { ...req, stop: 99.4, trailPoints: 50, trailOffset: 10 }, "L", 4, 0, false);
    expect(e.lvStale).toBe(LV_SL | LV_ACT);
  });

  it("an exit re-placed with only its numbers moved (relevelExit) ends field for field as writeExit leaves it, on random re-placements", () => {
    const rnd = seeded(12345);
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)];
    const nums = [NaN, undefined, 0, -0, 1.5, 99.51, 101.25, Infinity] as const;
    const strs = [null, undefined, "a", "b"] as const;
    let fast = 0;
    for (let round = 0; round < 40; round++) {
      const slow = newExitOrder();
      const quick = newExitOrder();
      let req: Record<string, unknown> = { id: "X", fromEntry: "L", stop: 99.5, limit: 101.25 };
      for (let step = 0; step < 200; step++) {
        // mostly the limit / stop move; now and then any other argument, the binding or the bar kind
        const next: Record<string, unknown> = { ...req };
        if (rnd(3) !== 0) next.stop = pick(nums);
        if (rnd(3) !== 0) next.limit = pick(nums);
        if (rnd(12) === 0) next[pick(EXIT_OTHER_NUMBER_PARAMS)] = pick(nums);
        if (rnd(15) === 0) next[pick(EXIT_STRING_PARAMS)] = pick(strs);
        if (rnd(20) === 0) next.disableAlert = rnd(2) === 0;
        req = next;
        const bind = rnd(10) === 0 ? pick([-1, 0, 1] as const) : 0;
        const intrabar = rnd(10) === 0;
        const r = req as unknown as ExitRequest;
        if (replaceBoth(slow, quick, r, step, bind, intrabar)) fast++;
      }
    }
    // most re-placements took the fast path, and enough did not
    expect(fast).toBeGreaterThan(1000);
    expect(fast).toBeLessThan(7900);
  });

  it("an exit whose tick distances, trail and size move on every re-placement (relevelExit) ends field for field as writeExit leaves it", () => {
    const rnd = seeded(90210);
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)];
    const nums = [NaN, undefined, 0, -0, 3, 40.5, 120, 2.25e3, Infinity] as const;
    let fast = 0;
    for (let round = 0; round < 40; round++) {
      const slow = newExitOrder();
      const quick = newExitOrder();
      // a trailing exit with a stop-loss in ticks (macd_trail's shape), or a tick bracket with a size
      let req: Record<string, unknown> =
        round % 2 === 0
          ? { id: "X", fromEntry: "L", trailPoints: 100, trailOffset: 50, loss: 300 }
          : { id: "X", fromEntry: "L", profit: 400, loss: 200, qtyPercent: 50 };
      for (let step = 0; step < 200; step++) {
        const next: Record<string, unknown> = { ...req };
        // several numbers move on most steps; a text or the flag now and then
        for (const n of EXIT_OTHER_NUMBER_PARAMS) if (rnd(3) === 0) next[n] = pick(nums);
        if (rnd(4) === 0) next[pick(["limit", "stop"] as const)] = pick(nums);
        if (rnd(25) === 0) next[pick(EXIT_STRING_PARAMS)] = pick([null, "a"] as const);
        if (rnd(30) === 0) next.disableAlert = rnd(2) === 0;
        req = next;
        const bind = rnd(10) === 0 ? pick([-1, 0, 1] as const) : 0;
        if (replaceBoth(slow, quick, req as unknown as ExitRequest, step, bind, rnd(10) === 0)) fast++;
      }
    }
    expect(fast).toBeGreaterThan(6000);
    expect(fast).toBeLessThan(7960);
  });

  it("each EXIT_ARG_* bit is its parameter's position in the fields the compiled site numbers its varying bits by", () => {
    const fields = exitFields();
    const bit = (name: string) => {
      const i = fields.findIndex(([n]) => n === name);
      expect(i, name).toBeGreaterThanOrEqual(0);
      return 1 << i;
    };
    const bits = (...names: string[]) => names.reduce((b, n) => b | bit(n), 0);
    expect(fields.map(([n]) => n).slice(0, 2)).toEqual(["id", "fromEntry"]);
    expect(EXIT_ARG_LIMIT).toBe(bit("limit"));
    expect(EXIT_ARG_STOP).toBe(bit("stop"));
    expect(EXIT_ARG_OTHER_NUMBERS).toBe(bits(...EXIT_OTHER_NUMBER_PARAMS));
    expect(EXIT_ARG_TEXTS).toBe(bits(...EXIT_TEXT_PARAMS));
    expect(EXIT_TEXT_PARAMS).toEqual([...EXIT_STRING_PARAMS, "disableAlert"]);
    // every parameter is in exactly one group or is id / from_entry (compared apart: another exit)
    expect(EXIT_ARG_ALL).toBe((1 << fields.length) - 1);
    expect(EXIT_ARG_LIMIT | EXIT_ARG_STOP | EXIT_ARG_OTHER_NUMBERS | EXIT_ARG_TEXTS | bits("id", "fromEntry")).toBe(
      EXIT_ARG_ALL,
    );
  });

  it("an exit re-placed through the request object that wrote it compares only its varying fields, and ends as writeExit leaves it", () => {
    const rnd = seeded(777);
    const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)];
    const nums = [NaN, 0, -0, 1.5, 99.51, 101.25, Infinity] as const;
    const strs = [null, "a", "b"] as const;
    // strategy.exit's parameters in order, as the compiled site writes them (the bit of each is 1 << its index)
    const params = exitFields().map(
      ([name, conv]) => [name, conv === "num" ? "n" : conv === "bool" ? "b" : "s"] as const,
    );
    let fast = 0;
    let skipped = 0;
    for (let round = 0; round < 60; round++) {
      // a compiled site: its constants written once, only the varying arguments per call (id and
      // from_entry stay: another id is another exit)
      let varying = EXIT_ARG_LIMIT | EXIT_ARG_STOP;
      if (rnd(2) === 0) varying = rnd(3) === 0 ? EXIT_ARG_STOP : EXIT_ARG_LIMIT | EXIT_ARG_STOP;
      // (some sites write neither level per call, only other numbers: ticks or a trail from inputs
      // or the ATR, each compared on its own bit)
      if (rnd(4) === 0) varying = rnd(2) === 0 ? EXIT_ARG_LIMIT : 0;
      if (rnd(3) === 0) varying |= 1 << (2 + rnd(19));
      if (rnd(3) === 0) varying |= 1 << (2 + rnd(9));
      const site: Record<string, unknown> = { id: "X", fromEntry: "L", varying };
      for (let i = 2; i < params.length; i++) {
        const [name, kind] = params[i];
        if (rnd(4) !== 0) continue;
        site[name] = kind === "n" ? pick(nums) : kind === "s" ? pick(strs) : rnd(2) === 0;
      }
      if (site.stop === undefined) site.stop = 99.5;
      const r = site as unknown as ExitRequest;
      const slow = newExitOrder();
      const quick = newExitOrder();
      for (let step = 0; step < 150; step++) {
        for (let i = 2; i < params.length; i++) {
          const [name, kind] = params[i];
          if ((varying & (1 << i)) === 0 || rnd(3) === 0) continue;
          site[name] = kind === "n" ? pick(nums) : kind === "s" ? pick(strs) : rnd(2) === 0;
        }
        const bind = rnd(10) === 0 ? pick([-1, 0, 1] as const) : 0;
        const intrabar = rnd(10) === 0;
        if (replaceBoth(slow, quick, r, step, bind, intrabar)) {
          fast++;
          if ((varying & ~(EXIT_ARG_LIMIT | EXIT_ARG_STOP)) === 0) skipped++;
        }
      }
    }
    expect(fast).toBeGreaterThan(3000);
    expect(skipped).toBeGreaterThan(1000);
  });

  it("an entry re-placed in the book (requeueEntryLike) leaves the queue as taking its id out and pushing it back does", () => {
    const rnd = seeded(4242);
    let moved = 0;
    for (let round = 0; round < 2000; round++) {
      const book = new OrderBook();
      pushRandomOrders(book, rnd, rnd(7));
      const id = ["A", "B", "C"][rnd(3)];
      // the reference: every entry-like order with the id taken out, the first of them pushed back
      const like = (o: PendingOrder) => o.id === id && (o.kind === "entry" || o.kind === "order");
      const first = book.orders.find(like) ?? null;
      const want = book.orders.filter((o) => !like(o));
      if (first !== null) want.push(first);
      const got = book.requeueEntryLike(id, book.nextSeq());
      expect(got).toBe(first);
      expect(book.orders.length).toBe(want.length);
      for (let i = 0; i < want.length; i++) expect(book.orders[i]).toBe(want[i]);
      if (got !== null) moved++;
    }
    expect(moved).toBeGreaterThan(500);
  });

  it("entries re-placed through their call sites' requests (requeueEntryLike's hint) and exits waiting for their entries (unarmedAt) leave the queue, fills and trades as the lookups do, grids in and out of order", () => {
    let hinted = 0;
    let reordered = 0;
    for (let seed = 1; seed <= 10; seed++) {
      const rows = walkRows(250, seed);
      const cols = columnsOf(rows);
      const mk = () => {
        const ctx = makeCtx(cols, { type: "stock" });
        const broker = createBroker({ pyramiding: 4, process_orders_on_close: seed % 4 === 0 }, ctx);
        ctx.broker = broker;
        // call sites, some sharing an id (two sites placing one order), and one placing many ids (a
        // site in a loop: the book's hint by id)
        const reqs = ["A", "B", "C", "D", "E", "A", "F", "G"].map((id) => ({
          id,
          direction: "long" as "long" | "short",
          qty: 1,
          limit: NaN,
          stop: NaN,
          ocaName: null as string | null,
          ocaType: "none" as const,
          placed: null as PendingOrder | null,
        }));
        return { ctx, broker, reqs };
      };
      // `fast` takes the hints (the site's order, the id's); `slow` walks the book on every call
      const fast = mk();
      const slow = mk();
      slow.broker.book.hints = false;
      const rnd = seeded(seed * 97);
      const queue = (b: Broker) => [
        ...b.pendingOrders.map((o) => `${o.kind}:${o.id}:${o.seq}:${o.limit}:${o.stop}:${o.qty}`),
        ...b.pendingExits.map((e) => `${e.id}:${e.fromEntry}:${e.seq}:${e.armed}`),
      ];
      for (let i = 0; i < rows.length; i++) {
        for (const x of [fast, slow]) {
          setBar(x.ctx, i);
          x.broker.onBarOpen(x.ctx);
        }
        expect(queue(fast.broker)).toEqual(queue(slow.broker));
        const c = fast.ctx.close;
        // a grid re-placed in its order, in reverse, or shuffled, between other calls
        const order = [0, 1, 2, 3, 4, 5, 6, 7];
        const how = rnd(3);
        if (how === 1) order.reverse();
        else if (how === 2) order.sort(() => rnd(3) - 1);
        for (const k of order) {
          if (rnd(3) === 0) continue;
          const dir = rnd(5) === 0 ? "short" : "long";
          const limit = rnd(4) === 0 ? NaN : c - (dir === "long" ? 1 : -1) * (0.2 + rnd(12) / 10);
          const stop = rnd(5) === 0 ? c + (dir === "long" ? 1 : -1) * (0.3 + rnd(8) / 10) : NaN;
          const kind = rnd(4) === 0 ? "order" : "entry";
          // sites 6 and 7 place ids made on the call, as a loop does ("F0".."F3"), site 7 through a
          // fresh request each time (no site memory: the hint by id alone)
          const id = k < 6 ? fast.reqs[k].id : `F${rnd(4)}`;
          for (const x of [fast, slow]) {
            const r = k === 7 ? { ...x.reqs[k], placed: null } : x.reqs[k];
            if (x === fast && x.broker.pendingOrders.some((o) => o.id === id && o.kind !== "close")) hinted++;
            Object.assign(r, { id: `${id}`, direction: dir, limit, stop });
            x.broker.entry(r, x.ctx, kind);
            // its own exit, placed while the entry waits (a grid's take-profit per level)
            if (k >= 5) x.broker.exit({ id: `T${id}`, fromEntry: id, limit: c + 1.1, stop: c - 1.6 }, x.ctx);
          }
          const r = rnd(14) + (rnd(4) === 0 ? 0 : 100);
          for (const x of [fast, slow]) {
            if (r % 100 === 0) x.broker.cancel(["A", "B", "C"][seed % 3], x.ctx);
            else if (r % 100 === 1) x.broker.close({ id: "A" }, x.ctx);
            else if (r % 100 === 2) x.broker.exit({ id: "XB", fromEntry: "B", stop: c - 0.8, limit: c + 0.9 }, x.ctx);
            else if (r === 103) x.broker.cancelAll(x.ctx);
          }
          expect(queue(fast.broker)).toEqual(queue(slow.broker));
        }
        const q = fast.broker.pendingOrders.map((o) => o.seq);
        if (q.some((s, j) => j > 0 && s < q[j - 1])) throw new Error("queue out of seq order");
        if (how !== 0) reordered++;
        for (const x of [fast, slow]) x.broker.onBarClose(x.ctx);
      }
      const a = fast.broker.finish(fast.ctx);
      const b = slow.broker.finish(slow.ctx);
      expect(a.trades).toEqual(b.trades);
      expect(a.trades.length).toBeGreaterThan(10);
    }
    expect(hinted).toBeGreaterThan(3000);
    expect(reordered).toBeGreaterThan(500);
  });

  it("a level re-placed after its order filled or was cancelled (a grid) finds none pending through the id map, without walking the book, and leaves the queue and trades as the lookups do", () => {
    let walks = 0;
    let none = 0;
    let restores = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const rows = walkRows(300, seed);
      const cols = columnsOf(rows);
      const mk = () => {
        const ctx = makeCtx(cols, { type: "stock" });
        const broker = createBroker({ pyramiding: 12, process_orders_on_close: seed % 3 === 0 }, ctx);
        ctx.broker = broker;
        const reqs = [0, 1, 2, 3, 4, 5].map(() => ({
          id: "",
          direction: "long" as "long" | "short",
          qty: 1,
          limit: NaN,
          stop: NaN,
          ocaName: null as string | null,
          ocaType: "none" as "none" | "cancel" | "reduce",
          placed: null as PendingOrder | null,
        }));
        return { ctx, broker, reqs };
      };
      const fast = mk();
      const slow = mk();
      slow.broker.book.hints = false;
      // the book's walk for an id, counted on `fast`
      const book = fast.broker.book as unknown as Record<string, (id: string, seq: number) => PendingOrder | null>;
      const lookup = book.requeueLookup.bind(fast.broker.book);
      book.requeueLookup = (id, seq) => {
        walks++;
        return lookup(id, seq);
      };
      const requeue = fast.broker.book.requeueEntryLike.bind(fast.broker.book);
      fast.broker.book.requeueEntryLike = (id, seq, hint) => {
        const got = requeue(id, seq, hint);
        if (got === null) none++;
        return got;
      };
      const rnd = seeded(seed * 733);
      const queue = (b: Broker) =>
        b.pendingOrders.map((o) => `${o.kind}:${o.id}:${o.seq}:${o.limit}:${o.stop}:${o.qty}`);
      // every pending order's `at` is its index in the book's list
      const placesHold = (b: Broker) => {
        const list = (b.book as unknown as { list: PendingOrder[] }).list;
        for (let i = 0; i < list.length; i++)
          if (list[i].at !== i) throw new Error(`order ${list[i].id} at ${list[i].at}, not ${i}`);
      };
      for (let i = 0; i < rows.length; i++) {
        for (const x of [fast, slow]) {
          setBar(x.ctx, i);
          x.broker.onBarOpen(x.ctx);
          placesHold(x.broker);
        }
        expect(queue(fast.broker)).toEqual(queue(slow.broker));
        const c = fast.ctx.close;
        // a grid of buy and sell limits near the close (many fill), ids made per call as a loop makes
        // them, in its order or reversed (the queue sorted again when read: only moved orders' places written)
        const levels = rnd(4) === 0 ? [5, 4, 3, 2, 1, 0] : [0, 1, 2, 3, 4, 5];
        for (const k of levels) {
          const dir = k % 2 === 0 ? "long" : "short";
          const limit = c + (dir === "long" ? -1 : 1) * (0.1 + 0.15 * k + rnd(4) / 20);
          const oca = k >= 4 && rnd(3) === 0 ? "grp" : null;
          const ocaType = oca === null ? "none" : rnd(2) === 0 ? "cancel" : "reduce";
          for (const x of [fast, slow]) {
            Object.assign(x.reqs[k], { id: `G${k}`, direction: dir, limit, ocaName: oca, ocaType });
            x.broker.entry(x.reqs[k], x.ctx, k % 3 === 2 ? "order" : "entry");
            placesHold(x.broker);
          }
          const r = rnd(40);
          const cancelled = `G${rnd(6)}`;
          for (const x of [fast, slow]) {
            if (r === 0) x.broker.cancel(cancelled, x.ctx);
            else if (r === 1) x.broker.cancelAll(x.ctx);
            else if (r === 2) x.broker.close({ id: "G0" }, x.ctx);
            placesHold(x.broker);
          }
          expect(queue(fast.broker)).toEqual(queue(slow.broker));
          placesHold(fast.broker);
        }
        // now and then a realtime-style rollback: the book's list set from a snapshot
        if (rnd(10) === 0) {
          for (const x of [fast, slow]) {
            x.broker.restore(x.broker.snapshot());
            placesHold(x.broker);
          }
          restores++;
        }
        for (const x of [fast, slow]) x.broker.onBarClose(x.ctx);
      }
      const a = fast.broker.finish(fast.ctx);
      const b = slow.broker.finish(slow.ctx);
      expect(a.trades).toEqual(b.trades);
      expect(a.trades.length).toBeGreaterThan(50);
    }
    expect(walks).toBe(0);
    expect(none).toBeGreaterThan(1000);
    expect(restores).toBeGreaterThan(50);
  });

  it("an entry and an exit site in a loop (one request each, a call per level) find each level's order and unmoved prices through their per-place memories, and leave the queue and trades as the lookups do", () => {
    let calls = 0;
    let lookups = 0;
    let rounds = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const rows = walkRows(300, seed);
      const cols = columnsOf(rows);
      const mk = () => {
        const ctx = makeCtx(cols, { type: "stock" });
        const broker = createBroker({ pyramiding: 6, process_orders_on_close: seed % 3 === 0 }, ctx);
        ctx.broker = broker;
        // one request per site, as a compiled or interpreted site keeps it across calls and bars
        const ent: EntryRequest = { id: "", direction: "long", qty: 1, limit: NaN, stop: NaN, placed: null };
        const ex: ExitRequest = { id: "", fromEntry: null, limit: NaN, stop: NaN, placed: null };
        return { ctx, broker, ent, ex };
      };
      // `fast` takes the hints; `slow` walks the book for every entry
      const fast = mk();
      const slow = mk();
      slow.broker.book.hints = false;
      // the id maps' reads and the tick rounding, counted on `fast`
      for (const name of ["entryById", "exitById"]) {
        const map = (fast.broker.book as unknown as Record<string, Map<string, unknown>>)[name];
        map.get = (k: string) => {
          lookups++;
          return Map.prototype.get.call(map, k);
        };
      }
      const round = fast.broker.roundPrice.bind(fast.broker);
      fast.broker.roundPrice = (p, side, isStop) => {
        rounds++;
        return round(p, side, isStop);
      };
      const rnd = seeded(seed * 131);
      const queue = (b: Broker) => [
        ...b.pendingOrders.map((o) => `${o.kind}:${o.id}:${o.seq}:${o.limit}:${o.stop}:${o.qty}`),
        ...b.pendingExits.map((e) => `${e.id}:${e.fromEntry}:${e.seq}:${e.armed}:${e.limit}:${e.stop}`),
      ];
      let anchor = cols.close[0];
      for (let i = 0; i < rows.length; i++) {
        for (const x of [fast, slow]) {
          setBar(x.ctx, i);
          x.broker.onBarOpen(x.ctx);
        }
        expect(queue(fast.broker)).toEqual(queue(slow.broker));
        // the grid's levels hold for stretches of bars (unmoved prices), then move with the close
        if (i % 12 === 0) anchor = fast.ctx.close;
        const levels = 8 + (rnd(6) === 0 ? rnd(3) : 0);
        const skip = rnd(8) === 0 ? rnd(levels) : -1;
        for (let k = 0; k < levels; k++) {
          if (k === skip) continue;
          const limit = anchor - 0.3 * (k + 1);
          const stop = k % 3 === 0 ? anchor + 2 + 0.1 * k : NaN;
          calls++;
          for (const x of [fast, slow]) {
            Object.assign(x.ent, { id: `L${k}`, limit, stop });
            x.broker.entry(x.ent, x.ctx, k % 4 === 3 ? "order" : "entry");
            Object.assign(x.ex, { id: `X${k}`, fromEntry: `L${k}`, limit: anchor + 0.4 + 0.1 * k, stop: anchor - 4 });
            x.broker.exit(x.ex, x.ctx);
          }
        }
        const r = rnd(20);
        const gone = `L${rnd(8)}`;
        for (const x of [fast, slow]) {
          if (r === 0) x.broker.cancel(gone, x.ctx);
          else if (r === 1) x.broker.close({ id: "L0" }, x.ctx);
          else if (r === 2) x.broker.cancelAll(x.ctx);
        }
        expect(queue(fast.broker)).toEqual(queue(slow.broker));
        for (const x of [fast, slow]) x.broker.onBarClose(x.ctx);
      }
      const a = fast.broker.finish(fast.ctx);
      const b = slow.broker.finish(slow.ctx);
      expect(a.trades).toEqual(b.trades);
      expect(a.trades.length).toBeGreaterThan(10);
    }
    // a loop's level n hits its own memories: few id-map reads, few roundings (without them: every
    // call of a level after the first reads the maps, and rounds both prices, the previous level's)
    expect(calls).toBeGreaterThan(10000);
    expect(lookups).toBeLessThan(0.3 * 2 * calls);
    expect(rounds).toBeLessThan(0.3 * 2 * calls);
  });

  it("an exit re-placed through its call site's request (placedExit) is the one findExit finds, under random placements, cancels, prunes and clears", () => {
    const rnd = seeded(6161);
    // call sites: each its own request, some sharing an id (two sites placing one exit), and the
    // interpreter's shared request (any id) as one more site
    const sites: ExitRequest[] = [];
    for (let i = 0; i < 6; i++) sites.push({ id: "X", placed: null });
    const ids = ["X", "Y", "Z"];
    const froms = [null, "L", "S"];
    let cached = 0;
    for (let round = 0; round < 200; round++) {
      const book = new OrderBook();
      const trades: OpenTrade[] = [];
      for (let step = 0; step < 60; step++) {
        const k = rnd(10);
        if (k < 6) {
          const req = sites[rnd(sites.length)];
          // a site's id or from_entry may change from call to call (a computed id)
          if (rnd(4) === 0 || req.placed === null) req.id = ids[rnd(ids.length)];
          const fromEntry = froms[rnd(froms.length)];
          const want = book.findExit(req.id, fromEntry);
          const last = req.placed;
          const got = book.placedExit(req, fromEntry);
          expect(got).toBe(want);
          if (got !== null && got === last) cached++;
          if (got === null) {
            const e = newExitOrder();
            e.id = req.id;
            e.fromEntry = fromEntry;
            book.addExit(e, req);
          } else expect(req.placed).toBe(got);
        } else if (k === 6) book.cancel(ids[rnd(ids.length)]);
        else if (k === 7) {
          // trades come and go: exits whose trades are gone are pruned
          if (trades.length > 0 && rnd(2) === 0) trades.pop();
          else trades.push({ entryId: ["L", "S"][rnd(2)], side: rnd(2) ? 1 : -1 } as OpenTrade);
          for (const e of book.exits) if (rnd(3) === 0) e.armed = true;
          book.pruneExits(trades);
        } else if (k === 8 && rnd(4) === 0) book.cancelAll();
        else if (k === 9 && rnd(6) === 0) book.clear();
      }
      // (no two pending exits share an id and from_entry)
      const keys = book.exits.map((e) => `${e.id}/${e.fromEntry}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
    expect(cached).toBeGreaterThan(500);
  });

  it("strategy.cancel leaves the book as filtering out the id's entries, orders and exits does, and stores nothing when none is pending", () => {
    const rnd = seeded(5151);
    let none = 0;
    for (let round = 0; round < 2000; round++) {
      const book = new OrderBook();
      pushRandomOrders(book, rnd, rnd(6));
      for (let i = rnd(5); i > 0; i--) {
        const e = newExitOrder();
        e.id = ["A", "B", "X"][rnd(3)];
        book.exits.push(e);
      }
      const id = ["A", "B", "C", "X"][rnd(4)];
      const wantOrders = book.orders.filter((o) => o.id !== id || o.kind === "close" || o.kind === "close_all");
      const wantExits = book.exits.filter((e) => e.id !== id);
      const orders = book.orders;
      const exits = book.exits;
      const untouched = wantOrders.length === orders.length && wantExits.length === exits.length;
      if (untouched) {
        none++;
        // (nothing to cancel: no element is stored again)
        const ro = new Proxy(orders, { set: () => false });
        const re = new Proxy(exits, { set: () => false });
        book.orders = ro;
        book.exits = re;
      }
      book.cancel(id);
      expect([...book.orders]).toEqual(wantOrders);
      expect([...book.exits]).toEqual(wantExits);
      for (let i = 0; i < wantOrders.length; i++) expect(book.orders[i]).toBe(wantOrders[i]);
      for (let i = 0; i < wantExits.length; i++) expect(book.exits[i]).toBe(wantExits[i]);
    }
    expect(none).toBeGreaterThan(300);
    expect(none).toBeLessThan(1900);
  });

  it("the broker works out again only the stale levels, equal to levels worked out from scratch", () => {
    const ctx = makeCtx(columnsOf(walkRows(3, 1)), { type: "stock" });
    const broker = createBroker({}, ctx);
    const trade = openTrade(100.003, 1, 0);
    const e = newExitOrder();
    const req = { id: "X", fromEntry: "L", profit: 120, stop: 99.517, trailPrice: 101.004, trailOffset: 5 };
    writeExit(e, req, "L", 0, 0, false);
    expect(broker.takeProfitLevel(e, trade)).toBe(101.21);
    expect(broker.stopLossLevel(e, trade)).toBe(99.51);
    expect(e.lvStale).toBe(0);
    // the stop moves: the take-profit and activation stay as they were, the stop is rounded again
    const tp = e.lvTp;
    const act = e.lvAct;
    e.lvTp = -1;
    e.lvAct = -2;
    writeExit(e, { ...req, stop: 98.123 }, "L", 1, 0, false);
    expect(broker.stopLossLevel(e, trade)).toBe(98.12);
    expect(e.lvTp).toBe(-1);
    expect(e.lvAct).toBe(-2);
    e.lvTp = tp;
    e.lvAct = act;
    const fresh = newExitOrder();
    writeExit(fresh, { ...req, stop: 98.123 }, "L", 1, 0, false);
    for (const [a, b] of [
      [broker.takeProfitLevel(e, trade), broker.takeProfitLevel(fresh, trade)],
      [broker.stopLossLevel(e, trade), broker.stopLossLevel(fresh, trade)],
      [broker.trailActivation(e, trade), broker.trailActivation(fresh, trade)],
    ])
      expect(Object.is(a, b)).toBe(true);
  });

  it("an exit's cached levels read by trades of other entry prices (pyramiding) equal levels worked out from scratch", () => {
    const ctx = makeCtx(columnsOf(walkRows(3, 1)), { type: "stock" });
    const broker = createBroker({}, ctx);
    const rnd = seeded(11);
    const price = () => 100 + rnd(4000) / 1000 - 2;
    const maybe = (v: number) => (rnd(3) === 0 ? NaN : v);
    const trades = Array.from({ length: 4 }, (_, i) => openTrade(price(), i % 2 === 0 ? 1 : -1, i));
    const e = newExitOrder();
    let relative = 0;
    for (let step = 0; step < 4000; step++) {
      // now and then re-placed: levels as prices only on most steps, ticks from the entry on some
      if (step === 0 || rnd(4) === 0) {
        const ticks = rnd(3) === 0;
        if (ticks) relative++;
        const req = {
          id: "X",
          fromEntry: "L",
          limit: maybe(price() + 1),
          stop: maybe(price() - 1),
          trailPrice: maybe(price()),
          trailOffset: 5,
          profit: ticks ? maybe(rnd(300)) : NaN,
          loss: ticks ? maybe(rnd(300)) : NaN,
          trailPoints: ticks ? maybe(rnd(300)) : NaN,
        };
        writeExit(e, req, "L", step, 0, false);
      }
      const t = trades[rnd(trades.length)];
      // a trade's entry price moves now and then (the key a level cache must notice)
      if (rnd(10) === 0) t.entryPrice = price();
      const got = [broker.takeProfitLevel(e, t), broker.stopLossLevel(e, t), broker.trailActivation(e, t)];
      const want = [takeProfitLevel(e, t, 0.01, 6), stopLossLevel(e, t, 0.01, 6), trailActivation(e, t, 0.01, 6)];
      for (let k = 0; k < 3; k++) expect(Object.is(got[k], want[k]), `level ${k} at step ${step}`).toBe(true);
    }
    expect(relative).toBeGreaterThan(100);
  });

  it("writeExitLevels writes takeProfitLevel's, stopLossLevel's and trailActivation's values bit for bit (ticks and prices, both sides, v5 and v6, grids of 1/k ticks and others)", () => {
    const rnd = seeded(29);
    const e = newExitOrder();
    let both = 0;
    for (const mintick of [0.01, 0.25, 0.00001, 1, 0.03, 3, 0.1, 1e-8]) {
      for (const version of [5, 6]) {
        for (let step = 0; step < 600; step++) {
          const base = (1 + rnd(5000)) * mintick * (rnd(2) === 0 ? 1 : 97.3);
          // (some a hair off the grid, where roundToTick's 1e-7 slack decides)
          const hair = [0, 5e-8, -5e-8, 5e-7, -5e-7, 2e-6, 0.5];
          const price = () =>
            rnd(2) === 0
              ? base + ((rnd(2001) - 1000) / 7) * mintick
              : (Math.round(base / mintick) + rnd(200) + hair[rnd(hair.length)]) * mintick;
          const maybe = (v: number) => (rnd(3) === 0 ? NaN : v);
          const t = openTrade(price(), rnd(2) === 0 ? 1 : -1, step);
          e.limit = maybe(price());
          e.stop = maybe(price());
          e.trailPrice = maybe(price());
          e.profit = maybe(rnd(500) + rnd(10) / 10);
          e.loss = maybe(rnd(500));
          e.trailPoints = maybe(rnd(500) - 5);
          if (e.limit === e.limit && e.profit === e.profit) both++;
          const which = step % 8;
          e.lvTp = e.lvSl = e.lvAct = 12345;
          writeExitLevels(e, t, { mintick }, version, which);
          const want = [
            which & 1 ? takeProfitLevel(e, t, mintick, version) : 12345,
            which & 2 ? stopLossLevel(e, t, mintick, version) : 12345,
            which & 4 ? trailActivation(e, t, mintick, version) : 12345,
          ];
          const got = [e.lvTp, e.lvSl, e.lvAct];
          for (let k = 0; k < 3; k++)
            expect(Object.is(got[k], want[k]), `level ${k} mintick ${mintick} v${version} step ${step}`).toBe(true);
        }
      }
    }
    expect(both).toBeGreaterThan(500);
  });

  it("record_events false logs no events and books the same trades in both modes", async () => {
    const data: Bar[] = walkRows(300, 5).map(([open, high, low, close], i) => ({
      time: Date.UTC(2024, 0, 1) + i * 3_600_000,
      open,
      high,
      low,
      close,
      volume: 1,
    }));
    const src = v6(
      `f = ta.ema(close, 5)
s = ta.ema(close, 13)
if ta.crossover(f, s)
    strategy.entry("L", strategy.long)
if ta.crossunder(f, s)
    strategy.close("L")
strategy.exit("XL", "L", stop = close - 1.5, limit = close + 3)`,
      `strategy("t")`,
    );
    const full = await runBoth(src, data);
    const quiet = await runBoth(src, data, { runtime: { broker: { record_events: false } } });
    expect(full.events.length).toBeGreaterThan(300);
    expect(quiet.events).toEqual([]);
    expect(quiet.strategy).toEqual(full.strategy);
  });

  it("a trade's trail states in its own fields and the map behind them read as one map per trade would, on random activations and moves", () => {
    let s = 99;
    const rnd = (n: number) => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) % n;
    let spilled = 0;
    for (let round = 0; round < 200; round++) {
      const t = openTrade(100, 1, 0);
      const model = new Map<string, number>();
      for (let k = 0; k < 40; k++) {
        const id = ["XA", "XB", "XC", ""][rnd(4)];
        if (rnd(2) === 0) {
          const p = 90 + rnd(2000) / 100;
          setTrailExtreme(t, id, p);
          model.set(id, p);
        }
        for (const q of ["XA", "XB", "XC", "", "XD"]) expect(trailExtreme(t, q)).toBe(model.get(q) ?? NaN);
      }
      if (t.trail !== null) spilled++;
    }
    expect(spilled).toBeGreaterThan(50);
  });

  it("the ledger takes a closed trade out of the open ones in order, books exit fills only on trades left open, and an empty close list is empty", () => {
    let s = 7;
    const rnd = (n: number) => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let round = 0; round < 100; round++) {
      const ledger = new Ledger(1);
      const model: OpenTrade[] = [];
      for (let k = 0; k < 30; k++) {
        if (model.length === 0 || rnd(3) === 0) {
          const t = ledger.openTrade(["L", "M"][rnd(2)], null, 1, 1 + rnd(3), 100, 0, k, k);
          model.push(t);
        } else {
          const t = model[rnd(model.length)];
          const q = rnd(2) === 0 ? t.qty : t.qty / 2;
          const had = t.exitFilled;
          ledger.closePart(t, q, 101, 0, "X", null, k, k);
          ledger.addExitFilled(t, "X", q);
          if (t.qty === 0) {
            model.splice(model.indexOf(t), 1);
            expect(t.exitFilled).toBe(had);
          } else expect(t.exitFilled?.get("X")).toBeGreaterThan(0);
        }
        expect(ledger.open).toEqual(model);
        const list = ledger.closeList("M");
        expect(list).toEqual(model.filter((t) => t.entryId === "M"));
        expect(ledger.closeList(null, null, -1)).toEqual([]);
      }
    }
  });

  it("the ledger's position is summed once per change of the trades (version, epoch) and follows every open, partial and whole close", () => {
    let s = 11;
    const rnd = (n: number) => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) % n;
    for (let round = 0; round < 50; round++) {
      const ledger = new Ledger(1);
      const model: OpenTrade[] = [];
      const sum = () => model.reduce((a, t) => a + t.side * t.qty, 0);
      for (let k = 0; k < 30; k++) {
        if (model.length === 0 || rnd(3) === 0) {
          const side = (model.length > 0 ? model[0].side : rnd(2) === 0 ? 1 : -1) as Side;
          model.push(ledger.openTrade("L", null, side, 0.5 + rnd(3), 100, 0, k, k));
        } else {
          const t = model[rnd(model.length)];
          ledger.closePart(t, rnd(2) === 0 ? t.qty : t.qty / 3, 101, 0, "X", null, k, k);
          if (t.qty === 0) model.splice(model.indexOf(t), 1);
        }
        expect(ledger.positionSize()).toBe(sum());
        expect(ledger.positionSize()).toBe(sum());
      }
    }
    // the kept sum is what a read returns until the version or the epoch moves (a trade's qty written
    // here behind the ledger's back shows only then)
    const ledger = new Ledger(1);
    const t = ledger.openTrade("L", null, 1, 2, 100, 0, 0, 0);
    expect(ledger.positionSize()).toBe(2);
    t.qty = 5;
    expect(ledger.positionSize()).toBe(2);
    ledger.version++;
    expect(ledger.positionSize()).toBe(5);
    t.qty = 7;
    ledger.epoch = -5;
    expect(ledger.positionSize()).toBe(7);
  });

  it("the walk works the level extremes out again only when a level or the trades moved, and a moved stop still fills", () => {
    // a long from bar 0's market entry, its stop re-placed at 95 on every bar, moved to 96 at bar 40;
    // bar 50 falls to 95.5: the moved stop fills there, the unmoved one would not have
    const rows: [number, number, number, number][] = [];
    for (let i = 0; i < 60; i++) rows.push(i === 50 ? [100, 100.5, 95.5, 98] : [100, 100.5, 99.5, 100]);
    const ctx = makeCtx(columnsOf(rows), { type: "stock" });
    const broker = createBroker({}, ctx);
    ctx.broker = broker;
    const fresh = vi.spyOn(broker, "freshLevels");
    const gens: number[] = [];
    const works: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      setBar(ctx, i);
      broker.onBarOpen(ctx);
      works.push(fresh.mock.calls.length);
      if (i === 0) call("strategy.entry", ctx, "L", "long");
      call("strategy.exit", ctx, "XL", "L", NaN, NaN, NaN, 120, NaN, i < 40 ? 95 : 96);
      gens.push(broker.book.levelGen);
      broker.onBarClose(ctx);
    }
    // an unchanged re-placement moves no level: the book's generation and the walk's work stand still
    expect(gens[39]).toBe(gens[5]);
    expect(works[39]).toBe(works[5]);
    // the moved stop: a new generation, the levels worked out again on the next bar
    expect(gens[40]).toBeGreaterThan(gens[39]);
    expect(works[41]).toBeGreaterThan(works[40]);
    expect(broker.ledger.open.length).toBe(0);
    expect(broker.ledger.closed.toArray().map((t) => [t.exit_id, t.exit_price, t.exit_bar_index])).toEqual([
      ["XL", 96, 50],
    ]);
  });

  it("the book's count of market orders is theirs after every order call and fill, OCA groups, cancels and closes included", () => {
    let market = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const rows = walkRows(300, seed);
      const ctx = makeCtx(columnsOf(rows), { type: "stock" });
      const broker = createBroker({ pyramiding: 3, process_orders_on_close: seed % 3 === 0 }, ctx);
      ctx.broker = broker;
      const rnd = seeded(seed * 31);
      for (let i = 0; i < rows.length; i++) {
        setBar(ctx, i);
        broker.onBarOpen(ctx);
        expect(broker.book.market).toBe(marketOrders(broker));
        const c = ctx.close;
        for (let k = rnd(4); k > 0; k--) {
          const id = ["A", "B", "C"][rnd(3)];
          const dir = rnd(2) === 0 ? "long" : "short";
          const limit = rnd(3) === 0 ? c + (rnd(2) === 0 ? -1 : 1) * (0.3 + rnd(10) / 10) : NaN;
          const stop = rnd(3) === 0 ? c + (rnd(2) === 0 ? -1 : 1) * (0.3 + rnd(10) / 10) : NaN;
          const oca = rnd(3) === 0 ? ["g1", "g2"][rnd(2)] : null;
          const ocaType = ["strategy.oca.cancel", "strategy.oca.reduce", "strategy.oca.none"][rnd(3)];
          const r = rnd(10);
          if (r < 3) call("strategy.entry", ctx, id, dir, 1 + rnd(3), limit, stop, oca, ocaType);
          else if (r < 5) call("strategy.order", ctx, id, dir, 1 + rnd(3), limit, stop, oca, ocaType);
          else if (r < 6) call("strategy.close", ctx, id);
          else if (r < 7) call("strategy.close_all", ctx);
          else if (r < 8) call("strategy.cancel", ctx, id);
          else if (r < 9) call("strategy.cancel_all", ctx);
          else call("strategy.exit", ctx, "X" + id, id, NaN, NaN, NaN, c + 1, NaN, c - 1);
          expect(broker.book.market).toBe(marketOrders(broker));
          if (broker.book.market > 0) market++;
        }
        broker.onBarClose(ctx);
        expect(broker.book.market).toBe(marketOrders(broker));
      }
    }
    expect(market).toBeGreaterThan(200);
  });

  it("an entry's prices are rounded again only when they moved: a request re-placed on other ticks, sides and brokers rounds as a fresh one", () => {
    const sr = functions["strategy.entry"].siteRequest;
    if (!sr) throw new Error("strategy.entry has no siteRequest");
    const cols = columnsOf([[100, 101, 99, 100]]);
    // one request (a call site's, which outlives a run) placed through brokers of other mintick
    const req = sr.make() as Record<string, unknown>;
    const rnd = seeded(77);
    let memoised = 0;
    for (let round = 0; round < 400; round++) {
      const mintick = [0.01, 0.25, 0.00001, 3][rnd(4)];
      const ctx = makeCtx(cols, { mintick });
      setBar(ctx, 0);
      const broker = createBroker({}, ctx);
      ctx.broker = broker;
      for (let k = 0; k < 4; k++) {
        const short = rnd(2) === 0;
        // a price kept from the call before (memoised), a new one, or na
        const pick = (prev: unknown) =>
          rnd(3) === 0 ? prev : rnd(4) === 0 ? Number.NaN : 90 + rnd(2000) / 97 + (rnd(2) === 0 ? 1e-9 : 0);
        const limit = pick(req.limit);
        const stop = pick(req.stop);
        if (limit === req.limit || stop === req.stop) memoised++;
        Object.assign(req, { id: "E", dirArg: short ? "short" : "long", qty: 1, limit, stop });
        sr.place(ctx, req);
        const o = broker.pendingOrders.find((x) => x.id === "E");
        if (!o) throw new Error("no pending entry");
        const side = short ? -1 : 1;
        expect(o.limit).toBe(roundToTick(limit as number, mintick, side < 0));
        expect(o.stop).toBe(roundToTick(stop as number, mintick, side > 0));
      }
    }
    expect(memoised).toBeGreaterThan(100);
  });

  it("a computed default quantity is worked out again when the price, the trades or the point value changed", () => {
    const cols = columnsOf([[100, 101, 99, 100]]);
    const settings = { default_qty_type: "percent_of_equity", default_qty_value: 30, commission_value: 0.1 };
    const make = (pointvalue: number) => {
      const ctx = makeCtx(cols, { pointvalue });
      setBar(ctx, 0);
      return createBroker(settings, ctx);
    };
    const a = make(1);
    expect(a.defaultQty(100)).toBe(make(1).defaultQty(100));
    // the account's point value moved (a currency cross rate): as a broker made with it
    a.pointValue = 2;
    a.ledger.pointValue = 2;
    const b = make(2);
    expect(a.defaultQty(100)).toBe(b.defaultQty(100));
    expect(a.defaultQty(100)).not.toBe(make(1).defaultQty(100));
    // a trade opened: the equity at the price moves
    a.ledger.openTrade("L", null, 1, 3, 80, 0, 0, 0);
    b.ledger.openTrade("L", null, 1, 3, 80, 0, 0, 0);
    const c = make(2);
    c.ledger.openTrade("L", null, 1, 3, 80, 0, 0, 0);
    expect(a.defaultQty(100)).toBe(c.defaultQty(100));
    expect(a.defaultQty(100)).not.toBe(make(2).defaultQty(100));
    // it closed at a profit: so does the net profit
    const open = a.defaultQty(100);
    a.ledger.closePart(a.ledger.open[0], 3, 120, 0, "X", null, 0, 0);
    c.ledger.closePart(c.ledger.open[0], 3, 120, 0, "X", null, 0, 0);
    expect(a.defaultQty(100)).toBe(c.defaultQty(100));
    expect(a.defaultQty(100)).not.toBe(open);
    expect(a.defaultQty(101)).toBe(c.defaultQty(101));
  });
});
