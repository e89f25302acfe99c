// resin bench: the benchmark suite. Everything runs in this one process so the ratios compare like
// with like: resin (interpret and compile) on the scripts in bench/ (bench10.pine first), the
// hand-written floors of bench/floors.mjs (bench10, ema_atr_stop, ema_cross_bracket, swing_state,
// loops: each checked by tests/bench/floors.test.ts to compute exactly what resin computes), and the
// npm package `pinets` (a devDependency, where installed) on the same Pine source. It reports ratios
// to the floors (and per-bar memory), never pass/fail: speed targets live here, not in unit tests.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Runtime } from "../runtime/index.js";
import type { Bar, ColumnarBars, Mode } from "../core/result.js";
import type { OptimizeRow } from "./bench-optimize.js";
import { formatSpread } from "./spread.js";
import type { WorkersRow } from "./bench-workers.js";

const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BENCH_DIR = join(PACKAGE_ROOT, "bench");

interface BenchOptions {
  sizes: number[];
  modes: Mode[];
  pinets: boolean;
  pinetsMaxBars: number;
  json: boolean;
  scripts: string[] | null;
  /** The optimize rows (bench-optimize.ts): a study on each Node host, over optimizeBars bars. */
  optimize: boolean;
  optimizeBars: number;
  optimizeTrials: number;
  /** Timed rounds per optimize host (each a study of optimizeTrials and one of bench-optimize.ts LONG_FACTOR times as many, at most N_TRIALS_CAP). */
  optimizeRounds: number;
  /** Optimize hosts to time (bench-optimize.ts HOSTS; default all). */
  optimizeHosts: string[] | null;
  /** The workers rows (bench-workers.ts: whole `resin optimize` processes on 1 and 2 workers), with the optimize rows. */
  workers: boolean;
  workersBars: number;
}

interface Row {
  script: string;
  bars: number;
  engine: string;
  ms: number;
  /** Median CPU time of the process (all threads), ms: steadier than wall time on a shared machine. */
  cpuMs: number;
  ratio: number | null;
  /** CPU-time ratio to the floor. */
  cpuRatio: number | null;
  /** Heap growth over the first timed run, before any GC (garbage included), beyond a copy of the input. */
  bytesPerBar: number | null;
  /** What the run keeps: heap after a GC with the result still held, against before the run. */
  keptPerBar?: number | null;
  note?: string;
}

/** The bench's bars: a seeded LCG random walk of one-minute bars (the floors and resin see the same columns). */
export function generateBars(n: number, seed = 42): ColumnarBars & { volume: Float64Array } {
  let s = seed >>> 0;
  const r = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
  const time = new Float64Array(n);
  const open = new Float64Array(n);
  const high = new Float64Array(n);
  const low = new Float64Array(n);
  const close = new Float64Array(n);
  const volume = new Float64Array(n);
  let p = 100;
  for (let i = 0; i < n; i++) {
    const op = p;
    p = Math.max(1, p * (1 + (r() - 0.5) * 0.02));
    open[i] = op;
    close[i] = p;
    high[i] = Math.max(op, p) * (1 + r() * 0.005);
    low[i] = Math.min(op, p) * (1 - r() * 0.005);
    volume[i] = 1000 + r() * 1000;
    time[i] = 1_600_000_000_000 + i * 60_000;
  }
  return { time, open, high, low, close, volume };
}

/** The same bars as row objects, for hosts that take JSON rows (an edge worker's /run, /studies). */
export function generateBarRows(n: number, seed = 42): Bar[] {
  const c = generateBars(n, seed);
  return Array.from({ length: n }, (_, i) => ({
    time: c.time[i]!,
    open: c.open[i]!,
    high: c.high[i]!,
    low: c.low[i]!,
    close: c.close[i]!,
    volume: c.volume[i]!,
  }));
}

type FloorColumns = {
  time: Float64Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
};
/** A floor computes a script's plot columns, or its trade list's rows (every cell of resin's Trade). */
type Floor = { script: string; kind: "plots" | "trades"; run: (d: FloorColumns) => unknown };
type Floors = Map<string, Floor>;

