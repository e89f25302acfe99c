// The evaluate contract (service.md 1): source + bars + options -> RunResult. Synchronous; the
// Runtime class wraps it. Never throws for script or data errors: they become `error` fields.
import type { Diagnostic } from "../lang/ast.js";
import { checkAtTimeframe, checkSource, parseSource } from "./program-cache.js";
import { higherIndicatorTimeframe } from "../check/indicator-timeframe.js";
import { MAX_LIBRARIES } from "../check/libraries.js";
import { readsEquityFigures } from "../check/equity-reads.js";
import { withoutUnreadOutputs } from "../check/unread-outputs.js";
import { everyBarSites } from "../check/once-sites.js";
import type { ResolvedProgram } from "../check/ir.js";
import type { Compiler, Fn } from "../interpret/compiler.js";
import { compilerFor } from "../interpret/copies.js";
import type { SecondaryCompiler } from "../interpret/security.js";
import { PineRuntimeError, scriptError } from "../interpret/errors.js";
import { RunState } from "../interpret/state.js";
import { PlotStore } from "../builtins/plot/store.js";
import { InputOverrideError, InputStore } from "../builtins/input/store.js";
import type { ErrorKind, LogRecord, OhlcvInput, RunOptions, RunResult, RuntimeOptions } from "../core/result.js";
import { MODES } from "../core/result.js";
import { lazyProperty } from "../core/lazy.js";
import { lazyPlots } from "./lazy-plots.js";
import { randomHex16, sha256Hex } from "../core/sha256.js";
import { createBroker, magnifierBarsFrom } from "../strategy/index.js";
import type { Broker } from "../strategy/broker.js";
import type { ExecContext } from "../builtins/types.js";
import { fillReporter } from "../builtins/strategy/common.js";
import { createContext } from "../interpret/context.js";
import { barsTimeframe, isBarDataError, normalizeBars, type BarColumns } from "../core/bars.js";
import { resolveSymInfo, validateSymInfo } from "../core/syminfo.js";
import { parseTimeframe } from "../core/time-frames.js";
import { LineProfiler } from "./profiler.js";
import { barCloseTimes, cachedBarCloseTimes } from "./bar-close.js";
import { type CompileBackend, compileBackend, type CompiledRun } from "./backend.js";
import { cacheKey } from "../compile/index.js";
import { compiledFromSource } from "../compile/aot.js";
import { realtimeStart, tickCount } from "./realtime.js";
import { FormingBar, installFillRecalc } from "./rerun.js";
import { Budget, type MemoryUsage, RunTimeout } from "../core/budget.js";
import type { Kernels } from "../kernels/index.js";

const now: () => number = typeof performance !== "undefined" ? () => performance.now() : () => Date.now();

export interface EvaluateInput {
  source: string;
  ohlcv: OhlcvInput;
  options?: RunOptions;
  symbol?: string;
  runtime?: RuntimeOptions;
  /** The run's WASM kernel instance (src/kernels) for ta.* builtins; null when unavailable. */
  kernels?: unknown;
  /** Set when compiled code failed and the run is repeated by the interpreter (auto). */
  compileFailure?: string;
}

export function emptyResult(source: string, mode: "interpret" | "compile" = "interpret"): RunResult {
  return {
    mode,
    count: 0,
    series: {},
    plots: [],
    plot_meta: {},
    events: [],
    drawings: [],
    alerts: [],
    alert_conditions: [],
    inputs: [],
    logs: [],
    profile: { total_ms: 0, bars: 0, mode, phases: { parse_ms: 0, check_ms: 0, eval_ms: 0 } },
    overlay: false,
    script_name: "",
    script_type: "indicator",
    script_id: sha256Hex(source).slice(0, 16),
    run_id: randomHex16(),
    meta: {},
  };
}

function fail(
  r: RunResult,
  kind: ErrorKind,
  message: string,
  diagnostics?: Diagnostic[],
  bar?: number,
  barTime?: number,
): RunResult {
  r.error = message;
  r.error_kind = kind;
  if (diagnostics) r.diagnostics = diagnostics;
  if (bar !== undefined) r.error_bar = bar;
  if (barTime !== undefined) r.error_bar_time = barTime;
  return r;
}

/** Mode resolution of service.md 1.1: argument, else SVC_RUNTIME_MODE, else interpret. */
export function resolveMode(mode: string | undefined): string {
  if (mode !== undefined && mode !== null) return mode;
  const env = typeof process !== "undefined" && process.env ? process.env.SVC_RUNTIME_MODE : undefined;
  return env && env.trim() ? env.trim() : "interpret";
}

// A run in named stages, each handing the next a typed record of what it settled:
//   startRun (options, mode) -> checkProgram (parse, check) -> loadData (bars, syminfo, timeframe, the
//   indicator's own timeframe) -> buildContext (ctx, stores, broker, state, budget, realtime window)
//   -> runCompiled, else runInterpreted (the bar loop) -> finish (the result).
// A stage that stops the run returns the RunResult itself (an error result); `stopped` tells them apart.

