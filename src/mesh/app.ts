// The trade service's HTTP app (Hono, host-neutral; worker.ts is the workerd entry). Routes:
//   GET  /health                       open
//   POST /signal (alias /webhook)      the evaluate worker (X-Internal-Key) or a TradingView-style
//                                      webhook ({"webhook", "secret", ...} in the body)
//   POST /webhook/:id                  the same webhook with the id in the path (TradingView's URL field)
//   POST /chat/:bot                    the chat-bot route (chat.ts)
//   GET/PUT /kill-switch, GET /trades, GET /positions, POST /quotes, GET /orders/:key   X-Internal-Key

import { type Context, Hono } from "hono";
import { ApiError, errorResponse } from "../server/errors.js";
import { MAX_BODY_BYTES, type Schema, readJsonBody, validateBody } from "../server/validate.js";
import { requireInternalKey, requireWebhookSecret } from "./auth.js";
import { type MeshEnv, numberVar } from "./bindings.js";
import type { Broker } from "./broker.js";
import { authorizeChat, parseChatCommand } from "./chat.js";
import { controlStub, readKillSwitch, writeKillSwitch } from "./control.js";
import type { D1Like } from "./d1.js";
import { BinanceBroker } from "./exchange-binance.js";
import { placeOnce, publicOrder } from "./gateway.js";
import { ensureLedger, getOrder, positions, putQuote, recentOrders } from "./ledger.js";
import { PaperBroker } from "./paper-broker.js";
import { internalSignal, type OrderIntent, webhookSignal } from "./signal.js";
import { dedupWindowMs, derivedWebhookKey } from "./webhook-key.js";

const QUOTE_SCHEMA: Schema = [
  { name: "symbol", type: "string", required: true },
  { name: "price", type: "number", required: true, min: 0 },
  { name: "time", type: "int", default: null },
];
const KILL_SCHEMA: Schema = [{ name: "on", type: "bool", required: true }];

function db(env: MeshEnv): D1Like {
  if (!env.MESH_DB) throw new ApiError(503, "STORAGE_UNAVAILABLE", "MESH_DB (D1) binding is not configured");
  return env.MESH_DB;
}

export function brokerFor(env: MeshEnv): Broker {
  const name = typeof env.BROKER === "string" && env.BROKER ? env.BROKER : "paper";
  if (name === "paper")
    return new PaperBroker(db(env), {
      slippageBps: numberVar(env, "PAPER_SLIPPAGE_BPS", 0),
      feeRate: numberVar(env, "PAPER_FEE_RATE", 0),
    });
  if (name === "binance") return new BinanceBroker(env);
  throw new ApiError(503, "CONFIG_INVALID", `BROKER '${name}' is not one of paper, binance`);
}

/** A JSON body of any content type (TradingView posts JSON alerts as text/plain), within the body cap. */
async function anyJson(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.length > MAX_BODY_BYTES) throw new ApiError(413, "PAYLOAD_TOO_LARGE", "request body is too large");
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(400, "INVALID_BODY", "request body is not valid JSON");
  }
}

async function place(c: Context, env: MeshEnv, intent: OrderIntent): Promise<Response> {
  const out = await placeOnce({ db: db(env), broker: brokerFor(env), env }, intent);
  return c.json({ status: "success", duplicate: out.duplicate, order: out.order });
}

/** A webhook's intent with its idempotency key: the given one, or derived (webhook-key.ts). */
async function keyed(env: MeshEnv, s: ReturnType<typeof webhookSignal>): Promise<OrderIntent> {
  const { derive, webhook: _w, secret: _s, ...intent } = s;
  if (!derive) return intent;
  const now = Date.now();
  const { key, previous } = await derivedWebhookKey(derive, now, dedupWindowMs(env));
  if (previous) {
    // a retry just past a bucket boundary: the order of the previous bucket, if younger than the window
    await ensureLedger(db(env));
    const prev = await getOrder(db(env), previous.key);
    if (prev && prev.created_at >= previous.since) return { ...intent, key: previous.key };
  }
  return { ...intent, key };
}

