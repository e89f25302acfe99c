// The closed-trade list a strategy can see: TradingView keeps at most 9000 trades (the v6 reference,
// strategy.closedtrades.first_index: "If more trades than the allowed limit have been closed, the
// oldest trades are removed, and this number is the index of the oldest remaining trade"). Trades
// keep their global index (0 = the first trade ever closed); a trimmed index reads as na. A ring,
// so memory stays at the limit however long the run, and pushing past it costs no copy.
//
// The trades are kept in columns (issue 18): a row's numbers in one Float64Array (NUM_COLS a
// trade), its four strings in one array. A `Trade` object (21 fields, a dozen of them heap numbers:
// ~400 bytes) is built only when something reads it: `get` (a few strategy.closedtrades.* reads),
// `toArray` (result.strategy.trades, itself built on first read). The builtins read the columns.

import type { Trade } from "../core/result.js";
import { objectArray } from "../core/shapes.js";
import { spareTradeColumns } from "./spare-stores.js";

/** TradingView's trade limit outside Deep Backtesting (user manual, Limitations). */
export const TRADE_LIMIT = 9000;

// A closed trade's numbers, in its slot of `nums` (slot * NUM_COLS + column).
export const C_ENTRY_BAR = 0;
export const C_ENTRY_TIME = 1;
export const C_ENTRY_PRICE = 2;
export const C_EXIT_BAR = 3;
export const C_EXIT_TIME = 4;
export const C_EXIT_PRICE = 5;
/** 1 long, -1 short. */
export const C_SIDE = 6;
export const C_QTY = 7;
export const C_PROFIT = 8;
export const C_PROFIT_PERCENT = 9;
export const C_CUM_PROFIT = 10;
export const C_RUN_UP = 11;
export const C_RUN_UP_PERCENT = 12;
export const C_DRAWDOWN = 13;
export const C_DRAWDOWN_PERCENT = 14;
export const C_COMMISSION = 15;
export const NUM_COLS = 16;
// Its strings, in its slot of `strs` (slot * STR_COLS + column).
export const S_ENTRY_ID = 0;
export const S_ENTRY_COMMENT = 1;
export const S_EXIT_ID = 2;
export const S_EXIT_COMMENT = 3;
export const STR_COLS = 4;

/** na, as a module constant (not the global `NaN`, a generic load on a path not taken yet: trades.ts NA). */
const NA = NaN;

/** Something built from the list as it is (a result's trades): settled before the list changes. */
export interface ClosedTradesReader {
  settle(): void;
}

export class ClosedTrades {
  /** Trades closed since the start of the run, trimmed ones included (strategy.closedtrades). */
  total = 0;
  /** Kept trades' numbers (see C_*); grown by doubling up to the limit. */
  nums: Float64Array;
  /** Kept trades' strings (see S_*). */
  strs: (string | null)[] = objectArray();
  /** Kept trades. */
  size = 0;
  /** Ring slot of the oldest kept trade once the ring is full. */
  private head = 0;
  /**
   * Trades trimmed since mark(), their columns in the order they went: a realtime tick rolled back
   * to the mark gets them back (restore after a tick that closed trades past the limit). Null when
   * no mark is active.
   */
  private evicted: Rows | null = null;
  /** A reader of the list as it is now (buildResult's trades), settled at the next change. */
  private reader: ClosedTradesReader | null = null;

  /** `limit`: how many trades are kept (Infinity: all of them). */
  constructor(readonly limit: number = TRADE_LIMIT) {
    // (room for 256 trades first: a Float64Array made costs more than its size says; or a released
    // run's store, the size that run grew to, cleared as a new one is)
    const first = Math.min(limit, 256) * NUM_COLS;
    const spare = spareTradeColumns.take(first, Math.max(first, limit * NUM_COLS));
    this.nums = spare === undefined ? new Float64Array(first) : spare.fill(0);
  }

  /** Global index of the oldest kept trade (strategy.closedtrades.first_index). */
  get firstIndex(): number {
    return this.total - this.size;
  }

