// POST /generate on the HTTP app and on the script-writing edge app: the same validator and error
// codes as /run (MISSING_FIELD, INVALID_FIELD, UNKNOWN_FIELDS, 415), its own codes (EMPTY_REQUEST,
// NOT_UNDERSTOOD, BACKEND_NOT_CONFIGURED, BACKEND_FAILED), the LLM backend when the host's
// environment configures one, and no /generate on the evaluate worker's app.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../src/server/app.js";
import { generateApp } from "../../src/edge/generate-app.js";
import { type FakeLlm, startFakeLlm } from "./fake-llm.js";

const post = (
  app: { request: (path: string, init: RequestInit) => Response | Promise<Response> },
  body: unknown,
  type = "application/json",
) =>
  app.request("/generate", {
    method: "POST",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

let fake: FakeLlm | null = null;
afterEach(async () => {
  await fake?.close();
  fake = null;
});

describe("POST /generate", () => {
  const app = createApp();

  it("answers a verified script with what was checked and understood", async () => {
    const res = await post(app, { text: "ema 20/50 cross, long only, 2% sl, 4% tp" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.status).toBe("success");
    expect(body.backend).toBe("offline");
    expect(body.script).toMatch(/^\/\/@version=6\nstrategy\(/);
    const names = (body.verified as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(["parses", "checks", "runs", "modes agree", "stop exit", "limit exit"]),
    );
    expect(body.understood).toEqual(expect.arrayContaining(["stop loss: 2% from the entry"]));
    expect(body.not_understood).toEqual([]);
  });

  it("validates the body like /run", async () => {
    const cases: [unknown, number, string, Record<string, unknown>?][] = [
      [{}, 400, "MISSING_FIELD", { field: "text" }],
      [{ text: 5 }, 400, "INVALID_FIELD", { field: "text" }],
      [{ text: "rsi<30 buy", backend: "gpt" }, 400, "INVALID_FIELD", { field: "backend" }],
      [{ text: "rsi<30 buy", max_rounds: 9 }, 400, "INVALID_FIELD", { field: "max_rounds" }],
      [{ text: "rsi<30 buy", script: "x" }, 400, "UNKNOWN_FIELDS", { fields: ["script"] }],
      [{ text: "   " }, 400, "EMPTY_REQUEST"],
      [{ text: "x".repeat(2001) }, 400, "INVALID_FIELD", { field: "text" }],
      [[1, 2], 400, "INVALID_BODY"],
      [{ text: "moon phase astrology" }, 422, "NOT_UNDERSTOOD"],
      [{ text: "rsi<30 buy", backend: "llm" }, 503, "BACKEND_NOT_CONFIGURED"],
    ];
    for (const [body, status, code, extra] of cases) {
      const res = await post(app, body);
      const json = (await res.json()) as Record<string, unknown>;
      expect([res.status, json.status, json.code], JSON.stringify(body).slice(0, 60)).toEqual([status, "error", code]);
      if (extra) expect(json).toMatchObject(extra);
    }
    const notJson = await post(app, "text=rsi", "text/plain");
    expect(notJson.status).toBe(415);
    const nu = (await (await post(app, { text: "moon phase astrology" })).json()) as { not_understood: string[] };
    expect(nu.not_understood.join(" ")).toMatch(/moon phase astrology/);
  });

  it("uses the model endpoint the host's environment configures", async () => {
    const fx = JSON.parse(readFileSync(new URL("./fixtures/llm-repair.json", import.meta.url), "utf8"));
    fake = await startFakeLlm(fx.completions);
    const llmApp = createApp({ env: { RESIN_LLM_BASE_URL: fake.baseUrl, RESIN_LLM_MODEL: "recorded-model" } });
    const res = await post(llmApp, { text: fx.request });
    const body = (await res.json()) as Record<string, unknown>;
    expect([res.status, body.backend, body.rounds]).toEqual([200, "llm", 3]);
    // backend "offline" still picks the grammar on a host with a model
    const off = (await (await post(llmApp, { text: "rsi<30 buy, >70 sell", backend: "offline" })).json()) as Record<
      string,
      unknown
    >;
    expect(off.backend).toBe("offline");
    await fake.close();
    // a model endpoint that fails: 502 BACKEND_FAILED
    fake = await startFakeLlm([], { status: 500 });
    const broken = createApp({ env: { RESIN_LLM_BASE_URL: fake.baseUrl, RESIN_LLM_MODEL: "m" } });
    const bad = await post(broken, { text: "rsi<30 buy" });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([502, "BACKEND_FAILED"]);
  });

  it("is served by the script-writing edge app, which serves nothing else", async () => {
    const edge = generateApp({});
    const res = await post(edge, { text: "rsi<30 buy, >70 sell" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("success");
    const run = await edge.request("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(run.status).toBe(404);
    const pre = await edge.request("/generate", {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST" },
    });
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    // the evaluate worker's app leaves /generate to this one
    const evalApp = createApp({ generate: false });
    expect((await post(evalApp, { text: "rsi<30 buy" })).status).toBe(404);
  });
});
