// An exchange adapter for Binance's spot REST API shape: market orders through POST /api/v3/order
// and lookups through GET /api/v3/order by origClientOrderId, every request signed with
// HMAC-SHA256 over its query string (the `signature` parameter) and the API key in X-MBX-APIKEY.
// Credentials are per-worker secrets BINANCE_KEY_BINDING / BINANCE_SECRET_BINDING, and the
// BINANCE_TESTNET_* pair plus the testnet endpoint for signals whose `test` field is true.
// Endpoints can be overridden (BINANCE_BASE_URL, BINANCE_TESTNET_BASE_URL): the tests point them at
// a mock exchange on 127.0.0.1.

import { type MeshEnv, readSecret } from "./bindings.js";
import { type Broker, BrokerError, type BrokerFill, type BrokerOrder, type Side } from "./broker.js";

const LIVE_URL = "https://api.binance.com";
const TESTNET_URL = "https://testnet.binance.vision";
const RECV_WINDOW_MS = 5_000;
/** Per request; a hung exchange must not hold the gateway (the order is looked up on retry). */
const TIMEOUT_MS = 10_000;
/** Binance's "Order does not exist." */
const NO_SUCH_ORDER = -2013;

interface Credentials {
  base: string;
  key: string;
  secret: string;
}

interface BinanceOrder {
  orderId: number;
  clientOrderId: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  side: string;
  fills?: { price: string; qty: string; commission: string }[];
}

async function hmacHex(secret: string, message: string): Promise<string> {
  const enc = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(message)));
  let hex = "";
  for (const b of sig) hex += b.toString(16).padStart(2, "0");
  return hex;
}

function fillOf(o: BinanceOrder): BrokerFill {
  const side: Side = o.side === "SELL" ? "sell" : "buy";
  const qty = Number(o.executedQty);
  const quote = Number(o.cummulativeQuoteQty);
  const fee = (o.fills ?? []).reduce((s, f) => s + Number(f.commission), 0);
  return { brokerOrderId: String(o.orderId), side, price: qty > 0 ? quote / qty : null, qty, fee };
}

export class BinanceBroker implements Broker {
  readonly name = "binance";

  constructor(
    private readonly env: MeshEnv,
    // Wrapped: workerd's fetch throws "Illegal invocation" when called as a method of another object.
    private readonly fetcher: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  /** Testnet credentials and endpoint when `test`, live ones otherwise; never one with the other. */
  async credentials(test: boolean): Promise<Credentials> {
    const prefix = test ? "BINANCE_TESTNET_" : "BINANCE_";
    const key = await readSecret(this.env, `${prefix}KEY_BINDING`);
    const secret = await readSecret(this.env, `${prefix}SECRET_BINDING`);
    if (!key || !secret)
      throw new BrokerError(
        `${prefix}KEY_BINDING / ${prefix}SECRET_BINDING are not set on the trade service`,
        "BROKER_NOT_CONFIGURED",
        true,
      );
    const override = this.env[test ? "BINANCE_TESTNET_BASE_URL" : "BINANCE_BASE_URL"];
    return { base: typeof override === "string" && override ? override : test ? TESTNET_URL : LIVE_URL, key, secret };
  }

  private async signed(method: "GET" | "POST", path: string, params: Record<string, string>, test: boolean) {
    const c = await this.credentials(test);
    const query = new URLSearchParams({ ...params, recvWindow: String(RECV_WINDOW_MS), timestamp: String(Date.now()) });
    query.append("signature", await hmacHex(c.secret, query.toString()));
    let res: Response;
    try {
      res = await this.fetcher(`${c.base}${path}?${query}`, {
        method,
        headers: { "X-MBX-APIKEY": c.key },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      throw new BrokerError(`exchange unreachable: ${(e as Error).message}`, "BROKER_UNAVAILABLE", true);
    }
    const body = (await res.json().catch(() => ({}))) as BinanceOrder & { code?: number; msg?: string };
    return { status: res.status, body };
  }

  async place(o: BrokerOrder): Promise<BrokerFill> {
    const { status, body } = await this.signed(
      "POST",
      "/api/v3/order",
      {
        symbol: o.symbol,
        side: o.side === "buy" ? "BUY" : "SELL",
        type: "MARKET",
        quantity: String(o.qty),
        newClientOrderId: o.clientOrderId,
        newOrderRespType: "FULL",
      },
      o.test,
    );
    if (status === 200) return fillOf(body);
    const message = `exchange answered ${status}${body.msg ? `: ${body.msg}` : ""}`;
    // 429/418 (rate limits) and 5xx (the order's fate unknown) are retried; the retry looks the order up first.
    if (status === 429 || status === 418 || status >= 500) throw new BrokerError(message, "BROKER_UNAVAILABLE", true);
    throw new BrokerError(message, "ORDER_REJECTED", false);
  }

  async lookup(clientOrderId: string, symbol: string, test: boolean): Promise<BrokerFill | null> {
    const { status, body } = await this.signed(
      "GET",
      "/api/v3/order",
      { symbol, origClientOrderId: clientOrderId },
      test,
    );
    if (status === 200) return fillOf(body);
    if (body.code === NO_SUCH_ORDER) return null;
    throw new BrokerError(`order lookup answered ${status}`, "BROKER_UNAVAILABLE", true);
  }
}
