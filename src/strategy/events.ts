// StrategyEvent records: every order call the script makes (result.events). A strategy placing its
// brackets on every bar makes hundreds of thousands of them, so the broker logs them lean while it
// runs and builds the contract's records when they are read, normally once, after the run:
// - per event 37 bytes in typed-array chunks (a slot): kind and direction, qty / limit / stop, the
//   index of its bar row and of its string tuple, and a repeat count;
// - an event that repeats the last slot on the next bar row (an order re-placed with the same
//   arguments on the next bar) takes no slot: the slot's repeat count grows, and its k-th repeat is
//   read back as the same record on the slot's row + k;
// - bar rows (bar_index, time, open, high, low, close) shared by the consecutive events of one bar;
// - string tuples (id, oca_name, comment, script_id, run_id) shared by every event that repeats them
//   (an exit re-placed on every bar logs no new strings).
// No object per call: retained objects are what the garbage collector pays for.

import type { BrokerHost } from "./host.js";
import type { StrategyEvent } from "../core/result.js";

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
/** Events (and bar rows) per chunk: the log grows by chunks, never copying what it holds. */
const CHUNK_BITS = 11;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

class Chunk {
  readonly nums: Float64Array;
  /** The event's bar row (the log's `rows`). */
  readonly rows: Int32Array;
  /** The event's string tuple (the log's `tuples`). */
  readonly tuples: Int32Array;
  /** Events after the slot's own that repeat it, each on the next bar row. */
  readonly reps: Int32Array;
  /** kind * 3 + direction (0 null, 1 long, 2 short). */
  readonly meta: Uint8Array;
  constructor() {
    // one buffer per chunk (an ArrayBuffer is costly to allocate), 8-byte fields first
    const buf = new ArrayBuffer(CHUNK * (NUMS * 8 + 4 + 4 + 4 + 1));
    this.nums = new Float64Array(buf, 0, CHUNK * NUMS);
    this.rows = new Int32Array(buf, CHUNK * NUMS * 8, CHUNK);
    this.tuples = new Int32Array(buf, CHUNK * (NUMS * 8 + 4), CHUNK);
    this.reps = new Int32Array(buf, CHUNK * (NUMS * 8 + 8), CHUNK);
    this.meta = new Uint8Array(buf, CHUNK * (NUMS * 8 + 12), CHUNK);
  }
}

/**
 * Chunks of event logs nobody can read any more, for the next runs' logs (allocating zeroed typed
 * arrays was a tenth of a run re-placing an exit on every bar). A log's chunks come back when the log
 * is collected (only the log reaches them); a reused chunk needs no clearing, since push writes every
 * field of a slot before the slot count covers it. Bounded; without FinalizationRegistry chunks are new.
 */
const spareChunks: Chunk[] = [];
const spareRows: Float64Array[] = [];
const MAX_SPARE_CHUNKS = 64;
const reclaim =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<{ chunks: Chunk[]; rows: Float64Array[] }>((held) => {
        for (const c of held.chunks) if (spareChunks.length < MAX_SPARE_CHUNKS) spareChunks.push(c);
        for (const r of held.rows) if (spareRows.length < MAX_SPARE_CHUNKS) spareRows.push(r);
      })
    : null;

/** Object.is for numbers (-0 is not 0, NaN is NaN), without the call. */
function same(a: number, b: number): boolean {
  return a === b ? a !== 0 || 1 / a === 1 / b : a !== a && b !== b;
}

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Where a log stood (a broker snapshot), to take it back there with rollback. */
export interface EventMark {
  count: number;
  rows: number;
  tuples: number;
  slots: number;
  /** The last slot's repeat count then. */
  lastReps: number;
}

export class EventLog {
  /** Events logged (a snapshot restore may take the count back). */
  count = 0;
  /** Slots written (count minus the repeats). */
  private slots = 0;
  /** Where toArray resumes: the slot and repeat of event built.length (a repeat past the slot's count means the next slot, or a repeat pushed later). */
  private readSlot = 0;
  private readRep = 0;
  private rowCount = 0;
  private tupleCount = 0;
  /** The tuple of the last push (-1: none). */
  private prevTuple = -1;

