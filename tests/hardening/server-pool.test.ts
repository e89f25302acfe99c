// Hardening of `resin serve` as a process (issue 16.2): runaway scripts against a 2-thread pool,
// recovery, client disconnects and a SIGTERM drain with a deadline. The built package
// (bin/resin.js -> dist/) runs, as users run it; everything talks to 127.0.0.1 only and every wait
// is bounded, so a regression fails the test instead of hanging it.

import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureDist, ROOT } from "../server/dist.js";
import { rampBars } from "../helpers/ramp-bars.js";

interface Proc {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill("SIGKILL");
});

function serve(env: Record<string, string>): Proc {
  const child = spawn(process.execPath, [join(ROOT, "bin", "resin.js"), "serve", "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, SVC_POOL_THREADS: "2", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  procs.push(child);
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.resume();
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  return { child, out: () => out, exited };
}

async function listening(p: Proc): Promise<string> {
  for (let i = 0; i < 600; i++) {
    const m = /resin serving on (http:\/\/\S+)/.exec(p.out());
    if (m) return m[1]!;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("server did not start");
}

const BARS = rampBars(20);
const PLOT = '//@version=6\nindicator("x")\nplot(close, "c")\n';
// 10^9 iterations per bar: never finishes on its own.
const RUNAWAY =
  '//@version=6\nindicator("r")\nx = 0\nfor i = 0 to 1000\n    for j = 0 to 1000\n        for k = 0 to 1000\n            x += 1\nplot(x)\n';

// A long but legitimate run: ~50 ms of loop per bar (under the 500 ms per-bar loop limit) over 2,000
// bars, about 100 s in all: it ends only by its budget, a cancel or a drain deadline.
const LONG =
  '//@version=6\nindicator("long")\nvar float acc = 0.0\nfor i = 0 to 3000000\n    acc += math.sqrt(i)\nplot(acc, "a")\n';
const MANY_BARS = rampBars(2000);

function run(
  url: string,
  body: Record<string, unknown>,
  signal: AbortSignal = AbortSignal.timeout(60_000),
): Promise<Response> {
  return fetch(new URL("/run", url), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ data: BARS, mode: "interpret", ...body }),
    signal,
  });
}

async function health(url: string): Promise<{
  pool: { size: number; alive: number; busy: number; queued: number; terminated: number; cancelled: number };
}> {
  return (await fetch(new URL("/health", url), { signal: AbortSignal.timeout(5_000) })).json();
}

async function poolSettles(
  url: string,
  pred: (p: Awaited<ReturnType<typeof health>>["pool"]) => boolean,
): Promise<Awaited<ReturnType<typeof health>>["pool"]> {
  let last = (await health(url)).pool;
  for (let i = 0; i < 200 && !pred(last); i++) {
    await new Promise((r) => setTimeout(r, 50));
    last = (await health(url)).pool;
  }
  return last;
}

beforeAll(() => ensureDist(), 180_000);

describe("resin serve under runaway scripts", () => {
  it("two runaways with timeout_seconds 1 on a 2-thread pool: both end, a normal run right after answers, /health shows recovery", async () => {
    const p = serve({});
    const url = await listening(p);
    const runaways = await Promise.all([
      run(url, { script: RUNAWAY, timeout_seconds: 1 }),
      run(url, { script: RUNAWAY, timeout_seconds: 1 }),
    ]);
    for (const res of runaways) {
      const body = await res.json();
      // The engine stops it itself (TradingView's per-bar loop limit, a 422 runtime error, or the
      // run budget, a 200 partial result), or else the pool terminates its thread past the grace
      // period (504): never a hang, never a stuck thread.
      if (res.status === 200) expect(body).toMatchObject({ status: "success", timed_out: true });
      else if (res.status === 422)
        expect(body).toMatchObject({
          code: "SCRIPT_ERROR",
          error_kind: "runtime",
          error: expect.stringMatching(/Loop is too long/),
        });
      else expect([res.status, body.code]).toEqual([504, "RUN_DEADLINE_EXCEEDED"]);
    }
    const normal = await run(url, { script: PLOT }, AbortSignal.timeout(15_000));
    expect(normal.status).toBe(200);
    expect((await normal.json()).series.c).toEqual(BARS.map((b) => b.close));
    const pool = await poolSettles(url, (q) => q.alive === 2 && q.busy === 0);
    expect(pool).toMatchObject({ size: 2, alive: 2, busy: 0, queued: 0 });
    p.child.kill("SIGINT");
    expect(await p.exited).toBe(0);
  }, 60_000);

  it("a client that disconnects cancels its run (the thread is freed at once)", async () => {
    const p = serve({ SVC_MAX_RUN_SECONDS: "120" });
    const url = await listening(p);
    const ctrl = new AbortController();
    const pending = run(url, { script: LONG, data: MANY_BARS }, ctrl.signal).catch((e: Error) => e);
    await poolSettles(url, (q) => q.busy === 1);
    ctrl.abort();
    expect(await pending).toBeInstanceOf(Error);
    const pool = await poolSettles(url, (q) => q.cancelled === 1 && q.busy === 0 && q.alive === 2);
    expect(pool).toMatchObject({ cancelled: 1, busy: 0, alive: 2 });
    p.child.kill("SIGINT");
    expect(await p.exited).toBe(0);
  }, 60_000);

  it("SIGTERM drains for SVC_DRAIN_SECONDS at most, then ends the stuck run and exits 1", async () => {
    const p = serve({ SVC_MAX_RUN_SECONDS: "120", SVC_DRAIN_SECONDS: "1" });
    const url = await listening(p);
    const stuck = run(url, { script: LONG, data: MANY_BARS }).catch((e: Error) => e);
    await poolSettles(url, (q) => q.busy === 1);
    p.child.kill("SIGTERM");
    const code = await Promise.race([
      p.exited,
      new Promise<string>((r) => setTimeout(() => r("still running"), 20_000)),
    ]);
    expect(code).toBe(1);
    await stuck;
  }, 60_000);
});
