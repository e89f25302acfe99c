// The kill switch and the rate limiter (MeshControl, one Durable Object read per order) under
// Miniflare, the Binance-shaped exchange adapter against a mock exchange on 127.0.0.1 (test vs
// live credentials), and a bounded 1,000-signal load test. The timing figures printed here are
// reports, not assertions, except the kill switch's 10 s bound the operations spec promises.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare } from "miniflare";
import { callJson, INTERNAL_KEY, meshWorker, mockExchange } from "./harness.js";

let mf: Miniflare;
let limited: Miniflare;
let exchange: Awaited<ReturnType<typeof mockExchange>>;
let binance: Miniflare;

const sig = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  symbol: "KS",
  action: "buy",
  qty: 1,
  price: 10,
  ...extra,
});

beforeAll(async () => {
  const roomy = { RATE_PER_KEY_PER_MIN: "1000000", RATE_PER_SYMBOL_PER_MIN: "1000000" };
  mf = new Miniflare({ workers: [await meshWorker(roomy)] });
  limited = new Miniflare({
    workers: [await meshWorker({ RATE_PER_KEY_PER_MIN: "5", RATE_PER_SYMBOL_PER_MIN: "3", WEBHOOK_W_SECRET: "w" })],
  });
  exchange = await mockExchange({ "live-key": "live-secret", "test-key": "test-secret" }, 200);
  binance = new Miniflare({
    workers: [
      await meshWorker({
        ...roomy,
        BROKER: "binance",
        BINANCE_KEY_BINDING: "live-key",
        BINANCE_SECRET_BINDING: "live-secret",
        BINANCE_TESTNET_KEY_BINDING: "test-key",
        BINANCE_TESTNET_SECRET_BINDING: "test-secret",
        BINANCE_BASE_URL: `${exchange.url}/live`.replace("/live", ""),
        BINANCE_TESTNET_BASE_URL: exchange.url,
      }),
    ],
  });
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
  await limited?.dispose();
  await binance?.dispose();
  await exchange?.close();
});

describe("kill switch", () => {
  it("on halts every order at the gateway; off lets new ones through; orders queued before 'on' stay cancelled", async () => {
    expect((await callJson(mf, "/signal", { json: sig("k0") })).status).toBe(200);
    const queuedAt = Date.now();
    const on = await callJson(mf, "/kill-switch", { method: "PUT", json: { on: true }, internal: true });
    expect(on.json).toMatchObject({ status: "success", on: true });
    const halted = await callJson(mf, "/signal", { json: sig("k1") });
    expect([halted.status, halted.json.code]).toEqual([423, "KILL_SWITCH_ON"]);
    expect((await callJson(mf, "/kill-switch", { internal: true })).json.on).toBe(true);
    await callJson(mf, "/kill-switch", { method: "PUT", json: { on: false }, internal: true });
    // A signal queued (by the evaluate worker's outbox) before the switch went on is cancelled, not sent late.
    const stale = await callJson(mf, "/signal", { json: sig("k2", { queued_at: queuedAt }) });
    expect([stale.status, stale.json.code]).toEqual([423, "CANCELLED_BY_KILL_SWITCH"]);
    expect((await callJson(mf, "/signal", { json: sig("k3", { queued_at: Date.now() }) })).status).toBe(200);
    // A halted key stays halted.
    expect((await callJson(mf, "/signal", { json: sig("k1") })).json).toMatchObject({
      code: "KILL_SWITCH_ON",
      duplicate: true,
    });
  });

  it("under a continuous signal stream, the last order lands well under 10 s after 'on'", async () => {
    let stop = false;
    let n = 0;
    const placedAt: number[] = [];
    let onSentAt = Number.POSITIVE_INFINITY;
    let onAnsweredAt = Number.POSITIVE_INFINITY;
    const refusedAfterOn: string[] = [];
    const stream = async (lane: number) => {
      while (!stop) {
        const key = `stream-${lane}-${n++}`;
        const sentAt = Date.now();
        const res = await callJson(mf, "/signal", { json: sig(key, { symbol: `S${lane}` }) });
        if (res.status === 200) placedAt.push(Date.now());
        else if (sentAt > onAnsweredAt) refusedAfterOn.push(res.json.code);
        if (res.status !== 200 && res.status !== 423)
          throw new Error(`unexpected ${res.status} ${JSON.stringify(res.json)}`);
      }
    };
    const lanes = [0, 1, 2, 3].map(stream);
    await new Promise((r) => setTimeout(r, 600));
    onSentAt = Date.now();
    await callJson(mf, "/kill-switch", { method: "PUT", json: { on: true }, internal: true });
    onAnsweredAt = Date.now();
    await new Promise((r) => setTimeout(r, 600));
    stop = true;
    await Promise.all(lanes);
    await callJson(mf, "/kill-switch", { method: "PUT", json: { on: false }, internal: true });
    const last = Math.max(...placedAt);
    const holdMs = Math.max(0, last - onSentAt);
    console.log(
      `kill switch: ${placedAt.length} orders placed before it, last order ${holdMs} ms after 'on' was sent ('on' took ${onAnsweredAt - onSentAt} ms); ${refusedAfterOn.length} signals refused after`,
    );
    expect(placedAt.length).toBeGreaterThan(0);
    expect(refusedAfterOn.length).toBeGreaterThan(0);
    expect(refusedAfterOn.every((c) => c === "KILL_SWITCH_ON")).toBe(true);
    // Every order that was placed was answered before 'on' was answered (the gate is read per order).
    expect(last).toBeLessThanOrEqual(onAnsweredAt);
    expect(holdMs).toBeLessThan(10_000);
  }, 60_000);
});