/** What startRun settled: the clock, the options, the (still empty) result and the requested mode. */
interface Started {
  input: EvaluateInput;
  t0: number;
  opts: RunOptions;
  source: string;
  result: RunResult;
  requested: string;
}

/** ... plus the parsed and checked program (re-checked at the indicator's own timeframe by loadData). */
interface Checked extends Started {
  parsed: ReturnType<typeof parseSource>;
  libraries: NonNullable<RunOptions["libraries"]>;
  prog: ResolvedProgram;
}

/** ... plus the validated bars and the chart's timeframe. */
interface Loaded extends Checked {
  cols: BarColumns;
  rt: RuntimeOptions;
  timeframe: string;
  /** Whether `prog` is the script's with output statements left out (RunOptions.tradesOnly). */
  outputsLeftOut: boolean;
}

/** ... plus everything a backend runs with. */
interface Prepared extends Loaded {
  ctx: ExecContext;
  closeTimes: Float64Array;
  plots: PlotStore;
  inputs: InputStore;
  broker: Broker | null;
  state: RunState;
  budget: Budget;
  /** First realtime bar (n when every bar is history). */
  rtFrom: number;
  n: number;
}

/** A stage's output is either the next hand-off or the run's final (error) result. */
function stopped(x: RunResult | Started): x is RunResult {
  return !("input" in x);
}

export function evaluate(input: EvaluateInput): RunResult {
  const started = startRun(input);
  if (stopped(started)) return started;
  const checked = checkProgram(started);
  if (stopped(checked)) return checked;
  const loaded = loadData(checked);
  if (stopped(loaded)) return loaded;
  const prepared = buildContext(loaded);
  if (stopped(prepared)) return prepared;
  try {
    return runCompiled(prepared) ?? runInterpreted(prepared);
  } finally {
    // a run that ended without finish sealing its event log (an exception left it): the log's
    // store goes back to the pool rather than holding its place for the life of the process
    const log = prepared.broker?.eventLog;
    if (log !== undefined && !log.sealed) log.abandon();
  }
}

/** Options and mode (service.md 1.1): an unknown mode stops the run; auto starts out as interpret. */
function startRun(input: EvaluateInput): Started | RunResult {
  const t0 = now();
  const opts = input.options ?? {};
  const source = typeof input.source === "string" ? input.source : "";
  const result = emptyResult(source);
  const requested = resolveMode(opts.mode as string | undefined);
  if (!(MODES as readonly string[]).includes(requested)) {
    return fail(result, "mode", `Invalid mode '${requested}': expected one of interpret, compile, auto`);
  }
  if (requested === "auto") {
    // until the compile backend ran: a run that stops early (parse, check, data errors) never tried it
    result.auto_backend = "interpret";
    const forced = forcedInterpret(opts);
    if (forced) result.compile_fallback_reason = forced;
  }
  result.mode = "interpret";
  result.profile.mode = "interpret";
  return { input, t0, opts, source, result, requested };
}

/** Parse and check (both through the program cache), with the libraries the options bring. */
function checkProgram(s: Started): Checked | RunResult {
  const { source, opts, result } = s;
  const tp = now();
  const parsed = parseSource(source);
  const parseErrors = parsed.diagnostics.filter((d) => d.severity === "error");
  result.profile.phases.parse_ms = now() - tp;
  if (parseErrors.length) return fail(result, "parse", parseErrors[0]!.message, parsed.diagnostics);

  const tc = now();
  const libraries = Array.isArray(opts.libraries) ? opts.libraries : [];
  if (libraries.length > MAX_LIBRARIES)
    return fail(result, "check", `Too many libraries: ${libraries.length} (at most ${MAX_LIBRARIES})`);
  const checked = checkSource(source, parsed, libraries);
  result.profile.phases.check_ms = now() - tc;
  if (!checked.program)
    return fail(result, "check", checked.diagnostics[0]?.message ?? "check failed", checked.diagnostics);
  describeScript(result, checked.program);
  return { ...s, parsed, libraries, prog: checked.program };
}

