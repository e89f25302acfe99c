// `resinctl check health --fix` on the local provider, against a deliberately broken workspace: state
// directories gone (the D1 database with them), the internal key deleted, the trade service's current
// version damaged, and the evaluate worker's dev server killed (SIGKILL: its run record stays behind).
// The fix repairs each, restarts the dead worker on its port, and reports what it could not fix.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";
import { LocalProvider } from "../../src/ops/provider-local.js";

const BIN = fileURLToPath(new URL("../../bin/resinctl.js", import.meta.url));

const base = mkdtempSync(join(tmpdir(), "resinctl-health-"));
const root = join(base, "ws");
mkdirSync(root, { recursive: true });
writeFileSync(join(root, "package.json"), JSON.stringify({ name: "resin" }));
writeFileSync(join(root, "resinctl.toml.example"), "");
const env = { SVC_HOME: join(base, "home"), SVC_CLI_SILENT: "1" };
const local = new LocalProvider(root);

async function ctl(argv: string[]) {
  let out = "";
  const code = await main(argv, {
    cwd: root,
    env,
    stdout: (s) => void (out += s),
    stderr: () => undefined,
    isTTY: false,
    chdir: false,
    stdin: null,
  });
  return { code, json: JSON.parse(out) };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(ok: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !ok(); ) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Stops a detached dev server and its workerd (its own process group). */
async function stopGroup(pid: number, signal: NodeJS.Signals): Promise<void> {
  try {
    process.kill(-pid, signal);
  } catch {
    return;
  }
  await until(() => !alive(pid), 30_000);
}

const started: number[] = [];
afterAll(async () => {
  for (const pid of started) await stopGroup(pid, "SIGTERM");
  rmSync(base, { recursive: true, force: true });
}, 60_000);

describe("check health --fix (local provider)", () => {
  it("repairs a broken workspace, restarts the dead worker, reports what it could not fix", async () => {
    expect((await ctl(["setup", "--json"])).code).toBe(0);
    expect((await ctl(["deploy", "worker", "resin", "--json"])).code).toBe(0);
    expect((await ctl(["deploy", "worker", "trade", "--json"])).code).toBe(0);

    // the evaluate worker under a dev server of its own, then killed without a chance to clean up
    const dev = spawn(process.execPath, [BIN, "dev", "worker", "resin", "--port", "0", "--quiet"], {
      cwd: root,
      env: { ...process.env, ...env },
      detached: true,
      stdio: "ignore",
    });
    await until(() => local.running("resin")?.pid === dev.pid, 60_000);
    const port = local.running("resin")!.port;
    await stopGroup(dev.pid!, "SIGKILL");

    // the damage
    rmSync(join(root, ".resin", "state", "sql"), { recursive: true }); // the D1 database and its schema
    rmSync(join(root, ".resin", "state", "queues"), { recursive: true });
    expect((await ctl(["secrets", "delete", "_internal", "INTERNAL_KEY_BINDING", "--json"])).code).toBe(0);
    const v = local.currentVersion("trade");
    rmSync(join(root, ".resin", "versions", "trade", `v${v}`, "worker.js"));

    const before = await ctl(["check", "health", "--json"]);
    expect(before.code).toBe(3);
    expect(before.json.workers).toEqual([
      expect.objectContaining({ worker: "resin", status: "dead" }),
      expect.objectContaining({ worker: "trade", status: "stopped" }),
      // the script-writing worker (issue 23), configured by default, never started here
      expect.objectContaining({ worker: "generate", status: "stopped" }),
    ]);
    expect(before.json.fixed).toBeUndefined();

    const fixed = await ctl(["check", "health", "--fix", "--json"]);
    const restarted = local.running("resin");
    if (restarted) started.push(restarted.pid);
    expect(fixed.json.fixed.map((f: { what: string }) => f.what)).toEqual([
      "state",
      "secrets",
      "deployments",
      "db",
      "worker resin",
    ]);
    expect(fixed.json.fixed.find((f: { what: string }) => f.what === "db").detail).toMatch(/applied 0001/);
    // on the port it had, a new process
    expect(restarted).toMatchObject({ port });
    expect(restarted!.pid).not.toBe(dev.pid);
    expect(fixed.json.workers[0]).toMatchObject({ worker: "resin", status: "ok" });
    // a worker nobody started is reported, not started: still exit 3
    expect(fixed.json.unfixed).toEqual([
      { what: "worker trade", detail: expect.stringContaining("dev start") },
      { what: "worker generate", detail: expect.stringContaining("dev start") },
    ]);
    expect(fixed.code).toBe(3);

    // the repairs hold: nothing left for the workspace checks, the trade service's version is whole again
    expect((await ctl(["repair", "check", "--json"])).json.ok).toBe(true);
    expect(
      existsSync(join(root, ".resin", "versions", "trade", `v${local.currentVersion("trade")}`, "worker.js")),
    ).toBe(true);
    expect(readFileSync(join(root, ".resin", "logs", "resin.log"), "utf8")).toMatch(/started v\d+ on/);
    const again = await ctl(["check", "health", "--fix", "--json"]);
    expect(again.json.fixed).toEqual([]);
  }, 240_000);
});
