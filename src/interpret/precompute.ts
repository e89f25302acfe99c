// Whole-series precompute: top-level stateful ta.* calls whose inputs are known before the bar loop
// (src/check/hoist-plan.ts decides which) run as ONE WASM pass each (src/kernels/series.ts), and the bar
// loop reads the output column instead of calling the builtin. The passes are bit-identical to the
// per-bar state machines the interpreter calls, so both backends agree. Both backends run it: the
// interpreter when every bar is history (hoisting.ts), the compile backend before its generated loop.

import {
  COMPARE,
  CROSS_KIND,
  FIXED_COMPARE,
  type Guard,
  HILO_KIND,
  MIN_LENGTH,
  PIVOT_KIND,
  RISE_DIR,
  flagValue,
  tupleSize,
  negatedConst,
  type Call,
  type HoistPlan,
} from "../check/hoist-plan.js";
import type { RExpr } from "../check/ir.js";
import { pass, type SeriesArena } from "../kernels/series.js";
import type { ExecContext } from "../builtins/types.js";
import { inputValue } from "../builtins/input/index.js";
import { sessionStarts, VOLUME_VARIABLE_KIND } from "../builtins/ta/volume.js";
import { LARGE_LENGTH } from "../core/budget.js";
import { COMPOSITE_PRICES, type CompositePrice, compositePrice } from "../core/prices.js";

const ARITH: Record<string, number> = { "+": 0, "-": 1, "*": 2, "/": 3 };

/**
 * A precompute that cannot be done for this run's values (an input length the per-bar call would
 * refuse, or one past LARGE_LENGTH, whose windows the per-bar call checks against the memory budget):
 * the backend runs those calls per bar instead, which reports what is wrong.
 */
export class NotPrecomputable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotPrecomputable";
  }
}

/**
 * `out[i]` = the composite price of bar i. A function of its arguments alone: as a method reading the
 * run's precompute and arena, its optimised code depended on their fields and was thrown away on
 * every other run (V8's "code dependencies"), to run the next one from the interpreter.
 */
function fillPrices(
  price: CompositePrice,
  o: Float64Array,
  h: Float64Array,
  l: Float64Array,
  c: Float64Array,
  out: Float64Array,
): void {
  for (let i = 0; i < out.length; i++) out[i] = price(o[i]!, h[i]!, l[i]!, c[i]!);
}

/** A fixed value the precompute cannot work out (Precompute.fixedValue). */
const UNKNOWN = Symbol("unknown");

/** An input argument's value as the input call reads it (HoistPlan's constArg: a constant, a negated one, a tuple of them). */
function constValue(x: RExpr | undefined): unknown {
  if (x === undefined) return undefined;
  if (x.k === "tuple") return x.elems.map(constValue);
  const negated = negatedConst(x);
  return negated !== null ? negated : (x as { v: unknown }).v;
}

/**
 * One run's precompute: columns of pre-known expressions in the arena (pointers), each computed
 * once, with the same operations in the same order as the bar loop and the per-bar impls.
 */
export class Precompute {
  private readonly memo = new Map<RExpr, number>();
  /** The na column of the candidates in branches the run does not take (hoisted). */
  private unread: number | undefined;
  private readonly tuples = new Map<RExpr, number[]>();

  constructor(
    private readonly plan: HoistPlan,
    private readonly ctx: ExecContext,
    private readonly a: SeriesArena,
  ) {}

  /**
   * The number a hoisted call's parameter holds this run: a constant, or an input's value. An input
   * length the per-bar call would refuse (not an integer >= min) or longer than LARGE_LENGTH throws NotPrecomputable.
   */
  private number(given: RExpr | undefined, min: number | null): number {
    // (a parameter of a function the bar calls once: its call's argument, HoistPlan.resolve)
    const e = given && this.plan.resolve(given);
    if (e && e.k === "const") return e.v as number;
    const negated = e ? negatedConst(e) : null;
    if (negated !== null) return negated;
    const call = e && e.k === "load" ? this.plan.inputs.get(e.v.slot) : undefined;
    if (!call) throw new Error("internal: not a pre-known number");
    const args = call.args.map(constValue);
    const v = inputValue(this.ctx, call.name, args, call.site);
    if (typeof v !== "number" || v !== v || (min !== null && (!Number.isInteger(v) || v < min || v > LARGE_LENGTH))) {
      throw new NotPrecomputable(
        `input '${(e as { v: { name: string } }).v.name}' = ${String(v)} is not a length the whole-series pass takes`,
      );
    }
    return v;
  }

