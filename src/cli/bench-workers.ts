// Whether `resin optimize` on N workers beats one (issue 18): whole `resin optimize` processes, as a
// user starts them (cold: module loading, JIT warm-up and the threads' start-up included), over
// bench/ema_atr_stop.pine and seeded random-walk bars (`--bars`), with `--workers 1` and `--workers N`
// interleaved round by round. Each gives its median wall time and CPU time (the process and its
// threads, as the kernel counts a finished child: Linux only) with their range, and the wall-time
// speed-up of N over 1. Both must find the same winner (where trials run never changes the result).
// Whether a study lets threads in is the CLI's own rule (optimize-threads.ts): a study under about a
// second of runs, or one on a machine with no core to spare, keeps to the CLI's thread. `resin bench`
// prints these rows after the optimize rows; scripts/optimize-workers.mjs runs them alone.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatSpread, type Spread, spread } from "./spread.js";

export interface WorkersOptions {
  /** The repository (bin/resin.js, bench/ema_atr_stop.pine). */
  dir: string;
  bars: readonly number[];
  trials: number;
  /** `--sampler` values (auto: TPE from 20 trials, the CLI's default). */
  samplers: readonly string[];
  /** The workers compared with one. */
  workers: number;
  rounds: number;
}

export interface WorkersRow {
  sampler: string;
  bars: number;
  trials: number;
  rounds: number;
  workers: number;
  /** Seconds a study took on one worker and on `workers`: wall, and CPU (NaN where not known). */
  one: { wall: Spread; cpu: Spread };
  many: { wall: Spread; cpu: Spread };
  /** One worker's median wall time over `workers`'. */
  speedUp: number;
}

/** The repository this module runs from (dist/cli or src/cli, two levels down). */
export const REPO_DIR = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The space over the strategy's inputs (it declares no minval/maxval pairs of its own): wider than the
 * optimize rows' (bench-optimize.ts), as a user's first search would be.
 */
const SPACE = JSON.stringify({
  params: [
    { name: "Fast length", kind: "int", min: 5, max: 30 },
    { name: "Slow length", kind: "int", min: 20, max: 80 },
    { name: "ATR multiple", kind: "float", min: 0.5, max: 4 },
  ],
});

/**
 * The CPU seconds of this process's finished children so far: /proc/self/stat's cutime and cstime
 * (fields 16 and 17, ticks of 1/100 s); NaN where there is no /proc. (spawnSync reports none.)
 */
function childrenCpu(): number {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** One `resin optimize` process: its wall and CPU seconds and the winner it found. */
function study(o: WorkersOptions, bars: number, sampler: string, workers: number) {
  const args = [join(o.dir, "bin", "resin.js"), "optimize", join(o.dir, "bench", "ema_atr_stop.pine")];
  args.push("--json", "--space", SPACE, "--trials", String(o.trials), "--bars", String(bars));
  args.push("--sampler", sampler, "--seed", "1", "--workers", String(workers));
  const c0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`resin optimize exited ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { wall, cpu: childrenCpu() - c0, best: JSON.stringify(JSON.parse(r.stdout).best_params) };
}

export function benchWorkers(o: WorkersOptions, log: (line: string) => void = () => {}): WorkersRow[] {
  const rows: WorkersRow[] = [];
  for (const sampler of o.samplers)
    for (const bars of o.bars) {
      const seen = {
        one: { wall: [] as number[], cpu: [] as number[] },
        many: { wall: [] as number[], cpu: [] as number[] },
      };
      let best: string | null = null;
      for (let round = 0; round < o.rounds; round++)
        for (const [key, w] of [
          ["one", 1],
          ["many", o.workers],
        ] as const) {
          const s = study(o, bars, sampler, w);
          seen[key].wall.push(s.wall);
          seen[key].cpu.push(s.cpu);
          if (best !== null && s.best !== best)
            throw new Error(`--workers ${w} found another winner: ${s.best} against ${best}`);
          best = s.best;
        }
      const row: WorkersRow = {
        sampler,
        bars,
        trials: o.trials,
        rounds: o.rounds,
        workers: o.workers,
        one: { wall: spread(seen.one.wall), cpu: spread(seen.one.cpu) },
        many: { wall: spread(seen.many.wall), cpu: spread(seen.many.cpu) },
        speedUp: spread(seen.one.wall).median / spread(seen.many.wall).median,
      };
      log(`  ${formatWorkersRow(row)}`);
      rows.push(row);
    }
  return rows;
}

const f = (s: Spread) => formatSpread(s, 2);

export function formatWorkersRow(r: WorkersRow): string {
  return (
    `resin optimize ${r.sampler}, ${r.bars.toLocaleString("en-US")} bars, ${r.trials} trials: --workers 1 ` +
    `${f(r.one.wall)} s (CPU ${f(r.one.cpu)}), --workers ${r.workers} ${f(r.many.wall)} s (CPU ${f(r.many.cpu)}): ` +
    `${r.speedUp.toFixed(2)}x as fast`
  );
}

export function formatWorkers(rows: readonly WorkersRow[]): string {
  const out = [
    "| resin optimize (ema_atr_stop, whole processes) | bars | trials | rounds | --workers 1, s (min-max) | CPU s | --workers N, s (min-max) | CPU s | N over 1 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows)
    out.push(
      `| ${r.sampler}, N = ${r.workers} | ${r.bars.toLocaleString("en-US")} | ${r.trials} | ${r.rounds} | ${f(r.one.wall)} | ${f(r.one.cpu)} | ${f(r.many.wall)} | ${f(r.many.cpu)} | ${r.speedUp.toFixed(2)}x |`,
    );
  return out.join("\n");
}
