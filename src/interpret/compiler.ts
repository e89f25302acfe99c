// Turns the resolved program into closures, once per run; the closures then run per bar with no
// AST walking and no name lookups. Control flow inside blocks uses a shared `ctl` flag
// (0 normal, 1 break, 2 continue) that loops consume (memo.ts Flow). Closures that capture only the
// run's slot storage and constants are kept across the program's runs (kept(), memo.ts: why).

import type { BuiltinImpl, CallSite, ExecContext } from "../builtins/types.js";
import { flagCell, packedColor, type PlotOutput } from "../builtins/plot/store.js";
import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "../check/ir.js";
import { PineObject, PineArray, PineMatrix, PineMap } from "../core/values.js";
import { atLine, PineRuntimeError, runtimeError } from "./errors.js";
import { budgetOf, type Budget } from "../core/budget.js";
import { COLUMN_HISTORY_LIMIT, historyCap, historyOffsetMessage } from "../check/history-limits.js";
import { MAX_STRING_LENGTH, stringTooLongMessage } from "../builtins/str/limit.js";
import { MAX_ARRAY_SIZE } from "../builtins/array/index.js";
import { alphaOf } from "../builtins/color/index.js";
import { BAR_FIELDS, isNumericSlot, type RunState } from "./state.js";
import {
  FUSED_COPIES,
  fusedBinary,
  fusedStore,
  fusedStoreVoid,
  fusedCompound,
  fusedTakesCopy,
  lazyAnd,
  lazyAndN,
  lazyOr,
  lazyOrN,
  type Operand,
  colorAlphaCopy,
  directCopy,
  SWITCH_CONST_CASES,
  switchConstCopy,
  eagerAnd,
  eagerAndN,
  eagerOr,
  eagerOrN,
  LOGIC_OPERANDS,
  outputCopy,
  plotCopy,
  storeNumCopy,
  storeValCopy,
  ternCopy,
  ucallCopy,
  pureCopy,
  colShiftCopy,
  columnPair,
  columnCompare,
  columnCompareExpr,
  columnNa,
  type ColumnLeaf,
  type ExprLeaf,
} from "./fused.generated.js";
import { compileSecurity, SECURITY_CALLS } from "./security.js";
import { hoistColumns, kernelsLoaded, planOf, type Hoisted, type HoistedSlots } from "./hoisting.js";
import {
  blockFlat,
  CHUNK_COPIES,
  CHUNK_SIZE,
  chunkFlat,
  DRIVER_COPIES,
  forFlat,
  forInFlat,
  ifFlat,
  seqFlat,
  whileFlat,
} from "./drivers.generated.js";
import { blockAssigns, blockMayCtl } from "./writes.js";
import { inlineTaFn } from "./inline-ta.js";
import { deadDeclarations, invariantStatements, isInputCall } from "./invariant.js";
import { colAt, colAtOther } from "./column-at.js";
import { anyKept, COLUMN_FIELDS, flowOf, keptClosure, keptStats, keyOf, numKey, type Flow } from "./memo.js";
import { INLINE_TA_NAMES, inlineTaSites } from "../check/once-sites.js";
import { isPlainPlot, outputCells, type OutputCells } from "../check/hoist-plan.js";
import {
  countedIfLoop,
  extremeWindowLoop,
  type CountBranch,
  type ExtremeStmt,
  type KernelOperand,
} from "./loop-kernels.js";

export type Fn = () => any;

/** Programs of this many top-level statements or more run them in chunks (Compiler.chunked). */
const CHUNKED_FROM = 8;

/**
 * The latest program's closures, kept until the next one replaces them (as the Runtime keeps the
 * latest run's context and state). Optimised code that inlined a run's closures embeds them weakly:
 * when every run's closures are gone, a full GC throws that code away and the next run starts over
 * in V8's lower tiers (swing_state interpreted at 100k bars: 63 -> 44 ms CPU median with a gc()
 * before each run). The memory is that one program's closure tree.
 */
const kept: { main: Fn | null } = { main: null };

export interface CompileHooks {
  /** Wraps each top-level statement (the profiler's per-line timing). */
  wrapTop?: (fn: Fn, line: number) => Fn;
  /**
   * Precompute hoistable ta.* calls by whole-series passes (hoisting.ts). Only for runs whose bars
   * are all history (no realtime ticks) and without the profiler.
   */
  hoist?: boolean;
}

/**
 * Where a program starts handing out the generated copies (drivers, fused and shape copies; chunks:
 * chunkBaseOf).
 * V8 keeps one type feedback for every closure made from one function literal, across all programs
 * in the process: with every program starting at copy 0, two programs' first chunks, loops and stores
 * shared their copies' call sites, which went polymorphic and stopped inlining, and the program
 * optimised second ran slower for good (swing_state interpreted in a round robin with two other
 * scripts 27-28 ms per 100k bars against 18 alone). Successive programs start 5 copies apart (mod 8),
 * so the first few programs' low copies are disjoint. Fixed per program (kept closures are keyed by
 * copy, memo.ts): a program's later runs take the same copies.
 */
const copyBases = new WeakMap<object, number>();
let nextCopyBase = 0;
export function copyBaseOf(prog: object): number {
  let b = copyBases.get(prog);
  if (b === undefined) {
    b = nextCopyBase;
    nextCopyBase = (nextCopyBase + 5) % DRIVER_COPIES;
    copyBases.set(prog, b);
  }
  return b;
}

/**
 * Where a program's chunks start among the chunk driver's copies (drivers.generated.ts CHUNK_COPIES):
 * each program takes the next `count` copies in turn, so that successive programs' chunks are disjoint
 * until every copy has been handed out (copyBaseOf's stride of 5 over 8 copies left the ninth program
 * sharing every chunk with earlier ones: swing_state run after nine other programs 22 ms against 13
 * alone). Fixed per program, as copyBaseOf.
 */
const chunkBases = new WeakMap<object, number>();
let nextChunkBase = 0;
export function chunkBaseOf(prog: object, count: number): number {
  let b = chunkBases.get(prog);
  if (b === undefined) {
    b = nextChunkBase;
    nextChunkBase = (nextChunkBase + count) % CHUNK_COPIES;
    chunkBases.set(prog, b);
  }
  return b;
}

export class Compiler {
  private readonly base: number;
  /** Break/continue raised in a loop body, and the run's budget (memo.ts Flow). */
  private readonly flow: Flow;
  /** The next copy of each statement-level driver to hand out (drivers.generated.ts). */
  private forCopy = 0;
  private ifCopy = 0;
  private blockCopy = 0;
  private whileCopy = 0;
  private forInCopy = 0;
  /** The next copy of the lazy and/or closures (fused.generated.ts lazyAnd: why). */
  private logicCopy = 0;
  /** The next copy of the fused closures with a sub-closure operand (fused.generated.ts: why). */
  private fusedCopy = 0;
  /** The next copy of the shifted column reader (colShiftCopy). */
  private shiftCopy = 0;
  /** The next copy of each shape of fused.generated.ts's shape copies (stores, ternaries, outputs, direct calls). */
  private readonly shapeCopy = shapeCounts();
  private readonly vals: unknown[];
  private readonly nums: Float64Array;
  /** Hoisted expressions and the numeric slots holding their per-bar values. */
  private readonly hoisted: HoistedSlots;
  private readonly hoisting: Hoisted | null;
  /** The run's time budget: every loop iteration ticks it (src/core/budget.ts). */
  private readonly budget: Budget;
  /**
   * A plain run: the hoisting runs (no wrapTop, so no bar executed twice: no realtime tick, no
   * calc_on_order_fills re-run) with the kernels present; only these precompute columns and write
   * out ta.* steps.
   */
  private readonly plain: boolean;
  /** In a plain run, the call sites whose ta.* step is written out (inline-ta.ts), once asked for. */
  private once: Set<number> | null = null;
  /** The written-out calls by site (one state per site, should a node be compiled twice). */
  private readonly taFns = new Map<number, Fn>();

  constructor(
    private readonly prog: ResolvedProgram,
    private readonly st: RunState,
    private readonly ctx: ExecContext,
    private readonly hooks: CompileHooks = {},
  ) {
    this.vals = st.vals;
    this.nums = st.nums;
    this.base = copyBaseOf(prog);
    // (every copy counter starts at the program's base: see copyBaseOf)
    this.forCopy = this.ifCopy = this.blockCopy = this.whileCopy = this.forInCopy = this.base;
    this.logicCopy = this.fusedCopy = this.shiftCopy = this.base;
    for (const k of Object.keys(this.shapeCopy) as (keyof typeof this.shapeCopy)[]) this.shapeCopy[k] = this.base;
    this.budget = budgetOf(ctx);
    this.flow = flowOf(st.nums, this.budget, ctx);
    this.plain = !!hooks.hoist && !hooks.wrapTop && kernelsLoaded(ctx.kernels);
    this.hoisting = this.plain ? hoistColumns(prog, ctx, st) : null;
    this.hoisted = this.hoisting ? this.hoisting.slots : new Map();
  }

  /**
   * A column-plot program's bulk copy of its plots' values for bars [from, to) (hoisting.ts), for
   * the bar loop to run after the first bar registered the plots; null for any other program.
   */
  get bulk(): ((from: number, to: number) => void) | null {
    return this.hoisting?.bulk ?? null;
  }

  /** Frees what the run's precompute holds (hoisted columns): call after the bar loop. */
  release(): void {
    this.hoisting?.release();
  }

  main(): Fn {
    const body = this.prog.body;
    // (before any statement is compiled: the program's first run over this storage keeps nothing yet)
    const firstRun = !anyKept(this.nums);
    try {
      const fns = body.stmts.map((s) => {
        const f = this.stmt(s, false);
        return this.hooks.wrapTop ? this.hooks.wrapTop(f, s.line) : f;
      });
      const lines = body.stmts.map((s) => s.line);
      for (const f of fns) if (keyOf(f) === null) keptStats.unkeptTop++;
      // a request.security secondary run's statements through the shared loop: the written-out calls
      // of seqFlat are for the chart's program (drivers.generated.ts: why)
      if (this.ctx.ext.securityCapture) return seq(fns, lines, () => 0);
      // chunks from the program's second run on: a first run is mostly V8's warm-up, and five more
      // functions to warm up and optimise cost it more than their inlining gains it (loops interpreted,
      // first run 149 -> 132 ms; docs/benchmarks.md, session 14); the runs after it are the ones that
      // reach the steady state the chunks are for
      // (a program whose every bar runs it once leaves its run-invariant declarations to the first bar
      // and its dead declarations to no bar: invariant.ts)
      const plain = this.hooks.hoist && !this.hooks.wrapTop;
      const skip = plain ? invariantStatements(this.prog) : null;
      const dead = plain ? deadDeclarations(this.prog) : null;
      const keep = (i: number, later: boolean) => !dead?.has(i) && !(later && skip?.has(i));
      const firstFns = fns.filter((_, i) => keep(i, false)),
        firstLines = lines.filter((_, i) => keep(i, false));
      const restFns = fns.filter((_, i) => keep(i, true)),
        restLines = lines.filter((_, i) => keep(i, true));
      const chunk = !firstRun && restFns.length >= CHUNKED_FROM;
      const rest = chunk ? this.chunked(restFns, restLines) : seqFlat(restFns, restLines);
      const first = restFns.length < firstFns.length ? seq(firstFns, firstLines, () => 0) : null;
      const run = first ? firstBarAll(first, rest) : rest;
      invariantBuilds.skipped += firstFns.length - restFns.length;
      invariantBuilds.dead += fns.length - firstFns.length;
      // (a request.security secondary run's closures live as long as the main run's)
      kept.main = run;
      return run;
    } catch (err) {
      this.release();
      throw err;
    }
  }

  /**
   * A long program's top-level statements as chunks called from one loop (drivers.generated.ts
   * chunkFlat: why), at least five so that V8 inlines none of them into the loop, each kept as its
   * statements are. Same order and error lines as seqFlat.
   */
  private chunked(fns: Fn[], lines: number[]): Fn {
    const size = Math.min(CHUNK_SIZE, Math.ceil(fns.length / 5));
    const chunks: Fn[] = [],
      firsts: number[] = [];
    const base = chunkBaseOf(this.prog, Math.ceil(fns.length / size));
    for (let i = 0, c = 0; i < fns.length; i += size, c++) {
      const f = fns.slice(i, i + size),
        l = lines.slice(i, i + size);
      const copy = (base + c) % CHUNK_COPIES;
      const key = this.listKey(f, l);
      chunks.push(this.kept(key && `CH${copy}|${key}`, () => chunkFlat[copy]!(f, l)));
      firsts.push(l[0]!);
    }
    return seq(chunks, firsts, () => 0);
  }

  // ------------------------------------------------------------------ blocks and statements

  /** A nested block: a runtime error leaving statement i gets its line (one try per block run). */
  block(b: RBlock): Fn {
    const fns = b.stmts.map((s, i) => this.stmt(s, i === b.stmts.length - 1));
    const lines = b.stmts.map((s) => s.line);
    const n = fns.length;
    if (n === 0) return () => NaN;
    const key = this.listKey(fns, lines);
    if (n === 1 && !hasCtl(b)) {
      const f = fns[0]!,
        line = lines[0]!;
      return this.kept(key && `B1${key}`, () => () => {
        try {
          return f();
        } catch (err) {
          throw atLine(err, line);
        }
      });
    }
    return this.blockRun(fns, lines, key);
  }

  /**
   * Two or more statements of a nested block through a copy of the block driver (drivers.generated.ts
   * blockFlat): each statement called from a site of its own, where one loop calling them all was a
   * megamorphic site V8 inlines none of them at. Stops after a statement raising break/continue; the
   * value is the last run statement's; an error leaving statement i gets lines[i].
   */
  private blockRun(fns: Fn[], lines: number[], key: string | null): Fn {
    // a copy per block of the program, in turn (drivers.generated.ts: why)
    const copy = this.blockCopy++ % DRIVER_COPIES;
    blockDriverBuilds.count++;
    return this.kept(key && `B${copy}|${key}`, () => blockFlat[copy]!(this.flow, fns, lines));
  }

  /** Two kept closures under `tag` as a key, or null when one is not kept. */
  private pairKey(tag: string, l: Fn, r: Fn): string | null {
    const lk = keyOf(l),
      rk = keyOf(r);
    return lk && rk && `${tag}|${lk}|${rk}`;
  }

  /** Statements (kept closures) with their lines as a key part, or null when one is not kept. */
  private listKey(fns: Fn[], lines: number[]): string | null {
    const ks = fns.map((f) => keyOf(f));
    return ks.includes(null) ? null : `[${ks.map((k, i) => `${lines[i]}:${k}`).join(",")}]`;
  }

  /**
   * A block whose value nobody reads (the body of a statement-level loop or if): every statement is
   * compiled without a value. Same control flow and error lines as block().
   */
  private voidBlock(b: RBlock): () => void {
    const fns = b.stmts.map((s) => this.stmt(s, false));
    const lines = b.stmts.map((s) => s.line);
    const n = fns.length;
    if (n === 0) return this.kept("VB0", () => () => {});
    const key = this.listKey(fns, lines);
    if (n === 1) {
      const f = fns[0]!,
        line = lines[0]!;
      return this.kept(key && `VB1${key}`, () => () => {
        try {
          f();
        } catch (err) {
          throw atLine(err, line);
        }
      });
    }
    // (no statement of a block without break/continue raises the flag: the driver's checks pass)
    return this.blockRun(fns, lines, key);
  }

  /** A statement-level if (its value unread): branches run as void blocks. */
  private ifVoid(e: Extract<RExpr, { k: "if" }>): () => void {
    const flat = this.ifFlat(e);
    if (flat) return flat;
    const then = this.voidBlock(e.then);
    const els = e.else ? this.voidBlock(e.else) : null;
    const tk = keyOf(then),
      ek = els === null ? "-" : keyOf(els);
    const bk = tk && ek && `${tk}|${ek}`;
    if (e.cond.k === "load" && e.cond.v.type.name === "bool" && !this.hoisted.has(e.cond)) {
      const slot = e.cond.v.slot;
      const cv = this.store(e.cond.v);
      const at = `${cv === this.nums ? "N" : "V"}${slot}`;
      if (els === null)
        return this.kept(bk && `IV${at}|${bk}`, () => () => {
          if (cv[slot]) then();
        });
      return this.kept(bk && `IV${at}|${bk}`, () => () => {
        if (cv[slot]) then();
        else els();
      });
    }
    const c = this.expr(e.cond);
    const ck = keyOf(c);
    if (els === null)
      return this.kept(bk && ck && `IVF${ck}|${bk}`, () => () => {
        if (c()) then();
      });
    return this.kept(bk && ck && `IVF${ck}|${bk}`, () => () => {
      if (c()) then();
      else els();
    });
  }

  /** `na(x)` of one numeric non-constant argument, as pureNumericCall takes it (x !== x). */
  private naOfNumber(e: RExpr): e is Extract<RExpr, { k: "call" }> & { args: [RExpr] } {
    if (e.k !== "call" || e.name !== "na" || e.order !== undefined || e.args.length !== 1) return false;
    const a = e.args[0];
    return a !== undefined && isIntOrFloat(a) && a.k !== "const" && !this.hoisted.has(e);
  }

