// The edge worker's scripts registry and alert routes, as the "Create alert" dialog uses them: is a
// worker there, register a script with its alert destinations, give its bar-close job bars and a
// schedule, run the job now, read the delivery history. Errors carry the worker's code and message.

import type { DeliveryRow } from "../../../src/mesh/outbox.js";
import type { PackedBars } from "../../../src/worker/protocol.js";
import { barsToRows, type HttpTarget } from "./http.js";
import { EngineError } from "./types.js";

export type AlertDestinationInput =
  | { id?: string; type: "webhook"; url: string; secret?: string; keep_secret?: boolean }
  | { id?: string; type: "chat"; chat_id: string };

/** A destination as the worker shows it (a webhook's secret is never echoed, only whether it signs). */
export type AlertDestinationView =
  | { id: string; type: "webhook"; url: string; signed: boolean }
  | { id: string; type: "chat"; chat_id: string };

/** A delivery-history row as GET /scripts/:id/alerts/deliveries sends it (the outbox's own row type). */
export type DeliveryView = DeliveryRow;

export interface JobOutcomeView {
  job_id: string;
  status: string;
  reason?: string;
  alerts?: number;
  alerts_queued?: number;
  alerts_delivered?: number;
  alerts_pending?: number;
}

/** Most bars one "send the chart's bars" ingests (the newest): far below the worker's 5 MB body limit. */
export const MAX_INGEST_BARS = 5000;

async function call(target: HttpTarget, method: string, path: string, body?: unknown): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (target.apiKey) headers["x-api-key"] = target.apiKey;
  let res: Response;
  try {
    res = await fetch(target.baseUrl.replace(/\/$/, "") + path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (e) {
    throw new EngineError(`cannot reach ${target.baseUrl}: ${(e as Error).message}`, "NETWORK");
  }
  let json: any = null;
  try {
    json = await res.json();
  } catch {
    throw new EngineError(`${path}: HTTP ${res.status} with a body that is not JSON`, "BAD_RESPONSE");
  }
  if (!res.ok || json?.status === "error")
    throw new EngineError(`${json?.code ?? `HTTP ${res.status}`}: ${json?.message ?? "request failed"}`, json?.code);
  return json;
}

/** True when an edge worker answers /health at the target (within 2 s). */
export async function edgeAvailable(target: HttpTarget): Promise<boolean> {
  if (!target.baseUrl) return false;
  try {
    const res = await fetch(`${target.baseUrl.replace(/\/$/, "")}/health`, { signal: AbortSignal.timeout(2000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** The script's destinations, or null when the worker has no script by that id. */
export async function getAlerts(target: HttpTarget, scriptId: string): Promise<AlertDestinationView[] | null> {
  try {
    return (await call(target, "GET", `/scripts/${encodeURIComponent(scriptId)}/alerts?limit=1`)).destinations;
  } catch (e) {
    if ((e as EngineError).code === "NOT_FOUND") return null;
    throw e;
  }
}

export interface Registration {
  scriptId: string;
  name: string;
  source: string;
  symbol: string;
  timeframe: string;
  destinations: AlertDestinationInput[];
  /** Bars to store for the job's series (the chart's), or null to rely on the worker's feed. */
  bars: PackedBars | null;
}

/**
 * Registers (or updates) the script, its destinations and its bar-close job (job id = script id; the
 * other jobs are kept), then stores the bars when given. Returns the destinations as the worker took them.
 */
export async function registerAlert(target: HttpTarget, r: Registration): Promise<AlertDestinationView[]> {
  const id = encodeURIComponent(r.scriptId);
  await call(target, "POST", "/scripts", { id: r.scriptId, name: r.name, source: r.source });
  const put = await call(target, "PUT", `/scripts/${id}/alerts`, { destinations: r.destinations });
  const jobs = ((await call(target, "GET", "/cron/jobs")).jobs as { id: string }[]).filter((j) => j.id !== r.scriptId);
  await call(target, "PUT", "/cron/jobs", {
    jobs: [...jobs, { id: r.scriptId, script_id: r.scriptId, symbol: r.symbol, timeframe: r.timeframe }],
  });
  if (r.bars?.time.length) {
    const n = r.bars.time.length;
    await call(target, "POST", "/ingest", {
      symbol: r.symbol,
      timeframe: r.timeframe,
      bars: barsToRows(r.bars, Math.max(0, n - MAX_INGEST_BARS), n),
    });
  }
  return put.destinations;
}

/** Runs the script's bar-close job now (what the cron trigger does on the next closed bar). */
export async function runAlertJob(target: HttpTarget, scriptId: string): Promise<JobOutcomeView | null> {
  const res = await call(target, "POST", "/cron/run", { job_id: scriptId });
  return (res.results as JobOutcomeView[])[0] ?? null;
}

export async function deliveries(target: HttpTarget, scriptId: string, limit = 50): Promise<DeliveryView[]> {
  return (await call(target, "GET", `/scripts/${encodeURIComponent(scriptId)}/alerts/deliveries?limit=${limit}`))
    .deliveries;
}

/** The timeframe string of bars spaced like these (the median gap): "1", "60", "1D", "1W", "30S". */
export function guessTimeframe(time: ArrayLike<number>): string {
  const n = time.length;
  const gaps: number[] = [];
  for (let i = Math.max(1, n - 200); i < n; i++) gaps.push((time[i] as number) - (time[i - 1] as number));
  if (!gaps.length) return "1D";
  gaps.sort((a, b) => a - b);
  const gap = gaps[gaps.length >> 1] as number;
  if (gap < 60_000) return `${Math.max(1, Math.round(gap / 1000))}S`;
  if (gap < 86_400_000) return String(Math.round(gap / 60_000));
  if (gap < 7 * 86_400_000) return `${Math.round(gap / 86_400_000)}D`;
  if (gap < 28 * 86_400_000) return `${Math.round(gap / (7 * 86_400_000))}W`;
  return `${Math.max(1, Math.round(gap / (30 * 86_400_000)))}M`;
}

/** A registry id from the script's title: [A-Za-z0-9._-], at most 64 characters. */
export function scriptIdFrom(title: string): string {
  const id = title
    .trim()
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
  return id || "script";
}
