// The compile backend's code generator: the resolved program becomes the JavaScript source of ONE
// function running the whole bar loop. It reproduces the interpreter (src/interpret/compiler.ts)
// operation for operation, including evaluation order and the values blocks yield, so that both
// backends give bit-identical results. Builtins are called through the same impls with the same
// per-site args arrays; values live in the interpreter's RunState arrays, except numeric variables
// without history, which become plain JS variables (stores coerce with `+`, as a Float64Array does).
//
// The generated text depends only on the program (every run-specific object is reached through the
// refs array `K`), so it can be cached per script and reused across runs.

import type { RBlock, RExpr, RStmt, ResolvedProgram, VarSlot } from "../check/ir.js";
import { columnPlotCalls, type HoistPlan, outputCells, tupleSize } from "../check/hoist-plan.js";
import { planOf } from "../interpret/hoisting.js";
import { SECURITY_CALLS } from "../interpret/security.js";
import { blockAssigns } from "../interpret/writes.js";
import { eachChild } from "../check/walk.js";
import { genericHead, isNumeric } from "../check/types.js";
import {
  constantArg,
  givenInOrder,
  inputArgsSkippable,
  isInputCall,
  mayRunZeroTimes,
  naOfType,
} from "../interpret/compiler.js";
import { MAX_STRING_LENGTH, stringTooLong } from "../builtins/str/limit.js";
import { MAX_ARRAY_SIZE } from "../builtins/array/index.js";
import { COLUMN_HISTORY_LIMIT, historyCap } from "../check/history-limits.js";
import { inlineTa } from "./inline-ta.js";
import { BAR_UNITS } from "../core/budget.js";
import { inlineTaSites } from "../check/once-sites.js";
import { intArg } from "../builtins/ta/common.js";

/** Thrown for a construct the generator cannot reproduce exactly: the run falls back to interpret. */
export class NotCompilable extends Error {}

/** What a generated program needs at run time, in the order of the refs array. */
export type Ref =
  | { k: "value"; v: unknown }
  | { k: "site"; id: number }
  | { k: "impl"; def: { impl: unknown } }
  | { k: "direct"; def: { direct?: unknown } }
  | { k: "request"; make: () => object; init: [string, unknown][] }
  | { k: "bvar"; def: { get: unknown } }
  | { k: "args"; n: number; numeric: boolean }
  | { k: "tuple"; n: number }
  | { k: "ring"; hist: number }
  | { k: "hoist"; call: RExpr; plan: HoistPlan }
  | { k: "security"; call: Extract<RExpr, { k: "call" }> };

type Sink = null | string;

interface LoopCtx {
  brk: string;
  cont: string;
  /** The loop's value variable (loops whose value is used), set to NaN on break/continue. */
  lv: string | null;
}

const CTX_BAR_VARS: Record<string, string> = {
  open: "ctx.open",
  high: "ctx.high",
  low: "ctx.low",
  close: "ctx.close",
  volume: "ctx.volume",
  time: "ctx.time",
  bar_index: "ctx.barIndex",
};
const BAR_VARS: Record<string, string> = {
  open: "b_open",
  high: "b_high",
  low: "b_low",
  close: "b_close",
  volume: "b_volume",
  time: "b_time",
  bar_index: "b_bar",
};

/**
 * hl2, hlc3, ohlc4, hlcc4 written out from the bar's values: the builtins' own arithmetic
 * (src/builtins/core/index.ts), in the same order, instead of a call through the getter.
 */
export const PRICE_VARS: Record<string, ((b: Record<string, string>) => string) | undefined> = {
  hl2: (b) => `((${b.high} + ${b.low}) / 2)`,
  hlc3: (b) => `((${b.high} + ${b.low} + ${b.close}) / 3)`,
  ohlc4: (b) => `((${b.open} + ${b.high} + ${b.low} + ${b.close}) / 4)`,
  hlcc4: (b) => `((${b.high} + ${b.low} + 2 * ${b.close}) / 4)`,
};

export interface Generated {
  /** Body of `new Function("K", "R", text)`; returns the loop function. */
  text: string;
  refs: Ref[];
  /**
   * Set when every bar after the first only writes precomputed values into plot columns (see
   * `columnPlots`): the plots' call sites (refs index) and value expressions. The loop runs the first
   * bar, which registers the plots, then `R.bulk(1, to)` copies the other bars' values at once.
   */
  bulk: { site: number; value: RExpr }[] | null;
}

/**
 * `rerun`: the re-runnable variant, for runs that execute a bar's script more than once: the broker's
 * calc_on_order_fills re-runs (from broker.onBarOpen, through ctx.ext.fillRecalc) and a realtime
 * bar's ticks (src/runtime/rerun.ts FormingBar), each rolled back through the RunState. `R.rerun` runs
 * a copy of the bar body on the bar in ctx (rerunTick); the loop's JS locals reach it through the
 * state array. Nothing is hoisted (a whole-series pass sees only the bars' final closes and leaves the
 * call sites without the state a later execution continues from), as in the interpreter.
 *
 * `secondary`: the variant a request.security secondary run executes (src/interpret/security.ts:
 * the whole program over another context's bars, its request sites recording their values). Each
 * top-level statement that raises a script runtime error is skipped on that bar (`R.skip` notes it
 * and rethrows anything else), as the interpreter's secondary run does; nothing is hoisted (the main
 * run's precomputed columns live in the kernel memory a pass of the secondary could grow).
 */
export function generate(prog: ResolvedProgram, hoist: boolean, rerun = false, secondary = false): Generated {
  // Numeric variables become locals of the loop function (doubles in registers, never boxed); one
  // that a nested function (user function, expression block) touches stays in the state array, so
  // a first pass finds those. Likewise the plain numeric variables of a user function's instance
  // become locals of the function generated for it, unless another function touches them (a fresh
  // `let` per call: safe in the re-runnable variant too, nothing of theirs outlives an execution).
  const pre = hoist && !rerun && !secondary;
  const first = new Gen(prog, pre, new Set(), new Set(), rerun, secondary);
  const out = first.run();
  const fnLocals = first.ownFnLocals();
  if (first.nestedUse.size === 0 && fnLocals.size === 0) return out;
  return new Gen(prog, pre, first.nestedUse, fnLocals, rerun, secondary).run();
}

class Gen {
  private readonly refs: Ref[] = [];
  private readonly refIndex = new Map<string, number>();
  /** Nested functions (user-function instances, expression-position blocks), defined once. */
  private readonly fns: string[] = [];
  /**
   * Run-level locals caching what a call site settles on its first call, in the loop function of
   * the plain variant: value inputs (`I<n>`, see call()) and plot columns (`P<n>`, generalCall()).
   */
  private readonly runCache: string[] = [];
  /** The run local of each per-run builtin variable read in the loop function (BuiltinVariable.perRun), by name. */
  private readonly perRunVars = new Map<string, string>();
  /** Run-level constants taken from the refs (`K<r>_<i>`: a hoisted tuple's columns). */
  private readonly runConst: string[] = [];
  /** Run-level numeric state of written-out ta.* calls (inline-ta.ts): `name = initial value`. */
  private readonly runState: string[] = [];
  /** The run locals of each written-out call's state, by call-site id (as the impl's site.state). */
  private readonly taState = new Map<number, string[]>();
  /** The written-out calls' state locals some nested function touches (they live beside the nested functions). */
  private readonly sharedState = new Set<string>();
  /** The call sites whose ta.* step is written out, in the plain variant with kernels (inline-ta.ts), else null. */
  private readonly once: Set<number> | null;
  /** Once-flags of `var` declarations in the plain variant's loop function (`o<i>`, see stmt()). */
  private readonly runFlags = new Set<string>();
  /** Their names, in the order defined. */
  private readonly fnNames: string[] = [];
  private temps: string[] = [];
  private tempN = 0;
  private labelN = 0;
  private fnN = 0;
  private loops: LoopCtx[] = [];
  /**
   * The loop budget's countdown while generating the body of a loop (a temp of the function being
   * generated), or null outside loops: a loop counts its iterations in this local, not in B.left
   * (a field store per iteration), and writes it back to B.left around anything that may read or
   * spend the budget (calls, nested functions, the clock read) and when the outermost loop ends.
   */
  private cd: string | null = null;
  /** The call callSite() last wrote out inline (JavaScript arithmetic only: nothing to sync). */
  private lastInline: RExpr | null = null;
  /**
   * Code generated so far that may read or spend the loop budget (loops, calls not written out
   * inline): a user function or block function whose body added none needs no sync around its call.
   */
  private budgetUses = 0;
  /** Syncs of a countdown generated so far (synced()). */
  private syncs = 0;
  /** Slots without history (plain or `var`, not varip) no nested function touches: plain JS variables. */
  private readonly local = new Set<number>();
  /** The non-numeric ones among them (kept as they are: no `+`; their state array is `V`). */
  private readonly valueLocal = new Set<number>();
  private readonly hoisted = new Set<RExpr>();
  private readonly plan: HoistPlan | null;
  /** Depth of nested functions being generated (0: the loop function itself). */
  private nested = 0;
  /** Local-candidate slots read or written inside nested functions. */
  readonly nestedUse = new Set<number>();
  /**
   * Plain numeric variables of user-function instances (no history, not varip): the one function
   * that touches each (null: more than one), and those some `var` declaration keeps from call to call.
   */
  private readonly fnOwner = new Map<number, string | null>();
  private readonly fnPersistent = new Set<number>();
  /** The function-instance locals (fnLocals) that hold values other than numbers. */
  private readonly fnValueLocals = new Set<number>();
  /** The function being generated ("" for the loop function) and the fn locals it declares. */
  private fn: { name: string; decl: Set<number> } = { name: "", decl: new Set() };

