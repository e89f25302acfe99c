// TradingView's built-in "Greedy Strategy" (builtin-scripts/greedy.pine: gap stop entries,
// pyramiding 100, a TP/SL pair of strategy.order calls in an OCA reduce group around the average
// price, strategy.risk.max_intraday_filled_orders) on the conformance EURUSD 1h bars, both modes.
// The reference broker of builtin-reference.ts does not model strategy.order netting or the risk
// rule, so the first trades are checked by hand here (bars from the conformance ohlcv.csv).

import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { runBoth } from "../helpers/run-both.js";
import { loadCase, syminfoOf } from "./harness.js";

it("Greedy Strategy: the first trades follow the manual's fill rules", async () => {
  const data = loadCase("channelbreakout");
  const c = data.cols;
  const bars = Array.from({ length: c.time.length }, (_, i) => ({
    time: c.time[i],
    open: c.open[i],
    high: c.high[i],
    low: c.low[i],
    close: c.close[i],
    volume: c.volume[i],
  }));
  const script = readFileSync(new URL("builtin-scripts/greedy.pine", import.meta.url), "utf8");
  const r = await runBoth(script, bars, { runtime: { timeframe: "60", syminfo: syminfoOf(data.settings.symbol) } });
  expect(r.error ?? null).toBeNull();
  const t = r.strategy!.trades;
  // Bar 120 opens 1.13543 below bar 119's low 1.13582: dnGap, a GapDn sell stop at 1.13582.
  // Bar 121 opens 1.13554, already below the stop: short at the open, 1.13554.
  // Bar 121's close: short 1 at avg 1.13554 -> TP buy limit 1.13554 - 10 ticks = 1.13544, SL buy stop
  // 1.13564 (OCA reduce "TPSL"); open 1.13554 > close 1.13532 -> dn: a Dn sell stop at 1.13532.
  // Bar 122 opens 1.13532: the Dn stop (placed first) fills at the open (short 2), then the TP limit
  // (1.13532 <= 1.13544) buys 1 at the open, closing the oldest trade, GapDn; SL is reduced to 0.
  expect([
    t[0].entry_id,
    t[0].direction,
    t[0].entry_bar_index,
    t[0].entry_price,
    t[0].exit_id,
    t[0].exit_bar_index,
    t[0].exit_price,
  ]).toEqual(["GapDn", "short", 121, 1.13554, "TP", 122, 1.13532]);
  // Bar 122's close: short 1 (Dn) at 1.13532 -> SL 1.13542; bar 123 opens 1.13548 above it: the
  // SL buy stop fills at the open 1.13548.
  expect([
    t[1].entry_id,
    t[1].entry_bar_index,
    t[1].entry_price,
    t[1].exit_id,
    t[1].exit_bar_index,
    t[1].exit_price,
  ]).toEqual(["Dn", 122, 1.13532, "SL", 123, 1.13548]);
  expect(t[1].profit).toBeCloseTo(1.13532 - 1.13548, 12);
  expect(t.length).toBeGreaterThan(100);
}, 120_000);
