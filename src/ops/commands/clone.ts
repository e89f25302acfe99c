// `resinctl clone [name]`: worker repositories as git submodules under workers/<name> (git
// through the injectable process runner); without a name, every submodule initialised.

import { leaf, type Cmd } from "../command.js";
import { checkWorkerName } from "../config.js";
import type { CmdResult, Ctx, Inv } from "../context.js";
import { CtlError, EXIT, usageError } from "../errors.js";
import { defaultRunner } from "../provider-cloudflare.js";

async function clone(ctx: Ctx, { args, opts }: Inv): Promise<CmdResult> {
  const run = ctx.runProcess ?? defaultRunner;
  const root = ctx.root();
  const git = (argv: string[]) => {
    const r = run("git", argv, { cwd: root });
    if (r.error || r.status !== 0)
      throw new CtlError(
        "GIT_FAILED",
        `git ${argv.slice(0, 2).join(" ")} failed: ${(r.stderr || r.error?.message || "").trim()}`,
        { exit: EXIT.FAILED },
      );
    return r.stdout;
  };
  const name = args[0];
  if (!name) {
    git(["submodule", "update", "--init", "--recursive"]);
    return { data: { updated: true }, text: "initialised every worker submodule" };
  }
  checkWorkerName(name);
  if (!opts.url) throw usageError("clone <name> needs --url <git url>");
  const url = String(opts.url);
  if (!/^(https:\/\/|git@|ssh:\/\/|file:\/\/|\/)/.test(url))
    throw usageError(`--url must be an https, ssh, file URL or absolute path (got '${url}')`);
  git(["submodule", "add", "--", url, `workers/${name}`]);
  return {
    data: { worker: name, path: `workers/${name}`, url },
    text: `added workers/${name} from ${url}`,
    next: `resinctl config set workers.${name}.script workers/${name}/worker.js`,
  };
}

export const commands: Record<string, Cmd> = {
  clone: leaf("add a worker repository as a git submodule (no name: init them all)", clone, {
    args: "[name]",
    options: [["--url <URL>", "the worker repository"]],
  }),
};
