// The contract between a backend (interpret, compile) and the builtin implementations. It lives in src/catalog,
// next to the catalogue that lists every builtin, so the checker can keep the registry's definitions in its
// resolved program without importing the builtins above it (src/builtins/types.ts re-exports it).
//
// A builtin is a plain function `(ctx, args, site) => value`:
// - `args` holds the call's arguments in the order of the builtin's parameter list in
//   scripts/builtins.json (named arguments already moved to their position); an omitted
//   optional argument is `undefined` and the implementation applies the documented default.
//   Overloads that differ by arity (ta.highest(length) vs ta.highest(source, length)) are told
//   apart by the implementation from `args.length` / the types of the values.
// - `site` is the per-call-site slot (one per call site and per user-function instance); stateful
//   builtins keep their state in `site.state`, created on first use. It is the only place state may
//   live, so that the backend can snapshot and roll it back for realtime ticks.
// - Tuple results are returned as arrays owned by the site (`site.out`) so no array is allocated per bar.
// - Values follow src/core/values.ts (na = NaN for numbers and colours, null for objects/strings).
// The args array itself is owned and reused by the backend: never keep a reference to it.

import type { SymInfo } from "../core/result.js";
import type { PineValue } from "../core/values.js";

export interface CallSite {
  /** Per-site state, created lazily by the builtin. */
  state: any;
  /** Reusable tuple result buffer. */
  out?: PineValue[];
  /** Stable id (for diagnostics and snapshots). */
  id: number;
  /**
   * Type arguments of the call when the checker knows them: [T] for array.new<T>/matrix.new<T> and
   * for array.from (the inferred element type), [K, V] for map.new<K, V>.
   */
  typeArgs?: string[];
}

/** The current bar and script environment, as every builtin sees it. Mutated in place per bar. */
export interface ExecContext {
  /** Pine version of the script (5 or 6). */
  version: number;
  barIndex: number;
  /** Number of bars in the run (last_bar_index = barCount - 1). */
  barCount: number;
  time: number;
  timeClose: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /**
   * The input bar whose time and prices these are as they are (the bar loops set it after writing
   * a bar, -1 while a partial or tick bar is written; see src/strategy/host.ts BrokerHost.inputBar).
   */
  inputBar?: number;
  /** Whole input columns (read-only), for builtins that look back or forward in the data. */
  columns: {
    time: Float64Array;
    open: Float64Array;
    high: Float64Array;
    low: Float64Array;
    close: Float64Array;
    volume: Float64Array;
    /** The run made time and OHLC itself (BarColumns.copied): nothing outside the run can write them. */
    copied?: boolean;
  };
  syminfo: Required<Pick<SymInfo, "mintick" | "pointvalue" | "timezone" | "currency" | "type">> & SymInfo;
  /** Chart timeframe in TradingView notation ("1", "60", "D", "1W", ...). */
  timeframe: string;
  /** Realtime state for barstate.*. */
  isRealtime: boolean;
  isNewTick: boolean;
  isConfirmed: boolean;
  /** The run's WASM kernel instance (src/kernels), shared by every ta.* call site of the run. */
  kernels: unknown;
  /** The broker emulator (src/strategy) when the script is a strategy, else null. */
  broker: unknown;
  /** Per-run services other modules attach (drawings store, alerts, request.* feed, ...), by name. */
  ext: Record<string, unknown>;
  /** Sink for log.* and runtime warnings. */
  log(level: "info" | "warning" | "error", message: string): void;
  /** Raises a Pine runtime error (stops the run with error_kind "runtime" and the bar index). */
  runtimeError(message: string): never;
}

export type BuiltinImpl = (ctx: ExecContext, args: any[], site: CallSite) => any;

