// The optimize rows of `resin bench` (issue 18): studies of bench/ema_atr_stop.pine over generated bars
// on each Node host, next to a plain in-process run of the same bars:
// - in-process (workerd, tests): the study's runner on the calling thread;
// - threads x1 / x2, warm: the worker-thread pool behind `resin optimize` and `/optimize`, kept across
//   studies as `resin serve` keeps it;
// - HTTP x2: POST /optimize over real HTTP on 127.0.0.1 to a server in this process (the server's
//   JSON both ways and the winner's full run for best_result included), from a client in a process of
//   its own; the bars as rows, as columns of numbers, and as columns of base64 float64 strings;
// - CLI, cold: `resin optimize`'s own engine and study (optimize.ts) made afresh for every study, as
//   one process makes it (the threads' start-up, module loading and JIT warm-up included), with
//   --workers 1 (no thread), --workers 2 (this thread and one more at most) and the default (one a
//   core); threads join once the study is long enough.
// Each host runs in its own child process (another host's idle threads and their collections would
// count against it otherwise), and the plain runs in another (plainRunner: each pays for its own
// garbage): warm-up rounds (one per thread of a warm pool), then rounds of a study and the same
// trials' inputs as plain runs right after it; each figure is the median of the rounds (min-max). A
// trial's cost is the host process's CPU time per trial over a round (worker threads included:
// process.cpuUsage counts every thread) over the plain process's CPU time per run, which other
// processes on the machine do not skew; trials/s is wall time and does. The browser pool needs a browser: `npm run bench:browser-optimize` (e2e/bench/optimize-cost.bench.ts).

import { type ChildProcess, fork } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { N_TRIALS_CAP, prepareStudy, runStudy, toBarArray, type OptimizeRequest } from "../optimize/index.js";
import { Runtime } from "../runtime/index.js";
import {
  createInProcessEngine,
  type Engine,
  studyTrialRunner,
  TRIAL_BROKER,
  trialsPerMessage,
} from "../server/engine.js";
import { createNodeEngine } from "../server/node/pool.js";
import { localStudy } from "./optimize.js";
import { studyEngine } from "./optimize-engine.js";
import type { Bar, ColumnarBars } from "../core/result.js";
import { type Spread, spread } from "./spread.js";

export type { Spread };

export interface OptimizeRow {
  host: string;
  bars: number;
  trials: number;
  rounds: number;
  /** Wall time of a study, ms. */
  ms: Spread;
  trialsPerSecond: Spread;
  /** CPU time of one trial (every thread of the host's process) over a plain run's CPU time (plainRunner). */
  trialCost: Spread;
  /**
   * The same over every round at once: the `trials` studies' CPU over their plain runs' CPU. Steadier than the
   * median: a round's window catches or misses a collection, and other processes' load moves a
   * round's runs by 10-20% on a shared machine (the CPU clock itself reads to the microsecond here;
   * docs/benchmarks.md, issue 18, session 14).
   */
  pooledCost: number;
  /**
   * The host's cost split by study size (splitCost over the rounds' studies of `trials` and of
   * LONG_FACTOR times as many): `fixedMs` what a study costs once whatever its size, ms of CPU;
   * `marginal` what one more trial costs over a plain run (x a plain run's CPU). Per round (median,
   * min-max) and over every round at once (pooled).
   */
  fixedMs: Spread & { pooled: number };
  marginal: Spread & { pooled: number };
}

/** The rounds' short studies' CPU over their plain runs' CPU (each round's cost is its study's CPU per trial over its plain run's). */
export function pooledCost(cost: readonly number[], plain: readonly number[]): number {
  let study = 0;
  let runs = 0;
  cost.forEach((c, i) => {
    study += c * plain[i]!;
    runs += plain[i]!;
  });
  return study / runs;
}

/**
 * A round's second study has this many times the trials of its first (the cost's slope and
 * intercept), up to the 200 trials a study takes (optimize/study.ts N_TRIALS_CAP).
 */
export const LONG_FACTOR = 4;

/** One study of a round: its trials, its CPU ms (the host process's, over its window) and a plain run's CPU ms. */
interface RoundStudy {
  trials: number;
  cpu: number;
  plain: number;
}

/** One round's two studies. */
export interface RoundPair {
  short: RoundStudy;
  long: RoundStudy;
}

/**
 * A host's cost as a line through each round's two studies (n and about LONG_FACTOR * n trials):
 * the slope over the plain run (marginal: a further trial's CPU over a plain run's, the plain runs
 * of both studies averaged by their count) and the intercept (fixedMs: CPU a study costs whatever
 * its size). Per round, and pooled (the line through the rounds' mean studies). NaN where the two
 * studies have as many trials.
 */