/** The bars, syminfo and timeframe, validated; the program re-checked at indicator(timeframe) when it is higher. */
function loadData(c: Checked): Loaded | RunResult {
  const { input, result, parsed, libraries } = c;
  const cols = normalizeBars(input.ohlcv);
  if (isBarDataError(cols)) return fail(result, "data", cols.error, undefined, cols.bar >= 0 ? cols.bar : undefined);
  const rt = input.runtime ?? {};
  // an unknown zone, a malformed session or timeframe is reported, never silently UTC / 24x7 / inferred
  const symProblem = rt.syminfo ? validateSymInfo(rt.syminfo) : null;
  if (symProblem) return fail(result, "data", symProblem);
  if (
    rt.timeframe !== undefined &&
    rt.timeframe !== null &&
    (typeof rt.timeframe !== "string" || !parseTimeframe(rt.timeframe))
  ) {
    return fail(
      result,
      "data",
      `timeframe ${JSON.stringify(rt.timeframe) ?? String(rt.timeframe)} is not a timeframe (e.g. "1S", "15", "60", "1D", "1W", "1M")`,
    );
  }
  const timeframe = rt.timeframe ?? barsTimeframe(cols);
  // indicator(timeframe = "D") above the chart's timeframe: the outputs come from that timeframe
  let prog = c.prog;
  const ownTimeframe = higherIndicatorTimeframe(prog, timeframe);
  if (ownTimeframe !== null) {
    const again = checkAtTimeframe(parsed, libraries, ownTimeframe);
    if (!again.program)
      return fail(result, "check", again.diagnostics[0]?.message ?? "check failed", again.diagnostics);
    prog = again.program;
  }
  // (a trial: the outputs nobody reads are not run; but where a deploy compiled this script's loop ahead
  // of time for a host without code generation (workerd), the trimmed loop would have no module and
  // the run would interpret: the full program runs there)
  const whole = prog;
  if (c.opts.tradesOnly === true && !compiledFromSource(sha256Hex(c.source))) prog = withoutUnreadOutputs(prog);
  return { ...c, prog, cols, rt, timeframe, outputsLeftOut: prog !== whole };
}

/**
 * The latest run's context (with its broker) and state, kept until the next run replaces them. V8's
 * optimised code for the bar loop, the broker and the builtins depends on the hidden classes of
 * these objects, and a class's last shapes are held only by live objects: when every run's objects
 * are gone, a full GC drops those shapes and throws the optimised code away ("weak objects"), so the
 * next run starts over in the interpreter tiers (ema_atr_stop at 100k bars: ~2.5x the CPU time after
 * a forced gc()). Keeping one run's objects keeps the shapes; the memory is that one run's.
 */
const lastRun: unknown[] = [null, null];

/** everyBarSites of each program's body (the plot store's unfilled columns), found once per program. */
const everyBar = new WeakMap<ResolvedProgram, Set<number>>();

function everyBarSitesOf(prog: ResolvedProgram): Set<number> {
  let sites = everyBar.get(prog);
  if (sites === undefined) everyBar.set(prog, (sites = everyBarSites(prog.body)));
  return sites;
}

