#!/usr/bin/env node
// Whether `resin optimize` on N workers beats one (issue 18): whole `resin optimize` processes, as a
// user starts them (cold: module loading, JIT warm-up and the threads' start-up included), on
// bench/ema_atr_stop.pine over seeded random-walk bars, with --workers 1 and --workers 2 (or --workers
// given) interleaved, --rounds rounds per size and sampler. Prints each one's median wall and CPU time
// (user + system of the process and its threads, as the kernel counts a finished child) with their
// range, and the wall-time speed-up of the larger over 1. Whether a study lets threads in is the CLI's
// own rule (src/cli/optimize-threads.ts): on a loaded machine the threads wait for more work ahead.
//   node scripts/optimize-workers.mjs [--dir .] [--bars 20000,50000,100000] [--trials 200]
//        [--samplers auto,random] [--workers 2] [--rounds 3]
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    dir: { type: "string", default: "." },
    bars: { type: "string", default: "20000,50000,100000" },
    trials: { type: "string", default: "200" },
    samplers: { type: "string", default: "auto,random" },
    workers: { type: "string", default: "2" },
    rounds: { type: "string", default: "3" },
  },
});

// the bench's space over the strategy's inputs (it declares no minval/maxval pairs of its own)
const SPACE = JSON.stringify({
  params: [
    { name: "Fast length", kind: "int", min: 5, max: 30 },
    { name: "Slow length", kind: "int", min: 20, max: 80 },
    { name: "ATR multiple", kind: "float", min: 0.5, max: 4 },
  ],
});
const dir = resolve(values.dir);
const bin = resolve(dir, "bin/resin.js");
const script = resolve(dir, "bench/ema_atr_stop.pine");

/** One `resin optimize` process: its wall and CPU seconds. */
function study(bars, sampler, workers, seed) {
  const args = [bin, "optimize", script, "--json", "--space", SPACE, "--trials", values.trials, "--bars", bars];
  args.push("--sampler", sampler, "--seed", String(seed), "--workers", String(workers));
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 28 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`resin optimize exited ${r.status}: ${r.stderr}`);
  return { wall, best: JSON.parse(r.stdout).best_params };
}

/**
 * The CPU seconds of this process's waited-for children so far (Linux: /proc/self/stat's cutime and
 * cstime, fields 16 and 17, in ticks of 1/100 s; NaN elsewhere): spawnSync reports none of its own.
 */
function childrenCpu() {
  try {
    const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
    return (Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;

console.log(
  `${cpus().length} cores, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}; ${values.trials} trials`,
);
for (const sampler of values.samplers.split(",")) {
  for (const bars of values.bars.split(",")) {
    const by = { 1: { wall: [], cpu: [] }, [values.workers]: { wall: [], cpu: [] } };
    let best = null;
    for (let round = 0; round < Number(values.rounds); round++)
      for (const w of Object.keys(by)) {
        const c0 = childrenCpu();
        const r = study(bars, sampler, w, 1);
        by[w].wall.push(r.wall);
        by[w].cpu.push(childrenCpu() - c0);
        // the same study gives the same winner wherever its trials ran
        const b = JSON.stringify(r.best);
        if (best !== null && b !== best) throw new Error(`--workers ${w} found another winner: ${b} against ${best}`);
        best = b;
      }
    const line = Object.entries(by).map(([w, x]) => `--workers ${w}: wall ${fmt(x.wall)} s, CPU ${fmt(x.cpu)} s`);
    const speedUp = median(by[1].wall) / median(by[values.workers].wall);
    console.log(
      `${sampler} ${bars} bars: ${line.join("; ")}; ${values.workers} workers ${speedUp.toFixed(2)}x as fast`,
    );
  }
}