export function splitCost(rounds: readonly RoundPair[]): Pick<OptimizeRow, "fixedMs" | "marginal"> {
  const n = rounds[0]?.short.trials ?? 0;
  const m = rounds[0]?.long.trials ?? 0;
  const line = (shortCpu: number, longCpu: number, plain: number) => {
    const slope = m > n ? (longCpu - shortCpu) / (m - n) : Number.NaN;
    return { fixed: shortCpu - n * slope, marginal: slope / plain };
  };
  const plainOf = (r: RoundPair) => (r.short.plain * n + r.long.plain * m) / (n + m);
  const each = rounds.map((r) => line(r.short.cpu, r.long.cpu, plainOf(r)));
  const mean = (f: (r: RoundPair) => number) => rounds.reduce((a, r) => a + f(r), 0) / rounds.length;
  const pooled = line(
    mean((r) => r.short.cpu),
    mean((r) => r.long.cpu),
    mean(plainOf),
  );
  return {
    fixedMs: { ...spread(each.map((e) => e.fixed)), pooled: pooled.fixed },
    marginal: { ...spread(each.map((e) => e.marginal)), pooled: pooled.marginal },
  };
}

const SPACE = {
  params: [
    { name: "Fast length", kind: "int", min: 8, max: 16, step: 1 },
    { name: "Slow length", kind: "int", min: 20, max: 34, step: 2 },
    { name: "ATR multiple", kind: "float", min: 1, max: 3, step: 0.5 },
  ],
};

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** A study's trials' params, in index order (every host draws the same ones for the same seed). */
type Params = Record<string, unknown>[];
/**
 * A study's trials' params, and the CPU ms its client spent in this process that the host did not
 * (the HTTP host's client writing the request's JSON and reading the answer's).
 */
type Study = (seed: number, nTrials: number) => Promise<{ params: Params; clientMs?: number }>;

interface Host {
  name: string;
  /** Runs one study of nTrials trials with this seed; resolves with its trials' params. */
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
function engineStudy(engine: Engine, source: string, rows: Bar[]): Study {
  return async (seed, nTrials) => {
    const s = prepareStudy(studyRequest(source, rows, nTrials, seed));
    const job = { script: source, symbol: "CHART", options: { mode: "auto" as const } };
    const perMessage = trialsPerMessage(engine, s.nTrials);
    const res = await runStudy(s, studyTrialRunner(engine, s, { ...job, broker: TRIAL_BROKER }, {}, perMessage), {
      concurrency: engine.concurrency,
      batchSize: perMessage,
    });
    return { params: res.trials.map((t) => t.params) };
  };
}

function warmHost(name: string, engine: Engine & { close?(): Promise<void> }, source: string, rows: Bar[]) {
  return { name, study: engineStudy(engine, source, rows), close: async () => engine.close?.() } satisfies Host;
}

/**
 * `resin optimize` as one process runs it: a fresh engine for every study, closed after it
 * (optimize-engine.ts studyEngine: `workers` counts the CLI's own thread, so N - 1 worker threads at
 * most; undefined is the default, one per core. Either way the study starts on the CLI's thread alone
 * and lets threads in once its remaining work pays for their start-up).
 */
function cliHost(name: string, workers: number | undefined, source: string, rows: Bar[]): Host {
  return {
    name,
    study: async (seed, n) => {
      const engine = studyEngine(workers);
      try {
        const study = prepareStudy(studyRequest(source, rows, n, seed));
        const res = await localStudy(engine, study, source);
        return { params: res.trials.map((t) => t.params) };
      } finally {
        await engine.close?.();
      }
    },
    close: async () => {},
  };
}

/**
 * POST /optimize to a server on 127.0.0.1 in this process, on a pool of `threads`, with the bars as
 * rows or (`columnar`) as columns. The client is a process of its own (bench-optimize-client.ts)
 * when the built one exists, so this process's CPU time is the server's; from sources it is this
 * process, and only its JSON is left out of the count (clientMs).
 */
async function httpHost(
  name: string,
  threads: number,
  source: string,
  rows: Bar[],
  cols: ColumnarBars,
  form: BodyForm,
): Promise<Host> {
  const { startServer } = await import("../server/node/host.js");
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    engine: createNodeEngine(threads),
    env: {},
    out: () => {},
    err: () => {},
  });
  const url = new URL("/optimize", server.url).href;
  const entry = new URL("./bench-optimize-client.js", import.meta.url);
  if (import.meta.url.endsWith(".js") && existsSync(fileURLToPath(entry))) {
    const client = fork(fileURLToPath(entry), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    return {
      name,
      study: (seed, n) =>
        new Promise((resolve, reject) => {
          const { data: _rows, ...body } = studyRequest(source, rows, n, seed);
          client.once("message", (m) => {
            const r = m as { params?: Params; error?: string };
            if (r.params) resolve({ params: r.params });
            else reject(new Error(r.error ?? "bench client failed"));
          });
          client.send({ url, body, bars: rows.length, form });
        }),
      close: async () => {
        client.disconnect();
        await server.close(5);
      },
    };
  }
  const data = barsInForm(cols, form);
  return {
    name,
    study: async (seed, n) => {
      let c0 = cpuMs();
      const body = JSON.stringify({ ...studyRequest(source, rows, n, seed), data });
      let clientMs = cpuMs() - c0;
      const post = () => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
      // (once more on a reset: a kept-alive socket the server closed while it sat idle between rounds)
      const res = await post().catch(post);
      const text = await res.text();
      c0 = cpuMs();
      const json = JSON.parse(text) as { status: string; trials?: { params: Params[0] }[]; message?: string };
      clientMs += cpuMs() - c0;
      if (json.status !== "success") throw new Error(`/optimize: ${json.message ?? res.status}`);
      return { params: json.trials!.map((t) => t.params), clientMs };
    },
    close: async () => void (await server.close(5)),
  };
}

