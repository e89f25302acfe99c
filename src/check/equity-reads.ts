// Whether a script reads the strategy's per-bar equity figures while it runs: the builtin variables
// the broker's equity tracker keeps (strategy.max_drawdown, strategy.max_runup and their percents)
// or the risk rule that stops at a drawdown from the equity's peak (strategy.risk.max_drawdown).
// A run whose host reads only its closed trades (an optimize trial: track_equity false in its broker
// settings) skips the tracker's per-bar work unless the script itself needs it (runtime/evaluate.ts).

import type { ResolvedProgram, RExpr } from "./ir.js";
import { walkWrites } from "./walk.js";

/** Builtin variables whose values come from the equity tracker (builtins/strategy/variables.ts). */
const TRACKED_VARIABLES = new Set([
  "strategy.max_drawdown",
  "strategy.max_drawdown_percent",
  "strategy.max_runup",
  "strategy.max_runup_percent",
]);

/** Builtin calls whose rule reads the tracker (strategy/risk.ts: the equity's peak). */
const TRACKED_CALLS = new Set(["strategy.risk.max_drawdown"]);

const answers = new WeakMap<ResolvedProgram, boolean>();

/** Whether `prog` reads the equity tracker's figures anywhere (user functions included). */
export function readsEquityFigures(prog: ResolvedProgram): boolean {
  let reads = answers.get(prog);
  if (reads === undefined) {
    reads = false;
    walkWrites(
      prog.body,
      () => {},
      undefined,
      (e: RExpr) => {
        if ((e.k === "bvar" && TRACKED_VARIABLES.has(e.def.name)) || (e.k === "call" && TRACKED_CALLS.has(e.name)))
          reads = true;
      },
    );
    answers.set(prog, reads);
  }
  return reads;
}
