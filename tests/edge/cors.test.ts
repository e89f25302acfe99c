// CORS on the edge worker under workerd: the chart app calls it from another origin, so preflights
// are answered and every response (errors included, the API-key refusal too) carries
// Access-Control-Allow-Origin; otherwise the browser hides the body and the user sees "failed to fetch".

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare, type WorkerOptions } from "miniflare";
import { evaluateWorker } from "./worker-options.js";
import { buildEdgeWorker } from "../../src/ops/edge-build.js";

const ORIGIN = "http://127.0.0.1:5173";
const KEY = "cors-key";
let mf: Miniflare;

beforeAll(async () => {
  const bundle = await buildEdgeWorker();
  mf = new Miniflare({
    ...(await evaluateWorker(bundle)),
    bindings: { API_KEY: KEY },
  } as WorkerOptions);
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

async function post(path: string, body: unknown, key: string | null = KEY): Promise<Response> {
  const headers: Record<string, string> = { origin: ORIGIN, "content-type": "application/json" };
  if (key !== null) headers["x-api-key"] = key;
  return mf.dispatchFetch(`http://edge.local${path}`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  }) as unknown as Promise<Response>;
}

const bars = Array.from({ length: 5 }, (_, i) => ({
  time: 1_700_000_000_000 + i * 60_000,
  open: 10 + i,
  high: 11 + i,
  low: 9 + i,
  close: 10.5 + i,
}));

describe("edge worker CORS", () => {
  it("answers a preflight for /run with the methods and headers the app sends", async () => {
    const res = await mf.dispatchFetch("http://edge.local/run", {
      method: "OPTIONS",
      headers: {
        origin: ORIGIN,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-api-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toMatch(/POST/);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/content-type/i);
    expect(res.headers.get("access-control-allow-headers")).toMatch(/x-api-key/i);
  });

  it("puts Access-Control-Allow-Origin on successes and on every kind of error", async () => {
    const cases: [string, Response][] = [
      ["200", await post("/run", { script: '//@version=6\nindicator("x")\nplot(close)\n', data: bars })],
      ["401", await post("/run", { script: "x", data: bars }, null)],
      ["400", await post("/run", {})],
      ["422", await post("/run", { script: '//@version=6\nindicator("x")\nplot(close +)\n', data: bars })],
      ["404", await post("/nope", {})],
      [
        "405",
        (await mf.dispatchFetch("http://edge.local/run", {
          method: "GET",
          headers: { origin: ORIGIN, "x-api-key": KEY },
        })) as unknown as Response,
      ],
    ];
    for (const [status, res] of cases) {
      expect(String(res.status), status).toBe(status);
      expect(res.headers.get("access-control-allow-origin"), status).toBe("*");
      expect(res.headers.get("content-type"), status).toMatch(/json/);
      await res.text();
    }
  });

  it("/health (no key) carries it too", async () => {
    const res = await mf.dispatchFetch("http://edge.local/health", { headers: { origin: ORIGIN } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    await res.text();
  });
});