function control(env: MeshEnv) {
  const stub = controlStub(env);
  if (!stub) throw new ApiError(503, "CONTROL_UNAVAILABLE", "MESH_CONTROL (Durable Object) binding is not configured");
  return stub;
}

export function meshApp(env: MeshEnv): Hono {
  const app = new Hono();
  app.onError((err) => {
    if (err instanceof ApiError) return errorResponse(err);
    return errorResponse(new ApiError(500, "INTERNAL", err instanceof Error ? err.message : String(err)));
  });
  app.notFound(() => errorResponse(new ApiError(404, "NOT_FOUND", "no such route")));

  app.get("/health", (c) => c.json({ status: "ok", service: "resin-trade", broker: String(env.BROKER ?? "paper") }));

  const signal = async (c: Context) => {
    if (c.req.header("x-internal-key") !== undefined) {
      await requireInternalKey(env, c.req.raw);
      return place(c, env, internalSignal(await readJsonBody(c.req.raw)));
    }
    const s = webhookSignal(await anyJson(c.req.raw));
    await requireWebhookSecret(env, s.webhook, s.secret);
    return place(c, env, await keyed(env, s));
  };
  app.post("/signal", signal);
  // service.md 4 names the trade service's route POST /webhook: the same route.
  app.post("/webhook", signal);
  app.post("/webhook/:id", async (c) => {
    const body = await anyJson(c.req.raw);
    const withId =
      body && typeof body === "object" && !Array.isArray(body) ? { ...body, webhook: c.req.param("id") } : body;
    const s = webhookSignal(withId);
    await requireWebhookSecret(env, s.webhook, s.secret);
    return place(c, env, await keyed(env, s));
  });

  app.post("/chat/:bot", async (c) => {
    const who = await authorizeChat(env, c.req.raw, await anyJson(c.req.raw));
    const cmd = parseChatCommand(who.chatId, who.messageId, who.text);
    if (cmd.kind === "help") return c.json({ status: "success", reply: cmd.text });
    if (cmd.kind === "kill") {
      const stub = control(env);
      const state =
        cmd.action === "show" ? await readKillSwitch(stub) : await writeKillSwitch(stub, cmd.action === "on");
      return c.json({ status: "success", kill_switch: state, reply: `kill switch ${state.on ? "ON" : "off"}` });
    }
    return place(c, env, cmd.intent);
  });

  // Operator routes: the internal key.
  app.use("/kill-switch", async (c, next) => {
    await requireInternalKey(env, c.req.raw);
    await next();
  });
  for (const path of ["/trades", "/positions", "/quotes", "/orders/*"]) {
    app.use(path, async (c, next) => {
      await requireInternalKey(env, c.req.raw);
      await next();
    });
  }
  app.get("/kill-switch", async (c) => c.json({ status: "success", ...(await readKillSwitch(control(env))) }));
  app.put("/kill-switch", async (c) => {
    const b = validateBody(await readJsonBody(c.req.raw), KILL_SCHEMA);
    return c.json({ status: "success", ...(await writeKillSwitch(control(env), b.on as boolean)) });
  });
  app.get("/trades", async (c) => {
    const limit = Math.min(1000, Math.max(1, Number(c.req.query("limit") ?? 20) || 20));
    await ensureLedger(db(env));
    return c.json({ status: "success", trades: (await recentOrders(db(env), limit)).map(publicOrder) });
  });
  app.get("/positions", async (c) => {
    await ensureLedger(db(env));
    return c.json({ status: "success", positions: await positions(db(env)) });
  });
  app.post("/quotes", async (c) => {
    const b = validateBody(await readJsonBody(c.req.raw), QUOTE_SCHEMA);
    await ensureLedger(db(env));
    const at = (b.time as number | null) ?? Date.now();
    await putQuote(db(env), b.symbol as string, b.price as number, at);
    return c.json({ status: "success", symbol: b.symbol, price: b.price, time: at });
  });
  app.get("/orders/:key", async (c) => {
    await ensureLedger(db(env));
    const row = await getOrder(db(env), c.req.param("key"));
    if (!row) throw new ApiError(404, "NOT_FOUND", `no order '${c.req.param("key")}'`);
    return c.json({ status: "success", order: publicOrder(row) });
  });
  return app;
}
