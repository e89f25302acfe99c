// StrategyEvent records: every order call the script makes (result.events).

import type { ExecContext } from "../builtins/types.js";
import type { StrategyEvent } from "../core/result.js";

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** script_id / run_id come from ctx.ext.scriptId / ctx.ext.runId, which the Runtime sets. */
export function orderEvent(
  ctx: ExecContext,
  kind: StrategyEvent["kind"],
  id: string | null,
  direction: "long" | "short" | null,
  qty: number,
  limit: number,
  stop: number,
  oca: string | null,
  comment: string | null,
): StrategyEvent {
  const ext = ctx.ext ?? {};
  return {
    kind,
    id,
    direction,
    qty: qty === qty ? qty : null,
    order_type: limit === limit && stop === stop ? "stop_limit" : limit === limit ? "limit" : stop === stop ? "stop" : "market",
    limit: limit === limit ? limit : null,
    stop: stop === stop ? stop : null,
    oca_name: oca,
    comment,
    bar_index: ctx.barIndex,
    bar_time: ctx.time,
    ohlc: [ctx.open, ctx.high, ctx.low, ctx.close],
    script_id: str(ext.scriptId) ?? "",
    run_id: str(ext.runId) ?? "",
  };
}