/** How the body carries the bars: rows, columns of numbers, or columns as base64 float64 strings. */
export type BodyForm = "rows" | "columns" | "base64";

/** A column as base64 of its little-endian float64 values (what /optimize decodes back). */
export function base64Column(col: ArrayLike<number>): string {
  const view = new DataView(new ArrayBuffer(col.length * 8));
  for (let i = 0; i < col.length; i++) view.setFloat64(i * 8, col[i]!, true);
  return Buffer.from(view.buffer).toString("base64");
}

/** Generated bars in a body's form. */
export function barsInForm(cols: ColumnarBars, form: BodyForm): unknown {
  if (form === "rows") return toBarArray(cols);
  const names = (["time", "open", "high", "low", "close", "volume"] as const).filter((k) => cols[k]);
  return Object.fromEntries(names.map((k) => [k, form === "base64" ? base64Column(cols[k]!) : Array.from(cols[k]!)]));
}

/** The hosts by name, as a child process builds one (runHost). */
export const HOSTS = [
  "in-process",
  "threads x1 warm",
  "threads x2 warm",
  "HTTP /optimize x2",
  "HTTP /optimize x2 columns",
  "HTTP /optimize x2 base64",
  "CLI --workers 1",
  "CLI --workers 2",
  "CLI default",
] as const;
export type HostName = (typeof HOSTS)[number];

async function makeHost(name: HostName, source: string, cols: ColumnarBars): Promise<Host> {
  const rows = toBarArray(cols);
  switch (name) {
    case "in-process":
      return warmHost(name, createInProcessEngine(), source, rows);
    case "threads x1 warm":
      return warmHost(name, createNodeEngine(1), source, rows);
    case "threads x2 warm":
      return warmHost(name, createNodeEngine(2), source, rows);
    case "HTTP /optimize x2":
      return httpHost(name, 2, source, rows, cols, "rows");
    case "HTTP /optimize x2 columns":
      return httpHost(name, 2, source, rows, cols, "columns");
    case "HTTP /optimize x2 base64":
      return httpHost(name, 2, source, rows, cols, "base64");
    case "CLI --workers 1":
      return cliHost(name, 1, source, rows);
    case "CLI --workers 2":
      return cliHost(name, 2, source, rows);
    case "CLI default":
      return cliHost(name, undefined, source, rows);
  }
}

/**
 * A host's warm-up rounds: one per thread of its pool, so that each thread of a warm pool has run
 * as many trials before the timed rounds as the one thread of x1 (a thread's code is optimised by the
 * trials it runs itself; with one round, each of two threads had run half of them and was still
 * warming up in the first timed rounds). The CLI hosts make a fresh engine for every study.
 */
export function warmUpRounds(name: HostName): number {
  return name === "threads x2 warm" || name.startsWith("HTTP /optimize x2") ? 2 : 1;
}

/** Plain runs of the trials' inputs, answered with their CPU ms per run (see plainRunner). */
type PlainRuns = (params: Params) => Promise<number>;

