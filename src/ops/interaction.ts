// Confirmation of destructive commands and bounded following of growing logs, shared by groups.
// Destructive commands need -y/--yes, or a "yes" on a terminal; without either they refuse
// (exit 2) rather than guess. Following stops on SIGINT/SIGTERM or after --for seconds.

import type { Ctx } from "./context.js";
import { CtlError, EXIT } from "./errors.js";

export async function confirm(ctx: Ctx, what: string): Promise<void> {
  if (ctx.flags.yes) return;
  const p = ctx.session.prompter;
  if (ctx.session.isTTY && p && !ctx.flags.json && !ctx.flags.quiet) {
    if (await p.confirm(`${what}?`)) return;
    throw new CtlError("CANCELLED", `${what}: cancelled`, { exit: EXIT.ERROR });
  }
  throw new CtlError("CONFIRM_REQUIRED", `${what} needs confirmation`, {
    exit: EXIT.USAGE,
    hint: "pass --yes (-y) to confirm",
  });
}

/** Calls `tick` every `intervalMs` until a signal or `seconds` elapse (forever when undefined and interactive). */
export async function follow(
  tick: () => Promise<void> | void,
  seconds: number | undefined,
  intervalMs = 250,
): Promise<string | null> {
  let signal: string | null = null;
  await new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | null = null;
    const stop = (sig: string | null) => () => {
      signal = sig;
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
      if (timer) clearTimeout(timer);
      clearInterval(poll);
      resolve();
    };
    const onInt = stop("SIGINT");
    const onTerm = stop("SIGTERM");
    process.once("SIGINT", onInt);
    process.once("SIGTERM", onTerm);
    const poll = setInterval(() => void tick(), intervalMs);
    if (seconds !== undefined) timer = setTimeout(stop(null), seconds * 1000);
  });
  await tick();
  return signal;
}
