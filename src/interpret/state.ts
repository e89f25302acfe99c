// The per-run mutable state of the interpreter, kept in a few flat structures so that a snapshot
// (for realtime-tick rollback) is a copy of arrays: variable slots, `var` once-flags, history rings
// and builtin call sites. The slots, flags and rings come from a per-program pool, reset to a new
// run's start (the interpreter's kept closures capture them: memo.ts).

import type { CallSite } from "../builtins/types.js";
import type { ResolvedProgram, VarSlot } from "../check/ir.js";
import { countShadowCandidates } from "./shadows.js";
import { detachFlow } from "./memo.js";

/**
 * na as a module constant: the global `NaN` on a branch never taken before V8 optimised the code
 * (setBar's bars before a column's start, on a column read at offset 0) made the other branch's
 * double a new heap number on every read (16 bytes a shadowed column a bar); a constant keeps it raw.
 */
const NA = NaN;

/** A fixed-size ring holding the last `size` committed values of one variable. */
export class Ring {
  readonly mask: number;
  readonly buf: unknown[] | Float64Array;
  /** Number of values committed so far. */
  count = 0;
  constructor(
    readonly slot: number,
    depth: number,
    numeric: boolean,
    readonly na: unknown,
  ) {
    let size = 1;
    while (size < depth + 1) size <<= 1;
    this.mask = size - 1;
    this.buf = numeric ? new Float64Array(size).fill(NaN) : new Array<unknown>(size).fill(na);
  }
  get capacity(): number {
    return this.mask + 1;
  }
}

export class RunState {
  readonly vals: unknown[];
  /** Numeric slots (int, float, colour): no boxing on store. Same indices as `vals`. */
  readonly nums: Float64Array;
  readonly once: Uint8Array;
  /** nums[barBase + k] mirrors the current bar's BAR_FIELDS[k] (fast operand reads). */
  readonly barBase: number;
  /** First shadow slot (see shadows.ts). */
  private readonly shadowBase: number;
  private readonly histShadows: { slot: number; ring: Ring; n: number }[] = [];
  private readonly colShadows: { slot: number; col: Float64Array; n: number }[] = [];
  private readonly shadowKeys = new Map<unknown, Map<number, number>>();
  readonly rings: Ring[];
  readonly sites: CallSite[];
  /**
   * Rings committed at bar close (function-local ones commit at the end of each call): numeric ones
   * (a Float64Array ring of a numeric slot) apart from the rest, so that each commit loop's element
   * reads and writes see one kind of array (one loop over both was a polymorphic access per ring).
   */
  private readonly numRings: Ring[] = [];
  private readonly globalRings: number[] = [];
  /** The storage array each ring commits from. */
  private readonly srcs: (unknown[] | Float64Array)[];
  private released = false;

  /** The slot storage, pooled per program (memo.ts: why runs share it). */
  private readonly storage: Storage;

  constructor(private readonly prog: ResolvedProgram) {
    this.barBase = prog.slots.length;
    this.shadowBase = this.barBase + BAR_FIELDS.length;
    this.storage = takeStorage(prog) ?? newStorage(prog, this.shadowBase + countShadowCandidates(prog));
    this.vals = this.storage.vals;
    this.nums = this.storage.nums;
    this.rings = this.storage.rings;
    this.srcs = this.storage.srcs;
    this.once = this.storage.once;
    this.sites = this.storage.sites;
    for (const s of prog.slots) {
      if (s.hist < 0) continue;
      if (s.fnLocal) continue;
      const r = this.rings[s.hist]!;
      if (r.buf instanceof Float64Array && this.srcs[s.hist] === this.nums) this.numRings.push(r);
      else this.globalRings.push(s.hist);
    }
  }

  /**
   * The run is over: its slot storage goes back to the program's pool, for the next run of the
   * program to compile its kept closures against (memo.ts). Nothing may use this state after.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    giveStorage(this.prog, this.storage);
  }

  /** Bytes the history rings hold (what the run's memory budget is charged for them). */
  ringBytes(): number {
    let bytes = 0;
    for (const r of this.rings) bytes += r.capacity * 8;
    return bytes;
  }