  constructor(
    private readonly prog: ResolvedProgram,
    hoist: boolean,
    exclude: Set<number>,
    /** Function-instance slots a first pass found touched by one function only: its JS locals. */
    private readonly fnLocals: Set<number>,
    private readonly rerun: boolean,
    /** The secondary-run variant (see generate): each top-level statement's runtime error skipped. */
    private readonly secondary = false,
  ) {
    // `var` slots of the main body too: the loop function runs every bar of a run in one call, so a
    // local declared before the loop keeps its value from bar to bar as the state array does (the
    // re-runnable variant hands them to its extra executions through the state array: rerunTick);
    // varip ones and those nested functions touch stay
    // non-numeric ones too (bools, strings, collections, objects: a local instead of a store into the
    // untyped state array; no `+` on their stores, and the re-runnable variant hands them over through
    // that array, where the rollback of objects mutated in place finds them)
    for (const v of prog.slots) {
      if (v.hist >= 0 || v.fnLocal || prog.varipSlots.includes(v.slot) || exclude.has(v.slot)) continue;
      this.local.add(v.slot);
      if (!isNumericSlot(v)) this.valueLocal.add(v.slot);
    }
    this.plan = hoist ? planOf(prog) : null;
    if (this.plan) for (const e of this.plan.candidates) this.hoisted.add(e);
    // (the hoisting variant is asked for only with the kernels present, and never re-runs a bar)
    this.once = this.plan ? inlineTaSites(prog.body, this.plan) : null;
  }

  /** A column-plot program's plots (src/check/hoist-plan.ts columnPlotCalls), else null. */
  private columnPlots(): { site: number; value: RExpr }[] | null {
    const plots = this.plan && columnPlotCalls(this.prog, this.plan, (e) => this.hoisted.has(e));
    return (
      plots?.map((e) => ({ site: this.ref(`site${e.site}`, { k: "site", id: e.site }), value: e.args[0]! })) ?? null
    );
  }

  run(): Generated {
    // `L` holds the line of the top-level statement running, for the position of a runtime error
    const body = this.withTemps(() =>
      this.prog.body.stmts
        .map((s) =>
          this.secondary
            ? `      L = ${s.line};\n      try {\n${this.stmt(s, null, "        ")}\n      } catch (e) { R.skip(e); }`
            : `      L = ${s.line};\n${this.stmt(s, null, "      ")}`,
        )
        .join("\n"),
    );
    const rings: string[] = [];
    for (const v of this.prog.slots) {
      if (v.hist < 0 || v.fnLocal) continue;
      const r = this.ref(`ring${v.hist}`, { k: "ring", hist: v.hist });
      rings.push(`      K${r}.buf[K${r}.count & K${r}.mask] = ${this.read(v)}; K${r}.count++;`);
    }
    // (a non-numeric local starts from the state's own na of its slot, which a re-run would read)
    const locals = [...this.local].map((s) => (this.valueLocal.has(s) ? `s${s} = V[${s}]` : `s${s} = NaN`));
    const home = (s: number) => `${this.valueLocal.has(s) ? "V" : "N"}[${s}]`;
    // the re-runnable variant: the loop's locals stored into the state array, where an extra
    // execution (and the rollback around it) finds them: before the broker's bar open, which may
    // re-run the bar after fills, and when the loop returns, before a realtime bar's ticks
    // (a fill re-run happens inside the broker's bar open, so the loop stores its locals before every
    // one when the run calcs on order fills; a realtime-only run re-runs only after the loop returned)
    const spill = this.rerun ? [...this.local].map((s) => `${home(s)} = s${s};`).join(" ") : "";
    // the plain variant's object locals go to the state when the loop returns: the Runtime keeps the
    // last run's state, and with it these objects and their hidden classes, whose death in a full GC
    // would throw away optimised code that depends on them ("weak objects": swing_state's array, 4x
    // slower runs after a forced GC)
    const keep = [...this.valueLocal].map((s) => `V[${s}] = s${s};`).join(" ");
    const bulk = this.columnPlots();
    // One long-lived function per script: everything run-specific arrives as arguments (K, R), so
    // the optimised code V8 made in earlier runs serves the next ones (a closure made per run would
    // be compiled again, on-stack, while its loop runs in the interpreter).
    const ownState = this.runState.filter((d) => !this.sharedState.has(declaredName(d)));
    const text = [
      `"use strict";`,
      ...this.nestedScope(),
      // (with nested functions, a declaration that carries their scope's `setup`, see nestedScope)
      this.fns.length ? `function run(K, R, from, to, broker) {` : `return function run(K, R, from, to, broker) {`,
      ...RUN_OBJECT_LINES.map((l) => `const ${l.join(", ")};`),
      ...this.refs.map((_, i) => `const K${i} = K[${i}];`),
      this.runConst.length ? `const ${this.runConst.join(", ")};` : "",
      // (where the nested functions were: the text of a program without them is as it was)
      "",
      `  let L = 0;`,
      `  let b_open = NaN, b_high = NaN, b_low = NaN, b_close = NaN, b_volume = NaN, b_time = NaN, b_bar = 0;`,
      locals.length ? `  let ${locals.join(", ")};` : "",
      this.runCache.length ? `  let ${this.runCache.join(", ")};` : "",
      // (no line at all without them: the text of a program without written-out calls is unchanged)
      ...(ownState.length ? [`  let ${ownState.join(", ")};`] : []),
      this.runFlags.size ? `  let ${[...this.runFlags].map((o) => `${o} = 0`).join(", ")};` : "",
      ...(this.rerun ? rerunTick(body, [...this.local], home) : []),
      // fill re-runs installed for this run (src/runtime/rerun.ts installFillRecalc, before the loop)
      spill ? `  const fills = ctx.ext.fillRecalc !== undefined;` : "",
      `  const n = cT.length;`,
      `  let bar = from;`,
      // a column-plot program: the first bar through the loop (it registers the plots), the rest in bulk
      bulk ? `  const bulkTo = from === 0 && to > 1 && broker === null ? to : 0;\n  if (bulkTo > 0) to = 1;` : "",
      `  for (; bar < to; bar++) {`,
      `    b_bar = bar; ctx.barIndex = bar;`,
      // the run's deadline, read every 32 bars when nothing else charged the budget (src/core/budget.ts
      // Budget.bar, its countdown written out here)
      `    if ((B.left -= ${BAR_UNITS}) <= 0 && B.barClock()) { R.timedOut = true; break; }`,
      `    b_time = cT[bar]; ctx.time = b_time;`,
      `    ctx.timeClose = closeTimes[bar];`,
      `    b_open = cO[bar]; ctx.open = b_open; b_high = cH[bar]; ctx.high = b_high; b_low = cL[bar]; ctx.low = b_low;`,
      // (the bar is input bar `bar` as it is, said after its prices: src/strategy/host.ts inputBar)
      `    b_close = cC[bar]; ctx.close = b_close; b_volume = cV[bar]; ctx.volume = b_volume; ctx.inputBar = bar;`,
      spill
        ? `    if (broker !== null) { if (fills) { ${spill} } broker.onBarOpen(ctx); }`
        : `    if (broker !== null) broker.onBarOpen(ctx);`,
      // (a secondary run's statements catch their own errors: what gets past R.skip is no script error)
      ...(this.secondary ? [body] : [`    try {`, body, `    } catch (e) { throw atLine(e, L); }`]),
      `    if (broker !== null) broker.onBarClose(ctx);`,
      ...rings,
      `  }`,
      bulk
        ? [
            `  if (bulkTo > 0 && bar === 1) {`,
            `    R.bulk(1, bulkTo);`,
            `    bar = bulkTo;`,
            `    const last = bar - 1;`,
            `    ctx.barIndex = last; ctx.time = cT[last]; ctx.timeClose = closeTimes[last];`,
            `    ctx.open = cO[last]; ctx.high = cH[last]; ctx.low = cL[last]; ctx.close = cC[last]; ctx.volume = cV[last]; ctx.inputBar = last;`,
            `  }`,
          ].join("\n")
        : "",
      spill ? `  ${spill}` : keep ? `  ${keep}` : "",
      `  return bar;`,
      `};`,
      ...(this.fns.length ? [`run.setup = $setup;`, `return run;`] : []),
    ].join("\n");
    return { text, refs: this.refs, bulk };
  }

  /**
   * The nested functions (user-function instances, blocks in expressions) and what they read, in the
   * scope around the loop function: defined once per generated function, not once per run. As
   * closures made by every run they were new call targets on every run, and the loop's optimised
   * code, which had seen the previous run's, deoptimised ("wrong call target") and was compiled
   * again. Each run sets their variables before its first call of the loop function (`run.setup`,
   * called by src/compile/index.ts: in the loop function, whose prologue alone runs many times before
   * a first run, it became hot and was optimised for nothing) to the values the loop function's own
   * constants of the same names hold, and `R.clear` drops them when the run is over, so a cached
   * function keeps no run's objects alive.
   */
  private nestedScope(): string[] {
    if (this.fns.length === 0) return [];
    const names = [
      ...RUN_OBJECTS.map(declaredName),
      ...this.refs.map((_, i) => `K${i}`),
      ...this.runConst.map(declaredName),
    ];
    const shared = this.runState.filter((d) => this.sharedState.has(declaredName(d)));
    return [
      `let ${names.join(", ")};`,
      shared.length ? `let ${shared.map(declaredName).join(", ")};` : "",
      `function $setup(K, R) {`,
      `  R.clear = $clear;`,
      ...RUN_OBJECTS.map((l) => `  ${l};`),
      ...this.refs.map((_, i) => `  K${i} = K[${i}];`),
      ...this.runConst.map((d) => `  ${d};`),
      ...shared.map((d) => `  ${d};`),
      `}`,
      `function $clear() {`,
      `  ${names.map((n) => `${n} = undefined;`).join(" ")}`,
      `}`,
      ...this.fns,
    ];
  }

  // ------------------------------------------------------------------ helpers

  private ref(key: string, r: Ref): number {
    let i = this.refIndex.get(key);
    if (i === undefined) {
      i = this.refs.length;
      this.refs.push(r);
      this.refIndex.set(key, i);
    }
    return i;
  }

  private value(v: unknown): string {
    if (typeof v === "number") {
      if (v !== v) return "NaN";
      if (Object.is(v, -0)) return "-0";
      if (!Number.isFinite(v)) return v > 0 ? "Infinity" : "-Infinity";
      return `(${String(v)})`;
    }
    if (typeof v === "boolean") return String(v);
    if (v === null) return "null";
    if (v === undefined) return "undefined";
    if (typeof v === "string") return JSON.stringify(v);
    return `K${this.ref(`v${this.refs.length}`, { k: "value", v })}`;
  }

  private temp(): string {
    const t = `$${this.tempN++}`;
    this.temps.push(t);
    return t;
  }

  /** One loop iteration on the countdown (Budget.tick with the countdown in a local). */
  private tick(cd: string): string {
    return cd.replaceAll(CD, TICK);
  }

  /**
   * `x`, an expression that may read or spend the loop budget (a call): inside a loop it makes the
   * loop's region count in B.left itself (countdown().finish), so the callee sees the true count.
   */
  private synced(x: string): string {
    if (this.cd !== null) this.syncs++;
    return x;
  }

