// Values of "undetermined type": TradingView checks a function whose parameters have no declared
// type once, generically, and does not report a builtin call with an argument that depends on such a
// parameter or on such a function's result (its probes: `f(x) => x > 0` then `plotshape(f(close), 42)`
// compiles; the same call with `close > open` is CE10123). resin instantiates every call with concrete
// types, so it tracks which variables hold such values to stay as lenient: the published v5 Hull
// Suite passes `_length / 2` (a float) as ta.wma's int length inside `HMA(_src, _length) =>`.

import type { FuncInstance, RExpr, VarSlot } from "./ir.js";

export class Undetermined {
  private readonly slots = new Set<VarSlot>();
  private readonly insts = new WeakSet<FuncInstance>();
  private any = false;

  /** A variable holding an undetermined value (an untyped parameter, or assigned from one). */
  markSlot(v: VarSlot): void {
    this.slots.add(v);
    this.any = true;
  }

  /** An instance of a function with untyped parameters: its result is undetermined. */
  markInstance(inst: FuncInstance): void {
    this.insts.add(inst);
    this.any = true;
  }

  /** Marks `v` when `value` is undetermined (declarations, reassignments, loop variables). */
  follow(v: VarSlot, value: RExpr | null | undefined): void {
    if (value && this.has(value)) this.markSlot(v);
  }

  /** Does this expression read an undetermined variable or call a function with untyped parameters? */
  has(r: RExpr): boolean {
    return this.any && this.walk(r);
  }

  private walk(node: unknown): boolean {
    if (!node || typeof node !== "object") return false;
    if (Array.isArray(node)) {
      for (const x of node) if (this.walk(x)) return true;
      return false;
    }
    const o = node as { k?: string; v?: unknown; inst?: unknown };
    if ((o.k === "load" || o.k === "hist") && this.slots.has(o.v as VarSlot)) return true;
    if (o.k === "ucall" && this.insts.has(o.inst as FuncInstance)) return true;
    // for..in, not Object.entries: no per-node arrays (this walk runs on every declaration's value)
    const rec = node as Record<string, unknown>;
    for (const key in rec) {
      const val = rec[key];
      // slots, instances, types and builtin definitions are not sub-expressions
      if (
        key === "v" ||
        key === "inst" ||
        key === "t" ||
        key === "def" ||
        key === "counter" ||
        key === "index" ||
        key === "value"
      ) {
        if (key === "value" && val && typeof val === "object" && "k" in val && this.walk(val)) return true;
        continue;
      }
      if (val && typeof val === "object" && this.walk(val)) return true;
    }
    return false;
  }
}