  /** The bars' high, low and close columns, in that order (what the ta.* calls over the bar read). */
  private hlc(): [number, number, number] {
    const c = this.ctx.columns;
    return [this.a.input(c.high), this.a.input(c.low), this.a.input(c.close)];
  }

  /** ta.kc's three columns, or with `width` ta.kcw's one (the same arguments). */
  private keltner(e: Call, width: boolean): number[] {
    const args = e.args;
    const [src, len, mult] = [this.column(args[0]!), this.number(args[1], 1), this.number(args[2], null)];
    return pass.keltner(this.a, src, ...this.hlc(), len, mult, flagValue(args[3], true), width);
  }

  /** The columns of a hoisted tuple call (ta.macd: [macd, signal, histogram]; ta.bb: [middle, upper, lower]; ta.supertrend: [supertrend, direction]). */
  tuple(e: Call): number[] {
    const done = this.tuples.get(e);
    if (done) return done;
    const a = this.a,
      args = e.args;
    const len = (i: number) => this.number(args[i], 1);
    let out: number[];
    if (e.name === "ta.supertrend") out = pass.supertrend(a, ...this.hlc(), this.number(args[0], null), len(1));
    else if (e.name === "ta.kc") out = this.keltner(e, false);
    else if (e.name === "ta.dmi") out = pass.dmi(a, ...this.hlc(), len(0), len(1));
    else {
      const src = this.column(args[0]!);
      out =
        e.name === "ta.bb"
          ? pass.bb(a, src, len(1), this.number(args[2], null))
          : pass.macd(a, src, len(1), len(2), len(3));
    }
    this.tuples.set(e, out);
    return out;
  }

  /**
   * The columns of a hoisted candidate (one, or a tuple call's): for one in a branch this run does
   * not take on any bar (HoistPlan.guards), a column of na the loop never reads, without its pass
   * (which might refuse lengths that branch never runs with).
   */
  hoisted(e: RExpr): number[] {
    if (!this.untaken(e)) return this.columns(e);
    const unread = this.naColumn();
    return Array.from({ length: Math.max(1, e.k === "call" ? tupleSize(e) : 0) }, () => unread);
  }

  /** The columns of a hoisted candidate computed (one, or a tuple call's), whatever its guards. */
  columns(e: RExpr): number[] {
    return e.k === "call" && tupleSize(e) > 0 ? this.tuple(e) : [this.column(e)];
  }

  /** Whether hoisted candidate `e` is in a branch this run takes on no bar (HoistPlan.guards). */
  untaken(e: RExpr): boolean {
    const guards = this.plan.guards.get(e);
    return guards !== undefined && guards.some((g) => this.taken(g) === false);
  }

  /** Whether this run takes branch `g` (on every bar): false, true, or null when its condition cannot be worked out. */
  private taken(g: Guard): boolean | null {
    if (g.k === "if") {
      const v = this.fixedValue(g.cond);
      return typeof v === "boolean" ? v === g.taken : null;
    }
    const j = this.takenCase(g.subject, g.tests);
    return j === null ? null : j === g.index;
  }

  /** The case of a switch fixed for the run that this run takes: its index, -1 for none, null when it cannot be worked out. */
  private takenCase(subjectExpr: RExpr | null, tests: readonly (RExpr | null)[]): number | null {
    const subject = subjectExpr === null ? null : this.fixedValue(subjectExpr);
    if (subject === UNKNOWN) return null;
    for (let j = 0; j < tests.length; j++) {
      const t = tests[j]!;
      if (t === null) return j;
      const v = this.fixedValue(t);
      if (v === UNKNOWN) return null;
      if (subjectExpr === null ? v === true : subject === v) return j;
    }
    return -1;
  }

  /** The column of a switch or ternary fixed for the run (HoistPlan.isPreKnown): the taken side's, or na. */
  private takenColumn(e: RExpr): number {
    let side: RExpr | null;
    if (e.k === "tern") {
      const v = this.fixedValue(e.c);
      if (typeof v !== "boolean") throw new NotPrecomputable("a condition this run's inputs leave open");
      side = v ? e.a : e.b;
    } else if (e.k === "switch") {
      const j = this.takenCase(
        e.subject,
        e.cases.map((c) => c.test),
      );
      if (j === null) throw new NotPrecomputable("a switch this run's inputs leave open");
      side = j < 0 ? null : this.plan.blockValue(e.cases[j]!.body);
    } else throw new Error(`internal: '${e.k}' is not a fixed choice`);
    return side === null ? this.naColumn() : this.column(side);
  }

