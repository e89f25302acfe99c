// The broker interface every order goes through (paper-broker.ts, exchange-binance.ts). The gateway
// uses the client order id (derived from the idempotency key) to ask a broker whether an order a
// crashed attempt sent exists, which is what makes a retry safe after a crash between placing and
// committing.

export type Side = "buy" | "sell";

export interface BrokerOrder {
  /** Unique per idempotency key; brokers deduplicate on it. */
  clientOrderId: string;
  symbol: string;
  side: Side;
  qty: number;
  /** The signal's price (bar close, alert price): used when the broker has no quote of its own. */
  priceHint: number | null;
  test: boolean;
}

export interface BrokerFill {
  brokerOrderId: string;
  side: Side;
  /** Average fill price, null when the broker has not filled it yet. */
  price: number | null;
  qty: number;
  fee: number;
}

export interface Broker {
  readonly name: string;
  place(order: BrokerOrder): Promise<BrokerFill>;
  /** The order with this client order id, if the broker has it. */
  lookup(clientOrderId: string, symbol: string, test: boolean): Promise<BrokerFill | null>;
}

/** retryable: the order may be tried again (network, 5xx, rate limit); otherwise it is refused for good. */
export class BrokerError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = "BrokerError";
  }
}

/** A broker-safe client order id (36 chars of [A-Za-z0-9_-], Binance's limit) from an idempotency key. */
export async function clientOrderId(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key)));
  let hex = "";
  for (let i = 0; i < 16; i++) hex += (digest[i] as number).toString(16).padStart(2, "0");
  return `rs-${hex}`;
}
