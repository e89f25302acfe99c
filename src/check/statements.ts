// Checking statements and control-flow structures (if/switch/for/for-in/while, which are also
// expressions in Pine).

import type * as A from "../lang/ast.js";
import { EnumValue } from "../core/values.js";
import type { Checker } from "./checker.js";
import { naValue, toBool } from "./ir-values.js";
import { CheckError, Poisoned } from "./errors.js";
import { constEval } from "./consteval.js";
import { resolveImport } from "./libraries.js";
import type { RBlock, RExpr, RStmt, VarSlot } from "./ir.js";
import { Scope } from "./scope.js";
import {
  CONST,
  elemOf,
  genericHead,
  isNumeric,
  keyOf,
  maxQ,
  SERIES,
  SIMPLE,
  t,
  typeText,
  unify,
  VOID_T,
  type PType,
} from "./types.js";

export function checkStatement(c: Checker, s: A.Stmt, scope: Scope): RStmt | null {
  const line = s.span.line;
  switch (s.kind) {
    case "ExprStmt": {
      const e = s.expr;
      if (
        e.kind === "Call" &&
        e.callee.kind === "Ident" &&
        ["indicator", "strategy", "library"].includes(e.callee.name)
      ) {
        if (!scope.isGlobal) throw new CheckError(`'${e.callee.name}()' must be at global scope`, e.span);
        c.declare(e, e.callee.name as "indicator");
        return null;
      }
      return { k: "expr", e: c.expr(e, scope), line };
    }
    case "VarDecl":
      return varDecl(c, s, scope);
    case "TupleDecl": {
      const init = c.expr(s.init, scope);
      if (init.t.name !== "tuple" || !init.t.elems)
        throw new CheckError(
          `Cannot destructure ${typeText(init.t)} into [${s.names.map((n) => n.name).join(", ")}]`,
          s.span,
        );
      if (init.t.elems.length !== s.names.length)
        throw new CheckError(`Tuple has ${init.t.elems.length} values, ${s.names.length} names given`, s.span);
      const vs = s.names.map((n, i) => {
        if (n.name === "_") return null;
        redeclared(scope, n);
        const et = init.t.elems![i]!;
        // every item shares the tuple's qualifier (simple when nothing in it is series); a variable
        // reassigned later is series like any other
        const q = c.mutated.has(n.name) ? mutatedQual(c, maxQ(init.t.q, SIMPLE)) : maxQ(init.t.q, SIMPLE);
        const slot = c.newSlot(n.name, { name: et.name === "na" ? "float" : et.name, q }, n.span);
        scope.vars.set(n.name, { slot, readonly: false });
        c.undetermined.follow(slot, init);
        return slot;
      });
      return { k: "tdecl", vs, init, line };
    }
    case "Assign":
      return assign(c, s, scope);
    case "FuncDecl": {
      if (!scope.isGlobal) throw new CheckError("Functions can only be declared at global scope", s.span);
      if (s.exported) {
        const untyped = s.params.find((p) => !p.type);
        if (untyped)
          throw new CheckError(
            `Parameter '${untyped.name.name}' of exported function '${s.name.name}' needs a type: exported functions must have fully typed parameters`,
            untyped.span,
          );
        const konst = s.params.find((p) => p.qualifier === "const");
        if (konst)
          throw new CheckError(
            `Parameter '${konst.name.name}' of exported function '${s.name.name}' cannot be const: only non-exported functions may have const parameters`,
            konst.span,
          );
      }
      const firstDefault = s.params.findIndex((p) => p.default);
      if (firstDefault >= 0) {
        const bad = s.params.slice(firstDefault).find((p) => !p.default);
        if (bad)
          throw new CheckError(
            `Parameter '${bad.name.name}' of '${s.name.name}' needs a default value: parameters with defaults must come last`,
            bad.span,
          );
      }
      const table = s.isMethod ? c.methods : c.funcs;
      const list = table.get(s.name.name) ?? [];
      if (list.some((f) => sameSignature(c, f, s)))
        throw new CheckError(`Function '${s.name.name}' is already declared with these parameters`, s.name.span);
      list.push(s);
      table.set(s.name.name, list);
      if (s.isMethod) {
        if (!s.params.length) throw new CheckError("A method needs at least one parameter (its receiver)", s.span);
        if (!s.params[0]!.type)
          throw new CheckError(
            `The first parameter of method '${s.name.name}' needs a type (the type the method extends)`,
            s.params[0]!.span,
          );
        // a method is also callable as a plain function
        const fl = c.funcs.get(s.name.name) ?? [];
        fl.push(s);
        c.funcs.set(s.name.name, fl);
      }
      return null;
    }
    case "TypeDecl": {
      if (!scope.isGlobal) throw new CheckError("Types can only be declared at global scope", s.span);
      if (c.udts.has(s.name.name)) throw new CheckError(`Type '${s.name.name}' is already declared`, s.name.span);
      const info = {
        name: s.name.name,
        fields: [] as { name: string; type: PType; default: RExpr | null; varip?: boolean }[],
      };
      c.udts.set(s.name.name, info); // registered first: fields may be of the same type
      for (const f of s.fields) {
        const ty = c.typeFromRef(f.type);
        let def: RExpr | null = null;
        if (f.default) {
          def = c.expr(f.default, c.global);
          c.checkAssignable(def.t, ty, f.span, `field '${f.name.name}'`);
        }
        info.fields.push(
          f.varip
            ? { name: f.name.name, type: t(ty, SERIES), default: def, varip: true }
            : { name: f.name.name, type: t(ty, SERIES), default: def },
        );
      }
      return null;
    }
    case "EnumDecl": {
      if (c.enums.has(s.name.name)) throw new CheckError(`Enum '${s.name.name}' is already declared`, s.name.span);
      const members = new Map<string, EnumValue>();
      s.members.forEach((m, i) => {
        if (members.has(m.name.name)) throw new CheckError(`Enum member '${m.name.name}' is declared twice`, m.span);
        members.set(m.name.name, new EnumValue(s.name.name, m.name.name, m.title?.value ?? m.name.name, i));
      });
      c.enums.set(s.name.name, { name: s.name.name, members });
      return null;
    }
    case "Import": {
      if (!scope.isGlobal) throw new CheckError("Imports must be at global scope", s.span);
      c.compileReason ??= "import statements are not compile-eligible";
      for (const d of resolveImport(s, c.libraries)) {
        const r = checkStatement(c, d, scope);
        if (r) c.prelude.push(r);
      }
      return null;
    }
    case "Break":
    case "Continue":
      if (!scope.inLoop) throw new CheckError(`'${s.kind.toLowerCase()}' outside of a loop`, s.span);
      return { k: s.kind === "Break" ? "break" : "continue", line };
  }
}