  /** Runs `f` (generating another function's body) with no countdown of the caller's in scope. */
  private ownCountdown<T>(f: () => T): T {
    const saved = this.cd;
    this.cd = null;
    try {
      return f();
    } finally {
      this.cd = saved;
    }
  }

  /**
   * Opens a loop's countdown: the outermost loop of a function takes B.left into a new local (its
   * `enter` and `leave` code), a nested one shares it. `close` ends the region (after the loop's
   * parts are generated), `finish` takes the loop's code: where anything in the region had to be
   * synced (a call), the code counts in B.left itself instead (toField), as a local would cost a
   * store and a load per call where the field costs them once per iteration. `field` asks for the
   * field from the start: a while loop, which usually ends after a few iterations, where taking the
   * local in and out costs more than it saves (r4_while_lookback_scan: 38.8 -> 36.6 ms).
   */
  private countdown(field = false): {
    cd: string;
    enter: string;
    leave: string;
    close: () => void;
    finish: (code: string) => string;
  } {
    this.budgetUses++;
    if (this.cd !== null) return { cd: this.cd, enter: "", leave: "", close: () => {}, finish: (code) => code };
    const t = this.temp();
    // the region's code names the countdown by markers (control characters, which no generated
    // string literal holds raw: JSON.stringify escapes them), settled when the region is done
    const cd = `${CD}${t}${CD}`;
    this.cd = cd;
    const syncs = this.syncs;
    return {
      cd,
      enter: `${ENTER}${t}${ENTER}`,
      leave: `${LEAVE}${t}${LEAVE}`,
      close: () => {
        this.cd = null;
        field ||= this.syncs !== syncs;
      },
      finish: (code) => settle(code, t, field),
    };
  }

  /** Runs `f` with a fresh temp list; returns its text prefixed with the temps' declaration. */
  private withTemps(f: () => string, indent = "      "): string {
    const saved = this.temps;
    this.temps = [];
    const text = f();
    const decl = this.temps.length ? `${indent}let ${this.temps.join(", ")};\n` : "";
    this.temps = saved;
    return decl + text;
  }

  /** The run-level local standing for once-flag `i` (declared with the run's caches, starting at 0). */
  private runFlag(i: number): string {
    const name = `o${i}`;
    this.runFlags.add(name);
    return name;
  }

  /** The slots of user-function instances that only their own function touches (after a pass). */
  ownFnLocals(): Set<number> {
    const out = new Set<number>();
    for (const [slot, owner] of this.fnOwner) if (owner !== null && !this.fnPersistent.has(slot)) out.add(slot);
    return out;
  }

  /** The JS local holding v (`s<slot>`), or null when v lives in the state arrays. */
  private localName(v: VarSlot): string | null {
    if (this.local.has(v.slot)) {
      if (this.nested > 0) this.nestedUse.add(v.slot);
      return `s${v.slot}`;
    }
    if (!v.fnLocal || v.hist >= 0 || this.prog.varipSlots.includes(v.slot)) return null;
    const owner = this.fnOwner.get(v.slot);
    if (owner === undefined) this.fnOwner.set(v.slot, this.fn.name);
    else if (owner !== this.fn.name) this.fnOwner.set(v.slot, null);
    if (!this.fnLocals.has(v.slot)) return null;
    // a fresh `let` in its function: a plain variable of a function is assigned before it is read
    // in every call, so nothing carries over from the previous call (`var` ones are not here)
    this.fn.decl.add(v.slot);
    if (!isNumericSlot(v)) this.fnValueLocals.add(v.slot);
    return `s${v.slot}`;
  }

  private read(v: VarSlot): string {
    const l = this.localName(v);
    if (l !== null) return l;
    return isNumericSlot(v) ? `N[${v.slot}]` : `V[${v.slot}]`;
  }

  /** An expression storing `x` into v, yielding x itself (as `N[i] = x` does). */
  private write(v: VarSlot, x: string): string {
    const l = this.localName(v);
    if (l !== null) {
      if (this.isValueSlot(v.slot)) return `(${l} = ${x})`;
      const t = this.temp();
      return `(${t} = ${x}, ${l} = +${t}, ${t})`;
    }
    return `(${this.read(v)} = ${x})`;
  }

  /** A statement storing x (value unused). */
  private writeStmt(v: VarSlot, x: string): string {
    const l = this.localName(v);
    if (l !== null) return this.isValueSlot(v.slot) ? `${l} = ${x};` : `${l} = +(${x});`;
    return `${this.read(v)} = ${x};`;
  }

  // ------------------------------------------------------------------ statements

  /**
   * The statements of a nested block: a runtime error leaving one gets its line, as the
   * interpreter's block does (try costs nothing until something throws).
   */
  private stmts(list: RStmt[], sink: Sink, ind: string): string {
    const out: string[] = [];
    list.forEach((s, i) => {
      const code = this.stmt(s, i === list.length - 1 ? sink : null, ind + "  ");
      out.push(`${ind}try {\n${code}\n${ind}} catch (e) { throw atLine(e, ${s.line}); }`);
    });
    if (list.length === 0 && sink) out.push(`${ind}${sink} = NaN;`);
    return out.join("\n");
  }

  private block(b: RBlock, sink: Sink, ind: string): string {
    return this.stmts(b.stmts, sink, ind);
  }

  private stmt(s: RStmt, sink: Sink, ind: string): string {
    const put = (x: string) => (sink ? `${ind}${sink} = ${x};` : `${ind}${x};`);
    switch (s.k) {
      case "expr":
        if (isStructured(s.e)) return this.structured(s.e, sink, ind);
        return put(this.expr(s.e));
      case "decl": {
        let init: string;
        let pre = "";
        if (isStructured(s.init)) {
          const t = this.temp();
          pre = this.structured(s.init, t, ind) + "\n";
          init = t;
        } else init = this.expr(s.init);
        init = this.convert(init, s.init, s.v.type.name);
        if (s.mode !== "plain") this.fnPersistent.add(s.v.slot);
        if (s.mode === "plain") return pre + (sink ? put(this.write(s.v, init)) : `${ind}${this.writeStmt(s.v, init)}`);
        // var / varip: initialised once, on the first bar that reaches it (the flag a local of the run
        // in the plain variant's loop function, where nothing else reads it: no re-run rolls it back)
        const once = this.nested > 0 || this.rerun ? `O[${s.once}]` : this.runFlag(s.once);
        if (pre) {
          // the initialiser must only run on that first bar: keep it inside the guard
          return (
            `${ind}if (${once} === 0) {\n${ind}  ${once} = 1;\n${pre.replace(/^/gm, "  ")}${ind}  ${this.writeStmt(s.v, init)}\n${ind}}` +
            (sink ? `\n${ind}${sink} = ${this.read(s.v)};` : "")
          );
        }
        return (
          `${ind}if (${once} === 0) { ${once} = 1; ${this.writeStmt(s.v, init)} }` +
          (sink ? `\n${ind}${sink} = ${this.read(s.v)};` : "")
        );
      }
      case "tdecl": {
        const cols = sink ? null : this.hoistedTuple(s.init);
        if (cols) {
          // a hoisted tuple call's values straight from its columns into the variables: no buffer
          // between them (an untyped array, where every double stored is a new heap number)
          return s.vs
            .map((v, i) => (v ? `${ind}${this.writeStmt(v, cols[i]!)}` : ""))
            .filter((l) => l)
            .join("\n");
        }
        const t = this.temp();
        let pre = "";
        let init: string;
        if (isStructured(s.init)) {
          pre = this.structured(s.init, t, ind) + "\n";
          init = t;
        } else init = this.expr(s.init);
        const lines = [pre + `${ind}${t} = ${init};`];
        // a tuple-valued loop that ran zero times yields na: each variable takes its type's na
        const item = (v: VarSlot, i: number) =>
          mayRunZeroTimes(s.init) ? `(${t} == null ? ${this.value(naOfType(v.type.name))} : ${t}[${i}])` : `${t}[${i}]`;
        s.vs.forEach((v, i) => {
          if (v) lines.push(`${ind}${this.writeStmt(v, item(v, i))}`);
        });
        if (sink) lines.push(`${ind}${sink} = ${t};`);
        return lines.join("\n");
      }
      case "assign": {
        let pre = "";
        let value: string;
        if (isStructured(s.value)) {
          const t = this.temp();
          pre = this.structured(s.value, t, ind) + "\n";
          value = t;
        } else value = this.expr(s.value);
        value = this.convert(value, s.value, s.v.type.name);
        const cur = this.read(s.v);
        let x: string;
        switch (s.op) {
          case ":=":
            x = value;
            break;
          case "+=":
            x = s.str ? this.strConcat(cur, value) : `${cur} + ${value}`;
            break;
          case "-=":
            x = `${cur} - ${value}`;
            break;
          case "*=":
            x = `${cur} * ${value}`;
            break;
          case "%=":
            x = `${cur} % ${value}`;
            break;
          case "/=": {
            const a = this.temp(),
              b = this.temp();
            x = s.intDiv
              ? `(${a} = ${cur}, ${b} = ${value}, ${b} === 0 ? NaN : Math.trunc(${a} / ${b}))`
              : `(${a} = ${cur}, ${b} = ${value}, ${b} === 0 ? NaN : ${a} / ${b})`;
            break;
          }
          default:
            throw new NotCompilable(`assignment operator ${s.op}`);
        }
        return pre + (sink ? put(this.write(s.v, x)) : `${ind}${this.writeStmt(s.v, x)}`);
      }
      case "fassign": {
        const o = this.temp(),
          v = this.temp();
        const obj = this.expr(s.obj);
        const value = this.expr(s.value);
        const f = `${o}.fields[${s.index}]`;
        let x: string;
        switch (s.op) {
          case ":=":
            x = v;
            break;
          case "+=":
            x = s.str ? this.strConcat(f, v) : `${f} + ${v}`;
            break;
          case "-=":
            x = `${f} - ${v}`;
            break;
          case "*=":
            x = `${f} * ${v}`;
            break;
          case "%=":
            x = `${f} % ${v}`;
            break;
          case "/=": {
            const b = this.temp();
            x = s.intDiv
              ? `(${b} = ${v}, ${b} === 0 ? NaN : Math.trunc(${f} / ${b}))`
              : `(${b} = ${v}, ${b} === 0 ? NaN : ${f} / ${b})`;
            break;
          }
          default:
            throw new NotCompilable(`assignment operator ${s.op}`);
        }
        const lines = [
          `${ind}${o} = ${obj};`,
          `${ind}if (${o} === null) ctx.runtimeError("Cannot assign a field of an na object");`,
          `${ind}${v} = ${value};`,
          sink ? `${ind}${sink} = (${f} = ${x});` : `${ind}${f} = ${x};`,
        ];
        return lines.join("\n");
      }
      case "break":
      case "continue": {
        const l = this.loops[this.loops.length - 1];
        if (!l) throw new NotCompilable(`${s.k} outside a loop`);
        return `${ind}${l.lv ? `${l.lv} = NaN; ` : ""}break ${s.k === "break" ? l.brk : l.cont};`;
      }
    }
  }

