// Helpers shared by the strategy.* builtins: reaching the broker and reading argument values.

import type { Broker } from "../../strategy/broker.js";
import type { ExecContext } from "../types.js";
import { reportFill } from "./alerts.js";

/** The run's broker; strategy.* calls outside a strategy are a runtime error. */
export function brokerOf(ctx: ExecContext): Broker {
  const b = ctx.broker as Broker | null;
  if (!b) ctx.runtimeError("strategy.* functions can only be used in a strategy() script");
  // orders reach the broker only through these builtins, so every fill finds the alert reporter set
  // (the broker hands back the host it is driven with, which is always the run's ExecContext)
  if (b.onFill === null) b.onFill = (fill, host) => reportFill(fill, host as ExecContext);
  return b;
}

/** The broker when there is one (variables read na/0 in indicators instead of failing). */
export function maybeBroker(ctx: ExecContext): Broker | null {
  return (ctx.broker as Broker | null) ?? null;
}

export function num(v: unknown): number {
  return typeof v === "number" ? v : NaN;
}

export function strOrNull(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Constant names may arrive as values ("long") or as full names ("strategy.long"). */
export function constName(v: unknown): string | null {
  if (typeof v !== "string") return null;
  const dot = v.lastIndexOf(".");
  return dot >= 0 ? v.slice(dot + 1) : v;
}
