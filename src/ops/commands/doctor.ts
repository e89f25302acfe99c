// `resinctl doctor`: how the workspace was resolved, and the security hygiene of the secrets.

import { statSync } from "node:fs";
import { leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";
import { paint } from "../output.js";

function mode(path: string): string | null {
  try {
    return (statSync(path).mode & 0o777).toString(8);
  } catch {
    return null;
  }
}

export async function doctor(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  if (opts.fixRuntime) {
    throw new CtlError(
      "NOT_IMPLEMENTED",
      "doctor --fix-runtime (cloning a global runtime into ~/.resinctl/repo) is not implemented in this build",
      { exit: EXIT.FAILED, hint: "set SVC_REPO to a resin checkout instead" },
    );
  }
  const ws = ctx.ws;
  const facts: Record<string, unknown> = {
    remembered: ws.remembered ?? "none",
    runtime_root: ws.root ?? "none",
    source: ws.source,
    home: ws.home,
    terminal_ui: "resinctl tui",
    provider: ctx.providerName(),
  };
  const issues: string[] = [];
  if (ws.root) {
    const store = ctx.secrets();
    for (const [f, want] of store.hygiene()) {
      const m = mode(f);
      if (m && m !== want.toString(8)) issues.push(`${f} has mode ${m}; expected ${want.toString(8)}`);
    }
    facts.secret_key = store.keySource();
  }
  facts.security = issues.length ? issues : "ok";
  const lines = [
    `Remembered     ${facts.remembered}`,
    `Runtime root   ${facts.runtime_root}`,
    `Source         ${facts.source}`,
    `Terminal UI    ${facts.terminal_ui}`,
    `Provider       ${facts.provider}`,
    `Security       ${issues.length ? paint(ctx.out, "yellow", issues.join("; ")) : paint(ctx.out, "green", "ok")}`,
  ];
  return { data: facts, text: lines.join("\n"), ...(issues.length ? { exit: EXIT.FAILED } : {}) };
}

export const commands: Record<string, Cmd> = {
  doctor: leaf("workspace resolution and security hygiene", doctor, {
    options: [
      ["--security", "only the security hygiene checks"],
      ["--fix-runtime", "clone a global runtime into ~/.resinctl/repo"],
    ],
    noWorkspace: true,
  }),
};
