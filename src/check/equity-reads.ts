// Whether a script reads the strategy's per-bar equity figures while it runs: a builtin variable or
// call the catalog marks `equityFigures` (strategy.max_drawdown, strategy.max_runup and their
// percents; the strategy.risk.max_drawdown rule, which stops at a drawdown from the equity's peak).
// A run whose host reads only its closed trades (an optimize trial: track_equity false in its broker
// settings) skips the tracker's per-bar work unless the script itself needs it (runtime/evaluate.ts).

import type { ResolvedProgram, RExpr } from "./ir.js";
import { walkWrites } from "./walk.js";

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
        if ((e.k === "bvar" || e.k === "call") && e.def.equityFigures === true) reads = true;
      },
    );
    answers.set(prog, reads);
  }
  return reads;
}