  /**
   * A statement-level if whose branches are one statement each (or no else): the branch statement
   * is called by the if itself, not through a block closure, a lone `break`/`continue` branch sets
   * the loop's flag in place, and a numeric comparison condition (`close[i] > open[i]`) compares its
   * operands here rather than in a closure returning the bool. Same evaluation order, na rules and
   * error lines as ifVoid's general form (an error leaving a branch statement gets its line).
   */
  private ifFlat(e: Extract<RExpr, { k: "if" }>): (() => void) | null {
    const one = (b: RBlock | null): boolean => b === null || b.stmts.length === 1;
    const isCtl = (s: RStmt | undefined) => s !== undefined && (s.k === "break" || s.k === "continue");
    // `if c` then `x := k` and `break` (no else): the statement, then the flag (k 4 / 5), no block between
    const tail = e.else === null && e.then.stmts.length === 2 && isCtl(e.then.stmts[1]) && !isCtl(e.then.stmts[0]);
    if ((!tail && !one(e.then)) || !one(e.else) || this.hoisted.has(e.cond)) return null;
    const branch = (b: RBlock | null) => {
      if (b === null) return { k: 0, f: noop, line: 0 };
      const s = b.stmts[0]!;
      if (s.k === "break" || s.k === "continue") return { k: s.k === "break" ? 1 : 2, f: noop, line: s.line };
      const then = b.stmts[1];
      if (then !== undefined) {
        ifTailBuilds.count++;
        return { k: then.k === "break" ? 4 : 5, f: this.stmt(s, false), line: s.line };
      }
      return { k: 3, f: this.stmt(s, false), line: s.line };
    };
    // the condition: 0 a bool variable's slot, 1 a numeric comparison's operands, 2 its closure
    let ck = 2,
      cs = 0,
      cv: unknown[] | Float64Array = this.nums,
      op = 0,
      l: Fn = noop,
      r: Fn = noop,
      c: Fn = noop;
    const cond = e.cond;
    if (cond.k === "load" && cond.v.type.name === "bool") {
      ck = 0;
      cs = cond.v.slot;
      cv = this.store(cond.v);
    } else if (
      cond.k === "bin" &&
      this.fusable(cond) &&
      COMPARE_OPS.includes(cond.op) &&
      this.columnCompareSides(cond) === null &&
      this.columnExprSides(cond) === null
    ) {
      // (not a bar column's: those compare in one closure, columnCompareOf, called as the condition)
      ck = 1;
      op = COMPARE_OPS.indexOf(cond.op);
      l = this.expr(cond.l);
      r = this.expr(cond.r);
    } else if (this.naOfNumber(cond) && this.columnLeaf(cond.args[0]!) !== null) {
      // `if na(high[j])`: the column read and tested in one closure (columnNaOf)
      c = this.expr(cond);
    } else if (this.naOfNumber(cond)) {
      // `if na(x)`: x's closure called by the driver, x !== x there (op 6; r the same closure, never called)
      ck = 1;
      op = 6;
      l = r = this.expr(cond.args[0]!);
      ifNaBuilds.count++;
    } else c = this.expr(cond);
    const t = branch(e.then),
      el = branch(e.else);
    // a copy of the driver per if of the program, in turn (drivers.generated.ts: why)
    const copy = this.ifCopy++ % DRIVER_COPIES;
    const drive = ifFlat[copy]!;
    const fk = (f: Fn, used: boolean) => (used ? keyOf(f) : "");
    const parts = [fk(l, ck === 1), fk(r, ck === 1), fk(c, ck === 2), fk(t.f, t.k >= 3), fk(el.f, el.k === 3)];
    const at = ck === 0 ? `${cv === this.nums ? "N" : "V"}${cs}` : "";
    const key = parts.includes(null)
      ? null
      : `if${copy}|${ck}|${at}|${op}|${t.k}:${t.line}|${el.k}:${el.line}|${parts.join("|")}`;
    return this.kept(key, () =>
      drive({
        flow: this.flow,
        ck,
        cs,
        cv,
        op,
        l,
        r,
        c,
        tk: t.k,
        tf: t.f,
        tline: t.line,
        ek: el.k,
        ef: el.f,
        eline: el.line,
      }),
    );
  }

  /** `wantValue` false: the statement's value is never read (no need to return, or box, it). */
  stmt(s: RStmt, wantValue = true): Fn {
    const vals = this.vals;
    switch (s.k) {
      case "expr":
        // a loop or an if whose value nobody reads: its body's last statement need not return (box) one
        if (!wantValue && s.e.k === "for" && !this.hoisted.has(s.e)) return this.forLoopVoid(s.e);
        if (!wantValue && s.e.k === "if" && !this.hoisted.has(s.e)) return this.ifVoid(s.e);
        if (!wantValue && s.e.k === "forin" && !this.hoisted.has(s.e)) return this.forInVoid(s.e);
        if (!wantValue && s.e.k === "while" && !this.hoisted.has(s.e)) return this.whileVoid(s.e);
        if (!wantValue && s.e.k === "ucall" && !this.hoisted.has(s.e)) return this.ucallExpr(s.e, false);
        return this.expr(s.e);
      case "decl": {
        const slot = s.v.slot;
        const vals = this.store(s.v);
        if (s.mode === "plain" && vals === this.nums) {
          const fused = this.fusedStore(s.init, slot, wantValue) ?? this.copyStore(s.init, slot, wantValue);
          if (fused) return fused;
        }
        if (s.mode === "plain" && vals === this.vals) {
          const element = this.elementStore(s.init, slot);
          if (element) return element;
        }
        const init = this.convert(this.expr(s.init), s.init, s.v.type.name);
        const ik0 = keyOf(init);
        if (s.mode === "plain") return this.storeCopy(vals, slot, init, wantValue);
        const once = this.st.once;
        const id = s.once;
        const at = `${id}|${vals === this.nums ? "N" : "V"}${slot}|${ik0}`;
        // (a numeric value returned from a statement nobody reads would be boxed on every bar)
        if (!wantValue)
          return this.kept(ik0 && `O${at}`, () => () => {
            if (once[id] === 0) {
              once[id] = 1;
              vals[slot] = init();
            }
          });
        return this.kept(ik0 && `O=${at}`, () => () => {
          if (once[id] === 0) {
            once[id] = 1;
            vals[slot] = init();
          }
          return vals[slot];
        });
      }
      case "tdecl": {
        if (!wantValue) {
          const copy = this.hoistedTupleStore(s);
          if (copy) return copy;
        }
        const init = this.expr(s.init);
        const slots = s.vs.map((v) => (v ? v.slot : -1));
        const stores = s.vs.map((v) => (v ? this.store(v) : vals));
        const ik = keyOf(init);
        const to = s.vs.map((v) => (v ? `${isNumericSlot(v) ? "N" : "V"}${v.slot}:${v.type.name}` : "-")).join(",");
        const key = ik && `TD${mayRunZeroTimes(s.init) ? "z" : ""}|${to}|${ik}`;
        return this.kept(key, () => {
          const assign = (arr: unknown[]) => {
            for (let i = 0; i < slots.length; i++) if (slots[i]! >= 0) (stores[i] as unknown[])[slots[i]!] = arr[i];
            return arr;
          };
          if (!mayRunZeroTimes(s.init)) return () => assign(init() as unknown[]);
          // a tuple-valued loop that ran zero times yields na: each variable takes its type's na
          const nas = s.vs.map((v) => (v ? naOfType(v.type.name) : undefined));
          return () => {
            const arr = init() as unknown[] | null | undefined;
            assign(arr ?? nas);
            return arr;
          };
        });
      }
      case "assign": {
        const slot = s.v.slot;
        const vals = this.store(s.v) as any[];
        const op = combine(s.op, !!s.intDiv, !!s.str);
        if (
          !op &&
          !wantValue &&
          vals === (this.nums as unknown) &&
          s.value.k === "call" &&
          !this.hoisted.has(s.value)
        ) {
          const extreme = this.extremeCall(s.value, slot);
          if (extreme) return extreme;
        }
        if (!op && vals === this.vals) {
          const element = this.elementStore(s.value, slot);
          if (element) return element;
        }
        const value = this.convert(this.expr(s.value), s.value, s.v.type.name);
        if (!op && vals === (this.nums as unknown)) {
          const fused = this.fusedStore(s.value, slot, wantValue) ?? this.copyStore(s.value, slot, wantValue);
          if (fused) return fused;
        }
        if (!op) return this.storeCopy(vals, slot, value, wantValue);
        if (vals === (this.nums as unknown) && !s.str && (s.op === "+=" || s.op === "-=" || s.op === "*=")) {
          const arith = this.compoundStore(s.op, slot, s.value, value, wantValue);
          if (arith) return arith;
        }
        // (op is a function of the statement's operator and flags, which the key names)
        const vk = keyOf(value);
        const ok = `${s.op}${s.intDiv ? "i" : ""}${s.str ? "s" : ""}`;
        return this.kept(
          vk && `${vals === (this.nums as unknown) ? "" : "V"}${ok}${slot}|G${vk}`,
          () => () => (vals[slot] = op(vals[slot], value())),
        );
      }
      case "fassign": {
        const value = this.expr(s.value);
        const idx = s.index;
        const op = combine(s.op, !!s.intDiv, !!s.str);
        const flow = this.flow;
        const at = this.objectSlot(s.obj);
        const vk = keyOf(value);
        if (at >= 0) {
          // `z.top := v` on a variable: its slot read in place (the object before the value, as below)
          const V = this.vals;
          const key = vk && `fa${s.op}${s.intDiv ? "i" : ""}${s.str ? "s" : ""}|${idx}|V${at}|${vk}`;
          return this.kept(key, () => () => {
            const o = V[at] as PineObject | null;
            if (o === null) return flow.ctx.runtimeError("Cannot assign a field of an na object");
            const v = value();
            return (o.fields[idx] = op ? op(o.fields[idx], v) : (v as any));
          });
        }
        const obj = this.expr(s.obj);
        const ok = keyOf(obj);
        const key = ok && vk && `fa${s.op}${s.intDiv ? "i" : ""}${s.str ? "s" : ""}|${idx}|${ok}|${vk}`;
        return this.kept(key, () => () => {
          const o = obj() as PineObject | null;
          if (o === null) return flow.ctx.runtimeError("Cannot assign a field of an na object");
          const v = value();
          return (o.fields[idx] = op ? op(o.fields[idx], v) : (v as any));
        });
      }
      case "break": {
        const flow = this.flow;
        return this.kept("brk", () => () => ((flow.ctl = 1), NaN));
      }
      case "continue": {
        const flow = this.flow;
        return this.kept("cnt", () => () => ((flow.ctl = 2), NaN));
      }
    }
  }

  /** v6 bools are never na: a declaration of bool type turns na into false. */
  private convert(f: Fn, e: RExpr, to: string): Fn {
    const fk = keyOf(f);
    if (to === "bool" && e.t.name !== "bool")
      return this.kept(fk && `tb|${fk}`, () => () => {
        const v = f();
        return v === true;
      });
    return f;
  }

  // ------------------------------------------------------------------ expressions

  expr(e: RExpr): Fn {
    const hoisted = this.hoisted.get(e);
    if (hoisted) return this.hoistedRead(hoisted, e.t.name === "bool");
    switch (e.k) {
      case "const": {
        const v = e.v;
        return this.kept(constKey(v), () => () => v);
      }
      case "load": {
        const slot = e.v.slot;
        const vals = this.store(e.v);
        return this.kept(`${vals === this.nums ? "L" : "LV"}${slot}`, () => () => vals[slot]);
      }
      case "hist":
        return this.hist(e.v, e.off, e.n, this.expr({ k: "load", v: e.v, t: e.t }));
      case "histExpr": {
        const inner = this.expr(e.e);
        const slot = e.v.slot;
        const vals = this.store(e.v);
        if (e.n === 0) return inner;
        const read = this.hist(e.v, e.off, e.n, this.expr({ k: "load", v: e.v, t: e.t }));
        const rk = keyOf(read),
          ik = keyOf(inner);
        return this.kept(rk && ik && `hx${vals === this.nums ? "N" : "V"}${slot}|${ik}|${rk}`, () => () => {
          vals[slot] = inner();
          return read();
        });
      }
      case "colHist": {
        const n = e.n;
        // offset 0 is the bar as the script sees it now (its mirrored slot, which RunState.setBar
        // keeps in step with ctx), not the column: inside a bar (a realtime tick, a
        // calc_on_order_fills re-run) the column holds the bar's final values
        const N = this.nums,
          flow = this.flow,
          ci = columnIndex(e.col),
          cur = this.barSlot(e.col);
        if (n === 0) return this.kept(`L${cur}`, () => () => N[cur]);
        if (n !== null)
          return this.kept(`ch${ci}|${n}`, () => () => {
            const i = flow.ctx.barIndex - n;
            return i >= 0 ? flow.cols[ci]![i] : NaN;
          });
        const offSlot = this.slotOf(e.off);
        if (offSlot !== undefined) return this.columnAtSlot(e)!;
        const shift = this.slotPlusConst(e.off);
        if (shift !== null) {
          // `high[j - 1]`, `close[i + 1]`: the offset added here, no offset closure called (one whose
          // call site every such read of the process shares, polymorphic across loops)
          const { slot, add } = shift;
          columnShiftBuilds.count++;
          // (a copy per read of the program, in turn: fused.generated.ts shapes, why)
          const copy = this.shiftCopy++ % FUSED_COPIES;
          return this.kept(`cK${copy}|${ci}|${cur}|${slot}|${numKey(add)}`, () =>
            colShiftCopy(copy, flow, N, ci, cur, slot, add),
          );
        }
        const off = this.expr(e.off);
        const ok = keyOf(off);
        // (the bar itself from its mirrored slot, as columnAtSlotReader reads it)
        return this.kept(ok && `cF${ci}|${cur}|${ok}`, () => () => {
          const k = off() as number;
          if (k !== k) return NaN;
          const ctx = flow.ctx;
          if (k > COLUMN_HISTORY_LIMIT) ctx.runtimeError(historyOffsetMessage(k, COLUMN_HISTORY_LIMIT));
          const bi = ctx.barIndex;
          const i = bi - k;
          return i >= 0 && i < bi ? flow.cols[ci]![i] : i === bi ? N[cur] : NaN;
        });
      }
      case "bvar":
        return this.bvar(e);
      case "unary": {
        const x = this.expr(e.e);
        const xk = keyOf(x);
        if (e.op === "not") return this.kept(xk && `!${xk}`, () => () => !x());
        if (e.op === "-") return this.kept(xk && `-${xk}`, () => () => -x());
        return x;
      }
      case "bin":
        return this.binary(e);
      case "and": {
        const chain = this.logicChain(e);
        if (chain) return chain;
        const pair = this.columnPairOf(e);
        if (pair) return pair;
        const l = this.expr(e.l),
          r = this.expr(e.r);
        if (e.lazy) {
          const copy = this.logicCopy++ % FUSED_COPIES;
          fusedBuilds.logic++;
          return this.kept(this.pairKey(`&&${copy}`, l, r), () => lazyAnd(l, r, copy));
        }
        // (both sides called, then joined: through a copy as the lazy form)
        const copy = this.logicCopy++ % FUSED_COPIES;
        return this.kept(this.pairKey(`&${copy}`, l, r), () => eagerAnd(l, r, copy));
      }
      case "or": {
        const chain = this.logicChain(e);
        if (chain) return chain;
        const pair = this.columnPairOf(e);
        if (pair) return pair;
        const l = this.expr(e.l),
          r = this.expr(e.r);
        if (e.lazy) {
          const copy = this.logicCopy++ % FUSED_COPIES;
          fusedBuilds.logic++;
          return this.kept(this.pairKey(`||${copy}`, l, r), () => lazyOr(l, r, copy));
        }
        const copy = this.logicCopy++ % FUSED_COPIES;
        return this.kept(this.pairKey(`|${copy}`, l, r), () => eagerOr(l, r, copy));
      }
      case "tern": {
        const c = this.expr(e.c);
        const ck = keyOf(c);
        const oa = this.operand(e.a),
          ob = this.operand(e.b);
        // (the shapes below: the two operands' keys and the condition's)
        const ak = this.operandKey(oa),
          bk = this.operandKey(ob);
        // (each shape through a copy, taken in turn: fused.generated.ts ternCopy)
        const copy = this.takeShapeCopy("tern");
        const sk = ck && ak && bk && `?${ak}|${bk}|${ck}@${copy % FUSED_COPIES}`;
        const N = this.nums;
        const numA = isNum(e.a.t.name),
          numB = isNum(e.b.t.name);
        // numeric slots and constants in place (`cond ? 1 : 0`, `cond ? x : close`), a closure with either
        // (`cond ? x + y : close`, `cond ? f(x) : na`)
        if (
          (oa.k !== "F" && ob.k !== "F" && (oa.k === "C" || numA) && (ob.k === "C" || numB)) ||
          (oa.k === "F" && ob.k !== "F" && numB) ||
          (ob.k === "F" && oa.k !== "F" && numA)
        )
          return this.kept(sk, () => ternCopy(copy, c, oa, ob, N));
        const a = oa.k === "F" ? oa.f : this.expr(e.a),
          b = ob.k === "F" ? ob.f : this.expr(e.b);
        const ab = this.pairKey("?", a, b);
        const fa: Operand = { k: "F", i: 0, c: 0, f: a },
          fb: Operand = { k: "F", i: 0, c: 0, f: b };
        return this.kept(ck && ab && `${ab}|${ck}@${copy % FUSED_COPIES}`, () => ternCopy(copy, c, fa, fb, N));
      }
      case "call":
        return this.call(e);
      case "ucall":
        return this.ucallExpr(e, true);
      case "tuple": {
        const els = e.elems.map((x) => this.expr(x));
        const n = els.length;
        const ks = els.map((f) => keyOf(f));
        // One buffer per tuple node: Pine tuples are only ever destructured at once, never kept.
        return this.kept(ks.includes(null) ? null : `T|${ks.join(",")}`, () => {
          const out = new Array<unknown>(n);
          return () => {
            for (let i = 0; i < n; i++) out[i] = els[i]!();
            return out;
          };
        });
      }
      case "if": {
        const then = this.block(e.then);
        const na = naOfType(e.t.name);
        const els = e.else ? this.block(e.else) : null;
        const tk = keyOf(then),
          ek = els === null ? "-" : keyOf(els);
        // (na is the if's type's: named by the type)
        const bk = tk && ek && `${e.t.name}|${tk}|${ek}`;
        if (e.cond.k === "load" && e.cond.v.type.name === "bool" && !this.hoisted.has(e.cond)) {
          // `if up` on a bool variable: its slot read in place, no closure call
          const slot = e.cond.v.slot;
          const cv = this.store(e.cond.v);
          const at = `${cv === this.nums ? "N" : "V"}${slot}`;
          if (els === null) return this.kept(bk && `IE${at}|${bk}`, () => () => (cv[slot] ? then() : na));
          return this.kept(bk && `IE${at}|${bk}`, () => () => (cv[slot] ? then() : els()));
        }
        const c = this.expr(e.cond);
        const ck = keyOf(c);
        if (els === null) return this.kept(bk && ck && `IEF${ck}|${bk}`, () => () => (c() ? then() : na));
        return this.kept(bk && ck && `IEF${ck}|${bk}`, () => () => (c() ? then() : els()));
      }
      case "switch":
        return this.switchExpr(e);
      case "for":
        return this.forLoop(e);
      case "forin":
        return this.forIn(e);
      case "while": {
        const cond = this.expr(e.cond);
        const body = this.block(e.body);
        const flow = this.flow;
        const na = naOfType(e.t.name);
        const key = this.pairKey(`W${e.t.name}`, cond, body);
        return this.kept(key, () => () => {
          let v: any = na;
          // (the run's budget, read per loop: the loop is kept across runs, memo.ts)
          const B = flow.B;
          B.enter();
          while (cond()) {
            v = body();
            if (flow.ctl !== 0) {
              const c = flow.ctl;
              flow.ctl = 0;
              if (c === 1) break;
            }
            if (--B.left <= 0) B.check();
          }
          B.exit();
          return v;
        });
      }
      case "field": {
        const idx = e.index;
        const flow = this.flow;
        const at = this.objectSlot(e.obj);
        if (at >= 0) {
          // `z.top` on a variable: its slot read in place, no closure call for the load
          const V = this.vals;
          return this.kept(`.${idx}|V${at}`, () => () => {
            const o = V[at] as PineObject | null;
            if (o === null) return flow.ctx.runtimeError("Cannot access a field of an na object");
            return o.fields[idx];
          });
        }
        const obj = this.expr(e.obj);
        const ok = keyOf(obj);
        return this.kept(ok && `.${idx}|${ok}`, () => () => {
          const o = obj() as PineObject | null;
          if (o === null) return flow.ctx.runtimeError("Cannot access a field of an na object");
          return o.fields[idx];
        });
      }
      case "new": {
        const fields = e.fields.map((f) => this.expr(f));
        const name = e.typeName;
        const fks = fields.map((f) => keyOf(f));
        const key = fks.includes(null) ? null : `new|${JSON.stringify(name)}|${fks.join(",")}`;
        return this.kept(
          key,
          () => () =>
            new PineObject(
              name,
              fields.map((f) => f()),
            ),
        );
      }
      case "copy": {
        const obj = this.expr(e.obj);
        const ok = keyOf(obj);
        return this.kept(ok && `copy|${ok}`, () => () => {
          const o = obj() as PineObject | null;
          return o === null ? null : new PineObject(o.typeName, o.fields.slice());
        });
      }
      case "cast":
        return this.cast(e.to, this.expr(e.e), e.e.t.name);
    }
  }