/** The run's context and what hangs off it: plots, inputs, per-run services, broker, state, budget. */
function buildContext(l: Loaded): Prepared | RunResult {
  const { input, opts, result, parsed, prog, cols, rt, timeframe, t0, source } = l;
  const logs: LogRecord[] = result.logs;
  const ctx = createContext(prog.version, cols, resolveSymInfo(input.symbol ?? "CHART", rt.syminfo), timeframe, logs);
  // scheduled bar closes, shared by the bar loops (compiled code reads ctx.ext.timeCloseColumn); an
  // earlier run's when the caller's own time column comes again (a column built for this run is new)
  const own = cols.time === (input.ohlcv as { time?: unknown } | null | undefined)?.time;
  const closeTimes = (own ? cachedBarCloseTimes : barCloseTimes)(
    cols.time,
    timeframe,
    ctx.syminfo.timezone,
    ctx.syminfo.session,
  );
  ctx.ext.timeCloseColumn = closeTimes;
  const plots = new PlotStore(cols.time.length, result.overlay, everyBarSitesOf(prog));
  const inputs = new InputStore(
    { ...(rt.inputs ?? {}), ...(opts.inputs ?? {}) },
    prog.inputVarNames,
    prog.inputSourceNames,
  );
  ctx.kernels = input.kernels ?? null;
  ctx.ext.plots = plots;
  ctx.ext.inputs = inputs;
  ctx.ext.enumMembers = prog.enums;
  ctx.ext.scriptId = result.script_id;
  // declaration arguments (max_lines_count, max_labels_count, ...) for modules that need them
  ctx.ext.declaration = prog.declaration.args;
  ctx.ext.scriptType = prog.declaration.kind;
  ctx.ext.runId = result.run_id;
  // the strategy's default alert message for order fills (src/builtins/strategy/alerts.ts)
  ctx.ext.strategyAlertMessage = parsed.ast.doc.find((d) => d.tag === "strategy_alert_message")?.text;
  ctx.ext["timeframe.main"] = timeframe;
  ctx.ext.dataFeed = opts.dataFeed; // request.* (src/builtins/request/feed.ts)
  const brokerArgs: Record<string, unknown> = { ...prog.declaration.args, ...(rt.broker ?? {}) };
  // a host that reads only the closed trades skips the per-bar equity figures, unless the script reads them
  if (brokerArgs.track_equity === false && readsEquityFigures(prog)) brokerArgs.track_equity = true;
  if (prog.declaration.kind === "strategy") recordOverrides(result, prog.declaration.args, rt.broker);
  if (opts.backtestStart !== undefined) {
    const bs = opts.backtestStart as unknown;
    const ok =
      typeof bs === "number"
        ? Number.isFinite(bs)
        : bs !== null &&
          typeof bs === "object" &&
          Number.isInteger((bs as { bar?: unknown }).bar) &&
          (bs as { bar: number }).bar >= 0;
    if (!ok)
      return fail(
        result,
        "data",
        `backtestStart ${JSON.stringify(bs)} is neither a time in ms nor { bar: index >= 0 }`,
      );
    brokerArgs.backtest_start = bs;
  }
  if (prog.declaration.kind === "strategy" && brokerArgs.use_bar_magnifier === true) {
    // the broker walks these lower-timeframe bars inside each chart bar (src/strategy/magnifier.ts)
    const sub = magnifierBarsFrom(opts.dataFeed, input.symbol ?? "CHART", timeframe);
    const subCols = sub ? normalizeBars(sub) : null;
    if (subCols && isBarDataError(subCols)) return fail(result, "data", `bar magnifier data: ${subCols.error}`);
    if (subCols) ctx.ext.magnifierBars = subCols;
  }
  const broker = prog.declaration.kind === "strategy" ? createBroker(brokerArgs, ctx) : null;
  // (set here rather than by the first strategy.* call: a branch taken once a run has no type
  // feedback in the builtins' optimised code, which then deoptimises on every new run's first call)
  if (broker !== null) broker.onFill = fillReporter;
  ctx.broker = broker;

  const state = new RunState(prog);
  lastRun[0] = ctx;
  lastRun[1] = state;
  const n = cols.time.length;
  // one time and memory budget for the whole run: bar loops, loops, long builtins, request.* secondary
  // runs, history rings and kernel memory all charge it (src/core/budget.ts)
  const budget = runBudget(opts, t0, ctx);
  try {
    budget.reserve(state.ringBytes(), "the history buffers");
  } catch (err) {
    return finishError(result, err, 0, cols.time[0], plots, inputs, broker, ctx, t0, t0, source);
  }
  const rtFrom = realtimeStart(opts, n);
  ctx.ext.lastHistoryBar = rtFrom - 1;
  return { ...l, ctx, closeTimes, plots, inputs, broker, state, budget, rtFrom, n };
}

/**
 * The compile backend, when requested and possible (service.md 1.1): the run's result, or undefined
 * when the interpreter runs it instead (a fallback always says why, in compile_fallback_reason).
 */
function runCompiled(p: Prepared): RunResult | undefined {
  const {
    input,
    opts,
    source,
    result,
    requested,
    prog,
    outputsLeftOut,
    rt,
    ctx,
    cols,
    plots,
    inputs,
    broker,
    state,
    rtFrom,
    n,
    t0,
  } = p;
  const wantsCompile = requested === "compile" || requested === "auto";
  if (!wantsCompile) return undefined;
  const backend = compileBackend();
  // calc_on_order_fills (also when set through RuntimeOptions.broker) runs the script again inside
  // bars, realtime bars run it once per tick: then the loop is generated with a re-runnable bar body
  // (rerun.ts rolls each extra execution back, as it does the interpreter's)
  const fillRuns = broker?.settings.calcOnOrderFills === true;
  const realtime = rtFrom < n;
  const rerun = fillRuns || realtime;
  let fallback: string | undefined = input.compileFailure;
  if (fallback === undefined) {
    fallback =
      forcedInterpret(opts) ??
      (prog.compileEligible ? undefined : (prog.compileReason ?? "the script is not compile-eligible")) ??
      (backend ? undefined : "no compile backend is registered in this host");
  }
  if (fallback === undefined) {
    let compiled: CompiledRun | null = null;
    let secondary: SecondaryBackend | null = null;
    try {
      const sourceHash = sha256Hex(source);
      // (a program without some outputs is generated apart from the whole one; a trial with nothing to
      // leave out shares the whole one's loop, and its optimised code, with the study's winner)
      const key = `${cacheKey(sourceHash, { ...(rt.inputs ?? {}), ...(opts.inputs ?? {}) })}${outputsLeftOut ? "|outputs-left-out" : ""}`;
      compiled = backend!(prog, state, ctx, key, sourceHash, rerun);
      // request.security's secondary runs of a compiled run compile too (src/interpret/security.ts)
      secondary = new SecondaryBackend(backend!, prog, key, sourceHash);
      if (rerun && !compiled.rerun) {
        compiled.release?.();
        compiled = null;
        fallback = `this host's compile backend cannot re-run a bar (${fillRuns ? "calc_on_order_fills" : "realtime ticks"})`;
      }
    } catch (err) {
      fallback = err instanceof Error ? err.message : String(err);
    }
    if (compiled) {
      ctx.ext.compileSecondary = secondary;
      try {
        return compiledRun(p, compiled, fillRuns, realtime);
      } finally {
        // (its slot storage serves the program's next run in either backend: an interpreted run after
        // a compiled one then gets the storage its kept closures were made over, src/interpret/memo.ts;
        // kept by the compiled run, every interpreted run of a program run both ways built its
        // closures again)
        state.release();
      }
    }
  }
  result.compile_fallback_reason = fallback;
  return undefined;
}

