// Helpers shared by the strategy.* builtins: reaching the broker and reading argument values.

import type { Broker } from "../../strategy/broker.js";
import type { BrokerHost } from "../../strategy/host.js";
import type { FillNote } from "../../strategy/types.js";
import type { ExecContext } from "../types.js";
import { reportFill } from "./alerts.js";

/**
 * Broker.onFill of every run: one function, not a closure per run (Broker.filled's call site then
 * sees one target in every run). The broker hands back the host it is driven with, which is always
 * the run's ExecContext.
 */
export const fillReporter = (fill: FillNote, host: BrokerHost): void => reportFill(fill, host as ExecContext);

/** The run's broker; strategy.* calls outside a strategy are a runtime error. */
export function brokerOf(ctx: ExecContext): Broker {
  const b = ctx.broker as Broker | null;
  if (!b) ctx.runtimeError("strategy.* functions can only be used in a strategy() script");
  // orders reach the broker only through these builtins, so every fill finds the alert reporter set
  // (the Runtime sets it when it creates the broker; brokers made elsewhere get it here)
  if (b.onFill === null) b.onFill = fillReporter;
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