  /**
   * A user function call; `wantValue` false: a call whose value nobody reads (a statement), whose
   * body then runs as a void block (its last statement, a loop or an if, through the flat drivers).
   */
  private ucallExpr(e: Extract<RExpr, { k: "ucall" }>, wantValue: boolean): Fn {
    const params = e.inst.params.map((p) => p.slot);
    const ps = e.inst.params.map((p) => this.store(p) as any[]);
    const args = e.args.map((a) => this.expr(a));
    const block = wantValue ? this.block(e.inst.body) : this.voidBlock(e.inst.body);
    const body = this.withCallCommit(block, e.inst.locals);
    const key = this.ucallKey(e, args, body);
    if (key !== null) return this.kept(key, () => this.ucall(e, params, ps, args, body));
    return this.ucall(e, params, ps, args, body);
  }

  /** A user function call: its arguments into the parameters' slots, then its body. */
  private ucall(e: Extract<RExpr, { k: "ucall" }>, params: number[], ps: any[][], args: Fn[], body: Fn): Fn {
    const n = params.length;

    if (e.order) {
      // named arguments written out of parameter order: evaluate them as written
      const ord = e.order,
        tmp = new Array<unknown>(n);
      return () => {
        for (let k = 0; k < n; k++) {
          const i = ord[k]!;
          tmp[i] = args[i]!();
        }
        for (let i = 0; i < n; i++) ps[i]![params[i]!] = tmp[i];
        return body();
      };
    }
    // (through a copy, in turn: fused.generated.ts ucallCopy)
    return ucallCopy(this.takeShapeCopy("ucall"), params, ps, args, body);
  }

  /** A user function call's kept-closure key (arguments and body kept, parameters in the storage), or null. */
  private ucallKey(e: Extract<RExpr, { k: "ucall" }>, args: Fn[], body: Fn): string | null {
    const bk = keyOf(body);
    const aks = args.map((a) => keyOf(a));
    if (bk === null || aks.includes(null)) return null;
    const ps = e.inst.params.map((p) => `${isNumericSlot(p) ? "N" : "V"}${p.slot}`);
    return `U${ps.join(".")}|${e.order ? e.order.join(".") : ""}|${aks.join(",")}|${bk}`;
  }

  private fusedStore(e: RExpr, slot: number, wantValue: boolean): Fn | null {
    if (!this.fusable(e) || !["+", "-", "*", "/"].includes(e.op)) return null;
    const l = this.fusedOperand(e.l),
      r = this.fusedOperand(e.r);
    const copy = this.takeFusedCopy(l, r);
    const key = this.binaryKey(`${wantValue ? "s" : "v"}${slot}${e.op}@${copy}`, l, r);
    return this.kept(key, () =>
      (wantValue ? fusedStore : fusedStoreVoid)(e.op, l, r, this.nums, this.flow, slot, copy),
    );
  }

  /** The next copy of a shape of fused.generated.ts's shape copies (counted in shapeCopyBuilds). */
  private takeShapeCopy(kind: keyof typeof shapeCopyBuilds): number {
    shapeCopyBuilds[kind]++;
    return this.shapeCopy[kind]++;
  }

  /** A copy of the fused closures for a shape that calls a sub-closure, in turn (0 for the others). */
  private takeFusedCopy(l: Operand, r: Operand): number {
    return fusedTakesCopy(l, r) ? this.fusedCopy++ % FUSED_COPIES : 0;
  }

  /**
   * `x += y` (-=, *=) on a numeric variable as one closure, without the shared operator function
   * (a call site every compound assignment of the program goes through); a numeric variable operand
   * is read in place. Same reads in the same order: x, then y.
   */
  private compoundStore(op: string, slot: number, valueE: RExpr, value: Fn, wantValue: boolean): Fn | null {
    const N = this.nums;
    if (op === "+=" && !wantValue && valueE.k === "bin" && valueE.op === "*" && this.fusable(valueE)) {
      const h = this.ringAtSlot(valueE.l);
      const w = this.slotOf(valueE.r);
      if (h !== null && w !== undefined) {
        // `num += src[i] * w` in a weighted-sum loop: one closure (x read first, as in the general path)
        const { ring, buf, mask, cap, off, na, current, name } = h;
        const ck = keyOf(current);
        return this.kept(ck && `w${slot}|${h.hist}:${name}|S${off}|S${w}|${ck}`, () => () => {
          const x = N[slot]!;
          const k = N[off]!;
          // (`+` on the closure variable and the call: their values have no type in V8's optimised
          // code, and y joining them with the ring's double would be boxed, a heap number per iteration)
          let y: number;
          if (k !== k) y = +na;
          else if (k === 0) y = +(current() as number);
          else {
            if (k < 0) runtimeError(`Negative history offset ${k} for '${name}'`);
            if (k > cap) runtimeError(historyOffsetMessage(k, cap));
            y = k <= ring.count ? buf[(ring.count - k) & mask]! : +na;
          }
          N[slot] = x + y * N[w]!;
        });
      }
    }
    if (!wantValue && this.fusable(valueE) && !this.hoisted.has(valueE)) {
      // `acc += a * b` on slots and constants: one closure, no call of the right side's (fusedCompound)
      const l = this.leafOperand(valueE.l),
        r = this.leafOperand(valueE.r);
      if (l && r && !(l.k === "C" && r.k === "C")) {
        fusedBuilds.compound++;
        const key = this.binaryKey(`cc${slot}${op}${valueE.op}`, l, r);
        const f = this.kept(key, () => fusedCompound(op, valueE.op, l, r, N, this.flow, slot));
        if (f) return f;
      }
    }
    if (valueE.k === "const" && typeof valueE.v === "number" && !wantValue) {
      // `streak += 1`: the constant in place
      const c = valueE.v;
      return this.kept(`${op}${slot}|C${numKey(c)}`, () => {
        if (op === "+=")
          return () => {
            N[slot] = N[slot]! + c;
          };
        if (op === "-=")
          return () => {
            N[slot] = N[slot]! - c;
          };
        return () => {
          N[slot] = N[slot]! * c;
        };
      });
    }
    const from = this.slotOf(valueE);
    if (from !== undefined) {
      if (wantValue) return null;
      return this.kept(`${op}${slot}|S${from}`, () => {
        if (op === "+=")
          return () => {
            N[slot] = N[slot]! + N[from]!;
          };
        if (op === "-=")
          return () => {
            N[slot] = N[slot]! - N[from]!;
          };
        return () => {
          N[slot] = N[slot]! * N[from]!;
        };
      });
    }
    if (!wantValue) {
      // x := x op value through a copy of the fused store (fused.generated.ts: why copies), where one
      // closure made at one site called every compound assignment's value
      const l: Operand = { k: "S", i: slot, c: 0, f: noop },
        r: Operand = { k: "F", i: 0, c: 0, f: value };
      const copy = this.takeFusedCopy(l, r);
      const key = this.binaryKey(`v${slot}${op[0]}@${copy}`, l, r);
      return this.kept(key, () => fusedStoreVoid(op[0]!, l, r, N, this.flow, slot, copy));
    }
    const vk = keyOf(value);
    return this.kept(vk && `${op}${slot}|=F${vk}`, () => {
      if (op === "+=") return () => (N[slot] = N[slot]! + (value() as number));
      if (op === "-=") return () => (N[slot] = N[slot]! - (value() as number));
      return () => (N[slot] = N[slot]! * (value() as number));
    });
  }

  /**
   * `x = f()` into a slot through a copy of the store (fused.generated.ts: why copies), where one
   * closure made at one site called every such statement's value; numeric stores return nothing
   * unless `value` (a numeric value returned to nobody is boxed).
   */
  private storeCopy(vals: unknown[] | Float64Array, slot: number, f: Fn, value: boolean): Fn {
    const fk = keyOf(f);
    const copy = this.takeShapeCopy("store");
    if (vals === this.nums)
      return this.kept(fk && `${value ? "==" : "="}${slot}|F${fk}@${copy % FUSED_COPIES}`, () =>
        storeNumCopy(copy, this.nums, slot, f, value),
      );
    return this.kept(fk && `V==${slot}|F${fk}@${copy % FUSED_COPIES}`, () =>
      storeValCopy(copy, vals as unknown[], slot, f),
    );
  }

  /** `N[slot] = <slot or constant>` as one closure (e.g. a declaration of a hoisted ta.* call). */
  private copyStore(e: RExpr, slot: number, wantValue: boolean): Fn | null {
    const N = this.nums;
    const from = this.slotOf(e);
    if (from === undefined) return null;
    if (!wantValue)
      return this.kept(`=${slot}|S${from}`, () => () => {
        N[slot] = N[from];
      });
    return this.kept(`==${slot}|S${from}`, () => () => (N[slot] = N[from]));
  }

  /** A hoisted expression's value this bar: its slot, or a tuple buffer filled from its slots. */
  private hoistedRead(ids: number[], bool: boolean): Fn {
    const N = this.nums;
    if (ids.length === 1) {
      const i = ids[0]!;
      // boolean columns (ta.cross*) hold 1/0
      if (bool) return this.kept(`H${i}`, () => () => N[i] === 1);
      return this.kept(`L${i}`, () => () => N[i]);
    }
    const n = ids.length;
    return this.kept(`HT${ids.join(".")}`, () => {
      const out = new Array<unknown>(n);
      return () => {
        for (let j = 0; j < n; j++) out[j] = N[ids[j]!];
        return out;
      };
    });
  }

  /** `[a, b, c] = <hoisted tuple call>` as slot copies. */
  private hoistedTupleStore(s: Extract<RStmt, { k: "tdecl" }>): Fn | null {
    const ids = this.hoisted.get(s.init);
    if (!ids || ids.length !== s.vs.length || !s.vs.every((v) => !v || isNumericSlot(v))) return null;
    const N = this.nums;
    const from: number[] = [],
      to: number[] = [];
    s.vs.forEach((v, j) => {
      if (v) {
        from.push(ids[j]!);
        to.push(v.slot);
      }
    });
    const n = from.length;
    return this.kept(`HS${from.join(".")}|${to.join(".")}`, () => () => {
      for (let j = 0; j < n; j++) N[to[j]!] = N[from[j]!];
    });
  }

  /** A function body whose local histories advance at the end of each call. */
  private withCallCommit(body: Fn, locals: VarSlot[]): Fn {
    const ids = locals.filter((v) => v.hist >= 0).map((v) => v.hist);
    if (!ids.length) return body;
    const bk = keyOf(body);
    return this.kept(bk && `cc${ids.join(".")}|${bk}`, () => {
      const commit = this.st.ringCommitter(ids);
      return () => {
        const v = body();
        commit();
        return v;
      };
    });
  }

  /** Numbers (int, float, colour) live in a Float64Array, everything else in a plain array. */
  private store(v: VarSlot): unknown[] | Float64Array {
    return isNumericSlot(v) ? this.nums : this.vals;
  }

  /**
   * A closure capturing only the numeric slots and what `key` names, kept across the program's runs
   * (memo.ts: why); made fresh when the key is null (it captures something else).
   */
  private kept<T extends Fn>(key: string | null, make: () => T): T;
  private kept<T extends Fn>(key: string | null, make: () => T | null): T | null;
  private kept<T extends Fn>(key: string | null, make: () => T | null): T | null {
    return key === null ? make() : keptClosure(this.nums, key, make);
  }

  /** An operand as a key part of a kept closure, or null when its closure is not a kept one. */
  private operandKey(o: Operand): string | null {
    if (o.k === "S") return `S${o.i}`;
    if (o.k === "C") return `C${numKey(o.c)}`;
    if (o.k === "H") return `H${o.c}.${o.j}.${o.i}`;
    const k = keyOf(o.f);
    return k === null ? null : `F${k}`;
  }

  /** The key of `op` on two operands (kept()), or null. */
  private binaryKey(tag: string, l: Operand, r: Operand): string | null {
    const lk = this.operandKey(l),
      rk = this.operandKey(r);
    return lk === null || rk === null ? null : `${tag}|${lk}|${rk}`;
  }

