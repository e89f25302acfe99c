// Realtime rollback of mutable objects (service.md 1.4: "non-varip state is rolled back before each
// tick"). RunState.snapshot copies variable slots, i.e. references; the arrays, maps, matrices and
// UDT objects behind them are mutated in place by push/put/field :=, so their content is saved here
// at a realtime bar's first tick and written back (in place: identity kept, every reference stays
// valid) before each later tick. Historical bars never come here.
//
// What rolls back (the user manual's Objects page: "assigning an object to a variable that uses
// varip does not automatically allow the object's fields to persist without rolling back on each
// intrabar update. One must apply the keyword to each desired field in the type declaration"):
//  - a UDT object's non-varip fields, always (whoever holds the object); its varip fields never;
//  - an array, map or matrix reachable from rolled-back state: a non-varip variable slot, a
//    history ring of one, or a non-varip UDT field (transitively through collection elements);
//  - a collection reachable only through varip variables or varip fields keeps every tick's change;
//    one reachable both ways rolls back (docs/compatibility.md).
// Drawings are not traversed: the drawing store rolls them back itself (drawing/store.ts).
// Builtin call-site states that are plain objects of primitives mutated in place (math.random's seeded
// generator, timeframe.change's period cache, ...) are saved and restored the same way; states holding
// buffers manage ticks themselves (math.sum) or live in kernel memory (ta.*, rolled back by the kernels).
import type { ResolvedProgram } from "../check/ir.js";
import { PineArray, PineMap, PineMatrix, PineObject } from "../core/values.js";
import type { RunState } from "./state.js";

export class ObjectRollback {
  private readonly varipSlot: Uint8Array;
  /** Per UDT name: which fields are varip (absent: none). */
  private readonly varipFields = new Map<string, boolean[]>();
  // saved content, parallel lists (reused between bars)
  private readonly arrays: PineArray<unknown>[] = [];
  private readonly arrayVals: unknown[][] = [];
  private readonly maps: PineMap<unknown, unknown>[] = [];
  private readonly mapEntries: [unknown, unknown][][] = [];
  private readonly matrices: PineMatrix<unknown>[] = [];
  private readonly matrixData: { rows: number; cols: number; data: unknown[] }[] = [];
  private readonly objects: PineObject[] = [];
  private readonly objectFields: unknown[][] = [];
  private readonly siteStates: Record<string, unknown>[] = [];
  private readonly siteCopies: Record<string, unknown>[] = [];
  // traversal marks: collections saved (rolled) or walked as kept; objects walked
  private readonly rolled = new Set<object>();
  private readonly kept = new Set<object>();
  private readonly walked = new Set<object>();
  private readonly stack: { v: unknown; roll: boolean }[] = [];

  constructor(
    prog: ResolvedProgram,
    private readonly state: RunState,
  ) {
    this.varipSlot = new Uint8Array(prog.slots.length);
    for (const s of prog.varipSlots) this.varipSlot[s] = 1;
    for (const [name, info] of prog.udts) {
      if (info.fields.some((f) => f.varip))
        this.varipFields.set(
          name,
          info.fields.map((f) => f.varip === true),
        );
    }
  }

  /** True when nothing can need a rollback (no object slot, no builtin call site): the caller may skip save/restore. */
  static needed(prog: ResolvedProgram): boolean {
    return prog.siteCount > 0 || prog.slots.some((s) => !isValueType(s.type.name));
  }

  /** Saves the content of every object the state reaches: call at the first tick of a realtime bar. */
  save(): void {
    this.clear();
    const vals = this.state.vals;
    const slot = this.varipSlot;
    for (let i = 0; i < slot.length; i++) this.push(vals[i], slot[i] === 0);
    for (const ring of this.state.rings) {
      if (ring.buf instanceof Float64Array) continue;
      const n = Math.min(ring.count, ring.capacity);
      const roll = slot[ring.slot] === 0;
      for (let k = 0; k < n; k++) this.push(ring.buf[k], roll);
    }
    this.walk();
    for (const site of this.state.sites) {
      const st = site.state as unknown;
      if (isPrimitiveRecord(st)) {
        this.siteStates.push(st);
        this.siteCopies.push({ ...st });
      }
    }
  }

