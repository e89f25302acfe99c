// The per-run mutable state of the interpreter, kept in a few flat structures so that a snapshot
// (for realtime-tick rollback) is a copy of arrays: variable slots, `var` once-flags, history rings
// and builtin call sites.

import type { CallSite } from "../builtins/types.js";
import type { ResolvedProgram, VarSlot } from "../check/ir.js";

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
  readonly once: Uint8Array;
  readonly rings: Ring[] = [];
  readonly sites: CallSite[];

  constructor(prog: ResolvedProgram) {
    this.vals = prog.slots.map((s) => naFor(s, prog.version));
    this.once = new Uint8Array(prog.onceCount);
    this.sites = Array.from({ length: prog.siteCount }, (_, id) => ({ state: undefined, id }));
    for (const s of prog.slots) {
      if (s.hist < 0) continue;
      const numeric = s.type.name === "int" || s.type.name === "float" || s.type.name === "color";
      this.rings[s.hist] = new Ring(s.slot, s.histDepth, numeric, naFor(s, prog.version));
    }
  }

  /** Commits every history-tracked variable's current value: called once at the close of each bar. */
  commit(): void {
    const vals = this.vals;
    const rings = this.rings;
    for (let i = 0; i < rings.length; i++) {
      const r = rings[i]!;
      (r.buf as unknown[])[r.count & r.mask] = vals[r.slot];
      r.count++;
    }
  }
}

export function naFor(s: VarSlot, version: number): unknown {
  const n = s.type.name;
  if (n === "int" || n === "float" || n === "color" || n === "na") return NaN;
  if (n === "bool") return version >= 6 ? false : false;
  return null;
}
