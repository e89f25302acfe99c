// Ahead-of-time compiled bar loops (issue 24): hosts that forbid code generation from strings
// (workerd) cannot turn the generated text into a function with `new Function`, so the deploy emits
// that text as an ES module (src/compile/emit-module.ts) bundled into the worker, and the worker
// installs the modules' factories here before any run. The compile backend (index.ts) asks this
// registry first.
//
// Why the key is the SHA-256 of the generated text and not the script id: the text is what the
// factory runs, and it is generated again in the host for every run (the refs `K` come with it),
// so a module matches exactly when the host's own generator would produce the very same function.
// A script changed after the deploy, an edited codegen, a different hoist variant: all miss and the
// run interprets with the reason, never a stale loop over the wrong refs.

import { sha256Hex } from "../core/sha256.js";

/** The body `new Function(text)` would run: returns the bar-loop function. */
export type LoopFactory = () => unknown;

/** What an emitted module exports (emit-module.ts writes exactly these names). */
export interface CompiledModule {
  /** SHA-256 (hex) of the generated text the factory's body is. */
  hash: string;
  factory: LoopFactory;
  /** The registered script's id and its source's SHA-256 (diagnostics only). */
  script?: string;
  sourceHash?: string;
  /** Whether the text is the hoisted variant (whole-series passes before the loop). */
  hoist?: boolean;
  /** The deploy this module was built for (diagnostics only). */
  deploy?: string;
}

const installed = new Map<string, CompiledModule>();
/** The sources the installed modules were built from (two scripts may share one loop text). */
const sources = new Set<string>();
const hashOf = new WeakMap<object, string>();

/** Installs precompiled modules (the worker entry calls it once, with every module of its bundle). */
export function installCompiled(modules: readonly CompiledModule[]): void {
  for (const m of modules) {
    if (typeof m?.hash !== "string" || typeof m.factory !== "function")
      throw new Error("internal: an ahead-of-time compiled module without hash/factory");
    installed.set(m.hash, m);
    if (typeof m.sourceHash === "string") sources.add(m.sourceHash);
  }
}

/** Forgets every installed module (tests). */
export function clearCompiled(): void {
  installed.clear();
  sources.clear();
}

/** Whether a module of this deploy was built from the source with this SHA-256 (the registry's `aot` flag). */
export function compiledFromSource(sourceHash: string): boolean {
  return sources.has(sourceHash);
}

/** The installed modules (diagnostics, tests). */
export function compiledModules(): CompiledModule[] {
  return [...installed.values()];
}

/**
 * The precompiled factory whose text is `text` (`owner` is the object the text belongs to, so its
 * hash is computed once per generated program), or undefined. Free when nothing is installed (Node).
 */
export function precompiledFactory(owner: object, text: string): LoopFactory | undefined {
  if (installed.size === 0) return undefined;
  let h = hashOf.get(owner);
  if (h === undefined) {
    h = sha256Hex(text);
    hashOf.set(owner, h);
  }
  return installed.get(h)?.factory;
}

/** The reason a run interprets in a host without `new Function` when no module matched. */
export const NO_AOT_MODULE =
  "code generation from strings (new Function) is not allowed in this host, and no ahead-of-time compiled " +
  "module in this deploy matches the script (a script registered or changed after the deploy interprets " +
  "until the worker is deployed again: resinctl deploy worker <name>, or resinctl script scripts deploy --aot)";

/**
 * The same for a run that needs the re-runnable loop (realtime ticks, calc_on_order_fills): a deploy
 * emits that variant only for strategies declaring calc_on_order_fills = true (emit-module.ts).
 */
export const NO_AOT_RERUN_MODULE =
  "code generation from strings (new Function) is not allowed in this host, and no ahead-of-time compiled " +
  "module in this deploy matches the script's re-runnable loop, which realtime options and calc_on_order_fills " +
  "need (a deploy emits it only for strategies declared with calc_on_order_fills = true)";
