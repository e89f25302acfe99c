// request.security / request.security_lower_tf in the interpreter. TradingView evaluates the
// requested expression by running the script in the other context; so does resin: the first time a
// call site asks for a (symbol, timeframe) the whole resolved program runs once more over that
// context's bars (a secondary run with its own RunState, ctx, inputs, plots and broker, all of them
// discarded except the values of the request sites' expressions, captured per context bar). The
// main run then maps those values onto chart bars (src/builtins/request/feed.ts).
//
// Secondary runs nest no further: inside one, every request site evaluates its expression in the
// secondary's own context (TradingView's result for a request of the same context) and records it.
// A compiled main run's secondary runs execute the program's compiled secondary loop (runSecondary;
// src/compile/codegen.ts generate), the same statements with the same error skipping.

import type { ExecContext } from "../builtins/types.js";
import type { RExpr, ResolvedProgram } from "../check/ir.js";
import type { PType } from "../check/types.js";
import { InputStore } from "../builtins/input/store.js";
import { PlotStore } from "../builtins/plot/store.js";
import { PineArray, PineMap, PineMatrix, PineObject } from "../core/values.js";
import type { LogRecord } from "../core/result.js";
import { resolveSymInfo } from "../core/syminfo.js";
import { createBroker } from "../strategy/index.js";
import { createContext } from "./context.js";
import {
  contextBarFor,
  firstIntrabarFor,
  intrabarRange,
  lastAtOrBefore,
  requestContexts,
  type RequestedContext,
} from "../builtins/request/feed.js";
import { BAR_UNITS, budgetOf, type Budget, RunTimeout } from "../core/budget.js";
import type { BarColumns } from "../core/bars.js";
import { Compiler, naOfType, type Fn } from "./compiler.js";
import { RunState, type StateSnapshot } from "./state.js";
import { ObjectRollback } from "./rollback.js";
import { createKernelsSync } from "../kernels/index.js";
import { PineRuntimeError } from "./errors.js";
import { drawingStoreOf, restoreDrawings, snapshotDrawings } from "../builtins/drawing/index.js";

type CallExpr = Extract<RExpr, { k: "call" }>;

export const SECURITY_CALLS = new Set(["request.security", "request.security_lower_tf"]);

/** Marks a secondary run's ctx: where its request sites record their values. */
export interface SecondaryCapture {
  /** By call-site id: the site's values by context bar, or a tuple's TupleColumns (recordSecondary). */
  captures: unknown[];
  /** Context bar of the secondary's bar 0 (calc_bars_count runs only the last bars). */
  offset: number;
  /** Length of each capture column (the context's bar count). */
  length: number;
  /** The chart's bar count (how many reads a captured value gets: see recordSecondary). */
  chartBars: number;
  /**
   * A top-level statement of the secondary run failed: a script runtime error is noted and the bar
   * goes on with the next statement; anything else is rethrown (the compile backend's secondary loop
   * calls it; the interpreter's wraps each statement the same way).
   */
  skip(err: unknown): void;
}

/** A secondary run's compiled bar loop: the compile backend's shape (src/runtime/backend.ts CompiledRun). */
interface SecondaryLoop {
  loop(from: number, to: number, broker: unknown): number;
  readonly timedOut: boolean;
  release?(): void;
}

/**
 * Builds the compiled bar loop of a secondary run over its own state and context (the Runtime sets
 * it on a compiled run's ctx.ext as `compileSecondary`: src/runtime/evaluate.ts), or throws when the
 * program does not compile; absent, secondary runs are interpreted. Declared here because
 * src/interpret sits below the compile backend. An object with a method, not a function: see
 * evaluate.ts SecondaryBackend.
 */
export interface SecondaryCompiler {
  compile(state: RunState, ctx: ExecContext): SecondaryLoop;
}

