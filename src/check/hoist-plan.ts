// The hoist plan: which expressions of a resolved program are known for every bar before the bar loop
// (OHLCV columns, arithmetic on them, constant or input lengths, variables assigned once from such
// expressions or from a source input, and the top-level stateful ta.* calls over them that have a
// whole-series kernel). Decided here, next to compile eligibility, from the resolved program alone,
// so both backends read one plan:
// the compile backend and the interpreter's every-bar precompute (src/interpret/precompute.ts) hoist
// the same calls and agree bit for bit.

import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "./ir.js";
import { eachChild, eachStmtChild, walkWrites } from "./walk.js";
import { LARGE_LENGTH } from "../core/budget.js";

export type Call = Extract<RExpr, { k: "call" }>;
type UserCall = Extract<RExpr, { k: "ucall" }>;

/** Bar variables a pre-pass can evaluate from the columns alone (stateless getters of ctx fields). */
const BAR_VARS = new Set(["open", "high", "low", "close", "volume", "hl2", "hlc3", "ohlc4", "hlcc4"]);
/**
 * Stateful bar variables with a whole-series pass: their value on a bar depends on the bars before,
 * so they are hoisted as calls are (everyBarHoists), not evaluated as columns of a getter.
 */
export const STATEFUL_BAR_VARS = new Set([
  "ta.tr",
  "ta.vwap",
  "ta.obv",
  "ta.accdist",
  "ta.pvt",
  "ta.wad",
  "ta.nvi",
  "ta.pvi",
]);
const SOURCE_LENGTH = new Set([
  "ta.sma",
  "ta.ema",
  "ta.rma",
  "ta.wma",
  "ta.rsi",
  "ta.highest",
  "ta.lowest",
  "ta.highestbars",
  "ta.lowestbars",
  "ta.stdev",
  "ta.change",
  // (stepped passes: assembly/series-step.ts)
  "ta.mom",
  "ta.roc",
  "ta.cci",
  "ta.cmo",
  "ta.mfi",
  "ta.vwma",
  "ta.hma",
  "ta.dev",
  "ta.variance",
  "ta.percentrank",
  "ta.cog",
  "ta.median",
]);
/**
 * The least length a (source, length) call takes before its per-bar call raises an error (1 where not
 * listed): the plan hoists only lengths it takes, and the precompute refuses an input below it.
 */
export const MIN_LENGTH: Record<string, number> = { "ta.change": 0, "ta.mom": 0, "ta.roc": 0, "ta.hma": 2 };
export const PIVOT_KIND: Record<string, number> = { "ta.pivothigh": 0, "ta.pivotlow": 1 };
export const HILO_KIND: Record<string, number> = {
  "ta.highest": 0,
  "ta.lowest": 1,
  "ta.highestbars": 2,
  "ta.lowestbars": 3,
};
export const CROSS_KIND: Record<string, number> = { "ta.cross": 0, "ta.crossover": 1, "ta.crossunder": 2 };
/** ta.rising / ta.falling: the direction rise_next takes. */
export const RISE_DIR: Record<string, number> = { "ta.rising": 1, "ta.falling": -1 };
const TUPLE_SIZE: Record<string, number> = { "ta.macd": 3, "ta.bb": 3, "ta.supertrend": 2, "ta.dmi": 3, "ta.kc": 3 };
/** Comparisons a bool column may hold, as the bar loop evaluates them on numbers (na compares false). */
export const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  "<": (a, b) => a < b,
  "<=": (a, b) => a <= b,
  ">": (a, b) => a > b,
  ">=": (a, b) => a >= b,
};

/** Comparisons a fixed condition may make (Precompute.fixedValue evaluates them as the bar loop does). */
export const FIXED_COMPARE: Record<string, (a: unknown, b: unknown) => boolean> = {
  "==": (a, b) => a === b,
  "!=": (a, b) => a !== b,
  "<": (a, b) => (a as number) < (b as number),
  "<=": (a, b) => (a as number) <= (b as number),
  ">": (a, b) => (a as number) > (b as number),
  ">=": (a, b) => (a as number) >= (b as number),
};

/** The value of a negated number constant (`-2`: the checker keeps the minus as an operator), or null. */
export function negatedConst(e: RExpr): number | null {
  return e.k === "unary" && e.op === "-" && e.e.k === "const" && typeof e.e.v === "number" ? -e.e.v : null;
}

