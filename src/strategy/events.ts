// StrategyEvent records: every order call the script makes (result.events). A strategy placing its
// brackets on every bar makes hundreds of thousands of them, so the broker logs them lean while it
// runs and builds the contract's records when they are read, normally once, after the run:
// - per event 37 bytes in the columns of an EventStore (a slot): kind and direction, qty / limit /
//   stop, its bar and the index of its string tuple, and a repeat count;
// - the bar: when it is the input's bar as it is (Object.is on time and prices), its index, whose time
//   and prices are read from the run's input columns when the records are built; else (a
//   calc_on_order_fills execution or a realtime tick sees the bar so far) a written-out row of
//   bar_index, time and prices, shared by the consecutive events that see the same;
// - an event that repeats the last slot on the next input bar (an order re-placed with the same
//   arguments on the next bar) takes no slot: the slot's repeat count grows, and its k-th repeat is
//   read back as the same record on the slot's bar + k (written-out rows: the next row); when only
//   the stop moved (an exit whose stop trails the price) the repeat adds its stop, 8 bytes, to the
//   slot's run of stops, and nothing else;
// - string tuples (id, oca_name, comment, script_id, run_id) shared by every event that repeats them
//   (an exit re-placed on every bar logs no new strings).
// No object per call, and no fresh memory per run: a finished run's store serves the next run (see
// leaseStore), so back-to-back runs of a script write their events into memory already in use.

import type { BrokerHost } from "./host.js";
import type { StrategyEvent } from "../core/result.js";
import { objectArray } from "../core/shapes.js";

type Kind = StrategyEvent["kind"];

const KINDS: readonly Kind[] = ["entry", "exit", "close", "close_all", "cancel", "cancel_all", "order"];

