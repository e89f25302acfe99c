// Whole-series precompute: top-level stateful ta.* calls whose inputs are known before the bar loop
// (OHLCV columns, arithmetic on them, constant lengths, and variables assigned once from such
// expressions) run as ONE WASM pass each (src/kernels/series.ts), and the bar loop reads the output
// column instead of calling the builtin. The passes are bit-identical to the per-bar state machines
// the interpreter calls, so both backends agree.

import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "../check/ir.js";
import { pass, type SeriesArena } from "../kernels/series.js";
import type { ExecContext } from "../builtins/types.js";
import { inputValue } from "../builtins/input/index.js";

type Call = Extract<RExpr, { k: "call" }>;

/** Bar variables a pre-pass can evaluate from the columns alone (stateless getters of ctx fields). */
const BAR_VARS = new Set(["open", "high", "low", "close", "volume", "hl2", "hlc3", "ohlc4", "hlcc4"]);
const SOURCE_LENGTH = new Set(["ta.sma", "ta.ema", "ta.rma", "ta.wma", "ta.rsi", "ta.highest", "ta.lowest", "ta.highestbars", "ta.lowestbars", "ta.stdev", "ta.change"]);
const HILO_KIND: Record<string, number> = { "ta.highest": 0, "ta.lowest": 1, "ta.highestbars": 2, "ta.lowestbars": 3 };
const CROSS_KIND: Record<string, number> = { "ta.cross": 0, "ta.crossover": 1, "ta.crossunder": 2 };
const TUPLE_SIZE: Record<string, number> = { "ta.macd": 3, "ta.bb": 3 };
const ARITH: Record<string, number> = { "+": 0, "-": 1, "*": 2, "/": 3 };
/** Comparisons a bool column may hold, as the bar loop evaluates them on numbers (na compares false). */
const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

function constInt(e: RExpr | undefined, min: number): number | null {
  if (!e || e.k !== "const" || typeof e.v !== "number") return null;
  return Number.isInteger(e.v) && e.v >= min ? e.v : null;
}

/** Input calls whose value can stand for a constant length or multiplier (read once per run). */
const NUMBER_INPUTS = new Set(["input", "input.int", "input.float"]);

/**
 * A precompute that cannot be done for this run's values (an input length the per-bar call would
 * refuse): the backend runs those calls per bar instead, which reports what is wrong.
 */
export class NotPrecomputable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotPrecomputable";
  }
}

function isNumType(e: RExpr): boolean {
  return e.t.name === "int" || e.t.name === "float";
}

/** Number of values of a hoistable call's tuple result (0: a single value). */
export function tupleSize(e: Call): number {
  return TUPLE_SIZE[e.name] ?? 0;
}

/**
 * What a program may precompute: decides which expressions are known for every bar before the
 * loop. Knows the program's top-level numeric variables that are assigned exactly once, by a plain
 * declaration whose initialiser is itself pre-known (`f = ta.sma(close, 20)`): a read of one is
 * that initialiser's column.
 */
export class HoistPlan {
  readonly vars = new Map<number, RExpr>();
  /** Top-level numeric variables declared once by a hoistable tuple call (`[m, s, h] = ta.macd(...)`): value `index` of `call`. */
  readonly tupleVars = new Map<number, { call: Call; index: number }>();
  /** Top-level variables assigned once from a number input with constant arguments (`len = input.int(14)`). */
  readonly inputs = new Map<number, Call>();

  constructor(prog: ResolvedProgram) {
    const writes = new Map<number, number>();
    const wrote = (v: VarSlot | null | undefined) => { if (v) writes.set(v.slot, (writes.get(v.slot) ?? 0) + 1); };
    walkWrites(prog.body, wrote);
    const once = (v: VarSlot | null): v is VarSlot => !!v && writes.get(v.slot) === 1 && (v.type.name === "int" || v.type.name === "float");
    for (const s of prog.body.stmts) {
      if (s.k === "tdecl" && s.init.k === "call" && tupleSize(s.init) > 0 && this.isHoistableCall(s.init)) {
        const call = s.init;
        s.vs.forEach((v, index) => { if (once(v)) this.tupleVars.set(v.slot, { call, index }); });
        continue;
      }
      if (s.k !== "decl" || s.mode !== "plain" || !once(s.v)) continue;
      if (isNumType(s.init) && this.isPreKnown(s.init)) this.vars.set(s.v.slot, s.init);
      else if (s.init.k === "call" && NUMBER_INPUTS.has(s.init.name) && s.init.args.every((x) => x === undefined || x.k === "const")) this.inputs.set(s.v.slot, s.init);
    }
  }