/** An omitted argument or a bool constant (a flag such as ta.stdev's `biased`, read once per run). */
function optionalFlag(e: RExpr | undefined): boolean {
  return e === undefined || (e.k === "const" && typeof e.v === "boolean");
}

/** The value of a flag optionalFlag accepts: `omitted` where there is no argument. */
export function flagValue(e: RExpr | undefined, omitted: boolean): boolean {
  return e === undefined ? omitted : (e as { v: unknown }).v === true;
}

function constInt(e: RExpr | undefined, min: number): number | null {
  if (e?.k !== "const" || typeof e.v !== "number") return null;
  return Number.isInteger(e.v) && e.v >= min ? e.v : null;
}

/** Input calls whose value can stand for a constant length or multiplier (read once per run). */
const NUMBER_INPUTS = new Set(["input", "input.int", "input.float"]);
/** Input calls whose value can decide a branch for the whole run (a moving-average kind, a switch). */
const FIXED_INPUTS = new Set([...NUMBER_INPUTS, "input.bool", "input.string"]);

/** An input argument the plan can read before the loop: a constant, a negated one, or a tuple of constants (options). */
function constArg(e: RExpr | undefined): boolean {
  return (
    e === undefined ||
    e.k === "const" ||
    negatedConst(e) !== null ||
    (e.k === "tuple" && e.elems.every((x) => x.k === "const" || negatedConst(x) !== null))
  );
}

/**
 * A branch a run takes on every bar or on none, its condition fixed for the run (HoistPlan.isFixed):
 * an if's (or a ternary's) branch, `taken` the side; a switch's case `index`, taken when it is the
 * first case whose test matches (the subject equal to it, or true without a subject; null: default).
 */
export type Guard =
  | { k: "if"; cond: RExpr; taken: boolean }
  | { k: "case"; subject: RExpr | null; tests: readonly (RExpr | null)[]; index: number };

/** An int or float type (of an expression, or of a variable's slot). */
function isNumber(t: { readonly name: string }): boolean {
  return t.name === "int" || t.name === "float";
}

function isNumType(e: RExpr): boolean {
  return isNumber(e.t);
}

/**
 * A source input (input.source, or input with a price source for its default: the checker's
 * inputSourceNames) whose arguments are constants or price sources, so that its value is the same
 * column on every bar whichever source the run chooses.
 */
function isSourceInput(e: Call, prog: ResolvedProgram): boolean {
  if (e.name !== "input.source" && !(e.name === "input" && prog.inputSourceNames.has(e.site))) return false;
  return (
    e.t.name === "float" &&
    e.args.every((a) => a === undefined || a.k === "const" || (a.k === "bvar" && BAR_VARS.has(a.def.name)))
  );
}

/** Number of values of a hoistable call's tuple result (0: a single value). */
export function tupleSize(e: Call): number {
  return TUPLE_SIZE[e.name] ?? 0;
}

/** An upper bound of the slots `e` needs if hoisted (sizes the numeric store before any plan exists). */
export function hoistSlotCount(e: RExpr): number {
  if (e.k === "call") return e.name.startsWith("ta.") ? Math.max(1, tupleSize(e)) : 0;
  // (a user function's call whose value is pre-known is hoisted whole: everyBarHoists)
  if (e.k === "ucall") return isNumType(e) ? 1 : 0;
  return e.k === "bvar" && STATEFUL_BAR_VARS.has(e.def.name) ? 1 : 0;
}

/**
 * What a program may precompute: decides which expressions are known for every bar before the
 * loop. Knows the program's top-level numeric variables that are assigned exactly once, by a plain
 * declaration whose initialiser is itself pre-known (`f = ta.sma(close, 20)`): a read of one is
 * that initialiser's column.
 */