  /**
   * String `+`: an na side adds nothing, na only when both are (as the interpreter); past TradingView's
   * 40,960 characters a runtime error.
   */
  private strConcat(a: string, b: string): string {
    const x = this.temp(),
      y = this.temp();
    const tooLong = `K${this.ref("strTooLong", { k: "value", v: stringTooLong })}`;
    return `(${x} = ${a}, ${y} = ${b}, ${x} === null ? ${y} : ${y} === null ? ${x} : (${x} = ${x} + ${y}).length > ${MAX_STRING_LENGTH} ? ${tooLong}(ctx, ${x}.length) : ${x})`;
  }

  /** v6 bools are never na: a bool variable turns any non-bool value into `=== true`. */
  private convert(x: string, e: RExpr, to: string): string {
    return to === "bool" && e.t.name !== "bool" ? `(${x} === true)` : x;
  }

  // ------------------------------------------------------------------ structured expressions (statements with a value)

  private structured(e: RExpr, sink: Sink, ind: string): string {
    switch (e.k) {
      case "if": {
        const c = this.expr(e.cond);
        const then = this.block(e.then, sink, ind + "  ");
        if (!e.else)
          return `${ind}if (${c}) {\n${then}\n${ind}}${sink ? ` else ${sink} = ${this.value(naOfType(e.t.name))};` : ""}`;
        return `${ind}if (${c}) {\n${then}\n${ind}} else {\n${this.block(e.else, sink, ind + "  ")}\n${ind}}`;
      }
      case "switch": {
        const out: string[] = [];
        let subj = "";
        if (e.subject) {
          subj = this.temp();
          out.push(`${ind}${subj} = ${this.expr(e.subject)};`);
        }
        const na = this.value(naOfType(e.t.name));
        let close = "";
        let prefix = ind;
        for (const c of e.cases) {
          if (!c.test) {
            out.push(`${prefix}{\n${this.block(c.body, sink, ind + "  ")}\n${ind}}`);
            out.push(close);
            return out.join("\n");
          }
          const v = this.temp();
          const test = e.subject
            ? `(${v} = ${this.expr(c.test)}, ${v} === ${subj} && ${v} === ${v} && ${v} !== null)`
            : this.expr(c.test);
          out.push(`${prefix}if (${test}) {\n${this.block(c.body, sink, ind + "  ")}\n${ind}} else {`);
          close += "}";
          prefix = ind;
        }
        out.push(sink ? `${ind}${sink} = ${na};` : "");
        out.push(ind + close);
        return out.join("\n");
      }
      case "for":
        return this.forLoop(e, sink, ind);
      case "while": {
        const brk = `L${this.labelN++}`,
          cont = `C${this.labelN++}`;
        const lv = sink ? this.temp() : null;
        const cd = this.countdown(true);
        const c = this.expr(e.cond);
        this.loops.push({ brk, cont, lv });
        const body = this.block(e.body, lv, ind + "    ");
        this.loops.pop();
        cd.close();
        const code = [
          lv ? `${ind}${lv} = ${this.value(naOfType(e.t.name))};` : "",
          `${ind}B.enter();${cd.enter}`,
          `${ind}${brk}: while (${c}) {`,
          `${ind}  ${cont}: {`,
          body,
          `${ind}  }`,
          `${ind}  ${this.tick(cd.cd)}`,
          `${ind}}`,
          `${ind}B.exit();${cd.leave}`,
          lv ? `${ind}${sink} = ${lv};` : "",
        ].join("\n");
        return cd.finish(code);
      }
      case "forin":
        return this.forIn(e, sink, ind);
      default:
        throw new Error(`internal: ${e.k} is not structured`);
    }
  }

  /**
   * A `for` loop, as the interpreter runs it: `from` and `to` read once (na: no iteration), the step's
   * magnitude once (not > 0: no iteration), the direction from `from <= to`, and in v6 `to` read again
   * after every iteration (na: the loop ends). Specialised where that is known when generating: a
   * constant step is written in (no check), constant bounds fix the direction (a plain `i <= b` /
   * `i >= b` test), and a `to` the body cannot change (invariantIn) is not read again.
   */
  private forLoop(e: Extract<RExpr, { k: "for" }>, sink: Sink, ind: string): string {
    const brk = `L${this.labelN++}`,
      cont = `C${this.labelN++}`;
    const lv = this.temp();
    const i = this.temp();
    const from = this.expr(e.from),
      to = this.expr(e.to);
    const stepC = e.step === null ? 1 : constNumber(e.step);
    const sC = stepC === null ? null : Math.abs(stepC);
    const step = e.step && sC === null ? this.expr(e.step) : null;
    const reeval = e.reevalTo && !this.invariantIn(e.to, e.body);
    const fromC = constNumber(e.from),
      toC = constNumber(e.to);
    // both bounds and the step known and usable: the direction is known, nothing to check at run time
    const fixed = fromC !== null && toC !== null && fromC === fromC && toC === toC && sC !== null && sC > 0;
    const cd = this.countdown();
    // `to` read again after each iteration: a call in it makes the region count in B.left (synced)
    if (reeval && mayCall(e.to)) this.synced("");
    const reread = (b: string) => (reeval ? `${ind}      ${b} = ${to}; if (${b} !== ${b}) break;` : "");
    this.loops.push({ brk, cont, lv: sink ? lv : null });
    const body = this.block(e.body, sink ? lv : null, ind + "      ");
    this.loops.pop();
    cd.close();
    const loopBody = [
      `${ind}      ${this.writeStmt(e.counter, i)}`,
      `${ind}      ${cont}: {`,
      body,
      `${ind}      }`,
      `${ind}      ${this.tick(cd.cd)}`,
    ];
    if (fixed && !reeval) {
      const up = fromC <= toC;
      return cd.finish(
        [
          `${ind}${lv} = ${this.value(naOfType(e.t.name))};`,
          `${ind}B.enter();${cd.enter}`,
          `${ind}${brk}: for (${i} = ${this.value(fromC)}; ${i} ${up ? "<=" : ">="} ${this.value(toC)}; ${i} ${up ? "+=" : "-="} ${this.value(sC)}) {`,
          ...loopBody,
          `${ind}}`,
          `${ind}B.exit();${cd.leave}`,
          sink ? `${ind}${sink} = ${lv};` : "",
        ].join("\n"),
      );
    }
    const a = fromC !== null && fromC === fromC ? this.value(fromC) : this.temp();
    const b = this.temp(),
      s = sC !== null ? this.value(sC) : this.temp(),
      up = this.temp(),
      d = this.temp();
    const nanCheck = [a, b].filter((x) => x.startsWith("$")).map((x) => `${x} === ${x}`);
    return cd.finish(
      [
        `${ind}${lv} = ${this.value(naOfType(e.t.name))};`,
        `${ind}${a.startsWith("$") ? `${a} = ${from}; ` : ""}${b} = ${to};`,
        `${ind}if (${nanCheck.join(" && ")}) {`,
        step !== null ? `${ind}  ${s} = Math.abs(${step});` : "",
        // (a constant step > 0 needs no check)
        `${ind}  if (${sC !== null && sC > 0 ? "true" : `${s} > 0`}) {`,
        `${ind}    ${up} = ${a} <= ${b}; ${d} = ${up} ? ${s} : -${s}; B.enter();${cd.enter}`,
        `${ind}    ${brk}: for (${i} = ${a}; ${up} ? ${i} <= ${b} : ${i} >= ${b}; ${i} += ${d}) {`,
        ...loopBody,
        reread(b),
        `${ind}    }`,
        `${ind}    B.exit();${cd.leave}`,
        `${ind}  }`,
        `${ind}}`,
        sink ? `${ind}${sink} = ${lv};` : "",
      ].join("\n"),
    );
  }

  /**
   * Whether `e` (a loop's `to`) has the same value after every iteration of `body`: arithmetic on
   * constants and numeric variables the body never assigns (a user function cannot assign its
   * caller's variables), as the interpreter's forLoopFlat decides for its bounds.
   */
  private invariantIn(e: RExpr, body: RBlock): boolean {
    if (this.hoisted.has(e)) return false;
    switch (e.k) {
      case "const":
        return typeof e.v === "number";
      case "load":
        return isNumericSlot(e.v) && !blockAssigns(body, e.v);
      case "unary":
        return (e.op === "-" || e.op === "+") && this.invariantIn(e.e, body);
      case "bin":
        return !e.str && ARITH_OPS.has(e.op) && this.invariantIn(e.l, body) && this.invariantIn(e.r, body);
      default:
        return false;
    }
  }

