// Order-fill alerts (TradingView's "order fills" alert events), one alert record at each fill of an
// order placed without disable_alert, when there is a message to send:
// - the script's //@strategy_alert_message, the default message of its alerts, in which
//   {{strategy.order.alert_message}} stands for the order's alert_message; else
// - the order's own alert_message (strategy.exit: alert_profit / alert_loss / alert_trailing for the
//   leg that filled, else alert_message), which TradingView users send through a dialog message of
//   "{{strategy.order.alert_message}}".
// Orders with neither produce no alert record (a run has no Create Alert dialog to ask). {{strategy.*}}
// placeholders take the fill's values now; the others ({{close}}, {{plot_0}}, ...) are resolved at
// the end of the run like alertcondition messages, when the bar's plots are final.

import type { AlertRecord } from "../../core/result.js";
import type { FillNote } from "../../strategy/types.js";
import { alertStoreOf } from "../alert/store.js";
import { resolvePlaceholders, type StrategyAlertValues } from "../alert/placeholders.js";
import type { ExecContext } from "../types.js";

function marketPosition(size: number): string {
  return size > 0 ? "long" : size < 0 ? "short" : "flat";
}

export function fillValues(f: FillNote): StrategyAlertValues {
  return {
    action: f.action,
    contracts: f.qty,
    price: f.price,
    id: f.id,
    comment: f.comment ?? "",
    alert_message: f.alertMessage ?? "",
    market_position: marketPosition(f.position),
    market_position_size: Math.abs(f.position),
    prev_market_position: marketPosition(f.prevPosition),
    prev_market_position_size: Math.abs(f.prevPosition),
    position_size: f.position,
  };
}

/** Broker.onFill for runs with an alert store: one alert record per fill. */
export function reportFill(f: FillNote, ctx: ExecContext): void {
  const annotated = ctx.ext.strategyAlertMessage;
  const template = typeof annotated === "string" && annotated !== "" ? annotated : f.alertMessage;
  if (template === null || template === "") return;
  const store = alertStoreOf(ctx);
  // strategy placeholders now (they describe this fill); the rest once the bar's plots are final
  const message = resolvePlaceholders(template, null, f.bar, fillValues(f));
  const record: AlertRecord = { message, freq: "all", bar_index: f.bar, time: f.time, source: "alert" };
  store.alerts.push(record);
  if (message.indexOf("{{") >= 0) store.pending.push({ record, template: message });
}