  /** A column of na (one per run). */
  private naColumn(): number {
    if (this.unread === undefined) {
      this.unread = this.a.alloc();
      this.a.view(this.unread).fill(Number.NaN);
    }
    return this.unread;
  }

  /**
   * The run's value of an expression fixed for the run (HoistPlan.isFixed), computed as the bar loop
   * computes it, or UNKNOWN (an input the run gives no plain value, an na).
   */
  private fixedValue(given: RExpr): unknown {
    const e = this.plan.resolve(given);
    let v: unknown = UNKNOWN;
    switch (e.k) {
      case "const":
        v = e.v;
        break;
      case "load": {
        const init = this.plan.fixedVars.get(e.v.slot);
        const call = this.plan.fixedInputs.get(e.v.slot);
        if (init !== undefined) v = this.fixedValue(init);
        else if (call !== undefined) v = inputValue(this.ctx, call.name, call.args.map(constValue), call.site);
        break;
      }
      case "unary": {
        const x = this.fixedValue(e.e);
        if (e.op === "not" && typeof x === "boolean") v = !x;
        else if (e.op === "-" && typeof x === "number") v = -x;
        break;
      }
      case "bin": {
        const l = this.fixedValue(e.l);
        const r = this.fixedValue(e.r);
        if (l !== UNKNOWN && r !== UNKNOWN) v = FIXED_COMPARE[e.op]!(l, r);
        break;
      }
      case "and":
      case "or": {
        const l = this.fixedValue(e.l);
        const r = this.fixedValue(e.r);
        if (typeof l === "boolean" && typeof r === "boolean") v = e.k === "and" ? l && r : l || r;
        break;
      }
      default:
        break;
    }
    // (na, or anything but a plain value: the branch is not worked out, its calls are computed)
    return (typeof v === "number" && v === v) || typeof v === "string" || typeof v === "boolean" ? v : UNKNOWN;
  }

  /** The column of a pre-known expression. */
  column(e: RExpr): number {
    const done = this.memo.get(e);
    if (done !== undefined) return done;
    const c = this.ctx.columns;
    let out: number;
    if (e.k === "call") out = this.call(e);
    else if (e.k === "ucall") out = this.column(this.plan.pureValue(e)!);
    else if (e.k === "switch" || (e.k === "tern" && this.plan.isFixed(e.c))) out = this.takenColumn(e);
    else if (e.k === "load") {
      const t = this.plan.tupleVars.get(e.v.slot);
      const source = this.plan.sources.get(e.v.slot);
      if (t) out = this.tuple(t.call)[t.index]!;
      else out = source ? this.source(source) : this.column(this.plan.vars.get(e.v.slot)!);
    } else if (e.k === "bvar" && e.def.name === "ta.tr") out = pass.tr(this.a, ...this.hlc(), false);
    else if (e.k === "bvar" && e.def.name === "ta.vwap") out = this.vwap(this.priceColumn(COMPOSITE_PRICES.hlc3));
    else if (e.k === "bvar" && e.def.name in VOLUME_VARIABLE_KIND)
      out = pass.volind(this.a, ...this.hlc(), this.a.input(c.volume), VOLUME_VARIABLE_KIND[e.def.name]!);
    else if (e.k === "bvar" && e.def.name in c) out = this.a.input(c[e.def.name as "close"]);
    else out = this.elementwise(e);
    this.memo.set(e, out);
    return out;
  }

  /**
   * ta.vwap of column `src` anchored at each trading session's first bar (the builtin's own test,
   * asked of every bar as the bar loop asks it), without bands.
   */
  private vwap(src: number): number {
    const anchor = this.a.alloc();
    sessionStarts(this.ctx, this.a.view(anchor));
    return pass.vwap(this.a, src, this.a.input(this.ctx.columns.volume), anchor);
  }