  /** Writes the saved content back into the same objects: call before each later tick of the bar. */
  restore(): void {
    for (let i = 0; i < this.arrays.length; i++) {
      const dst = this.arrays[i]!.values;
      const src = this.arrayVals[i]!;
      dst.length = src.length;
      for (let j = 0; j < src.length; j++) dst[j] = src[j];
    }
    for (let i = 0; i < this.maps.length; i++) {
      const m = this.maps[i]!.map;
      m.clear();
      for (const [k, v] of this.mapEntries[i]!) m.set(k, v);
    }
    for (let i = 0; i < this.matrices.length; i++) {
      const mx = this.matrices[i]!;
      const s = this.matrixData[i]!;
      mx.rows = s.rows;
      mx.cols = s.cols;
      mx.data.length = s.data.length;
      for (let j = 0; j < s.data.length; j++) mx.data[j] = s.data[j];
    }
    for (let i = 0; i < this.objects.length; i++) {
      const o = this.objects[i]!;
      const src = this.objectFields[i]!;
      const keep = this.varipFields.get(o.typeName);
      for (let j = 0; j < src.length; j++) if (!keep?.[j]) o.fields[j] = src[j] as never;
    }
    for (let i = 0; i < this.siteStates.length; i++) Object.assign(this.siteStates[i]!, this.siteCopies[i]!);
  }

  /** Number of objects saved at the last save() (for tests and the profiler). */
  get savedCount(): number {
    return this.arrays.length + this.maps.length + this.matrices.length + this.objects.length;
  }

  private clear(): void {
    this.arrays.length = this.arrayVals.length = 0;
    this.maps.length = this.mapEntries.length = 0;
    this.matrices.length = this.matrixData.length = 0;
    this.objects.length = this.objectFields.length = 0;
    this.siteStates.length = this.siteCopies.length = 0;
    this.rolled.clear();
    this.kept.clear();
    this.walked.clear();
  }

  private push(v: unknown, roll: boolean): void {
    if (v !== null && typeof v === "object") this.stack.push({ v, roll });
  }

  /** Depth-first over the object graph (explicit stack: deep chains of objects cannot overflow). */
  private walk(): void {
    const st = this.stack;
    while (st.length > 0) {
      const { v, roll } = st.pop()!;
      if (v instanceof PineObject) {
        if (this.walked.has(v)) continue;
        this.walked.add(v);
        const keep = this.varipFields.get(v.typeName);
        this.objects.push(v);
        this.objectFields.push(v.fields.slice());
        for (let j = 0; j < v.fields.length; j++) this.push(v.fields[j], !keep?.[j]);
        continue;
      }
      if (!(v instanceof PineArray || v instanceof PineMap || v instanceof PineMatrix)) continue;
      if (this.rolled.has(v)) continue;
      if (!roll) {
        if (this.kept.has(v)) continue;
        this.kept.add(v);
      } else {
        this.rolled.add(v);
        this.saveCollection(v);
      }
      if (v instanceof PineArray) for (const x of v.values as unknown[]) this.push(x, roll);
      else if (v instanceof PineMatrix) for (const x of v.data as unknown[]) this.push(x, roll);
      else for (const x of (v.map as Map<unknown, unknown>).values()) this.push(x, roll);
    }
  }

  private saveCollection(v: PineArray<unknown> | PineMap<unknown, unknown> | PineMatrix<unknown>): void {
    if (v instanceof PineArray) {
      this.arrays.push(v);
      this.arrayVals.push(v.values.slice());
    } else if (v instanceof PineMatrix) {
      this.matrices.push(v);
      this.matrixData.push({ rows: v.rows, cols: v.cols, data: v.data.slice() });
    } else {
      this.maps.push(v);
      this.mapEntries.push(Array.from(v.map));
    }
  }
}

/** A plain object whose own values are all primitives (no buffers, objects or functions). */
function isPrimitiveRecord(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Object.getPrototypeOf(v) !== Object.prototype) return false;
  for (const k in v) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== null && typeof x === "object") return false;
    if (typeof x === "function") return false;
  }
  return true;
}

function isValueType(name: string): boolean {
  return (
    name === "int" ||
    name === "float" ||
    name === "bool" ||
    name === "color" ||
    name === "string" ||
    name === "na" ||
    name === "const"
  );
}