export interface BuiltinDef {
  /** Full Pine name, e.g. "ta.sma", "array.push", "math.max". */
  name: string;
  impl: BuiltinImpl;
  /** Keeps per-call-site state (ta.*, math.random with seed, ...). */
  stateful?: boolean;
  /**
   * The result is a function of the arguments alone: `impl` reads neither the context nor the site,
   * has no effect and never throws. A call whose arguments are all constants is folded into its
   * value by the checker (`color.new(color.red, 50)` in a plot's colour was an argument array and a
   * call on every bar, in both backends).
   */
  pure?: boolean;
  /**
   * Reads the broker's per-bar equity figures (strategy/stats.ts EquityTracker: the drawdown and
   * run-up maxima, the equity's peak): a run of a script that uses it keeps them even where its host
   * asked for none (track_equity: false, check/equity-reads.ts).
   */
  equityFigures?: boolean;
  /**
   * The same (stateless) builtin taking its arguments positionally, `(ctx, arg0, arg1, ...)`, an
   * omitted one as `undefined`. The compile backend calls it where given: no argument array, so a
   * number passed next to an object is never boxed on the heap. It behaves exactly as `impl`, which
   * is written in terms of it.
   */
  direct?: (ctx: ExecContext, ...args: any[]) => any;
  /**
   * A per-call-site request (strategy.exit): the compiled loop keeps one object per site, made by
   * `make` with every field at its na default, writes the given arguments into `fields` (parameter
   * order; how each value converts) and calls `place(ctx, req)`. Constant arguments are written once;
   * the object's `varying` field is set once to the bits (1 << parameter index) of the arguments
   * written per call, the only fields that can differ from the site's previous call. One small call per bar whatever
   * else competes for V8's inlining budget (a 22-parameter adapter out of line converted them all).
   */
  siteRequest?: {
    fields: readonly (readonly [name: string, conv: "num" | "str" | "bool" | "raw"])[];
    make: () => object;
    place: (ctx: ExecContext, req: any) => void;
    /**
     * Writes every "num" field from `nums`, indexed by parameter (the interpreter's per-site numeric
     * area): named stores of unboxed doubles, where a keyed store by field name would box each one.
     */
    loadNums: (req: any, nums: Float64Array) => void;
  };
  /** Number of history bars the builtin needs of each series argument, when it reads `args` history itself. */
  returnsTuple?: number;
}

export type BuiltinTable = Record<string, BuiltinDef>;

/** A builtin variable such as `close`, `bar_index`, `ta.tr`, `syminfo.mintick`, `strategy.position_size`. */
export interface BuiltinVariable {
  name: string;
  get: (ctx: ExecContext, site: CallSite) => any;
  /** Keeps per-site state (ta.obv, ta.accdist, ta.vwap, ...). */
  stateful?: boolean;
  /**
   * The same value on every bar of a run: it reads only what a run fixes at its start (the chart
   * symbol's syminfo, the chart timeframe), never the bar, the broker or the script's state. Both
   * backends read it once a run and keep the value (a syminfo.mintick in an exit's tick distance was
   * a call, a keyed load and a fallback on every bar).
   */
  perRun?: boolean;
  /**
   * A strategy.* figure: `get` is `ctx.broker ? read(ctx.broker, ctx) : flat`. Generated code calls
   * `read` itself (one call target per variable; `get`'s inner call is shared by every variable and
   * megamorphic). (`any`: the broker's type belongs to src/strategy, above the catalog.)
   */
  broker?: { read: (broker: any, ctx: ExecContext) => unknown; flat: unknown };
  /**
   * Reads the broker's per-bar equity figures (strategy/stats.ts EquityTracker: the drawdown and
   * run-up maxima, the equity's peak): a run of a script that uses it keeps them even where its host
   * asked for none (track_equity: false, check/equity-reads.ts).
   */
  equityFigures?: boolean;
}

export type VariableTable = Record<string, BuiltinVariable>;

/** Builtin constants by full name (`color.red`, `shape.triangleup`, `strategy.long`, `math.pi`). */
export type ConstantTable = Record<string, any>;

/**
 * What every namespace module exports from its index.ts (src/builtins/<ns>/index.ts):
 *   export const functions: BuiltinTable; export const variables: VariableTable; export const constants: ConstantTable;
 * (any of the three may be omitted). src/builtins/index.ts merges them into one registry.
 */
export interface BuiltinModule {
  functions?: BuiltinTable;
  variables?: VariableTable;
  constants?: ConstantTable;
}
