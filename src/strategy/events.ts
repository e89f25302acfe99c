// StrategyEvent records: every order call the script makes (result.events). A strategy placing its
// brackets on every bar makes hundreds of thousands of them, so the broker logs them lean while it
// runs and builds the contract's records when they are read, normally once, after the run:
// - calls are kept in groups: the calls one bar makes (a slot each: kind and direction, qty / limit /
//   stop, the index of its string tuple), and the rows that repeat them on the next bars. A bar
//   whose calls are the group's again, in the same order, with the same kinds and strings (an exit
//   re-placed on every bar; a bracket's two exits; stop entries sized from the equity), adds a row
//   and writes no slot; a row may stop part way (a prefix of the group's calls). The numbers that
//   moved on the group's first repeat (a stop trailing the price, a take-profit too, an entry's
//   percent-of-equity qty) go to the group's runs, in call order (qty, limit, stop), and
//   must move on every later row (a number fixed on the first repeat that changes later ends the
//   group); a row costs the numbers that move, 8 bytes each, and nothing else;
// - the bar: when it is the input's bar as it is (Object.is on time and prices), its index, whose time
//   and prices are read from the run's input columns when the records are built; else (a
//   calc_on_order_fills execution or a realtime tick sees the bar so far) a written-out row of
//   bar_index, time and prices, shared by the consecutive events that see the same. A group's rows
//   are on consecutive bars (the next input bar, or the next written-out row);
// - string tuples (id, oca_name, comment) shared by every event that repeats them (an exit re-placed
//   on every bar logs no new strings); script_id and run_id are the run's, read once (see begin);
// - a call site's repeat checked on the site: every strategy.* call site's request keeps a LogSite,
//   its memory of the slot its last call went to, so its call on the group's next row is compared
//   with that memory's fields and counted (logSite), without reading the slot back from the store.
// No object per call, and no new store per run: a finished run's store serves the next run (see
// leaseStore). A finished run whose result is still unread keeps the store's nearly full columns as
// they are and the store takes fresh ones, sized for as many events again (EventStore.keep): no copy.

import type { BrokerHost } from "./host.js";
import type { StrategyEvent } from "../core/result.js";
import { objectArray } from "../core/shapes.js";

type Kind = StrategyEvent["kind"];

const KINDS: readonly Kind[] = ["entry", "exit", "close", "close_all", "cancel", "cancel_all", "order"];

function kindCode(kind: Kind): number {
  // (the kind re-placed on every bar first)
  switch (kind) {
    case "exit":
      return 1;
    case "entry":
      return 0;
    case "close":
      return 2;
    case "close_all":
      return 3;
    case "cancel":
      return 4;
    case "cancel_all":
      return 5;
    default:
      return 6;
  }
}

/**
 * An order call's kind and direction as one code (EventLog.logCall's `meta`): kind * 3 + direction
 * (1 long, 2 short). A hot caller takes it from its own constant table (the broker's exits: EXIT_META).
 */
export function eventMeta(kind: Kind, direction: "long" | "short" | null): number {
  return kindCode(kind) * 3 + (direction === "long" ? 1 : direction === "short" ? 2 : 0);
}

/** strategy.exit's code by the position it would close: flat, long (the exit sells: "short"), short. */
export const EXIT_META = {
  flat: eventMeta("exit", null),
  long: eventMeta("exit", "short"),
  short: eventMeta("exit", "long"),
} as const;

/** Numbers per slot: qty, limit, stop. */
const NUMS = 3;
/** Numbers per bar row: bar_index, bar_time, open, high, low, close. */
const ROW = 6;
/** Strings per tuple: id, oca_name, comment. */
const TUPLE = 3;
/** meta: kind * 3 + direction in the low 5 bits; these bits say which numbers run (move row by row). */
const META = 31;
const RUN_LIMIT = 32;
const RUN_STOP = 64;
const RUN_QTY = 128;
const RUNS = RUN_QTY | RUN_LIMIT | RUN_STOP;
/** Slots, groups and run numbers of a new store; the columns double when full. */
const FIRST_CAPACITY = 1024;
/** Written-out bar rows of a new store (most events are on input bars). */
const FIRST_XROWS = 64;

/**
 * The columns of one log: slots (a call of a group's first row), groups (their slots, bar and rows),
 * the runs of moving numbers and written-out bar rows, each growing by doubling. A store outlives its
 * log's run: the pool hands it to the next run once the log is sealed (its run finished), after the
 * old log has kept what it still needs (EventLog.detach).
 */
export class EventStore {
  slotCapacity: number;
  /** The slot's qty, limit and stop (its first row's). */
  nums: Float64Array;
  /** The slot's string tuple. */
  slotTuple: Int32Array;
  /** kind * 3 + direction, and which of qty / limit / stop run (RUN_QTY, RUN_LIMIT, RUN_STOP). */
  meta: Uint8Array;
  /** Where the slot's numbers lie in each row of its group's runs (past the group's first row). */
  runOff: Int32Array;
  groupCapacity: number;
  /** The group's first slot; its slots run to the next group's first (the log's slot count for the last). */
  gFirst: Int32Array;
  /** The group's first bar: the input bar it is (>= 0), or -1 - x for written-out row x of `xrows`. */
  gBar: Int32Array;
  /** Whole rows (the first included), and the calls of the row after them that came (a prefix). */
  gRows: Int32Array;
  gPart: Int32Array;
  /** Where the group's runs start in `runs`, and the numbers per row after the first. */
  gRunBase: Int32Array;
  gRunWidth: Int32Array;
  /** Written-out bar rows: bar_index, time, open, high, low, close. */
  xrows: Float64Array;
  xrowCapacity: number;
  /** The moving numbers of every group's rows after its first, in call order. */
  runs: Float64Array;
  runCapacity: number;
  /** The log writing into (or reading from) this store, while it may still need it (see leaseStore). */
  holder: EventLog | null = null;
  /** When the store was last leased (the pool steals the least recently leased). */
  leased = 0;

  constructor(slots = FIRST_CAPACITY, runs = FIRST_CAPACITY, xrows = FIRST_XROWS, groups = slots) {
    this.slotCapacity = slots;
    this.nums = new Float64Array(slots * NUMS);
    this.slotTuple = new Int32Array(slots);
    this.meta = new Uint8Array(slots);
    this.runOff = new Int32Array(slots);
    this.groupCapacity = groups;
    this.gFirst = new Int32Array(groups);
    this.gBar = new Int32Array(groups);
    this.gRows = new Int32Array(groups);
    this.gPart = new Int32Array(groups);
    this.gRunBase = new Int32Array(groups);
    this.gRunWidth = new Int32Array(groups);
    this.xrowCapacity = xrows;
    this.xrows = new Float64Array(xrows * ROW);
    this.runCapacity = runs;
    this.runs = new Float64Array(runs);
  }

  /** Room for slot `i` (the columns double, keeping what they hold). */
  growSlots(i: number): void {
    let cap = this.slotCapacity * 2 || FIRST_CAPACITY;
    while (cap <= i) cap *= 2;
    this.setSlots(this, cap, grow);
  }

  /** Room for group `g`. */
  growGroups(g: number): void {
    let cap = this.groupCapacity * 2 || FIRST_CAPACITY;
    while (cap <= g) cap *= 2;
    this.setGroups(this, cap, grow);
  }

  /** Room for run number `j`: the column doubles, or grows to `want` when more (EventLog.growRuns). */
  growRuns(j: number, want = 0): void {
    let cap = this.runCapacity * 2 || FIRST_CAPACITY;
    while (cap <= j) cap *= 2;
    if (want > cap) cap = want;
    this.setRuns(this, cap, grow);
  }

  /** Room for written-out row `x`. */
  growXrows(x: number): void {
    let cap = this.xrowCapacity * 2 || FIRST_XROWS;
    while (cap <= x) cap *= 2;
    this.setXrows(this, cap, grow);
  }

