// resinctl: global behaviour (workspace resolution, flags, errors, help, completion) and the
// local provider for real (esbuild bundle, numbered versions, workerd dev server, hot reload).

import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runSubcommand } from "../../src/cli/index.js";
import { main } from "../../src/ops/cli.js";
import { compactNumber, editDistance, formatBytes, formatDuration } from "../../src/ops/output.js";
import { LocalProvider, type DevServer } from "../../src/ops/provider-local.js";
import { DEFAULT_CONFIG } from "../../src/ops/config.js";

function workspace(): { root: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), "resinctl-"));
  const root = join(base, "ws");
  mkdirSync(join(root, "sub", "deeper"), { recursive: true });
  writeFileSync(join(root, "package.json"), JSON.stringify({ name: "resin" }));
  writeFileSync(join(root, "resinctl.toml.example"), "");
  return { root, home: join(base, "home") };
}

async function ctl(
  argv: string[],
  opts: { cwd: string; env?: Record<string, string>; isTTY?: boolean; stdin?: string | null },
) {
  let out = "";
  let err = "";
  const code = await main(argv, {
    cwd: opts.cwd,
    env: { SVC_CLI_SILENT: "1", ...opts.env },
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    isTTY: opts.isTTY ?? false,
    chdir: false,
    stdin: opts.stdin ?? null,
  });
  return {
    code,
    out,
    err,
    json: (() => {
      try {
        return JSON.parse(out);
      } catch {
        return null;
      }
    })(),
  };
}

