// Compile eligibility, decided once per script: exactly the constructs the compile backend's code
// generator (src/compile/codegen.ts) refuses, with the same wording, so that `auto` reports the
// precise reason before trying and `compile` falls back without generating anything. Everything
// else (UDTs, enums, varip, collections, drawings, strategies, user functions, loops) compiles.
// tests/compile/eligibility.test.ts keeps this and the generator in step.
import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "./ir.js";

/** Calls evaluated in another context by the interpreter (src/interpret/security.ts). */
export const COMPILE_SECURITY_CALLS: ReadonlySet<string> = new Set(["request.security", "request.security_lower_tf"]);

const ineligible = (what: string) => `${what} is not compile-eligible`;

export function compileEligibility(p: ResolvedProgram): string | undefined {
  // the broker re-runs the script inside a bar after fills (src/strategy/README.md); the compiled loop cannot
  if (p.declaration.kind === "strategy" && p.declaration.args.calc_on_order_fills === true)
    return "strategy(calc_on_order_fills = true) re-runs the script inside a bar: interpret only";
  return block(p.body);
}

function block(b: RBlock): string | undefined {
  for (const s of b.stmts) {
    const r = stmt(s);
    if (r) return r;
  }
  return undefined;
}

function stmt(s: RStmt): string | undefined {
  switch (s.k) {
    case "decl":
      return expr(s.init);
    case "tdecl":
      return expr(s.init);
    case "assign":
      return expr(s.value);
    case "fassign":
      return expr(s.obj) ?? expr(s.value);
    case "expr":
      return expr(s.e);
    default:
      return undefined;
  }
}

/** What the generator says of a history read of `v` at constant offset n (null: dynamic). */
function history(v: VarSlot, n: number | null): string | undefined {
  if (v.hist < 0) return ineligible(`a history reference without history storage ('${v.name}')`);
  if (n === 0 || n === null) return undefined;
  let size = 1;
  while (size < v.histDepth + 1) size <<= 1;
  return n > size - 1 ? ineligible(`a history reference deeper than its ring ('${v.name}[${n}]')`) : undefined;
}

function all(xs: readonly (RExpr | null | undefined)[]): string | undefined {
  for (const x of xs) {
    if (!x) continue;
    const r = expr(x);
    if (r) return r;
  }
  return undefined;
}

function expr(e: RExpr | null | undefined): string | undefined {
  if (!e) return undefined;
  switch (e.k) {
    case "call":
      if (COMPILE_SECURITY_CALLS.has(e.name)) return ineligible(`'${e.name}'`);
      return all(e.args);
    case "ucall":
      return block(e.inst.body) ?? all(e.args);
    case "hist":
      return history(e.v, e.n) ?? (e.n === null ? expr(e.off) : undefined);
    case "histExpr":
      return expr(e.e) ?? (e.n === 0 ? undefined : (history(e.v, e.n) ?? (e.n === null ? expr(e.off) : undefined)));
    case "colHist":
      return e.n === null ? expr(e.off) : undefined;
    case "unary":
    case "cast":
      return expr(e.e);
    case "bin":
    case "and":
    case "or":
      return expr(e.l) ?? expr(e.r);
    case "tern":
      return expr(e.c) ?? expr(e.a) ?? expr(e.b);
    case "tuple":
      return all(e.elems);
    case "if":
      return expr(e.cond) ?? block(e.then) ?? (e.else ? block(e.else) : undefined);
    case "switch": {
      const r = expr(e.subject);
      if (r) return r;
      for (const c of e.cases) {
        const x = expr(c.test) ?? block(c.body);
        if (x) return x;
      }
      return undefined;
    }
    case "for":
      return expr(e.from) ?? expr(e.to) ?? expr(e.step) ?? block(e.body);
    case "forin":
      return expr(e.iterable) ?? block(e.body);
    case "while":
      return expr(e.cond) ?? block(e.body);
    case "field":
    case "copy":
      return expr(e.obj);
    case "new":
      return all(e.fields);
    default:
      return undefined;
  }
}
