// The compile backend's generated bar loop as an ES module (issue 24): what a deploy bundles into a
// worker whose host forbids `new Function` (workerd). The module's `factory` has the generated text
// as its body, word for word, so calling it gives the function `new Function(text)()` would give
// (the text starts with "use strict", and a module is strict anyway); aot.ts installs it under the
// text's hash.
//
// Both variants are emitted, hoisted (whole-series WASM passes before the loop, the usual case where
// kernels.wasm is loaded) and plain, when their texts differ, and for a strategy declared with
// calc_on_order_fills = true the fills variant (a re-runnable bar body) as well, and for a program
// with request.security sites the secondary variant its secondary runs execute: the host picks the
// one its own generator asks for. The inputs' values and shape do not enter the generated text (every
// run-specific value reaches the loop through `K`/`R`), so one module serves every input set.

import type { ResolvedProgram } from "../check/ir.js";
import { sha256Hex } from "../core/sha256.js";
import { generate, NotCompilable } from "./codegen.js";

export interface EmittedModule {
  /** SHA-256 (hex) of the generated text: the key aot.ts installs the factory under. */
  hash: string;
  hoist: boolean;
  /** The calc_on_order_fills variant (codegen.ts `generate`). */
  fills: boolean;
  /** The variant request.security's secondary runs execute (codegen.ts `generate`). */
  secondary: boolean;
  /** The ES module's source. */
  code: string;
}

export interface EmitMeta {
  /** The registered script's id. */
  script: string;
  /** SHA-256 of the script's source. */
  sourceHash: string;
  /** The deploy's label (version, time): written into the module for diagnostics. */
  deploy: string;
}

/**
 * The modules of one checked program, or a NotCompilable with the generator's reason (the script
 * then interprets on the host, as it would in Node).
 */
export function emitCompiledModules(prog: ResolvedProgram, meta: EmitMeta): EmittedModule[] {
  if (!prog.compileEligible) throw new NotCompilable(prog.compileReason ?? "the script is not compile-eligible");
  const out: EmittedModule[] = [];
  const declaredFills = prog.declaration.kind === "strategy" && prog.declaration.args.calc_on_order_fills === true;
  const emit = (hoist: boolean, fills: boolean, secondary: boolean) => {
    const { text, refs } = generate(prog, hoist, fills, secondary);
    const hash = sha256Hex(text);
    if (!out.some((m) => m.hash === hash))
      out.push({ hash, hoist, fills, secondary, code: moduleCode(text, hash, hoist, meta) });
    return refs;
  };
  emit(true, false, false);
  const refs = emit(false, false, false);
  // (a run can turn the setting off through its broker options: the other variants stay)
  if (declaredFills) emit(false, true, false);
  // (request sites: their secondary runs execute the secondary variant)
  if (refs.some((r) => r.k === "security")) emit(false, false, true);
  return out;
}

function moduleCode(text: string, hash: string, hoist: boolean, meta: EmitMeta): string {
  return [
    `// resin: the compiled bar loop of script ${JSON.stringify(meta.script)} (generated; do not edit).`,
    `export const hash = ${JSON.stringify(hash)};`,
    `export const script = ${JSON.stringify(meta.script)};`,
    `export const sourceHash = ${JSON.stringify(meta.sourceHash)};`,
    `export const hoist = ${hoist};`,
    `export const deploy = ${JSON.stringify(meta.deploy)};`,
    "export function factory() {",
    text,
    "}",
    "",
  ].join("\n");
}