export class HoistPlan {
  readonly vars = new Map<number, RExpr>();
  /** Top-level numeric variables declared once by a hoistable tuple call (`[m, s, h] = ta.macd(...)`): value `index` of `call`. */
  readonly tupleVars = new Map<number, { call: Call; index: number }>();
  /** Top-level variables assigned once from a number input with constant arguments (`len = input.int(14)`). */
  readonly inputs = new Map<number, Call>();
  /** Top-level numeric variables a plain declaration writes and no other statement does: their initialisers (check/once-sites.ts's fixed lengths). */
  readonly declaredOnce = new Map<number, RExpr>();
  /**
   * Top-level variables assigned once from a source input whose arguments have no effect
   * (`src = input.source(close, "Source")`, `src = input(hl2)`): the run's chosen price source, a
   * column known before the loop (the precompute reads the input's value at run start).
   */
  readonly sources = new Map<number, Call>();

  /**
   * Parameters of the user-function instances a bar calls exactly once (their call at a position
   * evaluated on every bar, everyBarWalk): the argument each is bound to on every call. A read of one
   * is that argument (resolve): its column when pre-known, its number when a constant or an input.
   */
  private readonly params = new Map<number, RExpr>();
  /**
   * Top-level variables assigned once from an input with constant arguments (a number, bool or
   * string input: `kind = input.string("EMA", options = [...])`), and those declared once from an
   * expression fixed for the run (`useEma = kind == "EMA"`): isFixed's leaves.
   */
  readonly fixedInputs = new Map<number, Call>();
  readonly fixedVars = new Map<number, RExpr>();
  /**
   * The program's hoisted calls (everyBarHoists over its top level, in source order): what both
   * backends precompute. Those in branches a run takes on every bar or on none have their guards
   * (the precompute computes only the taken ones).
   */
  readonly candidates: RExpr[] = [];
  readonly guards = new Map<RExpr, readonly Guard[]>();
  /** The calls whose parameters are bound (bind). */
  private readonly bound = new Set<UserCall>();
  private readonly writes = new Map<number, number>();

  constructor(prog: ResolvedProgram) {
    walkWrites(prog.body, (v) => {
      if (v) this.writes.set(v.slot, (this.writes.get(v.slot) ?? 0) + 1);
    });
    this.scan(prog.body.stmts, prog);
    for (const s of prog.body.stmts)
      everyBarHoists(s, this, (e, guards) => {
        this.candidates.push(e);
        if (guards.length !== 0) this.guards.set(e, guards);
      });
  }

  /**
   * The variables of a block run once per bar (the top level, or the body of an instance a bar calls
   * once) that a plain declaration writes once, in statement order, after the every-bar calls of
   * each statement bound their instances (a function's `f = ta.sma(src, len)` is its call's column,
   * as the top level's is: each instance has its own slots and sites).
   */
  private scan(stmts: readonly RStmt[], prog: ResolvedProgram): void {
    const once = (v: VarSlot | null): v is VarSlot => !!v && this.writes.get(v.slot) === 1 && isNumber(v.type);
    for (const s of stmts) {
      everyBarWalk(s, {
        at: () => false,
        bodies: false,
        called: (u) => this.bind(u, prog),
        fixed: (c) => this.isFixed(c),
        block: (b) => this.scan(b, prog),
      });
      if (s.k === "decl" && s.mode === "plain" && this.writes.get(s.v.slot) === 1) {
        if (this.isFixed(s.init)) this.fixedVars.set(s.v.slot, s.init);
        else if (
          s.init.k === "call" &&
          FIXED_INPUTS.has(s.init.name) &&
          !prog.inputSourceNames.has(s.init.site) &&
          s.init.args.every(constArg)
        )
          this.fixedInputs.set(s.v.slot, s.init);
      }
      if (s.k === "tdecl" && s.init.k === "ucall") {
        // a function's tuple of pre-known values (`[wt1, wt2] = wavetrend(hlc3, 10, 21)`): each its column
        const value = this.pureValue(s.init);
        if (value?.k === "tuple")
          s.vs.forEach((v, i) => {
            const x = value.elems[i];
            if (once(v) && x && isNumType(x) && this.isPreKnown(x)) this.vars.set(v.slot, x);
          });
        continue;
      }
      if (s.k === "tdecl" && s.init.k === "call" && tupleSize(s.init) > 0 && this.isHoistableCall(s.init)) {
        const call = s.init;
        s.vs.forEach((v, index) => {
          if (once(v)) this.tupleVars.set(v.slot, { call, index });
        });
        continue;
      }
      if (s.k !== "decl" || s.mode !== "plain" || !once(s.v)) continue;
      this.declaredOnce.set(s.v.slot, s.init);
      if (isNumType(s.init) && this.isPreKnown(s.init)) this.vars.set(s.v.slot, s.init);
      else if (s.init.k === "call" && isSourceInput(s.init, prog)) this.sources.set(s.v.slot, s.init);
      else if (
        s.init.k === "call" &&
        NUMBER_INPUTS.has(s.init.name) &&
        s.init.args.every((x) => x === undefined || x.k === "const")
      )
        this.inputs.set(s.v.slot, s.init);
    }
  }

