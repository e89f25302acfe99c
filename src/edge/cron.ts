// Bar-close jobs: each enabled job re-runs its stored script over its symbol/timeframe's stored
// bars when a newer closed bar exists, and forwards the strategy events of the new bars to the
// trade service. Alerts are never forwarded: they are not orders.

import type { StrategyEvent } from "../core/result.js";
import type { Engine } from "../server/engine.js";
import type { EdgeEnv } from "./bindings.js";
import {
  appendTradeLog,
  getBars,
  getJobs,
  getJobState,
  getKillSwitch,
  getScript,
  putJobState,
  type CronJob,
  type ForwardedTrade,
} from "./store.js";

export interface JobOutcome {
  job_id: string;
  status: "ran" | "skipped" | "error";
  reason?: string;
  bars?: number;
  last_bar_time?: number;
  events?: number;
  forwarded?: number;
  alerts?: number;
}

export function forwardingEnabled(env: EdgeEnv, job: CronJob): boolean {
  return !!env.TRADE_SERVICE && job.forward_events !== false && String(env.FORWARD_EVENTS ?? "true") !== "false";
}

async function forward(env: EdgeEnv, job: CronJob, events: StrategyEvent[]): Promise<number> {
  const service = env.TRADE_SERVICE as NonNullable<EdgeEnv["TRADE_SERVICE"]>;
  const sent: ForwardedTrade[] = [];
  try {
    for (const event of events) {
      const res = await service.fetch("https://trade-service/webhook", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          source: "resin",
          job_id: job.id,
          script_id: job.script_id,
          symbol: job.symbol,
          timeframe: job.timeframe,
          event,
        }),
      });
      if (!res.ok) throw new Error(`trade service answered ${res.status}`);
      sent.push({
        at: Date.now(),
        job_id: job.id,
        symbol: job.symbol,
        timeframe: job.timeframe,
        kind: event.kind,
        id: event.id,
        direction: event.direction,
        qty: event.qty,
        bar_time: event.bar_time,
      });
    }
  } finally {
    // What did go out is logged even when a later event failed.
    await appendTradeLog(env, sent);
  }
  return sent.length;
}

async function runJob(env: EdgeEnv, engine: Engine, job: CronJob, force: boolean): Promise<JobOutcome> {
  const state = await getJobState(env, job.id);
  const script = await getScript(env, job.script_id);
  if (!script) return { job_id: job.id, status: "error", reason: `script '${job.script_id}' not found` };
  const bars = await getBars(env, job.symbol, job.timeframe);
  if (bars.length === 0) return { job_id: job.id, status: "skipped", reason: "no bars ingested" };
  const lastTime = (bars[bars.length - 1] as { time: number }).time;
  if (!force && state.last_bar_time !== null && lastTime <= state.last_bar_time) {
    return { job_id: job.id, status: "skipped", reason: "no new closed bar" };
  }
  const result = await engine.run({
    script: script.source,
    data: bars,
    symbol: job.symbol,
    timeframe: job.timeframe,
    options: { mode: "interpret", ...(Object.keys(job.inputs).length ? { inputs: job.inputs } : {}) },
  });
  state.last_run_at = Date.now();
  if (result.error && !result.timed_out) {
    state.last_error = `${result.error_kind ?? "error"}: ${result.error}`;
    await putJobState(env, job.id, state);
    return { job_id: job.id, status: "error", reason: state.last_error };
  }
  // Only events of bars the job has not processed yet; the first run takes the last bar only,
  // so history is never replayed to the trade service.
  const since = state.last_bar_time ?? lastTime - 1;
  const fresh = (result.events ?? []).filter((e) => e.bar_time > since);
  let forwarded = 0;
  let forwardError: string | null = null;
  // The kill switch is read on every run, so it halts forwarding from the next bar-close job on.
  const halted = fresh.length > 0 && forwardingEnabled(env, job) && (await getKillSwitch(env)).on;
  if (fresh.length && forwardingEnabled(env, job) && !halted) {
    try {
      forwarded = await forward(env, job, fresh);
    } catch (e) {
      forwardError = e instanceof Error ? e.message : String(e);
    }
  }
  state.last_bar_time = lastTime;
  state.last_error = forwardError;
  state.forwarded += forwarded;
  await putJobState(env, job.id, state);
  return {
    job_id: job.id,
    status: forwardError ? "error" : "ran",
    ...(forwardError ? { reason: forwardError } : halted ? { reason: "kill switch on: events not forwarded" } : {}),
    bars: bars.length,
    last_bar_time: lastTime,
    events: fresh.length,
    forwarded,
    alerts: result.alerts?.length ?? 0,
  };
}

/** Runs the enabled jobs (or the one asked for, enabled or not). */
export async function runJobs(
  env: EdgeEnv,
  engine: Engine,
  opts: { jobId?: string | null; force?: boolean } = {},
): Promise<JobOutcome[]> {
  const jobs = await getJobs(env);
  const selected = opts.jobId ? jobs.filter((j) => j.id === opts.jobId) : jobs.filter((j) => j.enabled);
  const out: JobOutcome[] = [];
  for (const job of selected) {
    try {
      out.push(await runJob(env, engine, job, !!opts.force));
    } catch (e) {
      out.push({ job_id: job.id, status: "error", reason: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}