  private hist(v: VarSlot, offE: RExpr, n: number | null, current: Fn): Fn {
    const ring = this.st.rings[v.hist];
    if (!ring) throw new Error(`internal: no history ring for '${v.name}'`);
    const buf = ring.buf as ArrayLike<unknown>;
    const mask = ring.mask;
    const na = ring.na;
    if (n === 0) return current;
    // (the ring is the storage's: kept closures may capture it, memo.ts)
    const at = `${v.hist}:${v.name}`;
    if (n !== null) {
      if (n > mask) throw new Error(`internal: history ring of '${v.name}' too short`);
      // (a numeric ring's reads from a site of their own: one site over both kinds of ring was polymorphic)
      if (ring.buf instanceof Float64Array && typeof na === "number") {
        const fb = ring.buf,
          fna = na;
        return this.kept(`h${at}|${n}`, () => () => (n <= ring.count ? fb[(ring.count - n) & mask]! : fna));
      }
      return this.kept(`h${at}|${n}`, () => () => (n <= ring.count ? buf[(ring.count - n) & mask] : na));
    }
    const cap = historyCap(mask);
    const ck = keyOf(current);
    const offSlot = this.slotOf(offE);
    if (offSlot !== undefined) {
      // `src[i]` with a numeric variable as the offset (a loop counter): read it here, no closure
      const N = this.nums;
      return this.kept(ck && `h${at}|S${offSlot}|${ck}`, () => () => {
        const k = N[offSlot]!;
        // (a past value within the ring first, in few bytes: V8 inlines a small closure where it is called)
        if (k > 0 && k <= cap && k <= ring.count) return buf[(ring.count - k) & mask];
        return ringAtOther(k, ring, cap, current, v.name);
      });
    }
    const off = this.expr(offE);
    const ok = keyOf(off);
    return this.kept(ck && ok && `h${at}|F${ok}|${ck}`, () => () => {
      const k = off() as number;
      if (k !== k) return na;
      if (k === 0) return current();
      if (k < 0) runtimeError(`Negative history offset ${k} for '${v.name}'`);
      if (k > cap) runtimeError(historyOffsetMessage(k, cap));
      return k <= ring.count ? buf[(ring.count - k) & mask] : na;
    });
  }

  private bvar(e: Extract<RExpr, { k: "bvar" }>): Fn {
    // (the bar's fields are slot reads: slotOf; the run's context through the storage's Flow)
    const k = (BAR_FIELDS as readonly string[]).indexOf(e.def.name);
    if (k >= 0) {
      const N = this.nums,
        slot = this.st.barBase + k;
      return this.kept(`L${slot}`, () => () => N[slot]);
    }
    const def = e.def;
    const N = this.nums,
      at = (f: (typeof BAR_FIELDS)[number]) => this.st.barBase + BAR_FIELDS.indexOf(f);
    const o = at("open"),
      h = at("high"),
      l = at("low"),
      c = at("close");
    // hl2, hlc3, ohlc4, hlcc4 from the bar's slots: the builtins' own arithmetic in the same order
    // (src/builtins/core/index.ts; the compile backend's PRICE_VARS), no call through the getter
    if (def.name === "hl2") return this.kept("price:hl2", () => () => (N[h]! + N[l]!) / 2);
    if (def.name === "hlc3") return this.kept("price:hlc3", () => () => (N[h]! + N[l]! + N[c]!) / 3);
    if (def.name === "ohlc4") return this.kept("price:ohlc4", () => () => (N[o]! + N[h]! + N[l]! + N[c]!) / 4);
    if (def.name === "hlcc4") return this.kept("price:hlcc4", () => () => (N[h]! + N[l]! + 2 * N[c]!) / 4);
    const site = this.st.sites[e.site]!;
    const flow = this.flow;
    // fixed for the run (syminfo.*, timeframe.*): read once, kept in its site's state (reset per run)
    if (def.perRun && !def.stateful)
      return this.kept(`bv${e.site}`, () => () => {
        const v = site.state;
        return v !== undefined ? v : (site.state = def.get(flow.ctx, site));
      });
    const onBroker = def.broker;
    if (onBroker && !def.stateful) {
      // a strategy.* figure read straight from the broker, as the compile backend does (one call
      // target per closure; `get`'s inner call is shared by every variable and megamorphic)
      const { read, flat } = onBroker;
      return this.kept(`bv${e.site}`, () => () => {
        const ctx = flow.ctx;
        const b = ctx.broker;
        return b ? read(b, ctx) : flat;
      });
    }
    return this.kept(`bv${e.site}`, () => () => def.get(flow.ctx, site));
  }

  /**
   * `a and b and c ...` (or `or`: one operator, lazy or eager throughout), three operands or more:
   * one closure with the operands unrolled, each called from its own site (fused.generated.ts
   * lazyAndN and the others), where the nested pairs are one closure per operator, as deep as the
   * chain is long. Same operands in the same order, the same value (&& and || are associative in
   * value). A chain longer than LOGIC_OPERANDS takes its first operands as one (shorter) chain; the
   * innermost pair stays a columnPair closure when it is one. Null for two operands.
   */
  private logicChain(e: Extract<RExpr, { k: "and" | "or" }>): Fn | null {
    const spine: Extract<RExpr, { k: "and" | "or" }>[] = [e];
    let x = e.l;
    while (spine.length < LOGIC_OPERANDS - 1 && x.k === e.k && x.lazy === e.lazy && !this.hoisted.has(x)) {
      spine.push(x);
      x = x.l;
    }
    if (spine.length < 2) return null;
    const inner = spine[spine.length - 1]!;
    // (the operands left to right, compiled in that order as the nested pairs compile them)
    const pair = this.columnPairOf(inner);
    const fs: Fn[] = pair ? [pair] : [this.expr(inner.l), this.expr(inner.r)];
    for (let i = spine.length - 2; i >= 0; i--) fs.push(this.expr(spine[i]!.r));
    const copy = this.logicCopy++ % FUSED_COPIES;
    const and = e.k === "and";
    if (fs.length === 2) {
      // (a column pair and one more: the pair form)
      const join = and ? (e.lazy ? lazyAnd : eagerAnd) : e.lazy ? lazyOr : eagerOr;
      return this.kept(this.pairKey(`${e.k}${e.lazy ? "L" : "E"}${copy}`, fs[0]!, fs[1]!), () =>
        join(fs[0]!, fs[1]!, copy),
      );
    }
    const join = and ? (e.lazy ? lazyAndN : eagerAndN) : e.lazy ? lazyOrN : eagerOrN;
    const ks = fs.map((f) => keyOf(f));
    logicChainBuilds.count++;
    return this.kept(ks.includes(null) ? null : `${e.k}N${e.lazy ? "L" : "E"}${copy}|${ks.join("|")}`, () =>
      join(fs, copy),
    );
  }

  /**
   * `a op b and c op d` (`or`) of two numeric comparisons whose four operands are bar columns at a
   * numeric slot offset, plus or minus a constant (`high[j] <= high[j - 1] and low[j] >= low[j - 1]`):
   * one generated closure per operator pair reading the four in place (fused.generated.ts
   * columnPair), the general and/or closure called for any offset outside the past bars; else null.
   */
  private columnPairOf(e: Extract<RExpr, { k: "and" | "or" }>): Fn | null {
    const cmp = (x: RExpr) => (this.fusable(x) && !this.hoisted.has(x) && COMPARE_OPS.includes(x.op) ? x : null);
    const l = cmp(e.l),
      r = cmp(e.r);
    if (l === null || r === null) return null;
    const leaves = [l.l, l.r, r.l, r.r].map((x) => this.columnLeaf(x));
    const [a, b, c, d] = leaves;
    if (!a || !b || !c || !d) return null;
    const key = `${l.op}${e.k === "and" ? "&&" : "||"}${r.op}`;
    // the general form, for the uncommon offsets: as the and/or case builds it
    const le = this.expr(e.l),
      re = this.expr(e.r);
    const copy = this.logicCopy++ % FUSED_COPIES;
    const join = e.k === "and" ? (e.lazy ? lazyAnd : eagerAnd) : e.lazy ? lazyOr : eagerOr;
    if (e.lazy) fusedBuilds.logic++;
    const slow = this.kept(this.pairKey(`${e.k}${e.lazy ? "L" : "E"}${copy}`, le, re), () => join(le, re, copy));
    const sk = keyOf(slow);
    const lk = leaves.map((x) => `${x!.ci}.${x!.off}.${numKey(x!.add)}`).join("|");
    columnPairBuilds.count++;
    const N = this.nums;
    return this.kept(sk && `cp${key}|${lk}|${sk}`, () => columnPair(key, a, b, c, d, N, this.flow, slow));
  }

  /** A bar column at a numeric slot offset, plus or minus a constant (`high[j]`, `low[j - 1]`), as columnPair takes it; else null. */
  private columnLeaf(e: RExpr): ColumnLeaf | null {
    if (e.k !== "colHist" || e.n !== null || this.hoisted.has(e)) return null;
    const ci = columnIndex(e.col);
    const off = this.slotOf(e.off);
    if (off !== undefined) return { ci, off, add: 0 };
    const shift = this.slotPlusConst(e.off);
    return shift === null ? null : { ci, off: shift.slot, add: shift.add };
  }

  /** A numeric operand read without a closure: a slot, a constant or a column at a slot offset; else null. */
  private leafOperand(e: RExpr): Operand | null {
    if (e.k === "const" && typeof e.v === "number") return { k: "C", i: 0, c: e.v, f: noop };
    const i = this.slotOf(e);
    if (i !== undefined) return { k: "S", i, c: 0, f: noop };
    const at = this.columnAtSlotParts(e);
    if (at === null) return null;
    fusedBuilds.column++;
    return { k: "H", i: at.off, c: at.col, f: noop, j: at.cur };
  }

  /** An operand of the fused operators: operand(), or a bar column at a slot offset read in place (colAt). */
  private fusedOperand(e: RExpr): Operand {
    const at = this.columnAtSlotParts(e);
    if (at === null) return this.operand(e);
    fusedBuilds.column++;
    return { k: "H", i: at.off, c: at.col, f: noop, j: at.cur };
  }

  /** A numeric operand as a slot read, a constant or a closure (for the fused operators). */
  private operand(e: RExpr): Operand {
    if (e.k === "const" && typeof e.v === "number") return { k: "C", i: 0, c: e.v, f: noop };
    const i = this.slotOf(e);
    if (i !== undefined) return { k: "S", i, c: 0, f: noop };
    return { k: "F", i: 0, c: 0, f: this.expr(e) };
  }

  /** `col[i]` with a numeric variable as the offset (a loop counter): its reader (columnAtSlotReader), else null. */
  private columnAtSlot(e: RExpr): (() => number) | null {
    if (e.k !== "colHist" || e.n !== null || this.hoisted.has(e)) return null;
    const off = this.slotOf(e.off);
    if (off === undefined) return null;
    const ci = columnIndex(e.col),
      cur = this.barSlot(e.col);
    return this.kept(`cs${ci}|${cur}|${off}`, () => columnAtSlotReader(this.flow, this.nums, ci, cur, off));
  }

  /**
   * `col[i]` at a numeric slot offset, as parts: the column's index in Flow.cols, the offset's slot and the slot mirroring
   * the column's value on the bar as the script sees it now (RunState.setBar keeps it in step with ctx).
   */
  private columnAtSlotParts(e: RExpr): { col: number; off: number; cur: number } | null {
    if (e.k !== "colHist" || e.n !== null || this.hoisted.has(e)) return null;
    const off = this.slotOf(e.off);
    if (off === undefined) return null;
    return { col: columnIndex(e.col), off, cur: this.barSlot(e.col) };
  }

  /** The numeric slot mirroring a bar column's value on the bar as the script sees it now (RunState.setBar). */
  private barSlot(col: (typeof BAR_FIELDS)[number]): number {
    return this.st.barBase + BAR_FIELDS.indexOf(col);
  }

  /** `v[i]` on a numeric variable's history ring with a numeric variable as the offset (a loop counter), as hist() reads it. */
  private ringAtSlot(e: RExpr) {
    if (e.k !== "hist" || e.n !== null || this.hoisted.has(e)) return null;
    const ring = this.st.rings[e.v.hist];
    if (!ring || !(ring.buf instanceof Float64Array) || typeof ring.na !== "number") return null;
    const off = this.slotOf(e.off);
    if (off === undefined) return null;
    return {
      hist: e.v.hist,
      ring,
      buf: ring.buf,
      mask: ring.mask,
      cap: historyCap(ring.mask),
      off,
      na: ring.na,
      current: this.expr({ k: "load", v: e.v, t: e.t }),
      name: e.v.name,
    };
  }

  /** The plain-array slot of an object, array or other non-numeric variable read as `e`, or -1. */
  private objectSlot(e: RExpr): number {
    if (e.k !== "load" || isNumericSlot(e.v) || this.hoisted.has(e)) return -1;
    return e.v.slot;
  }

  /**
   * `v + c`, `v - c` or `c + v` for a numeric slot v and a numeric constant c, as the slot and the
   * constant to add (`v - c` is `v + -c` bit for bit), else null.
   */
  private slotPlusConst(e: RExpr): { slot: number; add: number } | null {
    if (!this.fusable(e) || this.hoisted.has(e) || (e.op !== "+" && e.op !== "-")) return null;
    const num = (x: RExpr) => (x.k === "const" && typeof x.v === "number" && !this.hoisted.has(x) ? x.v : undefined);
    const ls = this.slotOf(e.l),
      rc = num(e.r);
    if (ls !== undefined && rc !== undefined) return { slot: ls, add: e.op === "+" ? rc : -rc };
    const lc = num(e.l),
      rs = this.slotOf(e.r);
    if (e.op === "+" && lc !== undefined && rs !== undefined) return { slot: rs, add: lc };
    return null;
  }

  /** The numeric slot holding `e`'s value during the bar, when it has one (no closure needed). */
  private slotOf(e: RExpr): number | undefined {
    const hoisted = this.hoisted.get(e);
    if (hoisted) return hoisted.length === 1 && isNum(e.t.name) ? hoisted[0] : undefined;
    if (e.k === "load" && isNumericSlot(e.v)) return e.v.slot;
    if (e.k === "hist" && e.n !== null && e.n >= 1 && !e.v.fnLocal && isNumericSlot(e.v)) {
      const ring = this.st.rings[e.v.hist];
      return ring ? this.st.shadowOf(ring, e.n) : undefined;
    }
    if (e.k === "colHist" && e.n !== null && e.n >= 1) return this.st.shadowOf(this.ctx.columns[e.col], e.n);
    if (e.k === "bvar") {
      const k = (BAR_FIELDS as readonly string[]).indexOf(e.def.name);
      if (k >= 0) return this.st.barBase + k;
    }
    return undefined;
  }

  private fusable(e: RExpr): e is Extract<RExpr, { k: "bin" }> {
    return e.k === "bin" && !e.str && !e.intDiv && isNum(e.l.t.name) && isNum(e.r.t.name);
  }

  private binary(e: Extract<RExpr, { k: "bin" }>): Fn {
    const both = this.columnCompareOf(e) ?? this.columnCompareExprOf(e);
    if (both) return both;
    return this.binaryOf(e);
  }

  /**
   * A numeric comparison of a bar column at a numeric slot offset, plus or minus a constant, with
   * another, a numeric slot or a constant (`close[i] <= close[i + 1]`, `high[j] > hh`): one generated
   * closure per operator and kinds reading both in place (fused.generated.ts columnCompare),
   * binaryOf's closure called for any offset outside the past bars; else null.
   */
  private columnCompareOf(e: Extract<RExpr, { k: "bin" }>): Fn | null {
    const sides = this.columnCompareSides(e);
    if (sides === null) return null;
    const [a, b, kinds] = sides;
    const slow = this.binaryOf(e);
    const sk = keyOf(slow);
    columnPairBuilds.compare++;
    const N = this.nums;
    const lk = `${kinds}|${a.ci}.${a.off}.${numKey(a.add)}|${b.ci}.${b.off}.${numKey(b.add)}`;
    return this.kept(sk && `cc${e.op}|${lk}|${sk}`, () => columnCompare(e.op + kinds, a, b, N, this.flow, slow));
  }

  /**
   * A numeric comparison of a bar column at a numeric slot offset, plus or minus a constant, with the
   * arithmetic (+ - * /) of two numeric slots or a slot and a constant (`close[j] < close * 0.97`):
   * one generated closure per operator, side and operand kinds reading and computing in place
   * (fused.generated.ts columnCompareExpr), binaryOf's closure called for any offset outside the past
   * bars; else null.
   */
  private columnCompareExprOf(e: Extract<RExpr, { k: "bin" }>): Fn | null {
    const sides = this.columnExprSides(e);
    if (sides === null) return null;
    const [a, x, key] = sides;
    const slow = this.binaryOf(e);
    const sk = keyOf(slow);
    columnPairBuilds.expr++;
    const N = this.nums;
    const lk = `${a.ci}.${a.off}.${numKey(a.add)}|${numKey(x.p)}|${numKey(x.q)}`;
    return this.kept(sk && `ce${key}|${lk}|${sk}`, () => columnCompareExpr(key, a, x, N, this.flow, slow));
  }

