// The call sites a bar evaluates at most once per execution of its body: where a builtin's per-call
// state step may be written out without the impl's roll-back of a repeated call on one bar. Both
// backends ask inlineTaSites (src/compile/inline-ta.ts, src/interpret/inline-ta.ts), so they write
// out the same calls.
import type { HoistPlan } from "./hoist-plan.js";
import type { RBlock, RExpr, RStmt } from "./ir.js";
import { eachChild, eachStmt, eachStmtChild } from "./walk.js";

/** The ta.* builtins whose step both backends write out (all six take (number, number)). */
export const INLINE_TA_NAMES: ReadonlySet<string> = new Set([
  "ta.cross",
  "ta.crossover",
  "ta.crossunder",
  "ta.ema",
  "ta.rma",
  "ta.sma",
]);

/**
 * Those of INLINE_TA_NAMES taking (number, length) whose step is written out for one length only, so
 * the length must be the same on every call of the run (fixedForRun): ta.sma's window.
 */
const FIXED_LENGTH_TA_NAMES: ReadonlySet<string> = new Set(["ta.sma"]);

/**
 * A length the same on every call of a run: a number constant, a number input with constant arguments
 * assigned once to a top-level variable (HoistPlan.inputs: its value is read once a run), a top-level
 * variable nothing else writes declared from such a length (HoistPlan.declaredOnce), or arithmetic of them (`len * 3`).
 */
function fixedForRun(e: RExpr, plan: HoistPlan): boolean {
  switch (e.k) {
    case "const":
      return typeof e.v === "number";
    case "load": {
      const init = plan.declaredOnce.get(e.v.slot);
      return plan.inputs.has(e.v.slot) || (init !== undefined && fixedForRun(init, plan));
    }
    case "unary":
      return e.op === "-" && fixedForRun(e.e, plan);
    case "bin":
      return ["+", "-", "*", "/", "%"].includes(e.op) && !e.str && fixedForRun(e.l, plan) && fixedForRun(e.r, plan);
    default:
      return false;
  }
}

/**
 * The call sites whose ta.* step is written out (by call-site id): a builtin of INLINE_TA_NAMES (one of
 * FIXED_LENGTH_TA_NAMES only with a length fixed for the run, by `plan`'s inputs) with its arguments in parameter order (no named arguments out of order, which the impl's array
 * handles), each present and int/float (its code yields a number, NaN for na), at a site a bar runs at
 * most once (oncePerBarSites).
 */
export function inlineTaSites(body: RBlock, plan: HoistPlan): Set<number> {
  const sites = new Set<number>();
  const kind = (e: Extract<RExpr, { k: "call" }>): boolean =>
    INLINE_TA_NAMES.has(e.name) && (!FIXED_LENGTH_TA_NAMES.has(e.name) || fixedForRun(e.args[1]!, plan));
  const expr = (e: RExpr): undefined => {
    if (
      e.k === "call" &&
      e.order === undefined &&
      e.args.every((a) => a !== undefined && (a.t.name === "int" || a.t.name === "float")) &&
      kind(e)
    )
      sites.add(e.site);
    return eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => eachStmt(b, stmt);
  const stmt = (s: RStmt): undefined => eachStmtChild(s, expr);
  block(body);
  const once = oncePerBarSites(body);
  for (const site of sites) if (!once.has(site)) sites.delete(site);
  return sites;
}

/**
 * The call sites a bar runs at most once per execution (by call-site id): everything outside loops
 * (their headers included: a `while` condition and a `for` bound are read again on every iteration),
 * user functions' bodies included when the call runs once (each call is an instance of its own, with
 * its own sites, ir.ts). A site reached twice in this walk is left out.
 */
export function oncePerBarSites(body: RBlock): Set<number> {
  const seen = new Map<number, number>();
  const expr = (e: RExpr): undefined => {
    if (e.k === "for" || e.k === "while" || e.k === "forin") return undefined;
    if (e.k === "call") seen.set(e.site, (seen.get(e.site) ?? 0) + 1);
    return eachChild(e, expr, block);
  };
  const block = (b: RBlock): undefined => eachStmt(b, stmt);
  const stmt = (s: RStmt): undefined => eachStmtChild(s, expr);
  block(body);
  const once = new Set<number>();
  for (const [site, n] of seen) if (n === 1) once.add(site);
  return once;
}

/**
 * The call sites every execution of the bar's body reaches (by call-site id): a call that is itself
 * a statement of the script's top level, or the whole initial value of a plain (not `var`)
 * declaration there. Nothing at the top level skips a statement (only an error, which ends the run),
 * so such a call runs on every bar the run executes, from the first. The plot store leaves the
 * columns of these outputs unfilled: every cell a result reads is written (src/builtins/plot/store.ts).
 */
export function everyBarSites(body: RBlock): Set<number> {
  const sites = new Set<number>();
  for (const s of body.stmts) {
    const e = s.k === "expr" ? s.e : s.k === "decl" && s.mode === "plain" ? s.init : null;
    if (e !== null && e.k === "call") sites.add(e.site);
  }
  return sites;
}
