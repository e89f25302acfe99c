// The optimize rows of `resin bench` (issue 18): studies of bench/ema_atr_stop.pine over generated bars
// on each Node host, next to a plain in-process run of the same bars:
// - in-process (workerd, tests): the study's runner on the calling thread;
// - threads x1 / x2, warm: the worker-thread pool behind `resin optimize` and `/optimize`, kept across
//   studies as `resin serve` keeps it;
// - HTTP x2: POST /optimize over real HTTP on 127.0.0.1 to a server in this process (JSON both ways,
//   the winner's full run for best_result included);
// - CLI x1 / x2, cold: a fresh pool per study, as `resin optimize` makes one per process (the threads'
//   start-up, module loading and JIT warm-up included).
// Hosts are interleaved round by round; each figure is the median of the timed rounds (min-max). A
// trial's cost is the process's CPU time per trial (worker threads included: process.cpuUsage counts
// every thread) over the CPU time of a plain run, which other processes on the machine do not skew;
// trials/s is wall time and does. The browser pool needs a browser: scripts/bench-browser-optimize.mjs.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { prepareStudy, runStudy, toBarArray, type OptimizeRequest } from "../optimize/index.js";
import { Runtime } from "../runtime/index.js";
import { createInProcessEngine, type Engine, studyTrialRunner, TRIAL_BROKER } from "../server/engine.js";
import { createNodeEngine } from "../server/node/pool.js";
import type { Bar, ColumnarBars } from "../core/result.js";

/** A median with its spread. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

export interface OptimizeRow {
  host: string;
  bars: number;
  trials: number;
  rounds: number;
  /** Wall time of a study, ms. */
  ms: Spread;
  trialsPerSecond: Spread;
  /** CPU time of one trial (every thread of the process) over a plain in-process run's CPU time. */
  trialCost: Spread;
}

const SPACE = {
  params: [
    { name: "Fast length", kind: "int", min: 8, max: 16, step: 1 },
    { name: "Slow length", kind: "int", min: 20, max: 34, step: 2 },
    { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
  ],
};

export function spread(xs: readonly number[]): Spread {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s[s.length - 1]! };
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** A study's trials' params, in index order (every host draws the same ones for the same seed). */
type Params = Record<string, unknown>[];
type Study = (seed: number) => Promise<Params>;

interface Host {
  name: string;
  /** Runs one study (n trials) with this seed; resolves with its trials' params. */
  study: Study;
  close(): Promise<void>;
}

function studyRequest(source: string, rows: Bar[], nTrials: number, seed: number): OptimizeRequest {
  return {
    script: source,
    data: rows,
    space: SPACE,
    n_trials: nTrials,
    sampler: "random",
    seed,
    min_trades: 1,
    validation: { mode: "in-sample" },
  };
}

/** A study on an engine through the library entry points (what `resin optimize` does without the printing). */
function engineStudy(engine: Engine, source: string, rows: Bar[], nTrials: number): Study {
  return async (seed) => {
    const s = prepareStudy(studyRequest(source, rows, nTrials, seed));
    const job = { script: source, symbol: "CHART", options: { mode: "auto" as const } };
    const res = await runStudy(s, studyTrialRunner(engine, s, { ...job, broker: TRIAL_BROKER }), {
      concurrency: engine.concurrency,
    });
    return res.trials.map((t) => t.params);
  };
}

function warmHost(name: string, engine: Engine & { close?(): Promise<void> }, source: string, rows: Bar[], n: number) {
  return { name, study: engineStudy(engine, source, rows, n), close: async () => engine.close?.() } satisfies Host;
}

/** A fresh pool for every study, closed after it: what one `resin optimize` process pays. */
function coldHost(name: string, threads: number, source: string, rows: Bar[], n: number): Host {
  return {
    name,
    study: async (seed) => {
      const engine = createNodeEngine(threads);
      try {
        return await engineStudy(engine, source, rows, n)(seed);
      } finally {
        await engine.close?.();
      }
    },
    close: async () => {},
  };
}

/** POST /optimize to a server on 127.0.0.1 in this process, on a pool of `threads`. */
async function httpHost(name: string, threads: number, source: string, rows: Bar[], n: number): Promise<Host> {
  const { startServer } = await import("../server/node/host.js");
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    engine: createNodeEngine(threads),
    env: {},
    out: () => {},
    err: () => {},
  });
  return {
    name,
    study: async (seed) => {
      const res = await fetch(new URL("/optimize", server.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(studyRequest(source, rows, n, seed)),
      });
      const json = (await res.json()) as { status: string; trials?: { params: Params[0] }[]; message?: string };
      if (json.status !== "success") throw new Error(`/optimize: ${json.message ?? res.status}`);
      return json.trials!.map((t) => t.params);
    },
    close: async () => void (await server.close(5)),
  };
}