  /** True when `e` is a numeric series computable for every bar before the loop. */
  isPreKnown(e: RExpr): boolean {
    switch (e.k) {
      case "const":
        return typeof e.v === "number";
      case "load":
        return this.vars.has(e.v.slot) || this.tupleVars.has(e.v.slot);
      case "bvar":
        return BAR_VARS.has(e.def.name) || e.def.name === "ta.tr";
      case "unary":
        return e.op === "-" && isNumType(e.e) && this.isPreKnown(e.e);
      case "bin":
        return ["+", "-", "*", "/"].includes(e.op) && !e.str && !e.intDiv && isNumType(e.l) && isNumType(e.r) && this.isPreKnown(e.l) && this.isPreKnown(e.r);
      case "call":
        return this.isHoistableCall(e) && isNumType(e);
      case "tern":
        // the branches are evaluated on some bars only: they may not hold a stateful call
        return isNumType(e) && this.isPreKnownBool(e.c) && isNumType(e.a) && isNumType(e.b) && this.isStateless(e.a) && this.isStateless(e.b);
      default:
        return false;
    }
  }

  /** True when `e` is a bool series computable for every bar before the loop (a column of 1/0). */
  isPreKnownBool(e: RExpr): boolean {
    if (e.t.name !== "bool") return false;
    if (e.k === "call") return e.name in CROSS_KIND && this.isHoistableCall(e);
    return e.k === "bin" && e.op in COMPARE && !e.str && isNumType(e.l) && isNumType(e.r) && this.isPreKnown(e.l) && this.isPreKnown(e.r);
  }

  /** A pre-known numeric expression without a stateful call (its value on a bar does not depend on the bars it ran on). */
  private isStateless(e: RExpr): boolean {
    switch (e.k) {
      case "const": case "load": return this.isPreKnown(e);
      case "bvar": return BAR_VARS.has(e.def.name);
      case "unary": return this.isPreKnown(e) && this.isStateless(e.e);
      case "bin": return this.isPreKnown(e) && this.isStateless(e.l) && this.isStateless(e.r);
      default: return false;
    }
  }

  private source(e: RExpr | undefined): boolean {
    return !!e && isNumType(e) && this.isPreKnown(e);
  }

  /** A ta.* call with a series kernel, pre-known sources and constant valid lengths. */
  isHoistableCall(e: Call): boolean {
    const a = e.args;
    if (SOURCE_LENGTH.has(e.name)) {
      if (e.name in HILO_KIND && a[0] && a[1] === undefined) {
        // one-argument form: the length alone, the source is high/low
        return this.len(a[0], 1) && a.length <= 2;
      }
      if (a.length > 3 || !this.source(a[0])) return false;
      if (e.name === "ta.change") return (a[1] === undefined || this.len(a[1], 0)) && a[2] === undefined;
      if (!this.len(a[1], 1)) return false;
      if (e.name === "ta.stdev") return a[2] === undefined || (a[2].k === "const" && typeof a[2].v === "boolean");
      return a[2] === undefined;
    }
    if (e.name in CROSS_KIND) return a.length === 2 && this.source(a[0]) && this.source(a[1]);
    if (e.name === "ta.bb") return a.length === 3 && this.source(a[0]) && this.len(a[1], 1) && a[2] !== undefined && ((a[2].k === "const" && typeof a[2].v === "number") || this.isInput(a[2]));
    if (e.name === "ta.macd") return a.length === 4 && this.source(a[0]) && [1, 2, 3].every((i) => this.len(a[i], 1));
    if (e.name === "ta.stoch") return a.length === 4 && [0, 1, 2].every((i) => this.source(a[i])) && this.len(a[3], 1);
    if (e.name === "ta.atr") return this.len(a[0], 1) && a.length === 1;
    if (e.name === "ta.tr") return a.length <= 1 && (a[0] === undefined || (a[0].k === "const" && typeof a[0].v === "boolean"));
    return false;
  }

  /** A length known before the loop: a constant int >= min, or an int input read once per run. */
  private len(e: RExpr | undefined, min: number): boolean {
    return constInt(e, min) !== null || (!!e && e.t.name === "int" && this.isInput(e));
  }

  private isInput(e: RExpr): boolean {
    return e.k === "load" && this.inputs.has(e.v.slot);
  }
}

/** request.* expressions run in another context: never precomputed from the chart's columns. */
const REQUEST_CALLS = new Set(["request.security", "request.security_lower_tf"]);

/**
 * The hoistable calls of one top-level statement at positions evaluated on every bar (not in a `var`
 * initialiser, a branch, the lazy side of and/or, a function body or a request's expression), in
 * source order. Shared by the compile backend and the interpreter so both precompute the same calls.
 */