function redeclared(scope: Scope, n: A.Ident): void {
  if (scope.vars.has(n.name)) throw new CheckError(`Redeclaration of variable '${n.name}' in the same scope`, n.span);
}

function sameSignature(c: Checker, a: A.FuncDecl, b: A.FuncDecl): boolean {
  if (a.params.length !== b.params.length) return false;
  return a.params.every((p, i) => {
    const q = b.params[i]!;
    const ta = p.type ? c.typeFromRef(p.type) : "";
    const tb = q.type ? c.typeFromRef(q.type) : "";
    return ta === tb;
  });
}

function varDecl(c: Checker, s: A.VarDecl, scope: Scope): RStmt {
  redeclared(scope, s.name);
  if (s.exported && c.declaration?.kind !== "library")
    throw new CheckError("Exported constants are only allowed in libraries", s.span);
  const declaredType = s.type ? c.typeFromRef(s.type) : undefined;
  const saved = c.declName;
  c.declName = s.name.name;
  let init: RExpr;
  try {
    init = c.expr(s.init, scope);
  } finally {
    c.declName = saved;
  }
  if (init.t.name === "void" && (init.k === "if" || init.k === "switch")) {
    const types = init.k === "if" ? [init.then.t, init.else?.t] : init.cases.map((x) => x.body.t);
    const names = [...new Set(types.filter((x) => x && x.name !== "na").map((x) => typeText(x!)))].join(", ");
    throw new CheckError(
      `The branches of this ${init.k} return incompatible types (${names}): every branch must give a compatible type to assign it to '${s.name.name}'`,
      s.init.span,
    );
  }
  if (init.t.name === "void")
    throw new CheckError(`Cannot assign the result of a void expression to '${s.name.name}'`, s.init.span);
  if (init.t.name === "tuple")
    throw new CheckError(`Cannot assign a tuple to '${s.name.name}': use [a, b] = ...`, s.init.span);
  let name: string;
  if (declaredType) {
    c.checkAssignable(init.t, declaredType, s.init.span, `variable '${s.name.name}'`);
    name = declaredType;
    if (declaredType === "bool" && isNumeric(init.t.name)) init = toBool(init); // v5's implicit cast
  } else {
    if (init.t.name === "na")
      throw new CheckError(
        `Cannot declare '${s.name.name}' with na without a type: write 'float ${s.name.name} = na'`,
        s.init.span,
      );
    name = init.t.name;
  }
  if (s.exported && !["int", "float", "bool", "color", "string"].includes(name))
    throw new CheckError(
      `Exported constant '${s.name.name}' must be int, float, bool, color or string, not ${name}`,
      s.span,
    );
  if (c.version >= 6 && name === "bool" && init.k === "const" && init.t.name === "na")
    init = { k: "const", v: false, t: t("bool", CONST) };
  // a typed na holds its type's na (null for strings, objects, collections and drawings; NaN only for numbers)
  else if (init.k === "const" && init.t.name === "na") init = { k: "const", v: naValue(name), t: t(name, CONST) };
  let q = init.t.q;
  // `var`/`varip` alone does not make a variable series: a never-reassigned `var string grp = "Calc"`
  // keeps its literal's qualifier and is accepted as an input's `group` (common in public scripts)
  if (c.mutated.has(s.name.name)) q = mutatedQual(c, q);
  if (s.qualifier === "const" && init.t.q > CONST)
    throw new CheckError(
      `Variable '${s.name.name}' is declared const but its value is ${typeText(init.t)}`,
      s.init.span,
    );
  // a `simple` keyword on a collection, drawing or object declaration (`simple string[] s =
  // array.new<string>(15)`) is accepted and has no effect: references are always series in TradingView
  if (s.qualifier === "simple" && init.t.q > 2 && !isReferenceType(c, name))
    throw new CheckError(
      `Variable '${s.name.name}' is declared simple but its value is ${typeText(init.t)}`,
      s.init.span,
    );
  if (s.qualifier === "series") q = SERIES;
  const slot = c.newSlot(
    s.name.name,
    name === "int" && init.t.frac ? { name, q, frac: true } : { name, q },
    s.name.span,
  );
  scope.vars.set(s.name.name, { slot, readonly: false });
  c.undetermined.follow(slot, init);
  if (scope.isGlobal && q === CONST) {
    const v = constEval(s.init, (n) => c.constantValue(n) ?? c.globalConsts.get(n), c.version);
    if (v !== undefined) c.globalConsts.set(s.name.name, v);
  }
  const once = s.mode === "plain" ? -1 : c.onceCount++;
  if (s.mode === "varip") {
    c.varipSlots.push(slot.slot);
    c.varipOnce.push(once);
  }
  return { k: "decl", v: slot, mode: s.mode, init, once, line: s.span.line };
}