/**
 * The compile backend for a compiled run's request.security secondary runs (ctx.ext.compileSecondary,
 * src/interpret/security.ts). An object, not a closure over the run: on Node 20's V8 a function made
 * per run and stored into a property of an existing object survives every minor GC until the next
 * mark-compact with everything it captures, here the run's context and through it the broker and
 * result (~45 KB a 20k-bar strategy run promoted; core/budget.ts Budget.host; issue 18, session 25).
 */
class SecondaryBackend implements SecondaryCompiler {
  constructor(
    private readonly backend: CompileBackend,
    private readonly prog: ResolvedProgram,
    private readonly key: string,
    private readonly sourceHash: string,
  ) {}

  compile(state: RunState, ctx: ExecContext): CompiledRun {
    return this.backend(this.prog, state, ctx, this.key, this.sourceHash, false);
  }
}

/** The compiled loop's run of the bars (runCompiled), its result finished. */
function compiledRun(p: Prepared, compiled: CompiledRun, fillRuns: boolean, realtime: boolean): RunResult {
  const { input, opts, source, requested, result, prog, ctx, cols, plots, inputs, broker, state, rtFrom, n, t0 } = p;
  if (fillRuns) installFillRecalc(prog, state, ctx, compiled.rerun!);
  const te = now();
  let bar = 0;
  let timedOut = false;
  try {
    bar = compiled.loop(0, rtFrom, broker);
    timedOut = compiled.timedOut;
    if (realtime && !timedOut) {
      // the realtime bars: opened and closed here, each tick one execution of the compiled body
      const forming = new FormingBar(prog, state, ctx, broker, tickCount(opts));
      const main = compiled.rerun!;
      for (; bar < n; bar++) {
        if (p.budget.bar()) {
          timedOut = true;
          break;
        }
        openBar(ctx, p.closeTimes, bar);
        forming.run(bar, main);
        if (broker) broker.onBarClose(ctx);
        state.commit();
      }
    }
  } catch (err) {
    if (err instanceof RunTimeout) {
      // the deadline passed inside a bar: the bars before it are the partial result
      bar = ctx.barIndex;
      timedOut = true;
    } else {
      if (!(err instanceof PineRuntimeError)) {
        // compiled code failed: run the same script with the interpreter (service.md 1.1); the
        // compiled run's events are dropped, so its log's store serves that run
        broker?.eventLog.abandon();
        state.release();
        return evaluate({
          ...input,
          compileFailure: `compiled code failed: ${err instanceof Error ? err.message : String(err)}`,
        });
      }
      bar = ctx.barIndex;
      ranCompiled(result, requested);
      return finishError(result, err, bar, cols.time[bar], plots, inputs, broker, ctx, te, t0, source);
    }
  } finally {
    compiled.release?.();
  }
  ranCompiled(result, requested);
  if (timedOut) result.timed_out = true;
  result.count = bar;
  result.profile.phases.eval_ms = now() - te;
  finish(result, plots, inputs, bar, broker, ctx);
  result.profile.total_ms = now() - t0;
  return result;
}

/** The interpret backend: closures built once, then the bar loop (realtime ticks and fill re-runs in rerun.ts). */
function runInterpreted(p: Prepared): RunResult {
  try {
    return interpretRun(p);
  } finally {
    // (its slot array serves the program's next run: src/interpret/memo.ts)
    p.state.release();
  }
}

