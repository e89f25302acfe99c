// resinctl's command groups on the local provider against a scratch workspace (real Miniflare
// stores persisted under .resin/state/): infra, db, config env/kv/transport, secrets sync, schema,
// repair/check fix/sg, backup and restore, waf, tunnel, clone, update (injected fetch and process
// runner: no network), agent, dashboard, deploy extras; then with the edge worker running: logs,
// trace with OTLP/HTTP export to a 127.0.0.1 collector, analytics, perf, test, tui, live secrets,
// cron on schedule, and dev start --runtime native.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";
import { loadConfig } from "../../src/ops/config.js";
import type { ProcessRunner } from "../../src/ops/provider-cloudflare.js";
import { type DevServer, LocalProvider } from "../../src/ops/provider-local.js";
import { SecretStore } from "../../src/ops/secrets.js";

const base = mkdtempSync(join(tmpdir(), "resinctl-groups-"));
const root = join(base, "ws");
const home = join(base, "home");
mkdirSync(root, { recursive: true });

interface Opts {
  stdin?: string | null;
  fetch?: typeof fetch;
  runProcess?: ProcessRunner;
  env?: Record<string, string>;
}

async function ctl(argv: string[], o: Opts = {}) {
  let out = "";
  let err = "";
  const code = await main(argv, {
    cwd: root,
    env: { SVC_HOME: home, SVC_CLI_SILENT: "1", ...o.env },
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    isTTY: false,
    chdir: false,
    stdin: o.stdin ?? null,
    ...(o.fetch ? { fetch: o.fetch } : {}),
    ...(o.runProcess ? { runProcess: o.runProcess } : {}),
  });
  let json: Record<string, any> | null = null;
  try {
    json = JSON.parse(out.trim().split("\n").pop() ?? "");
  } catch {
    json = null;
  }
  return { code, out, err, json: json as Record<string, any> };
}

beforeAll(async () => {
  const r = await ctl(["onboard", "--preset", "standard", "--json"]);
  expect(r.code, r.out + r.err).toBe(0);
}, 60_000);