/**
 * Plain runs in this process: the same script, bar columns, broker settings and each trial's inputs,
 * the run's equity figures kept (a trial skips them: TRIAL_BROKER; both leave out the events).
 * `apart` (a process that does nothing else): the CPU since the previous answer, so that collections
 * of the runs' garbage that fall between rounds count too; else the runs' own window.
 */
export function plainRunsHere(source: string, data: ColumnarBars, apart = false): PlainRuns {
  // (a plain run's result whole but for the events: its equity figures too, which a trial skips)
  const rt = new Runtime("CHART", { broker: { ...TRIAL_BROKER, track_equity: true } });
  let last = cpuMs();
  return async (params) => {
    if (!apart) last = cpuMs();
    for (const inputs of params) await rt.run(source, data, { mode: "auto", inputs });
    const now = cpuMs();
    const ms = (now - last) / params.length;
    last = now;
    return ms;
  };
}

/** bench-optimize-host.js next to this module when it runs built, else null (sources under a test runner). */
function hostEntry(): string | null {
  const entry = fileURLToPath(new URL("./bench-optimize-host.js", import.meta.url));
  return import.meta.url.endsWith(".js") && existsSync(entry) ? entry : null;
}

/** The host entry in a child process with the parent's Node flags (--expose-gc) but not one that only applies to its own entry. */
function forkHost(entry: string, args: string[]): ChildProcess {
  return fork(entry, args, {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    execArgv: process.execArgv.filter((a) => !a.startsWith("--input-type")),
  });
}

/**
 * The plain runs in a process of their own (bench-optimize-host.ts `plain`, which reads
 * benchDir/ema_atr_stop.pine and generates `bars` bars itself, as benchOptimize's hosts do) when the
 * build exists, else in this one (`here`: their CPU is this process's too). Why a process of their own: a study and plain runs in one process each pay for
 * the other's garbage. The plain runs allocate several MB each on this thread's heap and the study
 * little, so the collections (and V8's helper threads' concurrent marking) that the plain runs made
 * due fell in the next study's window: x2 warm read 1.35 / 1.43 that way and 1.26 / 1.19 with the
 * plain runs apart, their own runs 10-14% dearer (docs/benchmarks.md, issue 18, session 13).
 */
async function plainRunner(
  benchDir: string,
  bars: number,
  source: string,
  data: ColumnarBars,
): Promise<{ runs: PlainRuns; here: boolean; close(): void }> {
  const entry = hostEntry();
  if (entry === null) return { runs: plainRunsHere(source, data), here: true, close: () => {} };
  const child = forkHost(entry, ["plain", benchDir, String(bars)]);
  let waiting: { resolve(ms: number): void; reject(err: Error): void } | null = null;
  const reply = (): Promise<number> => new Promise((resolve, reject) => void (waiting = { resolve, reject }));
  child.on("message", (m) => waiting?.resolve((m as { ms: number }).ms));
  child.on("exit", () => waiting?.reject(new Error("optimize bench plain runs exited")));
  await reply();
  return {
    runs: (params) => {
      const answer = reply();
      child.send({ params });
      return answer;
    },
    here: false,
    close: () => child.disconnect(),
  };
}

/** One host's rounds, in the process that calls it. */
export interface HostRounds {
  trials: number;
  /** Per timed round: a trial's CPU over a plain run's, the study's wall ms, a plain run's CPU ms. */
  cost: number[];
  wall: number[];
  plain: number[];
  /** Per timed round: its two studies' CPU and plain runs (splitCost). */
  pairs: RoundPair[];
}

/**
 * One host's studies in this process: warm-up rounds (warmUpRounds), then `rounds` rounds of a study
 * of `nTrials` and one of LONG_FACTOR times as many (which first alternates by round), each followed
 * by the same trials' inputs as plain runs (what one trial would cost without a study around it;
 * plainRunner). A study's CPU is this process's from its start to the next study's, minus the
 * client's share: the collections its garbage makes due after the study ended (while the plain runs
 * go on elsewhere) count too. `cost`, `wall` and `plain` are the `nTrials` studies' (the pooled
 * ratio's, as before the long studies were added).
 */