/** Compiles one request.security / request.security_lower_tf call site. */
export function compileSecurity(e: CallExpr, prog: ResolvedProgram, ctx: ExecContext, compile: (x: RExpr) => Fn): Fn {
  const lowerTf = e.name === "request.security_lower_tf";
  const exprArg = e.args[2];
  if (!exprArg) return () => ctx.runtimeError(`${e.name}: missing 'expression' argument`);
  const inner = compile(exprArg);
  const capture = ctx.ext.securityCapture as SecondaryCapture | undefined;
  if (capture) {
    const site = e.site,
      type = exprArg.t;
    return () => recordSecondary(site, inner(), lowerTf, type, capture, ctx);
  }
  const site = securitySite(e, prog, ctx);
  const arg = (i: number) => (e.args[i] ? compile(e.args[i]) : undefined);
  // parameter order: security(symbol, timeframe, expression, gaps, lookahead, ignore_invalid_symbol, currency, calc_bars_count)
  //                  security_lower_tf(symbol, timeframe, expression, ignore_invalid_symbol, currency, ignore_invalid_timeframe, calc_bars_count)
  const sym = arg(0);
  const tf = arg(1);
  const gaps = lowerTf ? undefined : arg(3);
  const lookahead = lowerTf ? undefined : arg(4);
  const ignoreTf = lowerTf ? arg(5) : undefined;
  const currency = arg(lowerTf ? 4 : 6);
  const calcBars = arg(lowerTf ? 6 : 7);
  return () => site(sym, tf, inner, gaps, lookahead, ignoreTf, currency, calcBars);
}

/**
 * A main-run request site: called on each bar with its arguments, each a value or a function giving
 * it (undefined when not given), read as the interpreter reads them: symbol, timeframe and currency on
 * every call, calc_bars_count next, the rest only where they matter, the expression only when it is
 * evaluated in the chart's own context (otherwise the secondary run's captured values are returned).
 * The compile backend calls it too (a ref of the generated code), passing functions for the
 * arguments whose evaluation may have effects, so both backends evaluate the same arguments.
 */
export type SecurityCall = (
  sym: unknown,
  tf: unknown,
  inner: unknown,
  gaps: unknown,
  lookahead: unknown,
  ignoreTf: unknown,
  currency: unknown,
  calcBars: unknown,
) => unknown;

/** An argument: its value, or the function giving it (Pine values are never functions). */
function get(a: unknown): unknown {
  return typeof a === "function" ? (a as Fn)() : a;
}

/** How many of its latest contexts a request site remembers by its arguments (securitySite). */
const RECENT_CONTEXTS = 4;

