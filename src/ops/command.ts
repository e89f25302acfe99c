// The shape of a resinctl command (ops-cli.md's table): a leaf with its handler, arguments and
// options, or a group of subcommands. Each command group lives in its own module under commands/
// and exports its entries; tree.ts assembles them in the spec's order.

import type { CmdResult, Ctx, Inv } from "./context.js";
import { CtlError, EXIT } from "./errors.js";

export type Handler = (ctx: Ctx, inv: Inv) => Promise<CmdResult>;

/** An option as commander declares it: flags ("--port <N>"), description, and "int" for a non-negative integer. */
export type OptSpec = [flags: string, description: string, kind?: "int"];

export interface Cmd {
  summary: string;
  /** Positional arguments in commander's notation ("<worker> [version]"). */
  args?: string;
  options?: OptSpec[];
  run?: Handler;
  sub?: Record<string, Cmd>;
  aliases?: string[];
  examples?: string[];
  seeAlso?: string[];
  /** Takes any arguments and options (the commands not implemented yet say so whatever they get). */
  anyArgs?: boolean;
  /** Runs without a workspace (help-like commands). */
  noWorkspace?: boolean;
  /** Declared by the spec but not implemented in this build (answers NOT_IMPLEMENTED). */
  missing?: boolean;
}

export const leaf = (summary: string, run: Handler, extra: Partial<Cmd> = {}): Cmd => ({ summary, run, ...extra });

export const group = (summary: string, sub: Record<string, Cmd>, extra: Partial<Cmd> = {}): Cmd => ({
  summary,
  sub,
  ...extra,
});

/** A command of the spec this build does not implement yet: it says so (exit 4) whatever it gets. */
export const notImplemented = (path: string, summary: string): Cmd => ({
  summary: `${summary} (not implemented)`,
  anyArgs: true,
  missing: true,
  run: async () => {
    throw new CtlError("NOT_IMPLEMENTED", `'resinctl ${path}' is not implemented in this build`, {
      exit: EXIT.FAILED,
      hint: "resinctl --help lists the commands; those marked (not implemented) answer like this",
    });
  },
});
