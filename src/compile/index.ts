// The compile backend (architecture.md "Two backends, one semantics"): the resolved program becomes
// ONE JavaScript function running the whole bar loop (src/compile/codegen.ts), with top-level ta.*
// calls on OHLCV-derived series precomputed by whole-series WASM passes (plan: src/check/hoist-plan.ts; passes: src/interpret/precompute.ts).
// It shares the interpreter's RunState, builtins, kernels and broker, so results are bit-identical.
//
// Caching: the generated function (the `new Function` result, whose optimised code V8 keeps and
// reuses from run to run) is cached per (source hash, inputs shape); a run passes it the refs (call
// sites, rings, per-site argument arrays, precomputed columns) of its own state, which is a cheap
// walk, after checking that the generated text is unchanged. A deterministic "not compilable"
// verdict is cached per source hash too. Hosts without `new Function` (workerd) run the factories
// the deploy compiled ahead of time (aot.ts, emit-module.ts) instead.

import type { ExecContext } from "../builtins/types.js";
import type { ResolvedProgram } from "../check/ir.js";
import type { Kernels } from "../kernels/index.js";
import { PineArray, PineMap, PineMatrix, PineObject } from "../core/values.js";
import { atLine } from "../interpret/errors.js";
import { budgetOf } from "../core/budget.js";
import { objectSlots } from "../core/shapes.js";
import { historyOffsetMessage } from "../check/history-limits.js";
import type { RunState } from "../interpret/state.js";
import { generate, NotCompilable, type Generated, type Ref } from "./codegen.js";
import { tupleSize } from "../check/hoist-plan.js";
import { bulkCopy, kernelsLoaded, planOf, type PlotSite } from "../interpret/hoisting.js";
import { NotPrecomputable, Precompute } from "../interpret/precompute.js";
import { seriesArena, type SeriesArena } from "../kernels/series.js";
import { NO_AOT_MODULE, NO_AOT_RERUN_MODULE, precompiledFactory } from "./aot.js";
import { type SecondaryCapture, secondarySite, securitySite } from "../interpret/security.js";

export { NotCompilable } from "./codegen.js";

export interface CompiledProgram {
  /** Runs bars [from, to) and returns the bar it stopped at (to, or earlier on timeout). */
  loop(from: number, to: number, broker: unknown): number;
  /** Set when the loop stopped because the time budget ran out. */
  readonly timedOut: boolean;
  /** Number of top-level calls precomputed by whole-series WASM passes. */
  hoisted: number;
  /** True when the generated function came from the cache (no `new Function`). */
  cached: boolean;
  /** One more execution of the bar in ctx (the re-runnable variant only; see codegen.ts `generate`). */
  rerun(): void;
  /** Releases the precomputed columns (their memory is reused by the next run). */
  release(): void;
}

/** The generated function: one per script, called by every run with that run's refs and state. */
type Run = (K: unknown[], R: Record<string, unknown>, from: number, to: number, broker: unknown) => number;

interface CacheEntry {
  text: string;
  run: Run;
}

const MAX_CACHE = 256;
/**
 * The generated functions kept are bounded in size as well as in number: their texts add up to at
 * most this many characters (V8's compiled code for them is a few times that), so many different
 * large scripts cannot pin gigabytes in a long-lived server.
 */
const MAX_FACTORY_CHARS = 8_000_000;
const factories = new Map<string, CacheEntry>();
let factoryChars = 0;
const verdicts = new Map<string, string>();

/** The cache key of service.md 1.1's compile cache: the source hash and the shape of the inputs. */
export function cacheKey(sourceHash: string, inputs?: Record<string, unknown>): string {
  const shape = inputs
    ? Object.keys(inputs)
        .sort()
        .map((k) => `${k}:${typeof inputs[k]}`)
        .join(",")
    : "";
  return `${sourceHash}|${shape}`;
}