/** The hand-written floors of bench/floors.mjs by script name (none when the file is missing, e.g. in an installed package). */
async function loadFloors(): Promise<Floors> {
  const file = join(BENCH_DIR, "floors.mjs");
  if (!existsSync(file)) return new Map();
  const mod = (await import(pathToFileURL(file).href)) as { FLOORS: Floor[] };
  return new Map(mod.FLOORS.map((f) => [f.script, f]));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function repeatsFor(bars: number): number {
  return bars >= 1_000_000 ? 3 : bars >= 100_000 ? 5 : 9;
}

function heapNow(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

function collectGarbage(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) g();
}

function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function timeIt(
  fn: () => Promise<unknown> | unknown,
  repeats: number,
  probeKept = false,
): Promise<{ ms: number; cpuMs: number; bytes: number | null; kept: number | null }> {
  // warm-up: JIT tiers and kernel compilation (a short run needs a few passes before V8 optimises it;
  // the floors' plain loops only reach their steady speed on the third or so)
  for (let w = 0; w < (repeats >= 5 ? 3 : 1); w++) await fn();
  const times: number[] = [];
  const cpu: number[] = [];
  let bytes: number | null = null;
  for (let i = 0; i < repeats; i++) {
    collectGarbage();
    const before = heapNow();
    const c0 = cpuNow();
    const t0 = performance.now();
    const out = await fn();
    times.push(performance.now() - t0);
    cpu.push(cpuNow() - c0);
    if (i === 0 && (globalThis as { gc?: unknown }).gc) bytes = heapNow() - before;
    void out;
  }
  return { ms: median(times), cpuMs: median(cpu), bytes, kept: probeKept ? await keptBytes(fn) : null };
}

/**
 * What one run's result keeps alive: the heap after a GC with KEPT_PROBES results held, against the
 * heap after a GC before them, per result. Untimed. (A runtime's cache of its last run is replaced
 * by each run, so it cancels out; one run alone against the heap before it would net it against the
 * previous run's.)
 */
const KEPT_PROBES = 3;
export async function keptBytes(fn: () => Promise<unknown> | unknown): Promise<number | null> {
  if (!(globalThis as { gc?: unknown }).gc) return null;
  const before = await settledHeap();
  const held: unknown[] = [];
  for (let i = 0; i < KEPT_PROBES; i++) held.push(await fn());
  const kept = ((await settledHeap()) - before) / held.length;
  held.length = 0;
  return kept;
}

/**
 * The heap (heapUsed + arrayBuffers) once a forced GC has nothing more to free. A GC frees dead
 * ArrayBuffers' memory on a background thread, after gc() has returned, and `arrayBuffers` counts them
 * until then: on a loaded machine one gc() and an immediate reading counted 2-7 MB of dead typed
 * arrays as kept. So: collect, let a turn of the event loop pass, and again, until a reading does not
 * fall (at most 6 rounds).
 */
async function settledHeap(): Promise<number> {
  let last = Infinity;
  for (let round = 0; round < 6; round++) {
    collectGarbage();
    await new Promise((done) => setTimeout(done, round === 0 ? 0 : 5));
    const now = heapNow();
    if (now >= last - 4096) return Math.min(now, last);
    last = now;
  }
  return last;
}

function loadScripts(only: string[] | null): { name: string; source: string }[] {
  if (!existsSync(BENCH_DIR)) return [];
  // bench10 first (the README's table), then the others by name
  const names = readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(".pine"))
    .map((f) => f.slice(0, -5))
    .sort((a, b) => (a === "bench10" ? -1 : b === "bench10" ? 1 : a < b ? -1 : 1));
  const scripts = names.map((name) => ({ name, source: readFileSync(join(BENCH_DIR, `${name}.pine`), "utf8") }));
  return only ? scripts.filter((s) => only.includes(s.name)) : scripts;
}

async function loadPinets(): Promise<
  null | ((bars: ColumnarBars & { volume: Float64Array }, source: string) => Promise<unknown>)
> {
  try {
    const mod = (await import("pinets")) as {
      PineTS: new (candles: unknown[]) => { run(src: string): Promise<unknown> };
    };
    return async (bars, source) => {
      const n = bars.close.length;
      const candles = new Array(n);
      for (let i = 0; i < n; i++) {
        candles[i] = {
          open: bars.open[i],
          high: bars.high[i],
          low: bars.low[i],
          close: bars.close[i],
          volume: bars.volume[i],
          openTime: bars.time[i],
          closeTime: bars.time[i] + 59_999,
        };
      }
      return new mod.PineTS(candles).run(source);
    };
  } catch {
    return null;
  }
}

