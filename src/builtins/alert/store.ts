// The per-run alert store: alert() records and the declared alertcondition()s with the bars they
// fired on. Alerts are events already sent: a realtime tick rollback never takes them back, so this
// store is not part of any snapshot.
import type { AlertRecord } from "../../core/result.js";
import type { ExecContext } from "../types.js";
import { resolvePlaceholders } from "./placeholders.js";
import { doubleArray, objectArray } from "../../core/shapes.js";

export type AlertFreq = AlertRecord["freq"];

export interface AlertCondition {
  /** Call-site id of the alertcondition() (one declaration per site). */
  site: number;
  title: string;
  message: string;
  fired_bars: number[];
  fired_times: number[];
}

interface PendingCondition {
  record: AlertRecord;
  template: string;
}

export interface AlertStore {
  alerts: AlertRecord[];
  conditions: AlertCondition[];
  /** Call site -> its condition (index into conditions). */
  bySite: Map<number, AlertCondition>;
  /** once_per_bar bookkeeping: call site -> the last bar it fired on. */
  lastFired: Map<number, number>;
  /** alertcondition records whose message placeholders are resolved in toResult (plots final by then). */
  pending: PendingCondition[];
  /** The run's context, kept for resolving placeholders at the end. */
  ctx: ExecContext | null;
  /** Realtime tick bookkeeping (beginTick/commitBar). */
  tickBar: number;
  tick: number;
  toResult(): { alerts: AlertRecord[]; alert_conditions: Record<string, unknown>[] };
}

export function createAlertStore(): AlertStore {
  const store: AlertStore = {
    // (arrays in the kind of what they will hold: core/shapes.ts)
    alerts: objectArray(),
    conditions: objectArray(),
    bySite: new Map(),
    lastFired: new Map(),
    pending: objectArray(),
    ctx: null,
    tickBar: -1,
    tick: 0,
    toResult: () => ({ alerts: alertsResult(store), alert_conditions: alertConditionsResult(store) }),
  };
  return store;
}

/** The run's store, created on first use when the Runtime has not attached one. */
export function alertStoreOf(ctx: ExecContext): AlertStore {
  let s = ctx.ext.alerts as AlertStore | undefined;
  if (s === undefined || s === null || typeof s !== "object" || !("bySite" in s)) {
    s = createAlertStore();
    ctx.ext.alerts = s;
  }
  s.ctx ??= ctx;
  return s;
}

/** Before each tick of a realtime bar (optional: the builtins also read ctx.barIndex/isConfirmed). */
export function beginTick(store: AlertStore, ctx: ExecContext): void {
  store.ctx ??= ctx;
  if (store.tickBar !== ctx.barIndex) {
    store.tickBar = ctx.barIndex;
    store.tick = 0;
  } else store.tick++;
}

/** After the last tick of a bar: forgets the per-bar once_per_bar bookkeeping of earlier bars. */
export function commitBar(store: AlertStore, ctx: ExecContext): void {
  for (const [site, bar] of store.lastFired) if (bar < ctx.barIndex) store.lastFired.delete(site);
  store.tickBar = -1;
  store.tick = 0;
}

/**
 * alert(): on historical bars every call is recorded. On realtime bars: `all` on every call of every
 * tick, `once_per_bar` on the first call of the bar (per call site), `once_per_bar_close` only on the
 * bar's closing tick.
 */
export function fireAlert(store: AlertStore, ctx: ExecContext, site: number, message: string, freq: AlertFreq): void {
  if (ctx.isRealtime) {
    if (freq === "once_per_bar_close" && !ctx.isConfirmed) return;
    if (freq === "once_per_bar") {
      if (store.lastFired.get(site) === ctx.barIndex) return;
      store.lastFired.set(site, ctx.barIndex);
    }
  }
  store.alerts.push({ message, freq, bar_index: ctx.barIndex, time: ctx.time, source: "alert" });
}

/** alertcondition(): declared on first execution; fires at most once per bar while its condition is true. */
export function evalCondition(
  store: AlertStore,
  ctx: ExecContext,
  site: number,
  condition: boolean,
  title: string,
  message: string,
): void {
  let c = store.bySite.get(site);
  if (!c) {
    c = { site, title, message, fired_bars: [], fired_times: doubleArray() };
    store.bySite.set(site, c);
    store.conditions.push(c);
  }
  if (!condition) return;
  const n = c.fired_bars.length;
  if (n > 0 && c.fired_bars[n - 1] === ctx.barIndex) return; // a later tick of the same bar
  c.fired_bars.push(ctx.barIndex);
  c.fired_times.push(ctx.time);
  const record: AlertRecord = {
    message,
    freq: "once_per_bar",
    bar_index: ctx.barIndex,
    time: ctx.time,
    source: "alertcondition",
    title,
  };
  store.alerts.push(record);
  if (message.indexOf("{{") >= 0) store.pending.push({ record, template: message });
}

/** result.alerts: alert() calls and alertcondition() firings in the order they happened. */
export function alertsResult(store: AlertStore): AlertRecord[] {
  for (const p of store.pending) p.record.message = resolvePlaceholders(p.template, store.ctx, p.record.bar_index);
  store.pending.length = 0;
  return store.alerts;
}

/**
 * result.alert_conditions: one entry per declared alertcondition(), in declaration order:
 * {title, message (the template as declared), fired_bars (bar indices where the condition was true),
 * fired_times (their bar open times)}.
 */
export function alertConditionsResult(store: AlertStore): Record<string, unknown>[] {
  return store.conditions.map((c) => ({
    title: c.title,
    message: c.message,
    fired_bars: c.fired_bars.slice(),
    fired_times: c.fired_times.slice(),
  }));
}