  /**
   * What a sealed log keeps of this store's first `slots` slots, `groups` groups, `runs` run numbers
   * and `xrows` written-out rows when the store goes to another log (EventLog.detach): each family
   * of columns (slots, groups, runs; written-out rows, rare, are copied) that is nearly full (tight)
   * goes to the kept store as it is, and this store takes fresh columns for it, sized for that many
   * again (the next run of the same script fills them as tightly, without growing); a family with
   * more room than that is copied, exactly, and this store keeps it, or, when the log filled more
   * than half of it (the store grew for runs like this one: doubling left it up to twice their
   * size), takes fresh columns sized for it too, so that the next such run's are handed over.
   * (Handing the columns over saves the copy, 1.3-1.8 ms of a 100k-bar bracket's run against ~0.2 ms
   * for the fresh columns, zeroed memory malloc takes back from freed results: no page faults in a
   * loop of runs.)
   */
  keep(slots: number, groups: number, runs: number, xrows: number): EventStore {
    const c = new EventStore(0, 0, 0, 0);
    const handSlots = tight(this.slotCapacity, slots);
    c.setSlots(this, handSlots ? this.slotCapacity : slots, handSlots ? same : exact);
    if (handSlots || 2 * slots > this.slotCapacity) this.setSlots(this, again(slots), fresh);
    const handGroups = tight(this.groupCapacity, groups);
    c.setGroups(this, handGroups ? this.groupCapacity : groups, handGroups ? same : exact);
    if (handGroups || 2 * groups > this.groupCapacity) this.setGroups(this, again(groups), fresh);
    const handRuns = tight(this.runCapacity, runs);
    c.setRuns(this, handRuns ? this.runCapacity : runs, handRuns ? same : exact);
    // (the runs' column grows when 3 numbers no longer fit: room for them too)
    if (handRuns || 2 * runs > this.runCapacity) this.setRuns(this, again(runs + 3), fresh);
    c.setXrows(this, xrows, exact);
    return c;
  }

  // One place per family of columns: each column of the family made by `f` from `from`'s, for `cap`
  // entries (grown, an exact copy, fresh, or the same arrays handed over).

  private setSlots(from: EventStore, cap: number, f: Columns): void {
    this.nums = f(from.nums, cap * NUMS);
    this.slotTuple = f(from.slotTuple, cap);
    this.meta = f(from.meta, cap);
    this.runOff = f(from.runOff, cap);
    this.slotCapacity = cap;
  }

  private setGroups(from: EventStore, cap: number, f: Columns): void {
    this.gFirst = f(from.gFirst, cap);
    this.gBar = f(from.gBar, cap);
    this.gRows = f(from.gRows, cap);
    this.gPart = f(from.gPart, cap);
    this.gRunBase = f(from.gRunBase, cap);
    this.gRunWidth = f(from.gRunWidth, cap);
    this.groupCapacity = cap;
  }

  private setRuns(from: EventStore, cap: number, f: Columns): void {
    this.runs = f(from.runs, cap);
    this.runCapacity = cap;
  }

  private setXrows(from: EventStore, cap: number, f: Columns): void {
    this.xrows = f(from.xrows, cap * ROW);
    this.xrowCapacity = cap;
  }
}

type Column = Float64Array | Int32Array | Uint8Array;
/** How a family's column is made from another store's for `length` entries (EventStore.setSlots...). */
type Columns = <T extends Column>(a: T, length: number) => T;

/** The column itself (handed over whole: its length is the capacity). */
const same: Columns = (a) => a;
/** A copy of the first `length` entries. */
const exact: Columns = (a, length) => a.slice(0, length) as typeof a;
/** A new, zeroed column of the same kind. */
const fresh: Columns = (a, length) => new (a.constructor as new (n: number) => typeof a)(length);

/**
 * Whether columns of `capacity` holding `used` are nearly full: at most an eighth more (and a few
 * hundred entries), what a kept result may hold beyond an exact copy.
 */
function tight(capacity: number, used: number): boolean {
  // (256: a small log's store, FIRST_CAPACITY, goes as it is too)
  return used > 0 && capacity <= used + (used >> 3) + 256;
}

/**
 * Fresh columns' capacity for `used` entries again: a 32nd more and a few (a run a little longer
 * fits), within tight's bound; what a kept result holds beyond an exact copy (~1 byte a bar of a
 * 100k-bar bracket's 41).
 */
function again(used: number): number {
  return used + (used >> 5) + 64;
}

/** A new column of `length` entries holding `a`'s. */
const grow: Columns = (a, length) => {
  const b = fresh(a, length);
  b.set(a);
  return b;
};

/**
 * Stores of sealed logs, for the next runs (fresh typed-array memory per run was a third of a run
 * re-placing an exit on every bar: page faults, external-memory GC pressure). A store goes to a new
 * log when its holder gave it up (every record built after the run: toArray) or is sealed; a sealed
 * holder first keeps what it holds (EventStore.keep) unless its records are all built already.
 * Holders are held strongly (at most POOL_SIZE logs): under a WeakRef a log stays alive until the
 * current job ends, and runs awaited one after another in a loop (a benchmark, an in-process study)
 * are one job, so a collected holder was never seen there, while every run's log and what it kept were
 * kept until the loop ended (memory grew by a run's events every run).
 */
const pool: EventStore[] = [];
/** Stores kept for reuse: two serve runs alternating between two scripts or modes. */
const POOL_SIZE = 2;
/** A store that grew past this many bytes is not kept (a 100k-bar bracket's runs take 4 MB). */
const POOL_MAX_BYTES = 16 << 20;
let leases = 0;

function leaseStore(log: EventLog): EventStore {
  // a store its log gave up (detached) first, then a new one while the pool has room, then the
  // least recently leased store of a sealed log, which keeps what it needs (EventStore.keep)
  let store: EventStore | null = null;
  let steal: EventStore | null = null;
  for (let i = 0; i < pool.length; i++) {
    const s = pool[i];
    const h = s.holder;
    if (h === null || h.store !== s) {
      store = s;
      break;
    }
    if (h.sealed && (steal === null || s.leased < steal.leased)) steal = s;
  }
  if (store === null) {
    if (pool.length < POOL_SIZE) pool.push((store = new EventStore()));
    else if (steal !== null) {
      steal.holder?.detach();
      store = steal;
    } else return new EventStore();
  }
  store.holder = log;
  store.leased = ++leases;
  return store;
}

/** Takes a store that grew past the pool's bound out of the pool. */
function release(s: EventStore): void {
  const bytes = s.slotCapacity * 33 + s.groupCapacity * 24 + s.runCapacity * 8 + s.xrowCapacity * ROW * 8;
  if (bytes <= POOL_MAX_BYTES) return;
  const i = pool.indexOf(s);
  if (i >= 0) pool.splice(i, 1);
}

/**
 * Object.is on a[i] and b[j] (levels.ts sameNumber), taking indexes: no double crosses the call should
 * V8 not inline it. (sameNumber's
 * test written out: called from here, past the inlining budget of a hot caller, it was not inlined
 * and both doubles were boxed, ~64 bytes of garbage an exit re-placed with a moving stop.)
 */
function sameAt(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  const x = a[i];
  const y = b[j];
  return x === y ? x !== 0 || 1 / x === 1 / y : x !== x && y !== y;
}

/** The input columns a log's rows may name. */
interface InputColumns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  /** The run made them itself (core/bars.ts BarColumns.copied). */
  copied?: boolean;
}

/** The 32-bit words of a column (a double is two). */
function wordsOf(c: Float64Array): Int32Array {
  return new Int32Array(c.buffer, c.byteOffset, c.length * 2);
}

/**
 * A checksum of the input bars a log's records read (its groups' rows on input bars; EventLog.seal
 * and checkInput): Fletcher sums of the bars' 32-bit words (each word weighted by its place: values
 * trading places change it), bar by bar over each stretch of consecutive bars the groups' rows
 * cover, in log order, a bar's ten words (time, open, high, low, close) in two of four lanes
 * (independent sums the CPU adds side by side; see addBars). Bars no record reads are not summed (a
 * script placing orders on a few bars sums those few); NaN when no record reads an input bar. (Bar
 * by bar, one pass over the five columns together: column by column, a loop over the columns' array
 * around the words' loop, took ~3x as long.)
 */
