// Free-tier limits (service.md 2.6) and the hosted-runner behaviours (2.7), over real HTTP.

import { base64Column } from "../../src/cli/bench-optimize.js";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/server/node/host.js";
import { BARS, fakeEngine, post, start, until } from "./helpers.js";

const OK = '//@version=6\nindicator("ok")\nplot(close)\n';
let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const FREE = {
  FREE_TIER_LIMITS: "1",
  FREE_MAX_BARS: "20",
  FREE_MAX_SCRIPT_CHARS: "100",
  FREE_MAX_CONCURRENT: "1",
  FREE_RATE_LIMIT: "4",
  FREE_RATE_WINDOW_SEC: "60",
};

describe("free tier", () => {
  it("is off by default", async () => {
    server = await start({ engine: fakeEngine() });
    const res = await post(server.url, "/run", { script: OK.repeat(1000), data: BARS });
    expect(res.status).toBe(200);
  });

  it("script size, then bars, after the schema; /health shows the feature", async () => {
    server = await start({ engine: fakeEngine(), env: { ...FREE, FREE_RATE_LIMIT: "100" } });
    const health = await (await fetch(new URL("/health", server.url))).json();
    expect(health.features.free_tier_limits).toBe(true);
    const both = await post(server.url, "/run", { script: "x".repeat(101), data: BARS });
    expect(both.status).toBe(413);
    expect(both.json).toMatchObject({ code: "SCRIPT_TOO_LARGE", max_chars: 100, got_chars: 101 });
    const bars = await post(server.url, "/run", { script: OK, data: BARS });
    expect(bars.status).toBe(413);
    expect(bars.json).toMatchObject({ code: "TOO_MANY_BARS", max_bars: 20, got_bars: 30 });
    // The schema comes before the size checks.
    expect((await post(server.url, "/run", { script: "x".repeat(101), data: BARS, extra: 1 })).json.code).toBe(
      "UNKNOWN_FIELDS",
    );
    expect(
      (
        await post(server.url, "/run/batch", {
          runs: [{ script: OK }, { script: "y".repeat(200) }],
          data: BARS.slice(0, 5),
        })
      ).json.code,
    ).toBe("SCRIPT_TOO_LARGE");
    expect((await post(server.url, "/optimize", { script: OK, data: BARS, space: {} })).json.code).toBe(
      "TOO_MANY_BARS",
    );
    // columns sent as base64 float64 strings count as the bars they decode to
    const b64 = (k: "time" | "open" | "high" | "low" | "close") => base64Column(BARS.map((b) => b[k]));
    const binary = { time: b64("time"), open: b64("open"), high: b64("high"), low: b64("low"), close: b64("close") };
    expect((await post(server.url, "/optimize", { script: OK, data: binary, space: {} })).json).toMatchObject({
      code: "TOO_MANY_BARS",
      got_bars: 30,
    });
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 20) })).status).toBe(200);
    // /backtest/quick is not limited.
    expect((await post(server.url, "/backtest/quick", { data: BARS })).status).toBe(200);
  });

  it("rate limit first, with Retry-After, even before the body is read", async () => {
    server = await start({ engine: fakeEngine(), env: { ...FREE, SVC_TRUST_PROXY: "1" } });
    for (let i = 0; i < 4; i++)
      expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) })).status).toBe(200);
    const limited = await post(server.url, "/run", "{not json");
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: "error", code: "RATE_LIMITED" });
    const retry = Number(limited.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    // Other clients (here: told apart by a trusted proxy) have their own window; /health is never limited.
    expect(
      (
        await post(
          server.url,
          "/run",
          { script: OK, data: BARS.slice(0, 5) },
          { headers: { "content-type": "application/json", "x-forwarded-for": "10.0.0.9" } },
        )
      ).status,
    ).toBe(200);
    expect((await fetch(new URL("/health", server.url))).status).toBe(200);
  });

  it("concurrency slot after the body is read and valid: 429 TOO_MANY_REQUESTS while another run holds it", async () => {
    const engine = fakeEngine();
    server = await start({ engine, env: { ...FREE, FREE_RATE_LIMIT: "100" } });
    const slow = post(server.url, "/run", { script: `${OK}// SLOW 400`, data: BARS.slice(0, 5) });
    await until(() => engine.inflight === 1);
    // A bad body is answered as such (it never needed a slot) ...
    expect((await post(server.url, "/run", "{not json")).json.code).toBe("INVALID_BODY");
    // ... a valid one waits for none and is refused.
    const busy = await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) });
    expect(busy.status).toBe(429);
    expect(busy.json.code).toBe("TOO_MANY_REQUESTS");
    expect(busy.headers.get("retry-after")).toBe("1");
    expect((await slow).status).toBe(200);
    // The slot is released afterwards, also after an error.
    expect((await post(server.url, "/run", { script: "CRASH", data: BARS.slice(0, 5) })).status).toBe(500);
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) })).status).toBe(200);
  });

  it("slow uploads hold no slot: with one slot, a stalled body does not lock the next client out", async () => {
    const engine = fakeEngine();
    server = await start({ engine, env: { ...FREE, FREE_RATE_LIMIT: "100" } });
    // A body that starts and then stalls (its stream is never finished until the end of the test).
    let finish!: () => void;
    const stalled = new ReadableStream<Uint8Array>({
      start(ctrl) {
        ctrl.enqueue(new TextEncoder().encode('{"script": "x", "data": ['));
        finish = () => {
          ctrl.enqueue(new TextEncoder().encode("]}"));
          ctrl.close();
        };
      },
    });
    const slowUpload = fetch(new URL("/run", server.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stalled,
      duplex: "half",
    } as RequestInit);
    await new Promise((r) => setTimeout(r, 200));
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) })).status).toBe(200);
    finish();
    expect((await (await slowUpload).json()).code).toBe("NO_DATA");
  });

  it("library sources and data_feed bars count against the caps", async () => {
    server = await start({ engine: fakeEngine(), env: { ...FREE, FREE_RATE_LIMIT: "100" } });
    const lib = { namespace: "me", name: "L", version: 1, source: "y".repeat(80) };
    const withLib = await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5), libraries: [lib] });
    expect(withLib.status).toBe(413);
    expect(withLib.json).toMatchObject({ code: "SCRIPT_TOO_LARGE", got_chars: OK.length + 80 });
    const feed = {
      "OTHER|1": BARS.slice(0, 10),
      THIRD: { time: BARS.slice(0, 10).map((b) => b.time), open: [], high: [], low: [], close: [] },
    };
    const withFeed = await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5), data_feed: feed });
    expect(withFeed.status).toBe(413);
    expect(withFeed.json).toMatchObject({ code: "TOO_MANY_BARS", max_bars: 20, got_bars: 25 });
    expect(
      (
        await post(server.url, "/run", {
          script: OK,
          data: BARS.slice(0, 5),
          data_feed: { "OTHER|1": BARS.slice(0, 10) },
        })
      ).status,
    ).toBe(200);
    expect(
      (await post(server.url, "/optimize", { script: OK, data: BARS.slice(0, 5), space: {}, libraries: [lib] })).json
        .code,
    ).toBe("SCRIPT_TOO_LARGE");
  });

  it("X-Forwarded-For counts only behind trusted proxies (SVC_TRUST_PROXY)", async () => {
    const env = { ...FREE, FREE_RATE_LIMIT: "1" };
    const xff = (ip: string) => ({ headers: { "content-type": "application/json", "x-forwarded-for": ip } });
    server = await start({ engine: fakeEngine(), env });
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) }, xff("10.0.0.1"))).status).toBe(200);
    // Untrusted: a made-up header is not a new client.
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) }, xff("10.0.0.2"))).status).toBe(429);
    await server.close();
    server = await start({ engine: fakeEngine(), env: { ...env, SVC_TRUST_PROXY: "1" } });
    // One trusted proxy: the client is the entry it appended (the last); what the client wrote before it is ignored.
    expect(
      (await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) }, xff("1.1.1.1, 10.0.0.1"))).status,
    ).toBe(200);
    expect(
      (await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) }, xff("2.2.2.2, 10.0.0.1"))).status,
    ).toBe(429);
    expect((await post(server.url, "/run", { script: OK, data: BARS.slice(0, 5) }, xff("10.0.0.2"))).status).toBe(200);
  });
});

