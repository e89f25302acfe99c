// Interpreter code of its own for each program (issue 18), where the host can give it.
//
// V8 keeps one type feedback for all the closures made from one function literal, in every program of
// the process, and the per-bar call sites inside them (an operator's operands, a driver's statements)
// see every program's closures. Once a process has interpreted a few dozen scripts those sites are
// megamorphic and V8 stops inlining through them: regime_window's interpreted run went from 15.1 ms
// alone to 33-36 after 30 other scripts (docs/benchmarks.md, issue 18 session 32), and interpret fell
// past 3x compile on 8 of 37 scripts, where each alone stays under it. compiler.ts already spreads
// programs over static copies of its drivers and fused operators (copyBaseOf); that cannot cover the
// closures compiler.ts makes itself.
//
// So a program that runs again and again takes a copy of the closure-making modules: the text that
// scripts/bundle-interpreter.mjs bundles at build time (dist/interpret/copy.cjs, dist/bundle/copy.cjs),
// evaluated once per copy with `new Function`, which gives every function in it a new identity and
// feedback of its own. What the copy imports is answered from COPY_DEPS, the modules this process
// already loaded, so a copy shares every class (values, errors, run state) and table with the rest of
// the engine. The copy's text is read from beside this module's file: in Node (library, CLI, pool
// threads). Where there is no such file or no file system (browsers, workerd, the tests running from
// src/) every program takes this module's Compiler, as before.
//
// A program's first runs (COPY_AFTER_RUNS) take this module's Compiler all the same: its code is
// compiled and warm already, where a copy's is cold (a new program's first two 5k-bar runs took ~10
// ms more in a copy: its making, ~5 ms, and compiling what runs). A script run once or twice (a
// request, `resin run`) never pays for a copy; one run on and on (a benchmark, an optimize study, a
// chart re-running on each edit of its inputs) does, once. Up to MAX_COPIES copies; later programs
// take them in turn, still fewer programs to a copy (16: a harness timing 37 scripts in one process
// had none over 3x with 16, three with 8). Their cost is bounded: a process that ran 240 scripts three
// times each held ~32 MB more heap with the 16 copies than without.

import * as arrayBuiltins from "../builtins/array/index.js";
import * as colorBuiltins from "../builtins/color/index.js";
import * as plotStore from "../builtins/plot/store.js";
import * as strLimit from "../builtins/str/limit.js";
import * as taCommon from "../builtins/ta/common.js";
import * as historyLimits from "../check/history-limits.js";
import * as hoistPlan from "../check/hoist-plan.js";
import * as onceSites from "../check/once-sites.js";
import * as checkTypes from "../check/types.js";
import * as checkWalk from "../check/walk.js";
import * as budget from "../core/budget.js";
import * as values from "../core/values.js";
import { Compiler } from "./compiler.js";
import * as errors from "./errors.js";
import * as hoisting from "./hoisting.js";
import * as security from "./security.js";
import * as state from "./state.js";

/** The modules a copy imports, by the specifier its modules write (they all sit in this folder). */
export const COPY_DEPS: Readonly<Record<string, unknown>> = {
  "../builtins/array/index.js": arrayBuiltins,
  "../builtins/color/index.js": colorBuiltins,
  "../builtins/plot/store.js": plotStore,
  "../builtins/str/limit.js": strLimit,
  "../builtins/ta/common.js": taCommon,
  "../check/history-limits.js": historyLimits,
  "../check/hoist-plan.js": hoistPlan,
  "../check/once-sites.js": onceSites,
  "../check/types.js": checkTypes,
  "../check/walk.js": checkWalk,
  "../core/budget.js": budget,
  "../core/values.js": values,
  "./errors.js": errors,
  "./hoisting.js": hoisting,
  "./security.js": security,
  "./state.js": state,
};

export type CompilerClass = typeof Compiler;

/** Copies made at most: programs past that many take them in turn. */
export const MAX_COPIES = 16;

/** The runs a program makes with this module's Compiler before it takes a copy. */
export const COPY_AFTER_RUNS = 2;

/** The copy file's name beside this module (a variable: bundlers would take a literal for an asset). */
const COPY_FILE = "./copy.cjs";

let copyText: string | null = null;
let loading: Promise<void> | null = null;
let settled = false;
const copies: CompilerClass[] = [];
let nextCopy = 0;
/** A program's copy, or how many runs it made with this module's Compiler so far. */
const programs = new WeakMap<object, CompilerClass | number>();

/**
 * The interpreter class for `program`'s run (the resolved program, one object per cached source):
 * this module's Compiler for its first COPY_AFTER_RUNS runs, then the next copy in turn, made when
 * first taken. Fixed from then on: its kept closures (memo.ts) belong to the copy that made them.
 * (Copies are never dropped and made anew for later programs: V8 keeps what `new Function` compiled,
 * and dropped copies held ~0.2-0.8 MB each, without bound over a long-lived process.)
 */
export function compilerFor(program: object): CompilerClass {
  const known = programs.get(program);
  if (typeof known === "function") return known;
  const runs = known ?? 0;
  if (runs < COPY_AFTER_RUNS || copyText === null) {
    programs.set(program, runs + 1);
    return Compiler;
  }
  let c = copies[nextCopy];
  if (c === undefined) {
    try {
      c = evaluateCopy(copyText, nextCopy + 1);
    } catch {
      // a copy that cannot be made (a damaged file, a host refusing `new Function`): none from now on
      copyText = null;
      programs.set(program, runs + 1);
      return Compiler;
    }
    copies.push(c);
  }
  nextCopy = (nextCopy + 1) % MAX_COPIES;
  programs.set(program, c);
  return c;
}

/** How many copies this process has made (tests, benchmarks). */
export function interpreterCopies(): number {
  return copies.length;
}

/**
 * Copy `n`: the bundled text run as a CommonJS module whose `require` answers from COPY_DEPS (named
 * resin-interpreter-copy-n.js in stack traces and profiles).
 */
export function evaluateCopy(text: string, n: number): CompilerClass {
  const module = { exports: {} as { Compiler?: CompilerClass } };
  const require = (specifier: string): unknown => {
    const m = COPY_DEPS[specifier];
    if (m === undefined) throw new Error(`interpreter copy: no module for "${specifier}" (COPY_DEPS)`);
    return m;
  };
  new Function("require", "module", "exports", `${text}\n//# sourceURL=resin-interpreter-copy-${n}.js`)(
    require,
    module,
    module.exports,
  );
  const c = module.exports.Compiler;
  if (typeof c !== "function") throw new Error("interpreter copy: the text exports no Compiler");
  return c;
}

/**
 * Reads the copy text once per process (Runtime.run awaits it with the kernels). Nothing to read, or
 * no file system: every program keeps this module's Compiler. `text` sets it instead (tests).
 */
export function loadInterpreterCopies(text?: string): Promise<void> {
  if (text !== undefined) {
    copyText = text;
    settled = true;
    loading = Promise.resolve();
  }
  loading ??= readCopyText().then((t) => {
    copyText = t;
    settled = true;
  });
  return loading;
}

/** Whether loadInterpreterCopies has finished (a run then need not await it). */
export function interpreterCopiesSettled(): boolean {
  return settled;
}

async function readCopyText(): Promise<string | null> {
  try {
    const url = new URL(COPY_FILE, import.meta.url);
    const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
    if (url.protocol !== "file:" || !proc?.versions?.node) return null;
    // Imported lazily so that browser bundles never touch node:fs (as kernels/index.ts does).
    const fs = await import(/* @vite-ignore */ "node:fs/promises");
    return await fs.readFile(url, "utf8");
  } catch {
    return null;
  }
}