export async function runBench(opts: BenchOptions, log: (line: string) => void): Promise<Row[]> {
  const rows: Row[] = [];
  const floors = await loadFloors();
  const pinets = opts.pinets ? await loadPinets() : null;
  const scripts = loadScripts(opts.scripts);
  for (const bars of opts.sizes) {
    const data = generateBars(bars);
    const inputBytes = bars * 6 * 8;
    const columns: FloorColumns = {
      time: data.time as Float64Array,
      open: data.open as Float64Array,
      high: data.high as Float64Array,
      low: data.low as Float64Array,
      close: data.close as Float64Array,
      volume: data.volume,
    };
    for (const script of scripts) {
      let floorMs: number | null = null;
      let floorCpu: number | null = null;
      const floor = floors.get(script.name);
      if (floor) {
        const t = await timeIt(() => floor.run(columns), repeatsFor(bars));
        floorMs = t.ms;
        floorCpu = t.cpuMs;
        rows.push({
          script: script.name,
          bars,
          engine: "floor (bench/floors.mjs)",
          ms: t.ms,
          cpuMs: t.cpuMs,
          ratio: 1,
          cpuRatio: 1,
          bytesPerBar: null,
        });
        log(
          `  floor        ${script.name.padEnd(12)} ${bars} bars  ${t.ms.toFixed(1)} ms (cpu ${t.cpuMs.toFixed(1)} ms)`,
        );
      }
      for (const mode of opts.modes) {
        const rt = new Runtime("BENCH:SYNTH", { timeframe: "1" });
        let note: string | undefined;
        const t = await timeIt(
          async () => {
            const res = await rt.run(script.source, data, { mode });
            // A trades floor returns the trade list's rows, which resin builds when they are read
            // (src/strategy/stats.ts): read here, the two do the same work.
            if (floor?.kind === "trades") void [res.strategy?.trades.length, res.strategy?.open_trades.length];
            if (res.error) note = `${res.error_kind}: ${res.error}`;
            else if (res.mode !== mode && mode !== "auto") note = `ran ${res.mode}`;
            return res;
          },
          repeatsFor(bars),
          true,
        );
        const ratio = floorMs ? t.ms / floorMs : null;
        const cpuRatio = floorCpu ? t.cpuMs / floorCpu : null;
        const bytesPerBar = t.bytes === null ? null : Math.max(0, (t.bytes - inputBytes) / bars);
        const keptPerBar = t.kept === null ? null : Math.max(0, t.kept / bars);
        rows.push({
          script: script.name,
          bars,
          engine: `resin ${mode}`,
          ms: t.ms,
          cpuMs: t.cpuMs,
          ratio,
          cpuRatio,
          bytesPerBar,
          keptPerBar,
          note,
        });
        log(
          `  resin ${mode.padEnd(9)} ${script.name.padEnd(9)} ${bars} bars  ${t.ms.toFixed(1)} ms (cpu ${t.cpuMs.toFixed(1)})${ratio ? `  ${ratio.toFixed(2)}x floor (cpu ${cpuRatio!.toFixed(2)}x)` : ""}${note ? `  (${note})` : ""}`,
        );
      }
      if (pinets && script.name === "bench10" && bars <= opts.pinetsMaxBars) {
        try {
          const t = await timeIt(() => pinets(data, script.source), bars >= 100_000 ? 1 : 3);
          const ratio = floorMs ? t.ms / floorMs : null;
          rows.push({
            script: script.name,
            bars,
            engine: "pinets",
            ms: t.ms,
            cpuMs: t.cpuMs,
            ratio,
            cpuRatio: floorCpu ? t.cpuMs / floorCpu : null,
            bytesPerBar: null,
          });
          log(
            `  pinets       ${script.name.padEnd(9)} ${bars} bars  ${t.ms.toFixed(1)} ms${ratio ? `  ${ratio.toFixed(1)}x floor` : ""}`,
          );
        } catch (err) {
          rows.push({
            script: script.name,
            bars,
            engine: "pinets",
            ms: NaN,
            cpuMs: NaN,
            ratio: null,
            cpuRatio: null,
            bytesPerBar: null,
            note: String(err).slice(0, 80),
          });
        }
      }
    }
  }
  return rows;
}