  /**
   * A user-function instance a bar calls once: each parameter no statement writes is bound to its
   * argument (a pre-known number's column, or a length), then its body is scanned as a block of its own.
   */
  private bind(u: UserCall, prog: ResolvedProgram): void {
    this.bound.add(u);
    u.inst.params.forEach((p, i) => {
      const a = u.args[i];
      if (!a || this.writes.has(p.slot)) return;
      this.params.set(p.slot, a);
      if (isNumber(p.type) && isNumType(a) && this.isPreKnown(a)) this.vars.set(p.slot, a);
    });
    this.scan(u.inst.body.stmts, prog);
  }

  /**
   * The value of a bound call whose body does nothing but declare pre-known values once (each a
   * column already) before its last expression: that expression (its column is the call's, and
   * skipping the body on a bar, as a hoisted call over it does, changes nothing); else null.
   */
  pureValue(u: UserCall): RExpr | null {
    return this.bound.has(u) ? this.blockValue(u.inst.body) : null;
  }

  /**
   * The value of a block that does nothing but declare pre-known values once before its last
   * expression (a function's body, a switch case's): that expression; else null.
   */
  blockValue(b: RBlock): RExpr | null {
    const stmts = b.stmts;
    const last = stmts[stmts.length - 1];
    if (last?.k !== "expr") return null;
    for (let i = 0; i < stmts.length - 1; i++) {
      const s = stmts[i]!;
      if (s.k === "decl" && s.mode === "plain" && this.vars.has(s.v.slot)) continue;
      if (
        s.k === "tdecl" &&
        s.init.k === "call" &&
        tupleSize(s.init) > 0 &&
        this.isHoistableCall(s.init) &&
        s.vs.every((v) => v === null || this.tupleVars.has(v.slot))
      )
        continue;
      return null;
    }
    return last.e;
  }

  /**
   * True when `e`'s value is the same on every bar of a run and the precompute can work it out from
   * the run's inputs (Precompute.fixedValue): a constant, a fixed input or variable (through bound
   * parameters), and comparisons, negations and and/or of those.
   */
  isFixed(e: RExpr): boolean {
    const r = this.resolve(e);
    switch (r.k) {
      case "const":
        return typeof r.v === "number" || typeof r.v === "string" || typeof r.v === "boolean";
      case "load":
        return this.fixedInputs.has(r.v.slot) || this.fixedVars.has(r.v.slot);
      case "unary":
        return (r.op === "not" || r.op === "-") && this.isFixed(r.e);
      case "bin":
        return r.op in FIXED_COMPARE && !r.intDiv && this.isFixed(r.l) && this.isFixed(r.r);
      case "and":
      case "or":
        return this.isFixed(r.l) && this.isFixed(r.r);
      default:
        return false;
    }
  }

  /** `e`, or the argument a bound parameter's read stands for (followed through nested calls). */
  resolve(e: RExpr): RExpr {
    let x = e;
    for (let bound = x.k === "load" ? this.params.get(x.v.slot) : undefined; bound !== undefined; ) {
      x = bound;
      bound = x.k === "load" ? this.params.get(x.v.slot) : undefined;
    }
    return x;
  }

