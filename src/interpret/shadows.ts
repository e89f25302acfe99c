// Shadow slots: a constant-offset history read of a global numeric variable (`x[2]`) or of a bar
// column (`close[1]`) cannot change while a bar runs, so its value is copied into a numeric slot
// once per bar (after the history commit, or when the bar is set) and read like any variable: the
// fused operators then treat it as a plain slot operand. Hoisted whole-series columns (hoisting.ts)
// use the same mechanism with offset 0.
import type { RBlock, RExpr, ResolvedProgram } from "../check/ir.js";
import { hoistSlotCount } from "../check/hoist-plan.js";
import { eachChild, eachStmtChild } from "../check/walk.js";

/** countShadowCandidates by program: a walk of the whole program was a few percent of a 2k-bar run. */
const candidates = new WeakMap<ResolvedProgram, number>();

/** An upper bound of the shadow slots a program can use (constant-offset history reads, hoistable calls). */
export function countShadowCandidates(p: ResolvedProgram): number {
  let n = candidates.get(p);
  if (n === undefined) candidates.set(p, (n = countCandidates(p)));
  return n;
}

function countCandidates(p: ResolvedProgram): number {
  let n = 0;
  const expr = (e: RExpr): undefined => {
    if ((e.k === "hist" || e.k === "colHist") && e.n !== null && e.n >= 1) n++;
    else if (e.k === "call" || e.k === "bvar" || e.k === "ucall") n += hoistSlotCount(e);
    eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => {
    for (const s of b.stmts) eachStmtChild(s, expr);
  };
  block(p.body);
  return n;
}
