// resinctl's correctness and security edges: onboarding from an empty directory, paths relative
// to the caller, SVC_REPO validation, the secrets store (atomic and locked writes, no silent empty
// store, key file modes, scrypt for SVC_SECRET_KEY, coded wrong-key error, values never from argv,
// concurrent writers), worker-name and config-key validation, --json purity, completion depth.

import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";

function scratch(marker = true): { root: string; home: string } {
  const base = mkdtempSync(join(tmpdir(), "resinctl-edges-"));
  const root = join(base, "ws");
  mkdirSync(join(root, "sub"), { recursive: true });
  if (marker) {
    writeFileSync(join(root, "package.json"), JSON.stringify({ name: "resin" }));
    writeFileSync(join(root, "resinctl.toml.example"), "");
  }
  return { root, home: join(base, "home") };
}

async function ctl(
  argv: string[],
  o: { cwd: string; env?: Record<string, string>; stdin?: string | null; fetch?: typeof fetch },
) {
  let out = "";
  let err = "";
  const code = await main(argv, {
    cwd: o.cwd,
    env: { SVC_CLI_SILENT: "1", ...o.env },
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    isTTY: false,
    chdir: false,
    stdin: o.stdin ?? null,
    ...(o.fetch ? { fetch: o.fetch } : {}),
  });
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(out);
  } catch {
    json = null;
  }
  return { code, out, err, json };
}

describe("onboarding and workspace resolution", () => {
  it("onboard turns an empty directory into a workspace (marker, config, keys, SQL schema)", async () => {
    const { root, home } = scratch(false);
    const r = await ctl(["onboard", "--preset", "standard", "--json"], { cwd: root, env: { SVC_HOME: home } });
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.json).toMatchObject({ success: true, preset: "standard", applied: ["0001_resin.sql"] });
    expect(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).dependencies.resin).toMatch(/^\^/);
    expect(readFileSync(join(root, "resinctl.toml"), "utf8")).toContain('preset = "standard"');
    // Found again from a subdirectory and, remembered, from anywhere.
    const d = await ctl(["doctor", "--json"], { cwd: tmpdir(), env: { SVC_HOME: home } });
    expect(d.json).toMatchObject({ runtime_root: root, source: "remembered" });
    // A second empty directory onboards into itself, not into the remembered workspace.
    const other = mkdtempSync(join(tmpdir(), "resinctl-edges-second-"));
    const second = await ctl(["onboard", "--json"], { cwd: other, env: { SVC_HOME: home } });
    expect(second.code, second.out + second.err).toBe(0);
    expect(existsSync(join(other, "resinctl.toml"))).toBe(true);
    const keys = await ctl(["secrets", "list", "--json"], { cwd: join(root), env: { SVC_HOME: home } });
    expect(keys.json?.secrets).toEqual([
      { worker: "_internal", name: "INTERNAL_KEY_BINDING" },
      { worker: "resin", name: "API_KEY" },
    ]);
  }, 60_000);

  it("--token stores the API token encrypted and selects the cloudflare provider", async () => {
    const { root, home } = scratch(false);
    const r = await ctl(
      ["init", "--token", "cf-token-123456", "--account", "0123456789abcdef0123456789abcdef", "--json"],
      {
        cwd: root,
        env: { SVC_HOME: home },
      },
    );
    expect(r.json).toMatchObject({ success: true, provider: "cloudflare", token_stored: true });
    expect(readFileSync(join(root, ".resin", "secrets.json"), "utf8")).not.toContain("cf-token-123456");
  });

  it("SVC_REPO must be an absolute path to a workspace", async () => {
    const { root, home } = scratch();
    for (const repo of ["relative/dir", join(root, "missing"), tmpdir()]) {
      const r = await ctl(["doctor", "--json"], { cwd: root, env: { SVC_HOME: home, SVC_REPO: repo } });
      expect(r.code).toBe(2);
      expect(r.json).toMatchObject({ success: false, code: "WORKSPACE_INVALID" });
    }
  });

  it("file arguments resolve against the caller's directory, not the workspace", async () => {
    const { root, home } = scratch();
    writeFileSync(join(root, "sub", "rel.pine"), '//@version=6\nindicator("rel")\nplot(close)\n');
    let posted: { script?: string } = {};
    const fakeFetch = (async (_url: URL, init?: RequestInit) => {
      posted = JSON.parse(String(init?.body));
      return new Response(JSON.stringify({ status: "success", count: 1, mode: "interpret", series: {} }));
    }) as typeof fetch;
    const r = await ctl(["script", "run", "rel.pine", "--json"], {
      cwd: join(root, "sub"),
      env: { SVC_HOME: home, SVC_WORKER_URL: "http://127.0.0.1:9/" },
      fetch: fakeFetch,
    });
    expect(r.code, r.out).toBe(0);
    expect(posted.script).toContain('indicator("rel")');
    const set = await ctl(["config", "set", "workers.bot.script", "w.js"], {
      cwd: join(root, "sub"),
      env: { SVC_HOME: home },
    });
    expect(set.code).toBe(0);
    expect(readFileSync(join(root, "resinctl.toml"), "utf8")).toContain('script = "sub/w.js"');
  });
});