  /**
   * Takes a snapshot of everything a realtime tick may change (into `into`, reused between bars so
   * ticks allocate nothing): variable slots, var once-flags, call-site state references and ring
   * counts (function-local histories advance per call; global ones only at bar close).
   */
  snapshot(into?: StateSnapshot): StateSnapshot {
    const s = into ?? {
      vals: new Array(this.vals.length),
      nums: new Float64Array(this.nums.length),
      once: new Uint8Array(this.once.length),
      states: new Array(this.sites.length),
      counts: new Float64Array(this.rings.length),
    };
    for (let i = 0; i < this.rings.length; i++) s.counts[i] = this.rings[i]!.count;
    for (let i = 0; i < this.vals.length; i++) s.vals[i] = this.vals[i];
    s.nums.set(this.nums);
    s.once.set(this.once);
    for (let i = 0; i < this.sites.length; i++) s.states[i] = this.sites[i]!.state;
    return s;
  }

  /** Rolls back to a snapshot, keeping the current values (and once-flags) of `varip` variables. */
  restore(s: StateSnapshot, keep: number[], keepOnce: number[] = []): void {
    const keptVals = keep.map((k) => this.vals[k]);
    const keptNums = keep.map((k) => this.nums[k]!);
    const keptOnce = keepOnce.map((k) => this.once[k]!);
    for (let i = 0; i < s.vals.length; i++) this.vals[i] = s.vals[i];
    this.nums.set(s.nums);
    this.once.set(s.once);
    keepOnce.forEach((k, j) => {
      this.once[k] = keptOnce[j]!;
    });
    for (let i = 0; i < this.sites.length; i++) this.sites[i]!.state = s.states[i];
    // function-local histories advance per call, also during ticks: wind their counts back
    for (let i = 0; i < this.rings.length; i++) this.rings[i]!.count = s.counts[i]!;
    keep.forEach((k, j) => {
      this.vals[k] = keptVals[j];
      this.nums[k] = keptNums[j]!;
    });
  }

  /**
   * A numeric slot holding `x[n]` of a global ring (updated after each commit) or of a bar column
   * (updated by setBar); undefined when no shadow slot is left.
   */
  shadowOf(source: Ring | Float64Array, n: number): number | undefined {
    let byN = this.shadowKeys.get(source);
    const known = byN?.get(n);
    if (known !== undefined) return known;
    const slot = this.shadowBase + this.histShadows.length + this.colShadows.length;
    if (slot >= this.nums.length) return undefined;
    if (source instanceof Ring) this.histShadows.push({ slot, ring: source, n });
    else this.colShadows.push({ slot, col: source, n });
    if (!byN) this.shadowKeys.set(source, (byN = new Map()));
    byN.set(n, slot);
    return slot;
  }

  /**
   * Mirrors the bar as the script sees it now (the context's fields, set by the caller) into the
   * numeric slots read by fused operators. It reads them off the object instead of taking seven
   * numbers: a call V8 does not inline passes each non-integer double as a new heap number (six
   * allocations a bar).
   */
  setBar(bar: BarView): void {
    const n = this.nums;
    const barIndex = bar.barIndex;
    const cs = this.colShadows;
    for (let i = 0; i < cs.length; i++) {
      const c = cs[i]!;
      n[c.slot] = barIndex - c.n >= 0 ? c.col[barIndex - c.n]! : NA;
    }
    const b = this.barBase;
    n[b] = bar.open;
    n[b + 1] = bar.high;
    n[b + 2] = bar.low;
    n[b + 3] = bar.close;
    n[b + 4] = bar.volume;
    n[b + 5] = bar.time;
    n[b + 6] = barIndex;
  }

  /** Commits every history-tracked variable's current value: called once at the close of each bar. */
  commit(): void {
    const nr = this.numRings;
    const nums = this.nums;
    for (let j = 0; j < nr.length; j++) {
      const r = nr[j]!;
      (r.buf as Float64Array)[r.count & r.mask] = nums[r.slot]!;
      r.count++;
    }
    const rings = this.rings;
    const srcs = this.srcs;
    const g = this.globalRings;
    for (let j = 0; j < g.length; j++) {
      const i = g[j]!;
      const r = rings[i]!;
      (r.buf as unknown[])[r.count & r.mask] = (srcs[i] as unknown[])[r.slot];
      r.count++;
    }
    const hs = this.histShadows;
    for (let i = 0; i < hs.length; i++) {
      const h = hs[i]!;
      const r = h.ring;
      nums[h.slot] = h.n <= r.count ? (r.buf as Float64Array)[(r.count - h.n) & r.mask]! : NaN;
    }
  }

  /**
   * Commits the given rings (a function instance's variables at the end of a call): a closure over
   * the storage only, so that a kept function body can call it (memo.ts).
   */
  ringCommitter(ids: number[]): () => void {
    const rings = this.rings;
    const srcs = this.srcs;
    return () => {
      for (let j = 0; j < ids.length; j++) {
        const i = ids[j]!;
        const r = rings[i]!;
        (r.buf as unknown[])[r.count & r.mask] = (srcs[i] as unknown[])[r.slot];
        r.count++;
      }
    };
  }
}