export async function runHost(
  name: HostName,
  source: string,
  data: ColumnarBars,
  nTrials: number,
  rounds: number,
  benchDir: string,
): Promise<HostRounds> {
  const plain = await plainRunner(benchDir, data.time.length, source, data);
  const host = await makeHost(name, source, data);
  const out: HostRounds = { trials: 0, cost: [], wall: [], plain: [], pairs: [] };
  try {
    let c0 = cpuMs();
    // one study and its plain runs: the study's CPU (to the next study's start) and a plain run's
    const study = async (seed: number, n: number) => {
      const t0 = performance.now();
      const { params, clientMs = 0 } = await host.study(seed, n);
      const wall = performance.now() - t0;
      // (plain runs in this process: the study's window ends before them, as their CPU is this one's)
      const end = plain.here ? cpuMs() : 0;
      const plainMs = await plain.runs(params);
      const c1 = cpuMs();
      const cpu = (plain.here ? end : c1) - c0 - clientMs;
      c0 = c1;
      return { trials: params.length, cpu, wall, plain: plainMs };
    };
    // warm-up rounds first (threads start, kernels load, code is compiled and optimised), then the
    // timed ones (seeds 2..rounds + 1, as before warm-up rounds were counted per thread)
    for (let r = 1 - warmUpRounds(name); r <= 0; r++) await study(1000 - r, nTrials);
    const longTrials = Math.min(nTrials * LONG_FACTOR, N_TRIALS_CAP);
    for (let r = 1; r <= rounds; r++) {
      const seed = r + 1;
      const longFirst = r % 2 === 0;
      const long = longFirst ? await study(seed, longTrials) : null;
      const short = await study(seed, nTrials);
      const pair = { short, long: long ?? (await study(seed, longTrials)) };
      out.trials = short.trials;
      out.cost.push(short.cpu / short.trials / short.plain);
      out.wall.push(short.wall);
      out.plain.push(short.plain);
      out.pairs.push(pair);
    }
  } finally {
    plain.close();
    await host.close();
  }
  return out;
}

/**
 * Every host, each in its own child process (bench-optimize-host.ts) so that one host's idle threads
 * and their garbage collections are not counted against another's; in this process when there is no
 * built entry (sources under a test runner).
 */
export async function benchOptimize(
  benchDir: string,
  barCount: number,
  /** bench.ts generateBars (passed in: this module is loaded by bench.ts, not the other way round) */
  generateBars: (n: number) => ColumnarBars,
  log: (line: string) => void,
  nTrials = 32,
  rounds = 8,
  hosts: readonly HostName[] = HOSTS,
): Promise<OptimizeRow[]> {
  const entry = hostEntry();
  const out: OptimizeRow[] = [];
  const plain: number[] = [];
  for (const name of hosts) {
    const r: HostRounds = entry
      ? await inChild(entry, [name, benchDir, String(barCount), String(nTrials), String(rounds)])
      : await runHost(
          name,
          readFileSync(join(benchDir, "ema_atr_stop.pine"), "utf8"),
          generateBars(barCount),
          nTrials,
          rounds,
          benchDir,
        );
    plain.push(...r.plain);
    const row: OptimizeRow = {
      host: name,
      bars: barCount,
      trials: r.trials,
      rounds,
      ms: spread(r.wall),
      trialsPerSecond: spread(r.wall.map((ms) => (r.trials * 1000) / ms)),
      trialCost: spread(r.cost),
      pooledCost: pooledCost(r.cost, r.plain),
      ...splitCost(r.pairs),
    };
    out.push(row);
    const t = row.trialsPerSecond;
    const c = row.trialCost;
    const { fixedMs: f, marginal: m } = row;
    log(
      `  optimize     ${name.padEnd(17)} ${row.trials} trials: ${t.median.toFixed(1)} trials/s (${t.min.toFixed(1)}-${t.max.toFixed(1)}), a trial ${c.median.toFixed(2)}x (${c.min.toFixed(2)}-${c.max.toFixed(2)}, every round at once ${row.pooledCost.toFixed(2)}x) a plain run's CPU; ` +
        `per study ${f.pooled.toFixed(1)} ms (${f.min.toFixed(1)}-${f.max.toFixed(1)}) + a trial ${m.pooled.toFixed(2)}x (${m.min.toFixed(2)}-${m.max.toFixed(2)}) (studies of ${row.trials} and ${r.pairs[0]?.long.trials})`,
    );
  }
  const p = spread(plain);
  log(
    `  optimize     plain run of ema_atr_stop (the trials' inputs), ${barCount} bars: ${p.median.toFixed(1)} ms CPU (${p.min.toFixed(1)}-${p.max.toFixed(1)})`,
  );
  return out;
}

function inChild(entry: string, args: string[]): Promise<HostRounds> {
  return new Promise((resolve, reject) => {
    const child = forkHost(entry, args);
    let got: HostRounds | null = null;
    child.on("message", (m) => void (got = m as HostRounds));
    child.on("error", reject);
    child.on("exit", (code) =>
      got ? resolve(got) : reject(new Error(`optimize bench host ${args[0]} exited with ${code}`)),
    );
  });
}
