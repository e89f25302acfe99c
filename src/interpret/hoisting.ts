// Whole-series precompute for the interpreter: a stateful ta.* call at a position the main body
// evaluates on every bar, whose inputs are OHLCV-derived with constant lengths, runs once as a
// whole-series WASM pass before the bar loop (the plan of src/check/hoist-plan.ts and the passes of
// precompute.ts, shared with the compile backend and bit-identical to the per-bar state machines). Its column then feeds a numeric slot that setBar
// refreshes each bar, so the call costs a slot read. Only for runs without a realtime window (a
// forming bar's ticks change close/high/low) and without the profiler (it times the calls).
import type { CallSite, ExecContext } from "../builtins/types.js";
import type { RExpr, ResolvedProgram } from "../check/ir.js";
import { columnPlotCalls, HoistPlan } from "../check/hoist-plan.js";
import type { Kernels } from "../kernels/index.js";
import { seriesArena } from "../kernels/series.js";
import { NotPrecomputable, Precompute } from "./precompute.js";
import type { RunState } from "./state.js";

/** An expression whose per-bar value(s) sit in numeric slots (one, or one per tuple element). */
export type HoistedSlots = Map<RExpr, number[]>;

/** Hoisted expressions' slots, and the release of the arena their columns live in. */
/**
 * Whether a run has its kernels (the whole-series passes and the written-out ta.* steps need them;
 * without, the impls raise their missing-kernels error). k.module first: reading k.x would
 * instantiate the run's own lazy instance, which the passes, run in the shared series instance, do
 * not use.
 */
export function kernelsLoaded(k: unknown): k is Kernels {
  const kk = k as { module?: unknown; x?: unknown } | null | undefined;
  return !!kk && !!(kk.module || kk.x);
}

export interface Hoisted {
  slots: HoistedSlots;
  /**
   * A column-plot program's (src/check/hoist-plan.ts columnPlotCalls): copies bars [from, to) of each
   * plot's precomputed values into its column, once the first bar registered the plots; else null.
   */
  bulk: ((from: number, to: number) => void) | null;
  /** Gives the columns' memory back: call once the bar loop is over. */
  release(): void;
}

/** Column-plot runs the interpreter set up to copy in bulk (tests assert the path was taken). */
export const bulkBuilds = { n: 0 };

/** A plot call site once its first call registered the output: its column of values. */
export interface PlotSite {
  state: { col: Float64Array } | undefined;
}

/** Copies bars [from, to) of each plot's precomputed values into its column (after bar 0 registered the plots). */
export function bulkCopy(plots: { site: PlotSite; values: Float64Array }[]): (from: number, to: number) => void {
  return (from, to) => {
    for (const { site, values } of plots) {
      if (!site.state) throw new Error("internal: a column plot was not registered on the first bar");
      site.state.col.set(values.subarray(from, to), from);
    }
  };
}

const plans = new WeakMap<ResolvedProgram, HoistPlan>();

/** The program's HoistPlan (a function of the program alone), made once for all its runs. */
export function planOf(prog: ResolvedProgram): HoistPlan {
  let p = plans.get(prog);
  if (p === undefined) plans.set(prog, (p = new HoistPlan(prog)));
  return p;
}

/**
 * Runs the whole-series passes of every candidate and gives each result column a slot in `st`
 * (refreshed per bar by setBar). Candidates left without a slot stay per-bar calls. The columns
 * are views of the process-wide series arena, valid until `release`.
 */
export function hoistColumns(prog: ResolvedProgram, ctx: ExecContext, st: RunState): Hoisted {
  const slots: HoistedSlots = new Map();
  const none: Hoisted = { slots, bulk: null, release: () => {} };
  const k = ctx.kernels;
  if (!kernelsLoaded(k)) return none;
  const plan = planOf(prog);
  const found = plan.candidates;
  if (!found.length) return none;
  let bulk: Hoisted["bulk"] = null;
  const arena = seriesArena(k, ctx.columns.close.length);
  try {
    const pre = new Precompute(plan, ctx, arena);
    const ptrs = found.map((e) => {
      try {
        // (a call in a branch this run never takes is never read: no column, no slot to refresh a bar)
        return pre.untaken(e) ? null : pre.columns(e);
      } catch (err) {
        // an input length this run's values rule out: that call stays per bar (which reports it)
        if (err instanceof NotPrecomputable) return null;
        throw err;
      }
    });
    // a column-plot program: every plot's values as a column too (the tuple calls it declares hoisted)
    const plots = columnPlotCalls(prog, plan, (e) => ptrs[found.indexOf(e)] != null);
    const plotPtrs = plots?.map((e) => pre.column(e.args[0]!));
    // views only after the last pass: a pass may grow the memory, which detaches earlier views
    if (plots && plotPtrs) {
      bulkBuilds.n++;
      bulk = bulkCopy(
        plots.map((e, j) => ({ site: st.sites[e.site] as CallSite as PlotSite, values: arena.view(plotPtrs[j]!) })),
      );
    }
    found.forEach((e, j) => {
      const ids: number[] = [];
      if (!ptrs[j]) return;
      for (const p of ptrs[j]!) {
        const id = st.shadowOf(arena.view(p), 0);
        if (id === undefined) return;
        ids.push(id);
      }
      slots.set(e, ids);
    });
  } catch (err) {
    arena.release();
    throw err;
  }
  return { slots, bulk, release: () => arena.release() };
}