  /** True when `e` is a numeric series computable for every bar before the loop. */
  isPreKnown(e: RExpr): boolean {
    switch (e.k) {
      case "const":
        return typeof e.v === "number";
      case "load":
        return this.vars.has(e.v.slot) || this.tupleVars.has(e.v.slot) || this.sources.has(e.v.slot);
      case "bvar":
        return BAR_VARS.has(e.def.name) || STATEFUL_BAR_VARS.has(e.def.name);
      case "unary":
        return e.op === "-" && isNumType(e.e) && this.isPreKnown(e.e);
      case "bin":
        return (
          ["+", "-", "*", "/"].includes(e.op) &&
          !e.str &&
          !e.intDiv &&
          isNumType(e.l) &&
          isNumType(e.r) &&
          this.isPreKnown(e.l) &&
          this.isPreKnown(e.r)
        );
      case "call":
        return this.isHoistableCall(e) && isNumType(e);
      case "ucall": {
        const value = isNumType(e) ? this.pureValue(e) : null;
        return value !== null && this.isPreKnown(value);
      }
      case "switch":
        // a switch fixed for the run: the column of the case the run takes (na when none)
        return (
          isNumType(e) &&
          switchIsFixed(e, (c) => this.isFixed(c)) &&
          e.cases.every((c) => {
            const v = this.blockValue(c.body);
            return v !== null && isNumType(v) && this.isPreKnown(v);
          })
        );
      case "tern":
        // a condition fixed for the run: the taken branch's column (the other never runs)
        if (isNumType(e) && this.isFixed(e.c) && isNumType(e.a) && isNumType(e.b))
          return this.isPreKnown(e.a) && this.isPreKnown(e.b);
        // else the branches are evaluated on some bars only: they may not hold a stateful call
        return (
          isNumType(e) &&
          this.isPreKnownBool(e.c) &&
          isNumType(e.a) &&
          isNumType(e.b) &&
          this.isStateless(e.a) &&
          this.isStateless(e.b)
        );
      default:
        return false;
    }
  }

  /** True when `e` is a bool series computable for every bar before the loop (a column of 1/0). */
  isPreKnownBool(e: RExpr): boolean {
    if (e.t.name !== "bool") return false;
    if (e.k === "call") return (e.name in CROSS_KIND || e.name in RISE_DIR) && this.isHoistableCall(e);
    return (
      e.k === "bin" &&
      e.op in COMPARE &&
      !e.str &&
      isNumType(e.l) &&
      isNumType(e.r) &&
      this.isPreKnown(e.l) &&
      this.isPreKnown(e.r)
    );
  }

  /** A pre-known numeric expression without a stateful call (its value on a bar does not depend on the bars it ran on). */
  private isStateless(e: RExpr): boolean {
    switch (e.k) {
      case "const":
      case "load":
        return this.isPreKnown(e);
      case "bvar":
        return BAR_VARS.has(e.def.name);
      case "unary":
        return this.isPreKnown(e) && this.isStateless(e.e);
      case "bin":
        return this.isPreKnown(e) && this.isStateless(e.l) && this.isStateless(e.r);
      default:
        return false;
    }
  }

  private source(e: RExpr | undefined): boolean {
    return !!e && isNumType(e) && this.isPreKnown(e);
  }

