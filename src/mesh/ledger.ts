// The mesh's D1 ledger: `orders` is the gateway's idempotency record and the trade log at once (one
// row per idempotency key, from reservation to its final state), `quotes` the latest price per
// symbol the paper broker fills at, `paper_fills` the paper broker's own book. Positions and P&L are
// derived from the placed orders, so there is no second copy of a position to drift.

import { type D1Like, ensureSchema } from "./d1.js";

const DDL = [
  `CREATE TABLE IF NOT EXISTS orders (
    key TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    lease_until INTEGER NOT NULL,
    source TEXT NOT NULL,
    principal TEXT NOT NULL,
    symbol TEXT NOT NULL,
    action TEXT NOT NULL,
    test INTEGER NOT NULL,
    broker TEXT NOT NULL,
    side TEXT,
    qty REAL,
    signed_qty REAL,
    price REAL,
    fee REAL,
    broker_order_id TEXT,
    code TEXT,
    error TEXT,
    meta TEXT,
    created_at INTEGER NOT NULL,
    placed_at INTEGER
  )`,
  "CREATE INDEX IF NOT EXISTS orders_position ON orders(symbol, test, status)",
  "CREATE INDEX IF NOT EXISTS orders_recent ON orders(created_at)",
  "CREATE TABLE IF NOT EXISTS quotes (symbol TEXT PRIMARY KEY, price REAL NOT NULL, at INTEGER NOT NULL)",
  `CREATE TABLE IF NOT EXISTS paper_fills (
    client_order_id TEXT PRIMARY KEY,
    symbol TEXT NOT NULL,
    side TEXT NOT NULL,
    qty REAL NOT NULL,
    price REAL NOT NULL,
    fee REAL NOT NULL,
    filled_at INTEGER NOT NULL
  )`,
];

export const ensureLedger = (db: D1Like) => ensureSchema(db, "mesh-ledger", DDL);

/** Final and in-flight states of an order row. */
export type OrderStatus = "reserved" | "placed" | "rejected" | "halted";

export interface OrderRow {
  key: string;
  status: OrderStatus;
  attempts: number;
  lease_until: number;
  source: string;
  principal: string;
  symbol: string;
  action: string;
  test: number;
  broker: string;
  side: string | null;
  qty: number | null;
  signed_qty: number | null;
  price: number | null;
  fee: number | null;
  broker_order_id: string | null;
  code: string | null;
  error: string | null;
  meta: string | null;
  created_at: number;
  placed_at: number | null;
}

export async function getOrder(db: D1Like, key: string): Promise<OrderRow | null> {
  return db.prepare("SELECT * FROM orders WHERE key = ?1").bind(key).first<OrderRow>();
}

/** The net position of a symbol in one ledger (test or live) from its placed orders. */
export async function netPosition(db: D1Like, symbol: string, test: boolean): Promise<number> {
  const row = await db
    .prepare(
      "SELECT COALESCE(SUM(signed_qty), 0) AS pos FROM orders WHERE symbol = ?1 AND test = ?2 AND status = 'placed'",
    )
    .bind(symbol, test ? 1 : 0)
    .first<{ pos: number }>();
  return row?.pos ?? 0;
}

/** The trade log, newest first: every order the gateway has seen, placed or not. */
export async function recentOrders(db: D1Like, limit: number): Promise<OrderRow[]> {
  return (
    await db.prepare("SELECT * FROM orders ORDER BY created_at DESC, rowid DESC LIMIT ?1").bind(limit).all<OrderRow>()
  ).results;
}

export interface Position {
  symbol: string;
  test: boolean;
  qty: number;
  avg_price: number | null;
  realized_pnl: number;
  fees: number;
  orders: number;
}

/** Positions and realized P&L per (symbol, ledger), replaying the placed orders oldest first (average-cost basis). */
export async function positions(db: D1Like): Promise<Position[]> {
  const rows = (
    await db
      .prepare(
        "SELECT symbol, test, signed_qty, price, fee FROM orders WHERE status = 'placed' ORDER BY placed_at, rowid",
      )
      .all<{ symbol: string; test: number; signed_qty: number; price: number | null; fee: number | null }>()
  ).results;
  const out = new Map<string, Position>();
  for (const r of rows) {
    const id = `${r.symbol}\u0000${r.test}`;
    const p = out.get(id) ?? {
      symbol: r.symbol,
      test: r.test === 1,
      qty: 0,
      avg_price: null,
      realized_pnl: 0,
      fees: 0,
      orders: 0,
    };
    out.set(id, p);
    p.orders++;
    p.fees += r.fee ?? 0;
    const q = r.signed_qty;
    const price = r.price ?? p.avg_price ?? 0;
    if (p.qty === 0 || Math.sign(q) === Math.sign(p.qty)) {
      // Opening or adding: the average cost moves.
      const total = p.qty + q;
      p.avg_price = ((p.avg_price ?? 0) * Math.abs(p.qty) + price * Math.abs(q)) / Math.abs(total);
      p.qty = total;
    } else {
      // Reducing, closing or reversing: the closed part realizes against the average cost.
      const closed = Math.min(Math.abs(q), Math.abs(p.qty));
      p.realized_pnl += closed * (price - (p.avg_price ?? price)) * Math.sign(p.qty);
      const rest = p.qty + q;
      if (rest === 0) p.avg_price = null;
      else if (Math.sign(rest) !== Math.sign(p.qty)) p.avg_price = price;
      p.qty = rest;
    }
  }
  return [...out.values()].sort((a, b) => a.symbol.localeCompare(b.symbol) || Number(a.test) - Number(b.test));
}

export async function putQuote(db: D1Like, symbol: string, price: number, at: number): Promise<void> {
  await db
    .prepare(
      "INSERT INTO quotes (symbol, price, at) VALUES (?1, ?2, ?3) ON CONFLICT(symbol) DO UPDATE SET price = excluded.price, at = excluded.at WHERE excluded.at >= quotes.at",
    )
    .bind(symbol, price, at)
    .run();
}

export async function getQuote(db: D1Like, symbol: string): Promise<{ price: number; at: number } | null> {
  return db
    .prepare("SELECT price, at FROM quotes WHERE symbol = ?1")
    .bind(symbol)
    .first<{ price: number; at: number }>();
}