  private forIn(e: Extract<RExpr, { k: "forin" }>, sink: Sink, ind: string): string {
    const lv = this.temp(),
      coll = this.temp(),
      i = this.temp(),
      kv = this.temp();
    const na = this.value(naOfType(e.t.name));
    const it = this.expr(e.iterable);
    const cd = this.countdown();
    const setIdx = (x: string) => (e.index ? `${this.writeStmt(e.index, x)} ` : "");
    const loop = (head: string, setup: string, check: string) => {
      const brk = `L${this.labelN++}`,
        cont = `C${this.labelN++}`;
      this.loops.push({ brk, cont, lv: sink ? lv : null });
      const body = this.block(e.body, sink ? lv : null, ind + "      ");
      this.loops.pop();
      return [
        `${ind}    ${brk}: ${head} {`,
        `${ind}      ${setup}`,
        `${ind}      ${cont}: {`,
        body,
        `${ind}      }`,
        check ? `${ind}      ${check}` : "",
        `${ind}    }`,
      ].join("\n");
    };
    // (only the loop of the collection the checker typed the iterable as: the body is written once
    // per loop, and a function three times as long is one V8 optimises less well)
    const head = genericHead(e.iterable.t.name);
    const known = head === "array" || head === "matrix" || head === "map";
    const branches: string[] = [];
    if (!known || head === "array")
      branches.push(
        `${ind}  ${branches.length ? "} else if" : "if"} (${coll} instanceof PineArray) {`,
        loop(
          `for (${i} = 0; ${i} < ${coll}.values.length; ${i}++)`,
          `${setIdx(i)}${this.writeStmt(e.value, `${coll}.values[${i}]`)}`,
          this.tick(cd.cd),
        ),
      );
    if (!known || head === "matrix")
      branches.push(
        `${ind}  ${branches.length ? "} else if" : "if"} (${coll} instanceof PineMatrix) {`,
        loop(
          `for (${i} = 0; ${i} < ${coll}.rows; ${i}++)`,
          `${setIdx(i)}${this.writeStmt(e.value, `new PineArray(${coll}.elemType, ${coll}.data.slice(${i} * ${coll}.cols, (${i} + 1) * ${coll}.cols))`)}`,
          `${cd.cd} -= 1 + (${coll}.cols >> 3); if (${cd.cd} <= 0) { B.left = ${cd.cd}; B.check(); ${cd.cd} = B.left; }`,
        ),
      );
    if (!known || head === "map")
      branches.push(
        `${ind}  ${branches.length ? "} else if" : "if"} (${coll} instanceof PineMap) {`,
        loop(
          `for (${kv} of ${coll}.map)`,
          `${setIdx(`${kv}[0]`)}${this.writeStmt(e.value, `${kv}[1]`)}`,
          this.tick(cd.cd),
        ),
      );
    const code = [
      `${ind}${lv} = ${na};`,
      `${ind}${coll} = ${it};`,
      `${ind}if (${coll} !== null && ${coll} !== undefined) {`,
      `${ind}  B.enter();${cd.enter}`,
      ...branches,
      `${ind}  } else ctx.runtimeError("Cannot iterate over this value");`,
      `${ind}  B.exit();${cd.leave}`,
      `${ind}}`,
      sink ? `${ind}${sink} = ${lv};` : "",
    ].join("\n");
    cd.close();
    return cd.finish(code);
  }

  // ------------------------------------------------------------------ expressions

  /** The ref of a hoisted call's column(s) and the loop's bar index. */
  private hoistRef(e: RExpr): { r: number; B: string } {
    const r = this.ref(`h${this.refs.length}`, { k: "hoist", call: e, plan: this.plan! });
    return { r, B: this.nested > 0 ? "ctx.barIndex" : "b_bar" };
  }

  /** This bar's value of each column of a hoisted tuple-valued call, or null when `e` is not one. */
  private hoistedTuple(e: RExpr): string[] | null {
    if (!this.hoisted.has(e) || e.k !== "call" || tupleSize(e) === 0) return null;
    const { r, B } = this.hoistRef(e);
    // each column a run-level constant: one load a bar, not the tuple's column array's too
    return Array.from({ length: tupleSize(e) }, (_, i) => {
      this.runConst.push(`K${r}_${i} = K${r}[${i}]`);
      return `K${r}_${i}[${B}]`;
    });
  }

  private expr(e: RExpr): string {
    const cols = this.hoistedTuple(e);
    if (cols) {
      // a tuple result: this bar's values in a buffer owned by the call (as the impl's site.out)
      const t = this.ref(`tuple${this.refs.length}`, { k: "tuple", n: cols.length });
      return `(${cols.map((c, i) => `K${t}[${i}] = ${c}`).join(", ")}, K${t})`;
    }
    if (this.hoisted.has(e)) {
      const { r, B } = this.hoistRef(e);
      // boolean columns (ta.cross*) hold 1/0
      return e.t.name === "bool" ? `(K${r}[${B}] === 1)` : `K${r}[${B}]`;
    }
    switch (e.k) {
      case "const":
        return this.value(e.v);
      case "load":
        return this.read(e.v);
      case "hist":
        return this.hist(e.v, e.off, e.n, this.read(e.v));
      case "histExpr": {
        const inner = this.expr(e.e);
        if (e.n === 0) return inner;
        return `(${this.writeStmt(e.v, inner).slice(0, -1)}, ${this.hist(e.v, e.off, e.n, this.read(e.v))})`;
      }
      case "colHist": {
        const col = { open: "cO", high: "cH", low: "cL", close: "cC", volume: "cV", time: "cT" }[e.col];
        const i = this.temp();
        const B = this.nested > 0 ? "ctx.barIndex" : "b_bar";
        // offset 0: the bar as the script sees it now, as the interpreter reads it (a fill re-run's bar so far)
        const cur = (this.nested > 0 ? CTX_BAR_VARS : BAR_VARS)[e.col]!;
        if (e.n === 0) return cur;
        if (e.n !== null) return `(${i} = ${B} - ${e.n}, ${i} >= 0 ? ${col}[${i}] : NaN)`;
        const k = this.temp();
        return `(${k} = ${this.expr(e.off)}, ${k} !== ${k} ? NaN : ${k} > ${COLUMN_HISTORY_LIMIT} ? ctx.runtimeError(historyOffsetMessage(${k}, ${COLUMN_HISTORY_LIMIT})) : (${i} = ${B} - ${k}, ${i} >= 0 && ${i} < ${B} ? ${col}[${i}] : ${i} === ${B} ? ${cur} : NaN))`;
      }
      case "bvar": {
        const local = BAR_VARS[e.def.name];
        if (local) return this.nested > 0 ? CTX_BAR_VARS[e.def.name]! : local;
        const price = PRICE_VARS[e.def.name];
        if (price) return price(this.nested > 0 ? CTX_BAR_VARS : BAR_VARS);
        const onBroker = e.def.broker;
        if (onBroker && !e.def.stateful) {
          // a strategy.* figure read straight from the broker (what `get` does, without its shared,
          // megamorphic inner call)
          const g = this.ref(`bvr:${e.def.name}`, { k: "value", v: onBroker.read });
          const b = this.temp();
          return `((${b} = ctx.broker) ? K${g}(${b}, ctx) : ${this.value(onBroker.flat)})`;
        }
        const d = this.ref(`bv${e.site}`, { k: "bvar", def: e.def });
        const s = this.ref(`site${e.site}`, { k: "site", id: e.site });
        if (!e.def.perRun || e.def.stateful) return `K${d}(ctx, K${s})`;
        // fixed for the run (syminfo.*, timeframe.*): read on its first bar, then kept, in a local of
        // the run in the loop function (as inputs are), else in its site's state (reset per run, as the
        // interpreter keeps it)
        const v = this.temp();
        if (this.nested > 0 || this.rerun)
          return `((${v} = K${s}.state) !== undefined ? ${v} : (K${s}.state = K${d}(ctx, K${s})))`;
        // (one local per variable: every site of it reads the same value)
        let c = this.perRunVars.get(e.def.name);
        if (c === undefined) {
          c = `Y${this.runCache.length}`;
          this.runCache.push(c);
          this.perRunVars.set(e.def.name, c);
        }
        return `(${c} !== undefined ? ${c} : (${c} = K${d}(ctx, K${s})))`;
      }
      case "unary": {
        const x = this.expr(e.e);
        if (e.op === "not") return `(!${x})`;
        if (e.op === "-") return `(-${x})`;
        return x;
      }
      case "bin":
        return this.binary(e);
      case "and":
      case "or": {
        const op = e.k === "and" ? "&&" : "||";
        const l = this.expr(e.l),
          r = this.expr(e.r);
        if (e.lazy) return `(${l} ${op} ${r})`;
        const a = this.temp(),
          b = this.temp();
        return `(${a} = ${l}, ${b} = ${r}, ${a} ${op} ${b})`;
      }
      case "tern":
        return `(${this.expr(e.c)} ? ${this.expr(e.a)} : ${this.expr(e.b)})`;
      case "call":
        return this.call(e);
      case "ucall":
        return this.ucall(e);
      case "tuple": {
        const t = this.ref(`tuple${this.refs.length}`, { k: "tuple", n: e.elems.length });
        const parts = e.elems.map((x, i) => `K${t}[${i}] = ${this.expr(x)}`);
        return `(${[...parts, `K${t}`].join(", ")})`;
      }
      case "if":
      case "switch":
      case "for":
      case "while":
      case "forin":
        return this.blockFunction(e);
      case "field": {
        const o = this.temp();
        return `(${o} = ${this.expr(e.obj)}, ${o} === null ? ctx.runtimeError("Cannot access a field of an na object") : ${o}.fields[${e.index}])`;
      }
      case "new":
        return `new PineObject(${JSON.stringify(e.typeName)}, [${e.fields.map((f) => this.expr(f)).join(", ")}])`;
      case "copy": {
        const o = this.temp();
        return `(${o} = ${this.expr(e.obj)}, ${o} === null ? null : new PineObject(${o}.typeName, ${o}.fields.slice()))`;
      }
      case "cast": {
        const x = this.expr(e.e);
        const v = this.temp();
        if (e.to === "int") return `(${v} = ${x}, typeof ${v} === "number" ? Math.trunc(${v}) : ${v})`;
        if (e.to === "bool" && e.e.t.name !== "bool")
          return `(${v} = ${x}, typeof ${v} === "number" ? ${v} === ${v} && ${v} !== 0 : !!${v})`;
        return x;
      }
    }
  }

  /**
   * A nested function defined once (in `fns`), named `<prefix><n>`, its body made by `body` with the
   * function's own temps, loops, function locals and loop budget (the caller's countdown local is not
   * in its scope). `touches`: whether the body may read or spend the budget (a call of it is synced).
   */
  private nestedFunction(prefix: "x" | "u", params: string[], body: () => string): { name: string; touches: boolean } {
    const name = `${prefix}${this.fnN++}`;
    this.fnNames.push(name);
    const savedLoops = this.loops;
    const savedFn = this.fn;
    this.fn = { name, decl: new Set() };
    this.loops = [];
    this.nested++;
    const uses = this.budgetUses;
    const text = this.ownCountdown(() => this.withTemps(body, "  "));
    this.nested--;
    this.loops = savedLoops;
    const decl = this.fnLocalDecl();
    this.fn = savedFn;
    this.fns.push(`function ${name}(${params.join(", ")}) {\n${decl}${text}\n}`);
    return { name, touches: this.budgetUses !== uses };
  }

