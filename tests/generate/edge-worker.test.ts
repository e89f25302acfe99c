// The script-writing edge worker (src/edge/generate-worker.ts) for real under Miniflare (workerd):
// bundled as resinctl deploys it (src/ops/edge-build.ts: esbuild, kernels.wasm as a CompiledWasm module), it writes and
// verifies a script with the offline grammar, codes bad requests like /run, and serves nothing else.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Miniflare, type MiniflareOptions } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGenerateWorker, packageRoot } from "../../src/ops/edge-build.js";

let mf: Miniflare;

beforeAll(async () => {
  // the bundle `resinctl deploy worker generate` deploys, under the package (miniflare resolves
  // module paths from its working directory)
  const { script, wasm } = await buildGenerateWorker(join(packageRoot(), "build", "generate-worker"));
  mf = new Miniflare({
    modules: [
      { type: "ESModule", path: script, contents: await readFile(script, "utf8") },
      { type: "CompiledWasm", path: wasm, contents: await readFile(wasm) },
    ],
    compatibilityDate: "2024-11-01",
    compatibilityFlags: ["nodejs_compat"],
  } as MiniflareOptions);
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await mf.dispatchFetch(`http://gen.local${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("script-writing edge worker under workerd", () => {
  it("writes a verified strategy", async () => {
    const { status, json } = await post("/generate", {
      text: "ema 20/50 cross, long only, 2% sl, trade 9:30-16:00 new york",
    });
    expect(status).toBe(200);
    expect(json.status).toBe("success");
    expect(json.script).toMatch(/not na\(time\(timeframe\.period, sessionHours, "America\/New_York"\)\)/);
    expect((json.verified as { name: string }[]).map((c) => c.name)).toEqual(
      expect.arrayContaining(["modes agree", "trades", "stop exit", "session filter"]),
    );
  }, 60_000);

  it("codes bad requests and serves nothing but /generate and /health", async () => {
    expect(await post("/generate", { txt: "x" })).toMatchObject({ status: 400, json: { code: "MISSING_FIELD" } });
    expect(await post("/generate", { text: "what is the weather" })).toMatchObject({
      status: 422,
      json: { code: "NOT_UNDERSTOOD" },
    });
    expect((await post("/run", { script: "", data: [] })).status).toBe(404);
    const health = await mf.dispatchFetch("http://gen.local/health");
    expect(health.status).toBe(200);
  }, 60_000);
});