/** A cached deterministic reason why a script does not compile (undefined: none known). */
export function knownFallback(sourceHash: string): string | undefined {
  return verdicts.get(sourceHash);
}

/** Forgets every cached factory and verdict (tests, memory pressure). */
export function clearCompileCache(): void {
  factories.clear();
  factoryChars = 0;
  verdicts.clear();
}

export function compileCacheSize(): number {
  return factories.size;
}

function remember<K, V>(m: Map<K, V>, k: K, v: V): void {
  if (m.size >= MAX_CACHE) m.delete(m.keys().next().value as K);
  m.set(k, v);
}

/** Keeps a generated function, dropping the oldest ones past MAX_CACHE entries or MAX_FACTORY_CHARS. */
function rememberFactory(key: string, entry: CacheEntry): void {
  const old = factories.get(key);
  if (old) {
    factories.delete(key);
    factoryChars -= old.text.length;
  }
  if (entry.text.length > MAX_FACTORY_CHARS) return;
  while (factories.size > 0 && (factories.size >= MAX_CACHE || factoryChars + entry.text.length > MAX_FACTORY_CHARS)) {
    const [k, e] = factories.entries().next().value as [string, CacheEntry];
    factories.delete(k);
    factoryChars -= e.text.length;
  }
  factories.set(key, entry);
  factoryChars += entry.text.length;
}

/**
 * The generated code of a program, kept with the program object: the Runtime reuses the checked
 * program of an unchanged source (src/runtime/program-cache.ts), and the generated text and refs
 * depend on nothing else.
 */
const generatedFor = new WeakMap<
  ResolvedProgram,
  { hoist?: Generated; plain?: Generated; rerun?: Generated; secondary?: Generated }
>();

type Variant = "hoist" | "plain" | "rerun" | "secondary";

function generated(prog: ResolvedProgram, variant: Variant): Generated {
  let entry = generatedFor.get(prog);
  if (!entry) generatedFor.set(prog, (entry = {}));
  return (entry[variant] ??= generate(prog, variant === "hoist", variant === "rerun", variant === "secondary"));
}

/**
 * Compiles `prog` for a run over `state` and `ctx`. Throws NotCompilable (with a human-readable
 * reason, cached per source hash) when a construct cannot be reproduced exactly. `rerun`: the run
 * executes a bar's body more than once (its broker calcs on order fills, or realtime bars replay
 * ticks), so the program must be able to run the bar in ctx again (`rerun()`).
 *
 * A ctx with a SecondaryCapture (src/interpret/security.ts) is a request.security secondary run's:
 * the secondary variant of the loop (codegen.ts generate), whose request sites record their values
 * in the capture and whose statements' runtime errors go to its `skip`.
 */
