// Keyless webhooks (src/mesh/webhook-key.ts): a retried delivery of the same alert places once, under
// Miniflare (real D1 and Durable Object) with a 2 s dedup window, and the key derivation's rule itself.

import type { Miniflare as MF } from "miniflare";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { derivedWebhookKey, type WebhookFields } from "../../src/mesh/webhook-key.js";
import { meshWorker } from "./harness.js";

let mf: MF;
const WINDOW_MS = 2000;

beforeAll(async () => {
  mf = new Miniflare({
    workers: [
      await meshWorker({
        WEBHOOK_TV1_SECRET: "tv-secret",
        WEBHOOK_DEDUP_WINDOW_S: String(WINDOW_MS / 1000),
        RATE_PER_KEY_PER_MIN: "100000",
        RATE_PER_SYMBOL_PER_MIN: "100000",
      }),
    ],
  });
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

const alert = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  secret: "tv-secret",
  symbol: "DEDUP",
  action: "buy",
  qty: 1,
  price: 10,
  ...extra,
});

/** TradingView posts the alert's message as text/plain to the webhook URL. */
async function deliver(body: Record<string, unknown>): Promise<{ status: number; json: any }> {
  const res = await mf.dispatchFetch("http://trade.local/webhook/tv1", {
    method: "POST",
    headers: { "content-type": "text/plain" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

async function placed(symbol: string): Promise<number> {
  const db = await mf.getD1Database("MESH_DB");
  const row = (await db
    .prepare("SELECT COUNT(*) AS n FROM orders WHERE symbol = ?1 AND status = 'placed'")
    .bind(symbol)
    .first()) as { n: number };
  return row.n;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("keyless webhooks are deduplicated", () => {
  it("with TradingView's {{time}}: retries of one bar's alert place once, however late; the next bar's places", async () => {
    const bar = alert({ symbol: "TIMED", time: "2026-11-28T13:00:00Z" });
    const first = await deliver(bar);
    expect(first).toMatchObject({ status: 200, json: { duplicate: false, order: { status: "placed" } } });
    // concurrent retries, and one after the dedup window: the time keys them, not the clock
    const retries = await Promise.all(Array.from({ length: 5 }, () => deliver(bar)));
    for (const r of retries) expect(r.json).toMatchObject({ duplicate: true, order: { key: first.json.order.key } });
    expect(await placed("TIMED")).toBe(1);
    await sleep(WINDOW_MS + 200);
    expect((await deliver({ ...bar })).json.duplicate).toBe(true);
    // field order does not matter; the secret is not part of the key
    const { secret, ...rest } = bar;
    expect((await deliver({ time: bar.time, ...rest, secret })).json.duplicate).toBe(true);
    expect((await deliver({ ...bar, time: "2026-11-28T13:01:00Z" })).json.duplicate).toBe(false);
    expect(await placed("TIMED")).toBe(2);
  }, 60_000);

  it("without a time: the same alert within the window places once (concurrent or sequential), after it again", async () => {
    const body = alert({ symbol: "WINDOWED" });
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(body)));
    // a delivery that finds the first one still placing answers 409 IN_PROGRESS (the gateway's rule for
    // a key in flight); the others the stored order
    for (const a of answers)
      expect([a.status, a.json.code], JSON.stringify(a.json)).toEqual(
        a.status === 409 ? [409, "IN_PROGRESS"] : [200, undefined],
      );
    expect(answers.filter((a) => a.status === 200 && a.json.duplicate === false)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.status === 200).map((a) => a.json.order.key)).size).toBe(1);
    expect(await placed("WINDOWED")).toBe(1);
    // sequential retries once it is placed: each the stored order
    for (let i = 0; i < 3; i++) expect((await deliver(body)).json).toMatchObject({ duplicate: true });
    // a different alert (another price) is another order
    expect((await deliver({ ...body, price: 11 })).json.duplicate).toBe(false);
    // once the window has passed, the same alert is a new order
    await sleep(WINDOW_MS * 2 + 100);
    expect((await deliver(body)).json.duplicate).toBe(false);
    expect(await placed("WINDOWED")).toBe(3);
  }, 60_000);

  it("an explicit key still wins: two deliveries with distinct keys are two orders", async () => {
    const body = alert({ symbol: "KEYED" });
    expect((await deliver({ ...body, key: "a1" })).json.duplicate).toBe(false);
    expect((await deliver({ ...body, key: "a2" })).json.duplicate).toBe(false);
    expect((await deliver({ ...body, key: "a1" })).json.duplicate).toBe(true);
    expect(await placed("KEYED")).toBe(2);
  });

  it("rejects an over-long time with a coded error", async () => {
    const r = await deliver(alert({ time: "x".repeat(65) }));
    expect([r.status, r.json.code, r.json.field]).toEqual([400, "INVALID_FIELD", "time"]);
  });
});

describe("the derivation rule", () => {
  const f: WebhookFields = {
    webhook: "tv1",
    symbol: "BTCUSDT",
    action: "buy",
    qty: 1,
    price: 100,
    test: false,
    comment: null,
    time: null,
  };

  it("a delivery early in a bucket looks back one bucket, no further than the window", async () => {
    const w = 60_000;
    const a = await derivedWebhookKey(f, 10 * w + 59_000, w);
    const b = await derivedWebhookKey(f, 11 * w + 1_000, w);
    expect(a.key).not.toBe(b.key);
    // the retry 2 s later, across the boundary, names the first delivery's key as its previous one
    expect(b.previous).toEqual({ key: a.key, since: 11 * w + 1_000 - w });
    expect(a.key).toMatch(/^wh:tv1:w:[0-9a-f]{32}:10$/);
  });

  it("every field but the secret changes the key; a time makes it independent of the clock", async () => {
    const base = (await derivedWebhookKey(f, 0, 60_000)).key;
    for (const change of [
      { symbol: "ETHUSDT" },
      { action: "sell" },
      { qty: 2 },
      { price: 101 },
      { test: true },
      { comment: "c" },
    ])
      expect((await derivedWebhookKey({ ...f, ...change }, 0, 60_000)).key).not.toBe(base);
    const t1 = await derivedWebhookKey({ ...f, time: "2026-01-01T00:00:00Z" }, 0, 60_000);
    const t2 = await derivedWebhookKey({ ...f, time: "2026-01-01T00:00:00Z" }, 9e12, 60_000);
    expect(t1).toEqual(t2);
    expect(t1.previous).toBeNull();
  });
});