  /** A ta.* call with a series kernel, pre-known sources and constant valid lengths. */
  isHoistableCall(e: Call): boolean {
    const a = e.args;
    if (SOURCE_LENGTH.has(e.name)) {
      if (e.name in HILO_KIND && a[0] && a[1] === undefined) {
        // one-argument form: the length alone, the source is high/low
        return this.len(a[0], 1) && a.length <= 2;
      }
      if (a.length > 3 || !this.source(a[0])) return false;
      if (e.name === "ta.change") return (a[1] === undefined || this.len(a[1], 0)) && a[2] === undefined;
      if (!this.len(a[1], MIN_LENGTH[e.name] ?? 1)) return false;
      if (e.name === "ta.stdev" || e.name === "ta.variance") return optionalFlag(a[2]);
      return a[2] === undefined;
    }
    // (source, leftbars, rightbars) in the catalogue's order [leftbars, rightbars, source]
    if (e.name in PIVOT_KIND)
      return a.length <= 3 && this.len(a[0], 0) && this.len(a[1], 0) && (a[2] === undefined || this.source(a[2]));
    if (e.name === "ta.linreg") return a.length === 3 && this.source(a[0]) && this.len(a[1], 1) && this.number(a[2]);
    if (e.name === "ta.wpr") return a.length === 1 && this.len(a[0], 1);
    if (e.name === "ta.dmi") return a.length === 2 && this.len(a[0], 1) && this.len(a[1], 1);
    if (e.name === "ta.swma" || e.name === "ta.cum") return a.length === 1 && this.source(a[0]);
    if (e.name === "ta.alma")
      return (
        a.length <= 5 &&
        this.source(a[0]) &&
        this.len(a[1], 1) &&
        this.number(a[2]) &&
        this.number(a[3]) &&
        optionalFlag(a[4])
      );
    if (e.name === "ta.tsi") return a.length === 3 && this.source(a[0]) && this.len(a[1], 1) && this.len(a[2], 1);
    if (e.name === "ta.correlation")
      return a.length === 3 && this.source(a[0]) && this.source(a[1]) && this.len(a[2], 1);
    // (numbers only: a bool or colour valuewhen reads its kernel's value back as its own type)
    if (e.name === "ta.valuewhen")
      return a.length === 3 && isNumType(e) && this.isPreKnownBool(a[0]!) && this.source(a[1]) && this.len(a[2], 0);
    // (the source alone: the session anchor and no bands, a single value)
    if (e.name === "ta.vwap") return a.length <= 3 && this.source(a[0]) && a[1] === undefined && a[2] === undefined;
    if (e.name === "ta.barssince") return a.length === 1 && this.isPreKnownBool(a[0]!);
    if (e.name === "ta.sar") return a.length === 3 && [0, 1, 2].every((i) => this.number(a[i]));
    if (e.name in CROSS_KIND) return a.length === 2 && this.source(a[0]) && this.source(a[1]);
    if (e.name in RISE_DIR) return a.length === 2 && this.source(a[0]) && this.len(a[1], 1);
    if (e.name === "ta.bbw") return a.length === 3 && this.source(a[0]) && this.len(a[1], 1) && this.number(a[2]);
    if (e.name === "ta.kc" || e.name === "ta.kcw")
      return a.length <= 4 && this.source(a[0]) && this.len(a[1], 1) && this.number(a[2]) && optionalFlag(a[3]);
    if (e.name === "ta.bb") return a.length === 3 && this.source(a[0]) && this.len(a[1], 1) && this.number(a[2]);
    // (the per-bar call reads its factor once, on its first bar: a constant or an input is that factor)
    if (e.name === "ta.supertrend") return a.length === 2 && this.number(a[0]) && this.len(a[1], 1);
    if (e.name === "ta.macd") return a.length === 4 && this.source(a[0]) && [1, 2, 3].every((i) => this.len(a[i], 1));
    if (e.name === "ta.stoch") return a.length === 4 && [0, 1, 2].every((i) => this.source(a[i])) && this.len(a[3], 1);
    if (e.name === "ta.atr") return this.len(a[0], 1) && a.length === 1;
    if (e.name === "ta.tr") return a.length <= 1 && optionalFlag(a[0]);
    return false;
  }

  /** A number known before the loop: a constant, or a number input read once per run. */
  private number(e: RExpr | undefined): boolean {
    const r = e && this.resolve(e);
    return (
      r !== undefined && (negatedConst(r) !== null || (r.k === "const" && typeof r.v === "number") || this.isInput(r))
    );
  }

  /**
   * A length known before the loop: a constant int from min to LARGE_LENGTH (a longer one runs per
   * bar, where the builtin checks its windows against the memory budget), or an int input read once
   * per run (Precompute.number checks its value the same way).
   */
  private len(e: RExpr | undefined, min: number): boolean {
    const r = e && this.resolve(e);
    const c = constInt(r, min);
    return (c !== null && c <= LARGE_LENGTH) || (!!r && r.t.name === "int" && this.isInput(r));
  }

  private isInput(e: RExpr): boolean {
    return e.k === "load" && this.inputs.has(e.v.slot);
  }
}

/** request.* expressions run in another context: never precomputed from the chart's columns. */
const REQUEST_CALLS = new Set(["request.security", "request.security_lower_tf"]);

/** A switch whose case a run takes on every bar: a subject fixed for the run and constant tests, or tests fixed for the run. */
function switchIsFixed(e: Extract<RExpr, { k: "switch" }>, fixed: (c: RExpr) => boolean): boolean {
  return e.subject
    ? fixed(e.subject) && e.cases.every((c) => c.test === null || c.test.k === "const")
    : e.cases.every((c) => c.test === null || fixed(c.test));
}

