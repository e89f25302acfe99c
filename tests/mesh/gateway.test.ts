// The trade service under Miniflare (workerd, real D1 and Durable Object): auth, validation,
// exactly-once placement (duplicates, concurrency, crashes between reserve and commit), the paper
// broker's fills, the size guards and the chat route's allowlist.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Miniflare } from "miniflare";
import { callJson, meshWorker } from "./harness.js";

let mf: Miniflare;
type D1 = Awaited<ReturnType<Miniflare["getD1Database"]>>;
let db: D1;

const signal = (key: string, extra: Record<string, unknown> = {}) => ({
  key,
  symbol: "BTCUSDT",
  action: "buy",
  qty: 1,
  price: 100,
  ...extra,
});

async function count(sql: string, ...args: unknown[]): Promise<number> {
  const row = (await db
    .prepare(sql)
    .bind(...args)
    .first()) as { n: number } | null;
  return row?.n ?? 0;
}

beforeAll(async () => {
  mf = new Miniflare({
    workers: [
      await meshWorker({
        WEBHOOK_TV1_SECRET: "tv-secret",
        PAPER_SLIPPAGE_BPS: "10",
        PAPER_FEE_RATE: "0.001",
        MESH_LIMITS: JSON.stringify({
          CAPPED: { max_order: 2, max_position: 3 },
          RACE: { max_order: 1, max_position: 3 },
        }),
        CHAT_ALLOWLIST: "111, 222",
        TELEGRAM_WEBHOOK_SECRET: "tg-secret",
        RATE_PER_KEY_PER_MIN: "100000",
        RATE_PER_SYMBOL_PER_MIN: "100000",
      }),
    ],
  });
  db = await mf.getD1Database("MESH_DB");
}, 120_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("trade service: auth and validation", () => {
  it("/health is open; operator routes need the internal key", async () => {
    expect((await callJson(mf, "/health")).json).toMatchObject({
      status: "ok",
      service: "resin-trade",
      broker: "paper",
    });
    expect((await callJson(mf, "/trades")).json).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await callJson(mf, "/trades", { headers: { "x-internal-key": "nope" } })).status).toBe(401);
    expect((await callJson(mf, "/trades", { internal: true })).status).toBe(200);
  });

  it("internal signals need the right key and are validated with coded errors", async () => {
    const wrong = await callJson(mf, "/signal", { json: signal("a1"), headers: { "x-internal-key": "wrong" } });
    expect([wrong.status, wrong.json.code]).toEqual([401, "UNAUTHORIZED"]);
    expect((await callJson(mf, "/signal", { json: { symbol: "X", action: "buy", qty: 1 } })).json).toMatchObject({
      code: "MISSING_FIELD",
      field: "key",
    });
    expect((await callJson(mf, "/signal", { json: signal("a2", { action: "hold" }) })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "action",
    });
    expect((await callJson(mf, "/signal", { json: signal("a3", { qty: null }) })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "qty",
    });
    expect((await callJson(mf, "/signal", { json: signal("a4", { symbol: "bad symbol!" }) })).json).toMatchObject({
      code: "INVALID_FIELD",
      field: "symbol",
    });
    expect((await callJson(mf, "/signal", { json: signal("a5", { extra: 1 }) })).json).toMatchObject({
      code: "UNKNOWN_FIELDS",
    });
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE key LIKE 'a%'")).toBe(0);
  });

  it("webhooks: per-webhook secret, unknown webhooks refused alike, JSON in text/plain accepted", async () => {
    const body = {
      webhook: "tv1",
      secret: "tv-secret",
      symbol: "ETHUSDT",
      action: "buy",
      qty: 2,
      price: 10,
      key: "k1",
    };
    const wrong = await callJson(mf, "/signal", { json: { ...body, secret: "tv-secreT" }, internal: false });
    expect([wrong.status, wrong.json.code, wrong.json.field]).toEqual([401, "UNAUTHORIZED", "secret"]);
    const unknown = await callJson(mf, "/signal", { json: { ...body, webhook: "nope" }, internal: false });
    expect([unknown.status, unknown.json.code]).toEqual([401, "UNAUTHORIZED"]);
    expect(
      (await callJson(mf, "/signal", { json: { ...body, secret: undefined }, internal: false })).json,
    ).toMatchObject({
      code: "MISSING_FIELD",
      field: "secret",
    });
    // POST /webhook (service.md 4's name for the route) is the same route.
    const viaAlias = await callJson(mf, "/webhook", { json: { ...body, secret: "nope" }, internal: false });
    expect([viaAlias.status, viaAlias.json.code]).toEqual([401, "UNAUTHORIZED"]);
    const ok = await callJson(mf, "/signal", { json: body, internal: false });
    expect(ok.status).toBe(200);
    expect(ok.json.order).toMatchObject({
      status: "placed",
      symbol: "ETHUSDT",
      side: "buy",
      qty: 2,
      source: "webhook",
    });
    // TradingView posts a JSON message as text/plain to the URL it is given.
    const res = await mf.dispatchFetch("http://trade.local/webhook/tv1", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ secret: "tv-secret", symbol: "ETHUSDT", action: "sell", qty: 1, price: 11, key: "k2" }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ order: { status: "placed", side: "sell", qty: 1 } });
  });
});