export async function benchOptimize(
  benchDir: string,
  data: ColumnarBars,
  log: (line: string) => void,
  nTrials = 32,
  rounds = 5,
): Promise<OptimizeRow[]> {
  const source = readFileSync(join(benchDir, "ema_atr_stop.pine"), "utf8");
  const rows = toBarArray(data);
  const bars = rows.length;
  // the plain runs: the same script, bar columns, broker settings and each trial's inputs, in this process
  const rt = new Runtime("CHART", { broker: TRIAL_BROKER });
  const plainRuns = async (params: Params): Promise<number> => {
    const c0 = cpuMs();
    for (const inputs of params) await rt.run(source, data, { mode: "auto", inputs });
    return (cpuMs() - c0) / params.length;
  };
  const hosts: Host[] = [
    warmHost("in-process", createInProcessEngine(), source, rows, nTrials),
    warmHost("threads x1 warm", createNodeEngine(1), source, rows, nTrials),
    warmHost("threads x2 warm", createNodeEngine(2), source, rows, nTrials),
    await httpHost("HTTP /optimize x2", 2, source, rows, nTrials),
    coldHost("CLI x1 cold pool", 1, source, rows, nTrials),
    coldHost("CLI x2 cold pool", 2, source, rows, nTrials),
  ];
  const plain: number[] = [];
  const cost = hosts.map(() => [] as number[]);
  const wall = hosts.map(() => [] as number[]);
  const trials = hosts.map(() => 0);
  try {
    // round 0 warms every host (threads start, kernels load, code is compiled and optimised)
    for (let r = 0; r <= rounds; r++) {
      const costs: number[] = [];
      let params: Params = [];
      for (let h = 0; h < hosts.length; h++) {
        const t0 = performance.now();
        const c0 = cpuMs();
        params = await hosts[h]!.study(r + 1);
        costs.push(cpuMs() - c0);
        wall[h]!.push(performance.now() - t0);
        trials[h] = params.length;
      }
      // the same trials as plain runs: what one trial would cost without a study around it
      const plainMs = await plainRuns(params);
      if (r === 0) {
        for (const w of wall) w.pop();
        continue;
      }
      plain.push(plainMs);
      for (let h = 0; h < hosts.length; h++) cost[h]!.push(costs[h]! / trials[h]! / plainMs);
    }
  } finally {
    for (const h of hosts) await h.close();
  }
  const p = spread(plain);
  log(
    `  optimize     plain run of ema_atr_stop (the trials' inputs), ${bars} bars: ${p.median.toFixed(1)} ms CPU (${p.min.toFixed(1)}-${p.max.toFixed(1)}), ${rounds} rounds`,
  );
  const out: OptimizeRow[] = hosts.map((h, i) => ({
    host: h.name,
    bars,
    trials: trials[i]!,
    rounds,
    ms: spread(wall[i]!),
    trialsPerSecond: spread(wall[i]!.map((ms) => (trials[i]! * 1000) / ms)),
    trialCost: spread(cost[i]!),
  }));
  for (const row of out) {
    const t = row.trialsPerSecond;
    const c = row.trialCost;
    log(
      `  optimize     ${row.host.padEnd(18)} ${row.trials} trials: ${t.median.toFixed(1)} trials/s (${t.min.toFixed(1)}-${t.max.toFixed(1)}), a trial ${c.median.toFixed(2)}x (${c.min.toFixed(2)}-${c.max.toFixed(2)}) a plain run's CPU`,
    );
  }
  return out;
}
