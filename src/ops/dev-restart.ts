// Restarts a dev worker whose process died (`check health --fix`): a detached `resinctl dev worker`
// on the port it had, its output appended to .resin/logs/<worker>.dev.out, left running after the
// command ends as the dead one was. It is ready when its run record names the new process.

import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "./edge-build.js";
import { CtlError, EXIT } from "./errors.js";
import type { LocalProvider } from "./provider-local.js";

/** How long a restarted worker may take to listen (bundling on first deploy included). */
const READY_MS = 60_000;

export async function restartDetached(
  local: LocalProvider,
  worker: string,
  port: number,
  env: Record<string, string | undefined>,
): Promise<{ pid: number; url: string }> {
  // the dead process's record would otherwise read as this worker's
  rmSync(join(local.root, ".resin", "run", `${worker}.json`), { force: true });
  mkdirSync(join(local.root, ".resin", "logs"), { recursive: true });
  const out = openSync(join(local.root, ".resin", "logs", `${worker}.dev.out`), "a");
  const child = spawn(
    process.execPath,
    [join(packageRoot(), "bin", "resinctl.js"), "dev", "worker", worker, "--port", String(port), "--quiet"],
    {
      cwd: local.root,
      env: { ...process.env, ...env, SVC_CLI_SILENT: "1" },
      detached: true,
      stdio: ["ignore", out, out],
    },
  );
  closeSync(out);
  let exited: number | null = null;
  child.once("exit", (code) => {
    exited = code ?? -1;
  });
  child.unref();
  const pid = child.pid;
  if (pid === undefined)
    throw new CtlError("RESTART_FAILED", `cannot spawn a dev server for '${worker}'`, { exit: EXIT.INFRA });
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    const run = local.running(worker);
    if (run && run.pid === pid) return { pid, url: run.url };
    if (exited !== null)
      throw new CtlError("RESTART_FAILED", `the restarted '${worker}' exited with ${exited}`, {
        exit: EXIT.INFRA,
        hint: `see .resin/logs/${worker}.dev.out`,
      });
    await new Promise((r) => setTimeout(r, 200));
  }
  process.kill(pid, "SIGTERM");
  throw new CtlError("RESTART_FAILED", `'${worker}' did not listen within ${READY_MS / 1000} s`, { exit: EXIT.INFRA });
}