describe("trade service: exactly-once placement", () => {
  it("a key is placed once: the repeat answers with the stored order, duplicate: true", async () => {
    const first = await callJson(mf, "/signal", { json: signal("once-1") });
    expect(first.json).toMatchObject({ status: "success", duplicate: false, order: { status: "placed", qty: 1 } });
    // Paper fill: price 100 + 10 bps slippage against the buy, fee 0.1% of the notional.
    expect(first.json.order.price).toBeCloseTo(100.1, 9);
    expect(first.json.order.fee).toBeCloseTo(100.1 * 0.001, 9);
    const again = await callJson(mf, "/signal", { json: signal("once-1", { qty: 5 }) });
    expect(again.json).toMatchObject({
      duplicate: true,
      order: { qty: 1, broker_order_id: first.json.order.broker_order_id },
    });
    expect(
      await count(
        "SELECT COUNT(*) AS n FROM paper_fills WHERE 'paper-' || client_order_id = (SELECT broker_order_id FROM orders WHERE key = 'once-1')",
      ),
    ).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'BTCUSDT'")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE key = 'once-1'")).toBe(1);
  });

  it("20 concurrent deliveries of one key place one order", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => callJson(mf, "/signal", { json: signal("conc-1", { symbol: "CONC" }) })),
    );
    const placedFresh = answers.filter((a) => a.status === 200 && a.json.duplicate === false);
    expect(placedFresh).toHaveLength(1);
    // The others either saw the stored order or were told to retry while the first held the reservation.
    for (const a of answers) expect([200, 409]).toContain(a.status);
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'CONC'")).toBe(1);
    const retry = await callJson(mf, "/signal", { json: signal("conc-1", { symbol: "CONC" }) });
    expect(retry.json).toMatchObject({ duplicate: true, order: { status: "placed" } });
  });

  it("a crash after placing, before committing: the retry commits the broker's order and places nothing", async () => {
    // What a crash between phases leaves: a reservation whose lease has run out and a fill at the broker.
    const placed = await callJson(mf, "/signal", { json: signal("crash-a", { symbol: "CRASHA" }) });
    expect(placed.status).toBe(200);
    await db
      .prepare(
        "UPDATE orders SET status = 'reserved', lease_until = 0, price = NULL, placed_at = NULL, signed_qty = NULL WHERE key = 'crash-a'",
      )
      .run();
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'CRASHA'")).toBe(1);
    const retry = await callJson(mf, "/signal", { json: signal("crash-a", { symbol: "CRASHA" }) });
    expect(retry.status).toBe(200);
    expect(retry.json.order).toMatchObject({
      status: "placed",
      qty: 1,
      broker_order_id: placed.json.order.broker_order_id,
    });
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'CRASHA'")).toBe(1);
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE symbol = 'CRASHA' AND status = 'placed'")).toBe(1);
  });

  it("a crash after reserving, before placing: the retry places it once (not dropped)", async () => {
    await db
      .prepare(
        "INSERT INTO orders (key, status, attempts, lease_until, source, principal, symbol, action, test, broker, created_at) VALUES ('crash-b', 'reserved', 1, 0, 'resin', 'internal', 'CRASHB', 'buy', 0, 'paper', 1)",
      )
      .run();
    const retry = await callJson(mf, "/signal", { json: signal("crash-b", { symbol: "CRASHB" }) });
    expect(retry.json).toMatchObject({ duplicate: false, order: { status: "placed", qty: 1 } });
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'CRASHB'")).toBe(1);
  });

  it("a reservation whose lease is live answers 409 IN_PROGRESS (retryable), never a second order", async () => {
    await db
      .prepare(
        "INSERT INTO orders (key, status, attempts, lease_until, source, principal, symbol, action, test, broker, created_at) VALUES ('busy', 'reserved', 1, ?1, 'resin', 'internal', 'BUSY', 'buy', 0, 'paper', 1)",
      )
      .bind(Date.now() + 60_000)
      .run();
    const res = await callJson(mf, "/signal", { json: signal("busy", { symbol: "BUSY" }) });
    expect([res.status, res.json.code]).toEqual([409, "IN_PROGRESS"]);
    expect(res.json.retry_after_ms).toBeGreaterThan(0);
    expect(await count("SELECT COUNT(*) AS n FROM paper_fills WHERE symbol = 'BUSY'")).toBe(0);
  });
});

