// Order-fill alerts, OCA groups (strategy.oca.reduce and strategy.exit's oca_name), the account
// currency, and the strategy.risk.* rules, through whole scripts in both modes. Each expectation is
// worked out by hand in its comment from TradingView's reference and user manual ("Strategies").

import { describe, expect, it } from "vitest";
import { hourlyBars } from "../helpers/hourly-bars.js";
import { runBoth } from "../helpers/run-both.js";

const D = 86_400_000;
const flat = (p: number) => [p, p, p, p];

describe("alerts from order fills", () => {
  const data = hourlyBars([flat(100), [101, 103, 101, 103], [104, 104, 104, 104], [105, 105, 105, 105]]);

  it("an order's alert_message fires at its fill with the fill's placeholders; disable_alert silences it", async () => {
    // Entry L (2 contracts) fills at bar 1's open 101: buy 2 @ 101, position 2. {{close}} is bar 1's
    // close (103), {{ticker}} the chart symbol. strategy.close on bar 1 fills at bar 2's open 104:
    // a sell that leaves the position flat. Q (disable_alert) fills at bar 3's open silently.
    const src = `//@version=6
strategy("a")
if bar_index == 0
    strategy.entry("L", strategy.long, 2, comment = "go", alert_message = "{{strategy.order.action}} {{strategy.order.contracts}} @ {{strategy.order.price}} id={{strategy.order.id}} c={{strategy.order.comment}} pos={{strategy.position_size}} {{ticker}} {{close}}")
if bar_index == 1
    strategy.close("L", alert_message = "{{strategy.order.action}} {{strategy.order.contracts}} now {{strategy.market_position}} was {{strategy.prev_market_position}}")
if bar_index == 2
    strategy.entry("Q", strategy.long, alert_message = "quiet", disable_alert = true)
`;
    const r = await runBoth(src, data);
    expect(r.alerts.map((a) => [a.bar_index, a.message, a.freq, a.source])).toEqual([
      [1, "buy 2 @ 101 id=L c=go pos=2 CHART 103", "all", "alert"],
      [2, "sell 2 now flat was long", "all", "alert"],
    ]);
    expect(r.strategy!.open_trades.map((t) => t.entry_id)).toEqual(["Q"]);
  });

  it("//@strategy_alert_message is the message of every fill, {{strategy.order.alert_message}} the order's text", async () => {
    // Both entries fill (bar 1 and bar 2 opens); without alert_message the placeholder is empty.
    const src = `//@version=6
//@strategy_alert_message {{strategy.order.action}} {{strategy.order.id}} [{{strategy.order.alert_message}}]
strategy("a", pyramiding = 2)
if bar_index == 0
    strategy.entry("A", strategy.long, alert_message = "first")
if bar_index == 1
    strategy.entry("B", strategy.long)
`;
    const r = await runBoth(src, data);
    expect(r.alerts.map((a) => [a.bar_index, a.message])).toEqual([
      [1, "buy A [first]"],
      [2, "buy B []"],
    ]);
  });

  it("orders without a message produce no alert records", async () => {
    const src = `//@version=6
strategy("a")
if bar_index == 0
    strategy.entry("A", strategy.long)
`;
    const r = await runBoth(src, data);
    expect(r.strategy!.open_trades.length).toBe(1);
    expect(r.alerts).toEqual([]);
  });

  it("strategy.exit takes alert_profit / alert_loss for the leg that fills", async () => {
    // L fills at bar 1's open 101; the exit (placed on bar 1) has its take-profit at 104, reached at
    // bar 2's open 104 (a gap: filled at the open).
    const src = `//@version=6
strategy("a")
if bar_index == 0
    strategy.entry("L", strategy.long)
if strategy.position_size > 0
    strategy.exit("X", "L", limit = 104, stop = 90, alert_message = "exit", alert_profit = "tp {{strategy.order.price}}", alert_loss = "sl")
`;
    const r = await runBoth(src, data);
    expect(r.alerts.map((a) => [a.bar_index, a.message])).toEqual([[2, "tp 104"]]);
  });
});

