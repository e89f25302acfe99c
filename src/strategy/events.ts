// StrategyEvent records: every order call the script makes (result.events). A strategy placing its
// brackets on every bar makes hundreds of thousands of them, so the broker logs them in flat columns
// while it runs (no object per call: retained objects are what the garbage collector pays for) and
// builds the contract's records when they are read, normally once, at the end of the run.

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

/** Numbers per event: qty, limit, stop, bar_index, bar_time, open, high, low, close. */
const NUMS = 9;
/** Strings per event: id, oca_name, comment (script_id / run_id: the log's table of them, see `tags`). */
const STRS = 3;
/** Events per chunk: the log grows by chunks, never copying what it holds. */
const CHUNK_BITS = 10;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

class Chunk {
  readonly kinds = new Uint8Array(CHUNK);
  /** 1 long, -1 short, 0 null. */
  readonly dirs = new Int8Array(CHUNK);
  readonly nums = new Float64Array(CHUNK * NUMS);
  readonly strs: (string | null)[] = new Array<string | null>(CHUNK * STRS).fill(null);
  /** Index of the event's (script_id, run_id) pair in the log's table: one pair for a whole run. */
  readonly tags = new Int32Array(CHUNK);
}

/**
 * Chunks of event logs nobody can read any more, for the next runs' logs: a run re-placing an exit on
 * every bar fills a 110 KB chunk every 1024 bars, and allocating them (zeroed typed arrays, a slot
 * array) was a tenth of such a run, plus the collector's work. A log's chunks come back when the log
 * is collected (only the log reaches them); a reused chunk needs no clearing, since push writes every
 * field of an event before count covers it. Bounded; without FinalizationRegistry chunks are new.
 */
const spareChunks: Chunk[] = [];
const MAX_SPARE_CHUNKS = 64;
const reclaim =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry<Chunk[]>((chunks) => {
        for (const c of chunks) if (spareChunks.length < MAX_SPARE_CHUNKS) spareChunks.push(c);
      })
    : null;

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

export class EventLog {
  /** Events logged (a snapshot restore may take the count back). */
  count = 0;

  /** `recording` false: push logs nothing (a run whose events nobody reads; settings.recordEvents). */
  constructor(private readonly recording = true) {
    if (recording) reclaim?.register(this, this.chunks);
  }
  private readonly chunks: Chunk[] = [];
  /** The records built so far (a prefix of the log), handed out by toArray(). */
  private readonly built: StrategyEvent[] = [];
  /** The (script_id, run_id) pairs events were logged under, interleaved; the last one is the current. */
  private readonly tagTable: string[] = [];

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
    const i = this.count;
    const at = i & IN_CHUNK;
    if (at === 0 && i >> CHUNK_BITS === this.chunks.length) this.chunks.push(spareChunks.pop() ?? new Chunk());
    const c = this.chunks[i >> CHUNK_BITS];
    c.kinds[at] = kindCode(kind);
    c.dirs[at] = direction === "long" ? 1 : direction === "short" ? -1 : 0;
    const n = c.nums;
    const k = at * NUMS;
    n[k] = qty;
    n[k + 1] = limit;
    n[k + 2] = stop;
    n[k + 3] = ctx.barIndex;
    n[k + 4] = ctx.time;
    n[k + 5] = ctx.open;
    n[k + 6] = ctx.high;
    n[k + 7] = ctx.low;
    n[k + 8] = ctx.close;
    const s = c.strs;
    const j = at * STRS;
    const ext = ctx.ext;
    s[j] = id;
    s[j + 1] = oca;
    s[j + 2] = comment;
    c.tags[at] = this.tagOf((ext ? str(ext.scriptId) : null) ?? "", (ext ? str(ext.runId) : null) ?? "");
    this.count = i + 1;
  }

  /** The table index of a (script_id, run_id) pair, added when it differs from the last one. */
  private tagOf(scriptId: string, runId: string): number {
    const t = this.tagTable;
    const n = t.length;
    if (n !== 0 && t[n - 2] === scriptId && t[n - 1] === runId) return (n >> 1) - 1;
    t.push(scriptId, runId);
    return n >> 1;
  }

  /** Drops the events after the first `n` (a realtime tick rolled back; their slots are written again). */
  truncate(n: number): void {
    if (n >= this.count) return;
    this.count = n;
    if (this.built.length > n) this.built.length = n;
  }

  /** Every logged event as the contract's records (the same array on every call, extended as the log grows). */
  toArray(): StrategyEvent[] {
    const out = this.built;
    for (let i = out.length; i < this.count; i++) out.push(this.record(i));
    return out;
  }

  private record(i: number): StrategyEvent {
    const c = this.chunks[i >> CHUNK_BITS];
    const at = i & IN_CHUNK;
    const n = c.nums;
    const s = c.strs;
    const k = at * NUMS;
    const j = at * STRS;
    const qty = n[k];
    const limit = n[k + 1];
    const stop = n[k + 2];
    const d = c.dirs[at];
    const tag = c.tags[at] << 1;
    return {
      kind: KINDS[c.kinds[at]],
      id: s[j],
      direction: d > 0 ? "long" : d < 0 ? "short" : null,
      qty: qty === qty ? qty : null,
      order_type:
        limit === limit && stop === stop ? "stop_limit" : limit === limit ? "limit" : stop === stop ? "stop" : "market",
      limit: limit === limit ? limit : null,
      stop: stop === stop ? stop : null,
      oca_name: s[j + 1],
      comment: s[j + 2],
      bar_index: n[k + 3],
      bar_time: n[k + 4],
      ohlc: [n[k + 5], n[k + 6], n[k + 7], n[k + 8]],
      script_id: this.tagTable[tag],
      run_id: this.tagTable[tag + 1],
    };
  }
}
