// The gateway: every order, whatever route it came by, is placed here exactly once.
//
//   reserve  INSERT the idempotency key as `reserved` with a lease (a key already placed, refused or
//            halted answers with its stored outcome; one reserved by a live attempt answers 409
//            IN_PROGRESS, retryable);
//   place    if this attempt took over an expired reservation (its predecessor crashed somewhere
//            between reserve and commit), ask the broker for the client order id first and commit
//            what it has; otherwise size the order from the ledger position, check the caps, ask
//            MeshControl's gate (kill switch and rate limits, immediately before sending) and send;
//   commit   UPDATE the row to `placed` with the fill.
//
// A crash after reserve leaves a reservation that the next retry takes over once the lease expires
// (RESERVE_LEASE_MS); the broker's client-order-id deduplication plus the lookup make that retry
// place nothing twice and drop nothing.

import { ApiError } from "../server/errors.js";
import { type MeshEnv, numberVar } from "./bindings.js";
import { type Broker, BrokerError, type BrokerFill, clientOrderId, type Side } from "./broker.js";
import { controlStub, gate, lockSymbol, unlockSymbol } from "./control.js";
import type { D1Like } from "./d1.js";
import { checkSize, limitsFor } from "./guards.js";
import { ensureLedger, getOrder, netPosition, type OrderRow } from "./ledger.js";
import type { OrderIntent } from "./signal.js";

/** How long an order waits for another order of its symbol to finish before answering SYMBOL_BUSY. */
const SYMBOL_WAIT_MS = 10_000;

export interface GatewayDeps {
  db: D1Like;
  broker: Broker;
  env: MeshEnv;
  now?: () => number;
}

export interface OrderOutcome {
  order: PublicOrder;
  /** true when the key had been seen before (the stored outcome is returned, nothing is placed). */
  duplicate: boolean;
}

export interface PublicOrder {
  key: string;
  status: string;
  symbol: string;
  action: string;
  side: string | null;
  qty: number | null;
  price: number | null;
  fee: number | null;
  test: boolean;
  broker: string;
  broker_order_id: string | null;
  code: string | null;
  error: string | null;
  source: string;
  created_at: number;
  placed_at: number | null;
  meta: Record<string, unknown>;
}

export function publicOrder(r: OrderRow): PublicOrder {
  return {
    key: r.key,
    status: r.status,
    symbol: r.symbol,
    action: r.action,
    side: r.side,
    qty: r.qty,
    price: r.price,
    fee: r.fee,
    test: r.test === 1,
    broker: r.broker,
    broker_order_id: r.broker_order_id,
    code: r.code,
    error: r.error,
    source: r.source,
    created_at: r.created_at,
    placed_at: r.placed_at,
    meta: r.meta ? (JSON.parse(r.meta) as Record<string, unknown>) : {},
  };
}

/** The HTTP answer a stored final state gives (the same the first attempt gave). */
function finalAnswer(row: OrderRow, duplicate: boolean): OrderOutcome {
  const order = publicOrder(row);
  if (row.status === "placed") return { order, duplicate };
  const status = row.status === "halted" ? 423 : 422;
  throw new ApiError(status, row.code ?? "ORDER_REJECTED", row.error ?? "order refused", { order, duplicate });
}

/** The side and size an action comes to, given the current position; null when there is nothing to do. */
export function sizeOrder(
  action: OrderIntent["action"],
  qty: number | null,
  position: number,
): { side: Side; qty: number } | null {
  switch (action) {
    case "buy":
      return { side: "buy", qty: qty as number };
    case "sell":
      return { side: "sell", qty: qty as number };
    case "long":
      // An entry against a short reverses it: cover the short and open the long in one order.
      return { side: "buy", qty: (qty as number) + Math.max(-position, 0) };
    case "short":
      return { side: "sell", qty: (qty as number) + Math.max(position, 0) };
    case "close": {
      if (position === 0) return null;
      const size = Math.min(qty ?? Math.abs(position), Math.abs(position));
      return { side: position > 0 ? "sell" : "buy", qty: size };
    }
  }
}