/**
 * The qualifier of a variable reassigned somewhere (`:=`, `+=`...). v6: series (migration guide, "Mutable
 * variables are always 'series'"). v5 kept the declaration's qualifier, "erroneously qualified as const"
 * (same section: `var seriesLen = 0`, `seriesLen += 1`, then `ta.ema(close, seriesLen)` compiles in v5), so
 * v5 scripts passing such a variable where simple is wanted run on TradingView; resin gives it simple
 * (accepted where simple is, but not folded or truncated like a true constant) unless its value is series.
 */
function mutatedQual(c: Checker, declared: PType["q"]): PType["q"] {
  return c.version >= 6 || declared === SERIES ? SERIES : SIMPLE;
}

/** Collections, drawings and objects: types whose values are references (ids), never simple or const. */
function isReferenceType(c: Checker, name: string): boolean {
  return !["int", "float", "bool", "color", "string", "na"].includes(name) && !c.enums.has(name);
}

function assign(c: Checker, s: A.Assign, scope: Scope): RStmt {
  const value = c.expr(s.value, scope);
  const line = s.span.line;
  if (s.target.kind === "Ident") {
    const found = scope.lookup(s.target.name);
    if (!found)
      throw new CheckError(
        `Cannot use '${s.op}' on undeclared variable '${s.target.name}': declare it with '=' first`,
        s.target.span,
      );
    if (found.v.readonly)
      throw new CheckError(
        `Cannot assign to '${s.target.name}': function parameters and loop counters are read-only`,
        s.target.span,
      );
    if (Scope.crossesFunction(scope, found.scope))
      throw new CheckError(`Cannot modify global variable '${s.target.name}' in a function`, s.target.span);
    const v = found.v.slot;
    c.undetermined.follow(v, value);
    // an int variable assigned an int quotient may hold a fraction from here on (loads share this type)
    if (v.type.name === "int" && (value.t.frac || (s.op === "/=" && c.version >= 6))) v.type.frac = true;
    return {
      k: "assign",
      v,
      op: s.op,
      value: checkOp(c, s, v.type.name, value),
      line,
      ...opFlags(c, s.op, v.type, value),
    };
  }
  const obj = c.expr(s.target.object, scope);
  const udt = c.objectType(obj.t.name);
  if (!udt) throw new CheckError(`Cannot assign a field of ${typeText(obj.t)}`, s.target.span);
  const index = udt.fields.findIndex((f) => f.name === (s.target as A.Member).property.name);
  if (index < 0)
    throw new CheckError(`Type '${udt.name}' has no field '${s.target.property.name}'`, s.target.property.span);
  const ft = udt.fields[index]!.type;
  return {
    k: "fassign",
    obj,
    index,
    op: s.op,
    value: checkOp(c, s, ft.name, value),
    line,
    ...opFlags(c, s.op, ft, value),
  };
}