function formatTable(rows: Row[]): string {
  const out = [
    "| script | bars | engine | ms | cpu ms | x floor | x floor (cpu) | bytes/bar | kept B/bar | note |",
    "|---|---:|---|---:|---:|---:|---:|---:|---:|---|",
  ];
  const f = (x: number | null, d: number) => (x === null || !Number.isFinite(x) ? "" : x.toFixed(d));
  for (const r of rows) {
    out.push(
      `| ${r.script} | ${r.bars.toLocaleString("en-US")} | ${r.engine} | ${f(r.ms, 1) || "-"} | ${f(r.cpuMs, 1)} | ${f(r.ratio, 2)} | ${f(r.cpuRatio, 2)} | ${f(r.bytesPerBar, 0)} | ${f(r.keptPerBar ?? null, 0)} | ${r.note ?? ""} |`,
    );
  }
  return out.join("\n");
}

function formatOptimize(rows: OptimizeRow[]): string {
  const out = [
    "| optimize (ema_atr_stop) | bars | trials | rounds | trials/s (min-max) | a trial, x a plain run's CPU (min-max) | pooled | per study, ms (min-max) | a further trial, x (min-max) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  // (NaN when a round's two studies have as many trials: a short study at the trials' cap)
  const p = (s: OptimizeRow["fixedMs"], d: number) =>
    Number.isNaN(s.pooled) ? "-" : `${s.pooled.toFixed(d)} (${s.min.toFixed(d)}-${s.max.toFixed(d)})`;
  for (const r of rows)
    out.push(
      `| ${r.host} | ${r.bars.toLocaleString("en-US")} | ${r.trials} | ${r.rounds} | ${formatSpread(r.trialsPerSecond, 1)} | ${formatSpread(r.trialCost, 2)} | ${r.pooledCost.toFixed(2)} | ${p(r.fixedMs, 1)} | ${p(r.marginal, 2)} |`,
    );
  return out.join("\n");
}

function parseArgs(argv: string[]): BenchOptions | string {
  const opts: BenchOptions = {
    sizes: [10_000, 100_000, 1_000_000],
    modes: ["interpret", "compile"],
    pinets: true,
    pinetsMaxBars: 100_000,
    json: false,
    scripts: null,
    optimize: true,
    optimizeBars: 20_000,
    optimizeTrials: 32,
    optimizeRounds: 8,
    optimizeHosts: null,
    workers: true,
    workersBars: 100_000,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i] ?? "";
    if (a === "--sizes")
      opts.sizes = next()
        .split(",")
        .map((s) => Number(s.replace(/k$/i, "000").replace(/m$/i, "000000")));
    else if (a === "--quick") opts.sizes = [10_000, 100_000];
    else if (a === "--modes") opts.modes = next().split(",") as Mode[];
    else if (a === "--no-pinets") opts.pinets = false;
    else if (a === "--pinets-max") opts.pinetsMaxBars = Number(next());
    else if (a === "--scripts") opts.scripts = next().split(",");
    else if (a === "--json") opts.json = true;
    else if (a === "--no-optimize") opts.optimize = false;
    else if (a === "--optimize-bars") opts.optimizeBars = Number(next());
    else if (a === "--optimize-trials") opts.optimizeTrials = Number(next());
    else if (a === "--optimize-rounds") opts.optimizeRounds = Number(next());
    else if (a === "--optimize-hosts") opts.optimizeHosts = next().split(",");
    else if (a === "--no-workers") opts.workers = false;
    else if (a === "--workers-bars") opts.workersBars = Number(next());
    else if (a === "--help" || a === "-h") return "help";
    else return `unknown option '${a}'`;
  }
  if (opts.sizes.some((n) => !Number.isInteger(n) || n <= 0))
    return "--sizes takes positive integers, e.g. 10000,100000";
  if (!Number.isInteger(opts.optimizeBars) || opts.optimizeBars < 100) return "--optimize-bars takes an integer >= 100";
  if (!Number.isInteger(opts.optimizeTrials) || opts.optimizeTrials < 1 || opts.optimizeTrials > 200)
    return "--optimize-trials takes an integer from 1 to 200";
  if (!Number.isInteger(opts.optimizeRounds) || opts.optimizeRounds < 1)
    return "--optimize-rounds takes a positive integer";
  if (!Number.isInteger(opts.workersBars) || opts.workersBars < 100) return "--workers-bars takes an integer >= 100";
  return opts;
}