/** The state of one main-run request site (see SecurityCall). */
export function securitySite(e: CallExpr, prog: ResolvedProgram, ctx: ExecContext): SecurityCall {
  const lowerTf = e.name === "request.security_lower_tf";
  const valueType = e.args[2]!.t;
  const na = naValue(valueType);
  const site = e.site;
  const span = { from: 0, to: 0 };
  // (a tuple's values in columns are read into this array: capturedAt)
  const out = valueType.name === "tuple" ? new Array<unknown>(valueType.elems!.length) : null;
  // the contexts of the site's last few (symbol, timeframe, currency) arguments: a site in a loop over
  // timeframes or symbols asks for a few contexts in turn on every bar, and the run's lookup (a key
  // string built and hashed) costs more than the rest of the call; slots reused in turn, nothing
  // allocated per call. The last one in plain variables, compared first.
  const keys: unknown[] = new Array<unknown>(3 * RECENT_CONTEXTS).fill(null);
  const found: (RequestedContext | null)[] = new Array<RequestedContext | null>(RECENT_CONTEXTS).fill(null);
  let nextSlot = 0;
  const lookup = (s: unknown, t: unknown, cur: unknown): RequestedContext => {
    for (let j = 0; j < RECENT_CONTEXTS; j++)
      if (found[j] !== null && keys[3 * j] === s && keys[3 * j + 1] === t && keys[3 * j + 2] === cur) return found[j]!;
    const got = requestContexts(ctx).get(
      typeof s === "string" ? s : null,
      typeof t === "string" ? t : null,
      typeof cur === "string" ? cur : null,
    );
    const j = nextSlot;
    nextSlot = (nextSlot + 1) % RECENT_CONTEXTS;
    found[j] = got;
    keys[3 * j] = s;
    keys[3 * j + 1] = t;
    keys[3 * j + 2] = cur;
    return got;
  };
  let lastKeySym: unknown, lastKeyTf: unknown, lastKeyCur: unknown;
  let c: RequestedContext | null = null;
  return (sym, tf, inner, gaps, lookahead, ignoreTf, currency, calcBars) => {
    const s = sym !== undefined ? get(sym) : null,
      t = tf !== undefined ? get(tf) : null,
      cur = currency !== undefined ? get(currency) : null;
    if (c === null || s !== lastKeySym || t !== lastKeyTf || cur !== lastKeyCur) {
      c = lookup(s, t, cur);
      lastKeySym = s;
      lastKeyTf = t;
      lastKeyCur = cur;
    }
    let count = 0;
    if (calcBars !== undefined) {
      const v = get(calcBars);
      if (typeof v === "number" && v === v) {
        if (v < 1) return ctx.runtimeError(`${e.name}: calc_bars_count must be at least 1, got ${v}`);
        count = Math.trunc(v);
      }
    }
    // the chart's own context with fewer bars than the chart has: a secondary run over the last ones
    if (c.source === "same" && count > 0 && c.captures === null && count < ctx.barCount)
      c = requestContexts(ctx).materialize(c);
    if (c.source === "same" && !c.bars) return lowerTf ? asArrays(get(inner), valueType) : get(inner);
    if (lowerTf) {
      if (!c.lower) {
        if (ignoreTf !== undefined && get(ignoreTf) === true) return null;
        return ctx.runtimeError(
          `request.security_lower_tf: timeframe '${c.timeframe}' is not lower than the chart's ('${ctx.timeframe}')`,
        );
      }
      if (c.source === "none") return asArrays(undefined, valueType, true);
      const vals = values(c, prog, ctx, site, count);
      intrabarRange(c, ctx.time, ctx.timeClose, span);
      // intrabars before a calc_bars_count window are no data: left out, not na
      const from = Math.max(span.from, calcStart(c));
      return intrabarArrays(vals, from, Math.max(from, span.to), valueType);
    }
    if (c.source === "none") return na;
    const vals = values(c, prog, ctx, site, count);
    const i = ctx.barIndex;
    // a realtime bar sees the higher-timeframe bar still forming (lookahead has no effect on realtime values)
    if (ctx.isRealtime && !c.lower) {
      const v = formingValue(c, prog, ctx, site, vals, out);
      return v === undefined ? na : v;
    }
    const prevTime = i > 0 ? ctx.columns.time[i - 1]! : NaN;
    const g = gaps !== undefined ? get(gaps) === true : false;
    const la = lookahead !== undefined ? get(lookahead) === true : false;
    // a lower timeframe with lookahead on: the first intrabar historically, the last one in realtime
    const k =
      c.lower && la && !ctx.isRealtime
        ? firstIntrabarFor(c, ctx.columns.time, i, ctx.timeClose, g)
        : contextBarFor(c, i, ctx.time, ctx.timeClose, prevTime, g, la, ctx.barCount - 1);
    if (k < 0) return na;
    const v = capturedAt(vals, k, out);
    return v === undefined ? na : v;
  };
}

/**
 * A requested collection or object as a new one per chart bar: the captured value is shared by every
 * chart bar of its context bar, so a script mutating what it received must not change what the next
 * bar receives (nor, on realtime ticks, what the next tick does).
 */
function fresh(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  // a tuple: copied only when it holds objects (a tuple of numbers is read, never mutated)
  if (Array.isArray(v)) return v.some((x) => x !== null && typeof x === "object") ? v.map(fresh) : v;
  if (v instanceof PineArray) return new PineArray(v.elemType, v.values.slice());
  if (v instanceof PineMatrix) return new PineMatrix(v.elemType, v.rows, v.cols, v.data.slice());
  if (v instanceof PineMap) return new PineMap(v.keyType, v.valueType, new Map(v.map));
  if (v instanceof PineObject) return new PineObject(v.typeName, v.fields.slice());
  return v;
}

/**
 * A requested tuple's values as one column per element (recordSecondary), for a context with as many
 * bars as the chart or more: no array kept per context bar.
 */