function readBarsChecksum(cols: InputColumns, st: EventStore, groups: number): number {
  const lanes = Int32Array.of(1, 0, 7, 3, 5, 11, 13, 2);
  const t = wordsOf(cols.time);
  const o = wordsOf(cols.open);
  const h = wordsOf(cols.high);
  const l = wordsOf(cols.low);
  const c = wordsOf(cols.close);
  let from = 0;
  let to = 0;
  let any = false;
  for (let g = 0; g < groups; g++) {
    const b = st.gBar[g];
    if (b < 0) continue;
    any = true;
    // a row past the whole ones when the group's next row has begun
    const end = b + st.gRows[g] + (st.gPart[g] > 0 ? 1 : 0);
    if (b >= from && b <= to) {
      // (a group taking over on the bar after the last one's rows, or on its last bar: one stretch)
      if (end > to) to = end;
      continue;
    }
    if (to > from) addBars(lanes, t, o, h, l, c, from, to);
    from = b;
    to = end;
  }
  if (!any) return NaN;
  if (to > from) addBars(lanes, t, o, h, l, c, from, to);
  return (
    lanes[0] ^
    Math.imul(lanes[1], 31) ^
    Math.imul(lanes[2], 17) ^
    Math.imul(lanes[3], 13) ^
    Math.imul(lanes[4], 7) ^
    Math.imul(lanes[5], 19) ^
    Math.imul(lanes[6], 23) ^
    Math.imul(lanes[7], 29)
  );
}

/**
 * Adds the ten words of each of bars [from, to) (the columns' words 2b and 2b + 1) to the Fletcher
 * lanes (a0 b0 a1 b1 a2 b2 a3 b3), two bars a step: a bar's words go to lanes 0 and 1, the next
 * bar's to lanes 2 and 3 (the pass is bound by the loads and the loop's own work, not the adds: two
 * bars a step read ~18% faster than one, 0.55 against 0.67 ms per 100k bars).
 */