describe("rate limits", () => {
  it("per symbol and per key, with retry_after_ms; a rate-limited key is not burnt", async () => {
    const w = (key: string, symbol: string) => ({
      webhook: "w",
      secret: "w",
      symbol,
      action: "buy",
      qty: 1,
      price: 1,
      key,
    });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await callJson(limited, "/signal", { json: w(`a${i}`, "ONE"), internal: false })).status);
    expect(codes).toEqual([200, 200, 200, 429]);
    const limitedAnswer = await callJson(limited, "/signal", { json: w("a3", "ONE"), internal: false });
    expect(limitedAnswer.json).toMatchObject({ code: "RATE_LIMITED" });
    expect(limitedAnswer.json.retry_after_ms).toBeGreaterThan(0);
    // Another symbol has its own bucket, until the key's (5 a minute) runs out.
    expect((await callJson(limited, "/signal", { json: w("b0", "TWO"), internal: false })).status).toBe(200);
    expect((await callJson(limited, "/signal", { json: w("b1", "TWO"), internal: false })).status).toBe(200);
    expect((await callJson(limited, "/signal", { json: w("b2", "THREE"), internal: false })).json.code).toBe(
      "RATE_LIMITED",
    );
    // The internal key is another principal: its bucket is full.
    const internal = await callJson(limited, "/signal", {
      json: { key: "i0", symbol: "FOUR", action: "buy", qty: 1, price: 1 },
      headers: { "x-internal-key": INTERNAL_KEY },
    });
    expect(internal.status).toBe(200);
    // The rate-limited key was released, not recorded as refused: it is still a reservation anyone may take over.
    const db = await limited.getD1Database("MESH_DB");
    expect(await db.prepare("SELECT status, lease_until FROM orders WHERE key = 'wh:w:a3'").first()).toEqual({
      status: "reserved",
      lease_until: 0,
    });
  });
});