export function everyBarHoists(s: RStmt, plan: HoistPlan, found: (e: RExpr) => void): void {
  const visit = (e: RExpr): void => {
    if ((e.k === "call" && plan.isHoistableCall(e)) || (e.k === "bvar" && e.def.name === "ta.tr")) {
      found(e);
      return;
    }
    switch (e.k) {
      case "unary": case "cast": visit(e.e); break;
      case "bin": visit(e.l); visit(e.r); break;
      case "and": case "or": visit(e.l); if (!e.lazy) visit(e.r); break;
      case "tern": visit(e.c); break;
      case "call": if (!REQUEST_CALLS.has(e.name)) for (const a of e.args) if (a) visit(a); break;
      case "tuple": for (const x of e.elems) visit(x); break;
      case "if": visit(e.cond); break;
      case "switch": if (e.subject) visit(e.subject); else if (e.cases[0]?.test) visit(e.cases[0].test); break;
      case "histExpr": visit(e.e); break;
      default: break;
    }
  };
  if (s.k === "decl" && s.mode === "plain") visit(s.init);
  else if (s.k === "tdecl") visit(s.init);
  else if (s.k === "assign") visit(s.value);
  else if (s.k === "expr") visit(s.e);
}

/** Every variable write of a block, nested blocks and user-function bodies included. */
function walkWrites(b: RBlock, wrote: (v: VarSlot | null | undefined) => void): void {
  const seen = new Set<RBlock>();
  const block = (x: RBlock) => {
    if (seen.has(x)) return;
    seen.add(x);
    for (const s of x.stmts) stmt(s);
  };
  const stmt = (s: RStmt) => {
    switch (s.k) {
      case "decl": wrote(s.v); expr(s.init); break;
      case "tdecl": s.vs.forEach(wrote); expr(s.init); break;
      case "assign": wrote(s.v); expr(s.value); break;
      case "fassign": expr(s.obj); expr(s.value); break;
      case "expr": expr(s.e); break;
      default: break;
    }
  };
  const expr = (e: RExpr | null | undefined): void => {
    if (!e) return;
    switch (e.k) {
      case "if": expr(e.cond); block(e.then); if (e.else) block(e.else); break;
      case "switch": expr(e.subject); for (const c of e.cases) { expr(c.test); block(c.body); } break;
      case "for": wrote(e.counter); expr(e.from); expr(e.to); expr(e.step); block(e.body); break;
      case "forin": wrote(e.index); wrote(e.value); expr(e.iterable); block(e.body); break;
      case "while": expr(e.cond); block(e.body); break;
      case "ucall": e.args.forEach(expr); block(e.inst.body); break;
      case "call": e.args.forEach(expr); break;
      case "tuple": e.elems.forEach(expr); break;
      case "unary": case "cast": expr(e.e); break;
      case "bin": case "and": case "or": expr(e.l); expr(e.r); break;
      case "tern": expr(e.c); expr(e.a); expr(e.b); break;
      case "hist": case "colHist": expr(e.off); break;
      case "histExpr": expr(e.e); expr(e.off); break;
      case "field": case "copy": expr(e.obj); break;
      case "new": e.fields.forEach(expr); break;
      default: break;
    }
  };
  block(b);
}

/** The OHLCV fields a pre-pass getter may read. */
interface BarScratch { open: number; high: number; low: number; close: number; volume: number }

/**
 * One run's precompute: columns of pre-known expressions in the arena (pointers), each computed
 * once, with the same operations in the same order as the bar loop and the per-bar impls.
 */
export class Precompute {
  private readonly memo = new Map<RExpr, number>();
  private readonly tuples = new Map<RExpr, number[]>();

  constructor(
    private readonly plan: HoistPlan,
    private readonly ctx: ExecContext,
    private readonly a: SeriesArena,
  ) {}

  /**
   * The number a hoisted call's parameter holds this run: a constant, or an input's value. An input
   * length the per-bar call would refuse (not an integer >= min) throws NotPrecomputable.
   */
  private number(e: RExpr | undefined, min: number | null): number {
    if (e && e.k === "const") return e.v as number;
    const call = e && e.k === "load" ? this.plan.inputs.get(e.v.slot) : undefined;
    if (!call) throw new Error("internal: not a pre-known number");
    const args = call.args.map((x) => (x === undefined ? undefined : (x as { v: unknown }).v));
    const v = inputValue(this.ctx, call.name, args, call.site);
    if (typeof v !== "number" || v !== v || (min !== null && (!Number.isInteger(v) || v < min))) {
      throw new NotPrecomputable(`input '${(e as { v: { name: string } }).v.name}' = ${String(v)} is not a length the whole-series pass takes`);
    }
    return v;
  }