  /** The column of the price source a source input chose for this run (its override or its default). */
  private source(call: Call): number {
    const args = call.args.map(constValue);
    const name = inputValue(this.ctx, call.name, args, call.site);
    const c = this.ctx.columns;
    if (name === "open" || name === "high" || name === "low" || name === "close" || name === "volume")
      return this.a.input(c[name]);
    const price = compositePrice(name);
    // (an override the input refuses: the per-bar call reports it)
    if (price === undefined) throw new NotPrecomputable(`input '${call.name}' = ${String(name)} is not a price source`);
    return this.priceColumn(price);
  }

  /**
   * A composite price's column (core/prices.ts, the definition the variables' getters and the source
   * inputs use): a call on four numbers per bar, no getter reading a bar record's fields (their loads
   * are megamorphic, the getters being shared by every context shape: ~30 ns a bar).
   */
  private priceColumn(price: CompositePrice): number {
    const c = this.ctx.columns;
    const out = this.a.alloc();
    fillPrices(price, c.open, c.high, c.low, c.close, this.a.view(out));
    return out;
  }

  private elementwise(e: RExpr): number {
    switch (e.k) {
      case "const": {
        const out = this.a.alloc();
        this.a.view(out).fill(e.v as number);
        return out;
      }
      case "unary": {
        const x = this.column(e.e);
        return pass.arith(this.a, x, x, 4);
      }
      case "bin": {
        // left operand first, as the bar loop evaluates them
        const l = this.column(e.l),
          r = this.column(e.r);
        return pass.arith(this.a, l, r, ARITH[e.op]!);
      }
      case "tern": {
        // the condition first, then both branches (stateless: computing them on every bar changes nothing)
        const c = this.bool(e.c),
          x = this.column(e.a),
          y = this.column(e.b);
        const out = this.a.alloc();
        selectColumns(this.a.f64(), c >>> 3, x >>> 3, y >>> 3, out >>> 3, this.a.n);
        return out;
      }
      case "bvar": {
        // hl2, hlc3, ... (the hoist plan's other bar variables are input columns): their definition on each bar's values
        const price = compositePrice(e.def.name);
        if (price === undefined) throw new Error(`internal: no column for '${e.def.name}'`);
        return this.priceColumn(price);
      }
      default:
        throw new Error(`internal: '${e.k}' is not pre-known`);
    }
  }

  /** The column of a pre-known bool expression: 1 where true, 0 where false. */
  private bool(e: RExpr): number {
    if (e.k === "call") return this.column(e);
    const done = this.memo.get(e);
    if (done !== undefined) return done;
    if (e.k !== "bin") throw new Error(`internal: '${e.k}' is not a pre-known bool`);
    const cmp = COMPARE[e.op]!;
    const l = this.column(e.l),
      r = this.column(e.r);
    const out = this.a.alloc();
    compareColumns(this.a.f64(), cmp, l >>> 3, r >>> 3, out >>> 3, this.a.n);
    this.memo.set(e, out);
    return out;
  }

