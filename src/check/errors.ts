// Check errors: a message with the source span it is about.
import type { Diagnostic, Span, Stmt } from "../lang/ast.js";

export class CheckError extends Error {
  constructor(
    message: string,
    readonly span: Span | undefined,
  ) {
    super(message);
    this.name = "CheckError";
  }

  toDiagnostic(): Diagnostic {
    const s = this.span;
    return {
      severity: "error",
      message: this.message,
      line: s?.line ?? 1,
      column: s?.column ?? 1,
      end_line: s?.endLine ?? s?.line ?? 1,
      end_column: s?.endColumn ?? s?.column ?? 1,
    };
  }
}

/**
 * Thrown where a check would fail only because of an earlier error (a name whose declaration failed, a
 * block with an error in it): the statement it reaches is dropped silently, so one mistake is reported
 * once and not again at every use (the checker's recovery, `Checker.recover`).
 */
export class Poisoned extends Error {
  constructor() {
    super("depends on an earlier error");
    this.name = "Poisoned";
  }
}

/** Names a statement declares (variables, tuple names, functions, types, enums): poisoned when it fails. */
export function declaredNames(s: Stmt): string[] {
  switch (s.kind) {
    case "VarDecl":
      return [s.name.name];
    case "TupleDecl":
      return s.names.map((n) => n.name);
    case "FuncDecl":
    case "TypeDecl":
    case "EnumDecl":
      return [s.name.name];
    case "Import":
      return [s.alias?.name ?? s.name];
    default:
      return [];
  }
}
