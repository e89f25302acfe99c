#!/usr/bin/env node
// npm run load: a bounded load test of `resin serve` (the built package) on 127.0.0.1.
// It starts its own server on a free port, sends N /run requests at each concurrency level with a
// stream of /optimize requests running alongside, then stops the server and prints throughput,
// latency percentiles, errors and the server's resident memory before, at its peak and after.
// Everything is bounded: each request has a timeout, the whole test a deadline, and the server
// is killed on the way out whatever happens. Never points anywhere but 127.0.0.1.
//
//   npm run load -- [--requests 2000] [--concurrency 16,64] [--bars 500] [--optimizers 1] [--json]

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg, cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const DEADLINE_MS = 10 * 60_000;
const REQUEST_TIMEOUT_MS = 60_000;

function args() {
  const a = { requests: 2000, concurrency: [16, 64], bars: 500, optimizers: 1, json: false };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i] ?? "";
    if (k === "--requests") a.requests = Math.max(1, Math.min(100_000, Number(v()) | 0));
    else if (k === "--concurrency")
      a.concurrency = v()
        .split(",")
        .map((x) => Math.max(1, Math.min(512, Number(x) | 0)));
    else if (k === "--bars") a.bars = Math.max(10, Math.min(50_000, Number(v()) | 0));
    else if (k === "--optimizers") a.optimizers = Math.max(0, Math.min(8, Number(v()) | 0));
    else if (k === "--json") a.json = true;
    else if (k === "--help" || k === "-h") {
      console.log("npm run load -- [--requests 2000] [--concurrency 16,64] [--bars 500] [--optimizers 1] [--json]");
      process.exit(0);
    } else throw new Error(`unknown option ${k}`);
  }
  return a;
}

/** A seeded random walk (same bars every time). */
function bars(n) {
  let s = 7;
  const r = () => (s = (s * 1664525 + 1013904223) >>> 0) / 4294967296;
  const out = [];
  let p = 100;
  for (let i = 0; i < n; i++) {
    const open = p;
    p = Math.max(1, p * (1 + (r() - 0.5) * 0.02));
    out.push({
      time: 1_700_000_000_000 + i * 3_600_000,
      open,
      high: Math.max(open, p) * 1.002,
      low: Math.min(open, p) * 0.998,
      close: p,
      volume: 1000 + i,
    });
  }
  return out;
}

const INDICATOR = `//@version=6
indicator("load")
fast = ta.ema(close, 12)
slow = ta.sma(close, 26)
plot(fast, "fast")
plot(slow, "slow")
plot(ta.rsi(close, 14), "rsi")
plot(ta.atr(14), "atr")
`;