  private call(e: Call): number {
    const a = this.a,
      args = e.args,
      c = this.ctx.columns;
    const len = (i: number) => this.number(args[i], MIN_LENGTH[e.name] ?? 1);
    if (e.name in PIVOT_KIND) {
      const src = args[2] === undefined ? a.input(PIVOT_KIND[e.name] === 0 ? c.high : c.low) : this.column(args[2]);
      return pass.pivot(a, src, this.number(args[0], 0), this.number(args[1], 0), PIVOT_KIND[e.name]!);
    }
    if (e.name in HILO_KIND) {
      const kind = HILO_KIND[e.name]!;
      if (args[1] === undefined) return pass.hilo(a, a.input((kind & 1) === 0 ? c.high : c.low), len(0), kind);
      return pass.hilo(a, this.column(args[0]!), len(1), kind);
    }
    if (e.name in CROSS_KIND) return pass.cross(a, this.column(args[0]!), this.column(args[1]!), CROSS_KIND[e.name]!);
    if (e.name in RISE_DIR) return pass.rise(a, this.column(args[0]!), len(1), RISE_DIR[e.name]!);
    switch (e.name) {
      case "ta.atr":
        return pass.atr(a, ...this.hlc(), len(0));
      case "ta.tr":
        return pass.tr(a, ...this.hlc(), flagValue(args[0], false));
      case "ta.wpr":
        return pass.wpr(a, ...this.hlc(), len(0));
      case "ta.sar":
        return pass.sar(
          a,
          ...this.hlc(),
          this.number(args[0], null),
          this.number(args[1], null),
          this.number(args[2], null),
        );
      case "ta.valuewhen":
        return pass.valuewhen(a, this.bool(args[0]!), this.column(args[1]!), this.number(args[2], 0));
      case "ta.barssince":
        return pass.barssince(a, this.bool(args[0]!));
      case "ta.correlation":
        // (both sources, then the length, as the per-bar call reads them)
        return pass.correlation(a, this.column(args[0]!), this.column(args[1]!), len(2));
      case "ta.stoch":
        // (100 * (source - lowest(low))) / (highest(high) - lowest(low)), as the per-bar impl
        return pass.stoch(a, this.column(args[0]!), this.column(args[1]!), this.column(args[2]!), len(3));
    }
    const src = this.column(args[0]!);
    switch (e.name) {
      case "ta.sma":
        return pass.sma(a, src, len(1));
      case "ta.ema":
        return pass.ema(a, src, len(1));
      case "ta.rma":
        return pass.rma(a, src, len(1));
      case "ta.wma":
        return pass.wma(a, src, len(1));
      case "ta.rsi":
        return pass.rsi(a, src, len(1));
      case "ta.stdev":
        return pass.stdev(a, src, len(1), flagValue(args[2], true));
      case "ta.change":
        return pass.change(a, src, args[1] === undefined ? 1 : len(1));
      case "ta.mom":
        return pass.mom(a, src, len(1), 0);
      case "ta.roc":
        return pass.mom(a, src, len(1), 1);
      case "ta.cci":
        return pass.cci(a, src, len(1));
      case "ta.cmo":
        return pass.cmo(a, src, len(1));
      case "ta.mfi":
        return pass.mfi(a, src, a.input(c.volume), len(1));
      case "ta.vwma":
        return pass.vwma(a, src, a.input(c.volume), len(1));
      case "ta.hma":
        return pass.hma(a, src, len(1));
      case "ta.dev":
        return pass.dev(a, src, len(1));
      case "ta.variance":
        return pass.variance(a, src, len(1), flagValue(args[2], true));
      case "ta.percentrank":
        return pass.percentrank(a, src, len(1));
      case "ta.vwap":
        return this.vwap(src);
      case "ta.bbw":
        return pass.bbw(a, src, len(1), this.number(args[2], null));
      case "ta.kcw":
        return this.keltner(e, true)[0]!;
      case "ta.cog":
        return pass.cog(a, src, len(1));
      case "ta.median":
        return pass.median(a, src, len(1));
      case "ta.swma":
        return pass.swma(a, src);
      case "ta.cum":
        return pass.cum(a, src);
      case "ta.tsi":
        return pass.tsi(a, src, len(1), len(2));
      case "ta.alma":
        return pass.alma(
          a,
          src,
          len(1),
          this.number(args[2], null),
          this.number(args[3], null),
          flagValue(args[4], false),
        );
      case "ta.linreg": {
        // (the per-bar call's offset: truncated, na as 0)
        const off = Math.trunc(this.number(args[2], null));
        return pass.linreg(a, src, len(1), off === off ? off : 0);
      }
    }
    throw new Error(`internal: no series kernel for ${e.name}`);
  }
}

// The loops over whole columns live in plain functions of a typed array and numbers: as methods they
// were optimised on the fly with this run's Precompute and arena in their code, objects whose hidden
// classes die with the run, so a full GC between runs threw that code away and the next run compiled
// it again (bench10 compile with a gc() before each run: every other run 19 -> 28-30 ms CPU).

/** Column O = column C ? column X : column Y, over n values of the memory f (column offsets in f64 units). */
function selectColumns(f: Float64Array, C: number, X: number, Y: number, O: number, n: number): void {
  for (let i = 0; i < n; i++) f[O + i] = f[C + i] === 1 ? f[X + i]! : f[Y + i]!;
}

/** Column O = cmp(column L, column R) as 1 or 0, over n values of the memory f. */
function compareColumns(
  f: Float64Array,
  cmp: (a: number, b: number) => boolean,
  L: number,
  R: number,
  O: number,
  n: number,
): void {
  for (let i = 0; i < n; i++) f[O + i] = cmp(f[L + i]!, f[R + i]!) ? 1 : 0;
}