function checkOp(c: Checker, s: A.Assign, target: string, value: RExpr): RExpr {
  if (s.op === ":=") {
    c.checkAssignable(value.t, target, s.value.span, `'${targetName(s)}'`);
    if (target === "bool" && isNumeric(value.t.name)) return toBool(value); // v5's implicit cast
    if (c.version >= 6 && target === "bool" && value.k === "const" && value.t.name === "na")
      return { k: "const", v: false, t: t("bool", CONST) };
    if (value.k === "const" && value.t.name === "na") return { k: "const", v: naValue(target), t: t(target, CONST) };
    return value;
  }
  if (s.op === "+=" && target === "string") {
    if (value.t.name !== "string" && value.t.name !== "na")
      throw new CheckError(`Cannot add ${typeText(value.t)} to a string`, s.value.span);
    return value;
  }
  if (target !== "int" && target !== "float")
    throw new CheckError(`Cannot use '${s.op}' on a ${target} variable`, s.span);
  if (value.t.name !== "int" && value.t.name !== "float" && value.t.name !== "na")
    throw new CheckError(`Cannot use '${s.op}' with ${typeText(value.t)}`, s.value.span);
  if (target === "int" && (value.t.name === "float" || (s.op === "/=" && value.t.name !== "int")))
    throw new CheckError(`Cannot assign a float result to int variable '${targetName(s)}'`, s.span);
  return value;
}

