// The checker's entry: Program -> ResolvedProgram (or the first check error as a diagnostic).
import type { Diagnostic, Program } from "../lang/ast.js";
import { Checker, type Registry } from "./checker.js";
import type { LibrarySource } from "../core/result.js";
import { CheckError } from "./errors.js";
import type { ResolvedProgram } from "./ir.js";
import { compileEligibility } from "./eligibility.js";
import { checkPlotCount } from "./plot-count.js";

export { CheckError } from "./errors.js";
export { DEFAULT_MAX_BARS_BACK, type Registry } from "./checker.js";
export type * from "./ir.js";
export * from "./types.js";

export interface CheckResult {
  program?: ResolvedProgram;
  diagnostics: Diagnostic[];
}

export function check(ast: Program, registry: Registry, libraries: LibrarySource[] = []): CheckResult {
  try {
    const program = new Checker(ast, registry, libraries).run();
    checkPlotCount(program, ast);
    // history rings: one per variable read with [] (numbered after checking, when depths are known)
    let h = 0;
    for (const v of program.slots) if (v.histDepth > 0) v.hist = h++;
    const reason = program.compileReason ?? compileEligibility(program);
    program.compileEligible = reason === undefined;
    program.compileReason = reason;
    return { program, diagnostics: [] };
  } catch (err) {
    if (err instanceof CheckError) return { diagnostics: [err.toDiagnostic()] };
    // the parser bounds nesting (src/lang/parser.ts), but a host with a small stack may still overflow
    if (err instanceof RangeError && /call stack/i.test(err.message))
      return {
        diagnostics: [
          new CheckError(
            "The script is nested too deeply to check: split deep expressions into variables",
            ast.span,
          ).toDiagnostic(),
        ],
      };
    throw err;
  }
}