describe("OCA groups", () => {
  // The manual's "Multiple TP Demo" with strategy.oca.reduce: entry 6; sell stop 6 at 95, sell limits
  // 3 at 101 and 6 at 102, all in group "Bracket". Bar 1: open 100 -> low 99.8 -> high 101.5 -> 101:
  // the entry fills at 100, Limit 1 sells 3 at 101 and reduces the others by 3 (Stop 3, Limit 2 3).
  // Bar 2: 101 -> 100.9 -> 102.5: Limit 2 sells its remaining 3 at 102, the position is flat and
  // Stop is reduced to nothing. Bar 3 falls through 95: nothing fills, the strategy never goes short.
  const src = (oca: string) => `//@version=6
strategy("Multiple TP Demo")
if bar_index == 0
    strategy.entry("Long", strategy.long, 6)
    strategy.order("Stop", strategy.short, stop = 95, qty = 6, oca_name = "Bracket", oca_type = ${oca})
    strategy.order("Limit 1", strategy.short, limit = 101, qty = 3, oca_name = "Bracket", oca_type = ${oca})
    strategy.order("Limit 2", strategy.short, limit = 102, qty = 6, oca_name = "Bracket", oca_type = ${oca})
`;
  const data = hourlyBars([flat(100), [100, 101.5, 99.8, 101], [101, 102.5, 100.9, 102], [102, 102, 90, 91], flat(91)]);

  it("reduce: each fill shrinks the group's other orders by the filled quantity, closing fills included", async () => {
    const r = await runBoth(src("strategy.oca.reduce"), data);
    expect(r.strategy!.trades.map((t) => [t.direction, t.qty, t.entry_price, t.exit_id, t.exit_price])).toEqual([
      ["long", 3, 100, "Limit 1", 101],
      ["long", 3, 100, "Limit 2", 102],
    ]);
    expect(r.strategy!.open_trades).toEqual([]);
  });

  it("none: the same orders overfill into a short position", async () => {
    // Limit 2 sells 6 against the remaining long 3 (3 close, 3 open short), then Stop sells 6 more.
    const r = await runBoth(src("strategy.oca.none"), data);
    expect(r.strategy!.open_trades.map((t) => [t.direction, t.qty])).toEqual([
      ["short", 3],
      ["short", 6],
    ]);
  });

  it("strategy.exit oca_name: a fill of one exit reduces the other exits of the group", async () => {
    // L (2 contracts) fills at bar 1's open 100. TP (1 contract, limit 103) and SL (1 contract, stop
    // 97) share the group "g". Bar 2: 101 -> 100.5 -> 104: TP sells 1 at 103 and takes 1 off SL,
    // which has nothing left; bar 3 falls through 97 and the last contract stays open. Without the
    // group SL sells its contract at 97.
    const s = (name: string) => `//@version=6
strategy("x")
if bar_index == 0
    strategy.entry("L", strategy.long, 2)
if strategy.position_size > 0
    strategy.exit("TP", "L", qty = 1, limit = 103${name})
    strategy.exit("SL", "L", qty = 1, stop = 97${name})
`;
    const d = hourlyBars([
      flat(100),
      [100, 100.5, 99.5, 100],
      [101, 104, 100.5, 103.5],
      [103, 103.5, 95, 96],
      flat(96),
    ]);
    const grouped = await runBoth(s(`, oca_name = "g"`), d);
    expect(grouped.strategy!.trades.map((t) => [t.exit_id, t.exit_price, t.qty])).toEqual([["TP", 103, 1]]);
    expect(grouped.strategy!.open_trades.map((t) => t.qty)).toEqual([1]);
    const apart = await runBoth(s(""), d);
    expect(apart.strategy!.trades.map((t) => [t.exit_id, t.exit_price, t.qty])).toEqual([
      ["TP", 103, 1],
      ["SL", 97, 1],
    ]);
  });
});

describe("account currency", () => {
  // strategy(currency = EUR) on a USD symbol: every monetary value is multiplied by the USD->EUR rate,
  // read like request.currency_rate from dataFeed "FX:USDEUR" (0.5 here). 10 contracts bought at 100
  // (bar 1's open) and sold at 110 (bar 3's open) make 100 USD = 50 EUR.
  const src = `//@version=6
strategy("c", currency = currency.EUR)
if bar_index == 0
    strategy.entry("L", strategy.long, 10)
if bar_index == 2
    strategy.close("L")
plot(strategy.convert_to_account(100), "acc")
plot(strategy.convert_to_symbol(100), "sym")
plot(strategy.netprofit, "np")
plot(request.currency_rate(syminfo.currency, strategy.account_currency), "rate")
`;
  const data = hourlyBars([flat(100), flat(100), flat(110), flat(110), flat(110)]);
  const fx = { "FX:USDEUR": hourlyBars([flat(0.5), flat(0.5), flat(0.5), flat(0.5), flat(0.5)]) };

  it("profits, equity and the conversion helpers use the FX:<FROM><TO> rate", async () => {
    const r = await runBoth(src, data, { dataFeed: fx });
    expect(r.strategy!.trades.map((t) => t.profit)).toEqual([50]);
    expect(r.series.acc).toEqual([50, 50, 50, 50, 50]);
    expect(r.series.sym).toEqual([200, 200, 200, 200, 200]);
    expect(r.series.np).toEqual([0, 0, 0, 50, 50]);
    // the same rate request.currency_rate reads
    expect(r.series.rate).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);
  });

  it("without the rate, values stay in the symbol's currency and the run says so", async () => {
    const r = await runBoth(src.replace(/plot\(request[^\n]*\n/, ""), data);
    expect(r.strategy!.trades.map((t) => t.profit)).toEqual([100]);
    expect(r.series.acc).toEqual([100, 100, 100, 100, 100]);
    expect(r.logs.some((l) => l.level === "warning" && l.message.includes("FX:USDEUR"))).toBe(true);
  });
});