function opFlags(c: Checker, op: string, target: PType, value: RExpr): { intDiv?: boolean; str?: boolean } {
  if (op === "+=" && target.name === "string") return { str: true };
  if (op === "/=" && target.name === "int" && value.t.name === "int" && c.version < 6) return { intDiv: true };
  return {};
}

function targetName(s: A.Assign): string {
  return s.target.kind === "Ident" ? s.target.name : s.target.property.name;
}

// ------------------------------------------------------------------ blocks and control flow

export function checkBlock(c: Checker, b: A.Block, scope: Scope): RBlock {
  const stmts: RStmt[] = [];
  let ty: PType = VOID_T;
  let failed = false;
  for (const s of b.body) {
    const checked = c.recover(s, () => checkStatement(c, s, scope));
    if (!checked) failed = true;
    const r = checked?.value;
    if (!r) continue;
    stmts.push(r);
    ty =
      r.k === "expr"
        ? r.e.t
        : r.k === "decl"
          ? r.v.type
          : r.k === "assign"
            ? r.v.type
            : r.k === "tdecl"
              ? r.init.t
              : VOID_T;
  }
  // a block with an error has no trustworthy value or type: what contains it fails silently (its own
  // errors are already recorded)
  if (failed) throw new Poisoned();
  return { stmts, t: ty };
}

/**
 * The type of an if/switch used as a value: the branches' unified type, qualified by the strongest
 * of the branches and the conditions (`switch freqIn` over input strings returning `alert.freq_*`
 * constants is an input string, accepted where TradingView wants one).
 */
function unifyBlocks(c: Checker, types: PType[], span: A.Span, condQ: PType["q"] = CONST): PType {
  let name = "na";
  let q = condQ;
  let elems: PType[] | undefined;
  for (const ty of types) {
    if (ty.name === "tuple") {
      elems = ty.elems;
      name = "tuple";
      if (ty.q > q) q = ty.q;
      continue;
    }
    const u = unify(name, ty.name, c.version);
    if (u === undefined) return VOID_T; // branches of different types: usable only as a statement
    name = u;
    if (ty.q > q) q = ty.q;
  }
  void span;
  // a tuple's items share one qualifier: the strongest of the branches and conditions, at least simple
  return name === "tuple" ? { name, q: maxQ(q, SIMPLE), elems } : { name, q };
}

/** Block whose value is a tuple of na of the given tuple type's element types. */
function naTupleBlock(ty: PType, line: number): RBlock {
  const elems = ty.elems ?? [];
  const nas: RExpr[] = elems.map((et) => {
    const name = et.name === "na" ? "float" : et.name;
    return { k: "const", v: naValue(name), t: t(name, CONST) };
  });
  return { stmts: [{ k: "expr", e: { k: "tuple", elems: nas, t: ty }, line }], t: ty };
}