  /** The columns of a hoisted tuple call (ta.macd: [macd, signal, histogram]; ta.bb: [middle, upper, lower]). */
  tuple(e: Call): number[] {
    const done = this.tuples.get(e);
    if (done) return done;
    const a = this.a, args = e.args;
    const len = (i: number) => this.number(args[i], 1);
    const src = this.column(args[0]!);
    let out: number[];
    out = e.name === "ta.bb" ? pass.bb(a, src, len(1), this.number(args[2], null)) : pass.macd(a, src, len(1), len(2), len(3));
    this.tuples.set(e, out);
    return out;
  }

  /** The column of a pre-known expression. */
  column(e: RExpr): number {
    const done = this.memo.get(e);
    if (done !== undefined) return done;
    const c = this.ctx.columns;
    let out: number;
    if (e.k === "call") out = this.call(e);
    else if (e.k === "load") {
      const t = this.plan.tupleVars.get(e.v.slot);
      out = t ? this.tuple(t.call)[t.index]! : this.column(this.plan.vars.get(e.v.slot)!);
    }
    else if (e.k === "bvar" && e.def.name === "ta.tr") out = pass.tr(this.a, this.a.input(c.high), this.a.input(c.low), this.a.input(c.close), false);
    else if (e.k === "bvar" && e.def.name in c) out = this.a.input(c[e.def.name as "close"]);
    else out = this.elementwise(e);
    this.memo.set(e, out);
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
        const l = this.column(e.l), r = this.column(e.r);
        return pass.arith(this.a, l, r, ARITH[e.op]!);
      }
      case "tern": {
        // the condition first, then both branches (stateless: computing them on every bar changes nothing)
        const c = this.bool(e.c), x = this.column(e.a), y = this.column(e.b);
        const out = this.a.alloc();
        const f = this.a.f64();
        const C = c >>> 3, X = x >>> 3, Y = y >>> 3, O = out >>> 3;
        for (let i = 0; i < this.a.n; i++) f[O + i] = f[C + i] === 1 ? f[X + i]! : f[Y + i]!;
        return out;
      }
      case "bvar": {
        // hl2, hlc3, ...: the builtin's own getter on each bar's values
        const c = this.ctx.columns;
        const bar: BarScratch = { open: 0, high: 0, low: 0, close: 0, volume: 0 };
        const get = e.def.get;
        const out = this.a.alloc();
        const v = this.a.view(out);
        for (let i = 0; i < this.a.n; i++) {
          bar.open = c.open[i]!; bar.high = c.high[i]!; bar.low = c.low[i]!; bar.close = c.close[i]!; bar.volume = c.volume[i]!;
          v[i] = get(bar as unknown as ExecContext, { state: undefined, id: -1 }) as number;
        }
        return out;
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
    const l = this.column(e.l), r = this.column(e.r);
    const out = this.a.alloc();
    const f = this.a.f64();
    const L = l >>> 3, R = r >>> 3, O = out >>> 3;
    for (let i = 0; i < this.a.n; i++) f[O + i] = cmp(f[L + i]!, f[R + i]!) ? 1 : 0;
    this.memo.set(e, out);
    return out;
  }

  private call(e: Call): number {
    const a = this.a, args = e.args, c = this.ctx.columns;
    const len = (i: number) => this.number(args[i], e.name === "ta.change" ? 0 : 1);
    if (e.name in HILO_KIND) {
      const kind = HILO_KIND[e.name]!;
      if (args[1] === undefined) return pass.hilo(a, a.input((kind & 1) === 0 ? c.high : c.low), len(0), kind);
      return pass.hilo(a, this.column(args[0]!), len(1), kind);
    }
    if (e.name in CROSS_KIND) return pass.cross(a, this.column(args[0]!), this.column(args[1]!), CROSS_KIND[e.name]!);
    switch (e.name) {
      case "ta.atr": return pass.atr(a, a.input(c.high), a.input(c.low), a.input(c.close), len(0));
      case "ta.tr": return pass.tr(a, a.input(c.high), a.input(c.low), a.input(c.close), args[0] !== undefined && (args[0] as { v: unknown }).v === true);
      case "ta.stoch":
        // (100 * (source - lowest(low))) / (highest(high) - lowest(low)), as the per-bar impl
        return pass.stoch(a, this.column(args[0]!), this.column(args[1]!), this.column(args[2]!), len(3));
    }
    const src = this.column(args[0]!);
    switch (e.name) {
      case "ta.sma": return pass.sma(a, src, len(1));
      case "ta.ema": return pass.ema(a, src, len(1));
      case "ta.rma": return pass.rma(a, src, len(1));
      case "ta.wma": return pass.wma(a, src, len(1));
      case "ta.rsi": return pass.rsi(a, src, len(1));
      case "ta.stdev": return pass.stdev(a, src, len(1), !(args[2] !== undefined && (args[2] as { v: unknown }).v === false));
      case "ta.change": return pass.change(a, src, args[1] === undefined ? 1 : len(1));
    }
    throw new Error(`internal: no series kernel for ${e.name}`);
  }
}