describe("margin calls", () => {
  it("the manual's TSLA example: 682,438 shares at 4.43, margin 25%, price 3.9 -> 111,052 shares liquidated", async () => {
    // Manual ("Strategies" > "Margin"): MVS 682438 x 3.9 = 2661508.2, open profit -361692.14, equity
    // 638307.86, margin 665377.05, available funds -27069.19, money lost -108276.76, cover amount
    // TRUNCATE(-108276.76 / 3.9) = -27763, margin call size 4 x 27763 = 111052. Here the entry fills at
    // bar 1's open 4.43 and bar 2 opens at 4.2 (no call: equity 843039 > margin 716560) and falls to 3.9.
    const src = `//@version=6
strategy("m", margin_long = 25, initial_capital = 1000000)
if bar_index == 0
    strategy.entry("L", strategy.long, 682438)
`;
    const r = await runBoth(src, hourlyBars([flat(4.43), [4.43, 4.5, 4.4, 4.45], [4.2, 4.25, 3.9, 4.0]]), {
      runtime: { syminfo: { type: "stock" } },
    });
    expect(r.strategy!.trades.map((t) => [t.exit_bar_index, t.exit_id, t.qty, t.exit_price])).toEqual([
      [2, "Margin call", 111052, 3.9],
    ]);
    expect(r.strategy!.open_trades.map((t) => t.qty)).toEqual([682438 - 111052]);
  });
});

describe("strategy.risk rules", () => {
  it("allow_entry_in(long): an entry the other way closes the long instead of opening a short", async () => {
    // Reference example: "Instead of opening a short position with 10 contracts, this command will
    // close long entries." Long fills at bar 1's open 101; Short (bar 1) at bar 2's open 104 only closes it.
    const src = `//@version=6
strategy("r")
strategy.risk.allow_entry_in(strategy.direction.long)
if bar_index == 0
    strategy.entry("Long", strategy.long)
if bar_index == 1
    strategy.entry("Short", strategy.short, qty = 10)
`;
    const r = await runBoth(src, hourlyBars([flat(100), [101, 103, 101, 103], flat(104), flat(105)]));
    expect(r.strategy!.trades.map((t) => [t.direction, t.entry_price, t.exit_price, t.exit_id])).toEqual([
      ["long", 101, 104, "Short"],
    ]);
    expect(r.strategy!.open_trades).toEqual([]);
  });

  it("max_position_size caps strategy.entry, not strategy.order", async () => {
    // Reference: default_qty_value = 100 with max_position_size(10): "max plot value will be 10". The
    // rule "affects strategy.entry()": strategy.order adds its 5 contracts on top.
    const src = `//@version=6
strategy("r", default_qty_value = 100, pyramiding = 3)
strategy.risk.max_position_size(10)
if bar_index == 0
    strategy.entry("buy", strategy.long)
if bar_index == 1
    strategy.entry("more", strategy.long)
if bar_index == 2
    strategy.order("order", strategy.long, 5)
plot(strategy.position_size, "pos")
`;
    const r = await runBoth(src, hourlyBars([flat(100), flat(100), flat(100), flat(100), flat(100)]));
    // bar 1: 10 (capped from 100); bar 2: "more" finds no room; bar 3: +5 from strategy.order
    expect(r.series.pos).toEqual([0, 10, 10, 15, 15]);
  });

  it("max_cons_loss_days: after that many losing days the position closes at the next day's open and trading stops", async () => {
    // Daily bars. Long 1 fills at day 1's open 100. Day 1 closes at 98 (equity 998 < 1000: loss day
    // 1), day 2 at 96 (996 < 998: loss day 2). Day 3 opens: the streak reaches 2, the position is
    // closed at day 3's open 96 and the entries the script keeps placing are ignored from then on.
    const src = `//@version=6
strategy("r", initial_capital = 1000)
strategy.risk.max_cons_loss_days(2)
strategy.entry("L", strategy.long)
`;
    const r = await runBoth(
      src,
      hourlyBars([flat(100), [100, 100, 98, 98], [98, 98, 96, 96], [96, 97, 95, 95], flat(97), flat(99)], D),
    );
    expect(r.strategy!.trades.map((t) => [t.entry_bar_index, t.entry_price, t.exit_bar_index, t.exit_price])).toEqual([
      [1, 100, 3, 96],
    ]);
    expect(r.strategy!.open_trades).toEqual([]);
  });
});