export function compileProgram(
  prog: ResolvedProgram,
  state: RunState,
  ctx: ExecContext,
  key: string,
  sourceHash: string,
  rerun = false,
  perBar = false,
): CompiledProgram {
  const known = verdicts.get(sourceHash);
  if (known !== undefined) throw new NotCompilable(known);
  const k = ctx.kernels as Kernels | null;
  const capture = ctx.ext.securityCapture as SecondaryCapture | undefined;
  // (no whole-series passes when the script runs again inside bars: the interpreter makes none either;
  // `perBar`: this run's inputs rule a pass out)
  const variant: Variant = capture ? "secondary" : rerun ? "rerun" : kernelsLoaded(k) && !perBar ? "hoist" : "plain";
  let gen: Generated;
  try {
    gen = generated(prog, variant);
  } catch (err) {
    if (err instanceof NotCompilable) {
      const reason = `${err.message} is not compile-eligible`;
      remember(verdicts, sourceHash, reason);
      throw new NotCompilable(reason);
    }
    throw err;
  }
  const fullKey = `${key}|${variant}`;
  let entry = factories.get(fullKey);
  const cached = !!entry && entry.text === gen.text;
  if (!cached) {
    let run: Run;
    // a module the deploy compiled ahead of time (aot.ts: matched by the text's hash), else eval
    const factory = precompiledFactory(gen, gen.text);
    try {
      run = ((factory as (() => Run) | undefined) ?? (new Function(gen.text) as () => Run))();
    } catch (err) {
      // hosts that forbid code generation from strings (workerd, strict CSP): interpret instead
      if (err instanceof EvalError) throw new NotCompilable(rerun ? NO_AOT_RERUN_MODULE : NO_AOT_MODULE);
      throw err;
    }
    entry = { text: gen.text, run };
    rememberFactory(fullKey, entry);
  }
  let pre: Precompute | null = null;
  let arena: SeriesArena | null = null;
  let hoisted = 0;
  // hoisted columns are computed first (pointers), their views taken after the last pass (a pass
  // may grow the kernel memory, which detaches earlier views)
  const columns: [number, number | number[]][] = [];
  let K: unknown[];
  let bulkColumns: number[] | null = null;
  try {
    K = gen.refs.map((r: Ref, i): unknown => {
      switch (r.k) {
        case "value":
          return r.v;
        case "site":
          return state.sites[r.id];
        case "impl":
          return r.def.impl;
        case "direct":
          return r.def.direct;
        case "request": {
          // a fresh object per run: the site's constants written once, in its na-default shape
          const o = r.make() as Record<string, unknown>;
          for (const [f, v] of r.init) o[f] = v;
          return o;
        }
        case "bvar":
          return r.def.get;
        case "args":
          // (in the elements kind they will hold, so the loop's code fits every run's arrays: core/shapes.ts).
          // All-number arguments go in a Float64Array, not a double-elements Array: a builtin's impl is
          // shared by every call site, and once its optimised code has seen both object and double
          // Arrays at one `a[i]` it moves each double Array it meets to the object elements kind
          // (V8's elements-kind generalisation on polymorphic access), a new map under the generated
          // loop's monomorphic store into that array: a "wrong map" deopt of the whole loop, in every
          // later run (each run's arrays are made double again). A typed array never changes kind.
          return r.numeric ? new Float64Array(r.n) : objectSlots(r.n);
        case "tuple":
          return objectSlots(r.n);
        case "ring": {
          const ring = state.rings[r.hist];
          if (!ring) throw new Error(`internal: no history ring ${r.hist}`);
          return ring;
        }
        case "security":
          // (a secondary run's sites record their own context's values instead)
          return capture ? secondarySite(r.call, capture, ctx) : securitySite(r.call, prog, ctx);
        case "hoist": {
          hoisted++;
          arena ??= seriesArena(k!, ctx.columns.close.length);
          pre ??= new Precompute(r.plan, ctx, arena);
          // (a tuple call's columns, or the one column; na for a branch this run never takes)
          const ptrs = pre.hoisted(r.call);
          columns.push([i, r.call.k === "call" && tupleSize(r.call) > 0 ? ptrs : ptrs[0]!]);
          return null;
        }
        default:
          throw new Error(`internal: unknown code reference ${(r as Ref).k}`);
      }
    });
    // a column-plot program's plot values for every bar (mostly columns the hoisted calls made)
    if (gen.bulk) {
      arena ??= seriesArena(k!, ctx.columns.close.length);
      const p: Precompute = (pre as Precompute | null) ?? new Precompute(planOf(prog), ctx, arena);
      bulkColumns = gen.bulk.map((b) => p.column(b.value));
    }
  } catch (err) {
    (arena as SeriesArena | null)?.release();
    // this run's input values rule a pass out: the loop without passes, every call per bar (which
    // reports what is wrong, as the interpreter does), for this run only
    if (err instanceof NotPrecomputable) return compileProgram(prog, state, ctx, key, sourceHash, rerun, true);
    throw err;
  }
  for (const [i, p] of columns) K[i] = Array.isArray(p) ? p.map((q) => arena!.view(q)) : arena!.view(p);
  const bulk =
    gen.bulk && bulkColumns
      ? bulkCopy(gen.bulk.map((b, j) => ({ site: K[b.site] as PlotSite, values: arena!.view(bulkColumns![j]!) })))
      : null;
  const R: Record<string, unknown> = {
    ctx,
    nums: state.nums,
    vals: state.vals,
    once: state.once,
    budget: budgetOf(ctx),
    atLine,
    historyOffsetMessage,
    PineArray,
    PineMatrix,
    PineMap,
    PineObject,
    timedOut: false,
    bulk,
    // a secondary run's statement error: noted and skipped, or rethrown (codegen.ts generate)
    skip: capture?.skip ?? null,
    // drops the run's objects from the scope of the generated nested functions (codegen.ts nestedScope)
    clear: null,
  };
  // the last run's refs kept (as the Runtime keeps its context and state, src/runtime/evaluate.ts
  // lastRun): the generated loop's optimised code depends on the hidden classes of these objects,
  // and when every run's are gone a full GC takes those classes and the code with them; measured
  // with a gc() before every run, swing_state's compile runs settle in 4 runs instead of ~10
  // (a secondary run's are not: the main run's, which outlive it, are the ones to keep)
  if (!capture) {
    lastRefs[0] = K;
    lastRefs[1] = R;
  }
  const run = entry!.run;
  // the scope of the nested functions (codegen.ts nestedScope), set once for this run
  (run as Run & { setup?: (K: unknown[], R: Record<string, unknown>) => void }).setup?.(K, R);
  if (!cached) {
    // V8 gives a function its feedback only after a few calls: run the prologue alone (an empty bar
    // range) until it has some, or the optimised code made while the first run's loop is hot would
    // lack it and deoptimise on entry of the next run, whose loop then starts over unoptimised. How
    // many calls that takes grows with the function (12 were too few for every bench script:
    // 'Insufficient type feedback' at the prologue's first load on run 1 or 2, then the loop
    // compiled again, whole and on-stack; a call per 32 characters of text was enough for all)
    const calls = Math.min(4096, Math.max(12, Math.ceil(gen.text.length / 32)));
    for (let i = 0; i < calls; i++) run(K, R, 0, 0, null);
  }
  return new CompiledLoop(run, K, R, arena as SeriesArena | null, hoisted, cached);
}