function addBars(
  lanes: Int32Array,
  t: Int32Array,
  o: Int32Array,
  h: Int32Array,
  l: Int32Array,
  c: Int32Array,
  from: number,
  to: number,
): void {
  let a0 = lanes[0];
  let b0 = lanes[1];
  let a1 = lanes[2];
  let b1 = lanes[3];
  let a2 = lanes[4];
  let b2 = lanes[5];
  let a3 = lanes[6];
  let b3 = lanes[7];
  let i = 2 * from;
  const e = 2 * to;
  for (; i + 2 < e; i += 4) {
    a0 = (a0 + t[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + t[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a2 = (a2 + t[i + 2]) | 0;
    b2 = (b2 + a2) | 0;
    a3 = (a3 + t[i + 3]) | 0;
    b3 = (b3 + a3) | 0;
    a0 = (a0 + o[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + o[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a2 = (a2 + o[i + 2]) | 0;
    b2 = (b2 + a2) | 0;
    a3 = (a3 + o[i + 3]) | 0;
    b3 = (b3 + a3) | 0;
    a0 = (a0 + h[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + h[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a2 = (a2 + h[i + 2]) | 0;
    b2 = (b2 + a2) | 0;
    a3 = (a3 + h[i + 3]) | 0;
    b3 = (b3 + a3) | 0;
    a0 = (a0 + l[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + l[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a2 = (a2 + l[i + 2]) | 0;
    b2 = (b2 + a2) | 0;
    a3 = (a3 + l[i + 3]) | 0;
    b3 = (b3 + a3) | 0;
    a0 = (a0 + c[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + c[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a2 = (a2 + c[i + 2]) | 0;
    b2 = (b2 + a2) | 0;
    a3 = (a3 + c[i + 3]) | 0;
    b3 = (b3 + a3) | 0;
  }
  if (i < e) {
    // (an odd count: the last bar alone)
    a0 = (a0 + t[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + t[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a0 = (a0 + o[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + o[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a0 = (a0 + h[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + h[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a0 = (a0 + l[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + l[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
    a0 = (a0 + c[i]) | 0;
    b0 = (b0 + a0) | 0;
    a1 = (a1 + c[i + 1]) | 0;
    b1 = (b1 + a1) | 0;
  }
  lanes[0] = a0;
  lanes[1] = b0;
  lanes[2] = a1;
  lanes[3] = b1;
  lanes[4] = a2;
  lanes[5] = b2;
  lanes[6] = a3;
  lanes[7] = b3;
}

/** Whether written-out rows at `i` and `j` hold the same bar (Object.is on every number). */
function sameRow(xr: Float64Array, i: number, j: number): boolean {
  for (let n = 0; n < ROW; n++) if (!sameAt(xr, i + n, xr, j + n)) return false;
  return true;
}

/** Object.is on the input bar's time and prices and the host's (which === found equal). */
function sameZeros(cols: InputColumns, b: number, ctx: BrokerHost): boolean {
  return (
    Object.is(cols.time[b], ctx.time) &&
    Object.is(cols.open[b], ctx.open) &&
    Object.is(cols.high[b], ctx.high) &&
    Object.is(cols.low[b], ctx.low) &&
    Object.is(cols.close[b], ctx.close)
  );
}

/** Where a log stood (a broker snapshot), to take it back there with rollback. */
export interface EventMark {
  count: number;
  tuples: number;
  slots: number;
  groups: number;
  /** The last group's rows, calls of its partial row, runs' start and width then. */
  rows: number;
  part: number;
  runBase: number;
  runWidth: number;
  runs: number;
  xrows: number;
}

/** LogSite.runs of a slot the site wrote and nothing repeated yet. */
const FRESH = -1;

/** Places in a row a site remembers apart (LogSite.parts); a call at a later place takes the long way. */
const MAX_PARTS = 256;
/**
 * A number that ends a site's group again within this many bars of ending the one before becomes a
 * run of the site's next groups (LogSite.volatile). (A group's start costs its calls ~30 ns each
 * more than a repeat, and a slot ~33 bytes: a number moving every 16 bars or sooner costs less as a
 * run, 8 bytes a row.)
 */
const SHORT_GROUP = 16;

/**
 * Whether a log takes the host's word for its bar (BrokerHost.inputBar equal to barIndex: the host's
 * bar is that input bar as it is) instead of comparing its time and prices with the input columns:
 * "on"; "off": it compares them (as without the field); "verify": it takes the word and checks it,
 * throwing when the host's bar is not that input bar (tests: a writer of a partial bar that did not
 * say so). Read when a log starts its run.
 */
let hostBarTrust: "on" | "off" | "verify" = "on";

/** Sets how the logs started from now on treat BrokerHost.inputBar (see hostBarTrust). */
export function setHostBarTrust(mode: "on" | "off" | "verify"): void {
  hostBarTrust = mode;
}

/** Log stamps: each log takes a new one when made and when rolled back (see LogSite). */
let stamps = 0;

/**
 * A call site's memory of the call it logged last (EventLog.logSite), held by its request object (a
 * compiled or interpreted strategy.* site's own; a request shared by several sites works too, only
 * slower): where the call went (the log's stamp, its last group, the slot) and that slot's kind and
 * direction, strings, first-row numbers and run bits. A call from the site that is that slot's next
 * repeat (the group's expected call, on its next bar) is checked against these fields and counted,
 * without reading the slot back from the store's typed arrays and string tuples (a repeat checked
 * there cost ~25 ns more a call). The caller writes the call's qty, limit and stop here, not in
 * EventLog.call: plain double fields, compared and appended where they are.
 */
export class LogSite {
  /** The call being logged: its qty, limit and stop. */
  qty = NaN;
  limit = NaN;
  stop = NaN;
  /** The log (EventLog.stamp), group count and slot of the site's last logged call; -1: none. */
  stamp = -1;
  group = -1;
  slot = -1;
  /** That slot's kind and direction (eventMeta), strings, numbers (its first row's) and run bits. */
  meta = -1;
  id: string | null = null;
  oca: string | null = null;
  comment: string | null = null;
  slotQty = NaN;
  slotLimit = NaN;
  slotStop = NaN;
  /** (FRESH: the site wrote the slot, which has no repeat yet, so no run bits either) */
  runs = 0;
  /**
   * Run bits the slots of a site called once a row take on their first repeat even when the number
   * did not move there: the numbers that ended two of the site's groups within SHORT_GROUP bars,
   * such as a breakout's stop at a channel high that steps every few bars. A number kept fixed that
   * moves ends its group, and the group started after it costs its calls the long way (placeSite,
   * then firstSiteRepeat): one moving number costs 8 bytes a row instead. Only a hint: the records
   * built are the same either way. (`ended`, `endedAt`: the numbers that ended the site's last
   * group that way, and the host's bar index then.)
   */
  volatile = 0;
  ended = 0;
  endedAt = NaN;
  /** That slot's string tuple (a hint for the strings of a slot the site writes next; any index). */
  tuple = -1;
  /**
   * A site called more than once in a group (in a loop: a grid's entry per level) keeps a memory
   * per place in the group's row (the row's call index), these fields each: its call at that place
   * on the next row is checked against its own memory, as a site called once is against the fields
   * above (null: the site has made one call per row so far).
   */
  parts: LogSite[] | null = null;

  /**
   * The run bits (RUN_QTY, RUN_LIMIT, RUN_STOP) of the call's numbers that are not the slot's, under
   * Object.is (each test written out: no double crosses a call). A repeat's fixed numbers are those
   * not in `runs`; a first repeat's moved ones are the slot's run bits from then on.
   */
  moved(m: LogSite): number {
    const q = this.qty;
    const sq = m.slotQty;
    const l = this.limit;
    const sl = m.slotLimit;
    const p = this.stop;
    const sp = m.slotStop;
    return (
      ((q === sq ? q !== 0 || 1 / q === 1 / sq : q !== q && sq !== sq) ? 0 : RUN_QTY) |
      ((l === sl ? l !== 0 || 1 / l === 1 / sl : l !== l && sl !== sl) ? 0 : RUN_LIMIT) |
      ((p === sp ? p !== 0 || 1 / p === 1 / sp : p !== p && sp !== sp) ? 0 : RUN_STOP)
    );
  }
}

/** The columns of a log without input columns. */
const NO_COLUMN: Float64Array = new Float64Array(0);

/** The store of a log that logs nothing. */
const NO_STORE = new EventStore(0, 0, 0, 0);

export class EventLog {
  /** Events logged (a snapshot restore may take the count back). */
  count = 0;
  /** This log's stamp (a rollback takes a new one): a LogSite's memory of another stamp is stale. */
  private stamp = ++stamps;
  /** The slot the last logged call repeated or wrote (what a LogSite remembers). */
  private lastSlot = -1;
  /** A tuple to try first for a new slot's strings (the calling site's last; -1: none). */
  private tupleHint = -1;
  /** Slots and groups written. */
  private slots = 0;
  private groups = 0;
  /** The last group (the one a call may repeat or extend): its first slot, first bar, rows, partial row, runs. */
  private gFirst = 0;
  private gBar = 0;
  private gRows = 0;
  private gPart = 0;
  private gRunBase = 0;
  private gRunWidth = 0;
  /** Where toArray resumes: event `readAt` of group `readGroup` (past its end: the next group). */
  private readGroup = 0;
  private readAt = 0;
  /** Written-out bar rows (see barOf). */
  private xrowCount = 0;
  /** The run's input columns, which rows naming an input bar read (null: every row written out). */
  private cols: InputColumns | null = null;
  private colLength = 0;
  /**
   * Its time and price columns, in fields of their own (empty without input columns): barOf reads
   * them on every call, one field load each instead of a load of the host's columns object (whose
   * shape is the host's) and then its field.
   */
  private cT = NO_COLUMN;
  private cO = NO_COLUMN;
  private cH = NO_COLUMN;
  private cL = NO_COLUMN;
  private cC = NO_COLUMN;
  /**
   * The host whose word for its bar the log takes (BrokerHost.inputBar equal to its barIndex: that
   * input bar as it is, no compare; see hostBarTrust), the one whose input columns it read; null: none.
   */
  private barHost: BrokerHost | null = null;
  /** The host's word is checked against the columns when taken (hostBarTrust "verify"). */
  private verifyBar = false;
  /**
   * The broker's pass counter (Broker.pass: a new pass for each script execution, realtime tick and
   * fill recalculation, before the host's bar changes), set by the broker: within a pass the host's
   * bar stays what it was, so barOf tests it against the input columns once a pass and the pass's
   * other calls take the input bar it found (memoPass / memoHost / memoBar). Null (a log without a
   * broker): every call tests.
   */
  passes: { readonly pass: number } | null = null;
  /** The pass and host of the last input bar barOf found, and that bar (memoPass -1: none). */
  private memoPass = -1;
  private memoHost: BrokerHost | null = null;
  private memoBar = -1;
  /** The checksum of the input bars the records read, when the run was over (NaN: not sealed yet, not taken, or none read). */
  private checksum = NaN;
  /** The Runtime made the input columns itself (ctx.columns.copied): nobody can write them, no checksum. */
  private colsCopied = false;
  private tupleCount = 0;
  /** The run's bars (ctx.barCount; 0: not known), which size the runs' column by its pace (growRuns). */
  private barCount = 0;
  /** Numbers written to the groups' runs. */
  private runCount = 0;
  /** The columns (leased on the first push: a run that logs nothing takes no store). */
  store: EventStore = NO_STORE;
  /** The run is over: no more pushes, and the store may go to another log (which detaches this one). */
  sealed = false;

  /** `recording` false: push logs nothing (a run whose events nobody reads; settings.recordEvents). */
  constructor(private readonly recording = true) {}
  /** The run's script_id and run_id (ctx.ext.scriptId / runId, which the Runtime sets before the bars). */
  private scriptId = "";
  private runId = "";
  /** The string tuples, TUPLE slots each. */
  private readonly tupleSlots: (string | null)[] = objectArray(); // (object elements kind: core/shapes.ts)
  /** The last tuple logged per order id, for a call that repeats no slot (a new group's). */
  private readonly lastTuple = new Map<string | null, number>();
  /** The records built so far (a prefix of the log), handed out by toArray(). */
  private readonly built: StrategyEvent[] = objectArray(); // (object elements kind: core/shapes.ts)

  /**
   * The qty, limit and stop of the call being logged. A caller writes them here and calls
   * `logCall` (the broker's order calls write them into their LogSite and call `logSite`, which
   * copies them here when the call is not its site's repeat): a double passed to a call V8 does not
   * inline is a new heap number a call (~50 bytes a re-placed exit), and whether push is inlined
   * into its caller is V8's choice. Push's own helpers read them from here too, so none takes a double.
   */
  readonly call = new Float64Array(3);

  /** An order call of the bar the host is on (see the module header for how it is kept). */
  push(
    ctx: BrokerHost,
    kind: Kind,
    id: string | null,
    direction: "long" | "short" | null,
    qty: number,
    limit: number,
    stop: number,
    oca: string | null,
    comment: string | null,
  ): void {
    const call = this.call;
    call[0] = qty;
    call[1] = limit;
    call[2] = stop;
    this.logCall(ctx, eventMeta(kind, direction), id, oca, comment);
  }

  /**
   * `push` with its qty, limit and stop in `call` (0, 1, 2) and its kind and direction as one code
   * (eventMeta). The hot case, a later repeat of the last group's next call (an exit or a cancel
   * placed again on every bar), is `repeat`; the group's first row, new slots and groups go to
   * out-of-line methods. (The bar is worked out once, here, before the cases: a second copy of the
   * input-bar test in a hot branch of its own had V8 box the host's five numbers at its joins, 80
   * bytes a call.)
   */
  logCall(ctx: BrokerHost, meta: number, id: string | null, oca: string | null, comment: string | null): void {
    if (this.recording === false) return;
    if (this.store === NO_STORE) this.begin(ctx);
    const st = this.store;
    this.place(st, this.barOf(ctx, st), meta, id, oca, comment);
  }

  /**
   * logCall for a call site that keeps a LogSite (its numbers in the site's qty, limit and stop): when
   * the site's last call went to the slot this call would repeat now (the last group's expected call,
   * on its next bar), the call is checked against the site's copy of that slot and counted: past the
   * group's first repeat against its run bits, at its first repeat by firstSiteRepeat, which sets them. Anything else takes logCall's way, and the site
   * remembers where the call went.
   * The hot case, a later repeat on the next input bar, is written out here and kept small (its
   * checks, the bar test, the numbers' compares, the runs' stores and the row's counters), so that
   * V8 inlines all of it into the calling order method; everything else is logSiteCold, one call.
   * (Split into helpers, the hot case took three calls V8 did not inline: the caller's inlining
   * budget was spent on the helpers' first.)
   */
  logSite(
    ctx: BrokerHost,
    site: LogSite,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    // (=== false: a pointer compare; `!` on the field was V8's generic truthiness test, ~10 instructions)
    if (this.recording === false) return;
    const rows = this.gRows;
    const part = this.gPart;
    const expected = this.gFirst + part;
    // the memory of the call at this place of the row: the site's own, or its memory for the place
    let m = site;
    if (site.slot !== expected) {
      const parts = site.parts;
      if (parts !== null && part < parts.length) m = parts[part];
    }
    const runs = m.runs;
    // (a matching stamp and group: the log has a store and a group; runs >= 0: not FRESH)
    if (
      m.slot === expected &&
      m.group === this.groups &&
      m.stamp === this.stamp &&
      rows > 1 &&
      runs >= 0 &&
      m.meta === meta &&
      m.id === id &&
      m.oca === oca &&
      m.comment === comment &&
      this.onNextInputBar(ctx, rows)
    ) {
      // a later repeat: its fixed numbers the slot's (Object.is written out), its moving ones to the runs
      const q = site.qty;
      const sq = m.slotQty;
      const l = site.limit;
      const sl = m.slotLimit;
      const p = site.stop;
      const sp = m.slotStop;
      if (
        ((runs & RUN_QTY) !== 0 || (q === sq ? q !== 0 || 1 / q === 1 / sq : q !== q && sq !== sq)) &&
        ((runs & RUN_LIMIT) !== 0 || (l === sl ? l !== 0 || 1 / l === 1 / sl : l !== l && sl !== sl)) &&
        ((runs & RUN_STOP) !== 0 || (p === sp ? p !== 0 || 1 / p === 1 / sp : p !== p && sp !== sp))
      ) {
        if (runs !== 0) {
          let j = this.runCount;
          if (j + 2 >= this.store.runCapacity) this.growRuns(this.store, j + 2);
          const r = this.store.runs;
          if ((runs & RUN_QTY) !== 0) r[j++] = q;
          if ((runs & RUN_LIMIT) !== 0) r[j++] = l;
          if ((runs & RUN_STOP) !== 0) r[j++] = p;
          this.runCount = j;
        }
        // the row goes on, or ends (rows > 1: the group's run width is set)
        if (part + 1 === this.slots - this.gFirst) {
          this.gPart = 0;
          this.gRows = rows + 1;
        } else this.gPart = part + 1;
        this.count++;
        return;
      }
    }
    this.logSiteCold(ctx, site, m, meta, id, oca, comment);
  }

  /**
   * Whether the host's bar is the input bar after the last group's `rows` rows, as it is (barOf's
   * test of that one bar, and its pass memo). False also when the group's rows are written out: the
   * caller takes the long way, where barOf works the bar out.
   */
  private onNextInputBar(ctx: BrokerHost, rows: number): boolean {
    const b = this.gBar + rows;
    if (this.gBar < 0 || b >= this.colLength) return false;
    // the host's word: its bar is input bar b as it is (one compare instead of the prices')
    if (ctx === this.barHost && ctx.inputBar === b && ctx.barIndex === b)
      return this.verifyBar === false || this.checked(ctx, b);
    const src = this.passes;
    if (src !== null && src.pass === this.memoPass && ctx === this.memoHost) return this.memoBar === b;
    // (each number compared as it is read: a bar seen part-way, its close or high moved, reads no more)
    if (ctx.barIndex !== b) return false;
    const c = ctx.close;
    if (this.cC[b] !== c) return false;
    const h = ctx.high;
    if (this.cH[b] !== h) return false;
    const l = ctx.low;
    if (this.cL[b] !== l) return false;
    const o = ctx.open;
    if (this.cO[b] !== o) return false;
    const t = ctx.time;
    if (this.cT[b] !== t) return false;
    // (=== is Object.is but for 0 and -0: a product of 0, or NaN, goes to barOf's Object.is test)
    const x = t * o * h * l * c;
    if (x === 0 || x !== x) return false;
    if (src !== null) {
      this.memoPass = src.pass;
      this.memoHost = ctx;
      this.memoBar = b;
    }
    return true;
  }

  /** logSite's other cases (a first repeat, a new slot or group, a written-out bar): logCall's way, and the site remembers. */
  private logSiteCold(
    ctx: BrokerHost,
    site: LogSite,
    m: LogSite,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    if (this.store === NO_STORE) this.begin(ctx);
    const st = this.store;
    const bar = this.barOf(ctx, st);
    const rows = this.gRows;
    if (
      m.slot === this.gFirst + this.gPart &&
      m.group === this.groups &&
      m.stamp === this.stamp &&
      rows > 0 &&
      bar === this.rowBar(rows) &&
      m.meta === meta &&
      m.id === id &&
      m.oca === oca &&
      m.comment === comment
    ) {
      const runs = m.runs;
      if (rows > 1 && runs >= 0) {
        // a later repeat on a written-out row (or one whose bar the hot test could not take)
        const ended = site.moved(m) & ~runs;
        if (ended === 0) {
          if (runs !== 0) this.addSiteRuns(st, site, runs);
          this.repeated(st, rows);
          return;
        }
        // a number the group kept fixed moved: the group ends here (placeSite). A site called
        // once a row learns whether that number moves too often to be kept fixed in its next
        // groups (in a loop, a place's groups start part way through rows: not learned there).
        if (site.parts === null) {
          const at = ctx.barIndex;
          // (a site's memory outlives its run: an end in an earlier run is a later bar)
          const since = at - m.endedAt;
          if (since >= 0 && since <= SHORT_GROUP) m.volatile |= ended & m.ended;
          m.ended = ended;
          m.endedAt = at;
        }
      } else if (rows === 1 && runs === FRESH) {
        // the first repeat of the slot the site wrote: the numbers that moved run from here on
        this.firstSiteRepeat(st, site, m);
        return;
      }
    }
    this.placeSite(st, bar, site, m, meta, id, oca, comment);
  }

  /**
   * firstRow's repeat for a LogSite's call of the slot it wrote itself (the site's fields are that
   * slot's): the moved numbers and the site's volatile ones become the slot's run bits and go to
   * the runs, the row goes on.
   */
  private firstSiteRepeat(st: EventStore, site: LogSite, m: LogSite): void {
    const s = m.slot;
    if (this.gPart === 0) this.gRunBase = st.gRunBase[this.groups - 1] = this.runCount;
    const runs = site.moved(m) | m.volatile;
    st.meta[s] = m.meta | runs;
    st.runOff[s] = this.runCount - this.gRunBase;
    m.runs = runs;
    if (runs !== 0) this.addSiteRuns(st, site, runs);
    this.repeated(st, 1);
  }

  /**
   * logSite's other cases: logCall's way, then the site remembers the slot the call went to (`m`:
   * the memory logSite tried, whose strings hint the tuple). A site whose last call went to another
   * slot of the same group is called more than once a row: from then on it remembers each call in
   * its memory for the call's place in the row too (LogSite.parts).
   */
  private placeSite(
    st: EventStore,
    bar: number,
    site: LogSite,
    m: LogSite,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    const call = this.call;
    call[0] = site.qty;
    call[1] = site.limit;
    call[2] = site.stop;
    const slots = this.slots;
    this.tupleHint = m.tuple;
    this.place(st, bar, meta, id, oca, comment);
    this.tupleHint = -1;
    const s = this.lastSlot;
    // a slot written now has no repeat yet, so no run bits: its first repeat sets them, which may
    // come from another site making the same call (the site then must not take the slot as run-free)
    const runs = this.slots === slots ? st.meta[s] & RUNS : FRESH;
    const g = this.groups;
    let parts = site.parts;
    if (
      parts === null &&
      site.group === g &&
      site.stamp === this.stamp &&
      site.slot !== s &&
      s - this.gFirst < MAX_PARTS
    )
      parts = site.parts = [];
    this.remember(st, site, s, runs, meta, id, oca, comment);
    if (parts !== null) {
      const part = s - this.gFirst;
      if (part < MAX_PARTS) {
        while (parts.length <= part) parts.push(new LogSite());
        this.remember(st, parts[part], s, runs, meta, id, oca, comment);
      }
    }
  }

  /** A site memory's fields for slot `s` of the last group, which a call just went to. */
  private remember(
    st: EventStore,
    m: LogSite,
    s: number,
    runs: number,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    m.stamp = this.stamp;
    m.group = this.groups;
    m.slot = s;
    m.meta = meta;
    m.id = id;
    m.oca = oca;
    m.comment = comment;
    const n = st.nums;
    const k = s * NUMS;
    m.slotQty = n[k];
    m.slotLimit = n[k + 1];
    m.slotStop = n[k + 2];
    m.runs = runs;
    m.tuple = st.slotTuple[s];
  }

  /** A call (numbers in `call`) on `bar`: the last group's repeat, another slot of it, or a new group. */
  private place(
    st: EventStore,
    bar: number,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    const rows = this.gRows;
    // (rows is 0 before the first group)
    if (rows > 1) {
      if (bar === this.rowBar(rows) && this.repeat(rows, meta, id, oca, comment)) return;
    } else if (rows === 1 && this.firstRow(st, bar, meta, id, oca, comment)) return;
    this.newGroup(st, bar, meta, id, oca, comment);
  }

  /**
   * A later repeat (the group has two rows or more) of the last group's next call, on its bar: when
   * the call is that slot's (kind, direction, strings) with the numbers its group keeps fixed, its
   * moving numbers (the group's first repeat fixed which ones move) go to the runs, the row goes on,
   * and true. False, nothing written: the call starts a new group.
   */
  private repeat(rows: number, meta: number, id: string | null, oca: string | null, comment: string | null): boolean {
    const st = this.store;
    const s = this.gFirst + this.gPart;
    if (!this.sameCall(st, s, meta, id, oca, comment)) return false;
    const m = st.meta[s];
    const n = st.nums;
    const k = s * NUMS;
    const call = this.call;
    if (
      ((m & RUN_QTY) === 0 && !sameAt(n, k, call, 0)) ||
      ((m & RUN_LIMIT) === 0 && !sameAt(n, k + 1, call, 1)) ||
      ((m & RUN_STOP) === 0 && !sameAt(n, k + 2, call, 2))
    )
      return false;
    if ((m & RUNS) !== 0) this.addRuns(st, (m & RUN_QTY) !== 0, (m & RUN_LIMIT) !== 0, (m & RUN_STOP) !== 0);
    this.lastSlot = s;
    this.repeated(st, rows);
    return true;
  }

  /** The bar of the last group's row after its `rows` rows (the next input bar, or written-out row). */
  private rowBar(rows: number): number {
    const from = this.gBar;
    return from >= 0 ? from + rows : from - rows;
  }

  /** Whether the call is slot `s`'s: the same kind and direction and strings (its numbers are compared apart). */
  private sameCall(
    st: EventStore,
    s: number,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): boolean {
    const t = st.slotTuple[s] * TUPLE;
    const ts = this.tupleSlots;
    return (st.meta[s] & META) === meta && ts[t] === id && ts[t + 1] === oca && ts[t + 2] === comment;
  }

  /**
   * A call while the last group has its first row only: its first repeat (the call of the group's
   * next slot on the next bar: the numbers that moved run from here on) or, on the group's bar,
   * another slot of it. False: the call starts a new group.
   */
  private firstRow(
    st: EventStore,
    bar: number,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): boolean {
    const part = this.gPart;
    if (bar === this.rowBar(1)) {
      const s = this.gFirst + part;
      if (!this.sameCall(st, s, meta, id, oca, comment)) return false;
      if (part === 0) this.gRunBase = st.gRunBase[this.groups - 1] = this.runCount;
      const n = st.nums;
      const k = s * NUMS;
      const runsQty = !sameAt(n, k, this.call, 0);
      const runsLimit = !sameAt(n, k + 1, this.call, 1);
      const runsStop = !sameAt(n, k + 2, this.call, 2);
      st.meta[s] = meta | (runsQty ? RUN_QTY : 0) | (runsLimit ? RUN_LIMIT : 0) | (runsStop ? RUN_STOP : 0);
      st.runOff[s] = this.runCount - this.gRunBase;
      this.addRuns(st, runsQty, runsLimit, runsStop);
      this.lastSlot = s;
      this.repeated(st, 1);
      return true;
    }
    if (part !== 0 || bar !== this.gBar) return false;
    // another call of the group's first bar (no repeat yet): the group grows by a slot
    this.addSlot(st, meta, id, oca, comment);
    return true;
  }

  /** A new group, this call its first slot (the last group's rows go to the store first). */
  private newGroup(
    st: EventStore,
    bar: number,
    meta: number,
    id: string | null,
    oca: string | null,
    comment: string | null,
  ): void {
    this.flushGroup();
    const g = this.groups;
    if (g >= st.groupCapacity) st.growGroups(g);
    st.gFirst[g] = this.gFirst = this.slots;
    st.gBar[g] = this.gBar = bar;
    this.gRows = 1;
    this.gPart = 0;
    st.gRunBase[g] = this.gRunBase = 0;
    st.gRunWidth[g] = this.gRunWidth = 0;
    this.groups = g + 1;
    this.addSlot(st, meta, id, oca, comment);
  }

  /**
   * The run's first event: a store for the columns, the host's input columns and the run's ids
   * (which the Runtime sets once, before the first bar: read here, not per call).
   */
  private begin(ctx: BrokerHost): void {
    this.store = leaseStore(this);
    if (this.count !== 0) return;
    const n = ctx.barCount;
    this.barCount = n > 0 && n < 2 ** 31 ? n : 0;
    this.useColumns(ctx);
    // (the host's word is for its own columns: without them none is taken)
    if (this.cols !== null && hostBarTrust !== "off") {
      this.barHost = ctx;
      this.verifyBar = hostBarTrust === "verify";
    }
    const ext = ctx.ext;
    const sid = ext ? ext.scriptId : undefined;
    const rid = ext ? ext.runId : undefined;
    this.scriptId = typeof sid === "string" ? sid : "";
    this.runId = typeof rid === "string" ? rid : "";
  }

  /**
   * Writes the last group's rows and partial row into the store, which push keeps only in fields
   * while the group grows (two typed-array stores a call fewer); before anything reads them there.
   */
  private flushGroup(): void {
    const g = this.groups - 1;
    if (g < 0) return;
    const st = this.store;
    st.gRows[g] = this.gRows;
    st.gPart[g] = this.gPart;
  }

  /** A call of the last group's first row, written as a new slot. */
  private addSlot(st: EventStore, meta: number, id: string | null, oca: string | null, comment: string | null): void {
    const i = this.slots;
    if (i >= st.slotCapacity) st.growSlots(i);
    st.meta[i] = meta;
    const n = st.nums;
    // (three stores: TypedArray.prototype.set is a builtin call)
    const k = i * NUMS;
    const call = this.call;
    n[k] = call[0];
    n[k + 1] = call[1];
    n[k + 2] = call[2];
    st.slotTuple[i] = this.tupleOf(id, oca, comment);
    st.runOff[i] = 0;
    this.lastSlot = i;
    this.slots = i + 1;
    this.count++;
  }

  /**
   * Room for run number `j`, sized by the run's pace: the numbers so far per bar so far, times the
   * run's bars (and an eighth more), when the log is on an input bar, at most 16 times the column at
   * once (an early burst does not reserve a whole run's worth). A 1M-bar bracket (4M numbers, past
   * the pool's bound, so grown in every run) copies its column three times instead of twelve.
   */
  private growRuns(st: EventStore, j: number): void {
    const from = this.gBar;
    const bars = this.barCount;
    let want = 0;
    if (from >= 0 && bars > 0) {
      const pace = (j + 1) / (from + this.gRows + 1);
      want = Math.min(Math.ceil(pace * bars * 1.125), 16 * st.runCapacity);
    }
    st.growRuns(j, want);
  }

  /** The moving numbers of a repeat, appended to the runs (qty, limit, stop). */
  private addRuns(st: EventStore, runsQty: boolean, runsLimit: boolean, runsStop: boolean): void {
    if (!(runsQty || runsLimit || runsStop)) return;
    let j = this.runCount;
    if (j + 2 >= st.runCapacity) this.growRuns(st, j + 2);
    const r = st.runs;
    if (runsQty) r[j++] = this.call[0];
    if (runsLimit) r[j++] = this.call[1];
    if (runsStop) r[j++] = this.call[2];
    this.runCount = j;
  }

  /** addRuns for a LogSite's call: its moving numbers (the site's run bits) from the site. */
  private addSiteRuns(st: EventStore, site: LogSite, runs: number): void {
    let j = this.runCount;
    if (j + 2 >= st.runCapacity) this.growRuns(st, j + 2);
    const r = st.runs;
    if ((runs & RUN_QTY) !== 0) r[j++] = site.qty;
    if ((runs & RUN_LIMIT) !== 0) r[j++] = site.limit;
    if ((runs & RUN_STOP) !== 0) r[j++] = site.stop;
    this.runCount = j;
  }

  /** The last group's next call of row `rows` came: the row goes on, or ends and the next starts. */
  private repeated(st: EventStore, rows: number): void {
    let p = this.gPart + 1;
    if (p === this.slots - this.gFirst) {
      p = 0;
      // the first repeat is whole: every later row has its width
      if (rows === 1) this.gRunWidth = st.gRunWidth[this.groups - 1] = this.runCount - this.gRunBase;
      this.gRows = rows + 1;
    }
    this.gPart = p;
    this.count++;
  }

  /** The host's input columns when it has them (whole Float64Array columns of one length). */
  private useColumns(ctx: BrokerHost): void {
    const c = (ctx as { columns?: Partial<InputColumns> }).columns;
    if (
      c &&
      c.time instanceof Float64Array &&
      c.open instanceof Float64Array &&
      c.high instanceof Float64Array &&
      c.low instanceof Float64Array &&
      c.close instanceof Float64Array
    ) {
      const n = c.time.length;
      if (c.open.length === n && c.high.length === n && c.low.length === n && c.close.length === n) {
        this.cols = c as InputColumns;
        this.colLength = n;
        this.cT = c.time;
        this.cO = c.open;
        this.cH = c.high;
        this.cL = c.low;
        this.cC = c.close;
        this.colsCopied = c.copied === true;
      }
    }
  }

  /**
   * The host's bar as it is now: its index when it is the input's bar at that index (Object.is on
   * time and prices), else -1 - x for written-out row x (the last one when it is the same).
   */
  private barOf(ctx: BrokerHost, st: EventStore): number {
    // the input bar this pass's calls found (a grid's calls, a bracket's two exits: one test a pass)
    const b = ctx.barIndex;
    // the host's word: its bar is input bar b as it is
    if (ctx === this.barHost && ctx.inputBar === b && b >= 0 && b < this.colLength) {
      if (this.verifyBar === true) this.checked(ctx, b);
      return b;
    }
    const src = this.passes;
    if (src !== null && src.pass === this.memoPass && ctx === this.memoHost) return this.memoBar;
    const t = ctx.time;
    const o = ctx.open;
    const h = ctx.high;
    const l = ctx.low;
    const c = ctx.close;
    const p = t * o * h * l * c;
    // (colLength is 0 without input columns)
    if (
      b >= 0 &&
      b < this.colLength &&
      this.cC[b] === c &&
      this.cH[b] === h &&
      this.cL[b] === l &&
      this.cO[b] === o &&
      this.cT[b] === t &&
      // (=== is Object.is but for 0 and -0: a product of 0, rare, asks Object.is itself, and so
      // does one that is NaN, which infinities can give)
      ((p !== 0 && p === p) || sameZeros(this.cols as InputColumns, b, ctx))
    ) {
      if (src !== null) {
        this.memoPass = src.pass;
        this.memoHost = ctx;
        this.memoBar = b;
      }
      return b;
    }
    return this.writtenOut(ctx, st);
  }

  /** Throws unless the host's bar is input bar `b` as it is (hostBarTrust "verify"), else true. */
  private checked(ctx: BrokerHost, b: number): boolean {
    if (!sameZeros(this.cols as InputColumns, b, ctx))
      throw new Error(
        `EventLog: the host said its bar is input bar ${b} as it is (inputBar), but its time or prices are not that bar's`,
      );
    return true;
  }

  /** -1 - x for written-out row x of the host's bar (the last row when it is the same). */
  private writtenOut(ctx: BrokerHost, st: EventStore): number {
    // (the host's bar written into the next row first and compared there, index by index: no double
    // crosses a call, and none stays in a local that V8 might box along the inlined hot path)
    const x = this.xrowCount;
    if (x >= st.xrowCapacity) st.growXrows(x);
    const xr = st.xrows;
    const k = x * ROW;
    xr[k] = ctx.barIndex;
    xr[k + 1] = ctx.time;
    xr[k + 2] = ctx.open;
    xr[k + 3] = ctx.high;
    xr[k + 4] = ctx.low;
    xr[k + 5] = ctx.close;
    if (x !== 0 && sameRow(xr, k - ROW, k)) return -x;
    this.xrowCount = x + 1;
    return -1 - x;
  }

  /**
   * Throws when the input columns no longer hold what they held when the run was over (the caller
   * wrote into its input arrays after the run, before reading the events): records built from them
   * would be wrong, silently. Before the end of the run nobody else holds the log.
   */
  private checkInput(): void {
    const cols = this.cols;
    if (cols === null || this.checksum !== this.checksum) return;
    if (readBarsChecksum(cols, this.store, this.groups) !== this.checksum)
      throw new Error(
        "result.events: the run's input bars were modified after the run; the events read the bars' time and prices from them, so read result.events before writing into the input arrays",
      );
  }

  /** The index of the string tuple: the one last logged for this id when it is the same, else a new one. */
  private tupleOf(id: string | null, oca: string | null, comment: string | null): number {
    const s = this.tupleSlots;
    // the tuple of the calling site's last slot first (logSite's hint): a site writing a new slot
    // mostly brings the strings it had (an exit whose position changed side), and no map is asked
    const hint = this.tupleHint;
    if (hint >= 0 && hint < this.tupleCount) {
      const j = hint * TUPLE;
      if (s[j] === id && s[j + 1] === oca && s[j + 2] === comment) return hint;
    }
    const known = this.lastTuple.get(id);
    if (known !== undefined && known < this.tupleCount) {
      const j = known * TUPLE;
      if (s[j] === id && s[j + 1] === oca && s[j + 2] === comment) return known;
    }
    const t = this.tupleCount;
    const j = t * TUPLE;
    s[j] = id;
    s[j + 1] = oca;
    s[j + 2] = comment;
    this.tupleCount = t + 1;
    this.lastTuple.set(id, t);
    return t;
  }

  /** Where the log stands now (see rollback). */
  mark(): EventMark {
    return {
      count: this.count,
      tuples: this.tupleCount,
      slots: this.slots,
      groups: this.groups,
      rows: this.gRows,
      part: this.gPart,
      runBase: this.gRunBase,
      runWidth: this.gRunWidth,
      runs: this.runCount,
      xrows: this.xrowCount,
    };
  }

  /** A sealed or abandoned log lets go of the broker's pass counter, barOf's memo and the host whose word it took. */
  private dropPasses(): void {
    this.passes = null;
    this.barHost = null;
    this.memoPass = -1;
    this.memoHost = null;
  }

  /** Drops what was logged after `m` (a realtime tick rolled back; the slots are written again). */
  rollback(m: EventMark): void {
    if (m.count >= this.count) return;
    // (what call sites remember of the dropped calls' slots goes with them, and barOf's memo)
    this.stamp = ++stamps;
    this.memoPass = -1;
    this.count = m.count;
    this.slots = m.slots;
    this.groups = m.groups;
    this.runCount = m.runs;
    const st = this.store;
    if (m.groups !== 0) {
      // the last group then is the last group again, with its rows then (its slots' run bits and
      // offsets past that point are written again by the calls that repeat them)
      const g = m.groups - 1;
      this.gFirst = st.gFirst[g];
      this.gBar = st.gBar[g];
      st.gRows[g] = m.rows;
      st.gPart[g] = this.gPart = m.part;
      st.gRunBase[g] = this.gRunBase = m.runBase;
      st.gRunWidth[g] = this.gRunWidth = m.runWidth;
    }
    // (0 rows with no group: push's test of the last group)
    this.gRows = m.rows;
    this.xrowCount = m.xrows;
    // a tuple past the mark is never reused (tupleOf checks the count) and its slots are rewritten
    this.tupleCount = m.tuples;
    this.tupleSlots.length = m.tuples * TUPLE;
    if (this.built.length > m.count) {
      this.built.length = m.count;
      // event m.count is the last group's next call then (or the next group's first)
      this.readGroup = m.groups === 0 ? 0 : m.groups - 1;
      this.readAt = m.groups === 0 ? 0 : m.rows * (m.slots - this.gFirst) + m.part;
    }
  }

  /**
   * The run is over (the Runtime's finish): nothing more is pushed, so the store may serve another
   * run's log from now on, which detaches this one first.
   */
  seal(): void {
    this.sealed = true;
    // (a kept result keeps its log, not the run's broker and host)
    this.dropPasses();
    this.flushGroup();
    if (this.cols !== null && !this.colsCopied) this.checksum = readBarsChecksum(this.cols, this.store, this.groups);
    if (this.store !== NO_STORE) release(this.store);
  }

  /**
   * The run was dropped and no result reads its events (compiled code failed and the interpreter ran
   * the script again, the broker's finish threw, an exception left the run): the store goes back to
   * the pool at once, no copy kept. A dropped log left holding its store kept that pool place (and
   * its input columns) for the life of the process: after two, the pool lent nothing.
   */
  abandon(): void {
    this.sealed = true;
    this.stamp = ++stamps;
    this.dropPasses();
    const st = this.store;
    if (st !== NO_STORE && st.holder === this) st.holder = null;
    this.store = NO_STORE;
    this.forgetStoreCounts();
    this.count = 0;
    this.built.length = 0;
    this.gPart = 0;
    this.tupleCount = 0;
    this.tupleSlots.length = 0;
  }

  /** The counts that index the store, and the input columns its records read: zero once no store is held. */
  private forgetStoreCounts(): void {
    this.slots = 0;
    this.groups = 0;
    this.gRows = 0;
    this.runCount = 0;
    this.xrowCount = 0;
    this.cols = null;
    this.colLength = 0;
    this.cT = this.cO = this.cH = this.cL = this.cC = NO_COLUMN;
  }

  /**
   * Gives up the store to another log: keeps what the records not built yet still read (the store's
   * nearly full columns, exact copies of the others: EventStore.keep; nothing when every record is
   * built: toArray then only hands out the built array).
   */
  detach(): void {
    const st = this.store;
    if (st === NO_STORE) return;
    // (the pool no longer holds this log)
    if (st.holder === this) st.holder = null;
    this.store =
      this.built.length === this.count ? NO_STORE : st.keep(this.slots, this.groups, this.runCount, this.xrowCount);
    // every record is built and the run is over: nothing reads the columns again
    if (this.store === NO_STORE) this.forgetStoreCounts();
  }

  /** Every logged event as the contract's records (the same array on every call, extended as the log grows). */
  toArray(): StrategyEvent[] {
    const out = this.built;
    if (out.length === this.count) return out;
    this.flushGroup();
    this.checkInput();
    const st = this.store;
    let g = this.readGroup;
    let at = this.readAt;
    let size = this.groupSize(st, g);
    let events = st.gRows[g] * size + st.gPart[g];
    for (let i = out.length; i < this.count; i++) {
      // event i exists, so past this group's calls there is a next group
      while (at >= events) {
        g++;
        at = 0;
        size = this.groupSize(st, g);
        events = st.gRows[g] * size + st.gPart[g];
      }
      const row = (at / size) | 0;
      out.push(this.record(st, g, st.gFirst[g] + (at - row * size), row));
      at++;
    }
    // left past the group's last call, not on the next group: calls pushed later extend this group
    this.readGroup = g;
    this.readAt = at;
    // every record of a finished run built: the store goes back to the pool, no copy kept
    if (this.sealed) this.detach();
    return out;
  }

  /** Slots of group `g`. */
  private groupSize(st: EventStore, g: number): number {
    return (g + 1 < this.groups ? st.gFirst[g + 1] : this.slots) - st.gFirst[g];
  }

  /** The record of slot `slot`'s call on row `row` of group `g` (row 0: the slot's own numbers). */
  private record(st: EventStore, g: number, slot: number, row: number): StrategyEvent {
    const n = st.nums;
    const k = slot * NUMS;
    let qty = n[k];
    const m = st.meta[slot];
    let limit = n[k + 1];
    let stop = n[k + 2];
    if (row > 0 && (m & (RUN_QTY | RUN_LIMIT | RUN_STOP)) !== 0) {
      let j = st.gRunBase[g] + (row - 1) * st.gRunWidth[g] + st.runOff[slot];
      if ((m & RUN_QTY) !== 0) qty = st.runs[j++];
      if ((m & RUN_LIMIT) !== 0) limit = st.runs[j++];
      if ((m & RUN_STOP) !== 0) stop = st.runs[j];
    }
    const meta = m & META;
    const d = meta % 3;
    const from = st.gBar[g];
    const src = from >= 0 ? from + row : from - row;
    let barIndex: number, time: number, o: number, h: number, l: number, c: number;
    if (src >= 0) {
      const cols = this.cols as InputColumns;
      barIndex = src;
      time = cols.time[src];
      o = cols.open[src];
      h = cols.high[src];
      l = cols.low[src];
      c = cols.close[src];
    } else {
      const xr = st.xrows;
      const x = (-1 - src) * ROW;
      barIndex = xr[x];
      time = xr[x + 1];
      o = xr[x + 2];
      h = xr[x + 3];
      l = xr[x + 4];
      c = xr[x + 5];
    }
    const s = this.tupleSlots;
    const j = st.slotTuple[slot] * TUPLE;
    return {
      kind: KINDS[(meta - d) / 3],
      id: s[j],
      direction: d === 1 ? "long" : d === 2 ? "short" : null,
      qty: qty === qty ? qty : null,
      order_type:
        limit === limit && stop === stop ? "stop_limit" : limit === limit ? "limit" : stop === stop ? "stop" : "market",
      limit: limit === limit ? limit : null,
      stop: stop === stop ? stop : null,
      oca_name: s[j + 1],
      comment: s[j + 2],
      bar_index: barIndex,
      bar_time: time,
      ohlc: [o, h, l, c],
      script_id: this.scriptId,
      run_id: this.runId,
    };
  }
}