export async function placeOnce(deps: GatewayDeps, intent: OrderIntent): Promise<OrderOutcome> {
  const { db, broker, env } = deps;
  const now = deps.now ?? Date.now;
  await ensureLedger(db);
  const lease = numberVar(env, "RESERVE_LEASE_MS", 30_000);
  const t = now();

  // Phase 1: reserve (or take over an expired reservation).
  const held = await db
    .prepare(
      `INSERT INTO orders (key, status, attempts, lease_until, source, principal, symbol, action, test, broker, meta, created_at)
       VALUES (?1, 'reserved', 1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
       ON CONFLICT(key) DO UPDATE SET attempts = orders.attempts + 1, lease_until = excluded.lease_until
       WHERE orders.status = 'reserved' AND orders.lease_until <= ?10
       RETURNING attempts`,
    )
    .bind(
      intent.key,
      t + lease,
      intent.source,
      intent.principal,
      intent.symbol,
      intent.action,
      intent.test ? 1 : 0,
      broker.name,
      JSON.stringify(intent.meta),
      t,
    )
    .first<{ attempts: number }>();
  if (!held) {
    const row = (await getOrder(db, intent.key)) as OrderRow;
    if (row.status === "reserved")
      throw new ApiError(409, "IN_PROGRESS", "another attempt holds this order's reservation; retry later", {
        retry_after_ms: Math.max(0, row.lease_until - t),
      });
    return finalAnswer(row, true);
  }

  const cid = await clientOrderId(intent.key);
  const finish = async (status: "rejected" | "halted", code: string, message: string): Promise<OrderOutcome> => {
    await db
      .prepare(
        "UPDATE orders SET status = ?1, code = ?2, error = ?3, lease_until = 0 WHERE key = ?4 AND status = 'reserved'",
      )
      .bind(status, code, message, intent.key)
      .run();
    return finalAnswer((await getOrder(db, intent.key)) as OrderRow, false);
  };
  /** Hands the reservation back: the next retry takes it over at once (and looks the order up first). */
  const release = () =>
    db.prepare("UPDATE orders SET lease_until = 0 WHERE key = ?1 AND status = 'reserved'").bind(intent.key).run();

  const control = controlStub(env);
  if (!control) {
    await release();
    throw new ApiError(503, "CONTROL_UNAVAILABLE", "MESH_CONTROL (Durable Object) binding is not configured");
  }
  // One order of a symbol at a time from the position read to the commit (control.ts): sizing and the
  // position cap read the ledger, which must not change under them.
  const lockName = `${intent.symbol}|${intent.test ? "test" : "live"}`;
  const locked = await lockSymbol(control, {
    name: lockName,
    holder: intent.key,
    leaseMs: lease,
    waitMs: SYMBOL_WAIT_MS,
  });
  if (!locked.ok) {
    await release();
    throw new ApiError(
      409,
      "SYMBOL_BUSY",
      `orders of ${intent.symbol} are queued past ${SYMBOL_WAIT_MS} ms; retry later`,
      {
        retryable: true,
      },
    );
  }
  try {
    // Phase 2: place (a takeover first asks the broker whether its predecessor already did).
    let fill: BrokerFill | null = null;
    try {
      if (held.attempts > 1) fill = await broker.lookup(cid, intent.symbol, intent.test);
      if (!fill) {
        const position = await netPosition(db, intent.symbol, intent.test);
        const sized = sizeOrder(intent.action, intent.qty, position);
        if (!sized) return await finish("rejected", "NOTHING_TO_CLOSE", `no open ${intent.symbol} position to close`);
        const refusal = checkSize(
          limitsFor(env, intent.symbol),
          sized.qty,
          position,
          sized.side === "buy" ? sized.qty : -sized.qty,
        );
        if (refusal) return await finish("rejected", refusal.code, refusal.message);
        // The kill switch and rate limits, read immediately before the order is sent.
        const verdict = await gate(control, {
          principal: intent.principal,
          symbol: intent.symbol,
          queued_at: intent.queued_at,
        });
        if (!verdict.allow) {
          if (verdict.code === "RATE_LIMITED") {
            await release();
            throw new ApiError(429, "RATE_LIMITED", verdict.message, { retry_after_ms: verdict.retry_after_ms });
          }
          return await finish("halted", verdict.code, verdict.message);
        }
        fill = await broker.place({
          clientOrderId: cid,
          symbol: intent.symbol,
          side: sized.side,
          qty: sized.qty,
          priceHint: intent.price,
          test: intent.test,
        });
      }
    } catch (e) {
      if (e instanceof BrokerError) {
        if (!e.retryable) return await finish("rejected", e.code, e.message);
        await release();
        throw new ApiError(e.code === "BROKER_NOT_CONFIGURED" ? 503 : 502, e.code, e.message, { retryable: true });
      }
      if (!(e instanceof ApiError)) await release();
      throw e;
    }

    // Phase 3: commit (a concurrent takeover may have committed the same fill first: the row is read back).
    const signed = fill.side === "buy" ? fill.qty : -fill.qty;
    const committed = await db
      .prepare(
        `UPDATE orders SET status = 'placed', side = ?1, qty = ?2, signed_qty = ?3, price = ?4, fee = ?5,
          broker_order_id = ?6, placed_at = ?7, lease_until = 0 WHERE key = ?8 AND status = 'reserved' RETURNING *`,
      )
      .bind(fill.side, fill.qty, signed, fill.price, fill.fee, fill.brokerOrderId, now(), intent.key)
      .first<OrderRow>();
    return { order: publicOrder(committed ?? ((await getOrder(db, intent.key)) as OrderRow)), duplicate: false };
  } finally {
    await unlockSymbol(control, lockName, intent.key).catch(() => undefined);
  }
}