const STRATEGY = `//@version=6
strategy("load opt")
len = input.int(10, "Length", minval=2, maxval=40)
m = ta.sma(close, len)
if ta.crossover(close, m)
    strategy.entry("L", strategy.long)
if ta.crossunder(close, m)
    strategy.close("L")
`;

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function percentile(sorted, q) {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function startServer() {
  const child = spawn(
    process.execPath,
    [join(ROOT, "bin", "resin.js"), "serve", "--port", "0", "--host", "127.0.0.1"],
    {
      cwd: ROOT,
      env: { ...process.env, FREE_TIER_LIMITS: "0", SVC_RUNNER: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.resume();
  for (let i = 0; i < 600; i++) {
    const m = /resin serving on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) return { child, url: m[1] };
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode})`);
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start within 30 s");
}

async function post(url, path, body) {
  const t0 = performance.now();
  try {
    const res = await fetch(new URL(path, url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return { ms: performance.now() - t0, status: res.status };
  } catch (e) {
    return { ms: performance.now() - t0, status: e?.name === "TimeoutError" ? "timeout" : "network" };
  }
}

/** n requests, `concurrency` at a time; optimizers keep /optimize busy until the runs are done. */
async function phase(url, pid, n, concurrency, runBody, optimizeBody, optimizers) {
  const rssBefore = rssMb(pid);
  let peak = rssBefore ?? 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid) ?? 0)), 100);
  const latencies = [];
  const errors = {};
  let next = 0;
  let done = false;
  const opt = [];
  const optLoops = Array.from({ length: optimizers }, async () => {
    while (!done) {
      const r = await post(url, "/optimize", optimizeBody);
      opt.push(r.ms);
      if (r.status !== 200) errors[`optimize ${r.status}`] = (errors[`optimize ${r.status}`] ?? 0) + 1;
    }
  });
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        const r = await post(url, "/run", runBody);
        latencies.push(r.ms);
        if (r.status !== 200) errors[r.status] = (errors[r.status] ?? 0) + 1;
      }
    }),
  );
  const wall = performance.now() - t0;
  done = true;
  await Promise.all(optLoops);
  clearInterval(sampler);
  latencies.sort((a, b) => a - b);
  opt.sort((a, b) => a - b);
  return {
    concurrency,
    requests: n,
    seconds: Number((wall / 1000).toFixed(2)),
    throughput: Number((n / (wall / 1000)).toFixed(1)),
    p50_ms: Math.round(percentile(latencies, 0.5)),
    p99_ms: Math.round(percentile(latencies, 0.99)),
    max_ms: Math.round(latencies.at(-1)),
    optimize: { count: opt.length, p50_ms: opt.length ? Math.round(percentile(opt, 0.5)) : null },
    errors,
    rss_mb: { before: rssBefore, peak, after: rssMb(pid) },
  };
}

async function main() {
  const a = args();
  const data = bars(a.bars);
  const runBody = JSON.stringify({ script: INDICATOR, data, mode: "auto" });
  const optimizeBody = JSON.stringify({
    script: STRATEGY,
    data,
    n_trials: 10,
    seed: 1,
    min_trades: 1,
    space: { params: [{ name: "Length", kind: "int", min: 2, max: 40 }] },
  });
  const { child, url } = await startServer();
  const killer = setTimeout(() => {
    console.error(`load: deadline of ${DEADLINE_MS / 1000} s reached, stopping`);
    child.kill("SIGKILL");
    process.exit(1);
  }, DEADLINE_MS);
  try {
    // Warm the pool (every thread compiles the kernels once) before measuring.
    await Promise.all(Array.from({ length: 8 }, () => post(url, "/run", runBody)));
    const rssStart = rssMb(child.pid);
    const phases = [];
    for (const c of a.concurrency)
      phases.push(await phase(url, child.pid, a.requests, c, runBody, optimizeBody, a.optimizers));
    const health = await (await fetch(new URL("/health", url), { signal: AbortSignal.timeout(5000) })).json();
    const report = {
      machine: { cpus: cpus().length, loadavg_1m: Number(loadavg()[0].toFixed(2)), node: process.version },
      bars: a.bars,
      rss_start_mb: rssStart,
      phases,
      pool: health.pool,
    };
    if (a.json) console.log(JSON.stringify(report, null, 2));
    else {
      console.log(
        `resin serve load test: ${a.requests} /run per level (${a.bars} bars, 4 plots), ${a.optimizers} concurrent /optimize stream(s) of 10 trials`,
      );
      console.log(
        `machine: ${report.machine.cpus} cpus, load ${report.machine.loadavg_1m} (1 min) at the end, node ${report.machine.node}`,
      );
      console.log(
        "| concurrency | req/s | p50 ms | p99 ms | max ms | /optimize done (p50 ms) | errors | RSS MB before -> peak -> after |",
      );
      console.log("|---:|---:|---:|---:|---:|---|---|---|");
      for (const p of phases) {
        console.log(
          `| ${p.concurrency} | ${p.throughput} | ${p.p50_ms} | ${p.p99_ms} | ${p.max_ms} | ${p.optimize.count} (${p.optimize.p50_ms ?? "-"}) | ${Object.keys(p.errors).length ? JSON.stringify(p.errors) : "none"} | ${p.rss_mb.before} -> ${p.rss_mb.peak} -> ${p.rss_mb.after} |`,
        );
      }
      console.log(`pool at the end: ${JSON.stringify(health.pool)}`);
    }
  } finally {
    clearTimeout(killer);
    child.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => (child.kill("SIGKILL"), r()), 10_000);
      child.once("exit", () => (clearTimeout(t), r()));
    });
  }
}

main().catch((e) => {
  console.error(`load: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