class TupleColumns {
  constructor(readonly cols: unknown[][]) {}

  /** Whether context bar k was recorded. */
  has(k: number): boolean {
    return this.cols[0]![k] !== undefined;
  }
}

/** Element e of the tuple captured for context bar j (undefined: nothing recorded there). */
function tupleElement(vals: Captured, j: number, e: number): unknown {
  if (vals instanceof TupleColumns) return vals.has(j) ? vals.cols[e]![j] : undefined;
  const t = vals[j] as unknown[] | undefined;
  return t === undefined ? undefined : t[e];
}

/**
 * What a request site's captured values hold for context bar k (undefined: nothing recorded there),
 * fresh (see fresh()). A tuple in columns is read into `out`, the site's own array: a requested tuple
 * is taken apart where the call returns it, before the site is called again.
 */
function capturedAt(vals: Captured, k: number, out: unknown[] | null): unknown {
  if (!(vals instanceof TupleColumns)) {
    const v = vals[k];
    return v === undefined ? undefined : fresh(v);
  }
  if (!vals.has(k)) return undefined;
  const cols = vals.cols;
  for (let e = 0; e < cols.length; e++) out![e] = fresh(cols[e]![k]);
  return out;
}

/** A request site inside a secondary run: its own context's value `v`, recorded for this bar. */
function recordSecondary(
  site: number,
  v: unknown,
  lowerTf: boolean,
  type: PType,
  cap: SecondaryCapture,
  ctx: ExecContext,
): unknown {
  const k = cap.offset + ctx.barIndex;
  let kept = cap.captures[site] as Captured | undefined;
  // A tuple of a context with at least as many bars as the chart (the chart's own, a derived chart
  // type, intrabars) as one column per element: an array per context bar kept until the run ends is
  // as many old objects for every collection to copy (GC took 20-29% of a compiled heikin-ashi
  // request). A higher timeframe's few bars keep theirs, read by the chart's many bars as they are.
  if (kept === undefined)
    cap.captures[site] = kept =
      type.name === "tuple" && cap.length >= cap.chartBars
        ? new TupleColumns(type.elems!.map(() => new Array<unknown>(cap.length)))
        : new Array<unknown>(cap.length);
  // a copy of a collection or object: the secondary's own script may mutate what its request
  // returned afterwards; and of a tuple, whose array is its node's buffer, written again next time
  if (kept instanceof TupleColumns) {
    const t = v as unknown[];
    for (let e = 0; e < kept.cols.length; e++) kept.cols[e]![k] = fresh(t[e]);
  } else kept[k] = Array.isArray(v) ? v.map(fresh) : fresh(v);
  return lowerTf ? asArrays(v, type) : v;
}

/**
 * A request site of the compile backend's secondary loop: called as securitySite's SecurityCall is,
 * it evaluates only the expression (the other arguments reach it as values with no effect, or as
 * functions it does not call), as the interpreter's secondary site does.
 */
export function secondarySite(e: CallExpr, cap: SecondaryCapture, ctx: ExecContext): SecurityCall {
  const lowerTf = e.name === "request.security_lower_tf";
  const type = e.args[2]!.t;
  const site = e.site;
  return (_sym, _tf, inner) => recordSecondary(site, get(inner), lowerTf, type, cap, ctx);
}

/** What a site keeps of its context bars' values (recordSecondary). */
type Captured = unknown[] | TupleColumns;

/**
 * The captured values of `site` in context `c`, running the secondary first if needed; the call that
 * starts it fixes calc_bars_count for every call of the context.
 */
function values(c: RequestedContext, prog: ResolvedProgram, ctx: ExecContext, site: number, count: number): Captured {
  if (!c.captures) {
    if (count > 0 && c.bars && count < c.bars.time.length) {
      c.calcBars = count;
      if (c.record) c.record.calc_bars_count = count;
    }
    c.captures = runSecondary(prog, ctx, c);
  }
  return (c.captures[site] ??= []) as Captured;
}

