// The broker emulator (TradingView's strategy engine). The Runtime uses exactly this surface:
//
//   const broker = createBroker(strategyArgs, ctx);   // strategy() arguments by Pine name
//   ctx.broker = broker;
//   per bar: broker.onBarOpen(ctx); <script runs, strategy.* builtins reach ctx.broker>; broker.onBarClose(ctx);
//   at the end: result.strategy = broker.finish(ctx); result.events = broker.events;
//   realtime ticks: const snap = broker.snapshot() at the last confirmed close, broker.restore(snap)
//     before re-running a tick of the forming bar.
//
// Context the Runtime provides through ctx.ext:
//   ctx.ext.scriptId, ctx.ext.runId: strings copied into every StrategyEvent.
//   ctx.ext.magnifierBars: lower-timeframe bars of the chart symbol (Bar[] or ColumnarBars, sorted by
//     time) used when strategy(use_bar_magnifier = true). The Runtime takes them from
//     RunOptions.dataFeed with magnifierBarsFrom(dataFeed, symbol, timeframe) (the entry
//     "<SYMBOL>|<lower timeframe>"), before createBroker; the broker walks the sub-bars whose time lies
//     in [ctx.time, ctx.timeClose). Without them the chart bar's own path is used.

import type { BrokerHost } from "./host.js";
import { Broker } from "./broker.js";

export { Broker, type BrokerSnapshot } from "./broker.js";
export { qtyStepFor } from "./levels.js";
export { normaliseSettings, DEFAULT_SETTINGS, type StrategySettings } from "./settings.js";
export { formatStrategySummary } from "./summary.js";
export { magnifierBarsFrom, timeframeSeconds } from "./magnifier.js";
export type { EntryRequest, ExitRequest, CloseRequest } from "./types.js";

export function createBroker(settings: Record<string, unknown>, ctx: BrokerHost): Broker {
  return new Broker(settings ?? {}, ctx);
}