function kindCode(kind: Kind): number {
  switch (kind) {
    case "entry":
      return 0;
    case "exit":
      return 1;
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

/** Numbers per event: qty, limit, stop. */
const NUMS = 3;
/** Numbers per bar row: bar_index, bar_time, open, high, low, close. */
const ROW = 6;
/** Strings per tuple: id, oca_name, comment, script_id, run_id. */
const TUPLE = 5;
/** Slots and stops of a new store; the columns double when full. */
const FIRST_CAPACITY = 1024;
/** Written-out bar rows of a new store (most events are on input bars). */
const FIRST_XROWS = 64;

/**
 * The columns of one log: slots (an event and its repeats), runs of stops and written-out bar rows,
 * each growing by doubling. A store outlives its log's run: the pool hands it to the next run once
 * the log is sealed (its run finished), after the old log has kept what it still needs
 * (EventLog.detach).
 */
export class EventStore {
  slotCapacity: number;
  nums: Float64Array;
  /** The slot's bar: the input bar it is (>= 0), or -1 - x for written-out row x of `xrows`. */
  slotRow: Int32Array;
  /** The slot's string tuple. */
  slotTuple: Int32Array;
  /** Events after the slot's own that repeat it, each on the next input bar (the next written-out row). */
  reps: Int32Array;
  /** Where the slot's run of stops starts in `stops` (its own event's first), or -1: every repeat has the slot's stop. */
  stopRun: Int32Array;
  /** kind * 3 + direction (0 null, 1 long, 2 short). */
  meta: Uint8Array;
  /** Written-out bar rows: bar_index, time, open, high, low, close. */
  xrows: Float64Array;
  xrowCapacity: number;
  /** Runs of stops: slot s's event k has stop stops[stopRun[s] + k]. */
  stops: Float64Array;
  stopCapacity: number;
  /** The log writing into (or reading from) this store, while it may still need it. */
  holder: WeakRef<EventLog> | null = null;
  /** When the store was last leased (the pool steals the least recently leased). */
  leased = 0;

  constructor(slots = FIRST_CAPACITY, stops = FIRST_CAPACITY, xrows = FIRST_XROWS) {
    this.slotCapacity = slots;
    this.nums = new Float64Array(slots * NUMS);
    this.slotRow = new Int32Array(slots);
    this.slotTuple = new Int32Array(slots);
    this.reps = new Int32Array(slots);
    this.stopRun = new Int32Array(slots);
    this.meta = new Uint8Array(slots);
    this.xrowCapacity = xrows;
    this.xrows = new Float64Array(xrows * ROW);
    this.stopCapacity = stops;
    this.stops = new Float64Array(stops);
  }

  /** Room for slot `i` (the columns double, keeping what they hold). */
  growSlots(i: number): void {
    let cap = this.slotCapacity * 2 || FIRST_CAPACITY;
    while (cap <= i) cap *= 2;
    this.nums = grow(this.nums, cap * NUMS);
    this.slotRow = grow(this.slotRow, cap);
    this.slotTuple = grow(this.slotTuple, cap);
    this.reps = grow(this.reps, cap);
    this.stopRun = grow(this.stopRun, cap);
    this.meta = grow(this.meta, cap);
    this.slotCapacity = cap;
  }

  /** Room for stop `j` of the runs. */
  growStops(j: number): void {
    let cap = this.stopCapacity * 2 || FIRST_CAPACITY;
    while (cap <= j) cap *= 2;
    this.stops = grow(this.stops, cap);
    this.stopCapacity = cap;
  }

  /** Room for written-out row `x`. */
  growXrows(x: number): void {
    let cap = this.xrowCapacity * 2 || FIRST_XROWS;
    while (cap <= x) cap *= 2;
    this.xrows = grow(this.xrows, cap * ROW);
    this.xrowCapacity = cap;
  }

  /** A store of exactly the first `slots` slots, `stops` stops and `xrows` written-out rows (what a detached log keeps). */
  copy(slots: number, stops: number, xrows: number): EventStore {
    const c = new EventStore(0, 0, 0);
    c.slotCapacity = slots;
    c.stopCapacity = stops;
    c.xrowCapacity = xrows;
    c.stopRun = this.stopRun.slice(0, slots);
    c.stops = this.stops.slice(0, stops);
    c.nums = this.nums.slice(0, slots * NUMS);
    c.slotRow = this.slotRow.slice(0, slots);
    c.slotTuple = this.slotTuple.slice(0, slots);
    c.reps = this.reps.slice(0, slots);
    c.meta = this.meta.slice(0, slots);
    c.xrows = this.xrows.slice(0, xrows * ROW);
    return c;
  }
}

function grow<T extends Float64Array | Int32Array | Uint8Array>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

/**
 * Stores of sealed logs, for the next runs (fresh typed-array memory per run was a third of a run
 * re-placing an exit on every bar: page faults, external-memory GC pressure). A store goes to a new
 * log when its holder is gone (collected) or sealed; a sealed holder first keeps an exact copy of
 * what it holds unless its records are all built already. Without WeakRef stores are not pooled.
 */
const pool: EventStore[] = [];
/** Stores kept for reuse: two serve runs alternating between two scripts or modes. */
const POOL_SIZE = 2;
/** A store that grew past this many slots + stops + written-out rows (~12 MB at most) is not kept. */
const POOL_MAX_ENTRIES = 1 << 19;
let leases = 0;

function leaseStore(log: EventLog): EventStore {
  if (typeof WeakRef !== "function") return new EventStore();
  // a store whose log is gone (collected, or detached) first, then a new one while the pool has
  // room, then the least recently leased store of a sealed log, which keeps a copy of what it needs
  let store: EventStore | null = null;
  let steal: EventStore | null = null;
  for (let i = 0; i < pool.length; i++) {
    const s = pool[i];
    const h = s.holder === null ? undefined : s.holder.deref();
    if (h === undefined || h.store !== s) {
      store = s;
      break;
    }
    if (h.sealed && (steal === null || s.leased < steal.leased)) steal = s;
  }
  if (store === null) {
    if (pool.length < POOL_SIZE) pool.push((store = new EventStore()));
    else if (steal !== null) {
      steal.holder?.deref()?.detach();
      store = steal;
    } else return new EventStore();
  }
  store.holder = new WeakRef(log);
  store.leased = ++leases;
  return store;
}

/** Takes a store that grew past the pool's bound out of the pool. */
function release(s: EventStore): void {
  if (s.slotCapacity + s.stopCapacity + s.xrowCapacity <= POOL_MAX_ENTRIES) return;
  const i = pool.indexOf(s);
  if (i >= 0) pool.splice(i, 1);
}

/** Object.is for numbers (-0 is not 0, NaN is NaN), without the call. */
function same(a: number, b: number): boolean {
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
}

/** The input columns a log's rows may name. */
interface InputColumns {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
}

/**
 * A checksum of the input columns' bits over bars [from, to): Fletcher sums of their 32-bit words
 * (each word weighted by its place: values trading places change it), two lanes. Taken when the run
 * is over and again before records are built from the columns (EventLog.checkInput); ~0.5 ns a word.
 */
function columnsChecksum(cols: InputColumns, from: number, to: number): number {
  let a = 1;
  let b = 0;
  let a2 = 7;
  let b2 = 3;
  const all = [cols.time, cols.open, cols.high, cols.low, cols.close];
  for (let c = 0; c < all.length; c++) {
    const col = all[c];
    const w = new Int32Array(col.buffer, col.byteOffset + from * 8, (to - from) * 2);
    // (a double is two words: the lanes take its low and high word)
    for (let i = 0; i < w.length; i += 2) {
      a = (a + w[i]) | 0;
      b = (b + a) | 0;
      a2 = (a2 + w[i + 1]) | 0;
      b2 = (b2 + a2) | 0;
    }
  }
  return a ^ Math.imul(b, 31) ^ Math.imul(a2, 17) ^ Math.imul(b2, 13);
}

/**
 * Object.is for an input column's value and the host's, but NaN never equal (normalizeBars lets no
 * NaN into the columns; a host bar that is NaN is written out, which is always right).
 */
function eq(col: number, v: number): boolean {
  return col === v && (col !== 0 || 1 / col === 1 / v);
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Where a log stood (a broker snapshot), to take it back there with rollback. */
export interface EventMark {
  count: number;
  tuples: number;
  slots: number;
  /** The last slot's repeat count then. */
  lastReps: number;
  /** The last slot's run of stops then (-1: none), and the stops in runs. */
  lastRun: number;
  stops: number;
  xrows: number;
}

/** The store of a log that logs nothing. */
const NO_STORE = new EventStore(0, 0, 0);

export class EventLog {
  /** Events logged (a snapshot restore may take the count back). */
  count = 0;
  /** Slots written (count minus the repeats). */
  private slots = 0;
  /** Where toArray resumes: the slot and repeat of event built.length (a repeat past the slot's count means the next slot, or a repeat pushed later). */
  private readSlot = 0;
  private readRep = 0;
  /** Written-out bar rows (see barOf). */
  private xrowCount = 0;
  /** The run's input columns, which rows naming an input bar read (null: every row written out). */
  private cols: InputColumns | null = null;
  private colLength = 0;
  /** The input bars events were logged on lie in [lowBar, highBar]. */
  private lowBar = Infinity;
  private highBar = -1;
  /** The input columns' checksum over those bars when the run was over (NaN: not sealed yet). */
  private checksum = NaN;
  private tupleCount = 0;
  /** Stops written to runs of stops. */
  private stopCount = 0;
  /** The tuple tupleOf last found or made (-1: none): its first candidate. */
  private prevTuple = -1;
  /**
   * The strings (script_id / run_id as read from ctx.ext) and tuples of the last two distinct pushes:
   * a push with the same strings as either takes its tuple without comparing the tuple's strings (an
   * exit re-placed on every bar hits one; a bracket's two exits alternating hit both). `recentValid`
   * false after a rollback, which may have dropped those tuples.
   */
  private recentValid = false;
  /** The entry the last push matched or filled (the other one is replaced on a miss). */
  private recentLast = 0;
  private r0Id: string | null = null;
  private r0Oca: string | null = null;
  private r0Comment: string | null = null;
  private r0Script: unknown = undefined;
  private r0Run: unknown = undefined;
  private r0Tuple = -1;
  private r1Id: string | null = null;
  private r1Oca: string | null = null;
  private r1Comment: string | null = null;
  private r1Script: unknown = undefined;
  private r1Run: unknown = undefined;
  private r1Tuple = -1;
  /** The columns (leased on the first push: a run that logs nothing takes no store). */
  store: EventStore = NO_STORE;
  /** The run is over: no more pushes, and the store may go to another log (which detaches this one). */
  sealed = false;

  /** `recording` false: push logs nothing (a run whose events nobody reads; settings.recordEvents). */
  constructor(private readonly recording = true) {}
  /** The string tuples, TUPLE slots each. */
  private readonly tupleSlots: (string | null)[] = objectArray(); // (object elements kind: core/shapes.ts)
  /** The last tuple logged per order id (the tuple a re-placed order most likely repeats). */
  private readonly lastTuple = new Map<string | null, number>();
  /** The records built so far (a prefix of the log), handed out by toArray(). */
  private readonly built: StrategyEvent[] = [];

  /** script_id / run_id come from ctx.ext.scriptId / ctx.ext.runId, which the Runtime sets. */
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
    if (!this.recording) return;
    let st = this.store;
    if (st === NO_STORE) {
      st = this.store = leaseStore(this);
      if (this.count === 0) this.useColumns(ctx);
    }
    const meta = kindCode(kind) * 3 + (direction === "long" ? 1 : direction === "short" ? 2 : 0);
    const bar = this.barOf(ctx, st);
    const ext = ctx.ext;
    const scriptId = ext ? ext.scriptId : undefined;
    const runId = ext ? ext.runId : undefined;
    let tuple: number;
    if (
      this.recentValid &&
      id === this.r0Id &&
      oca === this.r0Oca &&
      comment === this.r0Comment &&
      scriptId === this.r0Script &&
      runId === this.r0Run
    ) {
      tuple = this.r0Tuple;
      this.recentLast = 0;
    } else if (
      this.recentValid &&
      id === this.r1Id &&
      oca === this.r1Oca &&
      comment === this.r1Comment &&
      scriptId === this.r1Script &&
      runId === this.r1Run
    ) {
      tuple = this.r1Tuple;
      this.recentLast = 1;
    } else tuple = this.recentMiss(id, oca, comment, scriptId, runId);
    const i = this.slots;
    if (i !== 0) {
      // the last slot again on the next bar (the next input bar, or the next written-out row): one
      // more repeat, nothing written but, when only the stop moved, the stop (the slot's run of stops)
      const last = i - 1;
      const ln = st.nums;
      const lk = last * NUMS;
      const from = st.slotRow[last];
      const next = st.reps[last] + 1;
      if (
        (from >= 0 ? bar === from + next : bar === from - next) &&
        st.meta[last] === meta &&
        st.slotTuple[last] === tuple &&
        same(ln[lk], qty) &&
        same(ln[lk + 1], limit)
      ) {
        const run = st.stopRun[last];
        if (run < 0) {
          if (same(ln[lk + 2], stop)) {
            st.reps[last] = next;
            this.count++;
            return;
          }
          if (next === 1) {
            // the slot's own event and this one start its run of stops
            const j = this.stopCount;
            if (j + 1 >= st.stopCapacity) st.growStops(j + 1);
            st.stops[j] = ln[lk + 2];
            st.stops[j + 1] = stop;
            st.stopRun[last] = j;
            this.stopCount = j + 2;
            st.reps[last] = 1;
            this.count++;
            return;
          }
        } else {
          // the last slot's run is the last run: its stops end at stopCount
          const j = this.stopCount;
          if (j >= st.stopCapacity) st.growStops(j);
          st.stops[j] = stop;
          this.stopCount = j + 1;
          st.reps[last] = next;
          this.count++;
          return;
        }
      }
    }
    if (i >= st.slotCapacity) st.growSlots(i);
    st.meta[i] = meta;
    const n = st.nums;
    const k = i * NUMS;
    n[k] = qty;
    n[k + 1] = limit;
    n[k + 2] = stop;
    st.slotRow[i] = bar;
    st.slotTuple[i] = tuple;
    st.reps[i] = 0;
    st.stopRun[i] = -1;
    this.slots = i + 1;
    this.count++;
  }

  /** The tuple of a push matching neither recent entry; it replaces the entry not used last. */
  private recentMiss(
    id: string | null,
    oca: string | null,
    comment: string | null,
    scriptId: unknown,
    runId: unknown,
  ): number {
    const tuple = this.tupleOf(id, oca, comment, str(scriptId) ?? "", str(runId) ?? "");
    const into = this.recentValid ? 1 - this.recentLast : 0;
    if (into === 0 || !this.recentValid) {
      this.r0Id = id;
      this.r0Oca = oca;
      this.r0Comment = comment;
      this.r0Script = scriptId;
      this.r0Run = runId;
      this.r0Tuple = tuple;
    }
    if (into === 1 || !this.recentValid) {
      this.r1Id = id;
      this.r1Oca = oca;
      this.r1Comment = comment;
      this.r1Script = scriptId;
      this.r1Run = runId;
      this.r1Tuple = tuple;
    }
    this.recentValid = true;
    this.recentLast = into;
    return tuple;
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
      }
    }
  }

  /**
   * The host's bar as it is now: its index when it is the input's bar at that index (Object.is on
   * time and prices), else -1 - x for written-out row x (the last one when it is the same).
   */
  private barOf(ctx: BrokerHost, st: EventStore): number {
    const b = ctx.barIndex;
    const cols = this.cols;
    if (
      cols !== null &&
      b >= 0 &&
      b < this.colLength &&
      eq(cols.open[b], ctx.open) &&
      eq(cols.close[b], ctx.close) &&
      eq(cols.high[b], ctx.high) &&
      eq(cols.low[b], ctx.low) &&
      eq(cols.time[b], ctx.time)
    ) {
      if (b > this.highBar) this.highBar = b;
      // (a store every time: the branch would be taken once a run, on its first event, where code
      // optimised in an earlier run has no feedback for the store and deoptimises)
      this.lowBar = Math.min(b, this.lowBar);
      return b;
    }
    return this.writtenOut(ctx, st);
  }

  /** -1 - x for written-out row x of the host's bar (the last row when it is the same). */
  private writtenOut(ctx: BrokerHost, st: EventStore): number {
    const b = ctx.barIndex;
    const t = ctx.time;
    const o = ctx.open;
    const h = ctx.high;
    const l = ctx.low;
    const c = ctx.close;
    const x = this.xrowCount;
    if (x !== 0) {
      const xr = st.xrows;
      const k = (x - 1) * ROW;
      if (
        xr[k] === b &&
        same(xr[k + 1], t) &&
        same(xr[k + 2], o) &&
        same(xr[k + 3], h) &&
        same(xr[k + 4], l) &&
        same(xr[k + 5], c)
      )
        return -x;
    }
    if (x >= st.xrowCapacity) st.growXrows(x);
    const xr = st.xrows;
    const k = x * ROW;
    xr[k] = b;
    xr[k + 1] = t;
    xr[k + 2] = o;
    xr[k + 3] = h;
    xr[k + 4] = l;
    xr[k + 5] = c;
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
    if (cols === null || this.checksum !== this.checksum || this.highBar < this.lowBar) return;
    if (columnsChecksum(cols, this.lowBar, this.highBar + 1) !== this.checksum)
      throw new Error(
        "result.events: the run's input bars were modified after the run; the events read the bars' time and prices from them, so read result.events before writing into the input arrays",
      );
  }

  /** The index of the string tuple: the one last logged for this id when it is the same, else a new one. */
  private tupleOf(
    id: string | null,
    oca: string | null,
    comment: string | null,
    scriptId: string,
    runId: string,
  ): number {
    const s = this.tupleSlots;
    // the previous event's tuple first (one order re-placed on every bar), then this id's last one
    let known: number | undefined = this.prevTuple;
    for (let pass = 0; pass < 2; pass++) {
      if (known !== undefined && known >= 0 && known < this.tupleCount) {
        const j = known * TUPLE;
        if (s[j] === id && s[j + 1] === oca && s[j + 2] === comment && s[j + 3] === scriptId && s[j + 4] === runId)
          return (this.prevTuple = known);
      }
      known = this.lastTuple.get(id);
    }
    const t = this.tupleCount;
    const j = t * TUPLE;
    s[j] = id;
    s[j + 1] = oca;
    s[j + 2] = comment;
    s[j + 3] = scriptId;
    s[j + 4] = runId;
    this.tupleCount = t + 1;
    this.lastTuple.set(id, t);
    return (this.prevTuple = t);
  }

  /** Where the log stands now (see rollback). */
  mark(): EventMark {
    const s = this.slots;
    const st = this.store;
    const lastReps = s === 0 ? 0 : st.reps[s - 1];
    const lastRun = s === 0 ? -1 : st.stopRun[s - 1];
    return {
      count: this.count,
      tuples: this.tupleCount,
      slots: s,
      lastReps,
      lastRun,
      stops: this.stopCount,
      xrows: this.xrowCount,
    };
  }

  /** Drops what was logged after `m` (a realtime tick rolled back; the slots are written again). */
  rollback(m: EventMark): void {
    if (m.count >= this.count) return;
    this.count = m.count;
    this.slots = m.slots;
    if (m.slots !== 0) {
      this.store.reps[m.slots - 1] = m.lastReps;
      this.store.stopRun[m.slots - 1] = m.lastRun;
    }
    this.stopCount = m.stops;
    // (lowBar / highBar keep the bars of dropped events: the checksum covers a little more)
    this.xrowCount = m.xrows;
    // a tuple past the mark is never reused (tupleOf checks the count) and its slots are rewritten
    this.tupleCount = m.tuples;
    this.tupleSlots.length = m.tuples * TUPLE;
    this.recentValid = false;
    if (this.built.length > m.count) {
      this.built.length = m.count;
      // event m.count is the last slot's next repeat (or the next slot's first event)
      this.readSlot = m.slots === 0 ? 0 : m.slots - 1;
      this.readRep = m.slots === 0 ? 0 : m.lastReps + 1;
    }
  }

  /**
   * The run is over (the Runtime's finish): nothing more is pushed, so the store may serve another
   * run's log from now on, which detaches this one first.
   */
  seal(): void {
    this.sealed = true;
    if (this.cols !== null && this.highBar >= this.lowBar)
      this.checksum = columnsChecksum(this.cols, this.lowBar, this.highBar + 1);
    if (this.store !== NO_STORE) release(this.store);
  }

  /**
   * Gives up the store to another log: keeps an exact copy of what the records not built yet still
   * read (nothing when every record is built: toArray then only hands out the built array).
   */
  detach(): void {
    const st = this.store;
    if (st === NO_STORE) return;
    this.store = this.built.length === this.count ? NO_STORE : st.copy(this.slots, this.stopCount, this.xrowCount);
    if (this.store === NO_STORE) {
      // every record is built and the run is over: nothing reads the columns again
      this.slots = 0;
      this.stopCount = 0;
      this.xrowCount = 0;
      this.cols = null;
    }
  }

  /** Every logged event as the contract's records (the same array on every call, extended as the log grows). */
  toArray(): StrategyEvent[] {
    const out = this.built;
    if (out.length === this.count) return out;
    this.checkInput();
    const reps = this.store.reps;
    let slot = this.readSlot;
    let rep = this.readRep;
    for (let i = out.length; i < this.count; i++) {
      // event i exists, so past this slot's repeats there is a next slot
      while (rep > reps[slot]) {
        slot++;
        rep = 0;
      }
      out.push(this.record(slot, rep));
      rep++;
    }
    // left past the slot's last repeat, not on the next slot: a repeat pushed later extends this slot
    this.readSlot = slot;
    this.readRep = rep;
    return out;
  }

  /** The record of a slot's `rep`-th repeat (0: the slot's own event), on the slot's row + rep. */
  private record(slot: number, rep: number): StrategyEvent {
    const st = this.store;
    const n = st.nums;
    const k = slot * NUMS;
    const qty = n[k];
    const limit = n[k + 1];
    const run = st.stopRun[slot];
    const stop = run < 0 ? n[k + 2] : st.stops[run + rep];
    const meta = st.meta[slot];
    const d = meta % 3;
    const from = st.slotRow[slot];
    const src = from >= 0 ? from + rep : from - rep;
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
      const k = (-1 - src) * ROW;
      barIndex = xr[k];
      time = xr[k + 1];
      o = xr[k + 2];
      h = xr[k + 3];
      l = xr[k + 4];
      c = xr[k + 5];
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
      script_id: s[j + 3] as string,
      run_id: s[j + 4] as string,
    };
  }
}