  /**
   * A numeric comparison's sides as columnCompareExpr takes them: a bar column at a slot offset on one
   * side, on the other + - * / of two numeric slots or a slot and a constant; with its key; else null.
   */
  private columnExprSides(e: RExpr): [ColumnLeaf, ExprLeaf, string] | null {
    if (!this.fusable(e) || !COMPARE_OPS.includes(e.op)) return null;
    const arith = (x: RExpr): [ExprLeaf, string] | null => {
      if (!this.fusable(x) || !ARITH_OPS.includes(x.op) || this.hoisted.has(x)) return null;
      const p = this.slotOrConst(x.l),
        q = this.slotOrConst(x.r);
      if (p === null || q === null || (p[1] === "C" && q[1] === "C")) return null;
      return [{ p: p[0], q: q[0] }, `${x.op}${p[1]}${q[1]}`];
    };
    const la = this.columnLeaf(e.l);
    if (la !== null) {
      const r = arith(e.r);
      return r === null ? null : [la, r[0], `${e.op}XE${r[1]}`];
    }
    const ra = this.columnLeaf(e.r);
    if (ra === null) return null;
    const l = arith(e.l);
    return l === null ? null : [ra, l[0], `${e.op}EX${l[1]}`];
  }

  /** A numeric constant ([value, "C"]) or a numeric slot read in place ([slot, "S"]); else null. */
  private slotOrConst(x: RExpr): [number, "S" | "C"] | null {
    if (x.k === "const" && typeof x.v === "number") return [x.v, "C"];
    const slot = this.slotOf(x);
    return slot === undefined ? null : [slot, "S"];
  }

  /**
   * A numeric comparison's sides as columnCompare takes them, a bar column at a slot offset (X) on
   * either side or both, the other side a numeric slot (S) or a constant (C); else null.
   */
  private columnCompareSides(e: RExpr): [ColumnLeaf, ColumnLeaf, string] | null {
    if (!this.fusable(e) || !COMPARE_OPS.includes(e.op)) return null;
    const side = (x: RExpr): [ColumnLeaf, string] | null => {
      const at = this.columnLeaf(x);
      if (at !== null) return [at, "X"];
      const o = this.slotOrConst(x);
      if (o === null) return null;
      return [o[1] === "C" ? { ci: 0, off: 0, add: o[0] } : { ci: 0, off: o[0], add: 0 }, o[1]];
    };
    const l = side(e.l),
      r = side(e.r);
    if (l === null || r === null || (l[1] !== "X" && r[1] !== "X")) return null;
    return [l[0], r[0], l[1] + r[1]];
  }

  private binaryOf(e: Extract<RExpr, { k: "bin" }>): Fn {
    if (this.fusable(e)) {
      const l = this.fusedOperand(e.l),
        r = this.fusedOperand(e.r);
      const copy = this.takeFusedCopy(l, r);
      const f = this.kept(this.binaryKey(`b${e.op}@${copy}`, l, r), () =>
        fusedBinary(e.op, l, r, this.nums, this.flow, copy),
      );
      if (f) return f;
    }
    const numeric = isNum(e.l.t.name) && isNum(e.r.t.name);
    if (!numeric && (e.op === "==" || e.op === "!=")) {
      const q = this.equalityInPlace(e.op, e.l, e.r);
      if (q) return q;
    }
    const l = this.expr(e.l);
    const r = this.expr(e.r);
    const key = this.pairKey(`g${e.op}${e.str ? "s" : ""}${e.intDiv ? "i" : ""}${numeric ? "n" : ""}`, l, r);
    return this.kept(key, () => this.generalBinary(e, l, r, numeric));
  }

  /**
   * `==` / `!=` on strings, bools or objects with a variable or a constant on a side (`maType ==
   * "EMA"`, `ob.bull == bull`): that side read in place, no closure call for it; the sides in the
   * written order, the same na rules as generalBinary (sameValue / otherValue). Null when neither
   * side is a variable or a constant.
   */
  private equalityInPlace(op: string, le: RExpr, re: RExpr): Fn | null {
    const cmp = op === "==" ? sameValue : otherValue;
    const side = (x: RExpr): { k: "V" | "C" | "F"; s: number; c: unknown; f: Fn; key: string | null } => {
      const s = this.objectSlot(x);
      if (s >= 0) return { k: "V", s, c: null, f: noop, key: `V${s}` };
      if (x.k === "const" && !this.hoisted.has(x) && constKey(x.v) !== null)
        return { k: "C", s: 0, c: x.v, f: noop, key: constKey(x.v) };
      const f = this.expr(x);
      const fk = keyOf(f);
      return { k: "F", s: 0, c: null, f, key: fk && `F${fk}` };
    };
    const l = side(le),
      r = side(re);
    if (l.k === "F" && r.k === "F") return null;
    const key = l.key && r.key && `q${op}|${l.key}|${r.key}`;
    const V = this.vals;
    const [ls, lc, lf, rs, rc, rf] = [l.s, l.c, l.f, r.s, r.c, r.f];
    // (`==` written out in its own closures, not called through the captured cmp: v6_vwap_bands'
    // string tests 4% faster; `!=` keeps cmp)
    if (op === "==")
      return this.kept(key, (): Fn => {
        switch (`${l.k}${r.k}`) {
          case "VV":
            return () => {
              const a = V[ls];
              return a === V[rs] && a !== null;
            };
          case "VC":
            return () => {
              const a = V[ls];
              return a === rc && a !== null;
            };
          case "CV":
            return () => lc === V[rs] && lc !== null;
          case "VF":
            return () => {
              const a = V[ls];
              return a === rf() && a !== null;
            };
          case "FV":
            return () => {
              const a = lf();
              return a === V[rs] && a !== null;
            };
          case "FC":
            return () => {
              const a = lf();
              return a === rc && a !== null;
            };
          case "CF":
            return () => lc === rf() && lc !== null;
          default:
            return () => lc === rc && lc !== null;
        }
      });
    return this.kept(key, (): Fn => {
      switch (`${l.k}${r.k}`) {
        case "VV":
          return () => cmp(V[ls], V[rs]);
        case "VC":
          return () => cmp(V[ls], rc);
        case "CV":
          return () => cmp(lc, V[rs]);
        case "VF":
          return () => {
            const a = V[ls];
            return cmp(a, rf());
          };
        case "FV":
          return () => cmp(lf(), V[rs]);
        case "FC":
          return () => cmp(lf(), rc);
        case "CF":
          return () => cmp(lc, rf());
        default:
          // (two constants: folded by the checker, kept general here)
          return () => cmp(lc, rc);
      }
    });
  }

  /** A binary operator on two closures (operands not fusable). */
  private generalBinary(e: Extract<RExpr, { k: "bin" }>, l: Fn, r: Fn, numeric: boolean): Fn {
    if (e.str)
      return () => {
        const a = l(),
          b = r();
        return concatNa(a as string | null, b as string | null);
      };
    switch (e.op) {
      case "+":
        return () => l() + r();
      case "-":
        return () => l() - r();
      case "*":
        return () => l() * r();
      case "/":
        if (e.intDiv)
          return () => {
            const a = l(),
              b = r();
            return b === 0 ? NaN : Math.trunc(a / b);
          };
        return () => {
          const a = l(),
            b = r();
          return b === 0 ? NaN : a / b;
        };
      case "%":
        return () => l() % r();
      case "<":
        return () => l() < r();
      case "<=":
        return () => l() <= r();
      case ">":
        return () => l() > r();
      case ">=":
        return () => l() >= r();
      case "==":
        if (numeric) return () => l() === r();
        return () => {
          const a = l(),
            b = r();
          return a === b && a !== null;
        };
      case "!=":
        if (numeric)
          return () => {
            const a = l(),
              b = r();
            return a !== b && a === a && b === b;
          };
        return () => {
          const a = l(),
            b = r();
          return a !== b && a !== null && b !== null;
        };
    }
    throw new Error(`internal: operator ${e.op}`);
  }

  private cast(to: string, x: Fn, from: string): Fn {
    const xk = keyOf(x);
    switch (to) {
      case "int":
        return this.kept(xk && `ci|${xk}`, () => () => {
          const v = x();
          return typeof v === "number" ? Math.trunc(v) : v;
        });
      case "bool":
        if (from === "bool") return x;
        return this.kept(xk && `cb|${xk}`, () => () => {
          const v = x();
          return typeof v === "number" ? v === v && v !== 0 : !!v;
        });
      default:
        return x;
    }
  }

  private call(e: Extract<RExpr, { k: "call" }>): Fn {
    const ctx = this.ctx;
    // request.security: the expression is evaluated in the requested context (security.ts)
    if (SECURITY_CALLS.has(e.name)) return compileSecurity(e, this.prog, ctx, (x) => this.expr(x));
    const extreme = this.extremeCall(e);
    if (extreme) return extreme;
    const pure = this.pureNumericCall(e);
    if (pure) return pure;
    const request = this.siteRequestCall(e);
    if (request) return request;
    const direct = this.directCall(e);
    if (direct) return direct;
    const ta = this.taCall(e);
    if (ta) return ta;
    const general = this.generalCall(e);
    if (isInputCall(e.name) && inputArgsSkippable(e)) {
      // an input's value is fixed by its first call (the impl keeps it in site.state and returns it
      // from then on, a source input reading its source each bar); its arguments have no effect, so
      // skipping them changes nothing (the compile backend does the same)
      const site = this.st.sites[e.site]!;
      type InputState = { value: unknown; source?: (c: ExecContext) => unknown };
      const gk = keyOf(general);
      const flow = this.flow;
      if (e.name === "input" || e.name === "input.source")
        return this.kept(gk && `I${e.site}|${gk}`, () => () => {
          const st = site.state as InputState | undefined;
          return st !== undefined ? (st.source ? st.source(flow.ctx) : st.value) : general();
        });
      return this.kept(gk && `i${e.site}|${gk}`, () => () => {
        const st = site.state as InputState | undefined;
        return st !== undefined ? st.value : general();
      });
    }
    return general;
  }

  /** A ta.* call written out with its state in its call site (inline-ta.ts), or null. */
  private taCall(e: Extract<RExpr, { k: "call" }>): Fn | null {
    const known = this.taFns.get(e.site);
    if (known) return known;
    // (the walk only once a plain run's program calls one of the builtins)
    if (!this.plain || !INLINE_TA_NAMES.has(e.name)) return null;
    this.once ??= inlineTaSites(this.prog.body, planOf(this.prog));
    if (!this.once.has(e.site)) return null;
    const [x, y] = (e.args as RExpr[]).map((a) => this.expr(a)) as [Fn, Fn];
    // (its state in the storage's call site: kept across runs as the site is reset per run)
    const site = this.st.sites[e.site]!;
    const key = this.pairKey(`ta${e.site}`, x, y);
    const f = this.kept(key, () => inlineTaFn(e.name, this.flow, site, x, y));
    this.taFns.set(e.site, f);
    return f;
  }

  /** A builtin call through its impl, with this site's argument array. */
  private generalCall(e: Extract<RExpr, { k: "call" }>): Fn {
    // (the run's context through the storage's Flow: the closure may be kept, memo.ts)
    const flow = this.flow;
    const impl = e.def.impl;
    const site = this.st.sites[e.site]!;
    const n = e.args.length;
    // All-numeric call sites get a Float64Array: storing a number then needs no boxing, and unlike a
    // double-elements Array it never changes kind under a builtin's polymorphic access (the compiled
    // loop's argument arrays too: src/compile/index.ts "args")
    const numeric = n > 0 && e.args.every((a) => a !== undefined && (a.t.name === "int" || a.t.name === "float"));
    const args: unknown[] = numeric ? (new Float64Array(n) as unknown as unknown[]) : new Array<unknown>(n);
    // constants and omitted arguments are stored once (no builtin writes into its args); numeric
    // slot reads need no closure; the rest are evaluated per call in the order the source wrote
    // them (e.order: named arguments out of parameter order)
    const slotAt: number[] = [],
      slotOf: number[] = [];
    const fnAt: number[] = [],
      fns: Fn[] = [];
    const order: ("S" | "F")[] = [];
    for (const i of e.order ?? e.args.keys()) {
      const a = e.args[i];
      if (a === undefined) args[i] = undefined;
      else if (a.k === "const") args[i] = a.v;
      else {
        const slot = this.slotOf(a);
        if (slot !== undefined) {
          slotAt.push(i);
          slotOf.push(slot);
          order.push("S");
        } else {
          fnAt.push(i);
          fns.push(this.expr(a));
          order.push("F");
        }
      }
    }
    const N = this.nums;
    const shape = order.join("");
    const fks = fns.map((f) => keyOf(f));
    // (constant arguments are the node's, which the site names)
    const key = fks.includes(null) ? null : `G${e.site}|${slotOf.join(".")}|${fks.join(",")}`;
    if (e.name === "plot" && isPlainPlot(e) && (shape === "S" || shape === "F"))
      return this.kept(key, () => this.plainPlot(impl, args, site, shape === "S" ? slotOf[0]! : -1, fns[0]));
    const out = outputCells(e);
    if (out !== null) {
      // an argument's value: a constant, a numeric slot's read, else its closure
      const getter = (i: number): Fn | null => {
        const a = i < 0 ? undefined : e.args[i];
        if (a === undefined) return null;
        if (a.k === "const") {
          const v = a.v;
          return () => v;
        }
        const s = slotAt.indexOf(i);
        if (s >= 0) {
          const slot = slotOf[s]!;
          return () => N[slot];
        }
        return fns[fnAt.indexOf(i)]!;
      };
      const cell = getter(out.cell);
      const color = getter(out.color);
      const written = e.order ?? [...e.args.keys()];
      const colorFirst = color !== null && written.indexOf(out.color) < written.indexOf(out.cell);
      return this.kept(key === null ? null : `O${key}`, () =>
        this.outputCall(
          out,
          this.callShape(shape, impl, args, site, slotAt, slotOf, fnAt, fns),
          site,
          cell,
          color,
          colorFirst,
        ),
      );
    }
    return this.kept(key, () => this.callShape(shape, impl, args, site, slotAt, slotOf, fnAt, fns));
  }

  /**
   * An output call (plot, hline, plotshape, bgcolor, fill, ...) whose other arguments are constants or
   * variables (check/hoist-plan.ts outputCells, the compile backend's rule): once the first call
   * registered the output (its meta from those arguments, which later calls never read), a bar's call
   * evaluates only its cell and colour, in the order written, and writes them into the output's column
   * and colour track, as the impl's own hot path does; no argument array, no generic impl call.
   * `first`: the general call, for the call that registers the output.
   */
  private outputCall(
    out: OutputCells,
    first: Fn,
    site: CallSite,
    cell: Fn | null,
    color: Fn | null,
    colorFirst: boolean,
  ): Fn {
    const flow = this.flow;
    const index = out.index;
    // (the plot builtins' own cell converters: the first call wrote its cell through them)
    const asCell = out.kind === "number" ? (x: unknown) => x as number : out.kind === "flag" ? flagCell : packedColor;
    const g = cell ?? (() => undefined);
    // (through a copy, in turn: fused.generated.ts outputCopy)
    const shape = { flow, site, index, asCell, g, color, colorFirst, first, packColor: packedColor };
    return outputCopy(this.takeShapeCopy("output"), shape);
  }

  /** generalCall's closure for the order of its evaluated arguments (S a slot read, F a closure). */
  private callShape(
    shape: string,
    impl: BuiltinImpl,
    args: unknown[],
    site: CallSite,
    slotAt: number[],
    slotOf: number[],
    fnAt: number[],
    fns: Fn[],
  ): Fn {
    const flow = this.flow;
    const N = this.nums;
    switch (shape) {
      case "":
        return () => impl(flow.ctx, args, site);
      case "S": {
        const i0 = slotAt[0]!,
          s0 = slotOf[0]!;
        return () => {
          args[i0] = N[s0];
          return impl(flow.ctx, args, site);
        };
      }
      case "F": {
        const i0 = fnAt[0]!,
          f0 = fns[0]!;
        return () => {
          args[i0] = f0();
          return impl(flow.ctx, args, site);
        };
      }
      case "SS": {
        const i0 = slotAt[0]!,
          s0 = slotOf[0]!,
          i1 = slotAt[1]!,
          s1 = slotOf[1]!;
        return () => {
          args[i0] = N[s0];
          args[i1] = N[s1];
          return impl(flow.ctx, args, site);
        };
      }
      case "FF": {
        const i0 = fnAt[0]!,
          f0 = fns[0]!,
          i1 = fnAt[1]!,
          f1 = fns[1]!;
        return () => {
          args[i0] = f0();
          args[i1] = f1();
          return impl(flow.ctx, args, site);
        };
      }
      case "SF": {
        const i0 = slotAt[0]!,
          s0 = slotOf[0]!,
          i1 = fnAt[0]!,
          f1 = fns[0]!;
        return () => {
          args[i0] = N[s0];
          args[i1] = f1();
          return impl(flow.ctx, args, site);
        };
      }
      case "FS": {
        const i0 = fnAt[0]!,
          f0 = fns[0]!,
          i1 = slotAt[0]!,
          s1 = slotOf[0]!;
        return () => {
          args[i0] = f0();
          args[i1] = N[s1];
          return impl(flow.ctx, args, site);
        };
      }
    }
    // three or more evaluated arguments: slot reads as closures, each argument written from its own
    // site up to eight (unrolledArgs), one loop past that
    const at: number[] = [],
      get: Fn[] = [];
    let si = 0,
      fi = 0;
    for (const k of shape) {
      if (k === "S") {
        const s = slotOf[si]!;
        at.push(slotAt[si++]!);
        get.push(() => N[s]);
      } else {
        at.push(fnAt[fi]!);
        get.push(fns[fi++]!);
      }
    }
    const m = at.length;
    if (m <= 8) return unrolledArgs(at, get, args, impl, flow, site);
    return () => {
      for (let j = 0; j < m; j++) args[at[j]!] = get[j]!();
      return impl(flow.ctx, args, site);
    };
  }