  /** An if/switch/loop used inside a larger expression: a nested function defined once. */
  private blockFunction(e: RExpr): string {
    const { name, touches } = this.nestedFunction("x", [], () => {
      const rv = this.temp();
      return `${this.structured(e, rv, "  ")}\n  return ${rv};`;
    });
    return touches ? this.synced(`${name}()`) : `${name}()`;
  }

  /**
   * An expression evaluated later, by a callee (request.security's `expression`): a nested function
   * defined once, returning its value; the variables it reads live where nested functions reach
   * them (the first pass's nestedUse).
   */
  private thunkFunction(e: RExpr): string {
    return this.nestedFunction("x", [], () => `  return (${this.expr(e)});`).name;
  }

  /** The `let` of the function-instance locals the function being generated touched. */
  private fnLocalDecl(): string {
    const d = [...this.fn.decl];
    // (a number starts as NaN so that the local is a double from the start; any other value as null)
    const init = (s: number) => (this.isValueSlot(s) ? `s${s} = null` : `s${s} = NaN`);
    return d.length ? `  let ${d.map(init).join(", ")};\n` : "";
  }

  /** A JS local holding any value (a bool, string, collection or object), not a double. */
  private isValueSlot(slot: number): boolean {
    return this.valueLocal.has(slot) || this.fnValueLocals.has(slot);
  }

  private ucall(e: Extract<RExpr, { k: "ucall" }>): string {
    const inst = e.inst;
    const params = inst.params.map((_, i) => `p${i}`);
    const { name, touches } = this.nestedFunction("u", params, () => {
      const rv = this.temp();
      const lines = inst.params.map((p, i) => `  ${this.writeStmt(p, `p${i}`)}`);
      lines.push(this.block(inst.body, rv, "  "));
      // the instance's own histories advance once per call (Pine's per-call series)
      for (const v of inst.locals) {
        if (v.hist < 0) continue;
        const r = this.ref(`ring${v.hist}`, { k: "ring", hist: v.hist });
        lines.push(`  K${r}.buf[K${r}.count & K${r}.mask] = ${this.read(v)}; K${r}.count++;`);
      }
      lines.push(`  return ${rv};`);
      return lines.join("\n");
    });
    // (a body that never reads or spends the budget: called as it is)
    const sync = (x: string) => (touches ? this.synced(x) : x);
    if (!e.order) return sync(`${name}(${e.args.map((a) => this.expr(a)).join(", ")})`);
    // named arguments written out of parameter order: evaluate them as written into temporaries
    const tmps = e.args.map(() => this.temp());
    const evals = e.order.map((i) => `${tmps[i]} = ${this.expr(e.args[i]!)}`);
    return sync(`(${evals.join(", ")}, ${name}(${tmps.join(", ")}))`);
  }

  private hist(v: VarSlot, offE: RExpr, n: number | null, current: string): string {
    // the interpreter requires the ring even for [0] (an internal error there): leave it to interpret
    if (v.hist < 0) throw new NotCompilable(`a history reference without history storage ('${v.name}')`);
    if (n === 0) return current;
    let size = 1;
    while (size < v.histDepth + 1) size <<= 1;
    // the interpreter refuses such a program when building it: leave it to interpret
    if (n !== null && n > size - 1)
      throw new NotCompilable(`a history reference deeper than its ring ('${v.name}[${n}]')`);
    const r = this.ref(`ring${v.hist}`, { k: "ring", hist: v.hist });
    const R = `K${r}`;
    // a numeric ring's na is NaN: written as such, the read stays a raw double (a ternary between a
    // Float64Array element and the ring's untyped `na` field boxes the element on every read)
    const na = isNumericSlot(v) ? "NaN" : `${R}.na`;
    if (n !== null) return `(${n} <= ${R}.count ? ${R}.buf[(${R}.count - ${n}) & ${R}.mask] : ${na})`;
    const k = this.temp();
    const name = JSON.stringify(v.name);
    return (
      `(${k} = ${this.expr(offE)}, ${k} !== ${k} ? ${na} : ${k} === 0 ? ${current} : (` +
      `${k} < 0 ? ctx.runtimeError("Negative history offset " + ${k} + " for '" + ${name} + "'") : ${k} > ${historyCap(size - 1)} ? ctx.runtimeError(historyOffsetMessage(${k}, ${historyCap(size - 1)})) : 0, ` +
      `${k} <= ${R}.count ? ${R}.buf[(${R}.count - ${k}) & ${R}.mask] : ${na}))`
    );
  }

  private binary(e: Extract<RExpr, { k: "bin" }>): string {
    const numeric = isNum(e.l.t.name) && isNum(e.r.t.name);
    if (e.str) return this.strConcat(this.expr(e.l), this.expr(e.r));
    if (e.op === "/") {
      // Left to right, and the dividend always runs: it may hold a stateful call (ta.roc(...) / x).
      const a = this.temp(),
        d = this.temp();
      const quotient = e.intDiv ? `Math.trunc(${a} / ${d})` : `${a} / ${d}`;
      return `(${a} = ${this.expr(e.l)}, ${d} = ${this.expr(e.r)}, ${d} === 0 ? NaN : ${quotient})`;
    }
    const l = this.expr(e.l),
      r = this.expr(e.r);
    switch (e.op) {
      case "+":
      case "-":
      case "*":
      case "%":
      case "<":
      case "<=":
      case ">":
      case ">=":
        return `(${l} ${e.op} ${r})`;
      case "==": {
        if (numeric) return `(${l} === ${r})`;
        const a = this.temp(),
          b = this.temp();
        return `(${a} = ${l}, ${b} = ${r}, ${a} === ${b} && ${a} !== null)`;
      }
      case "!=": {
        const a = this.temp(),
          b = this.temp();
        if (numeric) return `(${a} = ${l}, ${b} = ${r}, ${a} !== ${b} && ${a} === ${a} && ${b} === ${b})`;
        return `(${a} = ${l}, ${b} = ${r}, ${a} !== ${b} && ${a} !== null && ${b} !== null)`;
      }
    }
    throw new NotCompilable(`operator ${e.op}`);
  }

  /** A builtin call; inside a loop, synced with the countdown unless written out inline or pure. */
  private call(e: Extract<RExpr, { k: "call" }>): string {
    const x = this.callSite(e);
    if (this.lastInline === e || e.def.pure) return x;
    this.budgetUses++;
    return this.synced(x);
  }

  private callSite(e: Extract<RExpr, { k: "call" }>): string {
    if (SECURITY_CALLS.has(e.name)) return this.security(e);
    const ta = this.taCall(e);
    if (ta !== null) return ta;
    const inline = this.inlineCall(e);
    if (inline !== null) {
      // plain arithmetic, no budget: set after the arguments (whose calls set it for themselves)
      this.lastInline = e;
      return inline;
    }
    const site = this.siteRequest(e);
    if (site !== null) return site;
    if (e.def.direct && !e.def.stateful && givenInOrder(e)) {
      // positional arguments, no argument array (BuiltinDef.direct); JavaScript evaluates them left
      // to right, which is the written order when the given ones were written in parameter order
      const d = this.ref(`direct:${e.def.name}`, { k: "direct", def: e.def });
      const array = this.arrayFastPath(e, `K${d}`);
      if (array !== null) return array;
      return `K${d}(ctx${e.args.map((a) => `, ${a ? this.expr(a) : "undefined"}`).join("")})`;
    }
    if (
      e.def.direct &&
      !e.def.stateful &&
      e.order !== undefined &&
      e.args.every((a, i) => a === undefined || e.order!.includes(i))
    ) {
      // named arguments out of parameter order (strategy.exit's `stop = s, limit = l`, placed on
      // every bar): the given ones evaluated into temps in the written order, as the argument
      // array is filled, then passed positionally (no argument array to fill and decode)
      const d = this.ref(`direct:${e.def.name}`, { k: "direct", def: e.def });
      const slots = e.args.map(() => "undefined");
      const pre: string[] = [];
      for (const i of e.order) {
        const a = e.args[i];
        if (a === undefined) continue;
        if (a.k === "const") slots[i] = this.expr(a);
        else {
          const t = this.temp();
          pre.push(`${t} = ${this.expr(a)}`);
          slots[i] = t;
        }
      }
      return `(${pre.join(", ")}${pre.length ? ", " : ""}K${d}(ctx${slots.map((x) => `, ${x}`).join("")}))`;
    }
    const general = this.generalCall(e);
    if (isInputCall(e.name) && inputArgsSkippable(e)) {
      // an input's value is fixed by its first call (the impl keeps it in site.state and returns it
      // from then on, as below); its arguments have no effect, so skipping them changes nothing
      const site = this.ref(`site${e.site}`, { k: "site", id: e.site });
      const st = this.temp();
      const source = e.name === "input" || e.name === "input.source";
      const known = source ? `(${st}.source ? ${st}.source(ctx) : ${st}.value)` : `${st}.value`;
      const read = `((${st} = K${site}.state) !== undefined ? ${known} : ${general})`;
      // a value input in the loop function: once known, kept in a local of the run for every later
      // bar (a site lookup per bar was 4 loads and a branch; the re-runnable variant's bar body is
      // also a closure, which would capture the local, so it keeps the lookup)
      if (source || this.nested > 0 || this.rerun) return read;
      const c = `I${this.runCache.length}`;
      this.runCache.push(c);
      return `(${c} !== undefined ? ${c} : ((${st} = K${site}.state) !== undefined ? (${c} = ${known}) : ${general}))`;
    }
    return general;
  }

