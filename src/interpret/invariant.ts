// Run-invariant top-level declarations: `len = input.int(14)`, `mult = input(2.0)`, `half = len / 2`,
// `tick = syminfo.mintick * 10`. Such a declaration stores the same value on every bar of a run (its
// inputs are fixed by their first call, per-run variables by the run's start, pure operators and
// calls of those give the same result), and nothing else writes its variable. Once the first bar has
// run it, its slot holds that value for the rest of the run, so the bars after it can leave the
// statement out (Compiler.main). Indicators open with a dozen or more of them; each was a statement
// closure, an input site read and a store on every bar.
import type { RExpr, RStmt, ResolvedProgram, VarSlot } from "../check/ir.js";
import { VOID_T } from "../check/types.js";
import { walkWrites } from "../check/walk.js";

/** Value types a slot holds as it is (no object another statement could change). */
const VALUE_TYPES = new Set(["int", "float", "bool", "string", "color"]);

/** Whether `name` is an input builtin (`input`, `input.int`, `input.source`, ...). */
export function isInputCall(name: string): boolean {
  return name === "input" || name.startsWith("input.");
}

/** An input whose value is fixed by the first call: not input.source, whose value is the bar's price. */
function fixedInput(name: string): boolean {
  return isInputCall(name) && name !== "input.source";
}

/**
 * The indices of `prog`'s top-level statements that are run-invariant declarations (above), in a
 * program whose every bar runs the whole script once (no realtime ticks or fill re-runs: a rollback
 * to before the first bar would empty the slot the later bars no longer write).
 */
export function invariantStatements(prog: ResolvedProgram): Set<number> {
  const out = new Set<number>();
  const writes = new Map<number, number>();
  const wrote = (v: VarSlot | null | undefined) => {
    if (v) writes.set(v.slot, (writes.get(v.slot) ?? 0) + 1);
  };
  // (as check/const-vars.ts counts them: a history expression's own slot and a call's parameters too)
  walkWrites(prog.body, wrote, undefined, (e) => {
    if (e.k === "histExpr") wrote(e.v);
    else if (e.k === "ucall") e.inst.params.forEach(wrote);
  });
  const fixed = new Set<number>();
  const stmts = prog.body.stmts;
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    if (!isCandidate(s, prog) || writes.get(s.v.slot) !== 1 || !invariant(s.init, fixed, prog)) continue;
    fixed.add(s.v.slot);
    out.add(i);
  }
  return out;
}

/** A plain top-level declaration of a value type or of an enum (whose members are immutable constants). */
function isCandidate(s: RStmt, prog: ResolvedProgram): s is Extract<RStmt, { k: "decl" }> {
  if (s.k !== "decl" || s.mode !== "plain" || s.v.fnLocal) return false;
  return VALUE_TYPES.has(s.v.type.name) || prog.enums.has(s.v.type.name);
}

/** Whether `e` has the same value on every bar and no effect after its first evaluation. */
function invariant(e: RExpr, fixed: Set<number>, prog: ResolvedProgram): boolean {
  switch (e.k) {
    case "const":
      return true;
    case "load":
      return fixed.has(e.v.slot);
    case "bvar":
      return e.def.perRun === true && e.def.stateful !== true;
    case "unary":
      return invariant(e.e, fixed, prog);
    case "cast":
      return VALUE_TYPES.has(e.to) && invariant(e.e, fixed, prog);
    case "bin":
    case "and":
    case "or":
      return invariant(e.l, fixed, prog) && invariant(e.r, fixed, prog);
    case "tern":
      return invariant(e.c, fixed, prog) && invariant(e.a, fixed, prog) && invariant(e.b, fixed, prog);
    case "call": {
      const args = e.args.every((a) => a === undefined || invariant(a, fixed, prog));
      if (!args || (e.def.stateful && !fixedInput(e.name))) return false;
      if (fixedInput(e.name)) return !prog.inputSourceNames.has(e.site);
      return e.def.pure === true;
    }
    default:
      return false;
  }
}

/**
 * The indices of `prog`'s top-level declarations of a constant whose value no statement reads: the next
 * top-level statement that touches the variable is an unconditional `x := ...` not reading x's
 * current value (`trend = 0` ... `trend := up ? 1 : nz(trend[1])`, the v4 idiom). The store is
 * overwritten before any read, so every bar can leave it out (an error in between stops the run,
 * and a stopped run's slots are never read).
 */
export function deadDeclarations(prog: ResolvedProgram): Set<number> {
  const out = new Set<number>();
  const stmts = prog.body.stmts;
  for (let i = 0; i < stmts.length; i++) {
    const s = stmts[i]!;
    if (s.k !== "decl" || s.mode !== "plain" || s.v.fnLocal || s.init.k !== "const") continue;
    const slot = s.v.slot;
    for (let j = i + 1; j < stmts.length; j++) {
      const t = stmts[j]!;
      if (t.k === "assign" && t.v.slot === slot && t.op === ":=") {
        if (!touches(t.value, slot)) out.add(i);
        break;
      }
      if (stmtTouches(t, slot)) break;
    }
  }
  return out;
}

/** Whether statement `s` reads the current value of, or writes, variable `slot` (nested blocks and called functions included). */
function stmtTouches(s: RStmt, slot: number): boolean {
  let hit = false;
  walkWrites(
    { stmts: [s], t: VOID_T },
    (v) => {
      if (v && v.slot === slot) hit = true;
    },
    undefined,
    (e) => {
      if (readsCurrent(e, slot)) hit = true;
    },
  );
  return hit;
}

/** Whether `e` (its whole tree, called functions included) reads the current value of, or writes, variable `slot`. */
function touches(e: RExpr, slot: number): boolean {
  return stmtTouches({ k: "expr", e, line: 0 }, slot);
}

/** A read of the variable's value on this bar: a load, or a history read whose offset may be 0. */
function readsCurrent(e: RExpr, slot: number): boolean {
  if (e.k === "load") return e.v.slot === slot;
  if (e.k === "hist" || e.k === "histExpr") return e.v.slot === slot && (e.n === null || e.n < 1);
  return false;
}