  /** `recording` false: push logs nothing (a run whose events nobody reads; settings.recordEvents). */
  constructor(private readonly recording = true) {
    if (recording) reclaim?.register(this, { chunks: this.chunks, rows: this.rowChunks });
  }
  private readonly chunks: Chunk[] = [];
  private readonly rowChunks: Float64Array[] = [];
  /** The string tuples, TUPLE slots each. */
  private readonly tupleSlots: (string | null)[] = [];
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
    const meta = kindCode(kind) * 3 + (direction === "long" ? 1 : direction === "short" ? 2 : 0);
    const row = this.rowOf(ctx);
    const ext = ctx.ext;
    const tuple = this.tupleOf(
      id,
      oca,
      comment,
      (ext ? str(ext.scriptId) : null) ?? "",
      (ext ? str(ext.runId) : null) ?? "",
    );
    const i = this.slots;
    if (i !== 0) {
      // the last slot again on the next bar row: one more repeat, nothing written
      const last = i - 1;
      const lc = this.chunks[last >> CHUNK_BITS];
      const la = last & IN_CHUNK;
      const ln = lc.nums;
      const lk = la * NUMS;
      if (
        lc.meta[la] === meta &&
        lc.tuples[la] === tuple &&
        row === lc.rows[la] + lc.reps[la] + 1 &&
        same(ln[lk], qty) &&
        same(ln[lk + 1], limit) &&
        same(ln[lk + 2], stop)
      ) {
        lc.reps[la]++;
        this.count++;
        return;
      }
    }
    const at = i & IN_CHUNK;
    if (at === 0 && i >> CHUNK_BITS === this.chunks.length) this.chunks.push(spareChunks.pop() ?? new Chunk());
    const c = this.chunks[i >> CHUNK_BITS];
    c.meta[at] = meta;
    const n = c.nums;
    const k = at * NUMS;
    n[k] = qty;
    n[k + 1] = limit;
    n[k + 2] = stop;
    c.rows[at] = row;
    c.tuples[at] = tuple;
    c.reps[at] = 0;
    this.slots = i + 1;
    this.count++;
  }

  /** The bar row of the host's bar as it is now: the last row when it is the same (Object.is on every field). */
  private rowOf(ctx: BrokerHost): number {
    const r = this.rowCount;
    if (r !== 0) {
      const last = r - 1;
      const rows = this.rowChunks[last >> CHUNK_BITS];
      const k = (last & IN_CHUNK) * ROW;
      if (
        rows[k] === ctx.barIndex &&
        same(rows[k + 1], ctx.time) &&
        same(rows[k + 2], ctx.open) &&
        same(rows[k + 3], ctx.high) &&
        same(rows[k + 4], ctx.low) &&
        same(rows[k + 5], ctx.close)
      )
        return last;
    }
    const at = r & IN_CHUNK;
    if (at === 0 && r >> CHUNK_BITS === this.rowChunks.length)
      this.rowChunks.push(spareRows.pop() ?? new Float64Array(CHUNK * ROW));
    const rows = this.rowChunks[r >> CHUNK_BITS];
    const k = at * ROW;
    rows[k] = ctx.barIndex;
    rows[k + 1] = ctx.time;
    rows[k + 2] = ctx.open;
    rows[k + 3] = ctx.high;
    rows[k + 4] = ctx.low;
    rows[k + 5] = ctx.close;
    this.rowCount = r + 1;
    return r;
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
    const lastReps = s === 0 ? 0 : this.chunks[(s - 1) >> CHUNK_BITS].reps[(s - 1) & IN_CHUNK];
    return { count: this.count, rows: this.rowCount, tuples: this.tupleCount, slots: s, lastReps };
  }

  /** Drops what was logged after `m` (a realtime tick rolled back; the slots are written again). */
  rollback(m: EventMark): void {
    if (m.count >= this.count) return;
    this.count = m.count;
    this.slots = m.slots;
    if (m.slots !== 0) this.chunks[(m.slots - 1) >> CHUNK_BITS].reps[(m.slots - 1) & IN_CHUNK] = m.lastReps;
    this.rowCount = m.rows;
    // a tuple past the mark is never reused (tupleOf checks the count) and its slots are rewritten
    this.tupleCount = m.tuples;
    this.tupleSlots.length = m.tuples * TUPLE;
    if (this.built.length > m.count) {
      this.built.length = m.count;
      // event m.count is the last slot's next repeat (or the next slot's first event)
      this.readSlot = m.slots === 0 ? 0 : m.slots - 1;
      this.readRep = m.slots === 0 ? 0 : m.lastReps + 1;
    }
  }

  /** Every logged event as the contract's records (the same array on every call, extended as the log grows). */
  toArray(): StrategyEvent[] {
    const out = this.built;
    let slot = this.readSlot;
    let rep = this.readRep;
    for (let i = out.length; i < this.count; i++) {
      // event i exists, so past this slot's repeats there is a next slot
      while (rep > this.chunks[slot >> CHUNK_BITS].reps[slot & IN_CHUNK]) {
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
    const c = this.chunks[slot >> CHUNK_BITS];
    const at = slot & IN_CHUNK;
    const n = c.nums;
    const k = at * NUMS;
    const qty = n[k];
    const limit = n[k + 1];
    const stop = n[k + 2];
    const meta = c.meta[at];
    const d = meta % 3;
    const row = c.rows[at] + rep;
    const rows = this.rowChunks[row >> CHUNK_BITS];
    const r = (row & IN_CHUNK) * ROW;
    const s = this.tupleSlots;
    const j = c.tuples[at] * TUPLE;
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
      bar_index: rows[r],
      bar_time: rows[r + 1],
      ohlc: [rows[r + 2], rows[r + 3], rows[r + 4], rows[r + 5]],
      script_id: s[j + 3] as string,
      run_id: s[j + 4] as string,
    };
  }
}