  /**
   * A builtin with a per-site request (BuiltinDef.siteRequest, strategy.exit): the site's own object
   * holds the absent arguments' na defaults and the constant ones converted once; per bar only the
   * other given ones are written, in the written order, converted inline, then one small call.
   */
  private siteRequest(e: Extract<RExpr, { k: "call" }>): string | null {
    const sr = e.def.siteRequest;
    if (!sr || e.def.stateful) return null;
    // (the checker's written order lists every argument index)
    const order = e.order ?? e.args.map((_, i) => i);
    const init: [string, unknown][] = [];
    const writes: string[] = [];
    let varying = 0;
    // (its own ref, never shared: one object per call site)
    const R = `K${this.refs.length}`;
    this.refs.push({ k: "request", make: sr.make, init });
    for (const i of order) {
      const a = e.args[i];
      if (a === undefined) continue;
      const [field, conv] = sr.fields[i]!;
      const f = `${R}.${field}`;
      if (a.k === "const") {
        const v = a.v;
        init.push([
          field,
          conv === "num"
            ? typeof v === "number"
              ? v
              : NaN
            : conv === "str"
              ? typeof v === "string"
                ? v
                : null
              : conv === "bool"
                ? v === true
                : v,
        ]);
        continue;
      }
      varying |= 1 << i;
      const x = this.expr(a);
      if (conv === "raw") writes.push(`${f} = ${x}`);
      else if (conv === "bool") writes.push(`${f} = (${x}) === true`);
      else {
        const t = this.temp();
        const want = conv === "num" ? `"number"` : `"string"`;
        writes.push(`${t} = ${x}, ${f} = typeof ${t} === ${want} ? ${t} : ${conv === "num" ? "NaN" : "null"}`);
      }
    }
    init.push(["varying", varying]);
    const place = this.ref(`place:${e.def.name}`, { k: "value", v: sr.place });
    return `(${writes.join(", ")}${writes.length ? ", " : ""}K${place}(ctx, ${R}))`;
  }

  /** A ta.* call written out with its state in locals of the run (inline-ta.ts), or null. */
  private taCall(e: Extract<RExpr, { k: "call" }>): string | null {
    // (in a nested function too: a user function's instance or a block in an expression, which close
    // over the run's locals)
    if (this.once === null || !this.once.has(e.site)) return null;
    const it = inlineTa(e.name);
    // (one state per call site, should its code be written out more than once)
    let state = this.taState.get(e.site);
    if (!state) {
      state = it.init.map((v) => {
        const name = `X${this.runState.length}`;
        this.runState.push(`${name} = ${this.value(v)}`);
        return name;
      });
      this.taState.set(e.site, state);
    }
    if (this.nested > 0) for (const x of state) this.sharedState.add(x);
    const args = (e.args as RExpr[]).map((a) => this.expr(a));
    const temps = Array.from({ length: it.temps }, () => this.temp());
    const helper = it.helper ? `K${this.ref(`ta-helper:${e.name}`, { k: "value", v: it.helper })}` : "";
    return it.text(args, temps, state, `K${this.ref("intArg", { k: "value", v: intArg })}`, helper);
  }

  /**
   * color.new(c, transp) with both given as numbers (a colour, an int or float transparency): colorNew
   * and packColor (src/builtins/color/index.ts, core/values.ts) written out, the same operations in
   * the same order: na for an na colour, the colour itself for an na transparency, else its red, green
   * and blue bytes with alpha round(255 * (100 - t) / 100), t clamped to 0..100. (A call V8 leaves out
   * of line returns the packed colour boxed: it is past the small integers.)
   */
  private colorNew(e: Extract<RExpr, { k: "call" }>): string | null {
    const [c, t] = e.args;
    const numeric = (a: RExpr | undefined) => a !== undefined && ["color", "int", "float"].includes(a.t.name);
    if (e.args.length !== 2 || !numeric(c) || !numeric(t) || c!.t.name !== "color" || t!.t.name === "color")
      return null;
    const x = this.temp(),
      p = this.temp(),
      q = this.temp();
    const alpha = `Math.round((255 * (100 - ${q})) / 100)`;
    // packColor(colorR(x), colorG(x), colorB(x), alpha)
    const pack = `((((${x} >>> 24) & 255) << 24) | (((${x} >>> 16) & 255) << 16) | (((${x} >>> 8) & 255) << 8) | (${alpha} & 255)) >>> 0`;
    return `(${x} = ${this.expr(c!)}, ${p} = ${this.expr(t!)}, ${x} !== ${x} || ${x} == null ? NaN : ${p} == null || ${p} !== ${p} ? ${x} : (${q} = ${p} < 0 ? 0 : ${p} > 100 ? 100 : ${p}, ${pack}))`;
  }

  /**
   * Pure numeric builtins written out as JavaScript (every argument an int or float, in parameter
   * order): the same operations their impls do on the same numbers, without a call or an argument
   * array. Null for any other call.
   */
  private inlineCall(e: Extract<RExpr, { k: "call" }>): string | null {
    if (e.order !== undefined || e.args.length === 0) return null;
    if (e.name === "color.new" && e.def.name === "color.new") return this.colorNew(e);
    if (!e.args.every((a) => a !== undefined && (a.t.name === "int" || a.t.name === "float"))) return null;
    const args = e.args as RExpr[];
    const n = args.length;
    const unary = INLINE_UNARY[e.name];
    if (unary && n === 1) return `${unary}(${this.expr(args[0]!)})`;
    switch (e.name) {
      case "na": {
        if (n !== 1) return null;
        const t = this.temp();
        return `(${t} = ${this.expr(args[0]!)}, ${t} !== ${t})`;
      }
      case "nz": {
        const t = this.temp();
        if (n === 1) return `(${t} = ${this.expr(args[0]!)}, ${t} === ${t} ? ${t} : 0)`;
        if (n !== 2) return null;
        const r = this.temp();
        return `(${t} = ${this.expr(args[0]!)}, ${r} = ${this.expr(args[1]!)}, ${t} === ${t} ? ${t} : ${r})`;
      }
      case "math.sign": {
        if (n !== 1) return null;
        const t = this.temp();
        return `(${t} = ${this.expr(args[0]!)}, ${t} !== ${t} ? NaN : ${t} > 0 ? 1 : ${t} < 0 ? -1 : 0)`;
      }
      case "math.pow":
        return n === 2 ? `Math.pow(${this.expr(args[0]!)}, ${this.expr(args[1]!)})` : null;
      case "math.max":
      case "math.min": {
        // the impl: na if any argument is; else the first extreme in argument order (ties keep the earlier)
        const cmp = e.name === "math.max" ? ">" : "<";
        const r = this.temp();
        const parts = [`${r} = ${this.expr(args[0]!)}`];
        for (let i = 1; i < n; i++) {
          const v = this.temp();
          parts.push(`${v} = ${this.expr(args[i]!)}`);
          parts.push(`${r} = ${r} !== ${r} || ${v} !== ${v} ? NaN : ${v} ${cmp} ${r} ? ${v} : ${r}`);
        }
        return `(${parts.join(", ")}, ${r})`;
      }
      case "math.avg": {
        // math/avg.ts mathAvg, operation for operation: the arguments first (the impl gets them as an
        // array), two or fewer added plainly from 0, three or more by Kahan summation
        const xs = args.map((a) => {
          const t = this.temp();
          return [t, `${t} = ${this.expr(a)}`] as const;
        });
        const s = this.temp();
        const parts = [...xs.map((x) => x[1]), `${s} = 0`];
        if (n <= 2) {
          for (const [x] of xs) parts.push(`${s} += ${x}`);
          return `(${parts.join(", ")}, ${s} / ${n})`;
        }
        const c = this.temp(),
          y = this.temp(),
          t = this.temp();
        parts.push(`${c} = 0`);
        for (const [x] of xs)
          parts.push(`${y} = ${x} - ${c}, ${t} = ${s} + ${y}, ${c} = ${t} - ${s} - ${y}, ${s} = ${t}`);
        return `(${parts.join(", ")}, (${s} - ${c}) / ${n})`;
      }
      default:
        return null;
    }
  }

  /**
   * array.size/push/pop/shift on a plain array (not a slice, not na) written out: the element
   * operation itself, where V8 keeps a double element a raw double (a call to the builtin boxes the
   * pushed or returned number). Every other case (na, a slice, an empty array, growth past the size
   * limit) calls the builtin, which raises the same errors as in the interpreter. The arguments are
   * evaluated first, left to right, as for the call.
   */
  private arrayFastPath(e: Extract<RExpr, { k: "call" }>, fn: string): string | null {
    const n = e.args.length;
    if (!e.args.every((x) => x !== undefined)) return null;
    const args = e.args as RExpr[];
    const a = this.temp();
    const plain = `${a} !== null && ${a}.constructor === PineArray`;
    switch (e.name) {
      case "array.size":
        if (n !== 1) return null;
        return `(${a} = ${this.expr(args[0]!)}, ${plain} ? ${a}.values.length : ${fn}(ctx, ${a}))`;
      case "array.pop":
      case "array.shift": {
        if (n !== 1) return null;
        const op = e.name === "array.pop" ? "pop" : "shift";
        return `(${a} = ${this.expr(args[0]!)}, ${plain} && ${a}.values.length > 0 ? ${a}.values.${op}() : ${fn}(ctx, ${a}))`;
      }
      case "array.push": {
        if (n !== 2) return null;
        const v = this.temp();
        return `(${a} = ${this.expr(args[0]!)}, ${v} = ${this.expr(args[1]!)}, ${plain} && ${a}.values.length < ${MAX_ARRAY_SIZE} ? void ${a}.values.push(${v}) : ${fn}(ctx, ${a}, ${v}))`;
      }
      default:
        return null;
    }
  }

  /** A builtin call through its impl, with this site's argument array. */
  /**
   * request.security / security_lower_tf: the interpreter's site (src/interpret/security.ts
   * securitySite, a ref made per run) takes the arguments, runs the secondary run of the program in
   * the requested context (this program's secondary variant, see generate; in a secondary run the ref
   * is a site that records its own context's value) and maps its values onto this bar. Arguments it reads
   * only sometimes, or whose evaluation may have effects (stateful calls, errors), are passed as
   * functions evaluated where the interpreter evaluates them: the expression only in the chart's own
   * context. The expression is a nested function defined once (thunkFunction). Constant arguments are
   * passed as values, and so are plain reads (plainRead): evaluated early or when the site would not
   * read them, they have no effect and raise nothing. (A function made on every bar for each argument
   * cost compile mode more than the interpreter's closures, made once: a screener of four requests
   * ran slower compiled than interpreted.)
   */
  private security(e: Extract<RExpr, { k: "call" }>): string {
    if (!e.args[2]) throw new NotCompilable(`'${e.name}' without its expression`);
    const r = this.ref(`security${e.site}:${this.refs.length}`, { k: "security", call: e });
    // SecurityCall's order: symbol, timeframe, expression, gaps, lookahead, ignore_invalid_timeframe, currency, calc_bars_count
    const order = e.name === "request.security_lower_tf" ? [0, 1, 2, -1, -1, 5, 4, 6] : [0, 1, 2, 3, 4, -1, 6, 7];
    const parts = order.map((i, j) => {
      const a = i >= 0 ? e.args[i] : undefined;
      if (!a) return "undefined";
      if (j === 2) return this.thunkFunction(a);
      return constantArg(a) || plainRead(a) ? this.expr(a) : `() => (${this.expr(a)})`;
    });
    return `K${r}(${parts.join(", ")})`;
  }