  /**
   * A builtin with a per-site request (BuiltinDef.siteRequest, strategy.exit), as the compile backend
   * calls it: the site's own object holds the absent arguments' na defaults and the constant ones
   * converted once (its `varying` bits name the others); per call the others are evaluated in the
   * written order, numbers into the site's Float64Array (an argument array would box each double),
   * then loadNums moves those into the request and one call places it.
   */
  private siteRequestCall(e: Extract<RExpr, { k: "call" }>): Fn | null {
    const sr = e.def.siteRequest;
    if (!sr || e.def.stateful) return null;
    const na = sr.make() as Record<string, unknown>;
    const nums = new Float64Array(sr.fields.length);
    sr.fields.forEach(([field, conv], i) => {
      if (conv === "num") nums[i] = na[field] as number;
    });
    // the constant non-numeric arguments, converted once
    const consts: [string, unknown][] = [];
    let varying = 0;
    // per evaluated argument: its parameter index, its value, its conversion and its request field
    const at: number[] = [],
      get: Fn[] = [],
      convs: SiteConv[] = [],
      names: string[] = [];
    for (const i of e.order ?? e.args.keys()) {
      const a = e.args[i];
      if (a === undefined) continue;
      const [field, conv] = sr.fields[i]!;
      if (a.k === "const") {
        const v = siteValue(conv, a.v);
        if (conv === "num") nums[i] = v as number;
        else consts.push([field, v]);
        continue;
      }
      varying |= 1 << i;
      at.push(i);
      get.push(this.expr(a));
      convs.push(conv);
      names.push(field);
    }
    const { loadNums, place } = sr;
    const m = at.length;
    // (the constants are the node's, which the site names; the request is the run's own, made by the
    // run's first call, as the broker keeps what the site placed last in it: memo.ts Flow.run)
    const gks = get.map((g) => keyOf(g));
    const key = gks.includes(null) ? null : `R${e.site}|${gks.join(",")}`;
    const flow = this.flow;
    return this.kept(key, () => {
      siteRequestBuilds.count++;
      let req = sr.make() as Record<string, unknown>,
        run = -1;
      return () => {
        if (run !== flow.run) {
          run = flow.run;
          req = sr.make() as Record<string, unknown>;
          for (let j = 0; j < consts.length; j++) req[consts[j]![0]] = consts[j]![1];
          req.varying = varying;
        }
        for (let j = 0; j < m; j++) {
          const v = get[j]!();
          if (convs[j] === "num") nums[at[j]!] = typeof v === "number" ? v : NaN;
          else req[names[j]!] = siteValue(convs[j]!, v);
        }
        loadNums(req, nums);
        place(flow.ctx, req);
      };
    });
  }

  /**
   * na / nz and the Math-backed math.* functions of one number, every argument an int or float in
   * parameter order (the compile backend writes the same ones out: codegen inlineCall): the impl's
   * operation on the evaluated arguments, no argument array, no call of the impl. na(x) is x !== x,
   * nz(x) x unless na, else 0 (nz(x, y): y, both evaluated first, as for the call).
   */
  private pureNumericCall(e: Extract<RExpr, { k: "call" }>, columns = true): Fn | null {
    if (e.order !== undefined || e.args.length === 0 || !e.args.every((a) => a !== undefined && isIntOrFloat(a)))
      return null;
    const column = columns && e.name === "na" && e.args.length === 1 ? this.columnNaOf(e) : null;
    if (column) return column;
    const args = e.args as RExpr[];
    const n = args.length;
    const math = MATH_UNARY[e.name];
    if (!(math && n === 1) && !(e.name === "na" && n === 1) && !(e.name === "nz" && n <= 2)) return null;
    const N = this.nums;
    const x = this.operand(args[0]!);
    const xi = x.i,
      xf = x.f;
    const xs = x.k === "S";
    // (a constant argument: the general call, as rare as it is cheap)
    if (x.k === "C") return null;
    const xk = this.operandKey(x);
    const y = n === 2 ? this.operand(args[1]!) : null;
    const yk = y === null ? "" : this.operandKey(y);
    // (through a copy, in turn: fused.generated.ts pureCopy)
    const copy = this.takeShapeCopy("pure");
    const tag = math ? `m${e.name}` : e.name === "na" ? "na" : "nz";
    const key = xk && yk !== null ? `${tag}|${xk}|${yk}@${copy % FUSED_COPIES}` : null;
    return this.kept(key, () => pureCopy(copy, e.name, math, x, y, N));
  }

  /**
   * `na(col[k])` of a bar column at a numeric slot offset, plus or minus a constant (`na(high[j])`,
   * `na(close[i + 1])`): one closure reading and testing the value in place (fused.generated.ts
   * columnNa), pureNumericCall's general na closure called for any offset outside the past bars; else null.
   */
  private columnNaOf(e: Extract<RExpr, { k: "call" }>): Fn | null {
    const at = this.hoisted.has(e) ? null : this.columnLeaf(e.args[0]!);
    if (at === null) return null;
    const slow = this.pureNumericCall(e, false);
    const sk = slow && keyOf(slow);
    if (!slow) return null;
    columnPairBuilds.na++;
    const N = this.nums;
    return this.kept(sk && `cn${at.ci}.${at.off}.${numKey(at.add)}|${sk}`, () => columnNa(at, N, this.flow, slow));
  }

  /**
   * math.max/math.min of two numbers (the compile backend inlines them the same way): na if either
   * is, else the greater (smaller) one, ties keeping the first; no argument array. A numeric
   * variable operand is read in place. `store` >= 0: the statement `N[store] := math.max(...)`, the
   * result written into that numeric slot by the same closure (no double returned, so none boxed).
   */
  private extremeCall(e: Extract<RExpr, { k: "call" }>, store = -1): Fn | null {
    if ((e.name !== "math.max" && e.name !== "math.min") || e.order !== undefined || e.args.length !== 2) return null;
    const [a, b] = e.args;
    if (!a || !b || !isIntOrFloat(a) || !isIntOrFloat(b)) return null;
    const N = this.nums;
    const max = e.name === "math.max";
    const sa = this.slotOf(a);
    const read = sa !== undefined ? this.columnAtSlot(b) : null;
    if (sa !== undefined && read !== null) {
      // `mx := math.max(mx, high[i])` in a loop: the variable and the column read in place, one closure
      const at = this.columnAtSlotParts(b);
      if (store >= 0 && at !== null) {
        // the column read written out here (as columnAtSlotReader reads it; the bar itself from its
        // mirrored slot): one closure with no call inside, the loop's hottest statement in loops.pine
        const flow = this.flow;
        const { col, off, cur } = at;
        // (the limit as a literal: column-at.ts colAt, why)
        return this.kept(`XS${max}|${store}|${sa}|${col}.${off}.${cur}`, () => () => {
          const r = N[sa]!;
          const k = N[off]!;
          const bi = flow.ctx.barIndex;
          const v =
            k > 0 && k <= bi && k <= 10_000
              ? flow.cols[col]![bi - k]!
              : k === 0
                ? N[cur]!
                : colAtOther(flow, N, col, cur, k);
          N[store] = r !== r || v !== v ? NaN : (max ? v > r : v < r) ? v : r;
        });
      }
      const rk = keyOf(read);
      return this.kept(rk && `X${max}|${sa}|${rk}`, () => () => {
        const r = N[sa]!;
        const v = read();
        if (r !== r || v !== v) return NaN;
        return (max ? v > r : v < r) ? v : r;
      });
    }
    const cb = b.k === "const" && typeof b.v === "number" ? b.v : undefined;
    if (cb !== undefined && a.k !== "const") {
      // `math.min(limit, 50)`, `math.max(x, 0)`: the constant in place, not a closure's call
      const fa = sa === undefined ? this.expr(a) : null;
      const ka = fa === null ? `S${sa}` : keyOf(fa) && `F${keyOf(fa)}`;
      extremeConstBuilds.count++;
      const key = ka && `XC${max}|${store}|${ka}|${numKey(cb)}`;
      if (store >= 0)
        return this.kept(key, () => () => {
          const r = fa === null ? N[sa!]! : (fa() as number);
          N[store] = r !== r || cb !== cb ? NaN : (max ? cb > r : cb < r) ? cb : r;
        });
      return this.kept(key, () => () => {
        const r = fa === null ? N[sa!]! : (fa() as number);
        if (r !== r || cb !== cb) return NaN;
        return (max ? cb > r : cb < r) ? cb : r;
      });
    }
    const fa = sa === undefined ? this.expr(a) : null;
    const sb = this.slotOf(b);
    const fb = sb === undefined ? this.expr(b) : null;
    const side = (f: Fn | null, slot: number | undefined) => (f === null ? `S${slot}` : keyOf(f) && `F${keyOf(f)}`);
    const ka = side(fa, sa),
      kb = side(fb, sb);
    const key = ka && kb && `XG${max}|${store}|${ka}|${kb}`;
    if (store >= 0)
      return this.kept(key, () => () => {
        const r = fa === null ? N[sa!]! : (fa() as number);
        const v = fb === null ? N[sb!]! : (fb() as number);
        N[store] = r !== r || v !== v ? NaN : (max ? v > r : v < r) ? v : r;
      });
    return this.kept(key, () => () => {
      const r = fa === null ? N[sa!]! : (fa() as number);
      const v = fb === null ? N[sb!]! : (fb() as number);
      if (r !== r || v !== v) return NaN;
      return (max ? v > r : v < r) ? v : r;
    });
  }

  /**
   * A builtin with a positional form (BuiltinDef.direct, e.g. array.push/size/avg): called with its
   * arguments, evaluated in the written order, which is parameter order here (givenInOrder). No
   * argument array, so a double passed next to an array is not boxed on its way in (the compile
   * backend calls the same function the same way). Null when the call does not qualify.
   */
  private directCall(e: Extract<RExpr, { k: "call" }>): Fn | null {
    const d = e.def.direct;
    if (!d || e.def.stateful || !givenInOrder(e) || e.args.length > 4) return null;
    const flow = this.flow;
    const slots = this.arraySlots(e);
    // (the builtin is the node's, which the site names)
    if (slots !== null)
      return this.kept(`DA${e.site}|${slots.a}|${slots.i}`, () => arraySlotPath(e.name, slots, d, flow));
    const alpha = this.colorAlpha(e);
    if (alpha !== null) return alpha;
    const get = e.args.map((a): Fn => (a === undefined ? this.kept("U", () => () => undefined) : this.expr(a)));
    const gks = get.map((g) => keyOf(g));
    // (a copy of the call's closure, in turn: fused.generated.ts directCopy)
    const copy = this.takeShapeCopy("direct");
    const key = gks.includes(null) ? null : `D${e.site}|${gks.join(",")}@${copy % FUSED_COPIES}`;
    return this.kept(key, () => arrayFastPath(e.name, get, d, flow) ?? this.directShape(get, d, copy));
  }

  /**
   * `color.new(x, t)` with t a number constant (not na): t's alpha byte computed once, x's other bytes
   * kept in place (fused.generated.ts colorAlphaCopy), x a colour slot read in place; colorNew's
   * withAlpha, without the transparency's clamping and rounding per bar. Null for any other call.
   */
  private colorAlpha(e: Extract<RExpr, { k: "call" }>): Fn | null {
    if (e.name !== "color.new" || e.args.length !== 2) return null;
    const [c, t] = e.args;
    if (c === undefined || t === undefined || t.k !== "const" || this.hoisted.has(t)) return null;
    if (typeof t.v !== "number" || t.v !== t.v) return null;
    const a = alphaOf(t.v);
    const x = this.operand(c);
    if (x.k === "C") return null;
    const copy = this.takeShapeCopy("color");
    const xk = x.k === "S" ? `S${x.i}` : keyOf(x.f) && `F${keyOf(x.f)}`;
    return this.kept(xk && `CA${a}|${xk}@${copy % FUSED_COPIES}`, () => colorAlphaCopy(copy, x, a, this.nums));
  }

  /**
   * `Zone z = zones.get(i)` / `z := zones.get(i)` into a non-numeric variable, the array and the index
   * read from their slots (arraySlots): one closure for the element and its store, or null.
   */
  private elementStore(e: RExpr, slot: number): Fn | null {
    if (e.k !== "call" || e.name !== "array.get" || this.hoisted.has(e)) return null;
    const d = e.def.direct;
    if (!d || e.def.stateful || !givenInOrder(e)) return null;
    const at = this.arraySlots(e);
    if (at === null) return null;
    const { V, a: s, N, i: k } = at;
    const flow = this.flow;
    // (the builtin is the node's, which the site names)
    return this.kept(`DS${e.site}|${s}|${k}|${slot}`, () => () => (V[slot] = elementAt(V[s], N[k]!, d, flow)));
  }

  /**
   * `xs.size()` and `xs.get(i)` on an array variable (and an index in a numeric variable): the slots
   * arraySlotPath reads in place, or null.
   */
  private arraySlots(e: Extract<RExpr, { k: "call" }>): ArraySlots | null {
    const n = e.name === "array.size" ? 1 : e.name === "array.get" ? 2 : 0;
    const [arr, at] = e.args;
    if (e.args.length !== n || arr === undefined) return null;
    const a = this.objectSlot(arr);
    if (a < 0) return null;
    if (n === 1) return { V: this.vals, a, N: this.nums, i: -1 };
    const i = at === undefined ? undefined : this.slotOf(at);
    return i === undefined ? null : { V: this.vals, a, N: this.nums, i };
  }

  /** directCall's closure for its number of arguments. */
  private directShape(get: Fn[], d: (ctx: ExecContext, ...a: any[]) => any, copy: number): Fn {
    return directCopy(copy, this.flow, d, get);
  }

  /**
   * plot(number, constants...): once the first call registered the output (and its constant colour,
   * which then never changes), a bar's call only writes the value into the output's column, as the
   * impl's hot path does (the compile backend does the same): no boxed double in the args array.
   */
  private plainPlot(impl: BuiltinImpl, args: unknown[], site: CallSite, slot: number, f: Fn | undefined): Fn {
    const flow = this.flow,
      N = this.nums;
    if (slot >= 0) {
      return () => {
        const o = site.state as PlotOutput | undefined;
        if (o !== undefined) {
          o.col[flow.ctx.barIndex] = N[slot]!;
          return o.meta.index;
        }
        args[0] = N[slot];
        return impl(flow.ctx, args, site);
      };
    }
    // (through a copy, in turn: fused.generated.ts plotCopy)
    return plotCopy(this.takeShapeCopy("plot"), flow, site, f!, (x) => {
      args[0] = x;
      return impl(flow.ctx, args, site);
    });
  }

  private switchExpr(e: Extract<RExpr, { k: "switch" }>): Fn {
    const subject = e.subject ? this.expr(e.subject) : null;
    const tests = e.cases.map((c) => (c.test ? this.expr(c.test) : null));
    const bodies = e.cases.map((c) => this.block(c.body));
    const na = naOfType(e.t.name);
    const n = tests.length;
    const sk = subject === null ? "-" : keyOf(subject);
    const tks = tests.map((t) => (t === null ? "-" : keyOf(t)));
    const bks = bodies.map((b) => keyOf(b));
    const key =
      sk === null || tks.includes(null) || bks.includes(null)
        ? null
        : `SW${e.t.name}|${sk}|${tks.join(",")}|${bks.join(",")}`;
    if (subject === null)
      return this.kept(key, () => {
        // A guard list (no subject) as a chain of closures, one per case: each case's test and body
        // are called from a call site of their own, which V8 can inline, where the loop below calls
        // every case's closures from one site (megamorphic). Same cases in the same order.
        let next: Fn = () => na;
        for (let i = n - 1; i >= 0; i--) {
          const t = tests[i];
          const b = bodies[i]!;
          const rest = next;
          next = t === null ? b : () => (t!() ? b() : rest());
        }
        return next;
      });
    const fast = this.switchConst(e, subject, bodies, na, key);
    if (fast !== null) return fast;
    return this.kept(key, () => () => {
      const s = subject();
      for (let i = 0; i < n; i++) {
        const t = tests[i];
        if (t === null) return bodies[i]!();
        const v = t!();
        if (v === s && v === v && v !== null) return bodies[i]!();
      }
      return na;
    });
  }