describe("trade service: paper ledger and guards", () => {
  it("long/short reverse, close flattens; positions and realized P&L come from the placed orders", async () => {
    await callJson(mf, "/quotes", { json: { symbol: "PNL", price: 50 }, internal: true });
    const go = (key: string, action: string, qty: number | null) =>
      callJson(mf, "/signal", { json: { key, symbol: "PNL", action, qty, price: 1 } });
    // Quotes win over the signal's price hint.
    expect((await go("p1", "long", 2)).json.order).toMatchObject({ side: "buy", qty: 2, price: 50.05 });
    await callJson(mf, "/quotes", { json: { symbol: "PNL", price: 60 }, internal: true });
    // A short entry against the long reverses it: sell 2 to cover, 1 to open.
    expect((await go("p2", "short", 1)).json.order).toMatchObject({ side: "sell", qty: 3 });
    expect((await go("p3", "close", null)).json.order).toMatchObject({ side: "buy", qty: 1 });
    const nothing = await go("p4", "close", null);
    expect([nothing.status, nothing.json.code]).toEqual([422, "NOTHING_TO_CLOSE"]);
    const pos = (await callJson(mf, "/positions", { internal: true })).json.positions.find(
      (p: any) => p.symbol === "PNL",
    );
    expect(pos).toMatchObject({ qty: 0, test: false, orders: 3 });
    // Long 2 @ 50.05 closed @ 59.94 (60 - 10 bps), short 1 @ 59.94 closed @ 60.06.
    expect(pos.realized_pnl).toBeCloseTo(2 * (59.94 - 50.05) + (59.94 - 60.06), 9);
  });

  it("max order and max position per symbol from MESH_LIMITS", async () => {
    const big = await callJson(mf, "/signal", { json: signal("cap-1", { symbol: "CAPPED", qty: 3 }) });
    expect([big.status, big.json.code]).toEqual([422, "ORDER_TOO_LARGE"]);
    expect((await callJson(mf, "/signal", { json: signal("cap-2", { symbol: "CAPPED", qty: 2 }) })).status).toBe(200);
    const over = await callJson(mf, "/signal", { json: signal("cap-3", { symbol: "CAPPED", qty: 2 }) });
    expect([over.status, over.json.code]).toEqual([422, "POSITION_LIMIT"]);
    // Reducing is always allowed; a refused key stays refused (its retry answers the same).
    expect(
      (await callJson(mf, "/signal", { json: signal("cap-4", { symbol: "CAPPED", action: "sell", qty: 2 }) })).status,
    ).toBe(200);
    expect((await callJson(mf, "/signal", { json: signal("cap-3", { symbol: "CAPPED", qty: 2 }) })).json).toMatchObject(
      {
        code: "POSITION_LIMIT",
        duplicate: true,
      },
    );
    const log = (await callJson(mf, "/trades?limit=5", { internal: true })).json.trades;
    expect(log[0]).toMatchObject({ key: "cap-4", status: "placed" });
    expect(log.find((t: any) => t.key === "cap-1")).toMatchObject({ status: "rejected", code: "ORDER_TOO_LARGE" });
  });

  it("orders of one symbol are sized and capped one at a time: 8 concurrent buys under a cap of 3 place 3", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => callJson(mf, "/signal", { json: signal(`race-${i}`, { symbol: "RACE" }) })),
    );
    const codes = answers.map((a) => (a.status === 200 ? "placed" : a.json.code)).sort();
    expect(codes).toEqual([...Array(5).fill("POSITION_LIMIT"), ...Array(3).fill("placed")]);
    const pos = (await callJson(mf, "/positions", { internal: true })).json.positions.find(
      (p: any) => p.symbol === "RACE",
    );
    expect(pos).toMatchObject({ qty: 3, orders: 3 });
  });
});

describe("trade service: chat-bot route", () => {
  const update = (chat: number, message: number, text: string) => ({
    message: { message_id: message, chat: { id: chat }, text },
  });
  const tg = { "x-telegram-bot-api-secret-token": "tg-secret" };

  it("needs the bot's secret token and obeys only allowlisted chats", async () => {
    expect((await callJson(mf, "/chat/bot", { json: update(111, 1, "/buy CHAT 1") })).status).toBe(401);
    const stranger = await callJson(mf, "/chat/bot", { json: update(999, 1, "/buy CHAT 1"), headers: tg });
    expect([stranger.status, stranger.json.code]).toEqual([403, "CHAT_NOT_ALLOWED"]);
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE symbol = 'CHAT'")).toBe(0);
    // Allowlisted chats trade; the price comes from the stored quote.
    await callJson(mf, "/quotes", { json: { symbol: "CHAT", price: 5 }, internal: true });
    const ok = await callJson(mf, "/chat/bot", { json: update(222, 7, "/buy chat 1"), headers: tg });
    expect(ok.json.order).toMatchObject({ status: "placed", symbol: "CHAT", source: "chat" });
    // Telegram redelivers an update it got no answer for: the same message places nothing new.
    expect((await callJson(mf, "/chat/bot", { json: update(222, 7, "/buy chat 1"), headers: tg })).json.duplicate).toBe(
      true,
    );
    expect((await callJson(mf, "/chat/bot", { json: update(111, 8, "hello"), headers: tg })).json.reply).toMatch(
      /commands/,
    );
  });
});