  private generalCall(e: Extract<RExpr, { k: "call" }>): string {
    const impl = this.ref(`impl:${e.def.name}:${this.refs.length}`, { k: "impl", def: e.def });
    const site = this.ref(`site${e.site}`, { k: "site", id: e.site });
    const n = e.args.length;
    const numeric = n > 0 && e.args.every((a) => a !== undefined && (a.t.name === "int" || a.t.name === "float"));
    const args = this.ref(`args${this.refs.length}`, { k: "args", n, numeric });
    const A = `K${args}`;
    // which argument slots the interpreter writes on each call (undefined ones too, past 1 argument)
    const general = n > 3 || (n >= 2 && e.args.some((a) => a === undefined)) || e.order !== undefined;
    const out = outputCells(e);
    // an output call's cell and colour arguments, evaluated into temps in the order written
    const temps = new Map<number, string>();
    if (out) for (const i of [out.cell, out.color]) if (i >= 0 && e.args[i]) temps.set(i, this.temp());
    const parts: string[] = [];
    // named arguments written out of parameter order are evaluated as written (e.order)
    for (const i of e.order ?? e.args.keys()) {
      const a = e.args[i];
      if (a) parts.push(`${A}[${i}] = ${temps.get(i) ?? this.expr(a)}`);
      else if (general) parts.push(`${A}[${i}] = undefined`);
    }
    parts.push(`K${impl}(ctx, ${A}, K${site})`);
    if (!out) return `(${parts.join(", ")})`;
    // An output call (plot, hline, plotshape, bgcolor, fill, ...) whose other arguments are constants
    // or variables: after the first call registered the output (its meta from those arguments, which
    // later calls never read), a bar's call only writes its cell and colour, as the impl's own hot
    // path does; no argument array (a double stored next to the title string would be boxed on every
    // bar) and no call through the generic impl.
    const evals = (e.order ?? [...e.args.keys()])
      .filter((i) => temps.has(i))
      .map((i) => `${temps.get(i)} = ${this.expr(e.args[i]!)}, `)
      .join("");
    const B = this.nested > 0 ? "ctx.barIndex" : "b_bar";
    const x = temps.get(out.cell) ?? "undefined";
    const cell =
      out.kind === "number"
        ? x
        : out.kind === "flag"
          ? `(${x} === true || (typeof ${x} === "number" && ${x} === ${x} && ${x} !== 0) ? 1 : NaN)`
          : `(typeof ${x} === "number" ? ${x} : NaN)`;
    const y = temps.get(out.color);
    // the colour track's write (ColorTrack.set) written out: its column once it has one, nothing while
    // the colour is the first one, the call only on the bar that makes the column (a double passed to
    // a call V8 does not inline is boxed, and a packed colour is past the small integers)
    const ct = y === undefined ? "" : this.temp();
    const track = (t: string) =>
      `${ct} = typeof ${y} === "number" ? ${y} : NaN, ${t}.col !== null ? (${t}.col[${B}] = ${ct}) : ${ct} !== ${t}.first && (${ct} === ${ct} || ${t}.first === ${t}.first) ? ${t}.set(${ct}, ${B}) : 0, `;
    const write = (col: string, t: string, ix: string) =>
      `${col}[${B}] = ${cell}, ${y === undefined ? "" : track(t)}${out.index ? ix : "undefined"}`;
    const o = this.temp();
    if (this.nested > 0 || this.rerun)
      return `(${evals}(${o} = K${site}.state) !== undefined ? (${write(`${o}.col`, `${o}.color`, `${o}.meta.index`)}) : (${parts.join(", ")}))`;
    // in the loop function: the column, the colour track and the output's index kept in locals of
    // the run once known (an output is made once per run), as inputs are (see call())
    const c = `P${this.runCache.length}`;
    const ix = `${c}i`;
    const t = `${c}c`;
    this.runCache.push(c, ix);
    if (y !== undefined) this.runCache.push(t);
    const keep = `${c} = ${o}.col, ${ix} = ${o}.meta.index, ${y === undefined ? "" : `${t} = ${o}.color, `}`;
    return `(${evals}${c} !== undefined ? (${write(c, t, ix)}) : (${o} = K${site}.state) !== undefined ? (${keep}${write(c, t, ix)}) : (${parts.join(", ")}))`;
  }
}

// ------------------------------------------------------------------ shared helpers

/**
 * The re-runnable variant's `R.rerun`: one more execution of the bar whose values the Runtime put in
 * ctx (a fill re-run: the bar so far as its high/low/close; a realtime tick: the tick's prices and
 * volume on a bar the Runtime opened), whose state it rolls back afterwards. A second copy of the bar
 * body with its own bar values, line and locals: the locals start from the state array (the loop
 * stored its own there) and go back to it, so the rollback covers them, and the loop's own locals
 * are never captured by a closure (they stay in registers).
 */
function rerunTick(body: string, locals: number[], home: (slot: number) => string): string[] {
  return [
    `  R.rerun = { run: () => {`,
    `    let L = 0;`,
    `    let b_bar = ctx.barIndex, b_time = ctx.time, b_open = ctx.open, b_high = ctx.high, b_low = ctx.low, b_close = ctx.close, b_volume = ctx.volume;`,
    locals.length ? `    let ${locals.map((s) => `s${s} = ${home(s)}`).join(", ")};` : "",
    `    try {`,
    body,
    `    } catch (e) { throw atLine(e, L); }`,
    locals.length ? `    ${locals.map((s) => `${home(s)} = s${s};`).join(" ")}` : "",
    `  } };`,
  ];
}

/**
 * What the loop function (and the nested functions' scope) takes from R, in order: the loop
 * function's prologue declares each line's names in one `const`.
 */
const RUN_OBJECT_LINES = [
  [
    "ctx = R.ctx",
    "N = R.nums",
    "V = R.vals",
    "O = R.once",
    "B = R.budget",
    "atLine = R.atLine",
    "historyOffsetMessage = R.historyOffsetMessage",
  ],
  ["PineArray = R.PineArray", "PineMatrix = R.PineMatrix", "PineMap = R.PineMap", "PineObject = R.PineObject"],
  [
    "cT = ctx.columns.time",
    "cO = ctx.columns.open",
    "cH = ctx.columns.high",
    "cL = ctx.columns.low",
    "cC = ctx.columns.close",
    "cV = ctx.columns.volume",
  ],
  // the Runtime's scheduled bar closes (session-aware), the same ones the interpreter uses
  ["closeTimes = ctx.ext.timeCloseColumn"],
];
const RUN_OBJECTS = RUN_OBJECT_LINES.flat();

/** The name a declaration `name = value` declares. */
function declaredName(decl: string): string {
  return decl.slice(0, decl.indexOf(" = "));
}

/** One-argument math builtins whose impl is exactly this JavaScript function of a number. */
const INLINE_UNARY: Record<string, string> = {
  "math.abs": "Math.abs",
  "math.acos": "Math.acos",
  "math.asin": "Math.asin",
  "math.atan": "Math.atan",
  "math.ceil": "Math.ceil",
  "math.cos": "Math.cos",
  "math.exp": "Math.exp",
  "math.floor": "Math.floor",
  "math.log": "Math.log",
  "math.log10": "Math.log10",
  "math.sin": "Math.sin",
  "math.sqrt": "Math.sqrt",
  "math.tan": "Math.tan",
};

/**
 * An expression that only reads (a variable, a builtin variable without per-site state, a constant,
 * and comparisons, numeric arithmetic, `not`/`-`, conditionals of those): it has no effect and cannot
 * raise a runtime error (string `+` can: the length limit), so when it is evaluated makes no difference.
 */
function plainRead(e: RExpr): boolean {
  switch (e.k) {
    case "const":
    case "load":
      return true;
    case "bvar":
      return e.def.stateful !== true;
    case "unary":
      return plainRead(e.e);
    case "tern":
      return plainRead(e.c) && plainRead(e.a) && plainRead(e.b);
    case "bin":
      return (
        (COMPARISONS.has(e.op) || (isNumeric(e.l.t.name) && isNumeric(e.r.t.name))) && plainRead(e.l) && plainRead(e.r)
      );
    default:
      return false;
  }
}

const COMPARISONS = new Set(["==", "!=", "<", ">", "<=", ">="]);

// Markers of a loop region's countdown in its code (Codegen.countdown), settled by settle().
const CD = "\u0001",
  ENTER = "\u0002",
  LEAVE = "\u0003",
  TICK = "\u0004";

/**
 * A loop region's code with its countdown markers written out: in the local `t` (taken from B.left at
 * the outermost loop's entry, written back at its exit), or with `field`, in B.left itself.
 */
function settle(code: string, t: string, field: boolean): string {
  const x = field ? "B.left" : t;
  const mark = (m: string) => new RegExp(`${m}${t.replace("$", "\\$")}${m}`, "g");
  return code
    .replace(mark(CD), x)
    .replace(mark(ENTER), field ? "" : ` ${t} = B.left;`)
    .replace(mark(LEAVE), field ? "" : ` B.left = ${t};`)
    .replace(
      mark(TICK),
      field ? "if (--B.left <= 0) B.check();" : `if (--${t} <= 0) { B.left = ${t}; B.check(); ${t} = B.left; }`,
    );
}

/** A numeric constant's value (na included, as NaN), or null. */
function constNumber(e: RExpr): number | null {
  return e.k === "const" && typeof e.v === "number" ? e.v : null;
}

const ARITH_OPS = new Set(["+", "-", "*", "/", "%"]);

/** Whether evaluating `e` may call something (a builtin, a user function, a nested block function). */
function mayCall(e: RExpr): boolean {
  if (e.k === "call" || e.k === "ucall" || isStructured(e)) return true;
  return (
    eachChild(
      e,
      (x) => mayCall(x) || undefined,
      () => true,
    ) === true
  );
}

function isStructured(e: RExpr): boolean {
  return e.k === "if" || e.k === "switch" || e.k === "for" || e.k === "while" || e.k === "forin";
}

function isNum(n: string): boolean {
  return n === "int" || n === "float" || n === "na";
}

export function isNumericSlot(s: VarSlot): boolean {
  const n = s.type.name;
  return n === "int" || n === "float" || n === "color";
}