/**
 * A run's variable storage: slots, `var` once-flags, history rings and builtin call sites. Closures the interpreter keeps
 * across runs capture these (memo.ts), so a program's runs take them from a pool, reset to what a
 * new run starts with.
 */
interface Storage {
  nums: Float64Array;
  vals: unknown[];
  once: Uint8Array;
  rings: Ring[];
  /** Each slot's na (vals' start values). */
  nas: unknown[];
  /** The array each ring commits from (nums or vals). */
  srcs: (unknown[] | Float64Array)[];
  /** The builtin call sites (their state starts undefined). */
  sites: CallSite[];
}

function newStorage(prog: ResolvedProgram, size: number): Storage {
  const nas = prog.slots.map((s) => naFor(s, prog.version));
  const rings: Ring[] = [];
  const nums = new Float64Array(size).fill(NaN);
  const vals = nas.slice();
  const srcs: (unknown[] | Float64Array)[] = [];
  for (const s of prog.slots) {
    if (s.hist < 0) continue;
    const numeric = s.type.name === "int" || s.type.name === "float" || s.type.name === "color";
    rings[s.hist] = new Ring(s.slot, s.histDepth, numeric, naFor(s, prog.version));
    srcs[s.hist] = isNumericSlot(s) ? nums : vals;
  }
  const sites = Array.from({ length: prog.siteCount }, (_, id): CallSite => {
    const typeArgs = prog.siteTypeArgs?.get(id);
    return typeArgs ? { state: undefined, id, typeArgs } : { state: undefined, id };
  });
  return { nums, vals, once: new Uint8Array(prog.onceCount), rings, nas, srcs, sites };
}

/** Each program's storages no run holds (at most two: a run and a request.security one). */
const pool = new WeakMap<ResolvedProgram, Storage[]>();

/** A free storage of the program's, reset to a new run's start, or undefined. */
function takeStorage(prog: ResolvedProgram): Storage | undefined {
  const s = pool.get(prog)?.pop();
  if (s === undefined) return undefined;
  s.nums.fill(NaN);
  for (let i = 0; i < s.nas.length; i++) s.vals[i] = s.nas[i];
  s.once.fill(0);
  for (const r of s.rings) {
    r.count = 0;
    (r.buf as unknown[]).fill(r.na);
  }
  // (a site's tuple buffer, `out`, is scratch space every call fills: it stays)
  for (const site of s.sites) site.state = undefined;
  return s;
}

/**
 * A storage back in the pool lets go of the run that gave it: its call sites' states (a plot site's
 * output and columns, drawings, request.security runs) and the kept closures' flow (the run's
 * context and budget, and through them its plots, bars and broker) would otherwise live until the
 * program's next run, and the run's plot columns would never go back to the plot store for reuse
 * (tests/builtins/plot-columns.test.ts). Numbers hold no references: takeStorage resets those. Object
 * slots and histories (a `var` array) keep the last run's values until the next run takes the
 * storage: cleared here, V8 dropped the kept closures' optimised code at the next GC ("weak
 * objects") and re-optimised them every run (swing_state interpreted 22 -> 30 ms CPU).
 */
function forgetRun(s: Storage): void {
  for (const site of s.sites) site.state = undefined;
  detachFlow(s.nums);
}

function giveStorage(prog: ResolvedProgram, s: Storage): void {
  forgetRun(s);
  let free = pool.get(prog);
  if (free === undefined) pool.set(prog, (free = []));
  if (free.length < 2 && !free.includes(s)) free.push(s);
}

export function naFor(s: VarSlot, _version: number): unknown {
  const n = s.type.name;
  if (n === "int" || n === "float" || n === "color" || n === "na") return NaN;
  if (n === "bool") return false;
  return null;
}

export function isNumericSlot(s: VarSlot): boolean {
  const n = s.type.name;
  return n === "int" || n === "float" || n === "color";
}

/** The bar as the script sees it now (an ExecContext), as setBar reads it. */
export interface BarView {
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  time: number;
  barIndex: number;
}

/** The bar values mirrored into numeric slots, in setBar order. */
export const BAR_FIELDS = ["open", "high", "low", "close", "volume", "time", "bar_index"] as const;

export interface StateSnapshot {
  vals: unknown[];
  nums: Float64Array;
  once: Uint8Array;
  states: unknown[];
  counts: Float64Array;
}
