// Trace events: the structured lines the workers print (JSON objects with a "trace" field, e.g.
// the edge worker's {"trace":"request",...}), read from the captured logs, plus the export
// destinations (.resin/trace/destinations.json) they are shipped to as OTLP/HTTP JSON logs
// (POST <endpoint>/v1/logs), each with a cursor so an event is exported once.

import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Ctx } from "./context.js";
import { CtlError, EXIT } from "./errors.js";

export interface TraceEvent {
  at: string;
  worker: string;
  kind: string;
  fields: Record<string, unknown>;
}

export interface Destination {
  name: string;
  endpoint: string;
  /** Events exported so far (the cursor into the ordered event list). */
  exported: number;
  last_status: string | null;
  last_at: string | null;
}

export function traceEvents(ctx: Ctx): TraceEvent[] {
  const local = ctx.local();
  const workers = [...new Set([...Object.keys(ctx.config().workers), ...local.loggedWorkers()])];
  const out: TraceEvent[] = [];
  for (const w of workers)
    for (const l of local.readLogs(w)) {
      if (!l.msg.startsWith("{")) continue;
      try {
        const doc = JSON.parse(l.msg) as Record<string, unknown>;
        if (typeof doc.trace !== "string") continue;
        const { trace, ...fields } = doc;
        out.push({ at: l.at, worker: w, kind: trace as string, fields });
      } catch {
        // not JSON: an ordinary log line
      }
    }
  return out.sort((a, b) => a.at.localeCompare(b.at));
}

function destFile(ctx: Ctx): string {
  return join(ctx.root(), ".resin", "trace", "destinations.json");
}

export function destinations(ctx: Ctx): Destination[] {
  try {
    return JSON.parse(readFileSync(destFile(ctx), "utf8")) as Destination[];
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new CtlError("STATE_CORRUPT", `${destFile(ctx)}: ${(e as Error).message}`, { exit: EXIT.ERROR });
  }
}

export function saveDestinations(ctx: Ctx, list: Destination[]): void {
  mkdirSync(join(ctx.root(), ".resin", "trace"), { recursive: true });
  const tmp = `${destFile(ctx)}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(list, null, 2)}\n`);
  renameSync(tmp, destFile(ctx));
}

const attr = (key: string, v: unknown) => ({
  key,
  value:
    typeof v === "number"
      ? Number.isInteger(v)
        ? { intValue: String(v) }
        : { doubleValue: v }
      : typeof v === "boolean"
        ? { boolValue: v }
        : { stringValue: typeof v === "string" ? v : JSON.stringify(v) },
});

/** OTLP/HTTP JSON logs body for a batch of events (one resource per worker). */
export function otlpBody(events: TraceEvent[]): unknown {
  const byWorker = new Map<string, TraceEvent[]>();
  for (const e of events) byWorker.set(e.worker, [...(byWorker.get(e.worker) ?? []), e]);
  return {
    resourceLogs: [...byWorker.entries()].map(([worker, evs]) => ({
      resource: { attributes: [attr("service.name", worker)] },
      scopeLogs: [
        {
          scope: { name: "resinctl" },
          logRecords: evs.map((e) => ({
            timeUnixNano: `${BigInt(Date.parse(e.at)) * 1_000_000n}`,
            severityText: Number(e.fields.status) >= 500 ? "ERROR" : "INFO",
            body: { stringValue: e.kind },
            attributes: [attr("trace.kind", e.kind), ...Object.entries(e.fields).map(([k, v]) => attr(k, v))],
          })),
        },
      ],
    })),
  };
}

/** Ships the events each destination has not had yet (at most 1000 per call); returns what was sent. */
export async function flush(ctx: Ctx): Promise<{ name: string; sent: number; status: string }[]> {
  const list = destinations(ctx);
  if (!list.length) return [];
  const events = traceEvents(ctx);
  const out: { name: string; sent: number; status: string }[] = [];
  for (const d of list) {
    const batch = events.slice(d.exported, d.exported + 1000);
    if (!batch.length) continue;
    let status: string;
    try {
      const res = await ctx.fetch(`${d.endpoint.replace(/\/$/, "")}/v1/logs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(otlpBody(batch)),
      });
      status = res.ok ? "ok" : `HTTP ${res.status}`;
      if (res.ok) d.exported += batch.length;
    } catch (e) {
      status = (e as Error).message;
    }
    d.last_status = status;
    d.last_at = new Date().toISOString();
    out.push({ name: d.name, sent: status === "ok" ? batch.length : 0, status });
  }
  saveDestinations(ctx, list);
  return out;
}
