// resinctl and the script-writing worker (issue 23, src/edge/generate-worker.ts): `deploy worker
// generate` bundles it (kernels.wasm beside it) as a numbered version on the local provider,
// `dev worker generate` serves it under workerd and it answers POST /generate with the offline
// grammar; a model endpoint set as the worker's secrets reaches it (a local fake replaying recorded
// completions); the cloudflare provider's wrangler.toml uploads the same bundle with no stores.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { afterAll, describe, expect, it } from "vitest";
import { main } from "../../src/ops/cli.js";
import { DEFAULT_CONFIG, loadConfig } from "../../src/ops/config.js";
import { declaredVars } from "../../src/ops/devvars.js";
import { CloudflareProvider } from "../../src/ops/provider-cloudflare.js";
import { type DevServer, LocalProvider } from "../../src/ops/provider-local.js";
import { SecretStore } from "../../src/ops/secrets.js";
import { type FakeLlm, startFakeLlm } from "../generate/fake-llm.js";

const base = mkdtempSync(join(tmpdir(), "resinctl-gen-"));
const root = join(base, "ws");
const home = join(base, "home");
mkdirSync(root, { recursive: true });
writeFileSync(join(root, "package.json"), JSON.stringify({ name: "resin" }));
writeFileSync(join(root, "resinctl.toml.example"), "");

async function ctl(argv: string[]) {
  let out = "";
  let err = "";
  const code = await main(argv, {
    cwd: root,
    env: { SVC_CLI_SILENT: "1", SVC_HOME: home },
    stdout: (s) => void (out += s),
    stderr: (s) => void (err += s),
    isTTY: false,
    chdir: false,
    stdin: null,
  });
  // `dev` prints a "listening" line before its result: the last JSON line is the result
  const last = out.trim().split("\n").pop() ?? "";
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(last);
  } catch {}
  return { code, out, err, json };
}

async function postGenerate(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(new URL("generate", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

let dev: DevServer | undefined;
let fake: FakeLlm | undefined;
afterAll(async () => {
  await dev?.stop();
  await fake?.close();
});

describe("resinctl and the script-writing worker", () => {
  it("is a configured worker by default, with the model endpoint as its declared secrets", () => {
    expect(loadConfig(root).workers.generate).toEqual({
      kind: "generate",
      port: 8790,
      compatibility_date: "2024-11-01",
    });
    expect(declaredVars("generate").map((v) => v.name)).toEqual(
      expect.arrayContaining(["RESIN_LLM_BASE_URL", "RESIN_LLM_MODEL", "RESIN_LLM_API_KEY"]),
    );
  });

  it("deploy worker generate bundles it with kernels.wasm as a numbered version", async () => {
    const r = await ctl(["deploy", "worker", "generate", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.json).toMatchObject({ success: true, worker: "generate", version: 1, hot_reload: false });
    expect(r.json?.bytes as number).toBeGreaterThan(100_000);
    const dir = join(root, ".resin", "versions", "generate", "v1");
    expect(existsSync(join(dir, "kernels.wasm"))).toBe(true);
    // the script-writing entry, not the evaluate worker: no compiled-scripts index, the generate route
    const bundle = readFileSync(join(dir, "worker.js"), "utf8");
    expect(bundle).toMatch(/\/generate/);
    expect(existsSync(join(dir, "compiled"))).toBe(false);
  }, 120_000);

  it("dev worker generate serves POST /generate with the offline grammar and nothing else, stops by itself", async () => {
    const started = ctl(["dev", "worker", "generate", "--port", "0", "--for", "8", "--json"]);
    const local = new LocalProvider(root);
    let url: string | null = null;
    for (let i = 0; i < 600 && !url; i++) {
      await new Promise((r) => setTimeout(r, 50));
      url = local.runningUrl("generate");
    }
    expect(url).not.toBeNull();
    const ok = await postGenerate(url as string, { text: "ema 9/21 cross long only, 1% sl" });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: "success", backend: "offline" });
    expect(ok.json.script).toMatch(/ta\.crossover\(ema9, ema21\)/);
    expect((ok.json.verified as { name: string }[]).map((c) => c.name)).toEqual(
      expect.arrayContaining(["checks", "modes agree", "stop exit"]),
    );
    // coded errors like /run
    const bad = await postGenerate(url as string, { text: "draw me a cat" });
    expect([bad.status, bad.json.code]).toEqual([422, "NOT_UNDERSTOOD"]);
    const llm = await postGenerate(url as string, { text: "rsi<30 buy", backend: "llm" });
    expect(llm.json.status).toBe("error");
    expect(llm.json.message).toMatch(/RESIN_LLM_BASE_URL/);
    expect((await fetch(new URL("health", url as string))).status).toBe(200);
    const run = await fetch(new URL("run", url as string), { method: "POST", body: "{}" });
    expect(run.status).toBe(404);
    const done = await started;
    expect(done.code, done.err).toBe(0);
    expect(done.json).toMatchObject({ stopped: ["generate"], signal: null });
    expect(local.runningUrl("generate")).toBeNull();
  }, 60_000);

  it("uses the model endpoint set as its secrets (LLM key sent as a bearer token)", async () => {
    const fx = JSON.parse(readFileSync(new URL("../generate/fixtures/llm-repair.json", import.meta.url), "utf8")) as {
      request: string;
      completions: unknown[];
    };
    fake = await startFakeLlm(fx.completions);
    const store = new SecretStore(root, {}, home);
    store.set("generate", "RESIN_LLM_BASE_URL", fake.baseUrl);
    store.set("generate", "RESIN_LLM_MODEL", "recorded-model");
    store.set("generate", "RESIN_LLM_API_KEY", "sk-test-0123456789");
    const local = new LocalProvider(root);
    dev = await local.startDev("generate", loadConfig(root).workers.generate!, {
      port: 0,
      bindings: () => store.all("generate"),
    });
    const r = await postGenerate(dev.url, { text: fx.request });
    expect(r.status, JSON.stringify(r.json).slice(0, 300)).toBe(200);
    expect([r.json.backend, r.json.rounds]).toEqual(["llm", 3]);
    expect(fake.requests[0]?.body.model).toBe("recorded-model");
    expect(fake.requests[0]?.headers.authorization).toBe("Bearer sk-test-0123456789");
  }, 60_000);

  it("the cloudflare provider's wrangler.toml uploads the bundle with the wasm rule, no stores, its secrets named", () => {
    const cf = new CloudflareProvider({ config: { ...DEFAULT_CONFIG, account_id: "acct" } as never });
    const text = cf.wranglerToml("generate", DEFAULT_CONFIG.workers.generate!, [
      { kind: "kv", name: "resin-kv", id: "k1" },
      { kind: "sql", name: "resin-db", id: "d1" },
    ]);
    const doc = parseToml(text) as Record<string, unknown>;
    expect(doc).toMatchObject({
      name: "generate",
      main: "worker.js",
      account_id: "acct",
      no_bundle: true,
      find_additional_modules: true,
      rules: [{ type: "CompiledWasm", globs: ["**/*.wasm"], fallthrough: false }],
    });
    for (const k of ["kv_namespaces", "d1_databases", "r2_buckets", "durable_objects", "triggers", "services"])
      expect(doc[k], k).toBeUndefined();
    expect(text).toMatch(
      /# secrets it reads \(resinctl secrets set generate NAME\): RESIN_LLM_BASE_URL, RESIN_LLM_MODEL, RESIN_LLM_API_KEY/,
    );
  });
});