/**
 * The value on a realtime chart bar: the context bar holding it, as it stands now. A higher
 * timeframe built from the chart's bars evaluates its forming bar from the period's chart bars so far
 * plus the current tick (FormingRunner, one evaluation per tick shared by the context's sites); a
 * feed's bar is taken as the feed gives it (the forming bar as of the data).
 */
function formingValue(
  c: RequestedContext,
  prog: ResolvedProgram,
  ctx: ExecContext,
  site: number,
  vals: Captured,
  out: unknown[] | null,
): unknown {
  const i = ctx.barIndex;
  if (!c.index) {
    const k = lastAtOrBefore(c.bars!.time, ctx.time);
    return k < calcStart(c) ? undefined : capturedAt(vals, k, out);
  }
  const k = c.index[i]!;
  if (k < calcStart(c)) return undefined;
  const key = `${i}|${ctx.open}|${ctx.high}|${ctx.low}|${ctx.close}|${ctx.volume}`;
  if (c.forming?.key !== key) {
    let runner = formingRunners.get(c);
    if (!runner) formingRunners.set(c, (runner = new FormingRunner(prog, ctx, c)));
    c.forming = { key, captures: runner.evaluate(k, ctx) };
  }
  const forming = c.forming.captures[site] as Captured | undefined;
  return forming === undefined ? undefined : capturedAt(forming, k, out);
}

const formingRunners = new WeakMap<RequestedContext, FormingRunner>();

/**
 * A secondary run kept alive for a context's forming bar: it commits the context's complete bars as
 * the chart reaches them and evaluates the forming one with rollback (its state, objects and kernel
 * memory are restored after each evaluation). It has its own kernel instance, so the main run's tick
 * rollback of kernel memory cannot undo its committed bars.
 */
class FormingRunner {
  private readonly sec: Secondary;
  private readonly start: number;
  /** Context bars [start, committed) are evaluated and committed. */
  private committed: number;
  private snap: StateSnapshot | undefined;
  private readonly objects: ObjectRollback | null;
  /** Private copy of the context's bars (the secondary's columns are views of it). */
  private readonly cols: BarColumns;

  constructor(
    private readonly prog: ResolvedProgram,
    main: ExecContext,
    private readonly c: RequestedContext,
  ) {
    this.start = calcStart(c);
    const k = main.kernels as { module?: WebAssembly.Module | null } | null;
    const own = k?.module ? createKernelsSync(k.module) : main.kernels;
    // private columns: the forming bar's entry is written before each evaluation
    const b = c.bars!;
    this.cols = {
      length: b.time.length,
      time: b.time,
      open: b.open.slice(),
      high: b.high.slice(),
      low: b.low.slice(),
      close: b.close.slice(),
      volume: b.volume.slice(),
    };
    this.sec = new Secondary(prog, main, c, this.cols, this.start, own);
    this.committed = this.start;
    this.objects = ObjectRollback.needed(prog) ? new ObjectRollback(prog, this.sec.state) : null;
  }

  /** The captures after evaluating context bar k as formed by the current chart tick. */
  evaluate(k: number, main: ExecContext): unknown[] {
    const sec = this.sec;
    const full = this.c.bars!;
    while (this.committed < k) {
      const b = this.committed++;
      sec.step(b, full.open[b]!, full.high[b]!, full.low[b]!, full.close[b]!, full.volume[b]!);
    }
    const p = formingBar(this.c, main, k);
    const cols = this.cols;
    cols.open[k] = p.open;
    cols.high[k] = p.high;
    cols.low[k] = p.low;
    cols.close[k] = p.close;
    cols.volume[k] = p.volume;
    this.snap = sec.state.snapshot(this.snap);
    this.objects?.save();
    const kernels = sec.ctx.kernels as { snapshot?: () => unknown; restore?: (s: unknown) => void } | null;
    const ksnap = kernels?.snapshot ? kernels.snapshot() : undefined;
    const bsnap = sec.broker ? sec.broker.snapshot() : undefined;
    const dstore = drawingStoreOf(sec.ctx);
    const dsnap = snapshotDrawings(dstore);
    sec.ctx.isRealtime = true;
    sec.ctx.isNewTick = main.isNewTick;
    sec.ctx.isConfirmed = main.isConfirmed;
    try {
      sec.step(k, p.open, p.high, p.low, p.close, p.volume, false);
    } finally {
      sec.ctx.isRealtime = false;
      sec.ctx.isNewTick = false;
      sec.ctx.isConfirmed = true;
      // varip variables keep their changes, as in the main run's ticks
      sec.state.restore(this.snap, this.prog.varipSlots, this.prog.varipOnce);
      this.objects?.restore();
      if (ksnap !== undefined) kernels!.restore!(ksnap);
      if (bsnap !== undefined) sec.broker!.restore(bsnap);
      restoreDrawings(dstore, dsnap);
      cols.open[k] = full.open[k]!;
      cols.high[k] = full.high[k]!;
      cols.low[k] = full.low[k]!;
      cols.close[k] = full.close[k]!;
      cols.volume[k] = full.volume[k]!;
    }
    return sec.captures;
  }
}

