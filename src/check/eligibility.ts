// Compile eligibility, decided once per script: the compile backend (src/compile) targets numeric
// bar loops; scripts using features it does not cover run interpret, with the reason given here.
import type { RBlock, RExpr, RStmt, ResolvedProgram } from "./ir.js";

const NUMERIC = new Set(["int", "float", "bool", "color", "na", "void", "tuple", "string", "plot", "hline"]);

export function compileEligibility(p: ResolvedProgram): string | undefined {
  if (p.udts.size > 0) return "user-defined types are not compile-eligible";
  if (p.enums.size > 0) return "enums are not compile-eligible";
  if (p.varipSlots.length > 0) return "varip variables are not compile-eligible";
  // the broker re-runs the script inside a bar after fills (src/strategy/README.md); the compiled loop cannot
  if (p.declaration.kind === "strategy" && p.declaration.args.calc_on_order_fills === true) return "strategy(calc_on_order_fills = true) re-runs the script inside a bar: interpret only";
  for (const s of p.slots) {
    if (!NUMERIC.has(s.type.name)) return `variables of type ${s.type.name} are not compile-eligible`;
  }
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
      return "field assignment is not compile-eligible";
    case "expr":
      return expr(s.e);
    default:
      return undefined;
  }
}

function expr(e: RExpr): string | undefined {
  switch (e.k) {
    case "call":
      if (e.name.startsWith("request.")) return "request.* calls are not compile-eligible";
      if (/^(array|matrix|map|line|label|box|table|linefill|polyline|chart)\./.test(e.name)) return `'${e.name}' is not compile-eligible`;
      for (const a of e.args) if (a) { const r = expr(a); if (r) return r; }
      return undefined;
    case "ucall":
      for (const a of e.args) { const r = expr(a); if (r) return r; }
      return block(e.inst.body);
    case "forin":
      return "for...in loops are not compile-eligible";
    case "field":
    case "new":
    case "copy":
      return "user-defined types are not compile-eligible";
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
      for (const x of e.elems) { const r = expr(x); if (r) return r; }
      return undefined;
    case "if":
      return expr(e.cond) ?? block(e.then) ?? (e.else ? block(e.else) : undefined);
    case "switch":
      if (e.subject) { const r = expr(e.subject); if (r) return r; }
      for (const c of e.cases) { const r = (c.test ? expr(c.test) : undefined) ?? block(c.body); if (r) return r; }
      return undefined;
    case "for":
      return expr(e.from) ?? expr(e.to) ?? (e.step ? expr(e.step) : undefined) ?? block(e.body);
    case "while":
      return expr(e.cond) ?? block(e.body);
    case "hist":
    case "histExpr":
    case "colHist":
      return e.k === "histExpr" ? expr(e.e) ?? expr(e.off) : expr(e.off);
    default:
      return undefined;
  }
}
