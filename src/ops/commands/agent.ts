// `resinctl agent health [--probe]`: the agent worker (config workers.agent): configured, deployed,
// running; --probe GETs its /health.

import { group, leaf, type Cmd } from "../command.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT } from "../errors.js";

async function agentHealth(ctx: Ctx, { opts }: Inv): Promise<CmdResult> {
  const cfg = ctx.config().workers.agent;
  if (!cfg || !Object.hasOwn(ctx.config().workers, "agent"))
    throw new CtlError("NOT_CONFIGURED", "no agent worker in the config", {
      exit: EXIT.FAILED,
      hint: "resinctl config set workers.agent.script path/to/agent.js",
    });
  const local = ctx.local();
  const url = cfg.url ?? local.runningUrl("agent");
  const facts: Record<string, unknown> = {
    configured: true,
    version: local.currentVersion("agent"),
    url,
    status: url ? "running" : "stopped",
  };
  if (opts.probe) {
    if (!url)
      throw new CtlError("WORKER_UNREACHABLE", "the agent worker is not running", {
        exit: EXIT.INFRA,
        suggestions: ["resinctl dev worker agent"],
      });
    try {
      const res = await ctx.fetch(new URL("health", url.endsWith("/") ? url : `${url}/`));
      facts.probe = { status: res.status, ok: res.ok };
      if (!res.ok) return { data: facts, text: `agent answered HTTP ${res.status}`, exit: EXIT.INFRA };
    } catch (e) {
      return {
        data: { ...facts, probe: { error: (e as Error).message } },
        text: `agent unreachable: ${(e as Error).message}`,
        exit: EXIT.INFRA,
      };
    }
  }
  return {
    data: facts,
    text: `agent ${facts.status}${url ? ` at ${url}` : ""}${facts.version ? ` (v${facts.version})` : ""}${opts.probe ? ": /health ok" : ""}`,
  };
}

export const commands: Record<string, Cmd> = {
  agent: group("agent worker", {
    health: leaf("the agent worker's state (--probe: its /health)", agentHealth, {
      options: [["--probe", "GET /health"]],
    }),
  }),
};