/** Context bar k as the period's chart bars so far plus the current tick make it. */
function formingBar(
  c: RequestedContext,
  ctx: ExecContext,
  k: number,
): { open: number; high: number; low: number; close: number; volume: number } {
  const cols = ctx.columns;
  const i = ctx.barIndex;
  let first = i;
  while (first > 0 && c.index![first - 1] === k) first--;
  let high = ctx.high,
    low = ctx.low,
    volume = ctx.volume;
  for (let j = first; j < i; j++) {
    high = Math.max(high, cols.high[j]!);
    low = Math.min(low, cols.low[j]!);
    volume += cols.volume[j]!;
  }
  // a currency-converted context: the chart's prices times that bar's rate
  const r = c.rates ? c.rates[k]! : 1;
  return {
    open: (first === i ? ctx.open : cols.open[first]!) * r,
    high: high * r,
    low: low * r,
    close: ctx.close * r,
    volume,
  };
}

/** First context bar a calc_bars_count-limited secondary run evaluates (0: all). */
function calcStart(c: RequestedContext): number {
  return c.calcBars > 0 && c.bars ? Math.max(0, c.bars.time.length - c.calcBars) : 0;
}

/** One secondary run: the program over a context's bars in its own state, ctx, inputs, plots and broker. */
class Secondary {
  readonly ctx: ExecContext;
  readonly state: RunState;
  readonly broker: ReturnType<typeof createBroker> | null;
  readonly captures: unknown[] = [];
  /** The bars evaluated (the context's, from `start` on). */
  readonly bars: BarColumns;
  /** The interpreted program (closures), built by the first step(). */
  private run: Fn | null = null;
  private readonly timeClose: Float64Array;
  /** The main run's budget: its deadline and loop limit cover the secondary runs (service.md 1.4). */
  private readonly budget: Budget;
  /** Context bar of the secondary's bar 0. */
  private readonly offset: number;
  private readonly context: RequestedContext;
  private noted = false;
  private readonly prog: ResolvedProgram;
  /** The budget's open loops where the compiled loop starts, and so each of its top-level statements. */
  private loopDepth = 0;

  constructor(
    prog: ResolvedProgram,
    main: ExecContext,
    c: RequestedContext,
    all: BarColumns,
    start: number,
    kernels: unknown,
  ) {
    this.bars = start > 0 ? sliceBars(all, start) : all;
    this.offset = start;
    this.context = c;
    const n = this.bars.time.length;
    const syminfo =
      c.symbol === chartId(main) ? main.syminfo : resolveSymInfo(c.symbol, { timezone: main.syminfo.timezone });
    const logs: LogRecord[] = [];
    const sctx = createContext(prog.version, this.bars, syminfo, c.timeframe, logs);
    sctx.kernels = kernels;
    for (const k of ["enumMembers", "scriptId", "declaration", "scriptType", "runId", "timeframe.main", "dataFeed"])
      sctx.ext[k] = main.ext[k];
    this.budget = sctx.ext.budget = budgetOf(main);
    sctx.ext.plots = new PlotStore(n, false);
    const mainInputs = main.ext.inputs as InputStore | undefined;
    sctx.ext.inputs = new InputStore(mainInputs?.overrides ?? {}, prog.inputVarNames, prog.inputSourceNames);
    sctx.ext.lastHistoryBar = n - 1;
    const capture: SecondaryCapture = {
      captures: this.captures,
      offset: start,
      length: all.time.length,
      chartBars: main.barCount,
      // TradingView evaluates only what the requested expression needs in the other context; resin runs
      // the whole script there, so a top-level statement the expression does not need may fail (a
      // runtime.error guard on the chart's timeframe, a.get(1) on a security_lower_tf array). Such a
      // statement is skipped and noted, and the bar goes on with the next one: the request sites after
      // it still record their values.
      skip: (err) => this.skipError(err, this.loopDepth),
    };
    sctx.ext.securityCapture = capture;
    this.broker =
      prog.declaration.kind === "strategy"
        ? createBroker({ ...prog.declaration.args, record_events: false }, sctx)
        : null;
    sctx.broker = this.broker;
    this.ctx = sctx;
    this.state = new RunState(prog);
    this.timeClose = start > 0 ? c.timeClose!.subarray(start) : c.timeClose!;
    sctx.ext.timeCloseColumn = this.timeClose;
    this.prog = prog;
  }