describe("secrets at rest", () => {
  it("never from argv; stdin only; masked; corrupt store is an error, never empty", async () => {
    const { root, home } = scratch();
    const env = { SVC_HOME: home };
    const argv = await ctl(["secrets", "set", "resin", "API_KEY", "--value", "x"], { cwd: root, env });
    expect(argv.code).toBe(2);
    expect(argv.err).toContain("unknown option '--value'");
    const none = await ctl(["secrets", "set", "resin", "API_KEY", "--json"], { cwd: root, env });
    expect(none.code).toBe(2);
    expect((await ctl(["secrets", "set", "resin", "API_KEY"], { cwd: root, env, stdin: "abcdef123" })).code).toBe(0);
    writeFileSync(join(root, ".resin", "secrets.json"), '{"version": 2, "secrets": {');
    const broken = await ctl(["secrets", "list", "--json"], { cwd: root, env });
    expect(broken.code).toBe(1);
    expect(broken.json).toMatchObject({ success: false, code: "SECRETS_CORRUPT" });
    const write = await ctl(["secrets", "set", "resin", "OTHER", "--json"], { cwd: root, env, stdin: "v" });
    expect(write.json).toMatchObject({ code: "SECRETS_CORRUPT" });
  });

  it("key file 0600 in a 0700 directory, refused otherwise", async () => {
    const { root, home } = scratch();
    const env = { SVC_HOME: home };
    expect((await ctl(["secrets", "set", "resin", "API_KEY"], { cwd: root, env, stdin: "abcdef123" })).code).toBe(0);
    const keyDir = join(home, "keys");
    const keyFile = join(keyDir, readdirSync(keyDir)[0] as string);
    chmodSync(keyFile, 0o644);
    const r = await ctl(["secrets", "list", "--json"], { cwd: root, env });
    expect(r.json).toMatchObject({ success: false, code: "SECRET_KEY_INSECURE" });
    chmodSync(keyFile, 0o600);
    expect((await ctl(["secrets", "list"], { cwd: root, env })).code).toBe(0);
  });

  it("SVC_SECRET_KEY goes through scrypt; a wrong key is a coded error", async () => {
    const { root, home } = scratch();
    const env = { SVC_HOME: home, SVC_SECRET_KEY: "correct horse battery staple" };
    expect((await ctl(["secrets", "set", "resin", "API_KEY"], { cwd: root, env, stdin: "abcdef123" })).code).toBe(0);
    const stored = JSON.parse(readFileSync(join(root, ".resin", "secrets.json"), "utf8"));
    expect(stored.kdf).toMatchObject({ name: "scrypt", N: 32768, r: 8, p: 1 });
    const wrong = await ctl(["secrets", "list", "--json"], { cwd: root, env: { ...env, SVC_SECRET_KEY: "wrong" } });
    expect(wrong.code).toBe(1);
    expect(wrong.json).toMatchObject({ success: false, code: "SECRET_KEY_MISMATCH" });
    const missing = await ctl(["secrets", "list", "--json"], { cwd: root, env: { SVC_HOME: home } });
    expect(missing.json).toMatchObject({ code: "SECRET_KEY_MISSING" });
  });

  it("6 concurrent writers in separate processes lose nothing", async () => {
    const { root, home } = scratch();
    const { build } = await import("esbuild");
    const entry = join(root, "writer.ts");
    writeFileSync(
      entry,
      `import { SecretStore } from ${JSON.stringify(join(process.cwd(), "src/ops/secrets.ts"))};\nconst [root, home, name] = process.argv.slice(2);\nnew SecretStore(root, {}, home).set("resin", name, "value-" + name);\n`,
    );
    const out = join(root, "writer.mjs");
    await build({
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "silent",
    });
    const names = ["K1", "K2", "K3", "K4", "K5", "K6"];
    const codes = await Promise.all(
      names.map(
        (n) =>
          new Promise<number>((resolve) => {
            const p = spawn(process.execPath, [out, root, home, n], { stdio: "ignore" });
            const t = setTimeout(() => p.kill(), 30_000);
            p.on("exit", (c) => {
              clearTimeout(t);
              resolve(c ?? 1);
            });
          }),
      ),
    );
    expect(codes).toEqual(names.map(() => 0));
    const list = await ctl(["secrets", "list", "--json"], { cwd: root, env: { SVC_HOME: home } });
    expect(((list.json?.secrets ?? []) as { name: string }[]).map((s) => s.name)).toEqual(names);
    expect(readdirSync(join(root, ".resin")).filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
  }, 60_000);
});

describe("validation and output purity", () => {
  it("worker names cannot escape the workspace; config keys cannot reach a prototype", async () => {
    const { root, home } = scratch();
    const env = { SVC_HOME: home };
    for (const key of ["workers.__proto__.x", "workers.resin.constructor", "prototype"]) {
      const r = await ctl(["config", "set", key, "1", "--json"], { cwd: root, env });
      expect(r.code).toBe(2);
      expect(r.json).toMatchObject({ success: false, code: "INVALID_CONFIG_KEY" });
    }
    expect((await ctl(["config", "set", "workers.../x.port", "1"], { cwd: root, env })).code).toBe(2);
    writeFileSync(join(root, "resinctl.toml"), '[workers."../../../escape"]\nkind = "script"\nport = 1\n');
    const r = await ctl(["deploy", "all", "--json"], { cwd: root, env });
    expect(r.json).toMatchObject({ success: false, code: "CONFIG_INVALID" });
    expect(existsSync(join(root, "..", "..", "escape"))).toBe(false);
  });

  it("--json keeps stdout pure on help, bare groups and no command", async () => {
    const { root, home } = scratch();
    const env = { SVC_HOME: home };
    for (const argv of [
      ["--help", "--json"],
      ["deploy", "--json"],
      ["--json"],
      ["deploy", "rollback", "--help", "--json"],
    ]) {
      const r = await ctl(argv, { cwd: root, env });
      expect(r.json, argv.join(" ")).not.toBeNull();
      expect(typeof r.json?.help === "string" || r.json?.onboarding === true).toBe(true);
    }
  });

  it("completion reaches every level of the tree", async () => {
    const { root, home } = scratch();
    const r = await ctl(["completion", "bash"], { cwd: root, env: { SVC_HOME: home } });
    expect(r.out).toContain('"script scripts") words="list get deploy delete');
    expect(r.out).toContain('"config kv")');
  });
});