/** What everyBarWalk calls back. */
interface EveryBarVisitor {
  /** Sees each expression with the guards of its branch; true leaves its children out. */
  at(e: RExpr, guards: readonly Guard[]): boolean;
  /** Walk user functions' bodies (else `called` alone sees a call). */
  bodies: boolean;
  /** Sees a user function's call once its arguments were walked. */
  called?(u: UserCall, guards: readonly Guard[]): void;
  /** A condition fixed for the run (HoistPlan.isFixed): its branches are walked under a guard. */
  fixed?(cond: RExpr): boolean;
  /** The statements of such a branch (default: each walked). */
  block?(stmts: readonly RStmt[], guards: readonly Guard[]): void;
}

/**
 * The expressions of one statement of a block a bar runs once (the top level, or the body of an
 * instance called so) at positions evaluated on every bar: not in a `var` initialiser, a loop, the
 * lazy side of and/or or a request's expression, nor in a branch unless its condition is fixed for
 * the run (then under that branch's guard: it runs on every bar of a run that takes it, on none of
 * the others), in evaluation order. A user function's call is such a position for its arguments
 * and, with `bodies`, for its instance's statements (one instance per call site, ir.ts).
 */
function everyBarWalk(s: RStmt, w: EveryBarVisitor, guards: readonly Guard[] = []): void {
  const block = (stmts: readonly RStmt[], g: readonly Guard[]): void => {
    if (w.block) w.block(stmts, g);
    else for (const b of stmts) everyBarWalk(b, w, g);
  };
  const visit = (e: RExpr, g: readonly Guard[]): void => {
    if (w.at(e, g)) return;
    switch (e.k) {
      case "unary":
      case "cast":
        visit(e.e, g);
        break;
      case "bin":
        visit(e.l, g);
        visit(e.r, g);
        break;
      case "and":
      case "or":
        visit(e.l, g);
        if (!e.lazy) visit(e.r, g);
        break;
      case "tern":
        visit(e.c, g);
        if (w.fixed?.(e.c)) {
          visit(e.a, [...g, { k: "if", cond: e.c, taken: true }]);
          visit(e.b, [...g, { k: "if", cond: e.c, taken: false }]);
        }
        break;
      case "call":
        if (!REQUEST_CALLS.has(e.name)) for (const a of e.args) if (a) visit(a, g);
        break;
      case "ucall":
        for (const a of e.args) visit(a, g);
        w.called?.(e, g);
        if (w.bodies) for (const b of e.inst.body.stmts) everyBarWalk(b, w, g);
        break;
      case "tuple":
        for (const x of e.elems) visit(x, g);
        break;
      case "if":
        visit(e.cond, g);
        if (w.fixed?.(e.cond)) {
          block(e.then.stmts, [...g, { k: "if", cond: e.cond, taken: true }]);
          if (e.else) block(e.else.stmts, [...g, { k: "if", cond: e.cond, taken: false }]);
        }
        break;
      case "switch": {
        if (e.subject) visit(e.subject, g);
        else if (e.cases[0]?.test) visit(e.cases[0].test, g);
        const tests = e.cases.map((c) => c.test);
        if (w.fixed && switchIsFixed(e, w.fixed))
          e.cases.forEach((c, index) => {
            block(c.body.stmts, [...g, { k: "case", subject: e.subject, tests, index }]);
          });
        break;
      }
      case "histExpr":
        visit(e.e, g);
        break;
      default:
        break;
    }
  };
  if (s.k === "decl" && s.mode === "plain") visit(s.init, guards);
  else if (s.k === "tdecl") visit(s.init, guards);
  else if (s.k === "assign") visit(s.value, guards);
  else if (s.k === "expr") visit(s.e, guards);
}

/**
 * The hoistable calls of one top-level statement at positions evaluated on every bar (everyBarWalk:
 * the bodies of the user functions called there included, and branches fixed for the run, with
 * their guards), in source order: HoistPlan.candidates, which both backends precompute.
 */
function everyBarHoists(s: RStmt, plan: HoistPlan, found: (e: RExpr, guards: readonly Guard[]) => void): void {
  everyBarWalk(s, {
    at: (e, guards) => {
      if (
        (e.k === "call" && plan.isHoistableCall(e)) ||
        (e.k === "bvar" && STATEFUL_BAR_VARS.has(e.def.name)) ||
        // a function whose value is pre-known (HoistPlan.pureValue): its column, the body never run
        (e.k === "ucall" && plan.isPreKnown(e))
      ) {
        found(e, guards);
        return true;
      }
      return false;
    },
    bodies: true,
    fixed: (c) => plan.isFixed(c),
  });
}

