// Compile eligibility, decided once per script: exactly the constructs the compile backend's code
// generator (src/compile/codegen.ts) refuses, with the same wording, so that `auto` reports the
// precise reason before trying and `compile` falls back without generating anything. Everything
// else (UDTs, enums, varip, collections, drawings, strategies, calc_on_order_fills, user functions,
// loops, request.security and security_lower_tf, whose secondary runs are interpreted) compiles.
// tests/compile/eligibility.test.ts keeps this and the generator in step.
import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "./ir.js";
import { eachChild, eachStmt, eachStmtChild } from "./walk.js";

const ineligible = (what: string) => `${what} is not compile-eligible`;

export function compileEligibility(p: ResolvedProgram): string | undefined {
  return block(p.body);
}

function block(b: RBlock): string | undefined {
  return eachStmt(b, stmt);
}

function stmt(s: RStmt): string | undefined {
  return eachStmtChild(s, expr);
}

/** What the generator says of a history read of `v` at constant offset n (null: dynamic). */
function history(v: VarSlot, n: number | null): string | undefined {
  if (v.hist < 0) return ineligible(`a history reference without history storage ('${v.name}')`);
  if (n === 0 || n === null) return undefined;
  let size = 1;
  while (size < v.histDepth + 1) size <<= 1;
  return n > size - 1 ? ineligible(`a history reference deeper than its ring ('${v.name}[${n}]')`) : undefined;
}

/** The first construct the generator refuses in `e` or below it (walk.ts gives the children). */
function expr(e: RExpr): string | undefined {
  switch (e.k) {
    case "hist": {
      const r = history(e.v, e.n);
      if (r) return r;
      break;
    }
    case "histExpr": {
      const r = e.n === 0 ? undefined : history(e.v, e.n);
      if (r) return r;
      break;
    }
  }
  return eachChild(e, expr, block);
}