  /**
   * A slot for the next closed trade (its global index is `total - 1` after the call): the caller
   * writes its numbers and strings at `slot * NUM_COLS` / `slot * STR_COLS`. Past the limit the
   * oldest trade's slot is reused.
   */
  add(): number {
    if (this.reader !== null) this.settleReader();
    this.total++;
    if (this.size < this.limit) {
      const slot = this.size++;
      if ((slot + 1) * NUM_COLS > this.nums.length) this.grow();
      return slot;
    }
    const slot = this.head;
    if (this.evicted !== null) copyRow(this, slot, this.evicted, this.evicted.count++);
    this.head = slot + 1 === this.size ? 0 : slot + 1;
    return slot;
  }

  private grow(): void {
    const cap = Math.min(this.limit, (this.nums.length / NUM_COLS) * 2);
    const nums = new Float64Array(cap * NUM_COLS);
    nums.set(this.nums);
    this.nums = nums;
  }

  /**
   * The ring slot of the trade with global index `i`, or -1 when it was trimmed or does not exist
   * (`i` negative, fractional or NaN included).
   */
  slotOf(i: number): number {
    const size = this.size;
    const k = i - (this.total - size);
    // (k is a whole number in [0, size): `k >>> 0` is k itself only for whole numbers in [0, 2^32);
    // k is i's offset from first_index, a whole number, so it is fractional exactly when i is)
    if (k >>> 0 !== k || k >= size) return -1;
    const s = this.head + k;
    return s < size ? s : s - size;
  }

  // num and str are strategy.closedtrades.* (a stats table calls them for every trade on every bar,
  // inlined into the compiled loop): slotOf's arithmetic is written out in each, as one function is
  // less of V8's inlining budget than two (a lookup left out of line returns a boxed number).

  /** Number column `col` of the trade with global index `i` (see slotOf), NaN when there is none. */
  num(i: number, col: number): number {
    const size = this.size;
    const k = i - (this.total - size);
    if (k >>> 0 !== k || k >= size) return NA;
    const s = this.head + k;
    return this.nums[(s < size ? s : s - size) * NUM_COLS + col]!;
  }

  /** String column `col` of the trade with global index `i` (see slotOf), null when there is none. */
  str(i: number, col: number): string | null {
    const size = this.size;
    const k = i - (this.total - size);
    if (k >>> 0 !== k || k >= size) return null;
    const s = this.head + k;
    return this.strs[(s < size ? s : s - size) * STR_COLS + col]!;
  }

  /** The signed quantity of the trade with global index `i` (strategy.closedtrades.size), NaN when there is none. */
  signedQty(i: number): number {
    const size = this.size;
    const k = i - (this.total - size);
    if (k >>> 0 !== k || k >= size) return NA;
    const s = this.head + k;
    const b = (s < size ? s : s - size) * NUM_COLS;
    return (this.nums[b + C_SIDE]! > 0 ? 1 : -1) * this.nums[b + C_QTY]!;
  }

  /** The trade with global index `i` (a new object), or undefined when it was trimmed or does not exist. */
  get(i: number): Trade | undefined {
    const slot = this.slotOf(i);
    return slot < 0 ? undefined : this.row(slot, i);
  }

  /** The kept trades, oldest first (new objects). */
  toArray(): Trade[] {
    const out: Trade[] = new Array(this.size);
    const first = this.firstIndex;
    for (let k = 0; k < this.size; k++) {
      const s = this.head + k;
      out[k] = this.row(s < this.size ? s : s - this.size, first + k);
    }
    return out;
  }

  /**
   * The kept trades' profit and exit bar index, oldest first, as columns: what an optimize trial
   * scores (stats.ts scoredTrades), without a Trade object per trade.
   */
  profitColumns(): { profit: Float64Array; exitBar: Float64Array } {
    const size = this.size;
    const profit = new Float64Array(size);
    const exitBar = new Float64Array(size);
    for (let k = 0; k < size; k++) {
      const s = this.head + k;
      const b = (s < size ? s : s - size) * NUM_COLS;
      profit[k] = this.nums[b + C_PROFIT]!;
      exitBar[k] = this.nums[b + C_EXIT_BAR]!;
    }
    return { profit, exitBar };
  }

