// Check errors: a message with the source span it is about.
import type { Diagnostic, Span } from "../lang/ast.js";

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