function interpretRun(p: Prepared): RunResult {
  const { opts, source, result, prog, ctx, cols, plots, inputs, broker, state, budget, rtFrom, n, t0 } = p;
  const profiler = opts.profiler ? new LineProfiler() : null;
  const built = buildInterpreter(p, profiler);
  if (!("main" in built)) return built;
  const { compiler, main } = built;
  if (broker?.settings.calcOnOrderFills) installFillRecalc(prog, state, ctx, main);
  const forming = rtFrom < n ? new FormingBar(prog, state, ctx, broker, tickCount(opts)) : null;

  const te = now();
  let bar = 0;
  try {
    // a column-plot program: the first bar through the loop (it registers the plots), the rest in
    // bulk, as the compile backend runs it (src/check/hoist-plan.ts columnPlotCalls)
    const bulk = broker === null && forming === null && n > 1 ? compiler.bulk : null;
    bar = barLoop(ctx, p.closeTimes, state, broker, budget, main, forming, rtFrom, bulk ? 1 : n);
    if (bulk && bar === 1) {
      bulk(1, n);
      openBar(ctx, p.closeTimes, n - 1);
      bar = n;
    }
    // the loop stops early only when the deadline passed
    if (bar < n) result.timed_out = true;
  } catch (err) {
    bar = loopBar;
    // a secondary run out of budget stops the run at this bar, as the loop's own check does
    if (err instanceof RunTimeout) result.timed_out = true;
    else return finishError(result, scriptError(err), bar, cols.time[bar], plots, inputs, broker, ctx, te, t0, source);
  } finally {
    compiler.release();
  }
  result.count = bar;
  result.profile.phases.eval_ms = now() - te;
  finish(result, plots, inputs, bar, broker, ctx);
  result.profile.bars = bar;
  result.profile.total_ms = now() - t0;
  if (profiler) result.profile.lines = profiler.lines();
  return result;
}

/** The bar barLoop was on when it stopped (read when it threw; a module variable has no hidden class). */
let loopBar = 0;

/**
 * The interpreter's bar loop, in a function of its own that takes only objects whose hidden classes
 * outlive a run (the context, kept by lastRun, and what it holds) and does nothing after the loop:
 * it returns the bar it stopped at (n, or less when the deadline passed). V8
 * optimises it on the fly (OSR, with the script's closures inlined) and keeps that code from run to
 * run. Inside runInterpreted it depended on the run's own records (the Prepared spread, the result
 * and what finish() builds): their hidden classes die with the run, a full GC clears the feedback
 * that named them, and the code was thrown away after every run's loop and compiled again in the
 * next (20-35 ms of compiler thread per compile at swing_state's size, once or twice a run).
 */
function barLoop(
  ctx: ExecContext,
  closeTimes: Float64Array,
  state: RunState,
  broker: Broker | null,
  budget: Budget,
  main: Fn,
  forming: FormingBar | null,
  rtFrom: number,
  n: number,
): number {
  let bar = 0;
  try {
    for (; bar < n; bar++) {
      if (budget.bar()) break;
      openBar(ctx, closeTimes, bar);
      if (bar < rtFrom) {
        state.setBar(ctx);
        if (broker) broker.onBarOpen(ctx);
        main();
      } else forming!.run(bar, main);
      if (broker) broker.onBarClose(ctx);
      state.commit();
    }
  } finally {
    loopBar = bar;
  }
  return bar;
}

/**
 * Puts bar `bar` into the context (its prices, times and index), as both bar loops do. It takes the
 * context (its columns are the run's bar columns), not the run's Prepared record or BarColumns: an
 * object made per run has a hidden class that dies with it (then a full GC throws this function's
 * optimised code away).
 */
function openBar(ctx: ExecContext, closeTimes: Float64Array, bar: number): void {
  const cols = ctx.columns;
  ctx.barIndex = bar;
  ctx.time = cols.time[bar]!;
  ctx.timeClose = closeTimes[bar]!;
  ctx.open = cols.open[bar]!;
  ctx.high = cols.high[bar]!;
  ctx.low = cols.low[bar]!;
  ctx.close = cols.close[bar]!;
  ctx.volume = cols.volume[bar]!;
  // (after the prices: the bar is input bar `bar` as it is, see BrokerHost.inputBar)
  ctx.inputBar = bar;
}

/** The program's closures, or the error result when building them failed. */
function buildInterpreter(p: Prepared, profiler: LineProfiler | null): { compiler: Compiler; main: Fn } | RunResult {
  const { source, result, prog, ctx, cols, plots, inputs, broker, state, rtFrom, n, t0 } = p;
  // whole-series precompute of ta.* calls: only when every bar is history and runs the script once
  const hoist = rtFrom >= n && broker?.settings.calcOnOrderFills !== true;
  try {
    // (a program's own copy of the interpreter's code where the host has them: interpret/copies.ts)
    const ProgramCompiler = compilerFor(prog);
    const compiler = new ProgramCompiler(prog, state, ctx, profiler ? { wrapTop: profiler.wrap } : { hoist });
    return { compiler, main: compiler.main() };
  } catch (err) {
    // building the closures recursed past the host's stack (the parser bounds nesting; a small stack may not suffice)
    const e = scriptError(err);
    if (!(e instanceof PineRuntimeError)) throw err;
    return finishError(result, e, 0, cols.time[0], plots, inputs, broker, ctx, now(), t0, source);
  }
}

/** The result of a run the compiled loop executed. */
function ranCompiled(result: RunResult, requested: string): void {
  result.mode = "compile";
  result.profile.mode = "compile";
  if (requested === "auto") {
    result.auto_backend = "compile";
    delete result.compile_fallback_reason;
  }
}

