// What a fanned-out study may ask of the Workers platform, and the up-front check that refuses a
// study that would run past it (service.md 4, docs/compatibility.md "Fanned-out studies").
//
// Figures are Cloudflare's published Workers limits (developers.cloudflare.com/workers/platform/limits,
// durable-objects/platform/limits): per invocation, 50 subrequests on Free and 10,000 on Paid; CPU time
// 10 ms on Free, 30 s by default on Paid (raisable to 5 min with `limits.cpu_ms`); six connections
// waiting for response headers at once (a seventh waits; it does not fail). A study's coordinator is one
// Durable Object alarm invocation, so every batch it dispatches, retries included, is one of its
// subrequests; each batch is one invocation of the evaluate worker, so its engine runs share one CPU
// budget. Workers Free is also capped at 100,000 requests a day: a batch is one request.

import type { Plan } from "../optimize/validation.js";

export type WorkersPlan = "free" | "paid";

export interface PlanLimits {
  plan: WorkersPlan;
  /** Subrequests one invocation may make (the coordinator's batches, retries included). */
  subrequests: number;
  /** CPU time one invocation may use, in ms (one batch's engine runs). */
  cpu_ms: number;
  /** Connections an invocation may have waiting for headers at once; more wait their turn. */
  connections: number;
  /** CPU time of one Durable Object request or alarm, in ms (the coordinator: the sampler's proposals). */
  coordinator_cpu_ms: number;
}

export const PLAN_LIMITS: Record<WorkersPlan, PlanLimits> = {
  free: { plan: "free", subrequests: 50, cpu_ms: 10, connections: 6, coordinator_cpu_ms: 30_000 },
  paid: { plan: "paid", subrequests: 10_000, cpu_ms: 30_000, connections: 6, coordinator_cpu_ms: 30_000 },
};

/** The largest CPU limit Paid can be configured to (`limits.cpu_ms` in wrangler.toml). */
export const PAID_CPU_MS_MAX = 300_000;

/**
 * Estimated CPU per bar of one engine run on workerd, in microseconds: a middle figure, not a bound.
 * Interpret (workerd forbids `new Function`; only scripts compiled ahead of time run compiled) measured
 * 1.3-13.6 us a bar on the bench scripts, 7.6 on the strategy one (docs/benchmarks.md "Edge worker").
 * FANOUT_US_PER_BAR overrides it for a heavier script.
 */
export const US_PER_BAR_DEFAULT = 10;

/**
 * TPE's proposals cost the coordinator CPU quadratic in the trials: each reads every earlier trial's
 * value on every axis for each of its 24 candidates. Measured in Node (V8, as workerd): 2.9 us x n^2
 * for n trials over two numeric axes (500 trials 1.0 s, 2,000 11 s, 4,000 47 s); 2 us x n^2 per axis is
 * the estimate. Random and grid proposals are negligible.
 */
export const TPE_US_PER_TRIAL2_AXIS = 2;

/** A fanned-out study's own caps (the single-host ones are service.md 7's 200 trials / 400 runs). */
export const FANOUT_CAPS = { nTrials: 10_000, engineRuns: 40_000 };
export const FANOUT_CONCURRENCY_MAX = 32;
export const FANOUT_BATCH_SIZE_MAX = 500;
export const FANOUT_RETRIES_MAX = 5;

/** The plan's limits as this deployment declares them (WORKERS_PLAN, FANOUT_CPU_MS, FANOUT_MAX_SUBREQUESTS). */
export function planLimits(env: Record<string, unknown>, asked: string | null): PlanLimits {
  const name = (asked ?? (typeof env.WORKERS_PLAN === "string" ? env.WORKERS_PLAN : "paid")) as WorkersPlan;
  const base = PLAN_LIMITS[name] ?? PLAN_LIMITS.paid;
  const num = (key: string): number | null => {
    const v = Number(env[key]);
    return typeof env[key] === "string" && Number.isFinite(v) && v > 0 ? v : null;
  };
  const cpu = num("FANOUT_CPU_MS");
  const sub = num("FANOUT_MAX_SUBREQUESTS");
  const coord = num("FANOUT_COORDINATOR_CPU_MS");
  return {
    ...base,
    // a deployment may declare a raised CPU limit (Paid only) or a lower one, never past the plan's ceiling
    cpu_ms: cpu === null ? base.cpu_ms : Math.min(cpu, base.plan === "paid" ? PAID_CPU_MS_MAX : base.cpu_ms),
    subrequests: sub === null ? base.subrequests : Math.min(sub, base.subrequests),
    coordinator_cpu_ms: coord === null ? base.coordinator_cpu_ms : Math.min(coord, PAID_CPU_MS_MAX),
  };
}