  /**
   * A switch with a subject whose case tests are all constants (enum members, literals): the cases
   * unrolled in a copy of their own (fused.generated.ts switchConstCopy), each case's body called
   * from its own call site, where the general loop calls every case's test and body from one
   * megamorphic site. A case whose constant is na never matches, so it is left out; the cases after
   * the default are unreachable. Null for any other switch or more than SWITCH_CONST_CASES cases.
   */
  private switchConst(
    e: Extract<RExpr, { k: "switch" }>,
    subject: Fn,
    bodies: Fn[],
    na: unknown,
    key: string | null,
  ): Fn | null {
    const vs: unknown[] = [],
      bs: Fn[] = [];
    let other: Fn | null = null;
    for (let i = 0; i < e.cases.length && other === null; i++) {
      const t = e.cases[i]!.test;
      if (t === null) other = bodies[i]!;
      else if (t.k !== "const" || this.hoisted.has(t)) return null;
      else if (t.v === t.v && t.v !== null && t.v !== undefined) {
        vs.push(t.v);
        bs.push(bodies[i]!);
      }
    }
    if (vs.length > SWITCH_CONST_CASES) return null;
    const dflt = other ?? this.kept(constKey(na), () => () => na);
    const copy = this.takeShapeCopy("switch");
    return this.kept(key && `SC${key}@${copy % FUSED_COPIES}`, () => switchConstCopy(copy, subject, vs, bs, dflt));
  }

  private forLoop(e: Extract<RExpr, { k: "for" }>): Fn {
    const vals = this.store(e.counter) as any[];
    const from = this.expr(e.from),
      to = this.expr(e.to);
    const step = e.step ? this.expr(e.step) : null;
    const body = this.block(e.body);
    const slot = e.counter.slot;
    const reeval = e.reevalTo;
    const flow = this.flow;
    const na = naOfType(e.t.name);
    return this.kept(this.loopKey(`FV${e.t.name}`, e.counter, reeval, from, to, step, body), () => () => {
      const a = from() as number;
      let b = to() as number;
      let v: any = na;
      if (a !== a || b !== b) return v;
      const s = step ? Math.abs(step() as number) : 1;
      if (!(s > 0)) return v;
      const up = a <= b;
      // (the run's budget, read per loop: the closure may be kept, memo.ts)
      const B = flow.B;
      B.enter();
      for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
        vals[slot] = i;
        v = body();
        if (flow.ctl !== 0) {
          const c = flow.ctl;
          flow.ctl = 0;
          if (c === 1) break;
        }
        if (--B.left <= 0) B.check();
        if (reeval) {
          b = to() as number;
          if (b !== b) break;
        }
      }
      B.exit();
      return v;
    });
  }

  /** A general for loop's kept-closure key (its counter, bounds, step and body), or null. */
  private loopKey(
    tag: string,
    counter: VarSlot,
    reeval: boolean | undefined,
    from: Fn,
    to: Fn,
    step: Fn | null,
    body: Fn,
  ): string | null {
    const ks = [keyOf(from), keyOf(to), step === null ? "-" : keyOf(step), keyOf(body)];
    if (ks.includes(null)) return null;
    return `${tag}|${isNumericSlot(counter) ? "N" : "V"}${counter.slot}|${!!reeval}|${ks.join("|")}`;
  }

  /**
   * A statement-level `for` (its value unread): the body runs as a void block, no value kept per
   * iteration. Same bounds, order, control flow and budget accounting as forLoop().
   */
  private forLoopVoid(e: Extract<RExpr, { k: "for" }>): () => void {
    if (isNumericSlot(e.counter)) return this.forLoopFlat(e);
    const vals = this.store(e.counter) as any[];
    const from = this.expr(e.from),
      to = this.expr(e.to);
    const step = e.step ? this.expr(e.step) : null;
    const body = this.voidBlock(e.body);
    const slot = e.counter.slot;
    const reeval = e.reevalTo;
    const flow = this.flow;
    return this.kept(this.loopKey("FVV", e.counter, reeval, from, to, step, body), () => () => {
      const a = from() as number;
      let b = to() as number;
      if (a !== a || b !== b) return;
      const s = step ? Math.abs(step() as number) : 1;
      if (!(s > 0)) return;
      const up = a <= b;
      const B = flow.B;
      B.enter();
      for (let i = a; up ? i <= b : i >= b; i += up ? s : -s) {
        vals[slot] = i;
        body();
        if (flow.ctl !== 0) {
          const c = flow.ctl;
          flow.ctl = 0;
          if (c === 1) break;
        }
        if (--B.left <= 0) B.check();
        if (reeval) {
          b = to() as number;
          if (b !== b) break;
        }
      }
      B.exit();
    });
  }

  /**
   * A statement-level `for` on a numeric counter with its body flattened into the loop: the body's
   * statements (up to four written out, more through an array) are called from the loop itself, not
   * through a block closure, and bounds that are a constant, a numeric slot or a slot plus/minus a
   * constant (`n - 1`, re-evaluated every iteration in v6) are read in place, not through a closure
   * returning a double (boxed on every call). One try around the whole loop gives an error leaving
   * statement j its line (j is -1 outside the body: bounds and budget errors keep the loop's own
   * line, as in forLoopVoid). Same order of evaluation, control flow and budget ticks as forLoop().
   */
  private forLoopFlat(e: Extract<RExpr, { k: "for" }>): () => void {
    const fk = this.bound(e.from),
      tk = this.bound(e.to);
    const step = e.step ? this.expr(e.step) : null;
    const lines = e.body.stmts.map((s) => s.line);
    // read again after each iteration (v6) only when the body may change it: a constant, or a
    // variable the body never assigns, keeps its value (a shadow or bar slot is fixed in a bar)
    const reeval = !!e.reevalTo && tk.k !== 0 && (tk.k === 4 || (tk.v !== null && blockAssigns(e.body, tk.v)));
    const frame = {
      N: this.nums,
      slot: e.counter.slot,
      fK: fk.k,
      fS: fk.s,
      fC: fk.c,
      fF: fk.f,
      tK: tk.k,
      tS: tk.s,
      tC: tk.c,
      tF: tk.f,
      step,
      reeval,
      lines,
    };
    const extremes = this.extremeWindow(e);
    // (a kernel is kept as the drivers are: its frame and statements are slots, constants and kept bounds)
    const bounds = [this.boundKey(fk), this.boundKey(tk), step ? keyOf(step) : "-"];
    const fkey = bounds.includes(null) ? null : `${frame.slot}|${reeval}|${lines.join(".")}|${bounds.join("|")}`;
    if (extremes) {
      const xs = extremes.map((x) => `${x.dst}.${x.src}.${x.col}.${x.cur}.${x.max}`).join(",");
      return this.kept(fkey && `XW|${fkey}|${xs}`, () => extremeWindowLoop(frame, this.flow, extremes));
    }
    const counted = this.countedIf(e);
    if (counted) {
      const { l, r, op, yes, no } = counted;
      const part = (o: KernelOperand) => `${o.k}.${numKey(o.c)}.${o.s}.${o.col}`;
      const br = (b: CountBranch) => `${b.k}.${b.d}.${numKey(b.c)}.${b.sub}`;
      const key = fkey && `CI|${fkey}|${part(l)}|${part(r)}|${op}|${br(yes)}|${br(no)}`;
      return this.kept(key, () => countedIfLoop(frame, this.flow, l, r, op, yes, no));
    }
    const fns = e.body.stmts.map((s) => this.stmt(s, false));
    // a copy of the driver per loop of the program, in turn (drivers.generated.ts: why)
    const copy = this.forCopy++ % DRIVER_COPIES;
    const ctl = blockMayCtl(e.body);
    const parts = [this.boundKey(fk), this.boundKey(tk), step ? keyOf(step) : "-", this.listKey(fns, lines)];
    const key = parts.includes(null) ? null : `for${copy}|${frame.slot}|${reeval}|${ctl}|${parts.join("|")}`;
    return this.kept(key, () => forFlat[copy]!({ ...frame, flow: this.flow, fns, ctl }));
  }

  /**
   * A loop body that is one statement-level `if` comparing two kernel operands (kernelOperand), each
   * branch absent, a break, a continue or `x += <constant>` / `x -= <constant>` on a numeric variable
   * (`if close[i] > open[i] \n ups += 1`): its parts for countedIfLoop, else null.
   */
  private countedIf(e: Extract<RExpr, { k: "for" }>) {
    if (e.body.stmts.length !== 1) return null;
    const st = e.body.stmts[0]!;
    if (st.k !== "expr" || st.e.k !== "if" || this.hoisted.has(st.e)) return null;
    const { cond, then, else: els } = st.e;
    if (cond.k !== "bin" || !this.fusable(cond) || !COMPARE_OPS.includes(cond.op) || this.hoisted.has(cond))
      return null;
    const l = this.kernelOperand(cond.l, e.counter),
      r = this.kernelOperand(cond.r, e.counter);
    const yes = this.countBranch(then, e.counter),
      no = this.countBranch(els, e.counter);
    if (!l || !r || !yes || !no) return null;
    return { l, r, op: COMPARE_OPS.indexOf(cond.op), yes, no };
  }

  /** A numeric constant (k 0), a numeric slot (1) or a bar column at the loop counter (2), else null. */
  private kernelOperand(e: RExpr, counter: VarSlot): KernelOperand | null {
    if (e.k === "const" && typeof e.v === "number") return { k: 0, c: e.v, s: 0, col: -1 };
    if (e.k === "colHist" && e.n === null && !this.hoisted.has(e)) {
      const off = e.off;
      if (off.k !== "load" || off.v.slot !== counter.slot || !isNumericSlot(off.v) || this.hoisted.has(off))
        return null;
      const at = this.columnAtSlotParts(e);
      return at === null ? null : { k: 2, c: 0, s: at.cur, col: at.col };
    }
    const s = this.slotOf(e);
    return s === undefined ? null : { k: 1, c: 0, s, col: -1 };
  }

  /** A counted if's branch (CountBranch), else null. */
  private countBranch(b: RBlock | null, counter: VarSlot): CountBranch | null {
    if (b === null) return { k: 0, d: 0, c: 0, sub: false };
    if (b.stmts.length !== 1) return null;
    const s = b.stmts[0]!;
    if (s.k === "break" || s.k === "continue") return { k: s.k === "break" ? 1 : 2, d: 0, c: 0, sub: false };
    if (s.k !== "assign" || (s.op !== "+=" && s.op !== "-=") || s.str || !isNumericSlot(s.v)) return null;
    if (s.v.slot === counter.slot || s.value.k !== "const" || typeof s.value.v !== "number") return null;
    return { k: 3, d: s.v.slot, c: s.value.v, sub: s.op === "-=" };
  }

  /**
   * A loop body made only of `x := math.max(y, col[i])` / math.min statements, `i` the loop's counter
   * and col a bar column (`mx := math.max(mx, high[i])`): the statements as data for
   * extremeWindowLoop, else null.
   */
  private extremeWindow(e: Extract<RExpr, { k: "for" }>): ExtremeStmt[] | null {
    const out: ExtremeStmt[] = [];
    const counter = e.counter.slot;
    for (const s of e.body.stmts) {
      if (s.k !== "assign" || s.op !== ":=" || !isNumericSlot(s.v) || s.v.slot === counter) return null;
      const c = s.value;
      if (c.k !== "call" || this.hoisted.has(c) || (c.name !== "math.max" && c.name !== "math.min")) return null;
      if (c.order !== undefined || c.args.length !== 2) return null;
      const [a, b] = c.args;
      if (!a || !b || !isIntOrFloat(a) || !isIntOrFloat(b)) return null;
      const src = this.slotOf(a);
      if (src === undefined || b.k !== "colHist" || b.n !== null) return null;
      if (b.off.k !== "load" || b.off.v.slot !== counter || !isNumericSlot(b.off.v) || this.hoisted.has(b.off))
        return null;
      const at = this.columnAtSlotParts(b);
      if (at === null) return null;
      out.push({ dst: s.v.slot, src, col: at.col, cur: at.cur, max: c.name === "math.max" });
    }
    return out.length > 0 ? out : null;
  }

  /**
   * A numeric loop bound read without a closure where it is a constant (k 0), a numeric slot (1) or
   * a slot plus (2) or minus (3) a constant: the same value the fused operator computes; else its
   * closure (4).
   */
  private bound(e: RExpr): { k: number; s: number; c: number; f: Fn; v: VarSlot | null } {
    if (this.fusable(e) && (e.op === "+" || e.op === "-") && !this.hoisted.has(e)) {
      const l = this.slotOf(e.l);
      if (l !== undefined && e.r.k === "const" && typeof e.r.v === "number")
        return { k: e.op === "+" ? 2 : 3, s: l, c: e.r.v, f: noop, v: this.varOf(e.l) };
    }
    const o = this.operand(e);
    if (o.k === "C") return { k: 0, s: 0, c: o.c, f: noop, v: null };
    if (o.k === "S") return { k: 1, s: o.i, c: 0, f: noop, v: this.varOf(e) };
    return { k: 4, s: 0, c: 0, f: o.f, v: null };
  }

  /** A loop bound (bound()) as a key part of a kept closure, or null when its closure is not kept. */
  private boundKey(b: { k: number; s: number; c: number; f: Fn }): string | null {
    if (b.k !== 4) return `${b.k}:${b.s}:${numKey(b.c)}`;
    const k = keyOf(b.f);
    return k && `4:${k}`;
  }

  /**
   * The variable whose value a slot operand (slotOf) holds, or null where no statement can write the
   * slot during the bar (a history shadow, a bar field, a hoisted value).
   */
  private varOf(e: RExpr): VarSlot | null {
    return e.k === "load" && !this.hoisted.has(e) ? e.v : null;
  }

  /**
   * A statement-level `for x in coll` (its value unread) through a copy of the for-in driver
   * (drivers.generated.ts forInFlat): over an array, the body's statements are called from the loop
   * itself, each from a site of its own as in forLoopFlat (up to 12 written out); a matrix's rows and
   * a map's entries run the same statements through one void body closure. Same order, control flow,
   * budget ticks and errors as forIn().
   */
  private forInVoid(e: Extract<RExpr, { k: "forin" }>): () => void {
    const vv = this.store(e.value);
    const iv = e.index ? this.store(e.index) : this.vals;
    const it = this.expr(e.iterable);
    const fns = e.body.stmts.map((s) => this.stmt(s, false));
    const lines = e.body.stmts.map((s) => s.line);
    const body = this.flatBody(fns, lines);
    const bk = this.listKey(fns, lines);
    // a copy of the driver per loop of the program, in turn (drivers.generated.ts: why)
    const copy = this.forInCopy++ % DRIVER_COPIES;
    forInDriverBuilds.count++;
    const p = { flow: this.flow, it, vv, vs: e.value.slot, iv, is: e.index ? e.index.slot : -1, fns, lines, body };
    return this.kept(bk && this.forInKey(`FIV${copy}`, e, it, bk), () => forInFlat[copy]!(p));
  }

  /** A for-in loop's kept-closure key (its variables, iterable and body), or null. */
  private forInKey(tag: string, e: Extract<RExpr, { k: "forin" }>, it: Fn, bk: string): string | null {
    const ik = keyOf(it);
    if (ik === null) return null;
    const at = (v: VarSlot | null | undefined) => (v ? `${isNumericSlot(v) ? "N" : "V"}${v.slot}` : "-");
    return `${tag}|${at(e.value)}|${at(e.index)}|${ik}|${bk}`;
  }

  /**
   * A statement-level `while` (its value unread): the body's statements called from the loop itself,
   * as in forLoopFlat. Same order, control flow, budget ticks and errors as the expression form.
   */
  private whileVoid(e: Extract<RExpr, { k: "while" }>): () => void {
    const cond = this.expr(e.cond);
    const fns = e.body.stmts.map((s) => this.stmt(s, false));
    const lines = e.body.stmts.map((s) => s.line);
    const ck = keyOf(cond),
      bk = this.listKey(fns, lines);
    // a copy per `while` of the program, in turn (drivers.generated.ts: why)
    const copy = this.whileCopy++ % DRIVER_COPIES;
    whileDriverBuilds.count++;
    return this.kept(ck && bk && `W${copy}|${ck}|${bk}`, () => whileFlat[copy]!(this.flow, cond, fns, lines));
  }

  /** Already compiled body statements as one void block: stops at a break/continue, error lines per statement. */
  private flatBody(fns: Fn[], lines: number[]): () => void {
    const n = fns.length;
    const flow = this.flow;
    return () => {
      let i = 0;
      try {
        for (; i < n; i++) {
          fns[i]!();
          if (flow.ctl !== 0) return;
        }
      } catch (err) {
        throw atLine(err, lines[i]!);
      }
    };
  }

  private forIn(e: Extract<RExpr, { k: "forin" }>): Fn {
    const vv = this.store(e.value) as any[];
    const iv = (e.index ? this.store(e.index) : this.vals) as any[];
    const it = this.expr(e.iterable);
    const body = this.block(e.body);
    const vs = e.value.slot;
    const is = e.index ? e.index.slot : -1;
    const na = naOfType(e.t.name);
    const flow = this.flow;
    const run = (v: any): number => {
      const c = flow.ctl;
      flow.ctl = 0;
      return c;
    };
    const bk = keyOf(body);
    return this.kept(bk && this.forInKey(`FI${e.t.name}`, e, it, bk), () => () => {
      const coll = it();
      let v: any = na;
      if (coll === null || coll === undefined) return v;
      // (the run's budget and context, read per loop: the closure may be kept, memo.ts)
      const B = flow.B;
      B.enter();
      if (coll instanceof PineArray) {
        for (let i = 0; i < coll.values.length; i++) {
          if (is >= 0) iv[is] = i;
          vv[vs] = coll.values[i];
          v = body();
          if (flow.ctl !== 0 && run(v) === 1) break;
          if (--B.left <= 0) B.check();
        }
      } else if (coll instanceof PineMatrix) {
        for (let r = 0; r < coll.rows; r++) {
          if (is >= 0) iv[is] = r;
          vv[vs] = new PineArray(coll.elemType, coll.data.slice(r * coll.cols, (r + 1) * coll.cols));
          v = body();
          if (flow.ctl !== 0 && run(v) === 1) break;
          B.spend(1 + (coll.cols >> 3));
        }
      } else if (coll instanceof PineMap) {
        for (const [k, x] of coll.map) {
          if (is >= 0) iv[is] = k;
          vv[vs] = x;
          v = body();
          if (flow.ctl !== 0 && run(v) === 1) break;
          if (--B.left <= 0) B.check();
        }
      } else {
        B.exit();
        flow.ctx.runtimeError("Cannot iterate over this value");
      }
      B.exit();
      return v;
    });
  }
}

