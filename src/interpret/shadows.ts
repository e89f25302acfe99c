// Shadow slots: a constant-offset history read of a global numeric variable (`x[2]`) or of a bar
// column (`close[1]`) cannot change while a bar runs, so its value is copied into a numeric slot
// once per bar (after the history commit, or when the bar is set) and read like any variable: the
// fused operators then treat it as a plain slot operand. Hoisted whole-series columns (hoisting.ts)
// use the same mechanism with offset 0.
import type { RBlock, RExpr, RStmt, ResolvedProgram } from "../check/ir.js";
import { hoistSlotCount } from "../check/hoist-plan.js";

/** An upper bound of the shadow slots a program can use (constant-offset history reads, hoistable calls). */
export function countShadowCandidates(p: ResolvedProgram): number {
  let n = 0;
  const expr = (e: RExpr | undefined | null): void => {
    if (!e) return;
    switch (e.k) {
      case "hist":
        if (e.n !== null && e.n >= 1) n++;
        expr(e.off);
        return;
      case "colHist":
        if (e.n !== null && e.n >= 1) n++;
        return;
      case "histExpr":
        expr(e.e);
        expr(e.off);
        return;
      case "unary":
      case "cast":
        expr(e.e);
        return;
      case "bin":
      case "and":
      case "or":
        expr(e.l);
        expr(e.r);
        return;
      case "tern":
        expr(e.c);
        expr(e.a);
        expr(e.b);
        return;
      case "call":
        n += hoistSlotCount(e);
        e.args.forEach(expr);
        return;
      case "bvar":
        n += hoistSlotCount(e);
        return;
      case "ucall":
        e.args.forEach(expr);
        block(e.inst.body);
        return;
      case "tuple":
        e.elems.forEach(expr);
        return;
      case "if":
        expr(e.cond);
        block(e.then);
        if (e.else) block(e.else);
        return;
      case "switch":
        expr(e.subject);
        e.cases.forEach((c) => {
          expr(c.test);
          block(c.body);
        });
        return;
      case "for":
        expr(e.from);
        expr(e.to);
        expr(e.step);
        block(e.body);
        return;
      case "forin":
        expr(e.iterable);
        block(e.body);
        return;
      case "while":
        expr(e.cond);
        block(e.body);
        return;
      case "field":
      case "copy":
        expr(e.obj);
        return;
      case "new":
        e.fields.forEach(expr);
        return;
      default:
        return;
    }
  };
  const stmt = (s: RStmt): void => {
    switch (s.k) {
      case "decl":
      case "tdecl":
        expr(s.init);
        return;
      case "assign":
        expr(s.value);
        return;
      case "fassign":
        expr(s.obj);
        expr(s.value);
        return;
      case "expr":
        expr(s.e);
        return;
    }
  };
  const block = (b: RBlock): void => b.stmts.forEach(stmt);
  block(p.body);
  return n;
}