  /**
   * A top-level statement failed with the budget's open loops at `depth` when it started: a script
   * runtime error is noted and the statement skipped (loops the error left are closed); anything
   * else is rethrown.
   */
  private skipError(err: unknown, depth: number): void {
    if (!(err instanceof PineRuntimeError)) throw err;
    this.budget.depth = depth;
    this.noteError(this.ctx.barIndex, err.message);
  }

  /** The interpreted program: each top-level statement's runtime error skipped (skipError). */
  private interpreted(): Fn {
    const budget = this.budget;
    // (this Secondary touched only when a statement fails: optimised code of the statement wrappers
    // that depends on its hidden class would be thrown away with the last Secondary in a full GC)
    return (this.run ??= new Compiler(this.prog, this.state, this.ctx, {
      wrapTop: (f) => () => {
        const depth = budget.depth;
        try {
          return f();
        } catch (err) {
          this.skipError(err, depth);
          return undefined;
        }
      },
    }).main());
  }

  /**
   * Runs context bars [from, end) through the compiled loop (the secondary variant: codegen.ts
   * generate) and returns true, or returns false when the program does not compile (then step()
   * interprets them, and the request's note says why: the main run compiled, so this is unexpected
   * and must not pass unseen). Past the deadline the run ends as step()'s would: RunTimeout.
   */
  runCompiled(compile: SecondaryCompiler, from: number, end: number): boolean {
    let compiled: SecondaryLoop;
    try {
      compiled = compile.compile(this.state, this.ctx);
    } catch (err) {
      this.addNote(
        `the compile backend refused this context's run, which was interpreted: ${err instanceof Error ? err.message : String(err)}`,
      );
      return false;
    }
    // (top-level statements start with the loops open where the loop starts: the request's)
    this.loopDepth = this.budget.depth;
    try {
      compiled.loop(from - this.offset, end - this.offset, this.broker);
      if (compiled.timedOut) throw new RunTimeout();
    } finally {
      compiled.release?.();
    }
    return true;
  }

  /** Records, once per context, that a statement failed in the secondary run (meta.requests[].note). */
  private noteError(bar: number, message: string): void {
    if (this.noted) return;
    this.noted = true;
    this.addNote(
      `a statement the requested expression does not need failed on context bar ${bar + this.offset} and was skipped there: ${message}`,
    );
  }

  /** Adds `note` to the request's record (meta.requests[].note). */
  private addNote(note: string): void {
    const record = this.context.record;
    if (record) record.note = record.note ? `${record.note}; ${note}` : note;
  }