describe("stores and config", () => {
  it("infra: provision, create/list/delete with confirmation", async () => {
    expect((await ctl(["infra", "provision", "--json"])).json.stores.length).toBeGreaterThanOrEqual(3);
    expect((await ctl(["infra", "kvstore", "create", "cache", "--json"])).json).toMatchObject({ binding: "CACHE" });
    expect((await ctl(["infra", "kvstore", "list", "--json"])).json.stores.map((s: any) => s.name)).toEqual([
      "RESIN_KV",
      "cache",
    ]);
    const refuse = await ctl(["infra", "kvstore", "delete", "cache", "--json"]);
    expect([refuse.code, refuse.json.code]).toEqual([2, "CONFIRM_REQUIRED"]);
    expect((await ctl(["infra", "kvstore", "delete", "cache", "--yes", "--json"])).json).toMatchObject({
      deleted: true,
    });
    expect((await ctl(["infra", "kvstore", "delete", "RESIN_KV", "--yes", "--json"])).json.code).toBe("PROTECTED");
    for (const g of ["sqlstore", "objstore", "queues"]) {
      expect((await ctl(["infra", g, "create", `x-${g}`])).code).toBe(0);
      expect((await ctl(["infra", g, "list", "--json"])).json.stores.some((s: any) => s.name === `x-${g}`)).toBe(true);
      expect((await ctl(["infra", g, "delete", `x-${g}`, "-y"])).code).toBe(0);
    }
    expect((await ctl(["infra", "vectorize", "create", "emb"])).code).toBe(0);
    expect((await ctl(["infra", "vectorize", "delete", "emb", "-y"])).code).toBe(0);
    expect((await ctl(["infra", "analytics", "list", "--json"])).json.stores).toEqual([]);
  }, 60_000);

  it("db: numbered migrations, query, apply, export, reset", async () => {
    expect((await ctl(["db", "list", "--json"])).json.migrations).toEqual([
      { name: "0001_resin.sql", status: "applied" },
    ]);
    const made = await ctl(["db", "migrate", "--create", "notes", "--json"]);
    expect(made.json.created).toBe("0002_notes.sql");
    writeFileSync(
      join(root, "migrations", "0002_notes.sql"),
      "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT);\n",
    );
    expect((await ctl(["db", "migrate", "--json"])).json.applied).toEqual(["0002_notes.sql"]);
    expect((await ctl(["db", "query", "INSERT INTO notes (body) VALUES ('it''s')"])).code).toBe(0);
    writeFileSync(
      join(root, "more.sql"),
      "INSERT INTO notes (body) VALUES ('two');\nINSERT INTO notes (body) VALUES ('three');\n",
    );
    expect((await ctl(["db", "apply", "more.sql", "--json"])).json.statements).toBe(2);
    expect((await ctl(["db", "query", "SELECT count(*) AS n FROM notes", "--json"])).json.rows).toEqual([{ n: 3 }]);
    const bad = await ctl(["db", "query", "SELEC nonsense", "--json"]);
    expect([bad.code, bad.json.code]).toEqual([4, "SQL_FAILED"]);
    expect((await ctl(["db", "export", "--json"])).json.sql).toContain(
      `INSERT INTO "notes" ("id", "body") VALUES (1, 'it''s');`,
    );
    expect((await ctl(["db", "reset", "--json"])).code).toBe(2);
    expect((await ctl(["db", "reset", "--yes", "--json"])).json.dropped).toContain("notes");
    expect((await ctl(["db", "migrate", "--json"])).json.applied).toEqual(["0001_resin.sql", "0002_notes.sql"]);
  }, 60_000);

  it("config kv, env, transport; secrets sync; deploy kv-config", async () => {
    expect((await ctl(["config", "kv", "set", "feature.x", "on"])).code).toBe(0);
    expect((await ctl(["config", "kv", "get", "feature.x", "--json"])).json.value).toBe("on");
    writeFileSync(join(root, "kv-config.json"), JSON.stringify({ "limits.bars": 5000, greeting: "hi" }));
    expect((await ctl(["deploy", "kv-config", "--json"])).json.applied).toBe(2);
    expect((await ctl(["config", "kv", "manifest", "--json"])).json.manifest).toEqual({
      "feature.x": "on",
      greeting: "hi",
      "limits.bars": "5000",
    });
    writeFileSync(join(root, "m.json"), JSON.stringify({ other: "1" }));
    expect((await ctl(["config", "kv", "apply-manifest", "m.json"])).code).toBe(0);
    expect(Object.keys((await ctl(["config", "kv", "list", "--json"])).json.entries)).toHaveLength(4);
    expect((await ctl(["config", "kv", "delete", "other"])).code).toBe(0);
    expect((await ctl(["config", "kv", "get", "other"])).code).toBe(4);

    expect((await ctl(["config", "env", "init", "--json"])).json.written.length).toBe(
      2 * Object.keys(loadConfig(root).workers).length,
    );
    expect(
      (await ctl(["config", "env", "show", "--json"])).json.vars.every((v: any) => v.status === "placeholder"),
    ).toBe(true);
    expect((await ctl(["config", "env", "validate", "--json"])).json.ok).toBe(true); // API_KEY is in the store
    writeFileSync(join(root, ".dev.vars"), "API_KEY=real-key-123\nFORWARD_EVENTS=<x>\nINTERNAL_KEY_BINDING=\n");
    const sync = await ctl(["secrets", "sync", "resin", "--json"]);
    expect(sync.json).toMatchObject({ synced: 1, skipped: 2, failed: 0 });
    expect((await ctl(["secrets", "sync", "--system", "--json"])).json.synced).toBe(
      Object.keys(loadConfig(root).workers).length,
    );
    expect((await ctl(["secrets", "sync", "--required", "--json"])).json.synced).toBe(1);
    expect((await ctl(["config", "env", "generate-dev-vars", "--json"])).json.written[0].vars).toBeGreaterThanOrEqual(
      2,
    );
    expect(readFileSync(join(root, ".dev.vars"), "utf8")).toContain("API_KEY=real-key-123");
    expect((await ctl(["config", "transport", "set", "tunnel", "--json"])).json.transport).toBe("tunnel");
    expect((await ctl(["config", "transport", "show", "--json"])).json.transport).toBe("tunnel");
    expect((await ctl(["config", "transport", "set", "carrier-pigeon"])).code).toBe(2);
  }, 60_000);

  it("schema, repair, check fix, submodule-gitignore", async () => {
    expect((await ctl(["schema", "list", "--json"])).json.schemas.length).toBe(
      1 + Object.keys(loadConfig(root).workers).length,
    );
    expect((await ctl(["schema", "validate", "--json"])).json.valid).toBe(true);
    expect((await ctl(["schema", "generate", "resin", "--json"])).json.schema.properties.kind).toBeDefined();
    const cfg = readFileSync(join(root, "resinctl.toml"), "utf8");
    writeFileSync(join(root, "resinctl.toml"), cfg.replace(/port = \d+/, "port = 99999"));
    const bad = await ctl(["schema", "validate", "resin", "--json"]);
    expect([bad.code, bad.json.problems[0].where]).toEqual([4, "workers.resin.port"]);
    writeFileSync(join(root, "resinctl.toml"), cfg);

    const checks = await ctl(["repair", "check", "--json"]);
    expect(checks.json.steps.map((s: any) => s.step)).toEqual(["config", "state", "secrets", "deployments", "db"]);
    expect(checks.code, JSON.stringify(checks.json)).toBe(0);
    new SecretStore(root, {}, home).delete("_internal", "INTERNAL_KEY_BINDING");
    expect((await ctl(["check", "fix", "--dry-run", "--json"])).json.fixes[0]).toMatchObject({
      step: "secrets",
      status: "would fix",
    });
    expect((await ctl(["check", "fix", "--json"])).json.fixes[0]).toMatchObject({ status: "fixed" });
    for (const r of ["infra", "secrets", "kv", "db"]) expect((await ctl(["repair", r])).code).toBe(0);
    expect((await ctl(["repair", "worker", "resin", "--json"])).json.detail).toMatch(/redeployed as v1/);
    expect((await ctl(["repair", "rebuild", "--yes", "--json"])).json.rebuilt[0]).toMatch(/v1/);

    writeFileSync(join(root, ".gitmodules"), '[submodule "workers/bot"]\n\tpath = workers/bot\n\turl = x\n');
    writeFileSync(join(root, ".gitignore"), "workers/\n");
    const sg = await ctl(["check", "sg", "--json"]);
    expect(sg.code).toBe(4);
    expect(sg.json.problems.map((p: any) => p.path)).toEqual(["workers/bot", ".resin/", ".dev.vars", ".dev.vars.*"]);
    expect((await ctl(["check", "submodule-gitignore", "--fix", "--json"])).json.fixed).toEqual([
      ".resin/",
      ".dev.vars",
      ".dev.vars.*",
    ]);
  }, 120_000);

  it("backup and restore, waf, tunnel, clone, update, agent, dashboard, telegram, internal urls", async () => {
    const b = await ctl(["monitor", "backup", "--json"]);
    expect(b.code, b.out).toBe(0);
    expect(existsSync(b.json.file)).toBe(true);
    writeFileSync(join(root, "resinctl.toml"), "# damaged\n");
    expect(
      (await ctl(["monitor", "backup", "--restore", b.json.file, "--yes", "--json"])).json.entries,
    ).toBeGreaterThan(3);
    expect(loadConfig(root).preset).toBe("standard");

    expect((await ctl(["waf", "--json"])).json).toMatchObject({ dry_run: true });
    const calls: string[][] = [];
    const runner: ProcessRunner = (cmd, args) => {
      calls.push([cmd, ...args]);
      return cmd === "cloudflared"
        ? { status: 0, stdout: "cloudflared version 2024.1.0\n", stderr: "" }
        : { status: null, stdout: "", stderr: "", error: new Error("ENOENT") };
    };
    const fakeFetch = (async (url: string | URL) => {
      const u = String(url);
      if (u.includes("/v1/health")) return new Response('{"status":"ok"}');
      if (u.includes("registry")) return new Response(JSON.stringify({ version: "99.0.0" }));
      if (u.includes("api.telegram.org")) return new Response(JSON.stringify({ ok: true, result: true }));
      return new Response("{}", { status: 404 });
    }) as typeof fetch;
    const t = await ctl(["tunnel", "check", "--probe", "https://t.example", "--json"], {
      runProcess: runner,
      fetch: fakeFetch,
    });
    expect(t.code).toBe(0);
    expect(t.json.probe).toMatchObject({ status: "ok" });
    const gitRunner: ProcessRunner = (cmd, args) => {
      calls.push([cmd, ...args]);
      return { status: 0, stdout: "", stderr: "" };
    };
    expect((await ctl(["clone", "bot", "--url", "https://example.com/bot.git"], { runProcess: gitRunner })).code).toBe(
      0,
    );
    expect(calls.at(-1)).toEqual(["git", "submodule", "add", "--", "https://example.com/bot.git", "workers/bot"]);
    expect((await ctl(["clone", "../x", "--url", "https://e/x.git"], { runProcess: gitRunner })).code).toBe(2);
    const up = await ctl(["update", "--dry-run", "--json"], { fetch: fakeFetch });
    expect(up.json).toMatchObject({ latest: "99.0.0", update_available: true, dry_run: true });
    expect((await ctl(["agent", "health", "--json"])).json.code).toBe("NOT_CONFIGURED");
    expect((await ctl(["dashboard", "deploy", "--rebuild", "--json"])).json.version).toBe(1);
    expect((await ctl(["deploy", "dashboard", "--json"])).json.version).toBe(2);
    expect((await ctl(["deploy", "telegram-webhook", "--url", "https://bot.example", "--json"])).json.code).toBe(
      "MISSING_SECRET",
    );
    expect((await ctl(["secrets", "set", "telegram", "TELEGRAM_BOT_TOKEN"], { stdin: "123:abc" })).code).toBe(0);
    const tg = await ctl(["deploy", "telegram-webhook", "--url", "https://bot.example", "--json"], {
      fetch: fakeFetch,
    });
    expect(tg.json).toMatchObject({ success: true, webhook: "https://bot.example/webhook" });
    expect((await ctl(["deploy", "update-internal-urls", "--json"])).json.internal_urls).toHaveProperty("resin");
  }, 120_000);
});