export interface FanoutShape {
  nTrials: number;
  batchSize: number;
  maxRetries: number;
  /** Whether every trial runs its out-of-sample slices (else only the winner does, in one more batch). */
  oosEveryTrial: boolean;
  /** One validation plan per data set (a trial runs on every set). */
  plans: Plan[];
  usPerBar: number;
  /** TPE: the axes its proposals read (0 for random and grid, whose proposals cost next to nothing). */
  tpeAxes: number;
}

export interface FanoutEstimate {
  batches: number;
  /** Subrequests the coordinator may make: every batch, each retried the most it can be. */
  max_subrequests: number;
  /** Estimated CPU of the largest batch, in ms. */
  batch_cpu_ms: number;
  /** Bars one trial runs (its in-sample slice and, when scored every trial, its out-of-sample slices). */
  bars_per_trial: number;
  /** Estimated CPU of the coordinator's proposals (one alarm), in ms. */
  coordinator_cpu_ms: number;
}

export function estimateFanout(s: FanoutShape): FanoutEstimate {
  const len = (x: { start: number; end: number }): number => x.end - x.start;
  const barsPerTrial = s.plans.reduce(
    (n, p) => n + len(p.train) + (s.oosEveryTrial ? p.tests.reduce((m, t) => m + len(t), 0) : 0),
    0,
  );
  const withOos = s.plans.some((p) => p.tests.length > 0);
  const batches = Math.ceil(s.nTrials / s.batchSize) + (s.oosEveryTrial || !withOos ? 0 : 1);
  return {
    batches,
    max_subrequests: batches * (1 + s.maxRetries),
    batch_cpu_ms: Math.ceil((Math.min(s.batchSize, s.nTrials) * barsPerTrial * s.usPerBar) / 1000),
    bars_per_trial: barsPerTrial,
    coordinator_cpu_ms: Math.ceil((TPE_US_PER_TRIAL2_AXIS * s.nTrials * s.nTrials * s.tpeAxes) / 1000),
  };
}

/** Why a study cannot run on this plan, as an error code with its details; null when it fits. */
export function fanoutRefusal(
  est: FanoutEstimate,
  limits: PlanLimits,
  batchSize: number,
  usPerBar: number,
): { code: string; message: string; details: Record<string, unknown> } | null {
  if (est.max_subrequests > limits.subrequests) {
    return {
      code: "TOO_MANY_SUBREQUESTS",
      message: `${est.batches} batches with their retries may need ${est.max_subrequests} sub-invocations; the ${limits.plan} plan allows ${limits.subrequests} per invocation (raise batch_size or lower max_retries)`,
      details: { plan: limits.plan, batches: est.batches, estimated: est.max_subrequests, max: limits.subrequests },
    };
  }
  if (est.batch_cpu_ms > limits.cpu_ms) {
    const fit = Math.floor((limits.cpu_ms * 1000) / Math.max(1, est.bars_per_trial * usPerBar));
    return {
      code: "BATCH_CPU_EXCEEDED",
      message: `a batch of ${batchSize} trials (${est.bars_per_trial} bars each) is estimated at ${est.batch_cpu_ms} ms of CPU; the ${limits.plan} plan allows ${limits.cpu_ms} ms per invocation (${fit > 0 ? `batch_size ${fit} fits` : "no batch size fits: fewer bars or a higher plan"})`,
      details: {
        plan: limits.plan,
        estimated_cpu_ms: est.batch_cpu_ms,
        max_cpu_ms: limits.cpu_ms,
        us_per_bar: usPerBar,
        batch_size_that_fits: fit,
      },
    };
  }
  if (est.coordinator_cpu_ms > limits.coordinator_cpu_ms) {
    return {
      code: "COORDINATOR_CPU_EXCEEDED",
      message: `TPE's proposals for this many trials are estimated at ${est.coordinator_cpu_ms} ms of CPU in the coordinator; a Durable Object alarm allows ${limits.coordinator_cpu_ms} ms (fewer trials, the random sampler, or FANOUT_COORDINATOR_CPU_MS up to ${PAID_CPU_MS_MAX} on a raised limit)`,
      details: {
        plan: limits.plan,
        estimated_cpu_ms: est.coordinator_cpu_ms,
        max_cpu_ms: limits.coordinator_cpu_ms,
      },
    };
  }
  return null;
}
