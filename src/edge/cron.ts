// Bar-close jobs: each enabled job re-runs its stored script over its symbol/timeframe's stored
// bars when a newer closed bar exists. Under the job's lock (job-ledger.ts), the strategy events and
// the alert firings of the new bars go to the outbox in the same transaction that marks the bar
// processed; then the outbox is drained (outbox-drain.ts) with retries and backoff, so a trade
// service or alert receiver that fails or is down loses nothing, and concurrent runs deliver each
// order and alert once. Alerts are never orders: they go only to the script's alert destinations.

import type { Engine } from "../server/engine.js";
import type { EdgeEnv } from "./bindings.js";
import { acquireJobLock, commitRun, ensureJobLedger, readJobState, releaseJobLock } from "./job-ledger.js";
import { getDestinations } from "./alert-destinations.js";
import { alertRows, alertStream } from "./alerts.js";
import { drainEdgeOutbox, streamReport } from "./outbox-drain.js";
import { orderRows, orderStream } from "./orders.js";
import { type CronJob, getBars, getJobs, getJobState, getScript, putJobState } from "./store.js";

export interface JobOutcome {
  job_id: string;
  status: "ran" | "skipped" | "error";
  reason?: string;
  /** The backend that ran the script ("compile": the deploy's ahead-of-time compiled loop), and why not compile. */
  mode?: string;
  compile_fallback_reason?: string;
  bars?: number;
  last_bar_time?: number;
  /** Strategy events of the new bars. */
  events?: number;
  /** Orders this run wrote to the outbox. */
  queued?: number;
  /** This job's orders the trade service accepted during this invocation (this run's or earlier ones'). */
  forwarded?: number;
  /** Failed delivery attempts of this job's orders during this invocation. */
  failed?: number;
  /** This job's orders still waiting in the outbox (retried with backoff). */
  pending?: number;
  /** Alert firings of the new bars. */
  alerts?: number;
  /** Alert deliveries (firing x destination) this run wrote to the outbox, delivered in this invocation, still waiting. */
  alerts_queued?: number;
  alerts_delivered?: number;
  alerts_pending?: number;
}

export function forwardingEnabled(env: EdgeEnv, job: CronJob): boolean {
  return !!env.TRADE_SERVICE && job.forward_events !== false && String(env.FORWARD_EVENTS ?? "true") !== "false";
}

async function runLocked(env: EdgeEnv, engine: Engine, job: CronJob, force: boolean): Promise<JobOutcome> {
  const db = env.RESIN_DB;
  // D1 holds the state once a job has run with it; earlier state (KV) is read once so nothing replays.
  const state = (db ? await readJobState(db, job.id) : null) ?? (await getJobState(env, job.id));
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
    // auto: a script the deploy compiled ahead of time runs its compiled loop (src/compile/aot.ts);
    // any other interprets and says why
    options: { mode: "auto", ...(Object.keys(job.inputs).length ? { inputs: job.inputs } : {}) },
  });
  const backend = {
    mode: result.mode,
    ...(result.compile_fallback_reason ? { compile_fallback_reason: result.compile_fallback_reason } : {}),
  };
  const now = Date.now();
  state.last_run_at = now;
  if (result.error && !result.timed_out) {
    state.last_error = `${result.error_kind ?? "error"}: ${result.error}`;
    if (db) await commitRun(db, job.id, state, [], now);
    else await putJobState(env, job.id, state);
    return { job_id: job.id, status: "error", reason: state.last_error, ...backend };
  }
  // Only events of bars the job has not processed yet; the first run takes the last bar only,
  // so history is never replayed to the trade service.
  const since = state.last_bar_time ?? lastTime - 1;
  const events = result.events ?? [];
  const fresh = events.filter((e) => e.bar_time > since).length;
  const forwarding = forwardingEnabled(env, job);
  const orders = forwarding && db ? orderRows(job, script.id, events, since) : [];
  // Alerts are their own channel, never orders: they go only to the script's own destinations.
  const alerts = result.alerts ?? [];
  const alertQueue = db ? alertRows(job, script.id, alerts, since, await getDestinations(env, script.id)) : [];
  const rows = [...orders, ...alertQueue];
  state.last_bar_time = lastTime;
  state.last_error = null;
  if (db) await commitRun(db, job.id, state, rows, now);
  else await putJobState(env, job.id, state);
  return {
    job_id: job.id,
    status: "ran",
    ...backend,
    ...(forwarding && !db && fresh ? { reason: "RESIN_DB (D1) binding is required to forward events" } : {}),
    bars: bars.length,
    last_bar_time: lastTime,
    events: fresh,
    queued: orders.length,
    forwarded: 0,
    alerts: alerts.filter((a) => a.time > since).length,
    alerts_queued: alertQueue.length,
  };
}

async function runJob(env: EdgeEnv, engine: Engine, job: CronJob, force: boolean): Promise<JobOutcome> {
  const db = env.RESIN_DB;
  if (!db) return runLocked(env, engine, job, force);
  await ensureJobLedger(db);
  const holder = crypto.randomUUID();
  if (!(await acquireJobLock(db, job.id, holder, Date.now())))
    return { job_id: job.id, status: "skipped", reason: "another run holds this job's lock" };
  try {
    return await runLocked(env, engine, job, force);
  } finally {
    await releaseJobLock(db, job.id, holder);
  }
}

/** Runs the enabled jobs (or the one asked for, enabled or not), then drains the outbox. */
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
  const db = env.RESIN_DB;
  if (!db) return out;
  // (the outbox's table too when no job ran: a fresh deployment's cron, whose jobs are not set yet)
  await ensureJobLedger(db);
  // Every due row, not only this run's: earlier failures are retried here once their backoff is over.
  const report = await drainEdgeOutbox(env, db);
  for (const o of out) {
    const job = selected.find((j) => j.id === o.job_id);
    if (!job) continue;
    const dests = await getDestinations(env, job.script_id);
    if (dests.length) {
      const perDest = await Promise.all(dests.map((d) => streamReport(db, report, alertStream(job.id, d.id), "alert")));
      o.alerts_delivered = perDest.reduce((n, s) => n + s.delivered, 0);
      o.alerts_pending = perDest.reduce((n, s) => n + s.pending, 0);
    }
    if (!forwardingEnabled(env, job)) continue;
    const s = await streamReport(db, report, orderStream(job.id), "order");
    o.forwarded = s.delivered;
    o.failed = s.failed;
    o.pending = s.pending;
    if (s.failed > 0 && o.status === "ran") {
      o.status = "error";
      o.reason = `${s.errors[0]}; ${s.pending} order(s) waiting in the outbox for retry`;
    }
  }
  return out;
}