describe("with the edge worker running", () => {
  const local = new LocalProvider(root);
  let dev: DevServer;
  let collector: Server;
  const received: any[] = [];

  beforeAll(async () => {
    const store = new SecretStore(root, {}, home);
    store.delete("resin", "API_KEY");
    dev = await local.startDev("resin", loadConfig(root).workers.resin!, {
      port: 0,
      bindings: () => store.all("resin"),
      watch: [store.file],
      crons: ["* * * * * *"],
    });
    collector = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push({ path: req.url, body: JSON.parse(body) });
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((r) => collector.listen(0, "127.0.0.1", () => r()));
  }, 120_000);
  afterAll(async () => {
    await dev?.stop();
    collector?.close();
  });

  it("requests and cron leave captured logs and trace events; OTLP export reaches a collector", async () => {
    for (let i = 0; i < 3; i++) expect((await ctl(["script", "health"])).code).toBe(0);
    for (let i = 0; i < 50 && dev.cronRuns < 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(dev.cronRuns).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 50 && !local.readLogs("resin").some((l) => l.msg.includes('"trace":"request"')); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(
      (await ctl(["logs", "worker", "resin", "--json"])).json.lines.some((l: any) => l.msg.startsWith("cron ")),
    ).toBe(true);
    expect((await ctl(["logs", "all", "--lines", "2", "--json"])).json.lines).toHaveLength(2);
    expect((await ctl(["workers", "logs", "resin", "--json"])).json.lines.length).toBeGreaterThan(0);
    expect((await ctl(["monitor", "logs", "--json"])).json.workers).toContain("resin");
    const followed = await ctl(["logs", "worker", "resin", "--follow", "--for", "1", "--lines", "1", "--json"]);
    expect(followed.json).toMatchObject({ followed: true });
    const ev = await ctl(["trace", "events", "--kind", "request", "--json"]);
    expect(ev.json.events.length).toBeGreaterThanOrEqual(3);
    expect((await ctl(["trace", "metrics", "--json"])).json.metrics[0]).toMatchObject({ series: "resin request" });
    expect((await ctl(["trace", "keys", "--json"])).json.keys).toHaveProperty("status");
    expect((await ctl(["trace", "values", "path", "--json"])).json.values["/health"]).toBeGreaterThanOrEqual(3);
    expect((await ctl(["trace", "live", "--for", "1", "--json"])).json).toHaveProperty("printed");
    const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
    const add = await ctl(["trace", "destinations", "add", endpoint, "--name", "local", "--json"]);
    expect(add.json.exported[0]).toMatchObject({ name: "local", status: "ok" });
    expect(received[0].path).toBe("/v1/logs");
    expect(received[0].body.resourceLogs[0].resource.attributes[0]).toEqual({
      key: "service.name",
      value: { stringValue: "resin" },
    });
    expect((await ctl(["trace", "usage", "--json"])).json.destinations[0].exported).toBeGreaterThanOrEqual(3);
    expect((await ctl(["trace", "destinations", "remove", "local"])).code).toBe(0);
    expect(
      (await ctl(["monitor", "analytics", "--json"])).json.routes.some((r: any) => r.route === "resin GET /health"),
    ).toBe(true);
  }, 60_000);

  it("perf fastpath, test pipeline, tui frame, dashboard dev, sync-vendor, feed refresh", async () => {
    const run = await ctl(["perf", "fastpath", "run", "--n", "3", "--json"]);
    expect(run.json.hops.map((h: any) => [h.hop, h.n])).toEqual([
      ["health", 3],
      ["scripts", 3],
      ["run", 3],
    ]);
    expect((await ctl(["perf", "fastpath", "report", "--json"])).json).toMatchObject({ runs: 1, probes: 9 });
    expect((await ctl(["perf", "fastpath", "tail", "--duration", "1", "--json"])).json.probes).toBeGreaterThan(0);
    const pipeline = await ctl(["test", "--json"]);
    expect(pipeline.json.steps.find((s: any) => s.step === "edge run")).toMatchObject({ status: "ok" });
    const frame = await ctl(["tui", "--once"]);
    expect(frame.out).toContain("resin operations");
    expect(frame.out).toMatch(/resin\s+v\d+\s+running/);
    expect(frame.out).toContain("Kill switch");
    const dash = await ctl(["dashboard", "dev", "--port", "0", "--for", "1", "--json"]);
    expect(dash.json).toMatchObject({ stopped: true });
    mkdirSync(join(root, "scripts"), { recursive: true });
    writeFileSync(join(root, "scripts", "a.pine"), '//@version=6\nindicator("a")\nplot(close)\n');
    expect((await ctl(["script", "sync-vendor", "--json"])).json.stored).toEqual(["a"]);
    const feedFetch = (async (url: string | URL, init?: RequestInit) =>
      String(url).startsWith("https://feed.example")
        ? new Response(
            JSON.stringify([{ time: 1_700_000_000_000, open: 1, high: 2, low: 0.5, close: 1.5, volume: 10 }]),
          )
        : fetch(url, init)) as typeof fetch;
    const feed = await ctl(
      ["script", "feed", "refresh", "--url", "https://feed.example/x", "--symbol", "X", "--timeframe", "1", "--json"],
      { fetch: feedFetch },
    );
    expect(feed.json.ingest).toMatchObject({ count: 1 });
  }, 120_000);

  it("a secret set while the worker runs reaches it without a restart", async () => {
    expect((await ctl(["script", "scripts", "list"])).code).toBe(0);
    const before = dev.reloads;
    new SecretStore(root, {}, home).set("resin", "API_KEY", "live-key-42");
    for (let i = 0; i < 100 && dev.reloads === before; i++) await new Promise((r) => setTimeout(r, 100));
    const res = await fetch(new URL("scripts", dev.url));
    expect(res.status).toBe(401);
    expect((await ctl(["script", "scripts", "list"])).code).toBe(0); // resinctl sends the key
  }, 30_000);
});

describe("dev start", () => {
  it("--runtime native serves the edge app from Node over the same stores, stops by itself", async () => {
    const started = ctl(["dev", "start", "--runtime", "native", "--port", "0", "--for", "8", "--json"]);
    const local = new LocalProvider(root);
    let url: string | null = null;
    for (let i = 0; i < 600 && !url; i++) {
      await new Promise((r) => setTimeout(r, 50));
      url = local.runningUrl("resin");
    }
    if (!url) console.error((await started).out, (await started).err);
    expect(url).not.toBeNull();
    const health = await fetch(new URL("health", url as string));
    expect(health.status).toBe(200);
    const done = await started;
    expect(done.code).toBe(0);
    expect(done.json).toMatchObject({ stopped: ["resin"], signal: null });
  }, 60_000);
});
