// The hook through which the compile backend (src/compile) plugs into the evaluate contract: the
// Runtime calls it for `compile` and `auto` runs. Without a registered backend every run interprets
// and says so in compile_fallback_reason.
import type { ExecContext } from "../builtins/types.js";
import type { ResolvedProgram } from "../check/ir.js";
import type { RunState } from "../interpret/state.js";

export interface CompiledRun {
  /**
   * Runs bars [from, to) (context, broker, history commits included) and returns where it stopped. The
   * run's time budget is ctx.ext.budget (src/core/budget.ts): past its deadline the loop stops between
   * bars (timedOut) or throws RunTimeout inside one.
   */
  loop: (from: number, to: number, broker: unknown) => number;
  /** True when the loop stopped between bars because the time budget ran out. */
  readonly timedOut: boolean;
  /**
   * With `rerun`: runs the script body once more on the bar in ctx: from inside the loop (the broker's
   * calc_on_order_fills re-run) or after it (a realtime bar's ticks, the Runtime opening and closing
   * the bar); the caller snapshots and rolls back the state around it.
   */
  rerun?(): void;
  /** Gives back what the loop read (precomputed columns); called once the loop is done. */
  release?(): void;
}

/**
 * Builds the compiled bar loop of a run; throws with a human-readable reason when the script cannot
 * be compiled (the run then interprets). `key` is the cache key (source hash + inputs shape); `rerun`
 * asks for a loop whose bar body can run again on one bar (calc_on_order_fills, realtime ticks).
 */
export type CompileBackend = (
  prog: ResolvedProgram,
  state: RunState,
  ctx: ExecContext,
  key: string,
  sourceHash: string,
  rerun?: boolean,
) => CompiledRun;

let backend: CompileBackend | null = null;

export function setCompileBackend(b: CompileBackend | null): void {
  backend = b;
}

export function compileBackend(): CompileBackend | null {
  return backend;
}