export function checkControl(c: Checker, e: A.If | A.Switch | A.For | A.ForIn | A.While, scope: Scope): RExpr {
  switch (e.kind) {
    case "If": {
      // the condition and each branch are independent: all are checked before an error in one stops the if
      const condOk = c.attempt(() => c.cond(e.cond, scope, "if"));
      const thenOk = c.attempt(() => checkBlock(c, e.then, new Scope(scope)));
      const elseOk = c.attempt((): RBlock | null => {
        if (!e.else) return null;
        if (e.else.kind !== "If") return checkBlock(c, e.else, new Scope(scope));
        const inner = checkControl(c, e.else, scope);
        return { stmts: [{ k: "expr", e: inner, line: e.else.span.line }], t: inner.t };
      });
      if (!condOk || !thenOk || !elseOk) throw new Poisoned();
      const cond = condOk.value;
      const then = thenOk.value;
      let els = elseOk.value;
      const ty = unifyBlocks(c, els ? [then.t, els.t] : [then.t], e.span, cond.t.q);
      // a tuple-valued if without else gives a tuple of na on the bars where it does not run
      if (!els && ty.name === "tuple") els = naTupleBlock(ty, e.span.line);
      return { k: "if", cond, then, else: els, t: ty };
    }
    case "Switch": {
      const subject = e.subject ? c.expr(e.subject, scope) : null;
      const checked = e.cases.map((cs) =>
        c.attempt(() => {
          let test: RExpr | null = null;
          if (cs.test) test = subject ? c.expr(cs.test, scope) : c.cond(cs.test, scope, "switch");
          if (test && subject && !unify(test.t.name, subject.t.name, c.version))
            throw new CheckError(
              `Switch case of type ${typeText(test.t)} does not match ${typeText(subject.t)}`,
              cs.span,
            );
          return { test, body: checkBlock(c, cs.body, new Scope(scope)) };
        }),
      );
      // every case is checked before an error in one stops the switch
      if (checked.some((x) => !x)) throw new Poisoned();
      const cases = checked.map((x) => x!.value);
      const condQ = cases.reduce<PType["q"]>(
        (q, x) => (x.test && x.test.t.q > q ? x.test.t.q : q),
        subject?.t.q ?? CONST,
      );
      const ty = unifyBlocks(
        c,
        cases.map((x) => x.body.t),
        e.span,
        condQ,
      );
      // no case matching and no default: a tuple of na, as for an if without else
      if (ty.name === "tuple" && !cases.some((x) => x.test === null))
        cases.push({ test: null, body: naTupleBlock(ty, e.span.line) });
      return { k: "switch", subject, cases, t: ty };
    }
    case "For": {
      const from = c.expr(e.from, scope);
      const to = c.expr(e.to, scope);
      const step = e.step ? c.expr(e.step, scope) : null;
      for (const x of [from, to, step])
        if (x && x.t.name !== "int" && x.t.name !== "float" && x.t.name !== "na")
          throw new CheckError(`Loop bounds must be numbers, got ${typeText(x.t)}`, e.span);
      const inner = new Scope(scope, false, true);
      const counter = c.newSlot(
        e.counter.name,
        t(from.t.name === "float" || to.t.name === "float" ? "float" : "int", SERIES),
        e.counter.span,
      );
      inner.vars.set(e.counter.name, { slot: counter, readonly: true });
      for (const x of [from, to, step]) c.undetermined.follow(counter, x);
      const body = checkBlock(c, e.body, inner);
      return { k: "for", counter, from, to, step, body, reevalTo: c.version >= 6, t: loopType(body) };
    }
    case "ForIn": {
      const it = c.expr(e.iterable, scope);
      const head = genericHead(it.t.name);
      const inner = new Scope(scope, false, true);
      let idxT = "int";
      let valT: string;
      if (head === "array") valT = elemOf(it.t.name) ?? "float";
      else if (head === "matrix") valT = `array<${elemOf(it.t.name) ?? "float"}>`;
      else if (head === "map") {
        if (!e.index) throw new CheckError("Iterating a map needs two names: for [key, value] in m", e.span);
        idxT = keyOf(it.t.name) ?? "string";
        valT = elemOf(it.t.name) ?? "float";
      } else throw new CheckError(`Cannot iterate over ${typeText(it.t)}`, e.iterable.span);
      let index: VarSlot | null = null;
      if (e.index) {
        index = c.newSlot(e.index.name, t(idxT, SERIES), e.index.span);
        inner.vars.set(e.index.name, { slot: index, readonly: true });
      }
      const value = c.newSlot(e.value.name, t(valT, SERIES), e.value.span);
      inner.vars.set(e.value.name, { slot: value, readonly: true });
      c.undetermined.follow(value, it);
      if (index) c.undetermined.follow(index, it);
      const body = checkBlock(c, e.body, inner);
      return { k: "forin", index, value, iterable: it, body, t: loopType(body) };
    }
    case "While": {
      const cond = c.cond(e.cond, scope, "while");
      const body = checkBlock(c, e.body, new Scope(scope, false, true));
      return { k: "while", cond, body, t: loopType(body) };
    }
  }
}

function loopType(b: RBlock): PType {
  return b.t.name === "tuple" ? { ...b.t, q: SERIES } : { name: b.t.name, q: SERIES };
}

export { naValue };
