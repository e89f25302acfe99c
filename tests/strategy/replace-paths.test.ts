// The order calls' short paths for a call site re-placing its order with only its numbers moved
// (Broker.exit, Broker.entry): each checked against the general path on the same order flow, the
// book's orders and exits compared field for field after every call, and the short path counted.

import { describe, expect, it } from "vitest";
import { createBroker } from "../../src/strategy/index.js";
import type { Broker } from "../../src/strategy/broker.js";
import {
  EXIT_ARG_LIMIT,
  EXIT_ARG_STOP,
  EXIT_PARAMS,
  type ExitOrder,
  type EntryRequest,
  type ExitRequest,
} from "../../src/strategy/types.js";
import { columnsOf, makeCtx, setBar } from "./harness.js";

/** A seeded generator of integers in [0, n). */
function seeded(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/** A seeded random walk of bars on a 0.01 grid. */
function walkRows(n: number, seed: number): [number, number, number, number][] {
  const rnd = seeded(seed);
  const tick = (x: number) => Math.round(x * 100) / 100;
  const rows: [number, number, number, number][] = [];
  let c = 100;
  for (let i = 0; i < n; i++) {
    const o = tick(c + (rnd(100) - 50) / 250);
    const cl = tick(o + (rnd(100) - 50) / 50);
    const h = tick(Math.max(o, cl) + rnd(100) / 120);
    const l = tick(Math.min(o, cl) - rnd(100) / 120);
    rows.push([o, h, l, cl]);
    c = cl;
  }
  return rows;
}

const bit = (name: (typeof EXIT_PARAMS)[number]) => 1 << EXIT_PARAMS.indexOf(name);

/** Every field of a pending exit but the request that wrote it (each broker has its own requests). */
function exitFields(e: ExitOrder): Record<string, unknown> {
  const { src: _src, ...rest } = e;
  return { ...rest, alerts: e.alerts === null ? null : { ...e.alerts } };
}

/** A broker on its own host over `cols`, with the order flow's settings for `seed`. */
function flowBroker(cols: ReturnType<typeof columnsOf>, seed: number) {
  const ctx = makeCtx(cols, { type: "stock" });
  const broker = createBroker({ pyramiding: 3, process_orders_on_close: seed % 3 === 0 }, ctx);
  ctx.broker = broker;
  return { ctx, broker };
}

/** The two brokers' trades when the flow is over: the same, and enough of them to have tested something. */
function sameTradesAtEnd(short: ReturnType<typeof flowBroker>, slow: ReturnType<typeof flowBroker>): void {
  const a = short.broker.finish(short.ctx);
  const b = slow.broker.finish(slow.ctx);
  expect(a.trades).toEqual(b.trades);
  expect(a.trades.length).toBeGreaterThan(5);
}

function bookOf(b: Broker) {
  return {
    orders: b.pendingOrders.map((o) => ({ ...o })),
    exits: b.pendingExits.map(exitFields),
  };
}

describe("order calls re-placed by their sites", () => {
  it("an exit re-placed by its site's first call of a pass with only its id, from_entry, limit or stop moved (Broker.exit's short path) ends as the general path leaves it", () => {
    let calls = 0;
    let general = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const rows = walkRows(300, seed);
      const cols = columnsOf(rows);
      // the sites name the arguments they move per call (`varying`), as compiled and interpreted sites
      // do; `slow` places a copy of its site's request on every call, which no exit was written by:
      // the general path (placedExit's lookups, relevelExit comparing every field)
      const mk = () => {
        const v = (bits: number) => bits;
        const sites: ExitRequest[] = [
          // a bracket by price on one entry
          { id: "XA", fromEntry: "L", limit: NaN, stop: NaN, varying: v(EXIT_ARG_LIMIT | EXIT_ARG_STOP) },
          // a moving stop beside a constant trail, bound to the position
          { id: "XB", fromEntry: null, stop: NaN, trailPoints: 40, trailOffset: 10, varying: v(EXIT_ARG_STOP) },
          // a computed id and from_entry (another id is another exit)
          { id: "", fromEntry: "", limit: NaN, stop: NaN, varying: v(bit("id") | bit("fromEntry") | EXIT_ARG_STOP) },
          // constant texts and alerts, a stop moving with them
          {
            id: "XD",
            fromEntry: "S",
            stop: NaN,
            comment: "c",
            alertMessage: "m",
            profit: 80,
            varying: v(EXIT_ARG_STOP),
          },
          // a comment moved per call beside the stop: the general path's (its texts compared)
          { id: "XE", fromEntry: "L2", stop: NaN, comment: null, varying: v(EXIT_ARG_STOP | bit("comment")) },
          // a site in a loop: a take-profit per level (its memory per place of the pass: CallParts)
          { id: "", fromEntry: "", limit: NaN, varying: v(bit("id") | bit("fromEntry") | EXIT_ARG_LIMIT) },
        ];
        return { ...flowBroker(cols, seed), sites };
      };
      const short = mk();
      const slow = mk();
      const book = short.broker.book;
      const placed = book.placedExit.bind(book);
      book.placedExit = (req, fromEntry, memo) => {
        general++;
        return placed(req, fromEntry, memo);
      };
      const rnd = seeded(seed * 977);
      for (let i = 0; i < rows.length; i++) {
        for (const x of [short, slow]) {
          setBar(x.ctx, i);
          x.broker.onBarOpen(x.ctx);
        }
        expect(bookOf(short.broker)).toEqual(bookOf(slow.broker));
        const c = short.ctx.close;
        const r = rnd(20);
        for (const x of [short, slow]) {
          if (r === 0) x.broker.entry({ id: "L", direction: "long", qty: 1 }, x.ctx);
          else if (r === 1) x.broker.entry({ id: "S", direction: "short", qty: 1 }, x.ctx);
          else if (r === 2) x.broker.entry({ id: "L2", direction: "long", qty: 1 }, x.ctx);
          else if (r === 3) x.broker.close({ id: "L" }, x.ctx);
          else if (r === 4) x.broker.cancel("XA", x.ctx);
        }
        // each site: skipped now and then, its levels held for stretches or moved, called again in
        // the same pass now and then (a loop: its later calls take the general path)
        const held = i % 5 !== 0;
        const lim = held ? Math.round(c) + 2 : c + 1 + rnd(10) / 10;
        const stp = held ? Math.round(c) - 2 : c - 1 - rnd(10) / 10;
        // (site 2's id and from_entry move apart: the same id from another entry is another exit)
        const kc = Math.floor(i / 10) % 3;
        const from = ["L", "L2", "S"][Math.floor(i / 4) % 3];
        const repeat = rnd(20) === 0;
        const note = i % 7 === 0 ? null : `n${i % 3}`;
        for (let k = 0; k < 5; k++) {
          if (rnd(6) === 0) continue;
          for (let again = 0; again < (repeat ? 2 : 1); again++) {
            calls++;
            const noLimit = rnd(8) === 0;
            for (const x of [short, slow]) {
              const s = x.sites[k];
              if (k === 0) Object.assign(s, { limit: noLimit ? NaN : lim, stop: stp });
              else if (k === 1) s.stop = stp - 0.5;
              else if (k === 2) Object.assign(s, { id: `XC${kc + again}`, fromEntry: from, stop: stp - 0.3 });
              else if (k === 3) s.stop = c + 1.5 + (held ? 0 : 0.01 * k);
              else Object.assign(s, { stop: stp - 0.2, comment: note });
              x.broker.exit(x === short ? s : { ...s }, x.ctx);
            }
            expect(bookOf(short.broker)).toEqual(bookOf(slow.broker));
          }
        }
        // the loop: four levels, one skipped now and then, the levels held for stretches
        const skip = rnd(5) === 0 ? rnd(4) : -1;
        for (let lvl = 0; lvl < 4; lvl++) {
          if (lvl === skip) continue;
          calls++;
          for (const x of [short, slow]) {
            const s = x.sites[5];
            Object.assign(s, { id: `G${lvl}`, fromEntry: lvl % 2 === 0 ? "L" : "L2", limit: lim + 0.25 * lvl });
            x.broker.exit(x === short ? s : { ...s }, x.ctx);
          }
          expect(bookOf(short.broker)).toEqual(bookOf(slow.broker));
        }
        for (const x of [short, slow]) x.broker.onBarClose(x.ctx);
      }
      sameTradesAtEnd(short, slow);
    }
    // most calls re-place their place's exit on the short path, without placedExit (the others: a
    // place's first call after its exit was pruned or cancelled, its id moved, its texts moved)
    expect(calls).toBeGreaterThan(3000);
    // (37% here; 61% with the loop's later calls off the short path, all of them with it off)
    expect(general).toBeLessThan(0.45 * calls);
  });
  it("an entry or order re-placed by its site with the same kind, id, direction, oca and texts (Broker.entry's short path) ends as the general path leaves it", () => {
    let calls = 0;
    let general = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const rows = walkRows(300, seed);
      const cols = columnsOf(rows);
      // `slow` places a copy of its site's request on every call: no memory of the order it placed
      // last, so every call takes the general path (requeueEntryLike, writeOrder)
      const mk = () => {
        const sites: { req: EntryRequest; kind: "entry" | "order" }[] = [
          // a breakout's stop entry at the channel high
          { req: { id: "BO", direction: "long", qty: 1, stop: NaN }, kind: "entry" },
          // a short limit entry with an oca group and a comment
          {
            req: { id: "SL", direction: "short", qty: 2, limit: NaN, ocaName: "g", ocaType: "cancel", comment: "c" },
            kind: "entry",
          },
          // a stop-limit order whose qty moves (its stop may trigger before its limit fills)
          { req: { id: "SO", direction: "long", qty: 1, limit: NaN, stop: NaN }, kind: "order" },
          // its comment moved per call now and then: another text, the general path
          { req: { id: "CM", direction: "short", qty: 1, limit: NaN, comment: null }, kind: "entry" },
          // a market entry now and then (no level), a stop entry otherwise; its direction flips
          { req: { id: "MK", direction: "long", qty: 1, stop: NaN }, kind: "entry" },
          // a site in a loop: a limit entry per level (its memory per place of the pass: CallParts)
          { req: { id: "", direction: "long", qty: 1, limit: NaN }, kind: "entry" },
        ];
        return { ...flowBroker(cols, seed), sites };
      };
      const short = mk();
      const slow = mk();
      const book = short.broker.book;
      const requeue = book.requeueEntryLike.bind(book);
      book.requeueEntryLike = (id, seq, hint) => {
        general++;
        return requeue(id, seq, hint);
      };
      const rnd = seeded(seed * 131);
      const same = () => {
        expect(bookOf(short.broker)).toEqual(bookOf(slow.broker));
        expect(short.broker.book.market).toBe(slow.broker.book.market);
      };
      for (let i = 0; i < rows.length; i++) {
        for (const x of [short, slow]) {
          setBar(x.ctx, i);
          x.broker.onBarOpen(x.ctx);
        }
        same();
        const c = short.ctx.close;
        const r = rnd(16);
        for (const x of [short, slow]) {
          if (r === 0) x.broker.close({ id: "BO" }, x.ctx);
          else if (r === 1) x.broker.close({}, x.ctx, true);
          else if (r === 2) x.broker.cancel("SO", x.ctx);
          else if (r === 3) x.broker.exit({ id: "X", stop: c - 1.5, limit: c + 1.5 }, x.ctx);
        }
        same();
        const held = i % 6 !== 0;
        const hi = held ? Math.round(c) + 1 : c + 0.5 + rnd(10) / 10;
        const lo = held ? Math.round(c) - 1 : c - 0.5 - rnd(10) / 10;
        const repeat = rnd(20) === 0;
        for (let k = 0; k < 5; k++) {
          if (rnd(5) === 0) continue;
          for (let again = 0; again < (repeat ? 2 : 1); again++) {
            calls++;
            for (const x of [short, slow]) {
              const { req: s, kind } = x.sites[k];
              if (k === 0) s.stop = hi;
              else if (k === 1) s.limit = hi + 0.5;
              else if (k === 2) Object.assign(s, { stop: hi - 0.25, limit: hi - 0.75, qty: held ? 1 : 2 });
              else if (k === 3) Object.assign(s, { limit: hi + 0.25, comment: i % 4 === 0 ? "x" : null });
              else Object.assign(s, { stop: i % 9 === 0 ? NaN : hi + 0.1, direction: i % 25 < 20 ? "long" : "short" });
              x.broker.entry(x === short ? s : { ...s }, x.ctx, kind);
            }
            same();
          }
        }
        // the loop: four levels, one skipped now and then
        const skip = rnd(5) === 0 ? rnd(4) : -1;
        for (let lvl = 0; lvl < 4; lvl++) {
          if (lvl === skip) continue;
          calls++;
          for (const x of [short, slow]) {
            const s = x.sites[5].req;
            Object.assign(s, { id: `G${lvl}`, limit: lo - 0.25 * lvl });
            x.broker.entry(x === short ? s : { ...s }, x.ctx);
          }
          same();
        }
        for (const x of [short, slow]) x.broker.onBarClose(x.ctx);
      }
      sameTradesAtEnd(short, slow);
    }
    // most calls re-place their place's order on the short path, without requeueEntryLike (the
    // others: a place's first call after its order filled or was cancelled, its comment moved, a
    // call at the pyramiding limit places nothing; 26% here, all of them with the short path off)
    expect(calls).toBeGreaterThan(3000);
    expect(general).toBeLessThan(0.45 * calls);
  });
});
