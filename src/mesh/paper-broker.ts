// The paper broker (the default): fills a market order at the symbol's latest stored quote (POST
// /quotes, or the evaluate worker's bar close carried as the signal's price when no quote is
// stored), moved against the order by the configured slippage, and charges a proportional fee.
// Its book is the paper_fills table keyed by client order id, so placing the same id twice fills once.

import { type Broker, BrokerError, type BrokerFill, type BrokerOrder, type Side } from "./broker.js";
import type { D1Like } from "./d1.js";
import { getQuote } from "./ledger.js";

export interface PaperConfig {
  /** Slippage in basis points of the price, against the order (buys pay more, sells get less). */
  slippageBps: number;
  /** Fee as a fraction of the notional (0.001 = 0.1%). */
  feeRate: number;
}

interface FillRow {
  client_order_id: string;
  side: Side;
  qty: number;
  price: number;
  fee: number;
}

const asFill = (r: FillRow): BrokerFill => ({
  brokerOrderId: `paper-${r.client_order_id}`,
  side: r.side,
  price: r.price,
  qty: r.qty,
  fee: r.fee,
});

export class PaperBroker implements Broker {
  readonly name = "paper";

  constructor(
    private readonly db: D1Like,
    private readonly cfg: PaperConfig,
  ) {}

  async place(o: BrokerOrder): Promise<BrokerFill> {
    const quote = await getQuote(this.db, o.symbol);
    const base = quote?.price ?? o.priceHint;
    if (base === null || !(base > 0))
      throw new BrokerError(`no quote for ${o.symbol} and no price on the signal`, "NO_PRICE", false);
    const slip = (base * this.cfg.slippageBps) / 10_000;
    const price = o.side === "buy" ? base + slip : base - slip;
    const fee = price * o.qty * this.cfg.feeRate;
    // ON CONFLICT DO NOTHING: a second place of the same id fills nothing and returns the first fill.
    const stored = await this.db
      .prepare(
        "INSERT INTO paper_fills (client_order_id, symbol, side, qty, price, fee, filled_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(client_order_id) DO NOTHING RETURNING client_order_id, side, qty, price, fee",
      )
      .bind(o.clientOrderId, o.symbol, o.side, o.qty, price, fee, Date.now())
      .first<FillRow>();
    const row = stored ? asFill(stored) : await this.lookup(o.clientOrderId);
    if (!row) throw new BrokerError("paper fill was not stored", "BROKER_ERROR", true);
    return row;
  }

  async lookup(clientOrderId: string): Promise<BrokerFill | null> {
    const r = await this.db
      .prepare("SELECT client_order_id, side, qty, price, fee FROM paper_fills WHERE client_order_id = ?1")
      .bind(clientOrderId)
      .first<FillRow>();
    return r ? asFill(r) : null;
  }
}