describe("exchange adapter (Binance REST shape) against a mock exchange on 127.0.0.1", () => {
  it("signs requests; test: true uses the testnet secrets, false the live ones", async () => {
    const live = await callJson(binance, "/signal", {
      json: { key: "bx-live", symbol: "BTCUSDT", action: "buy", qty: 0.5 },
    });
    expect(live.json.order).toMatchObject({
      status: "placed",
      broker: "binance",
      qty: 0.5,
      price: 200,
      fee: 0.01,
      test: false,
    });
    const test = await callJson(binance, "/signal", {
      json: { key: "bx-test", symbol: "BTCUSDT", action: "buy", qty: 0.25, test: true },
    });
    expect(test.json.order).toMatchObject({ status: "placed", test: true });
    const posts = exchange.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => r.apiKey)).toEqual(["live-key", "test-key"]);
    expect(posts.every((r) => r.signatureValid)).toBe(true);
    expect(posts[0]!.query.get("type")).toBe("MARKET");
    expect(posts[0]!.query.get("side")).toBe("BUY");
    expect(posts[0]!.query.get("newClientOrderId")).toMatch(/^rs-[0-9a-f]{32}$/);
  });

  it("a crash after the exchange filled: the retry looks the order up and does not send it again", async () => {
    await callJson(binance, "/signal", { json: { key: "bx-crash", symbol: "ETHUSDT", action: "buy", qty: 1 } });
    const db = await binance.getD1Database("MESH_DB");
    await db.prepare("UPDATE orders SET status = 'reserved', lease_until = 0 WHERE key = 'bx-crash'").run();
    const postsBefore = exchange.requests.filter((r) => r.method === "POST").length;
    const retry = await callJson(binance, "/signal", {
      json: { key: "bx-crash", symbol: "ETHUSDT", action: "buy", qty: 1 },
    });
    expect(retry.json.order).toMatchObject({ status: "placed", qty: 1 });
    expect(exchange.requests.filter((r) => r.method === "POST").length).toBe(postsBefore);
    expect(exchange.requests.at(-1)).toMatchObject({ method: "GET", signatureValid: true });
  });

  it("missing credentials are a retryable 503 with the secret's name; exchange rejections are final", async () => {
    const noCreds = new Miniflare({ workers: [await meshWorker({ BROKER: "binance" })] });
    try {
      const res = await callJson(noCreds, "/signal", {
        json: { key: "nc", symbol: "BTCUSDT", action: "buy", qty: 1, test: true },
      });
      expect([res.status, res.json.code]).toEqual([503, "BROKER_NOT_CONFIGURED"]);
      expect(res.json.message).toMatch(/BINANCE_TESTNET_KEY_BINDING/);
    } finally {
      await noCreds.dispose();
    }
  });
});

describe("load", () => {
  it("1,000 signals through the gateway: orders placed equal signals accepted (bounded, 127.0.0.1)", async () => {
    const total = 1000;
    const lanes = 8;
    let next = 0;
    let accepted = 0;
    let transportRetries = 0;
    const started = Date.now();
    await Promise.all(
      Array.from({ length: lanes }, async () => {
        while (next < total) {
          const i = next++;
          // A dropped connection leaves the client not knowing: it resends the same key, which the
          // gateway's idempotency makes safe (at most 3 tries, so the test stays bounded).
          for (let attempt = 1; ; attempt++) {
            try {
              const res = await callJson(mf, "/signal", { json: sig(`load-${i}`, { symbol: `L${i % 10}` }) });
              if (res.status === 200) accepted++;
              break;
            } catch (e) {
              if (attempt === 3) throw e;
              transportRetries++;
            }
          }
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const db = await mf.getD1Database("MESH_DB");
    const placed = (
      (await db.prepare("SELECT COUNT(*) AS n FROM orders WHERE key LIKE 'load-%' AND status = 'placed'").first()) as {
        n: number;
      }
    ).n;
    const fills = (
      (await db.prepare("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol LIKE 'L%'").first()) as { n: number }
    ).n;
    console.log(
      `load: ${total} signals, ${accepted} accepted, ${placed} placed in ${seconds.toFixed(2)} s = ${(placed / seconds).toFixed(0)} orders/s (${lanes} lanes, ${transportRetries} transport retries; indicative, shared machine)`,
    );
    expect(accepted).toBe(total);
    expect(placed).toBe(accepted);
    expect(fills).toBe(accepted);
  }, 240_000);
});
