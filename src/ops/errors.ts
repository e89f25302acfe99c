// resinctl errors and exit codes (ops-cli.md): 0 ok, 1 error, 2 usage, 3 infrastructure
// unavailable, 4 command failed.

export const EXIT = { OK: 0, ERROR: 1, USAGE: 2, INFRA: 3, FAILED: 4 } as const;

export class CtlError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint?: string;
  readonly suggestions?: string[];

  constructor(code: string, message: string, opts: { exit?: number; hint?: string; suggestions?: string[] } = {}) {
    super(message);
    this.code = code;
    this.exitCode = opts.exit ?? EXIT.ERROR;
    if (opts.hint !== undefined) this.hint = opts.hint;
    if (opts.suggestions !== undefined) this.suggestions = opts.suggestions;
  }
}

export const usageError = (message: string, hint?: string, suggestions?: string[]) =>
  new CtlError("USAGE", message, {
    exit: EXIT.USAGE,
    ...(hint ? { hint } : {}),
    ...(suggestions ? { suggestions } : {}),
  });
