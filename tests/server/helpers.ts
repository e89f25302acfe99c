// Starts the real Node host on 127.0.0.1:0 for contract tests, with an injectable engine.

import type { RunResult } from "../../src/core/result.js";
import type { Engine, RunJob } from "../../src/server/engine.js";
import { startServer, type HostOptions, type RunningServer } from "../../src/server/node/host.js";
import { fakeResult, trade } from "../optimize/helpers.js";

export async function start(opts: Partial<HostOptions> = {}): Promise<RunningServer> {
  return startServer({ port: 0, host: "127.0.0.1", env: {}, out: () => undefined, err: () => undefined, ...opts });
}

export async function post(
  base: string,
  path: string,
  body: unknown,
  init: RequestInit = {},
): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await fetch(new URL(path, base), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...init,
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json, headers: res.headers };
}

export const BARS = Array.from({ length: 30 }, (_, i) => {
  const open = 100 + i;
  const close = open + (i % 3 === 2 ? -0.5 : 1);
  return {
    time: 1_700_000_000_000 + i * 60_000,
    open,
    high: Math.max(open, close) + 0.8,
    low: Math.min(open, close) - 0.8,
    close,
    volume: 1000 + i,
  };
});

/**
 * A stand-in engine for routing tests: the script text chooses the behaviour ("FAIL" -> a check
 * error, "SLOW <ms>" -> waits, "TIMEOUT" -> a timed-out partial result, "CRASH" -> throws), and
 * every job is recorded so tests can check what the routes passed on.
 */
export function fakeEngine(): Engine & { jobs: RunJob[]; inflight: number; maxInflight: number } {
  const jobs: RunJob[] = [];
  const engine = {
    jobs,
    concurrency: 2,
    inflight: 0,
    maxInflight: 0,
    async run(job: RunJob): Promise<RunResult> {
      jobs.push(job);
      engine.inflight++;
      engine.maxInflight = Math.max(engine.maxInflight, engine.inflight);
      try {
        return await respond(job);
      } finally {
        engine.inflight--;
      }
    },
  };
  return engine;
}

/** Polls until `pred` holds (for ordering steps against a running server). */
export async function until(pred: () => boolean, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function respond(job: RunJob): Promise<RunResult> {
  const slow = /SLOW (\d+)/.exec(job.script);
  if (slow) await new Promise((r) => setTimeout(r, Number(slow[1])));
  if (job.script.includes("CRASH")) throw new Error("engine bug with a secret stack");
  // rows or columns, as the Runtime takes them (a study's full run passes its shared columns)
  const bars = Array.isArray(job.data) ? job.data : Array.from((job.data as { time: ArrayLike<number> }).time);
  if (job.script.includes("FAIL")) {
    return fakeResult([], {
      error: "Undeclared identifier 'foo'",
      error_kind: "check",
      diagnostics: [
        { severity: "error", message: "Undeclared identifier 'foo'", line: 2, column: 1, end_line: 2, end_column: 4 },
      ] as never,
    });
  }
  const n = job.script.includes("TIMEOUT") ? Math.floor(bars.length / 2) : bars.length;
  const len = Number((job.options.inputs as Record<string, unknown> | undefined)?.Length ?? 10);
  return fakeResult(
    Array.from({ length: n }, (_, i) => trade(len - 5 + (i % 2), i)),
    {
      count: n,
      mode: job.options.mode === "compile" ? "compile" : "interpret",
      series: { plot_0: Array.from({ length: n }, (_, i) => i) },
      ...(job.script.includes("TIMEOUT") ? { timed_out: true } : {}),
    },
  );
}
