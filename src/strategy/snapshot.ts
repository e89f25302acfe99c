// Copies of the broker's state so the Runtime can roll a realtime bar back before each tick
// (architecture: "before each tick, every var and every series is rolled back"). Taken once per
// confirmed bar, only when realtime ticks are simulated; history runs never call it.

import type { Broker } from "./broker.js";
import type { EventMark } from "./events.js";
import { newEpoch } from "./ledger.js";
import type { ExitOrder, OpenTrade, PendingOrder } from "./types.js";

type Scalars = Record<string, number | string | boolean>;

export interface BrokerSnapshot {
  orders: PendingOrder[];
  exits: ExitOrder[];
  open: OpenTrade[];
  /** The closed-trade count at the snapshot (the ledger's rollback mark). */
  closed: number;
  events: EventMark;
  /** The equity curve's counts (its stores are only appended to: the counts roll it back). */
  curve: Scalars;
  self: Scalars;
  ledger: Scalars;
  risk: Scalars;
  tracker: Scalars;
  /** The tracker's period returns: its first/last times, the day and month splits. */
  periods: [Scalars, Scalars, Scalars];
  book: Scalars;
}

export function takeSnapshot(b: Broker): BrokerSnapshot {
  return {
    orders: b.book.orders.map((o) => ({ ...o })),
    exits: b.book.exits.map((e) => ({ ...e })),
    open: b.ledger.open.map(cloneTrade),
    closed: b.ledger.closed.mark(),
    events: b.eventLog.mark(),
    curve: scalarsOf(b.tracker.curve),
    self: scalarsOf(b),
    ledger: scalarsOf(b.ledger),
    risk: scalarsOf(b.risk),
    tracker: scalarsOf(b.tracker),
    periods: [scalarsOf(b.tracker.periods), scalarsOf(b.tracker.periods.days), scalarsOf(b.tracker.periods.months)],
    book: scalarsOf(b.book),
  };
}

export function restoreSnapshot(b: Broker, s: BrokerSnapshot): void {
  b.book.orders = s.orders.map((o) => ({ ...o }));
  b.book.exits = s.exits.map((e) => ({ ...e }));
  b.ledger.open.length = 0;
  for (const t of s.open) b.ledger.open.push(cloneTrade(t));
  b.ledger.closed.rollback(s.closed);
  b.eventLog.rollback(s.events);
  restoreScalars(b, s.self);
  restoreScalars(b.ledger, s.ledger);
  // (the restored version names the trades of the snapshot only in a new epoch: see Ledger.epoch)
  b.ledger.epoch = newEpoch();
  restoreScalars(b.risk, s.risk);
  restoreScalars(b.tracker, s.tracker);
  restoreScalars(b.tracker.curve, s.curve);
  restoreScalars(b.tracker.periods, s.periods[0]);
  restoreScalars(b.tracker.periods.days, s.periods[1]);
  restoreScalars(b.tracker.periods.months, s.periods[2]);
  restoreScalars(b.book, s.book);
}

/** The number/string/boolean own fields of an object (its counters and flags). */
export function scalarsOf(obj: object): Scalars {
  const out: Scalars = {};
  for (const [k, v] of Object.entries(obj)) {
    if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") out[k] = v;
  }
  return out;
}

export function restoreScalars(obj: object, s: Scalars): void {
  Object.assign(obj, s);
}

export function cloneTrade(t: OpenTrade): OpenTrade {
  let trail: OpenTrade["trail"] = null;
  if (t.trail !== null) {
    trail = new Map();
    for (const [k, v] of t.trail) trail.set(k, { extreme: v.extreme });
  }
  return { ...t, exitFilled: t.exitFilled === null ? null : new Map(t.exitFilled), trail };
}