/** Options only the interpret backend honours (service.md 1.1), as a fallback reason. */
function forcedInterpret(o: RunOptions): string | undefined {
  // (input overrides are not among them: the input builtins apply them in either backend, and the
  // compiled program is cached by the inputs' shape, their values read when the run starts; nor are
  // realtime options: the re-runnable compiled body runs a realtime bar's ticks, runCompiled)
  // (nor `libraries` alone: a script that imports one is refused by the checker, "import statements
  // are not compile-eligible", and one that imports none compiles whatever libraries a host passes)
  if (o.profiler) return "the profiler requires interpret";
  return undefined;
}

/** The result of a run stopped by an error on bar `bar`: everything up to it, plus the error. */
/** The run's budget (src/core/budget.ts): the timeout's deadline, the memory limit, errors raised as the script's. */
function runBudget(opts: RunOptions, t0: number, ctx: ReturnType<typeof createContext>): Budget {
  const b = new Budget();
  if (typeof opts.timeoutSeconds === "number" && opts.timeoutSeconds > 0) b.deadline = t0 + opts.timeoutSeconds * 1000;
  if (typeof opts.memoryLimitBytes === "number" && opts.memoryLimitBytes > 0) b.memoryLimit = opts.memoryLimitBytes;
  b.host = ctx;
  b.usage = memoryProbe(ctx);
  ctx.ext.budget = b;
  return b;
}

/**
 * What a run holds beyond its reserved bytes: the JavaScript heap's growth since the run began (where
 * the host tells: Node, Deno, Bun) plus the kernel instance's memory. Without a heap reading only the
 * kernel memory counts.
 */
function memoryProbe(ctx: ReturnType<typeof createContext>): MemoryUsage {
  if (heapUsed === undefined) heapUsed = heapUsedReader();
  return new RunMemory(ctx, heapUsed);
}

/** A run's memory reading (Budget.usage): one class for every run, so its read() is one call target. */
class RunMemory implements MemoryUsage {
  private readonly base: number;
  constructor(
    private readonly ctx: ReturnType<typeof createContext>,
    private readonly heap: (() => number) | null,
  ) {
    this.base = heap ? heap() : 0;
  }

  read(): number {
    const k = this.ctx.kernels as Kernels | null;
    const kernelBytes = k && k.instantiated ? k.x.memory.buffer.byteLength : 0;
    return (this.heap ? Math.max(0, this.heap() - this.base) : 0) + kernelBytes;
  }
}

/** The host's heap reading (heapUsedReader), looked up by the first run. */
let heapUsed: (() => number) | null | undefined;

type HostProcess = {
  memoryUsage?: () => { heapUsed: number };
  getBuiltinModule?: (id: string) => unknown;
};

/**
 * The JavaScript heap's used bytes, or null where the host cannot tell. v8.getHeapStatistics()
 * reads the same figure as process.memoryUsage().heapUsed (V8's used_heap_size) without the resident
 * set size memoryUsage also reads from the OS: about 2 µs a probe instead of tens to hundreds of µs
 * in a large process. Hosts without process.getBuiltinModule or a working node:v8 keep memoryUsage.
 */
function heapUsedReader(): (() => number) | null {
  const proc = (globalThis as { process?: HostProcess }).process;
  if (!proc) return null;
  try {
    const v8 = proc.getBuiltinModule?.("node:v8") as
      | { getHeapStatistics?: () => { used_heap_size: number } }
      | undefined;
    const stats = v8?.getHeapStatistics;
    // (a stub node:v8 reporting 0 would leave the heap uncounted: memoryUsage then)
    if (typeof stats === "function" && stats().used_heap_size > 0) return () => stats().used_heap_size;
  } catch {
    // a host whose getBuiltinModule throws: the fallback below
  }
  const usage = proc.memoryUsage;
  return typeof usage === "function" ? () => usage.call(proc).heapUsed : null;
}

function finishError(
  result: RunResult,
  err: unknown,
  bar: number,
  barTime: number | undefined,
  plots: PlotStore,
  inputs: InputStore,
  broker: ReturnType<typeof createBroker> | null,
  ctx: ReturnType<typeof createContext>,
  te: number,
  t0: number,
  source = "",
): RunResult {
  result.count = bar;
  finish(result, plots, inputs, bar, broker, ctx);
  result.profile.phases.eval_ms = now() - te;
  result.profile.total_ms = now() - t0;
  if (err instanceof InputOverrideError) return fail(result, "check", err.message);
  const message =
    err instanceof PineRuntimeError
      ? err.message
      : err instanceof Error
        ? `${err.name === "Error" ? "" : err.name + ": "}${err.message}`
        : String(err);
  const line = err instanceof PineRuntimeError ? err.line : undefined;
  return fail(
    result,
    "runtime",
    message,
    line === undefined ? undefined : [statementDiagnostic(source, line, message, bar)],
    bar,
    barTime,
  );
}