  /** The row of ring slot `slot`, global index `i` (trade_num i + 1; field order as the result's). */
  private row(slot: number, i: number): Trade {
    const n = this.nums;
    const b = slot * NUM_COLS;
    const s = this.strs;
    const c = slot * STR_COLS;
    return {
      trade_num: i + 1,
      entry_id: s[c + S_ENTRY_ID] as string,
      entry_bar_index: n[b + C_ENTRY_BAR],
      entry_time: n[b + C_ENTRY_TIME],
      entry_price: n[b + C_ENTRY_PRICE],
      entry_comment: s[c + S_ENTRY_COMMENT],
      exit_id: s[c + S_EXIT_ID],
      exit_bar_index: n[b + C_EXIT_BAR],
      exit_time: n[b + C_EXIT_TIME],
      exit_price: n[b + C_EXIT_PRICE],
      exit_comment: s[c + S_EXIT_COMMENT],
      direction: n[b + C_SIDE] > 0 ? "long" : "short",
      qty: n[b + C_QTY],
      profit: n[b + C_PROFIT],
      profit_percent: n[b + C_PROFIT_PERCENT],
      cum_profit: n[b + C_CUM_PROFIT],
      run_up: n[b + C_RUN_UP],
      run_up_percent: n[b + C_RUN_UP_PERCENT],
      drawdown: n[b + C_DRAWDOWN],
      drawdown_percent: n[b + C_DRAWDOWN_PERCENT],
      commission: n[b + C_COMMISSION],
    };
  }

  /**
   * `r` reads the list as it is now (lazily): it is settled (made to read it at once) before the
   * next trade is added or the list rolled back. One reader at a time: a new one settles the last.
   */
  watch(r: ClosedTradesReader): void {
    if (this.reader !== null) this.settleReader();
    this.reader = r;
  }

  private settleReader(): void {
    const r = this.reader;
    this.reader = null;
    r?.settle();
  }

  /** Starts recording trimmed trades so rollback() can restore this point; returns it. */
  mark(): number {
    // (empty: copyRow grows it at the first trade trimmed, a realtime tick's mark mostly trims none)
    this.evicted = newRows(0);
    return this.total;
  }

  /** Back to the point mark() returned: later trades dropped, the ones they trimmed put back. */
  rollback(total: number): void {
    const drop = this.total - total;
    if (drop <= 0) return;
    if (this.reader !== null) this.settleReader();
    const keep = Math.max(0, this.size - drop);
    // the ring held the last min(total, limit) trades at the mark; the ones missing now were trimmed
    // since, oldest first, so they head the eviction log
    const back = this.evicted ?? newRows(0);
    const missing = Math.min(back.count, Math.max(0, Math.min(total, this.limit) - keep));
    const rows = newRows(Math.max(16, missing + keep));
    for (let k = 0; k < missing; k++) copyRow(back, k, rows, k);
    for (let k = 0; k < keep; k++) copyRow(this, this.slotOf(this.firstIndex + k), rows, missing + k);
    this.nums = rows.nums;
    this.strs = rows.strs;
    this.size = missing + keep;
    this.head = 0;
    this.total = total;
    // (empty: copyRow grows it at the first trade trimmed, a realtime tick's mark mostly trims none)
    this.evicted = newRows(0);
  }
}

/** Rows of closed-trade columns (the list's own, or the eviction log's: `count` used). */
interface Rows {
  nums: Float64Array;
  strs: (string | null)[];
  count: number;
}

function newRows(capacity: number): Rows {
  return { nums: new Float64Array(capacity * NUM_COLS), strs: objectArray(), count: 0 };
}

/** Copies row `from` of `a` into row `to` of `b` (grown when full). */
function copyRow(a: { nums: Float64Array; strs: (string | null)[] }, from: number, b: Rows, to: number): void {
  if ((to + 1) * NUM_COLS > b.nums.length) {
    const nums = new Float64Array(Math.max(16, (to + 1) * 2) * NUM_COLS);
    nums.set(b.nums);
    b.nums = nums;
  }
  b.nums.set(a.nums.subarray(from * NUM_COLS, (from + 1) * NUM_COLS), to * NUM_COLS);
  for (let c = 0; c < STR_COLS; c++) b.strs[to * STR_COLS + c] = a.strs[from * STR_COLS + c];
}
