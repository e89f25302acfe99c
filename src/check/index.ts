// The checker's entry: Program -> ResolvedProgram, or every independent check error as diagnostics.
import type { Diagnostic, Program } from "../lang/ast.js";
import { Checker, type Registry } from "./checker.js";
import type { LibrarySource } from "../core/result.js";
import { CheckError } from "./errors.js";
import type { ResolvedProgram } from "./ir.js";
import { compileEligibility } from "./eligibility.js";
import { checkPlotCount } from "./plot-count.js";
import { propagateConstVars } from "./const-vars.js";
import type { PType } from "./types.js";

export { CheckError } from "./errors.js";
export { DEFAULT_MAX_BARS_BACK, type Registry } from "./checker.js";
export type * from "./ir.js";
export * from "./types.js";

export interface CheckResult {
  program?: ResolvedProgram;
  diagnostics: Diagnostic[];
  /** The inferred type of each declared name, by its source offset (see `Checker.declaredTypes`). */
  declaredTypes?: Map<number, PType>;
}

/**
 * Checks a parsed program. The checker recovers per statement, so a script with several independent
 * errors gets all of them (in source order); the program is given only when there is none.
 */
export interface CheckOptions {
  /**
   * Only the diagnostics (and declared types) are wanted, not a program to run (an editor checking on
   * each change): skips the passes after checking that report nothing (history-ring numbering,
   * compile eligibility), and returns no program.
   */
  diagnosticsOnly?: boolean;
}

export function check(
  ast: Program,
  registry: Registry,
  libraries: LibrarySource[] = [],
  options: CheckOptions = {},
): CheckResult {
  const checker = new Checker(ast, registry, libraries);
  try {
    const program = checker.run();
    checkPlotCount(program, ast);
    // (no half-finished program handed out: its history rings are not numbered yet)
    // warnings only where diagnostics are all that is wanted (an editor, `resin check`): a run's and the
    // generator's callers read any diagnostic as a failure
    if (options.diagnosticsOnly) return { diagnostics: [...checker.warnings], declaredTypes: checker.declaredTypes };
    // variables declared from a constant and never written again: their reads are that constant
    propagateConstVars(program);
    // history rings: one per variable read with [] (numbered after checking, when depths are known)
    let h = 0;
    for (const v of program.slots) if (v.histDepth > 0) v.hist = h++;
    const reason = program.compileReason ?? compileEligibility(program);
    program.compileEligible = reason === undefined;
    program.compileReason = reason;
    return { program, diagnostics: [], declaredTypes: checker.declaredTypes };
  } catch (err) {
    if (err instanceof CheckError) {
      const all = checker.errors.length ? checker.errors : [err];
      const diagnostics = all.map((x) => x.toDiagnostic());
      diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
      return { diagnostics, declaredTypes: checker.declaredTypes };
    }
    // the parser bounds nesting (src/lang/parser.ts), but a host with a small stack may still overflow
    if (err instanceof RangeError && /call stack/i.test(err.message))
      return {
        diagnostics: [
          new CheckError(
            "The script is nested too deeply to check: split deep expressions into variables",
            ast.span,
          ).toDiagnostic(),
        ],
        declaredTypes: checker.declaredTypes,
      };
    throw err;
  }
}