/** Where a runtime error happened: the innermost running statement's line, from its first character to the line's end. */
function statementDiagnostic(source: string, line: number, message: string, bar: number): Diagnostic {
  const text = source.split(/\r\n|\r|\n/)[line - 1] ?? "";
  const column = text.length - text.trimStart().length + 1;
  return {
    severity: "error",
    message: `${message} (bar ${bar})`,
    line,
    column,
    end_line: line,
    end_column: Math.max(column, text.trimEnd().length + 1),
  };
}

/** Host settings that are not strategy() properties (RuntimeOptions.broker also carries them). */
const HOST_BROKER_KEYS = new Set(["trade_limit", "record_events", "track_equity", "backtest_start"]);

/**
 * `meta.strategy_overrides`: the strategy() properties the host overrode for this run (a Properties
 * tab), each with the script's own value and the one used, so a result says what it was run with.
 */
function recordOverrides(
  r: RunResult,
  declared: Record<string, unknown>,
  broker: Record<string, unknown> | undefined,
): void {
  if (!broker) return;
  const applied: Record<string, { script: unknown; used: unknown }> = {};
  for (const [k, v] of Object.entries(broker))
    if (!HOST_BROKER_KEYS.has(k) && v !== undefined) applied[k] = { script: declared[k] ?? null, used: v };
  if (Object.keys(applied).length) r.meta.strategy_overrides = applied;
}

function describeScript(r: RunResult, prog: ResolvedProgram): void {
  const d = prog.declaration;
  r.script_type = d.kind;
  r.script_name = typeof d.args.title === "string" ? d.args.title : "";
  r.overlay = d.args.overlay === true;
  r.meta = { ...d.args };
}

function finish(
  r: RunResult,
  plots: PlotStore,
  inputs: InputStore,
  count: number,
  broker: ReturnType<typeof createBroker> | null,
  ctx: ReturnType<typeof createContext>,
): void {
  // keys, meta and which optional parts exist, without converting a single cell
  const shape = plots.toResult(0);
  const keys = Object.keys(shape.series);
  if (count > 0 && keys.length > 0) {
    r.plot_meta = shape.plot_meta;
    lazyPlots(r, plots, count, keys, shape);
  } else {
    const out = plots.toResult(count);
    r.series = out.series;
    r.plot_meta = out.plot_meta;
    if (out.plot_ohlc) r.plot_ohlc = out.plot_ohlc;
    if (out.plot_colors) r.plot_colors = out.plot_colors;
    const first = Object.keys(out.series)[0];
    r.plots = first !== undefined ? out.series[first]! : [];
  }
  r.inputs = inputs.records;
  r.profile.bars = count;
  if (broker) {
    try {
      r.strategy = broker.finish(ctx);
      // the event log alone, not the broker: a kept result does not keep the run's equity columns
      lazyEvents(r, broker.eventLog);
    } catch (err) {
      // no result reads this run's events: the log's store goes back to the pool
      broker.eventLog.abandon();
      if (!r.error) fail(r, "order", err instanceof Error ? err.message : String(err));
    }
  }
  collectExt(r, ctx);
}

/** `events` built from the broker's event log on first read (an optimize trial never reads them). */
function lazyEvents(r: RunResult, log: { toArray(): RunResult["events"]; seal(): void }): void {
  // the run is over: its log's columns may serve the next run (the log keeps a copy of what it needs)
  log.seal();
  lazyProperty(r, "events", () => log.toArray());
}

/**
 * Drawings and alerts stores, when their modules attached them to ctx.ext: either an object with
 * toResult() or the result arrays themselves.
 */
function collectExt(r: RunResult, ctx: ReturnType<typeof createContext>): void {
  const drawings = ctx.ext.drawings as
    | { toResult?: () => Record<string, unknown>[] }
    | Record<string, unknown>[]
    | undefined;
  if (Array.isArray(drawings)) r.drawings = drawings;
  else if (drawings?.toResult) r.drawings = drawings.toResult();
  type AlertsOut = { alerts?: RunResult["alerts"]; alert_conditions?: RunResult["alert_conditions"] };
  const alerts = ctx.ext.alerts as (AlertsOut & { toResult?: () => AlertsOut }) | RunResult["alerts"] | undefined;
  if (Array.isArray(alerts)) r.alerts = alerts;
  else if (alerts) {
    const a = alerts.toResult ? alerts.toResult() : alerts;
    if (Array.isArray(a.alerts)) r.alerts = a.alerts;
    if (Array.isArray(a.alert_conditions)) r.alert_conditions = a.alert_conditions;
  }
  if (Array.isArray(ctx.ext.requests) && ctx.ext.requests.length) r.meta.requests = ctx.ext.requests;
  const conditions = ctx.ext.alert_conditions;
  if (Array.isArray(conditions)) r.alert_conditions = conditions as RunResult["alert_conditions"];
}