const noop: Fn = () => NaN;

/** How many call sites took Compiler.siteRequestCall (tests assert the path is taken). */
export const siteRequestBuilds = { count: 0 };

/** How many nested blocks were compiled through the block driver (Compiler.blockRun; tests read it). */
export const blockDriverBuilds = { count: 0 };
/** How many statement-level `while` loops took a copy of the while driver (tests count them). */
export const whileDriverBuilds = { count: 0 };
/** How many closures took a copy of each shape of fused.generated.ts's shape copies (tests read it). */
export const shapeCopyBuilds = shapeCounts();

/** A count for each shape of fused.generated.ts's shape copies. */
function shapeCounts() {
  return { store: 0, tern: 0, output: 0, plot: 0, direct: 0, ucall: 0, pure: 0, switch: 0, color: 0 };
}
/** How many bar column reads at a numeric variable plus a constant read it in place (Compiler.slotPlusConst; tests read it). */
export const columnShiftBuilds = { count: 0 };
/** How many math.max/min calls of a value and a constant take the constant in place (Compiler.extremeCall; tests read it). */
export const extremeConstBuilds = { count: 0 };
/** How many flat ifs' then branches run a statement and then break/continue (Compiler.ifFlat k 4/5; tests read it). */
export const ifTailBuilds = { count: 0 };
/** How many chains of three or more and/or operands became one closure (Compiler.logicChain; tests read it). */
export const logicChainBuilds = { count: 0 };
/** How many flat ifs test `na(x)` in the driver (Compiler.ifFlat op 6; tests read it). */
export const ifNaBuilds = { count: 0 };

/** How many statement-level `for ... in` loops took a copy of the for-in driver (tests read it). */
export const forInDriverBuilds = { count: 0 };

/**
 * How many compound assignments were fused with their right side's operands (fusedCompound), and
 * how many bar columns at a slot offset became operands of a fused operator (colAt), and how many
 * lazy and/or took a copy (lazyAnd, lazyOr); tests read it.
 */
export const fusedBuilds = { compound: 0, column: 0, logic: 0 };

/**
 * How many `and`/`or` of two comparisons on four bar columns became one columnPair closure (count),
 * comparisons of two bar columns one columnCompare closure (compare), na of a bar column one
 * columnNa closure (na), comparisons of a bar column with slot arithmetic one columnCompareExpr
 * closure (expr); tests read them.
 */
export const columnPairBuilds = { count: 0, compare: 0, na: 0, expr: 0 };

/** A per-site request field's conversion (BuiltinDef.siteRequest.fields). */
type SiteConv = "num" | "str" | "bool" | "raw";

/** An argument converted as its per-site request field takes it (as the impl converts it). */
function siteValue(conv: SiteConv, v: unknown): unknown {
  if (conv === "num") return typeof v === "number" ? v : NaN;
  if (conv === "str") return typeof v === "string" ? v : null;
  return conv === "bool" ? v === true : v;
}

/** A constant as a kept closure's key (primitives only; null for anything else). */
function constKey(v: unknown): string | null {
  if (typeof v === "number") return `K${numKey(v)}`;
  if (typeof v === "string") return `Ks${JSON.stringify(v)}`;
  if (typeof v === "boolean") return `Kb${v}`;
  if (v === null) return "Kn";
  return v === undefined ? "U" : null;
}

/** The math.* builtins that are a Math function of one number (their impls call the same ones). */
const MATH_UNARY: Partial<Record<string, (x: number) => number>> = {
  "math.abs": Math.abs,
  "math.acos": Math.acos,
  "math.asin": Math.asin,
  "math.atan": Math.atan,
  "math.ceil": Math.ceil,
  "math.cos": Math.cos,
  "math.exp": Math.exp,
  "math.floor": Math.floor,
  "math.log": Math.log,
  "math.log10": Math.log10,
  "math.sin": Math.sin,
  "math.sqrt": Math.sqrt,
  "math.tan": Math.tan,
};

/** unrolledArgs' closures built, by number of arguments (tests). */
export const unrolledArgsBuilds: Record<number, number> = {};

/**
 * A general call's 3-8 evaluated arguments, each from its own call site, in order (callShape): the loop
 * over them called every argument closure of the process from one site, which inlined none.
 */
function unrolledArgs(at: number[], get: Fn[], args: unknown[], impl: BuiltinImpl, flow: Flow, site: CallSite): Fn {
  unrolledArgsBuilds[at.length] = (unrolledArgsBuilds[at.length] ?? 0) + 1;
  const [i0, i1, i2, i3, i4, i5, i6, i7] = at as [number, number, number, number, number, number, number, number];
  const [g0, g1, g2, g3, g4, g5, g6, g7] = get as [Fn, Fn, Fn, Fn, Fn, Fn, Fn, Fn];
  switch (at.length) {
    case 3:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        return impl(flow.ctx, args, site);
      };
    case 4:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        args[i3] = g3();
        return impl(flow.ctx, args, site);
      };
    case 5:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        args[i3] = g3();
        args[i4] = g4();
        return impl(flow.ctx, args, site);
      };
    case 6:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        args[i3] = g3();
        args[i4] = g4();
        args[i5] = g5();
        return impl(flow.ctx, args, site);
      };
    case 7:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        args[i3] = g3();
        args[i4] = g4();
        args[i5] = g5();
        args[i6] = g6();
        return impl(flow.ctx, args, site);
      };
    default:
      return () => {
        args[i0] = g0();
        args[i1] = g1();
        args[i2] = g2();
        args[i3] = g3();
        args[i4] = g4();
        args[i5] = g5();
        args[i6] = g6();
        args[i7] = g7();
        return impl(flow.ctx, args, site);
      };
  }
}

/** `==` on strings, bools and objects (generalBinary): na equals nothing. */
function sameValue(a: unknown, b: unknown): boolean {
  return a === b && a !== null;
}

/** `!=` on strings, bools and objects (generalBinary): na differs from nothing. */
function otherValue(a: unknown, b: unknown): boolean {
  return a !== b && a !== null && b !== null;
}

/** The comparison operators ifFlat compares in place, by index. */
const COMPARE_OPS = ["<", "<=", ">", ">=", "==", "!="];
// (the arithmetic columnCompareExpr computes in place: fused.generated.ts)
const ARITH_OPS = ["+", "-", "*", "/"];

function isNum(n: string): boolean {
  return n === "int" || n === "float" || n === "na";
}

/** A loop, the one tuple-valued expression that may yield no tuple at all (when its body never runs). */
/**
 * array.size/get/push/pop/shift on a plain array (not na, not a slice, not empty for pop/shift, an
 * index inside it for get, below the size limit for push): the element operation itself, as the
 * compile backend writes it (get: the builtin's own element read); every other case calls the
 * builtin (its errors). push returns nothing rather than a boxed value.
 */
function arrayFastPath(name: string, get: Fn[], d: (ctx: ExecContext, ...a: any[]) => any, flow: Flow): Fn | null {
  const g0 = get[0]!;
  switch (name) {
    case "array.size":
      if (get.length !== 1) return null;
      return () => {
        const a = g0();
        return a !== null && a.constructor === PineArray ? (a as PineArray).values.length : d(flow.ctx, a);
      };
    case "array.pop":
    case "array.shift": {
      if (get.length !== 1) return null;
      const shift = name === "array.shift";
      return () => {
        const a = g0();
        if (a === null || a.constructor !== PineArray || (a as PineArray).values.length === 0) return d(flow.ctx, a);
        return shift ? (a as PineArray).values.shift() : (a as PineArray).values.pop();
      };
    }
    case "array.get": {
      // an index inside the array (truncated, as the builtin's resolveIndex does); na, negative and
      // out-of-range indexes, na arrays and slices go through the builtin (its na and its errors)
      if (get.length !== 2) return null;
      const g1 = get[1]!;
      return () => {
        const a = g0();
        const i = g1();
        if (a !== null && a.constructor === PineArray && i >= 0 && i < (a as PineArray).values.length)
          return (a as PineArray).values[Math.trunc(i)];
        return d(flow.ctx, a, i);
      };
    }
    case "array.push": {
      if (get.length !== 2) return null;
      const g1 = get[1]!;
      return () => {
        const a = g0();
        const v = g1();
        if (a !== null && a.constructor === PineArray && (a as PineArray).values.length < MAX_ARRAY_SIZE)
          (a as PineArray).values.push(v);
        else d(flow.ctx, a, v);
      };
    }
    default:
      return null;
  }
}

/** The slots of an array read in place (Compiler.arraySlots): the array's in V, the index's in N (-1: none). */
interface ArraySlots {
  V: unknown[];
  a: number;
  N: Float64Array;
  i: number;
}

/**
 * arrayFastPath's size and get with the array (and the index) read from their variables' slots: the
 * same element operation, the same builtin call otherwise.
 */
function arraySlotPath(name: string, at: ArraySlots, d: (ctx: ExecContext, ...a: any[]) => any, flow: Flow): Fn {
  const { V, a: s, N, i: k } = at;
  if (name === "array.size")
    return () => {
      const a = V[s] as PineArray | null;
      return a !== null && a.constructor === PineArray ? a.values.length : d(flow.ctx, a);
    };
  return () => elementAt(V[s], N[k]!, d, flow);
}

/** arrayFastPath's array.get on an array and an index already read. */
function elementAt(a: unknown, i: number, d: (ctx: ExecContext, ...a: any[]) => any, flow: Flow): unknown {
  if (a !== null && (a as PineArray).constructor === PineArray && i >= 0 && i < (a as PineArray).values.length)
    return (a as PineArray).values[Math.trunc(i)];
  return d(flow.ctx, a, i);
}

function isIntOrFloat(e: RExpr): boolean {
  return e.t.name === "int" || e.t.name === "float";
}

export { isInputCall };

/**
 * Whether an input call's arguments may go unevaluated once the input is known: an input's value
 * is fixed by its first call (its impl keeps it in site.state and returns it, or reads its source,
 * from then on), so later bars may skip arguments whose evaluation has no effect. `close` and the
 * other price sources count (`input.source(close, "Source")`, in most real indicators): a builtin
 * variable without per-site state is a read.
 */
export function inputArgsSkippable(e: Extract<RExpr, { k: "call" }>): boolean {
  return e.args.every((a) => a === undefined || effectFree(a));
}

function effectFree(e: RExpr): boolean {
  if (e.k === "bvar") return e.def.stateful !== true;
  if (e.k === "unary" || e.k === "cast") return effectFree(e.e);
  if (e.k === "bin") return effectFree(e.l) && effectFree(e.r);
  return constantArg(e);
}

/** An argument whose evaluation has no effect and does not depend on the bar: a constant. */
export function constantArg(e: RExpr): boolean {
  if (e.k === "const") return true;
  if (e.k === "unary" || e.k === "cast") return constantArg(e.e);
  if (e.k === "bin") return constantArg(e.l) && constantArg(e.r);
  return false;
}

/**
 * Whether a call's given arguments were written in parameter order (`strategy.exit("X", "L", stop =
 * s)` skips some but keeps the order; e.order lists the given ones as written, then the others).
 */
export function givenInOrder(e: Extract<RExpr, { k: "call" }>): boolean {
  if (e.order === undefined) return true;
  let last = -1;
  for (const i of e.order) {
    if (e.args[i] === undefined) continue;
    if (i < last) return false;
    last = i;
  }
  return true;
}

export function mayRunZeroTimes(e: RExpr): boolean {
  return e.k === "while" || e.k === "for" || e.k === "forin";
}

export function naOfType(name: string): unknown {
  if (name === "int" || name === "float" || name === "color" || name === "na" || name === "void") return NaN;
  if (name === "bool") return false;
  return null;
}

function hasCtl(b: RBlock): boolean {
  return b.stmts.some(
    (s) => s.k === "break" || s.k === "continue" || (s.k === "expr" && (s.e.k === "if" || s.e.k === "switch")),
  );
}

/**
 * The top-level statements in order. A runtime error leaving statement i gets that statement's line
 * unless a nested block gave it its own (the compile backend marks the same statements): one try per
 * bar, nothing per statement.
 */
/** Declarations main() left to the first bar and dead ones it left out (invariant.ts), counted for tests. */
export const invariantBuilds = { skipped: 0, dead: 0 };

/** `all` on the run's first call (the first bar), `rest` on every later one. */
function firstBarAll(all: Fn, rest: Fn): Fn {
  let first = true;
  return () => {
    if (first) {
      first = false;
      return all();
    }
    return rest();
  };
}

function seq(fns: Fn[], lines: number[], done: Fn): Fn {
  const n = fns.length;
  return () => {
    let i = 0;
    try {
      for (; i < n; i++) fns[i]!();
    } catch (err) {
      throw atLine(err, lines[i]!);
    }
    return done();
  };
}

/**
 * `col[k]` with the offset k in the numeric slot `off` (a loop counter): na for an na offset, the
 * history limit checked, offset 0 the bar as the script sees it now: its mirrored numeric slot `cur`
 * (RunState.setBar keeps it in step with ctx). One small closure with no property read by name:
 * reading `ctx[name]` here went megamorphic, and a chain of names made the closure too large for V8
 * to inline into the loop calling it. The run's context and column come through the storage's Flow
 * (the closure is kept across runs, memo.ts).
 */
function columnAtSlotReader(flow: Flow, N: Float64Array, ci: number, cur: number, off: number): () => number {
  // (colAt's reads written out: a call of colAt from here measured slower, r6_v5_varip_while_loops;
  // its common case only, the other offsets out of line: the closure's bytes count against V8's
  // inlining budget of the loop that inlines it; the limit as a literal: column-at.ts colAt, why)
  return () => {
    const k = N[off]!;
    const bi = flow.ctx.barIndex;
    return k > 0 && k <= bi && k <= 10_000
      ? flow.cols[ci]![bi - k]!
      : k === 0
        ? N[cur]!
        : colAtOther(flow, N, ci, cur, k);
  };
}

/**
 * A history read's other offsets (Compiler.hist at a slot offset): na, the bar itself (`current`),
 * negative or over the cap (errors), past the values the ring holds (na).
 */
function ringAtOther(k: number, ring: RunState["rings"][number], cap: number, current: Fn, name: string): unknown {
  if (k !== k) return ring.na;
  if (k === 0) return current();
  if (k < 0) runtimeError(`Negative history offset ${k} for '${name}'`);
  if (k > cap) runtimeError(historyOffsetMessage(k, cap));
  return k <= ring.count ? (ring.buf as ArrayLike<unknown>)[(ring.count - k) & ring.mask] : ring.na;
}

/** A bar column's index in Flow.cols (memo.ts COLUMN_FIELDS). */
function columnIndex(name: string): number {
  const i = (COLUMN_FIELDS as readonly string[]).indexOf(name);
  if (i < 0) throw new Error(`internal: no bar column ${name}`);
  return i;
}

/**
 * String `+` with na: an na side adds nothing ("string literal"[20] + ", more text" is ", more text", the v6
 * migration guide's v5 example); na only when both sides are.
 */
function concatNa(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  return concatChecked(a, b);
}

/** String `+`: TradingView's 40,960-character limit is a runtime error (a length compare only). */
function concatChecked(a: string, b: string): string {
  const s = a + b;
  if (s.length > MAX_STRING_LENGTH) throw new PineRuntimeError(stringTooLongMessage(s.length));
  return s;
}

type Op = (a: any, b: any) => any;
function combine(op: string, intDiv: boolean, str: boolean): Op | null {
  switch (op) {
    case ":=":
      return null;
    case "+=":
      return str ? (a, b) => concatNa(a, b) : (a, b) => a + b;
    case "-=":
      return (a, b) => a - b;
    case "*=":
      return (a, b) => a * b;
    case "/=":
      return intDiv ? (a, b) => (b === 0 ? NaN : Math.trunc(a / b)) : (a, b) => (b === 0 ? NaN : a / b);
    case "%=":
      return (a, b) => a % b;
  }
  return null;
}