describe("default mode", () => {
  it("SVC_RUNTIME_MODE sets /run's default mode and /health's default_mode", async () => {
    const engine = fakeEngine();
    server = await start({ engine, env: { SVC_RUNTIME_MODE: "compile" } });
    expect((await (await fetch(new URL("/health", server.url))).json()).default_mode).toBe("compile");
    await post(server.url, "/run", { script: OK, data: BARS });
    expect(engine.jobs[0]!.options.mode).toBe("compile");
    await post(server.url, "/run", { script: OK, data: BARS, mode: "interpret" });
    expect(engine.jobs[1]!.options.mode).toBe("interpret");
  });
});

describe("hosted runner", () => {
  it("logs one JSON line per request and finishes in-flight runs on close", async () => {
    const lines: string[] = [];
    server = await start({ engine: fakeEngine(), env: { SVC_RUNNER: "1" }, out: (l) => lines.push(l) });
    const health = await (await fetch(new URL("/health", server.url))).json();
    expect(health.features.runner).toBe(true);
    const inflight = post(server.url, "/run", { script: `${OK}// SLOW 300`, data: BARS });
    const running = server;
    await until(() => running.inflight() === 1);
    const closed = server.close();
    const res = await inflight;
    await closed;
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("success");
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ method: "GET", path: "/health", status: 200 });
    expect(entries[1]).toMatchObject({ method: "POST", path: "/run", status: 200 });
    expect(typeof entries[1].ms).toBe("number");
    server = null;
  });
});