describe("global behaviour", () => {
  const ws = workspace();
  const env = { SVC_HOME: ws.home };

  it("--version, help sections, no-TTY no-args help", async () => {
    expect((await ctl(["--version"], { cwd: ws.root, env })).out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = await ctl(["--help"], { cwd: ws.root, env });
    expect(help.code).toBe(0);
    for (const s of ["Usage", "Options", "Examples", "See also"]) expect(help.out).toContain(s);
    const sub = await ctl(["deploy", "rollback", "--help"], { cwd: ws.root, env });
    expect(sub.out).toContain("resinctl deploy rollback <worker> [version]");
  });

  it("no command: onboarding without a config, a menu on a TTY, the help otherwise", async () => {
    const fresh = workspace();
    const asked: string[] = [];
    let out = "";
    const code = await main([], {
      cwd: fresh.root,
      env: { SVC_HOME: fresh.home, SVC_CLI_SILENT: "1" },
      isTTY: true,
      chdir: false,
      stdout: (s) => void (out += s),
      stderr: () => undefined,
      prompter: {
        confirm: async (q) => {
          asked.push(q);
          return true;
        },
        // init's wizard: the first choice (local provider, minimal preset).
        select: async (_q, choices) => choices[0] ?? null,
        text: async () => null,
        password: async () => null,
      },
    });
    expect(code).toBe(0);
    expect(asked[0]).toMatch(/onboarding/);
    expect(existsSync(join(fresh.root, "resinctl.toml"))).toBe(true);
    // With a config: the menu runs the picked command (6 = doctor).
    out = "";
    const menu = await main([], {
      cwd: fresh.root,
      env: { SVC_HOME: fresh.home, SVC_CLI_SILENT: "1" },
      isTTY: true,
      chdir: false,
      stdout: (s) => void (out += s),
      stderr: () => undefined,
      prompter: {
        confirm: async () => false,
        select: async (_q, choices) => choices[5] ?? null,
        text: async () => null,
        password: async () => null,
      },
    });
    expect(menu).toBe(0);
    expect(out).toContain("Runtime root");
    const noTty = await ctl([], { cwd: fresh.root, env: { SVC_HOME: fresh.home } });
    expect(noTty.code).toBe(2);
    expect(noTty.out).toContain("Usage");
  });

  it("resolves the workspace: SVC_REPO, then walking up from the cwd, then the remembered path", async () => {
    const other = workspace();
    const d1 = await ctl(["doctor", "--json"], { cwd: join(ws.root, "sub", "deeper"), env });
    expect(d1.json).toMatchObject({ runtime_root: ws.root, source: "cwd" });
    const d2 = await ctl(["doctor", "--json"], { cwd: tmpdir(), env: { ...env, SVC_REPO: other.root } });
    expect(d2.json).toMatchObject({ runtime_root: other.root, source: "env" });
    const none = await ctl(["doctor", "--json"], { cwd: tmpdir(), env: { SVC_HOME: join(ws.home, "elsewhere") } });
    expect(none.json).toMatchObject({ source: "none", runtime_root: "none" });
    // A command run inside the workspace remembers it (dir 0700, file 0600); from elsewhere it is found again.
    expect((await ctl(["init"], { cwd: ws.root, env })).code).toBe(0);
    const file = join(ws.home, "config", "monorepo.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(ws.home, "config")).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ root: ws.root, updatedAt: expect.any(String) });
    const d3 = await ctl(["doctor", "--json"], { cwd: tmpdir(), env });
    expect(d3.json).toMatchObject({ runtime_root: ws.root, source: "remembered", remembered: ws.root });
    // The workspace line goes to stderr unless SVC_CLI_SILENT=1.
    const loud = await main(["doctor", "--json"], {
      cwd: ws.root,
      env: { SVC_HOME: ws.home },
      stdout: () => undefined,
      stderr: (s) => expect(s).toContain(`workspace: ${ws.root}`),
      chdir: false,
    });
    expect(loud).toBe(0);
  });

  it("did you mean, removed commands, JSON errors and exit codes", async () => {
    const typo = await ctl(["deplyo", "all"], { cwd: ws.root, env });
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("did you mean 'deploy' ?");
    expect(typo.err).toContain("[UNKNOWN_COMMAND]");
    const sub = await ctl(["deploy", "histroy", "resin"], { cwd: ws.root, env });
    expect(sub.err).toContain("did you mean 'deploy history' ?");
    const removed = await ctl(["monitor", "status", "--json"], { cwd: ws.root, env });
    expect(removed.code).toBe(2);
    expect(removed.json).toMatchObject({ success: false, code: "REMOVED", suggestions: ["resinctl check health"] });
    const again = await ctl(["init", "--json"], { cwd: ws.root, env });
    expect(again.code).toBe(2);
    expect(again.json).toMatchObject({ success: false, code: "CONFIG_EXISTS", hint: expect.stringContaining("--yes") });
    expect((await ctl(["init", "--yes"], { cwd: ws.root, env })).code).toBe(0);
    // Parse errors from commander become [USAGE] cards, or the JSON error body with --json.
    const missing = await ctl(["deploy", "rollback", "--json"], { cwd: ws.root, env });
    expect(missing.code).toBe(2);
    expect(missing.json).toMatchObject({ success: false, code: "USAGE", error: "missing required argument 'worker'" });
    const badOpt = await ctl(["dev", "worker", "resin", "--port", "x"], { cwd: ws.root, env });
    expect(badOpt.code).toBe(2);
    expect(badOpt.err).toMatch(/\[USAGE\][\s\S]*--port must be a non-negative integer \(got 'x'\)/);
    const unknown = await ctl(["doctor", "--frobnicate"], { cwd: ws.root, env });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown option '--frobnicate'");
    // A group without its subcommand shows the group's help (exit 2).
    const group = await ctl(["deploy"], { cwd: ws.root, env });
    expect(group.code).toBe(2);
    expect(group.out).toMatch(/Usage: resinctl deploy[\s\S]*rollback <worker> \[version\]/);
  });

  it("config set/show and secrets encrypted at rest, never printed in full", async () => {
    expect((await ctl(["config", "set", "workers.resin.port", "8799"], { cwd: ws.root, env })).code).toBe(0);
    const show = await ctl(["config", "show", "--json"], { cwd: ws.root, env });
    expect(show.json.config.workers.resin.port).toBe(8799);
    expect((await ctl(["config", "set", "provider", "mars"], { cwd: ws.root, env })).code).toBe(2);
    const secret = "sk_live_0123456789abcdef";
    expect((await ctl(["secrets", "set", "resin", "API_KEY"], { cwd: ws.root, env, stdin: `${secret}\n` })).code).toBe(
      0,
    );
    const list = await ctl(["secrets", "list"], { cwd: ws.root, env });
    expect(list.out).toContain("API_KEY");
    expect(list.out).not.toContain(secret);
    expect(list.out).toContain("sk*");
    const stored = readFileSync(join(ws.root, ".resin", "secrets.json"), "utf8");
    expect(stored).not.toContain(secret);
    expect(statSync(join(ws.root, ".resin", "secrets.json")).mode & 0o777).toBe(0o600);
    const keyDir = join(ws.home, "keys");
    expect(statSync(keyDir).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(keyDir)) expect(statSync(join(keyDir, f)).mode & 0o777).toBe(0o600);
    expect((await ctl(["secrets", "delete", "resin", "API_KEY"], { cwd: ws.root, env })).code).toBe(0);
    expect((await ctl(["secrets", "delete", "resin", "API_KEY"], { cwd: ws.root, env })).code).toBe(4);
    const keys = await ctl(["keys", "generate", "--json"], { cwd: ws.root, env });
    expect(keys.json).toMatchObject({ success: true, name: "INTERNAL_KEY_BINDING" });
  });

  it("completion for bash, zsh and fish; formatting helpers", async () => {
    for (const shell of ["bash", "zsh", "fish"]) {
      const r = await ctl(["completion", shell], { cwd: ws.root, env });
      expect(r.code).toBe(0);
      expect(r.out).toContain("deploy");
    }
    expect((await ctl(["completion", "tcsh"], { cwd: ws.root, env })).code).toBe(2);
    expect([compactNumber(1234), compactNumber(3_400_000), compactNumber(5_600_000_000), compactNumber(12)]).toEqual([
      "1.2K",
      "3.4M",
      "5.6B",
      "12",
    ]);
    expect([formatBytes(1500), formatBytes(1536, true), formatBytes(12)]).toEqual(["1.5 kB", "1.5 KiB", "12 B"]);
    expect([formatDuration(250), formatDuration(1500), formatDuration(125_000), formatDuration(3_720_000)]).toEqual([
      "250ms",
      "1.5s",
      "2m 05s",
      "1h 02m",
    ]);
    expect(editDistance("deplyo", "deploy")).toBe(2);
  });

  it("the cloudflare provider reports a missing wrangler (exit 3)", async () => {
    const r = await main(["check", "prerequisites", "--json"], {
      cwd: ws.root,
      env: { ...env, SVC_CLI_SILENT: "1", SVC_PROVIDER: "cloudflare" },
      chdir: false,
      stdout: (s) => {
        const j = JSON.parse(s);
        expect(j.checks.find((c: { name: string }) => c.name === "wrangler")).toMatchObject({ status: "failed" });
      },
      stderr: () => undefined,
      runProcess: () => ({ status: null, stdout: "", stderr: "", error: new Error("spawn wrangler ENOENT") }),
    });
    expect(r).toBe(3);
  });
});

describe("cloudflare provider (injected wrangler)", () => {
  const ws = workspace();
  const calls: { args: string[]; input?: string }[] = [];
  let failDeploy = false;
  let failSecret = false;
  // Replays wrangler's answers; records every invocation.
  const runProcess = (cmd: string, args: string[], opts: { input?: string } = {}) => {
    expect(cmd).toBe("wrangler");
    calls.push({ args, ...(opts.input !== undefined ? { input: opts.input } : {}) });
    if (args[0] === "--version") return { status: 0, stdout: " ⛅️ wrangler 3.99.0\n", stderr: "" };
    if (args[0] === "deploy") {
      return failDeploy
        ? { status: 1, stdout: "", stderr: "✘ [ERROR] Authentication error [code: 10000]" }
        : {
            status: 0,
            stdout:
              "Uploaded resin (2.1 sec)\nDeployed resin triggers (0.3 sec)\nCurrent Version ID: 6a1f2e3d-0000-4bcd-8000-1234567890ab\n",
            stderr: "",
          };
    }
    if (args[0] === "secret" && failSecret)
      return { status: 1, stdout: "", stderr: "✘ [ERROR] A request to the Cloudflare API failed" };
    return { status: 0, stdout: "Success!\n", stderr: "" };
  };
  const WORKER_URL = "https://resin.example.workers.dev/";
  // Recorded Cloudflare REST answers: no stores yet, then each created.
  const api: { method: string; url: string; body?: unknown }[] = [];
  const recorded = (async (url: string | URL, init?: RequestInit) => {
    const u = String(url);
    const method = init?.method ?? "GET";
    // the deployed worker's scripts registry (read by a deploy to compile them ahead of time)
    if (u.startsWith(WORKER_URL)) {
      const path = u.slice(WORKER_URL.length);
      if (path === "scripts") return new Response(JSON.stringify({ status: "success", scripts: [{ id: "w1" }] }));
      if (path === "scripts/w1")
        return new Response(JSON.stringify({ status: "success", id: "w1", source: 'indicator("w")\nplot(close)\n' }));
      return new Response("{}", { status: 404 });
    }
    api.push({ method, url: u, ...(init?.body ? { body: JSON.parse(String(init.body)) } : {}) });
    expect(u.startsWith("https://api.cloudflare.com/client/v4/accounts/a/")).toBe(true);
    expect((init?.headers ?? {}) as Record<string, string>).toMatchObject({ authorization: "Bearer t" });
    const ok = (result: unknown) => new Response(JSON.stringify({ success: true, errors: [], result }));
    if (method === "GET") return ok(u.endsWith("/r2/buckets") ? { buckets: [] } : []);
    if (u.endsWith("/storage/kv/namespaces")) return ok({ id: "kv-0001", title: "resin-kv" });
    if (u.endsWith("/d1/database")) return ok({ uuid: "d1-0001", name: "resin-db" });
    if (u.endsWith("/r2/buckets")) return ok({ name: "resin-bars" });
    return new Response(JSON.stringify({ success: false, errors: [{ code: 7003, message: "No route" }] }), {
      status: 404,
    });
  }) as typeof fetch;
  async function cf(argv: string[], stdin: string | null = null, extraEnv: Record<string, string> = {}) {
    let out = "";
    const code = await main(argv, {
      cwd: ws.root,
      env: {
        ...extraEnv,
        SVC_HOME: ws.home,
        SVC_CLI_SILENT: "1",
        SVC_PROVIDER: "cloudflare",
        CLOUDFLARE_API_TOKEN: "t",
        CLOUDFLARE_ACCOUNT_ID: "a",
      },
      chdir: false,
      stdout: (s) => void (out += s),
      stderr: () => undefined,
      runProcess,
      stdin,
      fetch: recorded,
    });
    return { code, json: JSON.parse(out) };
  }

  it("deploys the bundle with wrangler deploy and reports the version id", async () => {
    const r = await cf(["deploy", "worker", "resin", "--json"]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      success: true,
      provider: "cloudflare",
      version_id: "6a1f2e3d-0000-4bcd-8000-1234567890ab",
    });
    const deploy = calls.find((c) => c.args[0] === "deploy")!;
    const toml = join(ws.root, ".resin", "build", "resin", "wrangler.toml");
    expect(deploy.args).toEqual(["deploy", "--config", toml]);
    expect(existsSync(join(ws.root, ".resin", "build", "resin", "kernels.wasm"))).toBe(true);
    // The stores were provisioned through the REST API, then bound in the generated wrangler.toml.
    expect(api.filter((c) => c.method === "POST").map((c) => c.body)).toEqual([
      { title: "resin-kv" },
      { name: "resin-db" },
      { name: "resin-bars" },
      // the trade service's database (worker-bindings.ts), provisioned with the rest
      { name: "resin-mesh-db" },
    ]);
    const doc = parseToml(readFileSync(toml, "utf8")) as Record<string, any>;
    expect(doc).toMatchObject({
      name: "resin",
      main: "worker.js",
      account_id: "a",
      compatibility_date: "2024-11-01",
      compatibility_flags: ["nodejs_compat"],
      kv_namespaces: [{ binding: "RESIN_KV", id: "kv-0001" }],
      r2_buckets: [{ binding: "RESIN_BARS", bucket_name: "resin-bars" }],
      d1_databases: [{ binding: "RESIN_DB", database_name: "resin-db", database_id: "d1-0001" }],
      triggers: { crons: ["* * * * *"] },
      rules: [{ type: "CompiledWasm", globs: ["**/*.wasm"] }],
      // fanned-out studies: the coordinator object (SQLite-backed) and the worker bound to itself
      durable_objects: { bindings: [{ name: "STUDIES", class_name: "StudyCoordinator" }] },
      migrations: [{ tag: "studies-v1", new_sqlite_classes: ["StudyCoordinator"] }],
      services: [
        { binding: "EVALUATE", service: "resin" },
        { binding: "TRADE_SERVICE", service: "trade" },
      ],
    });
  }, 60_000);

  it("compiles the deployed worker's registered scripts ahead of time when it knows the worker's url (issue 24)", async () => {
    const blind = await cf(["deploy", "worker", "resin", "--json"]);
    expect(blind.json.aot).toMatchObject({ compiled: [], note: expect.stringContaining("url is not set") });
    const r = await cf(["deploy", "worker", "resin", "--json"], null, { SVC_WORKER_URL: WORKER_URL });
    expect(r.code).toBe(0);
    expect(r.json.aot).toEqual({ compiled: ["w1"], skipped: [] });
    const dir = join(ws.root, ".resin", "build", "resin", "compiled");
    expect(readdirSync(dir).filter((f) => f.startsWith("w1-")).length).toBeGreaterThan(0);
    // bundled into the script wrangler uploads
    expect(readFileSync(join(ws.root, ".resin", "build", "resin", "worker.js"), "utf8")).toContain('script = "w1"');
  }, 60_000);

  it("pushes secrets on stdin, never on the command line; wrangler failures exit 4", async () => {
    const r = await cf(["secrets", "set", "resin", "API_KEY", "--json"], "super-secret-value");
    expect(r.json).toMatchObject({ success: true, pushed: true });
    const put = calls.find((c) => c.args[0] === "secret")!;
    // Transactional: a push that fails leaves the local store unchanged.
    failSecret = true;
    const failed = await cf(["secrets", "set", "resin", "OTHER_KEY", "--json"], "v-123456");
    expect(failed.code).toBe(4);
    expect((await cf(["secrets", "list", "--json"])).json.secrets.map((x: { name: string }) => x.name)).toEqual([
      "API_KEY",
    ]);
    failSecret = false;
    expect(put.args).toEqual(["secret", "put", "API_KEY", "--name", "resin"]);
    expect(put.input).toBe("super-secret-value");
    failDeploy = true;
    const bad = await cf(["deploy", "worker", "resin", "--json"]);
    expect(bad.code).toBe(4);
    expect(bad.json).toMatchObject({
      success: false,
      code: "WRANGLER_FAILED",
      error: expect.stringContaining("Authentication error"),
    });
  }, 60_000);
});

describe("local provider (workerd)", () => {
  const ws = workspace();
  const env = { SVC_HOME: ws.home };
  const local = new LocalProvider(ws.root);
  let dev: DevServer;
  let trade: DevServer;

  beforeAll(async () => {
    expect((await ctl(["deploy", "worker", "resin"], { cwd: ws.root, env })).code).toBe(0);
    // 127.0.0.1 allowed for alert webhooks: the dead-letter test's receiver listens there.
    dev = await local.startDev("resin", DEFAULT_CONFIG.workers.resin!, {
      port: 0,
      bindings: () => ({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1" }),
    });
    // The trade service beside it (the kill switch and the trade log live there).
    trade = await local.startDev("trade", DEFAULT_CONFIG.workers.trade!, { port: 0 });
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
    await trade?.stop();
  });

  /** Waits until the dev server runs the current version (a deploy hot-reloads it). */
  async function settled(): Promise<void> {
    for (let i = 0; i < 100 && dev.version !== local.currentVersion("resin"); i++)
      await new Promise((res) => setTimeout(res, 100));
  }

  it("deploys numbered versions with history and persisted state dirs", async () => {
    const second = await ctl(["deploy", "worker", "resin", "--json"], { cwd: ws.root, env });
    expect(second.json).toMatchObject({ success: true, worker: "resin", version: 2, hot_reload: true });
    const hist = await ctl(["deploy", "history", "resin", "--json"], { cwd: ws.root, env });
    expect(hist.json.versions.map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual([
      [1, false],
      [2, true],
    ]);
    for (const d of ["kv", "sql", "obj"]) expect(existsSync(join(ws.root, ".resin", "state", d))).toBe(true);
    const list = await ctl(["workers", "list", "--json"], { cwd: ws.root, env });
    expect(list.json.workers[0]).toMatchObject({ name: "resin", status: "running", version: 2 });
    await settled();
    expect(dev.version).toBe(2);
  });

  it("script commands talk to the running worker", async () => {
    const health = await ctl(["script", "health", "--json"], { cwd: ws.root, env });
    expect(health.json).toMatchObject({ success: true, health: { status: "ok", default_mode: "interpret" } });
    const check = await ctl(["check", "health", "--json"], { cwd: ws.root, env });
    expect(check.json.workers[0]).toMatchObject({ worker: "resin", status: "ok" });
    const file = join(ws.root, "s.pine");
    writeFileSync(file, '//@version=6\nindicator("x")\nplot(close, "c")\n');
    const run = await ctl(["script", "run", file, "--bars", "5", "--json"], { cwd: ws.root, env });
    expect(run.json.result).toMatchObject({ status: "success", count: 5 });
    const stored = await ctl(["script", "scripts", "deploy", file, "--json"], { cwd: ws.root, env });
    expect(stored.err).toBe("");
    expect(stored.json.script.id).toBe("s");
    expect(
      (await ctl(["script", "scripts", "list", "--json"], { cwd: ws.root, env })).json.scripts.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual(["s"]);
    // alert destinations registered with the script (issue 25); the worker's outbound guard refuses private hosts
    const alerted = await ctl(
      ["script", "scripts", "deploy", file, "--id", "s2", "--alert-webhook", "https://hooks.example.com/a", "--json"],
      { cwd: ws.root, env },
    );
    expect(alerted.json.alerts).toEqual([
      { id: "webhook1", type: "webhook", url: "https://hooks.example.com/a", signed: false },
    ]);
    const refused = await ctl(
      ["script", "scripts", "deploy", file, "--id", "s3", "--alert-webhook", "http://10.0.0.1/a", "--json"],
      {
        cwd: ws.root,
        env,
      },
    );
    expect(refused.code).not.toBe(0);
    expect(JSON.stringify(refused.json)).toContain("URL_REFUSED");
    for (const id of ["s2", "s3"])
      await ctl(["script", "scripts", "delete", id, "--yes", "--json"], { cwd: ws.root, env });
    const ing = await ctl(["script", "ingest", "--symbol", "X", "--timeframe", "1", "--bars", "7", "--json"], {
      cwd: ws.root,
      env,
    });
    expect(ing.json.ingest).toMatchObject({ count: 7 });
    expect((await ctl(["monitor", "kill-switch", "on", "--json"], { cwd: ws.root, env })).json).toMatchObject({
      success: true,
      on: true,
    });
    expect((await ctl(["monitor", "kill-switch", "--json"], { cwd: ws.root, env })).json.on).toBe(true);
    expect((await ctl(["monitor", "kill-switch", "off", "--json"], { cwd: ws.root, env })).json.on).toBe(false);
    expect((await ctl(["monitor", "trades", "5", "--json"], { cwd: ws.root, env })).json).toMatchObject({
      success: true,
      trades: [],
    });
    expect((await ctl(["monitor", "queue-depth", "--json"], { cwd: ws.root, env })).json).toMatchObject({
      success: true,
      depth: [],
      dead_letters: [],
    });
    // KV state is persisted in the workspace.
    expect(existsSync(join(ws.root, ".resin", "state", "kv"))).toBe(true);
  });

  it("the mesh runs offline: a bar-close job's orders reach the trade service through the binding", async () => {
    const edge = async (path: string, json?: unknown, method?: string) =>
      (
        await fetch(new URL(path, dev.url), {
          method: method ?? (json === undefined ? "GET" : "POST"),
          headers: { "content-type": "application/json" },
          ...(json === undefined ? {} : { body: JSON.stringify(json) }),
        })
      ).json() as Promise<any>;
    const strategy = '//@version=6\nstrategy("m")\nstrategy.order("a", strategy.long, 1)\n';
    await edge("/scripts", { id: "m", source: strategy });
    const bars = Array.from({ length: 4 }, (_, i) => ({
      time: 1_700_000_000_000 + i * 60_000,
      open: 10 + i,
      high: 11 + i,
      low: 9 + i,
      close: 10.5 + i,
      volume: 1,
    }));
    await edge("/ingest", { symbol: "MESH", timeframe: "1", bars });
    await edge("/cron/jobs", { jobs: [{ id: "m", script_id: "m", symbol: "MESH", timeframe: "1" }] }, "PUT");
    const run = await edge("/cron/run", { job_id: "m" });
    expect(run.results[0]).toMatchObject({ status: "ran", queued: 1, forwarded: 1, pending: 0 });
    const trades = await ctl(["monitor", "trades", "5", "--json"], { cwd: ws.root, env });
    expect(trades.json.trades).toHaveLength(1);
    expect(trades.json.trades[0]).toMatchObject({
      status: "placed",
      symbol: "MESH",
      side: "buy",
      qty: 1,
      source: "resin",
    });
    const depth = await ctl(["monitor", "queue-depth", "--json"], { cwd: ws.root, env });
    expect(depth.json.depth).toEqual([expect.objectContaining({ channel: "order", status: "delivered", count: 1 })]);
  });

  it("alert dead letters show in monitor queue-depth and in the trace events; --ack takes them off", async () => {
    let hits = 0;
    const gone = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        hits++;
        res.writeHead(410);
        res.end("gone");
      });
    });
    await new Promise<void>((r) => gone.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (gone.address() as { port: number }).port;
      const file = join(ws.root, "alerting.pine");
      writeFileSync(file, '//@version=6\nindicator("alerting")\nalert("hi {{ticker}}")\nplot(close)\n');
      const deployed = await ctl(
        ["script", "scripts", "deploy", file, "--alert-webhook", `http://127.0.0.1:${port}/hook`, "--json"],
        { cwd: ws.root, env },
      );
      expect(deployed.json.alerts).toHaveLength(1);
      const edge = async (path: string, json: unknown, method = "POST") =>
        (
          await fetch(new URL(path, dev.url), {
            method,
            headers: { "content-type": "application/json" },
            body: JSON.stringify(json),
          })
        ).json() as Promise<any>;
      const bars = Array.from({ length: 3 }, (_, i) => ({
        time: 1_700_000_000_000 + i * 60_000,
        open: 10,
        high: 11,
        low: 9,
        close: 10.5,
        volume: 1,
      }));
      await edge("/ingest", { symbol: "DEAD", timeframe: "1", bars });
      await edge("/cron/jobs", { jobs: [{ id: "al", script_id: "alerting", symbol: "DEAD", timeframe: "1" }] }, "PUT");
      expect((await edge("/cron/run", { job_id: "al" })).results[0]).toMatchObject({ status: "ran", alerts_queued: 1 });
      expect(hits).toBe(1);
      const depth = (await ctl(["monitor", "queue-depth", "--json"], { cwd: ws.root, env })).json;
      expect(depth.depth).toContainEqual(expect.objectContaining({ channel: "alert", status: "dead", count: 1 }));
      expect(depth.dead_letters).toEqual([
        expect.objectContaining({ channel: "alert", attempts: 1, last_error: "destination answered 410: gone" }),
      ]);
      const key = depth.dead_letters[0].key as string;
      expect(key).toMatch(/^al:alerting:al:/);
      // The worker's console is captured asynchronously: wait for the event to reach the log.
      let events: { kind: string; fields: Record<string, unknown> }[] = [];
      for (let i = 0; i < 50 && events.length === 0; i++) {
        events = (await ctl(["trace", "events", "--kind", "outbox.dead", "--json"], { cwd: ws.root, env })).json.events;
        if (events.length === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(events).toEqual([
        expect.objectContaining({ kind: "outbox.dead", fields: expect.objectContaining({ key, channel: "alert" }) }),
      ]);
      const acked = (await ctl(["monitor", "queue-depth", "--ack", "all", "--json"], { cwd: ws.root, env })).json;
      expect(acked).toMatchObject({ success: true, acknowledged: 1, dead_letters: [] });
      expect(acked.depth).toContainEqual(
        expect.objectContaining({ channel: "alert", status: "acknowledged", count: 1 }),
      );
    } finally {
      await new Promise<void>((r) => gone.close(() => r()));
    }
  });

  it("rollback switches the running worker (hot reload)", async () => {
    const r = await ctl(["deploy", "rollback", "resin", "--json"], { cwd: ws.root, env });
    expect(r.json).toMatchObject({ success: true, version: 1 });
    for (let i = 0; i < 100 && dev.version !== 1; i++) await new Promise((res) => setTimeout(res, 100));
    expect(dev.version).toBe(1);
    expect(dev.reloads).toBeGreaterThanOrEqual(2);
    expect((await ctl(["script", "health", "--json"], { cwd: ws.root, env })).json.health.status).toBe("ok");
    expect((await ctl(["deploy", "rollback", "resin", "--json"], { cwd: ws.root, env })).json.code).toBe(
      "NO_PREVIOUS_VERSION",
    );
    expect((await ctl(["deploy", "rollback", "resin", "v2"], { cwd: ws.root, env })).code).toBe(0);
  });

  it("scripts deploy --aot redeploys the worker with the registered scripts compiled ahead of time (issue 24)", async () => {
    const file = join(ws.root, "aot1.pine");
    writeFileSync(
      file,
      '//@version=6\nindicator("aot")\nlen = input.int(5)\nplot(ta.sma(close, len) + ta.rsi(close, 7), "v")\n',
    );
    const stored = await ctl(["script", "scripts", "deploy", file, "--aot", "--json"], { cwd: ws.root, env });
    expect(stored.code).toBe(0);
    expect(stored.json.script.id).toBe("aot1");
    expect(stored.json.deploy).toMatchObject({ worker: "resin", hot_reload: true });
    expect(stored.json.deploy.aot.compiled).toContain("aot1");
    const meta = JSON.parse(
      readFileSync(join(ws.root, ".resin", "versions", "resin", `v${stored.json.deploy.version}`, "meta.json"), "utf8"),
    );
    expect(meta.aot.compiled.map((c: { id: string }) => c.id)).toContain("aot1");
    await settled();
    const run = await ctl(
      ["script", "run", file, "--mode", "compile", "--inputs", '{"len": 9}', "--bars", "40", "--json"],
      {
        cwd: ws.root,
        env,
      },
    );
    expect(run.json.result).toMatchObject({ status: "success", mode: "compile", count: 40 });
    // registered without --aot: stored, but this deploy has no loop for it, so it interprets and says why
    const late = join(ws.root, "late.pine");
    writeFileSync(late, '//@version=6\nindicator("late")\nplot(ta.ema(close, 3) * 2, "v")\n');
    expect((await ctl(["script", "scripts", "deploy", late, "--json"], { cwd: ws.root, env })).code).toBe(0);
    const lateRun = await ctl(["script", "run", late, "--mode", "compile", "--json"], { cwd: ws.root, env });
    expect(lateRun.json.result.mode).toBe("interpret");
    expect(lateRun.json.result.compile_fallback_reason).toContain("no ahead-of-time compiled module");
    const list = await ctl(["script", "scripts", "list", "--json"], { cwd: ws.root, env });
    const aot = Object.fromEntries(list.json.scripts.map((s: { id: string; aot: boolean }) => [s.id, s.aot]));
    expect(aot).toMatchObject({ aot1: true, late: false });
  }, 120_000);

  it("resin optimize --remote fans the study out on the dev worker (issue 24): the local result for the same seed", async () => {
    await settled();
    const file = join(ws.root, "cross.pine");
    writeFileSync(
      file,
      `//@version=6
strategy("Cross")
fast = input.int(3, "Fast", minval=2, maxval=10)
slow = input.int(12, "Slow", minval=8, maxval=30)
if ta.crossover(ta.sma(close, fast), ta.sma(close, slow))
    strategy.entry("L", strategy.long)
if ta.crossunder(ta.sma(close, fast), ta.sma(close, slow))
    strategy.close("L")
`,
    );
    const args = [file, "--trials", "40", "--seed", "4", "--sampler", "tpe", "--parallelism", "8", "--bars", "150"];
    const resin = async (argv: string[]): Promise<{ code: number; json: any }> => {
      const out: string[] = [];
      const log = vi.spyOn(console, "log").mockImplementation((...a) => void out.push(a.join(" ")));
      try {
        const code = await runSubcommand("optimize", [...argv, "--json"]);
        return { code, json: JSON.parse(out.join("\n")) };
      } finally {
        log.mockRestore();
      }
    };
    const here = await resin(args);
    const there = await resin([...args, "--remote", dev.url, "--concurrency", "4", "--batch-size", "2"]);
    expect([here.code, there.code]).toEqual([0, 0]);
    // timings and the run's own ids differ between any two runs; the winner's full result is run locally
    // in both cases (the worker answers lean trials), so everything else is the same
    const strip = (r: any) => ({
      ...r,
      ms: 0,
      trials: r.trials.map((t: any) => ({ ...t, ms: 0 })),
      best_result: { ...r.best_result, profile: undefined, run_id: undefined },
    });
    expect(there.json.best_result.strategy.trades.length).toBeGreaterThan(0);
    expect(there.json.trials).toHaveLength(40);
    expect(strip(there.json)).toEqual(strip(here.json));
  }, 120_000);
});