const HELP = `Usage: resin bench [--quick] [--sizes 10000,100000,1000000] [--modes interpret,compile]
                   [--scripts bench10,strategy] [--no-pinets] [--pinets-max N] [--json]
                   [--no-optimize] [--optimize-bars N] [--optimize-trials N] [--optimize-rounds N]
                   [--optimize-hosts "in-process,CLI default"] [--no-workers] [--workers-bars N]

Runs bench/*.pine (bench10.pine first) over generated bars in each mode, next to the hand-written
floors of bench/floors.mjs and the npm package pinets (when installed), in one process, and
prints a table of wall and CPU times, ratios to the floor, heap growth and kept bytes per bar (run node with --expose-gc
for memory). On a shared machine the CPU-time ratio is the steadier one. The optimize rows time
studies of ema_atr_stop (default 32 trials over 20,000 bars) on each Node host (in-process, warm worker
threads, HTTP /optimize, a cold pool as resin optimize has), 8 rounds (--optimize-rounds) of a study
and one of 4x the trials (at most 200, a study's cap): trials a second and a trial's CPU time as a multiple of a plain run's (the
plain runs in a process of their own, each process's CPU over whole rounds), pooled over the rounds,
and that cost split into what a study costs once (ms of CPU, the intercept of the two sizes) and
what each further trial costs (x a plain run's CPU, the slope). The workers rows (with the optimize
rows; --no-workers leaves them out) time whole \`resin optimize\` processes of 200 trials over 100,000
bars (--workers-bars) with --workers 1 and 2, TPE (the default) and random sampling, 3 rounds: their
wall and CPU times and how much sooner two workers end.`;

export async function command(argv: string[]): Promise<number> {
  const opts = parseArgs(argv);
  if (opts === "help") {
    console.log(HELP);
    return 0;
  }
  if (typeof opts === "string") {
    console.error(`resin bench: ${opts}\n\n${HELP}`);
    return 2;
  }
  const log = opts.json ? () => {} : (line: string) => console.log(line);
  log("resin bench (ratios are to the hand-written floor on the same bars, in this process)");
  const extras: Record<string, unknown> = {};
  try {
    const { benchParse } = await import("../lang/bench.js");
    const p = benchParse();
    extras.parse = p;
    log(`  parse: ${p.lines}-line script in ${p.ms.toFixed(2)} ms`);
  } catch (err) {
    log(`  parse benchmark unavailable: ${String(err)}`);
  }
  const rows = await runBench(opts, log);
  if (opts.optimize) {
    try {
      const { benchOptimize, HOSTS } = await import("./bench-optimize.js");
      const hosts = opts.optimizeHosts ?? [...HOSTS];
      const unknown = hosts.filter((h) => !(HOSTS as readonly string[]).includes(h));
      if (unknown.length) throw new Error(`unknown optimize hosts ${unknown.join(", ")} (known: ${HOSTS.join(", ")})`);
      extras.optimize = await benchOptimize(
        BENCH_DIR,
        opts.optimizeBars,
        generateBars,
        log,
        opts.optimizeTrials,
        opts.optimizeRounds,
        hosts as (typeof HOSTS)[number][],
      );
    } catch (err) {
      log(`  optimize benchmark unavailable: ${String(err)}`);
    }
    if (opts.workers)
      try {
        const { benchWorkers, REPO_DIR } = await import("./bench-workers.js");
        const o = {
          dir: REPO_DIR,
          bars: [opts.workersBars],
          trials: 200,
          samplers: ["auto", "random"],
          workers: 2,
          rounds: 3,
        };
        extras.workers = benchWorkers(o, log);
      } catch (err) {
        log(`  workers benchmark unavailable: ${String(err)}`);
      }
  }
  try {
    const { benchKernels } = await import("../kernels/bench.js");
    extras.kernels = await benchKernels(100_000);
  } catch (err) {
    log(`  kernel benchmark unavailable: ${String(err)}`);
  }
  if (opts.json) console.log(JSON.stringify({ rows, ...extras }, null, 2));
  else {
    console.log("\n" + formatTable(rows));
    if (extras.optimize) console.log(`\n${formatOptimize(extras.optimize as OptimizeRow[])}`);
    if (extras.workers) {
      const { formatWorkers } = await import("./bench-workers.js");
      console.log(`\n${formatWorkers(extras.workers as WorkersRow[])}`);
    }
    if (extras.kernels)
      console.log("\nkernels (ns/bar, WASM vs plain JS):\n" + JSON.stringify(extras.kernels, null, 1));
  }
  return 0;
}