  /** Evaluates context bar `b` (an index into the whole context) with these values; commits it unless told not to. */
  step(b: number, open: number, high: number, low: number, close: number, volume: number, commit = true): void {
    const sctx = this.ctx;
    const j = b - this.offset;
    // a context bar counts like a chart bar; past the deadline RunTimeout stops the whole run
    const budget = this.budget;
    budget.spend(BAR_UNITS);
    sctx.barIndex = j;
    sctx.time = this.bars.time[j]!;
    sctx.timeClose = this.timeClose[j]!;
    sctx.open = open;
    sctx.high = high;
    sctx.low = low;
    sctx.close = close;
    sctx.volume = volume;
    this.state.setBar(sctx);
    if (this.broker) this.broker.onBarOpen(sctx);
    const depth = budget.depth;
    const run = this.run ?? this.interpreted();
    try {
      run();
    } catch (err) {
      budget.depth = depth; // loops the error left are closed
      // TradingView evaluates only what the requested expression needs in the other context; we run the
      // whole script there, so code the expression does not need (a.get(1) on a security_lower_tf array,
      // which holds one value per bar in the intrabar context) may fail. The values the request sites
      // recorded before the error stand; the rest of that bar is skipped and the run goes on.
      if (!(err instanceof PineRuntimeError)) throw err;
      this.noteError(j, err.message);
    }
    if (!commit) return;
    if (this.broker) this.broker.onBarClose(sctx);
    this.state.commit();
  }
}

/** How many secondary runs each backend ran in this process (tests, diagnostics). */
export const secondaryRuns = { compiled: 0, interpreted: 0 };

/**
 * Runs the whole program over the context's bars and returns the request sites' values. Plots,
 * logs, inputs, drawings, alerts and strategy orders of the secondary run are discarded.
 */
export function runSecondary(prog: ResolvedProgram, main: ExecContext, c: RequestedContext): unknown[] {
  const all = c.bars!;
  // calc_bars_count: the last bars of the context's data are the only ones evaluated
  const start = calcStart(c);
  const sec = new Secondary(prog, main, c, all, start, main.kernels);
  // a compiled main run's secondary runs are compiled too (the same values: the program's loop in
  // the other context), unless the program does not compile that way
  const compile = main.ext.compileSecondary as SecondaryCompiler | undefined;
  if (compile !== undefined && sec.runCompiled(compile, start, all.time.length)) {
    secondaryRuns.compiled++;
    return sec.captures;
  }
  secondaryRuns.interpreted++;
  for (let b = start; b < all.time.length; b++)
    sec.step(b, all.open[b]!, all.high[b]!, all.low[b]!, all.close[b]!, all.volume[b]!);
  return sec.captures;
}

function sliceBars(b: BarColumns, from: number): BarColumns {
  return {
    length: b.time.length - from,
    time: b.time.subarray(from),
    open: b.open.subarray(from),
    high: b.high.subarray(from),
    low: b.low.subarray(from),
    close: b.close.subarray(from),
    volume: b.volume.subarray(from),
  };
}

function chartId(ctx: ExecContext): string {
  const p = ctx.syminfo.prefix;
  return p ? `${p}:${ctx.syminfo.ticker ?? ""}` : String(ctx.syminfo.ticker ?? "");
}

function naValue(t: PType): unknown {
  if (t.name === "tuple" && t.elems) return t.elems.map((x) => naOfType(x.name));
  return naOfType(t.name);
}

/** security_lower_tf's result for one value (or none): one-element (or empty) arrays. */
function asArrays(v: unknown, t: PType, empty = false): unknown {
  if (t.name === "tuple" && t.elems)
    return t.elems.map((x, i) => new PineArray(x.name, empty ? [] : ([(v as unknown[])[i]] as never[])));
  return new PineArray(t.name, empty ? [] : [v as never]);
}

/** Arrays of the intrabar values [from, to) (one array per tuple element). */
function intrabarArrays(vals: Captured, from: number, to: number, t: PType): unknown {
  if (t.name === "tuple" && t.elems) {
    return t.elems.map((x, e) => {
      const out: unknown[] = [];
      for (let j = from; j < to; j++) {
        const v = tupleElement(vals, j, e);
        out.push(v === undefined ? naOfType(x.name) : v);
      }
      return new PineArray(x.name, out as never[]);
    });
  }
  const out: unknown[] = [];
  const col = vals as unknown[];
  for (let j = from; j < to; j++) out.push(col[j] === undefined ? naOfType(t.name) : col[j]);
  return new PineArray(t.name, out as never[]);
}
