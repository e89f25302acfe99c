// Variables that hold one constant for the whole run: declared from a literal value (`var color
// buyColor = color.blue`, `mult = 2.0`) and written by nothing else. Their plain reads become that
// constant, and pure builtins of constants left by it (BuiltinDef.pure: `color.new(buyColor, 90)`) fold
// too, so both backends see constants where the script named them: a constant colour is not written
// per bar, a pure call is not made per bar. History reads (`x[1]`) keep the variable: before the
// first bar they are na, not the constant.
import type { RBlock, RExpr, ResolvedProgram, VarSlot } from "./ir.js";
import { eachChild, eachStmt, eachStmtChild, walkWrites } from "./walk.js";

/** Replaces, in place, the reads of constant variables and the pure calls of constants they leave. */
export function propagateConstVars(prog: ResolvedProgram): void {
  const writes = new Map<number, number>();
  const wrote = (v: VarSlot | null | undefined) => {
    if (v) writes.set(v.slot, (writes.get(v.slot) ?? 0) + 1);
  };
  const inits = new Map<number, unknown>();
  walkWrites(
    prog.body,
    wrote,
    (s) => {
      if (s.k === "decl" && s.mode !== "varip" && s.init.k === "const" && fits(s.v, s.init.v))
        inits.set(s.v.slot, s.init.v);
    },
    // (a history read keeps its own slot; a user function's parameters are written by each call)
    (e) => {
      if (e.k === "histExpr") wrote(e.v);
      else if (e.k === "ucall") e.inst.params.forEach(wrote);
    },
  );
  for (const slot of [...inits.keys()]) if (writes.get(slot) !== 1) inits.delete(slot);
  if (inits.size === 0) return;
  const done = new Set<RBlock>();
  const block = (b: RBlock): undefined => {
    if (done.has(b)) return;
    done.add(b);
    eachStmt(b, (s) => eachStmtChild(s, expr));
  };
  const expr = (e: RExpr): undefined => {
    eachChild(e, expr, block);
    if (e.k === "load" && inits.has(e.v.slot)) toConst(e, inits.get(e.v.slot));
    else if (
      e.k === "call" &&
      e.def.pure &&
      e.args.every((a) => a === undefined || a.k === "const") &&
      e.args.some((a) => a !== undefined)
    )
      toConst(
        e,
        e.def.impl(
          undefined as never,
          e.args.map((a) => (a as { v?: unknown } | undefined)?.v),
          undefined as never,
        ),
      );
    return undefined;
  };
  block(prog.body);
}

/** A constant the variable stores as it is: a number in a numeric or colour one, a bool, a string. */
function fits(v: VarSlot, x: unknown): boolean {
  const n = v.type.name;
  if (n === "int" || n === "float" || n === "color") return typeof x === "number";
  if (n === "bool") return typeof x === "boolean";
  if (n === "string") return typeof x === "string";
  return false;
}

/** Turns node `e` into a constant of its own type. */
function toConst(e: RExpr, v: unknown): void {
  const t = e.t;
  const n = e as unknown as Record<string, unknown>;
  for (const k of Object.keys(n)) delete n[k];
  n.k = "const";
  n.v = v;
  n.t = t;
}
