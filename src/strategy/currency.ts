// Account currency: strategy(currency = X) different from syminfo.currency. TradingView multiplies
// every monetary value (profits, commissions, equity, sizing) by the symbol-to-account cross rate
// and states that request.currency_rate(syminfo.currency, strategy.account_currency) returns the
// same rate. resin reads it the way request.currency_rate does: the `close` of the dataFeed entry
// "FX:<FROM><TO>" whose bar opened last before the chart bar closes. Without that entry values stay
// in the symbol's currency and the run says so once.

import type { BrokerHost } from "./host.js";
import { isBarDataError, normalizeBars } from "../core/bars.js";

export class CurrencyRate {
  /** Symbol currency -> account currency multiplier on the current bar (1 when not converting). */
  rate = 1;
  private readonly time: Float64Array | null = null;
  private readonly close: Float64Array | null = null;
  private cursor = 0;
  readonly from: string;
  readonly to: string;

  constructor(account: string, ctx: BrokerHost) {
    const symbol = typeof ctx.syminfo?.currency === "string" ? ctx.syminfo.currency : "";
    this.from = symbol;
    this.to = account === "NONE" || account === "" ? symbol : account;
    if (this.from === "" || this.from === this.to) return;
    const key = `FX:${this.from}${this.to}`;
    const feed = ctx.ext?.dataFeed as Record<string, unknown> | undefined;
    const raw = feed && Object.hasOwn(feed, key) ? feed[key] : undefined;
    const cols = raw === undefined ? null : normalizeBars(raw);
    if (cols && !isBarDataError(cols)) {
      this.time = cols.time;
      this.close = cols.close;
      return;
    }
    ctx.log(
      "warning",
      `strategy currency ${this.to} differs from the symbol currency ${this.from}: no valid dataFeed entry '${key}', so profits and equity stay in ${this.from}`,
    );
  }

  /** Whether values are converted (an FX series was found). */
  get converting(): boolean {
    return this.time !== null;
  }

  /** Moves to the chart bar closing at `timeClose` (bars arrive in time order). */
  onBar(timeClose: number): void {
    const t = this.time;
    const c = this.close;
    if (t === null || c === null) return;
    const limit = timeClose - 1;
    let i = this.cursor;
    if (i > 0 && t[i - 1]! > limit) i = 0; // time went back (a restarted run): search again
    while (i < t.length && t[i]! <= limit) i++;
    this.cursor = i;
    // Bars before the FX series starts take its first rate (the nearest known one).
    const r = c[i > 0 ? i - 1 : 0]!;
    if (r > 0) this.rate = r;
  }
}
