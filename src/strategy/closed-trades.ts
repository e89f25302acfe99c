// The closed-trade list a strategy can see: TradingView keeps at most 9000 trades (the v6 reference,
// strategy.closedtrades.first_index: "If more trades than the allowed limit have been closed, the
// oldest trades are removed, and this number is the index of the oldest remaining trade"). Trades
// keep their global index (0 = the first trade ever closed); a trimmed index reads as na. A ring
// buffer, so memory stays at the limit however long the run, and pushing past it costs no copy.

import type { Trade } from "../core/result.js";
import { objectArray } from "../core/shapes.js";

/** TradingView's trade limit outside Deep Backtesting (user manual, Limitations). */
export const TRADE_LIMIT = 9000;

export class ClosedTrades {
  /** Trades closed since the start of the run, trimmed ones included (strategy.closedtrades). */
  total = 0;
  private ring: Trade[] = objectArray(); // (object elements kind from the start: core/shapes.ts)
  /** Ring slot of the oldest kept trade once the ring is full. */
  private head = 0;
  /**
   * Trades trimmed since mark(): a realtime tick rolled back to the mark gets them back
   * (restore after a tick that closed trades past the limit). Null when no mark is active.
   */
  private evicted: Trade[] | null = null;

  /** `limit`: how many trades are kept (Infinity: all of them). */
  constructor(readonly limit: number = TRADE_LIMIT) {}

  /** Kept trades. */
  get size(): number {
    return this.ring.length;
  }

  /** Global index of the oldest kept trade (strategy.closedtrades.first_index). */
  get firstIndex(): number {
    return this.total - this.ring.length;
  }

  push(t: Trade): void {
    this.total++;
    if (this.ring.length < this.limit) {
      this.ring.push(t);
      return;
    }
    const old = this.ring[this.head]!;
    if (this.evicted !== null) this.evicted.push(old);
    this.ring[this.head] = t;
    this.head = this.head + 1 === this.ring.length ? 0 : this.head + 1;
  }

  /** The trade with global index `i`, or undefined when it was trimmed or does not exist. */
  get(i: number): Trade | undefined {
    const k = i - this.firstIndex;
    if (!(k >= 0 && k < this.ring.length) || !Number.isInteger(k)) return undefined;
    return this.ring[(this.head + k) % this.ring.length];
  }

  /** The kept trades, oldest first (a new array). */
  toArray(): Trade[] {
    return this.ring.length < this.limit || this.head === 0
      ? this.ring.slice()
      : [...this.ring.slice(this.head), ...this.ring.slice(0, this.head)];
  }

  /** Starts recording trimmed trades so rollback() can restore this point; returns it. */
  mark(): number {
    this.evicted = [];
    return this.total;
  }

  /** Back to the point mark() returned: later trades dropped, the ones they trimmed put back. */
  rollback(total: number): void {
    const drop = this.total - total;
    if (drop <= 0) return;
    const rows = this.toArray();
    rows.length = Math.max(0, rows.length - drop);
    // the ring held the last min(total, limit) trades at the mark; the ones missing now were trimmed
    // since, oldest first, so they head the eviction log
    const missing = Math.min(total, this.limit) - rows.length;
    const back = this.evicted ?? [];
    this.ring = missing > 0 ? [...back.slice(0, missing), ...rows] : rows;
    this.head = 0;
    this.total = total;
    this.evicted = [];
  }
}