/**
 * A compiled run (CompiledProgram): the generated function over the run's refs (K) and run objects
 * (R). A class, so that `timedOut` is one getter on the prototype: an object literal's getter was a
 * new closure over the run's R every run, and on Node 20's V8 an accessor of a run's own closure
 * kept the whole run (context, broker, result) through every minor GC until the next mark-compact,
 * ~45 KB a 20k-bar strategy run promoted (issue 18, session 25).
 */
class CompiledLoop implements CompiledProgram {
  constructor(
    private readonly run: Run,
    private readonly K: unknown[],
    private readonly R: Record<string, unknown>,
    private readonly arena: SeriesArena | null,
    readonly hoisted: number,
    readonly cached: boolean,
  ) {}

  loop(from: number, to: number, broker: unknown): number {
    return this.run(this.K, this.R, from, to, broker);
  }

  // (R.rerun is made by the loop function when it starts: a fill re-run happens inside the loop, a
  // realtime bar's ticks after it, with the closure of the loop's last call, held in an object
  // literal as rerun.ts's fill hook is; callers take it unbound)
  readonly rerun = (): void => (this.R.rerun as { run(): void }).run();

  get timedOut(): boolean {
    return this.R.timedOut === true;
  }

  release(): void {
    (this.R.clear as (() => void) | null)?.();
    this.arena?.release();
  }
}

/** The refs (K) and run objects (R) of the latest compiled run, until the next one replaces them. */
const lastRefs: unknown[] = [null, null];

/** The generated source of a program (debugging, tests). */
export function generatedSource(prog: ResolvedProgram, hoist = true, rerun = false): string {
  return generate(prog, hoist, rerun).text;
}