/**
 * plot() with a numeric series and every other argument a constant (or omitted): after its first
 * call registered the output, a bar's call only writes the value into its column (both backends).
 */
export function isPlainPlot(e: Call): boolean {
  const x = e.args[0];
  return (
    !!x &&
    (x.t.name === "int" || x.t.name === "float") &&
    e.args.every((a, i) => i === 0 || a === undefined || a.k === "const")
  );
}

/** An output call's cell layout (see OUTPUT_CELLS; `kind` is builtins/plot/store.ts CellKind, which this layer does not import). */
export interface OutputCells {
  cell: number;
  kind: "number" | "flag" | "color";
  color: number;
  index: boolean;
}

/**
 * Output builtins (src/builtins/plot) whose call, once registered, writes only its cell (a value, a
 * shape flag or a colour; argument `cell`) and, for plot/plotshape/plotchar, the per-bar colour
 * (argument `color`) at the bar; `index`: the call's value is the output's index (else na). Indices
 * are the catalog's parameter positions.
 */
const OUTPUT_CELLS: Record<string, OutputCells> = {
  plot: { cell: 0, kind: "number", color: 2, index: true },
  hline: { cell: 0, kind: "number", color: -1, index: true },
  plotshape: { cell: 0, kind: "flag", color: 4, index: true },
  plotchar: { cell: 0, kind: "flag", color: 4, index: true },
  bgcolor: { cell: 0, kind: "color", color: -1, index: false },
  barcolor: { cell: 0, kind: "color", color: -1, index: false },
  fill: { cell: 2, kind: "color", color: -1, index: false },
};

/**
 * The cell layout of an output call that may skip its impl after the first call: its cell argument
 * of the cell's type (numbers for a number cell: na is NaN there), and every argument but the cell
 * and colour ones a constant or a variable's value (read by the first call only, and reading one
 * has no effect, so later bars need not evaluate it). Both backends take this path (compile's
 * generalCall, the interpreter's outputCall).
 */
export function outputCells(e: Call): OutputCells | null {
  const out = OUTPUT_CELLS[e.name];
  if (!out || e.def.name !== e.name) return null;
  const v = e.args[out.cell];
  if (out.kind === "number" && !(v && (v.t.name === "int" || v.t.name === "float"))) return null;
  const pure = e.args.every(
    (a, i) => i === out.cell || i === out.color || a === undefined || a.k === "const" || a.k === "load",
  );
  if (!pure) return null;
  // a constant colour is its track's first value (the registering call's) on every bar: writing it
  // again never changes the track (ColorTrack.set), so later bars write only the cell
  const c = out.color >= 0 ? e.args[out.color] : undefined;
  return c !== undefined && c.k === "const" ? { ...out, color: -1 } : out;
}

/**
 * The plain plot calls of a column-plot program, whose top level is nothing but precomputable
 * declarations and plots of precomputable values (bench10's shape), else null. On every bar after
 * the first such a program only writes each plot's value into its column: no state, no history, no
 * other output, so both backends run its first bar (which registers the plots) and copy the other
 * bars' values in bulk. `hoisted`: whether a backend precomputes a tuple-valued call.
 */
export function columnPlotCalls(prog: ResolvedProgram, plan: HoistPlan, hoisted: (e: Call) => boolean): Call[] | null {
  if (prog.declaration.kind === "strategy" || prog.slots.some((v) => v.hist >= 0)) return null;
  const plots: Call[] = [];
  for (const s of prog.body.stmts) {
    if (s.k === "decl" && s.mode === "plain" && plan.isPreKnown(s.init)) continue;
    if (s.k === "tdecl" && s.init.k === "call" && tupleSize(s.init) > 0 && hoisted(s.init)) continue;
    if (
      s.k === "expr" &&
      s.e.k === "call" &&
      s.e.name === "plot" &&
      isPlainPlot(s.e) &&
      plan.isPreKnown(s.e.args[0]!)
    ) {
      plots.push(s.e);
      continue;
    }
    return null;
  }
  return plots;
}
