// Trade signals: the one shape every entry route (the evaluate worker's strategy events, TradingView
// alert webhooks, the chat bot) is turned into before the gateway sees it, and the validation of
// each route's body into it, with service.md's coded errors (MISSING_FIELD, INVALID_FIELD, ...).

import type { StrategyEvent } from "../core/result.js";
import { ApiError } from "../server/errors.js";
import { type Schema, validateBody } from "../server/validate.js";
import type { WebhookFields } from "./webhook-key.js";

/**
 * buy/sell move the position by qty; long/short are strategy entries (an entry against an open
 * position reverses it, as TradingView's strategy.entry does); close reduces the position toward
 * flat (qty null: all of it).
 */
export const ACTIONS = ["buy", "sell", "long", "short", "close"] as const;
export type Action = (typeof ACTIONS)[number];

export interface OrderIntent {
  /** Idempotency key: the same key is placed at most once, ever. */
  key: string;
  source: "resin" | "webhook" | "chat";
  /** Who sent it, for the per-key rate limit: "internal", "webhook:<id>", "chat:<id>". */
  principal: string;
  symbol: string;
  action: Action;
  qty: number | null;
  /** Price hint (the bar's close, the alert's {{close}}): the paper broker's fallback when no quote is stored. */
  price: number | null;
  /** true: the testnet credentials and endpoint (`_TESTNET_` secrets), and a separate paper ledger. */
  test: boolean;
  /** When the signal was queued (ms); a kill switch turned on after it cancels it. */
  queued_at: number | null;
  meta: Record<string, unknown>;
}

const KEY_RE = /^[A-Za-z0-9:._-]{1,200}$/;
const SYMBOL_RE = /^[A-Za-z0-9:._/-]{1,64}$/;

/** The body the evaluate worker's outbox sends (POST /signal with X-Internal-Key). */
const INTERNAL_SCHEMA: Schema = [
  { name: "key", type: "string", required: true },
  { name: "symbol", type: "string", required: true },
  { name: "action", type: "string", required: true },
  { name: "qty", type: "number", default: null, min: 0 },
  { name: "price", type: "number", default: null, min: 0 },
  { name: "test", type: "bool", default: false },
  { name: "queued_at", type: "int", default: null },
  { name: "meta", type: "object", default: () => ({}) },
];

/** A TradingView-style alert webhook body ({"secret": ..., "test": ..., "symbol": ..., "action": ..., "qty": ...}). */
const WEBHOOK_SCHEMA: Schema = [
  { name: "webhook", type: "string", required: true },
  { name: "secret", type: "string", required: true },
  { name: "symbol", type: "string", required: true },
  { name: "action", type: "string", required: true },
  { name: "qty", type: "number", default: null, min: 0 },
  { name: "price", type: "number", default: null, min: 0 },
  { name: "test", type: "bool", default: false },
  { name: "key", type: "string", default: null },
  { name: "comment", type: "string", default: null },
  // TradingView's {{time}} (or {{timenow}}): keys a keyless alert (webhook-key.ts)
  { name: "time", type: "string", default: null },
];

function checkCommon(symbol: string, action: string, qty: number | null, key: string | null): Action {
  if (!SYMBOL_RE.test(symbol))
    throw new ApiError(400, "INVALID_FIELD", "symbol must be 1-64 of [A-Za-z0-9:._/-]", { field: "symbol" });
  const a = action.toLowerCase();
  if (!(ACTIONS as readonly string[]).includes(a))
    throw new ApiError(400, "INVALID_FIELD", `action must be one of ${ACTIONS.join(", ")}`, { field: "action" });
  if (a !== "close" && (qty === null || qty <= 0))
    throw new ApiError(400, "INVALID_FIELD", `action '${a}' needs a positive qty`, { field: "qty" });
  if (key !== null && !KEY_RE.test(key))
    throw new ApiError(400, "INVALID_FIELD", "key must be 1-200 of [A-Za-z0-9:._-]", { field: "key" });
  return a as Action;
}

export function internalSignal(body: unknown): OrderIntent {
  const b = validateBody(body, INTERNAL_SCHEMA);
  const action = checkCommon(b.symbol as string, b.action as string, b.qty as number | null, b.key as string);
  return {
    key: b.key as string,
    source: "resin",
    principal: "internal",
    symbol: b.symbol as string,
    action,
    qty: b.qty as number | null,
    price: b.price as number | null,
    test: b.test as boolean,
    queued_at: b.queued_at as number | null,
    meta: b.meta as Record<string, unknown>,
  };
}

/**
 * Validates a webhook body (the secret is checked by the caller, auth.ts). Without a `key` the intent's
 * key is empty and `derive` holds what webhook-key.ts derives it from.
 */
export function webhookSignal(
  body: unknown,
): OrderIntent & { webhook: string; secret: string; derive: WebhookFields | null } {
  // a numeric time (epoch ms from a sender other than TradingView) keys the same as its digits
  const raw =
    body && typeof body === "object" && typeof (body as { time?: unknown }).time === "number"
      ? { ...body, time: String((body as { time: number }).time) }
      : body;
  const b = validateBody(raw, WEBHOOK_SCHEMA);
  const given = b.key as string | null;
  const action = checkCommon(b.symbol as string, b.action as string, b.qty as number | null, given);
  const webhook = b.webhook as string;
  const time = b.time as string | null;
  if (time !== null && (time.length === 0 || time.length > 64))
    throw new ApiError(400, "INVALID_FIELD", "time must be 1-64 characters", { field: "time" });
  const intent = {
    symbol: b.symbol as string,
    action,
    qty: b.qty as number | null,
    price: b.price as number | null,
    test: b.test as boolean,
  };
  return {
    webhook,
    secret: b.secret as string,
    key: given === null ? "" : `wh:${webhook}:${given}`,
    derive: given === null ? { webhook, ...intent, comment: b.comment as string | null, time } : null,
    source: "webhook",
    principal: `webhook:${webhook}`,
    ...intent,
    queued_at: null,
    meta: { ...(b.comment ? { comment: b.comment } : {}), ...(time !== null ? { time } : {}) },
  };
}

/** The idempotency key of a strategy event: its job, script, bar time and index among that bar's events. */
export function eventKey(jobId: string, scriptId: string, barTime: number, index: number): string {
  return `ev:${jobId}:${scriptId}:${barTime}:${index}`;
}

/**
 * The order a strategy event asks for, or null when it places nothing (cancel, cancel_all: the
 * mesh holds no resting orders to cancel). entry -> long/short; order -> buy/sell; close, exit,
 * close_all -> close (exit's qty when given).
 */
export function actionOfEvent(e: StrategyEvent): { action: Action; qty: number | null } | null {
  switch (e.kind) {
    case "entry":
      return e.direction ? { action: e.direction === "long" ? "long" : "short", qty: e.qty } : null;
    case "order":
      return e.direction ? { action: e.direction === "long" ? "buy" : "sell", qty: e.qty } : null;
    case "close":
    case "exit":
    case "close_all":
      return { action: "close", qty: e.qty };
    default:
      return null;
  }
}
